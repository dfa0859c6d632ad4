/*
 * realtime/sync.c - keeping the admitted set true to what runs (the sched
 * plugin's plan cycle): capacity changes, jobs that left, finished jobs
 * through the feedback test, overrunning tasks, and the rebuild of a
 * pool's vectors from the live state with holds for jobs that can no
 * longer meet their deadlines.
 *
 * The rebuild is the feedback controller's (Alg. V-VI) idea applied to a
 * live snapshot: instead of replaying the finish times of one finished job
 * onto its predecessor's vectors, every unit's availability is derived from
 * what runs now (a running task holds its CPUs until start + worst case)
 * and every job's remaining tasks are list-scheduled again in queue order.
 * While tasks stay within their worst case the rebuilt vectors are never
 * later than the admitted ones (list scheduling is monotone), so a rebuild
 * never invalidates an admitted job; it only does when reality broke the
 * assumptions (a task overran, a node was lost), which is exactly when a
 * job must be held and reported.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/log.h"
#include "common/io/timefmt.h"
#include "common/plan/id_index.h"
#include "common/realtime/chain.h"
#include "common/realtime/feedback.h"
#include "common/realtime/place.h"
#include "common/realtime/pool.h"

/* The live job that belongs to the admitted job j (by its map or reduce
 * id), or NULL. */
static const struct dl_job *find_input(const struct rt_job *j,
				       struct dl_job *const *jobs,
				       const struct dl_id_index *x)
{
	int64_t i = dl_id_index_find(x, j->id);

	if (i < 0)
		i = dl_id_index_find(x, j->reduce_id);
	return i < 0 ? NULL : jobs[i];
}

/* When a running task frees its CPUs at the latest. */
static double running_end(double start, double wc, double time_limit,
			  double now)
{
	double e = start + wc;

	if (e >= now)
		return e;
	/* over its worst case: Slurm ends it at its time limit; without
	 * one, assume another worst case from now */
	if (time_limit > 0 && start + time_limit > now)
		return start + time_limit;
	return now + wc;
}

static bool overran(const struct rt_job *j, const struct dl_job *in, double now)
{
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &in->phase[p];

		for (uint32_t r = 0; r < ph->nrunning; r++)
			if (now > ph->running[r].start + j->wc[p])
				return true;
	}
	return false;
}

/* Its first task the model placed should have started more than Δ ago
 * and nothing started since: the dispatch is not keeping up (Slurm's
 * latency above RealtimeTaskOverhead, CPUs taken by other jobs, ...). */
static bool lagging(const struct dl_rt_state *st, const struct rt_job *j,
		    const struct dl_job *in, double now)
{
	int p = dl_job_active_phase(in);
	const struct dl_phase *ph;

	if (p < 0 || j->held || j->finished || isnan(j->first_start[p]))
		return false;
	ph = &in->phase[p];
	if (!dl_phase_pending(ph) ||
	    ph->tasks - dl_phase_pending(ph) > j->lag_ref[p])
		return false;
	return now > j->first_start[p] + rt_feedback_delta(st, j);
}

static bool has_started(const struct dl_job *in)
{
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &in->phase[p];

		if (ph->nrunning || ph->completed || ph->failed)
			return true;
	}
	return false;
}

uint32_t dl_rt_share_units(double cpus, double share)
{
	double u;

	if (!isfinite(cpus) || cpus <= 0 || !isfinite(share) || share <= 0)
		return 0;
	u = floor(cpus * (share > 1 ? 1 : share) + 1e-9);
	return u > DL_RT_MAX_UNITS ? DL_RT_MAX_UNITS : (uint32_t) u;
}

uint32_t dl_rt_partition_units(const struct dl_cluster *cl,
			       const char *partition, double share)
{
	int part;
	double cpus = 0;

	if (!cl || !partition)
		return 0;
	part = dl_cluster_find_partition(cl, partition);
	if (part < 0)
		return 0;
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		const struct dl_node *nd = &cl->nodes[i];

		if (nd->up && dl_partset_has(&nd->partitions, (uint32_t) part))
			cpus += nd->cpus;
	}
	return dl_rt_share_units(cpus, share);
}

