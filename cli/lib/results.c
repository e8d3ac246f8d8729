// SPDX-License-Identifier: GPL-2.0
/*
 * Results documents: a run's guest frames turned into the results JSON,
 * summaries of its samples, and the file saved and loaded.
 */
#define _GNU_SOURCE
#include "results.h"
#include "census.h"
#include "cost.h"
#include "frames.h"
#include "json.h"
#include "plan.h"
#include "procfs.h"
#include "schema.h"
#include "stats.h"
#include "util.h"
#include "workload.h"

#include <linux/slabbench.h>

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
		needle = xstrndup(sym, n);
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

/*
 * Arrays the module keeps beside a metric's samples, one entry per sample
 * (e.g. "irqs", the interrupts of each sample's timing windows), follow
 * the samples into @dst, boots concatenated as the samples are. Anything
 * else a metric carries (the module's own summary) is left out: the host
 * computes its own from the samples.
 */
static void keep_per_sample(cJSON *dst, const cJSON *m, int n)
{
	const cJSON *a, *x;

	cJSON_ArrayForEach(a, m) {
		if (!cJSON_IsArray(a) || !strcmp(a->string, "samples") ||
		    cJSON_GetArraySize(a) != n)
			continue;
		cJSON *to = cJSON_GetObjectItemCaseSensitive(dst, a->string);

		if (!to)
			to = cJSON_AddArrayToObject(dst, a->string);
		if (!cJSON_IsArray(to))
			continue;
		cJSON_ArrayForEach(x, a)
			cJSON_AddItemToArray(to, cJSON_Duplicate(x, 1));
	}
}

static int add_test_result(cJSON *doc, int index, const struct workload *w,
			   const char *data, size_t len, const struct results_cost *cost,
			   char **why)
{
	cJSON *tests = cJSON_GetObjectItemCaseSensitive(doc, "tests");
	cJSON *res = cJSON_ParseWithLength(data, len), *entry, *metrics, *m;
	int boot = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "boots")) - 1;
	char *cost_why = NULL;

	if (!res || index < 0 || index >= w->nr_tests) {
		cJSON_Delete(res);
		*why = xasprintf("result %d from the guest is not valid", index);
		return -1;
	}
	if (cost && cost_join(res, cost->file, cost->path, &cost_why)) {
		cJSON_Delete(res);
		*why = xasprintf("result %d: %s", index, cost_why);
		free(cost_why);
		return -1;
	}
	entry = cJSON_GetArrayItem(tests, index);
	if (!cJSON_GetObjectItemCaseSensitive(entry, "params"))
		cJSON_AddItemToObject(entry, "params",
				      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(res, "params"), 1));
	metrics = json_child(entry, "metrics");
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
		keep_per_sample(dst, m, cJSON_GetArraySize(samples));
		cost_rejected_merge(dst, m);
	}
	/* Everything else the test reported (e.g. loop overhead), per boot. */
	cJSON_ArrayForEach(m, res) {
		if (!strcmp(m->string, "test") || !strcmp(m->string, "params") ||
		    !strcmp(m->string, "metrics"))
			continue;
		cJSON *extra = json_child(entry, "extra");
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
	cJSON *extra = json_child(entry, "extra");
	cJSON *held = cJSON_GetObjectItemCaseSensitive(extra, "held");
	cJSON *mine = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(held, cJSON_GetArraySize(held) - 1), "slabinfo");
	cJSON *proc = text ? slabinfo_parse(text, SB_HELD_CACHE) : NULL;
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
					"no " SB_HELD_CACHE " line in /proc/slabinfo");
		cJSON_Delete(proc);
	}
	cJSON_AddItemToArray(checks, c);
}

struct collect {
	cJSON *doc, *boot, *guest, *snaps;
	const struct workload *w;
	const char *build_config, *alloc_config;
	const struct results_cost *cost;
	char *why;
};

static char *payload(const struct frame *f)
{
	return xstrndup(f->data, f->len);
}

static int on_done(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;

	if (f->len == 1 && f->data[0] == '0')
		return 0;
	/* The agent stopped on a plan line; the console says which. */
	c->why = xstrdup("the guest agent could not carry out the whole plan");
	return -1;
}

