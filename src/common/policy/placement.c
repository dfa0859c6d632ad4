/*
 * placement.c - RAS Algorithm 1 (see placement.h).
 *
 * P is kept sparse: per node a short list of (job, maps, reduces).  To find
 * "the lowest-utility job with room for one more map on this node" quickly,
 * jobs with the same map demand and partition form a shape class with a
 * min-heap of its open jobs by utility: a class fits a node or not as a
 * whole, so the search costs one capacity check per class plus a heap top.
 * A job in shuffle mode is a class of its own, because adding one of its
 * maps also grows its reducers' demand on their nodes.
 */
#include "common/policy/placement.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy/heap.h"
#include "common/policy/utility.h"
#include "common/io/grow.h"

#define NONE    UINT32_MAX
#define FIT_TOL 1e-9

struct ent {
	uint32_t job;
	uint32_t maps, reduces; /* running reducers are fixed; maps are
				   targets (running ones included) */
};

struct pnode {
	struct ent *e;
	uint32_t n, cap;
	double free[DL_RESOURCES];
	uint32_t reduces; /* reducers of every job on the node */
	const struct dl_partset *parts;
	bool usable;
};

struct pclass {
	uint32_t part;
	bool shuffle;
	const double *demand;
	uint32_t *heap; /* job indices, min (utility, index) on top */
	uint32_t n;
};

struct pjob {
	uint32_t cls;
	uint32_t hpos;    /* NONE: not in its class heap */
	uint32_t *rnodes; /* nodes holding its reducers */
	uint32_t nr, rcap;
};

struct pl {
	struct pnode *nodes;
	uint32_t nnodes;
	struct dl_pl_job *jobs;
	struct pjob *pj;
	uint32_t njobs;
	struct pclass *cls;
	uint32_t ncls;
	uint32_t *heap_mem;
	enum dl_util_kind kind;
	/* classes with open jobs, min (utility, index) of their top first */
	uint32_t *ch, nch, *cpos;
	uint32_t *popped;                /* scratch for argmin_room */
	double min_demand[DL_RESOURCES]; /* over every class: a lower bound */
};

/* ---- demands and utility ---- */

void dl_pl_reducer_demand(const struct dl_pl_job *j, uint32_t maps,
			  double out[DL_RESOURCES])
{
	uint32_t k = maps < DL_SHUFFLE_COPIES ? maps : DL_SHUFFLE_COPIES;

	for (int r = 0; r < DL_RESOURCES; r++)
		out[r] = j->reduce[r] +
			 (j->shuffle_mode ? j->shuffle[r] * k : 0);
}

double dl_pl_utility(const struct dl_pl_job *j, enum dl_util_kind kind,
		     uint32_t maps, uint32_t reduces)
{
	double um, ur;

	um = kind == DL_UTIL_REVERSE
		     ? dl_utility_map_reverse(maps, j->s_fit, j->s_req,
					      j->maps_left)
		     : dl_utility_map(maps, j->s_req, j->maps_left);
	ur = dl_utility_reduce(reduces, j->reduces_left);
	return fmin(1.0, um + ur);
}

static bool fits(const double *free, const double *d, uint32_t times)
{
	for (int r = 0; r < DL_RESOURCES; r++)
		if (d[r] * times > free[r] + FIT_TOL * fmax(1.0, fabs(free[r])))
			return false;
	return true;
}

static bool allowed(const struct pnode *n, uint32_t part)
{
	return n->usable &&
	       (part == UINT32_MAX || dl_partset_has(n->parts, part));
}

/* ---- sparse P ---- */

static struct ent *find_ent(struct pnode *n, uint32_t job)
{
	for (uint32_t i = 0; i < n->n; i++)
		if (n->e[i].job == job)
			return &n->e[i];
	return NULL;
}

static struct ent *get_ent(struct pnode *n, uint32_t job)
{
	struct ent *e = find_ent(n, job);

