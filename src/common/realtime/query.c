/*
 * realtime/query.c - copies of what the admitted set holds, for plans,
 * tools and tests.
 */
#include <errno.h>
#include <string.h>

#include "common/plan/plan.h"
#include "common/realtime/internal.h"
#include "common/realtime/pool.h"

static void fill_info(const struct rt_pool *pl, const struct rt_job *j,
		      uint32_t pos, struct dl_rt_job_info *o)
{
	memset(o, 0, sizeof(*o));
	o->id = j->id;
	o->reduce_id = j->reduce_id;
	o->ticket = j->ticket;
	o->reduce_ticket = j->reduce_ticket;
	dl_plan_copy_str(o->user, sizeof(o->user), j->user);
	dl_plan_copy_str(o->name, sizeof(o->name), j->name);
	dl_plan_copy_str(o->pool, sizeof(o->pool), pl->name);
	o->arrival = j->arrival;
	o->deadline = j->deadline;
	o->key = j->key;
	for (int p = 0; p < DL_PHASES; p++) {
		o->tasks[p] = j->tasks[p];
		o->cpus[p] = j->cpus[p];
		o->wc[p] = j->wc[p];
		o->latest_start[p] = j->latest_start[p];
	}
	/* the bounds with the lazy pad applied */
	o->finish = j->finish + j->pad;
	o->map_finish = j->map_finish + j->pad;
	o->started = j->started;
	o->held = j->held;
	o->finished = j->finished;
	dl_plan_copy_str(o->hold_why, sizeof(o->hold_why), j->hold_why);
	o->position = pos;
}

uint32_t dl_rt_count(struct dl_rt_state *st)
{
	uint32_t n = 0;

	if (!st)
		return 0;
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools; k++)
		n += st->pools[k].n;
	pthread_mutex_unlock(&st->lock);
	return n;
}

int dl_rt_job_get(struct dl_rt_state *st, uint64_t id,
		  struct dl_rt_job_info *out)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	int rc = ENOENT;

	if (!st || !out)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (j) {
		fill_info(pl, j, pos, out);
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_job_at(struct dl_rt_state *st, uint32_t i, struct dl_rt_job_info *out)
{
	int rc = ENOENT;

	if (!st || !out)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools; k++) {
		struct rt_pool *pl = &st->pools[k];

		if (i < pl->n) {
			fill_info(pl, pl->q[i], i, out);
			rc = 0;
			break;
		}
		i -= pl->n;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_job_vectors(struct dl_rt_state *st, uint64_t id,
		      struct dl_rt_vec vec[DL_PHASES])
{
	struct rt_pool *pl;
	struct rt_job *j;
	int rc = ENOENT;

	if (!st || !vec)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, NULL);
	if (j) {
		rc = dl_rt_vec_copy(&vec[DL_MAP], &j->vec[DL_MAP]);
		if (!rc)
			rc = dl_rt_vec_copy(&vec[DL_REDUCE],
					    pl->split ? &j->vec[DL_REDUCE]
						      : &j->vec[DL_MAP]);
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}
