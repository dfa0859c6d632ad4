/*
 * policy_ras.h - the Resource-aware Adaptive Scheduler (DESIGN §4.2): per
 * job multi-resource profiles, the utility of Eq. 5-7 and the placement of
 * Algorithm 1 (placement.h).  The reverse policy runs the same cycle with
 * its own capacity (external load taken off) and utility (Eq. 14).
 *
 * Translation to Slurm (doc/ras-reverse.md): node capacity is CPUs and
 * memory from Slurm minus what jobs the plan does not manage hold, and I/O
 * from NodeIO=/DefaultIO= (0 = not constrained).  One task's demand is the
 * profile (the --task-profile hint, else the estimator's learned profile)
 * but never less CPU or memory than its Slurm request, since cons_tres
 * reserves that much anyway.  The plan holds P[j][n] (plan->place), the
 * nodes' capacities (plan->nodes) and each job's task demand, which
 * select/deadline enforces.
 */
#ifndef DL_POLICY_RAS_H
#define DL_POLICY_RAS_H

#include "common/placement.h"
#include "common/policy.h"

struct dl_plan *dl_ras_plan(const struct dl_policy_input *in, char *err,
			    size_t errlen);

/* The plan cycle shared by ras (DL_UTIL_RAS) and reverse
 * (DL_UTIL_REVERSE). */
struct dl_plan *dl_placement_policy_plan(const struct dl_policy_input *in,
					 enum dl_util_kind kind, char *err,
					 size_t errlen);

/* One task's demand: the profile, raised to the Slurm request for CPU and
 * memory. */
struct dl_demand dl_effective_demand(const struct dl_demand *profile,
				     double req_cpu, double req_mem);

#endif
