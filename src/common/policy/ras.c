/*
 * policy/ras.c - the plan cycle of the placement policies (ras, reverse):
 * Slurm-side model -> placement input -> Algorithm 1 -> plan.
 */
#include "common/policy/ras.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy/capacity.h"
#include "common/io/timefmt.h"
#include "common/estimate/estimate.h"
#include "common/estimate/goal.h"
#include "common/model/nodeset.h"
#include "common/policy/reverse.h"
#include "common/policy/utility.h"
#include "common/io/clock.h"

struct rjob {
	struct dl_job *job;
	struct dl_plan_job *out;
	struct dl_goal goal;
	const struct dl_phase *ph; /* active phase */
	bool managed, done;
	int pl;      /* index in the placement input, -1 none */
	double need; /* concurrency meeting the goal; +inf: all it has left
		      (goal passed, or no task length yet) */
	double reduce_slots;
	uint32_t *map_nodes, *reduce_nodes;
};

struct dl_demand dl_effective_demand(const struct dl_demand *profile,
				     double req_cpu, double req_mem)
{
	struct dl_demand d = {req_cpu, req_mem, 0};

	if (profile) {
		if (isfinite(profile->cpu) && profile->cpu > d.cpu)
			d.cpu = profile->cpu;
		if (isfinite(profile->mem) && profile->mem > d.mem)
			d.mem = profile->mem;
		if (isfinite(profile->io) && profile->io > 0)
			d.io = profile->io;
	}
	return d;
}

static int bad_demand(const struct dl_demand *d)
{
	return !isfinite(d->cpu) || d->cpu < 0 || !isfinite(d->mem) ||
	       d->mem < 0 || !isfinite(d->io) || d->io < 0;
}

static bool demand_empty(const struct dl_demand *d)
{
	return !(d->cpu > 0) && !(d->mem > 0) && !(d->io > 0);
}

static bool demand_valid(const struct dl_demand *d)
{
	return d && !bad_demand(d) && !demand_empty(d);
}

/* A learned quantity the history has no number for (NaN: no task of that
 * name reported it, e.g. io of records that carry only the Slurm request)
 * is "not given", as in a hint: 0, so the request sets cpu and mem and
 * the task is taken to do no I/O.  Infinite or negative stays invalid. */
static const struct dl_demand *known_part(const struct dl_demand *d,
					  struct dl_demand *buf)
{
	if (!d)
		return NULL;
	*buf = *d;
	if (isnan(buf->cpu))
		buf->cpu = 0;
	if (isnan(buf->mem))
		buf->mem = 0;
	if (isnan(buf->io))
		buf->io = 0;
	return buf;
}

int dl_profile_use_learned(struct dl_job *job, const struct dl_demand *map,
			   const struct dl_demand *reduce)
{
	struct dl_demand mbuf, rbuf;
	int used = 0;

	if (!job)
		return 0;
	map = known_part(map, &mbuf);
	reduce = known_part(reduce, &rbuf);
	/* a phase's hint is a non-empty demand (the SPANK option requires
	 * cpu > 0); an empty one means "no hint" */
	if (demand_valid(map) && demand_empty(&job->profile.map)) {
		job->profile.map = *map;
		used++;
	}
	if (demand_valid(reduce) && demand_empty(&job->profile.reduce)) {
		job->profile.reduce = *reduce;
		used++;
	}
	return used;
}

static void to_vec(const struct dl_demand *d, double v[DL_RESOURCES])
{
	v[DL_RES_CPU] = d->cpu;
	v[DL_RES_MEM] = d->mem;
	v[DL_RES_IO] = d->io;
}

static struct dl_demand from_vec(const double v[DL_RESOURCES])
{
	return (struct dl_demand){v[DL_RES_CPU], v[DL_RES_MEM], v[DL_RES_IO]};
}

/* ---- nodes ---- */

/* Raw capacity of a node in profile units (INFINITY = not constrained). */
static void node_raw(const struct dl_node *n, const struct dl_config *cfg,
		     double raw[DL_RESOURCES])
{
	double io = n->io > 0 ? n->io
			      : dl_node_io_lookup(cfg->node_io, n->name,
						  cfg->default_io);

	raw[DL_RES_CPU] = n->cpus;
	raw[DL_RES_MEM] = n->mem ? (double) n->mem : INFINITY;
	raw[DL_RES_IO] = io > 0 ? io : INFINITY;
}