static int on_result(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;

	return add_test_result(c->doc, atoi(f->name), c->w, f->data, f->len, c->cost, &c->why);
}

static int on_profile(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c->doc, "tests"),
					  atoi(f->name));
	char *data = payload(f);

	if (entry) {
		cJSON_DeleteItemFromObject(entry, "profile");
		cJSON_AddItemToObject(entry, "profile", perf_report_parse(data, 40));
	}
	free(data);
	return 0;
}

static int on_error(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	char *data = payload(f);
	cJSON *e = cJSON_Parse(data);
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "error");
	int i = atoi(f->name);

	c->why = xasprintf("%s: %s", i >= 0 && i < c->w->nr_tests ? c->w->tests[i].spec : f->name,
			   cJSON_IsString(msg) ? msg->valuestring : data);
	cJSON_Delete(e);
	free(data);
	return -1;
}

/* The module's info and catalogue, as JSON under doc.guest. */
static int on_guest_json(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	cJSON *o = cJSON_ParseWithLength(f->data, f->len);

	cJSON_DeleteItemFromObject(c->guest, f->name);
	cJSON_AddItemToObject(c->guest, f->name, o ? o : cJSON_CreateNull());
	return 0;
}

static int on_cmdline(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	char *data = payload(f);

	data[strcspn(data, "\n")] = '\0';
	cJSON_DeleteItemFromObject(c->boot, "cmdline");
	cJSON_AddStringToObject(c->boot, "cmdline", data);
	free(data);
	return 0;
}

/*
 * What the boot-like user space ran, kept with the boot. It must have run
 * on every CPU the guest was given: an after-boot snapshot of a guest
 * whose user space missed CPUs is not the one the workload asked for.
 */
static int on_userspace(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	cJSON *o = cJSON_ParseWithLength(f->data, f->len);
	double cpus = json_num_at(c->doc, "vm.cpus");
	const cJSON *ran = cJSON_GetObjectItemCaseSensitive(o, "cpus_ran");

	if (!cJSON_IsNumber(ran) || ran->valuedouble != cpus) {
		c->why = xasprintf("%s: user space ran on %.0f of the guest's %.0f CPUs",
				   PLAN_USERSPACE, cJSON_IsNumber(ran) ? ran->valuedouble : 0, cpus);
		cJSON_Delete(o);
		return -1;
	}
	cJSON_DeleteItemFromObject(c->boot, PLAN_USERSPACE);
	cJSON_AddItemToObject(c->boot, PLAN_USERSPACE, o);
	return 0;
}

static int on_held(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	int i = atoi(f->name + strlen(PLAN_HELD));
	char *data = payload(f);

	if (i >= 0 && i < c->w->nr_tests)
		slabinfo_check(c->doc, i, strcmp(f->kind, SB_FRAME_MISSING) ? data : NULL);
	free(data);
	return 0;
}

static int on_config(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	char *data = payload(f);

	cJSON_DeleteItemFromObject(c->guest, "allocator_config");
	cJSON_DeleteItemFromObject(c->guest, "config_matches_build");
	cJSON_AddItemToObject(c->guest, "allocator_config", allocator_lines(data, c->alloc_config));
	cJSON_AddBoolToObject(c->guest, "config_matches_build",
			      c->build_config && !strcmp(data, c->build_config));
	free(data);
	return 0;
}

static const char *snapshot_text(const cJSON *when, const char *what)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(when, what);

	return cJSON_IsString(t) ? t->valuestring : NULL;
}

/*
 * The census's checks at @when against the meminfo, slabinfo and SLUB sysfs
 * of the same snapshot, computed afresh as each arrives (the meminfo comes
 * first, then the census).
 */
static void census_recheck(cJSON *when)
{
	cJSON *census = cJSON_GetObjectItemCaseSensitive(when, PLAN_CENSUS);

	if (!cJSON_IsObject(census))
		return;
	cJSON_DeleteItemFromObject(census, "checks");
	cJSON_AddItemToObject(census, "checks",
			      census_checks(census,
					    cJSON_GetObjectItemCaseSensitive(when, PLAN_MEMINFO),
					    snapshot_text(when, PLAN_SLABINFO),
					    snapshot_text(when, PLAN_SLUB_SYSFS)));
}

