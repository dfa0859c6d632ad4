/*
 * realtime/plan_cycle.c - the realtime policy as a plan cycle.
 */
#include "common/realtime/plan_cycle.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/log.h"
#include "common/io/timefmt.h"
#include "common/plan/id_index.h"
#include "common/realtime/realtime.h"
#include "common/realtime/dispatch.h"
#include "common/io/clock.h"

/* One admitted job of the current plan. */
struct ajob {
	struct dl_rt_job_info info;
	struct dl_job *job; /* live job; NULL: ticket not bound yet */
	uint32_t out;       /* index into plan->jobs */
	uint32_t pool;      /* index into the pool list */
	double order_key;   /* merged rank key */
	uint32_t running;   /* tasks of its active phase running */
	uint32_t granted;
	bool blocked;
};

struct pools {
	char (*name)[64];
	uint32_t n;
};

static const char *partition_name(const struct dl_cluster *cl,
				  const struct dl_job *j)
{
	if (j->partition < cl->npartitions && cl->partitions[j->partition])
		return cl->partitions[j->partition];
	return "default";
}

static void describe(struct dl_plan_job *o, const struct dl_job *job)
{
	dl_plan_job_describe(o, job);
	o->phase = dl_job_active_phase(job);
	o->deadline = dl_job_deadline(job);
	o->goal = o->deadline;
	o->predicted_finish = NAN;
	o->need = o->sreq = NAN;
	o->mu = o->mu_sd = NAN;
}

static int order_cmp(const void *a, const void *b)
{
	const struct ajob *x = *(const struct ajob *const *) a;
	const struct ajob *y = *(const struct ajob *const *) b;

	if (x->order_key != y->order_key)
		return x->order_key < y->order_key ? -1 : 1;
	if (x->pool != y->pool)
		return x->pool < y->pool ? -1 : 1;
	return (x->info.position > y->info.position) -
	       (x->info.position < y->info.position);
}

/* Free units of a pool for the walk: what admission may promise minus what
 * admitted tasks hold, and never more than the partition has free. */
static uint64_t free_units(const struct dl_cluster *cl, const char *part,
			   uint32_t units, uint64_t rt_running)
{
	int pi = dl_cluster_find_partition(cl, part);
	double idle = 0;

	if (pi >= 0)
		for (uint32_t i = 0; i < cl->nnodes; i++) {
			const struct dl_node *nd = &cl->nodes[i];

			if (nd->up &&
			    dl_partset_has(&nd->partitions, (uint32_t) pi) &&
			    nd->cpus > nd->cpus_other)
				idle += nd->cpus - nd->cpus_other;
		}
	idle -= (double) rt_running;
	if (rt_running >= units || idle <= 0)
		return 0;
	return idle < units - rt_running ? (uint64_t) idle : units - rt_running;
}

static uint32_t cpus_of(const struct dl_phase *ph)
{
	return ph->cpus_per_task ? ph->cpus_per_task : 1;
}

/* The reservation walk over one pool's admitted jobs (queue order).  A
 * shared pool (Slurm) runs both phases on the same CPUs; a split pool (the
 * paper's model) has a map walk without reservations and a reduce walk.
 * Held jobs walk last, without reservations: they run on what no job whose
 * deadline is still guaranteed can use now, so a hold never lasts for ever
 * and never costs a guaranteed job (they are successors of every one). */
static int walk_pool(struct ajob **q, uint32_t n, const struct dl_cluster *cl,
		     const char *part, bool split, const uint32_t units[2],
		     uint64_t *grants)
{
	struct dl_rt_walk_job *w = calloc(n ? n : 1, sizeof(*w));
	struct ajob **o = calloc(n ? n : 1, sizeof(*o));
	uint32_t m = 0;

	if (!w || !o) {
		free(w);
		free(o);
		return ENOMEM;
	}
	for (uint32_t k = 0; k < n; k++)
		if (!q[k]->info.held)
			o[m++] = q[k];
	for (uint32_t k = 0; k < n; k++)
		if (q[k]->info.held)
			o[m++] = q[k];
	for (int pool = 0; pool < (split ? 2 : 1); pool++) {
		uint64_t running = 0;

		for (uint32_t k = 0; k < n; k++) {
			const struct ajob *a = o[k];
			const struct dl_job *j = a->job;
			int act = dl_job_active_phase(j);

			memset(&w[k], 0, sizeof(w[k]));
			for (int p = 0; p < DL_PHASES; p++)
				if (!split || p == pool)
					running += (uint64_t) j->phase[p]
							   .nrunning *
						   cpus_of(&j->phase[p]);
			if (act < 0)
				continue;
			if (!split || act == pool) {
				w[k].ready = dl_phase_pending(&j->phase[act]);
				w[k].cpus = a->info.cpus[act];
			}
			/* not in its reduce stage yet: its reducers' CPUs */
			if (act == DL_MAP && (!split || pool == DL_REDUCE) &&
			    !a->info.held) {
				uint32_t red = a->info.tasks[DL_REDUCE];

				if (j->phase[DL_REDUCE].tasks > red)
					red = j->phase[DL_REDUCE].tasks;
				w[k].reserve = (uint64_t) red *
					       a->info.cpus[DL_REDUCE];
			}
		}
		dl_rt_walk(w, n, free_units(cl, part, units[pool], running));
		for (uint32_t k = 0; k < n; k++) {
			int act = dl_job_active_phase(o[k]->job);

			if (act < 0 || (split && act != pool))
				continue;
			o[k]->granted += w[k].granted;
			o[k]->blocked = w[k].blocked;
			*grants += w[k].granted;
		}
	}
	free(w);
	free(o);
	return 0;
}

