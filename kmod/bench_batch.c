// SPDX-License-Identifier: GPL-2.0
/*
 * batch: allocate count objects from a private cache, then free them all,
 * last-in first-out, first-in first-out or in a random order. Unlike
 * fastpath, the objects outgrow the per-CPU caches, so allocation refills
 * them from slabs and freeing flushes them back; the free order decides
 * how scattered over slabs those flushes are.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_SIZE, P_COUNT, P_ORDER, P_REPEATS, P_SEED, P_CPU, P_TOUCH };
enum { ORDER_LIFO, ORDER_FIFO, ORDER_RANDOM };

static const char * const batch_orders[] = { "lifo", "fifo", "random", NULL };

static const struct sb_param batch_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_COUNT] = { "count", "objects allocated before the first free (memory-capped)",
		      SB_U64, 1000, 1, 1000000 },
	[P_ORDER] = { "order", "free order: reverse of allocation, same, or a random permutation",
		      SB_ENUM, ORDER_LIFO, 0, 2, batch_orders },
	[P_REPEATS] = { "repeats", "timed repeats (one sample each)", SB_U64,
			5, 1, 1000 },
	[P_SEED] = { "seed", "seed of the random free order", SB_U64, 1, 0,
		     U32_MAX },
	[P_CPU] = { "cpu", "CPU the loops run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

/* Per repeat: alloc ns, alloc cycles, free ns, free cycles. */
enum { R_ALLOC_NS, R_ALLOC_CYCLES, R_FREE_NS, R_FREE_CYCLES, R_NR };

struct batch {
	struct sb_ctx *ctx;
	struct kmem_cache *cache;
	u64 count;
	void **objs;
	/* Free order as indices into objs, for every order alike. */
	u32 *order;
	/* The twin loops of the allocations and of the frees. */
	struct sb_timer overhead[2];
	s64 *res[R_NR];
	/* Per repeat, the windows of its allocations and of its frees. */
	u32 *windows[2];
	/* Per repeat: interrupts in the alloc windows, in the free windows. */
	u64 *irqs[2];
};

/*
 * Every order goes through the same indirection, so that the orders differ
 * in the addresses they free and not in the loop's own cost. The random
 * permutation is seeded (Fisher-Yates over prandom), hence the same on
 * every kernel compared.
 */
static void batch_fill_order(struct batch *b)
{
	struct rnd_state rnd;
	u32 i, j, tmp, n = b->count;

	for (i = 0; i < n; i++)
		b->order[i] = b->ctx->val[P_ORDER] == ORDER_LIFO ? n - 1 - i : i;
	if (b->ctx->val[P_ORDER] != ORDER_RANDOM)
		return;
	prandom_seed_state(&rnd, b->ctx->val[P_SEED]);
	for (i = n - 1; i > 0; i--) {
		j = reciprocal_scale(prandom_u32_state(&rnd), i + 1);
		tmp = b->order[i];
		b->order[i] = b->order[j];
		b->order[j] = tmp;
	}
}

/*
 * The loops are instantiated per (@twin, @touch), both constants, so that
 * no test of them is left inside: the twin is the loop without the
 * allocator's calls, and measures what the loop itself costs. The twin of
 * the allocations fills objs with its own line, which the twin of the
 * frees reads back. On failure, frees what it allocated and returns
 * -ENOMEM.
 */
static __always_inline int batch_alloc_loop(struct batch *b, struct sb_timer *t,
					    bool twin, bool touch)
{
	u64 done, i, n;
	void *obj;

	sb_timer_reset(t);
	for (done = 0; done < b->count; done += n) {
		n = min_t(u64, SB_BATCH, b->count - done);
		sb_timer_start(t);
		for (i = done; i < done + n; i++) {
			obj = twin ? sb_twin() :
			      kmem_cache_alloc(b->cache, GFP_KERNEL);
			if (unlikely(!obj))
				break;
			b->objs[i] = obj;
			sb_touch_write(obj, touch);
		}
		sb_timer_stop(t);
		if (i < done + n) {
			while (!twin && i--)
				kmem_cache_free(b->cache, b->objs[i]);
			return -ENOMEM;
		}
		cond_resched();
	}
	return 0;
}

static __always_inline void batch_free_loop(struct batch *b, struct sb_timer *t,
					    bool twin, bool touch)
{
	void *obj;
	u64 done, i, n;

	sb_timer_reset(t);
	for (done = 0; done < b->count; done += n) {
		n = min_t(u64, SB_BATCH, b->count - done);
		sb_timer_start(t);
		for (i = done; i < done + n; i++) {
			obj = b->objs[b->order[i]];
			sb_touch_read(obj, touch);
			if (!twin)
				kmem_cache_free(b->cache, obj);
		}
		sb_timer_stop(t);
		cond_resched();
	}
}

static int batch_alloc(struct batch *b, struct sb_timer *t, bool twin)
{
	if (b->ctx->val[P_TOUCH])
		return twin ? batch_alloc_loop(b, t, true, true) :
			      batch_alloc_loop(b, t, false, true);
	return twin ? batch_alloc_loop(b, t, true, false) :
		      batch_alloc_loop(b, t, false, false);
}

static void batch_free(struct batch *b, struct sb_timer *t, bool twin)
{
	if (b->ctx->val[P_TOUCH]) {
		if (twin)
			batch_free_loop(b, t, true, true);
		else
			batch_free_loop(b, t, false, true);
	} else if (twin) {
		batch_free_loop(b, t, true, false);
	} else {
		batch_free_loop(b, t, false, false);
	}
}

