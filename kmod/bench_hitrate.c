// SPDX-License-Identifier: GPL-2.0
/*
 * hitrate: what the allocator did behind this benchmark's allocations and
 * frees, counted exactly with kprobes and reported per 1000 operations, in
 * terms that mean the same on SLAB and SLUB. A counting pass: probes are
 * registered only for its duration and it reports no times, so timed
 * benchmarks never carry probes. Only this benchmark's thread, on its own
 * private cache, is counted, and only over the counted rounds.
 *
 * Definitions (ops = allocations per repeat = frees per repeat):
 *  - alloc slow-path entry: an allocation the per-CPU cache could not
 *    serve. SLAB: cache_alloc_refill() (DEBUG_SLAB's allocmiss); SLUB:
 *    ___slab_alloc() (SLUB_STATS's alloc_slowpath).
 *  - free slow-path entry: a free the per-CPU fast path could not
 *    complete. SLAB: ___cache_free() entered with the per-CPU array full,
 *    so that cache_flusharray() (inlined there) runs (DEBUG_SLAB's
 *    freemiss); SLUB: __slab_free() (free_slowpath).
 *  - objects per alloc slow-path call: objects a call put at the CPU's
 *    disposal, the one it returns included. SLAB: the growth of the
 *    per-CPU array over cache_alloc_refill(), plus the object returned
 *    (the batchcount refill, or less); SLUB: the object returned plus the
 *    length of the CPU freelist that ___slab_alloc() leaves (the free
 *    objects of the slab it took), walked on return.
 *  - objects per free slow-path call: objects a call moved out of the
 *    CPU's fast-path structure. SLAB: the shrink of the per-CPU array over
 *    a flushing ___cache_free(), the object it then adds aside (the
 *    batchcount flush, to the shared array or the slab lists); SLUB:
 *    __slab_free()'s count of objects (1 for a single free).
 *  - free hit rate: 100% x (1 - objects moved out by free slow paths /
 *    frees), the share of freed objects the per-CPU cache kept. Counting
 *    slow-path entries instead would compare SLUB's per-object
 *    __slab_free() with SLAB's one flush per batchcount objects: SLUB's
 *    rate would then be the share of objects that belonged to the CPU
 *    slab, SLAB's one minus the flushes per free.
 *  - alloc hit rate: 100% x (1 - alloc slow-path entries / ops); one
 *    entry per refill on both, so it means the same on both.
 *  - node list_lock acquisitions: calls of _raw_spin_lock*() on a lock at
 *    the head of a struct kmem_cache_node (list_lock is its first member
 *    on SLAB and SLUB, 6.1 and 6.12), found as a pointer held in the
 *    cache's struct kmem_cache (its node[] array).
 *  - slab pages allocated and freed: pages of successful __alloc_pages()
 *    calls and of __free_pages() calls made by this thread, which in the
 *    counted rounds only allocates and frees on its cache. Slabs that
 *    SLAB's reaper (a kworker) frees later are not this thread's.
 * SLOB has no per-CPU cache, no node lists: only its pages are counted.
 *
 * On kernels with the allocator's own statistics, the result carries them
 * per counted repeat, read around the same rounds, so that the counts can
 * be checked against them: SLUB_STATS (6.1) alloc_slowpath,
 * free_slowpath, alloc_slab and free_slab; DEBUG_SLAB's allocmiss,
 * freemiss and grown (slabs of 2^gfporder pages).
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/reciprocal_div.h>
#include <linux/local_lock.h>
#include "slabbench.h"

enum { P_SIZE, P_COUNT, P_ROUNDS, P_REPEATS, P_PATTERN, P_CPU, P_ORDER, P_SEED };

enum { PATTERN_BATCH, PATTERN_FASTPATH };
enum { ORDER_FIFO, ORDER_LIFO, ORDER_RANDOM };

static const char * const hitrate_patterns[] = { "batch", "fastpath", NULL };
static const char * const hitrate_orders[] = { "fifo", "lifo", "random", NULL };

static const struct sb_param hitrate_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_COUNT] = { "count", "objects allocated per round (batch: all live, then all freed)",
		      SB_U64, 1024, 1, 65536 },
	[P_ROUNDS] = { "rounds", "rounds per repeat", SB_U64, 100, 1, 100000 },
	[P_REPEATS] = { "repeats", "counted repeats (one sample each)", SB_U64,
			5, 1, 1000 },
	[P_PATTERN] = { "pattern", "batch: count allocs then count frees; fastpath: alloc+free pairs",
			SB_ENUM, PATTERN_BATCH, 0, 1, hitrate_patterns },
	[P_CPU] = { "cpu", "CPU the rounds run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
	[P_ORDER] = { "order", "batch free order: allocation order, reverse, or a seeded random permutation",
		      SB_ENUM, ORDER_FIFO, 0, 2, hitrate_orders },
	[P_SEED] = { "seed", "seed of the random free order", SB_U64, 1, 0,
		     U32_MAX },
};

/* What the probes count, per CPU. */
enum {
	C_ALLOC_SLOW,
	C_FREE_SLOW,
	C_ALLOC_MOVED,
	C_FREE_MOVED,
	C_FREE_BLOCK,
	C_LOCKS,
	C_PAGES_ALLOC,
	C_PAGES_FREED,
	C_NR
};

