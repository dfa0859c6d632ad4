/*
 * score.h - the score of one simulated future under one policy, after
 * POSUM's P' = alpha V_D + beta S_B (doc/portfolio.md), in points where
 * lower is better:
 *
 *   score = MissedWeight   x missed deadlines (% of the jobs with one)
 *         + LatenessWeight x mean tardiness of the jobs with a deadline
 *                            (minutes; on-time jobs count 0)
 *         + SlowdownWeight x (mean bounded slowdown of the jobs without a
 *                             deadline - 1)
 *
 * A part without jobs counts 0.  Missed deadlines come first (they are
 * what the policies are judged on); tardiness separates policies that miss
 * as many; slowdown keeps jobs without deadlines from starving.
 */
#ifndef DL_PORTFOLIO_SCORE_H
#define DL_PORTFOLIO_SCORE_H

#include <stdbool.h>
#include <stdint.h>

/* Jobs shorter than this alone count as this long in the bounded
 * slowdown, so a job of a few seconds that waits a little does not weigh
 * like a long one that waits for hours (POSUM's MinE). */
#define DL_BSLD_MIN_S 10.0

/* max(1, (finish - arrival) / max(isolated, DL_BSLD_MIN_S)): the bounded
 * slowdown of a job that arrived at `arrival`, finished at `finish` and
 * takes `isolated` seconds alone on the empty cluster. */
double dl_bounded_slowdown(double arrival, double finish, double isolated);

struct dl_pf_weights {
	double missed;   /* per percentage point of deadlines missed */
	double lateness; /* per minute of mean tardiness */
	double slowdown; /* per unit of mean bounded slowdown above 1 */
};

/* What a run's jobs add up to; zero-initialise, then add every job. */
struct dl_pf_tally {
	uint32_t deadline_jobs, missed;
	double tardiness_s; /* sum over the jobs with a deadline */
	uint32_t other_jobs;
	double bsld_sum;
};

/* Add a job.  deadline 0 = none.  finish +inf (unfinished at the run's
 * end) is taken as `end`: a lower bound on its lateness and slowdown.
 * met: the job finished all its tasks by its deadline (the simulator's
 * rule, sim_job_met); ignored for jobs without a deadline. */
void dl_pf_tally_add(struct dl_pf_tally *t, double arrival, double deadline,
		     bool met, double finish, double isolated, double end);

/* Pool b's jobs into a: the tally of both runs' jobs together (a score
 * over the union, each job counting once, not a mean of two rates). */
void dl_pf_tally_merge(struct dl_pf_tally *a, const struct dl_pf_tally *b);

/* The parts of a score and their weighted sum. */
struct dl_pf_score {
	double missed_pct;
	double tardiness_min;
	double bsld; /* mean; 1 without jobs */
	double total;
};

/* The score of a tally under the weights (NaN weights count 0). */
void dl_pf_score_of(const struct dl_pf_tally *t, const struct dl_pf_weights *w,
		    struct dl_pf_score *out);

#endif
