/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics over raw samples. */
#ifndef SLABBENCH_STATS_H
#define SLABBENCH_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double mean;
	double stddev;	/* sample standard deviation (n - 1) */
	double cov;	/* stddev / mean, 0 when the mean is 0 */
	double min;
	double max;
	double median;
};

/* @x is not modified; n == 0 gives a zeroed summary. */
void summarize(const double *x, size_t n, struct summary *s);

#endif
