// SPDX-License-Identifier: GPL-2.0
/*
 * The regression report: what a reviewer on linux-mm needs to judge a
 * change of allocator, in 72 columns. Layout after the kernel test robot:
 * a subject naming the change with the strongest evidence beyond the
 * noise floor, the setup (boots, floor, emulation), both kernels, the
 * table (boot medians with the spread within boots, %change with its
 * interval and floor), then memory and the commands that reproduce it.
 */
#define _GNU_SOURCE
#include "report.h"
#include "cost.h"
#include "census.h"
#include "json.h"
#include "numfmt.h"
#include "slabmem.h"
#include "strbuf.h"
#include "util.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Words of @text from column @indent, wrapped at REPORT_WIDTH. */
static void wrap(struct strbuf *b, int indent, const char *text)
{
	char *copy = xstrdup(text), *save = NULL, *w;
	int col = 0;

	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int len = strlen(w);

		if (col && col + 1 + len > REPORT_WIDTH) {
			sb_endline(b);
			col = 0;
		}
		if (col) {
			sb_addf(b, " %s", w);
			col += 1 + len;
		} else {
			sb_addf(b, "%*s%s", indent, "", w);
			col = indent + len;
		}
	}
	if (col)
		sb_endline(b);
	free(copy);
}

#define TITLE_WIDTH 24

/* "sizes.ns_per_op[size=64]": the test, then the module's metric key. */
static char *row_title(const struct cmp_row *row)
{
	return xasprintf("%s.%s", row->test_name, row->metric);
}

