// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check.h"
#include "stats.h"

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
	CHECK(x[0] == 9, "input left unsorted");
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

int main(void)
{
	test_summary();
	test_edges();
	return check_done();
}
