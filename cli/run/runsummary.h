/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What run prints when a results file is written, as perf bench does:
 * each test's headline figure, and what kind of number it is.
 */
#ifndef SLABBENCH_RUNSUMMARY_H
#define SLABBENCH_RUNSUMMARY_H

#include <cjson/cJSON.h>

/*
 * The summary of the results @doc: who ran, how many boots and under
 * which clock, then a line per test with its headline metric (the
 * median over boots of each boot's median, the IQR of those medians,
 * how many boots) and its kind: "exact", "model", "time", or "emulated"
 * for a time under TCG. Under the cost model the headline is the
 * instruction count of the test's first metric, not its virtual clock.
 * A test's spec is wrapped at its words, never cut. Free it.
 */
char *run_summary(const cJSON *doc);

#endif
