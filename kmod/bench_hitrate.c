// SPDX-License-Identifier: GPL-2.0
/*
 * hitrate: how often the allocator's per-CPU cache serves an allocation or
 * takes back a free without going to its slow path. Kprobes on the slow
 * paths count misses; hit rate = 1 - misses / operations this benchmark
 * made.
 *
 * This is a counting pass: probes are registered only for its duration and
 * the benchmark reports no times, so timed benchmarks never carry probes.
 *
 * The counts are meant to match CONFIG_SLUB_STATS (alloc_slowpath,
 * free_slowpath) and SLAB's DEBUG_SLAB counters (allocmiss, freemiss):
 *  - SLUB: alloc_slowpath is incremented once per ___slab_alloc() call and
 *    free_slowpath once per __slab_free() call, both on entry, which is
 *    where the probes sit. SLUB_STATS counts every context using the cache
 *    and the whole life of the cache, including this benchmark's warm-up
 *    round; the probes count only this benchmark's thread and only the
 *    counted rounds.
 *    Nothing else uses the private cache, so the per-round difference of
 *    the SLUB_STATS counters should equal ours.
 *  - SLAB: allocmiss is counted right before cache_alloc_refill(), its only
 *    caller being the inline ____cache_alloc(). freemiss is counted in
 *    ___cache_free() when the per-CPU array is full and cache_flusharray()
 *    (inlined there) runs; we probe ___cache_free() and test the same
 *    condition. free_block() is counted separately: a flush reaches it only
 *    when the node's shared array is full or absent (objects > PAGE_SIZE,
 *    one CPU), so it counts flushes back to the slab lists, not misses. On NUMA, frees of remote
 *    objects leave ___cache_free() before the test (alien caches) and are
 *    not free misses in either count; slabbench guests are not NUMA.
 *  - SLOB has no per-CPU cache: we count slob_new_pages() calls (new pages
 *    for this thread's allocations) instead.
 *
 * With CONFIG_SLUB_STATS on 6.1 the result also carries the counters'
 * per-repeat differences, read around the same rounds, so that the two
 * counts can be checked against each other.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/local_lock.h>
#include "slabbench.h"

enum { P_SIZE, P_COUNT, P_ROUNDS, P_REPEATS, P_PATTERN, P_CPU };

enum { PATTERN_BATCH, PATTERN_FASTPATH };

static const char * const hitrate_patterns[] = { "batch", "fastpath", NULL };

static const struct sb_param hitrate_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_COUNT] = { "count", "objects allocated per round (batch: all live, then all freed)",
		      SB_U64, 1024, 1, 65536 },
	[P_ROUNDS] = { "rounds", "rounds per repeat", SB_U64, 100, 1, 100000 },
	[P_REPEATS] = { "repeats", "counted repeats (one sample each)", SB_U64,
			5, 1, 1000 },
	[P_PATTERN] = { "pattern", "batch: count allocs then count frees in allocation order; fastpath: alloc+free pairs",
			SB_ENUM, PATTERN_BATCH, 0, 1, hitrate_patterns },
	[P_CPU] = { "cpu", "CPU the rounds run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
};

/* Indices in hr_probes where the allocator has a per-CPU cache. */
enum { HR_ALLOC, HR_FREE };

struct hr_probe {
	/* Key under "probes" in the result. */
	const char *side;
	/* Its count per repeat, as a metric. */
	const char *metric;
	/* Candidate symbols: gcc may add .constprop.0 or .isra.0. */
	const char * const *symbols;
	/* The probed function's first argument is the kmem_cache. */
	bool by_cache;
	/* Extra condition for a hit, evaluated in the handler. */
	bool (*cond)(void);
};

static struct kmem_cache *hr_cache;

#ifdef CONFIG_SLAB
/*
 * The head of mm/slab.c's private struct array_cache. SLAB's code is
 * frozen in 6.1 (it was removed in 6.8), so this layout cannot drift.
 */
struct hr_array_cache_head {
	unsigned int avail;
	unsigned int limit;
};

/* The test in ___cache_free() that sends a free to cache_flusharray(). */
static bool hr_slab_array_full(void)
{
	const struct hr_array_cache_head *ac;

	ac = this_cpu_ptr((struct hr_array_cache_head __percpu *)
			  sb_slab_head(READ_ONCE(hr_cache))->cpu_cache);
	return ac->avail >= ac->limit;
}

