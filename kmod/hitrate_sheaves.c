// SPDX-License-Identifier: GPL-2.0
/*
 * hitrate's probes on SLUB with sheaves (7.x): each CPU caches objects in
 * a main and a spare sheaf (arrays of object pointers, sheaf_capacity
 * each); the node's barn keeps full and empty sheaves for every CPU. An
 * allocation that finds the main sheaf empty (__pcs_replace_empty_main())
 * swaps in a spare that holds objects, else trades the empty sheaf for a
 * full one from the barn (barn_replace_empty_sheaf(): BARN_GET, or
 * BARN_GET_FAIL), else fills a sheaf from slabs (refill_objects():
 * SHEAF_REFILL objects). A free that finds the main sheaf full
 * (__pcs_replace_full_main()) swaps in a spare with room, or takes an
 * empty sheaf from the barn when it has no spare, else puts the full
 * sheaf into the barn (BARN_PUT) unless the barn holds its most full
 * sheaves (BARN_PUT_FAIL): then the spare is flushed to its slabs
 * (__kmem_cache_free_bulk(): SHEAF_FLUSH objects) and becomes the main.
 *
 * In SLAB's terms (bench_hitrate.c): the per-CPU cache is main and spare;
 * an alloc slow path is a main-sheaf miss the spare could not serve (the
 * barn or the slabs had to), bringing in a barn's full sheaf or the
 * objects refilled; a free slow path is a main-sheaf miss the spare could
 * not absorb, moving out a full sheaf into the barn or the objects
 * flushed. Which of these a miss does is read from the per-CPU sheaves
 * and the barn as the functions enter and return: only this thread uses
 * the cache, pinned to its CPU, and holds the sheaves' lock meanwhile.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/local_lock.h>
#include <linux/spinlock.h>
#include <linux/kobject.h>
#include <linux/kasan.h>
#include <linux/reciprocal_div.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/mm.h>
#include <linux/err.h>
#include "hitrate.h"

#ifdef SB_SLUB_SHEAVES
/*
 * mm/slab.h's struct kmem_cache and mm/slub.c's sheaf structs in 7.3,
 * which a module cannot include, down to the members read here. Checked
 * against the cache before use (hr_sheaves_prepare()): its name, sizes,
 * and the sheaves of this CPU pointing back at it.
 */
struct hr_sheaf {
	union {
		struct rcu_head rcu_head;
		struct list_head barn_list;
		struct llist_node llnode;
		struct {
			unsigned int capacity;
			bool pfmemalloc;
		};
	};
	struct kmem_cache *cache;
	unsigned int size;
	int node;
	void *objects[];
};

struct hr_pcs {
	local_trylock_t lock;
	struct hr_sheaf *main;
	struct hr_sheaf *spare;
	struct hr_sheaf *rcu_free;
};

struct hr_barn {
	spinlock_t lock;
	struct list_head sheaves_full;
	struct list_head sheaves_empty;
	unsigned int nr_full;
	unsigned int nr_empty;
};

struct hr_slub_cache {
	struct hr_pcs __percpu *cpu_sheaves;
	slab_flags_t flags;
	unsigned long min_partial;
	unsigned int size;
	unsigned int object_size;
	struct reciprocal_value reciprocal_size;
	unsigned int offset;
	unsigned int sheaf_capacity;
	unsigned int oo;
	unsigned int min;
	gfp_t allocflags;
	int refcount;
	void (*ctor)(void *object);
	unsigned int inuse;
	unsigned int align;
	unsigned int red_left_pad;
	const char *name;
	struct list_head list;
#ifdef CONFIG_SYSFS
	struct kobject kobj;
#endif
#ifdef CONFIG_SLAB_FREELIST_HARDENED
	unsigned long random;
#endif
#ifdef CONFIG_NUMA
	unsigned int remote_node_defrag_ratio;
#endif
#ifdef CONFIG_SLAB_FREELIST_RANDOM
	unsigned int *random_seq;
#endif
#ifdef CONFIG_KASAN_GENERIC
	struct kasan_cache kasan_info;
#endif
#ifdef CONFIG_HARDENED_USERCOPY
	unsigned int useroffset;
	unsigned int usersize;
#endif
#ifdef CONFIG_SLUB_STATS
	unsigned int __percpu *cpu_stats;
#endif
	struct {
		struct hr_barn *barn;
		void *node;
	} per_node[MAX_NUMNODES];
};

static const struct hr_slub_cache *hr_slub(void)
{
	return (const struct hr_slub_cache *)READ_ONCE(hr_cache);
}

