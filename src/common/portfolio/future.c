/*
 * future.c - a plan cycle's snapshot as the simulator's input.
 */
#include "common/portfolio/future.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/estimate.h"

/* z of the 90th percentile of a normal: p90 from a mean and a spread */
#define Z90 1.2815515655

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* CPUs of a view node that the plan's work may use */
static uint32_t free_cpus(const struct dl_node *dn)
{
	return dn->up && dn->cpus > dn->cpus_other ? dn->cpus - dn->cpus_other
						   : 0;
}

/* Where the snapshot saw work without a deadline waiting to start: the
 * future keeps it waiting all run long, as it keeps that work's running
 * tasks' CPUs held (cpus_other), so that triage's reserve decides in a
 * future as it does on the live cluster (policy/reserve.h).  The typed
 * view's partitions are the engine's, found by name. */
static uint64_t other_waiting_mask(const struct dl_cluster *cl)
{
	uint64_t mask = 0;

	for (uint32_t p = 0; p < cl->npartitions; p++) {
		const char *name = cl->partitions ? cl->partitions[p] : NULL;
		int bit = (int) p;

		if (!dl_partset_has(&cl->other_waiting, p))
			continue;
		if (cl->typed_slots)
			bit = !name                     ? -1
			      : !strcmp(name, "map")    ? 0
			      : !strcmp(name, "reduce") ? 1
							: -1;
		if (bit >= 0 && bit < SIM_MAX_PARTITIONS)
			mask |= UINT64_C(1) << bit;
	}
	return mask;
}

/* The simulator's typed view (model.h, typed_slots) back as its typed
 * cluster: node n with the map slots of view node 2n and the reduce slots
 * of 2n+1, one partition, slots handed out round robin as Hadoop's
 * heartbeats do. */
static int build_typed_cluster(const struct dl_cluster *cl,
			       struct sim_cluster_spec *cs)
{
	cs->mode = SIM_SLOTS_TYPED;
	cs->order = SIM_ORDER_ROUND_ROBIN;
	cs->nnodes = cl->nnodes / 2;
	cs->nodes = calloc(cs->nnodes ? cs->nnodes : 1, sizeof(*cs->nodes));
	cs->partitions[0] = strdup("batch");
	if (!cs->nodes || !cs->partitions[0])
		return ENOMEM;
	cs->npartitions = 1;
	for (uint32_t n = 0; n < cs->nnodes; n++) {
		struct sim_node_spec *sn = &cs->nodes[n];

		sn->name = dup_or_empty(cl->nodes[2 * n].name);
		if (!sn->name)
			return ENOMEM;
		sn->speed = 1;
		sn->pool = cl->nodes[2 * n].pool;
		sn->map_slots = free_cpus(&cl->nodes[2 * n]);
		sn->reduce_slots = free_cpus(&cl->nodes[2 * n + 1]);
		sn->partitions = 1;
	}
	return 0;
}

static int build_cluster(const struct dl_cluster *cl,
			 struct sim_cluster_spec *cs, char *err, size_t errlen)
{
	cs->other_waiting = other_waiting_mask(cl);
	if (cl->typed_slots)
		return build_typed_cluster(cl, cs);
	if (cl->npartitions > SIM_MAX_PARTITIONS) {
		snprintf(err, errlen,
			 "portfolio: %u partitions, the simulator models %u",
			 cl->npartitions, (unsigned) SIM_MAX_PARTITIONS);
		return EINVAL;
	}
	cs->mode = SIM_SLOTS_CPU;
	cs->order = SIM_ORDER_FIRST_FIT;
	cs->nodes = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(*cs->nodes));
	if (!cs->nodes)
		return ENOMEM;
	cs->nnodes = cl->nnodes;
	for (uint32_t p = 0; p < cl->npartitions; p++) {
		cs->partitions[p] = dup_or_empty(cl->partitions[p]);
		cs->npartitions = p + 1;
		if (!cs->partitions[p])
			return ENOMEM;
	}
	for (uint32_t n = 0; n < cl->nnodes; n++) {
		const struct dl_node *dn = &cl->nodes[n];
		struct sim_node_spec *sn = &cs->nodes[n];

		sn->name = dup_or_empty(dn->name);
		if (!sn->name)
			return ENOMEM;
		sn->speed = 1;
		sn->pool = dn->pool;
		if (dn->up && dn->cpus > dn->cpus_other) {
			sn->cpus = dn->cpus - dn->cpus_other;
			if (dn->mem)
				sn->mem = dn->mem > dn->mem_other
						  ? dn->mem - dn->mem_other
						  : 1;
		}
		for (uint32_t p = 0; p < cl->npartitions; p++)
			if (dl_partset_has(&dn->partitions, p))
				sn->partitions |= UINT64_C(1) << p;
	}
	return 0;
}