static const char * const hr_alloc_syms[] = {
	"cache_alloc_refill", "cache_alloc_refill.constprop.0",
	"cache_alloc_refill.isra.0", NULL
};
static const char * const hr_free_syms[] = { "___cache_free", NULL };
static const char * const hr_flush_syms[] = {
	"free_block.constprop.0", "free_block", "free_block.isra.0", NULL
};

static const struct hr_probe hr_probes[] = {
	{ "alloc", "alloc_misses", hr_alloc_syms, true, NULL },
	{ "free", "free_misses", hr_free_syms, true, hr_slab_array_full },
	{ "free_block", "free_block_calls", hr_flush_syms, true, NULL },
};
#define HR_PER_CPU_CACHE	1
#elif defined(CONFIG_SLUB)
static const char * const hr_alloc_syms[] = {
	"___slab_alloc", "___slab_alloc.constprop.0", "___slab_alloc.isra.0",
	NULL
};
static const char * const hr_free_syms[] = {
	"__slab_free", "__slab_free.constprop.0", "__slab_free.isra.0", NULL
};

static const struct hr_probe hr_probes[] = {
	{ "alloc", "alloc_misses", hr_alloc_syms, true, NULL },
	{ "free", "free_misses", hr_free_syms, true, NULL },
};
#define HR_PER_CPU_CACHE	1
#else
static const char * const hr_pages_syms[] = {
	"slob_new_pages.constprop.0", "slob_new_pages",
	"slob_new_pages.isra.0", NULL
};

/* slob_new_pages() has no cache argument: filter on the thread alone. */
static const struct hr_probe hr_probes[] = {
	{ "new_pages", "new_pages_calls", hr_pages_syms, false, NULL },
};
#define HR_PER_CPU_CACHE	0
#endif

#define HR_NR_PROBES	ARRAY_SIZE(hr_probes)

struct hr_kprobe {
	struct kprobe kp;
	const struct hr_probe *probe;
	unsigned int idx;
	const char *attached;
};

struct hr_counts {
	unsigned long n[HR_NR_PROBES];
};

/* One hitrate run at a time: sb_main.c serialises runs. */
static DEFINE_PER_CPU(struct hr_counts, hr_counts);
static struct hr_kprobe hr_kprobes[HR_NR_PROBES];
static struct task_struct *hr_task;

/* Runs with preemption off, possibly with IRQs off: count, nothing else. */
static int hr_pre_handler(struct kprobe *p, struct pt_regs *regs)
{
	struct hr_kprobe *k = container_of(p, struct hr_kprobe, kp);

	if (current != READ_ONCE(hr_task))
		return 0;
	if (k->probe->by_cache &&
	    regs_get_kernel_argument(regs, 0) != (unsigned long)READ_ONCE(hr_cache))
		return 0;
	if (k->probe->cond && !k->probe->cond())
		return 0;
	this_cpu_inc(hr_counts.n[k->idx]);
	return 0;
}

static void hr_unregister(unsigned int n)
{
	while (n--)
		unregister_kprobe(&hr_kprobes[n].kp);
}

static int hr_register(struct sb_ctx *ctx)
{
	const char * const *sym;
	struct hr_kprobe *k;
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < HR_NR_PROBES; i++) {
		k = &hr_kprobes[i];
		k->probe = &hr_probes[i];
		k->idx = i;
		k->attached = NULL;
		for (sym = k->probe->symbols; *sym; sym++) {
			/* A kprobe must be zeroed before each registration. */
			memset(&k->kp, 0, sizeof(k->kp));
			k->kp.symbol_name = *sym;
			k->kp.pre_handler = hr_pre_handler;
			ret = register_kprobe(&k->kp);
			if (!ret) {
				k->attached = *sym;
				break;
			}
		}
		if (!k->attached) {
			hr_unregister(i);
			return sb_fail(ctx, "no kprobe for %s: %s and its variants failed (errno %d)",
				       k->probe->side, k->probe->symbols[0], -ret);
		}
	}
	return 0;
}

static unsigned long hr_total(unsigned int idx)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(hr_counts, cpu).n[idx];
	return sum;
}