struct hr_counts {
	u64 n[C_NR];
};

/* One hitrate run at a time: sb_main.c serialises runs. */
static DEFINE_PER_CPU(struct hr_counts, hr_counts);
static struct kmem_cache *hr_cache;
static struct task_struct *hr_task;
#ifndef CONFIG_SLOB
/* Pointers held in hr_cache's struct kmem_cache: its node[] among them. */
#define HR_MAX_LOCKS	128
static unsigned long hr_locks[HR_MAX_LOCKS];
static unsigned int hr_nr_locks;
#endif

/*
 * This thread's own work: softirqs that run on its stack at an interrupt's
 * end (RCU callbacks freeing other caches' slabs, say) are not. The
 * hardirq and NMI counts cannot tell: an int3 kprobe enters its handler
 * as an NMI, the serving-softirq bit stays the probed code's.
 */
static bool hr_mine(void)
{
	return current == READ_ONCE(hr_task) && !in_serving_softirq();
}

#ifndef CONFIG_SLOB
/* This thread, and a probed function whose first argument is our cache. */
static bool hr_mine_on_cache(struct pt_regs *regs)
{
	return hr_mine() &&
	       regs_get_kernel_argument(regs, 0) == (unsigned long)READ_ONCE(hr_cache);
}

#endif

static void hr_add(unsigned int c, u64 v)
{
	this_cpu_add(hr_counts.n[c], v);
}

/*
 * A probe: a kprobe (@pre) or a kretprobe (@entry, @ret, @data_size).
 * Handlers run with preemption off, possibly with IRQs off: they count,
 * nothing else, and never allocate.
 */
struct hr_probe {
	/* Key under "probes" in the result. */
	const char *name;
	/* Candidates; gcc may add .constprop.0 or .isra.0. */
	const char * const *symbols;
	kprobe_pre_handler_t pre;
	kretprobe_handler_t entry;
	kretprobe_handler_t ret;
	size_t data_size;
};

struct hr_order_data {
	unsigned int order;
};

static int hr_pages_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct hr_order_data *d = (struct hr_order_data *)ri->data;

	if (!hr_mine())
		return 1;
	d->order = regs_get_kernel_argument(regs, 1);
	return 0;
}

static int hr_pages_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct hr_order_data *d = (struct hr_order_data *)ri->data;

	if (regs_return_value(regs))
		hr_add(C_PAGES_ALLOC, 1ULL << d->order);
	return 0;
}

static int hr_free_pages_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (hr_mine())
		hr_add(C_PAGES_FREED, 1ULL << regs_get_kernel_argument(regs, 1));
	return 0;
}

/* 6.12 renamed it with memory allocation profiling. */
static const char * const hr_alloc_pages_syms[] = {
	"__alloc_pages", "__alloc_pages_noprof", NULL
};
static const char * const hr_free_pages_syms[] = { "__free_pages", NULL };

#ifndef CONFIG_SLOB
/*
 * Locks: at the head of one of the cache's struct kmem_cache_node. No
 * other pointer the cache holds is the address of a lock (its name, the
 * list of caches, the sysfs kobject's relatives), and the thread takes
 * few locks of any kind in its rounds.
 */
