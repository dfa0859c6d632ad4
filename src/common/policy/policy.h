/*
 * policy.h - one entry point for every policy: a snapshot of the cluster
 * and its deadline jobs in, a plan out.  The sched plugin and the simulator
 * both call dl_policy_plan(), so a policy measured in the simulator is the
 * policy that runs in slurmctld.
 */
#ifndef DL_POLICY_H
#define DL_POLICY_H

#include <stddef.h>

#include "common/policy/input.h"

/* Compute a plan with the policy cfg->policy.  Returns NULL with a message
 * in err on bad input (NULL cluster or config, invalid job, ...) or when out
 * of memory; never aborts. */
struct dl_plan *dl_policy_plan(const struct dl_policy_input *in, char *err,
			       size_t errlen);

/* Checks of a configuration that need more than its option table (the
 * NodeIO host lists): 0 or EINVAL with a message.  Callers refuse such a
 * configuration when they read it, so that a bad value never reaches a
 * plan cycle (where it would fail every cycle). */
int dl_policy_check_config(const struct dl_config *cfg, char *err,
			   size_t errlen);

#endif
