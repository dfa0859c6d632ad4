/*
 * core_policy.c - the core's planning policies as engine policies.
 */
#include "common/simulate/core_policy.h"

#include <stddef.h>

#include "common/policy/policy.h"

struct dl_plan *sim_core_plan(void *state, const struct sim_policy *self,
			      struct sim_engine *eng,
			      const struct dl_policy_input *in, char *err,
			      size_t errlen)
{
	struct dl_config cfg = *in->cfg;
	struct dl_policy_input copy = *in;

	(void) state;
	(void) eng;
	/* only the policy differs from the run's configuration; the
	 * strings stay owned by the engine's copy */
	cfg.policy = (enum dl_policy) self->arg;
	copy.cfg = &cfg;
	return dl_policy_plan(&copy, err, errlen);
}

/* read-only: the engine keeps per-run state in its own records */
static const struct sim_policy core_policies[] = {
	{.name = "triage",
	 .summary = "EDF with Moore-Hodgson triage of hopeless jobs, the "
		    "default (core)",
	 .forecast = true,
	 .plan = sim_core_plan,
	 .arg = DL_POLICY_TRIAGE},
	{.name = "edf",
	 .summary = "earliest deadline first, as wide as possible (core)",
	 .forecast = true,
	 .plan = sim_core_plan,
	 .arg = DL_POLICY_EDF},
	{.name = "adaptive",
	 .summary = "Polo's Adaptive Scheduler (core)",
	 .plan = sim_core_plan,
	 .arg = DL_POLICY_ADAPTIVE},
	{.name = "ras",
	 .summary = "Resource-aware Adaptive Scheduler (core)",
	 .plan = sim_core_plan,
	 .arg = DL_POLICY_RAS},
	{.name = "reverse",
	 .summary = "Reverse-Adaptive Scheduler for shared clusters (core)",
	 .forecast = true,
	 .plan = sim_core_plan,
	 .arg = DL_POLICY_REVERSE},
};

size_t sim_core_policy_count(void)
{
	return sizeof(core_policies) / sizeof(core_policies[0]);
}

const struct sim_policy *sim_core_policy_at(size_t i)
{
	return i < sim_core_policy_count() ? &core_policies[i] : NULL;
}

const struct sim_policy *sim_core_policy(enum dl_policy p)
{
	for (size_t i = 0; i < sizeof(core_policies) / sizeof(core_policies[0]);
	     i++)
		if (core_policies[i].arg == (int) p)
			return &core_policies[i];
	return NULL;
}
