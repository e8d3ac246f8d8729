// SPDX-License-Identifier: GPL-2.0
/* Unit tests of plot: every chart drawn and decoded (PNG), SVG series, missing data. */
#define _GNU_SOURCE
#include "check.h"
#include "compare.h"
#include "plot.h"
#include "png.h"
#include "util.h"

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
	CHECK(plot_results((const cJSON *const *)docs, 2, dir) == 0, "plot: every chart drawn");
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
		/* The overhead chart names causes; the others name the runs. */
		if (!strcmp(charts[i], "overhead"))
			CHECK(text && strstr(text, "slab tail waste") && strstr(text, "x0.29 vs slab"),
			      "plot: overhead.svg has its series and the ratio");
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
	CHECK(plot_results((const cJSON *const *)docs, 1, dir) == -1,
	      "plot: nothing to draw is an error");
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++)
		left += exists(dir, charts[i], "png") + exists(dir, charts[i], "svg");
	CHECK(left == 0, "plot: no file for a chart without data");
	compare_unload(docs, 1);
	rmdir(dir);
}

int main(void)
{
	test_all_charts();
	test_missing();
	return check_done();
}
