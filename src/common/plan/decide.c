/*
 * plan/decide.c - plan entry -> per-array decisions (see decide.h).
 */
#include "common/plan/decide.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The array ranks above work without deadlines (DL_PRIO_KEEP, below the
 * urgent arrays) while it runs fewer tasks than this: tasks predicted to
 * end before the next cycle do not count towards the deadline's need (at
 * most the part of the allocation that serves it; "next cycle" with the
 * caller's slack, dl_policy_input.cycle_slack).  Slurm hands a CPU to
 * the first-ranked pending job the moment a task ends, before a cycle can
 * re-rank; an array demoted to idle-only with its need about to end lost
 * those CPUs to work without deadlines for a whole task length (measured
 * on a real slurmctld: 18 of 48 tasks started 10 s late,
 * sched_claim.bats).  Below the urgent arrays, not among them: deadline
 * work short of its own need still comes first. */
static uint32_t keep_below(const struct dl_plan_job *pj, int p)
{
	uint64_t need;

	if (!pj->urgent || !pj->pending[p] || !pj->ending_soon ||
	    !(pj->need > 0))
		return 0;
	need = pj->need < (double) UINT32_MAX ? (uint64_t) ceil(pj->need - 1e-9)
					      : UINT32_MAX;
	if (need > pj->alloc_for_need)
		need = pj->alloc_for_need;
	need += pj->ending_soon;
	return need > UINT32_MAX ? UINT32_MAX : (uint32_t) need;
}

uint32_t dl_decide(const struct dl_plan_job *pj, struct dl_decision out[2])
{
	uint64_t ids[2];
	uint32_t n = 0;

	if (!pj || !out)
		return 0;
	ids[DL_MAP] = pj->job_id;
	ids[DL_REDUCE] = pj->reduce_id;
	for (int p = 0; p < DL_PHASES; p++) {
		struct dl_decision *d;

		if (!ids[p])
			continue;
		d = &out[n++];
		memset(d, 0, sizeof(*d));
		d->array_id = ids[p];
		d->phase = p;
		d->manage = pj->managed && pj->phase == p;
		if (!d->manage)
			continue;
		d->throttle = pj->alloc ? pj->alloc : 1;
		d->rank = pj->rank;
		d->urgent_below = pj->urgent ? pj->alloc_for_need : 0;
		d->keep_below = keep_below(pj, p);
		d->hold = pj->hold;
		snprintf(d->hold_reason, sizeof(d->hold_reason), "%s",
			 pj->hold_reason[0] ? pj->hold_reason
					    : "sched/deadline");
	}
	return n;
}

enum dl_prio_mode dl_decide_prio(const struct dl_decision *d, uint32_t running)
{
	if (!d || !d->manage)
		return DL_PRIO_NONE;
	if (d->hold)
		return DL_PRIO_HELD;
	if (running < d->urgent_below)
		return DL_PRIO_URGENT;
	return running < d->keep_below ? DL_PRIO_KEEP : DL_PRIO_IDLE;
}

const char *dl_prio_mode_name(enum dl_prio_mode m)
{
	switch (m) {
	case DL_PRIO_URGENT:
		return "urgent";
	case DL_PRIO_IDLE:
		return "idle-only";
	case DL_PRIO_HELD:
		return "held";
	case DL_PRIO_KEEP:
		return "keep";
	default:
		return "slurm";
	}
}