/* The barn of the benchmark's CPU, once the layout was checked. */
static struct hr_barn *hr_barn;

/* get_barn(): the barn of the CPU's node, memoryless or not. */
int hr_sheaves_prepare(struct sb_ctx *ctx, unsigned int cpu)
{
	const struct hr_slub_cache *s = hr_slub();
	const struct hr_pcs *pcs;
	int nid = cpu_to_node(cpu);

	WRITE_ONCE(hr_barn, NULL);
	if (ksize(hr_cache) < offsetof(struct hr_slub_cache, per_node[nr_node_ids]) ||
	    strcmp(s->name, HR_CACHE_NAME) || s->object_size != kmem_cache_size(hr_cache) ||
	    !s->sheaf_capacity)
		return sb_fail(ctx, "SLUB's struct kmem_cache is not the layout this module knows (7.3's)");
	pcs = per_cpu_ptr(s->cpu_sheaves, cpu);
	if (!virt_addr_valid(pcs->main) || pcs->main->cache != hr_cache ||
	    !virt_addr_valid(s->per_node[nid].barn) || !virt_addr_valid(s->per_node[nid].node))
		return sb_fail(ctx, "SLUB's sheaves are not the layout this module knows (7.3's)");
	WRITE_ONCE(hr_barn, s->per_node[nid].barn);
	return 0;
}

unsigned int hr_sheaves_node_locks(unsigned long *locks, unsigned int max)
{
	unsigned int n = 0;
	int nid;

	for_each_node(nid)
		if (n < max && hr_slub()->per_node[nid].node)
			locks[n++] = (unsigned long)hr_slub()->per_node[nid].node;
	return n;
}

bool hr_is_barn_lock(unsigned long lock)
{
	return lock == (unsigned long)READ_ONCE(hr_barn);
}

unsigned int hr_sheaf_capacity(void)
{
	return hr_slub()->sheaf_capacity;
}

#ifdef CONFIG_SLUB_STATS
const unsigned int __percpu *hr_sheaves_stats(void)
{
	return hr_slub()->cpu_stats;
}
#endif

/* The objects a sheaf of this cache holds; 0 for anything else. */
static unsigned int hr_sheaf_size(const struct hr_sheaf *sheaf)
{
	if (IS_ERR_OR_NULL(sheaf) || sheaf->cache != READ_ONCE(hr_cache))
		return 0;
	return sheaf->size;
}

/*
 * What __pcs_replace_*_main() found as it entered: a miss of the main
 * sheaf, served by the spare (a swap) or not (a slow path), and the
 * barn's full sheaves then.
 */
struct hr_replace_data {
	unsigned int nr_full;
	unsigned int put;
};

/* __pcs_replace_empty_main(s, pcs, gfp, alloc_flags): the main is empty. */
static int hr_empty_main_pre(struct kprobe *p, struct pt_regs *regs)
{
	const struct hr_pcs *pcs;

	if (!hr_mine_on_cache(regs))
		return 0;
	pcs = (const struct hr_pcs *)regs_get_kernel_argument(regs, 1);
	hr_add(C_MAIN_EMPTY, 1);
	hr_add(hr_sheaf_size(pcs->spare) ? C_ALLOC_SWAP : C_ALLOC_SLOW, 1);
	return 0;
}

/*
 * __pcs_replace_full_main(s, pcs, allow_spin): the main is full. Without
 * a spare it takes an empty sheaf from the barn or allocates one: no
 * object moves. With a full spare, the full main goes to the barn
 * (BARN_PUT, the barn's full sheaves one more) or, the barn at its
 * limit, the spare is flushed (BARN_PUT_FAIL).
 */
static int hr_full_main_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct hr_replace_data *d = (struct hr_replace_data *)ri->data;
	const struct hr_pcs *pcs;
	unsigned int full;

	if (!hr_mine_on_cache(regs))
		return 1;
	pcs = (const struct hr_pcs *)regs_get_kernel_argument(regs, 1);
	full = hr_sheaf_size(pcs->main);
	hr_add(C_MAIN_FULL, 1);
	if (pcs->spare && hr_sheaf_size(pcs->spare) < full) {
		hr_add(C_FREE_SWAP, 1);
		return 1;
	}
	hr_add(C_FREE_SLOW, 1);
	if (!pcs->spare)
		return 1;
	d->nr_full = READ_ONCE(hr_barn->nr_full);
	d->put = full;
	return 0;
}

