// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of compare: boots as the unit, changes, significance marks
 * (Benjamini-Hochberg, the noise floor, too few boots), metric kinds,
 * refusals, warnings, golden text.
 */
#define _GNU_SOURCE
#include "check.h"
#include "compare_fixture.h"
#include "compare.h"
#include "noise.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

/* The first other run's figures for the first metric, in compare's JSON. */
static cJSON *first_cell(cJSON *j)
{
	cJSON *test = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "tests"), 0);
	cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(test, "metrics"), 0);

	return cJSON_GetArrayItem(cJSON_GetObjectItem(m, "runs"), 0);
}

/* Whether @text has @want once wrapped lines are joined (a newline and its indent: a blank). */
static bool says(const char *text, const char *want)
{
	char *flat = xstrdup(text), *o = flat;
	bool ret;

	for (const char *p = text; *p; p++) {
		if (*p != '\n') {
			*o++ = *p;
			continue;
		}
		*o++ = ' ';
		while (p[1] == ' ')
			p++;
	}
	*o = '\0';
	ret = strstr(flat, want) != NULL;
	free(flat);
	return ret;
}

static const double slow_x[] = { 120, 123, 118, 121, 122 };

static void test_equal(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", base_x, 5);
	struct comparison c;
	char *report;

	CHECK(build(&c, a, b) == 0 && c.nr_rows == 1, "equal samples compared");
	CHECK(c.rows[0].cells[0].tested && c.rows[0].cells[0].w.p == 1, "equal samples: p = 1");
	CHECK(!c.rows[0].cells[0].significant, "equal samples: no significant change");
	CHECK(compare_regressions(&c, 0, &report) == 0 && !*report, "equal samples: no regression");
	CHECK(c.nr_warnings == 0, "same kernel and accelerator: no warning");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void test_regression(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", slow_x, 5);
	struct comparison c;
	const struct cmp_cell *x;
	char *report, *text;

	CHECK(build(&c, a, b) == 0, "a regression compared");
	x = &c.rows[0].cells[0];
	CHECK(x->significant && x->worse && x->w.p < 1e-4,
	      "20%% slower, lower is better: significant and worse");
	/* exp(mean(log(slow_x)) - mean(log(base_x))) - 1, from Python's math.log. */
	CHECK_NEAR(x->pct, 20.79978184670932, 1e-9, "percent change of the geometric means");
	CHECK(x->has_ci && x->ci_lo > 0 && x->ci_hi > x->ci_lo, "its interval excludes 0");
	CHECK(compare_regressions(&c, 10, &report) == 1 && strstr(report, "ns_per_op +20.80% in SLUB"),
	      "--fail-on-regression 10 trips and names the metric");
	free(report);
	CHECK(compare_regressions(&c, 25, &report) == 0, "--fail-on-regression 25 does not");
	free(report);
	text = compare_text(&c);
	CHECK(strstr(text, "+20.80%") && strstr(text, "*worse"), "the table marks it *worse");
	free(text);
	compare_free(&c);

	/* The same data the other way round is an improvement. */
	CHECK(build(&c, b, a) == 0, "reversed compared");
	x = &c.rows[0].cells[0];
	CHECK(x->significant && !x->worse, "faster is better");
	CHECK(compare_regressions(&c, 0, &report) == 0, "an improvement is no regression");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void test_higher_is_better(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "higher", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "higher", slow_x, 5);
	struct comparison c;
	cJSON *j, *cell;
	char *report;

	CHECK(build(&c, a, b) == 0, "higher is better compared");
	CHECK(c.rows[0].cells[0].significant && !c.rows[0].cells[0].worse, "a rise is better");
	CHECK(compare_regressions(&c, 0, &report) == 0, "and no regression");
	free(report);
	j = compare_json(&c);
	cell = first_cell(j);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cell, "improvement")) &&
	      cJSON_IsFalse(cJSON_GetObjectItem(cell, "regression")), "JSON: improvement, no regression");
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(cell, "p")) &&
	      cJSON_IsNumber(cJSON_GetObjectItem(cell, "df")) &&
	      cJSON_GetArraySize(cJSON_GetObjectItem(cell, "change_pct_ci")) == 2,
	      "JSON: p, df and the interval");
	cJSON_Delete(j);
	compare_free(&c);
	CHECK(build(&c, b, a) == 0 && c.rows[0].cells[0].worse && c.rows[0].cells[0].significant,
	      "a fall is worse");
	CHECK(compare_regressions(&c, 10, &report) == 1 && strstr(report, "higher is better"),
	      "and a regression");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void test_workloads(void)
{
	cJSON *a = doc_new("w", "test=fastpath size=64", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("other", "test=fastpath size=64", "SLUB", "lower", base_x, 5);
	cJSON *d = doc_new("w", "test=fastpath size=128", "SLUB", "lower", base_x, 5);
	cJSON *e = doc_new("w", "test=fastpath size=64", "SLUB", "lower", base_x, 5);
	struct comparison c;

	CHECK(build(&c, a, b) == -1, "another workload name is refused");
	compare_free(&c);
	CHECK(build(&c, a, d) == -1, "another spec is refused");
	compare_free(&c);
	cJSON_AddItemToArray(cJSON_GetObjectItem(e, "tests"), cJSON_CreateObject());
	CHECK(build(&c, a, e) == -1, "another number of tests is refused");
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(d);
	cJSON_Delete(e);
}

static void test_one_boot(void)
{
	const double one[] = { 150 };
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", one, 1);
	struct comparison c;
	cJSON *j, *cell;
	char *text, *report, *why;

	CHECK(build(&c, a, b) == 0, "one boot compared");
	CHECK(!c.rows[0].cells[0].tested && !c.rows[0].cells[0].significant &&
	      c.rows[0].cells[0].has_pct && !c.rows[0].cells[0].has_ci,
	      "one boot: a change but no test and no interval");
	CHECK(compare_regressions(&c, 0, &report) == 0, "one boot: never a regression");
	free(report);
	why = compare_untested_why(&c, 1);
	CHECK(why && strstr(why, "SLUB has 1 boot, SLAB 5"), "one boot: the reason names both");
	free(why);
	text = compare_text(&c);
	CHECK(strstr(text, "+50.02%") && strstr(text, "no significance marks: SLUB has 1 boot"),
	      "one boot: the table gives the change and says why it has no mark");
	free(text);
	j = compare_json(&c);
	cell = first_cell(j);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(cell, "p")) &&
	      cJSON_IsFalse(cJSON_GetObjectItem(cell, "tested")),
	      "one boot: JSON p is null");
	cJSON_Delete(j);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* Two boots a side, however different, are too few to test. */
