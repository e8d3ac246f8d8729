// SPDX-License-Identifier: GPL-2.0
/* The ordered, bounded task runner and the CPUs of its slots (see jobs.h). */
#define _GNU_SOURCE
#include "jobs.h"
#include "strbuf.h"
#include "util.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

struct jobs_task {
	int slot;
	bool started, ended, threaded;
	pthread_t thread;
	struct jobs *j;
	int index;
};

struct jobs {
	const struct jobs_ops *ops;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t ended;
	struct jobs_task *tasks;
};

static void *worker(void *arg)
{
	struct jobs_task *t = arg;
	struct jobs *j = t->j;

	j->ops->work(j->ctx, t->index, t->slot);
	pthread_mutex_lock(&j->lock);
	t->ended = true;
	pthread_cond_signal(&j->ended);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

static int run_serial(int n, const struct jobs_ops *ops, void *ctx)
{
	int started = 0;

	for (int i = 0; i < n; i++) {
		if (!ops->start(ctx, i, 0))
			continue;
		started++;
		ops->work(ctx, i, 0);
		ops->finish(ctx, i, 0);
	}
	return started;
}

int jobs_run(int n, int jobs, const struct jobs_ops *ops, void *ctx)
{
	struct jobs j = { .ops = ops, .ctx = ctx };
	bool *busy;
	int next = 0, head = 0, running = 0, started = 0;

	if (jobs <= 1)
		return run_serial(n, ops, ctx);
	j.tasks = xcalloc(n, sizeof(*j.tasks));
	busy = xcalloc(jobs, sizeof(*busy));
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.ended, NULL);
	pthread_mutex_lock(&j.lock);
	while (head < n) {
		struct jobs_task *h = &j.tasks[head];

		/* Finish in list order: a slot is free once its task is finished. */
		if (head < next && (!h->started || h->ended)) {
			if (h->started) {
				pthread_mutex_unlock(&j.lock);
				if (h->threaded)
					pthread_join(h->thread, NULL);
				ops->finish(ctx, head, h->slot);
				pthread_mutex_lock(&j.lock);
				busy[h->slot] = false;
				running--;
			}
			head++;
			continue;
		}
		if (next < n && running < jobs) {
			struct jobs_task *t = &j.tasks[next];
			int slot = 0;

			while (busy[slot])
				slot++;
			*t = (struct jobs_task){ .slot = slot, .j = &j, .index = next };
			pthread_mutex_unlock(&j.lock);
			t->started = ops->start(ctx, next, slot);
			pthread_mutex_lock(&j.lock);
			if (t->started) {
				busy[slot] = true;
				running++;
				started++;
				t->threaded = !pthread_create(&t->thread, NULL, worker, t);
				if (!t->threaded) {
					/* No thread to be had: the task runs here, as with -j 1. */
					pthread_mutex_unlock(&j.lock);
					worker(t);
					pthread_mutex_lock(&j.lock);
				}
			}
			next++;
			continue;
		}
		pthread_cond_wait(&j.ended, &j.lock);
	}
	pthread_mutex_unlock(&j.lock);
	pthread_cond_destroy(&j.ended);
	pthread_mutex_destroy(&j.lock);
	free(busy);
	free(j.tasks);
	return started;
}

bool jobs_slot_cpus(const int *allowed, int nr_allowed, int jobs, int need, int slot,
		    int *cpus)
{
	if (jobs < 1 || need < 1 || slot < 0 || slot >= jobs || (long)jobs * need > nr_allowed)
		return false;
	for (int k = 0; k < need; k++)
		cpus[k] = allowed[slot * need + k];
	return true;
}

int jobs_allowed_cpus(int **cpus)
{
	cpu_set_t set;
	int n = 0;

	*cpus = NULL;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	*cpus = xcalloc(CPU_SETSIZE, sizeof(**cpus));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			(*cpus)[n++] = c;
	return n;
}

char *jobs_cpu_list(const int *cpus, int n)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "%s", "");
	for (int i = 0; i < n; i++)
		sb_addf(&b, "%s%d", i ? "," : "", cpus[i]);
	return b.s;
}
