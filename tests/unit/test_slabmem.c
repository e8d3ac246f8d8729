// SPDX-License-Identifier: GPL-2.0
/* Slab memory from the census: the figures of one census, the phase, the points of a sweep. */
#define _GNU_SOURCE
#include "check.h"
#include "census_fixture.h"
#include "slabmem.h"

#include <math.h>
#include <stdlib.h>

/* The figures of the fixture's SLUB census at 1 CPU, worked out by hand. */
static void test_slub_figures(void)
{
	const struct fixture f = { "slub", "SLUB", 1, 1, 1, NULL, 0, false };
	cJSON *census = fixture_census(&f, 0);
	struct slabmem m;

	CHECK(slabmem_of(census, &m) == 0, "figures: a SLUB census has them");
	CHECK_NEAR(m.slab, 49 * 4096.0, 0, "figures: Slab is (pages + kmalloc_large_pages) pages");
	CHECK_NEAR(m.slab_percpu, 49 * 4096.0 + 102 * 4096.0, 0, "figures: Slab + Percpu");
	CHECK_NEAR(m.part[SM_LIVE], 1000 * 64 + 100 * 700, 0, "figures: live bytes");
	CHECK_NEAR(m.part[SM_PADDING], 100 * 4, 0, "figures: padding, live * (size - object_size)");
	CHECK_NEAR(m.part[SM_FREE_CPU], 10 * 64 + 2 * 704, 0, "figures: free in CPU slabs, by size");
	CHECK_NEAR(m.part[SM_FREE_CPU_PARTIAL], 20 * 64, 0, "figures: free in per-CPU partials");
	CHECK_NEAR(m.part[SM_FREE_NODE_PARTIAL], 58 * 64 + 3 * 704, 0, "figures: node partials");
	CHECK_NEAR(m.part[SM_FREE_EMPTY], 64 * 64, 0, "figures: empty slabs");
	CHECK_NEAR(m.part[SM_FREE_CPU_ARRAY] + m.part[SM_FREE_SHARED] + m.part[SM_FREE_ALIEN], 0, 0,
		   "figures: SLAB's places are absent, so 0");
	CHECK_NEAR(m.part[SM_TAIL], 21 * 4096 - 105 * 704, 0, "figures: slab tails");
	CHECK_NEAR(m.part[SM_PERCPU], 2 * 48, 0, "figures: the caches' per-CPU structures");
	CHECK_NEAR(m.overhead, 39 * 4096 - (1000 * 64 + 100 * 700) + 2 * 48, 0,
		   "figures: overhead = pages * page_size - live_bytes + struct_percpu");
	CHECK_NEAR(m.overhead, 25840, 0, "figures: 25840 bytes beyond live objects");
	CHECK_NEAR(m.structs, 2 * (256 + 64), 0, "figures: kmem_cache and kmem_cache_node");
	CHECK(m.caches == 2, "figures: two cache records");
	cJSON_Delete(census);
}

static void test_slab_numa(void)
{
	const struct fixture f = { "slab", "SLAB", 4, 2, 1, NULL, 0, false };
	cJSON *census = fixture_census(&f, 0);
	struct slabmem m;
	double sum = 0;

	CHECK(slabmem_of(census, &m) == 0, "figures: a SLAB census has them");
	CHECK_NEAR(m.part[SM_FREE_ALIEN], 4 * 704, 0, "figures: free in alien caches on NUMA");
	CHECK_NEAR(m.part[SM_FREE_SHARED], 16 * 64, 0, "figures: free in shared arrays");
	CHECK_NEAR(m.part[SM_FREE_CPU] + m.part[SM_FREE_CPU_PARTIAL], 0, 0,
		   "figures: SLUB's places are absent, so 0");
	for (int p = 0; p < SM_NR_PARTS; p++)
		sum += m.part[p];
	CHECK_NEAR(sum - m.part[SM_PERCPU], census_total(census, "pages") * 4096, 0,
		   "figures: the parts but Percpu add up to the slab pages exactly");
	cJSON_Delete(census);
}

