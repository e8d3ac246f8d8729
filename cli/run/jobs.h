/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a list of tasks, at most N at once, in a fixed order (run -j):
 * tasks start in list order, each in a free slot (0 to N-1, so that a
 * slot can own host CPUs and a run directory), and are finished in list
 * order on the calling thread, so that what a task records does not
 * depend on which ended first.
 */
#ifndef SLABBENCH_JOBS_H
#define SLABBENCH_JOBS_H

#include <stdbool.h>

struct jobs_ops {
	/* Calling thread, before @task's work: false skips the task (no work, no finish). */
	bool (*start)(void *ctx, int task, int slot);
	/* A thread of its own when more than one job runs; must not touch shared state. */
	void (*work)(void *ctx, int task, int slot);
	/* Calling thread, in task order; the slot is free again afterwards. */
	void (*finish)(void *ctx, int task, int slot);
};

/*
 * Runs tasks 0 to @n-1 with at most @jobs at once. With @jobs 1 all three
 * steps run on the calling thread, one task after another. Returns the
 * number of tasks started.
 */
int jobs_run(int n, int jobs, const struct jobs_ops *ops, void *ctx);

/*
 * The host CPUs of slot @slot of @jobs when each guest needs @need: the
 * slot's own @need CPUs of the @nr_allowed in @allowed (in their order),
 * written to @cpus; false when the host has fewer than @jobs * @need, and
 * then no slot is pinned.
 */
bool jobs_slot_cpus(const int *allowed, int nr_allowed, int jobs, int need, int slot,
		    int *cpus);
/* The CPUs this process may run on, in increasing order; their number. */
int jobs_allowed_cpus(int **cpus);
/* "0,1,5": a CPU list for the results and for QEMU's affinity. */
char *jobs_cpu_list(const int *cpus, int n);

#endif
