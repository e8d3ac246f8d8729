// SPDX-License-Identifier: GPL-2.0
/*
 * The measurement core: where benchmarks run and how their loops are
 * timed. Benchmarks time their own inner loops with sb_timer so that the
 * measured code is inlined into the loop, as in time_bench; the core
 * supplies the pinned thread, the empty-loop baseline, the per-operation
 * arithmetic, the private cache to run on, and keeps the samples (struct
 * sb_samples) that the output writes.
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/math64.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/kernel_stat.h>
#include <linux/hardirq.h>
#include <linux/prandom.h>
#include "slabbench.h"

/*
 * Hard interrupts this CPU has taken: device interrupts through genirq
 * and, on x86, the local APIC's own vectors, which genirq does not count
 * (the timer tick, rescheduling and function-call IPIs, TLB shootdowns,
 * irq_work). Benchmarks run pinned, so the CPU cannot change under us.
 */
u64 sb_irq_count(void)
{
	unsigned int cpu = raw_smp_processor_id();
	u64 n = kstat_cpu_irqs_sum(cpu);
#ifdef CONFIG_X86
	const irq_cpustat_t *st = &per_cpu(irq_stat, cpu);

#ifdef SB_IRQ_COUNTS
#ifdef CONFIG_X86_LOCAL_APIC
	n += READ_ONCE(st->counts[IRQ_COUNT_APIC_TIMER]) +
	     READ_ONCE(st->counts[IRQ_COUNT_IRQ_WORK]);
#endif
#ifdef CONFIG_SMP
	n += READ_ONCE(st->counts[IRQ_COUNT_RESCHEDULE]) +
	     READ_ONCE(st->counts[IRQ_COUNT_CALL_FUNCTION]);
#endif
	n += READ_ONCE(st->counts[IRQ_COUNT_TLB]);
#else
#ifdef CONFIG_X86_LOCAL_APIC
	n += READ_ONCE(st->apic_timer_irqs);
#endif
#ifdef CONFIG_SMP
	n += READ_ONCE(st->irq_resched_count) + READ_ONCE(st->irq_call_count);
#endif
	n += READ_ONCE(st->irq_tlb_count) + READ_ONCE(st->apic_irq_work_irqs);
#endif
#endif
	return n;
}

/*
 * Times the benchmark's task has been switched out. The cost model leaves
 * interrupt handlers out of a window, not another task: whatever runs
 * while this one is switched out (after a preemption, or a schedule()
 * in might_resched() on a voluntary-preemption kernel) would count.
 */
u64 sb_switch_count(void)
{
	return current->nvcsw + current->nivcsw;
}

void sb_shuffle(u32 *a, u32 n, u64 seed)
{
	struct rnd_state rnd;
	u32 i, j, tmp;

	prandom_seed_state(&rnd, seed);
	for (i = n; i > 1; i--) {
		j = reciprocal_scale(prandom_u32_state(&rnd), i);
		tmp = a[i - 1];
		a[i - 1] = a[j];
		a[j] = tmp;
	}
}

/* @order becomes a permutation of 0..@nr-1, fixed by @repeat. */
static void sb_point_order(u32 *order, u32 nr, unsigned int repeat)
{
	u32 i;

	for (i = 0; i < nr; i++)
		order[i] = i;
	sb_shuffle(order, nr, 0x5eed0000ULL + repeat);
}

struct sb_pinned {
	int (*fn)(void *arg);
	void *arg;
	int ret;
	struct completion done;
};

static int sb_pinned_thread(void *data)
{
	struct sb_pinned *p = data;

	p->ret = p->fn(p->arg);
	complete(&p->done);
	return 0;
}

/*
 * Runs @fn on a kthread bound to @cpu and waits for it. The wait wakes up
 * every second so that long runs do not look like hung tasks.
 */
int sb_run_on_cpu(unsigned int cpu, int (*fn)(void *arg), void *arg)
{
	struct sb_pinned p = { .fn = fn, .arg = arg };
	struct task_struct *t;

	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	init_completion(&p.done);
	t = kthread_create_on_cpu(sb_pinned_thread, &p, cpu, "slabbench/%u");
	if (IS_ERR(t))
		return PTR_ERR(t);
	get_task_struct(t);
	wake_up_process(t);
	while (!wait_for_completion_timeout(&p.done, HZ))
		;
	kthread_stop(t);
	put_task_struct(t);
	return p.ret;
}

/*
 * The threads of one sb_run_on_cpus() call. All are created before any
 * runs, then woken, and each spins until the last has arrived: the timed
 * loops start together instead of staggered by thread creation and
 * wake-up latencies, which would let the first ones run uncontended.
 */