double dl_rt_latest_start(double hard_deadline, double time_limit)
{
	if (!(hard_deadline > 0) || !isfinite(hard_deadline))
		return 0;
	if (!(time_limit >= 60) || !isfinite(time_limit))
		time_limit = 60;
	return hard_deadline > time_limit ? hard_deadline - time_limit : 0;
}

int dl_rt_request_from_job(struct dl_rt_state *st, const struct dl_job *job,
			   const char *pool, double now,
			   struct dl_rt_request *req)
{
	if (!st || !job || !pool || !req)
		return EINVAL;
	memset(req, 0, sizeof(*req));
	req->id = job->id;
	req->reduce_id = job->reduce_id;
	req->user = job->user;
	req->name = job->name;
	req->pool = pool;
	req->arrival = now;
	req->deadline = dl_job_deadline(job);
	if (!(req->deadline > 0))
		return EINVAL;
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];
		struct dl_rt_worst w;

		req->tasks[p] = ph->tasks - ph->completed - ph->failed;
		req->cpus[p] = ph->cpus_per_task ? ph->cpus_per_task : 1;
		if (dl_rt_wc_get(st, job->user, job->name, p, ph->time_limit,
				 &w))
			return EINVAL;
		req->wc[p] = w.len;
		if (p == DL_MAP && w.typical > 0)
			req->typical_map = w.typical;
		/* Slurm cancels at a hard deadline whatever the goal */
		req->latest_start[p] =
			dl_rt_latest_start(ph->hard_deadline, ph->time_limit);
	}
	return req->tasks[DL_MAP] || req->tasks[DL_REDUCE] ? 0 : EINVAL;
}

/* ---- the head vector: units busy with running tasks ---- */

struct busy {
	double end;
	uint32_t units;
};

static int busy_desc(const void *a, const void *b)
{
	double x = ((const struct busy *) a)->end;
	double y = ((const struct busy *) b)->end;

	return (x < y) - (x > y);
}

/* `units` units: the busy ones free at their end (the latest first when
 * more are busy than exist), the rest now. */
static int build_head(struct dl_rt_vec *v, uint32_t units, struct busy *b,
		      uint32_t nb, double now)
{
	uint32_t left = units;
	int rc;

	qsort(b, nb, sizeof(*b), busy_desc);
	rc = dl_rt_vec_init(v, 0, now);
	for (uint32_t i = 0; i < nb && left && !rc; i++) {
		uint32_t n = b[i].units < left ? b[i].units : left;

		rc = dl_rt_vec_add(v, b[i].end > now ? b[i].end : now, n);
		left -= n;
	}
	if (!rc)
		rc = dl_rt_vec_add(v, now, left);
	return rc;
}

/* snprintf into hold_why; a long cause is cut at the end */
__attribute__((format(printf, 2, 3))) static void set_why(struct rt_job *j,
							  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->hold_why, sizeof(j->hold_why), fmt, ap);
	va_end(ap);
}

static void set_hold(struct rt_job *j, const char *cause, double now)
{
	char fin[40], dl[40];

	dl_format_instant(j->finish, fin, sizeof(fin));
	dl_format_instant(j->deadline, dl, sizeof(dl));
	j->held = true;
	set_why(j,
		"cannot meet its deadline %s any more (worst-case finish "
		"%s)%s%s",
		dl, fin, cause && *cause ? ": " : "", cause ? cause : "");
	dl_log(DL_LOG_INFO, "realtime: job %llu held at %.0f: %s",
	       (unsigned long long) j->id, now, j->hold_why);
}

/* Why j is held: its own straggler, another job's, or lost capacity.
 * straggler: the first job of the pool with a task past its worst case. */
