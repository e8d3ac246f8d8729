// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing runs: each metric of the other runs against the base run's,
 * with Welch's t-test, warnings when more than the allocator differs, and
 * the result as a table and as JSON.
 */
#define _GNU_SOURCE
#include "compare.h"
#include "cost.h"
#include "results.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Other runs side by side in one table: two fit in 100 columns. */
#define RUNS_PER_TABLE 2
#define METRIC_WIDTH 24

static int check_metric(const char *path, int i, const cJSON *m)
{
	const char *better = metric_better(m);
	const cJSON *samples = metric_samples(m), *s;
	const char *name = m->string;
	int j = 0;

	if (!cJSON_IsObject(m))
		return error("%s: tests[%d].metrics.%s: expected an object", path, i, name);
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
	return 0;
}

int compare_check(const char *path, const cJSON *doc, bool allow_partial)
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

cJSON **compare_load(const char *const *paths, int n, bool allow_partial)
{
	cJSON **docs = xcalloc(n, sizeof(*docs));

	for (int i = 0; i < n; i++) {
		docs[i] = results_load(paths[i]);
		if (!docs[i] || compare_check(paths[i], docs[i], allow_partial)) {
			compare_unload(docs, n);
			return NULL;
		}
	}
	return docs;
}

void compare_unload(cJSON **docs, int n)
{
	for (int i = 0; docs && i < n; i++)
		cJSON_Delete(docs[i]);
	free(docs);
}

/* Takes @s, one line. */
static void add_warning(struct comparison *c, char *s)
{
	c->warnings = xrealloc(c->warnings, (c->nr_warnings + 1) * sizeof(*c->warnings));
	c->warnings[c->nr_warnings++] = s;
}

/* Why two runs' workloads differ, or NULL. */
static char *workload_difference(const cJSON *a, const cJSON *b)
{
	const char *na = run_workload(a), *nb = run_workload(b);
	int n = run_nr_tests(a);

	if (strcmp(na, nb))
		return xasprintf("workload '%s' vs '%s'", na, nb);
	if (n != run_nr_tests(b))
		return xasprintf("%d vs %d tests", n, run_nr_tests(b));
	for (int i = 0; i < n; i++) {
		const char *sa = test_spec(run_test(a, i));
		const char *sb = test_spec(run_test(b, i));

		if (strcmp(sa, sb))
			return xasprintf("test %d is '%s' vs '%s'", i + 1, sa, sb);
	}
	return NULL;
}

/* A value for a one-line message: short, since config digests are long. */
static char *short_value(const cJSON *v)
{
	char *s = cJSON_IsString(v) ? xstrdup(v->valuestring) : cJSON_PrintUnformatted(v);

	if (!s)
		return xstrdup("?");
	if (strlen(s) > 16)
		strcpy(s + 12, "...");
	return s;
}

static void warn_differences(struct comparison *c, const cJSON *const *docs)
{
	const struct run_id *base = &c->runs[0];
	char *emulated = NULL;
	int nr_emulated = 0;

	for (int r = 1; r < c->nr_runs; r++) {
		const struct run_id *run = &c->runs[r];

		if (strcmp(base->accel, run->accel))
			add_warning(c, xasprintf("%s ran under %s, %s under %s: their times do not compare",
						 base->path, base->accel, run->path, run->accel));
		/* Fields one side lacks are not compared. */
		for (size_t f = 0; f < nr_run_same_fields; f++) {
			const cJSON *a = run_field(docs[0], &run_same_fields[f]);
			const cJSON *b = run_field(docs[r], &run_same_fields[f]);
			char *va, *vb;

			if (!a || !b || cJSON_Compare(a, b, true))
				continue;
			va = short_value(a);
			vb = short_value(b);
			add_warning(c, xasprintf("%s and %s differ in more than the allocator: %s %s vs %s",
						 base->path, run->path, run_same_fields[f].what, va, vb));
			free(va);
			free(vb);
		}
	}
	for (int r = 0; r < c->nr_runs; r++) {
		char *list;

		if (!c->runs[r].emulated)
			continue;
		list = emulated ? xasprintf("%s, %s (%s)", emulated, c->runs[r].path, c->runs[r].accel)
				: xasprintf("%s (%s)", c->runs[r].path, c->runs[r].accel);
		free(emulated);
		emulated = list;
		nr_emulated++;
	}
	if (nr_emulated == c->nr_runs)
		add_warning(c, xasprintf("times were emulated (%s) in every run: absolute times "
					 "mean little, compare ratios", base->accel));
	else if (emulated)
		add_warning(c, xasprintf("times were emulated in %s: absolute times mean little, "
					 "compare ratios between runs under one accelerator", emulated));
	free(emulated);
}