#if defined(CONFIG_SLUB_STATS) && defined(SB_SLUB_DEF_H)
/*
 * 6.1's struct kmem_cache_cpu (include/linux/slub_def.h, which a module
 * cannot include: it needs mm/slab.h), the head of struct kmem_cache being
 * its per-CPU pointer, and the indices of enum stat_item. Only where
 * slub_def.h exists (Kbuild tests it): 6.8 made the struct private and
 * later trees reorder it. A wrong layout could not pass the cross-check,
 * which is what these counters are for.
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

#define HR_SLUB_STATS	1
static const unsigned int hr_slub_items[] = { 1, 3 };	/* ALLOC_, FREE_SLOWPATH */
static const char * const hr_slub_names[] = { "alloc_slowpath", "free_slowpath" };

static unsigned long hr_slub_stat(unsigned int i)
{
	struct hr_slub_cpu_head __percpu *c;
	unsigned long sum = 0;
	unsigned int cpu;

	c = *(struct hr_slub_cpu_head __percpu **)hr_cache;
	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(c, cpu)->stat[hr_slub_items[i]];
	return sum;
}
#define HR_NR_STATS	ARRAY_SIZE(hr_slub_items)
#else
#define HR_SLUB_STATS	0
#define HR_NR_STATS	0

static inline unsigned long hr_slub_stat(unsigned int i)
{
	return 0;
}
#endif

struct hitrate {
	struct sb_ctx *ctx;
	void **objs;
	/* Per counted repeat and probe: misses (or pages for SLOB). */
	u64 *counts[HR_NR_PROBES];
	/* Per counted repeat: SLUB_STATS's alloc_slowpath, free_slowpath. */
	u64 *stats[2];
};

/* Frees the first @n objects of @objs. */
static void hr_free(void **objs, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++) {
		kmem_cache_free(hr_cache, objs[i]);
		if (!((i + 1) % SB_BATCH))
			cond_resched();
	}
}

static int hr_round(struct hitrate *h)
{
	u64 count = h->ctx->val[P_COUNT];
	void *obj;
	u64 i;

	for (i = 0; i < count; i++) {
		obj = kmem_cache_alloc(hr_cache, GFP_KERNEL);
		if (unlikely(!obj)) {
			if (h->ctx->val[P_PATTERN] == PATTERN_BATCH)
				hr_free(h->objs, i);
			return -ENOMEM;
		}
		if (h->ctx->val[P_PATTERN] == PATTERN_BATCH)
			h->objs[i] = obj;
		else
			kmem_cache_free(hr_cache, obj);
		if (!((i + 1) % SB_BATCH))
			cond_resched();
	}
	if (h->ctx->val[P_PATTERN] == PATTERN_BATCH)
		hr_free(h->objs, count);
	return 0;
}

static int hr_pinned(void *arg)
{
	struct hitrate *h = arg;
	unsigned long before[HR_NR_PROBES], stats_before[2];
	unsigned int r, i;
	u64 round;
	int ret;

	WRITE_ONCE(hr_task, current);
	/* One uncounted round fills the per-CPU cache and the first slabs. */
	ret = hr_round(h);
	for (r = 0; !ret && r < h->ctx->val[P_REPEATS]; r++) {
		for (i = 0; i < HR_NR_PROBES; i++)
			before[i] = hr_total(i);
		for (i = 0; i < HR_NR_STATS; i++)
			stats_before[i] = hr_slub_stat(i);
		for (round = 0; !ret && round < h->ctx->val[P_ROUNDS]; round++) {
			ret = hr_round(h);
			cond_resched();
		}
		for (i = 0; i < HR_NR_PROBES; i++)
			h->counts[i][r] = hr_total(i) - before[i];
		for (i = 0; i < HR_NR_STATS; i++)
			h->stats[i][r] = hr_slub_stat(i) - stats_before[i];
	}
	WRITE_ONCE(hr_task, NULL);
	return ret;
}

#if HR_PER_CPU_CACHE
/* Percent of @ops that did not miss, in thousandths. */
static s64 hr_rate_milli(u64 misses, u64 ops)
{
	return 100000 - div64_s64((s64)misses * 100000, (s64)ops);
}
#endif

