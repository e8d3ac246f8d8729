// SPDX-License-Identifier: GPL-2.0
/* Unit tests of plot: every chart drawn and decoded (PNG), SVG series, missing data. */
#define _GNU_SOURCE
#include "check.h"
#include "census_fixture.h"
#include "compare.h"
#include "plot.h"
#include "png.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const charts[] = { "sizes", "overhead", "hitrate", "scaling", "remote" };

static bool exists(const char *dir, const char *name, const char *ext)
{
	char *path = xasprintf("%s/%s.%s", dir, name, ext);
	struct stat st;
	bool ret = !stat(path, &st);

	free(path);
	return ret;
}

/* Real results of the default workload: every chart has its data. */
static void test_all_charts(void)
{
	static const char *const paths[] = {
		"tests/data/report-slab.json", "tests/data/report-slub.json",
	};
	char dir[] = "/tmp/slabbench-plot-XXXXXX";
	cJSON **docs = compare_load(paths, 2, false);

	CHECK(docs && mkdtemp(dir), "plot: results load, scratch directory made");
	if (!docs)
		return;
	CHECK(plot_results((const cJSON *const *)docs, 2, dir, &(struct plot_opts){ 0 }) == 0,
	      "plot: every chart drawn");
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++) {
		char *png = xasprintf("%s/%s.png", dir, charts[i]);
		char *svg = xasprintf("%s/%s.svg", dir, charts[i]);
		size_t len = 0;
		char *data = read_file(png, &len), *text = read_file(svg, NULL);
		struct png_info info;

		CHECK(data && !png_check((unsigned char *)data, len, &info),
		      "plot: %s.png is a whole PNG (CRCs, image data)", charts[i]);
		CHECK(data && info.width >= 800 && info.height >= 500 && info.colours >= 4,
		      "plot: %s.png is %ux%u with %d colours, not blank", charts[i],
		      info.width, info.height, info.colours);
		CHECK(text && strstr(text, "<svg") && strstr(text, "</svg>"),
		      "plot: %s.svg is a whole SVG", charts[i]);
		/*
		 * The overhead chart names causes, all measured: the slab
		 * pages of both were the same, and so is the overhead.
		 */
		if (!strcmp(charts[i], "overhead"))
			CHECK(text && strstr(text, "slab tail waste") && strstr(text, "x1.00 vs slab") &&
			      !strstr(text, "structures"),
			      "plot: overhead.svg has its measured series and the ratio");
		else
			CHECK(text && strstr(text, ">slab") && strstr(text, ">slub"),
			      "plot: %s.svg names both runs", charts[i]);
		CHECK(!exists(dir, charts[i], "png.tmp") && !exists(dir, "", "png.tmp"),
		      "plot: no temporary file left for %s", charts[i]);
		free(data);
		free(text);
		free(png);
		free(svg);
	}
	compare_unload(docs, 2);
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++) {
		static const char *const ext[] = { "png", "svg", "dat", "ratios" };

		for (size_t e = 0; e < 4; e++) {
			char *p = xasprintf("%s/%s.%s", dir, charts[i], ext[e]);

			unlink(p);
			free(p);
		}
	}
	rmdir(dir);
}

/* A run of only the fast path: no chart has data, none is written. */
static void test_missing(void)
{
	static const char *const paths[] = { "tests/data/compare-base.json" };
	char dir[] = "/tmp/slabbench-plot-XXXXXX";
	cJSON **docs = compare_load(paths, 1, false);
	int left = 0;

	if (!docs || !mkdtemp(dir))
		return;
	freopen("/dev/null", "w", stderr);
	CHECK(plot_results((const cJSON *const *)docs, 1, dir, &(struct plot_opts){ 0 }) == -1,
	      "plot: nothing to draw is an error");
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++)
		left += exists(dir, charts[i], "png") + exists(dir, charts[i], "svg");
	CHECK(left == 0, "plot: no file for a chart without data");
	compare_unload(docs, 1);
	rmdir(dir);
}

/* Whether DIR/NAME holds @want; if not, its start is shown. */
static bool file_has(const char *dir, const char *name, const char *want)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL);
	bool ret = text && strstr(text, want);

	if (!ret)
		printf("# %s: %.2000s\n", path, text ? text : "(none)");
	free(text);
	free(path);
	return ret;
}

