// SPDX-License-Identifier: GPL-2.0
/*
 * Results documents: a run's guest frames turned into the results JSON,
 * summaries of its samples, and the file saved and loaded.
 */
#define _GNU_SOURCE
#include "results.h"
#include "frames.h"
#include "json.h"
#include "procfs.h"
#include "schema.h"
#include "stats.h"
#include "util.h"
#include "workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Guest config lines whose symbol is one of the build's allocator lines. */
static cJSON *allocator_lines(const char *config, const char *alloc_config)
{
	cJSON *lines = cJSON_CreateArray();
	char *copy = xstrdup(config), *save = NULL, *line;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *sym = strstr(line, "CONFIG_");
		size_t n;
		char *needle;

		if (!sym)
			continue;
		n = strcspn(sym, "= ");
		needle = strndup(sym, n);
		/* Match the whole symbol, as "CONFIG_SLAB=" or "CONFIG_SLAB is". */
		for (const char *p = alloc_config; (p = strstr(p, needle)); p += n) {
			if (p[n] == '=' || p[n] == ' ') {
				cJSON_AddItemToArray(lines, cJSON_CreateString(line));
				break;
			}
		}
		free(needle);
	}
	free(copy);
	return lines;
}

static cJSON *object_child(cJSON *parent, const char *name)
{
	cJSON *o = cJSON_GetObjectItemCaseSensitive(parent, name);

	if (!o)
		o = cJSON_AddObjectToObject(parent, name);
	return o;
}

static int add_test_result(cJSON *doc, int index, const struct workload *w,
			   const char *data, size_t len, char **why)
{
	cJSON *tests = cJSON_GetObjectItemCaseSensitive(doc, "tests");
	cJSON *res = cJSON_ParseWithLength(data, len), *entry, *metrics, *m;
	int boot = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "boots")) - 1;

	if (!res || index < 0 || index >= w->nr_tests) {
		cJSON_Delete(res);
		*why = xasprintf("result %d from the guest is not valid", index);
		return -1;
	}
	entry = cJSON_GetArrayItem(tests, index);
	if (!cJSON_GetObjectItemCaseSensitive(entry, "params"))
		cJSON_AddItemToObject(entry, "params",
				      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(res, "params"), 1));
	metrics = object_child(entry, "metrics");
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(res, "metrics")) {
		cJSON *dst = cJSON_GetObjectItemCaseSensitive(metrics, m->string), *s;
		cJSON *samples = cJSON_GetObjectItemCaseSensitive(m, "samples");

		if (!cJSON_IsArray(samples)) {
			cJSON_Delete(res);
			*why = xasprintf("result %d: metric %s has no samples", index, m->string);
			return -1;
		}
		if (!dst) {
			dst = cJSON_AddObjectToObject(metrics, m->string);
			cJSON_AddItemToObject(dst, "unit", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(m, "unit"), 1));
			cJSON_AddItemToObject(dst, "better", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(m, "better"), 1));
			/* Sweeps label their points, e.g. {"size": 64}. */
			if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(m, "labels")))
				cJSON_AddItemToObject(dst, "labels",
						      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(m, "labels"), 1));
			cJSON_AddArrayToObject(dst, "samples");
			cJSON_AddArrayToObject(dst, "boots");
		}
		while (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(dst, "boots")) <= boot)
			cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(dst, "boots"),
					     cJSON_CreateArray());
		cJSON_ArrayForEach(s, samples) {
			if (!cJSON_IsNumber(s)) {
				cJSON_Delete(res);
				*why = xasprintf("result %d: metric %s has a sample that is not a number",
						 index, m->string);
				return -1;
			}
			cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(dst, "samples"),
					     cJSON_CreateNumber(s->valuedouble));
			cJSON_AddItemToArray(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(dst, "boots"), boot),
					     cJSON_CreateNumber(s->valuedouble));
		}
	}
	/* Everything else the test reported (e.g. loop overhead), per boot. */
	cJSON_ArrayForEach(m, res) {
		if (!strcmp(m->string, "test") || !strcmp(m->string, "params") ||
		    !strcmp(m->string, "metrics"))
			continue;
		cJSON *extra = object_child(entry, "extra");
		cJSON *arr = cJSON_GetObjectItemCaseSensitive(extra, m->string);

		if (!arr)
			arr = cJSON_AddArrayToObject(extra, m->string);
		cJSON_AddItemToArray(arr, cJSON_Duplicate(m, 1));
	}
	cJSON_Delete(res);
	return 0;
}