static int hr_full_main_ret(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct hr_replace_data *d = (struct hr_replace_data *)ri->data;

	if (!regs_return_value(regs))
		return 0;
	if (READ_ONCE(hr_barn->nr_full) > d->nr_full) {
		hr_add(C_BARN_PUT, 1);
		hr_add(C_FREE_MOVED, d->put);
	} else {
		hr_add(C_BARN_PUT_FAIL, 1);
	}
	return 0;
}

/* barn_replace_empty_sheaf(barn, empty, allow_spin): a full sheaf or NULL. */
static int hr_barn_get_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return !hr_mine() ||
	       regs_get_kernel_argument(regs, 0) != (unsigned long)READ_ONCE(hr_barn);
}

static int hr_barn_get_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int n = hr_sheaf_size((void *)regs_return_value(regs));

	if (n) {
		hr_add(C_BARN_GET, 1);
		hr_add(C_ALLOC_MOVED, n);
	} else {
		hr_add(C_BARN_GET_FAIL, 1);
	}
	return 0;
}

/* refill_objects(s, p, gfp, min, max): the objects it put into p. */
static int hr_refill_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return !hr_mine_on_cache(regs);
}

static int hr_refill_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int n = regs_return_value(regs);

	hr_add(C_REFILLS, 1);
	hr_add(C_REFILL_OBJS, n);
	hr_add(C_ALLOC_MOVED, n);
	return 0;
}

/*
 * __kmem_cache_free_bulk(s, size, p): objects of a sheaf flushed to
 * their slabs (the spare at the barn's limit, or the main when no empty
 * sheaf could be had). The flushes of the spare are what moved out of
 * the CPU's sheaves; a flushed main is counted as it flushes.
 */
static int hr_flush_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned int n;

	if (!hr_mine_on_cache(regs))
		return 0;
	n = regs_get_kernel_argument(regs, 1);
	hr_add(C_FLUSHES, 1);
	hr_add(C_FLUSH_OBJS, n);
	hr_add(C_FREE_MOVED, n);
	return 0;
}

/* ___slab_alloc(): an allocation the sheaves did not serve at all. */
static int hr_slab_alloc_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (hr_mine_on_cache(regs))
		hr_add(C_SLAB_ALLOC, 1);
	return 0;
}

/* __slab_free(s, slab, head, tail, cnt, addr): cnt objects to a slab. */
static int hr_slab_free_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (hr_mine_on_cache(regs))
		hr_add(C_SLAB_FREE, (u32)regs_get_kernel_argument(regs, 4));
	return 0;
}

static const char * const hr_empty_main_syms[] = {
	"__pcs_replace_empty_main", "__pcs_replace_empty_main.constprop.0",
	"__pcs_replace_empty_main.isra.0", NULL
};
static const char * const hr_full_main_syms[] = {
	"__pcs_replace_full_main", "__pcs_replace_full_main.constprop.0",
	"__pcs_replace_full_main.isra.0", NULL
};
static const char * const hr_barn_get_syms[] = {
	"barn_replace_empty_sheaf", "barn_replace_empty_sheaf.part.0", NULL
};
/* Only names that keep their arguments: the count or size is read. */
static const char * const hr_refill_syms[] = { "refill_objects", NULL };
static const char * const hr_flush_syms[] = {
	"__kmem_cache_free_bulk.part.0", "__kmem_cache_free_bulk", NULL
};
static const char * const hr_slab_alloc_syms[] = {
	"___slab_alloc", "___slab_alloc.constprop.0", "___slab_alloc.isra.0",
	NULL
};
static const char * const hr_slab_free_syms[] = { "__slab_free", NULL };

const struct hr_probe hr_sheaf_probes[HR_NR_SHEAF_PROBES] = {
	{ "alloc", hr_empty_main_syms, hr_empty_main_pre },
	{ "free", hr_full_main_syms, NULL, hr_full_main_entry,
	  hr_full_main_ret, sizeof(struct hr_replace_data) },
	{ "barn_get", hr_barn_get_syms, NULL, hr_barn_get_entry,
	  hr_barn_get_ret, 0 },
	{ "refill", hr_refill_syms, NULL, hr_refill_entry, hr_refill_ret, 0 },
	{ "flush", hr_flush_syms, hr_flush_pre },
	{ "slab_alloc", hr_slab_alloc_syms, hr_slab_alloc_pre },
	{ "slab_free", hr_slab_free_syms, hr_slab_free_pre },
};
#endif
