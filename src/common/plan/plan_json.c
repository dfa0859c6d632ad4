/*
 * plan_json.c - plan <-> JSON with json-c, and atomic plan files.
 */
#include "common/plan/plan_json.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io/atomic_file.h"
#include "common/io/json.h"

#define PLAN_JSON_VERSION 1
#define MAX_PLAN_FILE     (64u << 20)

static struct json_object *phase_counts(const uint32_t *v)
{
	struct json_object *a = json_object_new_array_ext(DL_PHASES);

	for (int p = 0; p < DL_PHASES; p++)
		json_object_array_add(a, json_object_new_uint64(v[p]));
	return a;
}

/* [cpu, mem, io]; a non-finite entry is null (an unconstrained capacity,
 * an unknown demand) */
static struct json_object *triple(const double v[3])
{
	struct json_object *a = json_object_new_array_ext(3);

	for (int k = 0; k < 3; k++)
		json_object_array_add(a, dl_json_new_num(v[k]));
	return a;
}

static struct json_object *job_to_json(const struct dl_plan_job *j)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pools, *demand;

	if (!o)
		return NULL;
	dl_json_put_u64(o, "job_id", j->job_id);
	dl_json_put_u64(o, "reduce_id", j->reduce_id);
	dl_json_put_str(o, "user", j->user);
	dl_json_put_str(o, "account", j->account);
	dl_json_put_str(o, "name", j->name);
	dl_json_put_str(o, "phase",
			j->phase == DL_MAP      ? "map"
			: j->phase == DL_REDUCE ? "reduce"
						: "done");
	dl_json_put_str(o, "class", dl_class_name(j->cls));
	dl_json_put_str(o, "verdict", dl_verdict_name(j->verdict));
	dl_json_put_u64(o, "rank", j->rank);
	dl_json_put_u64(o, "alloc", j->alloc);
	pools = json_object_new_array_ext(DL_POOLS);
	for (int k = 0; k < DL_POOLS; k++)
		json_object_array_add(pools,
				      json_object_new_uint64(j->alloc_pool[k]));
	json_object_object_add(o, "alloc_pool", pools);
	dl_json_put_u64(o, "alloc_for_need", j->alloc_for_need);
	json_object_object_add(o, "urgent", json_object_new_boolean(j->urgent));
	dl_json_put_u64(o, "ending_soon", j->ending_soon);
	json_object_object_add(o, "managed",
			       json_object_new_boolean(j->managed));
	json_object_object_add(o, "hold", json_object_new_boolean(j->hold));
	dl_json_put_num(o, "need", j->need);
	dl_json_put_num(o, "sreq", j->sreq);
	/* placement policies (ras, reverse); null otherwise */
	dl_json_put_num(o, "utility", j->utility);
	dl_json_put_num(o, "sfit", j->sfit);
	/* one task as placed, map and reducer: select/deadline enforces a
	 * plan restored after a slurmctld restart with it */
	demand = json_object_new_array_ext(DL_PHASES);
	for (int p = 0; p < DL_PHASES; p++) {
		double d[3] = {j->demand[p].cpu, j->demand[p].mem,
			       j->demand[p].io};

		json_object_array_add(demand, triple(d));
	}
	json_object_object_add(o, "demand", demand);
	dl_json_put_num(o, "mu", j->mu);
	dl_json_put_num(o, "mu_sd", j->mu_sd);
	dl_json_put_str(o, "mu_source", j->mu_source);
	dl_json_put_num(o, "deadline", j->deadline);
	dl_json_put_num(o, "goal", j->goal);
	dl_json_put_num(o, "predicted_finish", j->predicted_finish);
	dl_json_put_num(o, "finish_err", j->finish_err);
	/* triage's memory across cycles (its hysteresis): a plan restored
	 * after a restart decides as the one before it would have */
	dl_json_put_num(o, "hopeless_since", j->hopeless_since);
	dl_json_put_u64(o, "ahead_of", j->ahead_of);
	dl_json_put_num(o, "promise", j->promise);
	json_object_object_add(o, "given_up_late",
			       json_object_new_boolean(j->given_up_late));
	json_object_object_add(o, "tasks", phase_counts(j->tasks));
	json_object_object_add(o, "done", phase_counts(j->done));
	json_object_object_add(o, "running", phase_counts(j->running));
	json_object_object_add(o, "pending", phase_counts(j->pending));
	dl_json_put_str(o, "hold_reason", j->hold_reason);
	dl_json_put_str(o, "explain", j->explain);
	return o;
}

