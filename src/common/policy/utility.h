/*
 * utility.h - job utility of the ras (Eq. 5-7) and reverse (Eq. 13-15)
 * policies, with every degenerate case defined so the value is finite and
 * monotone non-decreasing in the allocation (doc/ras-reverse.md).
 *
 * All counts are concurrencies: s_alloc = map tasks placed (running ones
 * included), s_pend = map tasks still to run (running + not started),
 * s_req = concurrency that meets the goal, s_fit = reverse fitting's
 * minimum concurrency now.  s_req/s_fit: NaN = unknown (treated as 1: the
 * job needs a first sample), +inf = goal passed (treated as s_pend).
 */
#ifndef DL_UTILITY_H
#define DL_UTILITY_H

/* Value of an unserved demand: u^M at s_alloc = 0 below the need, and u^R
 * at r_alloc = 0.  The papers' log gives -inf there. */
#define DL_UTILITY_FLOOR (-2.0)

/* Relative tolerance under which s_fit and s_req count as equal. */
#define DL_UTILITY_EQ_TOL 1e-9

/* The map part, Eq. 6 (ras).  Range [DL_UTILITY_FLOOR, 1]; NaN for an
 * invalid s_alloc or s_pend (NaN, negative, infinite). */
double dl_utility_map(double s_alloc, double s_req, double s_pend);

/* The reduce part, Eq. 7.  Range [DL_UTILITY_FLOOR, 0]; 0 when no reducer
 * is pending.  NaN for invalid input. */
double dl_utility_reduce(double r_alloc, double r_pend);

/* The map part of the reverse policy, Eq. 14.  Equals dl_utility_map with
 * s_req := s_fit when s_req <= s_fit.  Range [DL_UTILITY_FLOOR, 1]. */
double dl_utility_map_reverse(double s_alloc, double s_fit, double s_req,
			      double s_pend);

/* The need as the utility uses it: NaN -> min(1, s_pend), +inf -> s_pend,
 * clamped to [0, s_pend]. */
double dl_utility_clamp_need(double need, double s_pend);

#endif
