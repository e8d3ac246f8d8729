// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the noise floor: A/A splits with known answers, the file, refusals. */
#define _GNU_SOURCE
#include "check.h"
#include "noise.h"
#include "results.h"
#include "timed_fixture.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* Variant @variant under tcg: test=fastpath, ns_per_op with one sample per boot, and a count. */
static cJSON *aa_doc(const char *variant, const double *x, int n)
{
	cJSON *metrics, *doc = fixture_timed_doc(variant, "tcg", &metrics), *boots, *c;

	fixture_metric(metrics, "ns_per_op", "ns", "lower", x, n);
	c = cJSON_AddObjectToObject(metrics, "objects");
	cJSON_AddStringToObject(c, "unit", "objects");
	cJSON_AddStringToObject(c, "better", "higher");
	cJSON_AddItemToObject(c, "samples", cJSON_CreateDoubleArray(x, n));
	boots = cJSON_AddArrayToObject(doc, "boots");
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(boots, cJSON_CreateObject());
	return doc;
}

static double entry_num(const cJSON *noise, const char *key)
{
	const cJSON *e = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
		cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
		noise, "accels"), "tcg"), "cpus"), "2"), "tests"), "test=fastpath"), "ns_per_op"), key);

	return cJSON_IsNumber(e) ? e->valuedouble : NAN;
}

/*
 * Boot medians 100, 100, 110, 110: the three splits with boot 0 in the
 * first half change by +10%, 0 and 0; the 95th percentile of 0, 0, 10
 * (type 7) is 9.
 */
static void test_known_splits(void)
{
	const double x[] = { 100, 100, 110, 110 };
	const char *paths[] = { "a.json" };
	cJSON *doc = aa_doc("slub", x, 4), *noise = noise_new();
	int k = 0;

	CHECK(noise_measure(noise, paths, (const cJSON *const *)&doc, 1) == 1,
	      "noise: one time metric measured, the count left out");
	CHECK(entry_num(noise, "splits") == 3 && entry_num(noise, "boots_per_side") == 2,
	      "noise: 4 boots, 3 splits of 2 a side");
	CHECK_NEAR(entry_num(noise, "abs_change_pct_max"), 10, 1e-9, "noise: the largest change is 10%%");
	CHECK_NEAR(noise_floor(noise, "tcg", 2, "test=fastpath", "ns_per_op", &k), 9, 1e-9,
		   "noise: the floor is the 95th percentile of |change|, 9%%");
	CHECK(k == 2, "noise: measured between halves of 2 boots");
	/* The logarithms of 100, 100, 110, 110: sd = log(1.1) / sqrt(3). */
	CHECK_NEAR(entry_num(noise, "sd_log"), log(1.1) / sqrt(3), 1e-12,
		   "noise: the spread of the boots' logarithms is kept");
	CHECK(isnan(noise_floor(noise, "kvm", 2, "test=fastpath", "ns_per_op", &k)) &&
	      isnan(noise_floor(noise, "tcg", 4, "test=fastpath", "ns_per_op", &k)) &&
	      isnan(noise_floor(noise, "tcg", 2, "test=fastpath", "objects", &k)) &&
	      isnan(noise_floor(NULL, "tcg", 2, "test=fastpath", "ns_per_op", &k)),
	      "noise: no floor for another accelerator, CPU count, a count, or no file");
	cJSON_Delete(doc);
	cJSON_Delete(noise);
}

/* Two files of one variant pool their boots; a new measurement replaces the entry. */
static void test_pooled(void)
{
	const double a[] = { 100, 100, 100 }, b[] = { 100, 100, 100 };
	const char *paths[] = { "a.json", "b.json" };
	cJSON *docs[] = { aa_doc("slub", a, 3), aa_doc("slub", b, 3) };
	cJSON *noise = noise_new(), *runs;

	cJSON_AddNumberToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(
		cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(
		cJSON_GetObjectItem(noise, "accels"), "tcg"), "cpus"), "2"), "tests"),
		"test=fastpath"), "ns_per_op"), "floor_pct", 50);
	CHECK(noise_measure(noise, paths, (const cJSON *const *)docs, 2) == 1,
	      "noise: two files measured together");
	CHECK(entry_num(noise, "splits") == 10 && entry_num(noise, "boots_per_side") == 3,
	      "noise: 6 boots pooled, C(5, 2) = 10 splits");
	CHECK(noise_floor(noise, "tcg", 2, "test=fastpath", "ns_per_op", &(int){ 0 }) == 0,
	      "noise: the same every boot, a floor of 0 replaces the old 50");
	runs = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(noise, "accels"), "tcg"), "runs");
	CHECK(cJSON_GetArraySize(runs) == 1 &&
	      cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 0), "files")) == 2,
	      "noise: the measurement is recorded with its files");
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	cJSON_Delete(noise);
}

static void test_refusals(void)
{
	const double x[] = { 100, 101, 102 };
	const char *paths[] = { "a.json", "b.json" };
	cJSON *docs[] = { aa_doc("slub", x, 3), aa_doc("slab", x, 3) };
	cJSON *noise = noise_new();

	CHECK(noise_measure(noise, paths, (const cJSON *const *)docs, 2) == -1,
	      "noise: two variants are no A/A");
	CHECK(noise_measure(noise, paths, (const cJSON *const *)docs, 1) == -1,
	      "noise: 3 boots are too few");
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	cJSON_Delete(noise);
}

