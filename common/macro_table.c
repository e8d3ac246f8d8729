// SPDX-License-Identifier: GPL-2.0
/* The macro workloads' one parameter table: names, descriptions, defaults, bounds. */
#include "macro_table.h"

#include <string.h>

static const char *const hackbench_modes[] = {
	[HACKBENCH_PROCESS] = "process",
	[HACKBENCH_THREAD] = "thread",
	NULL,
};

static const char *const hackbench_ipcs[] = {
	[HACKBENCH_SOCKET] = "socket",
	[HACKBENCH_PIPE] = "pipe",
	NULL,
};

static const char *const churn_kinds[] = {
	[CHURN_SOCKET] = "socket",
	[CHURN_FILE] = "file",
	NULL,
};

static const struct macro_param hackbench_params[] = {
	[HACKBENCH_GROUPS] = { "groups", "groups of 20 senders and 20 receivers",
			       10, 1, 100, NULL },
	[HACKBENCH_LOOPS] = { "loops", "messages each sender sends to each receiver",
			      100, 1, 100000, NULL },
	[HACKBENCH_MODE] = { "mode", "senders and receivers as processes or threads",
			     HACKBENCH_PROCESS, HACKBENCH_PROCESS, HACKBENCH_THREAD,
			     hackbench_modes },
	[HACKBENCH_IPC] = { "ipc", "socketpair() or pipe()",
			    HACKBENCH_SOCKET, HACKBENCH_SOCKET, HACKBENCH_PIPE, hackbench_ipcs },
	[HACKBENCH_REPEATS] = { "repeats", "runs (one sample each)",
				5, 1, MACRO_MAX_REPEATS, NULL },
	{ NULL },
};

static const struct macro_param dentry_params[] = {
	[DENTRY_NAMES] = { "names", "distinct missing names looked up per repeat",
			   100000, 1, 10000000, NULL },
	[DENTRY_REPEATS] = { "repeats", "repeats, each on new names (one sample each)",
			     3, 1, MACRO_MAX_REPEATS, NULL },
	{ NULL },
};

static const struct macro_param churn_params[] = {
	[CHURN_KIND] = { "kind", "AF_UNIX sockets, or files on tmpfs (create, close, unlink)",
			 CHURN_SOCKET, CHURN_SOCKET, CHURN_FILE, churn_kinds },
	[CHURN_COUNT] = { "count", "objects created and closed per repeat",
			  100000, 1, 10000000, NULL },
	[CHURN_REPEATS] = { "repeats", "runs (one sample each)",
			    5, 1, MACRO_MAX_REPEATS, NULL },
	{ NULL },
};

static const struct macro_param memcg_params[] = {
	[MEMCG_GROUPS] = { "groups", "memory cgroups (v2), one task in each",
			   8, 1, 64, NULL },
	[MEMCG_FILES] = { "files", "files each task creates on tmpfs (inode, dentry, external name)",
			  1000, 0, 1000000, NULL },
	[MEMCG_SOCKETS] = { "sockets", "AF_UNIX socket pairs each task opens and keeps",
			    100, 0, MEMCG_MAX_FDS, NULL },
	[MEMCG_PIPES] = { "pipes", "pipes each task opens and keeps",
			  100, 0, MEMCG_MAX_FDS, NULL },
	[MEMCG_HOLD] = { "hold", "1: the tasks, files and groups stay until release",
			 0, 0, 1, NULL },
	{ NULL },
};

const struct macro_workload macro_workloads[MACRO_NR] = {
	[MACRO_HACKBENCH] = { "hackbench", "perf bench sched messaging (hackbench) in the guest: time per run",
	  hackbench_params, true },
	[MACRO_DENTRY] = { "dentry", "negative-dentry storm: lookups of missing names in sysfs (whose "
	  "negative dentries stay cached; tmpfs's do not): lookups/s and dcache growth",
	  dentry_params, false },
	[MACRO_CHURN] = { "churn", "create and close sockets or files as fast as possible: ops/s",
	  churn_params, false },
	[MACRO_MEMCG] = { "memcg", "tasks in several memory cgroups create files, sockets and pipes, so "
	  "that per-memcg kernel memory accounting runs (kmalloc-cg-*, accounted caches): the slab "
	  "and percpu memory charged to the groups. Needs CONFIG_MEMCG_KMEM",
	  memcg_params, false },
};

const struct macro_workload *macro_find(const char *name)
{
	for (int i = 0; i < MACRO_NR; i++)
		if (!strcmp(macro_workloads[i].name, name))
			return &macro_workloads[i];
	return NULL;
}

int macro_param_index(const struct macro_workload *m, const char *name)
{
	for (int i = 0; m->params[i].name; i++)
		if (!strcmp(m->params[i].name, name))
			return i;
	return -1;
}
