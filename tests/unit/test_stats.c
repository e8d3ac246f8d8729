// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of stats: summaries, quartiles, Welch's t-test, intervals and
 * Benjamini-Hochberg against reference values.
 */
#define _GNU_SOURCE
#include "check.h"
#include "stats.h"
#include "util.h"

#include <math.h>

static void test_summary(void)
{
	/* R: x <- c(2,4,4,4,5,5,7,9); mean 5, sd 2.138089935 */
	const double x[] = { 9, 2, 4, 4, 5, 4, 5, 7 };
	struct summary s;

	summarize(x, 8, &s);
	CHECK(s.n == 8, "n");
	CHECK_NEAR(s.mean, 5.0, 1e-12, "mean");
	CHECK_NEAR(s.stddev, 2.138089935299395, 1e-12, "sample standard deviation");
	CHECK_NEAR(s.cov, 2.138089935299395 / 5.0, 1e-12, "coefficient of variation");
	CHECK_NEAR(s.median, 4.5, 0, "median of an even count");
	CHECK(s.min == 2 && s.max == 9, "min and max");
	/* R: quantile(x, c(.25, .75)) (type 7): 4, 5.5 */
	CHECK_NEAR(s.q1, 4, 1e-12, "first quartile");
	CHECK_NEAR(s.q3, 5.5, 1e-12, "third quartile");
	CHECK(x[0] == 9, "input left unsorted");
	/* A count the cost model gives alike in three boots. */
	summarize((const double[]){ 107.999, 107.999, 107.999 }, 3, &s);
	CHECK(s.stddev == 0 && s.mean == 107.999,
	      "equal values: no spread and their own mean, not one rounded (sd %g)", s.stddev);
}

static void test_quantile(void)
{
	const double x[] = { 1, 2, 3, 4 };

	/* R: quantile(1:4, c(0, .25, .5, .9, 1)) = 1, 1.75, 2.5, 3.7, 4 */
	CHECK_NEAR(quantile(x, 4, 0), 1, 0, "quantile 0 is the minimum");
	CHECK_NEAR(quantile(x, 4, 0.25), 1.75, 1e-12, "quantile 0.25 interpolates");
	CHECK_NEAR(quantile(x, 4, 0.5), 2.5, 1e-12, "quantile 0.5 is the median");
	CHECK_NEAR(quantile(x, 4, 0.9), 3.7, 1e-12, "quantile 0.9");
	CHECK_NEAR(quantile(x, 4, 1), 4, 0, "quantile 1 is the maximum");
	CHECK(isnan(quantile(x, 0, 0.5)), "no samples: NaN");
}

static void test_bh(void)
{
	/* R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02 */
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	const double p2[] = { 0.01, NAN, 0.04, 0.03, 0.005, NAN };
	const double p3[] = { 0.5, 0.001 };
	double q[6];

	bh_adjust(p, 4, q);
	CHECK_NEAR(q[0], 0.02, 1e-12, "BH: q of 0.01 among 4");
	CHECK_NEAR(q[1], 0.04, 1e-12, "BH: q of the largest is itself");
	CHECK_NEAR(q[2], 0.04, 1e-12, "BH: q of 0.03 takes the step-up minimum");
	CHECK_NEAR(q[3], 0.02, 1e-12, "BH: q of the smallest");
	bh_adjust(p2, 6, q);
	CHECK(isnan(q[1]) && isnan(q[5]), "BH: untested entries stay NaN");
	CHECK_NEAR(q[0], 0.02, 1e-12, "BH: NaN entries do not count in m");
	CHECK_NEAR(q[4], 0.02, 1e-12, "BH: ... for the smallest either");
	/* R: p.adjust(c(0.5, 0.001), "BH") = 0.5 0.002 */
	bh_adjust(p3, 2, q);
	CHECK_NEAR(q[0], 0.5, 1e-12, "BH: a large p keeps its value");
	CHECK_NEAR(q[1], 0.002, 1e-12, "BH: a small p doubles among 2");
	CHECK(q[1] > p3[1], "BH: q is never below p");
}

