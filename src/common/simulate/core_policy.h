/*
 * core_policy.h - the core's planning policies (Policy= of deadline.conf
 * other than realtime) as entries of the engine's policy interface: each
 * plans through dl_policy_plan(), the entry point the sched plugin calls.
 * deadline-sim's registry and the portfolio use the same entries.
 */
#ifndef DL_SIMULATE_CORE_POLICY_H
#define DL_SIMULATE_CORE_POLICY_H

#include <stddef.h>

#include "common/config/config.h"
#include "common/simulate/policy.h"

/* The plan() of a core policy: dl_policy_plan() with self->arg as the
 * policy and the rest of the run's configuration. */
struct dl_plan *sim_core_plan(void *state, const struct sim_policy *self,
			      struct sim_engine *eng,
			      const struct dl_policy_input *in, char *err,
			      size_t errlen);

/* The entries in a fixed order (triage first): deadline-sim lists them
 * before its own. */
size_t sim_core_policy_count(void);
const struct sim_policy *sim_core_policy_at(size_t i);

/* The entry of a planning policy (triage, edf, adaptive, ras, reverse);
 * NULL for realtime (admission-based) and out-of-range values. */
const struct sim_policy *sim_core_policy(enum dl_policy p);

#endif
