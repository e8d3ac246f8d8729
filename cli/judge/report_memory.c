// SPDX-License-Identifier: GPL-2.0
/*
 * The report's memory: the slab census's answer (an allocator's slab
 * memory against another's, with its interval, and the 30% claim put to
 * the test), /proc/meminfo after boot, the caches that differ most,
 * and whether the census held its own identities (report_objects.c:
 * the overhead tests' memory per live object).
 */
#define _GNU_SOURCE
#include "report_sections.h"
#include "census.h"
#include "numfmt.h"
#include "slabmem.h"
#include "util.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The claim put to the test: SLUB holds about 30% more than SLAB. */
#define CLAIMED_RATIO 1.3

/* The figures of /proc/meminfo after boot that the report compares. */
static const char *const boot_names[] = { "Slab", "SUnreclaim", "Percpu", "Slab+Percpu" };

/*
 * /proc/meminfo after boot ("before" the workload) of the two runs
 * compared, each of boot_names[] over a run's boots, and the ratio of
 * the means with its 95% interval as the census table has it.
 */
static void after_boot_ratios(const cJSON *const *docs, struct slabmem_ratio *x)
{
	for (size_t f = 0; f < ARRAY_SIZE(boot_names); f++) {
		for (int r = 0; r < 2; r++) {
			int boots = run_nr_boots(docs[r]), n = 0;
			double *v = xcalloc(boots + 1, sizeof(*v));

			for (int bt = 0; bt < boots; bt++) {
				double slab = boot_meminfo(docs[r], bt, "before", "Slab");
				double percpu = boot_meminfo(docs[r], bt, "before", "Percpu");
				double y = f < 3 ? boot_meminfo(docs[r], bt, "before", boot_names[f]) :
					   slab + percpu;

				if (!isnan(y))
					v[n++] = y;
			}
			summarize(v, n, r ? &x[f].b : &x[f].a);
			free(v);
		}
		slabmem_ratio_fill(&x[f]);
	}
}

/*
 * Beside a bound, the whole kernel: Slab + Percpu after boot of the runs
 * compared (@v->docs); false when a side lacks it.
 */
static bool whole_kernel(const struct census_view *v, struct slabmem_ratio *x)
{
	struct slabmem_ratio all[ARRAY_SIZE(boot_names)];

	after_boot_ratios(v->docs, all);
	*x = all[ARRAY_SIZE(boot_names) - 1];
	return x->a.n && x->b.n && !isnan(x->r);
}

/* Said under a table where a ratio has no interval. */
#define NO_CI_NOTE "95% CI -: none, a side has fewer boots than that."

