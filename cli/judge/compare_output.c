// SPDX-License-Identifier: GPL-2.0
/*
 * A comparison (compare.c) as slabbench compare prints it: a table per
 * other run, every figure of each metric, and the same as JSON.
 */
#define _GNU_SOURCE
#include "compare.h"
#include "json.h"
#include "numfmt.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One other run per table: its change, interval, floor, power and mark fit in 106 columns. */
#define METRIC_WIDTH 24

/* Values in 9 columns: two decimals while they fit, else whole. */
static void fmt_value(char *out, size_t size, double v)
{
	fmt_fixed(out, size, v, fabs(v) < 1e6 ? 2 : 0, false, "");
}

static char *row_name(const struct cmp_row *row)
{
	struct strbuf b = { 0 };
	const cJSON *l;

	sb_addf(&b, "%s", row->metric);
	cJSON_ArrayForEach(l, row->labels) {
		char *v = json_short(l);

		sb_addf(&b, " %s=%s", l->string, v);
		free(v);
	}
	sb_addf(&b, " (%s)", row->unit);
	return b.s;
}

/* The change as its kind shows it: percent, percentage points or a difference. */
static void fmt_change(char *out, size_t size, const struct cmp_row *row, double pct, double diff,
		       bool has_pct)
{
	if (!strcmp(row->unit, "%"))
		fmt_fixed(out, size, diff, 2, true, "pp");
	else if (kind_shows_difference(row->kind))
		fmt_sig(out, size, diff, 4, true, "");
	else if (has_pct)
		/* In 9 columns while it is below a million percent. */
		fmt_compact(out, size, pct, 2, true, "%");
	else
		snprintf(out, size, "n/a");
}

static const char *kind_label(const struct comparison *c, const struct cmp_row *row)
{
	return compare_row_emulated(c, row) ? "emulated" : metric_kind_name(row->kind);
}

static void text_cell(struct strbuf *b, const struct cmp_row *row, const struct cmp_cell *x)
{
	char mean[32] = "-", change[32] = "", ci[56] = "", floor[16] = "", mark[16] = "";
	char detect[16] = "", lo[24], hi[24];

	if (x->present && (x->unresolved || row->unresolved)) {
		strcpy(mark, "unresolved");
	} else if (x->present) {
		fmt_value(mean, sizeof(mean), x->value);
		fmt_change(change, sizeof(change), row, x->pct, x->diff, x->has_pct);
		/* A count the same in every boot has a point for an interval. */
		if (x->has_ci && kind_shows_difference(row->kind) && x->ci_lo != x->ci_hi) {
			fmt_sig(lo, sizeof(lo), x->ci_lo, 3, true, "");
			fmt_sig(hi, sizeof(hi), x->ci_hi, 3, true, "");
			snprintf(ci, sizeof(ci), "%s..%s", lo, hi);
		} else if (x->has_ci && kind_shows_difference(row->kind)) {
			snprintf(ci, sizeof(ci), "exact");
		} else if (x->has_ci) {
			fmt_compact(lo, sizeof(lo), x->ci_lo, 1, true, "");
			fmt_compact(hi, sizeof(hi), x->ci_hi, 1, true, "%");
			snprintf(ci, sizeof(ci), "%s..%s", lo, hi);
		}
		/* Counts of the windows kept: say how many were rejected. */
		if (row->rejected || x->rejected) {
			size_t n = strlen(ci);

			snprintf(ci + n, sizeof(ci) - n, "%s%d rej.", n ? ", " : "",
				 row->rejected + x->rejected);
		}
		if (!isnan(x->floor))
			fmt_compact(floor, sizeof(floor), x->floor, 1, false, "%");
		if (!isnan(x->detectable))
			fmt_compact(detect, sizeof(detect), x->detectable, 1, false, "%");
		if (x->significant)
			strcpy(mark, x->worse ? "*worse" : "*better");
		else if (x->inside_floor)
			strcpy(mark, "floor");
	} else if (x->absent) {
		strcpy(mark, "absent");
	}
	sb_addf(b, " %9s %9s %15s %6s %6s %s", mean, change, ci, floor, detect, mark);
}

static void fmt_within(char *out, size_t size, double within)
{
	if (isnan(within))
		snprintf(out, size, "-");
	else
		snprintf(out, size, "%.1f%%", 100 * within);
}

