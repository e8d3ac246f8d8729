// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the report's memory: the census's answer and its 30%
 * verdict, /proc/meminfo after boot, the caches that differ, the
 * census's own checks, and the memory per live object.
 */
#define _GNU_SOURCE
#include "check.h"
#include "report_check.h"
#include "census_fixture.h"
#include "compare.h"
#include "report.h"
#include "slabmem.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

/* Real results of the default workload on the slab and slub guests (TCG), one boot each. */
static const char *const default_paths[] = {
	"tests/data/report-slab.json", "tests/data/report-slub.json",
};

/* The report of fixtures @fs (the first two compared) at @phase; NULL if it failed. */
static char *census_report(const struct fixture *fs, int n, const char *phase)
{
	static const char *const paths[] = { "a.json", "b.json" };
	struct comparison c = { 0 };
	cJSON **docs = xcalloc(n, sizeof(*docs));
	char *text = NULL, *copy, *line, *save = NULL;
	int over = 0;

	for (int i = 0; i < n; i++)
		docs[i] = fixture_doc(&fs[i]);
	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, n, phase);
	copy = xstrdup(text ? text : "");
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		over += strlen(line) > REPORT_WIDTH;
	CHECK(text && !over, "census report: written, no line over 72 bytes (%d are)", over);
	free(copy);
	compare_free(&c);
	compare_unload(docs, n);
	return text;
}

/*
 * SLAB at 1 CPU, one boot, against SLUB, three: 49 pages (Slab 0.19 MiB)
 * against 49, 50 and 49; overheads 27488 against 26480, 30576 and 26480
 * (their structures, 1424 and 640 bytes, beyond live objects).
 */
static void test_census_few_boots(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 1, 1, 1, NULL, 0, false }, { "slub", "SLUB", 1, 1, 3, NULL, 0, false },
	};
	char *text = census_report(fs, 2, NULL);

	CHECK(says(text, "From the slab census at 'after' with 1 CPU (2 and 2 caches; means of "
		   "1 and 3 boots), slub held x1.00 the slab and per-CPU memory (Slab + Percpu) "
		   "of slab and x1.01 its "
		   "bytes beyond live objects; no confidence interval, which needs 5 boots a "
		   "side."), "census report: the ratios with fewer than 5 boots, and why no interval");
	CHECK(says(text, "At 1 CPU the 30% is inconclusive in slab and per-CPU memory: slub held "
		   "0.59 MiB against 0.59 MiB for slab, x1.00, with no interval (5 boots a side "
		   "needed). In bytes beyond live objects it is inconclusive: x1.01, with no "
		   "interval"),
	      "census report: without an interval the 30%% is inconclusive, with the numbers");
	CHECK(says(text, "1 2/2 1/3 Slab 0.19 0.19 x1.01 -"),
	      "census report: the table, no interval");
	CHECK(says(text, "95% CI -: none, a side has fewer boots than that."),
	      "census report: the table says why no interval");
	free(text);
}

