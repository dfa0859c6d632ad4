/*
 * admission.c - realtime, rtmr and dc in the simulator (doc/simulator.md,
 * "Admission-based policies").  Every decision is the core's; this file
 * turns the engine's records into the core's requests and back:
 *
 *   realtime  worst cases from the estimator's history (history.h) of the
 *             run's finished tasks of the same (user, name, phase), stored
 *             in the admitted set's cache and turned into a worst case by
 *             dl_rt_wc_get (quantile x (1 + margin), capped by the time
 *             limit, the limit itself without enough history) -- what
 *             sched/deadline does with the daemon's answers; admission
 *             dl_rt_admit; plan dl_policy_plan(Policy=realtime);
 *             reservation walk dl_rt_walk at each start; feedback
 *             dl_rt_feedback when a job ends.
 *   rtmr      the same with DL_RT_PAPER_ORDER and the paper's c^max
 *             (dl_rt_cmax_*: the largest length per MB ever seen per
 *             phase, times the task's input).
 *   dc        dl_dc_admit with the same c^max worst cases; EDF dispatch
 *             (dl_baseline_plan); reservations released at the job's end.
 */
#include "sim/admission.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/history.h"
#include "common/compare/baseline.h"
#include "common/realtime/plan_cycle.h"
#include "common/realtime/realtime.h"
#include "common/compare/dc.h"
#include "common/realtime/dispatch.h"
#include "common/realtime/worst.h"
#include "common/simulate/engine.h"

/* The split pool of a typed cluster: named after the view's map partition,
 * where the core's plan finds the admitted jobs at their arrival. */
#define TYPED_POOL "map"

struct adm {
	enum sim_adm_kind kind;
	bool typed;
	double overhead; /* RealtimeTaskOverhead in the simulated cluster */
	struct dl_rt_state *st;
	struct dl_hist *hist;
	struct dl_rt_cmax cmax;
	bool seen[2]; /* c^max has an observation of the phase */
	struct dl_dc_state *dc;
	bool *in_rt;  /* per job: in the admitted set */
	bool *marked; /* per job: dl_rt_mark_started done */
	struct dl_rt_walk_job *walk;
	uint32_t *walk_job;
	uint32_t capwalk;
	double *ends;
	uint32_t capends;
	struct sim_adm_stats stats;
};

static const char *pool_of(const struct adm *a, const struct sim_engine *e,
			   const struct sim_job *j)
{
	uint32_t p = j->spec->partition;

	if (a->typed)
		return TYPED_POOL;
	if (p < e->view.npartitions && e->view.partitions[p])
		return e->view.partitions[p];
	return "default";
}

/* Data a task of phase p reads, in MB (RTMR's delta); 1 when the workload
 * does not say, which makes c^max a per-task length. */
static double task_size(const struct sim_job *j, int p)
{
	double mb = j->spec->phase[p].input_mb;

	return mb > 0 ? mb : 1;
}