static int batch_pinned(void *arg)
{
	struct batch *b = arg;
	struct sb_timer ta, tf;
	unsigned int r;
	int ret;

	/* Twice: the first pass translates the code (TCG), untimed. */
	for (r = 0; r < 2; r++) {
		batch_alloc(b, &b->overhead[0], true);
		batch_free(b, &b->overhead[1], true);
	}
	/* Repeat 0 is an untimed warm-up: the first slabs come from pages. */
	for (r = 0; r <= b->ctx->val[P_REPEATS]; r++) {
		ret = batch_alloc(b, &ta, false);
		if (ret)
			return ret;
		batch_free(b, &tf, false);
		if (!r)
			continue;
		b->res[R_ALLOC_NS][r - 1] = sb_per_op_milli(ta.ns, b->overhead[0].ns, b->count);
		b->res[R_ALLOC_CYCLES][r - 1] = sb_per_op_milli(ta.cycles, b->overhead[0].cycles,
								b->count);
		b->res[R_FREE_NS][r - 1] = sb_per_op_milli(tf.ns, b->overhead[1].ns, b->count);
		b->res[R_FREE_CYCLES][r - 1] = sb_per_op_milli(tf.cycles, b->overhead[1].cycles,
							       b->count);
		b->windows[0][r - 1] = ta.window;
		b->windows[1][r - 1] = tf.window;
		b->irqs[0][r - 1] = ta.irqs;
		b->irqs[1][r - 1] = tf.irqs;
	}
	return 0;
}

static void batch_out(struct sb_ctx *ctx, struct batch *b)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	struct sb_out *out = ctx->out;
	struct sb_windows wa = {
		b->windows[0], b->count, b->overhead[0].window,
		sb_per_op_milli(b->overhead[0].ns, 0, b->count),
	};
	struct sb_windows wf = {
		b->windows[1], b->count, b->overhead[1].window,
		sb_per_op_milli(b->overhead[1].ns, 0, b->count),
	};

	sb_printf(out, "\"cache_merged\":false,\"object_size\":%u,\"bytes_held\":%llu,",
		  kmem_cache_size(b->cache), b->count * kmem_cache_size(b->cache));
	sb_printf(out, "\"loop_overhead_ns\":");
	sb_out_milli(out, sb_per_op_milli(b->overhead[0].ns, 0, b->count));
	sb_printf(out, ",\"metrics\":{");
	sb_out_timed_at(out, true, "alloc_ns_per_op", NULL, "ns", true,
			b->res[R_ALLOC_NS], repeats, b->irqs[0], &wa);
	sb_out_timed_at(out, false, "free_ns_per_op", NULL, "ns", true,
			b->res[R_FREE_NS], repeats, b->irqs[1], &wf);
	sb_out_timed_at(out, false, "alloc_cycles_per_op", NULL, "cycles", true,
			b->res[R_ALLOC_CYCLES], repeats, b->irqs[0], NULL);
	sb_out_timed_at(out, false, "free_cycles_per_op", NULL, "cycles", true,
			b->res[R_FREE_CYCLES], repeats, b->irqs[1], NULL);
	sb_printf(out, "}");
}

static int batch_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	struct batch b = { .ctx = ctx, .count = ctx->val[P_COUNT] };
	u64 size = ctx->val[P_SIZE];
	char name[32];
	s64 *res;
	u32 *windows;
	int ret, i;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, b.count * (size + sizeof(void *) + sizeof(u32)));
	if (!ret)
		ret = sb_check_work(ctx, b.count * (repeats + 1));
	if (ret)
		return ret;
	res = kcalloc(R_NR * repeats, sizeof(*res), GFP_KERNEL);
	windows = kcalloc(2 * repeats, sizeof(*windows), GFP_KERNEL);
	b.irqs[0] = kcalloc(2 * repeats, sizeof(u64), GFP_KERNEL);
	b.objs = kvmalloc_array(b.count, sizeof(*b.objs), GFP_KERNEL);
	b.order = kvmalloc_array(b.count, sizeof(*b.order), GFP_KERNEL);
	ret = -ENOMEM;
	if (!res || !windows || !b.irqs[0] || !b.objs || !b.order)
		goto out;
	b.irqs[1] = b.irqs[0] + repeats;
	for (i = 0; i < R_NR; i++)
		b.res[i] = res + i * repeats;
	b.windows[0] = windows;
	b.windows[1] = windows + repeats;
	batch_fill_order(&b);
	snprintf(name, sizeof(name), "slabbench-batch-%llu", size);
	ret = sb_cache_create_unmerged(ctx, name, size, &b.cache);
	if (ret)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], batch_pinned, &b);
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed (%llu objects of %llu bytes)",
			b.count, size);
	else if (!ret)
		batch_out(ctx, &b);
	kmem_cache_destroy(b.cache);
out:
	kvfree(b.order);
	kvfree(b.objs);
	kfree(windows);
	kfree(b.irqs[0]);
	kfree(res);
	return ret;
}

const struct sb_bench sb_bench_batch = {
	.name = "batch",
	.desc = "count allocations, then count frees in lifo, fifo or random order, from a private cache",
	.params = batch_params,
	.nr_params = ARRAY_SIZE(batch_params),
	.run = batch_run,
	.selftest = "count=4000 order=random repeats=2",
};
