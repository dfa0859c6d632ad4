/*
 * apply.c - the core's decisions (common/plan/decide.h: throttle, priority
 * mode, hold per array) -> slurmctld's records of unstarted tasks:
 *   ArrayTaskThrottle = the decision's throttle;
 *   priority (direct_set_prio): urgent arrays above every pending job
 *     without a deadline, in rank order; idle ones just above Slurm's
 *     floor, below them;
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

#include "common/model/job_hints.h"
#include "plugins/slurm_compat.h"
#include "common/realtime/realtime.h"
#include "sched_deadline.h"
#include "submit_hold.h"

/* Highest priority we hand out: leaves headroom below the 32-bit maximum,
 * which Slurm treats specially in places (INFINITE). */
#define SDL_PRIO_MAX 0xfffffff0u

static bool _decided(const struct sdl_decision *dec, uint32_t n, uint32_t id)
{
	for (uint32_t i = 0; i < n; i++)
		if (dec[i].a.d.array_id == id)
			return true;
	return false;
}

extern struct sdl_decision *sdl_decide(const struct dl_plan *plan,
				       const struct dl_sstate *st,
				       const struct sdl_snapshot *snap,
				       uint32_t *ndec)
{
	struct dl_array_decision *core;
	struct sdl_decision *dec;
	uint32_t n = 0, norphan = 0;

	*ndec = 0;
	/* job_submit's holds that no plan decision reaches (an array the
	 * plan never managed: capped by MaxDeadlineShare, left to Slurm)
	 * get a decision of their own, so that sdl_apply's rule for an
	 * orphaned hold reaches them too (JobHeldUser for ever before) */
	for (uint32_t i = 0; snap && i < snap->narrays; i++)
		norphan += snap->arrays[i].rt_held;
	if ((!plan || !plan->njobs) && !norphan)
		return NULL;
	/* at most two arrays per job */
	core = xcalloc(plan && plan->njobs ? plan->njobs * 2 : 1,
		       sizeof(*core));
	if (plan)
		n = dl_sstate_decisions(plan, st, core);
	dec = xcalloc(n + norphan ? n + norphan : 1, sizeof(*dec));
	for (uint32_t i = 0; i < n; i++) {
		const struct sdl_array *a =
			core[i].d.array_id <= UINT32_MAX
				? sdl_snapshot_array(
					  snap, (uint32_t) core[i].d.array_id)
				: NULL;

		dec[i].a = core[i];
		dec[i].throttle_known = a && a->throttle_seen;
		dec[i].throttle_before = a ? a->throttle : 0;
		dec[i].limit_mark_before = a ? a->hints.array_limit : -1;
		dec[i].marks_only = snap->marks_only;
	}
	xfree(core);
	for (uint32_t i = 0; norphan && i < snap->narrays; i++) {
		const struct sdl_array *a = &snap->arrays[i];

		if (!a->rt_held || _decided(dec, n, a->id))
			continue;
		dec[n].a.d.array_id = a->id;
		dec[n].hold_only = true;
		n++;
	}
	*ndec = n;
	return dec;
}

static void _set_prio(job_record_t *job_ptr, uint32_t prio)
{
	int n;
	uint32_t *per_part = dl_priority_array(job_ptr, &n);

	job_ptr->priority = prio;
	job_ptr->direct_set_prio = 1;
	/* the scheduler sorts a job that may run in several partitions
	 * (24.11: partition x QOS pairs) by these: every entry */
	for (int i = 0; i < n; i++)
		per_part[i] = prio;
}

/* Entry i of the job's control environment, one of job_submit's marks,
 * becomes name=value, with the prefix it had. */
static void _mark_set_at(job_record_t *job_ptr, uint32_t i, const char *name,
			 const char *value)
{
	char *e = job_ptr->spank_job_env[i];

	job_ptr->spank_job_env[i] =
		xstrdup_printf("%s%s=%s",
			       xstrncmp(e, DL_ENV_PREFIX, strlen(DL_ENV_PREFIX))
				       ? ""
				       : DL_ENV_PREFIX,
			       name, value);
	xfree(e);
}

