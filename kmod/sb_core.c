// SPDX-License-Identifier: GPL-2.0
/*
 * The measurement core: where tests run and how their loops are timed.
 * Tests time their own inner loops with sb_timer so that the measured code
 * is inlined into the loop, as in time_bench; the core supplies the pinned
 * thread, the empty-loop baseline and the per-operation arithmetic.
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/math64.h>
#include "slabbench.h"

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

/* The same batch structure as a test's loop, with nothing inside. */
void sb_loop_overhead(u64 iters, struct sb_timer *t)
{
	u64 done, i, n;

	t->ns = 0;
	t->cycles = 0;
	for (done = 0; done < iters; done += n) {
		n = min_t(u64, SB_BATCH, iters - done);
		sb_timer_start(t);
		for (i = 0; i < n; i++)
			barrier();
		sb_timer_stop(t);
		cond_resched();
	}
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
 * A private cache that the allocator must not merge with a system cache of
 * the same size, or the benchmark would measure someone else's cache.
 * SLAB_NO_MERGE exists from 6.5 and in our 6.1 backport; without it, a
 * non-zero usersize keeps 6.1 from merging without changing the layout.
 */
struct kmem_cache *sb_cache_create(const char *name, unsigned int size)
{
#ifdef SLAB_NO_MERGE
	return kmem_cache_create(name, size, 0, SLAB_NO_MERGE, NULL);
#else
	return kmem_cache_create_usercopy(name, size, 0, 0, 0, size, NULL);
#endif
}
