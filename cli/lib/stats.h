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
 * The power of the verdict on a difference of means: the chance that
 * Welch's two-sided test at @alpha (before any correction) rejects and
 * the estimate also exceeds @gate (a noise floor on the estimate; 0 for
 * none), when the true difference is @delta, the samples' spread is the
 * true one and the degrees of freedom are welch_test()'s. The estimate
 * is normal and its variance a scaled chi-square, so the statistic is a
 * noncentral t: power = integral over V ~ chi2(df) of
 * P(|Z + delta/se| > max(gate/se, t(1 - alpha/2) sqrt(V/df))), by GSL's
 * quadrature; both directions count. Welch's test estimates its degrees
 * of freedom from each draw, which costs it a little of this power
 * (tests/unit/test_stats.c). -1 when there is no test; with no spread
 * on either side, 1 beyond the gate and 0 within.
 */
int detection_power(const struct summary *a, const struct summary *b, double alpha,
		    double gate, double delta, double *power);

/*
 * The smallest difference of means, mean(b) - mean(a) in either
 * direction, that detection_power() finds with probability @power, found
 * by root-finding: 0 when neither side varies (any difference is found;
 * @gate when there is one); -1 when there is no test.
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
