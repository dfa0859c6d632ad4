/*
 * realtime/admit.c - admission control (Alg. I): one job judged against
 * a pool's queue, at its EDF position or earlier, and inserted where it
 * and every job behind it meet their deadlines.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/log.h"
#include "common/io/timefmt.h"
#include "common/realtime/admit.h"
#include "common/realtime/place.h"
#include "common/realtime/pool.h"
#include "common/realtime/verdict.h"

#define DEFAULT_BUDGET 4096u

#define NO_POS UINT32_MAX

static int validate(const struct dl_rt_request *r, char *msg, size_t len)
{
	if (!r) {
		snprintf(msg, len, "no request");
		return EINVAL;
	}
	if (!r->id && !r->ticket) {
		snprintf(msg, len, "job without id or ticket");
		return EINVAL;
	}
	if (!r->pool || !*r->pool) {
		snprintf(msg, len, "job %llu: no partition",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	if (rt_bad_time(r->arrival) || rt_bad_time(r->deadline) ||
	    !(r->deadline > 0)) {
		snprintf(msg, len, "job %llu: invalid arrival or deadline",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	if (!r->tasks[DL_MAP] && !r->tasks[DL_REDUCE]) {
		snprintf(msg, len, "job %llu has no tasks",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	for (int p = 0; p < DL_PHASES; p++) {
		if (r->tasks[p] > DL_MAX_TASKS) {
			snprintf(msg, len, "job %llu: %u tasks is too many",
				 (unsigned long long) r->id, r->tasks[p]);
			return EINVAL;
		}
		if (r->cpus[p] > DL_RT_MAX_UNITS) {
			snprintf(msg, len, "job %llu: %u CPUs per task",
				 (unsigned long long) r->id, r->cpus[p]);
			return EINVAL;
		}
		/* NAN = unknown worst case (judged, not malformed) */
		if (r->tasks[p] && !isnan(r->wc[p]) && rt_bad_time(r->wc[p])) {
			snprintf(msg, len,
				 "job %llu: invalid worst-case task length",
				 (unsigned long long) r->id);
			return EINVAL;
		}
		if (rt_bad_time(r->latest_start[p])) {
			snprintf(msg, len, "job %llu: invalid start window",
				 (unsigned long long) r->id);
			return EINVAL;
		}
	}
	if (!isfinite(r->typical_map) || r->typical_map < 0) {
		snprintf(msg, len, "job %llu: invalid typical map length",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	return 0;
}

static struct rt_job *job_from_request(const struct dl_rt_request *r,
				       uint64_t seq)
{
	struct rt_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->user = rt_dup_str(r->user);
	j->name = rt_dup_str(r->name);
	if (!j->user || !j->name) {
		rt_job_free(j);
		return NULL;
	}
	j->id = r->id;
	j->ticket = r->ticket;
	j->reduce_id = r->reduce_id;
	j->arrival = r->arrival;
	j->deadline = r->deadline;
	j->key = r->deadline;
	j->seq = seq;
	for (int p = 0; p < DL_PHASES; p++) {
		j->tasks[p] = j->mtasks[p] = r->tasks[p];
		j->cpus[p] = r->cpus[p] ? r->cpus[p] : 1;
		j->wc[p] = r->tasks[p] ? r->wc[p] : 0;
		j->latest_start[p] = r->latest_start[p];
		j->run_end[p] = -INFINITY;
	}
	j->model_total = true;
	j->typical_map = r->typical_map;
	return j;
}

/* Whether j meets its own deadline (and start windows) at position pos. */
static int own_ok(const struct rt_pool *pl, const struct rt_job *j,
		  uint32_t pos, double now, bool *ok)
{
	struct dl_rt_vec tv[DL_PHASES] = {{0}};
	struct rt_calc c;
	int rc = rt_calt(pl, j, rt_pred(pl, pos), rt_pred_pad(pl, pos), now, tv,
			 &c);

	dl_rt_vec_free(&tv[0]);
	dl_rt_vec_free(&tv[1]);
	*ok = !rc && c.ok && c.fits;
	return rc;
}

/* A deadline that would be admitted now: at the end of the queue the job
 * delays nobody, so only its own finish (and its start windows, which move
 * with the deadline) count; the deadline must also not sort it ahead of
 * the last job that has not started, or EDF would put it elsewhere. */
static int admissible_deadline(const struct rt_pool *pl, struct rt_job *j,
			       double now, double *out)
{
	struct dl_rt_vec tv[DL_PHASES] = {{0}};
	struct rt_calc c;
	double d, saved = j->deadline;
	int rc;

	*out = NAN;
	j->deadline = INFINITY;
	rc = rt_calt(pl, j, rt_pred(pl, pl->n), rt_pred_pad(pl, pl->n), now, tv,
		     &c);
	j->deadline = saved;
	dl_rt_vec_free(&tv[0]);
	dl_rt_vec_free(&tv[1]);
	if (rc || !c.fits || !isfinite(c.finish))
		return rc;
	d = c.finish;
	if (pl->n > rt_first_open(pl) && pl->q[pl->n - 1]->key > d)
		d = pl->q[pl->n - 1]->key;
	for (int p = 0; p < DL_PHASES; p++)
		if (j->latest_start[p] > 0 && !isnan(c.last_start[p]) &&
		    c.last_start[p] + (saved - j->latest_start[p]) > d)
			d = c.last_start[p] + (saved - j->latest_start[p]);
	*out = ceil(d);
	return 0;
}

int rt_admit_locked(struct dl_rt_state *st, struct rt_pool *pl,
		    struct rt_job *j, double now, bool commit,
		    struct dl_rt_verdict *v)
{
	struct rt_trial t;
	uint32_t first = rt_first_open(pl), pedf, lowest, budget, pos;
	bool ok = false, found = false;
	double *slack = NULL;
	uint32_t top;
	int rc = 0;

	memset(&t, 0, sizeof(t));
	rt_fill_units(pl, j, v);
	v->deadline = j->deadline;
	v->finish = v->earliest = NAN;
	v->admissible_deadline = NAN;
	for (int p = 0; p < DL_PHASES; p++) {
		if (j->tasks[p] && isnan(j->wc[p])) {
			rt_set_msg(
				v,
				"deadline cannot be guaranteed: no worst-case "
				"length for its %s tasks (no task-length "
				"history and no time limit); give the array a "
				"time limit (--time)",
				p == DL_MAP ? "map" : "reduce");
			return 0;
		}
		if (j->tasks[p] && j->cpus[p] > pl->units[p]) {
			rt_set_msg(
				v,
				"deadline cannot be guaranteed: its %s tasks "
				"need %u CPUs but realtime admission may use "
				"%u in partition %s",
				p == DL_MAP ? "map" : "reduce", j->cpus[p],
				pl->units[p], pl->name);
			return 0;
		}
	}
	if (pl->size_changed) {
		rt_set_msg(v,
			   "deadline cannot be judged right now: partition %s "
			   "changed and the admitted jobs are being checked "
			   "again; submit again in a few seconds",
			   pl->name);
		return 0;
	}

	budget = st->p.budget ? st->p.budget : DEFAULT_BUDGET + 4 * pl->n;
	slack = rt_suffix_slack(pl);
	if (rt_trial_alloc(&t, pl->n + 1) || !slack) {
		rc = ENOMEM;
		goto out;
	}
	/* EDF position: after every job whose key is not later.  Keys only
	 * grow along the queue (a promoted job takes the key of the job it
	 * goes ahead of), so this is where RTMR would insert it */
	for (pedf = first; pedf < pl->n && pl->q[pedf]->key <= j->deadline;
	     pedf++)
		;
	lowest = (st->p.flags & DL_RT_PAPER_ORDER) ? pedf : first;
	/* The job's own finish only gets earlier at earlier positions: the
	 * vectors after k jobs are never later than those after k + 1 (each
	 * job only adds busy time) and list scheduling is monotone.  So the
	 * positions where it meets its own deadline are a prefix [lowest,
	 * top], found by bisection; an empty one is a rejection without any
	 * successor check. */
	{
		bool own;

		rc = own_ok(pl, j, lowest, now, &own);
		if (rc)
			goto out;
		top = NO_POS;
		if (own) {
			uint32_t lo = lowest, hi = pedf; /* own_ok(lo) holds */

			while (lo < hi) {
				uint32_t mid = lo + (hi - lo + 1) / 2;

				rc = own_ok(pl, j, mid, now, &own);
				if (rc)
					goto out;
				if (own)
					lo = mid;
				else
					hi = mid - 1;
			}
			top = lo;
		}
	}
	/* From the latest such position down: the EDF position first (it
	 * disturbs the fewest jobs and keeps RTMR's order), an earlier one
	 * only when that is what fits.  Each position is judged on the job's
	 * own vectors, which do not depend on its deadline, and on the
	 * successors it delays; a looser deadline therefore only adds
	 * positions, which is why admission is monotone in the deadline (up
	 * to the recomputation budget, which a looser deadline spends on more
	 * positions; never reached in the benchmark). */
	for (pos = top + 1; top != NO_POS && pos-- > lowest;) {
		rc = rt_try_at(st, pl, j, pos, now, slack, &t, &budget, &ok);
		if (rc == ETIME) {
			rt_set_msg(
				v,
				"deadline cannot be guaranteed: the admission "
				"search over %u admitted jobs reached its "
				"limit",
				pl->n);
			rc = 0;
			break;
		}
		if (rc)
			goto out;
		if (pos == pedf)
			v->finish = t.jc.fits ? t.jc.finish : NAN;
		if (t.blocker.id && !v->blocker)
			rt_set_blocker(v, &t.blocker);
		if (ok) {
			found = true;
			break;
		}
	}
	if (found) {
		v->admitted = true;
		v->finish = t.jc.finish;
		v->earliest = t.jc.finish;
		v->position = pos;
		v->promoted = pos < pedf;
		v->blocker = 0;
		v->blocker_ticket = false;
		if (commit) {
			/* ahead of its EDF position: it takes the key of the
			 * job it goes ahead of, so keys stay sorted and later
			 * EDF positions stay consistent */
			if (pos < pedf)
				j->key = pl->q[pos]->key;
			rc = rt_trial_commit(pl, pos, j, &t);
			if (rc)
				goto out;
		}
		{
			char fin[40], dl[40];

			dl_format_instant(v->finish, fin, sizeof(fin));
			dl_format_instant(j->deadline, dl, sizeof(dl));
			rt_set_msg(
				v,
				"admitted: worst-case finish %s, deadline %s "
				"(queue position %u of %u%s)",
				fin, dl, pos + 1, pl->n + (commit ? 0 : 1),
				v->promoted ? ", ahead of its deadline order"
					    : "");
		}
		goto out;
	}
	/* rejected: the earliest finish (ahead of every waiting job) and a
	 * deadline that would do */
	{
		struct dl_rt_vec tv[DL_PHASES] = {{0}};
		struct rt_calc c;

		rc = rt_calt(pl, j, rt_pred(pl, first), rt_pred_pad(pl, first),
			     now, tv, &c);
		dl_rt_vec_free(&tv[0]);
		dl_rt_vec_free(&tv[1]);
		if (rc)
			goto out;
		v->earliest = c.fits ? c.finish : NAN;
		if (isnan(v->finish)) {
			/* where EDF would have put it */
			rc = rt_calt(pl, j, rt_pred(pl, pedf),
				     rt_pred_pad(pl, pedf), now, tv, &c);
			dl_rt_vec_free(&tv[0]);
			dl_rt_vec_free(&tv[1]);
			if (rc)
				goto out;
			v->finish = c.fits ? c.finish : NAN;
		}
		rc = admissible_deadline(pl, j, now, &v->admissible_deadline);
		if (rc)
			goto out;
		if (!v->msg[0]) /* else: the search-limit message stays */
			rt_reject_message(v, pl, j, NULL);
	}
out:
	rt_trial_free(&t);
	free(slack);
	return rc;
}

int dl_rt_admit(struct dl_rt_state *st, const struct dl_rt_request *req,
		double now, bool commit, struct dl_rt_verdict *v)
{
	struct rt_pool *pl;
	struct rt_job *j;
	int rc;

	if (!v)
		return EINVAL;
	memset(v, 0, sizeof(*v));
	if (!st || !isfinite(now) || now < 0) {
		rt_set_msg(v, "no state or invalid time");
		return EINVAL;
	}
	rc = validate(req, v->msg, sizeof(v->msg));
	if (rc)
		return rc;
	pthread_mutex_lock(&st->lock);
	if (rt_find_job(st, req->id, NULL, NULL) ||
	    rt_find_job(st, req->reduce_id, NULL, NULL) ||
	    rt_find_ticket(st, req->ticket, NULL, NULL)) {
		rt_set_msg(
			v, "job %llu is already admitted",
			(unsigned long long) (req->id ? req->id : req->ticket));
		rc = EEXIST;
		goto out;
	}
	pl = rt_find_pool(st, req->pool);
	if (!pl) {
		rt_set_msg(v, "partition %s has no realtime capacity",
			   req->pool);
		rc = ENOENT;
		goto out;
	}
	j = job_from_request(req, st->seq + 1);
	if (!j) {
		rc = ENOMEM;
		goto out;
	}
	rc = rt_admit_locked(st, pl, j, now, commit, v);
	if (!rc && v->admitted && commit) {
		st->seq++;
		dl_log(DL_LOG_VERBOSE, "realtime: job %llu (ticket %llu) %s",
		       (unsigned long long) j->id,
		       (unsigned long long) j->ticket, v->msg);
	} else {
		rt_job_free(j);
	}
out:
	pthread_mutex_unlock(&st->lock);
	return rc;
}
