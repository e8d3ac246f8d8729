// SPDX-License-Identifier: GPL-2.0
/*
 * The regression report: what a reviewer on linux-mm needs to judge a
 * change of allocator, in 72 columns. Layout after the kernel test robot:
 * a subject naming the change with the strongest evidence beyond the
 * noise floor, the setup (boots, floor, emulation), both kernels, the
 * table (boot medians with the spread within boots, %change with its
 * interval and floor), then memory and the commands that reproduce it.
 * Here: the subject and the summary, and the sections in their order;
 * report_setup.c, report_results.c and report_memory.c write the rest.
 */
#define _GNU_SOURCE
#include "report_sections.h"
#include "cost.h"
#include "generation.h"
#include "numfmt.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "sizes.ns_per_op[size=64]": the test, then the module's metric key. */
static char *row_title(const struct cmp_row *row)
{
	return xasprintf("%s.%s", row->test_name, row->metric);
}

/* The cost model's exact counts (not its simulated misses). */
static bool exact_unit(const struct cmp_row *row)
{
	return cost_unit(row->unit) && strcmp(row->unit, "misses/op") != 0;
}

/*
 * A test's metric in words a reader knows: "fastpath time per op",
 * "bulk time per object at bulk=16"; the metric's key is in the table.
 */
static char *metric_words(const struct cmp_row *row)
{
	static const struct {
		const char *key, *word;
	} words[] = {
		{ "ns", "time" }, { "obj", "object" }, { "insns", "instructions" },
		{ "sec", "second" },
	};
	char *key = xasprintf("%.*s", (int)strcspn(row->metric, "["), row->metric), *save, *w;
	struct strbuf b = { 0 };
	const cJSON *l;
	bool at = false;

	sb_addf(&b, "%s", row->test_name);
	for (w = strtok_r(key, "_", &save); w; w = strtok_r(NULL, "_", &save)) {
		const char *word = w;

		for (size_t i = 0; i < ARRAY_SIZE(words); i++)
			if (!strcmp(w, words[i].key))
				word = words[i].word;
		sb_addf(&b, " %s", word);
	}
	cJSON_ArrayForEach(l, row->labels) {
		char *v = cJSON_IsString(l) ? xstrdup(l->valuestring) : cJSON_PrintUnformatted(l);

		sb_addf(&b, "%s %s=%s", at ? "," : " at", l->string, v ? v : "?");
		at = true;
		free(v);
	}
	free(key);
	return b.s;
}

/* What a reader must know of an accelerator's clock, in a word. */
static const char *accel_words(const char *accel)
{
	if (!strcmp(accel, "kvm"))
		return "KVM";
	if (!strcmp(accel, "tcg"))
		return "TCG";
	if (!strcmp(accel, "icount") || !strcmp(accel, "cost"))
		return "TCG icount";
	return accel;
}

/* The kind of @row's figures, as a subject names it. */
static char *kind_words(const struct comparison *c, const struct cmp_row *row)
{
	const struct run_id *emulated = c->runs[0].emulated ? &c->runs[0] : &c->runs[1];

	if (row->cells[0].exact && (row->rejected || row->cells[0].rejected)) {
		char *n = cost_rejected_count(row->rejected + row->cells[0].rejected);
		char *s = xasprintf("exact count, %s", n);

		free(n);
		return s;
	}
	if (row->cells[0].exact)
		return xstrdup("exact count");
	/* A count of the cost model that the boots' seeds move, tested across them. */
	if (exact_unit(row))
		return xstrdup("count tested across seeds");
	if (compare_row_emulated(c, row))
		return xasprintf("emulated %s time", accel_words(emulated->accel));
	return xasprintf("%s time", accel_words(c->runs[0].accel));
}

/*
 * The tested time with the strongest evidence of a change (smallest
 * adjusted p, not the largest number, which would favour the noisiest
 * metric; significant means beyond the floor), among emulated times
 * (@emulated) or hardware ones; NULL if none changed.
 */
static const struct cmp_row *strongest_time(const struct comparison *c, bool emulated)
{
	const struct cmp_row *best = NULL;

	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		const struct cmp_cell *x = &row->cells[0];

		if ((row->kind == KIND_TIME || row->kind == KIND_CYCLES) && x->present &&
		    x->significant && x->has_pct && compare_row_emulated(c, row) == emulated &&
		    (!best || x->q < best->cells[0].q))
			best = row;
	}
	return best;
}

