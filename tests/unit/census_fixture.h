/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic results carrying a slab census as docs/census.md has it, with
 * figures known by hand. Each census has two caches:
 *
 *   kmalloc-64  object_size 64, size 64, 64 a slab: 1000 live objects;
 *               SLUB: free_cpu 10 * cpus + boot, free_cpu_partial
 *               20 * cpus; SLAB: free_cpu_array 12 * cpus + boot,
 *               free_shared 16; both: one empty slab, @empty more per
 *               CPU and one more in odd boots; the rest of the last
 *               slabs on the node partial list
 *   big-700     object_size 700, size 704, 5 a slab (576 bytes of tail
 *               each): 100 live; SLUB free_cpu 2 * cpus, SLAB
 *               free_cpu_array 3 * cpus and, on NUMA, free_alien 4
 *
 * and per cache struct_cache 256 (SLAB 512), struct_node 64 (SLAB 200),
 * struct_percpu 48 * cpus (SLAB 160 * cpus); in total 10
 * kmalloc_large_pages and percpu_pages 100 + 2 * cpus (SLAB 3 * cpus).
 * At 1 CPU, boot 0, no @empty, SLUB: 39 pages, so Slab 200704 bytes,
 * Slab + Percpu 618496 and 26480 bytes beyond live objects
 * (its structures, 640 bytes, in no cache of the fixture, out of live). A SLOB
 * census has no caches: 50 pages, 10 kmalloc_large_pages, percpu_pages
 * 100 + cpus. With @sheaves, SLUB's free objects of each place are in
 * sheaves instead (struct fixture).
 */
#ifndef SLABBENCH_CENSUS_FIXTURE_H
#define SLABBENCH_CENSUS_FIXTURE_H

#include "results.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <string.h>

struct fixture {
	const char *variant, *allocator;	/* "slub", "SLUB" */
	int cpus, numa, boots;
	const char *phase;	/* the census's snapshot besides "after", or NULL */
	int empty;		/* more empty kmalloc-64 slabs, per CPU */
	bool steady;		/* every boot as boot 0 */
};

/*
 * The kernel of a fixture (fixture_doc_kernel()): its release, NULL for
 * none recorded, and whether SLUB has sheaves (cpu_cache=sheaves):
 * kmalloc-64's CPU and per-CPU partial objects are then in main sheaves
 * and barns, big-700's in spare sheaves, with 512 * cpus bytes of sheaves
 * in each cache.
 */
struct fixture_kernel {
	const char *release;
	bool sheaves;
};

static inline void fixture_num(cJSON *o, const char *name, double v)
{
	cJSON_AddNumberToObject(o, name, v);
}

/* Adds a cache record of @live objects and the given free ones; returns its pages. */
static inline int fixture_cache(cJSON *caches, const struct fixture *f, bool sheaves,
				const char *name,
			 int object_size, int size, int per_slab, int live,
			 const char *const *free_names, const int *frees, int nr_free, int empty)
{
	cJSON *c = cJSON_CreateObject();
	int used = live, slabs, partial;
	bool slub = !strcmp(f->allocator, "SLUB");

	for (int i = 0; i < nr_free; i++)
		used += frees[i];
	slabs = (used + per_slab - 1) / per_slab;
	partial = slabs * per_slab - used;
	slabs += empty;
	cJSON_AddStringToObject(c, "name", name);
	fixture_num(c, "object_size", object_size);
	fixture_num(c, "size", size);
	fixture_num(c, "objs_per_slab", per_slab);
	fixture_num(c, "order", 0);
	fixture_num(c, "slabs", slabs);
	fixture_num(c, "pages", slabs);
	fixture_num(c, "slabs_o0", slabs);
	fixture_num(c, "objects", slabs * per_slab);
	fixture_num(c, "live", live);
	for (int i = 0; i < nr_free; i++)
		fixture_num(c, free_names[i], frees[i]);
	fixture_num(c, "free_node_partial", partial);
	fixture_num(c, "node_partial_slabs", partial > 0);
	fixture_num(c, "free_empty", empty * per_slab);
	fixture_num(c, "empty_slabs", empty);
	fixture_num(c, "full_slabs", slabs - empty - (partial > 0));
	fixture_num(c, "struct_cache", slub ? 256 : 512);
	fixture_num(c, "struct_node", slub ? 64 : 200);
	fixture_num(c, "struct_percpu", (slub ? 48 : 160) * f->cpus);
	if (sheaves)
		fixture_num(c, "struct_sheaf", 512 * f->cpus);
	cJSON_AddItemToArray(caches, c);
	return slabs;
}

