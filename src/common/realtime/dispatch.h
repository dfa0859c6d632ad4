/*
 * realtime/dispatch.h - the realtime dispatcher's reservation walk (Alg. IV,
 * doc/design.md §6) as a pure function.
 *
 * Jobs come in queue order (started jobs first, then earliest deadline).
 * Free units of a pool go to the first job with a task ready to start; a
 * job with nothing ready that has not reached its reduce stage holds back
 * its reduce units ("reservedSlot += J.R"), and the walk stops once the
 * reservations cover the free units.  A job whose next task does not fit
 * in the unreserved free units stops the walk as well: in the admission
 * model that task takes the earliest units, which are the free ones.
 *
 * The paper walks once per free slot and restarts from the top after each
 * assignment; the jobs above the one served have nothing ready and keep
 * their reservations, so one pass that serves each job as much as fits is
 * the same hand-out (a property test checks it against the literal form).
 *
 * In the paper's Hadoop model map slots and reduce slots are separate
 * pools and only the reduce pool has reservations.  In Slurm both phases
 * run on the partition's CPUs, so the walk covers maps as well: a later
 * job's map may not take the CPUs an earlier job's reducers will need.
 */
#ifndef DL_RT_DISPATCH_H
#define DL_RT_DISPATCH_H

#include <stdbool.h>
#include <stdint.h>

struct dl_rt_walk_job {
	/* in */
	uint32_t ready;   /* tasks that could start now */
	uint32_t cpus;    /* units one ready task takes (0 is taken as 1) */
	uint64_t reserve; /* units held back while nothing is ready and the
			     reduce stage is not reached (R x reduce CPUs) */
	/* out */
	uint32_t granted; /* tasks that may start now */
	bool blocked;     /* the walk stopped at or before this job */
};

/* Hand out free_units.  Returns the units granted. */
uint64_t dl_rt_walk(struct dl_rt_walk_job *jobs, uint32_t n,
		    uint64_t free_units);

#endif