	if (e)
		return e;
	if (dl_grow(&n->e, n->n, &n->cap, sizeof(*n->e), 4))
		return NULL;
	e = &n->e[n->n++];
	memset(e, 0, sizeof(*e));
	e->job = job;
	return e;
}

/* ---- class heaps ---- */

static bool less(const struct pl *p, uint32_t a, uint32_t b)
{
	double ua = p->jobs[a].utility, ub = p->jobs[b].utility;

	return ua < ub || (ua == ub && a < b);
}

/* ---- the heap of classes, keyed by their top job ---- */

static bool cls_less(const struct pl *p, uint32_t a, uint32_t b)
{
	return less(p, p->cls[a].heap[0], p->cls[b].heap[0]);
}

static void cswap(struct pl *p, uint32_t i, uint32_t k)
{
	uint32_t t = p->ch[i];

	p->ch[i] = p->ch[k];
	p->ch[k] = t;
	p->cpos[p->ch[i]] = i;
	p->cpos[p->ch[k]] = k;
}

static void csift(struct pl *p, uint32_t i)
{
	while (i > 0 && cls_less(p, p->ch[i], p->ch[(i - 1) / 2])) {
		cswap(p, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < p->nch && cls_less(p, p->ch[l], p->ch[m]))
			m = l;
		if (r < p->nch && cls_less(p, p->ch[r], p->ch[m]))
			m = r;
		if (m == i)
			break;
		cswap(p, i, m);
		i = m;
	}
}

/* After class c's heap changed: (re)place c in the class heap. */
static void cfix(struct pl *p, uint32_t c)
{
	uint32_t i = p->cpos[c];

	if (!p->cls[c].n) {
		if (i == NONE)
			return;
		cswap(p, i, p->nch - 1);
		p->nch--;
		p->cpos[c] = NONE;
		if (i < p->nch)
			csift(p, i);
		return;
	}
	if (i == NONE) {
		p->ch[p->nch] = c;
		i = p->nch++;
		p->cpos[c] = i;
	}
	csift(p, i);
}

static void cpop_top(struct pl *p)
{
	uint32_t c = p->ch[0];

	cswap(p, 0, p->nch - 1);
	p->nch--;
	p->cpos[c] = NONE;
	if (p->nch)
		csift(p, 0);
}

static void hswap(struct pl *p, struct pclass *c, uint32_t i, uint32_t k)
{
	uint32_t t = c->heap[i];

	c->heap[i] = c->heap[k];
	c->heap[k] = t;
	p->pj[c->heap[i]].hpos = i;
	p->pj[c->heap[k]].hpos = k;
}

static void hfix(struct pl *p, uint32_t job)
{
	struct pclass *c = &p->cls[p->pj[job].cls];
	uint32_t i = p->pj[job].hpos;

	if (i == NONE)
		return;
	while (i > 0 && less(p, c->heap[i], c->heap[(i - 1) / 2])) {
		hswap(p, c, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < c->n && less(p, c->heap[l], c->heap[m]))
			m = l;
		if (r < c->n && less(p, c->heap[r], c->heap[m]))
			m = r;
		if (m == i)
			break;
		hswap(p, c, i, m);
		i = m;
	}
}

static void hinsert(struct pl *p, uint32_t job)
{
	struct pclass *c = &p->cls[p->pj[job].cls];

	if (p->pj[job].hpos != NONE)
		return;
	c->heap[c->n] = job;
	p->pj[job].hpos = c->n++;
	hfix(p, job);
}

static void hremove(struct pl *p, uint32_t job)
{
	struct pclass *c = &p->cls[p->pj[job].cls];
	uint32_t i = p->pj[job].hpos;

	if (i == NONE)
		return;
	hswap(p, c, i, c->n - 1);
	c->n--;
	p->pj[job].hpos = NONE;
	if (i < c->n)
		hfix(p, c->heap[i]);
}

/* Recompute a job's utility, its place in its class heap and that class's
 * place in the class heap. */
