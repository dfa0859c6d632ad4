/*
 * place_index.c - placement plan index and the start rule (place_index.h).
 */
#include "common/policy/place_index.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIT_TOL 1e-9

static int cmp_id(const void *a, const void *b)
{
	const struct dl_place_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int cmp_row(const void *a, const void *b)
{
	const struct dl_place *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

void dl_place_index_free(struct dl_place_index *x)
{
	if (!x)
		return;
	free(x->ids);
	free(x->row_start);
	free(x->rows);
	memset(x, 0, sizeof(*x));
}

int dl_place_index_build(struct dl_place_index *x, const struct dl_plan *plan)
{
	uint32_t n;

	if (!x)
		return EINVAL;
	memset(x, 0, sizeof(*x));
	if (!plan)
		return 0;
	n = plan->njobs;
	for (uint32_t k = 0; k < plan->nplace; k++)
		if (plan->place[k].job >= n ||
		    (plan->nnodes && plan->place[k].node >= plan->nnodes))
			return EINVAL;
	if ((plan->nplace && !plan->place) || (n && !plan->jobs))
		return EINVAL;
	x->ids = malloc((2 * (size_t) n + 1) * sizeof(*x->ids));
	x->row_start = calloc((size_t) n + 1, sizeof(*x->row_start));
	x->rows = malloc(((size_t) plan->nplace + 1) * sizeof(*x->rows));
	if (!x->ids || !x->row_start || !x->rows) {
		dl_place_index_free(x);
		return ENOMEM;
	}
	x->plan = plan;
	for (uint32_t j = 0; j < n; j++) {
		const struct dl_plan_job *pj = &plan->jobs[j];

		if (!pj->managed)
			continue;
		if (pj->job_id)
			x->ids[x->nids++] =
				(struct dl_place_id){pj->job_id, j, DL_MAP};
		if (pj->reduce_id)
			x->ids[x->nids++] = (struct dl_place_id){pj->reduce_id,
								 j, DL_REDUCE};
	}
	qsort(x->ids, x->nids, sizeof(*x->ids), cmp_id);
	if (plan->nplace)
		memcpy(x->rows, plan->place, plan->nplace * sizeof(*x->rows));
	qsort(x->rows, plan->nplace, sizeof(*x->rows), cmp_row);
	for (uint32_t k = 0; k < plan->nplace; k++)
		x->row_start[x->rows[k].job + 1]++;
	for (uint32_t j = 0; j < n; j++)
		x->row_start[j + 1] += x->row_start[j];
	return 0;
}

bool dl_place_index_find(const struct dl_place_index *x, uint64_t array_id,
			 uint32_t *job, int *phase)
{
	struct dl_place_id key = {array_id, 0, 0};
	const struct dl_place_id *hit;

	if (!x || !x->nids || !array_id)
		return false;
	hit = bsearch(&key, x->ids, x->nids, sizeof(*x->ids), cmp_id);
	if (!hit)
		return false;
	if (job)
		*job = hit->job;
	if (phase)
		*phase = hit->phase;
	return true;
}

const struct dl_place *dl_place_index_row(const struct dl_place_index *x,
					  uint32_t job, uint32_t node)
{
	uint32_t lo, hi;

	if (!x || !x->plan || job >= x->plan->njobs)
		return NULL;
	lo = x->row_start[job];
	hi = x->row_start[job + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->rows[mid].node == node)
			return &x->rows[mid];
		if (x->rows[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void dl_place_add_use(const struct dl_plan *plan, uint32_t job, int phase,
		      double used[3])
{
	const struct dl_demand *d;

	if (!plan || job >= plan->njobs || phase < 0 || phase >= DL_PHASES ||
	    !used)
		return;
	d = &plan->jobs[job].demand[phase];
	used[0] += d->cpu;
	used[1] += d->mem;
	used[2] += d->io;
}

bool dl_place_may_start(const struct dl_place_index *x, uint32_t job, int phase,
			uint32_t node, uint32_t running_here,
			const double used[3])
{
	const struct dl_place *row = dl_place_index_row(x, job, node);
	const struct dl_demand *d;
	double want[3];
	uint32_t allowed;

	if (!row || !used || phase < 0 || phase >= DL_PHASES ||
	    node >= x->plan->nnodes)
		return false;
	allowed = phase == DL_MAP ? row->maps : row->reduces;
	if (running_here >= allowed)
		return false;
	d = &x->plan->jobs[job].demand[phase];
	want[0] = d->cpu;
	want[1] = d->mem;
	want[2] = d->io;
	for (int r = 0; r < 3; r++) {
		double cap = x->plan->nodes[node].cap[r];

		if (isinf(cap) || !(want[r] > 0))
			continue;
		if (!(used[r] + want[r] <= cap + FIT_TOL * fmax(1.0, cap)))
			return false;
	}
	return true;
}
