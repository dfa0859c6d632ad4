/*
 * realtime/pool.c - pools and their queues: lookup by id or ticket,
 * insertion, the anchors finished jobs leave, and the events that change
 * a queue without judging anyone (a job left, a job started).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/log.h"
#include "common/realtime/pool.h"
#include "common/io/grow.h"

void rt_job_free(struct rt_job *j)
{
	if (!j)
		return;
	free(j->user);
	free(j->name);
	for (int p = 0; p < DL_PHASES; p++)
		dl_rt_vec_free(&j->vec[p]);
	free(j);
}

void rt_pool_free(struct rt_pool *pl)
{
	for (uint32_t i = 0; i < pl->n; i++)
		rt_job_free(pl->q[i]);
	free(pl->q);
	free(pl->name);
	for (int p = 0; p < DL_PHASES; p++)
		dl_rt_vec_free(&pl->head[p]);
	memset(pl, 0, sizeof(*pl));
}

struct rt_pool *rt_find_pool(struct dl_rt_state *st, const char *name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; i < st->npools; i++)
		if (!strcmp(st->pools[i].name, name))
			return &st->pools[i];
	return NULL;
}

struct rt_pool *rt_add_pool(struct dl_rt_state *st, const char *name)
{
	struct rt_pool *pl;

	if (dl_grow(&st->pools, st->npools, &st->cappools, sizeof(*st->pools),
		    4))
		return NULL;
	pl = &st->pools[st->npools];
	memset(pl, 0, sizeof(*pl));
	pl->name = strdup(name);
	if (!pl->name)
		return NULL;
	st->npools++;
	return pl;
}

/* The admitted job whose pair of keys (its array ids, or its tickets)
 * holds key; its pool and position too when asked. */
static struct rt_job *find_by(struct dl_rt_state *st, uint64_t key,
			      bool tickets, struct rt_pool **pool,
			      uint32_t *pos)
{
	if (!key)
		return NULL;
	for (uint32_t k = 0; k < st->npools; k++) {
		struct rt_pool *pl = &st->pools[k];

		for (uint32_t i = 0; i < pl->n; i++) {
			const struct rt_job *j = pl->q[i];

			if (tickets ? j->ticket != key &&
					      j->reduce_ticket != key
				    : j->id != key && j->reduce_id != key)
				continue;
			if (pool)
				*pool = pl;
			if (pos)
				*pos = i;
			return pl->q[i];
		}
	}
	return NULL;
}

struct rt_job *rt_find_job(struct dl_rt_state *st, uint64_t id,
			   struct rt_pool **pool, uint32_t *pos)
{
	return find_by(st, id, false, pool, pos);
}

struct rt_job *rt_find_ticket(struct dl_rt_state *st, uint64_t ticket,
			      struct rt_pool **pool, uint32_t *pos)
{
	return find_by(st, ticket, true, pool, pos);
}

void rt_unlink(struct rt_pool *pl, uint32_t pos)
{
	if (pos >= pl->n)
		return;
	memmove(&pl->q[pos], &pl->q[pos + 1],
		(pl->n - pos - 1) * sizeof(*pl->q));
	pl->n--;
}

int rt_insert(struct rt_pool *pl, uint32_t pos, struct rt_job *j)
{
	if (dl_grow(&pl->q, pl->n, &pl->cap, sizeof(*pl->q), 16))
		return ENOMEM;
	if (pos > pl->n)
		pos = pl->n;
	memmove(&pl->q[pos + 1], &pl->q[pos], (pl->n - pos) * sizeof(*pl->q));
	pl->q[pos] = j;
	pl->n++;
	return 0;
}

/* The paper's predecessor rule: a new job at the head of the queue goes
 * behind the job started latest.  The dispatcher does not pre-empt, so a
 * started job's vectors already hold its real occupancy ahead of anything
 * new. */
uint32_t rt_first_open(const struct rt_pool *pl)
{
	for (uint32_t i = pl->n; i-- > 0;)
		if (pl->q[i]->started)
			return i + 1;
	return 0;
}

const struct dl_rt_vec *rt_pred(const struct rt_pool *pl, uint32_t pos)
{
	return pos ? pl->q[pos - 1]->vec : pl->head;
}

double rt_pred_pad(const struct rt_pool *pl, uint32_t pos)
{
	return pos ? pl->q[pos - 1]->pad : 0;
}

int rt_init_head(struct rt_pool *pl, double now)
{
	int rc = dl_rt_vec_init(&pl->head[DL_MAP], pl->units[DL_MAP], now);

	if (!rc)
		rc = dl_rt_vec_init(&pl->head[DL_REDUCE],
				    pl->split ? pl->units[DL_REDUCE] : 0, now);
	return rc;
}