int sim_adm_init(const struct sim_policy *self, struct sim_engine *eng,
		 void **state, char *err, size_t errlen)
{
	struct adm *a = calloc(1, sizeof(*a));
	struct dl_config cfg;
	int rc = ENOMEM;

	*state = NULL;
	if (!a)
		goto fail;
	a->kind = (enum sim_adm_kind) self->arg;
	a->typed = eng->cs->mode == SIM_SLOTS_TYPED;
	/* the time from a slot freeing to the next task on it: in the
	 * simulated cluster, its dispatch latency (Slurm's plan-cycle
	 * latency, what RealtimeTaskOverhead covers there, does not exist
	 * here: the walk runs at every dispatch) */
	a->overhead = eng->cs->dispatch_latency;
	a->in_rt = calloc(eng->njobs ? eng->njobs : 1, sizeof(*a->in_rt));
	a->marked = calloc(eng->njobs ? eng->njobs : 1, sizeof(*a->marked));
	if (!a->in_rt || !a->marked)
		goto fail;
	if ((rc = dl_rt_cmax_init(&a->cmax, 0, 0)))
		goto fail;
	if (a->kind == SIM_ADM_DC) {
		uint32_t slots[2] = {0, 0};

		for (uint32_t n = 0; n < eng->cs->nnodes; n++) {
			slots[0] += eng->cs->nodes[n].map_slots;
			slots[1] += eng->cs->nodes[n].reduce_slots;
		}
		a->dc = dl_dc_new(
			dl_rt_share_units(slots[0], eng->cfg.realtime_share),
			dl_rt_share_units(slots[1], eng->cfg.realtime_share));
		rc = ENOMEM;
		if (!a->dc)
			goto fail;
		*state = a;
		return 0;
	}
	a->st = dl_rt_state_new();
	if (!a->st)
		goto fail;
	cfg = eng->cfg; /* shallow: only numbers are read */
	cfg.realtime_overhead = a->overhead;
	if ((rc = dl_rt_configure(a->st, &cfg)))
		goto fail;
	if (eng->opt.no_feedback) {
		struct dl_rt_params p;

		if ((rc = dl_rt_get_params(a->st, &p)))
			goto fail;
		p.flags |= DL_RT_NO_FEEDBACK;
		if ((rc = dl_rt_set_params(a->st, &p)))
			goto fail;
	}
	if (a->kind == SIM_ADM_RTMR) {
		struct dl_rt_params p;

		if ((rc = dl_rt_get_params(a->st, &p)))
			goto fail;
		p.flags |= DL_RT_PAPER_ORDER;
		if ((rc = dl_rt_set_params(a->st, &p)))
			goto fail;
	} else {
		struct dl_hist_cfg hc;
		char herr[200] = "";

		dl_hist_cfg_defaults(&hc);
		a->hist = dl_hist_new(&hc, herr, sizeof(herr));
		if (!a->hist) {
			snprintf(err, errlen, "task history: %s",
				 herr[0] ? herr : "out of memory");
			free(a->in_rt);
			free(a->marked);
			dl_rt_state_free(a->st);
			free(a);
			return EINVAL;
		}
	}
	if (a->typed) {
		uint32_t slots[2] = {0, 0};

		for (uint32_t n = 0; n < eng->cs->nnodes; n++) {
			slots[0] += eng->cs->nodes[n].map_slots;
			slots[1] += eng->cs->nodes[n].reduce_slots;
		}
		rc = dl_rt_set_pool(
			a->st, TYPED_POOL,
			dl_rt_share_units(slots[0], eng->cfg.realtime_share),
			dl_rt_share_units(slots[1], eng->cfg.realtime_share),
			0);
		if (rc)
			goto fail;
	}
	*state = a;
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", self->name,
		 rc == ENOMEM ? "out of memory" : strerror(rc));
	sim_adm_fini(a);
	return rc ? rc : ENOMEM;
}

void sim_adm_fini(void *state)
{
	struct adm *a = state;

	if (!a)
		return;
	dl_rt_state_free(a->st);
	dl_hist_free(a->hist);
	dl_dc_free(a->dc);
	free(a->in_rt);
	free(a->marked);
	free(a->walk);
	free(a->walk_job);
	free(a->ends);
	free(a);
}

void sim_adm_get_stats(const void *state, struct sim_adm_stats *out)
{
	const struct adm *a = state;

	memset(out, 0, sizeof(*out));
	if (a)
		*out = a->stats;
}

/* Worst-case length of a task of phase p of job j, judged now. */
static double worst_case(struct adm *a, struct sim_engine *e,
			 const struct sim_job *j, int p, double *typical)
{
	const struct sim_job_spec *s = j->spec;

	*typical = NAN;
	if (a->kind == SIM_ADM_REALTIME) {
		struct dl_pred_query q = {0};
		struct dl_prediction pr;
		struct dl_rt_worst w;

		/* the estimator's answer for (user, name, phase); like
		 * sched/deadline, only a name-level answer is a history */
		q.user = s->user;
		q.name = s->name ? s->name : "";
		q.phase = p;
		q.tasks = s->phase[p].tasks;
		q.input_bytes = NAN;
		if (!dl_hist_predict(a->hist, &q, e->now, &pr) &&
		    pr.source == DL_PRED_NAME && pr.n) {
			struct dl_rt_quantiles wq = {pr.p50, pr.p90, pr.p99,
						     pr.max, pr.n};

			dl_rt_wc_store(a->st, q.user, q.name, p, &wq, e->now);
		}
		if (dl_rt_wc_get(a->st, q.user, q.name, p, j->time_limit[p],
				 &w))
			return NAN;
		if (w.source == DL_RT_WC_QUANTILE)
			a->stats.wc_history++;
		else
			a->stats.wc_limit++;
		*typical = w.typical;
		return w.len;
	}
	/* RTMR as published: c^max x size; before any task of the phase
	 * ended there is no c^max, and the time limit bounds the task */
	if (!a->seen[p]) {
		a->stats.wc_limit++;
		return j->time_limit[p] + a->overhead;
	}
	a->stats.wc_history++;
	return dl_rt_cmax_worst(&a->cmax, p, task_size(j, p)) + a->overhead;
}

