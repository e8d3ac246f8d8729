// SPDX-License-Identifier: GPL-2.0
/*
 * The results schema: every path of a results document that its readers
 * read, what they may rely on, and the one rule for a run's label.
 */
#define _GNU_SOURCE
#include "schema.h"
#include "json.h"
#include "kind.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where each string of a run's identity lives. */
static const struct {
	size_t off;
	const char *path;
} id_strings[] = {
	{ offsetof(struct run_id, allocator), "guest.info.allocator" },
	{ offsetof(struct run_id, variant), "kernel.variant" },
	{ offsetof(struct run_id, release), "kernel.release" },
	{ offsetof(struct run_id, tree), "kernel.tree" },
	{ offsetof(struct run_id, build_hash), "kernel.build_hash" },
	{ offsetof(struct run_id, common_config), "kernel.common_config_sha256" },
	{ offsetof(struct run_id, accel), "vm.accel" },
	{ offsetof(struct run_id, tcg_thread), "vm.tcg_thread" },
	{ offsetof(struct run_id, qemu), "vm.qemu" },
	{ offsetof(struct run_id, cmdline), "vm.cmdline" },
	{ offsetof(struct run_id, host_cpu), "host.cpu_model" },
	{ offsetof(struct run_id, cpu_model), "vm.cpu_model" },
	{ offsetof(struct run_id, config_base), "kernel.config_base" },
	{ offsetof(struct run_id, config_family), "kernel.config_family" },
	{ offsetof(struct run_id, preempt), "kernel.preempt" },
	{ offsetof(struct run_id, cost_geometry), "vm.cost_model.geometry" },
	{ offsetof(struct run_id, cost_requested), "vm.cost_model.requested" },
};

static char *run_label(const struct run_id *ids, int r);

struct run_id *run_ids(const char *const *paths, const cJSON *const *docs, int n)
{
	struct run_id *ids = xcalloc(n, sizeof(*ids));

	for (int r = 0; r < n; r++) {
		struct run_id *id = &ids[r];

		id->path = paths ? paths[r] : "?";
		for (size_t i = 0; i < ARRAY_SIZE(id_strings); i++)
			*(const char **)((char *)id + id_strings[i].off) =
				json_str_at(docs[r], id_strings[i].path);
		id->cpus = json_num_at(docs[r], "vm.cpus");
		id->mem_mb = json_num_at(docs[r], "vm.mem_mb");
		id->numa_nodes = json_num_at(docs[r], "vm.numa_nodes");
		id->possible_cpus = json_num_at(docs[r], "vm.possible_cpus");
		if (isnan(id->possible_cpus))
			id->possible_cpus = id->cpus;
		id->jobs = json_num_at(docs[r], "vm.jobs");
		if (isnan(id->jobs))
			id->jobs = 1;
		id->emulated = cJSON_IsTrue(json_at(docs[r], "vm.emulated_time"));
		id->label = run_label(ids, r);
	}
	return ids;
}

void run_ids_free(struct run_id *ids, int n)
{
	for (int r = 0; ids && r < n; r++)
		free(ids[r].label);
	free(ids);
}

/*
 * The variant, not the allocator: it is what the user gave --alloc, and
 * it tells slub from slub-6.12 where the allocator says SLUB for both.
 */
static const char *label_name(const struct run_id *id)
{
	return strcmp(id->variant, "?") ? id->variant : id->allocator;
}

/*
 * The label of ids[r] among ids[0..r]: its variant (what --alloc took),
 * else its allocator, with "#N" (N = r + 1) when an earlier run has it.
 */
static char *run_label(const struct run_id *ids, int r)
{
	const char *name = label_name(&ids[r]);

	for (int q = 0; q < r; q++)
		if (!strcmp(label_name(&ids[q]), name))
			return xasprintf("%s#%d", name, r + 1);
	return xstrdup(name);
}

/*
 * The tree, the rest of the kernel config (under whichever name the
 * results carry it) and the guest's shape.
 */