/* The cost model's exact count that changed most; NULL if none changed. */
static const struct cmp_row *largest_count(const struct comparison *c)
{
	const struct cmp_row *best = NULL;

	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		const struct cmp_cell *x = &row->cells[0];

		if (exact_unit(row) && x->present && x->significant && x->has_pct &&
		    (!best || fabs(x->pct) > fabs(best->cells[0].pct)))
			best = row;
	}
	return best;
}

/*
 * The change of times or counts that the summary names: a hardware time,
 * else the cost model's exact counts (certain, where an emulated time is
 * the host's speed), else an emulated time.
 */
static const struct cmp_row *strongest_change(const struct comparison *c)
{
	const struct cmp_row *row = strongest_time(c, false);

	if (!row)
		row = largest_count(c);
	return row ? row : strongest_time(c, true);
}

static const char *point_label(const struct run_id *id)
{
	return strcmp(id->variant, "?") ? id->variant : id->allocator;
}

/*
 * What the times say when none changed: inconclusive when none could
 * have found a change of the size that matters (c->matters), with the
 * smallest change one could find; NULL when none was tested.
 */
static char *times_verdict(const struct comparison *c)
{
	const struct cmp_row *best;
	int able, tested = compare_power(c, 1, &able, &best);
	char d[24], m[24];

	if (!tested)
		return NULL;
	fmt_compact(d, sizeof(d), best->cells[0].detectable, 1, true, "%");
	fmt_sig(m, sizeof(m), c->matters, 3, false, "%");
	if (!able)
		return xasprintf("times inconclusive: could detect %s, not %s", d, m);
	return xasprintf("no significant time change (%d of %d could detect %s)", able, tested, m);
}

/* "fastpath time per op +10.0% regression (KVM time, 95% CI +9.8% to +10.2%)" */
static char *change_words(const struct comparison *c, const struct cmp_row *row)
{
	const struct cmp_cell *x = &row->cells[0];
	char pct[32], lo[32], hi[32], *words = metric_words(row), *kind = kind_words(c, row), *s;

	fmt_pct(pct, sizeof(pct), x->pct);
	if (x->exact || !x->has_ci) {
		s = xasprintf("%s %s %s (%s)", words, pct, x->worse ? "regression" : "improvement",
			      kind);
	} else {
		fmt_pct(lo, sizeof(lo), x->ci_lo);
		fmt_pct(hi, sizeof(hi), x->ci_hi);
		s = xasprintf("%s %s %s (%s, 95%% CI %s to %s)", words, pct,
			      x->worse ? "regression" : "improvement", kind, lo, hi);
	}
	free(words);
	free(kind);
	return s;
}

/*
 * " at 2 CPUs (8 and 32 under Memory)" when the census has both sides at
 * CPU counts other than the compared runs': the subject's figures are of
 * those runs alone. Empty otherwise.
 */
static char *other_cpus(const struct comparison *c, const struct census_view *v)
{
	long cpus = (long)c->runs[0].cpus, seen[64];
	struct strbuf s = { 0 };
	int nr = 0;
	char *out;

	for (int i = 0; i < v->nr && nr < (int)ARRAY_SIZE(seen); i++) {
		bool skip = v->pts[i].cpus == cpus || strcmp(v->pts[i].label, v->base), other = false;

		for (int j = 0; j < v->nr; j++)
			other |= !strcmp(v->pts[j].label, v->other) && v->pts[j].cpus == v->pts[i].cpus;
		for (int k = 0; k < nr; k++)
			skip |= seen[k] == v->pts[i].cpus;
		if (!skip && other)
			seen[nr++] = v->pts[i].cpus;
	}
	for (int k = 0; k < nr; k++)
		sb_addf(&s, "%s%ld", !k ? "" : k == nr - 1 ? " and " : ", ", seen[k]);
	out = nr ? xasprintf(" at %ld CPUs (%s under Memory)", cpus, s.s) : xstrdup("");
	free(s.s);
	return out;
}

/*
 * The subject: the strongest result of any kind, in words and with its
 * kind: a hardware time, else the cost model's exact counts, else the
 * census's slab memory, else an emulated time; then, when no time
 * changed, what the times could have found. Folded (RFC 5322) within
 * REPORT_WIDTH, never cut.
 */