static void test_two_boots(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 2);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", (const double[]){ 200, 201 }, 2);
	struct comparison c;
	const struct cmp_cell *x;

	CHECK(build(&c, a, b) == 0, "two boots compared");
	x = &c.rows[0].cells[0];
	CHECK(!x->tested && !x->significant && isnan(x->q), "two boots a side: no test, no mark");
	CHECK(x->has_pct && x->has_ci && x->ci_lo > 0, "two boots a side: the change and its interval");
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* A boot is its median: one wild repeat in a boot does not move it. */
static void test_boot_medians(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 3);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", base_x, 3);
	cJSON *boots = cJSON_GetObjectItem(metric(b), "boots");
	struct comparison c;

	cJSON_ReplaceItemInArray(boots, 0, cJSON_CreateDoubleArray((const double[]){ 100, 5000, 100 }, 3));
	CHECK(build(&c, a, b) == 0, "boots of several repeats compared");
	CHECK(c.rows[0].cells[0].s.n == 3, "three boots, three medians");
	CHECK_NEAR(c.rows[0].cells[0].s.mean, (100 + 102 + 99) / 3.0, 1e-9,
		   "the mean of boot medians ignores the outlier");
	CHECK_NEAR(c.rows[0].cells[0].within, 24.5, 1e-12,
		   "the spread within the one boot of several repeats: IQR / median");
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void test_exact_counts(void)
{
	const double x[] = { 64, 64, 64 }, y[] = { 32, 32, 32 };
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "higher", x, 3);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "higher", y, 3), *large;
	struct comparison c;
	const struct cmp_cell *cell;
	char *text;

	set_unit(a, "objects");
	set_unit(b, "objects");
	CHECK(build(&c, a, b) == 0 && c.rows[0].kind == KIND_EXACT, "a count is exact");
	cell = &c.rows[0].cells[0];
	CHECK(!cell->tested && !cell->significant, "a count is never tested");
	CHECK(cell->diff == -32 && cell->has_ci && cell->ci_lo == -32 && cell->ci_hi == -32,
	      "a count's change is a difference with a point interval");
	text = compare_text(&c);
	CHECK(strstr(text, "exact") && strstr(text, "-32 "), "the table shows the count's difference");
	free(text);
	compare_free(&c);
	large = doc_new("w", "test=fastpath", "SLUB", "higher", (const double[]){ 94464, 94464, 94464 }, 3);
	set_unit(large, "objects");
	CHECK(build(&c, a, large) == 0, "a large count compared");
	text = compare_text(&c);
	CHECK(strstr(text, "+94400 ") && !strstr(text, "e+"),
	      "a large difference in fixed notation, not +9.44e+04");
	free(text);
	compare_free(&c);
	cJSON_Delete(large);
	set_unit(a, "%");
	set_unit(b, "%");
	CHECK(build(&c, a, b) == 0, "a rate compared");
	text = compare_text(&c);
	CHECK(strstr(text, "-32.00pp") != NULL, "a rate's change is in percentage points");
	free(text);
	compare_free(&c);
	set_unit(a, "cycles");
	set_unit(b, "cycles");
	CHECK(build(&c, a, b) == 0 && !c.rows[0].cells[0].tested, "cycles are shown, not tested");
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* A floor file with one entry: ns_per_op of test=fastpath under kvm at 2 CPUs, 5 boots a side. */
static cJSON *floor_doc(double pct)
{
	cJSON *noise = noise_new(), *e;

	e = cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(
		cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(
		cJSON_GetObjectItem(noise, "accels"), "kvm"), "cpus"), "2"), "tests"),
		"test=fastpath"), "ns_per_op");
	cJSON_AddNumberToObject(e, "floor_pct", pct);
	cJSON_AddNumberToObject(e, "boots_per_side", 5);
	return noise;
}