static void test_census_interval(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 4, 1, 6, "t2.0s", 0, false }, { "slub", "SLUB", 4, 1, 5, "t2.0s", 30, false },
	};
	cJSON *docs[] = { fixture_doc(&fs[0]), fixture_doc(&fs[1]) };
	struct slabmem_point *p;
	struct summary a, b;
	double lo, hi;
	char *want, *text = census_report(fs, 2, NULL);

	/* The interval is that of the percent change, as compare gives it. */
	slabmem_points((const cJSON *const *)docs, 2, "t2.0s", &p);
	slabmem_summary(&p[0], offsetof(struct slabmem, slab_percpu), &a);
	slabmem_summary(&p[1], offsetof(struct slabmem, slab_percpu), &b);
	percent_change_ci(&a, &b, 0.05, &lo, &hi);
	want = xasprintf("From the slab census at 't2.0s' with 4 CPUs (2 and 2 caches; means of "
			 "6 and 5 boots), slub held x%.2f (95%% CI x%.2f to x%.2f) the slab "
			 "and per-CPU memory (Slab + Percpu) of slab", b.mean / a.mean, 1 + lo / 100, 1 + hi / 100);
	CHECK(lo < hi && says(text, want),
	      "census report: the ratio with its 95%% interval, in the held phase by default");
	CHECK(1 + lo / 100 > 1.3 && says(text, "At 4 CPUs the 30% appears in slab and per-CPU "
					  "memory") && says(text, "above x1.30"),
	      "census report: the 30%% appears where the whole interval is above x1.30 (from "
	      "x%.2f)", 1 + lo / 100);
	CHECK(says(text, "Subject: [slabbench] slub vs slab: slab and per-CPU memory x1.69 (95% "
		   "CI x"), "census report: the memory result in the subject, with its interval");
	free(want);
	free(text);
	text = census_report(fs, 2, "after");
	CHECK(says(text, "From the slab census at 'after' with 4 CPUs"), "census report: --phase");
	free(text);
	slabmem_points_free(p, 2);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/* Boots that all count the same: an interval of nothing, said so. */
static void test_census_steady(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 1, 1, 5, NULL, 0, true }, { "slub", "SLUB", 1, 1, 5, NULL, 0, true },
	};
	char *text = census_report(fs, 2, NULL);

	CHECK(says(text, "slub held x0.99 (the same in every boot) the slab and per-CPU memory"),
	      "census report: no spread over boots, said so");
	CHECK(says(text, "At 1 CPU the 30% does not appear in slab and per-CPU memory") &&
	      says(text, "x0.99 (the same in every boot), below x1.30"),
	      "census report: the same in every boot and below x1.30: does not appear");
	CHECK(says(text, "1 2/2 5/5 Slab 0.19 0.19 x1.00 1.00-1.00"),
	      "census report: the table's interval of nothing");
	free(text);
}

/*
 * /proc/meminfo after boot over every boot: slab's Slab 1000 to 1040 kB
 * (mean 1020), slub's 1200 to 1240 (1220), SUnreclaim 100 kB less,
 * Percpu 100 and 150 kB in every boot.
 */
static void test_after_boot(void)
{
	static const char *const paths[] = { "a.json", "b.json" };
	const struct fixture fs[] = {
		{ "slab", "SLAB", 1, 1, 5, NULL, 0, false }, { "slub", "SLUB", 1, 1, 5, NULL, 0, false },
	};
	struct comparison c = { 0 };
	cJSON *docs[2];
	char *text = NULL;

	for (int r = 0; r < 2; r++) {
		docs[r] = fixture_doc(&fs[r]);
		for (int b = 0; b < 5; b++) {
			cJSON *boot = cJSON_GetArrayItem(cJSON_GetObjectItem(docs[r], "boots"), b);
			cJSON *m = cJSON_AddObjectToObject(cJSON_AddObjectToObject(
				cJSON_GetObjectItem(boot, "snapshots"), "before"), "meminfo");

			cJSON_AddNumberToObject(m, "Slab", 1000 + 200 * r + 10 * b);
			cJSON_AddNumberToObject(m, "SUnreclaim", 900 + 200 * r + 10 * b);
			cJSON_AddNumberToObject(m, "Percpu", 100 + 50 * r);
		}
	}
	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "After boot (/proc/meminfo, kB, means of 5 and 5 boots; ratio slub/slab"),
	      "after boot: means over every boot, not boot 0's figures");
	CHECK(says(text, "slab 1020 920 100 1120 slub 1220 1120 150 1370 "
		   "ratio x1.20 x1.22 x1.50 x1.22 95% CI 1.") &&
	      says(text, " no spread 1.") && says(text, "No spread: the same in every boot"),
	      "after boot: the means, their ratios and intervals, and Percpu's lack of spread");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[1]);
	cJSON_DeleteItemFromArray(cJSON_GetObjectItem(docs[0], "boots"), 4);
	cJSON_DeleteItemFromArray(cJSON_GetObjectItem(docs[0], "boots"), 3);
	cJSON_DeleteItemFromArray(cJSON_GetObjectItem(docs[0], "boots"), 2);
	docs[1] = fixture_doc(&fs[1]);
	text = NULL;
	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "(no /proc/meminfo after boot in these results)"),
	      "after boot: a side without it, said so");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/* Guests with more possible CPUs than online ones say so, and how to get them again. */