static int hr_lock_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long lock = regs_get_kernel_argument(regs, 0);
	unsigned int i;

	if (!hr_mine())
		return 0;
	for (i = 0; i < hr_nr_locks; i++) {
		if (hr_locks[i] == lock) {
			hr_add(C_LOCKS, 1);
			break;
		}
	}
	return 0;
}

static const char * const hr_lock_syms[] = { "_raw_spin_lock", NULL };
static const char * const hr_lock_irqsave_syms[] = { "_raw_spin_lock_irqsave", NULL };
static const char * const hr_lock_irq_syms[] = { "_raw_spin_lock_irq", NULL };

/* Every word of the cache's struct kmem_cache that is a kernel address. */
static void hr_find_locks(void)
{
	const unsigned long *w = (const unsigned long *)hr_cache;
	size_t i, n = ksize(hr_cache) / sizeof(*w);

	hr_nr_locks = 0;
	for (i = 0; i < n && hr_nr_locks < HR_MAX_LOCKS; i++)
		if (virt_addr_valid((void *)w[i]))
			hr_locks[hr_nr_locks++] = w[i];
}
#endif

#ifdef CONFIG_SLAB
/*
 * The head of mm/slab.c's private struct array_cache. SLAB's code is
 * frozen in 6.1 (it was removed in 6.8), so this layout cannot drift.
 */
struct hr_array_cache_head {
	unsigned int avail;
	unsigned int limit;
};

static const struct hr_array_cache_head *hr_slab_ac(void)
{
	return this_cpu_ptr((struct hr_array_cache_head __percpu *)
			    sb_slab_head(READ_ONCE(hr_cache))->cpu_cache);
}

struct hr_avail_data {
	unsigned int avail;
};

static int hr_refill_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct hr_avail_data *d = (struct hr_avail_data *)ri->data;

	if (!hr_mine_on_cache(regs))
		return 1;
	hr_add(C_ALLOC_SLOW, 1);
	d->avail = hr_slab_ac()->avail;
	return 0;
}

/* cache_alloc_refill() returns ac->entry[--ac->avail]. */
static int hr_refill_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct hr_avail_data *d = (struct hr_avail_data *)ri->data;
	u64 now = hr_slab_ac()->avail + !!regs_return_value(regs);

	if (now > d->avail)
		hr_add(C_ALLOC_MOVED, now - d->avail);
	return 0;
}

/* The test in ___cache_free() that sends a free to cache_flusharray(). */
static int hr_cache_free_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct hr_avail_data *d = (struct hr_avail_data *)ri->data;
	const struct hr_array_cache_head *ac;

	if (!hr_mine_on_cache(regs))
		return 1;
	ac = hr_slab_ac();
	if (ac->avail < ac->limit)
		return 1;
	hr_add(C_FREE_SLOW, 1);
	d->avail = ac->avail;
	return 0;
}

/* After the flush, ___cache_free() adds the freed object to the array. */
static int hr_cache_free_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct hr_avail_data *d = (struct hr_avail_data *)ri->data;
	u64 after = hr_slab_ac()->avail;

	if (d->avail + 1 > after)
		hr_add(C_FREE_MOVED, d->avail + 1 - after);
	return 0;
}

static int hr_free_block_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (hr_mine_on_cache(regs))
		hr_add(C_FREE_BLOCK, 1);
	return 0;
}

static const char * const hr_refill_syms[] = {
	"cache_alloc_refill", "cache_alloc_refill.constprop.0",
	"cache_alloc_refill.isra.0", NULL
};
static const char * const hr_cache_free_syms[] = { "___cache_free", NULL };
static const char * const hr_free_block_syms[] = {
	"free_block.constprop.0", "free_block", "free_block.isra.0", NULL
};