static void text_table(struct strbuf *b, const struct comparison *c, int first_row, int end_row,
		       int r)
{
	/* Each run's name over its value: a long one reaches to the left. */
	sb_addf(b, "%*s%9s%-7s %9s\n", METRIC_WIDTH + 9, "", c->runs[0].label, "",
		c->runs[r].label);
	sb_addf(b, "%-*s%-8s %9s %6s %9s %9s %15s %6s %6s %s\n", METRIC_WIDTH, "metric (unit)",
		"kind", "value", "wIQR", "value", "change", "95% CI", "floor", "detect", "mark");
	for (int i = first_row; i < end_row; i++) {
		const struct cmp_row *row = &c->rows[i];
		char *name = row_name(row), mean[32], within[16];

		/* A long name gets a line of its own: the columns stay put. */
		if (strlen(name) > METRIC_WIDTH - 1)
			sb_addf(b, "%s\n%*s", name, METRIC_WIDTH, "");
		else
			sb_addf(b, "%-*s", METRIC_WIDTH, name);
		if (row->unresolved)
			strcpy(mean, "-");
		else
			fmt_value(mean, sizeof(mean), row->base_value);
		fmt_within(within, sizeof(within), row->unresolved ? NAN : row->base_within);
		sb_addf(b, "%-8s %9s %6s", kind_label(c, row), mean, within);
		text_cell(b, row, &row->cells[r - 1]);
		sb_endline(b);
		free(name);
	}
	for (int i = first_row; i < end_row; i++) {
		const char *note = compare_row_note(c, &c->rows[i]);

		if (note) {
			char *line = xasprintf("note: %s", note);

			sb_wrap(b, 0, 6, 80, line);
			free(line);
			break;
		}
	}
}

/* Whether run @r's tests could have found a change of the size that matters. */
static void text_power(struct strbuf *b, const struct comparison *c, int r)
{
	const struct cmp_row *best;
	int able, tested = compare_power(c, r, &able, &best);
	char d[24], m[24], *line;

	if (!tested)
		return;
	fmt_compact(d, sizeof(d), best->cells[r - 1].detectable, 1, false, "%");
	fmt_sig(m, sizeof(m), c->matters, 3, false, "%");
	line = xasprintf("power of %s: %d of %d tested times could detect a change of %s; the "
			 "smallest detectable is %s (%s, test %d)%s%s%s", c->runs[r].label, able,
			 tested, m, d, best->metric, best->test + 1,
			 able ? "" : ": a change of ", able ? "" : m,
			 able ? "" : " could have gone unseen in every one");
	sb_wrap(b, 0, 2, 80, line);
	free(line);
}

/* Whether a window of the cost model was rejected in any run. */
static bool rejections(const struct comparison *c)
{
	for (int i = 0; i < c->nr_rows; i++)
		for (int r = 1; r < c->nr_runs; r++)
			if (c->rows[i].rejected || c->rows[i].cells[r - 1].rejected ||
			    c->rows[i].cells[r - 1].absent)
				return true;
	return false;
}