struct sb_group {
	int (*fn)(void *arg, unsigned int idx);
	void *arg;
	unsigned int nr;
	atomic_t arrived;
	atomic_t running;
	struct completion done;
};

struct sb_member {
	struct sb_group *group;
	struct task_struct *task;
	unsigned int idx;
	int ret;
};

static int sb_member_thread(void *data)
{
	struct sb_member *m = data;
	struct sb_group *g = m->group;

	atomic_inc(&g->arrived);
	/* cond_resched(): quiescent states for RCU if a sibling is late. */
	while (atomic_read(&g->arrived) < g->nr) {
		cpu_relax();
		cond_resched();
	}
	m->ret = g->fn(g->arg, m->idx);
	if (atomic_dec_and_test(&g->running))
		complete(&g->done);
	return 0;
}

/*
 * Runs @fn(@arg, i) on @nr kthreads, thread i bound to @cpus[i], with a
 * synchronised start; returns the first error of a thread. The CPUs must
 * be online and distinct, or threads would wait for each other at the
 * start. A thread that could not be created leaves the others unstarted:
 * kthread_stop() on a kthread that was never woken does not run it.
 */
int sb_run_on_cpus(const unsigned int *cpus, unsigned int nr,
		   int (*fn)(void *arg, unsigned int idx), void *arg)
{
	struct sb_group g = { .fn = fn, .arg = arg, .nr = nr };
	struct task_struct *t;
	struct sb_member *m;
	unsigned int i, j, made;
	int ret = 0;

	/* No thread would ever complete g.done. */
	if (!nr)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (cpus[i] >= nr_cpu_ids || !cpu_online(cpus[i]))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (cpus[j] == cpus[i])
				return -EINVAL;
	}
	m = kcalloc(nr, sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	atomic_set(&g.arrived, 0);
	atomic_set(&g.running, nr);
	init_completion(&g.done);
	for (made = 0; made < nr; made++) {
		m[made].group = &g;
		m[made].idx = made;
		t = kthread_create_on_cpu(sb_member_thread, &m[made],
					  cpus[made], "slabbench/%u");
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		get_task_struct(t);
		m[made].task = t;
	}
	if (!ret) {
		for (i = 0; i < nr; i++)
			wake_up_process(m[i].task);
		/* Wake up every second, as sb_run_on_cpu(): no hung task. */
		while (!wait_for_completion_timeout(&g.done, HZ))
			;
	}
	for (i = 0; i < made; i++) {
		kthread_stop(m[i].task);
		put_task_struct(m[i].task);
		if (!ret)
			ret = m[i].ret;
	}
	kfree(m);
	return ret;
}

unsigned long sb_twin_line[L1_CACHE_BYTES / sizeof(unsigned long)]
	__aligned(L1_CACHE_BYTES);

static atomic_t sb_windows = ATOMIC_INIT(0);

u32 sb_window_next(void)
{
	u32 id;

	/* 0 would mean no window to the host: skip it when the count wraps. */
	do {
		id = atomic_inc_return(&sb_windows);
	} while (!id);
	return id;
}

/* The same batch structure as a benchmark's loop, with nothing inside. */
void sb_loop_overhead(u64 iters, struct sb_timer *t)
{
	sb_loop_overhead_batched(iters, SB_BATCH, t);
}

/* For loops timed in batches of @batch iterations rather than SB_BATCH. */
void sb_loop_overhead_batched(u64 iters, u64 batch, struct sb_timer *t)
{
	u64 done, i, n;

	sb_timer_reset(t);
	for (done = 0; done < iters; done += n) {
		n = min_t(u64, batch, iters - done);
		sb_timer_start(t);
		for (i = 0; i < n; i++)
			barrier();
		sb_timer_stop(t);
		cond_resched();
	}
}

int sb_samples_alloc(struct sb_ctx *ctx, unsigned int nr_metrics,
		     unsigned int nr_points, unsigned int repeats,
		     unsigned int flags, u64 ops)
{
	struct sb_samples *s = &ctx->samples;
	size_t n = (size_t)nr_points * repeats;
	unsigned int i;
	void *block;

	/* One block, the arrays of 8-byte members first: all are aligned. */
	block = kvzalloc(nr_metrics * n * sizeof(*s->val) +
			 n * (sizeof(*s->irqs) + sizeof(*s->switches) +
			      sizeof(*s->crowded)) +
			 nr_points * (sizeof(*s->loop) + sizeof(*s->ops)) +
			 n * (sizeof(*s->windows) + sizeof(*s->order) +
			      sizeof(*s->spans)),
			 GFP_KERNEL);
	if (!block)
		return -ENOMEM;
	*s = (struct sb_samples){ nr_metrics, nr_points, repeats, flags };
	s->val = block;
	s->irqs = (u64 *)(s->val + nr_metrics * n);
	s->switches = s->irqs + n;
	s->crowded = s->switches + n;
	s->loop = (struct sb_timer *)(s->crowded + n);
	s->ops = (u64 *)(s->loop + nr_points);
	s->windows = (u32 *)(s->ops + nr_points);
	s->order = s->windows + n;
	s->spans = s->order + n;
	for (i = 0; i < nr_points; i++)
		s->ops[i] = ops;
	return 0;
}

