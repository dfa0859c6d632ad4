/*
 * stats.h - small statistics shared by the task-length predictors, the
 * estimator daemon and the accuracy benchmark: quantiles of a sample, moments
 * of log durations, Student-t quantiles, a least-squares line and relative
 * errors; and the search for the step of a sorted series holding a value,
 * which the capacity series of the planner and the bounds share.  One
 * implementation of each.
 */
#ifndef DL_STATS_H
#define DL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Quantile q in [0,1] of n values sorted ascending, by linear interpolation
 * between order statistics (Hyndman & Fan type 7, R's default):
 * h = (n-1) q, x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 * NAN for n == 0, NULL or q outside [0,1]. */
double dl_quantile_sorted(const double *sorted, size_t n, double q);

/* Sort a copy of x into scratch (n doubles) and return its quantile q. */
double dl_quantile(const double *x, size_t n, double q, double *scratch);

/* Sort doubles ascending in place (NaN must not be present). */
void dl_sort_doubles(double *x, size_t n);

/* The index of the last of n ascending values that is <= x: the step of a
 * piecewise-constant series with breakpoints sorted[] that holds x.  0 when
 * x is before sorted[0], or n is 0. */
uint32_t dl_last_at_or_before(const double *sorted, uint32_t n, double x);

/* Quantile p in (0,1) of the standard normal (Acklam's rational
 * approximation refined by one Halley step; |error| < 1e-12).  NAN outside
 * (0,1). */
double dl_normal_quantile(double p);

/* The same without the refinement, which costs an erfc and an exp:
 * relative error < 1.2e-9, for hot paths where that is far below what
 * the result is used for (a task's remaining time). */
double dl_normal_quantile_rough(double p);

/* Quantile p in (0,1) of Student's t with df > 0 degrees of freedom: the
 * Cornish-Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5) for
 * df >= 3; exact closed forms for df = 1 and 2; fractional df below 3 are
 * interpolated between those.  NAN for bad input. */
double dl_t_quantile(double p, double df);

/* Ordinary least squares y = a + b x.  Returns false (and leaves a, b, r2
 * untouched) for n < 2, non-finite input or x without spread. */
bool dl_ols(const double *x, const double *y, size_t n, double *a, double *b,
	    double *r2);

/* |predicted - actual| / actual; NAN unless actual > 0 and both finite. */
double dl_rel_error(double predicted, double actual);

/* Weighted quantile q in [0,1] of n values x with weights w >= 0 (a
 * lower weighted quantile: the smallest x whose cumulative weight reaches
 * q times the total; with equal weights and odd n, the sample median).
 * scratch holds n pairs.  NAN for n == 0, a total weight of 0, a negative
 * or non-finite weight, a NaN value, or q outside [0,1]. */
struct dl_weighted {
	double x, w;
};
double dl_weighted_quantile(const double *x, const double *w, size_t n,
			    double q, struct dl_weighted *scratch);
/* The same on n pairs already sorted by x (ascending). */
double dl_weighted_quantile_sorted(const struct dl_weighted *sorted, size_t n,
				   double q);
/* Sort pairs by x ascending in place (NaN must not be present). */
void dl_sort_weighted(struct dl_weighted *v, size_t n);

/* Groups of values (e.g. the prediction errors of each job): group g holds
 * x[start[g] .. start[g+1]-1], so start has ngroups + 1 entries. */
struct dl_groups {
	const double *x;
	const size_t *start;
	size_t ngroups;
};

/* Median of grouped values, each value weighted 1 (per_group false) or
 * 1 / its group's size (per_group true: every group counts the same). */
double dl_groups_median(const struct dl_groups *g, bool per_group);
/* Weighted mean of grouped values, weights as in dl_groups_median (of 0/1
 * values: a share, e.g. the coverage of an interval). */
double dl_groups_mean(const struct dl_groups *g, bool per_group);

/* Percentile bootstrap over groups: reps resamples of ngroups groups drawn
 * with replacement (unit() returns uniform numbers in [0,1) from rng, so
 * the interval is deterministic for a seeded generator); the interval is
 * the (1-level)/2 and (1+level)/2 quantiles of the resamples' medians
 * (dl_groups_median).  Returns false (lo = hi = NAN) with no groups, no
 * values, reps == 0 or level outside (0,1). */
bool dl_bootstrap_groups(const struct dl_groups *g, bool per_group,
			 unsigned reps, double level, double (*unit)(void *),
			 void *rng, double *lo, double *hi);
/* The same interval for dl_groups_mean. */
bool dl_bootstrap_groups_mean(const struct dl_groups *g, bool per_group,
			      unsigned reps, double level,
			      double (*unit)(void *), void *rng, double *lo,
			      double *hi);

#endif
