// SPDX-License-Identifier: GPL-2.0
/*
 * The noise floor (noise.h): A/A changes from splits of one variant's
 * boots, their distribution per accelerator, CPU count, test and metric,
 * the file that keeps it, and its scaling to a comparison's boots.
 */
#define _GNU_SOURCE
#include "noise.h"
#include "json.h"
#include "kind.h"
#include "schema.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *noise_path(void)
{
	const char *env = getenv("SLABBENCH_NOISE");

	return env && *env ? xstrdup(env) : xasprintf("%s/noise.json", slabbench_cache());
}

cJSON *noise_new(void)
{
	cJSON *doc = cJSON_CreateObject();

	cJSON_AddNumberToObject(doc, "schema", NOISE_SCHEMA);
	cJSON_AddStringToObject(doc, "tool", "slabbench " SLABBENCH_VERSION);
	cJSON_AddObjectToObject(doc, "accels");
	return doc;
}

cJSON *noise_load(const char *path, bool *missing)
{
	char *text = read_file(path, NULL);
	cJSON *doc;

	*missing = false;
	if (!text) {
		if (errno == ENOENT) {
			*missing = true;
			return NULL;
		}
		error("%s: %s", path, strerror(errno));
		return NULL;
	}
	doc = cJSON_Parse(text);
	free(text);
	if (cJSON_IsObject(doc) && json_num_at(doc, "schema") == 1) {
		warning("%s: a floor file of schema 1, whose floors are not kept by CPU count: "
			"not used (slabbench noise measures anew)", path);
		cJSON_Delete(doc);
		*missing = true;
		return NULL;
	}
	if (!cJSON_IsObject(doc) || json_num_at(doc, "schema") != NOISE_SCHEMA ||
	    !cJSON_IsObject(json_at(doc, "accels"))) {
		error("%s: not a slabbench noise-floor file of schema %d", path, NOISE_SCHEMA);
		cJSON_Delete(doc);
		return NULL;
	}
	return doc;
}

/* "2"; "?" when the run did not record its CPUs. */
static void cpus_key(char *out, size_t size, double cpus)
{
	if (isnan(cpus))
		snprintf(out, size, "?");
	else
		snprintf(out, size, "%.0f", cpus);
}

/*
 * accels.ACCEL.cpus.N.tests.SPEC.METRIC; spec and metric hold dots, so
 * not json_at().
 */
static cJSON *entry(const cJSON *noise, const char *accel, double cpus, const char *spec,
		    const char *metric)
{
	cJSON *a = cJSON_GetObjectItemCaseSensitive(json_at(noise, "accels"), accel), *t;
	char key[32];

	cpus_key(key, sizeof(key), cpus);
	a = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "cpus"), key);
	t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "tests"), spec);
	return cJSON_GetObjectItemCaseSensitive(t, metric);
}

double noise_floor(const cJSON *noise, const char *accel, double cpus, const char *spec,
		   const char *metric, int *boots)
{
	const cJSON *e = entry(noise, accel, cpus, spec, metric);
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "floor_pct");
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "boots_per_side");

	if (!cJSON_IsNumber(f) || !isfinite(f->valuedouble) || !cJSON_IsNumber(k) ||
	    k->valuedouble < 1)
		return NAN;
	*boots = k->valueint;
	return f->valuedouble;
}

static void boots_key(char *out, size_t size, int change_pct)
{
	snprintf(out, size, "boots_for_%dpct", change_pct);
}

int noise_boots_for(const cJSON *noise, const char *accel, double cpus, const char *spec,
		    const char *metric, int change_pct)
{
	const cJSON *e = entry(noise, accel, cpus, spec, metric), *b;
	char key[32];

	boots_key(key, sizeof(key), change_pct);
	b = cJSON_GetObjectItemCaseSensitive(e, key);
	if (cJSON_IsNull(b))
		return -1;
	return cJSON_IsNumber(b) ? b->valueint : 0;
}

double noise_floor_scaled(double pct, int k, size_t na, size_t nb)
{
	if (!na || !nb)
		return NAN;
	return 100 * expm1(log1p(pct / 100) * sqrt((1.0 / na + 1.0 / nb) / (2.0 / k)));
}

int noise_boots_needed(double sd_log, double floor_pct, int k, double change_pct, double alpha)
{
	double want = log1p(change_pct / 100);

	for (int n = 2; n <= NOISE_MAX_BOOTS; n++) {
		struct summary s = { .n = n, .stddev = sd_log };
		double gate = isnan(floor_pct) ? 0 :
			      log1p(noise_floor_scaled(floor_pct, k, n, n) / 100), power;

		if (!detection_power(&s, &s, alpha, gate, want, &power) && power >= 0.8)
			return n;
	}
	return -1;
}

