// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics over raw samples: summaries with quartiles, Welch's t-test,
 * percent changes and differences with their confidence intervals (t
 * quantiles from GSL), and Benjamini-Hochberg's adjustment for many tests.
 */
#define _GNU_SOURCE
#include "stats.h"
#include "util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_roots.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double quantile(const double *sorted, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (!n)
		return NAN;
	h = (n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

void summarize(const double *x, size_t n, struct summary *s)
{
	double sum = 0, sq = 0, *sorted;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	s->n = n;
	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	for (i = 0; i < n; i++)
		sum += x[i];
	/*
	 * Equal values have no spread: summed, 107.999 three times has a
	 * mean 1e-14 off, and a standard deviation that would make a count
	 * the same in every boot look as if the boots differed.
	 */
	s->mean = s->min == s->max ? s->min : sum / n;
	for (i = 0; i < n; i++)
		sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
	s->cov = s->mean != 0 ? s->stddev / fabs(s->mean) : 0;
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	s->q1 = quantile(sorted, n, 0.25);
	s->q3 = quantile(sorted, n, 0.75);
	free(sorted);
}

/*
 * (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)), given the shares
 * va / (va + vb) and vb / (va + vb), so that tiny variances cannot
 * underflow their squares to 0/0.
 */
static double satterthwaite(double sa, size_t na, double sb, size_t nb)
{
	return 1 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
}

/*
 * Welch's standard error of b - a and its Satterthwaite degrees of
 * freedom; -1 when a side has fewer than 2 values or the spread is not
 * finite. With no spread at all *se is 0 and *df undefined.
 */
static int welch(const struct summary *a, const struct summary *b, double *se, double *df)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2)
		return -1;
	va = a->stddev * a->stddev / a->n;
	vb = b->stddev * b->stddev / b->n;
	se2 = va + vb;
	/* Samples near DBL_MAX overflow the variances: GSL would abort. */
	if (!isfinite(se2))
		return -1;
	*se = sqrt(se2);
	*df = se2 ? satterthwaite(va / se2, a->n, vb / se2, b->n) : NAN;
	return 0;
}

int welch_test(const struct summary *a, const struct summary *b, struct welch *w)
{
	double se;

	if (welch(a, b, &se, &w->df))
		return -1;
	if (se == 0) {
		/*
		 * Both sides repeat one value exactly, as counts do under
		 * any accelerator: there is no noise for a difference to hide
		 * in. Equal means are no evidence of a change (p = 1); unequal
		 * ones are a certain change, the limit p -> 0 as the
		 * variances shrink. The degrees of freedom are 0/0.
		 */
		if (a->mean == b->mean) {
			w->t = 0;
			w->p = 1;
		} else {
			w->t = b->mean > a->mean ? INFINITY : -INFINITY;
			w->p = 0;
		}
		return 0;
	}
	w->t = (b->mean - a->mean) / se;
	/* The upper tail of |t|, not 1 - P, keeps tiny p-values exact. */
	w->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df));
	return 0;
}

int percent_change(const struct summary *a, const struct summary *b, double *pct)
{
	if (a->mean == 0)
		return -1;
	*pct = 100 * (b->mean - a->mean) / fabs(a->mean);
	return 0;
}

/*
 * Var(mb / ma) ~ vb / ma^2 + mb^2 va / ma^4 to first order (the delta
 * method), with va, vb the variances of the means; its degrees of freedom
 * by Welch-Satterthwaite over those two terms, as in welch_test(). It
 * assumes the base mean is far from 0 compared with its standard error:
 * with a noisy base the true interval of a ratio is wider and skewed.
 */
int percent_change_ci(const struct summary *a, const struct summary *b, double alpha,
		      double *lo, double *hi)
{
	double pct, ca, cb, se, df, q;

	if (a->n < 2 || b->n < 2 || percent_change(a, b, &pct))
		return -1;
	ca = b->mean * b->mean * a->stddev * a->stddev / a->n /
	     (a->mean * a->mean * a->mean * a->mean);
	cb = b->stddev * b->stddev / b->n / (a->mean * a->mean);
	se = sqrt(ca + cb);
	if (!isfinite(se))
		return -1;
	if (se == 0) {
		*lo = *hi = pct;
		return 0;
	}
	df = satterthwaite(ca / (ca + cb), a->n, cb / (ca + cb), b->n);
	q = gsl_cdf_tdist_Qinv(alpha / 2, df);
	*lo = pct - 100 * q * se;
	*hi = pct + 100 * q * se;
	return 0;
}

int difference_ci(const struct summary *a, const struct summary *b, double alpha,
		  double *lo, double *hi)
{
	double se, df, d = b->mean - a->mean, q;

	if (welch(a, b, &se, &df))
		return -1;
	if (se == 0) {
		*lo = *hi = d;
		return 0;
	}
	q = gsl_cdf_tdist_Qinv(alpha / 2, df);
	*lo = d - q * se;
	*hi = d + q * se;
	return 0;
}

