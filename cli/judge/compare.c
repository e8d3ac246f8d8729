// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing runs: each metric of the other runs against the base run's,
 * boot by boot, and warnings when more than the allocator differs; the
 * result as a table and as JSON is compare_output.c's.
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
#include "json.h"
#include "noise.h"
#include "numfmt.h"
#include "results.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Boots kept though their kernel reported a starved vCPU: their counts and
 * memory stand, their times and anything timed by the guest's clock do not.
 */
static void warn_starved(struct comparison *c, const char *path, const cJSON *doc)
{
	const char *line, *first = NULL;
	int n = 0, all = run_nr_boots(doc);

	for (int b = 0; b < all; b++) {
		line = boot_console_starved(doc, b);
		if (!line)
			continue;
		first = first ? first : line;
		n++;
	}
	if (n)
		add_warning(c, xasprintf("%s: %d of %d boots reported a vCPU that waited for its "
					 "turn on the host beyond a detector's limit (first: %s): "
					 "their memory and counts stand, not their times",
					 path, n, all, first));
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
			va = json_short(a);
			vb = json_short(b);
			add_warning(c, xasprintf("%s and %s differ in more than the allocator: %s %s vs %s",
						 base->path, run->path, run_same_fields[f].what, va, vb));
			free(va);
			free(vb);
		}
	}
	for (int r = 0; r < c->nr_runs; r++) {
		char *list;

		warn_starved(c, c->runs[r].path, docs[r]);
		if (c->runs[r].jobs > 1)
			add_warning(c, xasprintf("%s booted %.0f guests at once (-j %.0f): its times "
						 "include the other guests' use of the host's cores and "
						 "caches, and are not a serial run's", c->runs[r].path,
						 c->runs[r].jobs, c->runs[r].jobs));
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

/* Whether the boots of either side differ: under the cost model, boots of other seeds. */
static bool boots_spread(const struct cmp_row *row, const struct cmp_cell *x)
{
	return row->base.stddev > 0 || x->s.stddev > 0;
}

/*
 * Times are tested across boots; so are the cost model's simulated misses
 * (kind model), which move with the physical placement of what they
 * touch, when the boots spread on either side: without a spread there is
 * nothing to tell a change from another placement, and no test. The
 * model's counts are exact when every boot gives the same; a count that
 * differs between boots of other seeds (a window that takes pages from
 * the page allocator, whose lists the seed changes) is tested like a miss.
 */
static bool tests_kind(const struct cmp_row *row, const struct cmp_cell *x)
{
	if (row->kind == KIND_MODEL || (row->kind == KIND_EXACT && cost_unit(row->unit)))
		return boots_spread(row, x);
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
 * Samples of a time (or its TSC twin) below what the clock resolves: 0
 * or less (the empty loop's time, subtracted from the timed loop's, was
 * as long or longer: fastpath with iters=100 gave -5465 ns per op), or
 * below the sample's own "resolution" where the module gives one (a
 * step of the clock for each interval summed into the sample and its
 * twin, per operation). Such a metric is not a time.
 */
static int unresolved(const cJSON *m, enum metric_kind kind)
{
	const cJSON *s, *res = metric_resolution(m);
	int n = 0, i = 0;

	if (kind != KIND_TIME && kind != KIND_CYCLES)
		return 0;
	cJSON_ArrayForEach(s, metric_samples(m)) {
		const cJSON *r = cJSON_GetArrayItem(res, i++);

		n += s->valuedouble <= 0 || (cJSON_IsNumber(r) && s->valuedouble < r->valuedouble);
	}
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
	/* The cost model's counts the same in every boot: a change is a change, untested. */
	x->exact = cost_unit(row->unit) && row->kind == KIND_EXACT && !boots_spread(row, x);
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
	add_warning(c, xasprintf("%s: test %d: %s: %d of %d samples are below the clock's "
				 "resolution (0 or less once the empty loop is subtracted, or "
				 "below the resolution the module gives): not a time, not "
				 "compared (run more iterations)",
				 c->runs[r].path, test + 1, m->string,
				 unresolved(m, KIND_TIME),
				 cJSON_GetArraySize(metric_samples(m))));
}

/* The cost model's counts of run @r's test @test that are absent, every window rejected. */
static void warn_absent(struct comparison *c, int r, int test, const cJSON *t)
{
	struct strbuf names = { 0 };
	const cJSON *m;
	char *why = NULL;

	cJSON_ArrayForEach(m, test_absent_metrics(t)) {
		sb_addf(&names, "%s%s", names.s ? ", " : "", m->string);
		if (!why)
			why = cost_rejected_words(m);
	}
	if (names.s)
		add_warning(c, xasprintf("%s: test %d: %s; absent, not compared: %s",
					 c->runs[r].path, test + 1, why ? why : "every window rejected",
					 names.s));
	free(why);
	free(names.s);
}

static void add_rows(struct comparison *c, const cJSON *const *docs, int test,
		     const cJSON *noise)
{
	const cJSON *bt = run_test(docs[0], test);
	const cJSON *m;

	cJSON_ArrayForEach(m, test_metrics(bt)) {
		struct cost_rejected rej;
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
		cost_rejected(m, &rej);
		row->rejected = rej.windows;
		if (row->unresolved)
			warn_unresolved(c, 0, test, m);
		c->nr_floors += !isnan(row->floor);
		boot_summary(m, &row->base, &row->lbase, &row->base_within);
		row->log = !kind_shows_difference(row->kind) && row->lbase.n;
		row->base_value = row->log ? exp(row->lbase.mean) : row->base.mean;
		for (int r = 1; r < c->nr_runs; r++) {
			const cJSON *o = test_metric(run_test(docs[r], test), m->string);

			if (!o) {
				row->cells[r - 1].absent = cost_rejected_words(
					test_absent_metric(run_test(docs[r], test), m->string));
				continue;
			}
			cost_rejected(o, &rej);
			row->cells[r - 1].rejected = rej.windows;
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
	for (int r = 0; r < c->nr_runs; r++)
		warn_absent(c, r, test, run_test(docs[r], test));
	/* Metrics only the other runs have (another module version). */
	for (int r = 1; r < c->nr_runs; r++) {
		cJSON_ArrayForEach(m, test_metrics(run_test(docs[r], test)))
			if (!test_metric(bt, m->string) && !test_absent_metric(bt, m->string))
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
	for (int i = 0; i < c->nr_rows; i++) {
		for (int r = 1; r < c->nr_runs; r++)
			free(c->rows[i].cells[r - 1].absent);
		free(c->rows[i].cells);
	}
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
			if (x->exact && (row->rejected || x->rejected)) {
				char *n = cost_rejected_count(row->rejected + x->rejected);

				sb_addf(&b, " (%s: the scheduler entered %s)", n,
					row->rejected + x->rejected == 1 ? "it" : "them");
				free(n);
			}
			if (!x->exact)
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