static const struct hr_probe hr_probes[] = {
	{ "alloc", hr_refill_syms, NULL, hr_refill_entry, hr_refill_ret,
	  sizeof(struct hr_avail_data) },
	{ "free", hr_cache_free_syms, NULL, hr_cache_free_entry,
	  hr_cache_free_ret, sizeof(struct hr_avail_data) },
	{ "free_block", hr_free_block_syms, hr_free_block_pre },
	{ "lock", hr_lock_syms, hr_lock_pre },
	{ "lock_irqsave", hr_lock_irqsave_syms, hr_lock_pre },
	{ "lock_irq", hr_lock_irq_syms, hr_lock_pre },
	{ "pages_alloc", hr_alloc_pages_syms, NULL, hr_pages_entry,
	  hr_pages_ret, sizeof(struct hr_order_data) },
	{ "pages_free", hr_free_pages_syms, hr_free_pages_pre },
};
#define HR_PER_CPU_CACHE	1
#elif defined(CONFIG_SLUB)
/*
 * The heads of SLUB's struct kmem_cache and struct kmem_cache_cpu, the
 * same in 6.1 (include/linux/slub_def.h) and 6.12 (mm/slab.h, without
 * SLUB_TINY), neither of which a module can include. Checked against the
 * cache before use (hr_slub_layout_ok()); the walk of the free list needs
 * unobfuscated free pointers (no SLAB_FREELIST_HARDENED).
 */
struct hr_slub_cache_head {
	void __percpu *cpu_slab;
#ifndef SB_SLUB_DEF_H
	/* Where SLUB's structs went private (6.8 on); empty without lockdep. */
	struct lock_class_key lock_key;
#endif
	slab_flags_t flags;
	unsigned long min_partial;
	unsigned int size;
	unsigned int object_size;
	struct reciprocal_value reciprocal_size;
	unsigned int offset;
};

struct hr_slub_cpu_freelist {
	void *freelist;
};

static const struct hr_slub_cache_head *hr_slub_head(void)
{
	return (const struct hr_slub_cache_head *)READ_ONCE(hr_cache);
}

/*
 * Whether the free list can be walked: the layout matches the cache and
 * free pointers are stored plain. Otherwise (Debian's kernel hardens
 * them) objects per alloc slow path are not counted, and not reported.
 */
static bool hr_slub_walk;

static bool hr_slub_walk_ok(void)
{
	const struct hr_slub_cache_head *h = hr_slub_head();

	return !IS_ENABLED(CONFIG_SLAB_FREELIST_HARDENED) &&
	       h->object_size == kmem_cache_size(hr_cache) &&
	       h->size >= h->object_size &&
	       h->offset <= h->size - sizeof(void *);
}

static int hr_slab_alloc_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	if (!hr_mine_on_cache(regs))
		return 1;
	hr_add(C_ALLOC_SLOW, 1);
	return !READ_ONCE(hr_slub_walk);
}

/*
 * ___slab_alloc() returns the first object of the free list it took and
 * leaves the rest on the CPU's freelist: count those, by the free pointer
 * at s->offset in each. A slab holds at most MAX_OBJS_PER_PAGE (32767)
 * objects: the bound only guards against a corrupt list.
 */
static int hr_slab_alloc_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	const struct hr_slub_cache_head *h = hr_slub_head();
	const struct hr_slub_cpu_freelist *c;
	void *p;
	u64 n;

	if (!regs_return_value(regs))
		return 0;
	c = this_cpu_ptr((struct hr_slub_cpu_freelist __percpu *)h->cpu_slab);
	for (n = 1, p = READ_ONCE(c->freelist); p && n <= 32768; n++)
		p = READ_ONCE(*(void **)(p + h->offset));
	hr_add(C_ALLOC_MOVED, n);
	return 0;
}

/* __slab_free(s, slab, head, tail, cnt, addr): cnt objects. */
static int hr_slab_free_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (!hr_mine_on_cache(regs))
		return 0;
	hr_add(C_FREE_SLOW, 1);
	hr_add(C_FREE_MOVED, (u32)regs_get_kernel_argument(regs, 4));
	return 0;
}

static const char * const hr_slab_alloc_syms[] = {
	"___slab_alloc", "___slab_alloc.constprop.0", "___slab_alloc.isra.0",
	NULL
};
/* Only the unrenamed function: its fifth argument is read. */
static const char * const hr_slab_free_syms[] = { "__slab_free", NULL };

static const struct hr_probe hr_probes[] = {
	{ "alloc", hr_slab_alloc_syms, NULL, hr_slab_alloc_entry,
	  hr_slab_alloc_ret, 0 },
	{ "free", hr_slab_free_syms, hr_slab_free_pre },
	{ "lock", hr_lock_syms, hr_lock_pre },
	{ "lock_irqsave", hr_lock_irqsave_syms, hr_lock_pre },
	{ "lock_irq", hr_lock_irq_syms, hr_lock_pre },
	{ "pages_alloc", hr_alloc_pages_syms, NULL, hr_pages_entry,
	  hr_pages_ret, sizeof(struct hr_order_data) },
	{ "pages_free", hr_free_pages_syms, hr_free_pages_pre },
};
#define HR_PER_CPU_CACHE	1
#else
static const struct hr_probe hr_probes[] = {
	{ "pages_alloc", hr_alloc_pages_syms, NULL, hr_pages_entry,
	  hr_pages_ret, sizeof(struct hr_order_data) },
	{ "pages_free", hr_free_pages_syms, hr_free_pages_pre },
};
#define HR_PER_CPU_CACHE	0
#endif

