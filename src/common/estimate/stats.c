/*
 * stats.c - quantiles, normal and Student-t quantiles, least squares.
 */
#include "common/estimate/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

void dl_sort_doubles(double *x, size_t n)
{
	if (x && n > 1)
		qsort(x, n, sizeof(*x), cmp_double);
}

uint32_t dl_last_at_or_before(const double *sorted, uint32_t n, double x)
{
	uint32_t lo = 0, hi = n;

	if (!sorted || !n || !(x >= sorted[0]))
		return 0;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

double dl_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t i;

	if (!sorted || !n || !(q >= 0 && q <= 1))
		return NAN;
	if (n == 1)
		return sorted[0];
	h = (double) (n - 1) * q;
	i = (size_t) floor(h);
	if (i >= n - 1)
		return sorted[n - 1];
	frac = h - (double) i;
	return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

double dl_quantile(const double *x, size_t n, double q, double *scratch)
{
	if (!x || !scratch || !n)
		return NAN;
	memcpy(scratch, x, n * sizeof(*x));
	dl_sort_doubles(scratch, n);
	return dl_quantile_sorted(scratch, n, q);
}

double dl_normal_quantile_rough(double p)
{
	/* Acklam's coefficients */
	static const double a[] = {
		-3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
		-3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {
		-5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
		-1.328068155288572e+01};
	static const double c[] = {
		-7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00,
		4.374664141464968e+00,  2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
				   2.445134137142996e+00,
				   3.754408661907416e+00};
	const double plow = 0.02425;
	double q, r, x;

	if (!(p > 0 && p < 1))
		return NAN;
	if (p < plow) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
			     q +
		     c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p <= 1 - plow) {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
			     r +
		     a[5]) *
		    q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) *
			     r +
		     1);
	} else {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
			      q +
		      c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	return x;
}

double dl_normal_quantile(double p)
{
	double x = dl_normal_quantile_rough(p), e, u;

	if (isnan(x))
		return x;
	/* one Halley step on the normal CDF */
	e = 0.5 * erfc(-x / sqrt(2)) - p;
	u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

static double t_quantile_df1(double p)
{
	return tan(M_PI * (p - 0.5));
}

static double t_quantile_df2(double p)
{
	double a = 4 * p * (1 - p);

	return (2 * p - 1) * sqrt(2 / a);
}

static double t_quantile_cf(double p, double df)
{
	double z = dl_normal_quantile(p);
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2,
	       z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 =
		(79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;

	return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) +
	       g4 / (df * df * df * df);
}

double dl_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0) || !isfinite(df))
		return NAN;
	if (df >= 3)
		return t_quantile_cf(p, df);
	if (df == 1)
		return t_quantile_df1(p);
	if (df == 2)
		return t_quantile_df2(p);
	if (df <
	    1) /* heavier than Cauchy: use Cauchy (the spread is a prior) */
		return t_quantile_df1(p);
	if (df < 2)
		return t_quantile_df1(p) +
		       (df - 1) * (t_quantile_df2(p) - t_quantile_df1(p));
	return t_quantile_df2(p) +
	       (df - 2) * (t_quantile_cf(p, 3) - t_quantile_df2(p));
}

bool dl_ols(const double *x, const double *y, size_t n, double *a, double *b,
	    double *r2)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, slope;

	if (!x || !y || n < 2)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return false;
		mx += x[i];
		my += y[i];
	}
	mx /= (double) n;
	my /= (double) n;
	for (size_t i = 0; i < n; i++) {
		double dx = x[i] - mx, dy = y[i] - my;

		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (!(sxx > 0) || !isfinite(sxx) || !isfinite(sxy))
		return false;
	slope = sxy / sxx;
	if (a)
		*a = my - slope * mx;
	if (b)
		*b = slope;
	if (r2)
		*r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1;
	return true;
}

double dl_rel_error(double predicted, double actual)
{
	if (!isfinite(predicted) || !isfinite(actual) || !(actual > 0))
		return NAN;
	return fabs(predicted - actual) / actual;
}

static int cmp_weighted(const void *a, const void *b)
{
	const struct dl_weighted *x = a, *y = b;

	return (x->x > y->x) - (x->x < y->x);
}

void dl_sort_weighted(struct dl_weighted *v, size_t n)
{
	if (v && n > 1)
		qsort(v, n, sizeof(*v), cmp_weighted);
}

double dl_weighted_quantile_sorted(const struct dl_weighted *sorted, size_t n,
				   double q)
{
	double total = 0, cum = 0, target;

	if (!sorted || !n || !(q >= 0 && q <= 1))
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(sorted[i].w >= 0) || !isfinite(sorted[i].w) ||
		    isnan(sorted[i].x))
			return NAN;
		total += sorted[i].w;
	}
	if (!(total > 0))
		return NAN;
	/* relative slack: sums of 1/size weights are not exact */
	target = q * total * (1 - 1e-12);
	for (size_t i = 0; i < n; i++) {
		cum += sorted[i].w;
		if (cum >= target && sorted[i].w > 0)
			return sorted[i].x;
	}
	for (size_t i = n; i-- > 0;)
		if (sorted[i].w > 0)
			return sorted[i].x;
	return NAN;
}