static void admitted_out(struct ajob *a, struct dl_plan_job *o,
			 const struct dl_config *cfg)
{
	int act = o->phase;
	char fin[40], dl[40];

	(void) cfg;
	o->managed = true;
	o->cls = DL_CLASS_NEED;
	o->verdict = DL_VERDICT_ON_TRACK;
	o->urgent = true;
	o->deadline = a->info.deadline;
	o->goal = act == DL_MAP && a->info.tasks[DL_REDUCE] ? a->info.map_finish
							    : a->info.deadline;
	o->predicted_finish = a->info.finish;
	o->finish_err = 0;
	o->mu = act >= 0 ? a->info.wc[act] : NAN;
	dl_plan_copy_str(o->mu_source, sizeof(o->mu_source), "worst case");
	o->alloc = a->running + a->granted;
	o->alloc_pool[DL_POOL_REGULAR] = o->alloc;
	o->alloc_for_need = o->alloc;
	o->need = o->alloc;
	o->sreq = a->granted;
	dl_format_instant(a->info.finish, fin, sizeof(fin));
	dl_format_instant(a->info.deadline, dl, sizeof(dl));
	snprintf(o->explain, sizeof(o->explain),
		 "admitted: worst-case finish %s, deadline %s; %u running, %u "
		 "may start now%s",
		 fin, dl, a->running, a->granted,
		 a->blocked && !a->granted
			 ? " (waiting: CPUs are kept for earlier jobs)"
			 : "");
	if (!o->alloc) {
		/* the throttle cannot say "none": hold it until its turn */
		o->hold = true;
		dl_plan_copy_str(o->hold_reason, sizeof(o->hold_reason),
				 DL_RT_REASON_WAIT);
	}
}

/*
 * Slurm cancels a pending job whose --deadline it can no longer meet: once
 * now + its time limit passes the deadline, that is after its latest
 * start (dl_rt_latest_start).  Slurm 22.05 does so only when it tries to
 * start the job; from 23.11.4 any pending job that is not held, from 24.05
 * held jobs too (doc/slurm-versions.md).  A hold of this plan must end
 * before that instant or the hold itself loses the job: within
 * 2 x PlanInterval + ReplanDelay of it (a whole cycle between the lift and
 * the cut-off however late the next cycle comes) the hold is lifted and
 * every task the job has left may start on CPUs no other pending job wants
 * (not urgent: below every job without a deadline); what has not started by
 * then Slurm cancels by its own rule, as it would without this plugin.  The
 * verdict stays.
 */
static void end_hold_before_cutoff(struct dl_plan_job *o,
				   const struct dl_job *j,
				   const struct dl_policy_input *in)
{
	const struct dl_phase *ph;
	double latest, margin;
	char at[40], why[sizeof(o->explain)];
	int n;

	if (!o->hold || !j || o->phase < 0 || o->phase >= DL_PHASES)
		return;
	ph = &j->phase[o->phase];
	latest = dl_rt_latest_start(ph->hard_deadline, ph->time_limit);
	margin = 2 * in->cfg->plan_interval + in->cfg->replan_delay;
	if (!(latest > 0) || in->now < latest - margin)
		return;
	o->hold = false;
	o->hold_reason[0] = '\0';
	o->managed = true;
	o->urgent = false;
	o->alloc_for_need = 0;
	o->alloc = o->running[o->phase] + o->pending[o->phase];
	o->alloc_pool[DL_POOL_REGULAR] = o->alloc;
	dl_format_instant(latest, at, sizeof(at));
	/* first: the rest of a long explanation may be cut */
	dl_plan_copy_str(why, sizeof(why), o->explain);
	n = snprintf(o->explain, sizeof(o->explain),
		     "hold lifted before Slurm's --deadline cut-off at %s, "
		     "idle CPUs only: ",
		     at);
	if (n > 0 && (size_t) n < sizeof(o->explain))
		dl_plan_copy_str(o->explain + n, sizeof(o->explain) - n, why);
}

