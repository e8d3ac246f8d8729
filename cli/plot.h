/* SPDX-License-Identifier: GPL-2.0 */
/* slabbench plot: results files as gnuplot charts (scripts in plots/). */
#ifndef SLABBENCH_PLOT_H
#define SLABBENCH_PLOT_H

#include <cjson/cJSON.h>

/*
 * Draws every chart the results have data for into @dir, as PNG and SVG,
 * @docs[0] being the base of ratios; a chart without data is skipped with
 * a message. -1 when a chart failed or none could be drawn.
 */
int plot_results(const cJSON *const *docs, int n, const char *dir);

#endif
