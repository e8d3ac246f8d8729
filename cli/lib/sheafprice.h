/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The price of per-CPU caching (workloads sheaves and sheaves-cost): for
 * each sheaf capacity a run's private caches were made with, the memory
 * they hold (census), the instructions of an alloc+free pair (cost model)
 * and the refills per 1000 allocations (hitrate), joined by variant and
 * by what the test asked for (the sheaves and sheaf_capacity params).
 */
#ifndef SLABBENCH_SHEAFPRICE_H
#define SLABBENCH_SHEAFPRICE_H

#include <cjson/cJSON.h>

/* What a test asked of its cache's sheaves. */
enum { SHEAF_ASKED_NONE = -1, SHEAF_ASKED_DEFAULT = 0 };

struct sheaf_point {
	const char *variant;	/* as --alloc took it */
	const char *allocator;	/* "SLAB", "SLUB" */
	long cpus;		/* of the run whose census it is */
	long asked;		/* sheaf_capacity asked, or SHEAF_ASKED_* */
	/*
	 * The capacity the census found in the test's caches: 0 without
	 * sheaves, -1 where the census has no such field (a kernel before
	 * sheaves); SLAB's per-CPU array limit in limit, when it records one.
	 */
	long capacity, limit;
	int boots;		/* with a census of the test */
	/*
	 * Median over boots of the bytes the test's caches hold: their slab
	 * pages, their sheaves (struct_sheaf) and per-CPU structures.
	 */
	double held;
	double insns_per_pair;	/* alloc + free instructions per op; NAN: no cost run */
	double refills_per1k;	/* alloc slow paths per 1000 allocations; NAN: no hitrate */
};

/*
 * The points of @n runs: one per caches test with a census at its held
 * phase ("tN.0s") and a name prefix of its caches in its results, in the
 * order of the runs and tests. Returns how many; *@pts is NULL when none.
 */
int sheaf_points(const cJSON *const *docs, int n, struct sheaf_point **pts);

#endif