/* Policy=portfolio's record: the last round's scores and decision */
struct json_object *dl_plan_portfolio_to_json(const struct dl_plan_portfolio *p)
{
	struct json_object *o = json_object_new_object(), *a;

	if (!o)
		return NULL;
	dl_json_put_u64(o, "rounds", p->rounds);
	dl_json_put_u64(o, "switches", p->switches);
	dl_json_put_num(o, "active_since", p->active_since);
	dl_json_put_num(o, "last_round", p->last_round);
	dl_json_put_num(o, "round_s", p->round_s);
	json_object_object_add(o, "over_budget",
			       json_object_new_boolean(p->over_budget));
	json_object_object_add(o, "switched",
			       json_object_new_boolean(p->switched));
	dl_json_put_str(o, "why", p->why);
	a = json_object_new_array();
	for (uint32_t i = 0; a && i < p->n && i < DL_PLAN_PF_MAX; i++) {
		const struct dl_plan_pf_score *sc = &p->score[i];
		struct json_object *e = json_object_new_object();

		if (!e)
			break;
		dl_json_put_str(e, "policy", dl_policy_name(sc->policy));
		json_object_object_add(e, "scored",
				       json_object_new_boolean(sc->scored));
		if (sc->scored) {
			dl_json_put_num(e, "score", sc->total);
			dl_json_put_num(e, "missed_pct", sc->missed_pct);
			dl_json_put_num(e, "tardiness_min", sc->tardiness_min);
			dl_json_put_num(e, "bsld", sc->bsld);
		}
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "scores", a);
	return o;
}

/* What triage carries from plan to plan besides the jobs (the blocking
 * reserve's history of slack and grain, oldest first, and the arrival
 * rate): in the file, so that a restarted slurmctld does not start with
 * the reserve off and no rate until new jobs refill them. */
static void add_memory(struct json_object *o, const struct dl_plan *plan)
{
	const struct dl_plan_slacks *s = &plan->slacks;

	if (s->n && s->n <= DL_PLAN_SLACKS && s->next < DL_PLAN_SLACKS) {
		struct json_object *a = json_object_new_array_ext((int) s->n);
		/* the oldest entry sits at next once the ring is full */
		uint32_t first = s->n < DL_PLAN_SLACKS ? 0 : s->next;

		for (uint32_t k = 0; a && k < s->n; k++) {
			uint32_t i = (first + k) % DL_PLAN_SLACKS;
			struct json_object *e = json_object_new_array_ext(2);

			json_object_array_add(e, dl_json_new_num(s->v[i]));
			json_object_array_add(e, dl_json_new_num(s->grain[i]));
			json_object_array_add(a, e);
		}
		json_object_object_add(o, "reserve_history", a);
	}
	if (plan->arrivals.at > 0) {
		struct json_object *a = json_object_new_object();

		dl_json_put_num(a, "rate", plan->arrivals.rate);
		dl_json_put_num(a, "at", plan->arrivals.at);
		dl_json_put_num(a, "since", plan->arrivals.since);
		json_object_object_add(o, "arrivals", a);
	}
}

struct json_object *dl_plan_to_json(const struct dl_plan *plan)
{
	struct json_object *o, *jobs, *st, *pc, *pv, *place, *nodes;