static void fill_cell(struct cmp_cell *x, const struct cmp_row *row, const cJSON *m, double alpha)
{
	x->present = true;
	metric_summarize(m, &x->s);
	x->has_pct = !percent_change(&row->base, &x->s, &x->pct);
	x->has_ci = !percent_change_ci(&row->base, &x->s, alpha, &x->ci_lo, &x->ci_hi);
	x->tested = !welch_test(&row->base, &x->s, &x->w);
	x->significant = x->tested && x->w.p < alpha;
	x->worse = row->higher_better ? x->s.mean < row->base.mean : x->s.mean > row->base.mean;
	if (cost_unit(row->unit)) {
		x->exact = true;
		x->tested = false;
		x->significant = x->s.mean != row->base.mean;
	}
}

static void add_rows(struct comparison *c, const cJSON *const *docs, int test)
{
	const cJSON *bt = run_test(docs[0], test);
	const cJSON *m;

	cJSON_ArrayForEach(m, test_metrics(bt)) {
		struct cmp_row *row;

		c->rows = xrealloc(c->rows, (c->nr_rows + 1) * sizeof(*c->rows));
		row = &c->rows[c->nr_rows++];
		*row = (struct cmp_row){
			.test = test,
			.test_name = test_name(bt),
			.spec = test_spec(bt),
			.metric = m->string,
			.unit = metric_unit(m),
			.higher_better = metric_higher_better(m),
			.labels = metric_labels(m),
			.cells = xcalloc(c->nr_runs - 1, sizeof(*row->cells)),
		};
		metric_summarize(m, &row->base);
		for (int r = 1; r < c->nr_runs; r++) {
			const cJSON *o = test_metric(run_test(docs[r], test), m->string);

			if (!o)
				continue;
			if (strcmp(metric_better(o), metric_better(m)) ||
			    strcmp(metric_unit(o), metric_unit(m)))
				add_warning(c, xasprintf("%s: test %d: %s is in %s, %s is better; in the base %s, %s",
							 c->runs[r].path, test + 1, m->string,
							 metric_unit(o), metric_better(o),
							 metric_unit(m), metric_better(m)));
			fill_cell(&row->cells[r - 1], row, o, c->alpha);
		}
	}
	/* Metrics only the other runs have (another module version). */
	for (int r = 1; r < c->nr_runs; r++) {
		cJSON_ArrayForEach(m, test_metrics(run_test(docs[r], test)))
			if (!test_metric(bt, m->string))
				add_warning(c, xasprintf("%s: test %d: %s is not in the base %s: not compared",
							 c->runs[r].path, test + 1, m->string,
							 c->runs[0].path));
	}
}

int compare_build(struct comparison *c, const char *const *paths, const cJSON *const *docs,
		  int n, double alpha)
{
	*c = (struct comparison){ .alpha = alpha, .nr_runs = n };
	for (int r = 1; r < n; r++) {
		char *why = workload_difference(docs[0], docs[r]);

		if (why) {
			error("%s and %s ran different workloads: %s", paths[0], paths[r], why);
			free(why);
			return -1;
		}
	}
	c->runs = run_ids(paths, docs, n);
	warn_differences(c, docs);
	for (int t = 0; t < run_nr_tests(docs[0]); t++)
		add_rows(c, docs, t);
	return 0;
}

