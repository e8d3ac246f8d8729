// SPDX-License-Identifier: GPL-2.0
/*
 * fastpath: allocate one object and free it again, in a loop. With a warm
 * per-CPU cache neither call should leave the allocator's fast path.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_SIZE, P_ITERS, P_REPEATS, P_API, P_CPU, P_TOUCH };
enum { API_CACHE, API_KMALLOC, API_TWIN };

static const char * const fastpath_apis[] = { "cache", "kmalloc", "twin", NULL };

static const struct sb_param fastpath_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_ITERS] = { "iters", "alloc+free pairs per repeat", SB_U64,
		      100000, 1, 100000000 },
	[P_REPEATS] = { "repeats", "timed repeats (one sample each)", SB_U64,
			5, 1, 1000 },
	[P_API] = { "api", "kmem_cache_alloc/free on a private cache, kmalloc/kfree, or neither: the twin loop, measured as a benchmark (its net figures are 0)",
		    SB_ENUM, API_CACHE, API_CACHE, API_TWIN, fastpath_apis },
	[P_CPU] = { "cpu", "CPU the loop runs on", SB_U64, 0, 0, SB_CPU_ID_MAX },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

struct fastpath {
	struct sb_ctx *ctx;
	struct kmem_cache *cache;
	struct sb_samples *samples;
	u64 extra_loops;	/* spins of sb_spin() per pair, for sb_extra_ns */
	u64 spin_ps;		/* one spin's time as calibrated, in ps */
	u64 calib_best_ns;	/* the fastest calibration timing */
	u64 calib_timings;	/* how many were taken */
	/*
	 * What the known slowdown did in the timed repeats: the tests judge
	 * it by these counts, as emulated time cannot be held to a threshold.
	 */
	u64 extra_pairs;
	u64 extra_spins;
};

/* Spins of one calibration timing; a fraction of a millisecond under TCG. */
#define SPIN_CALIBRATION	100000

/*
 * A busy loop of @loops spins. Not ndelay(): its clock reads cost about a
 * microsecond under TCG, far more than the fifth of a fast-path pair a
 * known-answer test adds.
 */
static noinline u64 sb_spin(u64 loops)
{
	u64 n;

	for (n = 0; n < loops; n++)
		barrier();
	return n;
}

/*
 * Times SPIN_CALIBRATION spins and sets the spins that take sb_extra_ns on
 * this CPU from the fastest timing so far (@best, in ns). Called before
 * the warm-up and after each of its passes, so that the fastest is taken
 * over the whole warm-up: under TCG, a host busy for the few ms of a
 * calibration taken at once would set too few spins for the rest.
 */
static void fastpath_calibrate(struct fastpath *f, u64 *best)
{
	u64 t = ktime_get_ns();

	sb_spin(SPIN_CALIBRATION);
	*best = min(*best, ktime_get_ns() - t);
	f->calib_best_ns = *best;
	f->calib_timings++;
	f->spin_ps = max_t(u64, div64_u64(*best * 1000, SPIN_CALIBRATION), 1);
	f->extra_loops = div64_u64((u64)sb_extra_ns * 1000 + f->spin_ps / 2,
				   f->spin_ps);
}

/*
 * One batch of @n pairs. Instantiated per (@twin, @use_cache, @touch,
 * @extra), all constants, so that no test of them is left inside the
 * loop: the twin is this loop with the allocator's calls taken out, and
 * measures what the loop itself costs; @extra adds f->extra_loops spins
 * after each pair (a known slowdown), in an instantiation of its own, so
 * that the loop every real measurement times stays as it was.
 */
static __always_inline int fastpath_batch(struct fastpath *f, u64 n, bool twin,
					  bool use_cache, bool touch, bool extra)
{
	size_t size = f->ctx->val[P_SIZE];
	void *obj;
	u64 i;

	for (i = 0; i < n; i++) {
		if (twin)
			obj = sb_twin();
		else if (use_cache)
			obj = kmem_cache_alloc(f->cache, GFP_KERNEL);
		else
			obj = kmalloc(size, GFP_KERNEL);
		if (unlikely(!obj))
			return -ENOMEM;
		sb_touch_write(obj, touch);
		sb_touch_read(obj, touch);
		if (twin)
			continue;
		if (use_cache)
			kmem_cache_free(f->cache, obj);
		else
			kfree(obj);
		if (extra) {
			f->extra_spins += sb_spin(f->extra_loops);
			f->extra_pairs++;
		}
	}
	return 0;
}