static inline cJSON *fixture_census(const struct fixture *f, bool sheaves, int nth)
{
	static const char *const slub_a[] = { "free_cpu", "free_cpu_partial" };
	static const char *const slab_a[] = { "free_cpu_array", "free_shared" };
	static const char *const slub_b[] = { "free_cpu" };
	static const char *const sheaf_a[] = { "free_sheaf_main", "free_barn" };
	static const char *const sheaf_b[] = { "free_sheaf_spare" };
	static const char *const slab_b[] = { "free_cpu_array", "free_alien" };
	bool slub = !strcmp(f->allocator, "SLUB");
	cJSON *census = cJSON_CreateObject(), *caches, *total;
	int a[2], b[2], pages, boot = f->steady ? 0 : nth;

	fixture_num(census, "version", 1);
	fixture_num(census, "cpus", f->cpus);
	fixture_num(census, "nodes", f->numa);
	fixture_num(census, "page_size", 4096);
	/* SLOB keeps no cache records: pages and the per-CPU allocator's only. */
	if (!strcmp(f->allocator, "SLOB")) {
		cJSON_AddStringToObject(census, "allocator", "slob");
		total = cJSON_AddObjectToObject(census, "total");
		fixture_num(total, "slabs", 50);
		fixture_num(total, "pages", 50);
		fixture_num(total, "slabs_o0", 50);
		fixture_num(total, "kmalloc_large_pages", 10);
		fixture_num(total, "counter_pages", 60);
		fixture_num(total, "counter_pages_after", 60);
		fixture_num(total, "percpu_pages", 100 + f->cpus);
		return census;
	}
	cJSON_AddStringToObject(census, "allocator", slub ? "slub" : "slab");
	if (sheaves)
		cJSON_AddStringToObject(census, "cpu_cache", "sheaves");
	caches = cJSON_AddArrayToObject(census, "caches");
	a[0] = (slub ? 10 : 12) * f->cpus + boot;
	a[1] = slub ? 20 * f->cpus : 16;
	b[0] = (slub ? 2 : 3) * f->cpus;
	b[1] = 4;
	pages = fixture_cache(caches, f, sheaves, "kmalloc-64", 64, 64, 64, 1000,
			      sheaves ? sheaf_a : slub ? slub_a : slab_a, a,
			      2, 1 + f->empty * f->cpus + boot % 2);
	pages += fixture_cache(caches, f, sheaves, "big-700", 700, 704, 5, 100,
			       sheaves ? sheaf_b : slub ? slub_b : slab_b, b,
			       slub || f->numa < 2 ? 1 : 2, 0);
	total = cJSON_AddObjectToObject(census, "total");
	fixture_num(total, "slabs", pages);
	fixture_num(total, "pages", pages);
	fixture_num(total, "slabs_o0", pages);
	fixture_num(total, "kmalloc_large_pages", 10);
	fixture_num(total, "counter_pages", pages + 10);
	fixture_num(total, "counter_pages_after", pages + 10);
	fixture_num(total, "percpu_pages", 100 + (slub ? 2 : 3) * f->cpus);
	fixture_num(total, "live", 1100);
	fixture_num(total, "live_bytes", 1000 * 64 + 100 * 700);
	return census;
}

/* A complete results document of @f->boots boots, a census in each, of kernel @k. */
static inline cJSON *fixture_doc_kernel(const struct fixture *f, const struct fixture_kernel *k)
{
	cJSON *doc = cJSON_CreateObject(), *vm, *kernel, *t, *m, *s, *boots;

	fixture_num(doc, "schema", RESULTS_SCHEMA);
	cJSON_AddStringToObject(doc, "status", "complete");
	vm = cJSON_AddObjectToObject(doc, "vm");
	cJSON_AddStringToObject(vm, "accel", "tcg");
	cJSON_AddBoolToObject(vm, "emulated_time", 1);
	cJSON_AddStringToObject(vm, "tcg_thread", "single");
	fixture_num(vm, "cpus", f->cpus);
	fixture_num(vm, "numa_nodes", f->numa);
	fixture_num(vm, "mem_mb", 512);
	cJSON_AddStringToObject(vm, "cmdline", "");
	kernel = cJSON_AddObjectToObject(doc, "kernel");
	cJSON_AddStringToObject(kernel, "variant", f->variant);
	if (k->release)
		cJSON_AddStringToObject(kernel, "release", k->release);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "guest"),
							"info"), "allocator", f->allocator);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(doc, "workload"), "name", "memory");
	t = cJSON_CreateObject();
	cJSON_AddItemToArray(cJSON_AddArrayToObject(doc, "tests"), t);
	cJSON_AddStringToObject(t, "test", "merge");
	cJSON_AddStringToObject(t, "spec", "test=merge");
	m = cJSON_AddObjectToObject(cJSON_AddObjectToObject(t, "metrics"), "ns_per_op");
	cJSON_AddStringToObject(m, "unit", "ns");
	cJSON_AddStringToObject(m, "better", "lower");
	s = cJSON_AddArrayToObject(m, "samples");
	cJSON_AddItemToArray(s, cJSON_CreateNumber(100));
	cJSON_AddItemToArray(s, cJSON_CreateNumber(101));
	boots = cJSON_AddArrayToObject(doc, "boots");
	for (int b = 0; b < f->boots; b++) {
		cJSON *boot = cJSON_CreateObject(), *snaps = cJSON_AddObjectToObject(boot, "snapshots");

		fixture_num(boot, "index", b);
		cJSON_AddItemToObject(cJSON_AddObjectToObject(snaps, "after"), "census",
				      fixture_census(f, k->sheaves, b));
		if (f->phase) {
			struct fixture held = *f;

			/* The held phase holds one more empty slab per CPU than "after". */
			held.empty++;
			cJSON_AddItemToObject(cJSON_AddObjectToObject(snaps, f->phase), "census",
					      fixture_census(&held, k->sheaves, b));
		}
		cJSON_AddItemToArray(boots, boot);
	}
	return doc;
}

/* The same, of a kernel with no release recorded and no sheaves. */
static inline cJSON *fixture_doc(const struct fixture *f)
{
	return fixture_doc_kernel(f, &(struct fixture_kernel){ NULL, false });
}

#endif