#define HR_NR_PROBES	ARRAY_SIZE(hr_probes)

struct hr_kprobe {
	struct kprobe kp;
	struct kretprobe rp;
	const char *attached;
};

static struct hr_kprobe hr_kprobes[HR_NR_PROBES];

static void hr_unregister_one(unsigned int i)
{
	if (hr_probes[i].pre)
		unregister_kprobe(&hr_kprobes[i].kp);
	else
		unregister_kretprobe(&hr_kprobes[i].rp);
}

static void hr_unregister(unsigned int n)
{
	while (n--)
		hr_unregister_one(n);
}

static int hr_register_one(unsigned int i, const char *sym)
{
	const struct hr_probe *p = &hr_probes[i];
	struct hr_kprobe *k = &hr_kprobes[i];

	/* A kprobe must be zeroed before each registration. */
	memset(&k->kp, 0, sizeof(k->kp));
	memset(&k->rp, 0, sizeof(k->rp));
	if (p->pre) {
		k->kp.symbol_name = sym;
		k->kp.pre_handler = p->pre;
		return register_kprobe(&k->kp);
	}
	k->rp.kp.symbol_name = sym;
	k->rp.entry_handler = p->entry;
	k->rp.handler = p->ret;
	k->rp.data_size = p->data_size;
	/* Instances in flight at once: every CPU may be in the function. */
	k->rp.maxactive = max_t(int, 64, 4 * num_possible_cpus());
	return register_kretprobe(&k->rp);
}

static int hr_register(struct sb_ctx *ctx)
{
	const char * const *sym;
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < HR_NR_PROBES; i++) {
		hr_kprobes[i].attached = NULL;
		for (sym = hr_probes[i].symbols; *sym; sym++) {
			ret = hr_register_one(i, *sym);
			if (!ret) {
				hr_kprobes[i].attached = *sym;
				break;
			}
		}
		if (!hr_kprobes[i].attached) {
			hr_unregister(i);
			return sb_fail(ctx, "no kprobe for %s: %s and its variants failed (errno %d)",
				       hr_probes[i].name, hr_probes[i].symbols[0], -ret);
		}
	}
	return 0;
}

/* Kretprobe calls missed for want of an instance: the counts are short. */
static unsigned long hr_missed(void)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; i < HR_NR_PROBES; i++)
		if (!hr_probes[i].pre)
			missed += hr_kprobes[i].rp.nmissed;
	return missed;
}

static u64 hr_total(unsigned int c)
{
	u64 sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(hr_counts, cpu).n[c];
	return sum;
}

#if defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_DEF_H)
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

static unsigned long hr_stat(unsigned int i)
{
	struct hr_slub_cpu_head __percpu *c;
	unsigned long sum = 0;
	unsigned int cpu;

	c = *(struct hr_slub_cpu_head __percpu **)hr_cache;
	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(c, cpu)->stat[hr_stat_items[i]];
	return sum;
}
#define HR_NR_STATS	4
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

static bool hr_stats_ok(void)
{
	const struct hr_slab_debug_cache *c = hr_slab_debug();

	return !strcmp(c->name, "slabbench-hitrate") &&
	       c->object_size == kmem_cache_size(hr_cache);
}

static unsigned long hr_stat(unsigned int i)
{
	const struct hr_slab_debug_cache *c = hr_slab_debug();

	if (i == 0)
		return atomic_read(&c->allocmiss);
	if (i == 1)
		return atomic_read(&c->freemiss);
	return READ_ONCE(c->grown);
}
#define HR_NR_STATS	3
static_assert(ARRAY_SIZE(hr_stat_names) == HR_NR_STATS);
#else
#define HR_NR_STATS	0
#endif

