/*
 * goal.h - from a job's deadline to the goal of its active phase
 * (doc/design.md §2): the map/reduce split of the deadline and Slurm's hard
 * deadline semantics.
 */
#ifndef DL_GOAL_H
#define DL_GOAL_H

#include "common/estimate/estimate.h"
#include "common/model/model.h"

struct dl_goal {
	double job;         /* the job's completion goal (0 = none) */
	double phase;       /* the active phase's goal */
	double reduce_time; /* T_red reserved for the reduce phase */
	struct dl_mu mu;    /* task length used for the active phase */
	struct dl_mu mu_reduce;
	int phase_kind; /* DL_MAP, DL_REDUCE, or -1 when nothing is left */
};

/* Latest time a phase's last task may end and still have started before
 * Slurm cancels the rest: a --deadline array's tasks can only start until
 * deadline - time limit, so with tasks of length mu the phase must be done
 * by deadline - max(0, time_limit - mu).  `goal` is returned unchanged when
 * the phase has no hard deadline. */
double dl_hard_goal(const struct dl_phase *ph, double mu, double goal);

/* Task length of the reduce phase: its own completions, then history, then
 * mu_map times the cost ratio (the job's hint, else cfg_ratio). */
struct dl_mu dl_reduce_mu(const struct dl_job *job, double cfg_ratio);

/* T_red = ceil(R_left / slots_r) * mu_r for the reduce tasks not yet done,
 * slots_r = min(R_left, reduce_slots); 0 when no reduce phase remains. */
double dl_reduce_time(const struct dl_job *job, const struct dl_mu *mu_r,
		      double reduce_slots);

/* The goal of the job's active phase at `now`.  reduce_slots is the number
 * of reduce tasks that could run at once (the partition's capacity in the
 * reduce tasks' size).  Returns 0 and fills g. */
int dl_phase_goal(const struct dl_job *job, double now, double reduce_slots,
		  double cfg_ratio, struct dl_goal *g);

#endif