static void hold_cause(char *buf, size_t len, const struct rt_pool *pl,
		       const struct rt_job *j, bool overran_now,
		       const struct rt_job *straggler)
{
	if (overran_now)
		snprintf(buf, len, "a task ran past its worst case of %.0fs",
			 j->wc[DL_MAP]);
	else if (straggler)
		snprintf(buf, len,
			 "job %llu's task ran past its worst case of %.0fs",
			 (unsigned long long) straggler->id,
			 straggler->wc[DL_MAP]);
	else if (j->cpus[DL_MAP] > pl->units[DL_MAP] ||
		 j->cpus[DL_REDUCE] > pl->units[DL_REDUCE])
		snprintf(buf, len,
			 "partition %s now offers %u CPUs for realtime jobs",
			 pl->name, pl->units[DL_MAP]);
	else
		snprintf(buf, len,
			 "tasks ran longer than their worst case or capacity "
			 "was lost (partition %s: %u CPUs)",
			 pl->name, pl->units[DL_MAP]);
}

/* Rebuild a pool from the live jobs (in[i] belongs to q[i], NULL for a
 * ticket not bound yet). */
static int rebuild(struct dl_rt_state *st, struct rt_pool *pl,
		   const struct dl_job **in, bool *overrun, double now,
		   struct dl_rt_sync_stats *stats)
{
	struct busy *b[DL_PHASES] = {NULL, NULL};
	uint32_t nb[DL_PHASES] = {0, 0}, cap = 0;
	int rc = 0;

	/* anchors (finished jobs): what they left behind is in the live
	 * state now */
	for (uint32_t i = pl->n; i-- > 0;)
		if (pl->q[i]->finished) {
			struct rt_job *j = pl->q[i];

			rt_unlink(pl, i);
			rt_job_free(j);
			memmove(&in[i], &in[i + 1], (pl->n - i) * sizeof(*in));
			memmove(&overrun[i], &overrun[i + 1],
				(pl->n - i) * sizeof(*overrun));
		}

	for (uint32_t i = 0; i < pl->n; i++)
		if (in[i])
			for (int p = 0; p < DL_PHASES; p++)
				cap += in[i]->phase[p].nrunning;
	for (int p = 0; p < DL_PHASES; p++) {
		b[p] = malloc((cap ? cap : 1) * sizeof(*b[p]));
		if (!b[p]) {
			rc = ENOMEM;
			goto out;
		}
	}
	/* running tasks hold their units; what is left to place */
	for (uint32_t i = 0; i < pl->n; i++) {
		struct rt_job *j = pl->q[i];

		for (int p = 0; p < DL_PHASES; p++) {
			const struct dl_phase *ph =
				in[i] ? &in[i]->phase[p] : NULL;
			int pool = pl->split ? p : 0;

			j->run_end[p] = -INFINITY;
			j->model_total = !ph;
			j->lag_ref[p] =
				ph ? ph->tasks - dl_phase_pending(ph) : 0;
			if (!ph) {
				j->mtasks[p] = j->tasks[p];
				continue;
			}
			/* a reduce array not submitted yet: all announced */
			if (p == DL_REDUCE && !ph->tasks)
				j->mtasks[p] = j->tasks[p];
			else
				j->mtasks[p] = dl_phase_pending(ph);
			for (uint32_t r = 0; r < ph->nrunning; r++) {
				double e = running_end(ph->running[r].start,
						       j->wc[p], ph->time_limit,
						       now);

				b[pool][nb[pool]++] =
					(struct busy){e, j->cpus[p]};
				if (e > j->run_end[p])
					j->run_end[p] = e;
			}
		}
	}
	for (int p = 0; p < (pl->split ? DL_PHASES : 1); p++) {
		dl_rt_vec_free(&pl->head[p]);
		rc = build_head(&pl->head[p], pl->units[p], b[p], nb[p], now);
		if (rc)
			goto out;
	}
	if (!pl->split) {
		dl_rt_vec_free(&pl->head[DL_REDUCE]);
		dl_rt_vec_init(&pl->head[DL_REDUCE], 0, now);
	}

