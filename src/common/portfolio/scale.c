/*
 * scale.c - a round's queue sampled onto the same share of the cluster.
 */
#include "common/portfolio/scale.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/simulate/rng.h"

static uint64_t job_tasks(const struct sim_job_spec *js)
{
	return (uint64_t) js->phase[0].tasks + js->phase[1].tasks;
}

static double phase_mean(const struct sim_phase_spec *ph)
{
	double sum = 0;

	if (!ph->tasks)
		return 0;
	if (!ph->lengths)
		return sim_dist_mean(&ph->len);
	for (uint32_t i = 0; i < ph->tasks; i++)
		sum += ph->lengths[i];
	return sum / ph->tasks;
}

/* CPU-seconds of the job's tasks (one CPU at least per task). */
static double job_work(const struct sim_job_spec *js)
{
	double w = 0;

	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &js->phase[p];

		w += (double) ph->tasks * phase_mean(ph) *
		     (ph->cpus ? ph->cpus : 1);
	}
	return w;
}

static bool node_serves(const struct sim_node_spec *n,
			const struct sim_job_spec *js)
{
	const struct sim_phase_spec *ph = &js->phase[0];

	return (n->partitions & (UINT64_C(1) << js->partition)) &&
	       n->cpus >= (ph->cpus ? ph->cpus : 1) &&
	       (!n->mem || !ph->mem || ph->mem <= n->mem);
}

/* The jobs in a seeded random order (Fisher-Yates). */
static uint32_t *shuffled(uint32_t n, uint64_t seed)
{
	uint32_t *o = malloc((n ? n : 1) * sizeof(*o));
	struct sim_rng r;

	if (!o)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		o[i] = i;
	sim_rng_init(&r, seed, 0x7363616c65ull /* "scale" */, 1, 0);
	for (uint32_t i = n; i > 1; i--) {
		uint32_t k = (uint32_t) sim_rng_int(&r, 0, i - 1), t = o[i - 1];

		o[i - 1] = o[k];
		o[k] = t;
	}
	return o;
}

/* Running tasks of a sampled job on the scaled cluster, in two passes
 * over every sampled job: first those on kept nodes (they hold their
 * node), then the others, each on the kept node of the job's partition
 * with the most CPUs free (lowest first; none: counted as pending).
 * free_cpus tracks what is left per kept node.  `in` is the job's phase in
 * the input; js's running arrays are its own (allocated in pass 0). */
static int remap_running(const struct sim_cluster_spec *cs,
			 const uint32_t *new_of, uint32_t nkept,
			 const uint32_t *kept, int64_t *free_cpus,
			 const struct sim_phase_spec *in,
			 struct sim_job_spec *js, int pass)
{
	struct sim_phase_spec *ph = &js->phase[0];
	int64_t cpus = in->cpus ? in->cpus : 1;

	if (!in->nrunning)
		return 0;
	if (pass == 0) {
		ph->nrunning = 0;
		ph->running_node = malloc(in->nrunning * sizeof(uint32_t));
		ph->running_elapsed = malloc(in->nrunning * sizeof(double));
		if (!ph->running_node || !ph->running_elapsed)
			return ENOMEM;
	}
	for (uint32_t r = 0; r < in->nrunning; r++) {
		uint32_t n = in->running_node[r], best = UINT32_MAX;

		if (n >= cs->nnodes)
			continue; /* counted as pending */
		if ((new_of[n] != UINT32_MAX) != (pass == 0))
			continue;
		if (pass == 0) {
			best = new_of[n];
		} else {
			for (uint32_t i = 0; i < nkept; i++)
				if (node_serves(&cs->nodes[kept[i]], js) &&
				    (best == UINT32_MAX ||
				     free_cpus[i] > free_cpus[best]))
					best = i;
			if (best == UINT32_MAX)
				continue;
		}
		free_cpus[best] -= cpus;
		ph->running_node[ph->nrunning] = best;
		ph->running_elapsed[ph->nrunning] = in->running_elapsed[r];
		ph->nrunning++;
	}
	return 0;
}