static void test_possible_cpus(void)
{
	static const char *const paths[] = { "a.json", "b.json" };
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 1, NULL, 0, false }, { "slub", "SLUB", 2, 1, 1, NULL, 0, false },
	};
	struct comparison c = { 0 };
	cJSON *docs[2];
	char *text = NULL;

	for (int r = 0; r < 2; r++) {
		docs[r] = fixture_doc(&fs[r]);
		cJSON_AddNumberToObject(cJSON_GetObjectItem(docs[r], "vm"), "possible_cpus", 8);
		cJSON_AddNumberToObject(cJSON_GetObjectItem(docs[r], "vm"), "jobs", 2);
		cJSON_AddStringToObject(cJSON_GetObjectItem(docs[r], "vm"), "cpu_model", "Haswell-v4");
	}
	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "From the slab census at 'after' with 2 CPUs (8 possible) ("),
	      "possible CPUs: the census sentence names them");
	CHECK(says(text, "base guest 2 vCPUs (8 possible), 512 MB") &&
	      says(text, "--cpus=2 --possible-cpus=8 --mem=512 \\ --cpu-model=Haswell-v4 "
			 "--boots=1 --jobs=2 -o out"),
	      "possible CPUs, guests at once and the CPU model: in the setup and in the command "
	      "that reproduces the run");
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/* Two sets across CPUs and nodes; and two SLUBs, of which no 30% is claimed. */
static void test_census_sets(void)
{
	const struct fixture sweep[] = {
		{ "slab", "SLAB", 2, 1, 1, NULL, 0, false }, { "slub", "SLUB", 2, 1, 1, NULL, 0, false },
		{ "slub", "SLUB", 8, 1, 1, NULL, 0, false }, { "slab", "SLAB", 8, 1, 1, NULL, 0, false },
		{ "slab", "SLAB", 16, 1, 1, NULL, 0, false },
		{ "slab", "SLAB", 4, 2, 1, NULL, 0, false }, { "slub", "SLUB", 4, 2, 1, NULL, 0, false },
	};
	const struct fixture slubs[] = {
		{ "slub", "SLUB", 2, 1, 1, NULL, 0, false }, { "slub-6.12", "SLUB", 2, 1, 1, NULL, 0, false },
	};
	char *text = census_report(sweep, 7, NULL);
	char *at2 = text ? strstr(text, "\n      2     2/2") : NULL;
	char *at8 = text ? strstr(text, "\n      8     2/2") : NULL;

	CHECK(at2 && at8 && at2 < at8 && !strstr(text, "\n     16 "),
	      "census report: a block per CPU count both sides have, fewest first");
	CHECK(says(text, "At 2 CPUs the 30% is inconclusive") &&
	      says(text, "At 8 CPUs the 30% is inconclusive"),
	      "census report: the verdict at each count (one boot: no interval)");
	CHECK(says(text, " 4/2 2/2 1/1 Slab ") && says(text, "CPUs 8/2: 8 CPUs on 2 NUMA nodes.") &&
	      says(text, "At 4 CPUs on 2 nodes the 30% is inconclusive"),
	      "census report: NUMA guests apart, and said so");
	CHECK(says(text, "Subject: [slabbench] slub vs slab at 2 CPUs (8 and 4 under"),
	      "census report: the subject says its figures are the first CPU count's, and which "
	      "other counts have both sides");
	CHECK(says(text, "--cpus=2,8,16,4 --mem=512"),
	      "census report: the command that reproduces it runs every CPU count");
	free(text);
	text = census_report(slubs, 2, NULL);
	CHECK(says(text, "slub-6.12 held x") && !strstr(text, "30%"),
	      "census report: the 30%% is SLUB's against SLAB's only");
	free(text);
}