/* The share of node i a forecast class's load `load` takes: a fraction of
 * every node, or with Share=nodes whole nodes from the end of the class's
 * node list (k = nodes after this one in the class), one of them partly. */
static double node_share(const struct dl_forecast *f, int c, double load,
			 uint32_t count, uint32_t k)
{
	double h;

	if (c < 0 || !dl_forecast_whole_nodes(f, (uint32_t) c))
		return load;
	h = load * count - k;
	return h < 0 ? 0 : (h > 1 ? 1 : h);
}

static int build_nodes(const struct dl_policy_input *in, enum dl_util_kind kind,
		       struct dl_pl_node *pn, struct dl_avail_node *an,
		       struct dl_plan_node *out)
{
	const struct dl_cluster *cl = in->cluster;
	const struct dl_forecast *f =
		kind == DL_UTIL_REVERSE ? in->forecast : NULL;
	double until = in->now + in->cfg->plan_interval;
	uint32_t count[DL_FORECAST_MAX_CLASSES] = {0};
	uint32_t *pos = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(*pos));

	if (!pos)
		return ENOMEM;
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		an[i].cls = dl_forecast_class_of(f, cl->nodes[i].name);
		if (an[i].cls >= 0 && an[i].cls < DL_FORECAST_MAX_CLASSES)
			pos[i] = count[an[i].cls]++;
	}
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		const struct dl_node *n = &cl->nodes[i];
		double raw[DL_RESOURCES], other[DL_RESOURCES];
		int c = an[i].cls;
		uint32_t k = c >= 0 ? count[c] - 1 - pos[i] : 0;

		node_raw(n, in->cfg, raw);
		other[DL_RES_CPU] = n->cpus_other;
		other[DL_RES_MEM] = (double) n->mem_other;
		other[DL_RES_IO] = 0;
		pn[i].partitions = &n->partitions;
		pn[i].usable = n->up && n->pool < DL_POOLS;
		an[i].usable = pn[i].usable;
		for (int r = 0; r < DL_RESOURCES; r++) {
			/* the forecast load over the coming cycle, at its
			 * highest, is off limits to tasks started now; it
			 * describes all load outside the plan, so what such
			 * jobs hold now is a floor, not an addition */
			double load =
				dl_forecast_load_max(f, c, r, in->now, until);
			double ext =
				isinf(raw[r])
					? 0
					: node_share(f, c, load,
						     count[c < 0 ? 0 : c], k) *
						  raw[r];

			an[i].cap[r] = raw[r];
			an[i].other[r] = isinf(raw[r]) ? 0 : other[r];
			pn[i].cap[r] =
				isinf(raw[r])
					? INFINITY
					: fmax(0, raw[r] - fmax(other[r], ext));
			out[i].cap[r] = pn[i].cap[r];
		}
		dl_plan_copy_str(out[i].name, sizeof(out[i].name), n->name);
	}
	free(pos);
	return 0;
}

/* ---- jobs ---- */

/* Does the map phase end within the coming cycle?  No map waits and every
 * running map is expected to finish before the next plan. */
static bool map_ends_this_cycle(const struct rjob *a,
				const struct dl_config *cfg, double now)
{
	const struct dl_phase *m = &a->job->phase[DL_MAP];
	double mu = a->goal.mu.mean;

	if (a->goal.phase_kind != DL_MAP || dl_phase_pending(m) || !(mu > 0))
		return false;
	for (uint32_t i = 0; i < m->nrunning; i++)
		if (dl_delta(mu, m->running[i].start, now, cfg->overdue_floor) >
		    cfg->plan_interval)
			return false;
	return true;
}

static uint32_t *running_nodes(const struct dl_phase *ph)
{
	uint32_t *v = malloc((ph->nrunning ? ph->nrunning : 1) * sizeof(*v));

	if (v)
		for (uint32_t i = 0; i < ph->nrunning; i++)
			v[i] = ph->running[i].node;
	return v;
}