static void refresh(struct pl *p, uint32_t job)
{
	struct dl_pl_job *j = &p->jobs[job];

	j->utility = dl_pl_utility(j, p->kind, j->maps, j->reduces);
	if (j->maps < j->maps_left) {
		hinsert(p, job);
		hfix(p, job);
	} else {
		hremove(p, job);
	}
	cfix(p, p->pj[job].cls);
}

/* ---- adding and removing tasks ---- */

/* Extra demand per reducer when job j goes from m to m + 1 maps. */
static void shuffle_growth(const struct dl_pl_job *j, uint32_t m, double *d)
{
	for (int r = 0; r < DL_RESOURCES; r++)
		d[r] = (j->shuffle_mode && m < DL_SHUFFLE_COPIES)
			       ? j->shuffle[r]
			       : 0;
}

static bool shuffle_room(struct pl *p, uint32_t job, uint32_t node)
{
	const struct dl_pl_job *j = &p->jobs[job];
	struct pjob *pj = &p->pj[job];
	double g[DL_RESOURCES];

	shuffle_growth(j, j->maps, g);
	for (uint32_t k = 0; k < pj->nr; k++) {
		struct pnode *n = &p->nodes[pj->rnodes[k]];
		struct ent *e = find_ent(n, job);
		double need[DL_RESOURCES];

		if (!e || !e->reduces)
			continue;
		for (int r = 0; r < DL_RESOURCES; r++)
			need[r] = g[r] * e->reduces +
				  (pj->rnodes[k] == node ? j->map[r] : 0);
		if (!fits(n->free, need, 1))
			return false;
	}
	return true;
}

static void apply_growth(struct pl *p, uint32_t job, double sign)
{
	struct pjob *pj = &p->pj[job];
	double g[DL_RESOURCES];
	uint32_t m = p->jobs[job].maps;

	/* growth between m and m+1 (adding) or m-1 and m (removing) */
	shuffle_growth(&p->jobs[job], sign > 0 ? m : m - 1, g);
	for (uint32_t k = 0; k < pj->nr; k++) {
		struct pnode *n = &p->nodes[pj->rnodes[k]];
		struct ent *e = find_ent(n, job);

		if (!e)
			continue;
		for (int r = 0; r < DL_RESOURCES; r++)
			n->free[r] -= sign * g[r] * e->reduces;
	}
}

static int add_map(struct pl *p, uint32_t job, uint32_t node)
{
	struct pnode *n = &p->nodes[node];
	struct ent *e = get_ent(n, job);

	if (!e)
		return ENOMEM;
	if (p->jobs[job].shuffle_mode)
		apply_growth(p, job, +1);
	for (int r = 0; r < DL_RESOURCES; r++)
		n->free[r] -= p->jobs[job].map[r];
	e->maps++;
	p->jobs[job].maps++;
	refresh(p, job);
	return 0;
}

static void remove_map(struct pl *p, uint32_t job, uint32_t node)
{
	struct pnode *n = &p->nodes[node];
	struct ent *e = find_ent(n, job);

	for (int r = 0; r < DL_RESOURCES; r++)
		n->free[r] += p->jobs[job].map[r];
	e->maps--;
	if (p->jobs[job].shuffle_mode)
		apply_growth(p, job, -1);
	p->jobs[job].maps--;
	refresh(p, job);
}

static int add_reducer(struct pl *p, uint32_t job, uint32_t node)
{
	struct pnode *n = &p->nodes[node];
	struct pjob *pj = &p->pj[job];
	struct ent *e = get_ent(n, job);
	double d[DL_RESOURCES];

	if (!e)
		return ENOMEM;
	if (!e->reduces) {
		if (dl_grow(&pj->rnodes, pj->nr, &pj->rcap, sizeof(*pj->rnodes),
			    4))
			return ENOMEM;
		pj->rnodes[pj->nr++] = node;
	}
	dl_pl_reducer_demand(&p->jobs[job], p->jobs[job].maps, d);
	for (int r = 0; r < DL_RESOURCES; r++)
		n->free[r] -= d[r];
	e->reduces++;
	n->reduces++;
	p->jobs[job].reduces++;
	refresh(p, job);
	return 0;
}