	/* one pass in queue order: a job that cannot make it behind the
	 * ones placed is held (its pending tasks are left out) */
	{
		bool *was_held = calloc(pl->n ? pl->n : 1, sizeof(*was_held));
		const struct rt_job *straggler = NULL;

		for (uint32_t i = 0; i < pl->n && !straggler; i++)
			if (overrun[i])
				straggler = pl->q[i];
		if (!was_held) {
			rc = ENOMEM;
			goto out;
		}
		for (uint32_t i = 0; i < pl->n && !rc; i++) {
			struct rt_job *j = pl->q[i];
			struct dl_rt_vec v[DL_PHASES] = {{0}};
			struct rt_calc c;

			was_held[i] = j->held;
			rc = rt_calt(pl, j, rt_pred(pl, i), rt_pred_pad(pl, i),
				     now, v, &c);
			if (!rc && !j->held && !(c.ok && c.fits)) {
				char cause[128];

				dl_rt_vec_free(&v[0]);
				dl_rt_vec_free(&v[1]);
				j->finish = c.fits ? c.finish : INFINITY;
				hold_cause(cause, sizeof(cause), pl, j,
					   overrun[i], straggler);
				set_hold(j, cause, now);
				if (stats)
					stats->held++;
				rc = rt_calt(pl, j, rt_pred(pl, i),
					     rt_pred_pad(pl, i), now, v, &c);
			}
			for (int p = 0; p < DL_PHASES; p++) {
				dl_rt_vec_free(&j->vec[p]);
				j->vec[p] = v[p];
			}
			rt_store_calc(j, &c);
		}
		/* jobs held before that fit again without making anyone
		 * miss are released */
		for (uint32_t i = 0; i < pl->n && !rc; i++) {
			struct rt_job *j = pl->q[i];
			uint32_t budget = 4096 + 4 * pl->n;
			bool ok = false;

			if (!j->held || !was_held[i] ||
			    (in[i] && dl_job_active_phase(in[i]) < 0))
				continue;
			rt_unlink(pl, i);
			j->held = false;
			rc = rt_try_place(st, pl, j, i, now, &budget, &ok, NULL,
					  NULL);
			if (rc || !ok) {
				j->held = true;
				if (rt_insert(pl, i, j) && !rc)
					rc = ENOMEM;
				if (rc == ETIME)
					rc = 0;
				continue;
			}
			j->hold_why[0] = '\0';
			dl_log(DL_LOG_INFO,
			       "realtime: job %llu released: it can meet its "
			       "deadline again",
			       (unsigned long long) j->id);
			if (stats)
				stats->released++;
		}
		free(was_held);
	}
out:
	free(b[0]);
	free(b[1]);
	pl->need_resync = pl->size_changed = rc != 0;
	return rc;
}

int dl_rt_sync(struct dl_rt_state *st, struct dl_job *const *jobs,
	       uint32_t njobs, const struct dl_cluster *cl, double now,
	       struct dl_rt_sync_stats *stats)
{
	int rc = 0;

