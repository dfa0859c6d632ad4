/*
 * oracle_input.c - building the oracle's jobs and capacity series, and the
 * proven lower bound on each counted job's end alone on the cluster.
 */
#include "sim/oracle_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/compare/alone.h"
#include "common/compare/tardiness.h"

/* Share of node n the external load holds when it holds the share v of
 * the nodes, whole from the end of the list (the engine's apply_ext). */
static double held_share(uint32_t nnodes, uint32_t n, double v)
{
	double h = v * nnodes - (double) (nnodes - 1 - n);

	return h < 0 ? 0 : (h > 1 ? 1 : h);
}

/* Units each node offers per resource, and the capacity when the external
 * load holds the share v. */
static void capacity_at(const struct sim_engine *e, double v, double *units)
{
	bool typed = e->cs->mode == SIM_SLOTS_TYPED;

	units[0] = units[1] = 0;
	for (uint32_t n = 0; n < e->nnodes; n++) {
		const struct sim_node_spec *s = &e->cs->nodes[n];
		double a = 1 - held_share(e->nnodes, n, v);

		if (typed) {
			units[0] += floor(a * s->map_slots + 1e-6);
			units[1] += floor(a * s->reduce_slots + 1e-6);
		} else {
			units[0] += floor(a * s->cpus + 1e-6);
		}
	}
}

/* Tasks of job j's phase p that node n may hold at availability a: the
 * engine's fits() for tasks of one size (slot machines of alone.h). */
static uint32_t machines_on(const struct sim_engine *e, uint32_t n, double a,
			    const struct sim_job *j, int p)
{
	const struct sim_node_spec *nd = &e->cs->nodes[n];
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	double q;

	if (e->cs->mode == SIM_SLOTS_TYPED)
		return (uint32_t) floor(
			a * (p ? nd->reduce_slots : nd->map_slots) + 1e-6);
	if (!(nd->partitions & (UINT64_C(1) << j->spec->partition)))
		return 0;
	q = floor(floor(a * nd->cpus + 1e-6) / (ph->cpus ? ph->cpus : 1));
	if (nd->mem && ph->mem) {
		double m =
			floor((a * (double) nd->mem + 1e-6) / (double) ph->mem);

		q = m < q ? m : q;
	}
	if (nd->io > 0 && ph->io > 0) {
		double m = floor((a * nd->io + 1e-6) / ph->io);

		q = m < q ? m : q;
	}
	return q > 0 ? (uint32_t) q : 0;
}

/* The shortest length task i can take: fastest node, local read,
 * accelerated when it can be. */
static double best_length(const struct sim_job *j, int p, uint32_t i,
			  double fastest, double fastest_acc)
{
	double best = j->base[p][i] / fastest;

	if (p == DL_MAP && j->spec->remote_prob >= 1)
		best *= j->spec->remote_factor;
	if (p == DL_MAP && j->spec->accel_speedup > 0 && fastest_acc > 0) {
		double acc =
			j->base[p][i] / (fastest_acc * j->spec->accel_speedup);

		if (j->spec->remote_prob >= 1)
			acc *= j->spec->remote_factor;
		if (acc < best)
			best = acc;
	}
	return best;
}

/* The longest a task of the phase can hold its slot: its worst length
 * (slowest node, remote read, a slowing "accelerator"), at most its time
 * limit, where the engine kills it. */
static double longest_hold(const struct sim_job *j, int p, double slowest)
{
	double worst = 0;

	for (uint32_t i = 0; i < j->spec->phase[p].tasks; i++)
		if (j->base[p][i] > worst)
			worst = j->base[p][i];
	worst /= slowest;
	if (p == DL_MAP && j->spec->remote_prob > 0 &&
	    j->spec->remote_factor > 1)
		worst *= j->spec->remote_factor;
	if (p == DL_MAP && j->spec->accel_speedup > 0 &&
	    j->spec->accel_speedup < 1)
		worst /= j->spec->accel_speedup;
	return j->time_limit[p] > 0 && j->time_limit[p] < worst
		       ? j->time_limit[p]
		       : worst;
}

