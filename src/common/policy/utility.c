/*
 * utility.c - the utility functions of ras and reverse (see utility.h and
 * doc/ras-reverse.md for the degenerate cases).
 */
#include "common/policy/utility.h"

#include <math.h>

static int bad_count(double x)
{
	return !isfinite(x) || x < 0;
}

double dl_utility_clamp_need(double need, double s_pend)
{
	if (isnan(need))
		return fmin(1.0, s_pend);
	if (need > s_pend)
		return s_pend; /* includes +inf: a late job needs everything */
	if (need < 0)
		return 0;
	return need;
}

/* Below the need r (> s_alloc >= 0): the papers' log(s_alloc)/log(r) - 1
 * where it is defined (s_alloc >= 1, so r > 1), else linear from the floor
 * at 0 up to the value at 1 (-1) or up to 0 at r when r <= 1. */
static double below_need(double s_alloc, double r)
{
	if (s_alloc >= 1)
		return log(s_alloc) / log(r) - 1;
	if (r > 1)
		return DL_UTILITY_FLOOR + s_alloc * (-1 - DL_UTILITY_FLOOR);
	return DL_UTILITY_FLOOR + (s_alloc / r) * (0 - DL_UTILITY_FLOOR);
}

double dl_utility_map(double s_alloc, double s_req, double s_pend)
{
	double r;

	if (bad_count(s_alloc) || bad_count(s_pend))
		return NAN;
	if (s_alloc >= s_pend)
		return 1; /* every remaining task has a slot: the cap */
	r = dl_utility_clamp_need(s_req, s_pend);
	if (s_alloc >= r) /* s_pend > s_alloc >= r: no zero divisor */
		return (s_alloc - r) / (s_pend - r);
	return below_need(s_alloc, r);
}

double dl_utility_reduce(double r_alloc, double r_pend)
{
	if (bad_count(r_alloc) || bad_count(r_pend))
		return NAN;
	if (r_alloc >= r_pend)
		return 0;
	if (r_alloc < 1)
		return DL_UTILITY_FLOOR + r_alloc * (-1 - DL_UTILITY_FLOOR);
	/* r_pend > r_alloc >= 1, so log(r_pend) > 0 */
	return log(r_alloc) / log(r_pend) - 1;
}

double dl_utility_map_reverse(double s_alloc, double s_fit, double s_req,
			      double s_pend)
{
	double f, q;

	if (bad_count(s_alloc) || bad_count(s_pend))
		return NAN;
	if (s_alloc >= s_pend)
		return 1;
	f = dl_utility_clamp_need(s_fit, s_pend);
	q = dl_utility_clamp_need(s_req, s_pend);
	if (s_alloc < f)
		return below_need(s_alloc, f);
	if (q - f <= DL_UTILITY_EQ_TOL * fmax(1.0, q))
		return (s_alloc - f) / (s_pend - f); /* s_req <= s_fit */
	if (s_alloc < q)
		return (s_alloc - f) / (2 * (q - f));
	return 0.5 + (s_alloc - q) / (2 * (s_pend - q));
}
