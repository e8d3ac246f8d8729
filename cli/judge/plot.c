// SPDX-License-Identifier: GPL-2.0
/*
 * Charts of results files: the data goes into DIR/NAME.dat, gnuplot
 * draws it with a script from plots/ into DIR/NAME.png and .svg. A chart
 * whose data no file has is skipped with a message, and a chart is
 * written under a temporary name and renamed only when gnuplot succeeded:
 * never a missing, empty or half-drawn picture under the final name.
 */
#define _GNU_SOURCE
#include "plot.h"
#include "schema.h"
#include "slabmem.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct chart {
	const char *name;	/* of the files, and in messages */
	const char *script;	/* in plots/ */
	char *data, *ratios;	/* what goes into NAME.dat (and NAME.ratios) */
	char *vars;		/* gnuplot assignments, "a='x'; n=2" */
	const char *missing;	/* why there is nothing to draw */
};

/* A gnuplot string: double quotes, with its escapes; a newline breaks a title. */
static char *gp_string(const char *s)
{
	struct strbuf b = { 0 };

	sb_addf(&b, "\"");
	for (; *s; s++) {
		if (*s == '\n')
			sb_addf(&b, "\\n");
		else
			sb_addf(&b, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
	}
	sb_addf(&b, "\"");
	return b.s;
}

/*
 * The metric @prefix[KEY=x] of @test: per x, x ascending, the mean and
 * standard deviation over boots of each boot's median, as compare takes
 * them: the boot is the unit, and repeats pooled across boots would
 * give a spread of repeats, not of boots (0 with one boot).
 */
static int sweep(const cJSON *test, const char *prefix, const char *key, double *x,
		 double *mean, double *sd, int max)
{
	const cJSON *m;
	size_t plen = strlen(prefix);
	int n = 0;

	cJSON_ArrayForEach(m, test_metrics(test)) {
		double at = metric_label_num(m, key), *med, within;
		struct summary sum;
		size_t k;

		if (strncmp(m->string, prefix, plen) || m->string[plen] != '[' || isnan(at) ||
		    n == max)
			continue;
		x[n] = at;
		k = metric_boot_medians(m, &med, &within);
		summarize(med, k, &sum);
		free(med);
		mean[n] = sum.mean;
		sd[n] = sum.stddev;
		/* Insertion into place: the module reports in sweep order anyway. */
		for (int i = n; i > 0 && x[i - 1] > x[i]; i--) {
			double t;

			t = x[i], x[i] = x[i - 1], x[i - 1] = t;
			t = mean[i], mean[i] = mean[i - 1], mean[i - 1] = t;
			t = sd[i], sd[i] = sd[i - 1], sd[i - 1] = t;
		}
		n++;
	}
	return n;
}

#define MAX_POINTS 64

/*
 * Lines over a sweep: a block per run and test named @test, of metric
 * @prefix[@key=x].
 */
static void lines_chart(struct chart *c, const cJSON *const *docs, const struct run_id *runs, int n,
			const char *test, const char *prefix, const char *key,
			const char *params)
{
	struct strbuf b = { 0 };
	int blocks = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (int r = 0; r < n; r++) {
		int per_run = 0;

		for (int i = 0; i < run_nr_tests(docs[r]); i++)
			per_run += !strcmp(test_name(run_test(docs[r], i)), test);
		for (int i = 0; i < run_nr_tests(docs[r]); i++) {
			const cJSON *t = run_test(docs[r], i);
			double x[MAX_POINTS], mean[MAX_POINTS], sd[MAX_POINTS];
			int points;

			if (strcmp(test_name(t), test))
				continue;
			points = sweep(t, prefix, key, x, mean, sd, MAX_POINTS);
			if (!points)
				continue;
			/* Which test, when a run has several: "slab burst=256". */
			if (per_run > 1 && params)
				sb_addf(&b, "\"%s %s=%g\"\n", runs[r].label, params,
					test_param_num(t, params));
			else
				sb_addf(&b, "\"%s\"\n", runs[r].label);
			for (int i = 0; i < points; i++) {
				sb_addf(&b, "%g %g %g\n", x[i], mean[i], isnan(sd[i]) ? 0 : sd[i]);
				lo = fmin(lo, x[i]);
				hi = fmax(hi, x[i]);
			}
			sb_addf(&b, "\n\n");
			blocks++;
		}
	}
	c->data = b.s;
	c->vars = xasprintf("nblocks=%d; xlo=%g; xhi=%g", blocks, lo, hi);
	if (!blocks) {
		free(c->data);
		c->data = NULL;
	}
}

/*
 * Clustered bars: a row per category, a column per run; @rows gives, per
 * test named @test, the categories and their metrics.
 */
struct bar_row {
	const char *what;	/* "alloc" */
	const char *metric;	/* "alloc_hit_rate" */
};

static void clusters_chart(struct chart *c, const cJSON *const *docs, const struct run_id *runs, int n,
			   const char *test, const struct bar_row *rows, int nr_rows,
			   const char *const *params)
{
	struct strbuf b = { 0 };
	int base = -1;

	/* The categories come from the first run that has such tests. */
	for (int r = 0; r < n && base < 0; r++)
		for (int i = 0; i < run_nr_tests(docs[r]); i++)
			if (!strcmp(test_name(run_test(docs[r], i)), test) && base < 0)
				base = r;
	if (base < 0)
		return;
	sb_addf(&b, "category");
	for (int r = 0; r < n; r++)
		sb_addf(&b, " \"%s\"", runs[r].label);
	sb_addf(&b, "\n");
	for (int index = 0; index < run_nr_tests(docs[base]); index++) {
		const cJSON *t0 = run_test(docs[base], index);

		if (strcmp(test_name(t0), test))
			continue;
		for (int i = 0; i < nr_rows; i++) {
			sb_addf(&b, "\"%s", rows[i].what);
			for (int p = 0; params[p]; p++) {
				const cJSON *v = test_param(t0, params[p]);

				if (cJSON_IsString(v))
					sb_addf(&b, " %s", v->valuestring);
				else if (cJSON_IsNumber(v))
					sb_addf(&b, " %s=%g", params[p], v->valuedouble);
			}
			sb_addf(&b, "\"");
			for (int r = 0; r < n; r++) {
				/* The same test: same index and spec in the other run. */
				const cJSON *o = run_test(docs[r], index);
				double v = NAN;

				if (o && !strcmp(test_spec(o), test_spec(t0)))
					v = metric_mean(test_metric(o, rows[i].metric));
				if (isnan(v))
					sb_addf(&b, " ?");
				else
					sb_addf(&b, " %g", v);
			}
			sb_addf(&b, "\n");
		}
	}
	c->data = b.s;
	c->vars = xasprintf("nruns=%d", n);
}

/* Overhead: a row per run and overhead test, the ratios to the base run. */
static void overhead_chart(struct chart *c, const cJSON *const *docs, const struct run_id *runs, int n)
{
	struct strbuf b = { 0 }, q = { 0 };
	int row = 0, tests = run_nr_tests(docs[0]);

	sb_addf(&b, "run object rounding \"slab tail waste\" \"idle slots (per-CPU, partial)\"\n");
	sb_addf(&q, "%s", "");
	for (int t = 0; t < tests; t++) {
		struct mem_breakdown base;

		if (mem_breakdown(docs[0], t, &base))
			continue;
		for (int r = 0; r < n; r++) {
			struct mem_breakdown m;
			double over, base_over;

			if (mem_breakdown(docs[r], t, &m) || m.size != base.size)
				continue;
			sb_addf(&b, "\"%s, %g B\" %g %g %g %g\n", runs[r].label, m.size, m.size,
				m.rounding, m.tail, m.idle);
			over = m.total - m.size;
			base_over = base.total - base.size;
			if (r && base_over > 0)
				sb_addf(&q, "%d %g \"x%.2f vs %s\"\n", row, fmax(over, 0),
					over / base_over, runs[0].label);
			row++;
		}
	}
	if (!row) {
		free(b.s);
		free(q.s);
		return;
	}
	/* gnuplot refuses an empty file: a label at the origin, blank. */
	if (!q.len)
		sb_addf(&q, "0 0 \"\"\n");
	c->data = b.s;
	c->ratios = q.s;
	c->vars = xstrdup("");
}

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
static void memory_cpus_chart(struct chart *c, const struct slabmem_point *pts, int n)
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

/*
 * ", 'memory' workload: an upper bound" when a point drawn (at one of
 * @at CPU counts; NULL: any) is of a workload built to bound its
 * figures; "" otherwise.
 */
static char *bound_words(const struct slabmem_point *pts, int n, const struct opt_longs *at)
{
	for (int i = 0; i < n; i++)
		if (pts[i].bound && chosen(at, pts[i].cpus))
			return xasprintf(", '%s' workload: an upper bound", pts[i].workload);
	return xstrdup("");
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
static void generations_chart(struct chart *c, const struct slabmem_point *pts, int n)
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
static void memory_where_chart(struct chart *c, const struct slabmem_point *pts, int n,
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

/* "8 CPUs", "8 and 64 CPUs", "2, 8 and 64 CPUs": @at's counts. */
static char *counts_words(const struct opt_longs *at)
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

/*
 * The CPU counts of memory-where, ascending: @want's, else every count
 * of the points.
 */
static void where_counts(const struct slabmem_point *pts, int n, const struct opt_longs *want,
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

static int write_in(const char *dir, const char *name, const char *ext, const char *text,
		    char **path)
{
	*path = xasprintf("%s/%s.%s", dir, name, ext);
	return write_file_atomic(*path, text, strlen(text));
}

/* Draws @c as NAME.png and NAME.svg in @dir; 0 when both were written. */
static int draw(const struct chart *c, const char *dir, const char *title, const char *axes)
{
	static const char *const terms[] = { "png", "svg" };
	char *data = NULL, *ratios = NULL, *script;
	int ret = 0;

	script = xasprintf("%s/plots/%s", slabbench_home(), c->script);
	if (write_in(dir, c->name, "dat", c->data, &data) ||
	    (c->ratios && write_in(dir, c->name, "ratios", c->ratios, &ratios))) {
		ret = -1;
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(terms) && !ret; i++) {
		char *final = xasprintf("%s/%s.%s", dir, c->name, terms[i]);
		char *tmp = xasprintf("%s/.%s.%s.tmp", dir, c->name, terms[i]);
		char *gd = gp_string(data), *go = gp_string(tmp), *gt = gp_string(title);
		char *gr = gp_string(ratios ? ratios : "");
		char *vars = xasprintf("datafile=%s; ratiofile=%s; outfile=%s; termtype=\"%s\"; "
				       "charttitle=%s%s%s%s%s", gd, gr, go, terms[i], gt,
				       *axes ? "; " : "",
				       axes, *c->vars ? "; " : "", c->vars);
		char *argv[] = { "gnuplot", "-e", vars, script, NULL };
		char *out = NULL;
		struct stat st;

		if (run_capture(argv, &out, NULL) || stat(tmp, &st) || st.st_size == 0)
			ret = error("plot: %s.%s: gnuplot failed", c->name, terms[i]);
		else if (rename(tmp, final))
			ret = error("%s: %s", final, strerror(errno));
		if (ret)
			unlink(tmp);
		free(out);
		free(vars);
		free(gd);
		free(go);
		free(gt);
		free(gr);
		free(tmp);
		free(final);
	}
out:
	free(script);
	free(data);
	free(ratios);
	return ret;
}

int plot_results(const cJSON *const *docs, int n, const char *dir, const struct plot_opts *o)
{
	static const struct bar_row hit_rows[] = {
		{ "alloc", "alloc_hit_rate" }, { "free", "free_hit_rate" },
	};
	static const struct bar_row remote_rows[] = {
		{ "alloc", "alloc_ns_per_op" }, { "free", "free_ns_per_op" },
	};
	static const char *const hit_params[] = { "size", "pattern", "order", NULL };
	static const char *const remote_params[] = { "size", "batch", NULL };
	struct run_id *runs = run_ids(NULL, docs, n);
	const char *phase = slabmem_phase(docs, n, o->phase);
	struct slabmem_point *pts;
	int nr_pts = slabmem_points(docs, n, phase, &pts);
	struct opt_longs at;
	char *missing_census = xasprintf("no census at '%s' in the results (docs/census.md)", phase);
	char *missing_at, *title_cpus, *title_where, *title_gens, *bound_cpus, *bound_where;
	char *at_words, *missing_gens;
	struct chart charts[9] = {
		{ .name = "sizes", .script = "lines.gp",
		  .missing = "no sizes test in the results (workload default)" },
		{ .name = "overhead", .script = "overhead.gp",
		  .missing = "no overhead test in the results (workloads overhead, default)" },
		{ .name = "hitrate", .script = "clusters.gp",
		  .missing = "no hitrate test in the results (workload default)" },
		{ .name = "scaling", .script = "lines.gp",
		  .missing = "no parallel test in the results (workloads scaling, default)" },
		{ .name = "remote", .script = "clusters.gp",
		  .missing = "no remote test in the results (workloads remote, default)" },
		{ .name = "memory-cpus", .script = "memory-cpus.gp", .missing = missing_census },
		{ .name = "memory-where", .script = "memory-where.gp" },
		{ .name = "sizes-insns", .script = "lines.gp",
		  .missing = "no sizes test run under --accel=cost in the results" },
		{ .name = "generations", .script = "generations.gp" },
	};
	const char *titles[] = {
		"kmalloc+kfree cost against object size (mean of boot medians, bars: 1 stddev "
		"over boots)",
		"Memory per live object in a private cache",
		"Per-CPU cache hit rates (SLOB has no per-CPU cache)",
		"Throughput against CPUs: all threads alloc+free on one cache",
		"Remote frees: allocated on one CPU, freed on another",
		NULL, NULL,
		"kmalloc+kfree instructions against object size (cost model, exact)",
		NULL,
	};
	static const char *const axes[] = {
		"xlabel=\"object size (bytes)\"; ylabel=\"ns per kmalloc+kfree\"; logx=1",
		"",
		"ylabel=\"hit rate (%)\"",
		"xlabel=\"CPUs (threads)\"; ylabel=\"alloc+free pairs per second, all threads\"; logx=0",
		"ylabel=\"ns per operation on its CPU\"",
		"",
		"",
		"xlabel=\"object size (bytes)\"; ylabel=\"instructions per kmalloc+kfree\"; logx=1",
		"",
	};
	int drawn = 0, failed = 0;

	where_counts(pts, nr_pts, &o->at, &at);
	at_words = counts_words(&at);
	missing_at = nr_pts ? xasprintf("no census with cache records at %s (SLOB has none)",
					at_words) : xstrdup(missing_census);
	charts[6].missing = missing_at;
	missing_gens = nr_pts ? xstrdup("no SLAB and SLUB census of one config at two CPU counts "
					"or more") : xstrdup(missing_census);
	charts[8].missing = missing_gens;
	bound_cpus = bound_words(pts, nr_pts, NULL);
	bound_where = bound_words(pts, nr_pts, &at);
	/* Each census title in two lines: what it shows, then where it comes from. */
	titles[5] = title_cpus = xasprintf("Slab memory against CPUs%s\ncensus at '%s' "
					   "(median of boots, bars min to max)", bound_cpus, phase);
	titles[6] = title_where = xasprintf("Slab memory by location at %s%s\ncensus at "
					    "'%s' (MiB, median of boots)", at_words, bound_where,
					    phase);
	titles[8] = title_gens = xasprintf("Slab + Percpu of each SLUB against SLAB of its "
					   "config%s\ncensus at '%s' (ratio of means over boots)",
					   bound_cpus, phase);
	if (mkdir_p(dir)) {
		failed = 1;
		goto out;
	}
	lines_chart(&charts[0], docs, runs, n, "sizes", "ns_per_op", "size", NULL);
	overhead_chart(&charts[1], docs, runs, n);
	clusters_chart(&charts[2], docs, runs, n, "hitrate", hit_rows, ARRAY_SIZE(hit_rows),
		       hit_params);
	lines_chart(&charts[3], docs, runs, n, "parallel", "ops_per_sec", "cpus", "burst");
	clusters_chart(&charts[4], docs, runs, n, "remote", remote_rows,
		       ARRAY_SIZE(remote_rows), remote_params);
	if (nr_pts)
		memory_cpus_chart(&charts[5], pts, nr_pts);
	memory_where_chart(&charts[6], pts, nr_pts, &at);
	lines_chart(&charts[7], docs, runs, n, "sizes", "instructions_per_op", "size", NULL);
	generations_chart(&charts[8], pts, nr_pts);
	for (size_t i = 0; i < ARRAY_SIZE(charts); i++) {
		struct chart *c = &charts[i];

		if (!c->data) {
			warning("plot: %s: skipped, %s", c->name, c->missing);
		} else if (draw(c, dir, titles[i], axes[i])) {
			failed++;
		} else {
			printf("%s/%s.png\n%s/%s.svg\n", dir, c->name, dir, c->name);
			drawn++;
		}
		free(c->data);
		free(c->ratios);
		free(c->vars);
	}
	if (!drawn && !failed)
		failed = error("plot: nothing to draw in the results given");
out:
	free(title_gens);
	free(missing_gens);
	free(at_words);
	free(bound_where);
	free(bound_cpus);
	free(title_where);
	free(title_cpus);
	free(missing_at);
	free(missing_census);
	slabmem_points_free(pts, nr_pts);
	run_ids_free(runs, n);
	return failed ? -1 : 0;
}
