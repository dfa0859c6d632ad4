/*
 * plan_json.c - plan <-> JSON with json-c, and atomic plan files.
 */
#include "common/plan/plan_json.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io/atomic_file.h"
#include "common/io/json_text.h"

#define PLAN_JSON_VERSION 1
#define MAX_PLAN_FILE     (64u << 20)

static void put_num(struct json_object *o, const char *k, double v)
{
	/* JSON has no NaN/Infinity: unknown values are null */
	json_object_object_add(o, k,
			       isfinite(v) ? json_object_new_double(v) : NULL);
}

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, dl_json_string(v ? v : ""));
}

static struct json_object *phase_counts(const uint32_t *v)
{
	struct json_object *a = json_object_new_array_ext(DL_PHASES);

	for (int p = 0; p < DL_PHASES; p++)
		json_object_array_add(a, json_object_new_uint64(v[p]));
	return a;
}

static struct json_object *job_to_json(const struct dl_plan_job *j)
{
	struct json_object *o = json_object_new_object();
	struct json_object *pools;

	if (!o)
		return NULL;
	put_u64(o, "job_id", j->job_id);
	put_u64(o, "reduce_id", j->reduce_id);
	put_str(o, "user", j->user);
	put_str(o, "account", j->account);
	put_str(o, "name", j->name);
	put_str(o, "phase",
		j->phase == DL_MAP      ? "map"
		: j->phase == DL_REDUCE ? "reduce"
					: "done");
	put_str(o, "class", dl_class_name(j->cls));
	put_str(o, "verdict", dl_verdict_name(j->verdict));
	put_u64(o, "rank", j->rank);
	put_u64(o, "alloc", j->alloc);
	pools = json_object_new_array_ext(DL_POOLS);
	for (int k = 0; k < DL_POOLS; k++)
		json_object_array_add(pools,
				      json_object_new_uint64(j->alloc_pool[k]));
	json_object_object_add(o, "alloc_pool", pools);
	put_u64(o, "alloc_for_need", j->alloc_for_need);
	json_object_object_add(o, "urgent", json_object_new_boolean(j->urgent));
	json_object_object_add(o, "managed",
			       json_object_new_boolean(j->managed));
	json_object_object_add(o, "hold", json_object_new_boolean(j->hold));
	put_num(o, "need", j->need);
	put_num(o, "sreq", j->sreq);
	/* placement policies (ras, reverse); null otherwise */
	put_num(o, "utility", j->utility);
	put_num(o, "sfit", j->sfit);
	put_num(o, "mu", j->mu);
	put_num(o, "mu_sd", j->mu_sd);
	put_str(o, "mu_source", j->mu_source);
	put_num(o, "deadline", j->deadline);
	put_num(o, "goal", j->goal);
	put_num(o, "predicted_finish", j->predicted_finish);
	put_num(o, "finish_err", j->finish_err);
	json_object_object_add(o, "tasks", phase_counts(j->tasks));
	json_object_object_add(o, "done", phase_counts(j->done));
	json_object_object_add(o, "running", phase_counts(j->running));
	json_object_object_add(o, "pending", phase_counts(j->pending));
	put_str(o, "hold_reason", j->hold_reason);
	put_str(o, "explain", j->explain);
	return o;
}

struct json_object *dl_plan_to_json(const struct dl_plan *plan)
{
	struct json_object *o, *jobs, *st, *pc, *pv, *place;

	if (!plan)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "version",
			       json_object_new_int(PLAN_JSON_VERSION));
	put_num(o, "now", plan->now);
	put_str(o, "policy", dl_policy_name(plan->policy));
	put_u64(o, "cycle", plan->cycle);

	st = json_object_new_object();
	put_u64(st, "jobs", plan->stats.jobs);
	pc = json_object_new_object();
	for (int c = 0; c <= DL_CLASS_UNMANAGED; c++)
		put_u64(pc, dl_class_name(c), plan->stats.per_class[c]);
	json_object_object_add(st, "per_class", pc);
	pv = json_object_new_object();
	for (int v = 0; v < DL_VERDICT_COUNT; v++)
		put_u64(pv, dl_verdict_name(v), plan->stats.per_verdict[v]);
	json_object_object_add(st, "per_verdict", pv);
	put_num(st, "capacity_cpus", plan->stats.capacity_cpus);
	put_u64(st, "grants", plan->stats.grants);
	put_u64(st, "compute_us", plan->stats.compute_us);
	put_u64(st, "snapshot_us", plan->stats.snapshot_us);
	put_u64(st, "apply_us", plan->stats.apply_us);
	put_str(st, "estimator", plan->stats.estimator);
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

struct reader {
	char *err;
	size_t errlen;
	int failed;
};

