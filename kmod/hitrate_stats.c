// SPDX-License-Identifier: GPL-2.0
/*
 * On kernels with the allocator's own statistics, the result carries them
 * per counted repeat, read around the same rounds, so that the counts can
 * be checked against them: SLUB_STATS (6.1) alloc_slowpath,
 * free_slowpath, alloc_slab and free_slab; SLUB_STATS with sheaves (7.3)
 * those, the fast paths, and the sheaves' refills, flushes and barn
 * gets and puts; DEBUG_SLAB's allocmiss,
 * freemiss and grown (slabs of 2^gfporder pages).
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/reciprocal_div.h>
#include <linux/local_lock.h>
#include "hitrate.h"

#if defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_SHEAVES)
/*
 * 7.3's enum stat_item (mm/slub.c), a counter per CPU in the cache's
 * struct kmem_cache_stats (hitrate_sheaves.c finds it).
 */
#define HR_STATS_KEY	"slub_stats"
static const unsigned int hr_stat_items[] = { 0, 4, 1, 5, 8, 10, 14, 13, 17, 18, 19, 20 };
static const char * const hr_stat_names[] = {
	"alloc_fastpath", "free_fastpath", "alloc_slowpath", "free_slowpath",
	"alloc_slab", "free_slab", "sheaf_refill", "sheaf_flush", "barn_get",
	"barn_get_fail", "barn_put", "barn_put_fail"
};

/* hr_sheaves_prepare() checked the layout, or the run failed. */
bool hr_stats_ok(void)
{
	return true;
}

unsigned long hr_stat(unsigned int i)
{
	const unsigned int __percpu *stats = hr_sheaves_stats();
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(stats, cpu)[hr_stat_items[i]];
	return sum;
}
static_assert(ARRAY_SIZE(hr_stat_items) == HR_NR_STATS);
static_assert(ARRAY_SIZE(hr_stat_names) == HR_NR_STATS);
#elif defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_DEF_H)
/*
 * 6.1's struct kmem_cache_cpu (include/linux/slub_def.h) and the indices
 * of enum stat_item. Only where slub_def.h exists (Kbuild tests it): 6.8
 * made the struct private and later trees reorder it. A wrong layout could
 * not pass the cross-check, which is what these counters are for.
 */
struct hr_slub_cpu_head {
	void **freelist;
	unsigned long tid;
	void *slab;
#ifdef CONFIG_SLUB_CPU_PARTIAL
	void *partial;
#endif
	local_lock_t lock;
	unsigned int stat[];
};

#define HR_STATS_KEY	"slub_stats"
/* ALLOC_SLOWPATH, FREE_SLOWPATH, ALLOC_SLAB, FREE_SLAB */
static const unsigned int hr_stat_items[] = { 1, 3, 8, 11 };
static const char * const hr_stat_names[] = {
	"alloc_slowpath", "free_slowpath", "alloc_slab", "free_slab"
};

bool hr_stats_ok(void)
{
	return true;
}

unsigned long hr_stat(unsigned int i)
{
	struct hr_slub_cpu_head __percpu *c;
	unsigned long sum = 0;
	unsigned int cpu;

	c = *(struct hr_slub_cpu_head __percpu **)hr_cache;
	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(c, cpu)->stat[hr_stat_items[i]];
	return sum;
}
static_assert(ARRAY_SIZE(hr_stat_items) == HR_NR_STATS);
static_assert(ARRAY_SIZE(hr_stat_names) == HR_NR_STATS);
#elif defined(CONFIG_SLAB) && defined(CONFIG_DEBUG_SLAB)
/*
 * 6.1's struct kmem_cache for SLAB (include/linux/slab_def.h, which a
 * module cannot include) down to DEBUG_SLAB's statistics. SLAB is frozen
 * in 6.1; the name and the object size are checked before the counters
 * are believed.
 */
struct hr_slab_debug_cache {
	void __percpu *cpu_cache;
	unsigned int batchcount;
	unsigned int limit;
	unsigned int shared;
	unsigned int size;
	struct reciprocal_value reciprocal_buffer_size;
	slab_flags_t flags;
	unsigned int num;
	unsigned int gfporder;
	gfp_t allocflags;
	size_t colour;
	unsigned int colour_off;
	unsigned int freelist_size;
	void (*ctor)(void *obj);
	const char *name;
	struct list_head list;
	int refcount;
	int object_size;
	int align;
	unsigned long num_active;
	unsigned long num_allocations;
	unsigned long high_mark;
	unsigned long grown;
	unsigned long reaped;
	unsigned long errors;
	unsigned long max_freeable;
	unsigned long node_allocs;
	unsigned long node_frees;
	unsigned long node_overflow;
	atomic_t allochit;
	atomic_t allocmiss;
	atomic_t freehit;
	atomic_t freemiss;
};

#define HR_STATS_KEY	"slab_stats"
static const char * const hr_stat_names[] = { "allocmiss", "freemiss", "grown" };

static const struct hr_slab_debug_cache *hr_slab_debug(void)
{
	return (const struct hr_slab_debug_cache *)hr_cache;
}

bool hr_stats_ok(void)
{
	const struct hr_slab_debug_cache *c = hr_slab_debug();

	return !strcmp(c->name, HR_CACHE_NAME) &&
	       c->object_size == kmem_cache_size(hr_cache);
}

unsigned long hr_stat(unsigned int i)
{
	const struct hr_slab_debug_cache *c = hr_slab_debug();

	if (i == 0)
		return atomic_read(&c->allocmiss);
	if (i == 1)
		return atomic_read(&c->freemiss);
	return READ_ONCE(c->grown);
}
static_assert(ARRAY_SIZE(hr_stat_names) == HR_NR_STATS);
#endif

#if HR_NR_STATS
void hr_out_stats(struct sb_out *out, u64 * const *stats, unsigned int repeats,
		  bool ok)
{
	unsigned int i, r;

	if (!ok) {
		sb_rec_str(out, HR_STATS_KEY, "layout mismatch, not read");
		return;
	}
#ifdef CONFIG_DEBUG_SLAB
	sb_rec_u64(out, "slab_gfporder", hr_slab_debug()->gfporder);
#endif
	sb_rec_open(out, HR_STATS_KEY);
	for (i = 0; i < HR_NR_STATS; i++) {
		sb_rec_open_array(out, hr_stat_names[i]);
		for (r = 0; r < repeats; r++)
			sb_rec_u64(out, NULL, stats[i][r]);
		sb_rec_close(out);
	}
	sb_rec_close(out);
}
#endif
