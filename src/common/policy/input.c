/*
 * policy/input.c - what every policy does first: check the input and start
 * each job's plan entry the same way.
 */
#include "common/policy/input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "common/estimate/goal.h"
#include "common/policy/capacity.h"

int dl_policy_check_input(const struct dl_policy_input *in, char *err,
			  size_t errlen)
{
	if (!in || !in->cluster || !in->cfg) {
		snprintf(err, err ? errlen : 0,
			 "policy input needs a cluster and a configuration");
		return EINVAL;
	}
	if (!isfinite(in->now) || in->now < 0) {
		snprintf(err, err ? errlen : 0, "invalid current time");
		return EINVAL;
	}
	if (in->njobs && !in->jobs) {
		snprintf(err, err ? errlen : 0, "%u jobs but no job array",
			 in->njobs);
		return EINVAL;
	}
	if (in->cluster->nnodes && !in->cluster->nodes) {
		snprintf(err, err ? errlen : 0, "cluster without node table");
		return EINVAL;
	}
	for (uint32_t i = 0; i < in->njobs; i++) {
		if (!in->jobs[i]) {
			snprintf(err, err ? errlen : 0, "job %u is NULL", i);
			return EINVAL;
		}
		if (dl_job_validate(in->jobs[i], in->cluster, err, errlen))
			return EINVAL;
	}
	return 0;
}

bool dl_policy_prepare_job(struct dl_plan_job *o, struct dl_job *job,
			   const struct dl_capacity *cap,
			   const struct dl_policy_input *in,
			   struct dl_goal *goal, double *reduce_slots)
{
	const struct dl_config *cfg = in->cfg;
	double now = in->now;
	const struct dl_phase *r = &job->phase[DL_REDUCE];
	double slots =
		r->tasks ? dl_capacity_slots(cap, job->partition, -1,
					     r->cpus_per_task,
					     (double) r->mem_per_task, true)
			 : 0;

	if (reduce_slots)
		*reduce_slots = slots;
	dl_plan_job_describe(o, job);
	dl_phase_goal(job, now, slots, cfg->reduce_cost, goal);
	o->phase = goal->phase_kind;
	o->deadline = goal->job;
	o->goal = goal->phase;
	o->mu = goal->mu.mean;
	o->mu_sd = goal->mu.sd;
	dl_plan_copy_str(o->mu_source, sizeof(o->mu_source), goal->mu.label);
	o->predicted_finish = NAN;
	o->need = NAN;
	o->sreq = NAN;
	if (goal->phase_kind >= 0) {
		/* the CPUs these free go to whoever ranks first when they
		 * end, before the next cycle can re-rank (plan/decide.c):
		 * counted up to when that cycle sees the cluster, late as
		 * it may be */
		double slack = isfinite(in->cycle_slack) && in->cycle_slack > 0
				       ? in->cycle_slack
				       : 0;

		o->ending_soon =
			dl_phase_ending_by(&job->phase[goal->phase_kind], o->mu,
					   now + cfg->plan_interval + slack);
		return true;
	}
	o->verdict = DL_VERDICT_DONE;
	o->cls = DL_CLASS_UNMANAGED;
	snprintf(o->explain, sizeof(o->explain), "all tasks finished");
	return false;
}
