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
 *    ___slab_alloc() (SLUB_STATS's alloc_slowpath); SLUB with sheaves
 *    (hitrate_sheaves.c): a main-sheaf miss the spare could not serve
 *    (barn_get + barn_get_fail).
 *  - free slow-path entry: a free the per-CPU fast path could not
 *    complete. SLAB: ___cache_free() entered with the per-CPU array full,
 *    so that cache_flusharray() (inlined there) runs (DEBUG_SLAB's
 *    freemiss); SLUB: __slab_free() (free_slowpath); with sheaves: a
 *    main-sheaf miss the spare could not absorb.
 *  - objects per alloc slow-path call: objects a call put at the CPU's
 *    disposal, the one it returns included. SLAB: the growth of the
 *    per-CPU array over cache_alloc_refill(), plus the object returned
 *    (the batchcount refill, or less); SLUB: the object returned plus the
 *    length of the CPU freelist that ___slab_alloc() leaves (the free
 *    objects of the slab it took), walked on return; with sheaves: the
 *    full sheaf the barn gave, or the objects refilled from slabs.
 *  - objects per free slow-path call: objects a call moved out of the
 *    CPU's fast-path structure. SLAB: the shrink of the per-CPU array over
 *    a flushing ___cache_free(), the object it then adds aside (the
 *    batchcount flush, to the shared array or the slab lists); SLUB:
 *    __slab_free()'s count of objects (1 for a single free); with
 *    sheaves: the full sheaf put into the barn, or the objects flushed
 *    to slabs.
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
 *    on SLAB and SLUB, 6.1 to 7.3), found as a pointer held in the
 *    cache's struct kmem_cache (its node[] array); with sheaves, the
 *    barn's lock apart (barn_lock_per1k).
 *  - with sheaves, also: main-sheaf hit rates (before the spare), spare
 *    swaps, barn gets and puts and their failures, refills and flushes
 *    (calls and objects), allocations that bypassed the sheaves
 *    (___slab_alloc()) and objects freed to slabs (__slab_free()).
 *  - slab pages allocated and freed: pages of successful __alloc_pages()
 *    calls and of __free_pages() calls (their frozen-page cores where
 *    slabs take frozen pages, 7.3) made by this thread, which in the
 *    counted rounds only allocates and frees on its cache. Slabs that
 *    SLAB's reaper (a kworker) frees later are not this thread's.
 * SLOB has no per-CPU cache, no node lists: only its pages are counted.
 *
 * The probes that count are in hitrate_probes.c, the allocator's own
 * statistics the counts are checked against in hitrate_stats.c.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include "hitrate.h"

enum {
	P_SIZE, P_COUNT, P_ROUNDS, P_REPEATS, P_PATTERN, P_CPU, P_ORDER, P_SEED,
	P_SHEAF_CAPACITY,
};

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
	[P_SHEAF_CAPACITY] = SB_PARAM_SHEAF_CAPACITY,
};


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

/* The free order; a random one is seeded, the same on every kernel. */
static void hr_fill_order(struct hitrate *h)
{
	u32 i, n = h->ctx->val[P_COUNT];

	for (i = 0; i < n; i++)
		h->order[i] = h->ctx->val[P_ORDER] == ORDER_LIFO ? n - 1 - i : i;
	if (h->ctx->val[P_ORDER] == ORDER_RANDOM)
		sb_shuffle(h->order, n, h->ctx->val[P_SEED]);
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
	sb_out_metric(h->ctx->out, name, "per1k", true, samples, repeats);
}

/* Counter @c as it was counted, in @unit ("calls" or "objects"). */
static void hr_out_count(struct hitrate *h, s64 *samples, const char *name,
			 const char *unit, unsigned int c)
{
	unsigned int repeats = h->ctx->val[P_REPEATS], r;

	for (r = 0; r < repeats; r++)
		samples[r] = h->counts[c][r] * 1000;
	sb_out_metric(h->ctx->out, name, unit, true, samples, repeats);
}