/* Whether gnuplot's messages in @err (stderr of a plot) are none; if not, the first is shown. */
static bool gnuplot_quiet(const char *err)
{
	const char *w = err ? strstr(err, ".gp\" line ") : NULL;

	if (!w && err)
		w = strstr(err, "Warning");
	if (w)
		printf("# %.300s", w);
	return err && !w;
}

/* Whether DIR/NAME lacks @unwanted; if not, where it is is shown. */
static bool file_lacks(const char *dir, const char *name, const char *unwanted)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL);
	char *at = text ? strstr(text, unwanted) : NULL;
	bool ret = text && !at;

	if (at)
		printf("# %s: '%.200s'\n", path, at);
	free(text);
	free(path);
	return ret;
}

/* A PNG and an SVG of @name in @dir, whole and not blank. */
static void check_drawn(const char *dir, const char *name)
{
	char *png = xasprintf("%s/%s.png", dir, name), *svg = xasprintf("%s/%s.svg", dir, name);
	size_t len = 0;
	char *data = read_file(png, &len), *text = read_file(svg, NULL);
	struct png_info info;

	CHECK(data && !png_check((unsigned char *)data, len, &info) && info.width >= 800 &&
	      info.colours >= 4, "census plot: %s.png is a whole PNG, not blank", name);
	CHECK(text && strstr(text, "</svg>"), "census plot: %s.svg is a whole SVG", name);
	free(data);
	free(text);
	free(png);
	free(svg);
}

static void clean(const char *dir)
{
	static const char *const names[] = { "memory-cpus", "memory-where", "generations" };
	static const char *const ext[] = { "png", "svg", "dat", "ratios" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		for (size_t e = 0; e < 4; e++) {
			char *p = xasprintf("%s/%s.%s", dir, names[i], ext[e]);

			unlink(p);
			free(p);
		}
	}
	rmdir(dir);
}

/*
 * A sweep of slab and slub at 1, 2 and 4 CPUs, three boots each, and a
 * slob at 2: the census charts, from the held phase by default.
 */