/*
 * The module's figures for the cache an overhead run kept alive (hold=1)
 * against the allocator's own line in /proc/slabinfo, read meanwhile:
 * the same geometry, and slabs within one slab. active_objs is shown, not
 * judged: slabinfo counts objects in per-CPU caches as active.
 */
static void slabinfo_check(cJSON *doc, int index, const char *text)
{
	cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "tests"), index);
	cJSON *extra = object_child(entry, "extra");
	cJSON *held = cJSON_GetObjectItemCaseSensitive(extra, "held");
	cJSON *mine = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(held, cJSON_GetArraySize(held) - 1), "slabinfo");
	cJSON *proc = text ? slabinfo_parse(text, "slabbench-held") : NULL;
	cJSON *checks = cJSON_GetObjectItemCaseSensitive(extra, "slabinfo_check");
	cJSON *c = cJSON_CreateObject();

	if (!checks)
		checks = cJSON_AddArrayToObject(extra, "slabinfo_check");
	if (mine && proc) {
		double per = json_num_at(proc, "objperslab");
		bool agrees = json_num_at(mine, "objsize") == json_num_at(proc, "objsize") &&
			      json_num_at(mine, "objperslab") == per &&
			      json_num_at(mine, "pagesperslab") == json_num_at(proc, "pagesperslab") &&
			      fabs(json_num_at(mine, "num_slabs") - json_num_at(proc, "num_slabs")) <= 1 &&
			      fabs(json_num_at(mine, "num_objs") - json_num_at(proc, "num_objs")) <= per;

		cJSON_AddBoolToObject(c, "agrees", agrees);
		cJSON_AddItemToObject(c, "module", cJSON_Duplicate(mine, 1));
		cJSON_AddItemToObject(c, "proc", proc);
	} else {
		/* SLOB has no /proc/slabinfo. */
		cJSON_AddNullToObject(c, "agrees");
		cJSON_AddStringToObject(c, "why", !text ? "no /proc/slabinfo" :
					!mine ? "the module reported no held cache" :
					"no slabbench-held line in /proc/slabinfo");
		cJSON_Delete(proc);
	}
	cJSON_AddItemToArray(checks, c);
}

int results_add_frames(cJSON *doc, cJSON *boot_obj, const struct workload *w,
		       const char *channel, size_t len, const char *build_config,
		       const char *alloc_config, char **why)
{
	cJSON *guest = object_child(doc, "guest");
	cJSON *snaps = object_child(boot_obj, "snapshots");
	size_t pos = 0;
	struct frame f;
	int r;

	*why = NULL;
	while ((r = frame_next(channel, len, &pos, &f)) == 1) {
		char *data = strndup(f.data, f.len);

		if (!strcmp(f.kind, "done") && strcmp(data, "0")) {
			/* The agent stopped on a plan line; the console says which. */
			*why = xstrdup("the guest agent could not carry out the whole plan");
			free(data);
			return -1;
		} else if (!strcmp(f.kind, "result")) {
			if (add_test_result(doc, atoi(f.name), w, f.data, f.len, why)) {
				free(data);
				return -1;
			}
		} else if (!strcmp(f.kind, "profile")) {
			cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "tests"),
							  atoi(f.name));

			if (entry) {
				cJSON_DeleteItemFromObject(entry, "profile");
				cJSON_AddItemToObject(entry, "profile", perf_report_parse(data, 40));
			}
		} else if (!strcmp(f.kind, "error")) {
			cJSON *e = cJSON_Parse(data);
			const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "error");
			int i = atoi(f.name);

			*why = xasprintf("%s: %s", i >= 0 && i < w->nr_tests ? w->tests[i].spec : f.name,
					 cJSON_IsString(msg) ? msg->valuestring : data);
			cJSON_Delete(e);
			free(data);
			return -1;
		} else if (!strcmp(f.kind, "file") &&
			   (!strcmp(f.name, "info") || !strcmp(f.name, "catalogue"))) {
			cJSON *o = cJSON_Parse(data);

			cJSON_DeleteItemFromObject(guest, f.name);
			cJSON_AddItemToObject(guest, f.name, o ? o : cJSON_CreateNull());
		} else if (!strcmp(f.kind, "file") && !strcmp(f.name, "cmdline")) {
			data[strcspn(data, "\n")] = '\0';
			cJSON_DeleteItemFromObject(boot_obj, "cmdline");
			cJSON_AddStringToObject(boot_obj, "cmdline", data);
		} else if ((!strcmp(f.kind, "file") || !strcmp(f.kind, "missing")) &&
			   !strncmp(f.name, "slabinfo.held-", 14)) {
			int i = atoi(f.name + 14);

			if (i >= 0 && i < w->nr_tests)
				slabinfo_check(doc, i, strcmp(f.kind, "missing") ? data : NULL);
		} else if (!strcmp(f.kind, "cmd") && !strcmp(f.name, "config")) {
			cJSON_DeleteItemFromObject(guest, "allocator_config");
			cJSON_DeleteItemFromObject(guest, "config_matches_build");
			cJSON_AddItemToObject(guest, "allocator_config",
					      allocator_lines(data, alloc_config));
			cJSON_AddBoolToObject(guest, "config_matches_build",
					      build_config && !strcmp(data, build_config));
		} else if (!strcmp(f.kind, "file") || !strcmp(f.kind, "missing")) {
			/* Snapshots: meminfo.before, slabinfo.after, ... */
			char *dot = strchr(f.name, '.');

			if (dot) {
				char *what = strndup(f.name, dot - f.name);
				cJSON *when = object_child(snaps, dot + 1);

				cJSON_DeleteItemFromObject(when, what);
				if (!strcmp(f.kind, "missing"))
					cJSON_AddNullToObject(when, what);
				else if (!strcmp(what, "meminfo"))
					cJSON_AddItemToObject(when, what, meminfo_parse(data));
				else
					cJSON_AddStringToObject(when, what, data);
				free(what);
			}
		}
		free(data);
	}
	if (r < 0) {
		*why = xasprintf("the guest's channel is malformed at byte %zu", pos);
		return -1;
	}
	return 0;
}

