// SPDX-License-Identifier: GPL-2.0
/*
 * remote: a producer thread allocates objects on one CPU and hands them
 * through a bounded ring to a consumer thread that frees them on another,
 * both at once. Every free is then of an object whose slab the freeing
 * CPU does not own: SLUB frees it to the slab's own freelist, SLAB puts it
 * in the consumer's per-CPU array and sends it back to the node lists in
 * batches, while the producer keeps having to refill.
 *
 * Only the allocations and the frees, with their ring slot accesses, are
 * timed, in chunks of batch objects; waiting for the other side (ring full
 * or empty) is not.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <asm/barrier.h>
#include "slabbench.h"

enum { P_SIZE, P_COUNT, P_BATCH, P_REPEATS, P_PRODUCER, P_CONSUMER, P_TOUCH };

static const struct sb_param remote_params[] = {
	[P_SIZE] = { "size", "object size in bytes", SB_U64, 64, 8, 8192 },
	[P_COUNT] = { "count", "objects passed from producer to consumer per repeat",
		      SB_U64, 100000, 1, 10000000 },
	[P_BATCH] = { "batch", "objects handed over at once; the ring holds four batches",
		      SB_U64, 64, 1, SB_BATCH },
	[P_REPEATS] = { "repeats", "timed repeats (one sample each)", SB_U64,
			5, 1, 1000 },
	[P_PRODUCER] = { "producer", "CPU that allocates", SB_U64, 0, 0,
			 SB_CPU_ID_MAX },
	[P_CONSUMER] = { "consumer", "CPU that frees; not the producer's",
			 SB_U64, 1, 0, SB_CPU_ID_MAX },
	[P_TOUCH] = { "touch", SB_TOUCH_DESC, SB_U64, 1, 0, 1 },
};

#define REMOTE_RING_BATCHES	4

struct remote {
	struct sb_ctx *ctx;
	struct kmem_cache *cache;
	void **ring;
	unsigned long cap;
	unsigned long batch;
	/* Objects of the current pass; 0 measures the empty loop instead. */
	unsigned long count;
	/* Free-running counts of objects published and freed. */
	unsigned long head;
	unsigned long tail;
	/* Set by a producer whose allocation failed. */
	bool abort;
	struct sb_timer t[SB_SIDES];
	/* A point per side, SB_ALLOC and SB_FREE; a thread each too. */
	struct sb_samples *samples;
};

/* Ring waits yield: the other side may be a vCPU the host descheduled. */
static void remote_wait(void)
{
	cpu_relax();
	cond_resched();
}

static int remote_produce(struct remote *r, struct sb_timer *t)
{
	bool touch = r->ctx->val[P_TOUCH];
	unsigned long head, i, n, pos = 0;
	void *obj;

	for (head = 0; head < r->count; head += n) {
		n = min(r->batch, r->count - head);
		/* Acquire: the consumer is done with the slots it released. */
		while (head + n - smp_load_acquire(&r->tail) > r->cap)
			remote_wait();
		sb_timer_start(t);
		for (i = 0; i < n; i++) {
			obj = kmem_cache_alloc(r->cache, GFP_KERNEL);
			if (unlikely(!obj))
				break;
			sb_touch_write(obj, touch);
			r->ring[pos] = obj;
			if (++pos == r->cap)
				pos = 0;
		}
		sb_timer_stop(t);
		/*
		 * Release: the slots are written before the consumer sees them.
		 * Published objects are freed by the consumer or the caller.
		 */
		smp_store_release(&r->head, head + i);
		if (i < n) {
			WRITE_ONCE(r->abort, true);
			return -ENOMEM;
		}
		cond_resched();
	}
	return 0;
}

static void remote_consume(struct remote *r, struct sb_timer *t)
{
	bool touch = r->ctx->val[P_TOUCH];
	unsigned long tail, i, n, pos = 0;

	for (tail = 0; tail < r->count; tail += n) {
		n = min(r->batch, r->count - tail);
		/* Acquire: pairs with the producer's release of the slots. */
		while (smp_load_acquire(&r->head) - tail < n) {
			if (READ_ONCE(r->abort))
				return;
			remote_wait();
		}
		sb_timer_start(t);
		for (i = 0; i < n; i++) {
			sb_touch_read(r->ring[pos], touch);
			kmem_cache_free(r->cache, r->ring[pos]);
			if (++pos == r->cap)
				pos = 0;
		}
		sb_timer_stop(t);
		/* Release: the slots are read before the producer reuses them. */
		smp_store_release(&r->tail, tail + n);
		cond_resched();
	}
}

