// SPDX-License-Identifier: GPL-2.0
/*
 * sizes: kmalloc+kfree of one object in a loop for every power of two from
 * 8 bytes to twice KMALLOC_MAX_CACHE_SIZE (at least 16 KiB), so that the
 * sweep crosses from the kmalloc caches to the page allocator on every
 * allocator: above 8 KiB on SLAB and SLUB, above one page on SLOB. The
 * same sizes on every kernel keep the points comparable. Each repeat runs
 * the sizes in its own shuffled order (the same on every kernel), each
 * after an untimed warm-up of its own.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_ITERS, P_REPEATS, P_CPU, P_TOUCH };

static const struct sb_param sizes_params[] = {
	[P_ITERS] = { "iters", "kmalloc+kfree pairs per size and repeat", SB_U64,
		      10000, 1, 10000000 },
	[P_REPEATS] = { "repeats", "timed repeats (one sample per size each)",
			SB_U64, 5, 1, 100 },
	[P_CPU] = { "cpu", "CPU the loops run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

#define SIZES_MIN	8UL
#define SIZES_MAX	max_t(unsigned long, 2 * KMALLOC_MAX_CACHE_SIZE, 16384)
#define SIZES_NR	(ilog2(SIZES_MAX) - ilog2(SIZES_MIN) + 1)

struct sizes {
	struct sb_ctx *ctx;
	/* A point per size index. */
	struct sb_samples *samples;
};

static size_t sizes_at(unsigned int idx)
{
	return SIZES_MIN << idx;
}

/*
 * Instantiated per (@twin, @touch), both constants: no test of them is
 * left in the loop. The twin is this loop without kmalloc() and kfree():
 * what the loop itself costs.
 */
static __always_inline int sizes_batches(size_t size, u64 iters,
					 struct sb_timer *t, bool twin,
					 bool touch)
{
	u64 done, i, n;
	void *obj;

	sb_timer_reset(t);
	for (done = 0; done < iters; done += n) {
		n = min_t(u64, SB_BATCH, iters - done);
		sb_timer_start(t);
		for (i = 0; i < n; i++) {
			obj = twin ? sb_twin() : kmalloc(size, GFP_KERNEL);
			if (unlikely(!obj))
				break;
			sb_touch_write(obj, touch);
			sb_touch_read(obj, touch);
			if (!twin)
				kfree(obj);
		}
		sb_timer_stop(t);
		if (i < n)
			return -ENOMEM;
		cond_resched();
	}
	return 0;
}

static int sizes_loop(size_t size, u64 iters, bool touch, struct sb_timer *t,
		      bool twin)
{
	if (touch)
		return twin ? sizes_batches(size, iters, t, true, true) :
			      sizes_batches(size, iters, t, false, true);
	return twin ? sizes_batches(size, iters, t, true, false) :
		      sizes_batches(size, iters, t, false, false);
}

static int sizes_pinned(void *arg)
{
	struct sizes *s = arg;
	unsigned int repeats = s->ctx->val[P_REPEATS];
	u64 iters = s->ctx->val[P_ITERS];
	bool touch = s->ctx->val[P_TOUCH];
	struct sb_timer t;
	unsigned int i, k, r;
	const u32 *order;
	int ret;

	ret = sizes_loop(SIZES_MIN, min_t(u64, iters, SB_BATCH), touch, &t, true);
	if (!ret)
		ret = sizes_loop(SIZES_MIN, iters, touch, &s->samples->loop[0], true);
	if (ret)
		return ret;
	/* One twin for all: the loop is the same whatever the size. */
	for (k = 1; k < SIZES_NR; k++)
		s->samples->loop[k] = s->samples->loop[0];
	for (r = 0; r < repeats; r++) {
		order = sb_samples_shuffle(s->samples, r);
		for (i = 0; i < SIZES_NR; i++) {
			k = order[i];
			/* Untimed warm-up of this size's kmalloc cache. */
			ret = sizes_loop(sizes_at(k), min_t(u64, iters, SB_BATCH),
					 touch, &t, false);
			if (!ret)
				ret = sizes_loop(sizes_at(k), iters, touch, &t, false);
			if (ret)
				return ret;
			sb_sample(s->samples, k, r, &t);
		}
	}
	return 0;
}

static void sizes_label(struct sb_out *out, u32 idx, const void *arg)
{
	sb_rec_u64(out, NULL, sizes_at(idx));
}

static void sizes_out_list(struct sb_out *out, const char *name,
			   size_t above)
{
	unsigned int k;

	sb_rec_open_array(out, name);
	for (k = 0; k < SIZES_NR; k++)
		if (sizes_at(k) > above)
			sb_rec_u64(out, NULL, sizes_at(k));
	sb_rec_close(out);
}

static void sizes_out(struct sb_ctx *ctx, struct sizes *s)
{
	struct sb_out *out = ctx->out;
	struct sb_label at[] = { { "size" }, {} };
	unsigned int k;

	sizes_out_list(out, "sizes", 0);
	sizes_out_list(out, "page_allocator_sizes", KMALLOC_MAX_CACHE_SIZE);
	sb_out_samples_order(out, s->samples, sizes_label, NULL);
	sb_rec_u64(out, "kmalloc_max_cache_size", KMALLOC_MAX_CACHE_SIZE);
	sb_out_loop_overhead(out, s->samples);
	for (k = 0; k < SIZES_NR; k++) {
		at[0].num = sizes_at(k);
		sb_out_clocks(out, "op", at, s->samples, k);
	}
}

static int sizes_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	struct sizes s = {
		.ctx = ctx,
		.samples = &ctx->samples,
	};
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_work(ctx, ctx->val[P_ITERS] * 2 * repeats * SIZES_NR);
	if (ret)
		return ret;
	ret = sb_samples_alloc(ctx, SB_CLOCKS, SIZES_NR, repeats,
			       SB_SAMPLE_IRQS | SB_SAMPLE_WINDOWS,
			       ctx->val[P_ITERS]);
	if (!ret)
		ret = sb_run_on_cpu(ctx->val[P_CPU], sizes_pinned, &s);
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed");
	else if (!ret)
		sizes_out(ctx, &s);
	return ret;
}

SB_DEFINE_BENCH(sizes,
		"kmalloc+kfree in a loop, sizes 8 B to max(2 x KMALLOC_MAX_CACHE_SIZE, 16 KiB): kmalloc caches, then the page allocator",
		sizes_params, sizes_run, "iters=2000 repeats=2");
