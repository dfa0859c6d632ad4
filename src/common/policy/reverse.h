/*
 * policy/reverse.h - the Reverse-Adaptive Scheduler (doc/design.md §5):
 * capacity left to deadline work varies with the external load f(t); s_fit by
 * reverse fitting (Algorithm 2); s_req from average availability; the utility
 * of Eq. 14; placement as ras.
 *
 * The exact definitions (doc/ras-reverse.md, "Reverse fitting"):
 *
 *  A_r(t)    capacity of resource r available to deadline work at t: on
 *            a forecast class's nodes capacity x (1 - f_c,r(t)) (f is all
 *            the load outside the plan there); elsewhere capacity minus
 *            what jobs the plan does not manage hold now.
 *  E_r(a,b)  integral of A_r over [a, b].
 *  frames    the distinct deadlines d_1 < ... < d_K after now cut
 *            [now, d_K] into frames F_k = [d_(k-1), d_k], d_0 = now.
 *  r*_j      job j's dominant resource: largest demand / total capacity.
 *  desire    the work job j would do in F_k if it ran in proportion to
 *            its dominant resource's availability over [now, D_j]:
 *            W_j x E_r*(F_k) / E_r*(now, D_j)  (tasks; W_j = remaining
 *            work in tasks).
 *  fit(j,k)  min(want, min over r with demand > 0 and bounded capacity of
 *            C_k,r / (demand_r x mu_j)) where C_k,r is what is left of
 *            E_r(F_k) after the jobs fitted before j in that frame; the
 *            fitted work is then taken off C_k,r.
 *  walk      frames from the last to the first; in each, jobs with later
 *            deadlines first (they have nowhere later to go), each wanting
 *            its desire plus what did not fit in the frame after; what
 *            still does not fit is carried into the previous frame.
 *  s_fit     (work of j fitted in F_1 + what fits nowhere) spread over F_1
 *            in proportion to availability, at now:
 *            that x mu_j x A_r*(now) / E_r*(F_1)  (concurrency).
 *  s_req     W_j x mu_j / (D_j - now): the concurrency if capacity stayed
 *            at its average until the deadline (the average does not
 *            change the need, only whether it can be met).
 * With a flat f(t) and no frame over capacity, s_fit = s_req, and Eq. 14
 * reduces to Eq. 6: the plan is the ras plan.
 */
#ifndef DL_POLICY_REVERSE_H
#define DL_POLICY_REVERSE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/forecast.h"

/* Available capacity to deadline work per resource over time. */
struct dl_avail {
	struct dl_series a[DL_RESOURCES];
	bool unbounded[DL_RESOURCES]; /* some node does not limit r */
	double total[DL_RESOURCES];   /* sum of node capacities (bounded r) */
};

/* Per node: capacity (INFINITY = unbounded), use by unmanaged jobs, and
 * forecast class (-1 = none). */
struct dl_avail_node {
	double cap[DL_RESOURCES];
	double other[DL_RESOURCES];
	int cls;
	bool usable;
};

/* Build A_r(t) on the forecast's grid (a constant when f is NULL). */
int dl_avail_build(struct dl_avail *av, const struct dl_avail_node *nodes,
		   uint32_t nnodes, const struct dl_forecast *f);
void dl_avail_free(struct dl_avail *av);

struct dl_fit_job {
	double deadline;             /* the active phase's goal */
	double work;                 /* tasks left (fractional: running) */
	double mu;                   /* task length (s), > 0 */
	double demand[DL_RESOURCES]; /* one task */
	/* results */
	double s_fit, s_req; /* concurrency now */
	double first;        /* tasks fitted in F_1 */
	double overflow;     /* tasks that fit in no frame */
};

/* One fit() call of the walk, for tests and debug logs. */
struct dl_fit_step {
	uint32_t frame; /* 1 = the first frame after now */
	uint32_t job;
	double a, b; /* the frame */
	double want, got;
};

/* Reverse fitting over the jobs.  A job whose deadline is not after now,
 * or with no work, gets s_fit = s_req = +inf (late) or 0 (nothing left).
 * trace (may be NULL) receives up to trace_cap steps.  Returns 0, EINVAL
 * or ENOMEM. */
int dl_reverse_fit(struct dl_fit_job *jobs, uint32_t n,
		   const struct dl_avail *av, double now,
		   struct dl_fit_step *trace, uint32_t trace_cap,
		   uint32_t *ntrace);

#endif
