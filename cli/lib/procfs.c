// SPDX-License-Identifier: GPL-2.0
/* Parsers of what the guest sends as text: /proc and /sys files, perf's report. */
#define _GNU_SOURCE
#include "procfs.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * Adds the numbers of a slabinfo line after its name (@rest, one line)
 * to @o; -1 if they do not parse. SLAB with statistics prints more after
 * them: ignored.
 */
static int slabinfo_fields(const char *rest, cJSON *o)
{
	static const char *const names[] = {
		"active_objs", "num_objs", "objsize", "objperslab", "pagesperslab",
		"active_slabs",
	};
	unsigned long v[6];

	if (sscanf(rest, "%lu %lu %lu %lu %lu : tunables %*u %*u %*u : slabdata %lu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
		return -1;
	for (int i = 0; i < 6; i++)
		cJSON_AddNumberToObject(o, names[i], v[i]);
	if (sscanf(rest, "%*u %*u %*u %*u %*u : tunables %*u %*u %*u : slabdata %*u %lu",
		   &v[0]) == 1)
		cJSON_AddNumberToObject(o, "num_slabs", v[0]);
	return 0;
}

/* The line at @line without its newline, NUL-terminated: sscanf stops there. */
static char *line_copy(const char *line)
{
	char *copy = xstrndup(line, strcspn(line, "\n"));

	if (!copy)
		out_of_memory();
	return copy;
}

static const char *next_line(const char *line)
{
	const char *nl = strchr(line, '\n');

	return nl ? nl + 1 : NULL;
}

cJSON *slabinfo_parse(const char *text, const char *cache)
{
	size_t n = strlen(cache);

	for (const char *line = text; line && *line; line = next_line(line)) {
		cJSON *o;
		char *rest;

		if (strncmp(line, cache, n) || line[n] != ' ')
			continue;
		o = cJSON_CreateObject();
		rest = line_copy(line + n);
		if (slabinfo_fields(rest, o)) {
			cJSON_Delete(o);
			o = NULL;
		}
		free(rest);
		return o;
	}
	return NULL;
}

cJSON *slabinfo_lines(const char *text, int *bad_line)
{
	cJSON *all = cJSON_CreateArray();
	int lineno = 0;

	for (const char *line = text; line && *line; line = next_line(line)) {
		char *copy = line_copy(line);
		size_t n = strcspn(copy, " ");
		bool named = n && copy[n] == ' ';
		cJSON *o;

		lineno++;
		/* "slabinfo - version: 2.1" and "# name <active_objs> ...". */
		if (!strncmp(copy, "slabinfo - ", 11) || copy[0] == '#') {
			free(copy);
			continue;
		}
		o = cJSON_CreateObject();
		copy[n] = '\0';
		cJSON_AddStringToObject(o, "name", copy);
		cJSON_AddItemToArray(all, o);
		if (!named || slabinfo_fields(copy + n + 1, o)) {
			free(copy);
			cJSON_Delete(all);
			*bad_line = lineno;
			return NULL;
		}
		free(copy);
	}
	return all;
}

cJSON *slub_sysfs_parse(const char *text, int *bad_line)
{
	cJSON *all = cJSON_CreateObject();
	int lineno = 0;

	for (const char *line = text; line && *line; line = next_line(line)) {
		char *copy = line_copy(line), *save = NULL, *name, *tok;
		cJSON *o = cJSON_CreateObject();
		bool bad;

		lineno++;
		name = strtok_r(copy, " ", &save);
		bad = !name || strchr(name, '=');
		while (!bad && (tok = strtok_r(NULL, " ", &save))) {
			char *eq = strchr(tok, '='), *end;
			unsigned long long v;

			bad = !eq || eq == tok || !isdigit((unsigned char)eq[1]);
			if (bad)
				break;
			*eq = '\0';
			errno = 0;
			v = strtoull(eq + 1, &end, 10);
			bad = *end || errno;
			if (!bad)
				cJSON_AddNumberToObject(o, tok, (double)v);
		}
		if (bad) {
			free(copy);
			cJSON_Delete(o);
			cJSON_Delete(all);
			*bad_line = lineno;
			return NULL;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(all, name);
		cJSON_AddItemToObject(all, name, o);
		free(copy);
	}
	return all;
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