int dl_rt_set_pool(struct dl_rt_state *st, const char *name, uint32_t map_units,
		   uint32_t reduce_units, double now)
{
	struct rt_pool *pl;
	bool split = reduce_units > 0;
	uint32_t units[DL_PHASES] = {map_units,
				     split ? reduce_units : map_units};
	int rc = 0;

	if (!st || !name || !*name || map_units > DL_RT_MAX_UNITS ||
	    reduce_units > DL_RT_MAX_UNITS || !isfinite(now))
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	pl = rt_find_pool(st, name);
	if (!pl) {
		pl = rt_add_pool(st, name);
		if (!pl) {
			rc = ENOMEM;
			goto out;
		}
		pl->split = split;
		pl->units[DL_MAP] = units[DL_MAP];
		pl->units[DL_REDUCE] = units[DL_REDUCE];
		rc = rt_init_head(pl, now);
		goto out;
	}
	if (pl->split == split && pl->units[DL_MAP] == units[DL_MAP] &&
	    pl->units[DL_REDUCE] == units[DL_REDUCE])
		goto out;
	dl_log(DL_LOG_INFO,
	       "realtime: pool %s changes from %u/%u to %u/%u units; %u "
	       "admitted jobs are checked again",
	       name, pl->units[DL_MAP], pl->units[DL_REDUCE], units[DL_MAP],
	       units[DL_REDUCE], pl->n);
	pl->split = split;
	pl->units[DL_MAP] = units[DL_MAP];
	pl->units[DL_REDUCE] = units[DL_REDUCE];
	/* until the resync, the head is "everything free now"; jobs keep
	 * their vectors (sized for the old pool) but admissions wait */
	rc = rt_init_head(pl, now);
	pl->need_resync = pl->size_changed = pl->n > 0;
out:
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_pool_units(struct dl_rt_state *st, const char *name,
		     uint32_t units[DL_PHASES], bool *split)
{
	struct rt_pool *pl;
	int rc = ENOENT;

	if (!st || !name || !units)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	pl = rt_find_pool(st, name);
	if (pl) {
		units[DL_MAP] = pl->units[DL_MAP];
		units[DL_REDUCE] = pl->units[DL_REDUCE];
		if (split)
			*split = pl->split;
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* Finished jobs that started stay in the queue as anchors: the jobs behind
 * them were admitted against their vectors, which carry their real
 * occupancy.  Dropping one from the middle would make the next
 * recomputation of a later started job optimistic (the property test found
 * that).  Once every job ahead of an anchor has left, nothing before it
 * can change any more and its vectors become the pool's head. */
void rt_prune(struct rt_pool *pl)
{
	while (pl->n && pl->q[0]->finished) {
		struct rt_job *j = pl->q[0];

		for (int p = 0; p < DL_PHASES; p++) {
			dl_rt_vec_free(&pl->head[p]);
			pl->head[p] = j->vec[p];
			memset(&j->vec[p], 0, sizeof(j->vec[p]));
			dl_rt_vec_shift(&pl->head[p],
					j->pad); /* the head has none */
		}
		rt_unlink(pl, 0);
		rt_job_free(j);
	}
}

void rt_retire(struct rt_pool *pl, uint32_t pos, bool prune)
{
	struct rt_job *j = pl->q[pos];

	if (j->started) {
		j->finished = true; /* anchors the jobs behind it */
		j->held = false;
	} else {
		rt_unlink(pl, pos); /* never ran: nothing to remember */
		rt_job_free(j);
	}
	if (prune)
		rt_prune(pl);
}

int dl_rt_remove(struct dl_rt_state *st, uint64_t id)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	int rc = ENOENT;

	if (!st)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (j) {
		rt_retire(pl, pos, true);
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_mark_started(struct dl_rt_state *st, uint64_t id)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	int rc = ENOENT;

	if (!st)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (j) {
		rc = 0;
		j->started = true; /* it keeps its place in the queue */
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

int dl_rt_mark_started_many(struct dl_rt_state *st, const uint64_t *ids,
			    uint32_t n)
{
	uint64_t *sorted;

	if (!st || (n && !ids))
		return EINVAL;
	if (!n)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return ENOMEM;
	memcpy(sorted, ids, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_id);
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools; k++)
		for (uint32_t i = 0; i < st->pools[k].n; i++) {
			struct rt_job *j = st->pools[k].q[i];

			if (j->id &&
			    bsearch(&j->id, sorted, n, sizeof(*sorted), cmp_id))
				j->started = true;
		}
	pthread_mutex_unlock(&st->lock);
	free(sorted);
	return 0;
}