static void subject(struct strbuf *b, const struct comparison *c, const struct census_view *v)
{
	const struct cmp_row *row = strongest_time(c, false);
	char *why = compare_untested_why(c, 1), *what = NULL, *times = NULL, *line, *mem;
	char *at = other_cpus(c, v);

	if (!row)
		row = largest_count(c);
	if (row) {
		what = change_words(c, row);
	} else if ((mem = report_memory_change(c, v))) {
		what = mem;
	} else if ((row = strongest_time(c, true))) {
		what = change_words(c, row);
	}
	if (!strongest_time(c, false) && !strongest_time(c, true))
		times = times_verdict(c);
	if (!what && !times)
		what = xstrdup(why ? "no test, too few boots" : "no significant change");
	line = xasprintf("Subject: [slabbench] %s vs %s%s: %s%s%s", c->runs[1].label,
			 c->runs[0].label, at, what ? what : "", what && times ? "; " : "",
			 times ? times : "");
	sb_wrap(b, 0, 1, REPORT_WIDTH, line);
	free(line);
	free(why);
	free(what);
	free(times);
	free(at);
}

/*
 * How small a change the tested times could have found, and whether one
 * of the size that matters was among them.
 */
static void power_sentence(struct strbuf *s, const struct comparison *c)
{
	const struct cmp_row *best;
	int able, tested = compare_power(c, 1, &able, &best);
	char d[24], m[24], a[24], *words;

	if (!tested)
		return;
	fmt_compact(d, sizeof(d), best->cells[0].detectable, 1, true, "%");
	fmt_sig(m, sizeof(m), c->matters, 3, false, "%");
	words = metric_words(best);
	fmt_sig(a, sizeof(a), c->alpha, 3, false, "");
	sb_addf(s, " At 80%% power (noncentral t, alpha %s before the correction, with the "
		"floor) the smallest change a tested time could have found was %s (%s); %d of %d could "
		"have found a change of %s%s.", a, d, words, able, tested, m,
		able ? "" : ": on the times the comparison is inconclusive");
	free(words);
}

static void summary(struct strbuf *b, const struct comparison *c, const cJSON *const *docs,
		    const struct census_view *v)
{
	int changed = 0, worse = 0, tested = 0, floored = 0, tests = run_nr_tests(docs[0]);
	const struct cmp_row *row = strongest_change(c);
	bool exact = false;
	struct strbuf s = { 0 };
	char *why = compare_untested_why(c, 1), *gen[2];
	char *across = report_across_generations(c, docs);

	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_cell *x = &c->rows[i].cells[0];

		exact |= x->present && x->exact;
		tested += x->present && x->tested;
		changed += x->present && x->significant;
		worse += x->present && x->significant && x->worse;
		floored += x->present && x->inside_floor;
	}
	for (int r = 0; r < 2; r++) {
		struct generation g;

		generation_of(&c->runs[r], docs[r], &g);
		gen[r] = generation_text(&g);
	}
	sb_addf(&s, "slabbench compared %s (%s %s) against %s (%s %s) on the "
		"'%s' workload: %d metrics of %d tests, %d boots against %d. ",
		c->runs[1].label, c->runs[1].allocator, gen[1], c->runs[0].label,
		c->runs[0].allocator, gen[0], run_workload(docs[0]),
		c->nr_rows, tests, c->boots[1], c->boots[0]);
	if (across)
		sb_addf(&s, "%s ", across);
	if (why)
		sb_addf(&s, "No time is tested: %s.%s", why,
			exact ? " The cost model's exact counts need no test: a change there "
				"is a change." : "");
	else
		sb_addf(&s, "%d times were tested across boots (Welch's t-test on boot medians, "
			"Benjamini-Hochberg at %g); %d changed significantly beyond the noise "
			"floor: %d for the worse, %d for the better.", tested, c->alpha, changed,
			worse, changed - worse);
	if (floored)
		sb_addf(&s, " %d more passed the test but stayed inside the A/A noise floor.",
			floored);
	power_sentence(&s, c);
	if (row) {
		char *words = metric_words(row), *title = row_title(row), pct[32], lo[32], hi[32];
		char q[16];

		fmt_pct(pct, sizeof(pct), row->cells[0].pct);
		if (row->cells[0].exact) {
			sb_addf(&s, " The strongest evidence: %s (%s), %s, an exact count of the cost "
				"model (the same on every run; %s is better).", words, title, pct,
				row->higher_better ? "higher" : "lower");
			if (row->rejected || row->cells[0].rejected)
				sb_addf(&s, " Its windows that the scheduler entered were "
					"rejected, %d of them, and the rest counted.",
					row->rejected + row->cells[0].rejected);
		} else {
			fmt_pct(lo, sizeof(lo), row->cells[0].ci_lo);
			fmt_pct(hi, sizeof(hi), row->cells[0].ci_hi);
			fmt_p(q, sizeof(q), row->cells[0].q);
			sb_addf(&s, " The strongest evidence: %s (%s), %s (95%% CI %s to %s, q %s; "
				"%s is better).", words, title, pct, lo, hi, q,
				row->higher_better ? "higher" : "lower");
		}
		free(words);
		free(title);
	}
	free(why);
	free(across);
	free(gen[0]);
	free(gen[1]);
	report_census_sentence(&s, c, v);
	sb_wrap(b, 0, 0, REPORT_WIDTH, s.s);
	free(s.s);
}

