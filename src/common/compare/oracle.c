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

void dl_oracle_capacity_prefix(const struct dl_oracle_capacity *c,
			       double *prefix)
{
	for (uint32_t r = 0; r < c->nres; r++) {
		const double *u = c->units + (size_t) r * c->nsteps;
		double acc = 0;

		for (uint32_t k = 0; k < c->nsteps; k++) {
			prefix[(size_t) r * c->nsteps + k] = acc;
			if (k + 1 < c->nsteps)
				acc += (u[k] > 0 ? u[k] : 0) *
				       (c->t[k + 1] - c->t[k]);
		}
	}
}

double dl_oracle_integral_to(const struct dl_oracle_capacity *c,
			     const double *prefix, uint32_t r, double x)
{
	const double *u = c->units + (size_t) r * c->nsteps;
	uint32_t lo = dl_last_at_or_before(c->t, c->nsteps, x);

	if (x <= c->t[0])
		return (u[0] > 0 ? u[0] : 0) * (x - c->t[0]);
	return prefix[(size_t) r * c->nsteps + lo] +
	       (u[lo] > 0 ? u[lo] : 0) * (x - c->t[lo]);
}

double dl_oracle_units_at(const struct dl_oracle_capacity *c, uint32_t r,
			  double x)
{
	const double *u = c->units + (size_t) r * c->nsteps;
	uint32_t k = dl_last_at_or_before(c->t, c->nsteps, x);

	return u[k] > 0 ? u[k] : 0;
}

struct incl {
	uint32_t job; /* index into the caller's jobs */
	double from[2], to[2];
	int64_t work[2];  /* the fluid relaxation: work in milli-unit-s */
	int64_t tasks[2]; /* the task-count relaxation: tasks x size */
	/* the compulsory part: every task runs over [mid_from, mid_to]
	 * (mid_work 0: the window is two shortest tasks long or more) */
	double mid_from[2], mid_to[2];
	int64_t mid_work[2];
};

/* Which relaxation a flow network is built for. */
struct relax {
	bool tasks;     /* the task-count grid, else the fluid */
	double spacing; /* the grid: first + k * spacing, k < npoints */
	double first;
	uint32_t npoints;
	const double *prefix; /* the fluid: cumulative capacity per step */
};

/* A job's demand in the relaxation (0: nothing to route). */
static int64_t demand_of(const struct relax *rx, const struct incl *in)
{
	return rx->tasks ? in->tasks[0] + in->tasks[1]
			 : in->work[0] + in->work[1];
}

/* Order of the greedy: smallest demand first, then the caller's order. */
struct demand_key {
	int64_t demand;
	uint32_t job, x;
};

static int cmp_demand(const void *a, const void *b)
{
	const struct demand_key *x = a, *y = b;

	if (x->demand != y->demand)
		return x->demand < y->demand ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* The greedy's order of in[0..n); the LP optimum needs it, so no
 * fallback. */
static int greedy_order(const struct relax *rx, const struct incl *in,
			uint32_t n, uint32_t *order)
{
	struct demand_key *k = malloc((n ? n : 1) * sizeof(*k));

	if (!k)
		return ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		k[i].demand = demand_of(rx, &in[i]);
		k[i].job = in[i].job;
		k[i].x = i;
	}
	qsort(k, n, sizeof(*k), cmp_demand);
	for (uint32_t i = 0; i < n; i++)
		order[i] = k[i].x;
	free(k);
	return 0;
}

static bool bad(double x)
{
	return !isfinite(x) || x < 0;
}

int dl_oracle_check_input(const struct dl_oracle_job *jobs, uint32_t njobs,
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
	return in->work[0] + in->work[1] > 0 ? FITS : PATH_MISSES;
}

/* The task-count relaxation (oracle.h): offsets of the grid tried, and the
 * most phase-to-point edges one grid may take (finer grids are skipped: a
 * relaxation left out keeps the bound a bound). */
#define GRID_OFFSETS   8
#define GRID_MAX_EDGES 4000000

/* Points of the grid on which a task of a phase with window [from, to)
 * and shortest task `shortest` can fall: [*k0, *k1).  Generous at the
 * ends (a point more only loosens). */
static void grid_span(const struct relax *rx, double from, double to,
		      double shortest, uint32_t *k0, uint32_t *k1)
{
	double a = ceil((from - rx->first) / rx->spacing - 1e-9);
	double b = ceil(
		(to - shortest + rx->spacing - rx->first) / rx->spacing + 1e-9);
	double n = rx->npoints;

	a = a < 0 ? 0 : (a > n ? n : a);
	b = b < a ? a : (b > n ? n : b);
	*k0 = (uint32_t) a;
	*k1 = (uint32_t) b;
}