/*
 * An interval that holds x1.30: SLUB with 25 more empty slabs a CPU at 2
 * CPUs holds x1.30 (95% CI x1.29 to x1.30) of SLAB's: neither verdict.
 */
static void test_census_inconclusive(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 6, "t2.0s", 0, false }, { "slub", "SLUB", 2, 1, 5, "t2.0s", 25, false },
	};
	char *text = census_report(fs, 2, NULL);

	CHECK(says(text, "At 2 CPUs the 30% is inconclusive in slab and per-CPU memory") &&
	      says(text, "an interval that holds x1.30"),
	      "census report: an interval across x1.30 is inconclusive, with its numbers");
	free(text);
}

/*
 * Known answers of the census's own checks under the table: every boot's
 * identities held, "exact in 4 of 4"; slub's boot 0 read by a census that
 * a race misled (kmalloc-64's live -1, as the kernel prints it, never
 * clamped): "off in 1", with its residuals.
 */
static void test_census_residuals(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 2, NULL, 0, false }, { "slub", "SLUB", 2, 1, 2, NULL, 0, false },
	};
	cJSON *docs[] = { fixture_doc(&fs[0]), fixture_doc(&fs[1]) }, *kmalloc64;
	char *text = census_report(fs, 2, NULL);

	CHECK(says(text, "The census at 'after': its own identities exact in 4 of 4 boots."),
	      "census report: exact only where every identity held, and here all did");
	free(text);
	kmalloc64 = cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive((cJSON *)boot_census(docs[1], 0, "after"), "caches"), 0);
	cJSON_ReplaceItemInObject(kmalloc64, "live", cJSON_CreateNumber(-1));
	text = report_of(docs);
	/* 18 slabs of 64: 1152 objects; -1 live + 20 + 40 CPU + 28 partial + 64 empty free. */
	CHECK(says(text, "its own identities exact in 3 of 4 boots, off in 1; residuals: slub boot 0: "
		   "objects: kmalloc-64: objects=1152, but live and free_* add up to 151 "
		   "(residual +1001)"), "census report: the race's boot off, its residual listed");
	CHECK(says(text, "slub boot 0: lists: kmalloc-64: live=-1, below zero"),
	      "census report: the negative live shown as it is");
	free(text);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/*
 * Where a difference sits, by cache: a cache only the new side has
 * (512 pages, 2 MiB, in each of its boots) comes first, with "-" for the
 * side that lacks it; every cache's change agrees with the census's own
 * page totals plus that cache.
 */
/* Adds the cache "only-new", 512 pages, to each boot of the second of @docs; @total their pages. */
static void add_only_new(cJSON *const *docs, double *total)
{
	for (int r = 0; r < 2; r++) {
		for (int b = 0; b < 2; b++) {
			cJSON *census = (cJSON *)boot_census(docs[r], b, "after"), *only;

			total[r] += census_total(census, "pages") / 2;
			if (!r)
				continue;
			only = cJSON_CreateObject();
			cJSON_AddStringToObject(only, "name", "only-new");
			cJSON_AddNumberToObject(only, "pages", 512);
			cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(census, "caches"), only);
		}
	}
}

static void test_cache_differences(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 2, NULL, 0, false }, { "slub", "SLUB", 2, 1, 2, NULL, 0, false },
	};
	cJSON *docs[] = { fixture_doc(&fs[0]), fixture_doc(&fs[1]) };
	double total[2] = { 0, 0 };
	char *want, *text;

	add_only_new(docs, total);
	text = report_of(docs);
	CHECK(says(text, "The caches whose slab pages differ most at 'after' (MiB, means over 2 "
		   "and 2 boots;") && says(text, "cache slab slub change only-new - 2.00 +2.00 "),
	      "census report: the cache that differs most first, '-' where a side lacks it");
	want = xasprintf("every cache %+.2f", ((total[1] - total[0]) * 4096 + 2 * SLABMEM_MIB) /
			 SLABMEM_MIB);
	CHECK(says(text, want), "census report: '%s', as the census's page totals give it", want);
	free(want);
	free(text);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/*
 * Bisect's variants, bisect-COMMIT, are names too long for two columns in
 * 72: the table heads them "base" and "new" and names them below.
 */