/*
 * Snapshots: meminfo.before, census.t2.5s, slabinfo.after, ... A file
 * the kernel lacks is null: SLOB has no slabinfo, a kernel without our
 * patch (Debian's) no census. A census that does not parse fails the run.
 */
static int on_snapshot(const struct frame *f, void *ctx)
{
	struct collect *c = ctx;
	const char *dot = strchr(f->name, '.');
	char *what, *data, *err = NULL;
	cJSON *when, *census;

	if (!dot)
		return 0;
	what = xstrndup(f->name, dot - f->name);
	when = json_child(c->snaps, dot + 1);
	cJSON_DeleteItemFromObject(when, what);
	if (!strcmp(f->kind, SB_FRAME_MISSING)) {
		cJSON_AddNullToObject(when, what);
	} else {
		data = payload(f);
		if (!strcmp(what, PLAN_MEMINFO)) {
			cJSON_AddItemToObject(when, what, meminfo_parse(data));
		} else if (!strcmp(what, PLAN_CENSUS)) {
			census = census_parse(data, &err);
			cJSON_AddItemToObject(when, what, census ? census : cJSON_CreateNull());
		} else {
			cJSON_AddStringToObject(when, what, data);
		}
		free(data);
	}
	if (!strcmp(what, PLAN_CENSUS) || !strcmp(what, PLAN_SLABINFO) ||
	    !strcmp(what, PLAN_SLUB_SYSFS))
		census_recheck(when);
	free(what);
	if (err) {
		c->why = xasprintf("%s: %s", f->name, err);
		free(err);
		return -1;
	}
	return 0;
}

static const struct frame_route result_routes[] = {
	{ SB_FRAME_DONE, NULL, on_done },
	{ SB_FRAME_RESULT, NULL, on_result },
	{ SB_FRAME_PROFILE, NULL, on_profile },
	{ SB_FRAME_ERROR, NULL, on_error },
	{ SB_FRAME_FILE, PLAN_INFO, on_guest_json },
	{ SB_FRAME_FILE, PLAN_CATALOGUE, on_guest_json },
	{ SB_FRAME_FILE, PLAN_CMDLINE, on_cmdline },
	{ SB_FRAME_FILE, PLAN_USERSPACE, on_userspace },
	{ SB_FRAME_FILE, PLAN_HELD "*", on_held },
	{ SB_FRAME_MISSING, PLAN_HELD "*", on_held },
	{ SB_FRAME_CMD, PLAN_CONFIG, on_config },
	{ SB_FRAME_FILE, NULL, on_snapshot },
	{ SB_FRAME_MISSING, NULL, on_snapshot },
	{ 0 },
};

int results_add_frames(cJSON *doc, cJSON *boot_obj, const struct workload *w,
		       const char *channel, size_t len, const char *build_config,
		       const char *alloc_config, char **why)
{
	return results_add_frames_cost(doc, boot_obj, w, channel, len, build_config,
				       alloc_config, NULL, why);
}

int results_add_frames_cost(cJSON *doc, cJSON *boot_obj, const struct workload *w,
			    const char *channel, size_t len, const char *build_config,
			    const char *alloc_config, const struct results_cost *cost,
			    char **why)
{
	struct collect c = {
		.doc = doc, .boot = boot_obj, .guest = json_child(doc, "guest"),
		.snaps = json_child(boot_obj, "snapshots"), .w = w,
		.build_config = build_config, .alloc_config = alloc_config, .cost = cost,
	};
	size_t pos = 0;

	if (frames_route(channel, len, &pos, result_routes, &c) < 0 && !c.why)
		c.why = xasprintf("the guest's channel is malformed at byte %zu", pos);
	*why = c.why;
	return c.why ? -1 : 0;
}

void results_summarize(cJSON *doc)
{
	cJSON *t, *m;

	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(doc, "tests")) {
		cost_set_absent(t);
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
