// SPDX-License-Identifier: GPL-2.0
/*
 * hitrate's counters: kprobes on the allocator's slow paths, its node
 * locks and the page allocator, per allocator, counting only the
 * benchmark's thread on its own cache (the definitions are in
 * bench_hitrate.c). Handlers run with preemption off, possibly with IRQs
 * off: they count, nothing else, and never allocate.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/reciprocal_div.h>
#include "hitrate.h"

struct hr_counts {
	u64 n[C_NR];
};

static DEFINE_PER_CPU(struct hr_counts, hr_counts);
struct kmem_cache *hr_cache;
struct task_struct *hr_task;
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
bool hr_mine(void)
{
	return current == READ_ONCE(hr_task) && !in_serving_softirq();
}

/* This thread, and a probed function whose first argument is our cache. */
bool hr_mine_on_cache(struct pt_regs *regs)
{
	return hr_mine() &&
	       regs_get_kernel_argument(regs, 0) == (unsigned long)READ_ONCE(hr_cache);
}

void hr_add(unsigned int c, u64 v)
{
	this_cpu_add(hr_counts.n[c], v);
}

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

/*
 * 6.12 renamed it with memory allocation profiling. Slabs take frozen
 * pages (no reference count) from 6.14, through the function that
 * __alloc_pages_noprof() and __free_pages() now wrap: probed first where
 * it exists, it counts every page once.
 */
static const char * const hr_alloc_pages_syms[] = {
	"__alloc_frozen_pages_noprof", "__alloc_pages", "__alloc_pages_noprof",
	NULL
};
static const char * const hr_free_pages_syms[] = {
	"__free_frozen_pages", "__free_pages", NULL
};

#ifndef CONFIG_SLOB
/*
 * Locks: at the head of one of the cache's struct kmem_cache_node. No
 * other pointer the cache holds is the address of a lock (its name, the
 * list of caches, the sysfs kobject's relatives), and the thread takes
 * few locks of any kind in its rounds. With sheaves, the cache's barns
 * (a lock at their head too) are told apart.
 */
static int hr_lock_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long lock = regs_get_kernel_argument(regs, 0);
	unsigned int i;

	if (!hr_mine())
		return 0;
#ifdef SB_SLUB_SHEAVES
	if (hr_is_barn_lock(lock)) {
		hr_add(C_BARN_LOCKS, 1);
		return 0;
	}
#endif
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

/*
 * Every word of the cache's struct kmem_cache that is a kernel address;
 * with sheaves, its node[] pointers alone, its barns being known.
 */
