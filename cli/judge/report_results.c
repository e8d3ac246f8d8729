// SPDX-License-Identifier: GPL-2.0
/*
 * The report's figures of each test: boot medians, the spread within
 * boots, the change with its interval, floor and q (Results), and the
 * allocator's hottest functions where the runs were profiled.
 */
#define _GNU_SOURCE
#include "report_sections.h"
#include "numfmt.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TITLE_WIDTH 24

/* TSC cycles say what ns say: the report shows times once. */
static bool shown_unit(const struct cmp_row *row)
{
	return row->kind != KIND_CYCLES;
}

/* A value over boots and the spread within its boots, in 16 columns. */
static void value_spread(char *out, size_t size, double value, double within)
{
	char mean[32];

	fmt_fixed(mean, sizeof(mean), value, fabs(value) < 1e6 ? 2 : 0, false, "");
	if (!isnan(within))
		snprintf(out, size, "%10s \xc2\xb1%3.0f%%", mean, fmin(999, 100 * within / 2));
	else
		snprintf(out, size, "%10s      ", mean);
}

/* The change as its kind shows it, in 9 columns. */
static void change_text(char *out, size_t size, const struct cmp_row *row,
			const struct cmp_cell *x)
{
	if (!strcmp(row->unit, "%"))
		fmt_fixed(out, size, x->diff, 1, true, "pp");
	else if (kind_shows_difference(row->kind))
		fmt_sig(out, size, x->diff, 4, true, "");
	else if (x->has_pct)
		fmt_pct(out, size, x->pct);
	else
		out[0] = '\0';
}

/* Under a time's figures: its interval, floor and adjusted p. */
static void evidence(struct strbuf *b, const struct comparison *c, const struct cmp_row *row,
		     const struct cmp_cell *x)
{
	struct strbuf s = { 0 };
	char lo[32], hi[32], v[32];

	if (!x->present || kind_shows_difference(row->kind))
		return;
	if (x->unresolved || row->unresolved) {
		sb_addf(b, "%17sunresolved: %d samples of %s and %d of %s are\n"
			"%17sbelow the clock's resolution: not a time\n", "",
			row->unresolved, c->runs[0].label, x->unresolved, c->runs[1].label, "");
		return;
	}
	if (x->has_ci) {
		fmt_pct(lo, sizeof(lo), x->ci_lo);
		fmt_pct(hi, sizeof(hi), x->ci_hi);
		sb_addf(&s, "95%% CI %s to %s", lo, hi);
	} else {
		sb_addf(&s, "no interval");
	}
	if (!isnan(x->floor)) {
		fmt_compact(v, sizeof(v), x->floor, 1, false, "%");
		sb_addf(&s, ", floor \xc2\xb1%s", v);
	}
	if (x->tested) {
		fmt_p(v, sizeof(v), x->q);
		sb_addf(&s, ", q %s", v);
	}
	if (x->inside_floor)
		sb_addf(&s, ", inside the floor");
	sb_addf(b, "%17s%s\n", "", s.s);
	if (!isnan(x->detectable)) {
		fmt_compact(v, sizeof(v), x->detectable, 1, true, "%");
		sb_addf(b, "%17ssmallest change found with 80%% power: %s\n", "", v);
	}
	free(s.s);
}

/* The notes said so far, each once in a report whatever the tests it concerns. */
struct notes {
	const char *said[8];
	int n;
};

/* @note under the test's rows, unless it was said above. */
static void say_note(struct strbuf *b, struct notes *ns, const char *note)
{
	for (int i = 0; i < ns->n; i++)
		if (ns->said[i] == note)
			return;
	if (ns->n < (int)ARRAY_SIZE(ns->said))
		ns->said[ns->n++] = note;
	sb_wrap(b, 2, 2, REPORT_WIDTH, note);
}

/*
 * Whether a table shows @row: every significant change and, unless
 * @changed_only, each test's first metric and every count that differs.
 */
static bool row_shown(const struct cmp_row *row, bool first, bool changed_only)
{
	const struct cmp_cell *x = &row->cells[0];
	/* Counts are exact: any difference in them is shown, and a count gone. */
	bool counted = (kind_shows_difference(row->kind) && x->present && x->diff != 0) ||
		       x->absent;

	if (!shown_unit(row))
		return false;
	if (changed_only)
		return (x->present && x->significant) || x->absent;
	return first || (x->present && x->significant) || counted;
}

/*
 * The table's head and the rows row_shown() picks, at most @max of them;
 * returns how many it showed, *@hidden the rows it did not pick and
 * *@left those it picked beyond @max.
 */