/* Sorted, distinct window ends (and compulsory parts) of in[0..n): the
 * fluid's intervals.  Returns their number. */
static uint32_t breakpoints(const struct incl *in, uint32_t n, double *bp)
{
	uint32_t nbp = 0, m = 0;

	for (uint32_t x = 0; x < n; x++)
		for (int p = 0; p < 2; p++)
			if (in[x].work[p] > 0) {
				bp[nbp++] = in[x].from[p];
				bp[nbp++] = in[x].to[p];
				if (in[x].mid_work[p] > 0) {
					bp[nbp++] = in[x].mid_from[p];
					bp[nbp++] = in[x].mid_to[p];
				}
			}
	dl_sort_doubles(bp, nbp);
	for (uint32_t k = 0; k < nbp; k++)
		if (!m || bp[k] > bp[m - 1])
			bp[m++] = bp[k];
	return m;
}

/* The fluid's edges of job node x: its phases (and compulsory parts) to
 * the intervals of their windows. */
static int fluid_edges(struct graph *g, const struct dl_oracle_job *j,
		       const struct incl *in, uint32_t x, uint32_t n,
		       const double *bp, uint32_t nbp, uint32_t R)
{
	const struct dl_oracle_phase *ph[2] = {&j->map, &j->reduce};
	uint32_t K = nbp > 1 ? nbp - 1 : 0, first_iv = 5 * n;

	for (int p = 0; p < 2; p++) {
		uint32_t part = n + 2 * x + p, mid = 3 * n + 2 * x + p, k;
		int64_t mw = in->mid_work[p];

		if (in->work[p] <= 0)
			continue;
		if ((in->work[p] > mw &&
		     add_edge(g, x, part, in->work[p] - mw)) ||
		    (mw > 0 && add_edge(g, x, mid, mw)))
			return ENOMEM;
		{ /* first interval starting at the window's start */
			uint32_t lo = 0, hi = nbp;

			while (lo < hi) {
				uint32_t m = (lo + hi) / 2;

				if (bp[m] < in->from[p])
					lo = m + 1;
				else
					hi = m;
			}
			k = lo;
		}
		for (; k < K && bp[k + 1] <= in->to[p]; k++) {
			int64_t ci = (int64_t) ceil(
				ph[p]->width * (bp[k + 1] - bp[k]) * SCALE -
				1e-6);
			/* the compulsory part fills the phase's width there:
			 * the rest of its work goes around it */
			bool inside = mw > 0 && bp[k] >= in->mid_from[p] &&
				      bp[k + 1] <= in->mid_to[p];

			if (ci > 0 &&
			    add_edge(g, inside ? mid : part,
				     first_iv + k * R + ph[p]->res, ci))
				return ENOMEM;
		}
	}
	return 0;
}

/* The task-count relaxation's edges of job node x: its phases to the grid
 * points their tasks can fall on.  A task started at s runs over the one
 * point of [s, s + spacing) (spacing <= every task's length), which lies
 * in its phase's window, so the sizes counted at a point are at most the
 * units busy there. */
static int grid_edges(struct graph *g, const struct relax *rx,
		      const struct dl_oracle_job *j, const struct incl *in,
		      uint32_t x, uint32_t n, uint32_t R)
{
	const struct dl_oracle_phase *ph[2] = {&j->map, &j->reduce};

	for (int p = 0; p < 2; p++) {
		uint32_t part = n + 2 * x + p, k0, k1;

		if (in->tasks[p] <= 0)
			continue;
		if (add_edge(g, x, part, in->tasks[p]))
			return ENOMEM;
		grid_span(rx, in->from[p], in->to[p], ph[p]->shortest, &k0,
			  &k1);
		for (uint32_t k = k0; k < k1; k++)
			if (add_edge(g, part, 5 * n + k * R + ph[p]->res,
				     in->tasks[p]))
				return ENOMEM;
	}
	return 0;
}

/* The relaxation rx of the jobs in[0..n) (in[x] is job node x): the
 * network after the greedy in *g (the caller frees it; sink *sink), each
 * job's routed demand in got[x] and the LP optimum in *fraction.
 * Nodes: jobs, their two phases, two compulsory parts, (interval or grid
 * point, resource), sink. */