/* One plan cycle's working set. */
struct cycle {
	const struct dl_policy_input *in;
	struct dl_rt_state *st;
	struct dl_plan *plan;
	struct dl_id_index x; /* live job id -> index into in->jobs */
	bool *known;          /* live jobs the admitted set knows */
	struct ajob *adm;     /* admitted jobs with a live Slurm job */
	struct ajob **order;
	uint32_t nadm;
	struct pools pools;
	uint64_t *starts; /* jobs the walk lets start for the first time */
	uint32_t nstarts;
	uint64_t grants;
};

static void cycle_free(struct cycle *c)
{
	dl_id_index_free(&c->x);
	free(c->known);
	free(c->starts);
	free(c->adm);
	free(c->order);
	free(c->pools.name);
}

/* Step 1: every partition with deadline jobs has a pool, sized to what
 * admission may promise there now. */
static int declare_pools(const struct dl_policy_input *in,
			 struct dl_rt_state *st, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < in->njobs; i++) {
		const char *part = partition_name(in->cluster, in->jobs[i]);
		uint32_t units[2];
		int rc;

		if (!(dl_job_deadline(in->jobs[i]) > 0) ||
		    !dl_rt_pool_units(st, part, units, NULL))
			continue;
		rc = dl_rt_set_pool(
			st, part,
			dl_rt_partition_units(in->cluster, part,
					      in->cfg->realtime_share),
			0, in->now);
		if (rc) {
			snprintf(err, err ? errlen : 0, "realtime pool %s: %s",
				 part, strerror(rc));
			return rc;
		}
	}
	return 0;
}

/* The live job of an admitted one (by its map or reduce id); -1: none. */
static int64_t live_index(const struct dl_id_index *x,
			  const struct dl_rt_job_info *info)
{
	int64_t li = dl_id_index_find(x, info->id);

	return li < 0 ? dl_id_index_find(x, info->reduce_id) : li;
}

/* Step 3: which live jobs the admitted set knows (after the resync). */
static void mark_known(struct cycle *c)
{
	for (uint32_t k = 0, cnt = dl_rt_count(c->st); k < cnt; k++) {
		struct dl_rt_job_info info;
		int64_t li;

		if (dl_rt_job_at(c->st, k, &info))
			break;
		li = live_index(&c->x, &info);
		if (li >= 0)
			c->known[li] = true;
	}
}

/* A job with a deadline the set does not know (not judged at submit: the
 * plugin was not loaded, the saved state was lost): judged now, and held
 * with DL_RT_REASON_REJECTED when it does not fit. */
static void judge_at_plan_time(struct cycle *c, struct dl_job *j,
			       struct dl_plan_job *o)
{
	const struct dl_policy_input *in = c->in;
	struct dl_rt_request req;
	struct dl_rt_verdict v;
	const char *part = partition_name(in->cluster, j);

	memset(&v, 0, sizeof(v));
	if (dl_rt_request_from_job(c->st, j, part, in->now, &req) == 0)
		dl_rt_admit(c->st, &req, in->now, true, &v);
	else
		snprintf(v.msg, sizeof(v.msg),
			 "deadline cannot be guaranteed: no tasks or no "
			 "deadline");
	if (v.admitted) {
		dl_log(DL_LOG_INFO,
		       "realtime: job %llu judged at plan time: %s",
		       (unsigned long long) j->id, v.msg);
		return;
	}
	o->managed = true;
	o->hold = true;
	o->cls = DL_CLASS_UNMANAGED;
	o->verdict = DL_VERDICT_REJECTED;
	dl_plan_copy_str(o->hold_reason, sizeof(o->hold_reason),
			 DL_RT_REASON_REJECTED);
	dl_plan_copy_str(o->explain, sizeof(o->explain), v.msg);
	o->predicted_finish = v.earliest;
}

/* An entry the plan leaves to Slurm, unjudged, saying why. */
static void left_to_slurm(struct dl_plan_job *o, const char *why)
{
	o->cls = DL_CLASS_UNMANAGED;
	o->verdict = DL_VERDICT_ON_TRACK;
	snprintf(o->explain, sizeof(o->explain), "%s", why);
}