const struct run_field run_same_fields[] = {
	{ "kernel.tree", "kernel tree" },
	{ "kernel.common_config_sha256", "non-allocator config" },
	{ "kernel.config_fingerprint", "config fingerprint" },
	{ "kernel.common_config", "non-allocator config" },
	{ "vm.cpus", "guest CPUs" },
	{ "vm.numa_nodes", "guest NUMA nodes" },
	{ "vm.possible_cpus", "guest possible CPUs" },
	{ "vm.tcg_thread", "TCG threads" },
	{ "vm.mem_mb", "guest memory (MB)" },
	{ "vm.cmdline", "kernel command line" },
};
const size_t nr_run_same_fields = ARRAY_SIZE(run_same_fields);

const cJSON *run_field(const cJSON *doc, const struct run_field *f)
{
	return json_at(doc, f->path);
}

static int check_metric(const char *path, int i, const cJSON *m)
{
	const char *better = metric_better(m);
	const cJSON *samples = metric_samples(m), *s;
	const char *name = m->string;
	const cJSON *boots = json_at(m, "boots"), *b;
	enum metric_kind kind;
	int j = 0;

	if (!cJSON_IsObject(m))
		return error("%s: tests[%d].metrics.%s: expected an object", path, i, name);
	if (metric_kind(metric_unit(m), &kind))
		return error("%s: tests[%d].metrics.%s.unit: '%s' is not a unit slabbench knows",
			     path, i, name, metric_unit(m));
	if (strcmp(better, "lower") && strcmp(better, "higher"))
		return error("%s: tests[%d].metrics.%s.better: expected \"lower\" or \"higher\"",
			     path, i, name);
	if (!cJSON_IsArray(samples) || !cJSON_GetArraySize(samples))
		return error("%s: tests[%d].metrics.%s.samples: expected a non-empty array",
			     path, i, name);
	cJSON_ArrayForEach(s, samples) {
		/* cJSON reads 1e999 as inf and writes NaN as null. */
		if (!cJSON_IsNumber(s) || !isfinite(s->valuedouble))
			return error("%s: tests[%d].metrics.%s.samples[%d]: not a finite number",
				     path, i, name, j);
		j++;
	}
	if (boots && !cJSON_IsArray(boots))
		return error("%s: tests[%d].metrics.%s.boots: expected an array", path, i, name);
	j = 0;
	cJSON_ArrayForEach(b, boots) {
		int k = 0;

		if (!cJSON_IsArray(b))
			return error("%s: tests[%d].metrics.%s.boots[%d]: expected an array",
				     path, i, name, j);
		cJSON_ArrayForEach(s, b) {
			if (!cJSON_IsNumber(s) || !isfinite(s->valuedouble))
				return error("%s: tests[%d].metrics.%s.boots[%d][%d]: not a finite number",
					     path, i, name, j, k);
			k++;
		}
		j++;
	}
	return 0;
}

int run_check(const char *path, const cJSON *doc, bool allow_partial)
{
	const char *status = run_status(doc);
	const cJSON *m;

	if (!strcmp(status, "partial") && !allow_partial)
		return error("%s: partial results of a failed run (--allow-partial compares them)",
			     path);
	if (strcmp(status, "partial") && strcmp(status, "complete"))
		return error("%s: status '%s': expected complete or partial", path, status);
	if (!run_workload(doc))
		return error("%s: workload.name: missing", path);
	for (int i = 0; i < run_nr_tests(doc); i++) {
		const cJSON *t = run_test(doc, i), *metrics = test_metrics(t);

		if (!test_spec(t))
			return error("%s: tests[%d].spec: missing", path, i);
		/* A partial run has no metrics for the tests it did not reach. */
		if (metrics && !cJSON_IsObject(metrics))
			return error("%s: tests[%d].metrics: expected an object", path, i);
		cJSON_ArrayForEach(m, metrics)
			if (check_metric(path, i, m))
				return -1;
	}
	return 0;
}

const char *run_status(const cJSON *doc)
{
	return json_str_at(doc, "status");
}

const char *run_workload(const cJSON *doc)
{
	const cJSON *name = json_at(doc, "workload.name");

	return cJSON_IsString(name) ? name->valuestring : NULL;
}

const cJSON *run_workload_def(const cJSON *doc)
{
	return json_at(doc, "workload");
}

const char *run_upper_bound(const cJSON *doc)
{
	const cJSON *b = json_at(doc, "workload.upper_bound");

	return cJSON_IsString(b) && *b->valuestring ? b->valuestring : NULL;
}

double run_after_boot_s(const cJSON *doc)
{
	return json_num_at(doc, "workload.after_boot_s");
}