static void test_difference_ci(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct summary sa, sb;
	double lo, hi;

	/*
	 * Means 2 and 5, variances 1: se^2 = 2/3, df 4, t(0.975, 4) =
	 * 2.776445105 (R: qt(0.975, 4)); 3 -/+ 2.776445105 sqrt(2/3).
	 */
	summarize(a, 3, &sa);
	summarize(b, 3, &sb);
	CHECK(difference_ci(&sa, &sb, 0.05, &lo, &hi) == 0, "difference: an interval");
	CHECK_NEAR(lo, 3 - 2.776445105 * sqrt(2.0 / 3), 1e-8, "difference: lower bound");
	CHECK_NEAR(hi, 3 + 2.776445105 * sqrt(2.0 / 3), 1e-8, "difference: upper bound");
	summarize(a, 1, &sa);
	CHECK(difference_ci(&sa, &sb, 0.05, &lo, &hi) == -1, "difference: n = 1 gives none");
	summarize((const double[]){ 7, 7 }, 2, &sa);
	summarize((const double[]){ 9, 9 }, 2, &sb);
	CHECK(difference_ci(&sa, &sb, 0.05, &lo, &hi) == 0 && lo == 2 && hi == 2,
	      "difference: no spread, a point interval");
}

static void test_edges(void)
{
	const double one = 3.5, odd[] = { 3, 1, 2 };
	struct summary s;

	summarize(&one, 1, &s);
	CHECK(s.n == 1 && s.mean == 3.5 && s.stddev == 0, "one sample: no spread");
	summarize(odd, 3, &s);
	CHECK_NEAR(s.median, 2, 0, "median of an odd count");
	summarize(odd, 0, &s);
	CHECK(s.n == 0 && s.mean == 0, "no samples");
}

/*
 * Reference values from SciPy 1.10 (Debian python3-scipy), computed apart
 * from GSL: scipy.stats.ttest_ind(b, a, equal_var=False) for t and p, the
 * Welch-Satterthwaite formula for df; the p-values agree with mpmath's
 * regularised incomplete beta at 30 digits. The sleep data are R's
 * datasets::sleep, whose t.test(extra ~ group) R's documentation prints
 * as t = -1.8608, df = 17.776, p-value = 0.07939 (x and y swapped here).
 */
struct welch_case {
	const char *name;
	double a[10], b[10];
	size_t na, nb;
	double t, df, p;
};

static const struct welch_case welch_cases[] = {
	{ "R sleep data",
	  { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 },
	  { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 }, 10, 10,
	  1.86081346749, 17.7764735162, 0.0793941401874 },
	{ "unequal sizes and variances",
	  { 10.1, 10.3, 9.9, 10.0, 10.2 },
	  { 11.0, 12.5, 10.8, 13.1, 11.9, 12.2, 10.5 }, 5, 7,
	  4.32963962706, 6.44261551972, 0.00417698276841 },
	{ "a clear difference",
	  { 100.0, 101.0, 99.5, 100.5 }, { 120.0, 121.0, 119.0, 120.5 }, 4, 4,
	  37.1343996365, 5.58461538462, 6.66936318915e-08 },
	{ "two samples each", { 1, 3 }, { 2, 6 }, 2, 2,
	  0.894427191, 1.47058823529, 0.493132708121 },
	{ "one side without spread", { 5, 5, 5 }, { 4, 6, 5.5, 4.5 }, 3, 4,
	  0, 3, 1 },
};

static void test_welch(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(welch_cases); i++) {
		const struct welch_case *c = &welch_cases[i];
		struct summary a, b;
		struct welch w;

		summarize(c->a, c->na, &a);
		summarize(c->b, c->nb, &b);
		CHECK(welch_test(&a, &b, &w) == 0, "%s: tested", c->name);
		CHECK_NEAR(w.t, c->t, 1e-8 * fmax(1, fabs(c->t)), "%s: t", c->name);
		CHECK_NEAR(w.df, c->df, 1e-8 * c->df, "%s: df", c->name);
		CHECK_NEAR(w.p, c->p, 1e-6, "%s: p", c->name);
		CHECK_NEAR(w.p, c->p, 1e-6 * c->p, "%s: p to 1e-6 relative", c->name);
	}
}

static void test_welch_edges(void)
{
	const double one[] = { 5 }, three[] = { 4, 5, 6 }, same[] = { 7, 7, 7 };
	const double same2[] = { 7, 7 }, other[] = { 8, 8, 8, 8 };
	struct summary a, b;
	struct welch w = { .p = -1 };

	summarize(one, 1, &a);
	summarize(three, 3, &b);
	CHECK(welch_test(&a, &b, &w) == -1 && w.p == -1, "n = 1: no test, no p-value");
	CHECK(welch_test(&b, &a, &w) == -1, "n = 1 on the other side: no test");
	summarize(same, 3, &a);
	summarize(same2, 2, &b);
	CHECK(welch_test(&a, &b, &w) == 0 && w.p == 1 && w.t == 0 && isnan(w.df),
	      "no spread, equal means: p = 1");
	summarize(other, 4, &b);
	CHECK(welch_test(&a, &b, &w) == 0 && w.p == 0 && isinf(w.t) && w.t > 0,
	      "no spread, different means: p = 0, t = +inf");
	CHECK(welch_test(&b, &a, &w) == 0 && w.p == 0 && w.t < 0, "and t = -inf the other way");
}