static void hr_out_calls(struct hitrate *h, s64 *samples, const char *name,
			 unsigned int c)
{
	hr_out_count(h, samples, name, "calls", c);
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
	sb_out_metric(h->ctx->out, name, "objects/call", false, samples,
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
	sb_out_metric(h->ctx->out, name, "%", false, samples, repeats);
}

static void hr_output(struct hitrate *h, s64 *samples)
{
	struct sb_ctx *ctx = h->ctx;
	struct sb_out *out = ctx->out;
	u64 ops = ctx->val[P_COUNT] * ctx->val[P_ROUNDS];

	sb_rec_bool(out, "per_cpu_cache", HR_PER_CPU_CACHE);
	sb_rec_u64(out, "ops_per_repeat", ops);
	hr_out_probes(out);
#if HR_NR_STATS
	hr_out_stats(out, h->stats, ctx->val[P_REPEATS], h->stats_ok);
#endif
#ifdef CONFIG_SLAB
	sb_out_slab_tunables(out, sb_slab_head(hr_cache));
#endif
	hr_out_per1k(h, samples, "slab_pages_alloc_per1k", C_PAGES_ALLOC, ops);
	hr_out_per1k(h, samples, "slab_pages_freed_per1k", C_PAGES_FREED, ops);
	if (!HR_PER_CPU_CACHE)
		return;
	hr_out_rate(h, samples, "alloc_hit_rate", C_ALLOC_SLOW, ops);
	hr_out_rate(h, samples, "free_hit_rate", C_FREE_MOVED, ops);
	hr_out_per1k(h, samples, "alloc_slowpath_per1k", C_ALLOC_SLOW, ops);
	hr_out_per1k(h, samples, "free_slowpath_per1k", C_FREE_SLOW, ops);
	if (hr_alloc_moved_counted())
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
#ifdef SB_SLUB_SHEAVES
	hr_out_rate(h, samples, "main_sheaf_alloc_hit_rate", C_MAIN_EMPTY, ops);
	hr_out_rate(h, samples, "main_sheaf_free_hit_rate", C_MAIN_FULL, ops);
	hr_out_calls(h, samples, "spare_swaps_alloc", C_ALLOC_SWAP);
	hr_out_calls(h, samples, "spare_swaps_free", C_FREE_SWAP);
	hr_out_calls(h, samples, "barn_get", C_BARN_GET);
	hr_out_calls(h, samples, "barn_get_fail", C_BARN_GET_FAIL);
	hr_out_calls(h, samples, "barn_put", C_BARN_PUT);
	hr_out_calls(h, samples, "barn_put_fail", C_BARN_PUT_FAIL);
	hr_out_calls(h, samples, "sheaf_refills", C_REFILLS);
	hr_out_count(h, samples, "sheaf_refill_objects", "objects", C_REFILL_OBJS);
	hr_out_calls(h, samples, "sheaf_flushes", C_FLUSHES);
	hr_out_count(h, samples, "sheaf_flush_objects", "objects", C_FLUSH_OBJS);
	hr_out_calls(h, samples, "slab_alloc_slowpath", C_SLAB_ALLOC);
	hr_out_count(h, samples, "slab_free_objects", "objects", C_SLAB_FREE);
	hr_out_per1k(h, samples, "barn_lock_per1k", C_BARN_LOCKS, ops);
#endif
}

static int hitrate_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	u64 count = ctx->val[P_COUNT];
	struct hitrate h = { .ctx = ctx };
	struct sb_sheaves sh = { .on = 1 };
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
	sh.capacity = ctx->val[P_SHEAF_CAPACITY];
	ret = sb_cache_create_sheaves(ctx, HR_CACHE_NAME, ctx->val[P_SIZE],
				      &sh, &hr_cache);
	if (ret)
		goto out;
	ret = hr_probes_prepare(ctx, ctx->val[P_CPU]);
	if (ret)
		goto out;
#if HR_NR_STATS
	h.stats_ok = hr_stats_ok();
#endif
	ret = hr_register(ctx);
	if (ret)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], hr_pinned, &h);
	missed = hr_missed();
	hr_unregister_all();
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

SB_DEFINE_BENCH(hitrate,
		"what the allocator did per 1000 allocs and frees: slow paths, objects per slow path, node list_lock, slab pages, hit rates (kprobes; counting pass, no times)",
		hitrate_params, hitrate_run, "count=512 rounds=10 repeats=2 order=random");