const cJSON *run_allocator_config(const cJSON *doc)
{
	return json_at(doc, "kernel.allocator_config");
}

const cJSON *run_common_config_lines(const cJSON *doc)
{
	return json_at(doc, "kernel.common_config_lines");
}

const cJSON *run_kernel_lacks(const cJSON *doc)
{
	return json_at(doc, "kernel.lacks");
}

const cJSON *run_slab_options(const cJSON *doc)
{
	return json_at(doc, "kernel.slab_options");
}

int run_nr_boots(const cJSON *doc)
{
	return cJSON_GetArraySize(json_at(doc, "boots"));
}

const cJSON *boot_snapshots(const cJSON *doc, int boot)
{
	return json_at(cJSON_GetArrayItem(json_at(doc, "boots"), boot), "snapshots");
}

const cJSON *boot_meminfo_all(const cJSON *doc, int boot, const char *when)
{
	return json_at(cJSON_GetObjectItemCaseSensitive(boot_snapshots(doc, boot), when),
		       "meminfo");
}

double boot_meminfo(const cJSON *doc, int boot, const char *when, const char *field)
{
	return json_num_at(boot_meminfo_all(doc, boot, when), field);
}

bool boot_userspace(const cJSON *doc, int boot, struct boot_userspace *u)
{
	const cJSON *us = json_at(cJSON_GetArrayItem(json_at(doc, "boots"), boot), "userspace");

	if (!us)
		return false;
	u->commands = cJSON_GetArraySize(json_at(us, "commands"));
	u->cpus_ran = json_num_at(us, "cpus_ran");
	u->cpus_online = json_num_at(us, "cpus_online");
	return true;
}

const cJSON *boot_census(const cJSON *doc, int boot, const char *when)
{
	const cJSON *c = json_at(cJSON_GetObjectItemCaseSensitive(boot_snapshots(doc, boot), when),
				 "census");

	return cJSON_IsObject(c) ? c : NULL;
}

double census_header(const cJSON *c, const char *field)
{
	return json_num_at(c, field);
}

double census_total(const cJSON *c, const char *field)
{
	return json_num_at(json_at(c, "total"), field);
}

int census_nr_caches(const cJSON *c)
{
	return cJSON_GetArraySize(json_at(c, "caches"));
}

const cJSON *census_cache_at(const cJSON *c, int i)
{
	return cJSON_GetArrayItem(json_at(c, "caches"), i);
}

static const char *census_cache_name(const cJSON *cache)
{
	return json_str_at(cache, "name");
}

const cJSON *census_cache(const cJSON *c, const char *name)
{
	const cJSON *cache;

	cJSON_ArrayForEach(cache, json_at(c, "caches"))
		if (!strcmp(census_cache_name(cache), name))
			return cache;
	return NULL;
}

double census_cache_field(const cJSON *cache, const char *field)
{
	return json_num_at(cache, field);
}

