/*
 * policy/share.h - MaxDeadlineShare: a tight deadline is a claim on the
 * cluster, and one account may claim at most that share of a partition
 * through deadlines.  Per account and partition, jobs in submission order
 * claim what their policy says they want now; a job whose claim would take
 * its account over the share is not managed: the plan marks it capped and
 * the plugin leaves Slurm's own settings, so an impossible deadline cannot
 * starve other users.
 */
#ifndef DL_POLICY_SHARE_H
#define DL_POLICY_SHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/config/config.h"
#include "common/plan/plan.h"
#include "common/policy/capacity.h"

struct dl_share_claim {
	const struct dl_job *job;
	struct dl_plan_job *out;
	double want;     /* slots of the job's task size it claims */
	double cpu, mem; /* one task */
	bool managed;    /* in: claims; out: false when capped */
};

/* Apply the cap to the claims, given in submission order; a capped
 * claim's out gets the verdict capped, class unmanaged and an explanation.
 * No-op when MaxDeadlineShare is 1.  0 or ENOMEM. */
int dl_share_cap(struct dl_share_claim *claims, uint32_t n,
		 const struct dl_capacity *cap, const struct dl_config *cfg);

#endif
