// SPDX-License-Identifier: GPL-2.0
/* Parsers of what the guest sends as text: /proc files and perf's report. */
#include "procfs.h"

#include <stdio.h>
#include <string.h>

cJSON *meminfo_parse(const char *text)
{
	cJSON *o = cJSON_CreateObject();
	const char *line = text;

	while (line && *line) {
		char key[64];
		double v;

		if (sscanf(line, "%63[^:\n]: %lf", key, &v) == 2)
			cJSON_AddNumberToObject(o, key, v);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return o;
}

cJSON *slabinfo_parse(const char *text, const char *cache)
{
	size_t n = strlen(cache);

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned long v[6];

		if (strncmp(line, cache, n) || line[n] != ' ')
			continue;
		if (sscanf(line + n, "%lu %lu %lu %lu %lu : tunables %*u %*u %*u : slabdata %lu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
			return NULL;
		cJSON *o = cJSON_CreateObject();
		static const char *const names[] = {
			"active_objs", "num_objs", "objsize", "objperslab", "pagesperslab",
			"active_slabs",
		};

		for (int i = 0; i < 6; i++)
			cJSON_AddNumberToObject(o, names[i], v[i]);
		if (sscanf(line + n, "%*u %*u %*u %*u %*u : tunables %*u %*u %*u : slabdata %*u %lu",
			   &v[0]) == 1)
			cJSON_AddNumberToObject(o, "num_slabs", v[0]);
		return o;
	}
	return NULL;
}

cJSON *perf_report_parse(const char *text, int max)
{
	cJSON *top = cJSON_CreateArray();

	for (const char *line = text; line && *line && cJSON_GetArraySize(top) < max;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char where, sym[256];
		double pct;
		cJSON *o;

		/* "    12.34%  [k] ___slab_alloc" */
		if (sscanf(line, " %lf%% [%c] %255[^\n]", &pct, &where, sym) != 3)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "percent", pct);
		cJSON_AddStringToObject(o, "symbol", sym);
		cJSON_AddBoolToObject(o, "kernel", where == 'k');
		cJSON_AddItemToArray(top, o);
	}
	return top;
}
