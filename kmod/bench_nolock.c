// SPDX-License-Identifier: GPL-2.0
/*
 * nolock: kmalloc_nolock() and kfree_nolock(), the allocation and free a
 * BPF program or an NMI handler may call, against kmalloc() and kfree()
 * in the same loop: count objects allocated, then freed, per round. With
 * count=1 (pairs) both stay in the per-CPU cache; with more, the cache
 * runs dry, and kmalloc_nolock() may not spin on a lock to refill it.
 * Only on kernels that have them: elsewhere the catalogue says so and a
 * spec is refused.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/numa.h>
#include "slabbench.h"

enum { P_SIZE, P_COUNT, P_ROUNDS, P_REPEATS, P_API, P_CPU, P_TOUCH };
enum { API_NOLOCK, API_KMALLOC, API_TWIN };

static const char * const nolock_apis[] = { "nolock", "kmalloc", "twin", NULL };

static const struct sb_param nolock_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_COUNT] = { "count", "objects allocated per round before they are freed (1: alloc+free pairs)",
		      SB_U64, 1, 1, 65536 },
	[P_ROUNDS] = { "rounds", "rounds per repeat", SB_U64, 10000, 1, 100000000 },
	[P_REPEATS] = { "repeats", "timed repeats (one sample each)", SB_U64,
			5, 1, 1000 },
	[P_API] = { "api", "kmalloc_nolock/kfree_nolock, kmalloc/kfree, or neither: the twin loop, measured as a benchmark (its net figures are 0)",
		    SB_ENUM, API_NOLOCK, API_NOLOCK, API_TWIN, nolock_apis },
	[P_CPU] = { "cpu", "CPU the loop runs on", SB_U64, 0, 0, SB_CPU_ID_MAX },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

#ifdef SB_HAVE_KMALLOC_NOLOCK
struct nolock {
	struct sb_ctx *ctx;
	void **objs;
	struct sb_samples *samples;
};

/*
 * One round, instantiated per (@twin, @api_nolock, @touch), all
 * constants, so that no test of them is left inside the loop; the twin
 * fills objs with its own line. On failure, frees what it allocated.
 */
static __always_inline int nolock_round(struct nolock *n, bool twin,
					bool api_nolock, bool touch)
{
	size_t size = n->ctx->val[P_SIZE];
	u64 count = n->ctx->val[P_COUNT], i;
	void **objs = n->objs;

	for (i = 0; i < count; i++) {
		if (twin)
			objs[i] = sb_twin();
		else if (api_nolock)
			objs[i] = kmalloc_nolock(size, 0, NUMA_NO_NODE);
		else
			objs[i] = kmalloc(size, GFP_KERNEL);
		if (unlikely(!objs[i]))
			break;
		sb_touch_write(objs[i], touch);
	}
	count = i;
	for (i = 0; i < count; i++) {
		sb_touch_read(objs[i], touch);
		if (twin)
			continue;
		if (api_nolock)
			kfree_nolock(objs[i]);
		else
			kfree(objs[i]);
	}
	return count == n->ctx->val[P_COUNT] ? 0 : -ENOMEM;
}

/* @rounds rounds in windows of about SB_BATCH objects. */
static __always_inline int nolock_rounds(struct nolock *n, u64 rounds,
					 struct sb_timer *t, bool twin,
					 bool api_nolock, bool touch)
{
	u64 per = max_t(u64, 1, SB_BATCH / n->ctx->val[P_COUNT]);
	u64 done, i, k;
	int ret = 0;

	sb_timer_reset(t);
	for (done = 0; !ret && done < rounds; done += k) {
		k = min(per, rounds - done);
		sb_timer_start(t);
		for (i = 0; !ret && i < k; i++)
			ret = nolock_round(n, twin, api_nolock, touch);
		sb_timer_stop(t);
		cond_resched();
	}
	return ret;
}

static int nolock_loop(struct nolock *n, u64 rounds, struct sb_timer *t,
		       bool twin)
{
	bool api_nolock = n->ctx->val[P_API] == API_NOLOCK;

	if (n->ctx->val[P_TOUCH]) {
		if (twin)
			return nolock_rounds(n, rounds, t, true, false, true);
		if (api_nolock)
			return nolock_rounds(n, rounds, t, false, true, true);
		return nolock_rounds(n, rounds, t, false, false, true);
	}
	if (twin)
		return nolock_rounds(n, rounds, t, true, false, false);
	if (api_nolock)
		return nolock_rounds(n, rounds, t, false, true, false);
	return nolock_rounds(n, rounds, t, false, false, false);
}

static int nolock_pinned(void *arg)
{
	struct nolock *n = arg;
	u64 rounds = n->ctx->val[P_ROUNDS];
	bool twin = n->ctx->val[P_API] == API_TWIN;
	u64 start = ktime_get_ns();
	struct sb_timer t;
	unsigned int r;
	int ret;

	/* Untimed passes warm the per-CPU cache and the code. */
	do {
		ret = nolock_loop(n, 1, &t, twin);
		if (!ret)
			ret = nolock_loop(n, 1, &t, true);
	} while (!ret && sb_warming(start));
	if (!ret)
		ret = nolock_loop(n, rounds, &n->samples->loop[0], true);
	for (r = 0; !ret && r < n->ctx->val[P_REPEATS]; r++) {
		ret = nolock_loop(n, rounds, &t, twin);
		sb_sample(n->samples, 0, r, &t);
	}
	return ret;
}

static int nolock_run(struct sb_ctx *ctx)
{
	u64 count = ctx->val[P_COUNT], ops = count * ctx->val[P_ROUNDS];
	struct nolock n = { .ctx = ctx, .samples = &ctx->samples };
	int ret;

	ret = sb_check_cpu(ctx, "cpu", ctx->val[P_CPU]);
	if (!ret)
		ret = sb_check_mem(ctx, count * (ctx->val[P_SIZE] + sizeof(void *)));
	if (!ret)
		ret = sb_check_work(ctx, ops * ctx->val[P_REPEATS]);
	if (!ret)
		ret = sb_samples_alloc(ctx, SB_CLOCKS, 1, ctx->val[P_REPEATS],
				       SB_SAMPLE_IRQS | SB_SAMPLE_WINDOWS, ops);
	if (ret)
		return ret;
	n.objs = kvmalloc_array(count, sizeof(void *), GFP_KERNEL);
	if (!n.objs)
		return -ENOMEM;
	ret = sb_run_on_cpu(ctx->val[P_CPU], nolock_pinned, &n);
	kvfree(n.objs);
	if (ret == -ENOMEM && ctx->val[P_API] == API_NOLOCK)
		return sb_fail(ctx, "kmalloc_nolock() returned NULL");
	if (ret)
		return ret;
	sb_out_loop_overhead(ctx->out, n.samples);
	sb_out_clocks(ctx->out, "op", NULL, n.samples, 0);
	return 0;
}
#endif

const struct sb_bench sb_bench_nolock = {
	.name = "nolock",
	.desc = "kmalloc_nolock+kfree_nolock of count objects per round, against kmalloc+kfree in the same loop",
	.params = nolock_params,
	.nr_params = ARRAY_SIZE(nolock_params),
#ifdef SB_HAVE_KMALLOC_NOLOCK
	.run = nolock_run,
#else
	.absent = "kmalloc_nolock() is not in this kernel (Linux 6.18 on)",
#endif
	.selftest = "count=64 rounds=20 repeats=2",
};