static void test_floor(void)
{
	static const char *const paths[] = { "a.json", "b.json" };
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", slow_x, 5);
	const cJSON *docs[] = { a, b };
	cJSON *wide = floor_doc(25), *narrow = floor_doc(10);
	struct comparison c;
	const struct cmp_cell *x;
	char *report, *text;

	CHECK(compare_build(&c, paths, docs, 2, 0.05, wide, "n.json") == 0, "with a 25%% floor");
	x = &c.rows[0].cells[0];
	CHECK(c.rows[0].floor == 25 && x->tested && x->q < 0.05, "the floor is found; the test passes");
	CHECK(!x->significant && x->inside_floor, "+20.8%% inside a 25%% floor is not flagged");
	CHECK(compare_regressions(&c, 0, &report) == 0, "and the gate does not trip");
	free(report);
	text = compare_text(&c);
	CHECK(strstr(text, " 25.0% ") && strstr(text, "% floor\n") && !strstr(text, "*worse\n"),
	      "the table prints the floor and marks the change as inside it");
	CHECK(says(text, "noise floor: 1 of 1 metrics have one under kvm at 2 CPUs, from "
		   "n.json, scaled to the boots compared"), "and says where it came from");
	free(text);
	compare_free(&c);
	CHECK(compare_build(&c, paths, docs, 2, 0.05, narrow, "n.json") == 0, "with a 10%% floor");
	CHECK(c.rows[0].cells[0].significant && c.rows[0].cells[0].worse,
	      "+20.8%% beyond a 10%% floor is flagged");
	CHECK(compare_regressions(&c, 10, &report) == 1 && strstr(report, "floor 10.00%"),
	      "the gate names the floor");
	free(report);
	compare_free(&c);
	CHECK(compare_build(&c, paths, docs, 2, 0.05, NULL, "n.json") == 0 &&
	      c.rows[0].cells[0].significant && strstr(c.floor_note, "no noise floor at n.json"),
	      "no floor file: statistics alone, and the note says so");
	compare_free(&c);
	cJSON_Delete(wide);
	cJSON_Delete(narrow);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/*
 * The cost model's counts: the same in every boot, a change is a change;
 * a count that differs between boots of other seeds is tested like a miss.
 */
static void test_cost_model(void)
{
	const double same[] = { 140.0, 140.0, 140.0 }, up[] = { 140.1, 140.1, 140.1 };
	const double x[] = { 140.0, 140.1, 140.0 }, y[] = { 140.0, 140.1, 140.1 };
	cJSON *a = doc_new("w", "test=fastpath", "SLUB", "lower", same, 3);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", same, 3);
	struct comparison c;
	char *report = NULL;

	set_unit(a, "insns/op");
	set_unit(b, "insns/op");
	CHECK(build(&c, a, b) == 0 && !c.rows[0].cells[0].significant &&
	      !c.rows[0].cells[0].tested && c.rows[0].cells[0].exact,
	      "identical counts: exact, untested, no change");
	CHECK(compare_regressions(&c, 0, &report) == 0, "and no regression at any threshold");
	free(report);
	compare_free(&c);
	cJSON_Delete(b);
	b = doc_new("w", "test=fastpath", "SLUB", "lower", up, 3);
	set_unit(b, "insns/op");
	CHECK(build(&c, a, b) == 0 && c.rows[0].cells[0].exact &&
	      c.rows[0].cells[0].significant && c.rows[0].cells[0].worse,
	      "a rise of 0.07%% in every boot is a change for the worse, exactly");
	CHECK(compare_regressions(&c, 0.01, &report) == 1 && strstr(report, "exact counts"),
	      "the gate counts it beyond 0.01%%, as exact counts");
	free(report);
	CHECK(compare_regressions(&c, 1, &report) == 0, "but not beyond 1%%");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
	a = doc_new("w", "test=fastpath", "SLUB", "lower", x, 3);
	b = doc_new("w", "test=fastpath", "SLUB", "lower", y, 3);
	set_unit(a, "insns/op");
	set_unit(b, "insns/op");
	CHECK(build(&c, a, b) == 0 && !c.rows[0].cells[0].exact && c.rows[0].cells[0].tested &&
	      !c.rows[0].cells[0].significant,
	      "counts that differ between boots (seeds): tested across them, no change");
	CHECK(compare_regressions(&c, 0, &report) == 0, "and the gate passes");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/*
 * Simulated misses move with physical placement: judged against the
 * spread of the boots, never by any difference.
 */
static void test_model(void)
{
	const double one[] = { 3.0, 3.0, 3.0 }, other[] = { 3.5, 3.5, 3.5 };
	const double x[] = { 3.0, 3.1, 2.9, 3.0, 3.05 }, y[] = { 4.0, 4.1, 3.9, 4.0, 4.05 };
	cJSON *a = doc_new("w", "test=fastpath", "SLUB", "lower", one, 3);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", other, 3);
	struct comparison c;
	char *report = NULL;

	set_unit(a, "misses/op");
	set_unit(b, "misses/op");
	CHECK(build(&c, a, b) == 0 && c.rows[0].kind == KIND_MODEL && !c.rows[0].cells[0].exact &&
	      !c.rows[0].cells[0].tested && !c.rows[0].cells[0].significant,
	      "misses that differ with no spread across boots: not judged, no change");
	CHECK(compare_regressions(&c, 0, &report) == 0, "and the gate passes");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
	a = doc_new("w", "test=fastpath", "SLUB", "lower", x, 5);
	b = doc_new("w", "test=fastpath", "SLUB", "lower", x, 5);
	set_unit(a, "misses/op");
	set_unit(b, "misses/op");
	CHECK(build(&c, a, b) == 0 && c.rows[0].cells[0].tested &&
	      !c.rows[0].cells[0].significant, "the same spread on both sides: tested, no change");
	compare_free(&c);
	cJSON_Delete(b);
	b = doc_new("w", "test=fastpath", "SLUB", "lower", y, 5);
	set_unit(b, "misses/op");
	CHECK(build(&c, a, b) == 0 && c.rows[0].cells[0].tested &&
	      c.rows[0].cells[0].significant && c.rows[0].cells[0].worse,
	      "a shift far beyond the boots' spread: a change for the worse");
	CHECK(compare_regressions(&c, 1, &report) == 1 && !strstr(report, "exact counts"),
	      "which the gate counts, with its test, not as an exact count");
	free(report);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static void test_check(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);

	CHECK(run_check("a.json", a, false) == 0, "a complete document is accepted");
	cJSON_ReplaceItemInObject(a, "status", cJSON_CreateString("partial"));
	CHECK(run_check("a.json", a, false) == -1, "partial is refused");
	CHECK(run_check("a.json", a, true) == 0, "partial with --allow-partial is accepted");
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(metric(a), "samples"), 2, cJSON_CreateNumber(NAN));
	CHECK(run_check("a.json", a, true) == -1, "a NaN sample is refused");
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(metric(a), "samples"), 2,
				 cJSON_CreateNumber(INFINITY));
	CHECK(run_check("a.json", a, true) == -1, "an infinite sample is refused");
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(metric(a), "samples"), 2, cJSON_CreateNull());
	CHECK(run_check("a.json", a, true) == -1, "a null sample is refused");
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(metric(a), "samples"), 2, cJSON_CreateNumber(1));
	cJSON_ReplaceItemInObject(metric(a), "better", cJSON_CreateString("faster"));
	CHECK(run_check("a.json", a, true) == -1, "an unknown direction is refused");
	cJSON_ReplaceItemInObject(metric(a), "better", cJSON_CreateString("lower"));
	set_unit(a, "furlongs");
	CHECK(run_check("a.json", a, true) == -1, "an unknown unit is refused");
	set_unit(a, "ns");
	cJSON_ReplaceItemInArray(cJSON_GetObjectItem(metric(a), "boots"), 1, cJSON_CreateString("x"));
	CHECK(run_check("a.json", a, true) == -1, "a boot that is not an array is refused");
	cJSON_Delete(a);
	a = results_parse("a.json", "{\"schema\":1,\"status\":\"complete\",\"workload\":{\"name\":\"w\"},"
			  "\"tests\":[{\"spec\":\"s\",\"metrics\":{\"m\":{\"better\":\"lower\",\"unit\":\"ns\","
			  "\"samples\":[1,1e999]}}}]}");
	CHECK(a && run_check("a.json", a, false) == -1, "1e999 in a file is refused");
	cJSON_Delete(a);
}