/* The notes under a table, after a blank line: @first, then @second, where not NULL. */
static void table_notes(struct strbuf *b, const char *first, const char *second)
{
	if (first || second)
		sb_addf(b, "\n");
	if (first)
		sb_wrap(b, 2, 2, REPORT_WIDTH, first);
	if (second)
		sb_wrap(b, 2, 2, REPORT_WIDTH, second);
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

/* The bound that a pair of points is, if either is: how its workload bounds it. */
static const struct slabmem_point *bound_point(const struct slabmem_point *a,
					       const struct slabmem_point *b)
{
	return a->bound ? a : b->bound ? b : NULL;
}

/* "the 'memory' workload's upper bound" */
static char *bound_name(const struct slabmem_point *p)
{
	return xasprintf("the '%s' workload's upper bound", p->workload ? p->workload : "?");
}

/* "x1.12 (95% CI x1.08 to x1.16)" */
static char *ratio_text(const struct slabmem_ratio *x)
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
static enum claim claim_verdict(const struct slabmem_ratio *x)
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
static char *claim_figures(const struct slabmem_ratio *x)
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
					  SLABMEM_MIN_BOOTS_CI);
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
			const struct slabmem_ratio *slab, const struct slabmem_ratio *over,
			bool has_over)
{
	const struct slabmem_point *bp = bound_point(a, b);
	char *where, *fs, *fo, *s;

	if (!claim_applies(a, b))
		return xstrdup("");
	if (bp) {
		char *cpus = shape(a), *bn = bound_name(bp);

		where = xasprintf("%s, in %s,", cpus, bn);
		free(cpus);
		free(bn);
	} else {
		where = shape(a);
	}
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

/*
 * Beside a bound, the representative answer where these results have
 * one: the whole kernel after boot, in the runs compared.
 */
static void whole_kernel_sentence(struct strbuf *s, const struct comparison *c,
				  const struct census_view *v)
{
	struct slabmem_ratio whole;
	char *ws;

	if (!whole_kernel(v, &whole)) {
		sb_addf(s, " These results hold no whole-kernel figure to set beside the bound: "
			"the kernel workload (--workload=kernel) gives the representative answer.");
		return;
	}
	ws = ratio_text(&whole);
	sb_addf(s, " Beside the bound, the whole kernel after boot (/proc/meminfo Slab + Percpu "
		"of the runs compared, %zu and %zu boots): %s held %s of %s's.", whole.a.n,
		whole.b.n, c->runs[1].label, ws, c->runs[0].label);
	free(ws);
}

/* The summary's memory sentence, of the two runs compared. */
void report_census_sentence(struct strbuf *s, const struct comparison *c,
			    const struct census_view *v)
{
	const struct slabmem_point *a, *b, *bp;
	struct slabmem_ratio slab, over;
	bool has_over;
	char *where, *rs, *claim;

	/*
	 * Slab + Percpu, not Slab alone: SLAB keeps its per-CPU arrays in
	 * Percpu where SLUB keeps its per-CPU free objects in slabs, so Slab
	 * alone would count one allocator's per-CPU cost and not the other's.
	 */
	if (!compared_points(c, v, &a, &b) ||
	    !slabmem_ratio(a, b, offsetof(struct slabmem, slab_percpu), &slab))
		return;
	has_over = slabmem_ratio(a, b, offsetof(struct slabmem, overhead), &over);
	where = shape(a);
	bp = bound_point(a, b);
	sb_addf(s, " From the slab census at '%s'", v->phase);
	if (bp)
		sb_addf(s, " of the '%s' workload, an upper bound (%s),", bp->workload, bp->bound);
	sb_addf(s, " with %s (%d and %d caches; ", where, a->boots[0].caches, b->boots[0].caches);
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
		sb_addf(s, "; no confidence interval, which needs %d boots a side", SLABMEM_MIN_BOOTS_CI);
	sb_addf(s, ".");
	claim = claim_text(a, b, &slab, &over, has_over);
	sb_addf(s, "%s", claim);
	if (bp)
		whole_kernel_sentence(s, c, v);
	free(claim);
	free(where);
}

/* A figure of a struct, by its name in a table and its offset. */
struct figure {
	const char *name;
	size_t offset;
};

/* The figures the table compares, each a member of struct slabmem. */
static const struct figure census_rows[] = {
	{ "Slab", offsetof(struct slabmem, slab) },
	{ "beyond live", offsetof(struct slabmem, overhead) },
	{ "Slab+Percpu", offsetof(struct slabmem, slab_percpu) },
};

/* Below a table's heading: the variants its "base" and "new" columns stand for. */
static void name_sides(struct strbuf *b, const char *base, const char *new)
{
	sb_addf(b, "  base: %s\n  new: %s\n", base, new);
}

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
		name_sides(b, base, new);
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
		struct slabmem_ratio slab, over;
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
		if (!o || !slabmem_ratio(a, o, offsetof(struct slabmem, slab_percpu), &slab))
			continue;
		if (!blocks++) {
			const struct slabmem_point *bp = bound_point(a, o);
			char *of = bp ? xasprintf(" of the '%s' workload", bp->workload) : xstrdup("");
			char *what = bp ? xasprintf("an upper bound: %s; ", bp->bound) : xstrdup("");
			char *head = xasprintf("Slab memory from the census at '%s'%s (%sMiB, means "
					       "over boots; ratio %s/%s, 95%% confidence interval "
					       "where each side has %d boots or more)", v->phase, of,
					       what, c->runs[1].label, c->runs[0].label,
					       SLABMEM_MIN_BOOTS_CI);

			free(of);
			free(what);

			sb_addf(b, "\n");
			sb_wrap(b, 2, 2, REPORT_WIDTH, head);
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
			struct slabmem_ratio x;
			char ci[32] = "-";

			if (!slabmem_ratio(a, o, census_rows[f].offset, &x))
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
		has_over = slabmem_ratio(a, o, offsetof(struct slabmem, overhead), &over);
		claim = claim_text(a, o, &slab, &over, has_over);
		if (*claim)
			sb_wrap(&claims, 2, 2, REPORT_WIDTH, claim + 1);
		free(claim);
	}
	table_notes(b, numa ? "CPUs 8/2: 8 CPUs on 2 NUMA nodes." : NULL,
		    missing_ci ? NO_CI_NOTE : NULL);
	if (claims.len)
		sb_addf(b, "\n%s", claims.s);
	free(claims.s);
	free(done);
}