static void test_census_charts(void)
{
	static const struct {
		const char *variant, *allocator;
		int cpus;
	} runs[] = {
		{ "slab", "SLAB", 1 }, { "slab", "SLAB", 2 }, { "slab", "SLAB", 4 },
		{ "slub", "SLUB", 4 }, { "slub", "SLUB", 1 }, { "slub", "SLUB", 2 },
		{ "slob", "SLOB", 2 },
	};
	char dir[] = "/tmp/slabbench-plot-XXXXXX";
	cJSON *docs[7];
	struct plot_opts o = { 0 };
	int ret;

	for (int i = 0; i < 7; i++) {
		struct fixture f = { runs[i].variant, runs[i].allocator, runs[i].cpus, 1, 3,
				     "t0.0s", 0, false };

		docs[i] = fixture_doc(&f);
	}
	if (!mkdtemp(dir))
		return;
	freopen("/dev/null", "w", stderr);
	ret = plot_results((const cJSON *const *)docs, 7, dir, &o);
	CHECK(ret == 0, "census plot: drawn");
	check_drawn(dir, "memory-cpus");
	check_drawn(dir, "memory-where");
	CHECK(!exists(dir, "sizes", "png") && !exists(dir, "overhead", "png"),
	      "census plot: the module's charts skipped, their tests absent");
	/*
	 * slub at 1 CPU in the held phase: 40 pages of 4096 bytes less
	 * 134000 live bytes, plus 640 of its own structures in them and 96
	 * of per-CPU structures; Slab + Percpu (40 + 10 + 102) pages; boot 1
	 * a page more.
	 */
	CHECK(file_has(dir, "memory-cpus.dat", "\"slub\"\n"
		       "1 0.0291595 0.0291595 0.0330658 0.59375 0.59375 0.597656\n2 "),
	      "census plot: a line per variant, by CPUs, median min max of both figures");
	CHECK(file_has(dir, "memory-cpus.dat", "\"slab\"\n1 ") &&
	      file_has(dir, "memory-cpus.dat", "\"slob\"\n2 ? ? ? "),
	      "census plot: SLOB has Slab + Percpu, and no overhead since its live bytes are unknown");
	CHECK(file_has(dir, "memory-where.dat", "allocator \"live objects\" "
		       "\"padding of live objects\" \"free in CPU slabs\" "
		       "\"free in per-CPU partial slabs\" \"free in per-CPU arrays\" "
		       "\"free in shared arrays\" \"free in node partial slabs\" "
		       "\"free in empty slabs\" \"slab tails\" \"allocator's structures\" "
		       "\"per-CPU structures\"\n\"slab, 1 CPU\" "),
	      "census plot: the locations either allocator has, none absent from both (alien)");
	CHECK(file_has(dir, "memory-where.dat", "\n\"slub, 1 CPU\" ") &&
	      file_has(dir, "memory-where.dat", "\n\"\" ? ? ? ? ? ? ? ? ? ? ?\n\"slab, 2 CPUs\" ") &&
	      file_has(dir, "memory-where.dat", "\n\"slub, 4 CPUs\" "),
	      "census plot: by default a bar per variant at every count, a row of nothing between");
	CHECK(file_has(dir, "memory-where.ratios", "0 ") &&
	      file_has(dir, "memory-where.ratios", "\"0.03 MiB\"\n3 ") &&
	      file_has(dir, "memory-where.svg", "beyond live objects"),
	      "census plot: the bytes beyond live objects above each bar, the empty rows skipped");
	CHECK(file_has(dir, "memory-where.svg", "at 1, 2 and 4 CPUs") &&
	      file_has(dir, "memory-where.svg", "census at 't0.0s'"),
	      "census plot: by default every CPU count, and the held phase");
	CHECK(file_has(dir, "memory-cpus.svg", "Slab memory against CPUs, 'memory' workload") &&
	      file_has(dir, "generations.svg", "SLAB of its config, 'memory' workload") &&
	      file_lacks(dir, "generations.svg", "upper bound"),
	      "census plot: the titles name the workload, no bound where it is none");
	clean(dir);

	if (!mkdtemp(strcpy(dir, "/tmp/slabbench-plot-XXXXXX")))
		return;
	o = (struct plot_opts){ .phase = "after", .at = { 1, { 2 } } };
	CHECK(plot_results((const cJSON *const *)docs, 7, dir, &o) == 0 &&
	      file_has(dir, "memory-where.svg", "at 2 CPUs") &&
	      file_has(dir, "memory-cpus.dat", "\"slub\"\n1 0.0252533 "),
	      "census plot: --at and --phase chosen (after: one empty slab fewer)");
	clean(dir);

	if (!mkdtemp(strcpy(dir, "/tmp/slabbench-plot-XXXXXX")))
		return;
	o = (struct plot_opts){ .at = { 1, { 16 } } };
	CHECK(plot_results((const cJSON *const *)docs, 7, dir, &o) == 0 &&
	      exists(dir, "memory-cpus", "png") && !exists(dir, "memory-where", "png"),
	      "census plot: no run at --at, that chart alone is skipped");
	clean(dir);
	for (int i = 0; i < 7; i++)
		cJSON_Delete(docs[i]);
}

/*
 * The sizes chart's error bars are over boots: boots of repeats 100, 100,
 * 300 and 200, 200, 200 have medians 100 and 200, so a mean of 150 and a
 * standard deviation of 70.7107 (pooled repeats would give 183.333 and
 * 75.2773).
 */
static void test_sizes_boots(void)
{
	static const char *const json = "{\"schema\":1,\"status\":\"complete\","
		"\"vm\":{\"accel\":\"kvm\",\"cpus\":1},\"kernel\":{\"variant\":\"slub\"},"
		"\"workload\":{\"name\":\"w\"},\"tests\":[{\"test\":\"sizes\","
		"\"spec\":\"test=sizes\",\"metrics\":{\"ns_per_op[size=64]\":{\"unit\":\"ns\","
		"\"better\":\"lower\",\"labels\":{\"size\":64},"
		"\"samples\":[100,100,300,200,200,200],"
		"\"boots\":[[100,100,300],[200,200,200]]}}}]}";
	static const char *const names[] = { "sizes.png", "sizes.svg", "sizes.dat" };
	char dir[] = "/tmp/slabbench-plot-XXXXXX";
	cJSON *doc = cJSON_Parse(json);

	CHECK(doc && mkdtemp(dir), "sizes: a run of two boots, scratch directory made");
	CHECK(plot_results((const cJSON *const *)&doc, 1, dir, &(struct plot_opts){ 0 }) == 0,
	      "sizes: drawn");
	CHECK(file_has(dir, "sizes.dat", "\"slub\"\n64 150 70.7107\n"),
	      "sizes: the mean and standard deviation of boot medians, not of pooled repeats");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
	cJSON_Delete(doc);
}

/*
 * The census at one CPU count, of a workload built to bound it (as the
 * demo's default runs and its memory sweep at 2 CPUs): gnuplot draws it
 * without a word on stderr (an autoscaled axis of one value would warn
 * "empty x range"), and each chart's title says what its figures are.
 */
