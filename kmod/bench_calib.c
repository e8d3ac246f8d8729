// SPDX-License-Identifier: GPL-2.0
/*
 * calib: windows whose cost is known in advance, to check the cost model
 * (tcg/) and the timing core against them. "loop" is a countdown loop of
 * exactly two instructions per iteration (dec, jnz); "read" loads one
 * 32-bit word every @stride bytes of a buffer of @bytes, four
 * instructions and one load per access: a buffer larger than the
 * simulated last-level cache misses there once per access (a line per
 * access, LRU), one smaller than L1d never misses once warm. Times are
 * raw, without the loop-overhead subtraction of the other benchmarks, so
 * that under icount (one nanosecond per instruction) they can be held
 * against the model's instruction count.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_MODE, P_ITERS, P_BYTES, P_STRIDE, P_REPEATS, P_CPU };
enum { MODE_LOOP, MODE_READ };

static const char * const calib_modes[] = { "loop", "read", NULL };

static const struct sb_param calib_params[] = {
	[P_MODE] = { "mode", "a two-instruction loop, or reads striding a buffer",
		     SB_ENUM, MODE_LOOP, 0, 1, calib_modes },
	[P_ITERS] = { "iters", "loop: iterations per window", SB_U64, 100000, 1,
		      100000000 },
	[P_BYTES] = { "bytes", "read: buffer size, read once per window", SB_U64,
		      1 << 20, 4096, 64 << 20 },
	[P_STRIDE] = { "stride", "read: bytes between two loads", SB_U64, 64, 4,
		       4096 },
	[P_REPEATS] = { "repeats", "timed windows (one sample each)", SB_U64, 5, 1,
			1000 },
	[P_CPU] = { "cpu", "CPU the loops run on", SB_U64, 0, 0, SB_CPU_ID_MAX },
};

struct calib {
	struct sb_ctx *ctx;
	u8 *buf;
	/* Raw: the twin loops are left at zero, nothing is subtracted. */
	struct sb_samples *samples;
};

static void calib_window(struct calib *c, struct sb_timer *t)
{
	unsigned long n = c->ctx->val[P_ITERS];
	unsigned long stride = c->ctx->val[P_STRIDE];
	const u8 *p = c->buf, *end = c->buf + c->ctx->val[P_BYTES];

	sb_timer_reset(t);
	sb_timer_start(t);
	if (c->ctx->val[P_MODE] == MODE_LOOP) {
#ifdef CONFIG_X86
		asm volatile("1: dec %0\n\tjnz 1b" : "+r" (n) : : "cc");
#else
		for (; n; n--)
			barrier();
#endif
	} else {
#ifdef CONFIG_X86
		asm volatile("1: movl (%0), %%eax\n\tadd %2, %0\n\t"
			     "cmp %1, %0\n\tjb 1b"
			     : "+r" (p) : "r" (end), "r" (stride)
			     : "eax", "cc", "memory");
#else
		for (; p < end; p += stride)
			READ_ONCE(*p);
#endif
	}
	sb_timer_stop(t);
}

static int calib_pinned(void *arg)
{
	struct calib *c = arg;
	struct sb_timer t;
	unsigned int r;

	/* One untimed window: translated code, and for reads a warm buffer. */
	calib_window(c, &t);
	for (r = 0; r < c->samples->repeats; r++) {
		calib_window(c, &t);
		sb_sample(c->samples, 0, r, &t);
		cond_resched();
	}
	return 0;
}

static int calib_run(struct sb_ctx *ctx)
{
	struct calib c = {
		.ctx = ctx,
		.samples = &ctx->samples,
	};
	u64 ops;
	int ret;

	if (ctx->val[P_MODE] == MODE_LOOP)
		ops = ctx->val[P_ITERS];
	else
		ops = DIV_ROUND_UP(ctx->val[P_BYTES], ctx->val[P_STRIDE]);
	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret && ctx->val[P_MODE] == MODE_READ)
		ret = sb_check_mem(ctx, ctx->val[P_BYTES]);
	if (!ret)
		ret = sb_samples_alloc(ctx, SB_CLOCKS, 1, ctx->val[P_REPEATS],
				       SB_SAMPLE_WINDOWS, ops);
	if (ret)
		return ret;
	ret = -ENOMEM;
	if (ctx->val[P_MODE] == MODE_READ)
		c.buf = kvzalloc(ctx->val[P_BYTES], GFP_KERNEL);
	if (ctx->val[P_MODE] == MODE_READ && !c.buf)
		goto out;
	ret = sb_run_on_cpu(ctx->val[P_CPU], calib_pinned, &c);
	if (ret)
		goto out;
	sb_rec_u64(ctx->out, "ops_per_window", ops);
	sb_out_clocks(ctx->out, "op", NULL, c.samples, 0);
out:
	kvfree(c.buf);
	return ret;
}

SB_DEFINE_BENCH(calib,
		"known-answer windows for the cost model: a 2-instruction loop, or strided reads of a buffer",
		calib_params, calib_run, "iters=1000 repeats=2");
