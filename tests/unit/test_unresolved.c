// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of compare's unresolved times: samples at or below zero, and
 * samples below the resolution the module gives beside them.
 */
#define _GNU_SOURCE
#include "check.h"
#include "compare_fixture.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/*
 * A loop shorter than the clock resolves: fastpath with iters=100 gave
 * net times of -5465 and -240 ns per op. Not a time: no value, no
 * change, no test, and a warning that says why.
 */
static void test_unresolved(void)
{
	const double x[] = { 12, -5465, 30, -240, 8 };
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", x, 5);
	struct comparison c;
	char *text, *report;
	bool warned = false;

	CHECK(build(&c, a, b) == 0, "unresolved: compared");
	CHECK(c.rows[0].cells[0].unresolved == 2 && !c.rows[0].cells[0].tested &&
	      !c.rows[0].cells[0].has_pct && !c.rows[0].cells[0].significant,
	      "unresolved: 2 samples <= 0, so no change and no test");
	for (int i = 0; i < c.nr_warnings; i++)
		warned |= strstr(c.warnings[i], "2 of 5 samples are below the clock's resolution") &&
			  strstr(c.warnings[i], "0 or less");
	CHECK(warned, "unresolved: a warning says why");
	text = compare_text(&c);
	CHECK(strstr(text, "unresolved\n") && !strstr(text, "-5465") && !strstr(text, "n/a"),
	      "unresolved: the table marks it and prints no time");
	free(text);
	CHECK(compare_regressions(&c, 0, &report) == 0, "unresolved: never a regression");
	free(report);
	compare_free(&c);
	CHECK(build(&c, b, a) == 0 && c.rows[0].unresolved == 2 &&
	      !c.rows[0].cells[0].tested, "unresolved: in the base too");
	compare_free(&c);
	set_unit(a, "cycles");
	set_unit(b, "cycles");
	CHECK(build(&c, a, b) == 0 && c.rows[0].cells[0].unresolved == 2 &&
	      !c.rows[0].cells[0].has_pct, "unresolved: the TSC twin of such a time as well");
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/*
 * Times above zero but below what the clock resolves: the module gives
 * each sample's resolution per operation (a clock step per interval of
 * the sample and its twin, over its operations), 0.06 ns here. Samples
 * of 0.02 and 0.05 ns are unresolved, 0.06 is a time; without a
 * resolution (older results) only samples of 0 or less are.
 */
static void test_below_resolution(void)
{
	const double x[] = { 12, 0.02, 30, 0.05, 0.06 }, res[] = { 0.06, 0.06, 0.06, 0.06, 0.06 };
	cJSON *a = doc_new("w", "test=fastpath", "SLAB", "lower", base_x, 5);
	cJSON *b = doc_new("w", "test=fastpath", "SLUB", "lower", x, 5);
	struct comparison c;
	char *text;

	CHECK(build(&c, a, b) == 0 && !c.rows[0].cells[0].unresolved &&
	      c.rows[0].cells[0].has_pct, "resolution: none given, positive samples are times");
	compare_free(&c);
	cJSON_AddItemToObject(metric(b), "resolution", cJSON_CreateDoubleArray(res, 5));
	CHECK(build(&c, a, b) == 0 && c.rows[0].cells[0].unresolved == 2 &&
	      !c.rows[0].cells[0].has_pct && !c.rows[0].cells[0].tested,
	      "resolution: 2 samples above 0 but below it, so no change and no test");
	text = compare_text(&c);
	CHECK(strstr(text, "unresolved\n") && !strstr(text, "0.02"),
	      "resolution: the table marks it unresolved and prints no time");
	free(text);
	compare_free(&c);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

int main(void)
{
	test_unresolved();
	test_below_resolution();
	return check_done();
}