/* Many boots: splits are sampled, the same on every run. */
static void test_sampled(void)
{
	double x[20];
	const char *paths[] = { "a.json" };
	cJSON *doc, *n1 = noise_new(), *n2 = noise_new();

	for (int i = 0; i < 20; i++)
		x[i] = 100 + (i * 7) % 11;
	doc = aa_doc("slub", x, 20);
	CHECK(noise_measure(n1, paths, (const cJSON *const *)&doc, 1) == 1 &&
	      noise_measure(n2, paths, (const cJSON *const *)&doc, 1) == 1, "noise: 20 boots measured");
	CHECK(entry_num(n1, "splits") == NOISE_MAX_SPLITS, "noise: C(19, 9) splits sampled down to 5000");
	CHECK(entry_num(n1, "floor_pct") == entry_num(n2, "floor_pct") &&
	      entry_num(n1, "floor_pct") > 0, "noise: the sampled floor is reproducible");
	for (int pct = 5; pct <= 20; pct += 15) {
		int kept = noise_boots_for(n1, "tcg", 2, "test=fastpath", "ns_per_op", pct);
		int again = noise_boots_needed(entry_num(n1, "sd_log"), entry_num(n1, "floor_pct"),
					       10, pct, 0.05);

		CHECK(kept != 0 && kept == again,
		      "noise: the boots a %d%% change needs are kept (%d)", pct, kept);
	}
	CHECK(noise_boots_for(n1, "tcg", 2, "test=fastpath", "ns_per_op", 20) <=
	      noise_boots_for(n1, "tcg", 2, "test=fastpath", "ns_per_op", 5),
	      "noise: a larger change needs no more boots");
	CHECK(noise_boots_for(n1, "tcg", 4, "test=fastpath", "ns_per_op", 20) == 0,
	      "noise: none kept at a CPU count not measured");
	cJSON_Delete(doc);
	cJSON_Delete(n1);
	cJSON_Delete(n2);
}

static void test_file(void)
{
	char dir[] = "/tmp/sbnoise-XXXXXX", *path, *bad;
	bool missing;
	cJSON *n;

	CHECK(mkdtemp(dir) != NULL, "noise: scratch directory");
	path = xasprintf("%s/noise.json", dir);
	bad = xasprintf("%s/bad.json", dir);
	CHECK(!noise_load(path, &missing) && missing, "noise: no file is missing, not an error");
	write_file_atomic(bad, "{\"schema\": 2}", 13);
	CHECK(!noise_load(bad, &missing) && !missing, "noise: another schema is an error");
	write_file_atomic(path, "{\"schema\": 1, \"accels\": {}}", 27);
	CHECK(!noise_load(path, &missing) && missing,
	      "noise: a file of schema 1 (no CPU counts) is not used, as if missing");
	write_file_atomic(path, "{\"schema\": 2, \"accels\": {}}", 27);
	n = noise_load(path, &missing);
	CHECK(n && !missing, "noise: an empty floor file loads");
	cJSON_Delete(n);
	unlink(bad);
	free(bad);
	setenv("SLABBENCH_NOISE", path, 1);
	bad = noise_path();
	CHECK(!strcmp(bad, path), "noise: $SLABBENCH_NOISE names the file");
	unlink(path);
	rmdir(dir);
	free(bad);
	free(path);
}

/*
 * The scaling: a floor of k boots a side at k against k is itself; at
 * 4k against 4k its logarithm halves; fewer boots raise it.
 */
static void test_scaled(void)
{
	double f = noise_floor_scaled(44, 5, 20, 20);

	CHECK_NEAR(noise_floor_scaled(44, 5, 5, 5), 44, 1e-9, "noise: the floor at its own boots");
	CHECK_NEAR(f, 100 * (sqrt(1.44) - 1), 1e-9, "noise: 4 times the boots halve its log (x1.44 to x1.2)");
	CHECK(noise_floor_scaled(44, 5, 3, 3) > 44, "noise: fewer boots, a higher floor");
}

/*
 * Boots needed: with the boots' logarithms spread by 0.3 (TCG) and no
 * floor, n a side find a change of 20% when (t(0.975, df) + t(0.8, df))
 * 0.3 sqrt(2/n) <= log(1.2) = 0.18232, df = 2n - 2: n = 44 ((1.9879 +
 * 0.8458) 0.3 sqrt(2/44) = 0.18125 at 86 df; 43 give 0.18339).
 */
static void test_boots_needed(void)
{
	int n = noise_boots_needed(0.3, NAN, 0, 20, 0.05);

	CHECK(n == 44, "noise: 44 boots a side find 20%% at a spread of 0.3 (got %d)", n);
	CHECK(noise_boots_needed(0.3, 44, 5, 20, 0.05) >= n,
	      "noise: a floor never lowers the boots needed");
	CHECK(noise_boots_needed(0.3, NAN, 0, 0.001, 0.05) == -1,
	      "noise: a change too small for any number of boots");
}

int main(void)
{
	test_scaled();
	test_boots_needed();
	test_known_splits();
	test_pooled();
	test_refusals();
	test_sampled();
	test_file();
	return check_done();
}
