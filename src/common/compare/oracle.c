/*
 * oracle.c - the deadline upper bound: a preemptive relaxation solved as an
 * incremental max-flow (see oracle.h for the model and why it is a bound).
 */
#include "common/compare/oracle.h"
#include "common/estimate/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCALE 1000.0 /* flows in milli-unit-seconds */

struct graph {
	uint32_t nnodes;
	int32_t *head;
	int32_t *next;
	uint32_t *to;
	int64_t *cap; /* residual; edge e and e ^ 1 are a pair */
	uint32_t nedges, cap_edges;
	/* Dinic */
	int32_t *level;
	int32_t *iter;
	uint32_t *queue;
};

static int add_edge(struct graph *g, uint32_t u, uint32_t v, int64_t c)
{
	if (g->nedges + 2 > g->cap_edges) {
		uint32_t n = g->cap_edges ? g->cap_edges * 2 : 1024;
		void *a = realloc(g->next, n * sizeof(*g->next));

		if (!a)
			return ENOMEM;
		g->next = a;
		if (!(a = realloc(g->to, n * sizeof(*g->to))))
			return ENOMEM;
		g->to = a;
		if (!(a = realloc(g->cap, n * sizeof(*g->cap))))
			return ENOMEM;
		g->cap = a;
		g->cap_edges = n;
	}
	g->to[g->nedges] = v;
	g->cap[g->nedges] = c;
	g->next[g->nedges] = g->head[u];
	g->head[u] = (int32_t) g->nedges++;
	g->to[g->nedges] = u;
	g->cap[g->nedges] = 0;
	g->next[g->nedges] = g->head[v];
	g->head[v] = (int32_t) g->nedges++;
	return 0;
}

static void graph_free(struct graph *g)
{
	free(g->head);
	free(g->next);
	free(g->to);
	free(g->cap);
	free(g->level);
	free(g->iter);
	free(g->queue);
}

static int graph_init(struct graph *g, uint32_t nnodes)
{
	memset(g, 0, sizeof(*g));
	g->nnodes = nnodes;
	g->head = malloc(nnodes * sizeof(*g->head));
	g->level = malloc(nnodes * sizeof(*g->level));
	g->iter = malloc(nnodes * sizeof(*g->iter));
	g->queue = malloc(nnodes * sizeof(*g->queue));
	if (!g->head || !g->level || !g->iter || !g->queue)
		return ENOMEM;
	for (uint32_t v = 0; v < nnodes; v++)
		g->head[v] = -1;
	return 0;
}

static bool bfs(struct graph *g, uint32_t s, uint32_t t)
{
	uint32_t qh = 0, qt = 0;

	for (uint32_t i = 0; i < g->nnodes; i++)
		g->level[i] = -1;
	g->level[s] = 0;
	g->queue[qt++] = s;
	while (qh < qt) {
		uint32_t u = g->queue[qh++];

		if (g->level[t] >= 0 && g->level[u] >= g->level[t])
			break; /* nothing beyond the sink's level is used */
		for (int32_t e = g->head[u]; e >= 0; e = g->next[e]) {
			uint32_t v = g->to[e];

			if (g->cap[e] > 0 && g->level[v] < 0) {
				g->level[v] = g->level[u] + 1;
				g->queue[qt++] = v;
			}
		}
	}
	return g->level[t] >= 0;
}

static int64_t dfs(struct graph *g, uint32_t u, uint32_t t, int64_t f)
{
	if (u == t)
		return f;
	for (; g->iter[u] >= 0; g->iter[u] = g->next[g->iter[u]]) {
		int32_t e = g->iter[u];
		uint32_t v = g->to[e];

		if (g->cap[e] > 0 && g->level[v] == g->level[u] + 1) {
			int64_t d = dfs(g, v, t, f < g->cap[e] ? f : g->cap[e]);

			if (d > 0) {
				g->cap[e] -= d;
				g->cap[e ^ 1] += d;
				return d;
			}
		}
	}
	return 0;
}