char *compare_text(const struct comparison *c)
{
	struct strbuf b = { 0 };
	int i = 0;
	char a[24];

	/* Fixed notation: alpha 1e-05 prints as 0.00001. */
	fmt_sig(a, sizeof(a), c->alpha, 3, false, "");

	sb_addf(&b, "slabbench compare: boots as the unit; Welch's t-test on boot medians,\n"
		    "Benjamini-Hochberg at false discovery rate %s\n\n", a);
	sb_addf(&b, "  %-4s  %-10s %-10s %-10s %-19s %5s %s\n", "", "run", "allocator", "kernel",
		"accelerator", "boots", "file");
	for (int r = 0; r < c->nr_runs; r++) {
		const struct run_id *run = &c->runs[r];
		char *accel = xasprintf("%s%s", run->accel, run->emulated ? ", emulated time" : "");

		sb_addf(&b, "  %-4s  %-10s %-10s %-10s %-19s %5d %s\n", r ? "" : "base", run->label,
			run->allocator, run->release, accel, c->boots[r], run->path);
		free(accel);
	}
	sb_addf(&b, "\nvalue = geometric mean over boots of each boot's median (times, cycles; the\n"
		    "arithmetic mean for counts); wIQR = spread within a boot (median over boots\n"
		    "of IQR / median); change = value / base - 1 (t-test and CI on the logs), in\n"
		    "percentage points for %% and as a difference for exact and model counts;\n"
		    "95%% CI of the change; floor = A/A noise floor (95th percentile of |change|\n"
		    "between halves of k boots), its log scaled by sqrt((1/na + 1/nb) / (2/k))\n"
		    "to the na and nb boots compared; detect = the smallest rise the test and\n"
		    "floor find with 80%% power at alpha %s before BH (a fall: 1/(1+d) - 1);\n"
		    "unresolved: a time with samples below the clock's resolution (<= 0, or\n"
		    "below the module's resolution per op): not a time\n"
		    "kind: time (tested), emulated (a time under TCG: the host's speed, not\n"
		    "hardware's), cycles (TSC twin of a time), exact (counts), model (simulated);\n"
		    "times are tested, and model counts when their boots spread (else not\n"
		    "judged); exact counts change by any difference. *better, *worse: BH-adjusted\n"
		    "p < %s and beyond the floor, in the metric's good or bad direction; floor:\n"
		    "p < %s but inside it\n",
		a, a, a);
	if (rejections(c))
		sb_addf(&b, "N rej.: counts of the cost model's windows kept (exact, where so\n"
			    "marked), N windows of both runs rejected because a context switch\n"
			    "entered them; absent: every window rejected (the warnings say why)\n");
	if (c->floor_note)
		sb_wrap(&b, 0, 2, 80, c->floor_note);
	for (int r = 1; r < c->nr_runs; r++) {
		char *why = compare_untested_why(c, r);

		if (why)
			sb_addf(&b, "no significance marks: %s\n", why);
		free(why);
		text_power(&b, c, r);
	}
	while (i < c->nr_rows) {
		int end = i;

		while (end < c->nr_rows && c->rows[end].test == c->rows[i].test)
			end++;
		sb_addf(&b, "\ntest %d: %s\n", c->rows[i].test + 1, c->rows[i].spec);
		for (int r = 1; r < c->nr_runs; r++) {
			if (r > 1)
				sb_addf(&b, "\n");
			text_table(&b, c, i, end, r);
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

/* Over boot medians: n is the boots. */
static void add_summary(cJSON *o, const struct summary *s, double within)
{
	cJSON_AddNumberToObject(o, "boots", s->n);
	add_number(o, "mean", s->mean);
	add_number(o, "median", s->median);
	add_number(o, "iqr", s->q3 - s->q1);
	add_number(o, "stddev", s->stddev);
	add_number(o, "cov", s->cov);
	add_number(o, "within_iqr", within);
}

static void add_pair(cJSON *o, const char *key, bool has, double lo, double hi)
{
	cJSON *a;

	if (!has) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	a = cJSON_AddArrayToObject(o, key);
	cJSON_AddItemToArray(a, cJSON_CreateNumber(lo));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(hi));
}

static cJSON *json_cell(const struct cmp_row *row, const struct cmp_cell *x, const char *label)
{
	bool diff = kind_shows_difference(row->kind);
	cJSON *o;

	if (!x->present && !x->absent)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	if (!x->present) {
		cJSON_AddStringToObject(o, "run", label);
		cJSON_AddStringToObject(o, "absent", x->absent);
		return o;
	}
	cJSON_AddStringToObject(o, "run", label);
	add_number(o, "value", x->value);
	add_summary(o, &x->s, x->within);
	if (x->has_pct)
		add_number(o, "change_pct", x->pct);
	else
		cJSON_AddNullToObject(o, "change_pct");
	add_number(o, "change", x->diff);
	add_pair(o, "change_pct_ci", x->has_ci && !diff, x->ci_lo, x->ci_hi);
	add_pair(o, "change_ci", x->has_ci && diff, x->ci_lo, x->ci_hi);
	cJSON_AddBoolToObject(o, "tested", x->tested);
	cJSON_AddBoolToObject(o, "exact", x->exact);
	if (x->tested) {
		add_number(o, "t", x->w.t);
		add_number(o, "df", x->w.df);
		add_number(o, "p", x->w.p);
		add_number(o, "q", x->q);
	} else {
		cJSON_AddNullToObject(o, "t");
		cJSON_AddNullToObject(o, "df");
		cJSON_AddNullToObject(o, "p");
		cJSON_AddNullToObject(o, "q");
	}
	add_number(o, "floor_pct", x->floor);
	add_number(o, "detectable_pct", x->detectable);
	cJSON_AddNumberToObject(o, "unresolved_samples", x->unresolved);
	cJSON_AddNumberToObject(o, "rejected_windows", x->rejected);
	cJSON_AddBoolToObject(o, "beyond_floor", x->beyond_floor);
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
	cJSON_AddStringToObject(doc, "test", "Welch's unequal-variance t-test, two-sided, on the "
				"logarithm of each boot's median (scale log; linear when a median "
				"is not positive); times only");
	cJSON_AddStringToObject(doc, "correction", "Benjamini-Hochberg over each run's tested "
				"metrics (q); significant: q < alpha and |change_pct| > the run's "
				"floor_pct");
	cJSON_AddStringToObject(doc, "floor_scaling", "a run's floor_pct: the metric's A/A "
				"floor_pct, its logarithm scaled by sqrt((1/na + 1/nb) / (2/k)) for "
				"na, nb boots compared and k a side in the A/A");
	cJSON_AddStringToObject(doc, "detectable_pct", "the smallest rise found with 80% power "
				"at alpha before BH on the log scale: the noncentral t's power "
				"that |t| > t(1-alpha/2) and the change exceeds the floor, at "
				"Welch's degrees of freedom");
	cJSON_AddNumberToObject(doc, "power", CMP_POWER);
	cJSON_AddNumberToObject(doc, "matters_pct", c->matters);
	cJSON_AddNumberToObject(doc, "alpha", c->alpha);
	cJSON_AddNumberToObject(doc, "min_boots", CMP_MIN_BOOTS);
	cJSON_AddStringToObject(doc, "change_pct_ci",
				"1 - alpha; log scale: Welch's interval of the difference of mean "
				"logs, exponentiated; linear: delta method; Welch-Satterthwaite "
				"degrees of freedom");
	cJSON_AddStringToObject(doc, "change_ci", "exact and model kinds: 1 - alpha interval of "
				"the difference, Welch");
	cJSON_AddStringToObject(doc, "rejected_windows", "the cost model's windows left out of "
				"a count's samples because the scheduler entered them or their twin "
				"loop's window (a context switch, or another task runnable); a run "
				"whose every window was rejected has the count absent, with why");
	json_add_string_or_null(doc, "floor", c->floor_note);
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
		cJSON_AddNumberToObject(o, "boots", c->boots[r]);
		cJSON_AddItemToArray(runs, o);
	}
	warnings = cJSON_AddArrayToObject(doc, "warnings");
	for (int i = 0; i < c->nr_warnings; i++)
		cJSON_AddItemToArray(warnings, cJSON_CreateString(c->warnings[i]));
	for (int r = 1; r < c->nr_runs; r++) {
		char *why = compare_untested_why(c, r);
		char *line = why ? xasprintf("no significance marks: %s", why) : NULL;

		if (line)
			cJSON_AddItemToArray(warnings, cJSON_CreateString(line));
		free(line);
		free(why);
	}
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
		cJSON_AddStringToObject(m, "kind", metric_kind_name(row->kind));
		cJSON_AddStringToObject(m, "scale", row->log ? "log" : "linear");
		cJSON_AddBoolToObject(m, "emulated", compare_row_emulated(c, row));
		add_number(m, "floor_pct", row->floor);
		if (!isnan(row->floor))
			cJSON_AddNumberToObject(m, "floor_boots_per_side", row->floor_boots);
		else
			cJSON_AddNullToObject(m, "floor_boots_per_side");
		cJSON_AddNumberToObject(m, "unresolved_samples", row->unresolved);
		if (compare_row_note(c, row))
			cJSON_AddStringToObject(m, "note", compare_row_note(c, row));
		if (row->labels)
			cJSON_AddItemToObject(m, "labels", cJSON_Duplicate(row->labels, 1));
		base = cJSON_AddObjectToObject(m, "base");
		cJSON_AddStringToObject(base, "run", c->runs[0].label);
		add_number(base, "value", row->base_value);
		add_summary(base, &row->base, row->base_within);
		cJSON_AddNumberToObject(base, "rejected_windows", row->rejected);
		cells = cJSON_AddArrayToObject(m, "runs");
		for (int r = 1; r < c->nr_runs; r++)
			cJSON_AddItemToArray(cells, json_cell(row, &row->cells[r - 1], c->runs[r].label));
		cJSON_AddItemToArray(metrics, m);
	}
	return doc;
}
