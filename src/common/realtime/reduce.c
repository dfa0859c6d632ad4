/*
 * realtime/reduce.c - the reduce array of an admitted map job arrives:
 * attached as it is when it fits what was admitted, else judged again.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/realtime/admit.h"
#include "common/realtime/place.h"
#include "common/realtime/pool.h"
#include "common/realtime/verdict.h"

/* A started job cannot move: judge its new version in place. */
static int rejudge_in_place(const struct dl_rt_state *st, struct rt_pool *pl,
			    uint32_t pos, struct rt_job *old, struct rt_job *nj,
			    double now, struct dl_rt_verdict *v)
{
	uint32_t budget = UINT32_MAX;
	struct rt_blocker blocker = {0};
	double finish = NAN;
	bool ok = false;
	int rc;

	rt_unlink(pl, pos); /* the jobs behind it now start at pos */
	rc = rt_try_place(st, pl, nj, pos, now, &budget, &ok, &blocker,
			  &finish);
	if (!rc && ok) {
		rt_job_free(old);
		v->admitted = true;
		v->finish = v->earliest = nj->finish;
		v->position = pos;
		return 0;
	}
	rt_insert(pl, pos, old); /* the slot it left: no allocation */
	/* where it is: its only place, so also its earliest finish */
	v->finish = v->earliest = finish;
	rt_set_blocker(v, &blocker);
	v->admissible_deadline = NAN;
	rt_reject_message(v, pl, nj,
			  blocker.id ? NULL
				     : "it cannot finish in time "
				       "with its reduce array");
	rt_job_free(nj);
	return rc ? rc : ERANGE;
}

int dl_rt_attach_reduce(struct dl_rt_state *st, uint64_t map_id,
			uint64_t reduce_id, uint64_t reduce_ticket,
			uint32_t reduces, uint32_t cpus, double wc,
			double latest_start, double now,
			struct dl_rt_verdict *v)
{
	struct rt_pool *pl;
	struct rt_job *j, *nj;
	uint32_t pos;
	int rc = 0;

	if (!v)
		return EINVAL;
	memset(v, 0, sizeof(*v));
	if (!st || !map_id || (!reduce_id && !reduce_ticket) || !reduces ||
	    reduces > DL_MAX_TASKS || (!isnan(wc) && rt_bad_time(wc)) ||
	    rt_bad_time(latest_start) || !isfinite(now)) {
		rt_set_msg(v, "invalid reduce array");
		return EINVAL;
	}
	if (!cpus)
		cpus = 1;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, map_id, &pl, &pos);
	if (!j || j->id != map_id) {
		rt_set_msg(v, "job %llu is not an admitted map array",
			   (unsigned long long) map_id);
		rc = ENOENT;
		goto out;
	}
	if ((j->reduce_id && j->reduce_id != reduce_id) ||
	    (j->reduce_ticket && j->reduce_ticket != reduce_ticket)) {
		rt_set_msg(v, "admitted job %llu already has a reduce array",
			   (unsigned long long) map_id);
		rc = EEXIST;
		goto out;
	}
	rt_fill_units(pl, j, v);
	v->deadline = j->deadline;
	if (reduces <= j->tasks[DL_REDUCE] && cpus <= j->cpus[DL_REDUCE] &&
	    !isnan(wc) && wc <= j->wc[DL_REDUCE] &&
	    (!j->latest_start[DL_REDUCE] ||
	     (latest_start && latest_start >= j->latest_start[DL_REDUCE]))) {
		/* within what was admitted: attach as is */
		j->reduce_id = reduce_id;
		j->reduce_ticket = reduce_ticket;
		v->admitted = true;
		v->finish = v->earliest = j->finish;
		v->position = pos;
		goto out;
	}
	/* judge the job again with the reduce phase it really has */
	nj = calloc(1, sizeof(*nj));
	if (!nj) {
		rc = ENOMEM;
		goto out;
	}
	*nj = *j;
	memset(nj->vec, 0, sizeof(nj->vec));
	nj->user = rt_dup_str(j->user);
	nj->name = rt_dup_str(j->name);
	if (!nj->user || !nj->name) {
		rt_job_free(nj);
		rc = ENOMEM;
		goto out;
	}
	nj->reduce_id = reduce_id;
	nj->reduce_ticket = reduce_ticket;
	nj->tasks[DL_REDUCE] = nj->mtasks[DL_REDUCE] = reduces;
	nj->cpus[DL_REDUCE] = cpus;
	nj->wc[DL_REDUCE] = wc;
	nj->latest_start[DL_REDUCE] = latest_start;
	if (isnan(wc) || cpus > pl->units[DL_REDUCE]) {
		v->earliest = NAN;
		v->admissible_deadline = NAN;
		rt_reject_message(
			v, pl, nj,
			isnan(wc) ? "no worst-case length for its reduce tasks "
				    "(no task-length history and no time limit)"
				  : "its reduce tasks need more CPUs than "
				    "realtime admission may use");
		rt_job_free(nj);
		rc = ERANGE;
		goto out;
	}
	if (j->started) {
		rc = rejudge_in_place(st, pl, pos, j, nj, now, v);
		goto out;
	}
	/* not started: a fresh admission of the whole job; the old version
	 * goes back where it was when that fails */
	rt_unlink(pl, pos);
	nj->key = nj->deadline;
	rc = rt_admit_locked(st, pl, nj, now, true, v);
	if (!rc && v->admitted) {
		rt_job_free(j);
	} else {
		int rc2 = rt_insert(pl, pos, j);

		rt_job_free(nj);
		if (!rc)
			rc = rc2 ? rc2 : ERANGE;
	}
out:
	if (v->admitted)
		rt_set_msg(v, "admitted as the reduce phase of job %llu",
			   (unsigned long long) map_id);
	pthread_mutex_unlock(&st->lock);
	return rc;
}