/* ---- searches ---- */

/* The open job of lowest utility with room for one more map on node:
 * classes come off the class heap lowest top first until one fits; those
 * passed over go back.  Same answer as scanning every class. */
static uint32_t argmin_room(struct pl *p, uint32_t node)
{
	struct pnode *n = &p->nodes[node];
	uint32_t best = NONE, np = 0;

	if (!n->usable || !fits(n->free, p->min_demand, 1))
		return NONE; /* no class can fit: skip the search */
	while (p->nch) {
		uint32_t c = p->ch[0];
		struct pclass *k = &p->cls[c];

		if (allowed(n, k->part) && fits(n->free, k->demand, 1) &&
		    (!k->shuffle || shuffle_room(p, k->heap[0], node))) {
			best = k->heap[0];
			break;
		}
		cpop_top(p);
		p->popped[np++] = c;
	}
	while (np)
		cfix(p, p->popped[--np]);
	return best;
}

/* The job of highest utility with a map on node (running ones included:
 * P is a target, see place_running). */
static uint32_t argmax_movable(struct pl *p, uint32_t node)
{
	struct pnode *n = &p->nodes[node];
	uint32_t best = NONE;

	for (uint32_t i = 0; i < n->n; i++) {
		uint32_t j = n->e[i].job;

		if (!n->e[i].maps)
			continue;
		if (best == NONE || less(p, best, j))
			best = j;
	}
	return best;
}

static double min_utility(const struct pl *p)
{
	double m = INFINITY;

	for (uint32_t j = 0; j < p->njobs; j++)
		m = fmin(m, p->jobs[j].utility);
	return p->njobs ? m : 0;
}

/* ---- setup ---- */

static int cmp_shape(const void *a, const void *b, void *vp)
{
	const struct pl *p = vp;
	const struct dl_pl_job *x = &p->jobs[*(const uint32_t *) a];
	const struct dl_pl_job *y = &p->jobs[*(const uint32_t *) b];

	if (x->shuffle_mode != y->shuffle_mode)
		return x->shuffle_mode ? 1 : -1;
	if (x->partition != y->partition)
		return x->partition < y->partition ? -1 : 1;
	for (int r = 0; r < DL_RESOURCES; r++)
		if (x->map[r] != y->map[r])
			return x->map[r] < y->map[r] ? -1 : 1;
	return (*(const uint32_t *) a > *(const uint32_t *) b) -
	       (*(const uint32_t *) a < *(const uint32_t *) b);
}

static bool same_shape(const struct dl_pl_job *x, const struct dl_pl_job *y)
{
	if (x->shuffle_mode || y->shuffle_mode || x->partition != y->partition)
		return false;
	for (int r = 0; r < DL_RESOURCES; r++)
		if (x->map[r] != y->map[r])
			return false;
	return true;
}

static int build_classes(struct pl *p)
{
	uint32_t *order = malloc((p->njobs ? p->njobs : 1) * sizeof(*order));
	uint32_t used = 0;

	p->cls = calloc(p->njobs ? p->njobs : 1, sizeof(*p->cls));
	p->heap_mem = malloc((p->njobs ? p->njobs : 1) * sizeof(*p->heap_mem));
	p->ch = malloc((p->njobs ? p->njobs : 1) * sizeof(*p->ch));
	p->cpos = malloc((p->njobs ? p->njobs : 1) * sizeof(*p->cpos));
	p->popped = malloc((p->njobs ? p->njobs : 1) * sizeof(*p->popped));
	if (!order || !p->cls || !p->heap_mem || !p->ch || !p->cpos ||
	    !p->popped) {
		free(order);
		return ENOMEM;
	}
	for (int r = 0; r < DL_RESOURCES; r++)
		p->min_demand[r] = INFINITY;
	for (uint32_t j = 0; j < p->njobs; j++)
		order[j] = j;
	qsort_r(order, p->njobs, sizeof(*order), cmp_shape, p);
	for (uint32_t k = 0; k < p->njobs; k++) {
		uint32_t j = order[k];
		struct pclass *c;

		if (!p->ncls ||
		    !same_shape(&p->jobs[order[k - 1]], &p->jobs[j])) {
			c = &p->cls[p->ncls++];
			c->part = p->jobs[j].partition;
			c->shuffle = p->jobs[j].shuffle_mode;
			c->demand = p->jobs[j].map;
			c->heap = p->heap_mem + used;
		}
		p->pj[j].cls = p->ncls - 1;
		used++;
	}
	for (uint32_t c = 0; c < p->ncls; c++) {
		p->cpos[c] = NONE;
		for (int r = 0; r < DL_RESOURCES; r++)
			p->min_demand[r] =
				fmin(p->min_demand[r], p->cls[c].demand[r]);
	}
	free(order);
	return 0;
}