static void test_warnings(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", base_x, 5);
	struct comparison c;
	bool accel = false, tree = false, cpus = false, emulated = false, jobs = false;
	bool starved = false;
	cJSON *boots = cJSON_AddArrayToObject(b, "boots"), *boot;

	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(b, "vm"), "accel", cJSON_CreateString("tcg"));
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(b, "vm"), "emulated_time", cJSON_CreateTrue());
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(b, "vm"), "cpus", cJSON_CreateNumber(4));
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(b, "kernel"), "tree", cJSON_CreateString("6.12"));
	cJSON_AddNumberToObject(cJSON_GetObjectItem(b, "vm"), "jobs", 2);
	for (int i = 0; i < 3; i++) {
		boot = cJSON_CreateObject();
		if (i)
			cJSON_AddStringToObject(boot, "console_starved", i == 1 ? "rcu: INFO: x" : "y");
		else
			cJSON_AddNullToObject(boot, "console_starved");
		cJSON_AddItemToArray(boots, boot);
	}
	CHECK(build(&c, a, b) == 0, "differing runs are still compared");
	for (int i = 0; i < c.nr_warnings; i++) {
		accel |= strstr(c.warnings[i], "kvm") && strstr(c.warnings[i], "tcg") &&
			 strstr(c.warnings[i], "do not compare");
		tree |= strstr(c.warnings[i], "kernel tree 6.1 vs 6.12") != NULL;
		cpus |= strstr(c.warnings[i], "guest CPUs 2 vs 4") != NULL;
		emulated |= strstr(c.warnings[i], "emulated in b.json (tcg)") != NULL;
		jobs |= strstr(c.warnings[i], "b.json booted 2 guests at once (-j 2)") != NULL;
		starved |= strstr(c.warnings[i], "b.json: 2 of 3 boots reported a vCPU that waited") &&
			   strstr(c.warnings[i], "(first: rcu: INFO: x)");
		CHECK(!strstr(c.warnings[i], "a.json booted"), "a serial run: no -j warning");
		CHECK(!strstr(c.warnings[i], "a.json: "), "no starved vCPU in a.json: no warning of it");
	}
	CHECK(accel, "different accelerators: warned");
	CHECK(tree, "different kernel trees: warned");
	CHECK(cpus, "different guest sizes: warned");
	CHECK(emulated, "emulated time: warned");
	CHECK(jobs, "guests booted at once: warned, their times are not a serial run's");
	CHECK(starved, "boots kept with a starved vCPU: counted, the first report named");
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

