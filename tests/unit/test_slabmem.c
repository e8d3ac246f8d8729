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
	cJSON *census = fixture_census(&f, false, 0);
	struct slabmem m;

	CHECK(slabmem_of(census, &m) == 0, "figures: a SLUB census has them");
	CHECK_NEAR(m.slab, 49 * 4096.0, 0, "figures: Slab is (pages + kmalloc_large_pages) pages");
	CHECK_NEAR(m.slab_percpu, 49 * 4096.0 + 102 * 4096.0, 0, "figures: Slab + Percpu");
	/* The fixture's structures are in no cache of its own: out of live bytes, no padding. */
	CHECK_NEAR(m.part[SM_LIVE], 1000 * 64 + 100 * 700 - 2 * (256 + 64), 0,
		   "figures: live bytes, without the allocator's structures");
	CHECK_NEAR(m.part[SM_PADDING], 100 * 4, 0, "figures: padding, live * (size - object_size)");
	CHECK_NEAR(m.part[SM_FREE_CPU], 10 * 64 + 2 * 704, 0, "figures: free in CPU slabs, by size");
	CHECK_NEAR(m.part[SM_FREE_CPU_PARTIAL], 20 * 64, 0, "figures: free in per-CPU partials");
	CHECK_NEAR(m.part[SM_FREE_NODE_PARTIAL], 58 * 64 + 3 * 704, 0, "figures: node partials");
	CHECK_NEAR(m.part[SM_FREE_EMPTY], 64 * 64, 0, "figures: empty slabs");
	CHECK_NEAR(m.part[SM_FREE_CPU_ARRAY] + m.part[SM_FREE_SHARED] + m.part[SM_FREE_ALIEN], 0, 0,
		   "figures: SLAB's places are absent, so 0");
	CHECK_NEAR(m.part[SM_TAIL], 21 * 4096 - 105 * 704, 0, "figures: slab tails");
	CHECK_NEAR(m.part[SM_PERCPU], 2 * 48, 0, "figures: the caches' per-CPU structures");
	CHECK_NEAR(m.part[SM_STRUCTS], 2 * (256 + 64), 0, "figures: kmem_cache and kmem_cache_node");
	CHECK_NEAR(m.overhead, 39 * 4096 - (1000 * 64 + 100 * 700) + 2 * (256 + 64) + 2 * 48, 0,
		   "figures: overhead = pages * page_size - live_bytes + structures + struct_percpu");
	CHECK_NEAR(m.overhead, 26480, 0, "figures: 26480 bytes beyond live objects");
	CHECK(m.caches == 2, "figures: two cache records");
	cJSON_Delete(census);
}