/*
 * Delta-method intervals at 95%, the same formula evaluated in SciPy:
 * pct +- 100 t.ppf(0.975, df) sqrt(mb^2 va / ma^4 + vb / ma^2), df by
 * Welch-Satterthwaite over those two terms.
 */
static void test_percent_change(void)
{
	const struct welch_case *c;
	static const struct { size_t i; double pct, lo, hi; } ref[] = {
		{ 0, 210.666666667, -335.805219452, 757.138552785 },
		{ 1, 15.9830268741, 7.08863107606, 24.8774226722 },
		{ 2, 19.825436409, 18.4160397238, 21.2348330941 },
		{ 3, 100, -508.486984482, 708.486984482 },
		{ 4, 0, -29.0516271576, 29.0516271576 },
	};
	const double zero[] = { -1, 1 }, one[] = { 3 };
	struct summary a, b;
	double pct, lo, hi;

	for (size_t i = 0; i < ARRAY_SIZE(ref); i++) {
		c = &welch_cases[ref[i].i];
		summarize(c->a, c->na, &a);
		summarize(c->b, c->nb, &b);
		CHECK(percent_change(&a, &b, &pct) == 0, "%s: percent change", c->name);
		CHECK_NEAR(pct, ref[i].pct, 1e-8, "%s: percent change", c->name);
		CHECK(percent_change_ci(&a, &b, 0.05, &lo, &hi) == 0, "%s: interval", c->name);
		CHECK_NEAR(lo, ref[i].lo, 1e-6, "%s: interval, low end", c->name);
		CHECK_NEAR(hi, ref[i].hi, 1e-6, "%s: interval, high end", c->name);
	}
	summarize(zero, 2, &a);
	CHECK(percent_change(&a, &b, &pct) == -1, "zero base mean: no percent change");
	CHECK(percent_change_ci(&a, &b, 0.05, &lo, &hi) == -1, "zero base mean: no interval");
	summarize(one, 1, &a);
	CHECK(percent_change(&a, &b, &pct) == 0 && percent_change_ci(&a, &b, 0.05, &lo, &hi) == -1,
	      "n = 1: a percent change but no interval");
	/* The sign follows the change even below zero. */
	summarize((const double[]){ -10, -10 }, 2, &a);
	summarize((const double[]){ -5, -5 }, 2, &b);
	CHECK(percent_change(&a, &b, &pct) == 0 && pct == 50, "negative base: rise is positive");
	CHECK(percent_change_ci(&a, &b, 0.05, &lo, &hi) == 0 && lo == 50 && hi == 50,
	      "no spread: a point interval");
}