static void hr_output(struct hitrate *h, s64 *samples)
{
	struct sb_ctx *ctx = h->ctx;
	unsigned int repeats = ctx->val[P_REPEATS];
	u64 ops = ctx->val[P_COUNT] * ctx->val[P_ROUNDS];
	unsigned int i, r;

	sb_printf(ctx->out, "\"per_cpu_cache\":%s,\"ops_per_repeat\":%llu,",
		  HR_PER_CPU_CACHE ? "true" : "false", ops);
	sb_printf(ctx->out, "\"probes\":{");
	for (i = 0; i < HR_NR_PROBES; i++)
		sb_printf(ctx->out, "%s\"%s\":\"%s\"", i ? "," : "",
			  hr_probes[i].side, hr_kprobes[i].attached);
	sb_printf(ctx->out, "},");
#if HR_SLUB_STATS
	sb_printf(ctx->out, "\"slub_stats\":{");
	for (i = 0; i < HR_NR_STATS; i++) {
		sb_printf(ctx->out, "%s\"%s\":[", i ? "," : "", hr_slub_names[i]);
		for (r = 0; r < repeats; r++)
			sb_printf(ctx->out, "%s%llu", r ? "," : "", h->stats[i][r]);
		sb_printf(ctx->out, "]");
	}
	sb_printf(ctx->out, "},");
#endif
#ifdef CONFIG_SLAB
	sb_printf(ctx->out, "\"free_miss_condition\":\"per-CPU array full on entry\",");
	sb_printf(ctx->out, "\"slab_tunables\":{\"limit\":%u,\"batchcount\":%u,\"shared\":%u},",
		  sb_slab_head(hr_cache)->limit,
		  sb_slab_head(hr_cache)->batchcount,
		  sb_slab_head(hr_cache)->shared);
#endif
	sb_printf(ctx->out, "\"metrics\":{");
#if HR_PER_CPU_CACHE
	for (r = 0; r < repeats; r++)
		samples[r] = hr_rate_milli(h->counts[HR_ALLOC][r], ops);
	sb_out_metric(ctx->out, true, "alloc_hit_rate", "%", false, samples,
		      repeats);
	for (r = 0; r < repeats; r++)
		samples[r] = hr_rate_milli(h->counts[HR_FREE][r], ops);
	sb_out_metric(ctx->out, false, "free_hit_rate", "%", false, samples,
		      repeats);
#endif
	for (i = 0; i < HR_NR_PROBES; i++) {
		for (r = 0; r < repeats; r++)
			samples[r] = h->counts[i][r] * 1000;
		sb_out_metric(ctx->out, !HR_PER_CPU_CACHE && !i,
			      hr_probes[i].metric, "calls", true, samples,
			      repeats);
	}
	sb_printf(ctx->out, "}");
}

static int hitrate_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	u64 count = ctx->val[P_COUNT];
	struct hitrate h = { .ctx = ctx };
	s64 *samples = NULL;
	unsigned int i;
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, count * (ctx->val[P_SIZE] +
						 sizeof(void *)));
	/* The warm-up round, then rounds per counted repeat. */
	if (!ret)
		ret = sb_check_work(ctx, count * (1 + ctx->val[P_ROUNDS] *
						  ctx->val[P_REPEATS]));
	if (ret)
		return ret;
	ret = -ENOMEM;
	for (i = 0; i < HR_NR_PROBES; i++) {
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
	if (!samples || !h.objs)
		goto out;
	ret = sb_cache_create_unmerged(ctx, "slabbench-hitrate",
				       ctx->val[P_SIZE], &hr_cache);
	if (ret)
		goto out;
	ret = hr_register(ctx);
	if (ret)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], hr_pinned, &h);
	hr_unregister(HR_NR_PROBES);
	if (!ret)
		hr_output(&h, samples);
out:
	kmem_cache_destroy(hr_cache);
	hr_cache = NULL;
	kvfree(h.objs);
	kfree(samples);
	for (i = 0; i < HR_NR_PROBES; i++)
		kfree(h.counts[i]);
	for (i = 0; i < HR_NR_STATS; i++)
		kfree(h.stats[i]);
	return ret;
}

const struct sb_bench sb_bench_hitrate = {
	.name = "hitrate",
	.desc = "per-CPU cache hit rates of alloc and free, from kprobes on the slow paths (counting pass, no times)",
	.params = hitrate_params,
	.nr_params = ARRAY_SIZE(hitrate_params),
	.run = hitrate_run,
	.selftest = "count=512 rounds=10 repeats=2",
};