/*
 * The memory result of the two runs compared: Slab + Percpu at their CPU
 * count (points *@a and *@b), when its interval excludes x1.00; false
 * otherwise.
 */
static bool memory_result(const struct comparison *c, const struct census_view *v,
			  struct slabmem_ratio *slab, const struct slabmem_point **a,
			  const struct slabmem_point **b)
{
	return compared_points(c, v, a, b) &&
	       slabmem_ratio(*a, *b, offsetof(struct slabmem, slab_percpu), slab) &&
	       slab->has_ci && (slab->lo > 1 || slab->hi < 1);
}

char *report_memory_change(const struct comparison *c, const struct census_view *v)
{
	const struct slabmem_point *a, *b, *bp;
	struct slabmem_ratio slab, whole;
	char *rs, *ws, *s;

	if (!memory_result(c, v, &slab, &a, &b))
		return NULL;
	rs = ratio_text(&slab);
	bp = bound_point(a, b);
	if (!bp) {
		s = xasprintf("slab and per-CPU memory %s", rs);
	} else if (whole_kernel(v, &whole)) {
		ws = ratio_text(&whole);
		s = xasprintf("slab and per-CPU memory %s in the '%s' workload, an upper bound; "
			      "whole kernel after boot %s", rs, bp->workload, ws);
		free(ws);
	} else {
		s = xasprintf("slab and per-CPU memory %s in the '%s' workload, an upper bound",
			      rs, bp->workload);
	}
	free(rs);
	return s;
}

static void after_boot_table(struct strbuf *b, const struct comparison *c,
			     const cJSON *const *docs)
{
	struct slabmem_ratio x[ARRAY_SIZE(boot_names)];
	bool missing_ci = false, steady = false;
	char *head;

	after_boot_ratios(docs, x);
	for (size_t f = 0; f < ARRAY_SIZE(boot_names); f++)
		missing_ci |= !x[f].has_ci;
	if (!x[0].a.n || !x[0].b.n) {
		sb_addf(b, "  (no /proc/meminfo after boot in these results)\n");
		return;
	}
	head = xasprintf("After boot (/proc/meminfo, kB, means of %zu and %zu boots; ratio "
			 "%s/%s, 95%% confidence interval where each side has %d boots or more)",
			 x[0].a.n, x[0].b.n, c->runs[1].label, c->runs[0].label, SLABMEM_MIN_BOOTS_CI);
	sb_wrap(b, 2, 2, REPORT_WIDTH, head);
	free(head);
	sb_addf(b, "\n  %-14s", "");
	for (size_t f = 0; f < ARRAY_SIZE(boot_names); f++)
		sb_addf(b, " %11s", boot_names[f]);
	for (int r = 0; r < 2; r++) {
		sb_addf(b, "\n  %-14s", c->runs[r].label);
		for (size_t f = 0; f < ARRAY_SIZE(boot_names); f++)
			sb_addf(b, " %11.0f", r ? x[f].b.mean : x[f].a.mean);
	}
	sb_addf(b, "\n  %-14s", "ratio");
	for (size_t f = 0; f < ARRAY_SIZE(boot_names); f++) {
		char cell[32] = "-";

		if (!isnan(x[f].r))
			snprintf(cell, sizeof(cell), "x%.2f", x[f].r);
		sb_addf(b, " %11s", cell);
	}
	sb_addf(b, "\n  %-14s", "95% CI");
	for (size_t f = 0; f < ARRAY_SIZE(boot_names); f++) {
		char cell[32] = "-";

		if (x[f].has_ci && !x[f].a.stddev && !x[f].b.stddev)
			snprintf(cell, sizeof(cell), "no spread");
		else if (x[f].has_ci)
			snprintf(cell, sizeof(cell), "%.2f-%.2f", x[f].lo, x[f].hi);
		steady |= x[f].has_ci && !x[f].a.stddev && !x[f].b.stddev;
		sb_addf(b, " %11s", cell);
	}
	sb_addf(b, "\n");
	table_notes(b, missing_ci ? NO_CI_NOTE : NULL,
		    steady ? "No spread: the same in every boot of each side." : NULL);
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
				sb_wrap(&lines, 4, 4, REPORT_WIDTH, line);
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
	sb_wrap(b, 2, 2, REPORT_WIDTH, head.s);
	if (lines.s)
		sb_addf(b, "%s", lines.s);
	if (listed > MAX_RESIDUALS)
		sb_addf(b, "    (%d more)\n", listed - MAX_RESIDUALS);
	free(head.s);
	free(lines.s);
}