static int solve(const struct dl_oracle_job *jobs, const struct incl *in,
		 uint32_t n, const struct dl_oracle_capacity *cap,
		 const struct relax *rx, struct graph *g, uint32_t *sink,
		 int64_t *got, double *fraction, uint64_t *naug,
		 uint64_t *edges)
{
	uint32_t R = cap->nres, nbp = 0, K, T;
	uint32_t *order = malloc((n ? n : 1) * sizeof(*order));
	double *bp =
		rx->tasks ? NULL : malloc((8 * (size_t) n + 1) * sizeof(*bp));
	int rc = ENOMEM;

	memset(g, 0, sizeof(*g));
	*fraction = 0;
	if (!order || (!rx->tasks && !bp))
		goto out;
	if (rx->tasks) {
		K = rx->npoints;
	} else {
		nbp = breakpoints(in, n, bp);
		K = nbp > 1 ? nbp - 1 : 0;
	}
	T = 5 * n + K * R;
	*sink = T;
	if (graph_init(g, T + 1))
		goto out;
	for (uint32_t k = 0; k < K; k++)
		for (uint32_t r = 0; r < R; r++) {
			double c =
				rx->tasks
					? dl_oracle_units_at(
						  cap, r,
						  rx->first + k * rx->spacing)
					: dl_oracle_integral_to(cap, rx->prefix,
								r, bp[k + 1]) -
						  dl_oracle_integral_to(
							  cap, rx->prefix, r,
							  bp[k]);
			int64_t ci = (int64_t) ceil(c * SCALE - 1e-6);

			if (ci > 0 && add_edge(g, 5 * n + k * R + r, T, ci))
				goto out;
		}
	for (uint32_t x = 0; x < n; x++)
		if (rx->tasks ? grid_edges(g, rx, &jobs[in[x].job], &in[x], x,
					   n, R)
			      : fluid_edges(g, &jobs[in[x].job], &in[x], x, n,
					    bp, nbp, R))
			goto out;
	if (edges)
		*edges = g->nedges / 2;
	/* greedy: smallest demand first, each as far as it routes */
	if (greedy_order(rx, in, n, order))
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = order[i];
		int64_t d = demand_of(rx, &in[x]);

		got[x] = d > 0 ? augment(g, x, T, d, naug) : 0;
		*fraction += d > 0 ? (double) got[x] / (double) d : 0;
	}
	rc = 0;
out:
	free(bp);
	free(order);
	return rc;
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* Whole jobs: the relaxation's bound on jobs that route whole together,
 * from its network after the greedy (g, got), at most floor(LP).  A job not
 * routed whole lies in a tight set: the jobs its node reaches in the
 * residual network (no augmenting path leaves it, so their routed demand
 * is their most routable demand rho).  Tight sets that meet are merged (a
 * union of tight sets is tight).  The jobs of a merged set G that a
 * schedule meets route whole together, so they are at most the number of
 * G's smallest demands that fit in rho(G), and at most the floor of G's
 * own LP; every other job counts one. */
static int whole_jobs(const struct dl_oracle_job *jobs, const struct incl *in,
		      uint32_t ni, const struct dl_oracle_capacity *cap,
		      const struct relax *rx, struct graph *g, uint32_t T,
		      const int64_t *got, uint64_t *naug, uint32_t *bound)
{
	uint32_t *parent = malloc((ni ? ni : 1) * sizeof(*parent));
	uint32_t *seen = calloc(g->nnodes, sizeof(*seen));
	uint32_t *members = malloc((ni ? ni : 1) * sizeof(*members));
	uint32_t *start = calloc((size_t) ni + 2, sizeof(*start));
	bool *partial = calloc(ni ? ni : 1, sizeof(*partial));
	int64_t *sub_got = malloc((ni ? ni : 1) * sizeof(*sub_got));
	int64_t *dem = malloc((ni ? ni : 1) * sizeof(*dem));
	struct incl *sub = malloc((ni ? ni : 1) * sizeof(*sub));
	uint32_t total = 0;
	int rc = ENOMEM;

	*bound = UINT32_MAX;
	if (!parent || !seen || !members || !start || !partial || !sub_got ||
	    !dem || !sub)
		goto out;
	for (uint32_t x = 0; x < ni; x++)
		parent[x] = x;
	for (uint32_t x = 0; x < ni; x++) {
		uint32_t qh = 0, qt = 0;

		if (got[x] >= demand_of(rx, &in[x]))
			continue;
		/* the residual reach of job node x (stamp x + 1) */
		seen[x] = x + 1;
		g->queue[qt++] = x;
		while (qh < qt) {
			uint32_t u = g->queue[qh++];

			if (u == T) { /* an augmenting path: not tight */
				rc = 0;
				goto out;
			}
			if (u < ni)
				parent[uf_find(parent, u)] = uf_find(parent, x);
			for (int32_t e = g->head[u]; e >= 0; e = g->next[e]) {
				uint32_t v = g->to[e];

				if (g->cap[e] > 0 && seen[v] != x + 1) {
					seen[v] = x + 1;
					g->queue[qt++] = v;
				}
			}
		}
	}
	for (uint32_t x = 0; x < ni; x++)
		if (got[x] < demand_of(rx, &in[x]))
			partial[uf_find(parent, x)] = true;
	/* members of each merged set, by root (a counting sort) */
	for (uint32_t x = 0; x < ni; x++) {
		uint32_t r = uf_find(parent, x);

		if (partial[r])
			start[r + 2]++;
		else
			total++; /* in no tight set: counts one */
	}
	for (uint32_t r = 0; r < ni; r++)
		start[r + 2] += start[r + 1];
	for (uint32_t x = 0; x < ni; x++) {
		uint32_t r = uf_find(parent, x);

		if (partial[r])
			members[start[r + 1]++] = x;
	}
	for (uint32_t r = 0; r < ni; r++) {
		uint32_t n = start[r + 1] - start[r], k = 0, st;
		int64_t rho = 0, sum = 0;
		double frac;
		struct graph sg;

		if (!n)
			continue;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t x = members[start[r] + i];

			sub[i] = in[x];
			dem[i] = demand_of(rx, &in[x]);
			rho += got[x];
		}
		qsort(dem, n, sizeof(*dem), cmp_i64);
		while (k < n && sum + dem[k] <= rho)
			sum += dem[k++];
		rc = solve(jobs, sub, n, cap, rx, &sg, &st, sub_got, &frac,
			   naug, NULL);
		graph_free(&sg);
		if (rc)
			goto out;
		rc = ENOMEM;
		if (floor(frac + 1e-6) < k)
			k = (uint32_t) floor(frac + 1e-6);
		total += k;
	}
	*bound = total;
	rc = 0;
