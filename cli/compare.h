/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabbench compare: a base run against other runs of the same workload,
 * metric by metric, with Welch's t-test; as text and as JSON.
 */
#ifndef SLABBENCH_COMPARE_H
#define SLABBENCH_COMPARE_H

#include "schema.h"
#include "stats.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* One metric of one other run against the base. */
struct cmp_cell {
	bool present;		/* false: the run lacks this metric */
	struct summary s;
	bool has_pct, has_ci, tested;
	double pct, ci_lo, ci_hi;
	struct welch w;
	bool significant;	/* p < alpha; for an exact metric, any change */
	bool worse;		/* the mean moved in the metric's bad direction */
	/* The cost model's counts (cost_unit()): a change is a change, never tested. */
	bool exact;
};

struct cmp_row {
	int test;		/* index in tests[] */
	const char *test_name, *spec, *metric, *unit;
	bool higher_better;
	const cJSON *labels;	/* a sweep point's labels, or NULL */
	struct summary base;
	struct cmp_cell *cells;	/* one per other run */
};

struct comparison {
	double alpha;
	int nr_runs;		/* runs[0] is the base */
	struct run_id *runs;
	int nr_rows;
	struct cmp_row *rows;
	int nr_warnings;
	char **warnings;	/* one line each, for stderr */
};

/*
 * Whether @doc, loaded from @path, can be compared: complete (or partial
 * with @allow_partial), a workload name, every test with its spec, every
 * metric with a direction and finite samples. -1 with a one-line error.
 */
int compare_check(const char *path, const cJSON *doc, bool allow_partial);

/* Loads and checks @n results files; NULL after a one-line error. */
cJSON **compare_load(const char *const *paths, int n, bool allow_partial);
void compare_unload(cJSON **docs, int n);

/*
 * Compares docs[1..n-1] with docs[0], each checked by compare_check();
 * @docs and @paths must outlive @c. -1, with a one-line error naming both
 * files, when two runs ran different workloads.
 */
int compare_build(struct comparison *c, const char *const *paths, const cJSON *const *docs,
		  int n, double alpha);
void compare_free(struct comparison *c);

/*
 * Significant changes in the bad direction larger than @threshold
 * percent: returns how many, and one line per change in *report.
 */
int compare_regressions(const struct comparison *c, double threshold, char **report);

/* The table for a terminal, at most 100 columns but for long names. */
char *compare_text(const struct comparison *c);
cJSON *compare_json(const struct comparison *c);

#endif