static void test_slab_numa(void)
{
	const struct fixture f = { "slab", "SLAB", 4, 2, 1, NULL, 0, false };
	cJSON *census = fixture_census(&f, false, 0);
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

/* A one-page order-0 slab of @name, @live of its slots in use and the rest on the node partial list. */
static void own_cache(cJSON *caches, const char *name, int object_size, int size, int live,
		      int struct_cache, int struct_node)
{
	cJSON *c = cJSON_CreateObject();
	int objects = 4096 / size;

	cJSON_AddStringToObject(c, "name", name);
	cJSON_AddNumberToObject(c, "object_size", object_size);
	cJSON_AddNumberToObject(c, "size", size);
	cJSON_AddNumberToObject(c, "pages", 1);
	cJSON_AddNumberToObject(c, "objects", objects);
	cJSON_AddNumberToObject(c, "live", live);
	cJSON_AddNumberToObject(c, "free_node_partial", objects - live);
	cJSON_AddNumberToObject(c, "struct_cache", struct_cache);
	cJSON_AddNumberToObject(c, "struct_node", struct_node);
	cJSON_AddNumberToObject(c, "struct_percpu", 32);
	cJSON_AddItemToArray(caches, c);
}

static cJSON *own_census(const char *allocator, int pages)
{
	cJSON *census = cJSON_CreateObject(), *total;

	cJSON_AddStringToObject(census, "allocator", allocator);
	cJSON_AddNumberToObject(census, "page_size", 4096);
	cJSON_AddArrayToObject(census, "caches");
	total = cJSON_AddObjectToObject(census, "total");
	cJSON_AddNumberToObject(total, "pages", pages);
	cJSON_AddNumberToObject(total, "percpu_pages", 1);
	return census;
}

/*
 * The allocator's own structures are live slab objects of the caches that
 * hold them, and no caller's: they come out of live bytes, slot and
 * padding alike, and are shown as a part of their own.
 */
static void test_own_structures(void)
{
	cJSON *slub = own_census("slub", 3), *slab = own_census("slab", 4);
	cJSON *caches = cJSON_GetObjectItem(slub, "caches");
	struct slabmem m;
	double sum = 0;

	/* SLUB: three caches, each a kmem_cache (200 B in 256) and a kmem_cache_node (40 in 64). */
	own_cache(caches, "kmem_cache", 200, 256, 3, 256, 64);
	own_cache(caches, "kmem_cache_node", 40, 64, 3, 256, 64);
	own_cache(caches, "app", 100, 128, 10, 256, 64);
	CHECK(slabmem_of(slub, &m) == 0, "own structures: SLUB figures");
	CHECK_NEAR(m.part[SM_LIVE], 10 * 100, 0, "own structures: SLUB's live bytes are the caller's");
	CHECK_NEAR(m.part[SM_PADDING], 10 * 28, 0,
		   "own structures: SLUB's padding of kmem_cache slots is not the callers'");
	CHECK_NEAR(m.part[SM_STRUCTS], 3 * 256 + 3 * 64, 0, "own structures: SLUB's, by their slots");
	CHECK_NEAR(m.overhead, 3 * 4096 - 10 * 100 + 3 * 32, 0,
		   "own structures: SLUB's are beyond live");
	for (int p = 0; p < SM_NR_PARTS; p++)
		sum += p == SM_PERCPU ? 0 : m.part[p];
	CHECK_NEAR(sum, 3 * 4096, 0, "own structures: the parts still add up to SLUB's slab pages");

	/*
	 * SLAB: its kmem_cache's own struct is static; every cache's
	 * kmem_cache_node (kmalloc-128) and shared array (kmalloc-1k) are
	 * kmalloc'd, beside 5 and 2 callers' objects.
	 */
	caches = cJSON_GetObjectItem(slab, "caches");
	own_cache(caches, "kmem_cache", 200, 256, 3, 0, 128 + 1024);
	own_cache(caches, "kmalloc-128", 128, 128, 4 + 5, 256, 128 + 1024);
	own_cache(caches, "kmalloc-1k", 1024, 1024, 4 + 2, 256, 128 + 1024);
	own_cache(caches, "app", 100, 128, 10, 256, 128 + 1024);
	CHECK(slabmem_of(slab, &m) == 0, "own structures: SLAB figures");
	CHECK_NEAR(m.part[SM_LIVE], 5 * 128 + 2 * 1024 + 10 * 100, 0,
		   "own structures: SLAB's live bytes are the callers', kmalloc'd arrays apart");
	CHECK_NEAR(m.part[SM_PADDING], 10 * 28, 0, "own structures: SLAB's padding");
	CHECK_NEAR(m.part[SM_STRUCTS], 3 * 256 + 4 * (128 + 1024), 0,
		   "own structures: SLAB's kmem_cache, kmem_cache_node and shared arrays");
	sum = 0;
	for (int p = 0; p < SM_NR_PARTS; p++)
		sum += p == SM_PERCPU ? 0 : m.part[p];
	CHECK_NEAR(sum, 4 * 4096, 0, "own structures: the parts still add up to SLAB's slab pages");
	cJSON_Delete(slub);
	cJSON_Delete(slab);
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

/* Possible CPUs above the online ones make a guest shape of their own. */
static void test_points_possible(void)
{
	const struct fixture f = { "slub", "SLUB", 2, 1, 1, NULL, 0, false };
	cJSON *docs[] = { fixture_doc(&f), fixture_doc(&f), fixture_doc(&f) };
	struct slabmem_point *p;
	int n;

	cJSON_AddNumberToObject(cJSON_GetObjectItem(docs[1], "vm"), "possible_cpus", 8);
	cJSON_AddNumberToObject(cJSON_GetObjectItem(docs[2], "vm"), "possible_cpus", 2);
	n = slabmem_points((const cJSON *const *)docs, 3, "after", &p);
	CHECK(n == 2 && p[0].possible == 2 && p[0].nr_boots == 2 && p[1].possible == 8 &&
	      p[1].cpus == 2, "points: 8 possible CPUs apart; 2 recorded, or none, as many as online");
	slabmem_points_free(p, n);
	for (int i = 0; i < 3; i++)
		cJSON_Delete(docs[i]);
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
	test_own_structures();
	test_slob_and_broken();
	test_phase();
	test_points();
	test_points_possible();
	return check_done();
}
