/*
 * policy/width_limit.c - the array's own limit on every plan (see
 * width_limit.h).
 */
#include "common/policy/width_limit.h"

#include <math.h>
#include <string.h>

/* The pools' shares cut to `to` in all, the last pool first (the regular
 * pool is where every task may run). */
static void cut_pools(struct dl_plan_job *pj, uint32_t to)
{
	uint64_t sum = 0;

	for (int k = 0; k < DL_POOLS; k++)
		sum += pj->alloc_pool[k];
	for (int k = DL_POOLS - 1; k >= 0 && sum > to; k--) {
		uint64_t cut = sum - to;

		if (cut > pj->alloc_pool[k])
			cut = pj->alloc_pool[k];
		pj->alloc_pool[k] -= (uint32_t) cut;
		sum -= cut;
	}
}

static bool limit_one(struct dl_plan_job *pj, const struct dl_job *job)
{
	const struct dl_phase *ph;
	uint32_t max, left;
	bool cut;
	char was[sizeof(pj->explain)];

	if (!pj->managed || pj->phase < 0 || pj->phase >= DL_PHASES)
		return false;
	ph = &job->phase[pj->phase];
	max = ph->max_running;
	left = dl_phase_pending(ph) + ph->nrunning;
	if (!max || left <= max)
		return false;
	cut = pj->alloc > max;
	if (cut) {
		pj->alloc = max;
		cut_pools(pj, max);
		if (pj->alloc_for_need > max)
			pj->alloc_for_need = max;
		/* what its goal needs no longer fits */
		if (pj->verdict == DL_VERDICT_ON_TRACK && isfinite(pj->need) &&
		    ceil(pj->need - 1e-9) > (double) max)
			pj->verdict = DL_VERDICT_AT_RISK;
	}
	memcpy(was, pj->explain, sizeof(was));
	dl_plan_explain(pj,
			"its own limit runs at most %u of its %u tasks "
			"left at once; %s",
			max, left, was);
	return true;
}

uint32_t dl_plan_limit_widths(struct dl_plan *plan,
			      const struct dl_policy_input *in)
{
	uint32_t changed = 0;

	if (!plan || !in || !in->jobs)
		return 0;
	for (uint32_t i = 0; i < in->njobs; i++) {
		const struct dl_job *job = in->jobs[i];
		const struct dl_plan_job *found;

		if (!job || !(found = dl_plan_find(plan, job->id)) ||
		    found->job_id != job->id)
			continue;
		changed += limit_one(&plan->jobs[found - plan->jobs], job);
	}
	return changed;
}
