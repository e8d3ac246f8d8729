# SPDX-License-Identifier: GPL-2.0
# kernels: slab slub slub-6.12 slub-7.3
# shellcheck shell=bash
# hitrate's allocator counts on slab, slub, slub-6.12 and slub-7.3: every
# free order runs, the figures are the ones each allocator defines, and
# the ones derived from the same count agree with each other. The counts
# against SLUB_STATS are in stats.sh, against DEBUG_SLAB in
# tests/slow/slabstats.sh, SLOB's in tests/slow/slob.sh.
. tests/e2e/lib.sh

plan 26

# jq -e over several files read as one array.
jqs() {
	jq -se "$1" "${@:2}" >/dev/null
}

for v in slab slub slub-6.12 slub-7.3; do
	hitrate_runs $v
done
for v in slab slub slub-6.12 slub-7.3; do
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
# Sheaves: an alloc slow path is a main-sheaf miss the spare could not
# serve, which asks the barn once; it brings in a barn's full sheaf or a
# refill, at most sheaf_capacity objects. Counted by different probes.
# shellcheck disable=SC2016 # $n is jq's
check "slub-7.3: main-sheaf misses are spare swaps plus slow paths, per repeat" \
	jqt "$TMP/slub-7.3.json" '[.tests[] | .extra.ops_per_repeat[0] as $n | .metrics |
		([.main_sheaf_alloc_hit_rate.samples, .spare_swaps_alloc.samples, .alloc_misses.samples] |
		 transpose[] | ((100 - .[0]) * $n / 100 - .[1] - .[2]) | fabs < 0.5),
		([.main_sheaf_free_hit_rate.samples, .spare_swaps_free.samples, .free_misses.samples] |
		 transpose[] | ((100 - .[0]) * $n / 100 - .[1] - .[2]) | fabs < 0.5)] | all'
check "slub-7.3: every alloc slow path asks the barn once" \
	jqt "$TMP/slub-7.3.json" '[.tests[].metrics | [.barn_get.samples, .barn_get_fail.samples, .alloc_misses.samples] |
		transpose[] | .[0] + .[1] == .[2]] | all'
# shellcheck disable=SC2016 # $c is jq's
check "slub-7.3: a slow path brings in at most a sheaf's worth; a barn refusal refills" \
	jqt "$TMP/slub-7.3.json" '[.tests[0:3][] | .extra.sheaf_capacity[0] as $c | .metrics |
		(.alloc_objects_per_slowpath.samples | all(. > 1 and . <= $c)),
		([.barn_get_fail.samples, .sheaf_refills.samples] | transpose | all(.[0] == .[1]))] | all'
check "slub-7.3: objects flushed from sheaves reach their slabs; pairs never leave the sheaves" \
	jqt "$TMP/slub-7.3.json" '([.tests[0:3][].metrics | [.sheaf_flush_objects.samples, .slab_free_objects.samples] |
		transpose[] | .[0] <= .[1]] | all) and
		([.tests[3].metrics | .main_sheaf_alloc_hit_rate.samples[], .main_sheaf_free_hit_rate.samples[]] | all(. == 100))'