/* The cluster a round's candidates share.  A job a user or an admin holds
 * is in no plan (policy/policy.c) and so in no round, but its running
 * tasks keep their CPUs as long as the work without deadlines does (the
 * whole run: the simulator's nodes have what others leave); counted as
 * free, they were handed to the candidates, more to the wider ones. */
static int build_cluster_around_holds(const struct dl_policy_input *in,
				      struct sim_cluster_spec *cs, char *err,
				      size_t errlen)
{
	struct dl_cluster view;
	bool any = false;
	int rc = 0;

	for (uint32_t j = 0; j < in->njobs && !any; j++)
		any = dl_job_held(in->jobs[j]) &&
		      (in->jobs[j]->phase[DL_MAP].nrunning ||
		       in->jobs[j]->phase[DL_REDUCE].nrunning);
	if (!any)
		return build_cluster(in->cluster, cs, err, errlen);
	memset(&view, 0, sizeof(view));
	rc = dl_cluster_view(&view, in->cluster);
	for (uint32_t j = 0; !rc && j < in->njobs; j++)
		if (dl_job_held(in->jobs[j]))
			rc = dl_cluster_hold_running(&view, in->jobs[j]);
	if (!rc)
		rc = build_cluster(&view, cs, err, errlen);
	else
		snprintf(err, errlen,
			 "portfolio: a held job's running tasks: %s",
			 strerror(rc));
	dl_cluster_view_free(&view);
	return rc;
}

/* The length distribution and prior of a phase from its estimate. */
static void lengths(struct sim_phase_spec *sp, const struct dl_phase *ph,
		    double map_mean, double reduce_cost, double fallback_len)
{
	struct dl_mu mu = dl_phase_mu(ph);
	double mean = mu.mean, sd = mu.sd;

	if (!(mean > 0) && map_mean > 0)
		mean = map_mean * (reduce_cost > 0 ? reduce_cost : 1);
	if (!(mean > 0))
		mean = ph->time_limit > 0 ? ph->time_limit / 2 : fallback_len;
	if (!(sd > 0) && ph->prior_p90 > mean)
		sd = (ph->prior_p90 - mean) / Z90;
	if (sd > 0 && isfinite(sd)) {
		sp->len.kind = SIM_DIST_LOGNORMAL;
		sp->len.a = mean;
		sp->len.b = sd;
	} else {
		sim_dist_const(&sp->len, mean);
	}
	sp->len.min = SIM_MIN_LENGTH;
	/* a draw past the time limit is the fitted tail's, not the job's
	 * (its user set the limit above its longest task): it ends just
	 * inside the limit rather than as a task Slurm kills */
	sp->len.max = ph->time_limit > 2 * SIM_MIN_LENGTH
			      ? ph->time_limit - SIM_MIN_LENGTH
			      : INFINITY;
	sp->prior_mean = mean;
	sp->prior_p90 = sd > 0 && isfinite(sd) ? mean + Z90 * sd : mean;
}

/* The phase's tasks Slurm starts no earlier than their begin time, from
 * the snapshot's time mapped to origin: a round starts them no earlier
 * either, as triage's and edf's plan does not (policy/lookahead.h). */