int dl_pf_scale(const struct sim_cluster_spec *cs,
		const struct sim_workload_spec *ws, uint64_t max_tasks,
		uint64_t seed, struct dl_pf_scaled *out, char *err,
		size_t errlen)
{
	uint32_t *order = NULL, *new_of = NULL, *kept = NULL, nkept = 0;
	uint32_t nsel = 0;
	bool *chosen = NULL;
	int64_t *free_cpus = NULL;
	double total = 0, sampled = 0, f, u;
	struct sim_rng r;
	int rc = ENOMEM;

	if (!out) {
		snprintf(err, errlen, "portfolio scale: missing argument");
		return EINVAL;
	}
	memset(out, 0, sizeof(*out));
	if (!cs || !ws || !cs->nnodes || (ws->njobs && !ws->jobs)) {
		snprintf(err, errlen,
			 "portfolio scale: needs a cluster and a queue");
		return EINVAL;
	}
	out->jobs_in = ws->njobs;
	out->nodes_in = cs->nnodes;
	for (uint32_t j = 0; j < ws->njobs; j++) {
		out->tasks_in += job_tasks(&ws->jobs[j]);
		total += job_work(&ws->jobs[j]);
	}
	/* typed (Hadoop) slots are deadline-sim's, never a live queue's */
	if (!max_tasks || out->tasks_in <= max_tasks || ws->njobs < 2 ||
	    !(total > 0) || cs->mode != SIM_SLOTS_CPU) {
		out->share = 1;
		out->tasks_out = out->tasks_in;
		return 0;
	}
	order = shuffled(ws->njobs, seed);
	chosen = calloc(ws->njobs, sizeof(*chosen));
	new_of = malloc(cs->nnodes * sizeof(*new_of));
	kept = malloc(cs->nnodes * sizeof(*kept));
	free_cpus = malloc(cs->nnodes * sizeof(*free_cpus));
	if (!order || !chosen || !new_of || !kept || !free_cpus)
		goto fail;
	/* arrays in random order until the sample holds max_tasks tasks */
	for (uint32_t i = 0; i < ws->njobs && out->tasks_out < max_tasks; i++) {
		const struct sim_job_spec *js = &ws->jobs[order[i]];

		chosen[order[i]] = true;
		nsel++;
		out->tasks_out += job_tasks(js);
		sampled += job_work(js);
	}
	f = sampled / total;
	if (f > 1)
		f = 1;
	out->share = f;
	/* f of the nodes, evenly spread over the list from a seeded offset */
	sim_rng_init(&r, seed, 0x7363616c65ull, 2, 0);
	u = sim_rng_unit(&r);
	for (uint32_t n = 0; n < cs->nnodes; n++) {
		bool keep = floor((n + 1) * f + u) > floor(n * f + u);

		new_of[n] = keep ? nkept : UINT32_MAX;
		if (keep)
			kept[nkept++] = n;
	}
	/* every sampled array can run somewhere */
	for (uint32_t j = 0; j < ws->njobs; j++) {
		bool served = false;

		if (!chosen[j])
			continue;
		for (uint32_t i = 0; i < nkept && !served; i++)
			served = node_serves(&cs->nodes[kept[i]], &ws->jobs[j]);
		for (uint32_t n = 0; n < cs->nnodes && !served; n++)
			if (new_of[n] == UINT32_MAX &&
			    node_serves(&cs->nodes[n], &ws->jobs[j])) {
				new_of[n] = nkept;
				kept[nkept++] = n;
				served = true;
			}
	}
	/* kept nodes in list order: renumber */
	nkept = 0;
	for (uint32_t n = 0; n < cs->nnodes; n++)
		if (new_of[n] != UINT32_MAX) {
			new_of[n] = nkept;
			kept[nkept++] = n;
		}
	out->cs = *cs;
	out->cs.nodes = malloc(nkept * sizeof(*out->cs.nodes));
	out->ws = *ws;
	out->ws.jobs = calloc(nsel, sizeof(*out->ws.jobs));
	out->ws.njobs = 0;
	if (!out->cs.nodes || !out->ws.jobs)
		goto fail;
	out->cs.nnodes = nkept;
	for (uint32_t i = 0; i < nkept; i++) {
		out->cs.nodes[i] = cs->nodes[kept[i]];
		free_cpus[i] = cs->nodes[kept[i]].cpus;
	}
	out->scaled = true;
	/* in queue order, so the engine sees them as the full run does */
	for (uint32_t j = 0; j < ws->njobs; j++) {
		struct sim_job_spec *js;

		if (!chosen[j])
			continue;
		js = &out->ws.jobs[out->ws.njobs++];
		*js = ws->jobs[j];
		for (int p = 0; p < 2; p++) {
			js->phase[p].nrunning = 0;
			js->phase[p].running_node = NULL;
			js->phase[p].running_elapsed = NULL;
		}
	}
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t j = 0, k = 0; j < ws->njobs; j++)
			if (chosen[j] &&
			    remap_running(cs, new_of, nkept, kept, free_cpus,
					  &ws->jobs[j].phase[0],
					  &out->ws.jobs[k++], pass))
				goto fail;
	rc = 0;
fail:
	if (rc) {
		snprintf(err, errlen, "portfolio scale: out of memory");
		dl_pf_scaled_free(out);
	}
	free(order);
	free(chosen);
	free(new_of);
	free(kept);
	free(free_cpus);
	return rc;
}

void dl_pf_scaled_free(struct dl_pf_scaled *s)
{
	if (!s)
		return;
	if (s->scaled || s->ws.jobs) {
		for (uint32_t j = 0; j < s->ws.njobs; j++) {
			free(s->ws.jobs[j].phase[0].running_node);
			free(s->ws.jobs[j].phase[0].running_elapsed);
		}
		free(s->ws.jobs);
		free(s->cs.nodes);
	}
	memset(s, 0, sizeof(*s));
}
