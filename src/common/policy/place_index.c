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

/* Rank as an order key: unranked jobs last, ties by index. */
static uint64_t rank_key(const struct dl_plan *plan, uint32_t job)
{
	uint32_t r = plan->jobs[job].rank;

	return ((uint64_t) (r ? r : UINT32_MAX) << 32) | job;
}

static int cmp_node_row(const void *a, const void *b, void *vx)
{
	const struct dl_place_index *x = vx;
	const struct dl_place *p = &x->rows[*(const uint32_t *) a];
	const struct dl_place *q = &x->rows[*(const uint32_t *) b];
	uint64_t kp, kq;

	if (p->node != q->node)
		return p->node < q->node ? -1 : 1;
	kp = rank_key(x->plan, p->job);
	kq = rank_key(x->plan, q->job);
	return (kp > kq) - (kp < kq);
}

void dl_place_index_free(struct dl_place_index *x)
{
	if (!x)
		return;
	free(x->ids);
	free(x->row_start);
	free(x->rows);
	free(x->node_start);
	free(x->node_rows);
	free(x->planned);
	memset(x, 0, sizeof(*x));
}

/* Per node, the rows lowest rank first; per (job, phase), the planned
 * concurrency. */
static void index_nodes(struct dl_place_index *x)
{
	const struct dl_plan *plan = x->plan;
	uint32_t nn = plan->nnodes;

	for (uint32_t k = 0; k < plan->nplace; k++) {
		const struct dl_place *r = &x->rows[k];

		if (r->node < nn)
			x->node_start[r->node + 1]++;
		x->planned[2 * r->job + DL_MAP] += r->maps;
		x->planned[2 * r->job + DL_REDUCE] += r->reduces;
	}
	for (uint32_t n = 0; n < nn; n++)
		x->node_start[n + 1] += x->node_start[n];
	for (uint32_t k = 0, f = 0; k < plan->nplace; k++)
		if (x->rows[k].node < nn)
			x->node_rows[f++] = k;
	qsort_r(x->node_rows, x->node_start[nn], sizeof(*x->node_rows),
		cmp_node_row, x);
	/* the active phase: its allocation, running tasks on nodes the plan
	 * does not know included */
	for (uint32_t j = 0; j < plan->njobs; j++) {
		const struct dl_plan_job *pj = &plan->jobs[j];

		if (pj->managed &&
		    (pj->phase == DL_MAP || pj->phase == DL_REDUCE))
			x->planned[2 * j + pj->phase] = pj->alloc;
	}
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
	x->node_start =
		calloc((size_t) plan->nnodes + 1, sizeof(*x->node_start));
	x->node_rows =
		malloc(((size_t) plan->nplace + 1) * sizeof(*x->node_rows));
	x->planned = calloc(2 * (size_t) n + 1, sizeof(*x->planned));
	if (!x->ids || !x->row_start || !x->rows || !x->node_start ||
	    !x->node_rows || !x->planned) {
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
	index_nodes(x);
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

static bool fits_cap(const struct dl_plan_node *nd, const double want[3])
{
	for (int r = 0; r < 3; r++) {
		double cap = nd->cap[r];

		if (isinf(cap) || !(want[r] > 0))
			continue;
		if (!(want[r] <= cap + FIT_TOL * fmax(1.0, cap)))
			return false;
	}
	return true;
}

/* Add to want the room jobs ranked before `job` are still owed on node. */
static void add_owed(const struct dl_place_index *x, uint32_t job,
		     uint32_t node, const struct dl_place_now *now,
		     double want[3])
{
	const struct dl_plan *plan = x->plan;
	uint64_t mine = rank_key(plan, job);

	for (uint32_t i = x->node_start[node]; i < x->node_start[node + 1];
	     i++) {
		const struct dl_place *r = &x->rows[x->node_rows[i]];

		if (rank_key(plan, r->job) >= mine)
			break; /* lowest rank first: the rest rank after */
		for (int q = 0; q < DL_PHASES; q++) {
			uint32_t rows = q == DL_MAP ? r->maps : r->reduces;
			uint32_t plan_q = x->planned[2 * r->job + q];
			uint32_t here, run, owed;
			bool waiting = false;
			const struct dl_demand *d;

			if (!rows)
				continue;
			here = now->here(now->ctx, r->job, q, node);
			if (here >= rows)
				continue;
			run = now->running(now->ctx, r->job, q, &waiting);
			if (!waiting || run >= plan_q)
				continue;
			owed = rows - here;
			if (plan_q - run < owed)
				owed = plan_q - run;
			d = &plan->jobs[r->job].demand[q];
			want[0] += owed * d->cpu;
			want[1] += owed * d->mem;
			want[2] += owed * d->io;
		}
	}
}

bool dl_place_may_start(const struct dl_place_index *x, uint32_t job, int phase,
			uint32_t node, const struct dl_place_now *now,
			const double used[3])
{
	const struct dl_demand *d;
	double want[3];
	bool waiting;

	if (!x || !x->plan || !x->planned || job >= x->plan->njobs || !used ||
	    !now || !now->here || !now->running || phase < 0 ||
	    phase >= DL_PHASES || node >= x->plan->nnodes || !x->plan->nodes)
		return false;
	if (now->running(now->ctx, job, phase, &waiting) >=
	    x->planned[2 * job + phase])
		return false;
	d = &x->plan->jobs[job].demand[phase];
	want[0] = used[0] + d->cpu;
	want[1] = used[1] + d->mem;
	want[2] = used[2] + d->io;
	add_owed(x, job, node, now, want);
	return fits_cap(&x->plan->nodes[node], want);
}