static int remote_thread(void *arg, unsigned int side)
{
	struct remote *r = arg;
	struct sb_timer *t = &r->t[side];

	sb_timer_reset(t);
	if (!r->count) {
		sb_loop_overhead_batched(r->ctx->val[P_COUNT], r->batch,
					 &r->samples->loop[side]);
		return 0;
	}
	if (side == SB_ALLOC)
		return remote_produce(r, t);
	remote_consume(r, t);
	return 0;
}

/* One pass of @count objects; frees what the consumer left on failure. */
static int remote_pass(struct remote *r, const unsigned int *cpus,
		       unsigned long count)
{
	unsigned long pos;
	int ret;

	r->count = count;
	r->head = 0;
	r->tail = 0;
	r->abort = false;
	ret = sb_run_on_cpus(cpus, SB_SIDES, remote_thread, r);
	for (pos = r->tail; pos < r->head; pos++)
		kmem_cache_free(r->cache, r->ring[pos % r->cap]);
	return ret;
}

static void remote_out(struct sb_ctx *ctx, struct remote *r)
{
	struct sb_out *out = ctx->out;

	sb_out_cache(out, r->cache);
	sb_rec_u64(out, "ring_objects", r->cap);
	sb_out_alloc_free(out, r->samples);
}

static int remote_run(struct sb_ctx *ctx)
{
	unsigned int repeats = ctx->val[P_REPEATS];
	struct remote rm = {
		.ctx = ctx,
		.batch = ctx->val[P_BATCH],
		.samples = &ctx->samples,
	};
	unsigned int cpus[SB_SIDES] = { ctx->val[P_PRODUCER], ctx->val[P_CONSUMER] };
	u64 size = ctx->val[P_SIZE], count = ctx->val[P_COUNT];
	unsigned int rep, side;
	char name[32];
	int ret;

	rm.cap = REMOTE_RING_BATCHES * rm.batch;
	if (cpus[0] == cpus[1])
		return sb_fail(ctx, "producer and consumer are both cpu %u",
			       cpus[0]);
	ret = sb_check_cpu(ctx, "producer", ctx->val[P_PRODUCER]);
	if (!ret)
		ret = sb_check_cpu(ctx, "consumer", ctx->val[P_CONSUMER]);
	if (!ret)
		ret = sb_check_mem(ctx, rm.cap * (size + sizeof(void *)));
	if (!ret)
		ret = sb_check_work(ctx, count * (repeats + 1));
	if (ret)
		return ret;
	ret = sb_samples_alloc(ctx, SB_CLOCKS, SB_SIDES, repeats, SB_SAMPLE_IRQS,
			       count);
	rm.ring = kcalloc(rm.cap, sizeof(*rm.ring), GFP_KERNEL);
	if (!ret && !rm.ring)
		ret = -ENOMEM;
	if (ret)
		goto out;
	snprintf(name, sizeof(name), "slabbench-remote-%llu", size);
	ret = sb_cache_create_unmerged(ctx, name, size, &rm.cache);
	if (ret)
		goto out;
	/* The empty loops, then an untimed warm-up pass. */
	ret = remote_pass(&rm, cpus, 0);
	if (!ret)
		ret = remote_pass(&rm, cpus, min_t(u64, count, 4 * SB_BATCH));
	for (rep = 0; !ret && rep < repeats; rep++) {
		ret = remote_pass(&rm, cpus, count);
		for (side = 0; side < SB_SIDES; side++)
			sb_sample(rm.samples, side, rep, &rm.t[side]);
	}
	if (ret == -ENOMEM)
		sb_fail(ctx, "allocation failed (%lu objects of %llu bytes in the ring)",
			rm.cap, size);
	else if (!ret)
		remote_out(ctx, &rm);
out:
	kmem_cache_destroy(rm.cache);
	kfree(rm.ring);
	return ret;
}

SB_DEFINE_BENCH(remote,
		"objects allocated on one CPU and freed on another at the same time, through a ring",
		remote_params, remote_run, "count=4096 repeats=2");