/* xorshift64: the sampled splits are the same on every machine. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double split_change(const double *x, const bool *in_b, size_t n)
{
	double sa = 0, sb = 0;
	size_t na = 0, nb = 0;

	for (size_t i = 0; i < n; i++) {
		if (in_b[i]) {
			sb += x[i];
			nb++;
		} else {
			sa += x[i];
			na++;
		}
	}
	return 100 * expm1(sb / nb - sa / na);
}

/* Next combination of @k of @n (indices ascending), false after the last. */
static bool next_combination(size_t *c, size_t k, size_t n)
{
	size_t i = k;

	while (i-- > 0) {
		if (c[i] < n - k + i) {
			c[i]++;
			for (size_t j = i + 1; j < k; j++)
				c[j] = c[j - 1] + 1;
			return true;
		}
	}
	return false;
}

/*
 * The changes between halves of @x[0..n-1] (n even): every split with
 * boot 0 in the first half (each split once, not with its mirror), or
 * NOISE_MAX_SPLITS random ones when there are more.
 */
static size_t split_changes(const double *x, size_t n, double **out)
{
	size_t h = n / 2, m = 0, *c = xcalloc(h, sizeof(*c));
	bool *in_b = xcalloc(n, sizeof(*in_b));
	double total = 1;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < h - 1; i++)
		total = total * (n - 1 - i) / (i + 1);
	*out = xcalloc(total < NOISE_MAX_SPLITS ? (size_t)total + 1 : NOISE_MAX_SPLITS,
		       sizeof(**out));
	if (total <= NOISE_MAX_SPLITS) {
		/* The other h - 1 of the first half, chosen from boots 1..n-1. */
		for (size_t i = 0; i + 1 < h; i++)
			c[i] = i;
		do {
			for (size_t i = 0; i < n; i++)
				in_b[i] = i != 0;
			for (size_t i = 0; i + 1 < h; i++)
				in_b[c[i] + 1] = false;
			(*out)[m++] = split_change(x, in_b, n);
		} while (h > 1 && next_combination(c, h - 1, n - 1));
	} else {
		size_t *idx = xcalloc(n, sizeof(*idx));

		for (; m < NOISE_MAX_SPLITS; m++) {
			for (size_t i = 0; i < n; i++)
				idx[i] = i;
			for (size_t i = n - 1; i > 0; i--) {
				size_t j = next_random(&seed) % (i + 1), t = idx[i];

				idx[i] = idx[j];
				idx[j] = t;
			}
			for (size_t i = 0; i < n; i++)
				in_b[idx[i]] = i >= h;
			(*out)[m] = split_change(x, in_b, n);
		}
		free(idx);
	}
	free(c);
	free(in_b);
	return m;
}

/* The changes whose boots a side each entry keeps (noise_boots_for()). */
static const int kept_changes[] = { 5, 20 };

/*
 * The entry of one metric from its pooled boot medians; an odd boot out
 * is left out, so that the halves are the same size as compare's sides.
 */
static cJSON *measure_metric(const double *x, size_t n, const char *unit)
{
	struct summary s;
	double *ch, *mag, floor_pct;
	size_t m = split_changes(x, n - n % 2, &ch), k = 0;
	cJSON *e;

	mag = xcalloc(m, sizeof(*mag));
	for (size_t i = 0; i < m; i++)
		if (!isnan(ch[i]))
			mag[k++] = fabs(ch[i]);
	if (!k) {
		free(ch);
		free(mag);
		return NULL;
	}
	for (size_t i = 0, j = 0; i < m; i++)
		if (!isnan(ch[i]))
			ch[j++] = ch[i];
	qsort(ch, k, sizeof(*ch), cmp_double);
	qsort(mag, k, sizeof(*mag), cmp_double);
	floor_pct = quantile(mag, k, 0.95);
	e = cJSON_CreateObject();
	summarize(x, n, &s);
	cJSON_AddStringToObject(e, "unit", unit);
	cJSON_AddNumberToObject(e, "boots_per_side", (double)(n / 2));
	cJSON_AddNumberToObject(e, "sd_log", s.stddev);
	cJSON_AddNumberToObject(e, "splits", (double)k);
	cJSON_AddNumberToObject(e, "change_pct_p2.5", quantile(ch, k, 0.025));
	cJSON_AddNumberToObject(e, "change_pct_median", quantile(ch, k, 0.5));
	cJSON_AddNumberToObject(e, "change_pct_p97.5", quantile(ch, k, 0.975));
	cJSON_AddNumberToObject(e, "abs_change_pct_max", mag[k - 1]);
	cJSON_AddNumberToObject(e, "floor_pct", floor_pct);
	/* Kept, not left to readers to recompute: the file says what to run. */
	for (size_t i = 0; i < ARRAY_SIZE(kept_changes); i++) {
		int b = noise_boots_needed(s.stddev, floor_pct, (int)(n / 2), kept_changes[i], 0.05);
		char key[32];

		boots_key(key, sizeof(key), kept_changes[i]);
		if (b < 0)
			cJSON_AddNullToObject(e, key);
		else
			cJSON_AddNumberToObject(e, key, b);
	}
	free(ch);
	free(mag);
	return e;
}