static void prepare(struct rjob *a, struct dl_job *job, struct dl_plan_job *o,
		    const struct dl_capacity *cap,
		    const struct dl_policy_input *in)
{
	const struct dl_config *cfg = in->cfg;
	double now = in->now;

	a->job = job;
	a->out = o;
	a->pl = -1;
	o->utility = NAN;
	o->sfit = NAN;
	if (!dl_policy_prepare_job(o, job, cap, in, &a->goal,
				   &a->reduce_slots)) {
		a->done = true;
		return;
	}
	a->ph = &job->phase[a->goal.phase_kind];
	if (!(a->goal.job > 0)) {
		o->verdict = DL_VERDICT_ON_TRACK;
		o->cls = DL_CLASS_UNMANAGED;
		snprintf(o->explain, sizeof(o->explain),
			 "no deadline: left to Slurm's priority and backfill");
		return;
	}
	a->managed = true;
	if (a->goal.mu.source == DL_MU_NONE) {
		/* no task length yet: the goal may need every task at once,
		 * so until its first task completes the job needs all it has
		 * left, as a late job does (one slot to sample would cost a
		 * whole task length before it could widen; the targets give
		 * back what it does not need once its length is known) */
		a->need = INFINITY;
		o->cls = DL_CLASS_NODATA;
	} else {
		a->need = dl_wave_need(a->ph, a->goal.mu.mean, a->goal.phase,
				       now, cfg->overdue_floor,
				       dl_need(a->ph, a->goal.mu.mean,
					       a->goal.phase, now,
					       cfg->overdue_floor));
		o->sreq = dl_sreq(a->ph, a->goal.mu.mean, a->goal.phase, now,
				  cfg->overdue_floor);
		o->cls = a->goal.phase <= now ? DL_CLASS_LATE : DL_CLASS_NEED;
	}
	o->need = a->need;
}

/* What the placement may give a phase (s_pend, r_pend): its tasks left,
 * at most the array's own limit, so the rest goes to other jobs; never
 * fewer than run already (the placement counts them as placed). */
static uint32_t placeable(const struct dl_phase *ph)
{
	uint32_t width = dl_phase_width(ph);

	return width < ph->nrunning ? ph->nrunning : width;
}

/* The placement input of a managed job. */
static int to_placement(struct rjob *a, struct dl_pl_job *p,
			const struct dl_cluster *cl,
			const struct dl_config *cfg, double now)
{
	const struct dl_job *job = a->job;
	const struct dl_phase *m = &job->phase[DL_MAP];
	const struct dl_phase *r = &job->phase[DL_REDUCE];
	struct dl_demand md, rd;

	memset(p, 0, sizeof(*p));
	p->partition = cl->npartitions ? job->partition : UINT32_MAX;
	md = dl_effective_demand(&job->profile.map, m->cpus_per_task,
				 (double) m->mem_per_task);
	rd = dl_effective_demand(&job->profile.reduce, r->cpus_per_task,
				 (double) r->mem_per_task);
	to_vec(&md, p->map);
	to_vec(&rd, p->reduce);
	p->s_req = a->need;
	p->s_fit = a->need;
	if (a->goal.phase_kind == DL_MAP) {
		p->maps_left = placeable(m);
		p->nmap_running = m->nrunning;
		if (!(a->map_nodes = running_nodes(m)))
			return ENOMEM;
		p->map_nodes = a->map_nodes;
		if (r->tasks && map_ends_this_cycle(a, cfg, now)) {
			/* profile switch: reducers come in reduce profile */
			p->reduces_left = placeable(r);
		} else if (r->tasks && job->reduce_overlap) {
			/* shuffling reducers: Slurm's reservation and the
			 * reduce memory, plus shuffle per placed map */
			p->shuffle_mode = true;
			p->reduces_left = placeable(r);
			p->reduce[DL_RES_CPU] = r->cpus_per_task;
			p->reduce[DL_RES_IO] = 0;
			to_vec(&job->profile.shuffle, p->shuffle);
		}
	} else {
		p->reduces_left = placeable(r);
	}
	if (p->reduces_left) {
		p->nreduce_running = r->nrunning;
		if (!(a->reduce_nodes = running_nodes(r)))
			return ENOMEM;
		p->reduce_nodes = a->reduce_nodes;
	}
	return 0;
}

