// SPDX-License-Identifier: GPL-2.0
/*
 * The macro workloads, described as the module describes its tests, so
 * that workload files, validation and `slabbench list` treat both alike.
 * Their parameters are common/macro_table.c, which the agent runs from.
 */
#include "macro.h"
#include "macro_table.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool macro_known(const char *test)
{
	return macro_find(test) != NULL;
}

bool macro_needs_perf(const char *test)
{
	const struct macro_workload *m = macro_find(test);

	return m && m->perf;
}

char *macro_spec(const char *spec)
{
	const struct macro_workload *m;
	char name[64] = "", *full = xstrdup(spec), *old;

	sscanf(spec, "test=%63s", name);
	m = macro_find(name);
	for (const struct macro_param *p = m ? m->params : NULL; p && p->name; p++) {
		char *key = xasprintf(" %s=", p->name);

		if (!strstr(spec, key)) {
			old = full;
			if (p->choices)
				full = xasprintf("%s%s%s", old, key, p->choices[p->def]);
			else
				full = xasprintf("%s%s%ld", old, key, p->def);
			free(old);
		}
		free(key);
	}
	return full;
}

void macro_catalogue(cJSON *catalogue)
{
	for (int i = 0; i < MACRO_NR; i++) {
		const struct macro_workload *m = &macro_workloads[i];
		cJSON *t = cJSON_CreateObject(), *params;

		cJSON_AddStringToObject(t, "name", m->name);
		cJSON_AddStringToObject(t, "description", m->desc);
		cJSON_AddStringToObject(t, "kind", "macro");
		params = cJSON_AddArrayToObject(t, "params");
		for (const struct macro_param *p = m->params; p->name; p++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "name", p->name);
			cJSON_AddStringToObject(o, "description", p->desc);
			if (p->choices) {
				cJSON_AddStringToObject(o, "type", "enum");
				cJSON_AddStringToObject(o, "default", p->choices[p->def]);
				cJSON_AddItemToObject(o, "choices",
						      cJSON_CreateStringArray(p->choices + p->min,
									      p->max - p->min + 1));
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