struct hitrate {
	struct sb_ctx *ctx;
	void **objs;
	/* Free order as indices into objs. */
	u32 *order;
	/* Per counted repeat and counter. */
	u64 *counts[C_NR];
	/* Per counted repeat: the allocator's own statistics. */
	u64 *stats[HR_NR_STATS ? HR_NR_STATS : 1];
	unsigned long stats_base[HR_NR_STATS ? HR_NR_STATS : 1];
	bool stats_ok;
};

/* Fisher-Yates over prandom, seeded: the same order on every kernel. */
static void hr_fill_order(struct hitrate *h)
{
	u32 i, j, tmp, n = h->ctx->val[P_COUNT];
	struct rnd_state rnd;

	for (i = 0; i < n; i++)
		h->order[i] = h->ctx->val[P_ORDER] == ORDER_LIFO ? n - 1 - i : i;
	if (h->ctx->val[P_ORDER] != ORDER_RANDOM)
		return;
	prandom_seed_state(&rnd, h->ctx->val[P_SEED]);
	for (i = n - 1; i > 0; i--) {
		j = reciprocal_scale(prandom_u32_state(&rnd), i + 1);
		tmp = h->order[i];
		h->order[i] = h->order[j];
		h->order[j] = tmp;
	}
}

/* Frees the first @n objects of @objs in allocation order. */
static void hr_free_first(void **objs, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		kmem_cache_free(hr_cache, objs[i]);
}

static int hr_round(struct hitrate *h)
{
	bool batch = h->ctx->val[P_PATTERN] == PATTERN_BATCH;
	u64 count = h->ctx->val[P_COUNT];
	void *obj;
	u64 i;

	for (i = 0; i < count; i++) {
		obj = kmem_cache_alloc(hr_cache, GFP_KERNEL);
		if (unlikely(!obj)) {
			if (batch)
				hr_free_first(h->objs, i);
			return -ENOMEM;
		}
		if (batch)
			h->objs[i] = obj;
		else
			kmem_cache_free(hr_cache, obj);
		if (!((i + 1) % SB_BATCH))
			cond_resched();
	}
	if (!batch)
		return 0;
	for (i = 0; i < count; i++) {
		kmem_cache_free(hr_cache, h->objs[h->order[i]]);
		if (!((i + 1) % SB_BATCH))
			cond_resched();
	}
	return 0;
}

static int hr_pinned(void *arg)
{
	struct hitrate *h = arg;
	u64 before[C_NR];
	unsigned int r, i;
	u64 round;
	int ret;

	WRITE_ONCE(hr_task, current);
	/* One uncounted round fills the per-CPU cache and the first slabs. */
	ret = hr_round(h);
	for (r = 0; !ret && r < h->ctx->val[P_REPEATS]; r++) {
		for (i = 0; i < C_NR; i++)
			before[i] = hr_total(i);
#if HR_NR_STATS
		for (i = 0; i < HR_NR_STATS && h->stats_ok; i++)
			h->stats_base[i] = hr_stat(i);
#endif
		for (round = 0; !ret && round < h->ctx->val[P_ROUNDS]; round++) {
			ret = hr_round(h);
			cond_resched();
		}
		for (i = 0; i < C_NR; i++)
			h->counts[i][r] = hr_total(i) - before[i];
#if HR_NR_STATS
		for (i = 0; i < HR_NR_STATS && h->stats_ok; i++)
			h->stats[i][r] = hr_stat(i) - h->stats_base[i];
#endif
	}
	WRITE_ONCE(hr_task, NULL);
	return ret;
}

/* @x per 1000 of @ops, in thousandths. */
static s64 hr_per1k_milli(u64 x, u64 ops)
{
	return div64_u64(x * 1000000, ops);
}

static void hr_out_per1k(struct hitrate *h, s64 *samples, const char *name,
			 unsigned int c, u64 ops)
{
	unsigned int repeats = h->ctx->val[P_REPEATS], r;

	for (r = 0; r < repeats; r++)
		samples[r] = hr_per1k_milli(h->counts[c][r], ops);
	sb_out_metric(h->ctx->out, false, name, "per1k", true, samples, repeats);
}

static void hr_out_calls(struct hitrate *h, s64 *samples, const char *name,
			 unsigned int c)
{
	unsigned int repeats = h->ctx->val[P_REPEATS], r;

	for (r = 0; r < repeats; r++)
		samples[r] = h->counts[c][r] * 1000;
	sb_out_metric(h->ctx->out, false, name, "calls", true, samples, repeats);
}

