/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run --engine=slurm: each boot of the matrix is a task of one Slurm job
 * array. The submit host builds the kernels and stages the guests (in the
 * cache, which every node must share), writes one directory per boot
 * with the guest machine it is to boot, submits the array and waits; each
 * task boots its guest there (run --task) and leaves QEMU's files and an
 * outcome. The submit host then records every boot as a local run does.
 * Slurm does the scheduling: no queue of ours.
 */
#ifndef SLABBENCH_SLURM_H
#define SLABBENCH_SLURM_H

#include "vm.h"

#include <stdbool.h>

struct cJSON;

struct slurm_opts {
	const char *partition, *account, *time_limit;
	const char *sbatch_args;	/* more sbatch options, split on blanks */
};

/*
 * Writes @dir/task.json: the guest of @c (its files, command line and
 * threads), the options @v it was derived from at its CPU count with the
 * workload's time limit @timeout_s, and @key, what a boot's result
 * depends on, so that a resubmission reuses only outcomes of the same
 * guest.
 */
int slurm_task_save(const char *dir, const struct vm_config *c, const struct vm_opts *v,
		    double timeout_s, const char *key);
/*
 * The guest machine of @dir/task.json into @c and @v, derived from the
 * options as the submit host derived it; the returned document holds
 * their strings (free with cJSON_Delete). NULL after a message.
 */
struct cJSON *slurm_task_load(const char *dir, struct vm_config *c, struct vm_opts *v);
/* Whether @dir holds the outcome of a task with @key whose guest ran the whole plan. */
bool slurm_task_done(const char *dir, const char *key);
/*
 * The array task: boots the guest of line $SLURM_ARRAY_TASK_ID (from 0)
 * of @list, a task directory a line, and writes its outcome.json beside
 * QEMU's files. 0 when the guest ran the whole plan.
 */
int slurm_task_run(const char *list);
/* The outcome a task left in @dir, with its files; -1 when it left none. */
int slurm_outcome_load(const char *dir, struct vm_outcome *o);
/*
 * Whether the Slurm engine can run here: sbatch, srun and scontrol on
 * PATH, and a controller that answers 'scontrol ping'. Asked before
 * anything is built or written; -1 after one line naming @cmd.
 */
int slurm_check(const char *cmd);
/*
 * Submits @n task directories as one array from @jobdir (its list, batch
 * script and the tasks' logs, JOBDIR/INDEX.log) and waits for the array
 * to end. Returns sbatch's exit status (not 0 when a task failed), or -1
 * when it could not be run.
 */
int slurm_submit(const struct slurm_opts *s, const char *jobdir, char *const *dirs, int n);

#endif
