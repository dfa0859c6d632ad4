/*
 * policy/reserve.c - triage's blocking reserve (see reserve.h).
 */
#include "common/policy/reserve.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/stats.h"

bool dl_reserve_on(const struct dl_config *cfg)
{
	return cfg && cfg->blocking_reserve > 0;
}

void dl_reserve_inherit(struct dl_plan *plan, const struct dl_plan *prev)
{
	if (!plan)
		return;
	if (prev)
		plan->slacks = prev->slacks;
	else
		memset(&plan->slacks, 0, sizeof(plan->slacks));
	if (plan->slacks.n > DL_PLAN_SLACKS ||
	    plan->slacks.next >= DL_PLAN_SLACKS)
		memset(&plan->slacks, 0, sizeof(plan->slacks));
}

bool dl_reserve_first_judged(const struct dl_plan *prev, uint64_t job_id)
{
	const struct dl_plan_job *pj = dl_plan_find(prev, job_id);

	/* a job waiting for its begin time was not judged: it arrives at
	 * its begin time */
	return !pj || pj->verdict == DL_VERDICT_NO_DATA ||
	       pj->verdict == DL_VERDICT_WAITING;
}

void dl_reserve_note(struct dl_plan *plan, double slack, double grain)
{
	struct dl_plan_slacks *s;

	if (!plan || isnan(slack))
		return;
	s = &plan->slacks;
	s->v[s->next] = slack > 0 ? slack : 0;
	s->grain[s->next] = grain > 0 ? grain : 0; /* NaN: 0 */
	s->next = (s->next + 1) % DL_PLAN_SLACKS;
	if (s->n < DL_PLAN_SLACKS)
		s->n++;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

double dl_reserve_long_above(const struct dl_plan_slacks *s, double q)
{
	double w[DL_PLAN_SLACKS];
	uint32_t k, n = 0;

	if (!s || !s->n || s->n > DL_PLAN_SLACKS || !(q >= 0 && q <= 1))
		return INFINITY;
	/* a job is blocked by tasks longer than both its slack and its own
	 * tasks: by those longer than the larger of the two */
	for (uint32_t i = 0; i < s->n; i++)
		if (!isnan(s->v[i]) && !isnan(s->grain[i]))
			w[n++] = s->v[i] > s->grain[i] ? s->v[i] : s->grain[i];
	/* an order statistic, not an interpolation: with few jobs seen the
	 * tightest one decides */
	k = (uint32_t) ceil(q * s->n - 1e-9);
	if (!k)
		k = 1;
	if (k > n)
		return INFINITY;
	qsort(w, n, sizeof(*w), double_cmp);
	return w[k - 1];
}

bool dl_reserve_is_long(const struct dl_plan_slacks *s, double q, double len)
{
	return dl_reserve_long_len(dl_reserve_long_above(s, q), len);
}

double dl_reserve_typical_grain(const struct dl_plan_slacks *s)
{
	double g[DL_PLAN_SLACKS];

	if (!s || !s->n || s->n > DL_PLAN_SLACKS)
		return 0;
	memcpy(g, s->grain, s->n * sizeof(*g));
	qsort(g, s->n, sizeof(*g), double_cmp);
	return g[s->n / 2];
}

uint32_t dl_reserve_floor(double need, uint32_t rem, double margin)
{
	double f;

	if (!(need > 0))
		return 0;
	f = ceil(need * (1 + (margin > 0 ? margin : 0)) - 1e-9);
	return f >= rem ? rem : (uint32_t) f;
}

double dl_reserve_budget(const struct dl_capacity *full, uint32_t part,
			 double share)
{
	if (!full || !(share > 0))
		return INFINITY;
	return (1 - (share < 1 ? share : 1)) *
	       dl_capacity_partition_cpus(full, part);
}

double dl_reserve_share_cpus(const struct dl_capacity *full, uint32_t part,
			     double share)
{
	if (!full || !(share > 0))
		return 0;
	return (share < 1 ? share : 1) * dl_capacity_partition_cpus(full, part);
}

uint32_t dl_reserve_width(double budget, double others, double cpu,
			  uint32_t keep, uint32_t rem)
{
	double room;
	uint32_t w;

	if (!rem)
		return 0;
	if (!(budget < INFINITY) || !(cpu > 0))
		return rem;
	room = floor((budget - (others > 0 ? others : 0)) / cpu + 1e-9);
	w = keep;
	if (room > w)
		w = room >= rem ? rem : (uint32_t) room;
	if (w > rem)
		w = rem;
	return w ? w : 1;
}

int dl_reserve_ledger_init(struct dl_reserve_ledger *l, uint32_t npart,
			   const struct dl_capacity *full,
			   const struct dl_config *cfg)
{
	memset(l, 0, sizeof(*l));
	l->npart = npart;
	l->budget = malloc((npart + 1) * sizeof(double));
	l->allotted = calloc(npart + 1, sizeof(double));
	l->running = calloc(npart + 1, sizeof(double));
	l->running_seen = calloc(npart + 1, sizeof(double));
	if (!l->budget || !l->allotted || !l->running || !l->running_seen) {
		dl_reserve_ledger_free(l);
		return ENOMEM;
	}
	for (uint32_t p = 0; p < npart; p++)
		l->budget[p] = dl_reserve_on(cfg)
				       ? dl_reserve_budget(
						 full, p, cfg->blocking_reserve)
				       : INFINITY;
	return 0;
}

void dl_reserve_ledger_free(struct dl_reserve_ledger *l)
{
	if (!l)
		return;
	free(l->budget);
	free(l->allotted);
	free(l->running);
	free(l->running_seen);
	memset(l, 0, sizeof(*l));
}

void dl_reserve_ledger_running(struct dl_reserve_ledger *l, uint32_t part,
			       double cpus)
{
	if (l && part < l->npart && cpus > 0)
		l->running[part] += cpus;
}

uint32_t dl_reserve_allot(struct dl_reserve_ledger *l, uint32_t part,
			  double cpu, uint32_t keep, uint32_t running,
			  uint32_t rem)
{
	double own, others;
	uint32_t w;

	if (!l || part >= l->npart || !(l->budget[part] < INFINITY))
		return rem;
	if (!(cpu > 0))
		cpu = 1;
	own = running * cpu;
	l->running_seen[part] += own;
	others = l->allotted[part] + l->running[part] - l->running_seen[part];
	w = dl_reserve_width(l->budget[part], others, cpu, keep, rem);
	l->allotted[part] += (w > running ? w : running) * cpu;
	return w;
}
