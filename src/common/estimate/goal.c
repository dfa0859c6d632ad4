/*
 * goal.c - phase goals: map/reduce split and the hard-deadline start window.
 */
#include "common/estimate/goal.h"

#include <errno.h>
#include <math.h>
#include <string.h>

double dl_hard_goal(const struct dl_phase *ph, double mu, double goal)
{
	double g;

	if (!ph || !(ph->hard_deadline > 0))
		return goal;
	g = ph->hard_deadline;
	/* Slurm rounds the time limit up to at least one minute when it
	 * checks `now + limit > deadline` (doc/slurm-facts.md §6). */
	if (ph->time_limit > 0) {
		double tl = ph->time_limit < 60 ? 60 : ph->time_limit;

		if (mu > 0 && tl > mu)
			g -= tl - mu;
		else if (!(mu > 0))
			g -= tl;
	}
	return goal > 0 && goal < g ? goal : g;
}

struct dl_mu dl_reduce_mu(const struct dl_job *job, double cfg_ratio)
{
	struct dl_mu mu = {0, 0, DL_MU_NONE, "none", false}, map;
	double ratio;

	if (!job)
		return mu;
	mu = dl_phase_mu(&job->phase[DL_REDUCE]);
	if (mu.source != DL_MU_NONE)
		return mu;
	map = dl_phase_mu(&job->phase[DL_MAP]);
	if (map.source == DL_MU_NONE)
		return mu;
	ratio = job->reduce_cost > 0 ? job->reduce_cost
				     : (cfg_ratio > 0 ? cfg_ratio : 1);
	mu.mean = map.mean * ratio;
	mu.sd = map.sd * ratio;
	mu.source = DL_MU_RATIO;
	mu.label = "ratio";
	return mu;
}

double dl_reduce_time(const struct dl_job *job, const struct dl_mu *mu_r,
		      double reduce_slots)
{
	const struct dl_phase *ph;
	uint64_t left;
	double slots;

	if (!job || !mu_r || !(mu_r->mean > 0))
		return 0;
	ph = &job->phase[DL_REDUCE];
	left = (uint64_t) ph->tasks - ph->completed - ph->failed;
	if (!ph->tasks || (uint64_t) ph->completed + ph->failed >= ph->tasks)
		return 0;
	slots = reduce_slots < (double) left ? floor(reduce_slots)
					     : (double) left;
	if (slots < 1)
		slots = 1;
	return ceil((double) left / slots) * mu_r->mean;
}

int dl_phase_goal(const struct dl_job *job, double now, double reduce_slots,
		  double cfg_ratio, struct dl_goal *g)
{
	double reduce_goal;

	if (!job || !g || !isfinite(now))
		return EINVAL;
	memset(g, 0, sizeof(*g));
	g->phase_kind = dl_job_active_phase(job);
	g->job = dl_job_deadline(job);
	g->mu_reduce = dl_reduce_mu(job, cfg_ratio);
	if (g->phase_kind < 0)
		return 0;
	g->mu = g->phase_kind == DL_REDUCE ? g->mu_reduce
					   : dl_phase_mu(&job->phase[DL_MAP]);
	if (!(g->job > 0))
		return 0;

	/* The reduce phase's own goal, with its hard start window. */
	reduce_goal = job->phase[DL_REDUCE].tasks
			      ? dl_hard_goal(&job->phase[DL_REDUCE],
					     g->mu_reduce.mean, g->job)
			      : g->job;
	if (g->phase_kind == DL_REDUCE) {
		g->phase = reduce_goal;
		return 0;
	}
	g->reduce_time = dl_reduce_time(job, &g->mu_reduce, reduce_slots);
	g->phase = dl_hard_goal(&job->phase[DL_MAP], g->mu.mean,
				reduce_goal - g->reduce_time);
	return 0;
}