/* The time grid of the capacity series and the share held on each step. */
struct grid {
	uint32_t nsteps;
	double *t;
	double *v;
};

/* Share held on step k of the grid (k may be negative: before it). */
static double grid_share(const struct sim_series *ext, const struct grid *g,
			 double first, int64_t k)
{
	if (g->nsteps == 1)
		return 0;
	if (!ext->repeat && (k <= 0 || k >= (int64_t) g->nsteps - 1))
		return 0; /* before and after the series: no external load */
	return sim_series_at(ext,
			     first + (double) k * ext->step + ext->step / 2);
}

/* Resource r's units on each step of the grid when a task may hold its
 * slot for `hold` seconds after the external load took the node: the
 * capacity at the least share held over steps k - back .. k (a sliding
 * minimum).  A window longer than the grid counts the whole cluster:
 * looser, still a bound. */
static int hold_capacity(const struct sim_engine *e, const struct grid *g,
			 double first, double hold, uint32_t r, double *units)
{
	const struct sim_series *ext = &e->cs->ext;
	int64_t back = g->nsteps == 1 ? 0 : (int64_t) ceil(hold / ext->step);
	int64_t n, *dq, head = 0, tail = 0;
	double *v, u[2];

	if (back > (int64_t) g->nsteps) {
		capacity_at(e, 0, u);
		for (uint32_t k = 0; k < g->nsteps; k++)
			units[(size_t) r * g->nsteps + k] = u[r];
		return 0;
	}
	n = (int64_t) g->nsteps + back;
	v = malloc((size_t) n * sizeof(*v));
	dq = malloc((size_t) n * sizeof(*dq));
	if (!v || !dq) {
		free(v);
		free(dq);
		return ENOMEM;
	}
	for (int64_t i = 0; i < n; i++) {
		/* v[i] is step i - back */
		v[i] = i >= back ? g->v[i - back]
				 : grid_share(ext, g, first, i - back);
		while (tail > head && v[dq[tail - 1]] >= v[i])
			tail--;
		dq[tail++] = i;
		if (dq[head] < i - back)
			head++;
		if (i >= back) {
			capacity_at(e, v[dq[head]], u);
			units[(size_t) r * g->nsteps + (size_t) (i - back)] =
				u[r];
		}
	}
	free(v);
	free(dq);
	return 0;
}

/* Slot-machine supplies of the task shapes met so far (one per shape:
 * typed phase, or partition and task size). */
#define SHAPE_CACHE 32

struct shape {
	int phase;
	uint32_t partition, cpus;
	uint64_t mem;
	double io;
	struct dl_alone_supply s;
};

struct shapes {
	struct shape c[SHAPE_CACHE];
	uint32_t n;
	struct dl_alone_supply scratch; /* beyond the cache */
	uint32_t *count;
};

static bool same_shape(const struct sim_engine *e, const struct shape *s,
		       const struct sim_job *j, int p)
{
	const struct sim_phase_spec *ph = &j->spec->phase[p];

	if (e->cs->mode == SIM_SLOTS_TYPED)
		return s->phase == p;
	return s->partition == j->spec->partition && s->cpus == ph->cpus &&
	       s->mem == ph->mem && s->io == ph->io;
}

static int supply_of(const struct sim_engine *e, struct shapes *sh,
		     const struct grid *g, const struct sim_job *j, int p,
		     const struct dl_alone_supply **out)
{
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	struct dl_alone_supply *s;
	int rc;

	for (uint32_t i = 0; i < sh->n; i++)
		if (same_shape(e, &sh->c[i], j, p)) {
			*out = &sh->c[i].s;
			return 0;
		}
	for (uint32_t k = 0; k < g->nsteps; k++) {
		uint32_t c = 0;

		for (uint32_t n = 0; n < e->nnodes; n++)
			c += machines_on(e, n,
					 1 - held_share(e->nnodes, n, g->v[k]),
					 j, p);
		sh->count[k] = c;
	}
	if (sh->n < SHAPE_CACHE) {
		struct shape *c = &sh->c[sh->n];

		c->phase = p;
		c->partition = j->spec->partition;
		c->cpus = ph->cpus;
		c->mem = ph->mem;
		c->io = ph->io;
		s = &c->s;
	} else {
		dl_alone_supply_free(&sh->scratch);
		s = &sh->scratch;
	}
	if ((rc = dl_alone_supply_init(s, g->t, sh->count, g->nsteps)))
		return rc;
	if (s != &sh->scratch)
		sh->n++;
	*out = s;
	return 0;
}

