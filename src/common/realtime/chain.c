/*
 * realtime/chain.c - a pool's queue as a chain of availability vectors:
 * one job's worst-case schedule on the vectors its predecessor leaves
 * (Alg. II for the maps, Alg. III for the reduces) and the recomputation
 * of every job behind a position.
 *
 * The guarantee rests on one invariant that every file of realtime/
 * keeps: a job's vectors (plus its pad, place.c) bound from above, unit by
 * unit in sorted order, when the pool's units really become free after
 * that job and every job ahead of it (the paper's T >= V).  It holds
 * because
 *  - every task is modelled at its worst-case length, which a task of an
 *    admitted job does not exceed in normal operation (worst.h: the time
 *    limit bounds it, and Slurm kills a task at its limit);
 *  - list scheduling onto the earliest units and MAX are monotone: later
 *    predecessor vectors or longer tasks never give earlier vectors, so the
 *    bound carries from each job to the next by induction;
 *  - the dispatcher (dispatch.h) never lets a job take units the model
 *    gave a job ahead of it: it serves jobs in queue order and holds back
 *    the reducers' units of the jobs whose maps still run.
 * A job whose modelled finish is within its deadline therefore finishes in
 * time.  When reality leaves the model (a task overran its worst case, a
 * node was lost), sync.c rebuilds the vectors from what runs and holds
 * whatever can no longer make it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/realtime/chain.h"
#include "common/realtime/pool.h"

/* The earliest start the model gives the job's tasks.  A job that started
 * while its model still holds all its tasks (model_total: nothing since
 * admission replaced them by the pending ones) keeps its arrival: its
 * tasks were placed from there and some of them run or ran, so placing
 * them again from now would count them twice and push them into the
 * future.  Any other job cannot start a task before now. */
static double job_floor(const struct rt_job *j, double now)
{
	if (j->started && j->model_total)
		return j->arrival;
	return j->arrival > now ? j->arrival : now;
}

int rt_calt(const struct rt_pool *pl, const struct rt_job *j,
	    const struct dl_rt_vec pred[DL_PHASES], double pred_pad, double now,
	    struct dl_rt_vec out[DL_PHASES], struct rt_calc *c)
{
	struct dl_rt_sched w;
	double floor = job_floor(j, now);
	struct dl_rt_vec *rv;
	int rc;

	memset(c, 0, sizeof(*c));
	c->last_start[DL_MAP] = c->last_start[DL_REDUCE] = NAN;
	c->first_start[DL_MAP] = c->first_start[DL_REDUCE] = NAN;
	c->fits = true;
	c->floor = floor;
	if (j->finished) {
		/* an anchor: the availability it left behind stays, whatever
		 * its predecessor does (its vectors already hold its real
		 * occupancy, feedback.c); the jobs behind it build on them */
		c->map_finish = j->map_finish + j->pad;
		c->finish = j->finish + j->pad;
		c->ok = true;
		rc = dl_rt_vec_copy(&out[DL_MAP], &j->vec[DL_MAP]);
		if (!rc)
			rc = dl_rt_vec_copy(&out[DL_REDUCE],
					    &j->vec[DL_REDUCE]);
		dl_rt_vec_shift(&out[DL_MAP], j->pad);
		dl_rt_vec_shift(&out[DL_REDUCE], j->pad);
		return rc;
	}
	rc = dl_rt_vec_copy(&out[DL_MAP], &pred[DL_MAP]);
	if (!rc)
		rc = dl_rt_vec_copy(&out[DL_REDUCE], &pred[DL_REDUCE]);
	if (rc)
		return rc;
	dl_rt_vec_shift(&out[DL_MAP], pred_pad);
	dl_rt_vec_shift(&out[DL_REDUCE], pred_pad);
	if (j->held) {
		/* out of the chain: its pending tasks place nothing (its
		 * running ones are in the head the rebuild made, sync.c), so
		 * the predecessor's vectors pass through */
		c->map_finish = c->finish = j->finish;
		c->ok = true;
		return 0;
	}
	if (!(pred_pad >= 0) || !isfinite(pred_pad))
		return EINVAL;
	for (int p = 0; p < DL_PHASES; p++)
		if (j->mtasks[p] && j->cpus[p] > pl->units[p])
			c->fits = false;
	if (!c->fits)
		return 0;