const char *checks_verdict(const cJSON *checks, const char *name)
{
	const cJSON *v = json_at(checks, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const cJSON *checks_failures(const cJSON *checks)
{
	return json_at(checks, "failures");
}

int run_nr_tests(const cJSON *doc)
{
	return cJSON_GetArraySize(json_at(doc, "tests"));
}

const cJSON *run_test(const cJSON *doc, int i)
{
	return cJSON_GetArrayItem(json_at(doc, "tests"), i);
}

const char *test_name(const cJSON *t)
{
	return json_str_at(t, "test");
}

const char *test_spec(const cJSON *t)
{
	const cJSON *spec = json_at(t, "spec");

	return cJSON_IsString(spec) ? spec->valuestring : NULL;
}

const cJSON *test_param(const cJSON *t, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(json_at(t, "params"), key);
}

double test_param_num(const cJSON *t, const char *key)
{
	return json_num_at(json_at(t, "params"), key);
}

const char *test_param_str(const cJSON *t, const char *key)
{
	return json_str_at(json_at(t, "params"), key);
}

const cJSON *test_extra(const cJSON *t, const char *key, int boot)
{
	return cJSON_GetArrayItem(json_at(json_at(t, "extra"), key), boot);
}

double test_extra_num(const cJSON *t, const char *key, int boot)
{
	const cJSON *v = test_extra(t, key, boot);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const cJSON *test_metrics(const cJSON *t)
{
	return json_at(t, "metrics");
}

const cJSON *test_metric(const cJSON *t, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(test_metrics(t), name);
}

const cJSON *test_absent_metrics(const cJSON *t)
{
	return json_at(t, "absent_metrics");
}

const cJSON *test_absent_metric(const cJSON *t, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(test_absent_metrics(t), name);
}

const cJSON *test_profile(const cJSON *t)
{
	return json_at(t, "profile");
}

const char *profile_symbol(const cJSON *entry)
{
	return json_str_at(entry, "symbol");
}

double profile_percent(const cJSON *entry)
{
	return json_num_at(entry, "percent");
}

const char *metric_unit(const cJSON *m)
{
	return json_str_at(m, "unit");
}

const char *metric_better(const cJSON *m)
{
	return json_str_at(m, "better");
}

bool metric_higher_better(const cJSON *m)
{
	return !strcmp(metric_better(m), "higher");
}

const cJSON *metric_samples(const cJSON *m)
{
	return json_at(m, "samples");
}

const cJSON *metric_labels(const cJSON *m)
{
	return json_at(m, "labels");
}

double metric_label_num(const cJSON *m, const char *key)
{
	return json_num_at(metric_labels(m), key);
}

double metric_mean(const cJSON *m)
{
	return json_num_at(m, "summary.mean");
}

double metric_cov(const cJSON *m)
{
	return json_num_at(m, "summary.cov");
}

void metric_summarize(const cJSON *m, struct summary *s)
{
	const cJSON *samples = metric_samples(m), *x;
	size_t n = cJSON_GetArraySize(samples), i = 0;
	double *v = xcalloc(n, sizeof(*v));

	cJSON_ArrayForEach(x, samples)
		v[i++] = x->valuedouble;
	summarize(v, n, s);
	free(v);
}

const cJSON *metric_boots(const cJSON *m)
{
	const cJSON *b = json_at(m, "boots");

	return cJSON_IsArray(b) && cJSON_GetArraySize(b) ? b : NULL;
}

static void numbers(const cJSON *a, double **v, size_t *n)
{
	const cJSON *x;
	size_t i = 0;

	*n = cJSON_GetArraySize(a);
	*v = xcalloc(*n ? *n : 1, sizeof(**v));
	cJSON_ArrayForEach(x, a)
		(*v)[i++] = x->valuedouble;
}

size_t metric_boot_medians(const cJSON *m, double **out, double *within)
{
	const cJSON *boots = metric_boots(m), *b;
	size_t nb = boots ? cJSON_GetArraySize(boots) : 1, k = 0, nw = 0;
	double *spread = xcalloc(nb, sizeof(*spread));
	struct summary w;

	*out = xcalloc(nb, sizeof(**out));
	for (size_t i = 0; i < nb; i++) {
		struct summary s;
		double *v;
		size_t n;

		b = boots ? cJSON_GetArrayItem(boots, i) : metric_samples(m);
		numbers(b, &v, &n);
		summarize(v, n, &s);
		free(v);
		if (!n)
			continue;
		(*out)[k++] = s.median;
		if (n > 1 && s.median != 0)
			spread[nw++] = (s.q3 - s.q1) / fabs(s.median);
	}
	summarize(spread, nw, &w);
	*within = nw ? w.median : NAN;
	free(spread);
	return k;
}

int mem_breakdown(const cJSON *doc, int test, struct mem_breakdown *m)
{
	const cJSON *t = run_test(doc, test);

	if (strcmp(test_name(t), "overhead"))
		return -1;
	m->size = test_param_num(t, "size");
	m->count = test_param_num(t, "count");
	m->total = metric_mean(test_metric(t, "bytes_per_object"));
	m->rounding = metric_mean(test_metric(t, "rounding_bytes_per_object"));
	m->tail = metric_mean(test_metric(t, "tail_waste_bytes_per_object"));
	m->idle = metric_mean(test_metric(t, "idle_bytes_per_object"));
	m->slab_pages = metric_mean(test_metric(t, "slab_pages"));
	m->held_free_pages = metric_mean(test_metric(t, "held_after_free_pages"));
	m->held_shrink_pages = metric_mean(test_metric(t, "held_after_shrink_pages"));
	return isnan(m->size) || isnan(m->count) || isnan(m->total) || m->count <= 0 ? -1 : 0;
}
