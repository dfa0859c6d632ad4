/*
 * plan/decide.c - plan entry -> per-array decisions (see decide.h).
 */
#include "common/plan/decide.h"

#include <stdio.h>
#include <string.h>

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
	return running < d->urgent_below ? DL_PRIO_URGENT : DL_PRIO_IDLE;
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
	default:
		return "slurm";
	}
}