/* Step 4: every job's entry; finished jobs, jobs without a deadline and
 * arrays with a limit of their own are left to Slurm, unknown ones judged
 * now. */
static void describe_jobs(struct cycle *c)
{
	for (uint32_t i = 0; i < c->in->njobs; i++) {
		struct dl_job *j = c->in->jobs[i];
		struct dl_plan_job *o = &c->plan->jobs[i];

		describe(o, j);
		if (o->phase < 0) {
			o->verdict = DL_VERDICT_DONE;
			o->cls = DL_CLASS_UNMANAGED;
			snprintf(o->explain, sizeof(o->explain),
				 "all tasks finished");
			continue;
		}
		if (!(o->deadline > 0)) {
			left_to_slurm(o,
				      "no deadline: left to Slurm's priority "
				      "and backfill");
			continue;
		}
		if (c->known[i])
			continue;
		/* its width is the user's (model.h, max_running), and the
		 * guarantee rests on the width the plan sets: job_submit
		 * does not judge it either */
		if (j->phase[o->phase].max_running) {
			left_to_slurm(o, "not judged: an array with its own "
					 "limit (%N) runs as Slurm schedules "
					 "it");
			continue;
		}
		judge_at_plan_time(c, j, o);
	}
}

/* Step 5: the admitted jobs with a live Slurm job and tasks left, pool by
 * pool in queue order.  0 or ENOMEM. */
static int collect_admitted(struct cycle *c)
{
	uint32_t cap = dl_rt_count(c->st);

	c->adm = calloc(cap ? cap : 1, sizeof(*c->adm));
	c->order = calloc(cap ? cap : 1, sizeof(*c->order));
	c->pools.name = calloc(cap ? cap : 1, sizeof(*c->pools.name));
	c->starts = calloc(cap ? cap : 1, sizeof(*c->starts));
	if (!c->adm || !c->order || !c->pools.name || !c->starts)
		return ENOMEM;
	for (uint32_t k = 0; k < cap; k++) {
		struct ajob *a = &c->adm[c->nadm];
		int64_t li;
		uint32_t p;

		if (dl_rt_job_at(c->st, k, &a->info))
			break;
		if (a->info.finished)
			continue;
		li = live_index(&c->x, &a->info);
		if (li < 0)
			continue; /* its Slurm job does not exist yet */
		a->job = c->in->jobs[li];
		a->out = (uint32_t) li;
		if (dl_job_active_phase(a->job) < 0)
			continue;
		for (p = 0; p < c->pools.n; p++)
			if (!strcmp(c->pools.name[p], a->info.pool))
				break;
		if (p == c->pools.n)
			dl_plan_copy_str(c->pools.name[c->pools.n++],
					 sizeof(*c->pools.name), a->info.pool);
		a->pool = p;
		a->running =
			a->job->phase[dl_job_active_phase(a->job)].nrunning;
		c->nadm++;
	}
	return 0;
}

/* Step 6: the dispatcher's walk per pool, and each job's rank key: its
 * queue order, merged across pools by deadline (a job never ranks before
 * one ahead of it in its queue).  0 or ENOMEM. */
static int walk_pools(struct cycle *c)
{
	for (uint32_t p = 0; p < c->pools.n; p++) {
		uint32_t m = 0, units[2] = {0, 0};
		bool split = false;
		double run_max = -INFINITY;

		for (uint32_t k = 0; k < c->nadm; k++)
			if (c->adm[k].pool == p) {
				c->order[m++] = &c->adm[k];
				if (c->adm[k].info.key > run_max)
					run_max = c->adm[k].info.key;
				c->adm[k].order_key = run_max;
			}
		dl_rt_pool_units(c->st, c->pools.name[p], units, &split);
		if (walk_pool(c->order, m, c->in->cluster, c->pools.name[p],
			      split, units, &c->grants))
			return ENOMEM;
	}
	return 0;
}

/* A held job: no longer guaranteed, it runs on what the guaranteed jobs
 * leave (walk_pool).  While that is nothing its waiting tasks are held in
 * Slurm with the Reason (its running tasks go on). */
static void held_out(struct ajob *a, struct dl_plan_job *o, uint32_t rank)
{
	size_t len;

	o->managed = true;
	o->rank = rank;
	o->cls = DL_CLASS_LATE;
	o->verdict = DL_VERDICT_HELD;
	o->urgent = true;
	o->deadline = a->info.deadline;
	o->predicted_finish = a->info.finish;
	o->alloc = a->running + a->granted;
	o->alloc_pool[DL_POOL_REGULAR] = o->alloc;
	o->alloc_for_need = o->alloc;
	o->need = o->alloc;
	o->sreq = a->granted;
	dl_plan_copy_str(o->explain, sizeof(o->explain), a->info.hold_why);
	len = strlen(o->explain);
	snprintf(o->explain + len, sizeof(o->explain) - len,
		 "; runs on CPUs no guaranteed job can use now: %u running, "
		 "%u may start now",
		 a->running, a->granted);
	if (!a->granted) {
		o->hold = true;
		dl_plan_copy_str(o->hold_reason, sizeof(o->hold_reason),
				 DL_RT_REASON_INFEASIBLE);
	}
}