static __always_inline int fastpath_batches(struct fastpath *f, u64 iters,
					    struct sb_timer *t, bool twin,
					    bool use_cache, bool touch, bool extra)
{
	u64 done, n;
	int ret;

	sb_timer_reset(t);
	for (done = 0; done < iters; done += n) {
		n = min_t(u64, SB_BATCH, iters - done);
		sb_timer_start(t);
		ret = fastpath_batch(f, n, twin, use_cache, touch, extra);
		sb_timer_stop(t);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

static int fastpath_loop(struct fastpath *f, u64 iters, struct sb_timer *t,
			 bool twin)
{
	bool use_cache = f->ctx->val[P_API] == API_CACHE;
	bool touch = f->ctx->val[P_TOUCH];

	/* The known slowdown is never a twin: its loop is the real one's. */
	if (f->extra_loops && !twin)
		return fastpath_batches(f, iters, t, false, use_cache, touch, true);
	if (touch) {
		if (twin)
			return fastpath_batches(f, iters, t, true, false, true, false);
		if (use_cache)
			return fastpath_batches(f, iters, t, false, true, true, false);
		return fastpath_batches(f, iters, t, false, false, true, false);
	}
	if (twin)
		return fastpath_batches(f, iters, t, true, false, false, false);
	if (use_cache)
		return fastpath_batches(f, iters, t, false, true, false, false);
	return fastpath_batches(f, iters, t, false, false, false, false);
}

static int fastpath_pinned(void *arg)
{
	struct fastpath *f = arg;
	u64 iters = f->ctx->val[P_ITERS];
	bool twin = f->ctx->val[P_API] == API_TWIN;
	u64 start = ktime_get_ns(), best = U64_MAX;
	struct sb_timer t;
	unsigned int r;
	int ret;

	if (sb_extra_ns) {
		sb_spin(SPIN_CALIBRATION);
		for (r = 0; r < 5; r++)
			fastpath_calibrate(f, &best);
	}
	/* Untimed passes warm the per-CPU cache and the code. */
	do {
		ret = fastpath_loop(f, SB_BATCH, &t, twin);
		if (!ret)
			ret = fastpath_loop(f, SB_BATCH, &t, true);
		if (sb_extra_ns)
			fastpath_calibrate(f, &best);
	} while (!ret && sb_warming(start));
	if (!ret)
		ret = fastpath_loop(f, iters, &f->samples->loop[0], true);
	f->extra_pairs = 0;
	f->extra_spins = 0;
	for (r = 0; !ret && r < f->ctx->val[P_REPEATS]; r++) {
		ret = fastpath_loop(f, iters, &t, twin);
		sb_sample(f->samples, 0, r, &t);
	}
	return ret;
}

/* What the known slowdown did, for the host to judge it by (not by time). */
static void fastpath_out_extra(struct sb_out *out, const struct fastpath *f)
{
	sb_rec_u64(out, "extra_ns", sb_extra_ns);
	sb_rec_u64(out, "extra_loops", f->extra_loops);
	sb_rec_u64(out, "spin_ps", f->spin_ps);
	sb_rec_u64(out, "calib_spins", SPIN_CALIBRATION);
	sb_rec_u64(out, "calib_best_ns", f->calib_best_ns);
	sb_rec_u64(out, "calib_timings", f->calib_timings);
	sb_rec_u64(out, "extra_pairs", f->extra_pairs);
	sb_rec_u64(out, "extra_spins", f->extra_spins);
}

static int fastpath_run(struct sb_ctx *ctx)
{
	struct fastpath f = {
		.ctx = ctx,
		.samples = &ctx->samples,
	};
	char name[32];
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_work(ctx, ctx->val[P_ITERS] * ctx->val[P_REPEATS]);
	if (!ret)
		ret = sb_samples_alloc(ctx, SB_CLOCKS, 1, ctx->val[P_REPEATS],
				       SB_SAMPLE_IRQS | SB_SAMPLE_WINDOWS,
				       ctx->val[P_ITERS]);
	if (ret)
		return ret;
	if (ctx->val[P_API] == API_CACHE) {
		snprintf(name, sizeof(name), "slabbench-%llu", ctx->val[P_SIZE]);
		ret = sb_cache_create_unmerged(ctx, name, ctx->val[P_SIZE],
					       &f.cache);
		if (ret)
			goto out;
		sb_rec_bool(ctx->out, "cache_merged", false);
	}
	ret = sb_run_on_cpu(ctx->val[P_CPU], fastpath_pinned, &f);
	if (ret)
		goto out;
	if (sb_extra_ns)
		fastpath_out_extra(ctx->out, &f);
	sb_out_loop_overhead(ctx->out, f.samples);
	sb_out_clocks(ctx->out, "op", NULL, f.samples, 0);
out:
	kmem_cache_destroy(f.cache);
	return ret;
}

SB_DEFINE_BENCH(fastpath,
		"alloc+free of one object in a loop: the per-CPU fast path",
		fastpath_params, fastpath_run, "iters=10000 repeats=2");
