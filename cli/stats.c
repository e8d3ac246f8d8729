// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void summarize(const double *x, size_t n, struct summary *s)
{
	double sum = 0, sq = 0, *sorted;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	s->n = n;
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
	s->cov = s->mean != 0 ? s->stddev / fabs(s->mean) : 0;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
}