/*
 * Objects per slow-path call; only when every repeat made calls: a ratio
 * over no calls is not a figure.
 */
static void hr_out_per_call(struct hitrate *h, s64 *samples, const char *name,
			    unsigned int objs, unsigned int calls)
{
	unsigned int repeats = h->ctx->val[P_REPEATS], r;

	for (r = 0; r < repeats; r++) {
		if (!h->counts[calls][r])
			return;
		samples[r] = div64_u64(h->counts[objs][r] * 1000,
				       h->counts[calls][r]);
	}
	sb_out_metric(h->ctx->out, false, name, "objects/call", false, samples,
		      repeats);
}

/* 100% x (1 - @c / @ops), in thousandths. */
static void hr_out_rate(struct hitrate *h, s64 *samples, const char *name,
			unsigned int c, u64 ops)
{
	unsigned int repeats = h->ctx->val[P_REPEATS], r;

	for (r = 0; r < repeats; r++)
		samples[r] = 100000 - (s64)div64_u64(min(h->counts[c][r], ops) *
						     100000, ops);
	sb_out_metric(h->ctx->out, false, name, "%", false, samples, repeats);
}

static void hr_out_stats(struct hitrate *h)
{
#if HR_NR_STATS
	unsigned int repeats = h->ctx->val[P_REPEATS], i, r;
	struct sb_out *out = h->ctx->out;

	if (!h->stats_ok) {
		sb_printf(out, "\"" HR_STATS_KEY "\":\"layout mismatch, not read\",");
		return;
	}
#ifdef CONFIG_DEBUG_SLAB
	sb_printf(out, "\"slab_gfporder\":%u,", hr_slab_debug()->gfporder);
#endif
	sb_printf(out, "\"" HR_STATS_KEY "\":{");
	for (i = 0; i < HR_NR_STATS; i++) {
		sb_printf(out, "%s\"%s\":[", i ? "," : "", hr_stat_names[i]);
		for (r = 0; r < repeats; r++)
			sb_printf(out, "%s%llu", r ? "," : "", h->stats[i][r]);
		sb_printf(out, "]");
	}
	sb_printf(out, "},");
#endif
}

static void hr_output(struct hitrate *h, s64 *samples)
{
	struct sb_ctx *ctx = h->ctx;
	struct sb_out *out = ctx->out;
	u64 ops = ctx->val[P_COUNT] * ctx->val[P_ROUNDS];
	unsigned int i;

	sb_printf(out, "\"per_cpu_cache\":%s,\"ops_per_repeat\":%llu,",
		  HR_PER_CPU_CACHE ? "true" : "false", ops);
	sb_printf(out, "\"probes\":{");
	for (i = 0; i < HR_NR_PROBES; i++)
		sb_printf(out, "%s\"%s\":\"%s\"", i ? "," : "",
			  hr_probes[i].name, hr_kprobes[i].attached);
	sb_printf(out, "},");
#ifndef CONFIG_SLOB
	sb_printf(out, "\"node_lock_candidates\":%u,", hr_nr_locks);
#endif
#ifdef CONFIG_SLUB
	sb_printf(out, "\"freelist_walked\":%s,", hr_slub_walk ? "true" : "false");
#endif
	hr_out_stats(h);
#ifdef CONFIG_SLAB
	sb_printf(out, "\"slab_tunables\":{\"limit\":%u,\"batchcount\":%u,\"shared\":%u},",
		  sb_slab_head(hr_cache)->limit,
		  sb_slab_head(hr_cache)->batchcount,
		  sb_slab_head(hr_cache)->shared);
#endif
	sb_printf(out, "\"metrics\":{");
	/* Every allocator counts pages; the first metric opens the object. */
	for (i = 0; i < ctx->val[P_REPEATS]; i++)
		samples[i] = hr_per1k_milli(h->counts[C_PAGES_ALLOC][i], ops);
	sb_out_metric(out, true, "slab_pages_alloc_per1k", "per1k", true,
		      samples, ctx->val[P_REPEATS]);
	hr_out_per1k(h, samples, "slab_pages_freed_per1k", C_PAGES_FREED, ops);
	if (!HR_PER_CPU_CACHE)
		goto end;
	hr_out_rate(h, samples, "alloc_hit_rate", C_ALLOC_SLOW, ops);
	hr_out_rate(h, samples, "free_hit_rate", C_FREE_MOVED, ops);
	hr_out_per1k(h, samples, "alloc_slowpath_per1k", C_ALLOC_SLOW, ops);
	hr_out_per1k(h, samples, "free_slowpath_per1k", C_FREE_SLOW, ops);
#ifdef CONFIG_SLUB
	if (hr_slub_walk)
#endif
		hr_out_per_call(h, samples, "alloc_objects_per_slowpath",
				C_ALLOC_MOVED, C_ALLOC_SLOW);
	hr_out_per_call(h, samples, "free_objects_per_slowpath",
			C_FREE_MOVED, C_FREE_SLOW);
	hr_out_per1k(h, samples, "list_lock_per1k", C_LOCKS, ops);
	hr_out_calls(h, samples, "alloc_misses", C_ALLOC_SLOW);
	hr_out_calls(h, samples, "free_misses", C_FREE_SLOW);
#ifdef CONFIG_SLAB
	hr_out_calls(h, samples, "free_block_calls", C_FREE_BLOCK);
#endif
end:
	sb_printf(out, "}");
}