/* job_submit's hold is released: DEADLINE_RT_HOLD=1 becomes =0 in the same
 * write lock, so a later hold by the user is the user's. */
static void _submit_hold_done(job_record_t *job_ptr)
{
	int i = dl_rt_hold_env_index(job_ptr->spank_job_env,
				     job_ptr->spank_job_env_size);

	if (i >= 0)
		_mark_set_at(job_ptr, (uint32_t) i, DL_ENV_RT_HOLD, "0");
}

/* A hold asked for while ours held the record (submit_hold.h) takes its
 * place at once: the Reason becomes the one Slurm gives such a hold
 * (JobHeldUser, JobHeldAdmin), no longer the plan's, and job_submit's hold
 * is no longer one to release.  The plan judges the array again once
 * someone releases it. */
static bool _hold_handed_over(job_record_t *job_ptr, enum dl_hold_request asked)
{
	enum job_state_reason reason =
		asked == DL_HOLD_REQUEST_USER ? WAIT_HELD_USER : WAIT_HELD;
	bool submit_hold = dl_rt_hold_from_env(job_ptr->spank_job_env,
					       job_ptr->spank_job_env_size);

	if (job_ptr->state_reason == reason && !job_ptr->state_desc &&
	    !submit_hold)
		return false;
	job_ptr->state_reason = reason;
	xfree(job_ptr->state_desc);
	if (submit_hold)
		_submit_hold_done(job_ptr);
	info("%s: JobId=%u: held at the request of %s (asked for while "
	     "already held); the plan leaves it held until a release",
	     SDL_PREFIX, job_ptr->job_id,
	     asked == DL_HOLD_REQUEST_USER ? "its owner" : "an administrator");
	return true;
}

/* job_submit's mark of a hold asked for, on a record someone has released
 * since (Slurm granted it: priority above 0, pending or already running):
 * spent.  Left there, it would take a later hold of the plan's for one
 * asked for, and the plan would never lift it. */
static bool _hold_request_spent(job_record_t *job_ptr)
{
	char **env = job_ptr->spank_job_env;
	uint32_t n = job_ptr->spank_job_env_size;

	if (!job_ptr->priority || !dl_hints_hold_request_from_env(env, n))
		return false;
	for (uint32_t i = 0; env && i < n; i++) {
		const char *e = env[i];

		if (!e)
			continue;
		if (!xstrncmp(e, DL_ENV_PREFIX, strlen(DL_ENV_PREFIX)))
			e += strlen(DL_ENV_PREFIX);
		if (!xstrncmp(e, DL_ENV_HOLD_REQUEST "=",
			      strlen(DL_ENV_HOLD_REQUEST "=")))
			_mark_set_at(job_ptr, i, DL_ENV_HOLD_REQUEST, "none");
	}
	return true;
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
	_submit_hold_done(job_ptr);
}

