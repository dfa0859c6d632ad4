/*
 * policy.h - deadline-sim's registry of policies: the core's policies, the
 * comparison baselines and the admission-based policies, each an entry of
 * the engine's policy interface (common/simulate/policy.h).
 */
#ifndef SIM_POLICY_H
#define SIM_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "common/simulate/policy.h"

/* The registry, in a fixed order. */
size_t sim_policy_count(void);
const struct sim_policy *sim_policy_at(size_t i);
/* NULL when unknown (case-insensitive). */
const struct sim_policy *sim_policy_find(const char *name);
/* Whether the core provides the policy in this build (a policy of the
 * core that is not implemented yet answers "not available"); why says
 * what is missing. */
bool sim_policy_available(const struct sim_policy *p, char *why, size_t whylen);

#endif