static void test_one_count_bound(void)
{
	char dir[] = "/tmp/slabbench-plot-XXXXXX", log[] = "/tmp/slabbench-plot-log-XXXXXX";
	const struct fixture fs[] = {
		{ "slab", "SLAB", 2, 1, 3, "t2.0s", 0, false },
		{ "slub", "SLUB", 2, 1, 3, "t2.0s", 0, false },
	};
	cJSON *docs[2];
	char *err;
	int fd = mkstemp(log);

	if (fd < 0 || !mkdtemp(dir))
		return;
	for (int i = 0; i < 2; i++) {
		docs[i] = fixture_doc(&fs[i]);
		cJSON_AddStringToObject(cJSON_GetObjectItem(docs[i], "workload"), "upper_bound",
					"many private caches, 4 objects each per CPU, held");
	}
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	CHECK(plot_results((const cJSON *const *)docs, 2, dir, &(struct plot_opts){ 0 }) == 0,
	      "one count: drawn");
	fflush(stderr);
	freopen("/dev/null", "w", stderr);
	err = read_file(log, NULL);
	CHECK(gnuplot_quiet(err) && !strstr(err, "warning: plot: memory"),
	      "one count: gnuplot has nothing to say");
	CHECK(file_has(dir, "memory-cpus.svg", "Slab memory against CPUs, 'memory' workload: "
		       "an upper bound") &&
	      file_has(dir, "memory-where.svg", "at 2 CPUs, 'memory' workload: an upper bound"),
	      "one count: both census charts' titles name the workload and the bound");
	free(err);
	close(fd);
	unlink(log);
	clean(dir);
	for (int i = 0; i < 2; i++)
		cJSON_Delete(docs[i]);
}

/*
 * Slab + Percpu of a run's boots at its held phase, read from the census
 * totals directly: (pages + kmalloc_large_pages + percpu_pages) * page_size.
 */
static double slab_percpu_mean(const cJSON *doc)
{
	double sum = 0;
	int n = 0;

	for (const cJSON *b = cJSON_GetObjectItem(doc, "boots")->child; b; b = b->next, n++) {
		const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(b,
							"snapshots"), "t0.0s"), "census");
		const cJSON *t = cJSON_GetObjectItem(c, "total");

		sum += (cJSON_GetObjectItem(t, "pages")->valuedouble +
			cJSON_GetObjectItem(t, "kmalloc_large_pages")->valuedouble +
			cJSON_GetObjectItem(t, "percpu_pages")->valuedouble) * 4096;
	}
	return sum / n;
}

/* The ratio on @cpus's line of block @title in DIR/generations.dat; NAN if none. */
static double gens_ratio(const char *dir, const char *title, long cpus, char *ci, size_t len)
{
	char *path = xasprintf("%s/generations.dat", dir), *text = read_file(path, NULL);
	char *head = xasprintf("\"%s\"\n", title), *p = text ? strstr(text, head) : NULL;
	double r = NAN;

	for (p = p ? p + strlen(head) : NULL; p && *p && *p != '\n'; p = strchr(p, '\n') + 1) {
		long at;
		int used = 0;

		if (sscanf(p, "%ld %lf %n", &at, &r, &used) == 2 && at == cpus) {
			snprintf(ci, len, "%.*s", (int)strcspn(p + used, "\n"), p + used);
			break;
		}
		r = NAN;
	}
	free(head);
	free(text);
	free(path);
	return r;
}

/*
 * Generations: SLAB, SLUB of 6.1 and 6.12 and SLUB with sheaves (7.3) at
 * 2, 8 and 64 CPUs, five boots each, and distro kernels of SLAB and SLUB
 * (config family "distro", more empty slabs) at 8 and 64: each SLUB line
 * against the SLAB of its own config, named by its generation, with an
 * interval; memory-where at --at=8,64 with the sheaves' locations; no
 * word from gnuplot; a bound said in the title. Then one CPU count
 * alone: no generations chart.
 */
