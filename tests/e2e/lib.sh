# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the end-to-end tests: a plan, ok/not ok lines and a scratch
# directory.
SB=${SB:-$PWD/build/slabbench}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# compare and report read the user's noise floor: tests start with none.
export SLABBENCH_NOISE=$TMP/noise.json

# The plan, before any check: how many results this script prints, from
# its checks and the lists its loops go over, never from a count of what
# ran. tests/run.sh fails a script whose results fall short of it.
plan() {
	echo "1..$1"
}

check() {
	local name=$1
	shift
	if "$@"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
}

# jq -e on a file: the expression must be true.
jqt() {
	jq -e "$2" "$1" >/dev/null
}

# run_complete NAME WHAT RUN-OPTION...: slabbench run into $TMP/NAME.json
# (its stderr in $TMP/NAME.err), checked complete; where no results came,
# the end of what it said.
run_complete() {
	local name=$1 what=$2

	shift 2
	"$SB" run "$@" -o "$TMP/$name.json" >/dev/null 2>"$TMP/$name.err"
	check "$what" jqt "$TMP/$name.json" '.status == "complete"'
	[ -f "$TMP/$name.json" ] || tail -n 20 "$TMP/$name.err"
}

# selftest_each VARIANT...: the module's self-test on each, as KTAP in
# $TMP/selftest.ktap; every case of every variant passes. Prints the
# failures.
selftest_each() {
	local v

	"$SB" selftest "$@" >"$TMP/selftest.ktap" 2>"$TMP/selftest.err"
	check "selftest passes on $*" test $? -eq 0
	for v in "$@"; do
		check "$v: 12 self-test, 5 unload, 4 fuzz and the kmemleak cases ok" \
			grep -qx "# $v: 22 ok, 0 not ok" "$TMP/selftest.ktap"
	done
	# What failed, and each unload attempt that did not count and why.
	grep '^not ok\|^# .*: failed\|^# attempt [0-9]*: ' "$TMP/selftest.ktap" | head -n 20
}

# crosscheck VARIANT WORKLOAD: a run of (a part of) tests/data/crosscheck.json
# into $TMP/VARIANT.json, and what every allocator must show of it: it
# completes, its held cache is gone before the next test, and caches
# counts its objects exactly and releases its caches.
crosscheck() {
	"$SB" run --boots=1 --alloc="$1" --workload="$2" -o "$TMP/$1.json" >/dev/null 2>"$TMP/$1.err"
	check "$1: the cross-check workload runs" jqt "$TMP/$1.json" '.status == "complete"'
	[ -f "$TMP/$1.json" ] || tail -n 20 "$TMP/$1.err"
	check "$1: the held cache is released before the next test" \
		jqt "$TMP/$1.json" '.boots[0].snapshots.after.slabinfo // "" | test("slabbench-held") | not'
	# 40 caches x 8 objects x 2 CPUs, half of each CPU's freed on the other.
	check "$1: caches counts its objects exactly and releases its caches" \
		jqt "$TMP/$1.json" '(.tests[] | select(.spec | startswith("test=caches")) | .metrics |
			[.objects_allocated, .objects_freed, .live_objects] | map(.samples[0])) == [640, 320, 320]
			and (.boots[0].snapshots.after.slabinfo // "" | test("sb-cache-") | not)'
}

# crosscheck_overhead: tests/data/crosscheck.json without its hitrate
# tests, written once; prints its path. Only the statistics guests
# (stats.sh) run those: under QEMU 7.2's multi-threaded TCG about one
# hitrate run in 40 hangs on a stale kprobe (docs/concepts.md, Limits);
# counts.sh runs hitrate on the other allocators.
crosscheck_overhead() {
	[ -f "$TMP/xc-overhead.json" ] ||
		jq '.tests |= .[0:2] + .[6:]' tests/data/crosscheck.json >"$TMP/xc-overhead.json"
	echo "$TMP/xc-overhead.json"
}

# slabinfo_agrees VARIANT: crosscheck()'s overhead tests against /proc/slabinfo.
slabinfo_agrees() {
	check "$1: overhead figures agree with /proc/slabinfo within one slab" \
		jqt "$TMP/$1.json" '[.tests[0,1].extra.slabinfo_check[0].agrees] | all'
	check "$1: slabinfo was really read (objects per slab from the kernel)" \
		jqt "$TMP/$1.json" '[.tests[0,1].extra.slabinfo_check[0].proc.objperslab > 0] | all'
}

# The caches test's live bytes in $TMP/VARIANT.json, for each VARIANT given.
caches_live() {
	local v

	for v in "$@"; do
		jq '.tests[] | select(.spec | startswith("test=caches")) | .metrics.live_bytes.samples[0]' \
			"$TMP/$v.json"
	done
}