static void test_cache_differences_long_names(void)
{
	static const char *const paths[] = { "a.json", "b.json" };
	const struct fixture fs[] = {
		{ "bisect-07044709954b", "SLUB", 2, 1, 2, NULL, 0, false },
		{ "bisect-9d09a92d2e6c", "SLUB", 2, 1, 2, NULL, 0, false },
	};
	cJSON *docs[] = { fixture_doc(&fs[0]), fixture_doc(&fs[1]) };
	struct comparison c = { 0 };
	double total[2] = { 0, 0 };
	char *text = NULL, *line, *save = NULL;
	int over = 0;

	add_only_new(docs, total);
	if (!compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, NULL, NULL))
		text = report_text(&c, (const cJSON *const *)docs, 2, NULL);
	CHECK(says(text, "cache base new change base: bisect-07044709954b new: "
		   "bisect-9d09a92d2e6c only-new - 2.00 +2.00"),
	      "cache differences: long names head their columns as base and new, named below");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		over += strlen(line) > REPORT_WIDTH;
	CHECK(text && !over, "cache differences: no line over 72 bytes with long names (%d are)",
	      over);
	free(text);
	compare_free(&c);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

/* The SLUB note under hit rates: said once, though four tests have the rows it concerns. */
static void test_note_once(void)
{
	cJSON **docs = compare_load(default_paths, 2, false);
	char *text = docs ? report_of(docs) : NULL;
	const char *p = text;
	int n = 0;

	while (p && (p = strstr(p, "SLUB's free miss is __slab_free()")))
		n++, p++;
	CHECK(n == 1, "report: the SLUB note once (%d times)", n);
	free(text);
	compare_unload(docs, 2);
}

/* Sets the mean of overhead test @t's metric @name in @doc. */
static void set_mean(cJSON *doc, int t, const char *name, double v)
{
	cJSON *m = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
		cJSON_GetObjectItem(doc, "tests"), t), "metrics"), name);

	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(m, "summary"), "mean",
				  cJSON_CreateNumber(v));
}

/*
 * Counter readings below zero (slub's idle bytes -0.2 per object, slab's
 * pages after shrink -3): shown as 0 and said with their readings and
 * cause; one that rounds to zero (-0.4 and -0.3 pages) is a plain 0.
 */
static void test_below_zero(void)
{
	cJSON **docs = compare_load(default_paths, 2, false);
	char *text, *table;

	if (!docs)
		return;
	set_mean(docs[1], 12, "idle_bytes_per_object", -0.2);
	set_mean(docs[1], 12, "held_after_shrink_pages", -0.4);
	set_mean(docs[0], 12, "held_after_shrink_pages", -3);
	set_mean(docs[0], 12, "held_after_free_pages", -0.3);
	text = report_of(docs);
	CHECK(says(text, "idle slots ") && says(text, " 0* ") &&
	      says(text, "0*: read below zero (slub idle slots -0.2, slab pages after shrink "
		   "-3).") &&
	      says(text, "what a cache holds cannot be less than nothing"),
	      "report: below zero shown as 0, with the readings and why");
	CHECK(says(text, "pages 0 s after free 0 "), "report: -0.3 pages print as 0");
	table = text ? strstr(text, "per live object") : NULL;
	CHECK(table && !strstr(table, "-0 ") && !strstr(table, "-0\n") &&
	      !strstr(table, " -0.0") && !strstr(table, " -0.2 ") && !strstr(table, " -3 "),
	      "report: no negative zero and no figure below zero in the table");
	free(text);
	compare_unload(docs, 2);
}

