/*
 * realtime/chain.h - a pool's queue as a chain of availability vectors
 * (private to realtime/; lock held): one job's worst-case schedule on its
 * predecessor's vectors (Alg. II + III) and the recomputation down the
 * chain.
 */
#ifndef DL_RT_CHAIN_H
#define DL_RT_CHAIN_H

#include <stdbool.h>
#include <stdint.h>
#include "common/realtime/internal.h"

struct rt_calc {
	double floor;
	double map_finish, finish;
	double first_start[DL_PHASES]; /* NAN: no task placed */
	double last_start[DL_PHASES];
	bool ok;   /* deadline and start windows met */
	bool fits; /* tasks no wider than the pool */
};

/* Alg. II + III for one job onto predecessor vectors: fills out (which must
 * be empty), the worst-case map and job finish, and whether the job meets
 * its deadline and Slurm's start windows.  A held job passes the
 * predecessor's vectors through, a finished one (an anchor) gives its own.
 * Tasks wider than the pool place nothing (c->fits false).  0 or ENOMEM. */
int rt_calt(const struct rt_pool *pl, const struct rt_job *j,
	    const struct dl_rt_vec pred[DL_PHASES], double pred_pad, double now,
	    struct dl_rt_vec out[DL_PHASES], struct rt_calc *c);
/* Take a computation's results into the job (not for held/finished). */
void rt_store_calc(struct rt_job *j, const struct rt_calc *c);

/* Recompute every job from position `from` on (feasibility not judged);
 * with stored_floor each job keeps the floor of its last computation
 * (restoring a saved set). */
int rt_recompute_from(struct rt_pool *pl, uint32_t from, double now,
		      bool stored_floor);

#endif
