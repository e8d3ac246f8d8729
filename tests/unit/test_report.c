// SPDX-License-Identifier: GPL-2.0
/* Unit tests of report: the mail against its golden file, the memory breakdown. */
#define _GNU_SOURCE
#include "check.h"
#include "compare.h"
#include "report.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

/*
 * Real results of the default workload on the slab and slub guests
 * (TCG), and the report they must give; regenerate the golden file with
 * build/slabbench report tests/data/report-slab.json
 * tests/data/report-slub.json >tests/data/report.txt after a deliberate
 * change of layout.
 */
static const char *const paths[] = {
	"tests/data/report-slab.json", "tests/data/report-slub.json",
};

static void test_golden(void)
{
	struct comparison c = { 0 };
	cJSON **docs = compare_load(paths, 2, false);
	char *text = NULL, *golden = read_file("tests/data/report.txt", NULL), *line, *save;
	int over = 0, lines = 0;

	CHECK(docs != NULL, "report: both results files load");
	if (!docs)
		goto out;
	CHECK(compare_build(&c, paths, (const cJSON *const *)docs, 2, 0.05) == 0,
	      "report: the runs compare");
	text = report_text(&c, (const cJSON *const *)docs);
	CHECK_STR(text, golden ? golden : "", "report: matches tests/data/report.txt");
	CHECK(!strncmp(text, "Subject: [slabbench] slub vs slab: ", 35),
	      "report: starts with a subject naming both runs");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		over += strlen(line) > REPORT_WIDTH;
	}
	CHECK(lines > 50 && over == 0, "report: %d lines, none over 72 bytes (%d are)", lines,
	      over);
out:
	free(text);
	free(golden);
	compare_free(&c);
	compare_unload(docs, 2);
}

static void test_breakdown(void)
{
	cJSON **docs = compare_load(paths, 2, false);
	struct mem_breakdown m;

	if (!docs)
		return;
	CHECK(mem_breakdown(docs[0], 0, &m) == -1, "breakdown: a fastpath test has none");
	CHECK(mem_breakdown(docs[1], 12, &m) == 0, "breakdown: overhead test 12 has one");
	CHECK(m.size == 64 && m.count == 20000, "breakdown: size and count from the params");
	CHECK_NEAR(m.size + m.rounding + m.tail + m.idle, m.total, 0.01,
		   "breakdown: size + rounding + tail + idle = bytes per object");
	CHECK(m.management > 0 && m.management < 1, "breakdown: SLUB's structures per object");
	compare_unload(docs, 2);
}

int main(void)
{
	test_golden();
	test_breakdown();
	return check_done();
}