	/* maps (Alg. II): list scheduling from the floor on; tasks that run
	 * already are not in mtasks, their end is in run_end */
	rc = dl_rt_vec_schedule(&out[DL_MAP], j->mtasks[DL_MAP],
				j->cpus[DL_MAP], j->wc[DL_MAP], floor, &w);
	if (rc)
		return rc;
	c->map_finish = floor;
	if (j->run_end[DL_MAP] > c->map_finish)
		c->map_finish = j->run_end[DL_MAP];
	if (j->mtasks[DL_MAP]) {
		c->first_start[DL_MAP] = w.first_start;
		c->last_start[DL_MAP] = w.last_start;
		if (w.last_end > c->map_finish)
			c->map_finish = w.last_end;
	}
	/* reduces (Alg. III): none before the job's worst-case map end, in
	 * waves when R exceeds the units; a shared pool runs them on the
	 * same vector as the maps */
	rv = pl->split ? &out[DL_REDUCE] : &out[DL_MAP];
	rc = dl_rt_vec_schedule(rv, j->mtasks[DL_REDUCE], j->cpus[DL_REDUCE],
				j->wc[DL_REDUCE], c->map_finish, &w);
	if (rc)
		return rc;
	c->finish = c->map_finish;
	if (j->run_end[DL_REDUCE] > c->finish)
		c->finish = j->run_end[DL_REDUCE];
	if (j->mtasks[DL_REDUCE]) {
		c->first_start[DL_REDUCE] = w.first_start;
		c->last_start[DL_REDUCE] = w.last_start;
		if (w.last_end > c->finish)
			c->finish = w.last_end;
	}
	if (!pl->split)
		dl_rt_vec_free(&out[DL_REDUCE]);
	/* Slurm cancels what has not started by a hard deadline's last
	 * start, so a task placed after it is as bad as a late finish */
	c->ok = c->finish <= j->deadline;
	for (int p = 0; p < DL_PHASES; p++)
		if (j->latest_start[p] > 0 && !isnan(c->last_start[p]) &&
		    c->last_start[p] > j->latest_start[p])
			c->ok = false;
	return 0;
}

void rt_store_calc(struct rt_job *j, const struct rt_calc *c)
{
	if (j->held) {
		j->pad = 0; /* its vectors are its predecessor's, pad applied */
		return;
	}
	if (j->finished) {
		/* an anchor's output is its own vectors with its pad applied */
		j->map_finish = c->map_finish;
		j->finish = c->finish;
		j->pad = 0;
		return;
	}
	j->map_finish = c->fits ? c->map_finish : INFINITY;
	j->finish = c->fits ? c->finish : INFINITY;
	j->floor = c->floor;
	j->pad = 0;
	for (int p = 0; p < DL_PHASES; p++) {
		j->first_start[p] = c->first_start[p];
		j->last_start[p] = c->last_start[p];
	}
}

int rt_recompute_from(struct rt_pool *pl, uint32_t from, double now,
		      bool stored_floor)
{
	for (uint32_t i = from; i < pl->n; i++) {
		struct rt_job *j = pl->q[i];
		struct dl_rt_vec out[DL_PHASES] = {{0}};
		struct rt_calc c;
		int rc = rt_calt(pl, j, rt_pred(pl, i), rt_pred_pad(pl, i),
				 stored_floor ? j->floor : now, out, &c);

		if (rc) {
			dl_rt_vec_free(&out[0]);
			dl_rt_vec_free(&out[1]);
			return rc;
		}
		/* (tasks wider than the pool: calt passed pred through) */
		for (int p = 0; p < DL_PHASES; p++) {
			dl_rt_vec_free(&j->vec[p]);
			j->vec[p] = out[p];
		}
		if (j->held)
			j->pad = 0; /* pred with its pad already applied */
		rt_store_calc(j, &c);
	}
	return 0;
}
