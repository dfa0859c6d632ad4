/*
 * policy/adaptive.h - Polo's Adaptive Scheduler (doc/design.md §3): three
 * priority classes, one slot at a time to the neediest job with re-ranking,
 * balancing of late jobs, work-conserving hand-out of leftover capacity, the
 * map/reduce goal split, hardware-affinity pools (Eq. 2-3) and the
 * MaxDeadlineShare fairness cap.
 */
#ifndef DL_POLICY_ADAPTIVE_H
#define DL_POLICY_ADAPTIVE_H

#include "common/policy/input.h"

struct dl_plan *dl_adaptive_plan(const struct dl_policy_input *in, char *err,
				 size_t errlen);

#endif
