/* SPDX-License-Identifier: GPL-2.0 */
/* slabbench plot: results files as gnuplot charts (scripts in plots/). */
#ifndef SLABBENCH_PLOT_H
#define SLABBENCH_PLOT_H

#include "options.h"

#include <cjson/cJSON.h>

/* What the census charts show (see slabmem.h). */
struct plot_opts {
	const char *phase;	/* the snapshot; NULL: slabmem_phase()'s choice */
	struct opt_longs at;	/* CPUs of the breakdown by location; none: every count */
};

/*
 * Draws every chart the results have data for into @dir, as PNG and SVG,
 * @docs[0] being the base of ratios; a chart without data is skipped with
 * a message. -1 when a chart failed or none could be drawn.
 */
int plot_results(const cJSON *const *docs, int n, const char *dir, const struct plot_opts *o);

/*
 * The capacity chart's data, plots/sheaves.gp's blocks, and in *@vars its
 * panels (the CPU counts) with their first and last blocks; NULL (and
 * *@vars NULL) when the results hold no point to place.
 */
char *plot_sheaves_data(const cJSON *const *docs, int n, char **vars);

#endif