	if (!plan)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "version",
			       json_object_new_int(PLAN_JSON_VERSION));
	dl_json_put_num(o, "now", plan->now);
	dl_json_put_str(o, "policy", dl_policy_name(plan->policy));
	dl_json_put_u64(o, "cycle", plan->cycle);
	if (plan->portfolio.on)
		json_object_object_add(
			o, "portfolio",
			dl_plan_portfolio_to_json(&plan->portfolio));

	st = json_object_new_object();
	dl_json_put_u64(st, "jobs", plan->stats.jobs);
	pc = json_object_new_object();
	for (int c = 0; c <= DL_CLASS_UNMANAGED; c++)
		dl_json_put_u64(pc, dl_class_name(c), plan->stats.per_class[c]);
	json_object_object_add(st, "per_class", pc);
	pv = json_object_new_object();
	for (int v = 0; v < DL_VERDICT_COUNT; v++)
		dl_json_put_u64(pv, dl_verdict_name(v),
				plan->stats.per_verdict[v]);
	json_object_object_add(st, "per_verdict", pv);
	dl_json_put_num(st, "capacity_cpus", plan->stats.capacity_cpus);
	dl_json_put_u64(st, "grants", plan->stats.grants);
	dl_json_put_u64(st, "compute_us", plan->stats.compute_us);
	dl_json_put_u64(st, "snapshot_us", plan->stats.snapshot_us);
	dl_json_put_u64(st, "apply_us", plan->stats.apply_us);
	dl_json_put_str(st, "estimator", plan->stats.estimator);
	json_object_object_add(o, "stats", st);

	jobs = json_object_new_array_ext(plan->njobs ? (int) plan->njobs : 1);
	for (uint32_t i = 0; i < plan->njobs; i++)
		json_object_array_add(jobs, job_to_json(&plan->jobs[i]));
	json_object_object_add(o, "jobs", jobs);

	place = json_object_new_array_ext(plan->nplace ? (int) plan->nplace
						       : 1);
	for (uint32_t i = 0; i < plan->nplace; i++) {
		struct json_object *r = json_object_new_array_ext(4);

		json_object_array_add(
			r, json_object_new_uint64(plan->place[i].job));
		json_object_array_add(
			r, json_object_new_uint64(plan->place[i].node));
		json_object_array_add(
			r, json_object_new_uint64(plan->place[i].maps));
		json_object_array_add(
			r, json_object_new_uint64(plan->place[i].reduces));
		json_object_array_add(place, r);
	}
	json_object_object_add(o, "placement", place);
	/* the nodes the rows index, with what deadline tasks may use of each
	 * (null: not constrained) */
	nodes = json_object_new_array_ext(plan->nnodes ? (int) plan->nnodes
						       : 1);
	for (uint32_t i = 0; plan->nodes && i < plan->nnodes; i++) {
		struct json_object *n = json_object_new_object();

		dl_json_put_str(n, "name", plan->nodes[i].name);
		json_object_object_add(n, "cap", triple(plan->nodes[i].cap));
		json_object_array_add(nodes, n);
	}
	json_object_object_add(o, "nodes", nodes);
	add_memory(o, plan);
	return o;
}