static int widest_line(const char *s)
{
	int widest = 0, n = 0;

	for (; *s; s++) {
		n = *s == '\n' ? 0 : n + 1;
		widest = n > widest ? n : widest;
	}
	return widest;
}

/*
 * The layout is stable: tests/data/compare.txt is the expected output for
 * real results (5 interleaved boots of slab and slub under TCG, the
 * golden workload) with a floor measured by slabbench noise from the
 * slub file's own boots. Regenerate after a deliberate change with
 * SLABBENCH_NOISE=tests/data/noise-compare.json build/slabbench compare
 * tests/data/compare-slab.json tests/data/compare-slub.json
 * >tests/data/compare.txt
 */
static void test_golden(void)
{
	static const char *const paths[] = { "tests/data/compare-slab.json",
					     "tests/data/compare-slub.json" };
	static const char *const small[] = { "tests/data/compare-base.json",
					     "tests/data/compare-other.json" };
	cJSON *docs[2], *sdocs[2], *noise;
	struct comparison c;
	char *text, *want = read_file("tests/data/compare.txt", NULL);
	bool missing;
	cJSON *j, *m;

	for (int i = 0; i < 2; i++) {
		docs[i] = results_load(paths[i]);
		sdocs[i] = results_load(small[i]);
	}
	noise = noise_load("tests/data/noise-compare.json", &missing);
	CHECK(docs[0] && docs[1] && sdocs[0] && sdocs[1] && noise &&
	      run_check(paths[0], docs[0], false) == 0 &&
	      run_check(paths[1], docs[1], false) == 0, "golden inputs load");
	CHECK(compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05, noise,
			    "tests/data/noise-compare.json") == 0, "golden compared");
	CHECK(c.boots[0] == 5 && c.boots[1] == 5, "golden: 5 boots a side");
	CHECK(c.nr_floors == 3, "golden: the three times have a floor");
	text = compare_text(&c);
	CHECK(want && !strcmp(text, want), "text output matches tests/data/compare.txt");
	if (want && strcmp(text, want))
		printf("#   got:\n%s", text);
	CHECK(widest_line(text) <= 106, "text fits 106 columns");
	free(text);
	compare_free(&c);
	CHECK(compare_build(&c, small, (const cJSON *const *)sdocs, 2, 0.05, NULL, NULL) == 0,
	      "small fixtures compared");
	j = compare_json(&c);
	m = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "tests"), 1),
						   "metrics"), 0);
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "labels"), "size")->valueint == 64,
	      "a sweep's labels are kept in JSON");
	cJSON_Delete(j);
	compare_free(&c);
	/* Three other runs make a table each per test, each within 106 columns. */
	CHECK(compare_build(&c, (const char *const[]){ small[0], small[1], small[1], small[1] },
			    (const cJSON *const[]){ sdocs[0], sdocs[1], sdocs[1], sdocs[1] }, 4, 0.05,
			    NULL, NULL) == 0,
	      "four runs compared");
	text = compare_text(&c);
	CHECK(widest_line(text) <= 106 && strstr(text, "slub#4"), "four runs: 106 columns, unique labels");
	free(text);
	compare_free(&c);
	for (int i = 0; i < 2; i++) {
		cJSON_Delete(docs[i]);
		cJSON_Delete(sdocs[i]);
	}
	cJSON_Delete(noise);
	free(want);
}

