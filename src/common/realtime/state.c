/*
 * realtime/state.c - the admitted set's lifetime and its parameters
 * (deadline.conf's Realtime* options).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/realtime/internal.h"
#include "common/realtime/pool.h"

static void default_params(struct dl_rt_params *p)
{
	memset(p, 0, sizeof(*p));
	p->quantile = 0.99;
	p->margin = 0.2;
	p->overhead = 5;
	p->share = 1;
	p->ticket_ttl = 120;
}

struct dl_rt_state *dl_rt_state_new(void)
{
	struct dl_rt_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	if (pthread_mutex_init(&st->lock, NULL)) {
		free(st);
		return NULL;
	}
	default_params(&st->p);
	return st;
}

static void clear_contents(struct dl_rt_state *st)
{
	for (uint32_t i = 0; i < st->npools; i++)
		rt_pool_free(&st->pools[i]);
	free(st->pools);
	st->pools = NULL;
	st->npools = st->cappools = 0;
	for (uint32_t i = 0; i < st->nwc; i++) {
		free(st->wc[i].user);
		free(st->wc[i].name);
	}
	free(st->wc);
	st->wc = NULL;
	st->nwc = st->capwc = 0;
}

void dl_rt_state_free(struct dl_rt_state *st)
{
	if (!st)
		return;
	clear_contents(st);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

static int check_params(const struct dl_rt_params *p)
{
	if (!p || isnan(p->quantile) || p->quantile < 0.5 || p->quantile > 1 ||
	    !isfinite(p->margin) || p->margin < 0 || !isfinite(p->overhead) ||
	    p->overhead < 0 || !isfinite(p->feedback_delta) ||
	    p->feedback_delta < 0 || !isfinite(p->share) || !(p->share > 0) ||
	    p->share > 1 ||
	    (p->flags &
	     ~(DL_RT_PAPER_ORDER | DL_RT_EXACT | DL_RT_NO_FEEDBACK)) ||
	    !isfinite(p->ticket_ttl) || p->ticket_ttl < 0)
		return EINVAL;
	return 0;
}

int dl_rt_set_params(struct dl_rt_state *st, const struct dl_rt_params *p)
{
	if (!st || check_params(p))
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	st->p = *p;
	pthread_mutex_unlock(&st->lock);
	return 0;
}

int dl_rt_get_params(struct dl_rt_state *st, struct dl_rt_params *p)
{
	if (!st || !p)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	*p = st->p;
	pthread_mutex_unlock(&st->lock);
	return 0;
}

int dl_rt_configure(struct dl_rt_state *st, const struct dl_config *cfg)
{
	struct dl_rt_params p;

	if (!st || !cfg)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	p = st->p;
	pthread_mutex_unlock(&st->lock);
	p.quantile = cfg->realtime_quantile;
	p.margin = cfg->realtime_margin;
	p.overhead = cfg->realtime_overhead;
	p.feedback_delta = cfg->feedback_threshold;
	p.share = cfg->realtime_share;
	return dl_rt_set_params(st, &p);
}
