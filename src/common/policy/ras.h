/*
 * policy/ras.h - the Resource-aware Adaptive Scheduler (doc/design.md §4): per
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

#include "common/policy/placement.h"
#include "common/policy/input.h"

struct dl_plan *dl_ras_plan(const struct dl_policy_input *in, char *err,
			    size_t errlen);
/* The reverse-adaptive policy: the same cycle with the capacity left by
 * the external load and Eq. 14's utility (s_fit from reverse.h). */
struct dl_plan *dl_reverse_plan(const struct dl_policy_input *in, char *err,
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

/* Use a learned per-task profile (the estimator's, for the map and the
 * reduce phase; NULL = none) where the user gave no --task-profile hint for
 * that phase: a hint always wins.  A NaN quantity is one the history has
 * no number for and counts as not given (0); a profile with an infinite or
 * negative quantity, or with none above 0, is ignored.
 * Returns how many phases took the learned profile. */
int dl_profile_use_learned(struct dl_job *job, const struct dl_demand *map,
			   const struct dl_demand *reduce);

#endif