bool sim_adm_admit(void *state, struct sim_engine *e, uint32_t jx, char *why,
		   size_t whylen)
{
	struct adm *a = state;
	struct sim_job *j = &e->jobs[jx];
	double wc[2] = {0, 0}, typical = NAN;
	int rc;

	if (!(j->deadline > 0)) {
		/* nothing to guarantee: left to the dispatcher, like a job
		 * without deadline under Policy=realtime */
		snprintf(why, whylen, "no deadline: not judged");
		return true;
	}
	if (j->spec->phase[DL_MAP].max_running ||
	    j->spec->phase[DL_REDUCE].max_running) {
		/* the guarantee rests on the widths the plan sets: an array
		 * with its own %N is not judged (job_submit/deadline) */
		snprintf(why, whylen, "its own limit (%%N): not judged");
		return true;
	}
	a->stats.judged++;
	for (int p = 0; p < 2; p++) {
		double t = NAN;

		if (!j->spec->phase[p].tasks)
			continue;
		wc[p] = worst_case(a, e, j, p, &t);
		if (p == DL_MAP)
			typical = t;
		if (!(wc[p] >= 0) || !isfinite(wc[p])) {
			snprintf(why, whylen,
				 "no worst-case %s task length (no history, "
				 "no time limit)",
				 p ? "reduce" : "map");
			return false;
		}
	}
	if (a->kind == SIM_ADM_DC) {
		struct dl_dc_request rq = {0};
		struct dl_dc_verdict v;

		rq.id = jx + 1;
		rq.arrival = e->now;
		rq.deadline = j->deadline;
		rq.maps = j->spec->phase[DL_MAP].tasks;
		rq.reduces = j->spec->phase[DL_REDUCE].tasks;
		rq.wc_map = wc[DL_MAP];
		rq.wc_reduce = wc[DL_REDUCE];
		memset(&v, 0, sizeof(v));
		rc = dl_dc_admit(a->dc, &rq, true, &v);
		if (rc) {
			snprintf(why, whylen, "deadline constraint test: %s",
				 v.msg[0] ? v.msg : strerror(rc));
			return false;
		}
		snprintf(why, whylen, "%s", v.msg);
		if (v.admitted)
			a->stats.admitted++;
		return v.admitted;
	}
	{
		struct dl_rt_request rq;
		struct dl_rt_verdict v;
		const char *pool = pool_of(a, e, j);
		uint32_t units[2];

		if (dl_rt_pool_units(a->st, pool, units, NULL) == ENOENT &&
		    (rc = dl_rt_set_pool(
			     a->st, pool,
			     dl_rt_partition_units(&e->view, pool,
						   e->cfg.realtime_share),
			     0, e->now))) {
			snprintf(why, whylen, "realtime pool %s: %s", pool,
				 strerror(rc));
			return false;
		}
		memset(&rq, 0, sizeof(rq));
		rq.id = jx + 1;
		rq.user = j->spec->user;
		rq.name = j->spec->name;
		rq.pool = pool;
		/* the engine starts a new job's first tasks at the plan
		 * ReplanDelay after its arrival (the sched plugin's cycle):
		 * that is when its tasks can take units in the model */
		rq.arrival = e->now + e->cfg.replan_delay;
		rq.deadline = j->deadline;
		for (int p = 0; p < 2; p++) {
			rq.tasks[p] = j->spec->phase[p].tasks;
			rq.cpus[p] = a->typed ? 1 : j->spec->phase[p].cpus;
			rq.wc[p] = wc[p];
			if (j->hard)
				rq.latest_start[p] = dl_rt_latest_start(
					j->deadline, j->time_limit[p]);
		}
		rq.typical_map = isfinite(typical) ? typical : 0;
		memset(&v, 0, sizeof(v));
		rc = dl_rt_admit(a->st, &rq, e->now, true, &v);
		snprintf(why, whylen, "%s", v.msg[0] ? v.msg : strerror(rc));
		if (rc || !v.admitted)
			return false;
		a->in_rt[jx] = true;
		a->stats.admitted++;
		return true;
	}
}

static void close_hold(struct sim_engine *e, struct sim_job *j, const char *how)
{
	j->held_s += e->now - j->held_since;
	j->held_since = -1;
	if (e->opt.log)
		fprintf(e->opt.log, "%12.3f job %u %s\n", e->now, j->idx + 1,
			how);
}

/* A hold of an admitted job starts or ends: counted for the summary and
 * the jobs CSV, written to the run's log with the job and its cause. */
