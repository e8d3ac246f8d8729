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
#include <linux/sched.h>
#include "slabbench.h"

enum {
	P_SIZE, P_COUNT, P_ORDER, P_REPEATS, P_SEED, P_CPU, P_TOUCH, P_SHEAVES,
	P_SHEAF_CAPACITY,
};
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
	[P_SHEAVES] = SB_PARAM_SHEAVES,
	[P_SHEAF_CAPACITY] = SB_PARAM_SHEAF_CAPACITY,
};

struct batch {
	struct sb_ctx *ctx;
	struct kmem_cache *cache;
	u64 count;
	void **objs;
	/* Free order as indices into objs, for every order alike. */
	u32 *order;
	struct sb_samples *samples;
};

/*
 * Every order goes through the same indirection, so that the orders differ
 * in the addresses they free and not in the loop's own cost. The random
 * permutation is seeded (sb_shuffle()), hence the same on
 * every kernel compared.
 */
static void batch_fill_order(struct batch *b)
{
	u32 i, n = b->count;

	for (i = 0; i < n; i++)
		b->order[i] = b->ctx->val[P_ORDER] == ORDER_LIFO ? n - 1 - i : i;
	if (b->ctx->val[P_ORDER] == ORDER_RANDOM)
		sb_shuffle(b->order, n, b->ctx->val[P_SEED]);
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
	struct sb_timer *loop = b->samples->loop;
	struct sb_timer ta, tf;
	unsigned int r;
	int ret;

	/* Twice: the first pass translates the code (TCG), untimed. */
	for (r = 0; r < 2; r++) {
		batch_alloc(b, &loop[SB_ALLOC], true);
		batch_free(b, &loop[SB_FREE], true);
	}
	/* Repeat 0 is an untimed warm-up: the first slabs come from pages. */
	for (r = 0; r <= b->ctx->val[P_REPEATS]; r++) {
		ret = batch_alloc(b, &ta, false);
		if (ret)
			return ret;
		batch_free(b, &tf, false);
		if (!r)
			continue;
		sb_sample(b->samples, SB_ALLOC, r - 1, &ta);
		sb_sample(b->samples, SB_FREE, r - 1, &tf);
	}
	return 0;
}

static void batch_out(struct sb_ctx *ctx, struct batch *b, const char *name)
{
	struct sb_out *out = ctx->out;

	sb_out_sheaf_capacity(out, name);
	sb_out_cache(out, b->cache);
	sb_rec_u64(out, "bytes_held", b->count * kmem_cache_size(b->cache));
	sb_out_alloc_free(out, b->samples);
}

static int batch_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	struct batch b = {
		.ctx = ctx,
		.count = ctx->val[P_COUNT],
		.samples = &ctx->samples,
	};
	const struct sb_sheaves sh = {
		.on = ctx->val[P_SHEAVES],
		.capacity = ctx->val[P_SHEAF_CAPACITY],
	};
	u64 size = ctx->val[P_SIZE];
	char name[32];
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, b.count * (size + sizeof(void *) + sizeof(u32)));
	if (!ret)
		ret = sb_check_work(ctx, b.count * (repeats + 1));
	if (ret)
		return ret;
	ret = sb_samples_alloc(ctx, SB_CLOCKS, SB_SIDES, repeats,
			       SB_SAMPLE_IRQS | SB_SAMPLE_WINDOWS, b.count);
	b.objs = kvmalloc_array(b.count, sizeof(*b.objs), GFP_KERNEL);
	b.order = kvmalloc_array(b.count, sizeof(*b.order), GFP_KERNEL);
	if (!ret && (!b.objs || !b.order))
		ret = -ENOMEM;
	if (ret)
		goto out;
	batch_fill_order(&b);
	snprintf(name, sizeof(name), "slabbench-batch-%llu", size);
	ret = sb_cache_create_sheaves(ctx, name, size, &sh, &b.cache);
	if (ret)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], batch_pinned, &b);
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed (%llu objects of %llu bytes)",
			b.count, size);
	else if (!ret)
		batch_out(ctx, &b, name);
	kmem_cache_destroy(b.cache);
out:
	kvfree(b.order);
	kvfree(b.objs);
	return ret;
}

SB_DEFINE_BENCH(batch,
		"count allocations, then count frees in lifo, fifo or random order, from a private cache",
		batch_params, batch_run, "count=4000 order=random repeats=2");
