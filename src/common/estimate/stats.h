/*
 * stats.h - small statistics shared by the task-length predictors, the
 * estimator daemon and the accuracy benchmark: quantiles of a sample, moments
 * of log durations, Student-t quantiles, a least-squares line and relative
 * errors.  One implementation of each formula.
 */
#ifndef DL_STATS_H
#define DL_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Quantile q in [0,1] of n values sorted ascending, by linear interpolation
 * between order statistics (Hyndman & Fan type 7, R's default):
 * h = (n-1) q, x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 * NAN for n == 0, NULL or q outside [0,1]. */
double dl_quantile_sorted(const double *sorted, size_t n, double q);

/* Sort a copy of x into scratch (n doubles) and return its quantile q. */
double dl_quantile(const double *x, size_t n, double q, double *scratch);

/* Sort doubles ascending in place (NaN must not be present). */
void dl_sort_doubles(double *x, size_t n);

/* Quantile p in (0,1) of the standard normal (Acklam's rational
 * approximation refined by one Halley step; |error| < 1e-12).  NAN outside
 * (0,1). */
double dl_normal_quantile(double p);

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

#endif
