/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slab memory from the census (docs/census.md): one boot's figures in
 * bytes, and the runs of a --cpus sweep as points, one per allocator and
 * CPU count, that plot and report draw and state.
 */
#ifndef SLABBENCH_SLABMEM_H
#define SLABBENCH_SLABMEM_H

#include "generation.h"
#include "schema.h"
#include "stats.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Where the bytes of slab pages are, and the caches' per-CPU structures
 * beside them. Each part is summed over the cache records, so that a
 * count of objects is turned into bytes with its own cache's sizes.
 */
enum slabmem_part {
	SM_LIVE,		/* live * object_size, but the allocator's own structures */
	SM_PADDING,		/* live * (size - object_size), the same objects */
	/* The free slots, each count * size, in census_free_fields[]'s order. */
	SM_FREE_CPU,		/* SLUB's CPU slabs */
	SM_FREE_CPU_PARTIAL,	/* SLUB's per-CPU partial slabs */
	SM_FREE_CPU_ARRAY,	/* SLAB's per-CPU arrays */
	SM_FREE_SHARED,		/* SLAB's shared arrays */
	SM_FREE_ALIEN,		/* SLAB's alien caches */
	SM_FREE_SHEAF_MAIN,	/* SLUB's main sheaves (7.0 on) */
	SM_FREE_SHEAF_SPARE,	/* SLUB's spare sheaves */
	SM_FREE_SHEAF_RCU,	/* SLUB's rcu_free sheaves: kfree_rcu() waiting */
	SM_FREE_BARN,		/* SLUB's full sheaves in the node barns */
	SM_FREE_NODE_PARTIAL,	/* node partial lists */
	SM_FREE_EMPTY,		/* slabs on node lists with no object in use */
	SM_TAIL,		/* pages * page_size - objects * size: no slot fits there */
	/*
	 * struct_cache + struct_node: the slots of the allocator's own
	 * structures (kmem_cache, kmem_cache_node, SLAB's shared arrays and
	 * alien caches, SLUB's barns), slab objects that no caller was
	 * handed; taken out of the live objects and padding of the caches
	 * that hold them.
	 */
	SM_STRUCTS,
	SM_SHEAF_STRUCTS,	/* struct_sheaf: SLUB's sheaves themselves, likewise */
	SM_PERCPU,		/* struct_percpu: in Percpu, outside the slab pages */
	SM_NR_PARTS
};

/* Bytes in a MiB, the unit of the charts and the report. */
#define SLABMEM_MIB (1024.0 * 1024)

/* Each part's name in charts and tables. */
extern const char *const slabmem_part_names[SM_NR_PARTS];

/* One census, in bytes. */
struct slabmem {
	/* (pages + kmalloc_large_pages) * page_size: /proc/meminfo's Slab. */
	double slab;
	/* slab + percpu_pages * page_size: Slab + Percpu. */
	double slab_percpu;
	/*
	 * Held beyond the bytes of live objects handed to callers: the sum
	 * of every part but SM_LIVE, pages * page_size - SM_LIVE +
	 * struct_percpu. Pages given
	 * whole to kmalloc() callers too large for a slab are held and live
	 * alike, and so absent. NAN when the census has no cache records
	 * (SLOB): its live bytes are unknown.
	 */
	double overhead;
	double part[SM_NR_PARTS];	/* NAN without cache records */
	int caches;			/* cache records */
};

/* The figures of @census; -1 when it lacks the page size or a total. */
int slabmem_of(const cJSON *census, struct slabmem *m);

/*
 * The snapshot to read: @want when given, else the first held phase
 * ("tN.0s", lowest N) that a run's first boot has a census at, else
 * "after".
 */
const char *slabmem_phase(const cJSON *const *docs, int n, const char *want);

/*
 * One allocator (a run's variant) at one guest shape (CPUs, nodes,
 * possible CPUs), over every boot of its runs.
 */
struct slabmem_point {
	const char *label;	/* the variant, as --alloc took it */
	const char *allocator;	/* "SLAB", "SLUB", "SLOB" */
	long cpus, numa;
	long possible;		/* possible CPUs (vm.possible_cpus), at least cpus */
	int nr_boots;
	struct slabmem *boots;	/* those with a census at the phase */
	const char *workload;	/* of the runs whose boots these are */
	/* run_upper_bound() of a run among them: the figures are an upper bound */
	const char *bound;
	const char *family;	/* the kernel's config family: "small", "distro"; "?" */
	struct generation gen;	/* of the first of its runs */
};

/*
 * The points of @n runs at @phase, in the order their runs come, the
 * boots of runs of one variant and shape pooled; runs with no census
 * there are left out. Returns how many points (0: none).
 */
int slabmem_points(const cJSON *const *docs, int n, const char *phase,
		   struct slabmem_point **points);
void slabmem_points_free(struct slabmem_point *p, int n);

/* The summary over a point's boots of a figure: offsetof(struct slabmem, ...). */
void slabmem_summary(const struct slabmem_point *p, size_t offset, struct summary *s);
#define SLABMEM_PART(i) (offsetof(struct slabmem, part) + (i) * sizeof(double))

/*
 * One side's memory against another's, as the ratio of their means over
 * boots. An interval needs this many boots a side; fewer give the ratio
 * alone.
 */
#define SLABMEM_MIN_BOOTS_CI 5

struct slabmem_ratio {
	struct summary a, b;	/* over the boots of each side */
	double r, lo, hi;	/* mean(b) / mean(a), its 95% interval */
	bool has_ci;
};

/* @x's ratio of its sides' means (NAN when one has none) and its interval. */
void slabmem_ratio_fill(struct slabmem_ratio *x);
/* The ratio of figure @offset of @b to @a's; false when a side lacks it. */
bool slabmem_ratio(const struct slabmem_point *a, const struct slabmem_point *b,
		   size_t offset, struct slabmem_ratio *x);

#endif