static const struct json_object *field(struct reader *r,
				       const struct json_object *o,
				       const char *k, enum json_type t,
				       bool nullable)
{
	struct json_object *v = NULL;

	if (r->failed)
		return NULL;
	if (!json_object_object_get_ex(o, k, &v)) {
		snprintf(r->err, r->err ? r->errlen : 0, "missing field '%s'",
			 k);
		r->failed = 1;
		return NULL;
	}
	if (!v && nullable)
		return NULL;
	if (json_object_get_type(v) != t &&
	    !(t == json_type_double && json_object_is_type(v, json_type_int))) {
		snprintf(r->err, r->err ? r->errlen : 0,
			 "field '%s' has the wrong type", k);
		r->failed = 1;
		return NULL;
	}
	return v;
}

static double get_num(struct reader *r, const struct json_object *o,
		      const char *k)
{
	const struct json_object *v = field(r, o, k, json_type_double, true);

	return v ? json_object_get_double(v) : NAN;
}

/* A number that older plan files lack: NaN when absent or null. */
static double get_opt_num(struct reader *r, const struct json_object *o,
			  const char *k)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v) || !v)
		return NAN;
	return get_num(r, o, k);
}

static uint64_t get_u64(struct reader *r, const struct json_object *o,
			const char *k, uint64_t max)
{
	const struct json_object *v = field(r, o, k, json_type_int, false);
	int64_t x;

	if (!v)
		return 0;
	x = json_object_get_int64(v);
	if (x < 0 || (uint64_t) x > max) {
		snprintf(r->err, r->err ? r->errlen : 0,
			 "field '%s' out of range", k);
		r->failed = 1;
		return 0;
	}
	return json_object_get_uint64(v);
}

static bool get_bool(struct reader *r, const struct json_object *o,
		     const char *k)
{
	const struct json_object *v = field(r, o, k, json_type_boolean, false);

	return v ? json_object_get_boolean(v) : false;
}

