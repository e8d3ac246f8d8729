// SPDX-License-Identifier: GPL-2.0
/*
 * Memory accounting: slab pages from the node counters, settled so that
 * frees already made have landed, the most memory one run may hold, and
 * what a benchmark keeps alive for userspace to inspect. Kept apart from
 * the timing core: nothing here runs inside a timed loop.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include "slabbench.h"

static void (*sb_held_release)(void *data);
static void *sb_held_data;

void sb_hold(void (*release)(void *data), void *data)
{
	sb_release_held();
	sb_held_release = release;
	sb_held_data = data;
}

void sb_release_held(void)
{
	if (sb_held_release)
		sb_held_release(sb_held_data);
	sb_held_release = NULL;
	sb_held_data = NULL;
}

/*
 * A node counter in pages, including the per-CPU deltas not yet folded:
 * what writing /proc/sys/vm/stat_refresh and then reading the counter
 * would give, without writing anything. Exact on a quiet guest; a fold
 * running at the same moment can count one delta twice or not at all.
 */
long sb_node_pages(enum node_stat_item item)
{
	long pages = atomic_long_read(&vm_node_stat[item]);
	struct per_cpu_nodestat *pcp;
	int nid, cpu;

	for_each_online_node(nid) {
		for_each_possible_cpu(cpu) {
			pcp = per_cpu_ptr(NODE_DATA(nid)->per_cpu_nodestats, cpu);
			pages += READ_ONCE(pcp->vm_node_stat_diff[item]);
		}
	}
	return pages;
}

/* All slab memory, as Slab in /proc/meminfo. */
long sb_slab_pages(void)
{
	return sb_node_pages(NR_SLAB_RECLAIMABLE_B) +
	       sb_node_pages(NR_SLAB_UNRECLAIMABLE_B);
}

#ifdef CONFIG_KASAN_GENERIC
/*
 * Generic KASAN keeps freed objects in a quarantine, still in their slabs:
 * a queue of up to 1 MB per CPU that spills into a global FIFO of 1/32 of
 * RAM (mm/kasan/quarantine.c), each allocation evicting the oldest batch
 * once the FIFO is full (batches of 1 MB below 16 GB of RAM). Freeing more
 * than a queue's worth on every CPU, then the FIFO's size and two batches
 * through a cache of our own pushes every older object out; destroying
 * the cache takes ours out as well. SLAB_NOLEAKTRACE spares these objects
 * kmemleak's metadata (itself freed late) and keeps the cache from
 * merging, which would leave our objects queued; SLAB_NO_USER_FLAGS
 * spares them slub_debug's poisoning and checking of every byte, the
 * bulk of the time settling took under TCG.
 */
struct sb_settle {
	struct kmem_cache *cache;
	u64 bytes;
};

static int sb_settle_push(void *data)
{
	struct sb_settle *s = data;
	u64 done;
	void *p;

	for (done = 0; done < s->bytes; done += SZ_64K) {
		p = kmem_cache_alloc(s->cache, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		kmem_cache_free(s->cache, p);
		cond_resched();
	}
	return 0;
}

static void sb_kasan_flush_quarantine(void)
{
	struct sb_settle s = { .bytes = 2 * SZ_1M };
	unsigned int cpu;

	s.cache = kmem_cache_create("slabbench-settle", SZ_64K, 0,
				    SLAB_NOLEAKTRACE | SLAB_NO_USER_FLAGS, NULL);
	if (!s.cache)
		return;
	for_each_online_cpu(cpu)
		sb_run_on_cpu(cpu, sb_settle_push, &s);
	s.bytes = (u64)totalram_pages() * PAGE_SIZE / 32 + 2 * SZ_1M;
	sb_settle_push(&s);
	kmem_cache_destroy(s.cache);
}
#else
static void sb_kasan_flush_quarantine(void)
{
}
#endif

/*
 * Empty slabs that the kmalloc caches keep on their partial lists (SLUB's
 * min_partial, SLAB's free_limit): a benchmark that grew a kmalloc cache,
 * as the quarantine makes every one of them grow, leaves them behind
 * without leaking anything. SLOB has no kmalloc caches.
 */
static void sb_shrink_kmalloc_caches(void)
{
#ifndef CONFIG_SLOB
	unsigned int type, i;

	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
			if (kmalloc_caches[type][i])
				kmem_cache_shrink(kmalloc_caches[type][i]);
#endif
}

/*
 * Slab memory once the frees already made have landed: RCU callbacks
 * (task structs of finished kthreads, kmemleak's metadata) run, on KASAN
 * kernels the quarantine emptied, and the kmalloc caches shrunk. Without
 * this, a debug kernel's slab memory moves by thousands of pages between
 * two readings.
 */
long sb_settled_slab_pages(void)
{
	rcu_barrier();
	sb_kasan_flush_quarantine();
	sb_shrink_kmalloc_caches();
	return sb_slab_pages();
}

/*
 * A quarter of RAM at most: a 512 MB guest stays clear of reclaim, and a
 * 64-CPU guest (4 GB by the host's rule) holds 800 caches' CPU slabs.
 */
u64 sb_mem_cap(void)
{
	return min_t(u64, SB_MEM_CAP, (u64)totalram_pages() * PAGE_SIZE / 4);
}