double dl_weighted_quantile(const double *x, const double *w, size_t n,
			    double q, struct dl_weighted *scratch)
{
	if (!x || !w || !scratch || !n || !(q >= 0 && q <= 1))
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(w[i] >= 0) || !isfinite(w[i]) || isnan(x[i]))
			return NAN;
		scratch[i].x = x[i];
		scratch[i].w = w[i];
	}
	dl_sort_weighted(scratch, n);
	return dl_weighted_quantile_sorted(scratch, n, q);
}

/* Median (or mean) of the groups picked (pick[k] = group index, npick of
 * them). */
static double groups_stat_of(const struct dl_groups *g, const size_t *pick,
			     size_t npick, bool per_group, bool mean,
			     double *xs, double *ws, struct dl_weighted *idx)
{
	double sum = 0, wsum = 0;
	size_t n = 0;

	for (size_t k = 0; k < npick; k++) {
		size_t a = g->start[pick[k]], b = g->start[pick[k] + 1];

		for (size_t i = a; i < b; i++) {
			xs[n] = g->x[i];
			ws[n] = per_group ? 1.0 / (double) (b - a) : 1.0;
			sum += ws[n] * xs[n];
			wsum += ws[n];
			n++;
		}
	}
	if (mean)
		return wsum > 0 ? sum / wsum : NAN;
	return dl_weighted_quantile(xs, ws, n, 0.5, idx);
}

static bool groups_ok(const struct dl_groups *g)
{
	if (!g || !g->x || !g->start || !g->ngroups)
		return false;
	for (size_t k = 0; k < g->ngroups; k++)
		if (g->start[k + 1] < g->start[k])
			return false;
	return g->start[g->ngroups] > g->start[0];
}

static double groups_stat(const struct dl_groups *g, bool per_group, bool mean)
{
	size_t n, *pick;
	struct dl_weighted *idx;
	double *xs, *ws, m = NAN;

	if (!groups_ok(g))
		return NAN;
	n = g->start[g->ngroups];
	pick = malloc(g->ngroups * sizeof(*pick));
	idx = malloc(n * sizeof(*idx));
	xs = malloc(n * sizeof(*xs));
	ws = malloc(n * sizeof(*ws));
	if (pick && idx && xs && ws) {
		for (size_t k = 0; k < g->ngroups; k++)
			pick[k] = k;
		m = groups_stat_of(g, pick, g->ngroups, per_group, mean, xs, ws,
				   idx);
	}
	free(pick);
	free(idx);
	free(xs);
	free(ws);
	return m;
}

double dl_groups_median(const struct dl_groups *g, bool per_group)
{
	return groups_stat(g, per_group, false);
}

double dl_groups_mean(const struct dl_groups *g, bool per_group)
{
	return groups_stat(g, per_group, true);
}

static bool bootstrap_groups(const struct dl_groups *g, bool per_group,
			     bool mean, unsigned reps, double level,
			     double (*unit)(void *), void *rng, double *lo,
			     double *hi)
{
	size_t maxn = 0, *pick = NULL;
	struct dl_weighted *idx = NULL;
	double *xs = NULL, *ws = NULL, *med = NULL;
	unsigned got = 0;
	bool ok = false;

	if (lo)
		*lo = NAN;
	if (hi)
		*hi = NAN;
	if (!groups_ok(g) || !reps || !unit || !lo || !hi ||
	    !(level > 0 && level < 1))
		return false;
	/* a resample holds at most ngroups copies of the largest group */
	for (size_t k = 0; k < g->ngroups; k++)
		if (g->start[k + 1] - g->start[k] > maxn)
			maxn = g->start[k + 1] - g->start[k];
	maxn *= g->ngroups;
	pick = malloc(g->ngroups * sizeof(*pick));
	idx = malloc(maxn * sizeof(*idx));
	xs = malloc(maxn * sizeof(*xs));
	ws = malloc(maxn * sizeof(*ws));
	med = malloc(reps * sizeof(*med));
	if (!pick || !idx || !xs || !ws || !med)
		goto out;
	for (unsigned r = 0; r < reps; r++) {
		double m;

		for (size_t k = 0; k < g->ngroups; k++) {
			size_t i = (size_t) (unit(rng) * (double) g->ngroups);

			pick[k] = i < g->ngroups ? i : g->ngroups - 1;
		}
		m = groups_stat_of(g, pick, g->ngroups, per_group, mean, xs, ws,
				   idx);
		if (!isnan(m)) /* every group picked was empty */
			med[got++] = m;
	}
	if (!got)
		goto out;
	dl_sort_doubles(med, got);
	*lo = dl_quantile_sorted(med, got, (1 - level) / 2);
	*hi = dl_quantile_sorted(med, got, (1 + level) / 2);
	ok = true;
out:
	free(pick);
	free(idx);
	free(xs);
	free(ws);
	free(med);
	return ok;
}

bool dl_bootstrap_groups(const struct dl_groups *g, bool per_group,
			 unsigned reps, double level, double (*unit)(void *),
			 void *rng, double *lo, double *hi)
{
	return bootstrap_groups(g, per_group, false, reps, level, unit, rng, lo,
				hi);
}

bool dl_bootstrap_groups_mean(const struct dl_groups *g, bool per_group,
			      unsigned reps, double level,
			      double (*unit)(void *), void *rng, double *lo,
			      double *hi)
{
	return bootstrap_groups(g, per_group, true, reps, level, unit, rng, lo,
				hi);
}