# In the 6.1 git tree $L (committed to with "${G[@]}"): a commit whose
# kmem_cache_alloc() spins 64 times, the regression the slow bisect and
# watch tests must find, then a harmless one on top. Prints the first.
commit_slowdown() {
	sed -i '/^void \*kmem_cache_alloc(struct kmem_cache \*s, gfp_t gfpflags)$/,/^}$/{
		s/^{$/{\n\tint i;\n\n\tfor (i = 0; i < 64; i++)\n\t\tbarrier();/
	}' "$L/mm/slub.c"
	"${G[@]}" commit -qam "mm/slub: spin a little in kmem_cache_alloc()"
	"${G[@]}" rev-parse HEAD
	echo "/* A comment that changes no code. */" >>"$L/mm/slab.c"
	"${G[@]}" commit -qam "mm/slab: a harmless change"
}

# run_workload VARIANT WORKLOAD OUT [RUN-OPTION...]: one boot into OUT;
# on failure, says why.
run_workload() {
	"$SB" run --boots=1 --alloc="$1" --workload="$2" -o "$3" "${@:4}" >/dev/null 2>"$3.err" && return
	echo "# slabbench run --alloc=$1 --workload=$2 failed:"
	tail -n 5 "$3.err" | sed 's/^/# /'
}

# The census's known answer: each of 10 caches holds $objs objects per
# CPU, none freed, with a census at every snapshot ($snaps) and
# sb-cache-000's record ($held).
objs=4
snaps='.boots[0].snapshots | [.before, ."t0.0s", ."t0.shrink", .after]'
# shellcheck disable=SC2034 # census.sh's
held='.census.caches | map(select(.name == "sb-cache-000"))'

# census_held VARIANT: the held workload into $TMP/VARIANT.json and what
# every allocator's census must show of it (6 checks).
census_held() {
	local v=$1 out=$TMP/$1.json

	[ -f "$TMP/held.json" ] || cat >"$TMP/held.json" <<JSON
{ "name": "census-held", "tests": [
  { "test": "caches", "params": { "caches": 10, "objs": $objs, "hold": 1, "free_pct": 0, "seed": 1 },
    "census": ["0s", "shrink"] } ] }
JSON
	run_workload "$v" "$TMP/held.json" "$out"
	check "$v: the census workload runs" jqt "$out" '.status == "complete"'
	check "$v: a census at before, t0.0s, t0.shrink and after" \
		jqt "$out" "$snaps | all(.census | type == \"object\")"
	check "$v: the census says $v, with the guest's CPUs" \
		jqt "$out" ".vm.cpus as \$n | $snaps | all(.census.allocator == \"$v\" and .census.cpus == \$n)"
	# "after" follows the release at once: on SLAB the destroyed caches'
	# last pages can still be leaving, which the census reports as moving.
	check "$v: pages + kmalloc_large_pages = the kernel's slab counter, exactly, while held" \
		jqt "$out" "${snaps}[0:3] | all(.census.checks.counter == \"exact\")"
	check "$v: and after the release exact, or moving and said so" \
		jqt "$out" ".boots[0].snapshots.after.census.checks.counter | . == \"exact\" or . == \"moving\""
	check "$v: pages by slab order add up in every record" \
		jqt "$out" "$snaps | all(.census.checks.pages == \"exact\")"
}

# merge_runs VARIANT: the merge check booted into $TMP/merge-VARIANT.json:
# SLAB_NO_MERGE is defined and keeps our caches distinct (3 checks).
merge_runs() {
	[ -f "$TMP/merge.json" ] || cat >"$TMP/merge.json" <<'JSON'
{ "name": "merge", "tests": [ { "test": "merge", "params": { "size": 64 } },
                              { "test": "merge", "params": { "size": 192 } } ] }
JSON
	"$SB" run --boots=1 --alloc="$1" --workload="$TMP/merge.json" -o "$TMP/merge-$1.json" >/dev/null
	check "$1: boots and runs the merge check" jqt "$TMP/merge-$1.json" '.status == "complete"'
	check "$1: SLAB_NO_MERGE is defined" jqt "$TMP/merge-$1.json" '[.tests[].extra.slab_no_merge[0]] | all'
	check "$1: SLAB_NO_MERGE caches stay distinct" \
		jqt "$TMP/merge-$1.json" '[.tests[].extra.no_merge_distinct[0]] | all'
}

# hitrate_runs VARIANT: hitrate in each free order (at 64 bytes, 1024
# objects) and as alloc+free pairs into $TMP/VARIANT.json (1 check).
hitrate_runs() {
	[ -f "$TMP/counts.json" ] || cat >"$TMP/counts.json" <<'JSON'
{ "name": "counts", "tests": [
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "order": "fifo" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "order": "lifo" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "order": "random" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "pattern": "fastpath" } } ] }
JSON
	"$SB" run --boots=1 --alloc="$1" --workload="$TMP/counts.json" -o "$TMP/$1.json" >/dev/null 2>"$TMP/$1.err"
	check "$1: hitrate runs in fifo, lifo and random order" \
		jqt "$TMP/$1.json" '.status == "complete" and ([.tests[0:3][].params.order] == ["fifo", "lifo", "random"])'
	[ -f "$TMP/$1.json" ] || tail -n 20 "$TMP/$1.err"
}