/*
 * Where a difference in Slab sits, by cache: a ratio of totals cannot
 * tell the allocator's own holding from what the two kernels put in their
 * caches (6.1 against 6.12 differ in far more than SLUB).
 */
#define MAX_CACHE_ROWS 10

struct cache_bytes {
	const char *name;
	double bytes[2];	/* slab pages in bytes, summed, then a mean over boots */
	/*
	 * Free slots that per-CPU caching holds, in bytes, the same way:
	 * SLUB's CPU and per-CPU partial slabs or its sheaves and barns,
	 * SLAB's per-CPU, shared and alien arrays (the census's free fields
	 * before the node lists).
	 */
	double percpu[2];
	bool seen[2];
};

static double percpu_free_bytes(const cJSON *cache)
{
	double size = census_cache_field(cache, "size"), free = 0;

	for (int f = 0; f < SM_FREE_NODE_PARTIAL - SM_FREE_CPU; f++) {
		double n = census_cache_field(cache, census_free_fields[f]);

		free += isnan(n) ? 0 : n;
	}
	return isnan(size) ? 0 : free * size;
}

static int by_difference(const void *x, const void *y)
{
	const struct cache_bytes *a = x, *b = y;
	double da = fabs(a->bytes[1] - a->bytes[0]), db = fabs(b->bytes[1] - b->bytes[0]);

	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void cache_differences(struct strbuf *b, const struct comparison *c,
			      const cJSON *const *docs, const char *phase)
{
	struct cache_bytes *rows = NULL;
	int nr = 0, boots[2] = { 0, 0 }, width = 10, longest = 0;
	double shown = 0, all = 0;
	char *head, mib[32];
	bool fit;

	for (int r = 0; r < 2; r++) {
		for (int i = 0; i < run_nr_boots(docs[r]); i++) {
			const cJSON *census = boot_census(docs[r], i, phase);
			double ps = census ? census_header(census, "page_size") : NAN;

			if (!census || !census_nr_caches(census) || isnan(ps))
				continue;
			boots[r]++;
			for (int k = 0; k < census_nr_caches(census); k++) {
				const cJSON *cache = census_cache_at(census, k);
				const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(cache,
											  "name"));
				double pages = census_cache_field(cache, "pages");
				int j = 0;

				if (!name || isnan(pages))
					continue;
				while (j < nr && strcmp(rows[j].name, name))
					j++;
				if (j == nr) {
					rows = xrealloc(rows, ++nr * sizeof(*rows));
					rows[j] = (struct cache_bytes){ .name = name };
				}
				rows[j].bytes[r] += pages * ps;
				rows[j].percpu[r] += percpu_free_bytes(cache);
				rows[j].seen[r] = true;
			}
		}
	}
	if (!boots[0] || !boots[1]) {
		free(rows);
		return;
	}
	for (int j = 0; j < nr; j++) {
		for (int r = 0; r < 2; r++) {
			rows[j].bytes[r] /= boots[r];
			rows[j].percpu[r] /= boots[r];
		}
		all += rows[j].bytes[1] - rows[j].bytes[0];
	}
	qsort(rows, nr, sizeof(*rows), by_difference);
	for (int r = 0; r < 2; r++)
		if ((int)strlen(c->runs[r].label) > longest)
			longest = strlen(c->runs[r].label);
	/* The names as the columns' heads where a line keeps to the width, as census_heading. */
	fit = 2 + 24 + 1 + 2 * (longest + 1) + 9 <= REPORT_WIDTH;
	if (fit && longest > width)
		width = longest;
	head = xasprintf("The caches whose slab pages differ most at '%s' (MiB, means over %d "
			 "and %d boots; a cache that a kernel merges into another is counted "
			 "under the name it shows, and - is a cache that side lacks); under "
			 "each, the free slots its per-CPU caching holds: CPU and per-CPU "
			 "partial slabs on SLUB before 7.0, sheaves and barns from 7.0, "
			 "per-CPU, shared and alien arrays on SLAB",
			 phase, boots[0], boots[1]);
	sb_addf(b, "\n");
	sb_wrap(b, 2, 2, REPORT_WIDTH, head);
	free(head);
	sb_addf(b, "\n  %-24s %*s %*s %9s\n", "cache", width, fit ? c->runs[0].label : "base",
		width, fit ? c->runs[1].label : "new", "change");
	if (!fit)
		name_sides(b, c->runs[0].label, c->runs[1].label);
	for (int j = 0; j < nr && j < MAX_CACHE_ROWS; j++) {
		double d = rows[j].bytes[1] - rows[j].bytes[0];

		if (d == 0)
			break;
		sb_addf(b, "  %-24s", rows[j].name);
		for (int r = 0; r < 2; r++) {
			if (rows[j].seen[r])
				sb_addf(b, " %*.2f", width, rows[j].bytes[r] / SLABMEM_MIB);
			else
				sb_addf(b, " %*s", width, "-");
		}
		fmt_fixed(mib, sizeof(mib), d / SLABMEM_MIB, 2, true, "");
		sb_addf(b, " %9s\n    %-22s", mib, "per-CPU free");
		for (int r = 0; r < 2; r++) {
			if (rows[j].seen[r])
				sb_addf(b, " %*.2f", width, rows[j].percpu[r] / SLABMEM_MIB);
			else
				sb_addf(b, " %*s", width, "-");
		}
		sb_addf(b, "\n");
		shown += d;
	}
	fmt_fixed(mib, sizeof(mib), shown / SLABMEM_MIB, 2, true, "");
	sb_addf(b, "  %-24s %*s %*s %9s\n", "these", width, "", width, "", mib);
	fmt_fixed(mib, sizeof(mib), all / SLABMEM_MIB, 2, true, "");
	sb_addf(b, "  %-24s %*s %*s %9s\n", "every cache", width, "", width, "", mib);
	free(rows);
}

void report_memory_answer(struct strbuf *b, const struct comparison *c,
			  const struct census_view *v)
{
	size_t len;

	sb_addf(b, "\nMemory\n");
	len = b->len;
	census_table(b, c, v);
	if (b->len == len) {
		sb_addf(b, "\n");
		after_boot_table(b, c, v->docs);
	}
}

void report_memory(struct strbuf *b, const struct comparison *c, const cJSON *const *docs,
		   const struct census_view *v)
{
	int shown;

	sb_addf(b, "\nMemory\n\n");
	after_boot_table(b, c, docs);
	census_table(b, c, v);
	if (v->nr) {
		cache_differences(b, c, docs, v->phase);
		census_residuals(b, c, docs, v->phase);
	}
	shown = report_per_object(b, c, docs);
	if (!shown && !v->nr)
		sb_addf(b, "\n  (neither a census nor an overhead test in these results)\n");
}