static void test_slob_and_broken(void)
{
	cJSON *slob = cJSON_Parse("{\"version\": 1, \"allocator\": \"slob\", \"page_size\": 4096,"
				  " \"total\": {\"pages\": 300, \"kmalloc_large_pages\": 2,"
				  " \"percpu_pages\": 20, \"free_slob_small\": 1000}}");
	cJSON *broken = cJSON_Parse("{\"total\": {\"pages\": 3}}");
	struct slabmem m;

	CHECK(slabmem_of(slob, &m) == 0, "SLOB: its census has figures");
	CHECK(m.slab == 302 * 4096.0 && m.slab_percpu == 322 * 4096.0, "SLOB: Slab, Slab + Percpu");
	CHECK(isnan(m.overhead) && isnan(m.part[SM_LIVE]) && m.caches == 0,
	      "SLOB: no cache records, so no live bytes and no overhead, not a guess");
	CHECK(slabmem_of(broken, &m) == -1, "a census without a page size has no figures");
	cJSON_Delete(slob);
	cJSON_Delete(broken);
}

static void test_phase(void)
{
	const struct fixture held = { "slub", "SLUB", 2, 1, 1, "t3.0s", 0, false };
	const struct fixture plain = { "slab", "SLAB", 2, 1, 1, NULL, 0, false };
	cJSON *docs[] = { fixture_doc(&plain), fixture_doc(&held) };
	cJSON *later = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(docs[1], "boots"), 0),
					   "snapshots");

	/* Another held test later in the workload, and a later phase of the first. */
	cJSON_AddItemToObject(later, "t5.0s", cJSON_Duplicate(cJSON_GetObjectItem(later, "t3.0s"), 1));
	cJSON_AddItemToObject(later, "t1.30s", cJSON_Duplicate(cJSON_GetObjectItem(later, "t3.0s"), 1));
	CHECK_STR(slabmem_phase((const cJSON *const *)docs, 2, NULL), "t3.0s",
		  "phase: the first held test's 0s snapshot");
	CHECK_STR(slabmem_phase((const cJSON *const *)docs, 1, NULL), "after",
		  "phase: after, where no test holds memory");
	CHECK_STR(slabmem_phase((const cJSON *const *)docs, 2, "t1.30s"), "t1.30s",
		  "phase: the one asked for");
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

static void test_points(void)
{
	const struct fixture fs[] = {
		{ "slub", "SLUB", 2, 1, 3, NULL, 0, false },
		{ "slub", "SLUB", 2, 1, 2, NULL, 0, false },	/* the same point: pooled */
		{ "slub", "SLUB", 2, 2, 1, NULL, 0, false },	/* two nodes: a point apart */
		{ "slab", "SLAB", 8, 1, 1, NULL, 0, false },
	};
	cJSON *docs[5];
	struct slabmem_point *p;
	struct summary s;
	int n;

	for (int i = 0; i < 4; i++)
		docs[i] = fixture_doc(&fs[i]);
	/* A run from before the census: left out. */
	docs[4] = cJSON_Parse("{\"kernel\": {\"variant\": \"slob\"}, \"vm\": {\"cpus\": 2},"
			      " \"boots\": [{\"snapshots\": {\"after\": {\"meminfo\": {}}}}]}");
	n = slabmem_points((const cJSON *const *)docs, 5, "after", &p);
	CHECK(n == 3, "points: one per variant and shape, runs without a census left out (%d)", n);
	CHECK(n == 3 && p[0].nr_boots == 5 && p[0].cpus == 2 && p[0].numa == 1,
	      "points: the boots of two runs of one point pooled");
	CHECK(n == 3 && p[1].numa == 2 && p[2].cpus == 8 && !strcmp(p[2].label, "slab") &&
	      !strcmp(p[2].allocator, "SLAB"), "points: nodes and CPU counts kept apart");
	slabmem_summary(&p[0], offsetof(struct slabmem, slab), &s);
	CHECK(s.n == 5 && s.max - s.min == 4096, "points: a summary over the boots (odd ones: a page more)");
	slabmem_summary(&p[0], SLABMEM_PART(SM_FREE_CPU), &s);
	CHECK(s.min == (20 + 0) * 64 + 4 * 704 && s.max == (20 + 2) * 64 + 4 * 704,
	      "points: each boot's own figures (free_cpu grows by one a boot)");
	slabmem_points_free(p, n);
	CHECK(slabmem_points((const cJSON *const *)docs, 5, "t0.0s", &p) == 0,
	      "points: none at a phase no run has");
	slabmem_points_free(p, 0);
	for (int i = 0; i < 5; i++)
		cJSON_Delete(docs[i]);
}

int main(void)
{
	test_slub_figures();
	test_slab_numa();
	test_slob_and_broken();
	test_phase();
	test_points();
	return check_done();
}