void results_summarize(cJSON *doc)
{
	cJSON *t, *m;

	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "tests")) {
		cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(t, "metrics")) {
			struct summary sum;
			cJSON *o;

			metric_summarize(m, &sum);
			cJSON_DeleteItemFromObject(m, "summary");
			o = cJSON_AddObjectToObject(m, "summary");
			cJSON_AddNumberToObject(o, "n", sum.n);
			cJSON_AddNumberToObject(o, "mean", sum.mean);
			cJSON_AddNumberToObject(o, "stddev", sum.stddev);
			cJSON_AddNumberToObject(o, "cov", sum.cov);
			cJSON_AddNumberToObject(o, "min", sum.min);
			cJSON_AddNumberToObject(o, "median", sum.median);
			cJSON_AddNumberToObject(o, "max", sum.max);
		}
	}
}

int results_save(const char *path, const cJSON *doc)
{
	char *text = cJSON_Print(doc);
	int ret;

	if (!text)
		return error("%s: cannot serialise the results", path);
	text = xrealloc(text, strlen(text) + 2);
	strcat(text, "\n");
	ret = write_file_atomic(path, text, strlen(text));
	free(text);
	return ret;
}

cJSON *results_parse(const char *path, const char *text)
{
	cJSON *doc = cJSON_Parse(text), *schema, *status, *tests;

	if (!doc) {
		const char *at = cJSON_GetErrorPtr();

		error("%s: not valid JSON (near byte %ld): truncated or corrupted?", path,
		      at && at >= text ? (long)(at - text) : -1L);
		return NULL;
	}
	schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
	status = cJSON_GetObjectItemCaseSensitive(doc, "status");
	tests = cJSON_GetObjectItemCaseSensitive(doc, "tests");
	if (!cJSON_IsObject(doc) || !cJSON_IsNumber(schema)) {
		error("%s: not a slabbench results file (no schema)", path);
	} else if (schema->valuedouble != RESULTS_SCHEMA) {
		error("%s: results schema %g, this slabbench reads %d", path,
		      schema->valuedouble, RESULTS_SCHEMA);
	} else if (!cJSON_IsString(status)) {
		error("%s: status: missing", path);
	} else if (!cJSON_IsArray(tests)) {
		error("%s: tests: expected an array", path);
	} else {
		return doc;
	}
	cJSON_Delete(doc);
	return NULL;
}

cJSON *results_load(const char *path)
{
	char *text = read_file(path, NULL);
	cJSON *doc;

	if (!text) {
		error("%s: %s", path, strerror(errno));
		return NULL;
	}
	doc = results_parse(path, text);
	free(text);
	return doc;
}
