// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the price of per-CPU caching: points joined by variant
 * and ask, memory summed over the test's caches only, a cost-model
 * guest's census left out, and the chart's blocks.
 */
#define _GNU_SOURCE
#include "check.h"
#include "plot.h"
#include "sheafprice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A census of boot @pages: the test's two caches and one of the kernel's. */
#define CENSUS(cap, p0, p1)                                                          \
	"{\"census\":{\"page_size\":4096,\"caches\":["                             \
	"{\"name\":\"sb-cache-000\",\"pages\":" #p0 ",\"struct_sheaf\":1024,"      \
	"\"struct_percpu\":64,\"sheaf_capacity\":" #cap "},"                       \
	"{\"name\":\"sb-cache-001\",\"pages\":" #p1 ",\"struct_sheaf\":1024,"      \
	"\"struct_percpu\":64,\"sheaf_capacity\":" #cap "},"                       \
	"{\"name\":\"kmalloc-64\",\"pages\":1000}]}}"

static const char *const memory_run =
	"{\"kernel\":{\"variant\":\"slub-7.3\"},\"guest\":{\"info\":{\"allocator\":\"SLUB\"}},"
	"\"vm\":{\"accel\":\"tcg\",\"cpus\":8},\"tests\":["
	"{\"test\":\"caches\",\"params\":{\"sheaves\":0},"
	"\"extra\":{\"first_cache\":[\"sb-cache-000\",\"sb-cache-000\",\"sb-cache-000\"]}},"
	"{\"test\":\"caches\",\"params\":{\"sheaf_capacity\":124},"
	"\"extra\":{\"first_cache\":[\"sb-cache-000\",\"sb-cache-000\",\"sb-cache-000\"]}},"
	"{\"test\":\"hitrate\",\"params\":{\"sheaf_capacity\":124},\"metrics\":{"
	"\"alloc_slowpath_per1k\":{\"unit\":\"per1k\",\"better\":\"lower\",\"samples\":[6.835,6.835]}}}],"
	"\"boots\":["
	"{\"snapshots\":{\"t0.0s\":" CENSUS(0, 10, 6) ",\"t1.0s\":" CENSUS(124, 20, 20) "}},"
	"{\"snapshots\":{\"t0.0s\":" CENSUS(0, 12, 6) ",\"t1.0s\":" CENSUS(124, 30, 20) "}},"
	"{\"snapshots\":{\"t0.0s\":" CENSUS(0, 11, 6) ",\"t1.0s\":" CENSUS(124, 22, 20) "}}]}";

/* Instructions for the 124 ask; its own caches test, on one vCPU, is no point. */
static const char *const cost_run =
	"{\"kernel\":{\"variant\":\"slub-7.3\"},\"guest\":{\"info\":{\"allocator\":\"SLUB\"}},"
	"\"vm\":{\"accel\":\"cost\",\"cpus\":1},\"tests\":["
	"{\"test\":\"batch\",\"params\":{\"sheaf_capacity\":124},\"metrics\":{"
	"\"alloc_instructions_per_op\":{\"unit\":\"insns/op\",\"better\":\"lower\",\"samples\":[68.5]},"
	"\"free_instructions_per_op\":{\"unit\":\"insns/op\",\"better\":\"lower\",\"samples\":[74.25]}}},"
	"{\"test\":\"caches\",\"params\":{\"sheaf_capacity\":124},"
	"\"extra\":{\"first_cache\":[\"sb-cache-000\"]}}],"
	"\"boots\":[{\"snapshots\":{\"t1.0s\":" CENSUS(124, 1, 1) "}}]}";