/* Plan entry of a placed job: allocation, verdict, explanation. */
static void conclude(struct rjob *a, const struct dl_pl_job *p,
		     enum dl_util_kind kind, uint32_t nodes_used,
		     const struct dl_config *cfg, double now)
{
	struct dl_plan_job *o = a->out;
	bool map = a->goal.phase_kind == DL_MAP;
	double slots, finish, need;
	char left[32], late[32], fit[40] = "";
	double rd[DL_RESOURCES];

	o->managed = true;
	o->alloc = map ? p->maps : p->reduces;
	o->alloc_pool[DL_POOL_REGULAR] = o->alloc;
	o->utility = p->utility;
	o->sfit = kind == DL_UTIL_REVERSE ? p->s_fit : NAN;
	o->demand[DL_MAP] = from_vec(p->map);
	dl_pl_reducer_demand(p, p->maps, rd);
	o->demand[DL_REDUCE] = from_vec(rd);
	need = dl_utility_clamp_need(kind == DL_UTIL_REVERSE ? fmax(p->s_fit, 0)
							     : p->s_req,
				     map ? p->maps_left : p->reduces_left);
	o->alloc_for_need = (uint32_t) fmin(o->alloc, ceil(need));
	o->urgent = p->utility < 0;
	if (o->cls == DL_CLASS_NEED && map && p->maps >= a->need)
		o->cls = DL_CLASS_MET;
	if (kind == DL_UTIL_REVERSE && map && isfinite(p->s_fit))
		snprintf(fit, sizeof(fit), ", fit %.1f", p->s_fit);

	if (a->goal.mu.source == DL_MU_NONE) {
		o->predicted_finish = NAN;
		o->verdict = DL_VERDICT_NO_DATA;
		snprintf(o->explain, sizeof(o->explain),
			 "no %s task length known yet: utility %.2f, %u task%s "
			 "on %u node%s",
			 map ? "map" : "reduce", p->utility, o->alloc,
			 o->alloc == 1 ? "" : "s", nodes_used,
			 nodes_used == 1 ? "" : "s");
		return;
	}
	slots = o->alloc;
	if (slots < a->ph->nrunning)
		slots = a->ph->nrunning;
	finish = dl_phase_finish(a->ph, a->goal.mu.mean, now, slots,
				 cfg->overdue_floor);
	o->finish_err = dl_phase_finish_err(a->ph, a->goal.mu.sd, slots);
	if (map && a->job->phase[DL_REDUCE].tasks) {
		finish += dl_reduce_time(a->job, &a->goal.mu_reduce,
					 a->reduce_slots);
		o->finish_err += dl_phase_finish_err(&a->job->phase[DL_REDUCE],
						     a->goal.mu_reduce.sd,
						     a->reduce_slots);
	}
	o->predicted_finish = finish;
	dl_format_span(a->goal.phase - now, left, sizeof(left));
	dl_format_span(finish - a->goal.job, late, sizeof(late));
	if (o->cls == DL_CLASS_LATE) {
		o->verdict = DL_VERDICT_LATE;
		snprintf(o->explain, sizeof(o->explain),
			 "%s goal passed: utility %.2f with %u task%s on %u "
			 "node%s, about %s late",
			 map ? "map" : "reduce", p->utility, o->alloc,
			 o->alloc == 1 ? "" : "s", nodes_used,
			 nodes_used == 1 ? "" : "s", late);
		return;
	}
	o->verdict = finish <= a->goal.job ? DL_VERDICT_ON_TRACK
					   : DL_VERDICT_AT_RISK;
	if (map)
		snprintf(o->explain, sizeof(o->explain),
			 "utility %.2f: %u map%s on %u node%s (need %.1f%s) "
			 "for its goal in %s; %u reducer%s placed",
			 p->utility, p->maps, p->maps == 1 ? "" : "s",
			 nodes_used, nodes_used == 1 ? "" : "s", a->need, fit,
			 left, p->reduces, p->reduces == 1 ? "" : "s");
	else
		snprintf(o->explain, sizeof(o->explain),
			 "utility %.2f: %u of %u reducers placed on %u node%s "
			 "for its goal in %s",
			 p->utility, p->reduces, p->reduces_left, nodes_used,
			 nodes_used == 1 ? "" : "s", left);
}

struct rank_ctx {
	struct rjob *a;
	struct dl_pl_job *pl;
};

