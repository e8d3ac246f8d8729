// SPDX-License-Identifier: GPL-2.0
/*
 * plot's census charts (docs/census.md): slab memory against CPUs, by
 * location at chosen CPU counts, and each SLUB generation against SLAB.
 */
#define _GNU_SOURCE
#include "plot_chart.h"
#include "strbuf.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A census line's title: the variant, and its nodes when there are several. */
static char *point_title(const struct slabmem_point *p)
{
	if (p->numa > 1)
		return xasprintf("%s, %ld nodes", p->label, p->numa);
	if (p->possible > p->cpus)
		return xasprintf("%s, %ld possible", p->label, p->possible);
	return xstrdup(p->label);
}

/* " median min max" of a figure over a point's boots, in MiB; "?" where it is absent. */
static void add_spread(struct strbuf *b, const struct slabmem_point *p, size_t offset)
{
	struct summary s;

	slabmem_summary(p, offset, &s);
	if (s.n)
		sb_addf(b, " %.6g %.6g %.6g", s.median / SLABMEM_MIB, s.min / SLABMEM_MIB,
			s.max / SLABMEM_MIB);
	else
		sb_addf(b, " ? ? ?");
}

/* Possible CPUs above the online ones: 0 when there are none. */
static long extra_possible(const struct slabmem_point *p)
{
	return p->possible > p->cpus ? p->possible : 0;
}

/*
 * Against CPUs, a block per line (variant, nodes and possible CPUs), by CPU count:
 * "cpus" then the spread of the overhead, then of Slab + Percpu.
 */
void plot_memory_cpus(struct chart *c, const struct slabmem_point *pts, int n)
{
	struct strbuf b = { 0 };
	bool *done = xcalloc(n, sizeof(*done));
	int blocks = 0;
	long lo = pts[0].cpus, hi = pts[0].cpus;

	for (int i = 0; i < n; i++) {
		lo = pts[i].cpus < lo ? pts[i].cpus : lo;
		hi = pts[i].cpus > hi ? pts[i].cpus : hi;
	}
	for (int i = 0; i < n; i++) {
		char *title;

		if (done[i])
			continue;
		title = point_title(&pts[i]);
		sb_addf(&b, "\"%s\"\n", title);
		free(title);
		/* The line's points by CPU count, fewest first. */
		for (;;) {
			int next = -1;

			for (int j = i; j < n; j++)
				if (!done[j] && !strcmp(pts[j].label, pts[i].label) &&
				    pts[j].numa == pts[i].numa &&
				    extra_possible(&pts[j]) == extra_possible(&pts[i]) &&
				    (next < 0 || pts[j].cpus < pts[next].cpus))
					next = j;
			if (next < 0)
				break;
			done[next] = true;
			sb_addf(&b, "%ld", pts[next].cpus);
			add_spread(&b, &pts[next], offsetof(struct slabmem, overhead));
			add_spread(&b, &pts[next], offsetof(struct slabmem, slab_percpu));
			sb_addf(&b, "\n");
		}
		sb_addf(&b, "\n\n");
		blocks++;
	}
	free(done);
	c->data = b.s;
	c->vars = xasprintf("nblocks=%d; xlo=%ld; xhi=%ld", blocks, lo, hi);
}

/* Whether @cpus is among @at (NULL: any count). */
static bool chosen(const struct opt_longs *at, long cpus)
{
	for (int i = 0; at && i < at->n; i++)
		if (at->v[i] == cpus)
			return true;
	return !at;
}

char *plot_workload_words(const struct slabmem_point *pts, int n, const struct opt_longs *at)
{
	const char *w = NULL, *bound = NULL;
	bool several = false;

	for (int i = 0; i < n; i++) {
		if (!pts[i].workload || !chosen(at, pts[i].cpus))
			continue;
		several |= w && strcmp(w, pts[i].workload);
		w = w ? w : pts[i].workload;
		bound = bound ? bound : pts[i].bound ? pts[i].workload : NULL;
	}
	if (!w)
		return xstrdup("");
	if (several)
		return bound ? xasprintf(", several workloads, '%s' an upper bound", bound) :
			       xstrdup(", several workloads");
	return xasprintf(", '%s' workload%s", w, bound ? ": an upper bound" : "");
}

/* Whether @a and @b are one line of a chart: variant, nodes and possible CPUs. */
static bool same_line(const struct slabmem_point *a, const struct slabmem_point *b)
{
	return !strcmp(a->label, b->label) && a->numa == b->numa &&
	       extra_possible(a) == extra_possible(b);
}

/* SLAB's point beside @p: the same guest shape and config family; NULL if none. */
static const struct slabmem_point *slab_beside(const struct slabmem_point *pts, int n,
					       const struct slabmem_point *p)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(pts[i].allocator, "SLAB") && pts[i].cpus == p->cpus &&
		    pts[i].numa == p->numa && pts[i].possible == p->possible &&
		    !strcmp(pts[i].family, p->family))
			return &pts[i];
	return NULL;
}

