/*
 * apply.c - the core's plan -> Slurm actions on each array's record of
 * unstarted tasks:
 *   ArrayTaskThrottle = the job's allocation (Slurm's throttle cannot say
 *     "none": a job allotted nothing keeps a throttle of 1 and the lowest
 *     priority, so it only uses a slot nobody else takes);
 *   priority (direct_set_prio): while fewer tasks run than the part of the
 *     allocation that serves the job's need, above every job without a
 *     deadline (urgent); otherwise below them (idle capacity only);
 *   hold (priority 0, WAIT_HELD, our Reason) when the policy holds a job.
 * A job that stops being managed gets its own throttle back and its
 * priority from the priority plugin again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "common/realtime/realtime.h"
#include "sched_deadline.h"

/* Highest priority we hand out: leaves headroom below the 32-bit maximum,
 * which Slurm treats specially in places (INFINITE). */
#define SDL_PRIO_MAX 0xfffffff0u

extern struct sdl_decision *sdl_decide(const struct dl_plan *plan,
				       const struct dl_sstate *st,
				       uint32_t *ndec)
{
	struct sdl_decision *dec;
	uint32_t n = 0;

	*ndec = 0;
	if (!plan || !plan->njobs)
		return NULL;
	/* at most two arrays per job */
	dec = xcalloc(plan->njobs * 2, sizeof(*dec));
	for (uint32_t i = 0; i < plan->njobs; i++) {
		const struct dl_plan_job *pj = &plan->jobs[i];
		uint64_t ids[2] = {pj->job_id, pj->reduce_id};

		for (int k = 0; k < 2; k++) {
			const struct dl_array_rec *r;
			struct sdl_decision *d;
			bool active = pj->phase >= 0 &&
				      ((k == 0 && pj->phase == DL_MAP) ||
				       (k == 1 && pj->phase == DL_REDUCE));

			if (!ids[k] || !(r = dl_sstate_find(st, ids[k])) ||
			    !r->present)
				continue;
			if (pj->managed && active) {
				d = &dec[n++];
				d->array_id = (uint32_t) ids[k];
				d->rank = pj->rank;
				d->manage = true;
				d->throttle = pj->alloc ? pj->alloc : 1;
				d->alloc_for_need = pj->alloc_for_need;
				d->urgent = pj->urgent;
				d->hold = pj->hold;
				snprintf(d->hold_reason, sizeof(d->hold_reason),
					 "%s",
					 pj->hold_reason[0] ? pj->hold_reason
							    : "sched/deadline");
				d->release_hold = !pj->hold &&
						  r->prio_mode == DL_PRIO_HELD;
				d->fresh = !r->managed &&
					   r->prio_mode == DL_PRIO_NONE;
				/* held by us last cycle, and maybe still */
				d->ours_held = r->prio_mode == DL_PRIO_HELD;
			} else if (r->managed && pj->phase >= 0) {
				/* ours before, not any more: give it back */
				d = &dec[n++];
				d->array_id = (uint32_t) ids[k];
				d->manage = false;
				d->user_throttle = r->user_throttle;
				d->restore_prio = r->prio_mode != DL_PRIO_NONE;
				d->release_hold = r->prio_mode == DL_PRIO_HELD;
			}
		}
	}
	*ndec = n;
	return dec;
}

static void _set_prio(job_record_t *job_ptr, uint32_t prio)
{
	job_ptr->priority = prio;
	job_ptr->direct_set_prio = 1;
	if (job_ptr->priority_array && job_ptr->part_ptr_list) {
		int parts = list_count(job_ptr->part_ptr_list);

		for (int i = 0; i < parts; i++)
			job_ptr->priority_array[i] = prio;
	}
}

static void _release(job_record_t *job_ptr)
{
	/* only holds that are ours come here (Slurm calls job_submit/
	 * deadline's hold at submit a user hold: priority 0 came with the
	 * request) */
	if (job_ptr->state_reason == WAIT_HELD ||
	    job_ptr->state_reason == WAIT_HELD_USER)
		job_ptr->state_reason = WAIT_NO_REASON;
	xfree(job_ptr->state_desc);
}

