// SPDX-License-Identifier: GPL-2.0
/*
 * Charts of results files: the data goes into DIR/NAME.dat, gnuplot
 * draws it with a script from plots/ into DIR/NAME.png and .svg. A chart
 * whose data no file has is skipped with a message, and a chart is
 * written under a temporary name and renamed only when gnuplot succeeded:
 * never a missing, empty or half-drawn picture under the final name.
 * The module's tests' charts are here, the census's in plot_census.c.
 */
#define _GNU_SOURCE
#include "plot.h"
#include "plot_chart.h"
#include "schema.h"
#include "slabmem.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* @metric of run @r's test at @index when it is @t0's test (same spec); NAN if not. */
static double cluster_value(const cJSON *doc, int index, const cJSON *t0, const char *metric)
{
	const cJSON *o = run_test(doc, index);

	return o && !strcmp(test_spec(o), test_spec(t0)) ? metric_mean(test_metric(o, metric))
							   : NAN;
}

static void clusters_chart(struct chart *c, const cJSON *const *docs, const struct run_id *runs, int n,
			   const char *test, const struct bar_row *rows, int nr_rows,
			   const char *const *params)
{
	struct strbuf b = { 0 };
	bool *has = xcalloc(n, sizeof(*has));
	int base = -1, columns = 0;

	/* The categories come from the first run that has such tests. */
	for (int r = 0; r < n && base < 0; r++)
		for (int i = 0; i < run_nr_tests(docs[r]) && base < 0; i++)
			if (!strcmp(test_name(run_test(docs[r], i)), test))
				base = r;
	if (base < 0) {
		free(has);
		return;
	}
	/* A run with none of them gets no column: gnuplot warns of one all '?'. */
	for (int index = 0; index < run_nr_tests(docs[base]); index++) {
		const cJSON *t0 = run_test(docs[base], index);

		for (int i = 0; i < nr_rows && !strcmp(test_name(t0), test); i++)
			for (int r = 0; r < n; r++)
				has[r] |= !isnan(cluster_value(docs[r], index, t0, rows[i].metric));
	}
	sb_addf(&b, "category");
	for (int r = 0; r < n; r++)
		if (has[r] && ++columns)
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
				double v = cluster_value(docs[r], index, t0, rows[i].metric);

				if (!has[r])
					continue;
				if (isnan(v))
					sb_addf(&b, " ?");
				else
					sb_addf(&b, " %g", v);
			}
			sb_addf(&b, "\n");
		}
	}
	free(has);
	if (!columns) {
		free(b.s);
		return;
	}
	c->data = b.s;
	c->vars = xasprintf("nruns=%d", columns);
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
	static const char *const hit_params[] = { "size", "pattern", "order", "sheaf_capacity",
						  NULL };
	static const char *const remote_params[] = { "size", "batch", NULL };
	struct run_id *runs = run_ids(NULL, docs, n);
	const char *phase = slabmem_phase(docs, n, o->phase);
	struct slabmem_point *pts;
	int nr_pts = slabmem_points(docs, n, phase, &pts);
	struct opt_longs at;
	char *missing_census = xasprintf("no census at '%s' in the results (docs/census.md)", phase);
	char *missing_at, *title_cpus, *title_where, *title_gens, *workload_cpus, *workload_where;
	char *at_words, *missing_gens;
	struct chart charts[10] = {
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
		{ .name = "sheaves", .script = "sheaves.gp",
		  .missing = "no caches test with a census beside a batch test under --accel=cost of the same variant (workloads sheaves and sheaves-cost)" },
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
		"Per-CPU caching: memory against instructions, a point per sheaf capacity "
		"(workload sheaves, medians of boots)",
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
		"",
	};
	int drawn = 0, failed = 0;

	plot_where_counts(pts, nr_pts, &o->at, &at);
	at_words = plot_counts_words(&at);
	missing_at = nr_pts ? xasprintf("no census with cache records at %s (SLOB has none)",
					at_words) : xstrdup(missing_census);
	charts[6].missing = missing_at;
	missing_gens = nr_pts ? xstrdup("no SLAB and SLUB census of one config at two CPU counts "
					"or more") : xstrdup(missing_census);
	charts[9].missing = missing_gens;
	workload_cpus = plot_workload_words(pts, nr_pts, NULL);
	workload_where = plot_workload_words(pts, nr_pts, &at);
	/* Each census title in two lines: what it shows, then where it comes from. */
	titles[5] = title_cpus = xasprintf("Slab memory against CPUs%s\ncensus at '%s' "
					   "(median of boots, bars min to max)", workload_cpus, phase);
	titles[6] = title_where = xasprintf("Slab memory by location at %s%s\ncensus at "
					    "'%s' (MiB, median of boots)", at_words, workload_where,
					    phase);
	titles[9] = title_gens = xasprintf("Slab + Percpu of each SLUB against SLAB of its "
					   "config%s\ncensus at '%s' (ratio of means over boots)",
					   workload_cpus, phase);
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
		plot_memory_cpus(&charts[5], pts, nr_pts);
	plot_memory_where(&charts[6], pts, nr_pts, &at);
	lines_chart(&charts[7], docs, runs, n, "sizes", "instructions_per_op", "size", NULL);
	charts[8].data = plot_sheaves_data(docs, n, &charts[8].vars);
	plot_generations(&charts[9], pts, nr_pts);
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
	free(workload_where);
	free(workload_cpus);
	free(title_where);
	free(title_cpus);
	free(missing_at);
	free(missing_census);
	slabmem_points_free(pts, nr_pts);
	run_ids_free(runs, n);
	return failed ? -1 : 0;
}
