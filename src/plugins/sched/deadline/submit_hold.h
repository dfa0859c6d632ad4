/*
 * submit_hold.h - job_submit/deadline's marks about holds, as slurmctld's
 * job record shows them: its hold at submit, and a hold someone asked for
 * on a record that was already held.  The snapshot (read lock: may the job
 * take its ticket back? is it held outside the plan?) and apply (write
 * lock: release it, or make it the plan's hold) must recognise the same
 * jobs.
 */
#ifndef SDL_SUBMIT_HOLD_H
#define SDL_SUBMIT_HOLD_H

#include <stdbool.h>

#include "src/slurmctld/slurmctld.h"

#include "common/model/job_hints.h"
#include "common/realtime/realtime.h"

/* Pending at priority 0 as a user hold (Slurm makes the hold job_submit
 * asked for a user hold; an administrator's is WAIT_HELD), with the mark
 * job_submit sets and the plan resets when it releases the job.  A mark a
 * client forged can at most pass for a hold the user could release. */
static inline bool sdl_held_at_submit(const job_record_t *job_ptr)
{
	return job_ptr && IS_JOB_PENDING(job_ptr) && !job_ptr->priority &&
	       job_ptr->state_reason == WAIT_HELD_USER &&
	       dl_rt_hold_from_env(job_ptr->spank_job_env,
				   job_ptr->spank_job_env_size);
}

/* Pending at priority 0 with job_submit/deadline's mark of a hold asked
 * for while the record was already held (by the plan, or by job_submit at
 * submit): that hold stays until a release, whatever the plan decides.  At
 * a priority above 0 the mark is stale (a release Slurm granted).  A mark a
 * client forged (no job_submit/deadline on its way to strip it) can only
 * keep its own job held. */
static inline enum dl_hold_request
sdl_hold_requested(const job_record_t *job_ptr)
{
	if (!job_ptr || !IS_JOB_PENDING(job_ptr) || job_ptr->priority)
		return DL_HOLD_REQUEST_NONE;
	return dl_hints_hold_request_from_env(job_ptr->spank_job_env,
					      job_ptr->spank_job_env_size);
}

#endif