extern int sdl_apply(struct sdl_decision *dec, uint32_t ndec,
		     const struct dl_config *cfg, uint32_t max_other_prio,
		     time_t now)
{
	uint32_t nurgent = 0, nidle = 0, kurgent = 0, kidle = 0, top;
	int changes = 0;

	/* who is urgent now: the plan's view plus the live running count */
	for (uint32_t i = 0; i < ndec; i++) {
		struct sdl_decision *d = &dec[i];
		job_record_t *job_ptr = find_job_record(d->array_id);

		d->gone = !job_ptr || !job_ptr->array_recs ||
			  job_ptr->array_job_id != d->array_id;
		if (d->gone || !d->manage)
			continue;
		/* held at submit by job_submit/deadline (realtime), which
		 * marks that hold in the job's control environment; ours to
		 * release */
		if (d->fresh && IS_JOB_PENDING(job_ptr) && !job_ptr->priority &&
		    dl_rt_hold_from_env(job_ptr->spank_job_env,
					job_ptr->spank_job_env_size))
			d->release_hold = true;
		/* priority 0 that we did not set: a user or admin hold */
		d->user_held =
			IS_JOB_PENDING(job_ptr) && !job_ptr->priority &&
			!d->release_hold &&
			!(d->ours_held && job_ptr->state_reason == WAIT_HELD);
		if (d->hold || d->user_held)
			continue;
		if (d->urgent &&
		    job_ptr->array_recs->tot_run_tasks < d->alloc_for_need) {
			d->prio_mode = DL_PRIO_URGENT;
			nurgent++;
		} else {
			d->prio_mode = DL_PRIO_IDLE;
			nidle++;
		}
	}
	/* urgent jobs rank above every other pending job, in plan order */
	top = (uint32_t) cfg->priority_base;
	if ((uint64_t) max_other_prio + nurgent + 1 > top)
		top = ((uint64_t) max_other_prio + nurgent + 1 > SDL_PRIO_MAX)
			      ? SDL_PRIO_MAX
			      : max_other_prio + nurgent + 1;

	for (uint32_t i = 0; i < ndec; i++) {
		struct sdl_decision *d = &dec[i];
		job_record_t *job_ptr;
		job_array_struct_t *ar;

		if (d->gone)
			continue;
		job_ptr = find_job_record(d->array_id);
		ar = job_ptr->array_recs;
		if (!d->manage) {
			if (ar->max_run_tasks != d->user_throttle) {
				ar->max_run_tasks = d->user_throttle;
				changes++;
			}
			if (d->release_hold && !job_ptr->priority) {
				_release(job_ptr);
				changes++;
			}
			if (d->restore_prio && IS_JOB_PENDING(job_ptr) &&
			    (job_ptr->priority || d->release_hold)) {
				job_ptr->direct_set_prio = 0;
				set_job_prio(job_ptr);
				changes++;
			}
			d->prio_mode = DL_PRIO_NONE;
			continue;
		}
		if (ar->max_run_tasks != d->throttle) {
			ar->max_run_tasks = d->throttle;
			changes++;
		}
		if (d->user_held || !IS_JOB_PENDING(job_ptr))
			continue;
		if (d->hold) {
			d->prio_mode = DL_PRIO_HELD;
			if (job_ptr->priority ||
			    job_ptr->state_reason != WAIT_HELD ||
			    xstrcmp(job_ptr->state_desc, d->hold_reason)) {
				_set_prio(job_ptr, 0);
				job_ptr->state_reason = WAIT_HELD;
				xfree(job_ptr->state_desc);
				job_ptr->state_desc = xstrdup(d->hold_reason);
				changes++;
			}
			continue;
		}
		if (d->release_hold) {
			_release(job_ptr);
			changes++;
		}
		if (d->prio_mode == DL_PRIO_URGENT)
			d->prio = top - kurgent++;
		else
			d->prio =
				2 + (nidle - ++kidle); /* 1 is Slurm's floor */
		if (job_ptr->priority != d->prio || !job_ptr->direct_set_prio) {
			_set_prio(job_ptr, d->prio);
			changes++;
		}
	}
	if (changes)
		last_job_update = now;
	return changes;
}

static const char *_mode_name(uint8_t mode)
{
	switch (mode) {
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

extern void sdl_record(const struct sdl_decision *dec, uint32_t ndec,
		       const struct dl_plan *plan, struct dl_sstate *st)
{
	for (uint32_t i = 0; i < ndec; i++) {
		const struct sdl_decision *d = &dec[i];
		struct dl_array_rec *r = dl_sstate_find(st, d->array_id);
		const struct dl_plan_job *pj = dl_plan_find(plan, d->array_id);
		uint32_t alloc = d->manage ? d->throttle : d->user_throttle;
		uint8_t mode = d->prio_mode;

		if (!r || d->gone)
			continue;
		if (r->managed != d->manage || r->alloc != alloc ||
		    r->prio_mode != mode) {
			char from[24], to[24];

			if (r->managed)
				snprintf(from, sizeof(from), "%u", r->alloc);
			else
				snprintf(from, sizeof(from), "%s",
					 r->user_throttle ? "user" : "none");
			if (d->manage)
				snprintf(to, sizeof(to), "%u", alloc);
			else if (alloc)
				snprintf(to, sizeof(to), "user's %u", alloc);
			else
				snprintf(to, sizeof(to), "none");
			info("%s: JobId=%u%s throttle %s -> %s, priority %s -> "
			     "%s%s: %s",
			     SDL_PREFIX, d->array_id,
			     pj && pj->reduce_id == d->array_id ? " (reduce)"
								: "",
			     from, to, _mode_name(r->prio_mode),
			     _mode_name(mode),
			     d->user_held ? " (user hold kept)" : "",
			     pj ? pj->explain : "");
			if (d->hold)
				info("%s: JobId=%u held: %s", SDL_PREFIX,
				     d->array_id, d->hold_reason);
		}
		r->managed = d->manage;
		r->alloc = d->manage ? alloc : 0;
		r->prio_mode = mode;
	}
	/* verdict changes are decisions too (e.g. capped by
	 * MaxDeadlineShare, finished) */
	for (uint32_t i = 0; plan && i < plan->njobs; i++) {
		const struct dl_plan_job *pj = &plan->jobs[i];
		struct dl_array_rec *r = dl_sstate_find(st, pj->job_id);
		const char *v = dl_verdict_name(pj->verdict);

		if (r && pj->phase < 0) {
			/* finished: nothing left to manage */
			struct dl_array_rec *rr =
				dl_sstate_find(st, pj->reduce_id);

			r->managed = false;
			if (rr)
				rr->managed = false;
		}
		if (!r || !strcmp(r->verdict, v))
			continue;
		info("%s: JobId=%" PRIu64 "%s verdict %s -> %s: %s", SDL_PREFIX,
		     pj->job_id, pj->reduce_id ? " (MapReduce)" : "",
		     r->verdict[0] ? r->verdict : "new", v, pj->explain);
		snprintf(r->verdict, sizeof(r->verdict), "%s", v);
	}
}
