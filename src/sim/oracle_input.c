/*
 * oracle_input.c - building the oracle's jobs and capacity series.
 */
#include "sim/oracle_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Units each node offers per resource, and the capacity when the external
 * load holds the share v (whole nodes from the end of the list). */
static void capacity_at(const struct sim_engine *e, double v, double *units)
{
	double held = v * e->nnodes;
	bool typed = e->cs->mode == SIM_SLOTS_TYPED;

	units[0] = units[1] = 0;
	for (uint32_t n = 0; n < e->nnodes; n++) {
		const struct sim_node_spec *s = &e->cs->nodes[n];
		double h = held - (double) (e->nnodes - 1 - n);
		double a;

		h = h < 0 ? 0 : (h > 1 ? 1 : h);
		a = 1 - h;
		if (typed) {
			units[0] += floor(a * s->map_slots + 1e-6);
			units[1] += floor(a * s->reduce_slots + 1e-6);
		} else {
			units[0] += floor(a * s->cpus + 1e-6);
		}
	}
}

int sim_oracle(const struct sim_engine *e, struct dl_oracle_result *res,
	       char *err, size_t errlen)
{
	const struct sim_cluster_spec *cs = e->cs;
	const struct sim_series *ext = &cs->ext;
	bool typed = cs->mode == SIM_SLOTS_TYPED;
	struct dl_oracle_job *jobs;
	struct dl_oracle_capacity cap;
	double *t = NULL, *units = NULL, lo = INFINITY, hi = -INFINITY;
	double fastest = 0, fastest_acc = 0;
	uint32_t nsteps, nres = typed ? 2 : 1;
	int rc;

	for (uint32_t n = 0; n < cs->nnodes; n++) {
		if (cs->nodes[n].speed > fastest)
			fastest = cs->nodes[n].speed;
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

		o->release = j->spec->arrival;
		o->deadline = j->deadline > 0 ? j->deadline : j->spec->arrival;
		o->counted =
			j->deadline > 0 &&
			(!w->has_window || (j->spec->arrival >= w->window[0] &&
					    j->spec->arrival <= w->window[1]));
		for (int p = 0; p < 2; p++) {
			struct dl_oracle_phase *ph = p ? &o->reduce : &o->map;
			double size = sim_task_units(e, k, p);

			ph->res = typed ? (uint32_t) p : 0;
			ph->width = j->spec->phase[p].tasks * size;
			for (uint32_t i = 0; i < j->spec->phase[p].tasks; i++) {
				double best = j->base[p][i] / fastest;

				if (p == DL_MAP && j->spec->remote_prob >= 1)
					best *= j->spec->remote_factor;
				if (p == DL_MAP && j->spec->accel_speedup > 0 &&
				    fastest_acc > 0) {
					double acc = j->base[p][i] /
						     (fastest_acc *
						      j->spec->accel_speedup);

					if (j->spec->remote_prob >= 1)
						acc *= j->spec->remote_factor;
					if (acc < best)
						best = acc;
				}
				ph->work += best * size;
				if (best > ph->longest)
					ph->longest = best;
			}
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
		nsteps = 1;
	} else {
		double first = ext->start +
			       floor((lo - ext->start) / ext->step) * ext->step;
		double count = ceil((hi - first) / ext->step) + 1;

		if (!ext->repeat) {
			/* before and after the series: no external load */
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
		nsteps = (uint32_t) count;
		lo = first;
	}
	t = malloc(nsteps * sizeof(*t));
	units = malloc((size_t) nres * nsteps * sizeof(*units));
	if (!t || !units) {
		snprintf(err, errlen, "out of memory");
		free(t);
		free(units);
		free(jobs);
		return ENOMEM;
	}
	for (uint32_t k = 0; k < nsteps; k++) {
		double u[2], v;

		if (nsteps == 1) {
			t[k] = 0;
			v = 0;
		} else {
			t[k] = lo + k * ext->step;
			v = (!ext->repeat && (k == 0 || k == nsteps - 1))
				    ? 0
				    : sim_series_at(ext, t[k] + ext->step / 2);
		}
		capacity_at(e, v, u);
		for (uint32_t r = 0; r < nres; r++)
			units[(size_t) r * nsteps + k] = u[r];
	}
	cap.nres = nres;
	cap.nsteps = nsteps;
	cap.t = t;
	cap.units = units;
	rc = dl_oracle_bound(jobs, e->njobs, &cap, res, err, errlen);
	free(t);
	free(units);
	free(jobs);
	return rc;
}
