// SPDX-License-Identifier: GPL-2.0
/*
 * bulk: kmem_cache_alloc_bulk()+kmem_cache_free_bulk() of B objects
 * against a loop of B kmem_cache_alloc() then B kmem_cache_free(), for B
 * in powers of two up to max_bulk, as in Brouer's slab_bulk_test01. The
 * bulk API saves per-call overhead and, on SLUB, takes the per-CPU lock
 * once per bulk; SLOB implements it as the same loop.
 *
 * Every sample of every point (bulk size and API) runs on a cache of its
 * own, created for it and warmed up untimed, as Brouer creates a fresh
 * cache per test: on one shared cache each point would start from the
 * per-CPU and partial slabs the previous one left, and the two APIs would
 * leave each other different ones. The points run in a shuffled order
 * per repeat (the same on every kernel), recorded as "point_order".
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_SIZE, P_OBJECTS, P_MAX_BULK, P_REPEATS, P_CPU, P_TOUCH };

static const struct sb_param bulk_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_OBJECTS] = { "objects", "objects per bulk size, API and repeat (rounded up to whole bulks)",
			SB_U64, 8192, 1, 10000000 },
	[P_MAX_BULK] = { "max_bulk", "largest bulk; bulks are 1, 2, 4, ... and max_bulk itself",
			 SB_U64, 256, 1, 256 },
	[P_REPEATS] = { "repeats", "timed repeats (one sample per point each)",
			SB_U64, 5, 1, 100 },
	[P_CPU] = { "cpu", "CPU the loops run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

enum { API_LOOP, API_BULK, API_NR };

static const char * const bulk_apis[] = { "loop", "bulk" };

struct bulk {
	struct sb_ctx *ctx;
	void **objs;
	unsigned int nr_bulks;
	unsigned int object_size;
	/* A point per bulk size and API: bulk index * API_NR + api. */
	struct sb_samples *samples;
};

/* 1, 2, 4, ... below max_bulk, then max_bulk. */
static unsigned int bulk_at(const struct bulk *b, unsigned int idx)
{
	return idx + 1 < b->nr_bulks ? 1U << idx : b->ctx->val[P_MAX_BULK];
}

/* Timed chunks hold about SB_BATCH objects whatever the bulk size. */
static u64 bulk_rounds_per_chunk(unsigned int bulk)
{
	return max_t(u64, SB_BATCH / bulk, 1);
}

static u64 bulk_rounds(const struct bulk *b, unsigned int bulk)
{
	return DIV_ROUND_UP(b->ctx->val[P_OBJECTS], bulk);
}

/*
 * One round: @bulk objects allocated, then freed. Instantiated per (@api,
 * @twin, @touch), all constants, so that no test of them is left in the
 * loops (with touch=0 the passes that touch disappear). The twin is the
 * round without the allocator's calls, its objects the twin's line: what
 * the loop itself costs.
 */
static __always_inline int bulk_round(struct bulk *b, struct kmem_cache *cache,
				      unsigned int bulk, unsigned int api,
				      bool twin, bool touch)
{
	unsigned int i;
	void *obj;
	int got;

	if (api == API_BULK) {
		if (twin) {
			got = bulk;
			OPTIMIZER_HIDE_VAR(got);
		} else {
			got = kmem_cache_alloc_bulk(cache, GFP_KERNEL, bulk, b->objs);
		}
		if (unlikely(!got))
			return -ENOMEM;
		if (touch) {
			for (i = 0; i < bulk; i++)
				sb_touch_write(b->objs[i], true);
			for (i = 0; i < bulk; i++)
				sb_touch_read(b->objs[i], true);
		}
		if (!twin)
			kmem_cache_free_bulk(cache, bulk, b->objs);
		return 0;
	}
	/*
	 * The object in a local: a touch through b->objs[i] would reload
	 * it after the volatile store, which the twin pays and the calls'
	 * loop partly shares with its own reloads.
	 */
	for (i = 0; i < bulk; i++) {
		obj = twin ? sb_twin() : kmem_cache_alloc(cache, GFP_KERNEL);
		if (unlikely(!obj)) {
			while (!twin && i--)
				kmem_cache_free(cache, b->objs[i]);
			return -ENOMEM;
		}
		b->objs[i] = obj;
		sb_touch_write(obj, touch);
	}
	for (i = 0; i < bulk; i++) {
		obj = b->objs[i];
		sb_touch_read(obj, touch);
		if (!twin)
			kmem_cache_free(cache, obj);
	}
	return 0;
}