static int check_input(const struct dl_pl_node *nodes, uint32_t nnodes,
		       const struct dl_pl_job *jobs, uint32_t njobs)
{
	if ((nnodes && !nodes) || (njobs && !jobs))
		return EINVAL;
	for (uint32_t i = 0; i < nnodes; i++)
		for (int r = 0; r < DL_RESOURCES; r++)
			if (isnan(nodes[i].cap[r]) || nodes[i].cap[r] < 0)
				return EINVAL;
	for (uint32_t j = 0; j < njobs; j++) {
		const struct dl_pl_job *x = &jobs[j];

		for (int r = 0; r < DL_RESOURCES; r++)
			if (!isfinite(x->map[r]) || x->map[r] < 0 ||
			    !isfinite(x->reduce[r]) || x->reduce[r] < 0 ||
			    !isfinite(x->shuffle[r]) || x->shuffle[r] < 0)
				return EINVAL;
		if (x->maps_left > DL_MAX_TASKS ||
		    x->reduces_left > DL_MAX_TASKS ||
		    x->nmap_running > x->maps_left ||
		    x->nreduce_running > x->reduces_left ||
		    (x->nmap_running && !x->map_nodes) ||
		    (x->nreduce_running && !x->reduce_nodes))
			return EINVAL;
	}
	return 0;
}

/* Running tasks start the plan where they are.  Running reducers are fixed
 * (never moved).  Running maps are only where the rounds start from: P is
 * the target concurrency per node, so the rounds may move a running map's
 * slot to a job of lower utility, which gets it when the task ends (tasks
 * are never killed; the job that held it is then above its share and does
 * not start another).  Without this, on a full cluster the job that holds
 * a slot restarts there before any plan could hand it to anyone else.  A
 * task on an unknown node still counts in its job's allocation. */
static int place_running(struct pl *p)
{
	for (uint32_t j = 0; j < p->njobs; j++) {
		struct dl_pl_job *x = &p->jobs[j];

		for (uint32_t i = 0; i < x->nmap_running; i++) {
			uint32_t n = x->map_nodes[i];

			if (n >= p->nnodes) {
				x->maps++;
				continue;
			}
			if (add_map(p, j, n))
				return ENOMEM;
		}
		for (uint32_t i = 0; i < x->nreduce_running; i++) {
			uint32_t n = x->reduce_nodes[i];

			if (n >= p->nnodes) {
				x->reduces++;
				continue;
			}
			if (add_reducer(p, j, n))
				return ENOMEM;
		}
		refresh(p, j);
	}
	return 0;
}

/* ---- reducers first ---- */

struct rctx {
	struct pl *p;
};

static int node_before(uint32_t a, uint32_t b, void *vctx)
{
	struct pl *p = ((struct rctx *) vctx)->p;
	uint32_t ra = p->nodes[a].reduces, rb = p->nodes[b].reduces;

	if (ra != rb)
		return ra < rb ? 1 : -1;
	return a < b ? 1 : (a > b ? -1 : 0);
}