static void begin_time(const struct dl_policy_input *in,
		       const struct dl_phase *ph, double origin,
		       struct sim_phase_spec *sp)
{
	uint32_t pending = dl_phase_pending(ph);

	if (!ph->deferred || !(ph->deferred_until > in->now) ||
	    !isfinite(ph->deferred_until))
		return;
	sp->deferred = ph->deferred < pending ? ph->deferred : pending;
	sp->begin = origin + (ph->deferred_until - in->now);
}

static int build_job(const struct dl_policy_input *in, const struct dl_job *dj,
		     int active, double origin, double fallback_len,
		     struct sim_job_spec *js)
{
	const struct dl_phase *ph = &dj->phase[active];
	struct sim_phase_spec *sp = &js->phase[0];
	double deadline = dl_job_deadline(dj);
	double reduce_cost =
		dj->reduce_cost > 0 ? dj->reduce_cost : in->cfg->reduce_cost;
	char name[32];
	uint32_t k = 0;

	/* the id names the job: the engine keys its draws by name */
	snprintf(name, sizeof(name), "%llu", (unsigned long long) dj->id);
	js->name = strdup(name);
	js->user = dup_or_empty(dj->user);
	js->account = dup_or_empty(dj->account);
	if (!js->name || !js->user || !js->account)
		return ENOMEM;
	js->partition = !in->cluster->typed_slots &&
					dj->partition < in->cluster->npartitions
				? dj->partition
				: 0;
	js->reduce_cost = dj->reduce_cost;
	js->arrival = origin;
	if (deadline > 0)
		js->deadline =
			origin +
			(deadline - in->now > 1e-3 ? deadline - in->now : 1e-3);
	sp->tasks = dl_phase_pending(ph) + ph->nrunning;
	sp->cpus = ph->cpus_per_task ? ph->cpus_per_task : 1;
	sp->mem = ph->mem_per_task;
	sp->time_limit = ph->time_limit;
	sp->max_running = ph->max_running;
	lengths(sp, ph, 0, 1, fallback_len);
	sp->running_node = calloc(ph->nrunning ? ph->nrunning : 1,
				  sizeof(*sp->running_node));
	sp->running_elapsed = calloc(ph->nrunning ? ph->nrunning : 1,
				     sizeof(*sp->running_elapsed));
	if (!sp->running_node || !sp->running_elapsed)
		return ENOMEM;
	for (uint32_t r = 0; r < ph->nrunning; r++) {
		const struct dl_running_task *rt = &ph->running[r];

		/* a task on no known node is counted as pending */
		if (rt->node >= in->cluster->nnodes)
			continue;
		/* typed: a view node's pair is the simulated node */
		sp->running_node[k] =
			in->cluster->typed_slots ? rt->node / 2 : rt->node;
		sp->running_elapsed[k] =
			in->now > rt->start ? in->now - rt->start : 0;
		k++;
	}
	sp->nrunning = k;
	begin_time(in, ph, origin, sp);
	if (active == DL_MAP && dj->phase[DL_REDUCE].tasks) {
		const struct dl_phase *rp = &dj->phase[DL_REDUCE];
		struct sim_phase_spec *sr = &js->phase[1];

		sr->tasks = dl_phase_pending(rp) + rp->nrunning;
		sr->cpus = rp->cpus_per_task ? rp->cpus_per_task : 1;
		sr->mem = rp->mem_per_task;
		sr->time_limit = rp->time_limit;
		sr->max_running = rp->max_running;
		lengths(sr, rp, sp->prior_mean, reduce_cost, fallback_len);
		begin_time(in, rp, origin, sr);
	}
	return 0;
}