/* The earliest job j could end alone (alone.h), its maps' end in map_end.
 * Tasks may start after the deadline, so a late job's bound is its end and
 * serves the lateness bound (tardiness.h); the oracle is the same either
 * way: a job that can meet its deadline alone starts every task before it,
 * and one that cannot has its bound past it. */
static int alone_bound(const struct sim_engine *e, struct shapes *sh,
		       const struct grid *g, const struct sim_job *j,
		       double fastest, double fastest_acc, double *buf,
		       double *map_end, double *end)
{
	double from = sim_job_release(j->spec); /* its begin time, if later */

	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->spec->phase[p];
		const struct dl_alone_supply *s;
		int rc;

		if (p == 1)
			*map_end = from;
		if (!ph->tasks)
			continue;
		if (!isfinite(from))
			break;
		for (uint32_t i = 0; i < ph->tasks; i++)
			buf[i] = best_length(j, p, i, fastest, fastest_acc);
		if ((rc = supply_of(e, sh, g, j, p, &s)) ||
		    (rc = dl_alone_phase_end(s, from, buf, ph->tasks,
					     ph->max_running, INFINITY, &from)))
			return rc;
	}
	*end = from;
	return 0;
}

static void shapes_free(struct shapes *sh)
{
	for (uint32_t i = 0; i < sh->n; i++)
		dl_alone_supply_free(&sh->c[i].s);
	dl_alone_supply_free(&sh->scratch);
	free(sh->count);
}

int sim_oracle(const struct sim_engine *e, struct dl_oracle_result *res,
	       double *tardiness_lb, char *err, size_t errlen)
{
	return sim_oracle_layers(e, res, tardiness_lb, NULL, err, errlen);
}