static void note_hold(struct sim_engine *e, struct sim_job *j, bool held,
		      const char *why)
{
	if (held && !(j->held_since >= 0)) {
		j->holds++;
		j->held_since = e->now;
		snprintf(j->hold_why, sizeof(j->hold_why), "%s", why);
		if (e->opt.log)
			fprintf(e->opt.log, "%12.3f job %u held: %s\n", e->now,
				j->idx + 1, why);
	} else if (!held && j->held_since >= 0) {
		close_hold(e, j, "released: it can meet its deadline again");
	}
}

struct dl_plan *sim_adm_plan(void *state, const struct sim_policy *self,
			     struct sim_engine *e,
			     const struct dl_policy_input *in, char *err,
			     size_t errlen)
{
	struct adm *a = state;
	struct dl_config cfg = *in->cfg;
	struct dl_policy_input copy = *in;
	struct dl_plan *plan;

	(void) self;
	if (a->kind == SIM_ADM_DC) {
		cfg.policy = DL_POLICY_EDF;
		copy.cfg = &cfg;
		return dl_policy_plan(&copy, err, errlen);
	}
	/* the core's realtime plan cycle: resync, holds, queue ranks */
	cfg.policy = DL_POLICY_REALTIME;
	cfg.realtime_overhead = a->overhead;
	copy.cfg = &cfg;
	copy.rt = a->st;
	plan = dl_policy_plan(&copy, err, errlen);
	if (!plan)
		return NULL;
	/* An admitted job's throttle is the walk at plan time; the engine
	 * sees every slot free the instant it frees, so it runs the same
	 * walk at each start instead (may_start): such jobs keep their rank
	 * but no throttle here; held ones walk after every guaranteed job. */
	for (uint32_t k = 0; k < plan->njobs; k++) {
		struct dl_plan_job *pj = &plan->jobs[k];

		if (pj->managed && pj->phase >= 0 && pj->job_id &&
		    pj->job_id <= e->njobs && a->in_rt[pj->job_id - 1])
			note_hold(e, &e->jobs[pj->job_id - 1],
				  pj->verdict == DL_VERDICT_HELD, pj->explain);
		if (pj->managed &&
		    (pj->verdict == DL_VERDICT_ON_TRACK ||
		     pj->verdict == DL_VERDICT_HELD) &&
		    pj->phase >= 0 && pj->job_id && pj->job_id <= e->njobs &&
		    a->in_rt[pj->job_id - 1]) {
			pj->alloc =
				pj->pending[pj->phase] + pj->running[pj->phase];
			pj->alloc_for_need = pj->alloc;
			pj->urgent = true;
			pj->hold = false;
		}
	}
	return plan;
}

void sim_adm_task_end(void *state, struct sim_engine *e, uint32_t jx, int phase,
		      uint32_t task)
{
	struct adm *a = state;
	const struct sim_job *j = &e->jobs[jx];
	const struct sim_task *t = &j->task[phase][task];

	if (a->kind == SIM_ADM_REALTIME) {
		struct dl_task_rec r;

		memset(&r, 0, sizeof(r));
		r.job_id = jx + 1;
		r.user = j->spec->user;
		r.name = j->spec->name ? j->spec->name : "";
		r.phase = phase;
		r.start = t->start;
		r.end = t->end;
		r.input_bytes = r.cpu = r.mem = r.io = NAN;
		r.task = task;
		/* a record the history refuses (a name longer than it keeps)
		 * is only missing history: the time limit bounds the task */
		dl_hist_observe(a->hist, &r, e->now);
		return;
	}
	if (!dl_rt_cmax_observe(&a->cmax, phase, t->end - t->start,
				task_size(j, phase)))
		a->seen[phase] = true;
	a->stats.cmax[0] = a->cmax.c[0];
	a->stats.cmax[1] = a->cmax.c[1];
}

void sim_adm_job_end(void *state, struct sim_engine *e, uint32_t jx)
{
	struct adm *a = state;
	const struct sim_job *j = &e->jobs[jx];
	uint32_t n[2];
	bool updated = false;

	if (a->kind == SIM_ADM_DC) {
		dl_dc_release(a->dc, jx + 1, e->now);
		return;
	}
	if (!a->in_rt[jx])
		return;
	if (e->jobs[jx].held_since >= 0)
		close_hold(e, &e->jobs[jx], "finished while held");
	n[0] = j->ended[0];
	n[1] = j->ended[1];
	if (n[0] + n[1] > a->capends) {
		double *q = realloc(a->ends, (n[0] + n[1]) * sizeof(*q));

		if (q) {
			a->ends = q;
			a->capends = n[0] + n[1];
		}
	}
	if (n[0] + n[1] <= a->capends) {
		uint32_t k = 0;

		for (int p = 0; p < 2; p++)
			for (uint32_t i = 0; i < j->started[p]; i++)
				if (j->task[p][i].start >= 0 &&
				    j->task[p][i].end <= e->now &&
				    k < a->capends)
					a->ends[k++] = j->task[p][i].end;
		/* Alg. V: the job's actual finish against its vectors */
		if (!dl_rt_feedback(a->st, jx + 1, a->ends, n[0],
				    a->ends + n[0], n[1], e->now, &updated) &&
		    updated)
			a->stats.feedback_updates++;
	}
	dl_rt_remove(a->st, jx + 1);
	a->in_rt[jx] = false;
}