void compare_free(struct comparison *c)
{
	run_ids_free(c->runs, c->nr_runs);
	for (int i = 0; i < c->nr_rows; i++)
		free(c->rows[i].cells);
	for (int i = 0; i < c->nr_warnings; i++)
		free(c->warnings[i]);
	free(c->rows);
	free(c->warnings);
	memset(c, 0, sizeof(*c));
}

static bool regression_exceeds(const struct cmp_cell *x, double threshold)
{
	if (!x->present || !x->significant || !x->worse)
		return false;
	/* From a zero base any rise is an unbounded percent change. */
	return !x->has_pct || fabs(x->pct) > threshold;
}

int compare_regressions(const struct comparison *c, double threshold, char **report)
{
	struct strbuf b = { 0 };
	int count = 0;

	sb_addf(&b, "%s", "");	/* no regression: "", not NULL */
	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];

		for (int r = 1; r < c->nr_runs; r++) {
			const struct cmp_cell *x = &row->cells[r - 1];
			char pct[32] = "from a zero base";

			if (!regression_exceeds(x, threshold))
				continue;
			if (x->has_pct)
				snprintf(pct, sizeof(pct), "%+.2f%%", x->pct);
			if (x->exact)
				sb_addf(&b, "regression: test %d (%s): %s %s in %s against %s (%s is "
					"better), exact counts of the cost model\n",
					row->test + 1, row->spec, row->metric, pct, c->runs[r].label,
					c->runs[0].label, row->higher_better ? "higher" : "lower");
			else
				sb_addf(&b, "regression: test %d (%s): %s %s in %s against %s (%s is "
					"better), p = %.3g\n",
					row->test + 1, row->spec, row->metric, pct, c->runs[r].label,
					c->runs[0].label, row->higher_better ? "higher" : "lower",
					x->w.p);
			count++;
		}
	}
	*report = b.s;
	return count;
}

/* Means in 10 columns: two decimals while they fit, else 4 digits. */
static void fmt_value(char *out, size_t size, double v)
{
	snprintf(out, size, fabs(v) < 1e6 ? "%.2f" : "%.4g", v);
}

/* Changes in at most 9 columns. */
static void fmt_pct(char *out, size_t size, double v)
{
	if (fabs(v) < 1000)
		snprintf(out, size, "%+.2f%%", v);
	else if (fabs(v) < 1e6)
		snprintf(out, size, "%+.0f%%", v);
	else
		snprintf(out, size, "%+.1e%%", v);
}

static char *row_name(const struct cmp_row *row)
{
	struct strbuf b = { 0 };
	const cJSON *l;

	sb_addf(&b, "%s", row->metric);
	cJSON_ArrayForEach(l, row->labels) {
		char *v = short_value(l);

		sb_addf(&b, " %s=%s", l->string, v);
		free(v);
	}
	sb_addf(&b, " (%s)", row->unit);
	return b.s;
}

static void text_cell(struct strbuf *b, const struct cmp_cell *x)
{
	char mean[32] = "-", pct[32] = "", mark[16] = "";

	if (x->present) {
		fmt_value(mean, sizeof(mean), x->s.mean);
		if (x->has_pct)
			fmt_pct(pct, sizeof(pct), x->pct);
		else
			strcpy(pct, "n/a");
		if (!x->tested && !x->exact)
			strcpy(mark, "n<2");
		else if (x->significant)
			strcpy(mark, x->worse ? "*worse" : "*better");
	}
	sb_addf(b, " %10s %8s %-7s", mean, pct, mark);
}