char *dl_plan_to_string(const struct dl_plan *plan)
{
	struct json_object *o = dl_plan_to_json(plan);
	char *s;

	if (!o)
		return NULL;
	s = strdup(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return s;
}

/* ---- parsing ---- */

#define REQ DL_JSON_REQUIRED

static double get_num(struct dl_json_rd *r, const struct json_object *o,
		      const char *path, const char *k)
{
	return dl_json_num(r, o, path, k, REQ | DL_JSON_NULL, -INFINITY,
			   INFINITY, NAN);
}

static void get_str(struct dl_json_rd *r, const struct json_object *o,
		    const char *path, const char *k, char *dst, size_t len)
{
	dl_plan_copy_str(dst, len,
			 dl_json_str(r, o, path, k, REQ, 0, SIZE_MAX, ""));
}

/* The optional "reserve_history" ([slack, grain] pairs, oldest first; only
 * the newest DL_PLAN_SLACKS kept) and "arrivals" (add_memory). */
static void get_memory(struct dl_json_rd *r, const struct json_object *obj,
		       struct dl_plan *plan)
{
	const struct json_object *a, *o;
	size_t n;

	a = dl_json_array(r, obj, NULL, "reserve_history", 0, DL_JSON_ANY_LEN);
	n = a && !r->failed ? json_object_array_length(a) : 0;
	for (size_t i = n > DL_PLAN_SLACKS ? n - DL_PLAN_SLACKS : 0;
	     i < n && !r->failed; i++) {
		const struct json_object *e = json_object_array_get_idx(a, i);
		struct dl_plan_slacks *s = &plan->slacks;
		char path[48];

		dl_json_label(path, sizeof(path), "reserve_history", NULL,
			      (long) i);
		if (!json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 2) {
			dl_json_fail(r, path, " must be an array of 2 numbers");
			return;
		}
		/* null is an infinite slack: a job that blocks nothing */
		s->v[s->n] = dl_json_num_of(r, json_object_array_get_idx(e, 0),
					    path, 0, INFINITY, INFINITY);
		s->grain[s->n] =
			dl_json_num_of(r, json_object_array_get_idx(e, 1), path,
				       0, INFINITY, 0);
		s->n++;
		s->next = s->n % DL_PLAN_SLACKS;
	}
	o = dl_json_get(r, obj, NULL, "arrivals", json_type_object, 0);
	if (!o || r->failed)
		return;
	plan->arrivals.rate =
		dl_json_num(r, o, "arrivals", "rate", REQ, 0, INFINITY, 0);
	plan->arrivals.at =
		dl_json_num(r, o, "arrivals", "at", REQ, 0, INFINITY, 0);
	/* absent in state saved before it was kept: learnt long enough */
	plan->arrivals.since =
		dl_json_num(r, o, "arrivals", "since", 0, 0, INFINITY, 0);
}

/* The optional "portfolio" object (Policy=portfolio's plans). */
static void get_portfolio(struct dl_json_rd *r, const struct json_object *obj,
			  struct dl_plan *plan)
{
	const struct json_object *o, *a;
	struct dl_plan_portfolio *p = &plan->portfolio;
	size_t n;

	o = dl_json_get(r, obj, NULL, "portfolio", json_type_object, 0);
	if (!o || r->failed)
		return;
	p->on = true;
	p->rounds = (uint32_t) dl_json_uint(r, o, "portfolio", "rounds", 0, 0,
					    UINT32_MAX, 0);
	p->switches = (uint32_t) dl_json_uint(r, o, "portfolio", "switches", 0,
					      0, UINT32_MAX, 0);
	p->active_since = dl_json_num(r, o, "portfolio", "active_since", 0,
				      -INFINITY, INFINITY, 0);
	p->last_round = dl_json_num(r, o, "portfolio", "last_round", 0,
				    -INFINITY, INFINITY, 0);
	p->round_s =
		dl_json_num(r, o, "portfolio", "round_s", 0, 0, INFINITY, 0);
	p->over_budget =
		dl_json_bool(r, o, "portfolio", "over_budget", 0, false);
	p->switched = dl_json_bool(r, o, "portfolio", "switched", 0, false);
	dl_plan_copy_str(
		p->why, sizeof(p->why),
		dl_json_str(r, o, "portfolio", "why", 0, 0, SIZE_MAX, ""));
	a = dl_json_array(r, o, "portfolio", "scores", 0, DL_JSON_ANY_LEN);
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n && i < DL_PLAN_PF_MAX && !r->failed; i++) {
		const struct json_object *e = json_object_array_get_idx(a, i);
		struct dl_plan_pf_score *sc = &p->score[i];
		char name[32] = "";
		int k;

		if (!dl_json_is_object(r, e, "portfolio.scores"))
			break;
		dl_plan_copy_str(name, sizeof(name),
				 dl_json_str(r, e, "portfolio.scores", "policy",
					     0, 0, SIZE_MAX, ""));
		k = dl_policy_from_name(name);
		sc->policy = k < 0 ? DL_POLICY_COUNT : (enum dl_policy) k;
		sc->scored = dl_json_bool(r, e, "portfolio.scores", "scored", 0,
					  false);
		sc->total = dl_json_num(r, e, "portfolio.scores", "score", 0,
					-INFINITY, INFINITY, NAN);
		sc->missed_pct = dl_json_num(r, e, "portfolio.scores",
					     "missed_pct", 0, 0, 100, NAN);
		sc->tardiness_min =
			dl_json_num(r, e, "portfolio.scores", "tardiness_min",
				    0, 0, INFINITY, NAN);
		sc->bsld = dl_json_num(r, e, "portfolio.scores", "bsld", 0, 0,
				       INFINITY, NAN);
		p->n = (uint32_t) i + 1;
	}
}

static int name_index(const char *s, const char *(*name)(int), int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, name(i)))
			return i;
	return -1;
}

static const char *class_name_i(int i)
{
	return dl_class_name((enum dl_class) i);
}

static const char *verdict_name_i(int i)
{
	return dl_verdict_name((enum dl_verdict) i);
}

static void get_counts(struct dl_json_rd *r, const struct json_object *o,
		       const char *path, const char *k, uint32_t *dst, int n)
{
	const struct json_object *a = dl_json_array(r, o, path, k, REQ, n);
	char label[64];

	for (int i = 0; a && i < n; i++) {
		dl_json_label(label, sizeof(label), path, k, -1);
		dst[i] = (uint32_t) dl_json_uint_of(
			r, json_object_array_get_idx(a, i), label, 0,
			UINT32_MAX, 0);
	}
}

