/*
 * plan/decide.h - from a plan entry to what Slurm is told about each of
 * its arrays: whether the plan manages it, its ArrayTaskThrottle, its rank,
 * until how many running tasks it is urgent, and a hold.  The sched plugin
 * applies these decisions to slurmctld's records and deadline-sim's model
 * of Slurm applies the very same ones, so a policy measured in the
 * simulator is what slurmctld does.
 *
 * The rules:
 *  - only the array of the entry's active phase is managed; the other one
 *    (a reduce array waiting on afterok, the finished map array) stays
 *    Slurm's, as does every array of an entry the plan does not manage
 *    (no deadline, capped by MaxDeadlineShare, finished);
 *  - the throttle is the allocation, but never 0: Slurm reads an
 *    ArrayTaskThrottle of 0 as "no limit", so an array allotted nothing
 *    keeps 1 and ranks below every job without deadline (idle);
 *  - an array is urgent -- above every job without deadline, in rank
 *    order -- while fewer of its tasks run than the part of its allocation
 *    that serves its need; otherwise it is idle (below them), or held when
 *    the policy holds it.
 */
#ifndef DL_DECIDE_H
#define DL_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/plan/plan.h"

/* How an array's priority is set. */
enum dl_prio_mode {
	DL_PRIO_NONE = 0,   /* not touched: Slurm's own priority */
	DL_PRIO_URGENT = 1, /* above jobs without deadlines, by rank */
	DL_PRIO_IDLE = 2,   /* below them: only idle capacity */
	DL_PRIO_HELD = 3,   /* held by the policy (priority 0) */
	/* above jobs without deadlines, below every urgent array: its need
	 * runs, but tasks of it end before the next cycle */
	DL_PRIO_KEEP = 4,
};

struct dl_decision {
	uint64_t array_id;
	int phase;             /* the array's phase: DL_MAP or DL_REDUCE */
	bool manage;           /* false: Slurm's own settings */
	uint32_t throttle;     /* managed: ArrayTaskThrottle, >= 1 */
	uint32_t rank;         /* managed: 1 = most urgent */
	uint32_t urgent_below; /* managed: urgent while fewer tasks run */
	uint32_t keep_below;   /* managed: else keep while fewer run (the
				  need, plus its tasks about to end) */
	bool hold;             /* managed: held by the policy */
	char hold_reason[48];  /* Slurm Reason= (no spaces) */
};

/* The decisions for the entry's arrays, map array first; returns how many
 * were written to out (0 to 2: an entry without reduce array has one). */
uint32_t dl_decide(const struct dl_plan_job *pj, struct dl_decision out[2]);

/* The priority mode of an array decided by d that runs `running` tasks;
 * DL_PRIO_NONE for an array that is not managed. */
enum dl_prio_mode dl_decide_prio(const struct dl_decision *d, uint32_t running);

const char *dl_prio_mode_name(enum dl_prio_mode m);

#endif