void sb_samples_free(struct sb_samples *s)
{
	kvfree(s->val);
}

void sb_sample(struct sb_samples *s, unsigned int point, unsigned int repeat,
	       const struct sb_timer *t)
{
	const struct sb_timer *loop = &s->loop[point];
	unsigned int at = point * s->repeats + repeat;
	u64 ops = s->ops[point];

	sb_samples_at(s, SB_NS, point)[repeat] =
		sb_per_op_milli(t->ns, loop->ns, ops);
	sb_samples_at(s, SB_CYCLES, point)[repeat] =
		sb_per_op_milli(t->cycles, loop->cycles, ops);
	s->windows[at] = t->window;
	s->irqs[at] = t->irqs;
	s->switches[at] = t->switches;
	s->crowded[at] = t->crowded;
	s->spans[at] = t->spans;
}

u64 sb_clock_step[SB_CLOCKS];

#define SB_STEP_READS 4096

static u64 sb_clock_read(unsigned int clock)
{
	return clock == SB_NS ? ktime_get_ns() : sb_cycles();
}

void sb_clock_steps(void)
{
	unsigned int c, i;
	u64 prev, now, best;

	for (c = 0; c < SB_CLOCKS; c++) {
		best = U64_MAX;
		prev = sb_clock_read(c);
		for (i = 0; i < SB_STEP_READS; i++) {
			now = sb_clock_read(c);
			if (now > prev && now - prev < best)
				best = now - prev;
			prev = now;
		}
		sb_clock_step[c] = best == U64_MAX ? 0 : best;
	}
}

const u32 *sb_samples_shuffle(struct sb_samples *s, unsigned int repeat)
{
	u32 *order = s->order + repeat * s->nr_points;

	sb_point_order(order, s->nr_points, repeat);
	return order;
}

s64 sb_samples_loop_milli(const struct sb_samples *s, unsigned int point)
{
	return sb_per_op_milli(s->loop[point].ns, 0, s->ops[point]);
}

/* (total - overhead) / ops, in thousandths; negative is kept visible. */
s64 sb_per_op_milli(u64 total, u64 overhead, u64 ops)
{
	s64 net = (s64)total - (s64)overhead;

	if (!ops)
		return 0;
	return div64_s64(net * 1000, (s64)ops);
}

/*
 * kmemleak tracks each object with one of its own from its kmemleak_object
 * cache. SLAB keeps those slabs once freed, up to its free_limit and then
 * reaped over seconds: 4000 objects of a benchmark left 194 slabs behind, which
 * the self-test would take for a leak (SLUB frees them at once). Objects
 * left in our caches are reported by kmem_cache_destroy() instead.
 */
#if defined(CONFIG_DEBUG_KMEMLEAK) && defined(CONFIG_SLAB)
#define SB_CACHE_FLAGS	SLAB_NOLEAKTRACE
#else
#define SB_CACHE_FLAGS	0
#endif

/*
 * A private cache that the allocator must not merge with a system cache of
 * the same size, or the benchmark would measure someone else's cache.
 * SLAB_NO_MERGE exists from 6.5 and in our 6.1 backport; without it, a
 * non-zero usersize keeps 6.1 from merging without changing the layout.
 * @sh has been checked against the kernel (sb_sheaves_check()).
 */
static struct kmem_cache *sb_cache_create_with(const char *name,
					       unsigned int size,
					       const struct sb_sheaves *sh)
{
#ifdef SB_HAVE_SHEAF_CAPACITY
	struct kmem_cache_args args = { .sheaf_capacity = sh->capacity };
	slab_flags_t flags = SLAB_NO_MERGE | SB_CACHE_FLAGS;

	/*
	 * A cache's creator may not pass SLAB_NO_SHEAVES (it is not in
	 * SLAB_FLAGS_PERMITTED: EINVAL). calculate_sheaf_capacity() gives
	 * no sheaves to SLAB_NOLEAKTRACE caches too, kmemleak's own. Beside
	 * kmemleak (refused: sb_sheaves_check()) that flag leaves out only
	 * allocation profiling's tags (CONFIG_MEM_ALLOC_PROFILING) and
	 * slub_debug's default user tracking, both off unless configured.
	 */
	if (!sh->on)
		flags |= SLAB_NOLEAKTRACE;
	return kmem_cache_create(name, size, &args, flags);
#elif defined(SLAB_NO_MERGE)
	return kmem_cache_create(name, size, 0, SLAB_NO_MERGE | SB_CACHE_FLAGS,
				 NULL);
#else
	return kmem_cache_create_usercopy(name, size, 0, SB_CACHE_FLAGS, 0, size,
					  NULL);
#endif
}

