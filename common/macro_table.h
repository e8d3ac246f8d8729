/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The macro workloads' parameters, compiled into both the guest agent
 * (which runs them) and the host (which lists, checks and fills them).
 */
#ifndef SLABBENCH_MACRO_TABLE_H
#define SLABBENCH_MACRO_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* A spec's parameters at most, "test=" aside: more than any workload has. */
#define MACRO_MAX_PARAMS	8
/* Every workload's repeats bound: the agent keeps one sample per repeat. */
#define MACRO_MAX_REPEATS	100

struct macro_param {
	const char *name, *desc;
	long def, min, max;
	/* An enum: its values are choices[min..max]; def indexes choices. */
	const char *const *choices;
};

struct macro_workload {
	const char *name, *desc;
	/* Indexed by the workload's enum below; ends with a NULL name. */
	const struct macro_param *params;
	/* It runs perf, which then goes into the guest. */
	bool perf;
};

/* The workloads, by their place in macro_workloads[]. */
enum { MACRO_HACKBENCH, MACRO_DENTRY, MACRO_CHURN, MACRO_MEMCG, MACRO_NR };

/* Each workload's parameters, by their place in its params[]. */
enum { HACKBENCH_GROUPS, HACKBENCH_LOOPS, HACKBENCH_MODE, HACKBENCH_IPC, HACKBENCH_REPEATS };
enum { HACKBENCH_PROCESS, HACKBENCH_THREAD };
enum { HACKBENCH_SOCKET, HACKBENCH_PIPE };
enum { DENTRY_NAMES, DENTRY_REPEATS };
enum { CHURN_KIND, CHURN_COUNT, CHURN_REPEATS };
enum { CHURN_SOCKET, CHURN_FILE };
enum { MEMCG_GROUPS, MEMCG_FILES, MEMCG_SOCKETS, MEMCG_PIPES, MEMCG_HOLD };
/* A group's task keeps two descriptors per socket pair and per pipe. */
#define MEMCG_MAX_FDS		1000

extern const struct macro_workload macro_workloads[MACRO_NR];

/* The workload named @name; NULL if none. */
const struct macro_workload *macro_find(const char *name);
/* @m's parameter named @name, as an index into m->params; -1 if none. */
int macro_param_index(const struct macro_workload *m, const char *name);

#endif
