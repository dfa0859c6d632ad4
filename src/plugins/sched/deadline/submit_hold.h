/*
 * submit_hold.h - job_submit/deadline's hold at submit, as slurmctld's job
 * record shows it.  The snapshot (read lock: may the job take its ticket
 * back?) and apply (write lock: release it, or make it the plan's hold)
 * must recognise the same jobs.
 */
#ifndef SDL_SUBMIT_HOLD_H
#define SDL_SUBMIT_HOLD_H

#include <stdbool.h>

#include "src/slurmctld/slurmctld.h"

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

#endif
