# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-6.12 slob
# shellcheck shell=bash
# hitrate's allocator counts on slab, slub, slub-6.12 and slob: every
# free order runs, the figures are the ones each allocator defines, and
# the ones derived from the same count agree with each other. The counts
# against SLUB_STATS are in module.sh, against DEBUG_SLAB in
# tests/slow/slabstats.sh.
. tests/e2e/lib.sh

plan 20

# jq -e over several files read as one array.
jqs() {
	jq -se "$1" "${@:2}" >/dev/null
}

cat >"$TMP/counts.json" <<'JSON'
{ "name": "counts", "tests": [
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "order": "fifo" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "order": "lifo" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "order": "random" } },
  { "test": "hitrate", "params": { "size": 64, "count": 1024, "rounds": 20, "repeats": 2, "pattern": "fastpath" } } ] }
JSON
for v in slab slub slub-6.12 slob; do
	"$SB" run --boots=1 --alloc=$v --workload="$TMP/counts.json" -o "$TMP/$v.json" >/dev/null 2>"$TMP/$v.err"
	check "$v: hitrate runs in fifo, lifo and random order" \
		jqt "$TMP/$v.json" '.status == "complete" and ([.tests[0:3][].params.order] == ["fifo", "lifo", "random"])'
	[ -f "$TMP/$v.json" ] || tail -n 20 "$TMP/$v.err"
done
for v in slab slub slub-6.12; do
	check "$v: alloc hit rate is 100% less the slow paths per 1000, per repeat" \
		jqt "$TMP/$v.json" '[.tests[].metrics | [.alloc_hit_rate.samples, .alloc_slowpath_per1k.samples] |
			transpose[] | (.[0] - (100 - .[1] / 10)) | fabs < 0.002] | all'
	check "$v: free hit rate is 100% less the objects free slow paths moved" \
		jqt "$TMP/$v.json" '[.tests[0:3][].metrics | [.free_hit_rate.samples, .free_slowpath_per1k.samples,
			.free_objects_per_slowpath.samples] | transpose[] |
			(.[0] - (100 - .[1] * .[2] / 10)) | fabs < 0.05] | all'
	check "$v: batches take slow paths and the node list_lock, alloc+free pairs neither" \
		jqt "$TMP/$v.json" '([.tests[0:3][].metrics | .alloc_slowpath_per1k, .free_slowpath_per1k,
			.list_lock_per1k | .samples[]] | all(. > 0)) and
			([.tests[3].metrics | .alloc_slowpath_per1k, .free_slowpath_per1k, .list_lock_per1k |
			.samples[]] | all(. == 0))'
	check "$v: slab pages allocated and freed are counted in every repeat" \
		jqt "$TMP/$v.json" '[.tests[].metrics | .slab_pages_alloc_per1k.samples, .slab_pages_freed_per1k.samples |
			length == 2] | all'
done
# shellcheck disable=SC2016 # $b is jq's
check "slab: refills and flushes move at most batchcount objects" \
	jqt "$TMP/slab.json" '[.tests[0:3][] | .extra.slab_tunables[0].batchcount as $b | .metrics |
		.alloc_objects_per_slowpath.samples[], .free_objects_per_slowpath.samples[] | . > 1 and . <= $b] | all'
check "slub, slub-6.12: one object per free slow path, a slab's worth per refill" \
	jqs '[.[].tests[0:3][].metrics | (.free_objects_per_slowpath.samples | all(. == 1)),
		(.alloc_objects_per_slowpath.samples | all(. > 1 and . <= 64))] | all' \
	"$TMP/slub.json" "$TMP/slub-6.12.json"
check "slob: no per-CPU cache, pages only" \
	jqt "$TMP/slob.json" '[.tests[] | .extra.per_cpu_cache[0] == false and
		(.metrics | keys == ["slab_pages_alloc_per1k", "slab_pages_freed_per1k"])] | all'
check "slob: batches of 64 KiB take new pages" \
	jqt "$TMP/slob.json" '[.tests[0:3][].metrics.slab_pages_alloc_per1k.samples[]] | all(. > 0)'
