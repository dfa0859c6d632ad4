/*
 * policy/input.h - the input every policy plans from, its shared checks and
 * the per-job preparation every policy starts with.  The policies include
 * this header; policy.h (the dispatcher) includes the policies.
 */
#ifndef DL_POLICY_INPUT_H
#define DL_POLICY_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config/config.h"
#include "common/model/model.h"
#include "common/plan/plan.h"

struct dl_forecast; /* external load f(t), reverse policy */
struct dl_rt_state; /* admitted set, realtime policy */

struct dl_policy_input {
	const struct dl_cluster *cluster;
	struct dl_job *const *jobs;
	uint32_t njobs;
	const struct dl_config *cfg;
	double now;
	const struct dl_forecast *forecast; /* may be NULL */
	struct dl_rt_state *rt;             /* may be NULL */
	/* the previous cycle's plan (may be NULL): what a policy remembers
	 * from one cycle to the next (triage's hysteresis) */
	const struct dl_plan *prev;
	/* how much later than now + PlanInterval the caller's next cycle
	 * may see the cluster: 0 where cycles run on time with an exact
	 * clock (the simulator); slurmctld's clock has whole seconds and
	 * its cycles poll and wait for locks (sched/deadline) */
	double cycle_slack;
};

/* Shared checks of a policy input: 0 or EINVAL with a message. */
int dl_policy_check_input(const struct dl_policy_input *in, char *err,
			  size_t errlen);

struct dl_capacity;
struct dl_goal;
/* The start every policy's per-job preparation shares: the entry's
 * identity and counts, the phase goal (reduce slots from the job's
 * partition in cap, written to *reduce_slots when not NULL), the task
 * length in use, the running tasks predicted to end before the next cycle
 * sees them, NAN for the numbers the policy fills.  Returns false when
 * every task has finished (the entry then says so). */
bool dl_policy_prepare_job(struct dl_plan_job *o, struct dl_job *job,
			   const struct dl_capacity *cap,
			   const struct dl_policy_input *in,
			   struct dl_goal *goal, double *reduce_slots);

#endif