/* a, labelled label, as [a, b, c] of numbers >= 0 or null (dflt) */
static void get_triple(struct dl_json_rd *r, const struct json_object *a,
		       const char *label, double dflt, double v[3])
{
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != 3) {
		if (!r->failed)
			dl_json_fail(r, label,
				     " must be an array of 3 numbers or nulls");
		return;
	}
	for (int k = 0; k < 3; k++)
		v[k] = dl_json_num_of(r, json_object_array_get_idx(a, k), label,
				      0, DBL_MAX, dflt);
}

/* "demand", absent from plan files written before it: zero */
static void get_demand(struct dl_json_rd *r, const struct json_object *o,
		       const char *path, struct dl_plan_job *j)
{
	const struct json_object *a =
		dl_json_array(r, o, path, "demand", 0, DL_PHASES);
	char base[64], label[72];

	dl_json_label(base, sizeof(base), path, "demand", -1);
	for (int p = 0; a && p < DL_PHASES && !r->failed; p++) {
		double v[3] = {0, 0, 0};

		dl_json_label(label, sizeof(label), base, NULL, p);
		get_triple(r, json_object_array_get_idx(a, p), label, NAN, v);
		j->demand[p] = (struct dl_demand){v[0], v[1], v[2]};
	}
}

/* "nodes", absent from plan files written before it: none (a restored
 * placement plan then waits for the next cycle) */
static void get_nodes(struct dl_json_rd *r, const struct json_object *obj,
		      struct dl_plan *plan)
{
	const struct json_object *a =
		dl_json_array(r, obj, NULL, "nodes", 0, DL_JSON_ANY_LEN);
	size_t n = a ? json_object_array_length(a) : 0;
	char label[48], cap[56];