static void test_generations(void)
{
	static const struct {
		const char *variant, *allocator, *release, *family;
		bool sheaves;
		int empty;
	} kernels[] = {
		{ "slab", "SLAB", "6.1.192", "small", false, 0 },
		{ "slub", "SLUB", "6.1.192", "small", false, 0 },
		{ "slub-6.12", "SLUB", "6.12.57", "small", false, 1 },
		{ "slub-7.3", "SLUB", "7.3.1", "small", true, 2 },
		{ "slab-distro", "SLAB", "6.1.192", "distro", false, 5 },
		{ "slub-distro", "SLUB", "6.1.192", "distro", false, 9 },
	};
	static const long cpus[] = { 2, 8, 64 };
	char dir[] = "/tmp/slabbench-plot-XXXXXX", log[] = "/tmp/slabbench-plot-log-XXXXXX";
	struct plot_opts o = { .at = { 2, { 64, 8 } } };
	cJSON *docs[18], *at8[6];
	int n = 0, fd = mkstemp(log), nr8 = 0;
	double r, want;
	char ci[64] = "", *err;

	if (fd < 0 || !mkdtemp(dir))
		return;
	for (size_t c = 0; c < ARRAY_SIZE(cpus); c++) {
		for (size_t k = 0; k < ARRAY_SIZE(kernels); k++) {
			struct fixture f = { kernels[k].variant, kernels[k].allocator, cpus[c], 1, 5,
					     "t0.0s", kernels[k].empty, false };
			struct fixture_kernel fk = { kernels[k].release, kernels[k].sheaves };

			if (!strcmp(kernels[k].family, "distro") && cpus[c] == 2)
				continue;
			docs[n] = fixture_doc_kernel(&f, &fk);
			cJSON_AddStringToObject(cJSON_GetObjectItem(docs[n], "kernel"),
						"config_family", kernels[k].family);
			cJSON_AddStringToObject(cJSON_GetObjectItem(docs[n], "workload"),
						"upper_bound", "every object held");
			if (cpus[c] == 8)
				at8[nr8++] = docs[n];
			n++;
		}
	}
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	CHECK(plot_results((const cJSON *const *)docs, n, dir, &o) == 0, "generations: drawn");
	fflush(stderr);
	freopen("/dev/null", "w", stderr);
	err = read_file(log, NULL);
	CHECK(gnuplot_quiet(err) && !strstr(err, "warning: plot: memory") &&
	      !strstr(err, "warning: plot: generations"), "generations: gnuplot has nothing to say");
	free(err);
	check_drawn(dir, "generations");
	check_drawn(dir, "memory-where");
	/* docs at 8 CPUs: slab, slub, slub-6.12, slub-7.3, slab-distro, slub-distro. */
	r = gens_ratio(dir, "slub-7.3 (7.3.1, sheaves)", 8, ci, sizeof(ci));
	want = slab_percpu_mean(at8[3]) / slab_percpu_mean(at8[0]);
	CHECK(fabs(r - want) < 1e-5 * want,
	      "generations: 7.3's sheaves at 8 CPUs, x%g of SLAB's Slab + Percpu (x%g)", r, want);
	{
		double lo = NAN, hi = NAN;

		CHECK(sscanf(ci, "%lf %lf", &lo, &hi) == 2 && lo < r && r < hi,
		      "generations: with its 95%% interval around it (%s)", ci);
	}
	r = gens_ratio(dir, "slub-distro (6.1.192, CPU slabs and per-CPU partial slabs)", 8, ci,
		       sizeof(ci));
	want = slab_percpu_mean(at8[5]) / slab_percpu_mean(at8[4]);
	CHECK(fabs(r - want) < 1e-5 * want && fabs(r - slab_percpu_mean(at8[5]) /
						    slab_percpu_mean(at8[0])) > 1e-3,
	      "generations: a distro SLUB against the distro SLAB (x%g), not the small one", r);
	CHECK(!isnan(gens_ratio(dir, "slub-6.12 (6.12.57, CPU slabs and per-CPU partial slabs)",
				2, ci, sizeof(ci))) &&
	      !isnan(gens_ratio(dir, "slub (6.1.192, CPU slabs and per-CPU partial slabs)", 64, ci,
				sizeof(ci))) &&
	      file_lacks(dir, "generations.dat", "\"slab"),
	      "generations: a line per SLUB variant named by its generation, none for SLAB");
	CHECK(file_has(dir, "generations.svg", "Slab + Percpu of each SLUB against SLAB of its "
		       "config, 'memory' workload: an upper bound"),
	      "generations: the title says the figures are an upper bound");
	CHECK(file_has(dir, "memory-where.dat", "\"free in CPU slabs\" \"free in per-CPU partial "
		       "slabs\" \"free in per-CPU arrays\" \"free in shared arrays\" \"free in main "
		       "sheaves\" \"free in spare sheaves\" \"free in barns' sheaves\"") &&
	      file_has(dir, "memory-where.dat", "\"sheaves' structures\""),
	      "generations: memory-where has the sheaves' locations beside the CPU slabs'");
	CHECK(file_has(dir, "memory-where.dat", "\n\"slub-7.3, 8 CPUs\" ") &&
	      file_has(dir, "memory-where.dat", "\n\"slab, 64 CPUs\" ") &&
	      file_lacks(dir, "memory-where.dat", "2 CPUs") &&
	      file_has(dir, "memory-where.svg", "at 8 and 64 CPUs, 'memory' workload: an upper bound"),
	      "generations: memory-where at the counts --at chose, fewest first");
	clean(dir);
	for (int i = 0; i < n; i++)
		cJSON_Delete(docs[i]);

	/*
	 * Three boots a side: the ratio without an interval, and said so;
	 * then one CPU count: no line to draw.
	 */
	for (int i = 0; i < 4; i++) {
		struct fixture f = { kernels[i % 2].variant, kernels[i % 2].allocator, 2 << (i / 2),
				     1, 3, "t0.0s", 0, false };

		docs[i] = fixture_doc_kernel(&f, &(struct fixture_kernel){ kernels[i % 2].release,
									  false });
	}
	for (int k = 4; k >= 2; k -= 2) {
		if (!mkdtemp(strcpy(dir, "/tmp/slabbench-plot-XXXXXX")))
			return;
		fflush(stderr);
		dup2(fd, STDERR_FILENO);
		CHECK(plot_results((const cJSON *const *)docs, k, dir, &(struct plot_opts){ 0 }) == 0,
		      "generations: %d runs of three boots drawn", k);
		fflush(stderr);
		freopen("/dev/null", "w", stderr);
		err = read_file(log, NULL);
		CHECK(gnuplot_quiet(err), "generations: %d runs, gnuplot has nothing to say", k);
		free(err);
		if (k == 4)
			CHECK(!isnan(gens_ratio(dir, "slub (6.1.192, CPU slabs and per-CPU partial slabs)",
						4, ci, sizeof(ci))) && !strcmp(ci, "? ?") &&
			      file_has(dir, "generations.svg", "no interval: fewer than 5 boots a side"),
			      "generations: fewer than 5 boots a side, no interval, and the chart says so");
		else
			CHECK(exists(dir, "memory-where", "png") && !exists(dir, "generations", "png"),
			      "generations: one CPU count, that chart alone skipped");
		clean(dir);
	}
	for (int i = 0; i < 4; i++)
		cJSON_Delete(docs[i]);
	close(fd);
	unlink(log);
}

