// SPDX-License-Identifier: GPL-2.0
/*
 * parallel: for k = 1 .. max_cpus, k threads pinned to the first k online
 * CPUs allocate and free from one shared private cache at the same time.
 * Each thread allocates burst objects and frees them again (LIFO), iters
 * objects in all; burst=1 is the fast path, larger bursts overflow the
 * per-CPU caches into the shared slab lists and their locks, and SLOB has
 * one global lock throughout. Per k: the mean and the slowest thread's
 * cost per alloc+free, and the aggregate throughput over the wall-clock
 * window from the common start to the last thread's end. Each repeat runs
 * the values of k in its own shuffled order (the same on every kernel),
 * each after an untimed warm-up pass of its own.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/cache.h>
#include <linux/sched.h>
#include "slabbench.h"

enum { P_SIZE, P_ITERS, P_BURST, P_REPEATS, P_MAX_CPUS, P_TOUCH };

/* Every k is a point: this bounds the sweep's work and its output. */
#define PARALLEL_MAX_CPUS	64

static const struct sb_param parallel_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_ITERS] = { "iters", "alloc+free pairs per thread and repeat", SB_U64,
		      20000, 1, 10000000 },
	[P_BURST] = { "burst", "objects a thread holds before freeing them", SB_U64,
		      1, 1, SB_BATCH },
	[P_REPEATS] = { "repeats", "timed repeats (one sample per k each)", SB_U64,
			5, 1, 100 },
	[P_MAX_CPUS] = { "max_cpus", "largest number of threads; 0: every online CPU up to 64",
			 SB_U64, 0, 0, PARALLEL_MAX_CPUS },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

enum { M_NS, M_NS_MAX, M_OPS, M_NR };

struct parallel_thread {
	void **objs;
	struct sb_timer t;
	struct sb_timer overhead;
	u64 start_ns;
	u64 end_ns;
};

struct parallel {
	struct sb_ctx *ctx;
	struct kmem_cache *cache;
	struct parallel_thread *th;
	/* The pass: empty loops and warm-up, or timed. */
	bool prep;
	/* M_NR metrics; a point per k, k - 1. */
	struct sb_samples *samples;
};

static int parallel_loop(struct parallel *p, void **objs, u64 iters,
			 struct sb_timer *t)
{
	unsigned int burst = p->ctx->val[P_BURST];
	bool touch = p->ctx->val[P_TOUCH];
	u64 done, i, n;
	unsigned int j, m;

	sb_timer_reset(t);
	for (done = 0; done < iters; done += n) {
		n = min_t(u64, SB_BATCH, iters - done);
		sb_timer_start(t);
		for (i = 0; i < n; i += m) {
			m = min_t(u64, burst, n - i);
			for (j = 0; j < m; j++) {
				objs[j] = kmem_cache_alloc(p->cache, GFP_KERNEL);
				if (unlikely(!objs[j]))
					break;
				sb_touch_write(objs[j], touch);
			}
			if (unlikely(j < m)) {
				while (j--)
					kmem_cache_free(p->cache, objs[j]);
				return -ENOMEM;
			}
			while (j--) {
				sb_touch_read(objs[j], touch);
				kmem_cache_free(p->cache, objs[j]);
			}
		}
		sb_timer_stop(t);
		cond_resched();
	}
	return 0;
}

static int parallel_thread(void *arg, unsigned int idx)
{
	struct parallel *p = arg;
	struct parallel_thread *th = &p->th[idx];
	u64 iters = p->ctx->val[P_ITERS];
	struct sb_timer t;
	int ret;

	if (p->prep) {
		sb_loop_overhead(iters, &th->overhead);
		return parallel_loop(p, th->objs, min_t(u64, iters, SB_BATCH), &t);
	}
	th->start_ns = ktime_get_ns();
	ret = parallel_loop(p, th->objs, iters, &t);
	th->end_ns = ktime_get_ns();
	th->t = t;
	return ret;
}

/*
 * Sample @r of each metric from the k threads of a timed pass; its
 * interrupts, switches and crowded batches: those of their CPUs and
 * tasks in their windows, all threads together.
 */
static void parallel_sample(struct parallel *p, unsigned int k, unsigned int r)
{
	struct sb_samples *s = p->samples;
	u64 *irqs = &s->irqs[(k - 1) * s->repeats + r];
	u64 *switches = &s->switches[(k - 1) * s->repeats + r];
	u64 *crowded = &s->crowded[(k - 1) * s->repeats + r];
	u64 iters = p->ctx->val[P_ITERS];
	u64 first = U64_MAX, last = 0, overhead = 0, window;
	s64 sum = 0, worst = S64_MIN, ns;
	unsigned int i;

	*irqs = 0;
	*switches = 0;
	*crowded = 0;
	for (i = 0; i < k; i++) {
		*irqs += p->th[i].t.irqs;
		*switches += p->th[i].t.switches;
		*crowded += p->th[i].t.crowded;
		ns = sb_per_op_milli(p->th[i].t.ns, p->th[i].overhead.ns, iters);
		sum += ns;
		worst = max(worst, ns);
		first = min(first, p->th[i].start_ns);
		last = max(last, p->th[i].end_ns);
		overhead += p->th[i].overhead.ns;
	}
	sb_samples_at(s, M_NS, k - 1)[r] = div_s64(sum, k);
	sb_samples_at(s, M_NS_MAX, k - 1)[r] = worst;
	/* The threads overlap: the window holds one thread's loop overhead. */
	window = last - first;
	overhead = div_u64(overhead, k);
	window = window > overhead ? window - overhead : 1;
	sb_samples_at(s, M_OPS, k - 1)[r] =
		mul_u64_u64_div_u64(k * iters, NSEC_PER_SEC * 1000ULL, window);
}