	if (!n || r->failed)
		return;
	if (n > UINT32_MAX / 2) {
		dl_json_fail(r, "nodes", ": too many");
		return;
	}
	plan->nodes = calloc(n, sizeof(*plan->nodes));
	if (!plan->nodes) {
		dl_json_fail(r, NULL, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && !r->failed; i++) {
		const struct json_object *e = json_object_array_get_idx(a, i);
		struct dl_plan_node *pn = &plan->nodes[i];

		dl_json_label(label, sizeof(label), "nodes", NULL, (long) i);
		if (!dl_json_is_object(r, e, label))
			return;
		dl_plan_copy_str(pn->name, sizeof(pn->name),
				 dl_json_str(r, e, label, "name", REQ, 1,
					     sizeof(pn->name) - 1, ""));
		dl_json_label(cap, sizeof(cap), label, "cap", -1);
		get_triple(r, dl_json_array(r, e, label, "cap", REQ, 3), cap,
			   INFINITY, pn->cap);
		if (!r->failed)
			plan->nnodes = (uint32_t) i + 1;
	}
}

static void job_from_json(struct dl_json_rd *r, const struct json_object *o,
			  const char *path, struct dl_plan_job *j)
{
	char buf[32];
	int idx;

	j->job_id = dl_json_uint(r, o, path, "job_id", REQ, 0, UINT64_MAX, 0);
	j->reduce_id =
		dl_json_uint(r, o, path, "reduce_id", REQ, 0, UINT64_MAX, 0);
	get_str(r, o, path, "user", j->user, sizeof(j->user));
	get_str(r, o, path, "account", j->account, sizeof(j->account));
	get_str(r, o, path, "name", j->name, sizeof(j->name));
	get_str(r, o, path, "phase", buf, sizeof(buf));
	j->phase = !strcmp(buf, "map")      ? DL_MAP
		   : !strcmp(buf, "reduce") ? DL_REDUCE
					    : -1;
	get_str(r, o, path, "class", buf, sizeof(buf));
	idx = name_index(buf, class_name_i, DL_CLASS_UNMANAGED + 1);
	j->cls = idx < 0 ? DL_CLASS_UNMANAGED : (enum dl_class) idx;
	get_str(r, o, path, "verdict", buf, sizeof(buf));
	idx = name_index(buf, verdict_name_i, DL_VERDICT_COUNT);
	if (idx < 0 && !r->failed)
		dl_json_fail(r, path, ": unknown verdict '%s'", buf);
	j->verdict = idx < 0 ? DL_VERDICT_ON_TRACK : (enum dl_verdict) idx;
	j->rank = (uint32_t) dl_json_uint(r, o, path, "rank", REQ, 0,
					  UINT32_MAX, 0);
	j->alloc = (uint32_t) dl_json_uint(r, o, path, "alloc", REQ, 0,
					   UINT32_MAX, 0);
	get_counts(r, o, path, "alloc_pool", j->alloc_pool, DL_POOLS);
	j->alloc_for_need = (uint32_t) dl_json_uint(
		r, o, path, "alloc_for_need", REQ, 0, UINT32_MAX, 0);
	j->urgent = dl_json_bool(r, o, path, "urgent", REQ, false);
	/* optional: plans saved before it existed still load */
	j->ending_soon = (uint32_t) dl_json_uint(r, o, path, "ending_soon", 0,
						 0, UINT32_MAX, 0);
	j->managed = dl_json_bool(r, o, path, "managed", REQ, false);
	j->hold = dl_json_bool(r, o, path, "hold", REQ, false);
	j->need = get_num(r, o, path, "need");
	j->sreq = get_num(r, o, path, "sreq");
	/* older plan files lack these: NaN when absent or null */
	j->utility =
		dl_json_num(r, o, path, "utility", 0, -INFINITY, INFINITY, NAN);
	j->sfit = dl_json_num(r, o, path, "sfit", 0, -INFINITY, INFINITY, NAN);
	get_demand(r, o, path, j);
	j->mu = get_num(r, o, path, "mu");
	j->mu_sd = get_num(r, o, path, "mu_sd");
	get_str(r, o, path, "mu_source", j->mu_source, sizeof(j->mu_source));
	j->deadline = get_num(r, o, path, "deadline");
	j->goal = get_num(r, o, path, "goal");
	j->predicted_finish = get_num(r, o, path, "predicted_finish");
	j->finish_err = get_num(r, o, path, "finish_err");
	/* older plan files lack these: never given up, ahead of nobody,
	 * promised nothing */
	j->hopeless_since =
		dl_json_num(r, o, path, "hopeless_since", 0, 0, INFINITY, 0);
	j->ahead_of = dl_json_uint(r, o, path, "ahead_of", 0, 0, UINT64_MAX, 0);
	j->promise = dl_json_num(r, o, path, "promise", 0, 0, INFINITY, 0);
	j->given_up_late = dl_json_bool(r, o, path, "given_up_late", 0, false);
	get_counts(r, o, path, "tasks", j->tasks, DL_PHASES);
	get_counts(r, o, path, "done", j->done, DL_PHASES);
	get_counts(r, o, path, "running", j->running, DL_PHASES);
	get_counts(r, o, path, "pending", j->pending, DL_PHASES);
	get_str(r, o, path, "hold_reason", j->hold_reason,
		sizeof(j->hold_reason));
	get_str(r, o, path, "explain", j->explain, sizeof(j->explain));
}

struct dl_plan *dl_plan_from_json(const struct json_object *obj, char *err,
				  size_t errlen)
{
	struct dl_json_rd r = DL_JSON_RD(err, errlen);
	const struct json_object *jobs, *st, *place;
	struct dl_plan *plan;
	char policy[32], path[48];
	size_t n, np;
	int p;

	if (!dl_json_is_object(&r, obj, "plan"))
		return NULL;
	if (dl_json_uint(&r, obj, NULL, "version", REQ, 0, UINT32_MAX, 0) !=
		    PLAN_JSON_VERSION &&
	    !r.failed) {
		snprintf(err, err ? errlen : 0, "unsupported plan version");
		return NULL;
	}
	jobs = dl_json_array(&r, obj, NULL, "jobs", REQ, DL_JSON_ANY_LEN);
	st = dl_json_get(&r, obj, NULL, "stats", json_type_object, REQ);
	place = dl_json_array(&r, obj, NULL, "placement", REQ, DL_JSON_ANY_LEN);
	if (r.failed)
		return NULL;
	n = json_object_array_length(jobs);
	np = json_object_array_length(place);
	if (n > UINT32_MAX / 2 || np > UINT32_MAX / 2) {
		snprintf(err, err ? errlen : 0, "plan too large");
		return NULL;
	}
	plan = dl_plan_new((uint32_t) n);
	if (!plan) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return NULL;
	}
	plan->now = get_num(&r, obj, NULL, "now");
	plan->cycle =
		dl_json_uint(&r, obj, NULL, "cycle", REQ, 0, UINT64_MAX, 0);
	get_str(&r, obj, NULL, "policy", policy, sizeof(policy));
	p = dl_policy_from_name(policy);
	plan->policy = p < 0 ? DL_POLICY_ADAPTIVE : (enum dl_policy) p;
	plan->stats.capacity_cpus = get_num(&r, st, "stats", "capacity_cpus");
	plan->stats.grants =
		dl_json_uint(&r, st, "stats", "grants", REQ, 0, UINT64_MAX, 0);
	plan->stats.compute_us = dl_json_uint(&r, st, "stats", "compute_us",
					      REQ, 0, UINT64_MAX, 0);
	plan->stats.snapshot_us = dl_json_uint(&r, st, "stats", "snapshot_us",
					       REQ, 0, UINT64_MAX, 0);
	plan->stats.apply_us = dl_json_uint(&r, st, "stats", "apply_us", REQ, 0,
					    UINT64_MAX, 0);
	get_str(&r, st, "stats", "estimator", plan->stats.estimator,
		sizeof(plan->stats.estimator));
	get_nodes(&r, obj, plan);
	get_portfolio(&r, obj, plan);
	get_memory(&r, obj, plan);
	for (size_t i = 0; i < n && !r.failed; i++) {
		const struct json_object *jo =
			json_object_array_get_idx(jobs, i);

		dl_json_label(path, sizeof(path), "jobs", NULL, (long) i);
		if (dl_json_is_object(&r, jo, path))
			job_from_json(&r, jo, path, &plan->jobs[i]);
	}
	if (!r.failed && np) {
		plan->place = calloc(np, sizeof(*plan->place));
		if (!plan->place)
			dl_json_fail(&r, NULL, "out of memory");
	}
	for (size_t i = 0; i < np && !r.failed; i++) {
		const struct json_object *row =
			json_object_array_get_idx(place, i);
		uint32_t v[4] = {0, 0, 0, 0};

		dl_json_label(path, sizeof(path), "placement", NULL, (long) i);
		if (!json_object_is_type(row, json_type_array) ||
		    json_object_array_length(row) != 4) {
			dl_json_fail(&r, path,
				     " must be an array of 4 numbers");
			break;
		}
		for (int k = 0; k < 4; k++)
			v[k] = (uint32_t) dl_json_uint_of(
				&r, json_object_array_get_idx(row, k), path, 0,
				UINT32_MAX, 0);
		if (!r.failed && v[0] >= n)
			dl_json_fail(&r, path, " names job %u of %zu", v[0], n);
		if (!r.failed && plan->nnodes && v[1] >= plan->nnodes)
			dl_json_fail(&r, path, " names node %u of %u", v[1],
				     plan->nnodes);
		if (r.failed)
			break;
		plan->place[i] = (struct dl_place){v[0], v[1], v[2], v[3]};
		plan->nplace = (uint32_t) i + 1;
	}
	if (r.failed) {
		dl_plan_free(plan);
		return NULL;
	}
	dl_plan_finalize(plan);
	return plan;
}