/* Normal draws from xorshift64 and Box-Muller: the same on every machine. */
static double gauss(unsigned long long *s)
{
	double u, v;

	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	u = ((*s >> 11) + 0.5) / 9007199254740992.0;
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	v = ((*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* @n boot medians of a kernel @factor times slower, spread as TCG's: 0.3 in logs. */
static cJSON *synthetic(const char *variant, int n, double factor, unsigned long long *seed)
{
	double *x = xcalloc(n, sizeof(*x));
	cJSON *doc;

	for (int i = 0; i < n; i++)
		x[i] = 100 * factor * exp(0.3 * gauss(seed));
	doc = doc_new("w", "test=fastpath", variant, "lower", x, n);
	free(x);
	return doc;
}

/*
 * The known answer of the noise floor: an A/A of 5 boots a side spread
 * as TCG's (0.3 in logs) measures a floor above 20%, which as a fixed
 * gate hid a 20% slowdown at any number of boots. Scaled to the boots
 * compared, with the boots that noise says find 20%, a 20% slowdown is
 * flagged in most of 20 draws (the power asked is 80%) and an A/A of as
 * many boots is flagged in none.
 */
static void test_known_answer(void)
{
	static const char *const paths[] = { "a.json", "b.json" };
	unsigned long long seed = 0x9e3779b97f4a7c15ull;
	cJSON *aa = synthetic("SLAB", 10, 1, &seed), *noise = noise_new();
	int k = 0, n, slow = 0, same = 0, reps = 20;
	double floor;

	CHECK(noise_measure(noise, (const char *const[]){ "aa.json" }, (const cJSON *const *)&aa,
			    1) == 1, "known answer: the A/A of 10 boots measured");
	floor = noise_floor(noise, "kvm", 2, "test=fastpath", "ns_per_op", &k);
	n = noise_boots_for(noise, "kvm", 2, "test=fastpath", "ns_per_op", 20);
	CHECK(k == 5 && floor > 20, "known answer: the floor at 5 boots a side is %.1f%%, above 20%%",
	      floor);
	CHECK(n > 5 && n <= 100, "known answer: noise asks for %d boots a side to find 20%%", n);
	for (int r = 0; r < reps && n > 0; r++) {
		cJSON *a = synthetic("SLAB", n, 1, &seed);
		cJSON *b = synthetic("SLUB", n, 1.2, &seed);
		cJSON *c2 = synthetic("SLUB", n, 1, &seed);
		struct comparison c;

		if (!compare_build(&c, paths, (const cJSON *const[]){ a, b }, 2, 0.05, noise, "n"))
			slow += c.rows[0].cells[0].significant && c.rows[0].cells[0].worse;
		compare_free(&c);
		if (!compare_build(&c, paths, (const cJSON *const[]){ a, c2 }, 2, 0.05, noise, "n"))
			same += c.rows[0].cells[0].significant;
		compare_free(&c);
		cJSON_Delete(a);
		cJSON_Delete(b);
		cJSON_Delete(c2);
	}
	CHECK(slow >= 14, "known answer: a 20%% slowdown flagged in %d of %d draws of %d boots "
	      "a side", slow, reps, n);
	CHECK(same == 0, "known answer: an A/A of as many boots flagged in %d of %d draws", same,
	      reps);
	cJSON_Delete(aa);
	cJSON_Delete(noise);
}

/* Each tested time says the smallest change it could have found. */
static void test_power(void)
{
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", base_x, 5);
	struct comparison c;
	const struct cmp_row *best;
	int able;
	char *text;
	struct summary la, lb;
	double lx[5], d;

	for (int i = 0; i < 5; i++)
		lx[i] = log(base_x[i]);
	summarize(lx, 5, &la);
	lb = la;
	detectable_difference(&la, &lb, 0.05, CMP_POWER, 0, &d);
	CHECK(build(&c, a, b) == 0, "power: compared");
	CHECK_NEAR(c.rows[0].cells[0].detectable, 100 * expm1(d), 1e-9,
		   "power: the detectable rise from the boots' logs (%.2f%%)", 100 * expm1(d));
	CHECK(compare_power(&c, 1, &able, &best) == 1 && able == 1 && best == &c.rows[0],
	      "power: one tested time, able to find 5%%");
	c.matters = 1;
	CHECK(compare_power(&c, 1, &able, &best) == 1 && able == 0,
	      "power: but not 1%%");
	text = compare_text(&c);
	CHECK(says(text, "0 of 1 tested times could detect a change of 1%; the smallest "
		   "detectable is") && says(text, "a change of 1% could have gone unseen in every one"),
	      "power: the table says so");
	free(text);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

int main(void)
{
	test_known_answer();
	test_power();
	test_equal();
	test_regression();
	test_higher_is_better();
	test_workloads();
	test_one_boot();
	test_two_boots();
	test_boot_medians();
	test_exact_counts();
	test_floor();
	test_cost_model();
	test_model();
	test_check();
	test_warnings();
	test_golden();
	return check_done();
}
