// SPDX-License-Identifier: GPL-2.0
/*
 * bulk: kmem_cache_alloc_bulk()+kmem_cache_free_bulk() of B objects
 * against a loop of B kmem_cache_alloc() then B kmem_cache_free(), for B
 * in powers of two up to max_bulk, as in Brouer's slab_bulk_test01. The
 * bulk API saves per-call overhead and, on SLUB, takes the per-CPU lock
 * once per bulk; SLOB implements it as the same loop.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_SIZE, P_OBJECTS, P_MAX_BULK, P_REPEATS, P_CPU };

static const struct sb_param bulk_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_OBJECTS] = { "objects", "objects per bulk size, API and repeat (rounded up to whole bulks)",
			SB_U64, 8192, 1, 10000000 },
	[P_MAX_BULK] = { "max_bulk", "largest bulk; bulks are 1, 2, 4, ... and max_bulk itself",
			 SB_U64, 256, 1, 256 },
	[P_REPEATS] = { "repeats", "timed repeats (one sample per point each)",
			SB_U64, 5, 1, 100 },
	[P_CPU] = { "cpu", "CPU the loops run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
};

enum { API_LOOP, API_BULK, API_NR };

static const char * const bulk_apis[] = { "loop", "bulk" };

struct bulk {
	struct sb_ctx *ctx;
	struct kmem_cache *cache;
	void **objs;
	unsigned int nr_points;
	/* [point][api][repeat] */
	s64 *ns;
	s64 *cycles;
	u32 *windows;
	/* Of the first point, whose rounds are single objects. */
	u64 overhead_ns_per_obj_milli;
};

/* 1, 2, 4, ... below max_bulk, then max_bulk. */
static unsigned int bulk_at(const struct bulk *b, unsigned int idx)
{
	return idx + 1 < b->nr_points ? 1U << idx : b->ctx->val[P_MAX_BULK];
}

/* Timed chunks hold about SB_BATCH objects whatever the bulk size. */
static u64 bulk_rounds_per_chunk(unsigned int bulk)
{
	return max_t(u64, SB_BATCH / bulk, 1);
}

static int bulk_loop(struct bulk *b, unsigned int api, unsigned int bulk,
		     u64 rounds, struct sb_timer *t)
{
	u64 chunk = bulk_rounds_per_chunk(bulk);
	u64 done, r, n;
	unsigned int i;

	sb_timer_reset(t);
	for (done = 0; done < rounds; done += n) {
		n = min_t(u64, chunk, rounds - done);
		sb_timer_start(t);
		for (r = 0; r < n; r++) {
			if (api == API_BULK) {
				if (unlikely(!kmem_cache_alloc_bulk(b->cache, GFP_KERNEL,
								    bulk, b->objs)))
					return -ENOMEM;
				kmem_cache_free_bulk(b->cache, bulk, b->objs);
				continue;
			}
			for (i = 0; i < bulk; i++) {
				b->objs[i] = kmem_cache_alloc(b->cache, GFP_KERNEL);
				if (unlikely(!b->objs[i])) {
					while (i--)
						kmem_cache_free(b->cache, b->objs[i]);
					return -ENOMEM;
				}
			}
			for (i = 0; i < bulk; i++)
				kmem_cache_free(b->cache, b->objs[i]);
		}
		sb_timer_stop(t);
		cond_resched();
	}
	return 0;
}

static int bulk_point(struct bulk *b, unsigned int k)
{
	unsigned int repeats = b->ctx->val[P_REPEATS];
	unsigned int bulk = bulk_at(b, k);
	u64 rounds = DIV_ROUND_UP(b->ctx->val[P_OBJECTS], bulk);
	struct sb_timer overhead, t;
	unsigned int api, r;
	s64 *ns, *cycles;
	int ret;

	/* The empty loop over rounds: what both APIs share per bulk. */
	sb_loop_overhead_batched(rounds, bulk_rounds_per_chunk(bulk), &overhead);
	if (!k)
		b->overhead_ns_per_obj_milli = sb_per_op_milli(overhead.ns, 0, rounds);
	for (api = 0; api < API_NR; api++) {
		ret = bulk_loop(b, api, bulk, min_t(u64, rounds, SB_BATCH), &t);
		if (ret)
			return ret;
	}
	/* The APIs alternate within a repeat, so that drift hits both. */
	for (r = 0; r < repeats; r++) {
		for (api = 0; api < API_NR; api++) {
			ret = bulk_loop(b, api, bulk, rounds, &t);
			if (ret)
				return ret;
			b->windows[(k * API_NR + api) * repeats + r] = t.window;
			ns = b->ns + (k * API_NR + api) * repeats;
			cycles = b->cycles + (k * API_NR + api) * repeats;
			ns[r] = sb_per_op_milli(t.ns, overhead.ns, rounds * bulk);
			cycles[r] = sb_per_op_milli(t.cycles, overhead.cycles,
						    rounds * bulk);
		}
	}
	return 0;
}