static struct census_view census_view(const struct comparison *c, const cJSON *const *docs,
				       int n, const char *phase)
{
	struct census_view v = {
		.phase = slabmem_phase(docs, n, phase),
		.base = point_label(&c->runs[0]), .other = point_label(&c->runs[1]),
		.docs = docs,
	};

	v.nr = slabmem_points(docs, n, v.phase, &v.pts);
	return v;
}

/* The rows a mail's body shows at most, before its length asks for fewer. */
#define BRIEF_ROWS 12

enum brief_part { BP_SUMMARY, BP_CHANGES, BP_MEMORY, BP_SETUP, BP_KERNELS, BP_TAGS,
		  BP_REPRODUCE, BP_NR };

char *report_brief(const struct comparison *c, const cJSON *const *docs, int n,
		   const char *phase, const char *before_reproduce, int max_lines)
{
	/* What gives way first when the body is too long, and what a reader is told instead. */
	static const struct {
		enum brief_part part;
		const char *instead;
	} yield[] = {
		{ BP_KERNELS, "\nKernels: in report.txt, attached.\n" },
		{ BP_SETUP, "\nSetup: in report.txt, attached.\n" },
		{ BP_MEMORY, "\nMemory: in report.txt, attached.\n" },
	};
	struct census_view v = census_view(c, docs, n, phase);
	struct strbuf p[BP_NR] = { 0 }, out = { 0 };
	int total = 0;

	summary(&p[BP_SUMMARY], c, docs, &v);
	report_changes(&p[BP_CHANGES], c, BRIEF_ROWS);
	report_memory_answer(&p[BP_MEMORY], c, &v);
	report_setup(&p[BP_SETUP], c, docs);
	report_kernels(&p[BP_KERNELS], c, docs);
	if (before_reproduce)
		sb_addf(&p[BP_TAGS], "\n%s", before_reproduce);
	report_reproduce(&p[BP_REPRODUCE], c, docs, n);
	for (int i = 0; i < BP_NR; i++)
		total += text_lines(p[i].s);
	for (int rows = BRIEF_ROWS / 2; total > max_lines && rows >= 0; rows = rows ? rows / 2 : -1) {
		total -= text_lines(p[BP_CHANGES].s);
		p[BP_CHANGES].len = 0;
		report_changes(&p[BP_CHANGES], c, rows);
		total += text_lines(p[BP_CHANGES].s);
	}
	for (size_t k = 0; k < ARRAY_SIZE(yield) && total > max_lines; k++) {
		struct strbuf *y = &p[yield[k].part];

		total -= text_lines(y->s);
		y->len = 0;
		sb_addf(y, "%s", yield[k].instead);
		total += text_lines(y->s);
	}
	sb_addf(&out, "%s", "");
	for (int i = 0; i < BP_NR; i++) {
		if (p[i].s)
			sb_addf(&out, "%s", p[i].s);
		free(p[i].s);
	}
	slabmem_points_free(v.pts, v.nr);
	return out.s;
}

char *report_text(const struct comparison *c, const cJSON *const *docs, int n,
		  const char *phase)
{
	struct census_view v = census_view(c, docs, n, phase);
	struct strbuf b = { 0 };

	subject(&b, c, &v);
	sb_addf(&b, "\n");
	summary(&b, c, docs, &v);
	report_setup(&b, c, docs);
	report_kernels(&b, c, docs);
	report_results(&b, c);
	report_memory(&b, c, docs, &v);
	report_profiles(&b, c, docs);
	report_reproduce(&b, c, docs, n);
	slabmem_points_free(v.pts, v.nr);
	return b.s;
}