out:
	free(parent);
	free(seen);
	free(members);
	free(start);
	free(partial);
	free(sub_got);
	free(dem);
	free(sub);
	return rc;
}

/* The bound of relaxation rx: the least of floor(LP) and whole_jobs; the
 * LP optimum and the jobs routed whole in *fraction and *routed. */
static int relax_bound(const struct dl_oracle_job *jobs, const struct incl *in,
		       uint32_t ni, const struct dl_oracle_capacity *cap,
		       const struct relax *rx, uint64_t *naug, uint64_t *edges,
		       double *fraction, uint32_t *routed, uint32_t *bound)
{
	struct graph g;
	int64_t *got = malloc((ni ? ni : 1) * sizeof(*got));
	uint32_t T, whole;
	int rc = ENOMEM;

	if (!got)
		return ENOMEM;
	if ((rc = solve(jobs, in, ni, cap, rx, &g, &T, got, fraction, naug,
			edges)) ||
	    (rc = whole_jobs(jobs, in, ni, cap, rx, &g, T, got, naug, &whole)))
		goto out;
	*routed = 0;
	for (uint32_t x = 0; x < ni; x++)
		*routed += got[x] >= demand_of(rx, &in[x]);
	*bound = (uint32_t) floor(*fraction + 1e-6);
	if (whole < *bound)
		*bound = whole;
out:
	graph_free(&g);
	free(got);
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
	struct relax rx = {.tasks = true};

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
	rx.spacing = spacing;
	rx.npoints = (uint32_t) ceil((hi - lo) / spacing) + 1;
	for (int o = 0; o < GRID_OFFSETS; o++) {
		double fraction;
		uint32_t b, routed;
		int rc;

		rx.first = lo + spacing * o / GRID_OFFSETS;
		if ((rc = relax_bound(jobs, in, ni, cap, &rx, naug, NULL,
				      &fraction, &routed, &b)))
			return rc;
		if (b < *bound)
			*bound = b;
	}
	return 0;
}

int dl_oracle_bound(const struct dl_oracle_job *jobs, uint32_t njobs,
		    const struct dl_oracle_capacity *cap,
		    struct dl_oracle_result *res, char *err, size_t errlen)
{
	struct incl *in = NULL;
	double *prefix = NULL;
	uint32_t ni = 0, R;
	int rc = ENOMEM;

	if (!res) {
		snprintf(err, err ? errlen : 0, "no result buffer");
		return EINVAL;
	}
	memset(res, 0, sizeof(*res));
	if (dl_oracle_check_input(jobs, njobs, cap, err, errlen))
		return EINVAL;
	R = cap->nres;

	in = calloc(njobs ? njobs : 1, sizeof(*in));
	prefix = malloc((size_t) R * cap->nsteps * sizeof(*prefix));
	if (!in || !prefix)
		goto out;
	for (uint32_t i = 0; i < njobs; i++) {
		if (!jobs[i].counted)
			continue;
		res->counted++;
		in[ni].job = i;
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
		ni++;
	}
	dl_oracle_capacity_prefix(cap, prefix);
	{
		struct relax rx = {.tasks = false, .prefix = prefix};

		if ((rc = relax_bound(jobs, in, ni, cap, &rx,
				      &res->augmentations, &res->edges,
				      &res->fraction, &res->routed,
				      &res->fluid_bound)))
			goto out;
	}
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
	free(in);
	free(prefix);
	return rc;
}
