/*
 * realtime/chain.c - a pool's queue as a chain of availability vectors:
 * one job's worst-case schedule on the vectors its predecessor leaves
 * (Alg. II for the maps, Alg. III for the reduces) and the recomputation
 * of every job behind a position.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/realtime/chain.h"
#include "common/realtime/pool.h"

/* The earliest start the model gives the job's tasks: tasks that may have
 * started keep the times they were placed at (its arrival); otherwise not
 * before now. */
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
		/* an anchor: the availability it left behind stays */
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
		/* passes the predecessor through: nothing left to place */
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

	/* maps: list scheduling from the job's arrival (or now) on */
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
	/* reduces: after the job's last map, in waves if R > slots */
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