/*
 * Points by generation: release, then per-CPU design (SLAB's arrays
 * before SLUB's CPU slabs), then config family and variant.
 */
static int by_generation(const void *x, const void *y)
{
	const struct slabmem_point *a = *(const struct slabmem_point *const *)x;
	const struct slabmem_point *b = *(const struct slabmem_point *const *)y;

	if (a->gen.major != b->gen.major)
		return a->gen.major < b->gen.major ? -1 : 1;
	if (a->gen.minor != b->gen.minor)
		return a->gen.minor < b->gen.minor ? -1 : 1;
	if (a->gen.design != b->gen.design)
		return a->gen.design < b->gen.design ? -1 : 1;
	if (strcmp(a->family, b->family))
		return strcmp(a->family, b->family);
	return strcmp(a->label, b->label);
}

/*
 * Generations: Slab + Percpu of each SLUB line against SLAB's beside it,
 * a block per line titled with its generation, by CPU count: "cpus ratio
 * lo hi", the 95% interval "? ?" where a side has too few boots for one.
 * Drawn when some line has two CPU counts or more.
 */
void plot_generations(struct chart *c, const struct slabmem_point *pts, int n)
{
	struct strbuf b = { 0 }, ci_blocks = { 0 };
	bool *done = xcalloc(n, sizeof(*done)), some_ci = false, no_ci = false;
	const struct slabmem_point **heads = xcalloc(n, sizeof(*heads));
	int blocks = 0, widest = 0, nr_heads = 0;
	long lo = LONG_MAX, hi = 0;

	/* A line's first point heads it; the lines oldest generation first. */
	for (int i = 0; i < n; i++) {
		bool seen = false;

		for (int h = 0; h < nr_heads; h++)
			seen |= same_line(heads[h], &pts[i]);
		if (!seen && !strcmp(pts[i].allocator, "SLUB"))
			heads[nr_heads++] = &pts[i];
	}
	qsort(heads, nr_heads, sizeof(*heads), by_generation);
	for (int h = 0; h < nr_heads; h++) {
		int i = heads[h] - pts, points = 0, with_ci = 0;
		struct strbuf line = { 0 };
		char *title, *gen;

		for (;;) {
			const struct slabmem_point *slab;
			struct slabmem_ratio x;
			int next = -1;

			for (int j = i; j < n; j++)
				if (!done[j] && same_line(&pts[j], &pts[i]) &&
				    (next < 0 || pts[j].cpus < pts[next].cpus))
					next = j;
			if (next < 0)
				break;
			done[next] = true;
			slab = slab_beside(pts, n, &pts[next]);
			if (!slab || !slabmem_ratio(slab, &pts[next],
						    offsetof(struct slabmem, slab_percpu), &x))
				continue;
			sb_addf(&line, "%ld %.6g", pts[next].cpus, x.r);
			if (x.has_ci)
				sb_addf(&line, " %.6g %.6g\n", x.lo, x.hi);
			else
				sb_addf(&line, " ? ?\n");
			with_ci += x.has_ci;
			no_ci |= !x.has_ci;
			lo = pts[next].cpus < lo ? pts[next].cpus : lo;
			hi = pts[next].cpus > hi ? pts[next].cpus : hi;
			points++;
		}
		/* A line with no SLAB beside it at any count is no line. */
		if (points) {
			title = point_title(&pts[i]);
			gen = generation_text(&pts[i].gen);
			sb_addf(&b, "\"%s (%s)\"\n%s\n\n", title, gen, line.s);
			free(title);
			free(gen);
			/* gnuplot warns of a block with no bar to draw: only these get bars. */
			if (with_ci)
				sb_addf(&ci_blocks, "%s%d", some_ci ? " " : "", blocks);
			some_ci |= with_ci;
			blocks++;
		}
		free(line.s);
		widest = points > widest ? points : widest;
	}
	free(done);
	free(heads);
	if (widest < 2) {
		free(b.s);
		free(ci_blocks.s);
		return;
	}
	c->data = b.s;
	c->vars = xasprintf("nblocks=%d; ciblocks=\"%s\"; xlo=%ld; xhi=%ld; bars=\"%s\"", blocks,
			    some_ci ? ci_blocks.s : "", lo, hi,
			    !some_ci ? "no interval: fewer than 5 boots a side" :
			    no_ci ? "bars: 95% CI where each side has 5 boots or more" :
			    "bars: 95% CI");
	free(ci_blocks.s);
}

/* Each location's colour, the same in every chart whichever are drawn. */
static const char *const part_colours[SM_NR_PARTS] = {
	[SM_LIVE] = "#4c72b0", [SM_PADDING] = "#9ebbe3",
	[SM_FREE_CPU] = "#dd8452", [SM_FREE_CPU_PARTIAL] = "#f2b880",
	[SM_FREE_CPU_ARRAY] = "#c44e52", [SM_FREE_SHARED] = "#e8999b",
	[SM_FREE_ALIEN] = "#8172b3", [SM_FREE_SHEAF_MAIN] = "#64b5cd",
	[SM_FREE_SHEAF_SPARE] = "#b3dde9", [SM_FREE_SHEAF_RCU] = "#ccb974",
	[SM_FREE_BARN] = "#2a9d8f", [SM_FREE_NODE_PARTIAL] = "#55a868",
	[SM_FREE_EMPTY] = "#a6d7a8", [SM_TAIL] = "#937860", [SM_STRUCTS] = "#8c8c8c",
	[SM_SHEAF_STRUCTS] = "#1f6f78", [SM_PERCPU] = "#da8bc3",
};