bool sim_adm_may_start(void *state, struct sim_engine *e, uint32_t jx,
		       int phase)
{
	struct adm *a = state;
	const struct sim_job *me = &e->jobs[jx];
	const char *pool;
	uint32_t cnt, m = 0, units[2] = {0, 0}, mine = UINT32_MAX;
	bool mine_held = false;
	uint64_t running = 0, idle;
	bool split = false;
	int walk_pool;

	if (!a->in_rt[jx])
		return true; /* no deadline: left to the dispatcher */
	pool = pool_of(a, e, me);
	if (dl_rt_pool_units(a->st, pool, units, &split))
		return false;
	walk_pool = split ? phase : 0;
	cnt = dl_rt_count(a->st);
	if (cnt > a->capwalk) {
		struct dl_rt_walk_job *w = realloc(a->walk, cnt * sizeof(*w));
		uint32_t *x;

		if (!w)
			return false;
		a->walk = w;
		x = realloc(a->walk_job, cnt * sizeof(*x));
		if (!x)
			return false;
		a->walk_job = x;
		a->capwalk = cnt;
	}
	/* the pool's admitted jobs in queue order, as Alg. IV walks them;
	 * held jobs after every guaranteed one, without reservations (the
	 * core's plan cycle walks them so too) */
	for (uint32_t k = 0; k < 2 * cnt; k++) {
		uint32_t i = k < cnt ? k : k - cnt;
		bool tail = k >= cnt;
		struct dl_rt_job_info info;
		const struct sim_job *j;
		struct dl_rt_walk_job *w;
		int act;

		if (dl_rt_job_at(a->st, i, &info))
			break;
		if (strcmp(info.pool, pool) || info.finished || !info.id ||
		    info.id > e->njobs)
			continue;
		j = &e->jobs[info.id - 1];
		if (j->state != SIM_JOB_ACTIVE)
			continue;
		if (!tail)
			for (int p = 0; p < 2; p++)
				if (!split || p == walk_pool)
					running += (uint64_t) j->dj->phase[p]
							   .nrunning *
						   (info.cpus[p] ? info.cpus[p]
								 : 1);
		if (info.held != tail)
			continue;
		act = dl_job_active_phase(j->dj);
		if (act < 0)
			continue;
		w = &a->walk[m];
		memset(w, 0, sizeof(*w));
		if (!split || act == walk_pool) {
			w->ready = dl_phase_pending(&j->dj->phase[act]);
			w->cpus = info.cpus[act];
		}
		/* not in its reduce stage yet: its reducers' units */
		if (act == DL_MAP && (!split || walk_pool == DL_REDUCE) &&
		    !info.held)
			w->reserve =
				(uint64_t) info.tasks[DL_REDUCE] *
				(info.cpus[DL_REDUCE] ? info.cpus[DL_REDUCE]
						      : 1);
		if (info.id == (uint64_t) jx + 1) {
			mine = m;
			mine_held = tail;
		}
		a->walk_job[m++] = info.id - 1;
	}
	if (mine == UINT32_MAX)
		return false; /* not in the queue any more */
	/* free units: what admission may promise minus what admitted tasks
	 * hold, never more than the engine has free (typed: per phase) */
	idle = (uint64_t) (e->free_units[a->typed ? phase : 0] > 0
				   ? e->free_units[a->typed ? phase : 0]
				   : 0);
	if (running >= units[walk_pool])
		return false;
	if (idle > units[walk_pool] - running)
		idle = units[walk_pool] - running;
	dl_rt_walk(a->walk, m, idle);
	if (!a->walk[mine].granted)
		return false;
	/* as the plan's starts: a held job is outside the chain, so it is
	 * marked started only once released */
	if (!mine_held && !a->marked[jx]) {
		dl_rt_mark_started(a->st, jx + 1);
		a->marked[jx] = true;
	}
	return true;
}
