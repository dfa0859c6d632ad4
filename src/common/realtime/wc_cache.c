/*
 * realtime/wc_cache.c - the worst-case cache: the estimator's quantiles
 * per (user, job name, phase), sorted for lookup, least recently updated
 * dropped beyond DL_RT_WC_MAX.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/realtime/wc_cache.h"
#include "common/io/grow.h"

static int wc_cmp(const struct rt_wc_entry *e, const char *user,
		  const char *name, int phase)
{
	int c = strcmp(e->user, user);

	if (!c)
		c = strcmp(e->name, name);
	if (!c)
		c = (e->phase > phase) - (e->phase < phase);
	return c;
}

/* Index of the key, or where it would go (found says which). */
static uint32_t wc_search(const struct dl_rt_state *st, const char *user,
			  const char *name, int phase, bool *found)
{
	uint32_t lo = 0, hi = st->nwc;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = wc_cmp(&st->wc[mid], user, name, phase);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static bool bad_q(const struct dl_rt_quantiles *q)
{
	return rt_bad_time(q->p50) || rt_bad_time(q->p90) ||
	       rt_bad_time(q->p99) || rt_bad_time(q->max);
}

static int wc_store(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, const struct dl_rt_quantiles *q, double now);

int rt_wc_store_locked(struct dl_rt_state *st, const struct rt_wc_entry *e)
{
	return wc_store(st, e->user, e->name, e->phase, &e->q, e->updated);
}

int dl_rt_wc_store(struct dl_rt_state *st, const char *user, const char *name,
		   int phase, const struct dl_rt_quantiles *q, double now)
{
	int rc;

	if (!st || !q || phase < 0 || phase >= DL_PHASES || bad_q(q) ||
	    !isfinite(now))
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	rc = wc_store(st, user, name, phase, q, now);
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* (lock held) */
static int wc_store(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, const struct dl_rt_quantiles *q, double now)
{
	struct rt_wc_entry *e;
	bool found;
	uint32_t i;
	int rc = 0;

	if (!user)
		user = "";
	if (!name)
		name = "";

	i = wc_search(st, user, name, phase, &found);
	if (found) {
		st->wc[i].q = *q;
		st->wc[i].updated = now;
		goto out;
	}
	if (st->nwc >= DL_RT_WC_MAX) {
		/* drop the least recently updated key */
		uint32_t old = 0;

		for (uint32_t k = 1; k < st->nwc; k++)
			if (st->wc[k].updated < st->wc[old].updated)
				old = k;
		free(st->wc[old].user);
		free(st->wc[old].name);
		memmove(&st->wc[old], &st->wc[old + 1],
			(st->nwc - old - 1) * sizeof(*st->wc));
		st->nwc--;
		if (old < i)
			i--;
	}
	if (dl_grow(&st->wc, st->nwc, &st->capwc, sizeof(*st->wc), 64)) {
		rc = ENOMEM;
		goto out;
	}
	memmove(&st->wc[i + 1], &st->wc[i], (st->nwc - i) * sizeof(*st->wc));
	e = &st->wc[i];
	e->user = strdup(user);
	e->name = strdup(name);
	if (!e->user || !e->name) {
		free(e->user);
		free(e->name);
		memmove(&st->wc[i], &st->wc[i + 1],
			(st->nwc - i) * sizeof(*st->wc));
		rc = ENOMEM;
		goto out;
	}
	e->phase = phase;
	e->q = *q;
	e->updated = now;
	st->nwc++;
out:
	return rc;
}

int dl_rt_wc_lookup(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, struct dl_rt_quantiles *q)
{
	bool found;
	uint32_t i;

	if (!st || !q || phase < 0 || phase >= DL_PHASES)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	i = wc_search(st, user ? user : "", name ? name : "", phase, &found);
	if (found)
		*q = st->wc[i].q;
	pthread_mutex_unlock(&st->lock);
	return found ? 0 : ENOENT;
}

int dl_rt_wc_get(struct dl_rt_state *st, const char *user, const char *name,
		 int phase, double time_limit, struct dl_rt_worst *out)
{
	struct dl_rt_quantiles q;
	struct dl_rt_params p;
	int have;

	if (!st || !out)
		return EINVAL;
	have = dl_rt_wc_lookup(st, user, name, phase, &q) == 0;
	if (dl_rt_get_params(st, &p))
		return EINVAL;
	return dl_rt_worst_case(have ? &q : NULL, p.quantile, p.margin,
				time_limit, p.overhead, out);
}