static int results_table(struct strbuf *b, const struct comparison *c, bool changed_only,
			 int max, int *hidden, int *left)
{
	int last_test = -1, shown = 0;
	const char *note = NULL;
	struct notes said = { 0 };

	*hidden = *left = 0;
	sb_addf(b, "%16s %27s\n", c->runs[0].label, c->runs[1].label);
	sb_addf(b, "---------------- ---------------------------\n");
	sb_addf(b, "%16s %9s  %16s  %s\n", "value  \xc2\xb1iqr/2", "change", "value  \xc2\xb1iqr/2",
		"metric");
	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		const struct cmp_cell *x = &row->cells[0];
		char base[48], other[48] = "         -      ", pct[32] = "", *title;
		bool first = row->test != last_test;

		if (!row_shown(row, first, changed_only)) {
			*hidden += 1;
			continue;
		}
		if (shown == max) {
			*left += 1;
			continue;
		}
		shown++;
		if (first) {
			/* What is said of a test's rows, once, under them. */
			if (note)
				say_note(b, &said, note);
			note = NULL;
			sb_addf(b, "\n%.*s\n", REPORT_WIDTH, row->spec + (strncmp(row->spec, "test=", 5) ? 0 : 5));
			last_test = row->test;
		}
		if (row->unresolved)
			snprintf(base, sizeof(base), "%10s      ", "-");
		else
			value_spread(base, sizeof(base), row->base_value, row->base_within);
		if (x->present && !x->unresolved && !row->unresolved) {
			value_spread(other, sizeof(other), x->value, x->within);
			change_text(pct, sizeof(pct), row, x);
		}
		title = xasprintf("%s (%s%s)", row->metric, row->unit,
				  compare_row_emulated(c, row) ? ", emulated" : "");
		/*
		 * The figures take 46 columns (48 bytes: two "±"); a longer
		 * name goes on a line of its own, so that no line passes 72
		 * columns nor 72 bytes.
		 */
		if (strlen(title) > TITLE_WIDTH)
			sb_addf(b, "  %.*s\n", REPORT_WIDTH - 2, title);
		sb_addf(b, "%s %9s%s %s  %s", base, pct, x->present && x->significant ? "*" : " ",
			other, strlen(title) > TITLE_WIDTH ? "" : title);
		sb_endline(b);
		evidence(b, c, row, x);
		if (row->rejected || x->rejected || x->absent) {
			char n[16] = "every one";
			char *why;

			if (!x->absent)
				snprintf(n, sizeof(n), "%d", x->rejected);
			why = xasprintf("windows rejected, the scheduler entered them: %d in %s, "
					"%s in %s", row->rejected, c->runs[0].label, n,
					c->runs[1].label);

			sb_wrap(b, 17, 17, REPORT_WIDTH, why);
			free(why);
		}
		free(title);
		if (compare_row_note(c, row))
			note = compare_row_note(c, row);
	}
	if (note)
		say_note(b, &said, note);
	return shown;
}

/*
 * Each test's first metric, and every significant change; the rest is
 * one line of count (slabbench compare shows all).
 */
void report_results(struct strbuf *b, const struct comparison *c)
{
	int hidden, left;

	sb_addf(b, "\nResults (geometric mean of boot medians \xc2\xb1half the IQR within a\n"
		"boot; * beyond the floor and BH q < %g; counts as means and\n"
		"differences, %% in points)\n\n", c->alpha);
	results_table(b, c, false, -1, &hidden, &left);
	if (hidden) {
		char *more = xasprintf("%d more metrics (TSC cycles, which follow the times, "
				       "times that did not change significantly and counts that "
				       "did not change): see slabbench compare.", hidden);

		sb_addf(b, "\n");
		sb_wrap(b, 0, 0, REPORT_WIDTH, more);
		free(more);
	}
}

void report_changes(struct strbuf *b, const struct comparison *c, int max)
{
	struct strbuf t = { 0 };
	int hidden, left, shown = results_table(&t, c, true, max, &hidden, &left);

	sb_addf(b, "\nWhat changed (beyond the floor and BH q < %g; the cost model's\n"
		"exact counts by any difference)\n\n", c->alpha);
	if (shown)
		sb_addf(b, "%s", t.s);
	else
		sb_addf(b, "  No time changed significantly beyond the floor, and no exact\n"
			"  count changed.\n");
	if (left)
		sb_addf(b, "\n  %d more changed: report.txt, attached, has them all.\n", left);
	free(t.s);
}

/* The allocator's own functions, in SLAB's, SLUB's and SLOB's names. */
static bool allocator_symbol(const char *sym)
{
	static const char *const parts[] = {
		"slab", "slub", "slob", "kmem_cache", "kmalloc", "kfree", "cache_alloc",
		"cache_free", "free_block", "cache_flusharray", "refill",
	};

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (strstr(sym, parts[i]))
			return true;
	return false;
}

/* Up to @max allocator functions of @test's profile, hottest first. */
static int hot_symbols(const cJSON *test, const cJSON **out, int max)
{
	const cJSON *e;
	int n = 0;

	cJSON_ArrayForEach(e, test_profile(test))
		if (n < max && allocator_symbol(profile_symbol(e)))
			out[n++] = e;
	return n;
}

void report_profiles(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	int tests = run_nr_tests(docs[0]), shown = 0;

	for (int t = 0; t < tests; t++) {
		const cJSON *ta = run_test(docs[0], t), *tb = run_test(docs[1], t);
		const cJSON *ha[8], *hb[8];
		int na = hot_symbols(ta, ha, 8), nb = hot_symbols(tb, hb, 8);

		if (!test_profile(ta) && !test_profile(tb))
			continue;
		if (!shown++)
			sb_addf(b, "\nProfiles (perf record -a -e cpu-clock in the guest: the\n"
				"allocator's hottest functions, percent of all samples)\n");
		sb_addf(b, "\n%.*s\n", REPORT_WIDTH, test_spec(ta) + 5);
		sb_addf(b, "    %-33s %s\n", c->runs[0].label, c->runs[1].label);
		for (int i = 0; i < (na > nb ? na : nb); i++) {
			char left[64] = "";

			if (i < na)
				snprintf(left, sizeof(left), "%5.1f%% %.26s", profile_percent(ha[i]),
					 profile_symbol(ha[i]));
			sb_addf(b, "    %-33s", left);
			if (i < nb)
				sb_addf(b, " %5.1f%% %.26s", profile_percent(hb[i]),
					profile_symbol(hb[i]));
			sb_endline(b);
		}
	}
}