static void hr_find_locks(void)
{
#ifdef SB_SLUB_SHEAVES
	hr_nr_locks = hr_sheaves_node_locks(hr_locks, HR_MAX_LOCKS);
#else
	const unsigned long *w = (const unsigned long *)hr_cache;
	size_t i, n = ksize(hr_cache) / sizeof(*w);

	hr_nr_locks = 0;
	for (i = 0; i < n && hr_nr_locks < HR_MAX_LOCKS; i++)
		if (virt_addr_valid((void *)w[i]))
			hr_locks[hr_nr_locks++] = w[i];
#endif
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

static const struct hr_probe hr_alloc_probes[] = {
	{ "alloc", hr_refill_syms, NULL, hr_refill_entry, hr_refill_ret,
	  sizeof(struct hr_avail_data) },
	{ "free", hr_cache_free_syms, NULL, hr_cache_free_entry,
	  hr_cache_free_ret, sizeof(struct hr_avail_data) },
	{ "free_block", hr_free_block_syms, hr_free_block_pre },
};
#elif defined(CONFIG_SLUB) && !defined(SB_SLUB_SHEAVES)
/*
 * The heads of SLUB's struct kmem_cache and struct kmem_cache_cpu, the
 * same in 6.1 (include/linux/slub_def.h) and 6.12 (mm/slab.h, without
 * SLUB_TINY), neither of which a module can include. Checked against the
 * cache before use (hr_slub_walk_ok()); the walk of the free list needs
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

static const struct hr_probe hr_alloc_probes[] = {
	{ "alloc", hr_slab_alloc_syms, NULL, hr_slab_alloc_entry,
	  hr_slab_alloc_ret, 0 },
	{ "free", hr_slab_free_syms, hr_slab_free_pre },
};
#endif

/* The allocator's probes first, then those every allocator has. */
static const struct hr_probe hr_common_probes[] = {
#ifndef CONFIG_SLOB
	{ "lock", hr_lock_syms, hr_lock_pre },
	{ "lock_irqsave", hr_lock_irqsave_syms, hr_lock_pre },
	{ "lock_irq", hr_lock_irq_syms, hr_lock_pre },
#endif
	{ "pages_alloc", hr_alloc_pages_syms, NULL, hr_pages_entry,
	  hr_pages_ret, sizeof(struct hr_order_data) },
	{ "pages_free", hr_free_pages_syms, hr_free_pages_pre },
};

#ifdef SB_SLUB_SHEAVES
#define HR_ALLOC_PROBES		hr_sheaf_probes
#define HR_NR_ALLOC_PROBES	HR_NR_SHEAF_PROBES
#elif HR_PER_CPU_CACHE
#define HR_ALLOC_PROBES		hr_alloc_probes
#define HR_NR_ALLOC_PROBES	ARRAY_SIZE(hr_alloc_probes)
#else
#define HR_NR_ALLOC_PROBES	0
#endif
#define HR_NR_PROBES	(HR_NR_ALLOC_PROBES + ARRAY_SIZE(hr_common_probes))

static const struct hr_probe *hr_probe(unsigned int i)
{
#if HR_PER_CPU_CACHE
	if (i < HR_NR_ALLOC_PROBES)
		return &HR_ALLOC_PROBES[i];
#endif
	return &hr_common_probes[i - HR_NR_ALLOC_PROBES];
}

struct hr_kprobe {
	struct kprobe kp;
	struct kretprobe rp;
	const char *attached;
};

static struct hr_kprobe hr_kprobes[HR_NR_PROBES];

static void hr_unregister_one(unsigned int i)
{
	if (hr_probe(i)->pre)
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
	const struct hr_probe *p = hr_probe(i);
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

int hr_register(struct sb_ctx *ctx)
{
	const char * const *sym;
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < HR_NR_PROBES; i++) {
		hr_kprobes[i].attached = NULL;
		for (sym = hr_probe(i)->symbols; *sym; sym++) {
			ret = hr_register_one(i, *sym);
			if (!ret) {
				hr_kprobes[i].attached = *sym;
				break;
			}
		}
		if (!hr_kprobes[i].attached) {
			hr_unregister(i);
			return sb_fail(ctx, "no kprobe for %s: %s and its variants failed (errno %d)",
				       hr_probe(i)->name, hr_probe(i)->symbols[0], -ret);
		}
	}
	return 0;
}

unsigned long hr_missed(void)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; i < HR_NR_PROBES; i++)
		if (!hr_probe(i)->pre)
			missed += hr_kprobes[i].rp.nmissed;
	return missed;
}

u64 hr_total(unsigned int c)
{
	u64 sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(hr_counts, cpu).n[c];
	return sum;
}

void hr_unregister_all(void)
{
	hr_unregister(HR_NR_PROBES);
}

int hr_probes_prepare(struct sb_ctx *ctx, unsigned int cpu)
{
#ifdef SB_SLUB_SHEAVES
	int ret = hr_sheaves_prepare(ctx, cpu);

	if (ret)
		return ret;
#elif defined(CONFIG_SLUB)
	WRITE_ONCE(hr_slub_walk, hr_slub_walk_ok());
#endif
#ifndef CONFIG_SLOB
	hr_find_locks();
#endif
	return 0;
}

bool hr_alloc_moved_counted(void)
{
#if defined(CONFIG_SLUB) && !defined(SB_SLUB_SHEAVES)
	return hr_slub_walk;
#else
	return true;
#endif
}

void hr_out_probes(struct sb_out *out)
{
	unsigned int i;

	sb_rec_open(out, "probes");
	for (i = 0; i < HR_NR_PROBES; i++)
		sb_rec_str(out, hr_probe(i)->name, hr_kprobes[i].attached);
	sb_rec_close(out);
#ifndef CONFIG_SLOB
	sb_rec_u64(out, "node_lock_candidates", hr_nr_locks);
#endif
#if defined(CONFIG_SLUB) && !defined(SB_SLUB_SHEAVES)
	sb_rec_bool(out, "freelist_walked", hr_slub_walk);
#endif
#ifdef SB_SLUB_SHEAVES
	sb_rec_u64(out, "sheaf_capacity", hr_sheaf_capacity());
#endif
}
