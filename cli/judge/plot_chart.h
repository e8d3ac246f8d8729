/* SPDX-License-Identifier: GPL-2.0 */
/* What plot.c and plot_census.c share: a chart, and the census charts' makers. */
#ifndef SLABBENCH_PLOT_CHART_H
#define SLABBENCH_PLOT_CHART_H

#include "options.h"
#include "slabmem.h"

struct chart {
	const char *name;	/* of the files, and in messages */
	const char *script;	/* in plots/ */
	char *data, *ratios;	/* what goes into NAME.dat (and NAME.ratios) */
	char *vars;		/* gnuplot assignments, "a='x'; n=2" */
	const char *missing;	/* why there is nothing to draw */
};

/*
 * The census charts of @n points (slabmem_points()): each fills @c's data
 * and vars, or leaves its data NULL when it has nothing to draw.
 */
void plot_memory_cpus(struct chart *c, const struct slabmem_point *pts, int n);
void plot_generations(struct chart *c, const struct slabmem_point *pts, int n);
void plot_memory_where(struct chart *c, const struct slabmem_point *pts, int n,
		       const struct opt_longs *at);
/*
 * The workload of the points drawn (at one of @at CPU counts; NULL:
 * any), as a census chart's title names it: ", 'kernel' workload";
 * ", 'memory' workload: an upper bound" when it is built to bound its
 * figures (one rule for every census chart); ", several workloads"
 * when the points are of more than one.
 */
char *plot_workload_words(const struct slabmem_point *pts, int n, const struct opt_longs *at);
/* "8 CPUs", "8 and 64 CPUs", "2, 8 and 64 CPUs": @at's counts. */
char *plot_counts_words(const struct opt_longs *at);
/* The CPU counts of memory-where, ascending: @want's, else every count of the points. */
void plot_where_counts(const struct slabmem_point *pts, int n, const struct opt_longs *want,
		       struct opt_longs *at);

#endif