static int hitrate_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	u64 count = ctx->val[P_COUNT];
	struct hitrate h = { .ctx = ctx };
	s64 *samples = NULL;
	unsigned long missed;
	unsigned int i;
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, count * (ctx->val[P_SIZE] +
						 sizeof(void *) + sizeof(u32)));
	/* The warm-up round, then rounds per counted repeat. */
	if (!ret)
		ret = sb_check_work(ctx, count * (1 + ctx->val[P_ROUNDS] *
						  ctx->val[P_REPEATS]));
	if (ret)
		return ret;
	ret = -ENOMEM;
	for (i = 0; i < C_NR; i++) {
		h.counts[i] = kcalloc(repeats, sizeof(u64), GFP_KERNEL);
		if (!h.counts[i])
			goto out;
	}
	for (i = 0; i < HR_NR_STATS; i++) {
		h.stats[i] = kcalloc(repeats, sizeof(u64), GFP_KERNEL);
		if (!h.stats[i])
			goto out;
	}
	samples = kcalloc(repeats, sizeof(*samples), GFP_KERNEL);
	h.objs = kvmalloc_array(count, sizeof(void *), GFP_KERNEL);
	h.order = kvmalloc_array(count, sizeof(u32), GFP_KERNEL);
	if (!samples || !h.objs || !h.order)
		goto out;
	hr_fill_order(&h);
	ret = sb_cache_create_unmerged(ctx, "slabbench-hitrate",
				       ctx->val[P_SIZE], &hr_cache);
	if (ret)
		goto out;
#ifdef CONFIG_SLUB
	WRITE_ONCE(hr_slub_walk, hr_slub_walk_ok());
#endif
#ifdef CONFIG_DEBUG_SLAB
	h.stats_ok = hr_stats_ok();
#else
	h.stats_ok = true;
#endif
#ifndef CONFIG_SLOB
	hr_find_locks();
#endif
	ret = hr_register(ctx);
	if (ret)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], hr_pinned, &h);
	missed = hr_missed();
	hr_unregister(HR_NR_PROBES);
	if (!ret && missed)
		ret = sb_fail(ctx, "kretprobes missed %lu calls: counts incomplete",
			      missed);
	if (!ret)
		hr_output(&h, samples);
out:
	kmem_cache_destroy(hr_cache);
	hr_cache = NULL;
	kvfree(h.order);
	kvfree(h.objs);
	kfree(samples);
	for (i = 0; i < C_NR; i++)
		kfree(h.counts[i]);
	for (i = 0; i < HR_NR_STATS; i++)
		kfree(h.stats[i]);
	return ret;
}

const struct sb_bench sb_bench_hitrate = {
	.name = "hitrate",
	.desc = "what the allocator did per 1000 allocs and frees: slow paths, objects per slow path, node list_lock, slab pages, hit rates (kprobes; counting pass, no times)",
	.params = hitrate_params,
	.nr_params = ARRAY_SIZE(hitrate_params),
	.run = hitrate_run,
	.selftest = "count=512 rounds=10 repeats=2 order=random",
};
