/*
 * realtime/plan_cycle.h - the realtime policy's plan cycle (doc/design.md §6):
 * the admitted set is synced with the live jobs (feedback, holds), jobs that
 * were not judged at submit are judged now, and the dispatcher's
 * reservation walk turns the queue into EDF ranks and array throttles.
 *
 * Per job in the plan:
 *   admitted       rank = queue position (EDF, started jobs never passed),
 *                  alloc = running + tasks the walk lets start now (the
 *                  ArrayTaskThrottle), urgent, verdict on_track,
 *                  predicted_finish = the worst-case finish from its
 *                  vectors.  Nothing running and nothing allowed to start
 *                  (Slurm's throttle cannot say "none"): hold with
 *                  Reason=WaitingForEarlierDeadlines until the walk lets it
 *                  start.
 *   infeasible     hold with Reason=DeadlineInfeasible and the cause in
 *                  explain (verdict held); never cancelled.
 *   not admitted   (not judged at submit, and no room now) hold with
 *                  Reason=DeadlineNotGuaranteed (verdict rejected).
 *   no deadline    unmanaged: Slurm's own priority and backfill.
 * in->rt is the admitted set (required); it is updated by the cycle.
 */
#ifndef DL_POLICY_REALTIME_H
#define DL_POLICY_REALTIME_H

#include "common/policy/input.h"

#define DL_RT_REASON_INFEASIBLE "DeadlineInfeasible"
#define DL_RT_REASON_REJECTED   "DeadlineNotGuaranteed"
/* admitted, but the reservation walk lets none of its tasks start now */
#define DL_RT_REASON_WAIT "WaitingForEarlierDeadlines"

struct dl_plan *dl_realtime_plan(const struct dl_policy_input *in, char *err,
				 size_t errlen);

#endif