static int cmp_need(const void *a, const void *b, void *vp)
{
	const struct pl *p = vp;

	return less(p, *(const uint32_t *) a, *(const uint32_t *) b)
		       ? -1
		       : (less(p, *(const uint32_t *) b, *(const uint32_t *) a)
				  ? 1
				  : 0);
}

/* Spread each job's reducers: in pass L a node takes one more reducer of
 * the job only if it holds L of them, nodes with the fewest reducers of any
 * job first.  Jobs go lowest utility first. */
static int place_reducers(struct pl *p, uint64_t *placed)
{
	struct rctx ctx = {p};
	struct dl_heap h = {0};
	uint32_t *jobs = NULL, *popped = NULL, nj = 0;
	int rc = ENOMEM;

	for (uint32_t j = 0; j < p->njobs; j++)
		nj += p->jobs[j].reduces < p->jobs[j].reduces_left;
	if (!nj || !p->nnodes)
		return 0;
	jobs = malloc(nj * sizeof(*jobs));
	popped = malloc(p->nnodes * sizeof(*popped));
	if (!jobs || !popped || dl_heap_init(&h, p->nnodes, node_before, &ctx))
		goto out;
	nj = 0;
	for (uint32_t j = 0; j < p->njobs; j++)
		if (p->jobs[j].reduces < p->jobs[j].reduces_left)
			jobs[nj++] = j;
	qsort_r(jobs, nj, sizeof(*jobs), cmp_need, p);
	for (uint32_t n = 0; n < p->nnodes; n++)
		if (p->nodes[n].usable && dl_heap_push(&h, n))
			goto out;
	for (uint32_t k = 0; k < nj; k++) {
		uint32_t job = jobs[k];
		struct dl_pl_job *x = &p->jobs[job];

		for (uint32_t level = 0; x->reduces < x->reduces_left;
		     level++) {
			uint32_t np = 0, got = 0, n;
			double d[DL_RESOURCES];

			dl_pl_reducer_demand(x, x->maps, d);
			while (x->reduces < x->reduces_left &&
			       dl_heap_pop(&h, &n)) {
				struct pnode *pn = &p->nodes[n];
				struct ent *e = find_ent(pn, job);

				popped[np++] = n;
				if ((e ? e->reduces : 0) != level ||
				    !allowed(pn, x->partition) ||
				    !fits(pn->free, d, 1))
					continue;
				if (add_reducer(p, job, n))
					goto out;
				(*placed)++;
				got++;
			}
			for (uint32_t i = 0; i < np; i++)
				if (dl_heap_push(&h, popped[i]))
					goto out;
			if (!got)
				break;
		}
	}
	rc = 0;
out:
	dl_heap_free(&h);
	free(jobs);
	free(popped);
	return rc;
}

/* ---- maps: max-min rounds and greedy fill ---- */

static int round_on_node(struct pl *p, uint32_t node, uint64_t *moves,
			 uint64_t *fills)
{
	struct pnode *n = &p->nodes[node];
	uint32_t guard = 0, in;

	for (uint32_t i = 0; i < n->n; i++)
		guard += n->e[i].maps;
	/* move slots from the highest-utility job while it stays above the
	 * lowest-utility job that could use the room */
	while (guard--) {
		uint32_t out = argmax_movable(p, node);
		double u_out_old, u_in_old;

		if (out == NONE)
			break;
		u_out_old = p->jobs[out].utility;
		remove_map(p, out, node);
		in = argmin_room(p, node);
		u_in_old = in == out ? u_out_old
				     : (in == NONE ? INFINITY
						   : p->jobs[in].utility);
		if (in == NONE || !(p->jobs[out].utility > u_in_old)) {
			if (add_map(p, out, node))
				return ENOMEM;
			break;
		}
		(*moves)++;
	}
	/* greedy fill: lowest utility first while anything fits */
	while ((in = argmin_room(p, node)) != NONE) {
		if (add_map(p, in, node))
			return ENOMEM;
		(*fills)++;
	}
	return 0;
}