static int rank_cmp(const void *x, const void *y, void *vctx)
{
	const struct rank_ctx *c = vctx;
	const struct rjob *a = &c->a[*(const uint32_t *) x];
	const struct rjob *b = &c->a[*(const uint32_t *) y];
	double ua = c->pl[a->pl].utility, ub = c->pl[b->pl].utility;

	if (ua != ub)
		return ua < ub ? -1 : 1;
	if (a->goal.phase != b->goal.phase)
		return a->goal.phase < b->goal.phase ? -1 : 1;
	return (a->job->id > b->job->id) - (a->job->id < b->job->id);
}

static int check_profiles(const struct dl_policy_input *in, char *err,
			  size_t errlen)
{
	for (uint32_t i = 0; i < in->njobs; i++) {
		const struct dl_profile *p = &in->jobs[i]->profile;

		if (bad_demand(&p->map) || bad_demand(&p->shuffle) ||
		    bad_demand(&p->reduce)) {
			snprintf(err, err ? errlen : 0,
				 "job %llu: task profile values must be finite "
				 "and >= 0",
				 (unsigned long long) in->jobs[i]->id);
			return EINVAL;
		}
	}
	if (in->cfg->node_io && in->cfg->node_io[0] &&
	    dl_node_io_check(in->cfg->node_io, err, errlen))
		return EINVAL;
	return 0;
}

/* Reverse: s_fit of every managed job with a known task length. */
static int reverse_fit(struct rjob *a, uint32_t n, struct dl_pl_job *pl,
		       const struct dl_avail_node *an, uint32_t nnodes,
		       const struct dl_policy_input *in)
{
	struct dl_avail av;
	struct dl_fit_job *fj;
	uint32_t *idx, nf = 0;
	int rc;

	fj = calloc(n ? n : 1, sizeof(*fj));
	idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!fj || !idx) {
		free(fj);
		free(idx);
		return ENOMEM;
	}
	if ((rc = dl_avail_build(&av, an, nnodes, in->forecast))) {
		free(fj);
		free(idx);
		return rc;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct dl_pl_job *p;
		double mu = a[i].goal.mu.mean;

		if (a[i].pl < 0 || !(mu > 0) || a[i].goal.phase_kind != DL_MAP)
			continue;
		p = &pl[a[i].pl];
		fj[nf].deadline = a[i].goal.phase;
		fj[nf].work = dl_phase_work(a[i].ph, mu, in->now,
					    in->cfg->overdue_floor, -1) /
			      mu;
		fj[nf].mu = mu;
		memcpy(fj[nf].demand, p->map, sizeof(p->map));
		idx[nf++] = i;
	}
	rc = dl_reverse_fit(fj, nf, &av, in->now, NULL, 0, NULL);
	for (uint32_t k = 0; !rc && k < nf; k++) {
		struct dl_pl_job *p = &pl[a[idx[k]].pl];

		/* the fit's s_req is Polo's fluid need; the plan's need is
		 * the wave-aware one: scale s_fit by the same factor, so
		 * s_fit = s_req (flat f) stays the plan's need exactly */
		p->s_fit = fj[k].s_fit;
		if (fj[k].s_fit == fj[k].s_req)
			p->s_fit = p->s_req;
		else if (isfinite(fj[k].s_fit) && fj[k].s_req > 0 &&
			 isfinite(fj[k].s_req) && isfinite(p->s_req))
			p->s_fit = fj[k].s_fit * (p->s_req / fj[k].s_req);
	}
	dl_avail_free(&av);
	free(fj);
	free(idx);
	return rc;
}