/* Push up to `want` from s to t; returns what was pushed. */
static int64_t augment(struct graph *g, uint32_t s, uint32_t t, int64_t want,
		       uint64_t *naug)
{
	int64_t total = 0;

	while (total < want && bfs(g, s, t)) {
		int64_t d;

		for (uint32_t i = 0; i < g->nnodes; i++)
			g->iter[i] = g->head[i];
		while (total < want && (d = dfs(g, s, t, want - total)) > 0) {
			total += d;
			(*naug)++;
		}
	}
	return total;
}

/* Integral of resource r's units from -inf-anchored t[0] to x. */
static double integral_to(const struct dl_oracle_capacity *c,
			  const double *prefix, uint32_t r, double x)
{
	const double *u = c->units + (size_t) r * c->nsteps;
	uint32_t lo = 0, hi = c->nsteps;

	if (x <= c->t[0])
		return (u[0] > 0 ? u[0] : 0) * (x - c->t[0]);
	while (hi - lo > 1) { /* last k with t[k] <= x */
		uint32_t mid = (lo + hi) / 2;

		if (c->t[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return prefix[(size_t) r * c->nsteps + lo] +
	       (u[lo] > 0 ? u[lo] : 0) * (x - c->t[lo]);
}

/* Units of resource r at time x (the step holding x). */
static double units_at(const struct dl_oracle_capacity *c, uint32_t r, double x)
{
	const double *u = c->units + (size_t) r * c->nsteps;
	uint32_t lo = 0, hi = c->nsteps;

	if (x < c->t[0])
		return u[0] > 0 ? u[0] : 0;
	while (hi - lo > 1) { /* last k with t[k] <= x */
		uint32_t mid = (lo + hi) / 2;

		if (c->t[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return u[lo] > 0 ? u[lo] : 0;
}

struct incl {
	uint32_t job;   /* index into the caller's jobs */
	uint32_t node;  /* its node in the flow network */
	int64_t demand; /* W_j in milli-unit-seconds */
	double from[2], to[2];
	int64_t work[2];
	int64_t tasks[2]; /* the task-count relaxation: tasks x size */
	/* the compulsory part: every task runs over [mid_from, mid_to]
	 * (mid_work 0: the window is two shortest tasks long or more) */
	double mid_from[2], mid_to[2];
	int64_t mid_work[2];
};

static int cmp_demand(const void *a, const void *b)
{
	const struct incl *x = a, *y = b;

	if (x->demand != y->demand)
		return x->demand < y->demand ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

static bool bad(double x)
{
	return !isfinite(x) || x < 0;
}

static int check_input(const struct dl_oracle_job *jobs, uint32_t njobs,
		       const struct dl_oracle_capacity *cap, char *err,
		       size_t errlen)
{
	if ((njobs && !jobs) || !cap || !cap->nres ||
	    cap->nres > DL_ORACLE_MAX_RES || !cap->nsteps || !cap->t ||
	    !cap->units) {
		snprintf(err, err ? errlen : 0,
			 "oracle needs jobs, 1..%d resources and a capacity "
			 "series",
			 DL_ORACLE_MAX_RES);
		return EINVAL;
	}
	for (uint32_t k = 0; k < cap->nsteps; k++) {
		if (!isfinite(cap->t[k]) || (k && cap->t[k] <= cap->t[k - 1])) {
			snprintf(err, err ? errlen : 0,
				 "capacity breakpoints must be finite and "
				 "increasing (step %u)",
				 k);
			return EINVAL;
		}
		for (uint32_t r = 0; r < cap->nres; r++)
			if (!isfinite(
				    cap->units[(size_t) r * cap->nsteps + k])) {
				snprintf(err, err ? errlen : 0,
					 "capacity of resource %u at step %u "
					 "is not finite",
					 r, k);
				return EINVAL;
			}
	}
	for (uint32_t i = 0; i < njobs; i++) {
		const struct dl_oracle_job *j = &jobs[i];
		const struct dl_oracle_phase *ph[2] = {&j->map, &j->reduce};

		if (!isfinite(j->release) || !isfinite(j->deadline)) {
			snprintf(err, err ? errlen : 0,
				 "job %u: release and deadline must be finite",
				 i);
			return EINVAL;
		}
		if (isnan(j->map_end_lb) || isnan(j->end_lb)) {
			snprintf(err, err ? errlen : 0,
				 "job %u: a lower bound on its end is NaN", i);
			return EINVAL;
		}
		for (int p = 0; p < 2; p++)
			if (bad(ph[p]->work) || bad(ph[p]->width) ||
			    bad(ph[p]->longest) ||
			    (ph[p]->work > 0 && ph[p]->res >= cap->nres)) {
				snprintf(err, err ? errlen : 0,
					 "job %u: %s phase has a negative, NaN "
					 "or unknown-resource value",
					 i, p ? "reduce" : "map");
				return EINVAL;
			}
		if (!(j->map.work > 0) && !(j->reduce.work > 0) && j->counted) {
			snprintf(err, err ? errlen : 0, "job %u has no work",
				 i);
			return EINVAL;
		}
	}
	return 0;
}

enum fit { FITS, PATH_MISSES, ALONE_MISSES };

/* Windows of a job's phases, or why it cannot meet its deadline. */
static enum fit windows(const struct dl_oracle_job *j, struct incl *in)
{
	double lm = j->map.work > 0 ? j->map.longest : 0;
	double lr = j->reduce.work > 0 ? j->reduce.longest : 0;

	if (j->end_lb > j->deadline + 1e-6)
		return ALONE_MISSES;
	if (j->deadline - j->release < lm + lr)
		return PATH_MISSES;
	in->from[0] = j->release;
	in->to[0] = j->deadline - lr;
	/* the reduces start after the last map: no earlier than its bound */
	in->from[1] = j->release + lm > j->map_end_lb ? j->release + lm
						      : j->map_end_lb;
	in->to[1] = j->deadline;
	if (in->to[1] - in->from[1] < lr - 1e-6)
		return ALONE_MISSES;
	in->work[0] = (int64_t) floor(j->map.work * SCALE);
	in->work[1] = (int64_t) floor(j->reduce.work * SCALE);
	in->tasks[0] =
		j->map.work > 0 ? (int64_t) floor(j->map.width * SCALE) : 0;
	in->tasks[1] = j->reduce.work > 0
			       ? (int64_t) floor(j->reduce.width * SCALE)
			       : 0;
	in->demand = in->work[0] + in->work[1];
	for (int p = 0; p < 2; p++) {
		const struct dl_oracle_phase *ph = p ? &j->reduce : &j->map;
		double s = ph->shortest;

		in->mid_work[p] = 0;
		if (in->work[p] <= 0 || !(s > 0) ||
		    in->to[p] - in->from[p] >= 2 * s)
			continue;
		/* a task starts at or after `from` and ends by `to`, and is
		 * at least s long: it runs over [to - s, from + s] whole */
		in->mid_from[p] = in->to[p] - s;
		in->mid_to[p] = in->from[p] + s;
		in->mid_work[p] = (int64_t) floor(
			ph->width * (in->mid_to[p] - in->mid_from[p]) * SCALE);
		if (in->mid_work[p] > in->work[p])
			in->mid_work[p] = in->work[p];
	}
	return in->demand > 0 ? FITS : PATH_MISSES;
}

/* The task-count relaxation (oracle.h): offsets of the grid tried, and the
 * most phase-to-point edges one grid may take (finer grids are skipped: a
 * relaxation left out keeps the bound a bound). */
#define GRID_OFFSETS   8
#define GRID_MAX_EDGES 4000000

struct by_tasks {
	uint32_t x;     /* index into in[] */
	int64_t demand; /* tasks x size over both phases */
};

static int cmp_tasks(const void *a, const void *b)
{
	const struct by_tasks *x = a, *y = b;

	if (x->demand != y->demand)
		return x->demand < y->demand ? -1 : 1;
	return (x->x > y->x) - (x->x < y->x);
}

/* Points of the grid first + k * spacing (k < npoints) on which a task of
 * a phase with window [from, to) and shortest task `shortest` can fall:
 * [*k0, *k1).  Generous at the ends (a point more only loosens). */
static void grid_span(double from, double to, double shortest, double first,
		      double spacing, uint32_t npoints, uint32_t *k0,
		      uint32_t *k1)
{
	double a = ceil((from - first) / spacing - 1e-9);
	double b = ceil((to - shortest + spacing - first) / spacing + 1e-9);

	a = a < 0 ? 0 : (a > npoints ? npoints : a);
	b = b < a ? a : (b > npoints ? npoints : b);
	*k0 = (uint32_t) a;
	*k1 = (uint32_t) b;
}

/* One grid of the task-count relaxation: the floor of its LP optimum in
 * *bound.  A task started at s runs over the one point of [s, s + spacing)
 * (spacing <= every task's length), which lies in its phase's window, so
 * the sizes counted at a point are at most the units busy there. */
static int grid_bound(const struct dl_oracle_job *jobs, const struct incl *in,
		      uint32_t ni, const struct dl_oracle_capacity *cap,
		      double spacing, double first, uint32_t npoints,
		      struct by_tasks *order, uint64_t *naug, uint32_t *bound)
{
	uint32_t R = cap->nres, first_pt = 3 * ni, T = first_pt + npoints * R;
	struct graph g;
	double fraction = 0;
	int rc = ENOMEM;

	if (graph_init(&g, T + 1))
		goto out;
	for (uint32_t k = 0; k < npoints; k++)
		for (uint32_t r = 0; r < R; r++) {
			int64_t c = (int64_t) ceil(
				units_at(cap, r, first + k * spacing) * SCALE -
				1e-6);

			if (c > 0 && add_edge(&g, first_pt + k * R + r, T, c))
				goto out;
		}
	for (uint32_t x = 0; x < ni; x++) {
		const struct dl_oracle_job *j = &jobs[in[x].job];
		const struct dl_oracle_phase *ph[2] = {&j->map, &j->reduce};

		for (int p = 0; p < 2; p++) {
			uint32_t part = ni + 2 * x + p, k0, k1;

			if (in[x].tasks[p] <= 0)
				continue;
			if (add_edge(&g, x, part, in[x].tasks[p]))
				goto out;
			grid_span(in[x].from[p], in[x].to[p], ph[p]->shortest,
				  first, spacing, npoints, &k0, &k1);
			for (uint32_t k = k0; k < k1; k++)
				if (add_edge(&g, part,
					     first_pt + k * R + ph[p]->res,
					     in[x].tasks[p]))
					goto out;
		}
	}
	for (uint32_t i = 0; i < ni; i++) {
		uint32_t x = order[i].x;
		int64_t got;

		if (order[i].demand <= 0)
			continue;
		got = augment(&g, x, T, order[i].demand, naug);
		fraction += (double) got / (double) order[i].demand;
	}
	*bound = (uint32_t) floor(fraction + 1e-6);
	rc = 0;
out:
	graph_free(&g);
	return rc;
}

/* The least bound of the task-count relaxation over GRID_OFFSETS offsets
 * of its grid; UINT32_MAX when it does not apply (a phase's shortest task
 * unknown, or a grid too fine). */
static int task_count_bound(const struct dl_oracle_job *jobs,
			    const struct incl *in, uint32_t ni,
			    const struct dl_oracle_capacity *cap,
			    uint64_t *naug, uint32_t *bound)
{
	double spacing = INFINITY, lo = INFINITY, hi = -INFINITY, edges = 0;
	struct by_tasks *order;
	uint32_t npoints;

	*bound = UINT32_MAX;
	for (uint32_t x = 0; x < ni; x++) {
		const struct dl_oracle_job *j = &jobs[in[x].job];
		const struct dl_oracle_phase *ph[2] = {&j->map, &j->reduce};

		for (int p = 0; p < 2; p++) {
			if (in[x].tasks[p] <= 0)
				continue;
			if (!(ph[p]->shortest > 0))
				return 0;
			if (ph[p]->shortest < spacing)
				spacing = ph[p]->shortest;
			if (in[x].from[p] < lo)
				lo = in[x].from[p];
			if (in[x].to[p] > hi)
				hi = in[x].to[p];
		}
	}
	if (!ni || !isfinite(spacing))
		return 0;
	for (uint32_t x = 0; x < ni; x++)
		for (int p = 0; p < 2; p++)
			if (in[x].tasks[p] > 0)
				edges += (in[x].to[p] - in[x].from[p]) /
						 spacing +
					 2;
	if (edges > GRID_MAX_EDGES || (hi - lo) / spacing + 2 > GRID_MAX_EDGES)
		return 0;
	npoints = (uint32_t) ceil((hi - lo) / spacing) + 1;
	if (!(order = malloc(ni * sizeof(*order))))
		return ENOMEM;
	for (uint32_t x = 0; x < ni; x++) {
		order[x].x = x;
		order[x].demand = in[x].tasks[0] + in[x].tasks[1];
	}
	qsort(order, ni, sizeof(*order), cmp_tasks);
	for (int o = 0; o < GRID_OFFSETS; o++) {
		uint32_t b;
		int rc = grid_bound(jobs, in, ni, cap, spacing,
				    lo + spacing * o / GRID_OFFSETS, npoints,
				    order, naug, &b);

		if (rc) {
			free(order);
			return rc;
		}
		if (b < *bound)
			*bound = b;
	}
	free(order);
	return 0;
}

int dl_oracle_bound(const struct dl_oracle_job *jobs, uint32_t njobs,
		    const struct dl_oracle_capacity *cap,
		    struct dl_oracle_result *res, char *err, size_t errlen)
{
	struct graph g = {0};
	struct incl *in = NULL;
	double *bp = NULL, *prefix = NULL;
	uint32_t ni = 0, nbp = 0, K, R, T, first_part, first_mid, first_iv;
	int rc = ENOMEM;

	if (!res) {
		snprintf(err, err ? errlen : 0, "no result buffer");
		return EINVAL;
	}
	memset(res, 0, sizeof(*res));
	if (check_input(jobs, njobs, cap, err, errlen))
		return EINVAL;
	R = cap->nres;

	in = calloc(njobs ? njobs : 1, sizeof(*in));
	bp = malloc((8 * (size_t) njobs + 1) * sizeof(*bp));
	prefix = malloc((size_t) R * cap->nsteps * sizeof(*prefix));
	if (!in || !bp || !prefix)
		goto out;
	for (uint32_t i = 0; i < njobs; i++) {
		if (!jobs[i].counted)
			continue;
		res->counted++;
		in[ni].job = i;
		in[ni].node = ni;
		switch (windows(&jobs[i], &in[ni])) {
		case FITS:
			break;
		case ALONE_MISSES:
			res->impossible_alone++;
			/* fall through */
		case PATH_MISSES:
			res->impossible++;
			continue;
		}
		for (int p = 0; p < 2; p++)
			if (in[ni].work[p] > 0) {
				bp[nbp++] = in[ni].from[p];
				bp[nbp++] = in[ni].to[p];
				if (in[ni].mid_work[p] > 0) {
					bp[nbp++] = in[ni].mid_from[p];
					bp[nbp++] = in[ni].mid_to[p];
				}
			}
		ni++;
	}
	/* cumulative capacity at each step start, per resource */
	for (uint32_t r = 0; r < R; r++) {
		const double *u = cap->units + (size_t) r * cap->nsteps;
		double acc = 0;

		for (uint32_t k = 0; k < cap->nsteps; k++) {
			prefix[(size_t) r * cap->nsteps + k] = acc;
			if (k + 1 < cap->nsteps)
				acc += (u[k] > 0 ? u[k] : 0) *
				       (cap->t[k + 1] - cap->t[k]);
		}
	}
	dl_sort_doubles(bp, nbp);
	{
		uint32_t m = 0;

		for (uint32_t k = 0; k < nbp; k++)
			if (!m || bp[k] > bp[m - 1])
				bp[m++] = bp[k];
		nbp = m;
	}
	K = nbp > 1 ? nbp - 1 : 0;

	/* nodes: jobs, their two phases, (interval, resource), sink */
	first_part = ni;
	first_mid = first_part + 2 * ni;
	first_iv = first_mid + 2 * ni;
	T = first_iv + K * R;
	if (graph_init(&g, T + 1))
		goto out;
	for (uint32_t k = 0; k < K; k++)
		for (uint32_t r = 0; r < R; r++) {
			double c = integral_to(cap, prefix, r, bp[k + 1]) -
				   integral_to(cap, prefix, r, bp[k]);
			int64_t ci = (int64_t) ceil(c * SCALE - 1e-6);

			if (ci > 0 && add_edge(&g, first_iv + k * R + r, T, ci))
				goto out;
		}
	for (uint32_t x = 0; x < ni; x++) {
		const struct dl_oracle_job *j = &jobs[in[x].job];
		const struct dl_oracle_phase *ph[2] = {&j->map, &j->reduce};

		for (int p = 0; p < 2; p++) {
			uint32_t part = first_part + 2 * x + p, k;
			uint32_t mid = first_mid + 2 * x + p;
			int64_t mw = in[x].mid_work[p];

			if (in[x].work[p] <= 0)
				continue;
			if ((in[x].work[p] > mw &&
			     add_edge(&g, x, part, in[x].work[p] - mw)) ||
			    (mw > 0 && add_edge(&g, x, mid, mw)))
				goto out;
			/* first interval starting at the window's start */
			{
				uint32_t lo = 0, hi = nbp;

				while (lo < hi) {
					uint32_t m = (lo + hi) / 2;

					if (bp[m] < in[x].from[p])
						lo = m + 1;
					else
						hi = m;
				}
				k = lo;
			}
			for (; k < K && bp[k + 1] <= in[x].to[p]; k++) {
				double c = ph[p]->width * (bp[k + 1] - bp[k]) *
					   SCALE;
				int64_t ci = (int64_t) ceil(c - 1e-6);
				/* the compulsory part fills the phase's width
				 * there: the rest of its work goes around it */
				bool inside = mw > 0 &&
					      bp[k] >= in[x].mid_from[p] &&
					      bp[k + 1] <= in[x].mid_to[p];

				if (ci > 0 &&
				    add_edge(&g, inside ? mid : part,
					     first_iv + k * R + ph[p]->res, ci))
					goto out;
			}
		}
	}
	res->edges = g.nedges / 2;

	/* greedy: smallest demand first, each as far as it routes */
	qsort(in, ni, sizeof(*in), cmp_demand);
	for (uint32_t x = 0; x < ni; x++) {
		int64_t got = augment(&g, in[x].node, T, in[x].demand,
				      &res->augmentations);

		res->fraction += (double) got / (double) in[x].demand;
		res->routed += got >= in[x].demand;
	}
	res->fluid_bound = (uint32_t) floor(res->fraction + 1e-6);
	if (res->fluid_bound > res->counted - res->impossible)
		res->fluid_bound = res->counted - res->impossible;
	res->bound = res->fluid_bound;
	if ((rc = task_count_bound(jobs, in, ni, cap, &res->augmentations,
				   &res->task_bound)))
		goto out;
	if (res->task_bound < res->bound)
		res->bound = res->task_bound;
	rc = 0;
out:
	if (rc == ENOMEM)
		snprintf(err, err ? errlen : 0, "out of memory");
	graph_free(&g);
	free(in);
	free(bp);
	free(prefix);
	return rc;
}
