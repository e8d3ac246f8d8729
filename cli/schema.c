// SPDX-License-Identifier: GPL-2.0
/*
 * The results schema: every path of a results document that compare,
 * report, plot and bench read, and the one rule for a run's label.
 */
#define _GNU_SOURCE
#include "schema.h"
#include "json.h"
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
};

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

char *run_label(const struct run_id *ids, int r)
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

const char *run_status(const cJSON *doc)
{
	return json_str_at(doc, "status");
}

const char *run_workload(const cJSON *doc)
{
	const cJSON *name = json_at(doc, "workload.name");

	return cJSON_IsString(name) ? name->valuestring : NULL;
}

const cJSON *run_allocator_config(const cJSON *doc)
{
	return json_at(doc, "kernel.allocator_config");
}

int run_nr_boots(const cJSON *doc)
{
	return cJSON_GetArraySize(json_at(doc, "boots"));
}

const cJSON *boot_snapshots(const cJSON *doc, int boot)
{
	return json_at(cJSON_GetArrayItem(json_at(doc, "boots"), boot), "snapshots");
}

double boot_meminfo(const cJSON *doc, int boot, const char *when, const char *field)
{
	const cJSON *snap = boot_snapshots(doc, boot);

	return json_num_at(json_at(json_at(snap, when), "meminfo"), field);
}

const cJSON *boot_census(const cJSON *doc, int boot, const char *when)
{
	const cJSON *c = json_at(cJSON_GetObjectItemCaseSensitive(boot_snapshots(doc, boot), when),
				 "census");

	return cJSON_IsObject(c) ? c : NULL;
}

const cJSON *boot_test_census(const cJSON *doc, int boot, int test, const char *phase)
{
	char *when = xasprintf("t%d.%s", test, phase);
	const cJSON *c = boot_census(doc, boot, when);

	free(when);
	return c;
}

const cJSON *run_census_phases(const cJSON *doc, int test)
{
	const cJSON *phases = json_at(cJSON_GetArrayItem(json_at(doc, "workload.tests"), test), "census");

	return cJSON_IsArray(phases) ? phases : NULL;
}

const char *census_allocator(const cJSON *c)
{
	return json_str_at(c, "allocator");
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

const cJSON *census_cache(const cJSON *c, const char *name)
{
	const cJSON *cache;

	cJSON_ArrayForEach(cache, json_at(c, "caches"))
		if (!strcmp(census_cache_name(cache), name))
			return cache;
	return NULL;
}

const char *census_cache_name(const cJSON *cache)
{
	return json_str_at(cache, "name");
}

double census_cache_field(const cJSON *cache, const char *field)
{
	return json_num_at(cache, field);
}

double census_caches_sum(const cJSON *c, const char *prefix, const char *field)
{
	const cJSON *cache;
	double sum = NAN;

	cJSON_ArrayForEach(cache, json_at(c, "caches")) {
		double v = census_cache_field(cache, field);

		if (strncmp(census_cache_name(cache), prefix, strlen(prefix)) || isnan(v))
			continue;
		sum = isnan(sum) ? v : sum + v;
	}
	return sum;
}

const char *census_check(const cJSON *c, const char *name)
{
	const cJSON *v = json_at(json_at(c, "checks"), name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const cJSON *census_failures(const cJSON *c)
{
	return json_at(c, "checks.failures");
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

const cJSON *test_metrics(const cJSON *t)
{
	return json_at(t, "metrics");
}

const cJSON *test_metric(const cJSON *t, const char *name)
{
	return cJSON_GetObjectItemCaseSensitive(test_metrics(t), name);
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

double metric_stddev(const cJSON *m)
{
	return json_num_at(m, "summary.stddev");
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
