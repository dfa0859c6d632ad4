/*
 * spec.c - the simulator's inputs in memory: their lifetime and the
 * external load series' value over time.  Parsing and writing the JSON
 * documents is deadline-sim's (src/sim/spec.c).
 */
#include "common/simulate/spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- series */

void sim_series_free(struct sim_series *s)
{
	if (!s)
		return;
	free(s->values);
	memset(s, 0, sizeof(*s));
}

double sim_series_at(const struct sim_series *s, double t)
{
	double k;
	uint64_t i;

	if (!s || !s->n)
		return 0;
	k = floor((t - s->start) / s->step);
	if (!s->repeat) {
		if (k < 0 || k >= s->n)
			return 0;
		return s->values[(uint64_t) k];
	}
	k = fmod(k, (double) s->n);
	if (k < 0)
		k += s->n;
	i = (uint64_t) k;
	return s->values[i < s->n ? i : s->n - 1];
}

double sim_series_next_change(const struct sim_series *s, double t)
{
	double k;

	if (!s || !s->n)
		return INFINITY;
	k = floor((t - s->start) / s->step) + 1;
	if (!s->repeat) {
		if (k < 0)
			return s->start;
		if (k > s->n)
			return INFINITY;
	}
	return s->start + k * s->step;
}

/* ------------------------------------------------------------------ jobs */

double sim_job_release(const struct sim_job_spec *j)
{
	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->phase[p];

		if (!ph->tasks)
			continue;
		/* a task that may start at once, or runs already */
		if (ph->nrunning || ph->deferred < ph->tasks ||
		    !(ph->begin > j->arrival))
			return j->arrival;
		return ph->begin;
	}
	return j->arrival;
}

/* --------------------------------------------------------------- cluster */

void sim_cluster_spec_free(struct sim_cluster_spec *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nnodes; i++)
		free(c->nodes[i].name);
	free(c->nodes);
	for (uint32_t i = 0; i < c->npartitions; i++)
		free(c->partitions[i]);
	sim_series_free(&c->ext);
	if (c->task_overhead_dist) {
		sim_dist_free(c->task_overhead_dist);
		free(c->task_overhead_dist);
	}
	memset(c, 0, sizeof(*c));
}

/* -------------------------------------------------------------- workload */

void sim_job_spec_free(struct sim_job_spec *j)
{
	if (!j)
		return;
	free(j->name);
	free(j->user);
	free(j->account);
	for (int p = 0; p < 2; p++) {
		sim_dist_free(&j->phase[p].len);
		free(j->phase[p].lengths);
		free(j->phase[p].running_node);
		free(j->phase[p].running_elapsed);
	}
	memset(j, 0, sizeof(*j));
}

void sim_workload_spec_free(struct sim_workload_spec *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->njobs; i++)
		sim_job_spec_free(&w->jobs[i]);
	free(w->jobs);
	free(w->description);
	memset(w, 0, sizeof(*w));
}