/* Another variant's instructions for the same ask: never joined to slub-7.3. */
static const char *const other_cost_run =
	"{\"kernel\":{\"variant\":\"mine-7.3\"},\"guest\":{\"info\":{\"allocator\":\"SLUB\"}},"
	"\"vm\":{\"accel\":\"cost\",\"cpus\":1},\"tests\":["
	"{\"test\":\"batch\",\"params\":{\"sheaves\":0},\"metrics\":{"
	"\"alloc_instructions_per_op\":{\"unit\":\"insns/op\",\"better\":\"lower\",\"samples\":[1]},"
	"\"free_instructions_per_op\":{\"unit\":\"insns/op\",\"better\":\"lower\",\"samples\":[1]}}}],"
	"\"boots\":[{}]}";

static void test_points(const cJSON *const *docs)
{
	struct sheaf_point *p;
	int n = sheaf_points(docs, 3, &p);

	CHECK(n == 2, "sheaves: one point per caches test of the tcg run, none from the cost run (%d)",
	      n);
	if (n != 2)
		return;
	CHECK(p[0].asked == SHEAF_ASKED_NONE && p[0].capacity == 0,
	      "sheaves: sheaves=0 is the ask 'none', and the census says capacity 0");
	CHECK(p[0].boots == 3 && p[0].cpus == 8, "sheaves: three boots at 8 vCPUs");
	/* Median of 16, 18, 17 pages of the test's caches, plus 2 x (1024 + 64). */
	CHECK(p[0].held == 17 * 4096 + 2 * 1088,
	      "sheaves: held is the median over boots of the test's caches alone (%.0f)", p[0].held);
	CHECK(isnan(p[0].insns_per_pair) && isnan(p[0].refills_per1k),
	      "sheaves: no batch or hitrate of slub-7.3 asked 'none': no instructions, no refills "
	      "(mine-7.3's are another kernel's)");
	CHECK(p[1].asked == 124 && p[1].capacity == 124, "sheaves: the 124 ask and its capacity");
	CHECK(p[1].held == 42 * 4096 + 2 * 1088, "sheaves: median of 40, 50, 42 pages (%.0f)",
	      p[1].held);
	CHECK(p[1].insns_per_pair == 68.5 + 74.25,
	      "sheaves: instructions per pair are alloc + free of the cost run's batch (%g)",
	      p[1].insns_per_pair);
	CHECK(p[1].refills_per1k == 6.835, "sheaves: refills from the hitrate test of the same ask");
	CHECK_STR(p[1].variant, "slub-7.3", "sheaves: the point's variant");
	free(p);
}

static void test_chart_data(const cJSON *const *docs)
{
	char *vars = NULL, *d = plot_sheaves_data(docs, 3, &vars);

	CHECK(d && vars, "sheaves chart: the placed points of slub-7.3 at 8, and the panels");
	if (d) {
		CHECK(strstr(d, "\"slub-7.3\"\n142.7500 ") != NULL,
		      "sheaves chart: the block's title, then instructions and MiB");
		CHECK(strstr(d, "\"124 (6.83)\"") != NULL,
		      "sheaves chart: the point says its capacity and refills");
		CHECK(!strstr(d, "no sheaves"),
		      "sheaves chart: a point without instructions is left out, not placed at 0");
	}
	CHECK_STR(vars, "panels=\"8\"; lo=\"0\"; hi=\"0\"",
		  "sheaves chart: one panel, at 8 vCPUs, of block 0 alone");
	free(d);
	free(vars);
	d = plot_sheaves_data(docs, 1, &vars);
	CHECK(!d && !vars, "sheaves chart: no cost run, nothing to place");
	free(d);
}

int main(void)
{
	const char *const texts[] = { memory_run, cost_run, other_cost_run };
	cJSON *docs[3];

	for (int i = 0; i < 3; i++) {
		docs[i] = cJSON_Parse(texts[i]);
		CHECK(docs[i] != NULL, "sheaves: fixture %d parses", i);
		if (!docs[i])
			return 1;
	}
	test_points((const cJSON *const *)docs);
	test_chart_data((const cJSON *const *)docs);
	for (int i = 0; i < 3; i++)
		cJSON_Delete(docs[i]);
	return check_done();
}