struct dl_plan *dl_plan_from_string(const char *text, char *err, size_t errlen)
{
	struct json_object *o;
	struct dl_plan *plan;

	if (!text) {
		snprintf(err, err ? errlen : 0, "no plan text");
		return NULL;
	}
	o = dl_json_parse(text, strlen(text), MAX_PLAN_FILE, "plan", err,
			  errlen);
	if (!o)
		return NULL;
	plan = dl_plan_from_json(o, err, errlen);
	json_object_put(o);
	return plan;
}

int dl_plan_write_file(const struct dl_plan *plan, const char *path,
		       unsigned mode)
{
	char *text = dl_plan_to_string(plan);
	int rc;

	if (!text)
		return ENOMEM;
	rc = dl_atomic_write(path, text, strlen(text), mode);
	free(text);
	return rc;
}

struct dl_plan *dl_plan_read_file(const char *path, char *err, size_t errlen)
{
	char *text = NULL;
	struct dl_plan *plan;
	int rc = dl_read_file(path, MAX_PLAN_FILE, &text, NULL);

	if (rc) {
		snprintf(err, err ? errlen : 0, "%s: %s",
			 path ? path : "(null)", dl_file_strerror(rc));
		return NULL;
	}
	plan = dl_plan_from_string(text, err, errlen);
	free(text);
	return plan;
}