/* Step 7: the admitted jobs' entries in rank order: the guaranteed ones
 * get their rank, throttle and verdict, then the held ones, which say why
 * (held_out).  A guaranteed job the walk lets start for the first time is
 * remembered: from now on no later job may be placed ahead of it. */
static void rank_admitted(struct cycle *c)
{
	uint32_t rank = 0;

	for (uint32_t k = 0; k < c->nadm; k++)
		c->order[k] = &c->adm[k];
	qsort(c->order, c->nadm, sizeof(*c->order), order_cmp);
	for (uint32_t k = 0; k < c->nadm; k++) {
		struct ajob *a = c->order[k];
		struct dl_plan_job *o = &c->plan->jobs[a->out];

		if (a->info.held)
			continue; /* ranked after every guaranteed job */
		o->rank = ++rank;
		admitted_out(a, o, c->in->cfg);
		if (a->granted && !a->info.started)
			c->starts[c->nstarts++] = a->info.id;
	}
	for (uint32_t k = 0; k < c->nadm; k++)
		if (c->order[k]->info.held)
			held_out(c->order[k], &c->plan->jobs[c->order[k]->out],
				 ++rank);
}

static void log_sync(const struct dl_rt_sync_stats *ss)
{
	if (ss->held || ss->released || ss->feedback || ss->removed)
		dl_log(DL_LOG_VERBOSE,
		       "realtime: %u finished (%u beyond the feedback "
		       "threshold), %u gone, %u held, %u released, %u pools "
		       "rebuilt",
		       ss->finished, ss->feedback, ss->removed, ss->held,
		       ss->released, ss->resynced_pools);
}

struct dl_plan *dl_realtime_plan(const struct dl_policy_input *in, char *err,
				 size_t errlen)
{
	struct cycle c = {.in = in};
	struct dl_rt_sync_stats ss;
	uint64_t t0 = dl_monotonic_us();
	int rc;

	if (dl_policy_check_input(in, err, errlen))
		return NULL;
	c.st = in->rt;
	if (!c.st) {
		snprintf(err, err ? errlen : 0,
			 "the realtime policy needs its admitted set");
		return NULL;
	}
	if (dl_rt_configure(c.st, in->cfg)) {
		snprintf(err, err ? errlen : 0, "bad realtime configuration");
		return NULL;
	}
	if (declare_pools(in, c.st, err, errlen))
		return NULL;
	/* Step 2: the admitted set made true to what runs (sync.c) */
	rc = dl_rt_sync(c.st, in->jobs, in->njobs, in->cluster, in->now, &ss);
	if (rc) {
		snprintf(err, err ? errlen : 0, "realtime resync: %s",
			 strerror(rc));
		return NULL;
	}
	c.plan = dl_plan_new(in->njobs);
	c.known = calloc(in->njobs ? in->njobs : 1, sizeof(*c.known));
	if (!c.plan || !c.known || dl_id_index_build(&c.x, in->jobs, in->njobs))
		goto nomem;
	mark_known(&c);
	c.plan->now = in->now;
	c.plan->policy = DL_POLICY_REALTIME;
	describe_jobs(&c);
	if (collect_admitted(&c) || walk_pools(&c))
		goto nomem;
	rank_admitted(&c);
	for (uint32_t p = 0; p < c.pools.n; p++) {
		uint32_t units[2];

		if (!dl_rt_pool_units(c.st, c.pools.name[p], units, NULL))
			c.plan->stats.capacity_cpus += units[0];
	}
	log_sync(&ss);
	for (uint32_t i = 0; i < in->njobs; i++)
		end_hold_before_cutoff(&c.plan->jobs[i], in->jobs[i], in);
	dl_rt_mark_started_many(c.st, c.starts, c.nstarts);
	c.plan->stats.grants = c.grants;
	dl_plan_finalize(c.plan);
	c.plan->stats.compute_us = dl_monotonic_us() - t0;
	cycle_free(&c);
	return c.plan;
nomem:
	snprintf(err, err ? errlen : 0, "out of memory");
	dl_plan_free(c.plan);
	cycle_free(&c);
	return NULL;
}