static int bulk_pinned(void *arg)
{
	struct bulk *b = arg;
	unsigned int k;
	int ret;

	for (k = 0; k < b->nr_points; k++) {
		ret = bulk_point(b, k);
		if (ret)
			return ret;
	}
	return 0;
}

static void bulk_out(struct sb_ctx *ctx, struct bulk *b)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	struct sb_label at[] = { { "bulk" }, { "api" }, {} };
	struct sb_out *out = ctx->out;
	struct sb_windows win;
	unsigned int k, api, idx;

	sb_printf(out, "\"cache_merged\":false,\"object_size\":%u,\"loop_overhead_ns\":",
		  kmem_cache_size(b->cache));
	sb_out_milli(out, b->overhead_ns_per_obj_milli);
	sb_printf(out, ",\"metrics\":{");
	for (k = 0; k < b->nr_points; k++) {
		at[0].num = bulk_at(b, k);
		for (api = 0; api < API_NR; api++) {
			at[1].str = bulk_apis[api];
			idx = (k * API_NR + api) * repeats;
			win.id = b->windows + idx;
			win.ops = DIV_ROUND_UP(ctx->val[P_OBJECTS], at[0].num) * at[0].num;
			sb_out_metric_win(out, !k && !api, "ns_per_obj", at, "ns",
					  true, b->ns + idx, repeats, &win);
			sb_out_metric_at(out, false, "cycles_per_obj", at,
					 "cycles", true, b->cycles + idx,
					 repeats);
		}
	}
	sb_printf(out, "}");
}

static int bulk_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	unsigned int max_bulk = ctx->val[P_MAX_BULK];
	struct bulk b = { .ctx = ctx };
	u64 size = ctx->val[P_SIZE];
	u64 per_point;
	char name[32];
	int ret;

	b.nr_points = ilog2(max_bulk) + 1 + !is_power_of_2(max_bulk);
	/* Each API's warm-up and repeats, rounded up to whole bulks. */
	per_point = API_NR * (repeats + 1) * (ctx->val[P_OBJECTS] + max_bulk);
	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, max_bulk * (size + sizeof(void *)));
	if (!ret)
		ret = sb_check_work(ctx, per_point * b.nr_points);
	if (ret)
		return ret;
	b.ns = kcalloc(b.nr_points * API_NR * repeats, sizeof(*b.ns), GFP_KERNEL);
	b.cycles = kcalloc(b.nr_points * API_NR * repeats, sizeof(*b.cycles),
			   GFP_KERNEL);
	b.windows = kcalloc(b.nr_points * API_NR * repeats, sizeof(*b.windows),
			    GFP_KERNEL);
	b.objs = kcalloc(max_bulk, sizeof(*b.objs), GFP_KERNEL);
	ret = -ENOMEM;
	if (!b.ns || !b.cycles || !b.windows || !b.objs)
		goto out;
	snprintf(name, sizeof(name), "slabbench-bulk-%llu", size);
	ret = sb_cache_create_unmerged(ctx, name, size, &b.cache);
	if (ret)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], bulk_pinned, &b);
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed (bulks of up to %u objects of %llu bytes)",
			max_bulk, size);
	else if (!ret)
		bulk_out(ctx, &b);
out:
	kmem_cache_destroy(b.cache);
	kfree(b.objs);
	kfree(b.windows);
	kfree(b.cycles);
	kfree(b.ns);
	return ret;
}

const struct sb_bench sb_bench_bulk = {
	.name = "bulk",
	.desc = "kmem_cache_alloc_bulk/free_bulk against a loop of single calls, bulks of 1 to max_bulk",
	.params = bulk_params,
	.nr_params = ARRAY_SIZE(bulk_params),
	.run = bulk_run,
	.selftest = "objects=1024 max_bulk=64 repeats=2",
};