static int emit_rows(struct pl *p, struct dl_place **rows, uint32_t *nrows)
{
	uint64_t count = 0;
	struct dl_place *out;

	for (uint32_t n = 0; n < p->nnodes; n++)
		for (uint32_t i = 0; i < p->nodes[n].n; i++)
			count += p->nodes[n].e[i].maps ||
				 p->nodes[n].e[i].reduces;
	if (count > UINT32_MAX)
		return ENOMEM;
	out = malloc((count ? count : 1) * sizeof(*out));
	if (!out)
		return ENOMEM;
	count = 0;
	for (uint32_t n = 0; n < p->nnodes; n++)
		for (uint32_t i = 0; i < p->nodes[n].n; i++) {
			const struct ent *e = &p->nodes[n].e[i];

			if (!e->maps && !e->reduces)
				continue;
			out[count].job = e->job;
			out[count].node = n;
			out[count].maps = e->maps;
			out[count].reduces = e->reduces;
			count++;
		}
	*rows = out;
	*nrows = (uint32_t) count;
	return 0;
}

static void pl_free(struct pl *p)
{
	if (p->nodes)
		for (uint32_t n = 0; n < p->nnodes; n++)
			free(p->nodes[n].e);
	if (p->pj)
		for (uint32_t j = 0; j < p->njobs; j++)
			free(p->pj[j].rnodes);
	free(p->nodes);
	free(p->pj);
	free(p->cls);
	free(p->heap_mem);
	free(p->ch);
	free(p->cpos);
	free(p->popped);
}

int dl_placement(const struct dl_pl_node *nodes, uint32_t nnodes,
		 struct dl_pl_job *jobs, uint32_t njobs, enum dl_util_kind kind,
		 uint32_t rounds, struct dl_place **rows, uint32_t *nrows,
		 struct dl_pl_stats *stats)
{
	struct pl p = {0};
	struct dl_pl_stats st = {0};
	int rc;

	if (!rows || !nrows || check_input(nodes, nnodes, jobs, njobs))
		return EINVAL;
	*rows = NULL;
	*nrows = 0;
	p.nnodes = nnodes;
	p.jobs = jobs;
	p.njobs = njobs;
	p.kind = kind;
	p.nodes = calloc(nnodes ? nnodes : 1, sizeof(*p.nodes));
	p.pj = calloc(njobs ? njobs : 1, sizeof(*p.pj));
	if (!p.nodes || !p.pj) {
		rc = ENOMEM;
		goto out;
	}
	for (uint32_t n = 0; n < nnodes; n++) {
		memcpy(p.nodes[n].free, nodes[n].cap, sizeof(nodes[n].cap));
		p.nodes[n].parts = nodes[n].partitions;
		p.nodes[n].usable = nodes[n].usable;
	}
	for (uint32_t j = 0; j < njobs; j++) {
		jobs[j].maps = jobs[j].reduces = 0;
		p.pj[j].hpos = NONE;
	}
	if ((rc = build_classes(&p)))
		goto out;
	for (uint32_t j = 0; j < njobs; j++)
		refresh(&p, j);
	if ((rc = place_running(&p)) || (rc = place_reducers(&p, &st.reducers)))
		goto out;
	st.min_utility[0] = min_utility(&p);
	for (uint32_t r = 1; r <= rounds; r++) {
		uint64_t m0 = st.moves, f0 = st.fills;

		for (uint32_t n = 0; n < nnodes; n++)
			if (p.nodes[n].usable &&
			    (rc = round_on_node(&p, n, &st.moves, &st.fills)))
				goto out;
		st.rounds = r;
		if (r <= DL_PL_MAX_TRACE)
			st.min_utility[r] = min_utility(&p);
		if (st.moves == m0 && st.fills == f0)
			break; /* no change: utility stopped improving */
	}
	rc = emit_rows(&p, rows, nrows);
out:
	pl_free(&p);
	if (stats)
		*stats = st;
	return rc;
}
