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
	double q1, q3;	/* quartiles (linear interpolation, R's type 7); IQR = q3 - q1 */
};

/* qsort()'s order of doubles: ascending. */
int cmp_double(const void *a, const void *b);

/* @x is not modified; n == 0 gives a zeroed summary. */
void summarize(const double *x, size_t n, struct summary *s);

/* Welch's unequal-variance t-test of mean(b) - mean(a), two-sided. */
struct welch {
	double t;	/* > 0 when b's mean is the higher */
	double df;	/* Welch-Satterthwaite; NaN when both variances are 0 */
	double p;
};

/*
 * Returns 0 and fills @w, or -1 when either side has fewer than 2 samples
 * or the variances overflow (samples near DBL_MAX): no test is possible
 * then, and no p-value is given. When neither side
 * varies, p is 1 for equal means, else 0 with an infinite t.
 */
int welch_test(const struct summary *a, const struct summary *b, struct welch *w);

/* 100 (mean(b) - mean(a)) / |mean(a)|; -1 when mean(a) is 0. */
int percent_change(const struct summary *a, const struct summary *b, double *pct);

/*
 * A 1 - @alpha confidence interval of percent_change(), by the delta
 * method. -1 when there is none: fewer than 2 samples on a side, a zero
 * base mean, or overflowing variances.
 */
int percent_change_ci(const struct summary *a, const struct summary *b, double alpha,
		      double *lo, double *hi);

/*
 * A 1 - @alpha confidence interval of mean(b) - mean(a) (Welch), for
 * figures shown as differences. -1 under the same conditions as
 * percent_change_ci() but a zero base.
 */
int difference_ci(const struct summary *a, const struct summary *b, double alpha,
		  double *lo, double *hi);

/*
 * The smallest difference of means, mean(b) - mean(a) in either
 * direction, that Welch's two-sided test at @alpha finds with probability
 * @power, when the change must also exceed @gate (a noise floor on the
 * estimate; 0 for none): max(@gate, t(1 - alpha/2) se) + t(power) se,
 * se and the degrees of freedom as welch_test()'s, with the samples'
 * spread taken as the true one. The t quantiles stand in for the
 * noncentral t's (which GSL lacks): the usual sample-size approximation,
 * which neglects rejections in the wrong direction. By simulation it
 * gives 79% power at 4 degrees of freedom, 80% from 8, for a t-test of
 * known degrees of freedom; Welch's test, whose degrees of freedom are
 * estimated from the draws, found the shift in 77% of draws at 5 boots a
 * side (tests/unit/test_stats.c). 0 when neither side varies (any
 * difference is found); -1 when there is no test.
 */
int detectable_difference(const struct summary *a, const struct summary *b, double alpha,
			  double power, double gate, double *d);

/* The @p quantile (0..1) of @sorted[0..n-1], type 7; NAN when n is 0. */
double quantile(const double *sorted, size_t n, double p);

/*
 * Benjamini-Hochberg adjusted p-values (q-values) of p[0..n-1] into
 * q[0..n-1]: a change is a discovery at false discovery rate alpha when
 * q < alpha. NaN entries (untested) stay NaN and do not count in n.
 */
void bh_adjust(const double *p, size_t n, double *q);

#endif
