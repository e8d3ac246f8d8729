# SPDX-License-Identifier: GPL-2.0
# kernels: slub-stats slub-7.3-stats
# shellcheck shell=bash
# The module's hit-rate probes against the allocator's own SLUB_STATS
# counters, 6.1's (CPU slabs) and 7.3's (sheaves), on the statistics
# kernels: their self-test, then tests/data/crosscheck.json (overhead,
# hitrate in every free order, caches) on each. The last kernels make
# test builds, so these checks run on their own, after module.sh's.
. tests/e2e/lib.sh

variants=(slub-stats slub-7.3-stats)
plan 22

selftest_each "${variants[@]}"

for v in "${variants[@]}"; do
	crosscheck "$v" tests/data/crosscheck.json
	slabinfo_agrees "$v"
done
check "caches: the same objects freed on both (seeded, as on module.sh's allocators)" \
	test "$(caches_live "${variants[@]}" | wc -l) $(caches_live "${variants[@]}" |
		sort -u | wc -l)" = "2 1"
# Within 1%, per counted repeat, for both slow paths, in every free order.
# shellcheck disable=SC2016 # $d, $c, $s and $n are jq's
check "slub-stats: hitrate probes match alloc_slowpath and free_slowpath within 1%" \
	jqt "$TMP/slub-stats.json" 'def near($c): (. - $c) as $d | ($d * $d) <= (0.01 * $c) * (0.01 * $c);
		[.tests[2,3,4,5] | .extra.slub_stats[0] as $s |
		 (.metrics.alloc_misses.samples | to_entries[] | $s.alloc_slowpath[.key] as $c | .value | near($c)),
		 (.metrics.free_misses.samples | to_entries[] | $s.free_slowpath[.key] as $c | .value | near($c))]
		| length == 24 and all'
# 64-byte objects live in order-0 slabs on SLUB: a page per slab.
for v in slub-stats slub-7.3-stats; do
	# shellcheck disable=SC2016
	check "$v: slab pages allocated and freed match alloc_slab and free_slab within 1%" \
		jqt "$TMP/$v.json" 'def near($c): (. - $c) as $d | ($d * $d) <= (0.01 * $c) * (0.01 * $c);
			[.tests[2,3,4] | .extra.slub_stats[0] as $s | (.extra.ops_per_repeat[0] / 1000) as $n |
			 (.metrics.slab_pages_alloc_per1k.samples | to_entries[] | $s.alloc_slab[.key] as $c | .value * $n | near($c)),
			 (.metrics.slab_pages_freed_per1k.samples | to_entries[] | $s.free_slab[.key] as $c | .value * $n | near($c))]
			| length == 18 and all'
done
check "slub-stats: the slow paths and slab allocations were taken at all" \
	jqt "$TMP/slub-stats.json" '[.tests[2,3,4,5].extra.slub_stats[0][][]] | all(. > 0)'
# SLUB frees one object per __slab_free; alloc hit rate and slow paths
# per 1000 are the same count.
check "slub-stats: one object per free slow path, hit rate and per-1000 figures agree" \
	jqt "$TMP/slub-stats.json" '[.tests[2,3,4,5].metrics |
		(.free_objects_per_slowpath.samples | all(. == 1)),
		([.alloc_hit_rate.samples, .alloc_slowpath_per1k.samples] | transpose |
		 all((.[0] - (100 - .[1] / 10)) | fabs < 0.002))] | all'
# 7.3's sheaves: each probe against the SLUB_STATS counter it stands
# for, per counted repeat, exactly (this thread alone uses the cache).
# shellcheck disable=SC2016 # $s, $m and $n are jq's
check "slub-7.3-stats: barn gets, puts, their failures, refilled and flushed objects match SLUB_STATS exactly" \
	jqt "$TMP/slub-7.3-stats.json" '[.tests[2,3,4,5] | .extra.slub_stats[0] as $s | .metrics as $m |
		["barn_get", "barn_get"], ["barn_get_fail", "barn_get_fail"], ["barn_put", "barn_put"],
		["barn_put_fail", "barn_put_fail"], ["sheaf_refill_objects", "sheaf_refill"],
		["sheaf_flush_objects", "sheaf_flush"], ["slab_alloc_slowpath", "alloc_slowpath"] |
		. as [$p, $c] | $m[$p].samples == $s[$c]] | length == 28 and all'
# shellcheck disable=SC2016 # $n is jq's
check "slub-7.3-stats: every allocation and free went through the sheaves" \
	jqt "$TMP/slub-7.3-stats.json" '[.tests[2,3,4,5] | .extra.ops_per_repeat[0] as $n | .extra.slub_stats[0] |
		(.alloc_fastpath + .free_fastpath) | all(. == $n)] | all'
check "slub-7.3-stats: the barn and the slabs were used at all" \
	jqt "$TMP/slub-7.3-stats.json" '[.tests[2,3,4,5].extra.slub_stats[0] |
		.barn_get, .barn_put, .barn_put_fail, .sheaf_refill, .sheaf_flush | add > 0] | all'
