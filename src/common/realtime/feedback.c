/*
 * realtime/feedback.c - the feedback controller (Alg. V) and SATU
 * (Alg. VI): a finished job whose actual finish is far from its model
 * gives the jobs behind it vectors built from what really happened.
 */
#include <errno.h>
#include <math.h>

#include "common/io/log.h"
#include "common/realtime/chain.h"
#include "common/realtime/feedback.h"
#include "common/realtime/pool.h"

double rt_feedback_delta(const struct dl_rt_state *st, const struct rt_job *j)
{
	if (st->p.feedback_delta > 0)
		return st->p.feedback_delta;
	if (j->typical_map > 0)
		return j->typical_map;
	return j->wc[DL_MAP];
}

int dl_rt_feedback(struct dl_rt_state *st, uint64_t id, const double *map_ends,
		   uint32_t nmap, const double *reduce_ends, uint32_t nreduce,
		   double now, bool *updated)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	double actual = -INFINITY, delta;
	struct dl_rt_vec u[DL_PHASES] = {{0}};
	int rc = 0;

	if (updated)
		*updated = false;
	if (!st || (nmap && !map_ends) || (nreduce && !reduce_ends) ||
	    !isfinite(now))
		return EINVAL;
	for (uint32_t i = 0; i < nmap; i++)
		if (!isfinite(map_ends[i]))
			return EINVAL;
	for (uint32_t i = 0; i < nreduce; i++)
		if (!isfinite(reduce_ends[i]))
			return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (!j) {
		rc = ENOENT;
		goto out;
	}
	if (nmap > j->tasks[DL_MAP] || nreduce > j->tasks[DL_REDUCE]) {
		rc = EINVAL;
		goto out;
	}
	for (uint32_t i = 0; i < nmap; i++)
		if (map_ends[i] > actual)
			actual = map_ends[i];
	for (uint32_t i = 0; i < nreduce; i++)
		if (reduce_ends[i] > actual)
			actual = reduce_ends[i];
	delta = rt_feedback_delta(st, j);
	j->started = true; /* it ran */
	if ((st->p.flags & DL_RT_NO_FEEDBACK) ||
	    (!(fabs(j->finish - actual) > delta) && actual <= j->deadline)) {
		/* within Δ of the estimate: the vectors stay (they are an
		 * upper bound already; a rebuild would cost a recomputation of
		 * every later job for little) */
		j->finished = true;
		goto out;
	}
	/* SATU: the predecessor's vectors with the actual finish times
	 * replacing the earliest entries, assuming the unit that freed first
	 * is the one that finished first.  The appendix shows the result is
	 * still an upper bound on the real availability, so the jobs behind
	 * keep their guarantee and lose the job's pessimism (or, when it ran
	 * late, take its real lateness into account). */
	rc = dl_rt_vec_copy(&u[DL_MAP], &rt_pred(pl, pos)[DL_MAP]);
	if (!rc)
		rc = dl_rt_vec_copy(&u[DL_REDUCE],
				    &rt_pred(pl, pos)[DL_REDUCE]);
	dl_rt_vec_shift(&u[DL_MAP], rt_pred_pad(pl, pos));
	dl_rt_vec_shift(&u[DL_REDUCE], rt_pred_pad(pl, pos));
	if (!rc)
		rc = dl_rt_vec_satu(&u[DL_MAP], map_ends, nmap,
				    j->cpus[DL_MAP]);
	if (!rc)
		rc = dl_rt_vec_satu(pl->split ? &u[DL_REDUCE] : &u[DL_MAP],
				    reduce_ends, nreduce, j->cpus[DL_REDUCE]);
	if (rc) {
		dl_rt_vec_free(&u[0]);
		dl_rt_vec_free(&u[1]);
		goto out;
	}
	for (int p = 0; p < DL_PHASES; p++) {
		dl_rt_vec_free(&j->vec[p]);
		j->vec[p] = u[p];
	}
	j->finished = true;
	j->finish = actual;
	j->map_finish = actual;
	for (uint32_t i = 0; i < nmap; i++)
		j->map_finish =
			i ? fmax(j->map_finish, map_ends[i]) : map_ends[i];
	if (updated)
		*updated = true;
	dl_log(DL_LOG_VERBOSE,
	       "realtime: job %llu finished %.0fs from its estimate (threshold "
	       "%.0fs): %u later jobs recomputed",
	       (unsigned long long) id, fabs(j->finish - actual), delta,
	       pl->n - pos - 1);
	/* successors from the new vectors (Alg. V lines 12-19); a finished
	 * job passes its vectors through, so recompute from pos + 1 */
	j->pad = 0;
	rc = rt_recompute_from(pl, pos + 1, now, false);
out:
	pthread_mutex_unlock(&st->lock);
	return rc;
}