struct kmem_cache *sb_cache_create(const char *name, unsigned int size)
{
	const struct sb_sheaves def = { .on = 1 };

	return sb_cache_create_with(name, size, &def);
}

static int sb_sheaves_check(struct sb_ctx *ctx, const struct sb_sheaves *sh)
{
#ifndef SB_SLUB_SHEAVES
	if (!sh->on)
		return sb_fail(ctx, "sheaves=0: this kernel has no sheaves to leave out (SLUB with sheaves for every cache, from 7.0)");
#endif
	if (!sh->on && IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
		return sb_fail(ctx, "sheaves=0: a cache without sheaves is a SLAB_NOLEAKTRACE one, which kmemleak (on in this kernel) would then not track");
#ifndef SB_HAVE_SHEAF_CAPACITY
	if (sh->capacity)
		return sb_fail(ctx, "sheaf_capacity=%llu: this kernel has no sheaves to size (SLUB from 6.18)",
			       sh->capacity);
#endif
	if (!sh->on && sh->capacity)
		return sb_fail(ctx, "sheaf_capacity=%llu with sheaves=0",
			       sh->capacity);
	return 0;
}

/*
 * sb_cache_create() and a twin with the same geometry: an allocator that
 * merged caches despite SLAB_NO_MERGE (or its 6.1 stand-in) would hand
 * back one cache for both, possibly a system cache, and the benchmark
 * would share its objects with the rest of the kernel. The pointers are
 * the only evidence that works on every allocator and kernel: struct
 * kmem_cache is private to mm/ in 6.12. The twin gets its own name, as
 * SLUB names the sysfs directory of an unmergeable cache after it.
 */
int sb_cache_create_sheaves(struct sb_ctx *ctx, const char *name,
			    unsigned int size, const struct sb_sheaves *sh,
			    struct kmem_cache **cache)
{
	struct kmem_cache *s, *twin;
	char twin_name[48];
	int ret;

	*cache = NULL;
	ret = sb_sheaves_check(ctx, sh);
	if (ret)
		return ret;
	s = sb_cache_create_with(name, size, sh);
	if (!s)
		return -ENOMEM;
	snprintf(twin_name, sizeof(twin_name), "%s-twin", name);
	twin = sb_cache_create_with(twin_name, size, sh);
	if (!twin) {
		kmem_cache_destroy(s);
		return -ENOMEM;
	}
	if (twin == s) {
		kmem_cache_destroy(twin);
		kmem_cache_destroy(s);
		return sb_fail(ctx, "cache %s was merged with another cache", name);
	}
	kmem_cache_destroy(twin);
	*cache = s;
	return 0;
}

int sb_cache_create_unmerged(struct sb_ctx *ctx, const char *name,
			     unsigned int size, struct kmem_cache **cache)
{
	const struct sb_sheaves def = { .on = 1 };

	return sb_cache_create_sheaves(ctx, name, size, &def, cache);
}

#ifdef SB_SLUB_SHEAVES
s64 sb_cache_sheaf_capacity(const char *name)
{
	char path[64], buf[16] = "";
	struct file *f;
	loff_t pos = 0;
	unsigned int v;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/sheaf_capacity", name);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return n ? n : -EIO;
	buf[n] = '\0';
	if (kstrtouint(strim(buf), 10, &v))
		return -EINVAL;
	return v;
}
#else
s64 sb_cache_sheaf_capacity(const char *name)
{
	return -1;
}
#endif

#ifdef CONFIG_SLAB
void sb_out_slab_tunables(struct sb_out *out,
			  const struct sb_slab_cache_head *h)
{
	sb_rec_open(out, "slab_tunables");
	sb_rec_u64(out, "limit", h->limit);
	sb_rec_u64(out, "batchcount", h->batchcount);
	sb_rec_u64(out, "shared", h->shared);
	sb_rec_close(out);
}
#endif

void sb_out_cache(struct sb_out *out, struct kmem_cache *s)
{
	sb_rec_bool(out, "cache_merged", false);
	sb_rec_u64(out, "object_size", kmem_cache_size(s));
}

void sb_out_sheaf_capacity(struct sb_out *out, const char *name)
{
	s64 cap = sb_cache_sheaf_capacity(name);

	if (cap >= 0)
		sb_rec_s64(out, "sheaf_capacity", cap);
}
