// SPDX-License-Identifier: GPL-2.0
/*
 * The macro workloads, described as the module describes its tests, so
 * that workload files, validation and `slabbench list` treat both alike.
 * cli/agent.c runs them; keep the two in step.
 */
#include "macro.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct macro_param {
	const char *name, *desc;
	double def, min, max;
	const char *const *choices;	/* an enum: def indexes it */
};

struct macro {
	const char *name, *desc;
	const struct macro_param *params;
	bool perf;
};

static const char *const modes[] = { "process", "thread", NULL };
static const char *const ipcs[] = { "socket", "pipe", NULL };
static const char *const churn_kinds[] = { "socket", "file", NULL };

static const struct macro_param hackbench_params[] = {
	{ "groups", "groups of 20 senders and 20 receivers", 10, 1, 100, NULL },
	{ "loops", "messages each sender sends to each receiver", 100, 1, 100000, NULL },
	{ "mode", "senders and receivers as processes or threads", 0, 0, 1, modes },
	{ "ipc", "socketpair() or pipe()", 0, 0, 1, ipcs },
	{ "repeats", "runs (one sample each)", 5, 1, 100, NULL },
	{ NULL },
};

static const struct macro_param dentry_params[] = {
	{ "names", "distinct missing names looked up per repeat", 100000, 1, 10000000, NULL },
	{ "repeats", "repeats, each on new names (one sample each)", 3, 1, 100, NULL },
	{ NULL },
};

static const struct macro_param churn_params[] = {
	{ "kind", "AF_UNIX sockets, or files on tmpfs (create, close, unlink)", 0, 0, 1,
	  churn_kinds },
	{ "count", "objects created and closed per repeat", 100000, 1, 10000000, NULL },
	{ "repeats", "runs (one sample each)", 5, 1, 100, NULL },
	{ NULL },
};

static const struct macro macros[] = {
	{ "hackbench", "perf bench sched messaging (hackbench) in the guest: time per run",
	  hackbench_params, true },
	{ "dentry", "negative-dentry storm: lookups of missing names in sysfs (whose "
	  "negative dentries stay cached; tmpfs's do not): lookups/s and dcache growth",
	  dentry_params, false },
	{ "churn", "create and close sockets or files as fast as possible: ops/s",
	  churn_params, false },
};

static const struct macro *find(const char *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(macros); i++)
		if (!strcmp(macros[i].name, test))
			return &macros[i];
	return NULL;
}

bool macro_known(const char *test)
{
	return find(test) != NULL;
}

bool macro_needs_perf(const char *test)
{
	const struct macro *m = find(test);

	return m && m->perf;
}

char *macro_spec(const char *spec)
{
	const struct macro *m;
	char name[64] = "", *full = xstrdup(spec), *old;

	sscanf(spec, "test=%63s", name);
	m = find(name);
	for (const struct macro_param *p = m ? m->params : NULL; p && p->name; p++) {
		char *key = xasprintf(" %s=", p->name);

		if (!strstr(spec, key)) {
			old = full;
			if (p->choices)
				full = xasprintf("%s%s%s", old, key, p->choices[(int)p->def]);
			else
				full = xasprintf("%s%s%.0f", old, key, p->def);
			free(old);
		}
		free(key);
	}
	return full;
}

void macro_catalogue(cJSON *catalogue)
{
	for (size_t i = 0; i < ARRAY_SIZE(macros); i++) {
		cJSON *t = cJSON_CreateObject(), *params;

		cJSON_AddStringToObject(t, "name", macros[i].name);
		cJSON_AddStringToObject(t, "description", macros[i].desc);
		cJSON_AddStringToObject(t, "kind", "macro");
		params = cJSON_AddArrayToObject(t, "params");
		for (const struct macro_param *p = macros[i].params; p->name; p++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "name", p->name);
			cJSON_AddStringToObject(o, "description", p->desc);
			if (p->choices) {
				cJSON_AddStringToObject(o, "type", "enum");
				cJSON_AddStringToObject(o, "default", p->choices[(int)p->def]);
				cJSON_AddItemToObject(o, "choices",
						      cJSON_CreateStringArray(p->choices, p->max + 1));
			} else {
				cJSON_AddStringToObject(o, "type", "u64");
				cJSON_AddNumberToObject(o, "default", p->def);
				cJSON_AddNumberToObject(o, "min", p->min);
				cJSON_AddNumberToObject(o, "max", p->max);
			}
			cJSON_AddItemToArray(params, o);
		}
		cJSON_AddItemToArray(catalogue, t);
	}
}