static void text_table(struct strbuf *b, const struct comparison *c, int first_row, int end_row,
		       int first_run, int end_run)
{
	/* Each run's name over its mean: a long one reaches to the left. */
	sb_addf(b, "%*s%-8s", METRIC_WIDTH + 10, c->runs[0].label, "");
	for (int r = first_run; r < end_run; r++)
		sb_addf(b, " %10s %17s", c->runs[r].label, "");
	sb_endline(b);
	sb_addf(b, "%-*s%10s %7s", METRIC_WIDTH, "metric (unit)", "mean", "cov");
	for (int r = first_run; r < end_run; r++)
		sb_addf(b, " %10s %8s %7s", "mean", "change", "");
	sb_endline(b);
	for (int i = first_row; i < end_row; i++) {
		const struct cmp_row *row = &c->rows[i];
		char *name = row_name(row), mean[32], cov[32] = "-";

		/* A long name gets a line of its own: the columns stay put. */
		if (strlen(name) > METRIC_WIDTH - 1)
			sb_addf(b, "%s\n%*s", name, METRIC_WIDTH, "");
		else
			sb_addf(b, "%-*s", METRIC_WIDTH, name);
		fmt_value(mean, sizeof(mean), row->base.mean);
		if (row->base.n > 1)
			snprintf(cov, sizeof(cov), "%.1f%%", 100 * row->base.cov);
		sb_addf(b, "%10s %7s", mean, cov);
		for (int r = first_run; r < end_run; r++)
			text_cell(b, &row->cells[r - 1]);
		sb_endline(b);
		free(name);
	}
}

char *compare_text(const struct comparison *c)
{
	struct strbuf b = { 0 };
	int i = 0;

	sb_addf(&b, "slabbench compare: Welch's t-test, alpha %g\n\n", c->alpha);
	sb_addf(&b, "  %-4s  %-10s %-10s %-10s %-19s %s\n", "", "run", "allocator", "kernel",
		"accelerator", "file");
	for (int r = 0; r < c->nr_runs; r++) {
		const struct run_id *run = &c->runs[r];
		char *accel = xasprintf("%s%s", run->accel, run->emulated ? ", emulated time" : "");

		sb_addf(&b, "  %-4s  %-10s %-10s %-10s %-19s %s\n", r ? "" : "base", run->label,
			run->allocator, run->release, accel, run->path);
		free(accel);
	}
	sb_addf(&b, "\nmean of every sample; cov = stddev / mean; "
		    "change = (mean - base mean) / |base mean|\n"
		    "*better, *worse: significant change (p < %g, two-sided Welch's t-test) in the\n"
		    "metric's good or bad direction; n<2: too few samples for a test\n", c->alpha);
	while (i < c->nr_rows) {
		int end = i;

		while (end < c->nr_rows && c->rows[end].test == c->rows[i].test)
			end++;
		sb_addf(&b, "\ntest %d: %s\n", c->rows[i].test + 1, c->rows[i].spec);
		for (int r = 1; r < c->nr_runs; r += RUNS_PER_TABLE) {
			if (r > 1)
				sb_addf(&b, "\n");
			text_table(&b, c, i, end, r,
				   r + RUNS_PER_TABLE < c->nr_runs ? r + RUNS_PER_TABLE : c->nr_runs);
		}
		i = end;
	}
	return b.s;
}

