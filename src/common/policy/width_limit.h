/*
 * policy/width_limit.h - the array's own limit on running tasks (the
 * user's --array=...%N or a later scontrol update ArrayTaskThrottle=N,
 * model.h max_running) as a hard limit on every plan.
 *
 * A Slurm user reads %N as "never more at once" (a licence count, a file
 * system that takes N readers), so no policy may hand such an array a
 * wider throttle.  Triage and EDF plan with the limit (their lookahead
 * runs the job at most that wide, so a job the limit makes late is judged
 * so); this pass holds every policy to it, the papers' ones included,
 * and says so in the entry's explanation.
 */
#ifndef DL_POLICY_WIDTH_LIMIT_H
#define DL_POLICY_WIDTH_LIMIT_H

#include "common/policy/input.h"

/* Every managed entry of plan (finalized, from in) whose active phase has
 * a max_running: its allocation at most that, and its explanation
 * prefixed with the limit when the limit is below its tasks left; a job
 * on track whose allocation fell below what its goal needs is at risk.
 * Returns how many entries changed. */
uint32_t dl_plan_limit_widths(struct dl_plan *plan,
			      const struct dl_policy_input *in);

#endif