/* The files must be A/A: one variant, workload and accelerator. */
static int same_setup(const char *const *paths, const struct run_id *ids, const cJSON *const *docs,
		      int n)
{
	for (int r = 1; r < n; r++) {
		if (strcmp(ids[r].variant, ids[0].variant))
			return error("noise: %s is variant %s, %s is %s: an A/A needs one variant",
				     paths[r], ids[r].variant, paths[0], ids[0].variant);
		if (strcmp(ids[r].accel, ids[0].accel))
			return error("noise: %s ran under %s, %s under %s", paths[r], ids[r].accel,
				     paths[0], ids[0].accel);
		if (!(ids[r].cpus == ids[0].cpus || (isnan(ids[r].cpus) && isnan(ids[0].cpus))))
			return error("noise: %s has %.0f CPUs, %s %.0f: an A/A needs one guest",
				     paths[r], ids[r].cpus, paths[0], ids[0].cpus);
		if (strcmp(run_workload(docs[r]), run_workload(docs[0])) ||
		    run_nr_tests(docs[r]) != run_nr_tests(docs[0]))
			return error("noise: %s and %s ran different workloads", paths[0], paths[r]);
	}
	return 0;
}

/* The boot medians of metric @name of test @t, pooled over the files. */
static size_t pooled(const cJSON *const *docs, int n, int t, const char *name, double **out)
{
	size_t total = 0;

	*out = NULL;
	for (int r = 0; r < n; r++) {
		const cJSON *m = test_metric(run_test(docs[r], t), name);
		double *x, within;
		size_t k;

		if (!m)
			continue;
		k = metric_boot_medians(m, &x, &within);
		/* Changes are ratios of geometric means, as compare's on a log row. */
		for (size_t i = 0; i < k; i++)
			x[i] = x[i] > 0 ? log(x[i]) : NAN;
		*out = xrealloc(*out, (total + k + 1) * sizeof(**out));
		memcpy(*out + total, x, k * sizeof(*x));
		total += k;
		free(x);
	}
	return total;
}

int noise_measure(cJSON *noise, const char *const *paths, const cJSON *const *docs, int n)
{
	struct run_id *ids = run_ids(paths, docs, n);
	cJSON *accel, *tests, *runs, *run, *files;
	int measured = 0, boots = 0;
	char stamp[32], cpus[32];
	time_t now = time(NULL);

	if (same_setup(paths, ids, docs, n)) {
		run_ids_free(ids, n);
		return -1;
	}
	for (int r = 0; r < n; r++)
		boots += run_nr_boots(docs[r]);
	accel = json_child(json_child(noise, "accels"), ids[0].accel);
	cpus_key(cpus, sizeof(cpus), ids[0].cpus);
	tests = json_child(json_child(json_child(accel, "cpus"), cpus), "tests");
	for (int t = 0; t < run_nr_tests(docs[0]); t++) {
		const cJSON *test = run_test(docs[0], t), *m;
		cJSON *metrics = NULL;

		cJSON_ArrayForEach(m, test_metrics(test)) {
			enum metric_kind kind;
			cJSON *e;
			double *x;
			size_t k;

			/* Only what compare tests has a floor. */
			if (metric_kind(metric_unit(m), &kind) || kind != KIND_TIME)
				continue;
			k = pooled(docs, n, t, m->string, &x);
			if (k < NOISE_MIN_BOOTS) {
				free(x);
				error("noise: %s: test %d: %s has %zu boots: an A/A needs %d or more "
				      "(--boots)", paths[0], t + 1, m->string, k, NOISE_MIN_BOOTS);
				run_ids_free(ids, n);
				return -1;
			}
			e = measure_metric(x, k, metric_unit(m));
			free(x);
			if (!e)
				continue;
			cJSON_AddStringToObject(e, "variant", ids[0].variant);
			cJSON_AddNumberToObject(e, "cpus", ids[0].cpus);
			if (!metrics)
				metrics = json_child(tests, test_spec(test));
			cJSON_DeleteItemFromObjectCaseSensitive(metrics, m->string);
			cJSON_AddItemToObject(metrics, m->string, e);
			measured++;
		}
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	runs = cJSON_GetObjectItemCaseSensitive(accel, "runs");
	if (!runs)
		runs = cJSON_AddArrayToObject(accel, "runs");
	run = cJSON_CreateObject();
	cJSON_AddStringToObject(run, "created", stamp);
	cJSON_AddStringToObject(run, "variant", ids[0].variant);
	cJSON_AddStringToObject(run, "cpus", cpus);
	cJSON_AddStringToObject(run, "workload", run_workload(docs[0]));
	cJSON_AddNumberToObject(run, "boots", boots);
	cJSON_AddNumberToObject(run, "metrics", measured);
	files = cJSON_AddArrayToObject(run, "files");
	for (int r = 0; r < n; r++)
		cJSON_AddItemToArray(files, cJSON_CreateString(paths[r]));
	cJSON_AddItemToArray(runs, run);
	run_ids_free(ids, n);
	return measured;
}