/* @doc's workload declares itself a bound, as workloads/memory.json does. */
static void bound(cJSON *doc)
{
	cJSON_AddStringToObject(cJSON_GetObjectItem(doc, "workload"), "upper_bound",
				"many private caches, 4 objects each per CPU, held");
}

/* Slab 1000 + 10 b (slab) or 1040 + 10 b (slub) kB and Percpu 100 after boot b. */
static void after_boot(cJSON *doc, int side)
{
	for (int b = 0; b < 5; b++) {
		cJSON *boot = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "boots"), b);
		cJSON *m = cJSON_AddObjectToObject(cJSON_AddObjectToObject(
			cJSON_GetObjectItem(boot, "snapshots"), "before"), "meminfo");

		cJSON_AddNumberToObject(m, "Slab", 1000 + 40 * side + 10 * b);
		cJSON_AddNumberToObject(m, "SUnreclaim", 900);
		cJSON_AddNumberToObject(m, "Percpu", 100);
	}
}

/*
 * A figure of a workload built to bound it: named so in the subject, the
 * summary, the table and the verdict, with the whole kernel after boot
 * (x1.04: 1160 kB against 1120) beside it, and said when that is missing.
 */
static void test_bound(void)
{
	const struct fixture fs[] = {
		{ "slab", "SLAB", 4, 1, 5, "t2.0s", 0, false },
		{ "slub", "SLUB", 4, 1, 5, "t2.0s", 30, false },
	};
	cJSON *docs[] = { fixture_doc(&fs[0]), fixture_doc(&fs[1]) };
	char *text;

	bound(docs[0]);
	bound(docs[1]);
	after_boot(docs[0], 0);
	after_boot(docs[1], 1);
	text = report_of(docs);
	CHECK(says(text, "Subject: [slabbench] slub vs slab: slab and per-CPU memory x1.69 (95% "
		   "CI x") && says(text, " in the 'memory' workload, an upper bound; whole kernel "
				   "after boot x1.04 (95% CI x1."),
	      "bound: the subject names the workload, says upper bound, and gives the whole "
	      "kernel beside it");
	CHECK(says(text, "From the slab census at 't2.0s' of the 'memory' workload, an upper "
		   "bound (many private caches, 4 objects each per CPU, held), with 4 CPUs"),
	      "bound: the summary's census sentence says so");
	CHECK(says(text, "Beside the bound, the whole kernel after boot (/proc/meminfo Slab + "
		   "Percpu of the runs compared, 5 and 5 boots): slub held x1.04 (95% CI x1."),
	      "bound: the representative answer beside it, attributed");
	CHECK(says(text, "Slab memory from the census at 't2.0s' of the 'memory' workload (an "
		   "upper bound: many private caches, 4 objects each per CPU, held; MiB"),
	      "bound: the memory section's table names it");
	CHECK(says(text, "At 4 CPUs, in the 'memory' workload's upper bound, the 30% appears"),
	      "bound: and so does the 30%% verdict");
	free(text);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	docs[0] = fixture_doc(&fs[0]);
	docs[1] = fixture_doc(&fs[1]);
	bound(docs[1]);
	text = report_of(docs);
	CHECK(says(text, "x1.69 (95% CI x") && says(text, " in the 'memory' workload, an upper "
						      "bound") && !strstr(text, "whole kernel after") &&
	      says(text, "These results hold no whole-kernel figure to set beside the bound"),
	      "bound: one side's workload bounds it; no whole-kernel figure, said so");
	free(text);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	docs[0] = fixture_doc(&fs[0]);
	docs[1] = fixture_doc(&fs[1]);
	text = report_of(docs);
	CHECK(text && !strstr(text, "upper bound"), "bound: no bound where no workload says so");
	free(text);
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
}

int main(void)
{
	test_census_inconclusive();
	test_census_few_boots();
	test_census_interval();
	test_census_steady();
	test_census_sets();
	test_after_boot();
	test_possible_cpus();
	test_census_residuals();
	test_cache_differences();
	test_cache_differences_long_names();
	test_note_once();
	test_below_zero();
	test_bound();
	return check_done();
}