/* TSC cycles say what ns say: the report shows times once. */
static bool shown_unit(const struct cmp_row *row)
{
	return row->kind != KIND_CYCLES;
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

	if (row->cells[0].exact)
		return xstrdup("exact count");
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

		if (!x->exact && x->present && x->significant && x->has_pct &&
		    compare_row_emulated(c, row) == emulated && (!best || x->q < best->cells[0].q))
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

/*
 * The memory answer from the census: an allocator's slab memory against
 * another's, as the ratio of their means over boots. An interval needs
 * this many boots a side; fewer give the ratio alone, and say why.
 */
#define MIN_BOOTS_CI 5
/* The claim put to the test: SLUB holds about 30% more than SLAB. */
#define CLAIMED_RATIO 1.3

struct ratio {
	struct summary a, b;	/* over the boots of each side */
	double r, lo, hi;	/* mean(b) / mean(a), its 95% interval */
	bool has_ci;
};

/* The ratio of figure @offset of @b to @a's; false when a side lacks it. */
static bool census_ratio(const struct slabmem_point *a, const struct slabmem_point *b,
			 size_t offset, struct ratio *x)
{
	double lo, hi;

	slabmem_summary(a, offset, &x->a);
	slabmem_summary(b, offset, &x->b);
	if (!x->a.n || !x->b.n || x->a.mean <= 0)
		return false;
	x->r = x->b.mean / x->a.mean;
	/* The interval of the percent change, by the delta method, as compare's. */
	x->has_ci = x->a.n >= MIN_BOOTS_CI && x->b.n >= MIN_BOOTS_CI &&
		    !percent_change_ci(&x->a, &x->b, 0.05, &lo, &hi);
	if (x->has_ci) {
		x->lo = 1 + lo / 100;
		x->hi = 1 + hi / 100;
	}
	return true;
}

/* The census of the report's runs: every point, and which are each side's. */
struct census_view {
	const char *phase;
	struct slabmem_point *pts;
	int nr;
	const char *base, *other;	/* the two runs' points' labels */
};

static const char *point_label(const struct run_id *id)
{
	return strcmp(id->variant, "?") ? id->variant : id->allocator;
}

/* The point of @label at @cpus CPUs and @numa nodes; NULL if none. */
static const struct slabmem_point *find_point(const struct census_view *v, const char *label,
					      long cpus, long numa)
{
	for (int i = 0; i < v->nr; i++)
		if (!strcmp(v->pts[i].label, label) && v->pts[i].cpus == cpus &&
		    v->pts[i].numa == numa)
			return &v->pts[i];
	return NULL;
}

/* Whether the runs are SLAB against SLUB: the pair the 30% is claimed of. */
static bool claim_applies(const struct slabmem_point *a, const struct slabmem_point *b)
{
	return !strcmp(a->allocator, "SLAB") && !strcmp(b->allocator, "SLUB");
}

/* "8 CPUs", "8 CPUs on 2 nodes", "2 CPUs (8 possible)" */
static char *shape(const struct slabmem_point *p)
{
	if (p->numa > 1)
		return xasprintf("%ld CPUs on %ld nodes", p->cpus, p->numa);
	if (p->possible > p->cpus)
		return xasprintf("%ld CPU%s (%ld possible)", p->cpus, p->cpus == 1 ? "" : "s",
				 p->possible);
	return xasprintf("%ld CPU%s", p->cpus, p->cpus == 1 ? "" : "s");
}

/* "x1.12 (95% CI x1.08 to x1.16)" */
static char *ratio_text(const struct ratio *x)
{
	if (x->has_ci && !x->a.stddev && !x->b.stddev)
		return xasprintf("x%.2f (the same in every boot)", x->r);
	if (x->has_ci)
		return xasprintf("x%.2f (95%% CI x%.2f to x%.2f)", x->r, x->lo, x->hi);
	return xasprintf("x%.2f", x->r);
}

enum claim { CLAIM_APPEARS, CLAIM_DOES_NOT, CLAIM_INCONCLUSIVE };

/*
 * The 30% by the interval, not the point: it appears when the whole 95%
 * interval of the ratio lies above CLAIMED_RATIO, does not when the
 * whole of it lies below, and is inconclusive when the interval holds
 * CLAIMED_RATIO or there is none.
 */
static enum claim claim_verdict(const struct ratio *x)
{
	if (!x->has_ci)
		return CLAIM_INCONCLUSIVE;
	if (x->lo > CLAIMED_RATIO)
		return CLAIM_APPEARS;
	if (x->hi < CLAIMED_RATIO)
		return CLAIM_DOES_NOT;
	return CLAIM_INCONCLUSIVE;
}

/* "x1.09 (95% CI x1.08 to x1.09), below x1.30" and the like. */
static char *claim_figures(const struct ratio *x)
{
	char *rs = ratio_text(x), *s;

	switch (claim_verdict(x)) {
	case CLAIM_APPEARS:
		s = xasprintf("%s, above x%.2f", rs, CLAIMED_RATIO);
		break;
	case CLAIM_DOES_NOT:
		s = xasprintf("%s, below x%.2f", rs, CLAIMED_RATIO);
		break;
	default:
		s = x->has_ci ? xasprintf("%s, an interval that holds x%.2f", rs, CLAIMED_RATIO) :
				xasprintf("%s, with no interval (%d boots a side needed)", rs,
					  MIN_BOOTS_CI);
	}
	free(rs);
	return s;
}

static const char *claim_words(enum claim v)
{
	return v == CLAIM_APPEARS ? "appears" : v == CLAIM_DOES_NOT ? "does not appear" :
	       "is inconclusive";
}

/*
 * The 30% verdict at one point pair, for SLAB against SLUB only (""
 * otherwise): one for Slab + Percpu, one for the bytes beyond live
 * objects (@over, when @has_over), each with its interval.
 */
static char *claim_text(const struct slabmem_point *a, const struct slabmem_point *b,
			const struct ratio *slab, const struct ratio *over, bool has_over)
{
	char *where, *fs, *fo, *s;

	if (!claim_applies(a, b))
		return xstrdup("");
	where = shape(a);
	fs = claim_figures(slab);
	if (has_over) {
		fo = claim_figures(over);
		s = xasprintf(" At %s the 30%% %s in slab and per-CPU memory: %s held %.2f MiB "
			      "against %.2f MiB for %s, %s. In bytes beyond live objects it %s: "
			      "%s.", where, claim_words(claim_verdict(slab)), b->label,
			      slab->b.mean / SLABMEM_MIB, slab->a.mean / SLABMEM_MIB, a->label, fs,
			      claim_words(claim_verdict(over)), fo);
		free(fo);
	} else {
		s = xasprintf(" At %s the 30%% %s in slab and per-CPU memory: %s held %.2f MiB "
			      "against %.2f MiB for %s, %s.", where,
			      claim_words(claim_verdict(slab)), b->label,
			      slab->b.mean / SLABMEM_MIB, slab->a.mean / SLABMEM_MIB, a->label, fs);
	}
	free(fs);
	free(where);
	return s;
}

/*
 * The census points of the two runs compared, at their CPU count; false
 * when either has none.
 */
static bool compared_points(const struct comparison *c, const struct census_view *v,
			    const struct slabmem_point **a, const struct slabmem_point **b)
{
	const struct run_id *ra = &c->runs[0], *rb = &c->runs[1];
	long numa_a = isnan(ra->numa_nodes) ? 1 : (long)ra->numa_nodes;
	long numa_b = isnan(rb->numa_nodes) ? 1 : (long)rb->numa_nodes;

	*a = find_point(v, v->base, (long)ra->cpus, numa_a);
	*b = find_point(v, v->other, (long)rb->cpus, numa_b);
	return *a && *b;
}

/* The summary's memory sentence, of the two runs compared. */
static void census_sentence(struct strbuf *s, const struct comparison *c,
			    const struct census_view *v)
{
	const struct slabmem_point *a, *b;
	struct ratio slab, over;
	bool has_over;
	char *where, *rs, *claim;

	/*
	 * Slab + Percpu, not Slab alone: SLAB keeps its per-CPU arrays in
	 * Percpu where SLUB keeps its per-CPU free objects in slabs, so Slab
	 * alone would count one allocator's per-CPU cost and not the other's.
	 */
	if (!compared_points(c, v, &a, &b) ||
	    !census_ratio(a, b, offsetof(struct slabmem, slab_percpu), &slab))
		return;
	has_over = census_ratio(a, b, offsetof(struct slabmem, overhead), &over);
	where = shape(a);
	sb_addf(s, " From the slab census at '%s' with %s (%d and %d caches; ", v->phase, where,
		a->boots[0].caches, b->boots[0].caches);
	if (a->nr_boots == b->nr_boots)
		sb_addf(s, "means of %d boots each", a->nr_boots);
	else
		sb_addf(s, "means of %d and %d boots", a->nr_boots, b->nr_boots);
	rs = ratio_text(&slab);
	sb_addf(s, "), %s held %s the slab and per-CPU memory (Slab + Percpu) of %s",
		b->label, rs, a->label);
	free(rs);
	if (has_over) {
		rs = ratio_text(&over);
		sb_addf(s, " and %s its bytes beyond live objects", rs);
		free(rs);
	}
	if (!slab.has_ci)
		sb_addf(s, "; no confidence interval, which needs %d boots a side", MIN_BOOTS_CI);
	sb_addf(s, ".");
	claim = claim_text(a, b, &slab, &over, has_over);
	sb_addf(s, "%s", claim);
	free(claim);
	free(where);
}

/* The figures the table compares, each a member of struct slabmem. */
static const struct {
	const char *name;
	size_t offset;
} census_rows[] = {
	{ "Slab", offsetof(struct slabmem, slab) },
	{ "beyond live", offsetof(struct slabmem, overhead) },
	{ "Slab+Percpu", offsetof(struct slabmem, slab_percpu) },
};

/*
 * The census table's heading, its two figure columns *@width wide: the
 * variants' names where they fit in a 72-column line (9 characters), else
 * "base" and "new", named below the heading. A name is never cut short:
 * "slub-6.1" would be another kernel.
 */
static void census_heading(struct strbuf *b, const char *base, const char *new, int *width)
{
	int longest = (int)(strlen(base) > strlen(new) ? strlen(base) : strlen(new));
	bool fit = longest <= 9;

	*width = fit && longest > 8 ? longest : 8;
	sb_addf(b, "\n  %5s %7s %5s  %-12s%*s %*s %6s %s\n", "CPUs", "caches", "boots", "figure",
		*width, fit ? base : "base", *width, fit ? new : "new", "ratio", "95% CI");
	if (!fit)
		sb_addf(b, "  base: %s\n  new: %s\n", base, new);
}

/*
 * The census table: a block per CPU count that both sides have, fewest
 * CPUs first, then the 30% verdict at each.
 */
static void census_table(struct strbuf *b, const struct comparison *c,
			 const struct census_view *v)
{
	struct strbuf claims = { 0 };
	bool *done = xcalloc(v->nr, sizeof(*done)), missing_ci = false, numa = false;
	int blocks = 0, width = 8;

	sb_addf(&claims, "%s", "");
	for (;;) {
		const struct slabmem_point *a = NULL, *o;
		char cpus[24], caches[24], boots[24], *claim;
		struct ratio slab, over;
		bool has_over;
		int next = -1;

		for (int i = 0; i < v->nr; i++)
			if (!done[i] && !strcmp(v->pts[i].label, v->base) &&
			    (next < 0 || v->pts[i].cpus < v->pts[next].cpus))
				next = i;
		if (next < 0)
			break;
		done[next] = true;
		a = &v->pts[next];
		o = find_point(v, v->other, a->cpus, a->numa);
		if (!o || !census_ratio(a, o, offsetof(struct slabmem, slab_percpu), &slab))
			continue;
		if (!blocks++) {
			char *head = xasprintf("Slab memory from the census at '%s' (MiB, means over "
					       "boots; ratio %s/%s, 95%% confidence interval where "
					       "each side has %d boots or more)", v->phase,
					       c->runs[1].label, c->runs[0].label, MIN_BOOTS_CI);

			sb_addf(b, "\n");
			wrap(b, 2, head);
			free(head);
			census_heading(b, c->runs[0].label, c->runs[1].label, &width);
		}
		/* "8/2": 8 CPUs on 2 nodes. */
		if (a->numa > 1)
			snprintf(cpus, sizeof(cpus), "%ld/%ld", a->cpus, a->numa);
		else
			snprintf(cpus, sizeof(cpus), "%ld", a->cpus);
		numa |= a->numa > 1;
		snprintf(caches, sizeof(caches), "%d/%d", a->boots[0].caches, o->boots[0].caches);
		snprintf(boots, sizeof(boots), "%d/%d", a->nr_boots, o->nr_boots);
		for (size_t f = 0; f < ARRAY_SIZE(census_rows); f++) {
			struct ratio x;
			char ci[32] = "-";

			if (!census_ratio(a, o, census_rows[f].offset, &x))
				continue;
			if (x.has_ci)
				snprintf(ci, sizeof(ci), "%.2f-%.2f", x.lo, x.hi);
			missing_ci |= !x.has_ci;
			if (f == 0)
				sb_addf(b, "  %5s %7s %5s  ", cpus, caches, boots);
			else
				sb_addf(b, "  %5s %7s %5s  ", "", "", "");
			sb_addf(b, "%-12s%*.2f %*.2f  x%.2f %s\n", census_rows[f].name, width,
				x.a.mean / SLABMEM_MIB, width, x.b.mean / SLABMEM_MIB, x.r, ci);
		}
		has_over = census_ratio(a, o, offsetof(struct slabmem, overhead), &over);
		claim = claim_text(a, o, &slab, &over, has_over);
		if (*claim)
			wrap(&claims, 2, claim + 1);
		free(claim);
	}
	if (numa || missing_ci)
		sb_addf(b, "\n");
	if (numa)
		wrap(b, 2, "CPUs 8/2: 8 CPUs on 2 NUMA nodes.");
	if (missing_ci)
		wrap(b, 2, "95% CI -: none, a side has fewer boots than that.");
	if (claims.len)
		sb_addf(b, "\n%s", claims.s);
	free(claims.s);
	free(done);
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

/*
 * The memory result of the two runs compared: Slab + Percpu at their CPU
 * count, when its interval excludes x1.00; false otherwise.
 */
static bool memory_result(const struct comparison *c, const struct census_view *v,
			  struct ratio *slab)
{
	const struct slabmem_point *a, *b;

	return compared_points(c, v, &a, &b) &&
	       census_ratio(a, b, offsetof(struct slabmem, slab_percpu), slab) && slab->has_ci &&
	       (slab->lo > 1 || slab->hi < 1);
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
 * The subject: the strongest result of any kind, in words and with its
 * kind: a hardware time, else the cost model's exact counts, else the
 * census's slab memory, else an emulated time; then, when no time
 * changed, what the times could have found. Folded (RFC 5322) within
 * REPORT_WIDTH, never cut.
 */
static void subject(struct strbuf *b, const struct comparison *c, const struct census_view *v)
{
	const struct cmp_row *row = strongest_time(c, false);
	char *why = compare_untested_why(c, 1), *what = NULL, *times = NULL, *line;
	struct ratio slab;

	if (!row)
		row = largest_count(c);
	if (row) {
		what = change_words(c, row);
	} else if (memory_result(c, v, &slab)) {
		char *rs = ratio_text(&slab);

		what = xasprintf("slab and per-CPU memory %s", rs);
		free(rs);
	} else if ((row = strongest_time(c, true))) {
		what = change_words(c, row);
	}
	if (!strongest_time(c, false) && !strongest_time(c, true))
		times = times_verdict(c);
	if (!what && !times)
		what = xstrdup(why ? "no test, too few boots" : "no significant change");
	line = xasprintf("Subject: [slabbench] %s vs %s: %s%s%s", c->runs[1].label,
			 c->runs[0].label, what ? what : "", what && times ? "; " : "",
			 times ? times : "");
	sb_wrap(b, 1, REPORT_WIDTH, line);
	free(line);
	free(why);
	free(what);
	free(times);
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
	sb_addf(s, " At 80%% power (alpha %s, before the correction, with the floor) the "
		"smallest change a tested time could have found was %s (%s); %d of %d could "
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
	char *why = compare_untested_why(c, 1);

	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_cell *x = &c->rows[i].cells[0];

		exact |= x->present && x->exact;
		tested += x->present && x->tested;
		changed += x->present && x->significant;
		worse += x->present && x->significant && x->worse;
		floored += x->present && x->inside_floor;
	}
	sb_addf(&s, "slabbench compared %s (%s, %s) against %s (%s, %s) on the "
		"'%s' workload: %d metrics of %d tests, %d boots against %d. ",
		c->runs[1].label, c->runs[1].allocator, c->runs[1].release, c->runs[0].label,
		c->runs[0].allocator, c->runs[0].release, run_workload(docs[0]),
		c->nr_rows, tests, c->boots[1], c->boots[0]);
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
	census_sentence(&s, c, v);
	wrap(b, 0, s.s);
	free(s.s);
}

/* "  name       value", continuation lines under the value. */
static void field(struct strbuf *b, const char *name, const char *value)
{
	struct strbuf w = { 0 };

	wrap(&w, 13, *value ? value : "-");
	sb_addf(b, "  %-10s %s", name, w.s + 13);
	free(w.s);
}

/*
 * The options that change an alloc+free's cost or what the caches hold
 * (runner.c's list), per side, or once when both sides agree: a small
 * kernel has none of a distribution's hardening, and a reader must see it.
 */
static void slab_options(struct strbuf *b, const cJSON *const *docs)
{
	struct strbuf line[2] = { { 0 }, { 0 } };
	const cJSON *o;

	for (int r = 0; r < 2; r++) {
		cJSON_ArrayForEach(o, run_slab_options(docs[r]))
			if (cJSON_IsString(o))
				sb_addf(&line[r], "%s%s=%s", line[r].len ? " " : "", o->string,
					o->valuestring);
	}
	if (line[0].len && line[1].len && !strcmp(line[0].s, line[1].s))
		field(b, "options", line[0].s);
	else
		for (int r = 0; r < 2; r++)
			if (line[r].len)
				field(b, r ? "new option" : "options", line[r].s);
	free(line[0].s);
	free(line[1].s);
}

/* "tcg" -> what a reader must know of the clock behind the times. */
static const char *clock_kind(const struct run_id *run)
{
	if (!strcmp(run->accel, "kvm"))
		return "hardware (KVM): times are the host CPU's";
	if (!strcmp(run->accel, "icount"))
		return "emulation (TCG, icount): guest time counts instructions";
	if (!strcmp(run->accel, "cost"))
		return "emulation (TCG, icount, the cost model's plugin): guest time counts "
		       "instructions";
	return "emulation (TCG): times are emulated";
}

/*
 * What ran in each guest before its after-boot snapshot, and QEMU's CPU
 * model (it sizes task_struct): both change the after-boot figures.
 * Results from before either was recorded show neither.
 */
static void guest_userspace(struct strbuf *b, const struct comparison *c,
			    const cJSON *const *docs)
{
	struct boot_userspace us[2];
	bool ran[2];
	const char *model[2];
	char *v[2];

	for (int r = 0; r < 2; r++) {
		ran[r] = boot_userspace(docs[r], 0, &us[r]);
		model[r] = c->runs[r].cpu_model;
	}
	if (!strcmp(model[0], "?") && !strcmp(model[1], "?") && !ran[0] && !ran[1])
		return;
	for (int r = 0; r < 2; r++) {
		double idle = run_after_boot_s(docs[r]);
		char wait[48] = "";

		if (idle > 0)
			snprintf(wait, sizeof(wait), ", then %.0f s idle", idle);
		v[r] = ran[r] ? xasprintf("QEMU -cpu %s; before the after-boot snapshot, %d busybox "
					  "commands (fork, exec) pinned to each of %.0f of %.0f vCPUs "
					  "in turn%s", model[r], us[r].commands, us[r].cpus_ran,
					  us[r].cpus_online, wait) :
				xasprintf("QEMU -cpu %s; no user space before the after-boot snapshot "
					  "(the agent alone, on one CPU)%s", model[r], wait);
	}
	field(b, "boot", v[0]);
	if (strcmp(v[0], v[1]))
		field(b, "new boot", v[1]);
	free(v[0]);
	free(v[1]);
}

static void setup(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	char *v;

	sb_addf(b, "\nSetup\n");
	for (int r = 0; r < 2; r++) {
		const struct run_id *run = &c->runs[r];
		char nodes[32] = "";

		if (run->numa_nodes > 1)
			snprintf(nodes, sizeof(nodes), " on %.0f NUMA nodes", run->numa_nodes);
		else if (run->possible_cpus > run->cpus)
			snprintf(nodes, sizeof(nodes), " (%.0f possible)", run->possible_cpus);
		v = xasprintf("%.0f vCPUs%s, %.0f MB, accelerator %s%s%s%s", run->cpus, nodes,
			      run->mem_mb, run->accel,
			      !strcmp(run->tcg_thread, "single") ? " on one host thread" : "",
			      *run->cmdline ? ", kernel parameters " : "", run->cmdline);
		field(b, r ? "new guest" : "base guest", v);
		free(v);
	}
	guest_userspace(b, c, docs);
	field(b, "clock", clock_kind(&c->runs[0]));
	v = xasprintf("%d base, %d new, interleaved (A B A B); each boot is summarised by the "
		      "median of its repeats and times are tested across boots", c->boots[0],
		      c->boots[1]);
	field(b, "boots", v);
	free(v);
	field(b, "floor", c->floor_note ? c->floor_note : "not consulted");
	for (int r = 0; r < 2; r++) {
		const char *base = c->runs[r].config_base, *preempt = c->runs[r].preempt;
		const char *family = c->runs[r].config_family;

		v = !strcmp(base, "?") ? xstrdup("not recorded in these results") :
		    strcmp(family, "?") ? xasprintf("%s config: %s, %s", family, base, preempt) :
		    xasprintf("%s, %s", base, preempt);
		if (r == 0 || strcmp(v, "not recorded in these results"))
			field(b, r ? "new config" : "config", v);
		free(v);
		if (r == 0 && !strcmp(base, c->runs[1].config_base) &&
		    !strcmp(preempt, c->runs[1].preempt))
			break;
	}
	slab_options(b, docs);
	for (int r = 0; r < 2; r++) {
		const char *geometry = c->runs[r].cost_geometry;

		/* The new guest's only when it differs from the base's. */
		if (!strcmp(geometry, "?") || (r && !strcmp(geometry, c->runs[0].cost_geometry)))
			continue;
		v = xasprintf("%sa TCG plugin (docs/cost-model.md). Instructions, loads, "
			      "stores, locked and irq-flag instructions per op are exact "
			      "counts, the same on every run; cache misses per op are a "
			      "model's (LRU caches %s, no prefetchers), not measured.",
			      r ? "new guest: " : "", geometry);
		field(b, "cost model", v);
		free(v);
	}
	field(b, "QEMU", c->runs[0].qemu);
	field(b, "host CPU", c->runs[0].host_cpu);
	if (c->runs[0].emulated || c->runs[1].emulated)
		field(b, "WARNING", "Times were emulated. Under TCG every guest instruction "
		      "is translated and run by QEMU on the host, and the guest's clock is "
		      "the host's: a time is how fast the host emulated that code, on a "
		      "host shared with whatever else ran. It is not the time on hardware, "
		      "and neither is a ratio of two such times: there is no cache or TLB "
		      "model, translated blocks cost what they cost on the host, and "
		      "remote or parallel tests measure host scheduling. The times are "
		      "marked 'emulated' below. Counts (hit rates, objects, pages) are "
		      "exact under any accelerator; run under KVM for times that mean "
		      "hardware.");
	for (int i = 0; i < c->nr_warnings; i++) {
		if (strstr(c->warnings[i], "emulated"))
			continue;
		field(b, "warning", c->warnings[i]);
	}
}

/* The lines of @la that @lb lacks as -, then those of @lb that @la lacks as +. */
static void config_diff(struct strbuf *b, const cJSON *la, const cJSON *lb)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, la)
		if (cJSON_IsString(l) && !json_has_string(lb, l->valuestring))
			sb_addf(b, "%13s-%.*s\n", "", REPORT_WIDTH - 14, l->valuestring);
	cJSON_ArrayForEach(l, lb)
		if (cJSON_IsString(l) && !json_has_string(la, l->valuestring))
			sb_addf(b, "%13s+%.*s\n", "", REPORT_WIDTH - 14, l->valuestring);
}

static void kernels(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	const cJSON *la = run_allocator_config(docs[0]);
	const cJSON *lb = run_allocator_config(docs[1]), *l;
	const char *sa = c->runs[0].common_config, *sb = c->runs[1].common_config;

	sb_addf(b, "\nKernels\n");
	for (int r = 0; r < 2; r++) {
		const struct run_id *run = &c->runs[r];
		char *v = xasprintf("%s %s, variant %s, tree %s, build %s", run->allocator,
				    run->release, run->variant, run->tree, run->build_hash);

		field(b, r ? "new" : "base", v);
		free(v);
		cJSON_ArrayForEach(l, run_kernel_lacks(docs[r]))
			if (cJSON_IsString(l))
				field(b, r ? "new lacks" : "base lacks", l->valuestring);
	}
	if (strcmp(sa, "?") && !strcmp(sa, sb))
		field(b, "config", "the same but for the allocator lines:");
	else
		field(b, "config", "WARNING: the kernels differ in more than the allocator; "
		      "the allocator lines differ so:");
	config_diff(b, la, lb);
	la = run_common_config_lines(docs[0]);
	lb = run_common_config_lines(docs[1]);
	if (strcmp(sa, sb) && cJSON_IsArray(la) && cJSON_IsArray(lb)) {
		field(b, "config", "and every other line that differs (set in one only, or set otherwise):");
		config_diff(b, la, lb);
	}
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
		sb_addf(b, "%17snot a time: %d samples of %s and %d of %s are 0\n"
			"%17sor less, the loop shorter than the clock resolves\n", "",
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

/*
 * Each test's first metric, and every significant change; the rest is
 * one line of count (slabbench compare shows all).
 */
static void results(struct strbuf *b, const struct comparison *c)
{
	int hidden = 0, last_test = -1;
	const char *note = NULL;

	sb_addf(b, "\nResults (geometric mean of boot medians \xc2\xb1half the IQR within a\n"
		"boot; * beyond the floor and BH q < %g; counts as means and\n"
		"differences, %% in points)\n\n", c->alpha);
	sb_addf(b, "%16s %27s\n", c->runs[0].label, c->runs[1].label);
	sb_addf(b, "---------------- ---------------------------\n");
	sb_addf(b, "%16s %9s  %16s  %s\n", "value  \xc2\xb1iqr/2", "change", "value  \xc2\xb1iqr/2",
		"metric");
	for (int i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		const struct cmp_cell *x = &row->cells[0];
		char base[48], other[48] = "         -      ", pct[32] = "", *title;
		bool first = row->test != last_test;

		/* Counts are exact: any difference in them is shown. */
		bool counted = kind_shows_difference(row->kind) && x->present && x->diff != 0;

		if (!shown_unit(row) || (!first && !(x->present && x->significant) && !counted)) {
			hidden++;
			continue;
		}
		if (first) {
			/* What is said of a test's rows, once, under them. */
			if (note)
				wrap(b, 2, note);
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
		free(title);
		if (compare_row_note(c, row))
			note = compare_row_note(c, row);
	}
	if (note)
		wrap(b, 2, note);
	if (hidden) {
		char *more = xasprintf("%d more metrics (TSC cycles, which follow the times, "
				       "times that did not change significantly and counts that "
				       "did not change): see slabbench compare.", hidden);

		sb_addf(b, "\n");
		wrap(b, 0, more);
		free(more);
	}
}

/*
 * /proc/meminfo after boot ("before" the workload), each figure's mean
 * over a run's boots, and the ratio of the means with its 95% interval
 * as the census table has it.
 */
static void after_boot_table(struct strbuf *b, const struct comparison *c,
			     const cJSON *const *docs)
{
	static const char *const names[] = { "Slab", "SUnreclaim", "Percpu", "Slab+Percpu" };
	struct ratio x[ARRAY_SIZE(names)];
	bool missing_ci = false, steady = false;
	char *head;

	for (size_t f = 0; f < ARRAY_SIZE(names); f++) {
		double lo, hi;

		for (int r = 0; r < 2; r++) {
			int boots = run_nr_boots(docs[r]), n = 0;
			double *v = xcalloc(boots + 1, sizeof(*v));

			for (int bt = 0; bt < boots; bt++) {
				double slab = boot_meminfo(docs[r], bt, "before", "Slab");
				double percpu = boot_meminfo(docs[r], bt, "before", "Percpu");
				double y = f < 3 ? boot_meminfo(docs[r], bt, "before", names[f]) :
					   slab + percpu;

				if (!isnan(y))
					v[n++] = y;
			}
			summarize(v, n, r ? &x[f].b : &x[f].a);
			free(v);
		}
		x[f].r = x[f].a.n && x[f].b.n && x[f].a.mean > 0 ? x[f].b.mean / x[f].a.mean : NAN;
		x[f].has_ci = x[f].a.n >= MIN_BOOTS_CI && x[f].b.n >= MIN_BOOTS_CI &&
			      !percent_change_ci(&x[f].a, &x[f].b, 0.05, &lo, &hi);
		if (x[f].has_ci) {
			x[f].lo = 1 + lo / 100;
			x[f].hi = 1 + hi / 100;
		}
		missing_ci |= !x[f].has_ci;
	}
	if (!x[0].a.n || !x[0].b.n) {
		sb_addf(b, "  (no /proc/meminfo after boot in these results)\n");
		return;
	}
	head = xasprintf("After boot (/proc/meminfo, kB, means of %zu and %zu boots; ratio "
			 "%s/%s, 95%% confidence interval where each side has %d boots or more)",
			 x[0].a.n, x[0].b.n, c->runs[1].label, c->runs[0].label, MIN_BOOTS_CI);
	wrap(b, 2, head);
	free(head);
	sb_addf(b, "\n  %-14s", "");
	for (size_t f = 0; f < ARRAY_SIZE(names); f++)
		sb_addf(b, " %11s", names[f]);
	for (int r = 0; r < 2; r++) {
		sb_addf(b, "\n  %-14s", c->runs[r].label);
		for (size_t f = 0; f < ARRAY_SIZE(names); f++)
			sb_addf(b, " %11.0f", r ? x[f].b.mean : x[f].a.mean);
	}
	sb_addf(b, "\n  %-14s", "ratio");
	for (size_t f = 0; f < ARRAY_SIZE(names); f++) {
		char cell[32] = "-";

		if (!isnan(x[f].r))
			snprintf(cell, sizeof(cell), "x%.2f", x[f].r);
		sb_addf(b, " %11s", cell);
	}
	sb_addf(b, "\n  %-14s", "95% CI");
	for (size_t f = 0; f < ARRAY_SIZE(names); f++) {
		char cell[32] = "-";

		if (x[f].has_ci && !x[f].a.stddev && !x[f].b.stddev)
			snprintf(cell, sizeof(cell), "no spread");
		else if (x[f].has_ci)
			snprintf(cell, sizeof(cell), "%.2f-%.2f", x[f].lo, x[f].hi);
		steady |= x[f].has_ci && !x[f].a.stddev && !x[f].b.stddev;
		sb_addf(b, " %11s", cell);
	}
	sb_addf(b, "\n");
	if (missing_ci || steady)
		sb_addf(b, "\n");
	if (missing_ci)
		wrap(b, 2, "95% CI -: none, a side has fewer boots than that.");
	if (steady)
		wrap(b, 2, "No spread: the same in every boot of each side.");
}

/* At most this many residuals are listed; the rest are counted. */
#define MAX_RESIDUALS 6

/*
 * Whether the censuses the figures above come from held every identity of
 * their own (docs/census.md): "exact" is said only of those; the others'
 * residuals are listed as the checks found them, and so is a total that
 * differs from /proc/meminfo's Slab read just before it.
 */
static void census_residuals(struct strbuf *b, const struct comparison *c,
			     const cJSON *const *docs, const char *phase)
{
	int all = 0, exact = 0, moving = 0, listed = 0;
	struct strbuf head = { 0 }, lines = { 0 };
	const cJSON *f;

	for (int r = 0; r < 2; r++) {
		for (int i = 0; i < run_nr_boots(docs[r]); i++) {
			const cJSON *census = boot_census(docs[r], i, phase);
			const char *v;
			cJSON *k;

			if (!census)
				continue;
			/*
			 * Checked afresh, as this slabbench checks: results of an
			 * older one may hold fewer verdicts. The slabinfo and sysfs
			 * are other readings at other moments, judged on their own.
			 */
			k = census_checks(census, boot_meminfo_all(docs[r], i, phase), NULL, NULL);
			v = checks_verdict(k, "identities");
			all++;
			exact += !strcmp(v, "exact");
			moving += !strcmp(v, "moving");
			cJSON_ArrayForEach(f, checks_failures(k)) {
				char *line;

				if (listed++ >= MAX_RESIDUALS)
					continue;
				line = xasprintf("%s boot %d: %s", c->runs[r].label, i, f->valuestring);
				wrap(&lines, 4, line);
				free(line);
			}
			cJSON_Delete(k);
		}
	}
	if (!all)
		return;
	sb_addf(&head, "The census at '%s': its own identities exact in %d of %d boots", phase,
		exact, all);
	if (moving)
		sb_addf(&head, ", slab memory moving while it was read in %d", moving);
	if (all - exact - moving)
		sb_addf(&head, ", off in %d", all - exact - moving);
	sb_addf(&head, "%s", listed ? "; residuals:" : ".");
	sb_addf(b, "\n");
	wrap(b, 2, head.s);
	if (lines.s)
		sb_addf(b, "%s", lines.s);
	if (listed > MAX_RESIDUALS)
		sb_addf(b, "    (%d more)\n", listed - MAX_RESIDUALS);
	free(head.s);
	free(lines.s);
}

static void memory(struct strbuf *b, const struct comparison *c, const cJSON *const *docs,
		   const struct census_view *v)
{
	int n = run_nr_tests(docs[0]), shown = 0;

	sb_addf(b, "\nMemory\n\n");
	after_boot_table(b, c, docs);
	census_table(b, c, v);
	if (v->nr)
		census_residuals(b, c, docs, v->phase);
	for (int t = 0; t < n; t++) {
		struct mem_breakdown m[2];

		if (mem_breakdown(docs[0], t, &m[0]) || mem_breakdown(docs[1], t, &m[1]))
			continue;
		if (!shown++)
			sb_addf(b, "\n  per live object (bytes)    %10s %10s   change\n",
				c->runs[0].label, c->runs[1].label);
		sb_addf(b, "  %.0f objects of %.0f B\n", m[0].count, m[0].size);
		{
			static const struct {
				const char *name;
				size_t off;
			} parts[] = {
				{ "object", offsetof(struct mem_breakdown, size) },
				{ "rounding", offsetof(struct mem_breakdown, rounding) },
				{ "slab tail waste", offsetof(struct mem_breakdown, tail) },
				{ "idle slots", offsetof(struct mem_breakdown, idle) },
			};
			double total[2];
			char change[32];

			for (size_t p = 0; p < ARRAY_SIZE(parts); p++) {
				double va = *(double *)((char *)&m[0] + parts[p].off);
				double vb = *(double *)((char *)&m[1] + parts[p].off);

				sb_addf(b, "    %-22s %10.1f %10.1f\n", parts[p].name, va, vb);
			}
			for (int r = 0; r < 2; r++)
				total[r] = m[r].total;
			fmt_fixed(change, sizeof(change), 100 * (total[1] - total[0]) / total[0], 1,
				  true, "%");
			sb_addf(b, "    %-22s %10.1f %10.1f %8s\n", "total", total[0], total[1],
				change);
		}
		sb_addf(b, "    %-22s %10.0f %10.0f\n", "slab pages at the peak",
			m[0].slab_pages, m[1].slab_pages);
		sb_addf(b, "    %-22s %10.0f %10.0f\n", "pages 0 s after free", m[0].held_free_pages,
			m[1].held_free_pages);
		sb_addf(b, "    %-22s %10.0f %10.0f\n", "pages after shrink",
			m[0].held_shrink_pages, m[1].held_shrink_pages);
	}
	if (shown)
		sb_addf(b, "\n  Pages kept after free are cached for reuse and given back by a\n"
			   "  shrink or by SLAB's reaper: not a regression. The churn\n"
			   "  workload reads them 0, 5 and 30 s after.\n");
	if (!shown && !v->nr)
		sb_addf(b, "\n  (neither a census nor an overhead test in these results)\n");
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

static void profiles(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
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

/* --workload=NAME when the repository ships it, else the file's name. */
static char *workload_arg(const cJSON *doc)
{
	const char *name = run_workload(doc);
	char *path = xasprintf("%s/workloads/%s.json", slabbench_home(), name);
	struct stat st;
	char *arg = stat(path, &st) ? xasprintf("%s.json", name) : xstrdup(name);

	free(path);
	return arg;
}

/* The options of run that set up @run's guest. */
static void run_options(struct strbuf *b, const struct run_id *run, const cJSON *doc)
{
	const char *cmdline = run->cmdline;

	sb_addf(b, "      --accel=%s --cpus=%.0f --mem=%.0f", run->accel, run->cpus, run->mem_mb);
	if (run->numa_nodes > 1)
		sb_addf(b, " --numa=%.0f", run->numa_nodes);
	if (run->possible_cpus > run->cpus)
		sb_addf(b, " --possible-cpus=%.0f", run->possible_cpus);
	sb_addf(b, " --boots=%d", run_nr_boots(doc));
	for (int t = 0; t < run_nr_tests(doc); t++) {
		if (test_profile(run_test(doc, t))) {
			sb_addf(b, " --profile=%d", t + 1);
			break;
		}
	}
	if (*cmdline && strcmp(cmdline, "?"))
		sb_addf(b, " \\\n      --cmdline='%s'", cmdline);
}

/*
 * "FIRST REST" on one line when it fits, else REST on a continuation
 * line (a user's variants have long names); @more: a backslash follows.
 */
static void cmd_words(struct strbuf *b, const char *first, const char *rest, bool more)
{
	const char *tail = more ? " \\" : "";

	if (strlen(first) + 1 + strlen(rest) + strlen(tail) <= REPORT_WIDTH)
		sb_addf(b, "%s %s%s\n", first, rest, tail);
	else
		sb_addf(b, "%s \\\n      %s%s\n", first, rest, tail);
}

/*
 * One run of both variants when their guests are alike, so that their
 * boots interleave as they did; else one run each.
 */
static void reproduce(struct strbuf *b, const struct comparison *c, const cJSON *const *docs)
{
	static const char *const out[] = { "base.json", "new.json" };
	struct strbuf o[2] = { 0 };

	sb_addf(b, "\nTo reproduce (slabbench, Debian 12, README.md):\n\n");
	for (int r = 0; r < 2; r++)
		run_options(&o[r], &c->runs[r], docs[r]);
	if (!strcmp(o[0].s, o[1].s) && strcmp(c->runs[0].variant, c->runs[1].variant)) {
		char *w = workload_arg(docs[0]);

		char *run = xasprintf("  slabbench run --alloc=%s,%s", c->runs[0].variant,
				      c->runs[1].variant);
		char *wl = xasprintf("--workload=%s", w), *rep, *second;

		cmd_words(b, run, wl, true);
		sb_addf(b, "%s -o out\n", o[0].s);
		rep = xasprintf("  slabbench report out/%s-*.json", c->runs[0].variant);
		second = xasprintf("out/%s-*.json", c->runs[1].variant);
		cmd_words(b, rep, second, false);
		free(rep);
		free(second);
		free(run);
		free(wl);
		free(w);
	} else {
		for (int r = 0; r < 2; r++) {
			char *w = workload_arg(docs[r]);

			char *run = xasprintf("  slabbench run --alloc=%s", c->runs[r].variant);
			char *wl = xasprintf("--workload=%s", w);

			cmd_words(b, run, wl, true);
			sb_addf(b, "%s -o %s\n", o[r].s, out[r]);
			free(run);
			free(wl);
			free(w);
		}
		sb_addf(b, "  slabbench report base.json new.json\n");
	}
	free(o[0].s);
	free(o[1].s);
}

char *report_text(const struct comparison *c, const cJSON *const *docs, int n,
		  const char *phase)
{
	struct census_view v = {
		.phase = slabmem_phase(docs, n, phase),
		.base = point_label(&c->runs[0]), .other = point_label(&c->runs[1]),
	};
	struct strbuf b = { 0 };

	v.nr = slabmem_points(docs, n, v.phase, &v.pts);
	subject(&b, c, &v);
	sb_addf(&b, "\n");
	summary(&b, c, docs, &v);
	setup(&b, c, docs);
	kernels(&b, c, docs);
	results(&b, c);
	memory(&b, c, docs, &v);
	profiles(&b, c, docs);
	reproduce(&b, c, docs);
	slabmem_points_free(v.pts, v.nr);
	return b.s;
}
