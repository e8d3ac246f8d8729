# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# SLOB, 6.1's third allocator (removed in 6.4), booted: the census,
# hitrate's counts, the self-test and the merge check, with what SLOB
# lacks said rather than faked. Its config's fairness against SLAB's is
# checked in tests/e2e/variants.sh without building it; the kernel is
# `make test-slow`'s alone because it needs a build of its own and says
# nothing about the allocator linux-mm works on today.
. tests/e2e/lib.sh

plan 25

census_held slob
# SLOB's census total is one page above /proc/meminfo's Slab at every
# snapshot: the file's open() takes a page for its own objects before the
# census begins, which SLOB, without per-CPU caches, does at every retry
# (docs/census.md); the census says so with its residual, never hides it.
check "slob: a total off /proc/meminfo's Slab is reported with its residual" \
	jqt "$TMP/slob.json" "${snaps}[0:3] | all(.census.checks.meminfo == \"exact\" or
		(.census.checks.failures | any(startswith(\"meminfo:\") and test(\"residual [+-][0-9]+\"))))"
check "slob: no cache records, no per-CPU field anywhere, its free lists in the total" \
	jqt "$TMP/slob.json" "$snaps | all(.census | (.caches == []) and
		([.total | keys[] | select(test(\"^(cpu_|free_cpu|free_shared|free_alien)\"))] == []) and
		(.total | has(\"free_slob_small\")))"
check "slob: no /proc/slabinfo, so no slabinfo verdict" \
	jqt "$TMP/slob.json" "$snaps | all(.slabinfo == null and .census.checks.slabinfo == null)"

hitrate_runs slob
check "slob: no per-CPU cache, pages only" \
	jqt "$TMP/slob.json" '[.tests[] | .extra.per_cpu_cache[0] == false and
		(.metrics | keys == ["slab_pages_alloc_per1k", "slab_pages_freed_per1k"])] | all'
check "slob: batches of 64 KiB take new pages" \
	jqt "$TMP/slob.json" '[.tests[0:3][].metrics.slab_pages_alloc_per1k.samples[]] | all(. > 0)'

selftest_each slob
check "slob: nolock skipped with the reason" \
	grep -qx 'ok 12 nolock # SKIP kmalloc_nolock() is not in this kernel (Linux 6.18 on)' \
		"$TMP/selftest.ktap"
crosscheck slob "$(crosscheck_overhead)"
check "slob: no /proc/slabinfo, no overhead verdict" \
	jqt "$TMP/slob.json" '.tests[0].extra.slabinfo_check[0] | .agrees == null and .why == "no /proc/slabinfo"'

merge_runs slob
check "slob: never merges (no aliasing)" \
	jqt "$TMP/merge-slob.json" '[.tests[].extra.mergeable_aliased[0] | not] | all'
check "slob guest runs SLOB" \
	jqt "$TMP/merge-slob.json" '.guest.info.allocator == "SLOB" and .guest.config_matches_build'
check "slob has no /proc/slabinfo, recorded as null" \
	jqt "$TMP/merge-slob.json" '.boots[0].snapshots.before.slabinfo == null'