/*
 * The test's model: the estimate ~ N(delta, se^2), its variance
 * estimated as se^2 V / df with V ~ chi2(df), independent of it.
 */
struct power_model {
	double delta, se, df, tcrit, gate;
};

/*
 * Either tail's chance that the estimate clears the verdict's threshold,
 * max(gate, t(1 - alpha/2) se sqrt(V / df)), given the estimated spread V.
 */
static double tails(const struct power_model *m, double thr)
{
	return gsl_cdf_ugaussian_Q((thr - m->delta) / m->se) +
	       gsl_cdf_ugaussian_Q((thr + m->delta) / m->se);
}

/* The tails at the spread whose chi-square upper tail is @q. */
static double power_integrand(double q, void *arg)
{
	const struct power_model *m = arg;
	double v = gsl_cdf_chisq_Qinv(q, m->df);

	return tails(m, fmax(m->gate, m->tcrit * m->se * sqrt(v / m->df)));
}

/*
 * The mean of the tails over V ~ chi2(df), integrated over V's upper
 * tail probability q = Q(V) in (0, 1) rather than over V's density:
 * the integrand is bounded and smooth at any degrees of freedom, where
 * the density narrows to a spike that an integral over [0, inf) misses.
 * Below v0 = df (gate / (t se))^2 the gate is the threshold whatever V
 * is: that part is P(V < v0) times both tails at the gate.
 */
static double model_power(struct power_model *m)
{
	gsl_integration_workspace *w = gsl_integration_workspace_alloc(256);
	gsl_function f = { power_integrand, m };
	double v0 = m->gate > 0 ? m->df * pow(m->gate / (m->tcrit * m->se), 2) : 0;
	double q0 = gsl_cdf_chisq_Q(v0, m->df), above = 0, err;
	gsl_error_handler_t *old = gsl_set_error_handler_off();

	gsl_integration_qags(&f, 0, q0, 1e-12, 1e-10, 256, w, &above, &err);
	gsl_set_error_handler(old);
	gsl_integration_workspace_free(w);
	return (1 - q0) * tails(m, m->gate) + above;
}

int detection_power(const struct summary *a, const struct summary *b, double alpha,
		    double gate, double delta, double *power)
{
	struct power_model m = { .delta = fabs(delta), .gate = gate };

	if (welch(a, b, &m.se, &m.df))
		return -1;
	if (m.se == 0) {
		*power = m.delta > gate;
		return 0;
	}
	m.tcrit = gsl_cdf_tdist_Qinv(alpha / 2, m.df);
	*power = model_power(&m);
	return 0;
}

struct power_goal {
	struct power_model m;
	double want;
};

static double power_gap(double delta, void *arg)
{
	struct power_goal *g = arg;

	g->m.delta = delta;
	return model_power(&g->m) - g->want;
}

/*
 * The power rises with the difference: bracket the root between 0 and
 * the central-t approximation, doubled until the power there suffices,
 * then Brent's method to a relative 1e-9.
 */
int detectable_difference(const struct summary *a, const struct summary *b, double alpha,
			  double power, double gate, double *d)
{
	struct power_goal g = { .m.gate = gate, .want = power };
	struct power_model *m = &g.m;
	gsl_function f = { power_gap, &g };
	gsl_root_fsolver *s;
	double lo = 0, hi;
	int status = GSL_CONTINUE;

	if (welch(a, b, &m->se, &m->df))
		return -1;
	if (m->se == 0) {
		*d = gate;
		return 0;
	}
	m->tcrit = gsl_cdf_tdist_Qinv(alpha / 2, m->df);
	if (power_gap(0, &g) >= 0) {
		*d = 0;
		return 0;
	}
	hi = fmax(gate, m->tcrit * m->se) + fmax(0, gsl_cdf_ugaussian_Pinv(power)) * m->se;
	for (int i = 0; power_gap(hi, &g) < 0; i++) {
		if (i == 64)
			return -1;
		lo = hi, hi *= 2;
	}
	s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	gsl_root_fsolver_set(s, &f, lo, hi);
	for (int i = 0; i < 100 && status == GSL_CONTINUE; i++) {
		gsl_root_fsolver_iterate(s);
		status = gsl_root_test_interval(gsl_root_fsolver_x_lower(s),
						gsl_root_fsolver_x_upper(s), 0, 1e-9);
	}
	*d = gsl_root_fsolver_root(s);
	gsl_root_fsolver_free(s);
	return 0;
}

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->p > y->p) - (x->p < y->p);
}

/*
 * q(k) = min over j >= k of p(j) m / j, for the k-th smallest of m
 * p-values: the step-up procedure, written as adjusted values so that a
 * reader can apply any rate.
 */
void bh_adjust(const double *p, size_t n, double *q)
{
	struct ranked *r = xcalloc(n ? n : 1, sizeof(*r));
	size_t m = 0;
	double run = 1;

	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	}
	qsort(r, m, sizeof(*r), cmp_ranked);
	for (size_t k = m; k-- > 0;) {
		run = fmin(run, r[k].p * m / (k + 1));
		q[r[k].i] = run;
	}
	free(r);
}