/* Normal draws from xorshift64 and Box-Muller: the same on every machine. */
static double gauss(unsigned long long *s)
{
	double u, v;

	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	u = ((*s >> 11) + 0.5) / 9007199254740992.0;
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	v = ((*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * 5 boots a side of sd 1 give se sqrt(2/5) and 8 degrees of freedom.
 * The power of the two-sided t test at a shift of 2 is R's
 * power.t.test(n = 5, delta = 2) = 0.7905; 0.790542378 and, with a gate
 * of 1.8, 0.606091966 by Simpson's rule over the chi-square density in
 * Python's math module alone (no GSL), and the shift found with 80%
 * power 2.024439 by bisection on the same.
 */
static void test_power(void)
{
	struct summary a = { .n = 5, .stddev = 1 }, big = { .n = 500, .stddev = 1 };
	struct summary flat = { .n = 5 };
	double p, se = sqrt(2.0 / 500), z = 1.959963985;

	CHECK(detection_power(&a, &a, 0.05, 0, 2, &p) == 0, "power: 5 a side");
	CHECK_NEAR(p, 0.790542378, 1e-6, "power: noncentral t at d = 2, n = 5 a side");
	CHECK(detection_power(&a, &a, 0.05, 0, -2, &p) == 0 && fabs(p - 0.790542378) < 1e-6,
	      "power: a fall as a rise");
	detection_power(&a, &a, 0.05, 1.8, 2, &p);
	CHECK_NEAR(p, 0.606091966, 1e-6, "power: the floor as a second threshold");
	detection_power(&a, &a, 0.05, 0, 0, &p);
	CHECK_NEAR(p, 0.05, 1e-7, "power: no shift, alpha");
	/* 998 degrees of freedom: the normal's Q(z - d/se) + Q(z + d/se), z = qnorm(0.975). */
	detection_power(&big, &big, 0.05, 0, 0.2, &p);
	CHECK_NEAR(p, 0.5 * erfc((z - 0.2 / se) / M_SQRT2) + 0.5 * erfc((z + 0.2 / se) / M_SQRT2),
		   2e-3, "power: many boots, the normal's");
	CHECK(detection_power(&flat, &flat, 0.05, 1, 2, &p) == 0 && p == 1,
	      "power: no spread, beyond the gate is found");
	CHECK(detection_power(&flat, &flat, 0.05, 1, 0.5, &p) == 0 && p == 0,
	      "power: no spread, within the gate is not");
	CHECK(detection_power(&a, &(struct summary){ .n = 1 }, 0.05, 0, 2, &p) == -1,
	      "power: no test with one boot");
}

/*
 * The power by simulation, independent of the integral: a pooled
 * two-sample t test (8 degrees of freedom, R: qt(0.975, 8) = 2.306004135)
 * at a shift of 2 rejects in 79.05% of draws; 20000 draws have a standard
 * error of 0.29 points.
 */
static void test_power_simulated(void)
{
	unsigned long long seed = 0x9e3779b97f4a7c15ull;
	int found = 0, reps = 20000;

	for (int r = 0; r < reps; r++) {
		double x[5], y[5], ss;
		struct summary sx, sy;

		for (int i = 0; i < 5; i++) {
			x[i] = gauss(&seed);
			y[i] = 2 + gauss(&seed);
		}
		summarize(x, 5, &sx);
		summarize(y, 5, &sy);
		ss = (sx.stddev * sx.stddev + sy.stddev * sy.stddev) / 5;
		found += fabs(sy.mean - sx.mean) / sqrt(ss) > 2.306004135;
	}
	CHECK(fabs((double)found / reps - 0.790542378) < 0.012,
	      "power: the t test found d = 2 in %.2f%% of %d draws, 79.05%% by the integral",
	      100.0 * found / reps, reps);
}

static void test_detectable(void)
{
	struct summary a = { .n = 5, .stddev = 1 }, b = a, two = { .n = 2, .stddev = 1 };
	struct summary flat = { .n = 5 };
	unsigned long long seed = 0x2545f4914f6cdd1dull;
	int found = 0, reps = 4000;
	double d, p;

	CHECK(detectable_difference(&a, &b, 0.05, 0.8, 0, &d) == 0, "detectable: 5 a side");
	CHECK_NEAR(d, 2.024439, 1e-5, "detectable: 80%% power of the noncentral t at 8 df");
	detection_power(&a, &b, 0.05, 0, d, &p);
	CHECK_NEAR(p, 0.8, 1e-8, "detectable: its power is 80%%");
	CHECK(detectable_difference(&a, &b, 0.05, 0.8, 3, &d) == 0, "detectable: with a gate");
	detection_power(&a, &b, 0.05, 3, d, &p);
	CHECK(d > 3 && fabs(p - 0.8) < 1e-8, "detectable: beyond a gate above t(0.975) se");
	CHECK(detectable_difference(&a, &two, 0.05, 0.8, 0, &d) == 0 && d > 2.03,
	      "detectable: fewer boots, a larger change");
	CHECK(detectable_difference(&flat, &flat, 0.05, 0.8, 0, &d) == 0 && d == 0,
	      "detectable: no spread, any change");
	CHECK(detectable_difference(&a, &(struct summary){ .n = 1 }, 0.05, 0.8, 0, &d) == -1,
	      "detectable: no test with one boot");
	/*
	 * Welch's test, with degrees of freedom estimated from each draw,
	 * finds that shift a little less often than the t test of known
	 * degrees of freedom: 78.2% of 4000 draws in Python's own simulation.
	 */
	detectable_difference(&a, &b, 0.05, 0.8, 0, &d);
	for (int r = 0; r < reps; r++) {
		double x[5], y[5];
		struct summary sx, sy;
		struct welch w;

		for (int i = 0; i < 5; i++) {
			x[i] = gauss(&seed);
			y[i] = d + gauss(&seed);
		}
		summarize(x, 5, &sx);
		summarize(y, 5, &sy);
		found += !welch_test(&sx, &sy, &w) && w.p < 0.05;
	}
	CHECK(found > 0.755 * reps && found < 0.81 * reps,
	      "detectable: Welch's test found it in %.1f%% of %d draws", 100.0 * found / reps,
	      reps);
}

int main(void)
{
	test_power();
	test_power_simulated();
	test_detectable();
	test_summary();
	test_quantile();
	test_bh();
	test_difference_ci();
	test_edges();
	test_welch();
	test_welch_edges();
	test_percent_change();
	return check_done();
}