	struct dl_id_index idx = {NULL, 0};

	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!st || (njobs && !jobs) || !isfinite(now) || now < 0)
		return EINVAL;
	if (dl_id_index_build(&idx, jobs, njobs))
		return ENOMEM;
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools && !rc; k++) {
		struct rt_pool *pl = &st->pools[k];
		const struct dl_job **in = NULL;
		bool *over = NULL;

		/* capacity of a Slurm partition (shared pools only) */
		if (cl && !pl->split) {
			uint32_t u = dl_rt_partition_units(cl, pl->name,
							   st->p.share);

			if (u != pl->units[DL_MAP]) {
				dl_log(DL_LOG_INFO,
				       "realtime: partition %s offers %u CPUs "
				       "for realtime jobs (was %u)",
				       pl->name, u, pl->units[DL_MAP]);
				pl->units[DL_MAP] = pl->units[DL_REDUCE] = u;
				pl->need_resync = pl->size_changed = true;
			}
		}
		/* jobs that left or finished (walking backwards: retiring
		 * a job that never started takes it out of the queue) */
		for (uint32_t i = pl->n; i-- > 0;) {
			struct rt_job *j = pl->q[i];
			const struct dl_job *x;

			if (j->finished)
				continue; /* an anchor already */
			if (!j->id) {
				if (now - j->arrival > st->p.ticket_ttl) {
					dl_log(DL_LOG_INFO,
					       "realtime: ticket %llu was "
					       "never bound to a job: dropped",
					       (unsigned long long) j->ticket);
					rt_unlink(pl, i);
					rt_job_free(j);
					if (stats)
						stats->removed++;
				}
				continue;
			}
			x = find_input(j, jobs, &idx);
			if (!x) {
				/* admitted after the snapshot was taken: keep
				 */
				if (j->arrival >= now)
					continue;
				rt_retire(pl, i, false);
				if (stats)
					stats->removed++;
				continue;
			}
			if (dl_job_active_phase(x) >= 0)
				continue;
			/* finished: the feedback test (Alg. V), with the time
			 * it was seen done as its (latest) finish */
			if (stats)
				stats->finished++;
			if (!j->held && !(st->p.flags & DL_RT_NO_FEEDBACK) &&
			    (fabs(j->finish - now) > rt_feedback_delta(st, j) ||
			     now > j->deadline)) {
				pl->need_resync = true;
				if (stats)
					stats->feedback++;
			}
			if (now > j->deadline)
				dl_log(DL_LOG_INFO,
				       "realtime: job %llu finished after its "
				       "deadline",
				       (unsigned long long) j->id);
			j->started = true;
			rt_retire(pl, i, false);
		}
		rt_prune(pl);
		if (!pl->n) {
			/* nothing admitted is left: every unit is free now
			 * (the pruned head still held the last job's worst
			 * case, which only ever delays later admissions) */
			rc = rt_init_head(pl, now);
			pl->need_resync = pl->size_changed = rc != 0;
			continue;
		}
		in = calloc(pl->n, sizeof(*in));
		over = calloc(pl->n, sizeof(*over));
		if (!in || !over) {
			free(in);
			free(over);
			rc = ENOMEM;
			break;
		}
		/* updates from the live jobs */
		for (uint32_t i = 0; i < pl->n; i++) {
			struct rt_job *j = pl->q[i];
			const struct dl_job *x =
				j->id ? find_input(j, jobs, &idx) : NULL;
			double d;

			if (j->held)
				pl->need_resync = true; /* may fit again */
			if (!x)
				continue;
			/* a reduce array the admission did not see */
			if (x->reduce_id && !j->reduce_id)
				j->reduce_id = x->reduce_id;
			if (x->phase[DL_REDUCE].tasks > j->tasks[DL_REDUCE] ||
			    x->phase[DL_REDUCE].cpus_per_task >
				    j->cpus[DL_REDUCE]) {
				const struct dl_phase *r = &x->phase[DL_REDUCE];

				if (r->tasks > j->tasks[DL_REDUCE])
					j->tasks[DL_REDUCE] = r->tasks;
				if (r->cpus_per_task > j->cpus[DL_REDUCE])
					j->cpus[DL_REDUCE] = r->cpus_per_task;
				if (!(j->wc[DL_REDUCE] > 0))
					j->wc[DL_REDUCE] =
						r->time_limit > 0
							? r->time_limit +
								  st->p.overhead
							: j->wc[DL_MAP];
				pl->need_resync = true;
			}
			/* deadline changed (scontrol update) */
			d = dl_job_deadline(x);
			if (d > 0 && d != j->deadline) {
				dl_log(DL_LOG_INFO,
				       "realtime: job %llu deadline changed",
				       (unsigned long long) j->id);
				j->deadline = d;
				pl->need_resync = true;
			}
			if (has_started(x))
				j->started = true;
		}
		for (uint32_t i = 0; i < pl->n; i++) {
			in[i] = pl->q[i]->id ? find_input(pl->q[i], jobs, &idx)
					     : NULL;
			over[i] = in[i] && overran(pl->q[i], in[i], now);
			if (over[i] ||
			    (in[i] && lagging(st, pl->q[i], in[i], now)))
				pl->need_resync = true;
		}
		if (pl->need_resync) {
			rc = rebuild(st, pl, in, over, now, stats);
			if (!rc && stats)
				stats->resynced_pools++;
		}
		free(in);
		free(over);
	}
	pthread_mutex_unlock(&st->lock);
	dl_id_index_free(&idx);
	return rc;
}