struct dl_plan *dl_placement_policy_plan(const struct dl_policy_input *in,
					 enum dl_util_kind kind, char *err,
					 size_t errlen)
{
	const struct dl_cluster *cl;
	struct dl_capacity cap = {0};
	struct dl_plan *plan = NULL;
	struct rjob *a = NULL;
	struct dl_pl_job *pl = NULL;
	struct dl_pl_node *pn = NULL;
	struct dl_avail_node *an = NULL;
	struct dl_place *rows = NULL;
	struct dl_pl_stats st;
	uint32_t n, npl = 0, nrows = 0, *order = NULL, *nodes_used = NULL;
	uint32_t rank = 0;
	uint64_t t0 = dl_monotonic_us();
	int rc;

	if (dl_policy_check_input(in, err, errlen) ||
	    check_profiles(in, err, errlen))
		return NULL;
	cl = in->cluster;
	n = in->njobs;
	if (dl_capacity_build(&cap, cl))
		goto nomem;
	plan = dl_plan_new(n);
	a = calloc(n ? n : 1, sizeof(*a));
	pl = calloc(n ? n : 1, sizeof(*pl));
	order = malloc((n ? n : 1) * sizeof(*order));
	nodes_used = calloc(n ? n : 1, sizeof(*nodes_used));
	pn = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(*pn));
	an = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(*an));
	if (!plan || !a || !pl || !order || !nodes_used || !pn || !an)
		goto nomem;
	plan->nodes = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(*plan->nodes));
	if (!plan->nodes)
		goto nomem;
	plan->nnodes = cl->nnodes;
	plan->now = in->now;
	plan->policy =
		kind == DL_UTIL_REVERSE ? DL_POLICY_REVERSE : DL_POLICY_RAS;
	if (build_nodes(in, kind, pn, an, plan->nodes))
		goto nomem;
	for (uint32_t i = 0; i < cl->nnodes; i++)
		if (pn[i].usable)
			plan->stats.capacity_cpus += pn[i].cap[DL_RES_CPU];

	for (uint32_t i = 0; i < n; i++) {
		prepare(&a[i], in->jobs[i], &plan->jobs[i], &cap, in);
		if (!a[i].managed)
			continue;
		a[i].pl = (int) npl;
		if (to_placement(&a[i], &pl[npl], cl, in->cfg, in->now))
			goto nomem;
		npl++;
	}
	if (kind == DL_UTIL_REVERSE &&
	    (rc = reverse_fit(a, n, pl, an, cl->nnodes, in))) {
		snprintf(err, err ? errlen : 0, "reverse fitting failed: %s",
			 rc == ENOMEM ? "out of memory" : "invalid input");
		goto fail;
	}
	rc = dl_placement(pn, cl->nnodes, pl, npl, kind,
			  in->cfg->ras_rounds ? in->cfg->ras_rounds : 1, &rows,
			  &nrows, &st);
	if (rc) {
		snprintf(err, err ? errlen : 0, "placement failed: %s",
			 rc == ENOMEM ? "out of memory" : "invalid input");
		goto fail;
	}
	/* rows: placement index -> plan job index */
	{
		uint32_t *back = malloc((npl ? npl : 1) * sizeof(*back));

		if (!back)
			goto nomem;
		for (uint32_t i = 0; i < n; i++)
			if (a[i].pl >= 0)
				back[a[i].pl] = i;
		for (uint32_t k = 0; k < nrows; k++) {
			rows[k].job = back[rows[k].job];
			nodes_used[rows[k].job]++;
		}
		free(back);
	}
	plan->place = rows;
	plan->nplace = nrows;
	rows = NULL;
	plan->stats.grants = st.fills + st.moves + st.reducers;

	for (uint32_t i = 0; i < n; i++)
		if (a[i].pl >= 0) {
			conclude(&a[i], &pl[a[i].pl], kind, nodes_used[i],
				 in->cfg, in->now);
			order[rank++] = i;
		}
	{
		struct rank_ctx rc2 = {a, pl};

		qsort_r(order, rank, sizeof(*order), rank_cmp, &rc2);
	}
	for (uint32_t k = 0; k < rank; k++)
		a[order[k]].out->rank = k + 1;

	dl_plan_finalize(plan);
	plan->stats.compute_us = dl_monotonic_us() - t0;
	goto out;
nomem:
	snprintf(err, err ? errlen : 0, "out of memory");
fail:
	dl_plan_free(plan);
	plan = NULL;
out:
	if (a)
		for (uint32_t i = 0; i < n; i++) {
			free(a[i].map_nodes);
			free(a[i].reduce_nodes);
		}
	free(a);
	free(pl);
	free(pn);
	free(an);
	free(rows);
	free(order);
	free(nodes_used);
	dl_capacity_free(&cap);
	return plan;
}

struct dl_plan *dl_ras_plan(const struct dl_policy_input *in, char *err,
			    size_t errlen)
{
	return dl_placement_policy_plan(in, DL_UTIL_RAS, err, errlen);
}

struct dl_plan *dl_reverse_plan(const struct dl_policy_input *in, char *err,
				size_t errlen)
{
	return dl_placement_policy_plan(in, DL_UTIL_REVERSE, err, errlen);
}