int sim_oracle_layers(const struct sim_engine *e, struct dl_oracle_result *res,
		      double *tardiness_lb, struct dl_tardiness_layers *layers,
		      char *err, size_t errlen)
{
	const struct sim_cluster_spec *cs = e->cs;
	const struct sim_series *ext = &cs->ext;
	bool typed = cs->mode == SIM_SLOTS_TYPED;
	struct dl_oracle_job *jobs;
	struct dl_oracle_capacity cap;
	struct grid g = {0};
	struct shapes *sh = NULL;
	double *units = NULL, *buf = NULL, lo = INFINITY, hi = -INFINITY;
	double fastest = 0, fastest_acc = 0, slowest = INFINITY;
	double hold[2] = {0, 0};
	uint32_t nres = typed ? 2 : 1, most_tasks = 1;
	int rc = ENOMEM;

	for (uint32_t n = 0; n < cs->nnodes; n++) {
		if (cs->nodes[n].speed > fastest)
			fastest = cs->nodes[n].speed;
		if (cs->nodes[n].speed < slowest)
			slowest = cs->nodes[n].speed;
		if (cs->nodes[n].pool == DL_POOL_ACCEL &&
		    cs->nodes[n].speed > fastest_acc)
			fastest_acc = cs->nodes[n].speed;
	}
	jobs = calloc(e->njobs ? e->njobs : 1, sizeof(*jobs));
	if (!jobs) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	for (uint32_t k = 0; k < e->njobs; k++) {
		const struct sim_job *j = &e->jobs[k];
		const struct sim_workload_spec *w = e->ws;
		struct dl_oracle_job *o = &jobs[k];

		o->release = sim_job_release(j->spec);
		o->deadline = j->deadline > 0 ? j->deadline : j->spec->arrival;
		/* released in the window: a job submitted before its begin
		 * time belongs where its work can be */
		o->counted = j->deadline > 0 &&
			     (!w->has_window || (o->release >= w->window[0] &&
						 o->release <= w->window[1]));
		for (int p = 0; p < 2; p++) {
			struct dl_oracle_phase *ph = p ? &o->reduce : &o->map;
			double size = sim_task_units(e, k, p);
			uint32_t r = typed ? (uint32_t) p : 0;
			double h;

			ph->res = r;
			/* no schedule runs more at once than the array's own
			 * %N allows (the engine holds every job to it) */
			ph->width = ((j->spec->phase[p].max_running &&
				      j->spec->phase[p].max_running <
					      j->spec->phase[p].tasks)
					     ? j->spec->phase[p].max_running
					     : j->spec->phase[p].tasks) *
				    size;
			for (uint32_t i = 0; i < j->spec->phase[p].tasks; i++) {
				double best = best_length(j, p, i, fastest,
							  fastest_acc);

				ph->work += best * size;
				if (best > ph->longest)
					ph->longest = best;
				if (!i || best < ph->shortest)
					ph->shortest = best;
			}
			if (j->spec->phase[p].tasks > most_tasks)
				most_tasks = j->spec->phase[p].tasks;
			h = j->spec->phase[p].tasks
				    ? longest_hold(j, p, slowest)
				    : 0;
			if (h > hold[r])
				hold[r] = h;
		}
		if (o->counted) {
			if (o->release < lo)
				lo = o->release;
			if (o->deadline > hi)
				hi = o->deadline;
		}
	}
	/* capacity steps covering the counted jobs' windows */
	if (!ext->n || !isfinite(lo)) {
		g.nsteps = 1;
	} else {
		double first = ext->start +
			       floor((lo - ext->start) / ext->step) * ext->step;
		double count = ceil((hi - first) / ext->step) + 1;

		if (!ext->repeat) {
			first = ext->start - ext->step;
			count = ext->n + 2;
		}
		if (count > 50000000) {
			snprintf(err, errlen,
				 "external load series too fine for the oracle "
				 "(%g steps)",
				 count);
			free(jobs);
			return EINVAL;
		}
		g.nsteps = (uint32_t) count;
		lo = first;
	}
	g.t = malloc(g.nsteps * sizeof(*g.t));
	g.v = malloc(g.nsteps * sizeof(*g.v));
	units = malloc((size_t) nres * g.nsteps * sizeof(*units));
	buf = malloc(most_tasks * sizeof(*buf));
	sh = calloc(1, sizeof(*sh));
	if (!g.t || !g.v || !units || !buf || !sh ||
	    !(sh->count = malloc(g.nsteps * sizeof(*sh->count))))
		goto out;
	for (uint32_t k = 0; k < g.nsteps; k++) {
		g.t[k] = g.nsteps == 1 ? 0 : lo + k * ext->step;
		g.v[k] = grid_share(ext, &g, lo, k);
	}
	/* A task that started while its node was available keeps running
	 * after the external load takes the node, so the units busy at t are
	 * at most those available at some time in [t - longest hold, t]:
	 * the least share held over the steps that window touches. */
	for (uint32_t r = 0; r < nres; r++)
		if ((rc = hold_capacity(e, &g, lo, hold[r], r, units)))
			goto out;
	/* the valid cut: the earliest each counted job could end alone */
	for (uint32_t k = 0; k < e->njobs; k++) {
		if (!jobs[k].counted)
			continue;
		rc = alone_bound(e, sh, &g, &e->jobs[k], fastest, fastest_acc,
				 buf, &jobs[k].map_end_lb, &jobs[k].end_lb);
		if (rc) {
			snprintf(err, errlen,
				 "oracle: job %u's bound alone: %s", k + 1,
				 strerror(rc));
			goto out;
		}
	}
	cap.nres = nres;
	cap.nsteps = g.nsteps;
	cap.t = g.t;
	cap.units = units;
	rc = dl_oracle_bound(jobs, e->njobs, &cap, res, err, errlen);
	if (!rc && tardiness_lb)
		rc = dl_tardiness_bound_layers(jobs, e->njobs, &cap,
					       tardiness_lb, layers, err,
					       errlen);
out:
	if (rc == ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (sh)
		shapes_free(sh);
	free(sh);
	free(g.t);
	free(g.v);
	free(units);
	free(buf);
	free(jobs);
	return rc;
}