extern int sdl_apply(struct sdl_decision *dec, uint32_t ndec,
		     const struct dl_config *cfg, uint32_t max_other_prio,
		     time_t now)
{
	uint32_t nurgent = 0, nkeep = 0, nidle = 0, kurgent = 0, kkeep = 0;
	uint32_t kidle = 0, top;
	int changes = 0;

	/* who is urgent now: the plan's view plus the live running count */
	for (uint32_t i = 0; i < ndec; i++) {
		struct sdl_decision *d = &dec[i];
		job_record_t *job_ptr = find_job_record(d->a.d.array_id);

		d->gone = !job_ptr || !job_ptr->array_recs ||
			  job_ptr->array_job_id != d->a.d.array_id;
		if (d->gone)
			continue;
		/* a hold asked for while ours held it outlasts ours: never
		 * released here (the core's decision included) */
		d->hold_requested = sdl_hold_requested(job_ptr);
		if (d->hold_requested)
			d->a.release_hold = false;
		/* held as job_submit held it under Policy=realtime, unknown
		 * to the admitted set (lost with a slurmctld that stopped
		 * before saving it, or not bound before the policy changed),
		 * and the policy now admits nobody at submit: nothing would
		 * ever release it, so it is released (JobHeldUser for ever
		 * before).  Managed or not: a job no longer managed gets
		 * Slurm's own priority back, not 0 */
		if (cfg->policy != DL_POLICY_REALTIME && !d->a.d.hold &&
		    !d->hold_requested && sdl_held_at_submit(job_ptr)) {
			d->a.release_hold = true;
			d->a.restore_prio = true;
			info("%s: JobId=%u: job_submit's hold released: its "
			     "admission is lost and Policy=%s admits nobody "
			     "at submit",
			     SDL_PREFIX, job_ptr->job_id,
			     dl_policy_name(cfg->policy));
		}
		if (!d->a.d.manage)
			continue;
		/* held at submit by job_submit/deadline (realtime), which
		 * marks that hold in the job's control environment; ours to
		 * release.  Read from the job record at every cycle, not from
		 * our own memory: the release and the mark's reset are saved
		 * together with the job, so a slurmctld killed in between
		 * restarts with both undone and the job is released again
		 * (a "fresh decision" test left it held for ever) */
		if (!d->hold_requested && IS_JOB_PENDING(job_ptr) &&
		    !job_ptr->priority &&
		    dl_rt_submit_hold_ours(dl_rt_shared(), d->a.d.array_id,
					   job_ptr->spank_job_env,
					   job_ptr->spank_job_env_size))
			d->a.release_hold = true;
		/* still held as job_submit held it, though the admitted set no
		 * longer knows it, and the plan, judging it again, holds it:
		 * the plan's hold and reason take job_submit's place.  Left a
		 * user hold, it read JobHeldUser for ever */
		d->submit_hold_lost = d->a.d.hold && !d->a.release_hold &&
				      !d->hold_requested &&
				      sdl_held_at_submit(job_ptr);
		/* priority 0 that we did not set: a user or admin hold */
		d->user_held = d->hold_requested ||
			       (IS_JOB_PENDING(job_ptr) && !job_ptr->priority &&
				!d->a.release_hold && !d->submit_hold_lost &&
				!(d->a.ours_held &&
				  job_ptr->state_reason == WAIT_HELD));
		if (d->a.d.hold || d->user_held)
			continue;
		d->prio_mode = dl_decide_prio(
			&d->a.d, job_ptr->array_recs->tot_run_tasks);
		if (d->prio_mode == DL_PRIO_URGENT)
			nurgent++;
		else if (d->prio_mode == DL_PRIO_KEEP)
			nkeep++;
		else
			nidle++;
	}
	/* urgent jobs rank above every other pending job, in plan order;
	 * kept ones next, still above every job without a deadline */
	top = (uint32_t) cfg->priority_base;
	if ((uint64_t) max_other_prio + nurgent + nkeep + 1 > top)
		top = ((uint64_t) max_other_prio + nurgent + nkeep + 1 >
		       SDL_PRIO_MAX)
			      ? SDL_PRIO_MAX
			      : max_other_prio + nurgent + nkeep + 1;

	for (uint32_t i = 0; i < ndec; i++) {
		struct sdl_decision *d = &dec[i];
		job_record_t *job_ptr;
		job_array_struct_t *ar;

		if (d->gone)
			continue;
		job_ptr = find_job_record(d->a.d.array_id);
		ar = job_ptr->array_recs;
		/* changed since the snapshot, while the plan ran: a user's
		 * scontrol update, which a write now would undo unseen (one
		 * to the same value shows only in job_submit's mark; with
		 * job_submit/deadline only a new mark is an update) */
		d->throttle_outside =
			!d->hold_only && d->throttle_known &&
			((!d->marks_only &&
			  ar->max_run_tasks != d->throttle_before) ||
			 dl_hints_array_limit_from_env(
				 job_ptr->spank_job_env,
				 job_ptr->spank_job_env_size) !=
				 d->limit_mark_before);
		d->throttle_found = ar->max_run_tasks;
		if (d->hold_requested)
			changes += _hold_handed_over(
				job_ptr,
				(enum dl_hold_request) d->hold_requested);
		else
			changes += _hold_request_spent(job_ptr);
		if (!d->a.d.manage) {
			if (!d->hold_only && !d->throttle_outside &&
			    ar->max_run_tasks != d->a.user_throttle) {
				ar->max_run_tasks = d->a.user_throttle;
				changes++;
			}
			if (d->a.release_hold && !job_ptr->priority) {
				_release(job_ptr);
				changes++;
			}
			if (d->a.restore_prio && IS_JOB_PENDING(job_ptr) &&
			    (job_ptr->priority || d->a.release_hold)) {
				job_ptr->direct_set_prio = 0;
				set_job_prio(job_ptr);
				changes++;
			}
			d->prio_mode = DL_PRIO_NONE;
			continue;
		}
		if (!d->throttle_outside &&
		    ar->max_run_tasks != d->a.d.throttle) {
			ar->max_run_tasks = d->a.d.throttle;
			changes++;
		}
		if (d->user_held || !IS_JOB_PENDING(job_ptr))
			continue;
		if (d->a.d.hold) {
			d->prio_mode = DL_PRIO_HELD;
			if (job_ptr->priority ||
			    job_ptr->state_reason != WAIT_HELD ||
			    xstrcmp(job_ptr->state_desc, d->a.d.hold_reason)) {
				_set_prio(job_ptr, 0);
				job_ptr->state_reason = WAIT_HELD;
				xfree(job_ptr->state_desc);
				job_ptr->state_desc =
					xstrdup(d->a.d.hold_reason);
				changes++;
			}
			if (d->submit_hold_lost) {
				_submit_hold_done(job_ptr);
				info("%s: JobId=%u: job_submit's hold is the "
				     "plan's now (its admission was lost with "
				     "a slurmctld that stopped before saving "
				     "it)",
				     SDL_PREFIX, job_ptr->job_id);
			}
			continue;
		}
		if (d->a.release_hold) {
			_release(job_ptr);
			changes++;
		}
		if (d->prio_mode == DL_PRIO_URGENT)
			d->prio = top - kurgent++;
		else if (d->prio_mode == DL_PRIO_KEEP)
			d->prio = top - nurgent - kkeep++;
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

extern void sdl_record(const struct sdl_decision *dec, uint32_t ndec,
		       const struct dl_plan *plan, struct dl_sstate *st)
{
	for (uint32_t i = 0; i < ndec; i++) {
		const struct sdl_decision *d = &dec[i];
		struct dl_array_rec *r = dl_sstate_find(st, d->a.d.array_id);
		const struct dl_plan_job *pj =
			dl_plan_find(plan, d->a.d.array_id);
		/* the throttle the array has now: apply left one changed
		 * while the plan ran */
		uint32_t alloc = d->throttle_outside ? d->throttle_found
				 : d->a.d.manage     ? d->a.d.throttle
						     : d->a.user_throttle;
		uint8_t mode = d->prio_mode;

		if (!r || d->gone)
			continue;
		if (d->throttle_outside)
			sdl_user_throttle_set(r, (uint32_t) d->a.d.array_id,
					      d->throttle_found);
		if (r->managed != d->a.d.manage || r->alloc != alloc ||
		    r->prio_mode != mode) {
			char from[24], to[24];

			if (r->managed)
				snprintf(from, sizeof(from), "%u", r->alloc);
			else
				snprintf(from, sizeof(from), "%s",
					 r->user_throttle ? "user" : "none");
			if (d->a.d.manage)
				snprintf(to, sizeof(to), "%u", alloc);
			else if (alloc)
				snprintf(to, sizeof(to), "user's %u", alloc);
			else
				snprintf(to, sizeof(to), "none");
			info("%s: JobId=%" PRIu64
			     "%s throttle %s -> %s, priority %s -> "
			     "%s%s: %s",
			     SDL_PREFIX, d->a.d.array_id,
			     pj && pj->reduce_id == d->a.d.array_id
				     ? " (reduce)"
				     : "",
			     from, to, dl_prio_mode_name(r->prio_mode),
			     dl_prio_mode_name(mode),
			     d->user_held ? " (user hold kept)" : "",
			     pj ? pj->explain : "");
			if (d->a.d.hold && !d->user_held)
				info("%s: JobId=%" PRIu64 " held: %s",
				     SDL_PREFIX, d->a.d.array_id,
				     d->a.d.hold_reason);
		}
		r->managed = d->a.d.manage;
		r->alloc = d->a.d.manage ? alloc : 0;
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
