/*
 * estimate.h - Polo's online performance model (doc/design.md §3): mean task
 * length, remaining time of running tasks, the slots a phase needs to meet its
 * goal (Eq. 1 and Eq. 2), the overflow onto regular nodes (Eq. 3) and the
 * predicted finish time.
 */
#ifndef DL_ESTIMATE_H
#define DL_ESTIMATE_H

#include <stdbool.h>

#include "common/model/model.h"

/* Where a phase's task length estimate comes from. */
enum dl_mu_source {
	DL_MU_NONE = 0, /* nothing known */
	DL_MU_JOB,      /* the phase's own completed tasks */
	DL_MU_PRIOR,    /* history (the estimator) */
	DL_MU_RATIO,    /* reduce: map mu times the reduce/map cost ratio */
};

struct dl_mu {
	double mean;
	double sd; /* spread of one task length; 0 if unknown or none */
	enum dl_mu_source source;
	const char *label; /* "job", "history:name", "ratio", "none" */
	/* no spread, known: every task takes `mean` (two completions or
	 * more, all alike, or history whose p90 is its mean), so a task
	 * short of it has exactly mean - elapsed left */
	bool exact;
};

struct dl_prediction;

/* Give a phase the estimator's answer as its prior (mean and p90, the
 * source's name): what the sched plugin and the simulator both do with a
 * prediction.  The default level is not used (a cluster-wide figure says
 * nothing about this job that the policy's own fallback does not), nor
 * an answer with a bad mean or p90, nor one for a phase already done.
 * Returns whether the prior was set. */
bool dl_phase_use_prediction(struct dl_phase *ph,
			     const struct dl_prediction *p);

/* Mean length of completed tasks on the given pool, or on all pools when
 * pool < 0.  0 when there are none. */
double dl_mu_pool(const struct dl_phase *ph, int pool);
/* Sample standard deviation of completed task lengths (all pools). */
double dl_sd(const struct dl_phase *ph);

/* The task length used for a phase: own completions, then the prior. */
struct dl_mu dl_phase_mu(const struct dl_phase *ph);

/* delta_i = mu - beta_i, at least floor_frac * mu (> 0): the paper leaves
 * beta > mu open, and a task near its mean may run past it too (the need
 * of Eq. 1 keeps that margin; measured, the need without it cost misses). */
double dl_delta(double mu, double start, double now, double floor_frac);

/* Remaining work of a phase in task-seconds:
 * sum over R of delta_i / mu_pool... + |U| * mu.  Running tasks on the pool
 * given (or all when pool < 0) only. */
double dl_phase_work(const struct dl_phase *ph, double mu, double now,
		     double floor_frac, int pool);

/* Remaining time of a task that has run `elapsed` seconds, at level u in
 * (0,1) of its length's distribution given that it has not ended yet: a
 * log-normal with the estimate's mean and sd, conditioned on exceeding
 * `elapsed`.  Spreading u over a phase's running tasks gives their ends
 * the spread real tasks have, where mean - elapsed would end every task
 * started together at the same instant.  Without a spread (sd <= 0) it is
 * dl_delta's mean - elapsed.  Never below floor_frac * mean (for an exact
 * length short of its mean, dl_remaining_init lifts that). */
double dl_remaining_at(double mean, double sd, double elapsed, double u,
		       double floor_frac);

/* The same for many tasks of one phase: the distribution prepared once
 * (dl_remaining_init), then each task's remaining time at n levels
 * (dl_remaining_levels, out[i] at u[i]), with the results of
 * dl_remaining_at to the last bit at a fraction of its cost. */
struct dl_remaining {
	double mean;    /* 0: no estimate (every remaining time 0) */
	double floor_s; /* floor_frac * mean */
	double m, s;    /* the log-normal's parameters; s = 0: no spread */
	bool exact;     /* dl_mu's exact: the floor only past the mean */
};
void dl_remaining_init(struct dl_remaining *r, double mean, double sd,
		       bool exact, double floor_frac);
void dl_remaining_levels(const struct dl_remaining *r, double elapsed,
			 const double *u, uint32_t n, double *out);

/* Eq. 1: s_req = (sum_{i in R} delta_i + |U| mu) / (goal - now) - |R|.
 * Returns +INFINITY when goal <= now and work remains, and -|R| when no
 * work remains.  mu <= 0 yields NAN (no estimate). */
double dl_sreq(const struct dl_phase *ph, double mu, double goal, double now,
	       double floor_frac);

/* Concurrency that finishes the remaining work by the goal: s_req + |R|. */
double dl_need(const struct dl_phase *ph, double mu, double goal, double now,
	       double floor_frac);

/* Eq. 2: s_req on the accelerated pool: only accelerated running tasks,
 * their mean and pending tasks (all of which could go there). */
double dl_sreq_acc(const struct dl_phase *ph, double mu_acc, double goal,
		   double now, double floor_frac);

/* Eq. 3: regular slots that compensate an accelerated-pool shortfall,
 * (mu_reg / mu_acc) * (s_req_acc - acc_slots); 0 when there is none. */
double dl_sreq_extra(double mu_reg, double mu_acc, double sreq_acc,
		     double acc_slots);

/* Predicted time the phase's remaining tasks finish with `slots` running
 * concurrently: no earlier than the longest remaining running task, and the
 * pending tasks packed in waves of `slots` behind the running ones.  Returns
 * now when nothing remains and +INFINITY when slots == 0 and tasks wait. */
double dl_phase_finish(const struct dl_phase *ph, double mu, double now,
		       double slots, double floor_frac);

/* The need in whole tasks: the smallest concurrency (running tasks
 * included) whose dl_phase_finish meets the goal, never below `fluid` (the
 * divisible-work need of Eq. 1, dl_need); every remaining task when even
 * that misses.  Returns fluid unchanged when there is nothing to refine
 * (no estimate, goal passed, nothing pending). */
double dl_wave_need(const struct dl_phase *ph, double mu, double goal,
		    double now, double floor_frac, double fluid);

/* Spread of that prediction: sd * sqrt(tasks per slot). */
double dl_phase_finish_err(const struct dl_phase *ph, double sd, double slots);

/* The q-quantile of a predicted finish with spread err (one standard
 * deviation, dl_phase_finish_err), the finish taken as normal:
 * finish + z_q * err (p90: + 1.28 err).  err NaN, infinite or <= 0
 * counts as no spread (the finish itself); NaN when finish is not a
 * positive time or q is outside (0, 1). */
double dl_finish_quantile(double finish, double err, double q);

#endif
