// SPDX-License-Identifier: GPL-2.0
/*
 * run -j's task runner: tasks start and finish in list order whatever
 * order they end in, at most N at once, never two in one slot; and the
 * host CPUs each slot is pinned to.
 */
#define _GNU_SOURCE
#include "check.h"
#include "jobs.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define NR 8

struct log {
	pthread_mutex_t lock;
	int jobs;
	int skip;		/* a task whose start declines it, or -1 */
	int starts[NR], nr_starts;
	int finishes[NR], nr_finishes;
	int worked[NR];
	int slot_owner[NR];
	int slot_clash;
	int running, most;
	int ordinal[NR];	/* each task's place among those started */
	int peak;		/* tasks that must be working at once: the first wave */
	pthread_cond_t wave;
	long ms[NR];		/* how long each task works */
};

static bool t_start(void *ctx, int task, int slot)
{
	struct log *l = ctx;

	if (task == l->skip)
		return false;
	if (slot < 0 || slot >= l->jobs || l->slot_owner[slot] != -1)
		l->slot_clash++;
	else
		l->slot_owner[slot] = task;
	l->ordinal[task] = l->nr_starts;
	l->starts[l->nr_starts++] = task;
	return true;
}

static void t_work(void *ctx, int task, int slot)
{
	struct log *l = ctx;
	struct timespec ts = { 0, l->ms[task] * 1000000 };

	(void)slot;
	pthread_mutex_lock(&l->lock);
	if (++l->running > l->most)
		l->most = l->running;
	/*
	 * The first wave waits for itself: on a loaded host a short task can
	 * end before the last of its wave's threads starts, and "that many at
	 * once" would then depend on the host's speed, not the runner's.
	 */
	pthread_cond_broadcast(&l->wave);
	if (l->ordinal[task] < l->peak) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 10;
		while (l->running < l->peak &&
		       !pthread_cond_timedwait(&l->wave, &l->lock, &until))
			;
	}
	pthread_mutex_unlock(&l->lock);
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&l->lock);
	l->running--;
	l->worked[task]++;
	pthread_mutex_unlock(&l->lock);
}

static void t_finish(void *ctx, int task, int slot)
{
	struct log *l = ctx;

	if (l->slot_owner[slot] != task)
		l->slot_clash++;
	l->slot_owner[slot] = -1;
	l->finishes[l->nr_finishes++] = task;
}

static const struct jobs_ops ops = { t_start, t_work, t_finish };

static void log_init(struct log *l, int jobs, int skip)
{
	*l = (struct log){ .jobs = jobs, .skip = skip };
	l->peak = jobs < NR - (skip >= 0) ? jobs : NR - (skip >= 0);
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->wave, NULL);
	for (int i = 0; i < NR; i++) {
		l->slot_owner[i] = -1;
		/* The first task is the slowest: the others end before it. */
		l->ms[i] = i == 0 ? 60 : 5 + 3 * (i % 3);
	}
}

static bool in_order(const int *a, int n, int skip)
{
	for (int i = 0, want = 0; i < n; i++, want++) {
		if (want == skip)
			want++;
		if (a[i] != want)
			return false;
	}
	return true;
}

static void test_runs(int jobs, int skip)
{
	struct log l;
	int started, twice = 0;

	log_init(&l, jobs, skip);
	started = jobs_run(NR, jobs, &ops, &l);
	for (int i = 0; i < NR; i++)
		twice += l.worked[i] != (i != skip);
	CHECK(started == NR - (skip >= 0), "-j %d: %d tasks started", jobs, started);
	CHECK(l.nr_starts == started && in_order(l.starts, l.nr_starts, skip),
	      "-j %d: tasks start in list order", jobs);
	CHECK(l.nr_finishes == started && in_order(l.finishes, l.nr_finishes, skip),
	      "-j %d: tasks finish in list order although the first ends last", jobs);
	CHECK(!twice, "-j %d: each task started works once, a declined one never", jobs);
	CHECK(!l.slot_clash, "-j %d: no slot holds two tasks at once", jobs);
	CHECK(l.most == (jobs < NR ? jobs : NR), "-j %d: at most %d at once, and that many (%d)",
	      jobs, jobs, l.most);
	pthread_mutex_destroy(&l.lock);
	pthread_cond_destroy(&l.wave);
}

static void test_slot_cpus(void)
{
	const int two[] = { 0, 1 }, spread[] = { 0, 2, 4, 6, 8, 10 };
	int cpus[4] = { -1, -1, -1, -1 };
	char *s;

	CHECK(jobs_slot_cpus(two, 2, 2, 1, 1, cpus) && cpus[0] == 1,
	      "2 CPUs, -j 2, one thread a guest: slot 1 gets CPU 1");
	CHECK(!jobs_slot_cpus(two, 2, 2, 2, 0, cpus),
	      "2 CPUs, -j 2, two threads a guest: not pinned");
	CHECK(jobs_slot_cpus(spread, 6, 3, 2, 2, cpus) && cpus[0] == 8 && cpus[1] == 10,
	      "allowed CPUs 0,2,..,10, -j 3, two a guest: slot 2 gets 8 and 10");
	CHECK(!jobs_slot_cpus(spread, 6, 3, 2, 3, cpus), "no slot beyond -j");
	s = jobs_cpu_list(spread, 3);
	CHECK_STR(s, "0,2,4", "a CPU list reads 0,2,4");
	free(s);
}

int main(void)
{
	test_runs(1, -1);
	test_runs(2, -1);
	test_runs(3, 2);
	test_runs(NR + 2, -1);
	test_slot_cpus();
	return check_done();
}