/*
 * At each of @at's CPU counts (ascending), a stacked bar per variant
 * (SLOB has no cache records, so no locations): the median of each
 * location that any bar has, and above each bar the median of its bytes
 * beyond live objects. A row of nothing parts one count from the next.
 */
void plot_memory_where(struct chart *c, const struct slabmem_point *pts, int n,
			       const struct opt_longs *at)
{
	struct strbuf b = { 0 }, q = { 0 }, colours = { 0 };
	bool shown[SM_NR_PARTS] = { false };
	int rows = 0, cols = 0, bars = 0;
	const struct slabmem_point **order = xcalloc(n + 1, sizeof(*order));

	/* The bars of a count as the generations chart has its lines, SLAB first. */
	for (int i = 0; i < n; i++)
		order[i] = &pts[i];
	qsort(order, n, sizeof(*order), by_generation);
	for (int i = 0; i < n; i++) {
		for (int p = 0; p < SM_NR_PARTS && chosen(at, pts[i].cpus); p++) {
			struct summary s;

			slabmem_summary(&pts[i], SLABMEM_PART(p), &s);
			shown[p] |= s.n && s.median > 0;
		}
	}
	sb_addf(&b, "allocator");
	sb_addf(&colours, "%s", "");
	for (int p = 0; p < SM_NR_PARTS; p++) {
		if (!shown[p])
			continue;
		sb_addf(&b, " \"%s\"", slabmem_part_names[p]);
		sb_addf(&colours, "%s%s", cols++ ? " " : "", part_colours[p]);
	}
	sb_addf(&b, "\n");
	sb_addf(&q, "%s", "");
	for (int k = 0; k < at->n && cols; k++) {
		bool first = true;

		for (int o = 0; o < n; o++) {
			const struct slabmem_point *pt = order[o];
			struct summary s;
			double top = 0;
			char *title;

			slabmem_summary(pt, offsetof(struct slabmem, overhead), &s);
			if (pt->cpus != at->v[k] || !s.n)
				continue;
			if (first && bars) {
				sb_addf(&b, "\"\"");
				for (int p = 0; p < cols; p++)
					sb_addf(&b, " ?");
				sb_addf(&b, "\n");
				rows++;
			}
			first = false;
			title = point_title(pt);
			if (at->n > 1)
				sb_addf(&b, "\"%s, %ld CPU%s\"", title, at->v[k],
					at->v[k] == 1 ? "" : "s");
			else
				sb_addf(&b, "\"%s\"", title);
			free(title);
			for (int p = 0; p < SM_NR_PARTS; p++) {
				struct summary part;

				if (!shown[p])
					continue;
				slabmem_summary(pt, SLABMEM_PART(p), &part);
				sb_addf(&b, " %.6g", part.median / SLABMEM_MIB);
				top += part.median / SLABMEM_MIB;
			}
			sb_addf(&b, "\n");
			sb_addf(&q, "%d %.6g \"%.2f MiB\"\n", rows++, top, s.median / SLABMEM_MIB);
			bars++;
		}
	}
	free(order);
	if (!bars) {
		free(b.s);
		free(q.s);
		free(colours.s);
		return;
	}
	c->data = b.s;
	c->ratios = q.s;
	c->vars = xasprintf("ncols=%d; colours=\"%s\"; nrows=%d; rotate=%d", cols, colours.s,
			    rows, at->n > 1);
	free(colours.s);
}

char *plot_counts_words(const struct opt_longs *at)
{
	struct strbuf b = { 0 };

	for (int i = 0; i < at->n; i++)
		sb_addf(&b, "%s%ld", i == 0 ? "" : i == at->n - 1 ? " and " : ", ", at->v[i]);
	sb_addf(&b, " CPU%s", at->n == 1 && at->v[0] == 1 ? "" : "s");
	return b.s;
}

static int by_count(const void *x, const void *y)
{
	long a = *(const long *)x, b = *(const long *)y;

	return (a > b) - (a < b);
}

void plot_where_counts(const struct slabmem_point *pts, int n, const struct opt_longs *want,
			 struct opt_longs *at)
{
	*at = *want;
	for (int i = 0; i < n && !want->n; i++) {
		bool seen = false;

		for (int k = 0; k < at->n; k++)
			seen |= at->v[k] == pts[i].cpus;
		if (!seen && at->n < OPT_LONGS_MAX)
			at->v[at->n++] = pts[i].cpus;
	}
	qsort(at->v, at->n, sizeof(at->v[0]), by_count);
}