/*
 * A run without hitrate tests (a cost-model run beside a full one) gets no
 * column of '?' in the clustered chart, which gnuplot would warn of.
 */
static void test_cluster_columns(void)
{
	static const char *const paths[] = {
		"tests/data/report-slab.json", "tests/data/report-slub.json",
	};
	char dir[] = "/tmp/slabbench-plot-XXXXXX", log[] = "/tmp/slabbench-plot-log-XXXXXX";
	cJSON **loaded = compare_load(paths, 2, false), *docs[3];
	char *err;
	int fd = mkstemp(log);

	CHECK(loaded && fd >= 0 && mkdtemp(dir), "columns: results load");
	if (!loaded || fd < 0)
		return;
	docs[0] = loaded[0];
	docs[1] = cJSON_Parse("{\"kernel\":{\"variant\":\"cost-only\"},\"tests\":[]}");
	docs[2] = loaded[1];
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	plot_results((const cJSON *const *)docs, 3, dir, &(struct plot_opts){ 0 });
	fflush(stderr);
	freopen("/dev/null", "w", stderr);
	err = read_file(log, NULL);
	CHECK(file_has(dir, "hitrate.dat", "category \"slab\" \"slub\"\n"),
	      "columns: the hitrate chart has a column for each run with hitrate tests only");
	CHECK(err && !strstr(err, "Skipping data file") && !strstr(err, "xtic"),
	      "columns: gnuplot draws the clusters without a warning");
	free(err);
	close(fd);
	unlink(log);
	clean(dir);
	cJSON_Delete(docs[1]);
	compare_unload(loaded, 2);
}

int main(void)
{
	test_sizes_boots();
	test_all_charts();
	test_missing();
	test_census_charts();
	test_one_count_bound();
	test_generations();
	test_cluster_columns();
	return check_done();
}