int dl_pf_job_shape(const struct dl_policy_input *in, const struct dl_job *dj,
		    double fallback_len, struct sim_job_spec *js)
{
	double deadline, reduce_cost;

	memset(js, 0, sizeof(*js));
	if (!in || !in->cfg || !in->cluster || !dj)
		return EINVAL;
	deadline = dl_job_deadline(dj);
	reduce_cost =
		dj->reduce_cost > 0 ? dj->reduce_cost : in->cfg->reduce_cost;
	js->name = dup_or_empty(dj->name);
	js->user = dup_or_empty(dj->user);
	js->account = dup_or_empty(dj->account);
	if (!js->name || !js->user || !js->account)
		return ENOMEM;
	js->partition = !in->cluster->typed_slots &&
					dj->partition < in->cluster->npartitions
				? dj->partition
				: 0;
	js->reduce_cost = dj->reduce_cost;
	js->arrival =
		isfinite(dj->submit) && dj->submit > 0 && dj->submit <= in->now
			? dj->submit
			: in->now;
	js->deadline = deadline > js->arrival ? deadline : 0;
	for (int p = 0; p < DL_PHASES && p < 2; p++) {
		const struct dl_phase *ph = &dj->phase[p];
		struct sim_phase_spec *sp = &js->phase[p];

		sp->tasks = ph->tasks;
		sp->cpus = ph->cpus_per_task ? ph->cpus_per_task : 1;
		sp->mem = ph->mem_per_task;
		sp->time_limit = ph->time_limit;
		lengths(sp, ph, p ? js->phase[0].prior_mean : 0,
			p ? reduce_cost : 1, fallback_len);
	}
	return js->phase[0].tasks ? 0 : EINVAL;
}

int dl_pf_future(const struct dl_policy_input *in, double fallback_len,
		 struct sim_cluster_spec *cs, struct sim_workload_spec *ws,
		 char *err, size_t errlen)
{
	return dl_pf_future_at(in, fallback_len, cs, ws, NULL, err, errlen);
}

int dl_pf_future_at(const struct dl_policy_input *in, double fallback_len,
		    struct sim_cluster_spec *cs, struct sim_workload_spec *ws,
		    double *origin_out, char *err, size_t errlen)
{
	double origin = 0;
	int rc;

	if (cs)
		memset(cs, 0, sizeof(*cs));
	if (ws)
		memset(ws, 0, sizeof(*ws));
	if (!in || !in->cluster || !in->cfg || (in->njobs && !in->jobs) ||
	    !cs || !ws || !isfinite(in->now) || !(fallback_len > 0)) {
		snprintf(err, errlen, "portfolio: incomplete snapshot");
		return EINVAL;
	}
	/* the run's clock starts at 0 and times are never negative: now is
	 * the oldest running task's elapsed time (whole seconds) */
	for (uint32_t j = 0; j < in->njobs; j++)
		for (int p = 0; in->jobs[j] && p < DL_PHASES; p++)
			for (uint32_t r = 0; r < in->jobs[j]->phase[p].nrunning;
			     r++) {
				double el =
					in->now -
					in->jobs[j]->phase[p].running[r].start;

				if (isfinite(el) && el > origin)
					origin = ceil(el);
			}
	rc = build_cluster_around_holds(in, cs, err, errlen);
	if (rc)
		goto fail;
	ws->jobs = calloc(in->njobs ? in->njobs : 1, sizeof(*ws->jobs));
	rc = ENOMEM;
	if (!ws->jobs)
		goto fail;
	for (uint32_t j = 0; j < in->njobs; j++) {
		const struct dl_job *dj = in->jobs[j];
		int active = dj ? dl_job_active_phase(dj) : -1;

		if (active < 0 || !(dl_phase_pending(&dj->phase[active]) +
				    dj->phase[active].nrunning))
			continue;
		/* held by a user or an admin: in no policy's plan
		 * (policy/policy.c), so in no round's either; its running
		 * tasks hold their CPUs (build_cluster_around_holds) */
		if (dl_job_held(dj))
			continue;
		rc = build_job(in, dj, active, origin, fallback_len,
			       &ws->jobs[ws->njobs++]);
		if (rc)
			goto fail;
	}
	if (origin_out)
		*origin_out = origin;
	return 0;
fail:
	if (rc == ENOMEM)
		snprintf(err, errlen, "portfolio: out of memory");
	sim_workload_spec_free(ws);
	sim_cluster_spec_free(cs);
	return rc;
}