static __always_inline int bulk_chunks(struct bulk *b, struct kmem_cache *cache,
				       unsigned int bulk, u64 rounds,
				       struct sb_timer *t, unsigned int api,
				       bool twin, bool touch)
{
	u64 chunk = bulk_rounds_per_chunk(bulk);
	u64 done, r, n;
	int ret = 0;

	sb_timer_reset(t);
	for (done = 0; done < rounds; done += n) {
		n = min_t(u64, chunk, rounds - done);
		sb_timer_start(t);
		for (r = 0; r < n && !ret; r++)
			ret = bulk_round(b, cache, bulk, api, twin, touch);
		sb_timer_stop(t);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

static __always_inline int bulk_api(struct bulk *b, struct kmem_cache *cache,
				    unsigned int bulk, u64 rounds,
				    struct sb_timer *t, unsigned int api,
				    bool twin)
{
	if (b->ctx->val[P_TOUCH])
		return bulk_chunks(b, cache, bulk, rounds, t, api, twin, true);
	return bulk_chunks(b, cache, bulk, rounds, t, api, twin, false);
}

static int bulk_loop(struct bulk *b, struct kmem_cache *cache,
		     unsigned int api, unsigned int bulk, u64 rounds,
		     struct sb_timer *t, bool twin)
{
	unsigned int i;

	if (!twin)
		return api == API_BULK ?
		       bulk_api(b, cache, bulk, rounds, t, API_BULK, false) :
		       bulk_api(b, cache, bulk, rounds, t, API_LOOP, false);
	/* What kmem_cache_alloc_bulk() would have filled in. */
	for (i = 0; i < bulk; i++)
		b->objs[i] = sb_twin();
	return api == API_BULK ?
	       bulk_api(b, cache, bulk, rounds, t, API_BULK, true) :
	       bulk_api(b, cache, bulk, rounds, t, API_LOOP, true);
}

/* Sample @r of point @k with @api, on a cache of its own. */
static int bulk_sample(struct bulk *b, unsigned int k, unsigned int api,
		       unsigned int r)
{
	unsigned int bulk = bulk_at(b, k);
	u64 rounds = bulk_rounds(b, bulk);
	struct kmem_cache *cache;
	struct sb_timer t;
	char name[32];
	int ret;

	snprintf(name, sizeof(name), "slabbench-bulk-%llu", b->ctx->val[P_SIZE]);
	ret = sb_cache_create_unmerged(b->ctx, name, b->ctx->val[P_SIZE], &cache);
	if (ret)
		return ret;
	b->object_size = kmem_cache_size(cache);
	/* Untimed: the cache's first slabs, and the code's first pass. */
	ret = bulk_loop(b, cache, api, bulk, min_t(u64, rounds, SB_BATCH), &t,
			false);
	if (!ret)
		ret = bulk_loop(b, cache, api, bulk, rounds, &t, false);
	kmem_cache_destroy(cache);
	if (!ret)
		sb_sample(b->samples, k * API_NR + api, r, &t);
	return ret;
}

static int bulk_pinned(void *arg)
{
	struct bulk *b = arg;
	unsigned int nr = b->samples->nr_points;
	unsigned int k, i, r, p, bulk;
	struct sb_timer t;
	const u32 *order;
	int ret;

	/* Each point's twin, after an untimed pass that translates its code. */
	for (p = 0; p < nr; p++) {
		k = p / API_NR;
		bulk = bulk_at(b, k);
		bulk_loop(b, NULL, p % API_NR, bulk,
			  min_t(u64, bulk_rounds(b, bulk), SB_BATCH), &t, true);
		bulk_loop(b, NULL, p % API_NR, bulk, bulk_rounds(b, bulk),
			  &b->samples->loop[p], true);
	}
	for (r = 0; r < b->samples->repeats; r++) {
		order = sb_samples_shuffle(b->samples, r);
		for (i = 0; i < nr; i++) {
			p = order[i];
			ret = bulk_sample(b, p / API_NR, p % API_NR, r);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void bulk_label(struct sb_out *out, u32 idx, const void *arg)
{
	const struct bulk *b = arg;
	char at[32];

	snprintf(at, sizeof(at), "bulk=%u,api=%s", bulk_at(b, idx / API_NR),
		 bulk_apis[idx % API_NR]);
	sb_rec_str(out, NULL, at);
}

static void bulk_out(struct sb_ctx *ctx, struct bulk *b)
{
	struct sb_label at[] = { { "bulk" }, { "api" }, {} };
	struct sb_out *out = ctx->out;
	unsigned int k, api, p;

	sb_rec_bool(out, "cache_merged", false);
	sb_rec_bool(out, "fresh_cache_per_sample", true);
	sb_out_samples_order(out, b->samples, bulk_label, b);
	sb_rec_u64(out, "object_size", b->object_size);
	/* Of the first point's loop of single calls. */
	sb_out_loop_overhead(out, b->samples);
	for (k = 0; k < b->nr_bulks; k++) {
		at[0].num = bulk_at(b, k);
		for (api = 0; api < API_NR; api++) {
			at[1].str = bulk_apis[api];
			p = k * API_NR + api;
			sb_out_clocks(out, "obj", at, b->samples, p);
		}
	}
}

static int bulk_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	unsigned int max_bulk = ctx->val[P_MAX_BULK];
	struct bulk b = {
		.ctx = ctx,
		.nr_bulks = ilog2(max_bulk) + 1 + !is_power_of_2(max_bulk),
		.samples = &ctx->samples,
	};
	u64 size = ctx->val[P_SIZE];
	unsigned int p;
	u64 per_point;
	int ret;

	/* Each sample's warm-up and timed pass, rounded up to whole bulks. */
	per_point = API_NR * repeats * 2 * (ctx->val[P_OBJECTS] + max_bulk);
	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, max_bulk * (size + sizeof(void *)));
	if (!ret)
		ret = sb_check_work(ctx, per_point * b.nr_bulks);
	if (ret)
		return ret;
	ret = sb_samples_alloc(ctx, SB_CLOCKS, b.nr_bulks * API_NR, repeats,
			       SB_SAMPLE_IRQS | SB_SAMPLE_WINDOWS, 0);
	b.objs = kcalloc(max_bulk, sizeof(*b.objs), GFP_KERNEL);
	if (!ret && !b.objs)
		ret = -ENOMEM;
	if (ret)
		goto out;
	/* Whole bulks: the objects rounded up. */
	for (p = 0; p < b.samples->nr_points; p++)
		b.samples->ops[p] = bulk_rounds(&b, bulk_at(&b, p / API_NR)) *
				   bulk_at(&b, p / API_NR);
	ret = sb_run_on_cpu(ctx->val[P_CPU], bulk_pinned, &b);
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed (bulks of up to %u objects of %llu bytes)",
			max_bulk, size);
	else if (!ret)
		bulk_out(ctx, &b);
out:
	kfree(b.objs);
	return ret;
}

SB_DEFINE_BENCH(bulk,
		"kmem_cache_alloc_bulk/free_bulk against a loop of single calls, bulks of 1 to max_bulk",
		bulk_params, bulk_run, "objects=1024 max_bulk=64 repeats=2");