static void parallel_label(struct sb_out *out, u32 idx, const void *arg)
{
	sb_rec_u64(out, NULL, idx + 1);
}

static void parallel_out(struct sb_ctx *ctx, struct parallel *p)
{
	static const char * const names[M_NR] = {
		"ns_per_op", "ns_per_op_max", "ops_per_sec",
	};
	unsigned int nr_k = p->samples->nr_points;
	struct sb_label at[] = { { "cpus" }, {} };
	struct sb_out *out = ctx->out;
	unsigned int k, i;

	sb_out_cache(out, p->cache);
	sb_rec_u64(out, "cpus_used", nr_k);
	sb_out_samples_order(out, p->samples, parallel_label, NULL);
	sb_rec_milli(out, "loop_overhead_ns",
		     sb_per_op_milli(p->th[0].overhead.ns, 0, ctx->val[P_ITERS]));
	for (k = 1; k <= nr_k; k++) {
		at[0].num = k;
		for (i = 0; i < M_NR; i++)
			sb_out_samples(out, names[i], at,
				       i == M_OPS ? "ops/s" : "ns", i != M_OPS,
				       p->samples, i, k - 1);
	}
}

static int parallel_measure(struct parallel *p, const unsigned int *cpus)
{
	unsigned int nr_k = p->samples->nr_points;
	const u32 *order;
	unsigned int k, r, j;
	int ret;

	for (r = 0; r < p->samples->repeats; r++) {
		order = sb_samples_shuffle(p->samples, r);
		for (j = 0; j < nr_k; j++) {
			k = order[j] + 1;
			p->prep = true;
			ret = sb_run_on_cpus(cpus, k, parallel_thread, p);
			p->prep = false;
			if (!ret)
				ret = sb_run_on_cpus(cpus, k, parallel_thread, p);
			if (ret)
				return ret;
			parallel_sample(p, k, r);
		}
	}
	return 0;
}

static int parallel_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	u64 size = ctx->val[P_SIZE], burst = ctx->val[P_BURST];
	/* Per thread, in a cache line of its own: no false sharing. */
	u64 slots = max_t(u64, burst, L1_CACHE_BYTES / sizeof(void *));
	struct parallel p = { .ctx = ctx, .samples = &ctx->samples };
	unsigned int *cpus = NULL, nr_k = 0, cpu, i;
	int ret;

	nr_k = min_t(unsigned int, num_online_cpus(), PARALLEL_MAX_CPUS);
	if (ctx->val[P_MAX_CPUS])
		nr_k = min_t(u64, nr_k, ctx->val[P_MAX_CPUS]);
	ret = sb_check_mem(ctx, nr_k * burst * (size + sizeof(void *)));
	if (!ret)
		ret = sb_check_work(ctx, ctx->val[P_ITERS] * 2 * repeats *
				    nr_k * (nr_k + 1) / 2);
	if (ret)
		return ret;
	cpus = kcalloc(nr_k, sizeof(*cpus), GFP_KERNEL);
	p.th = kcalloc(nr_k, sizeof(*p.th), GFP_KERNEL);
	ret = -ENOMEM;
	if (!cpus || !p.th)
		goto out;
	i = 0;
	for_each_online_cpu(cpu) {
		if (i == nr_k)
			break;
		cpus[i++] = cpu;
	}
	/* A CPU that went offline since num_online_cpus() shrinks the sweep. */
	nr_k = i;
	ret = sb_samples_alloc(ctx, M_NR, nr_k, repeats, SB_SAMPLE_IRQS,
			       ctx->val[P_ITERS]);
	if (ret)
		goto out;
	ret = -ENOMEM;
	for (i = 0; i < nr_k; i++) {
		p.th[i].objs = kmalloc_array(slots, sizeof(void *), GFP_KERNEL);
		if (!p.th[i].objs)
			goto out;
	}
	ret = sb_cache_create_unmerged(ctx, "slabbench-parallel", size, &p.cache);
	if (ret)
		goto out;
	ret = parallel_measure(&p, cpus);
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed (%u threads, bursts of %llu objects of %llu bytes)",
			nr_k, burst, size);
	else if (!ret)
		parallel_out(ctx, &p);
out:
	kmem_cache_destroy(p.cache);
	for (i = 0; p.th && i < nr_k; i++)
		kfree(p.th[i].objs);
	kfree(p.th);
	kfree(cpus);
	return ret;
}

SB_DEFINE_BENCH(parallel,
		"k pinned threads, k = 1 .. max_cpus, alloc+free on one shared private cache at once",
		parallel_params, parallel_run, "iters=2000 repeats=2");
