/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabbench report: two results files as a plain-text mail for linux-mm,
 * in the style of the kernel test robot's reports, and the memory
 * figures that report and plot share.
 */
#ifndef SLABBENCH_REPORT_H
#define SLABBENCH_REPORT_H

#include "compare.h"

#include <cjson/cJSON.h>

#define REPORT_WIDTH 72

/* One overhead test of one run, per object unless named otherwise. */
struct mem_breakdown {
	double size, count;
	double total;		/* bytes_per_object: all of the below */
	double rounding, tail, idle;
	double management;	/* the cache's own structures, per object */
	double slab_pages, held_free_pages, held_shrink_pages;
};

/* Fills @m from overhead test @test of @doc; -1 if it is not one. */
int mem_breakdown(const cJSON *doc, int test, struct mem_breakdown *m);

/*
 * The report of @c (exactly two runs, built from @docs by compare_build),
 * every line at most REPORT_WIDTH columns.
 */
char *report_text(const struct comparison *c, const cJSON *const *docs);

#endif