/* JSON has no inf or NaN: such figures are null. */
static void add_number(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static void add_summary(cJSON *o, const struct summary *s)
{
	cJSON_AddNumberToObject(o, "n", s->n);
	add_number(o, "mean", s->mean);
	add_number(o, "stddev", s->stddev);
	add_number(o, "cov", s->cov);
}

static cJSON *json_cell(const struct cmp_cell *x, const char *label)
{
	cJSON *o, *ci;

	if (!x->present)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "run", label);
	add_summary(o, &x->s);
	if (x->has_pct)
		add_number(o, "change_pct", x->pct);
	else
		cJSON_AddNullToObject(o, "change_pct");
	if (x->has_ci) {
		ci = cJSON_AddArrayToObject(o, "change_pct_ci");
		cJSON_AddItemToArray(ci, cJSON_CreateNumber(x->ci_lo));
		cJSON_AddItemToArray(ci, cJSON_CreateNumber(x->ci_hi));
	} else {
		cJSON_AddNullToObject(o, "change_pct_ci");
	}
	cJSON_AddBoolToObject(o, "tested", x->tested);
	cJSON_AddBoolToObject(o, "exact", x->exact);
	if (x->tested) {
		add_number(o, "t", x->w.t);
		add_number(o, "df", x->w.df);
		add_number(o, "p", x->w.p);
	} else {
		cJSON_AddNullToObject(o, "t");
		cJSON_AddNullToObject(o, "df");
		cJSON_AddNullToObject(o, "p");
	}
	cJSON_AddBoolToObject(o, "significant", x->significant);
	cJSON_AddBoolToObject(o, "regression", x->significant && x->worse);
	cJSON_AddBoolToObject(o, "improvement", x->significant && !x->worse);
	return o;
}

cJSON *compare_json(const struct comparison *c)
{
	cJSON *doc = cJSON_CreateObject(), *runs, *warnings, *tests, *test = NULL, *metrics = NULL;
	int last = -1;

	cJSON_AddStringToObject(doc, "tool", "slabbench " SLABBENCH_VERSION);
	cJSON_AddStringToObject(doc, "test", "Welch's unequal-variance t-test, two-sided");
	cJSON_AddNumberToObject(doc, "alpha", c->alpha);
	cJSON_AddStringToObject(doc, "change_pct_ci",
				"1 - alpha, delta method, Welch-Satterthwaite degrees of freedom");
	runs = cJSON_AddArrayToObject(doc, "runs");
	for (int r = 0; r < c->nr_runs; r++) {
		const struct run_id *run = &c->runs[r];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "file", run->path);
		cJSON_AddStringToObject(o, "label", run->label);
		cJSON_AddBoolToObject(o, "base", r == 0);
		cJSON_AddStringToObject(o, "allocator", run->allocator);
		cJSON_AddStringToObject(o, "release", run->release);
		cJSON_AddStringToObject(o, "variant", run->variant);
		cJSON_AddStringToObject(o, "accel", run->accel);
		cJSON_AddBoolToObject(o, "emulated_time", run->emulated);
		cJSON_AddItemToArray(runs, o);
	}
	warnings = cJSON_AddArrayToObject(doc, "warnings");
	for (int i = 0; i < c->nr_warnings; i++)
		cJSON_AddItemToArray(warnings, cJSON_CreateString(c->warnings[i]));
	tests = cJSON_AddArrayToObject(doc, "tests");
	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		cJSON *m = cJSON_CreateObject(), *base, *cells;

		if (row->test != last) {
			test = cJSON_CreateObject();
			cJSON_AddNumberToObject(test, "index", row->test);
			cJSON_AddStringToObject(test, "test", row->test_name);
			cJSON_AddStringToObject(test, "spec", row->spec);
			metrics = cJSON_AddArrayToObject(test, "metrics");
			cJSON_AddItemToArray(tests, test);
			last = row->test;
		}
		cJSON_AddStringToObject(m, "name", row->metric);
		cJSON_AddStringToObject(m, "unit", row->unit);
		cJSON_AddStringToObject(m, "better", row->higher_better ? "higher" : "lower");
		if (row->labels)
			cJSON_AddItemToObject(m, "labels", cJSON_Duplicate(row->labels, 1));
		base = cJSON_AddObjectToObject(m, "base");
		cJSON_AddStringToObject(base, "run", c->runs[0].label);
		add_summary(base, &row->base);
		cells = cJSON_AddArrayToObject(m, "runs");
		for (int r = 1; r < c->nr_runs; r++)
			cJSON_AddItemToArray(cells, json_cell(&row->cells[r - 1], c->runs[r].label));
		cJSON_AddItemToArray(metrics, m);
	}
	return doc;
}