static void get_str(struct reader *r, const struct json_object *o,
		    const char *k, char *dst, size_t len)
{
	const struct json_object *v = field(r, o, k, json_type_string, false);

	snprintf(dst, len, "%s", v ? json_object_get_string((void *) v) : "");
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

static void get_counts(struct reader *r, const struct json_object *o,
		       const char *k, uint32_t *dst, int n)
{
	const struct json_object *a = field(r, o, k, json_type_array, false);

	if (!a)
		return;
	if ((int) json_object_array_length(a) != n) {
		snprintf(r->err, r->err ? r->errlen : 0,
			 "field '%s' needs %d entries", k, n);
		r->failed = 1;
		return;
	}
	for (int i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		int64_t x = json_object_get_int64(e);

		if (!json_object_is_type(e, json_type_int) || x < 0 ||
		    x > UINT32_MAX) {
			snprintf(r->err, r->err ? r->errlen : 0,
				 "field '%s' has a bad entry", k);
			r->failed = 1;
			return;
		}
		dst[i] = (uint32_t) x;
	}
}

static void job_from_json(struct reader *r, const struct json_object *o,
			  struct dl_plan_job *j)
{
	char buf[32];
	int idx;

	j->job_id = get_u64(r, o, "job_id", UINT64_MAX);
	j->reduce_id = get_u64(r, o, "reduce_id", UINT64_MAX);
	get_str(r, o, "user", j->user, sizeof(j->user));
	get_str(r, o, "account", j->account, sizeof(j->account));
	get_str(r, o, "name", j->name, sizeof(j->name));
	get_str(r, o, "phase", buf, sizeof(buf));
	j->phase = !strcmp(buf, "map")      ? DL_MAP
		   : !strcmp(buf, "reduce") ? DL_REDUCE
					    : -1;
	get_str(r, o, "class", buf, sizeof(buf));
	idx = name_index(buf, class_name_i, DL_CLASS_UNMANAGED + 1);
	j->cls = idx < 0 ? DL_CLASS_UNMANAGED : (enum dl_class) idx;
	get_str(r, o, "verdict", buf, sizeof(buf));
	idx = name_index(buf, verdict_name_i, DL_VERDICT_COUNT);
	if (idx < 0 && !r->failed) {
		snprintf(r->err, r->err ? r->errlen : 0, "unknown verdict '%s'",
			 buf);
		r->failed = 1;
	}
	j->verdict = idx < 0 ? DL_VERDICT_ON_TRACK : (enum dl_verdict) idx;
	j->rank = (uint32_t) get_u64(r, o, "rank", UINT32_MAX);
	j->alloc = (uint32_t) get_u64(r, o, "alloc", UINT32_MAX);
	get_counts(r, o, "alloc_pool", j->alloc_pool, DL_POOLS);
	j->alloc_for_need =
		(uint32_t) get_u64(r, o, "alloc_for_need", UINT32_MAX);
	j->urgent = get_bool(r, o, "urgent");
	j->managed = get_bool(r, o, "managed");
	j->hold = get_bool(r, o, "hold");
	j->need = get_num(r, o, "need");
	j->sreq = get_num(r, o, "sreq");
	j->utility = get_opt_num(r, o, "utility");
	j->sfit = get_opt_num(r, o, "sfit");
	j->mu = get_num(r, o, "mu");
	j->mu_sd = get_num(r, o, "mu_sd");
	get_str(r, o, "mu_source", j->mu_source, sizeof(j->mu_source));
	j->deadline = get_num(r, o, "deadline");
	j->goal = get_num(r, o, "goal");
	j->predicted_finish = get_num(r, o, "predicted_finish");
	j->finish_err = get_num(r, o, "finish_err");
	get_counts(r, o, "tasks", j->tasks, DL_PHASES);
	get_counts(r, o, "done", j->done, DL_PHASES);
	get_counts(r, o, "running", j->running, DL_PHASES);
	get_counts(r, o, "pending", j->pending, DL_PHASES);
	get_str(r, o, "hold_reason", j->hold_reason, sizeof(j->hold_reason));
	get_str(r, o, "explain", j->explain, sizeof(j->explain));
}

struct dl_plan *dl_plan_from_json(const struct json_object *obj, char *err,
				  size_t errlen)
{
	struct reader r = {err, errlen, 0};
	const struct json_object *jobs, *st, *place;
	struct dl_plan *plan;
	char policy[32];
	size_t n, np;
	int p;

	if (!obj || !json_object_is_type(obj, json_type_object)) {
		snprintf(err, err ? errlen : 0, "plan is not a JSON object");
		return NULL;
	}
	if (get_u64(&r, obj, "version", UINT32_MAX) != PLAN_JSON_VERSION &&
	    !r.failed) {
		snprintf(err, err ? errlen : 0, "unsupported plan version");
		return NULL;
	}
	jobs = field(&r, obj, "jobs", json_type_array, false);
	st = field(&r, obj, "stats", json_type_object, false);
	place = field(&r, obj, "placement", json_type_array, false);
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
	plan->now = get_num(&r, obj, "now");
	plan->cycle = get_u64(&r, obj, "cycle", UINT64_MAX);
	get_str(&r, obj, "policy", policy, sizeof(policy));
	p = dl_policy_from_name(policy);
	plan->policy = p < 0 ? DL_POLICY_ADAPTIVE : (enum dl_policy) p;
	if (!r.failed) {
		plan->stats.capacity_cpus = get_num(&r, st, "capacity_cpus");
		plan->stats.grants = get_u64(&r, st, "grants", UINT64_MAX);
		plan->stats.compute_us =
			get_u64(&r, st, "compute_us", UINT64_MAX);
		plan->stats.snapshot_us =
			get_u64(&r, st, "snapshot_us", UINT64_MAX);
		plan->stats.apply_us = get_u64(&r, st, "apply_us", UINT64_MAX);
		get_str(&r, st, "estimator", plan->stats.estimator,
			sizeof(plan->stats.estimator));
	}
	for (size_t i = 0; i < n && !r.failed; i++) {
		const struct json_object *jo =
			json_object_array_get_idx(jobs, i);

		if (!json_object_is_type(jo, json_type_object)) {
			snprintf(err, err ? errlen : 0,
				 "job %zu is not an object", i);
			r.failed = 1;
			break;
		}
		job_from_json(&r, jo, &plan->jobs[i]);
	}
	if (!r.failed && np) {
		plan->place = calloc(np, sizeof(*plan->place));
		if (!plan->place) {
			snprintf(err, err ? errlen : 0, "out of memory");
			r.failed = 1;
		}
	}
	for (size_t i = 0; i < np && !r.failed; i++) {
		const struct json_object *row =
			json_object_array_get_idx(place, i);
		uint32_t v[4];

		if (!json_object_is_type(row, json_type_array)) {
			snprintf(err, err ? errlen : 0,
				 "placement row %zu is not an array", i);
			r.failed = 1;
			break;
		}
		if (json_object_array_length(row) != 4) {
			snprintf(err, err ? errlen : 0,
				 "placement row %zu needs 4 numbers", i);
			r.failed = 1;
			break;
		}
		for (int k = 0; k < 4; k++) {
			struct json_object *e =
				json_object_array_get_idx(row, k);
			int64_t x = json_object_get_int64(e);

			if (!json_object_is_type(e, json_type_int) || x < 0 ||
			    x > UINT32_MAX) {
				snprintf(err, err ? errlen : 0,
					 "placement row %zu has a bad number",
					 i);
				r.failed = 1;
				break;
			}
			v[k] = (uint32_t) x;
		}
		if (r.failed)
			break;
		if (v[0] >= n) {
			snprintf(err, err ? errlen : 0,
				 "placement row %zu names job %u of %zu", i,
				 v[0], n);
			r.failed = 1;
			break;
		}
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
	char sub[160];
	struct json_object *o;
	struct dl_plan *plan;
	size_t len;

	if (!text) {
		snprintf(err, err ? errlen : 0, "no plan text");
		return NULL;
	}
	len = strlen(text);
	if (len > MAX_PLAN_FILE) {
		snprintf(err, err ? errlen : 0, "plan text too large");
		return NULL;
	}
	o = dl_json_parse_text(text, len, 0, sub, sizeof(sub));
	if (!o) {
		snprintf(err, err ? errlen : 0, "plan: %s", sub);
		return NULL;
	}
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
