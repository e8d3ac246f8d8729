// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing runs: each metric of the other runs against the base run's,
 * boot by boot, warnings when more than the allocator differs, and the
 * result as a table and as JSON.
 *
 * Why Welch's t-test on boot medians and not Mann-Whitney: with 3 to 5
 * boots a side, Mann-Whitney's smallest two-sided p is 0.1, 0.029 and
 * 0.008, which no Benjamini-Hochberg correction over dozens of metrics
 * lets through; a boot's median of 15 repeats is close to normal across
 * boots, which is what Welch's test needs, and it does not assume equal
 * spread in the two kernels.
 */
#define _GNU_SOURCE
#include "compare.h"
#include "cost.h"
#include "noise.h"
#include "numfmt.h"
#include "results.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One other run per table: its change, interval, floor, power and mark fit in 106 columns. */
#define METRIC_WIDTH 24

cJSON **compare_load(const char *const *paths, int n, bool allow_partial)
{
	cJSON **docs = xcalloc(n, sizeof(*docs));

	for (int i = 0; i < n; i++) {
		docs[i] = results_load(paths[i]);
		if (!docs[i] || run_check(paths[i], docs[i], allow_partial)) {
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
		add_warning(c, xasprintf("times were emulated (%s) in every run: they measure how "
					 "fast the host emulated the guest, not hardware, and their "
					 "ratios are not hardware's ratios", base->accel));
	else if (emulated)
		add_warning(c, xasprintf("times were emulated in %s: they measure how fast the host "
					 "emulated the guest, not hardware; do not compare them with "
					 "times from another accelerator", emulated));
	free(emulated);
}

/*
 * Each boot's median, summarised over the boots (@s), and their
 * logarithms (@ls; n = 0 when one is not positive).
 */
static void boot_summary(const cJSON *m, struct summary *s, struct summary *ls, double *within)
{
	double *x;
	size_t n = metric_boot_medians(m, &x, within), i;

	summarize(x, n, s);
	for (i = 0; i < n && x[i] > 0; i++)
		x[i] = log(x[i]);
	summarize(x, i == n ? n : 0, ls);
	free(x);
}

/*
 * Times are tested across boots; so are the cost model's simulated misses
 * (kind model), which move with the physical placement of what they
 * touch, when the boots spread on either side: without a spread there is
 * nothing to tell a change from another placement, and no test.
 */
static bool tests_kind(const struct cmp_row *row, const struct cmp_cell *x)
{
	if (row->kind == KIND_MODEL)
		return row->base.stddev > 0 || x->s.stddev > 0;
	return row->kind == KIND_TIME;
}

/* The percent change, its interval and test, of a log row's cell. */
static void fill_log(struct cmp_cell *x, const struct cmp_row *row, double alpha, bool testable)
{
	double lo, hi;

	x->value = exp(x->ls.mean);
	x->pct = 100 * expm1(x->ls.mean - row->lbase.mean);
	x->has_pct = true;
	x->has_ci = !difference_ci(&row->lbase, &x->ls, alpha, &lo, &hi);
	if (x->has_ci) {
		x->ci_lo = 100 * expm1(lo);
		x->ci_hi = 100 * expm1(hi);
	}
	x->tested = tests_kind(row, x) && testable && !welch_test(&row->lbase, &x->ls, &x->w);
	x->worse = row->higher_better ? x->ls.mean < row->lbase.mean : x->ls.mean > row->lbase.mean;
}

/*
 * Samples of a time (or its TSC twin) that are 0 or less: the empty
 * loop's time, subtracted from the timed loop's, was as long or longer,
 * which happens when the whole timed loop is shorter than the clock
 * resolves (fastpath with iters=100 gave -5465 ns per op). Such a metric
 * is not a time.
 */
static int unresolved(const cJSON *m, enum metric_kind kind)
{
	const cJSON *s;
	int n = 0;

	if (kind != KIND_TIME && kind != KIND_CYCLES)
		return 0;
	cJSON_ArrayForEach(s, metric_samples(m))
		n += s->valuedouble <= 0;
	return n;
}

/* The cell's floor at its boots, and the smallest change its test detects. */
static void fill_power(struct cmp_cell *x, const struct cmp_row *row, double alpha)
{
	double d, gate, base = fabs(row->base.mean);

	x->floor = isnan(row->floor) ? NAN :
		   noise_floor_scaled(row->floor, row->floor_boots, row->base.n, x->s.n);
	x->detectable = NAN;
	if (!x->tested)
		return;
	if (row->log && x->ls.n) {
		gate = isnan(x->floor) ? 0 : log1p(x->floor / 100);
		if (!detectable_difference(&row->lbase, &x->ls, alpha, CMP_POWER, gate, &d))
			x->detectable = 100 * expm1(d);
	} else if (base > 0) {
		gate = isnan(x->floor) ? 0 : x->floor / 100 * base;
		if (!detectable_difference(&row->base, &x->s, alpha, CMP_POWER, gate, &d))
			x->detectable = 100 * d / base;
	}
}

static void fill_cell(struct cmp_cell *x, const struct cmp_row *row, const cJSON *m,
		      double alpha, bool testable)
{
	x->present = true;
	x->q = NAN;
	x->unresolved = unresolved(m, row->kind);
	testable &= !x->unresolved && !row->unresolved;
	boot_summary(m, &x->s, &x->ls, &x->within);
	x->diff = x->s.mean - row->base.mean;
	if (row->log && x->ls.n) {
		fill_log(x, row, alpha, testable);
	} else {
		x->value = x->s.mean;
		x->has_pct = !percent_change(&row->base, &x->s, &x->pct);
		if (kind_shows_difference(row->kind))
			x->has_ci = !difference_ci(&row->base, &x->s, alpha, &x->ci_lo, &x->ci_hi);
		else
			x->has_ci = !percent_change_ci(&row->base, &x->s, alpha, &x->ci_lo,
						       &x->ci_hi);
		x->tested = tests_kind(row, x) && testable &&
			    !welch_test(&row->base, &x->s, &x->w);
		x->worse = row->higher_better ? x->s.mean < row->base.mean :
			   x->s.mean > row->base.mean;
	}
	/* The cost model's counts repeat exactly: a change is a change, untested. */
	x->exact = cost_unit(row->unit) && row->kind == KIND_EXACT;
	if (x->exact)
		x->tested = false;
	if (x->unresolved || row->unresolved)
		x->has_pct = x->has_ci = false;
	fill_power(x, row, alpha);
	x->beyond_floor = isnan(x->floor) || !x->has_pct || fabs(x->pct) > x->floor;
}

/*
 * Benjamini-Hochberg over the tested metrics of each other run: a
 * comparison of ~70 times at alpha 0.05 would otherwise flag about 3 by
 * chance alone.
 */
static void adjust(struct comparison *c)
{
	double *p = xcalloc(c->nr_rows ? c->nr_rows : 1, sizeof(*p));
	double *q = xcalloc(c->nr_rows ? c->nr_rows : 1, sizeof(*q));

	for (int r = 1; r < c->nr_runs; r++) {
		for (int i = 0; i < c->nr_rows; i++) {
			const struct cmp_cell *x = &c->rows[i].cells[r - 1];

			p[i] = x->present && x->tested ? x->w.p : NAN;
		}
		bh_adjust(p, c->nr_rows, q);
		for (int i = 0; i < c->nr_rows; i++) {
			struct cmp_cell *x = &c->rows[i].cells[r - 1];

			x->q = q[i];
			x->significant = x->present && x->tested && q[i] < c->alpha &&
					 x->beyond_floor;
			if (x->exact)
				x->significant = x->present && x->s.mean != c->rows[i].base.mean;
			x->inside_floor = x->present && x->tested && q[i] < c->alpha &&
					  !x->beyond_floor;
		}
	}
	free(p);
	free(q);
}

static void warn_unresolved(struct comparison *c, int r, int test, const cJSON *m)
{
	add_warning(c, xasprintf("%s: test %d: %s: %d of %d samples are 0 or less once the "
				 "empty loop is subtracted: the timed loop is shorter than the "
				 "clock resolves; not a time, not compared (run more iterations)",
				 c->runs[r].path, test + 1, m->string,
				 unresolved(m, KIND_TIME),
				 cJSON_GetArraySize(metric_samples(m))));
}

static void add_rows(struct comparison *c, const cJSON *const *docs, int test,
		     const cJSON *noise)
{
	const cJSON *bt = run_test(docs[0], test);
	const cJSON *m;

	cJSON_ArrayForEach(m, test_metrics(bt)) {
		struct cmp_row *row;
		int k = 0;
		double floor = noise_floor(noise, c->runs[0].accel, c->runs[0].cpus, test_spec(bt),
					   m->string, &k);

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
			.floor = floor,
			.floor_boots = k,
		};
		/* run_check() refused unknown units. */
		metric_kind(row->unit, &row->kind);
		if (row->kind != KIND_TIME)
			row->floor = NAN;
		row->unresolved = unresolved(m, row->kind);
		if (row->unresolved)
			warn_unresolved(c, 0, test, m);
		c->nr_floors += !isnan(row->floor);
		boot_summary(m, &row->base, &row->lbase, &row->base_within);
		row->log = !kind_shows_difference(row->kind) && row->lbase.n;
		row->base_value = row->log ? exp(row->lbase.mean) : row->base.mean;
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
			fill_cell(&row->cells[r - 1], row, o, c->alpha,
				  c->boots[0] >= CMP_MIN_BOOTS && c->boots[r] >= CMP_MIN_BOOTS);
			if (row->cells[r - 1].unresolved)
				warn_unresolved(c, r, test, o);
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

/* A metric's boots: its per-boot record, else one boot of every sample. */
static int doc_boots(const cJSON *doc)
{
	int most = 0;

	for (int t = 0; t < run_nr_tests(doc); t++) {
		const cJSON *m;

		cJSON_ArrayForEach(m, test_metrics(run_test(doc, t))) {
			const cJSON *b = metric_boots(m);
			int k = b ? cJSON_GetArraySize(b) : 1;

			most = k > most ? k : most;
		}
	}
	return most;
}

int compare_build(struct comparison *c, const char *const *paths, const cJSON *const *docs,
		  int n, double alpha, const cJSON *noise, const char *noise_path)
{
	*c = (struct comparison){ .alpha = alpha, .matters = CMP_MATTERS, .nr_runs = n };
	for (int r = 1; r < n; r++) {
		char *why = workload_difference(docs[0], docs[r]);

		if (why) {
			error("%s and %s ran different workloads: %s", paths[0], paths[r], why);
			free(why);
			return -1;
		}
	}
	c->runs = run_ids(paths, docs, n);
	c->boots = xcalloc(n, sizeof(*c->boots));
	for (int r = 0; r < n; r++)
		c->boots[r] = doc_boots(docs[r]);
	warn_differences(c, docs);
	for (int t = 0; t < run_nr_tests(docs[0]); t++)
		add_rows(c, docs, t, noise);
	adjust(c);
	if (noise)
		c->floor_note = xasprintf("noise floor: %d of %d metrics have one under %s at %.0f "
					  "CPUs, from %s, scaled to the boots compared",
					  c->nr_floors, c->nr_rows, c->runs[0].accel, c->runs[0].cpus,
					  noise_path ? noise_path : "the floor file");
	else if (noise_path)
		c->floor_note = xasprintf("no noise floor at %s (slabbench noise measures one): "
					  "changes are judged by statistics alone", noise_path);
	return 0;
}

char *compare_untested_why(const struct comparison *c, int r)
{
	if (c->boots[0] >= CMP_MIN_BOOTS && c->boots[r] >= CMP_MIN_BOOTS)
		return NULL;
	return xasprintf("%s has %d boot%s, %s %d: a test across boots needs %d a side",
			 c->runs[r].label, c->boots[r], c->boots[r] == 1 ? "" : "s",
			 c->runs[0].label, c->boots[0], CMP_MIN_BOOTS);
}

bool compare_row_emulated(const struct comparison *c, const struct cmp_row *row)
{
	for (int r = 0; r < c->nr_runs; r++)
		if (row->kind == KIND_TIME && c->runs[r].emulated)
			return true;
	return false;
}

void compare_free(struct comparison *c)
{
	run_ids_free(c->runs, c->nr_runs);
	free(c->boots);
	free(c->floor_note);
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
			char pct[32] = "from a zero base", pv[16], qv[16];

			if (!regression_exceeds(x, threshold))
				continue;
			fmt_p(pv, sizeof(pv), x->w.p);
			fmt_p(qv, sizeof(qv), x->q);
			if (x->has_pct)
				fmt_compact(pct, sizeof(pct), x->pct, 2, true, "%");
			sb_addf(&b, "regression: test %d (%s): %s %s in %s against %s (%s is better), ",
				row->test + 1, row->spec, row->metric, pct, c->runs[r].label,
				c->runs[0].label, row->higher_better ? "higher" : "lower");
			if (x->exact)
				sb_addf(&b, "exact counts of the cost model");
			else
				sb_addf(&b, "p %s, BH q %s", pv, qv);
			if (!x->exact && !isnan(x->floor))
				sb_addf(&b, ", floor %.2f%%", x->floor);
			sb_addf(&b, "\n");
			count++;
		}
	}
	*report = b.s;
	return count;
}

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
		char *v = short_value(l);

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

const char *compare_row_note(const struct comparison *c, const struct cmp_row *row)
{
	bool slub = false;

	for (int r = 0; r < c->nr_runs; r++)
		slub |= !strcmp(c->runs[r].allocator, "SLUB");
	if (!slub || strcmp(row->test_name, "hitrate") || strncmp(row->metric, "free_", 5))
		return NULL;
	return "SLUB's free miss is __slab_free(): a lockless cmpxchg onto the slab's own "
	       "freelist (list_lock only when the slab changes lists); SLAB's is a flush of "
	       "its per-CPU array to the node under list_lock. Not the same work.";
}

int compare_power(const struct comparison *c, int r, int *able, const struct cmp_row **best)
{
	int tested = 0;

	*able = 0;
	*best = NULL;
	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_cell *x = &c->rows[i].cells[r - 1];

		if (!x->present || !x->tested || isnan(x->detectable))
			continue;
		tested++;
		*able += x->detectable <= c->matters;
		if (!*best || x->detectable < (*best)->cells[r - 1].detectable)
			*best = &c->rows[i];
	}
	return tested;
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
		if (!isnan(x->floor))
			fmt_compact(floor, sizeof(floor), x->floor, 1, false, "%");
		if (!isnan(x->detectable))
			fmt_compact(detect, sizeof(detect), x->detectable, 1, false, "%");
		if (x->significant)
			strcpy(mark, x->worse ? "*worse" : "*better");
		else if (x->inside_floor)
			strcpy(mark, "floor");
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

			sb_wrap(b, 6, 80, line);
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
	sb_wrap(b, 2, 80, line);
	free(line);
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
		    "unresolved: a time with samples <= 0, its loop shorter than the clock\n"
		    "resolves: not a time\n"
		    "kind: time (tested), emulated (a time under TCG: the host's speed, not\n"
		    "hardware's), cycles (TSC twin of a time), exact (counts), model (simulated);\n"
		    "times are tested, and model counts when their boots spread (else not\n"
		    "judged); exact counts change by any difference. *better, *worse: BH-adjusted\n"
		    "p < %s and beyond the floor, in the metric's good or bad direction; floor:\n"
		    "p < %s but inside it\n",
		a, a, a);
	if (c->floor_note)
		sb_wrap(&b, 2, 80, c->floor_note);
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

	if (!x->present)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
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
				"at alpha before BH: max(floor, t(1-alpha/2) se) + t(0.8) se on the "
				"log scale, t quantiles for the noncentral t's");
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
	if (c->floor_note)
		cJSON_AddStringToObject(doc, "floor", c->floor_note);
	else
		cJSON_AddNullToObject(doc, "floor");
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
		cells = cJSON_AddArrayToObject(m, "runs");
		for (int r = 1; r < c->nr_runs; r++)
			cJSON_AddItemToArray(cells, json_cell(row, &row->cells[r - 1], c->runs[r].label));
		cJSON_AddItemToArray(metrics, m);
	}
	return doc;
}
