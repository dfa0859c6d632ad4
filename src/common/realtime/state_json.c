/*
 * realtime/state_json.c - the admitted set as JSON, so that it survives a
 * slurmctld restart (written atomically to StateSaveLocation by the sched
 * plugin).
 *
 * Format (version 1):
 *   {"version":1,"seq":N,"next_ticket":N,
 *    "params":{"quantile":..,"margin":..,"overhead":..,"feedback_delta":..,
 *              "share":..,"flags":..,"budget":..,"ticket_ttl":..},
 *    "pools":[{"name":"batch","split":false,"units":[U,U],
 *              "head":[[[t,n],...],[[t,n],...]],
 *              "jobs":[{"id":..,"reduce_id":..,"ticket":..,"reduce_ticket":..,
 *                       "user":"..","name":"..","arrival":..,"deadline":..,
 *                       "key":..,"seq":..,"tasks":[M,R],"cpus":[..],
 *                       "wc":[..],"latest_start":[..],"typical_map":..,
 *                       "mtasks":[..],"run_end":[..|null],"model_total":b,
 *                       "floor":..,"started":b,"held":b,"finished":b,
 *                       "hold_why":"..",
 *                       finished jobs (anchors) also: "vec":[[[t,n],..],
 *                       [[t,n],..]],"map_finish":..,"finish":..}, ...]},
 *             ...],
 *    "wc":[{"user":..,"name":..,"phase":0,"p50":..,"p90":..,"p99":..,
 *           "max":..,"n":..,"updated":..}, ...]}
 * Only what the model is computed from is saved; the vectors of jobs that
 * have not finished are computed again on loading (each with the floor of
 * its last computation), which keeps the file small (the vectors would be
 * most of it) and gives exact vectors where the running set was padded.
 * The state is copied under its lock and written without it.  Every
 * restored value is checked (finite times, vector invariants, units
 * matching the pool, unique ids); a bad file changes nothing.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/atomic_file.h"
#include "common/io/json.h"
#include "common/plan/plan.h"
#include "common/realtime/chain.h"
#include "common/realtime/pool.h"
#include "common/realtime/wc_cache.h"

#define RT_JSON_VERSION 1
#define MAX_STATE_FILE  (256u << 20)

/* ---- writing ---- */

static struct json_object *vec_json(const struct dl_rt_vec *v)
{
	struct json_object *a =
		json_object_new_array_ext(v->nruns ? (int) v->nruns : 1);

	for (uint32_t i = 0; a && i < v->nruns; i++) {
		struct json_object *r = json_object_new_array_ext(2);

		json_object_array_add(r, json_object_new_double(v->r[i].t));
		json_object_array_add(r, json_object_new_uint64(v->r[i].n));
		json_object_array_add(a, r);
	}
	return a;
}

static struct json_object *pair_json(struct json_object *a,
				     struct json_object *b)
{
	struct json_object *o = json_object_new_array_ext(2);

	json_object_array_add(o, a);
	json_object_array_add(o, b);
	return o;
}

static struct json_object *job_json(const struct rt_job *j)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_uint64(j->id));
	json_object_object_add(o, "reduce_id",
			       json_object_new_uint64(j->reduce_id));
	json_object_object_add(o, "ticket", json_object_new_uint64(j->ticket));
	json_object_object_add(o, "reduce_ticket",
			       json_object_new_uint64(j->reduce_ticket));
	json_object_object_add(o, "user", dl_json_string(j->user));
	json_object_object_add(o, "name", dl_json_string(j->name));
	json_object_object_add(o, "arrival", dl_json_new_num(j->arrival));
	json_object_object_add(o, "deadline", dl_json_new_num(j->deadline));
	json_object_object_add(o, "key", dl_json_new_num(j->key));
	json_object_object_add(o, "seq", json_object_new_uint64(j->seq));
	json_object_object_add(o, "tasks",
			       pair_json(json_object_new_uint64(j->tasks[0]),
					 json_object_new_uint64(j->tasks[1])));
	json_object_object_add(o, "cpus",
			       pair_json(json_object_new_uint64(j->cpus[0]),
					 json_object_new_uint64(j->cpus[1])));
	json_object_object_add(o, "wc",
			       pair_json(dl_json_new_num(j->wc[0]),
					 dl_json_new_num(j->wc[1])));
	json_object_object_add(o, "latest_start",
			       pair_json(dl_json_new_num(j->latest_start[0]),
					 dl_json_new_num(j->latest_start[1])));
	json_object_object_add(o, "typical_map",
			       dl_json_new_num(j->typical_map));
	json_object_object_add(o, "mtasks",
			       pair_json(json_object_new_uint64(j->mtasks[0]),
					 json_object_new_uint64(j->mtasks[1])));
	json_object_object_add(o, "run_end",
			       pair_json(dl_json_new_num(j->run_end[0]),
					 dl_json_new_num(j->run_end[1])));
	json_object_object_add(o, "model_total",
			       json_object_new_boolean(j->model_total));
	json_object_object_add(o, "floor", dl_json_new_num(j->floor));
	if (j->finished) {
		json_object_object_add(
			o, "vec",
			pair_json(vec_json(&j->vec[0]), vec_json(&j->vec[1])));
		json_object_object_add(o, "map_finish",
				       dl_json_new_num(j->map_finish));
		json_object_object_add(o, "finish", dl_json_new_num(j->finish));
	}
	json_object_object_add(o, "started",
			       json_object_new_boolean(j->started));
	json_object_object_add(o, "held", json_object_new_boolean(j->held));
	json_object_object_add(o, "finished",
			       json_object_new_boolean(j->finished));
	json_object_object_add(o, "hold_why", dl_json_string(j->hold_why));
	return o;
}

/* A private copy of what is saved (anchors keep their vectors, pads
 * folded in), taken under the lock. */
static struct dl_rt_state *snapshot(struct dl_rt_state *st)
{
	struct dl_rt_state *c = dl_rt_state_new();
	bool ok = c != NULL;

	if (!c)
		return NULL;
	pthread_mutex_lock(&st->lock);
	c->p = st->p;
	c->seq = st->seq;
	c->next_ticket = st->next_ticket;
	for (uint32_t k = 0; ok && k < st->npools; k++) {
		const struct rt_pool *sp = &st->pools[k];
		struct rt_pool *cp = rt_add_pool(c, sp->name);

		if (!cp) {
			ok = false;
			break;
		}
		cp->split = sp->split;
		cp->units[0] = sp->units[0];
		cp->units[1] = sp->units[1];
		ok = !dl_rt_vec_copy(&cp->head[0], &sp->head[0]) &&
		     !dl_rt_vec_copy(&cp->head[1], &sp->head[1]);
		for (uint32_t i = 0; ok && i < sp->n; i++) {
			const struct rt_job *sj = sp->q[i];
			struct rt_job *cj = calloc(1, sizeof(*cj));

			if (!cj) {
				ok = false;
				break;
			}
			*cj = *sj;
			memset(cj->vec, 0, sizeof(cj->vec));
			cj->user = strdup(sj->user);
			cj->name = strdup(sj->name);
			ok = cj->user && cj->name;
			if (ok && sj->finished) {
				ok = !dl_rt_vec_copy(&cj->vec[0],
						     &sj->vec[0]) &&
				     !dl_rt_vec_copy(&cj->vec[1], &sj->vec[1]);
				dl_rt_vec_shift(&cj->vec[0], sj->pad);
				dl_rt_vec_shift(&cj->vec[1], sj->pad);
				cj->finish += sj->pad;
				cj->map_finish += sj->pad;
				cj->pad = 0;
			}
			if (!ok || rt_insert(cp, cp->n, cj)) {
				rt_job_free(cj);
				ok = false;
			}
		}
	}
	for (uint32_t i = 0; ok && i < st->nwc; i++)
		ok = !rt_wc_store_locked(c, &st->wc[i]);
	pthread_mutex_unlock(&st->lock);
	if (!ok) {
		dl_rt_state_free(c);
		return NULL;
	}
	return c;
}

char *dl_rt_state_to_json(struct dl_rt_state *st)
{
	struct json_object *o, *p, *pools, *wc;
	struct dl_rt_state *c;
	char *text = NULL;

	if (!st)
		return NULL;
	c = snapshot(st);
	if (!c)
		return NULL;
	o = json_object_new_object();
	if (!o)
		goto out;
	json_object_object_add(o, "version",
			       json_object_new_int(RT_JSON_VERSION));
	json_object_object_add(o, "seq", json_object_new_uint64(c->seq));
	json_object_object_add(o, "next_ticket",
			       json_object_new_uint64(c->next_ticket));
	p = json_object_new_object();
	json_object_object_add(p, "quantile", dl_json_new_num(c->p.quantile));
	json_object_object_add(p, "margin", dl_json_new_num(c->p.margin));
	json_object_object_add(p, "overhead", dl_json_new_num(c->p.overhead));
	json_object_object_add(p, "feedback_delta",
			       dl_json_new_num(c->p.feedback_delta));
	json_object_object_add(p, "share", dl_json_new_num(c->p.share));
	json_object_object_add(p, "flags", json_object_new_uint64(c->p.flags));
	json_object_object_add(p, "budget",
			       json_object_new_uint64(c->p.budget));
	json_object_object_add(p, "ticket_ttl",
			       dl_json_new_num(c->p.ticket_ttl));
	json_object_object_add(o, "params", p);

	pools = json_object_new_array();
	for (uint32_t k = 0; k < c->npools; k++) {
		const struct rt_pool *pl = &c->pools[k];
		struct json_object *po = json_object_new_object();
		struct json_object *jobs = json_object_new_array();

		json_object_object_add(po, "name", dl_json_string(pl->name));
		json_object_object_add(po, "split",
				       json_object_new_boolean(pl->split));
		json_object_object_add(
			po, "units",
			pair_json(json_object_new_uint64(pl->units[0]),
				  json_object_new_uint64(pl->units[1])));
		json_object_object_add(po, "head",
				       pair_json(vec_json(&pl->head[0]),
						 vec_json(&pl->head[1])));
		for (uint32_t i = 0; i < pl->n; i++)
			json_object_array_add(jobs, job_json(pl->q[i]));
		json_object_object_add(po, "jobs", jobs);
		json_object_array_add(pools, po);
	}
	json_object_object_add(o, "pools", pools);

	wc = json_object_new_array();
	for (uint32_t i = 0; i < c->nwc; i++) {
		const struct rt_wc_entry *e = &c->wc[i];
		struct json_object *w = json_object_new_object();

		json_object_object_add(w, "user", dl_json_string(e->user));
		json_object_object_add(w, "name", dl_json_string(e->name));
		json_object_object_add(w, "phase",
				       json_object_new_int(e->phase));
		json_object_object_add(w, "p50", dl_json_new_num(e->q.p50));
		json_object_object_add(w, "p90", dl_json_new_num(e->q.p90));
		json_object_object_add(w, "p99", dl_json_new_num(e->q.p99));
		json_object_object_add(w, "max", dl_json_new_num(e->q.max));
		json_object_object_add(w, "n", json_object_new_uint64(e->q.n));
		json_object_object_add(w, "updated",
				       dl_json_new_num(e->updated));
		json_object_array_add(wc, w);
	}
	json_object_object_add(o, "wc", wc);
	text = strdup(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
out:
	dl_rt_state_free(c);
	return text;
}

/* ---- reading ---- */

/* Every field of the file is required; the first failure is kept
 * (io/json.h) and names the field by its path. */
#define REQ DL_JSON_REQUIRED

/* A time >= 0; null gives null_value. */
static double get_time(struct dl_json_rd *r, const struct json_object *o,
		       const char *path, const char *k, double null_value)
{
	return dl_json_num(r, o, path, k, REQ | DL_JSON_NULL, 0, INFINITY,
			   null_value);
}

static uint64_t get_uint(struct dl_json_rd *r, const struct json_object *o,
			 const char *path, const char *k, uint64_t max)
{
	return dl_json_uint(r, o, path, k, REQ, 0, max, 0);
}

static bool get_bool(struct dl_json_rd *r, const struct json_object *o,
		     const char *path, const char *k)
{
	return dl_json_bool(r, o, path, k, REQ, false);
}

/* A copy of a string of at most max bytes (caller frees); NULL after a
 * failure. */
static char *get_str(struct dl_json_rd *r, const struct json_object *o,
		     const char *path, const char *k, size_t max)
{
	return dl_json_strdup(r, o, path, k, REQ, max, NULL);
}

/* A two-entry array's entries (may be NULL for null). */
static bool get_pair(struct dl_json_rd *r, const struct json_object *o,
		     const char *path, const char *k, struct json_object **a,
		     struct json_object **b)
{
	struct json_object *v = dl_json_array(r, o, path, k, REQ, 2);

	if (!v)
		return false;
	*a = json_object_array_get_idx(v, 0);
	*b = json_object_array_get_idx(v, 1);
	return true;
}

static void get_uint_pair(struct dl_json_rd *r, const struct json_object *o,
			  const char *path, const char *k, uint32_t out[2],
			  uint64_t max)
{
	struct json_object *v[2];
	char label[160];

	if (!get_pair(r, o, path, k, &v[0], &v[1]))
		return;
	dl_json_label(label, sizeof(label), path, k, -1);
	for (int i = 0; i < 2; i++) {
		if (!v[i])
			dl_json_fail(r, label, " has a null entry");
		out[i] = (uint32_t) dl_json_uint_of(r, v[i], label, 0, max, 0);
	}
}

/* Times >= 0; null gives null_value when allowed. */
static void get_time_pair(struct dl_json_rd *r, const struct json_object *o,
			  const char *path, const char *k, double out[2],
			  bool allow_null, double null_value)
{
	struct json_object *v[2];
	char label[160];

	if (!get_pair(r, o, path, k, &v[0], &v[1]))
		return;
	dl_json_label(label, sizeof(label), path, k, -1);
	for (int i = 0; i < 2; i++) {
		if (!v[i] && !allow_null)
			dl_json_fail(r, label, " has a null entry");
		out[i] =
			dl_json_num_of(r, v[i], label, 0, INFINITY, null_value);
	}
}

static int vec_from(struct dl_json_rd *r, struct json_object *a,
		    struct dl_rt_vec *v, const char *what)
{
	size_t n;

	dl_rt_vec_zero(v);
	if (!a || !json_object_is_type(a, json_type_array)) {
		dl_json_fail(r, NULL, "%s: vector is not an array", what);
		return EINVAL;
	}
	n = json_object_array_length(a);
	if (n > DL_RT_MAX_UNITS) {
		dl_json_fail(r, NULL, "%s: vector too long", what);
		return EINVAL;
	}
	if (dl_rt_vec_init(v, 0, 0)) {
		dl_json_fail(r, NULL, "out of memory");
		return ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct json_object *t, *c;
		double tv;
		int64_t cv;
		int rc;

		if (!json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 2) {
			dl_json_fail(r, NULL,
				     "%s: run %zu is not [time, units]", what,
				     i);
			return EINVAL;
		}
		t = json_object_array_get_idx(e, 0);
		c = json_object_array_get_idx(e, 1);
		if ((!json_object_is_type(t, json_type_double) &&
		     !json_object_is_type(t, json_type_int)) ||
		    !json_object_is_type(c, json_type_int)) {
			dl_json_fail(r, NULL, "%s: run %zu has a bad entry",
				     what, i);
			return EINVAL;
		}
		tv = json_object_get_double(t);
		cv = json_object_get_int64(c);
		if (!isfinite(tv) || cv <= 0 || cv > DL_RT_MAX_UNITS ||
		    (i && !(tv > v->r[v->nruns - 1].t))) {
			dl_json_fail(r, NULL,
				     "%s: run %zu is not ascending, finite and "
				     "non-empty",
				     what, i);
			return EINVAL;
		}
		rc = dl_rt_vec_add(v, tv, (uint32_t) cv);
		if (rc) {
			dl_json_fail(r, NULL, "%s: %s", what,
				     rc == ERANGE ? "too many units"
						  : "out of memory");
			return rc;
		}
	}
	return 0;
}

static int vec_pair(struct dl_json_rd *r, const struct json_object *o,
		    const char *path, const char *k, struct dl_rt_vec v[2],
		    const char *what)
{
	struct json_object *a, *b;

	if (!get_pair(r, o, path, k, &a, &b))
		return EINVAL;
	if (vec_from(r, a, &v[0], what) || vec_from(r, b, &v[1], what))
		return EINVAL;
	return 0;
}

static struct rt_job *job_from(struct dl_json_rd *r,
			       const struct json_object *o, const char *path,
			       const struct rt_pool *pl, uint32_t pos)
{
	struct rt_job *j = calloc(1, sizeof(*j));
	char *why;

	if (!j) {
		dl_json_fail(r, NULL, "out of memory");
		return NULL;
	}
	j->id = get_uint(r, o, path, "id", UINT64_MAX);
	j->reduce_id = get_uint(r, o, path, "reduce_id", UINT64_MAX);
	j->ticket = get_uint(r, o, path, "ticket", UINT64_MAX);
	j->reduce_ticket = get_uint(r, o, path, "reduce_ticket", UINT64_MAX);
	j->user = get_str(r, o, path, "user", 256);
	j->name = get_str(r, o, path, "name", 1024);
	j->arrival = get_time(r, o, path, "arrival", NAN);
	j->deadline = get_time(r, o, path, "deadline", NAN);
	j->key = get_time(r, o, path, "key", NAN);
	j->seq = get_uint(r, o, path, "seq", UINT64_MAX);
	get_uint_pair(r, o, path, "tasks", j->tasks, DL_MAX_TASKS);
	get_uint_pair(r, o, path, "cpus", j->cpus, DL_RT_MAX_UNITS);
	get_time_pair(r, o, path, "wc", j->wc, false, 0);
	get_time_pair(r, o, path, "latest_start", j->latest_start, false, 0);
	j->typical_map = get_time(r, o, path, "typical_map", 0);
	get_uint_pair(r, o, path, "mtasks", j->mtasks, DL_MAX_TASKS);
	get_time_pair(r, o, path, "run_end", j->run_end, true, -INFINITY);
	j->model_total = get_bool(r, o, path, "model_total");
	j->floor = get_time(r, o, path, "floor", NAN);
	j->started = get_bool(r, o, path, "started");
	j->held = get_bool(r, o, path, "held");
	j->finished = get_bool(r, o, path, "finished");
	if (j->finished) {
		vec_pair(r, o, path, "vec", j->vec, "job vector");
		j->map_finish = get_time(r, o, path, "map_finish", INFINITY);
		j->finish = get_time(r, o, path, "finish", INFINITY);
	}
	for (int p = 0; p < DL_PHASES; p++)
		j->first_start[p] = j->last_start[p] = NAN;
	why = get_str(r, o, path, "hold_why", 1024);
	dl_plan_copy_str(j->hold_why, sizeof(j->hold_why), why);
	free(why);
	if (r->failed)
		goto bad;
	if (!j->id && !j->ticket) {
		dl_json_fail(r, NULL,
			     "job %u of pool %s has neither id nor ticket", pos,
			     pl->name);
		goto bad;
	}
	if (isnan(j->arrival) || isnan(j->deadline) || isnan(j->key) ||
	    isnan(j->floor) || !(j->deadline > 0)) {
		dl_json_fail(
			r, NULL,
			"job %llu: arrival, deadline and key must be numbers",
			(unsigned long long) j->id);
		goto bad;
	}
	if (!j->tasks[0] && !j->tasks[1]) {
		dl_json_fail(r, NULL, "job %llu has no tasks",
			     (unsigned long long) j->id);
		goto bad;
	}
	for (int p = 0; p < DL_PHASES; p++) {
		if (!j->cpus[p] || j->mtasks[p] > j->tasks[p]) {
			dl_json_fail(r, NULL, "job %llu: inconsistent %s phase",
				     (unsigned long long) j->id,
				     p ? "reduce" : "map");
			goto bad;
		}
	}
	for (int p = 0; p < DL_PHASES; p++) {
		char msg[96];

		if (dl_rt_vec_check(&j->vec[p], msg, sizeof(msg))) {
			dl_json_fail(r, NULL, "job %llu: %s",
				     (unsigned long long) j->id, msg);
			goto bad;
		}
	}
	return j;
bad:
	rt_job_free(j);
	return NULL;
}

static int pool_from(struct dl_json_rd *r, const struct json_object *o,
		     const char *path, struct dl_rt_state *tmp)
{
	char *name = get_str(r, o, path, "name", 1024);
	struct json_object *jobs;
	struct rt_pool *pl;
	uint32_t units[2] = {0, 0};
	bool split;
	size_t n;

	split = get_bool(r, o, path, "split");
	get_uint_pair(r, o, path, "units", units, DL_RT_MAX_UNITS);
	jobs = dl_json_get(r, o, path, "jobs", json_type_array, REQ);
	if (r->failed || !name) {
		free(name);
		return EINVAL;
	}
	if (!*name || rt_find_pool(tmp, name)) {
		dl_json_fail(r, NULL, "pool name '%s' empty or repeated", name);
		free(name);
		return EINVAL;
	}
	if (!split && units[0] != units[1]) {
		dl_json_fail(r, NULL, "shared pool %s has two sizes", name);
		free(name);
		return EINVAL;
	}
	pl = rt_add_pool(tmp, name);
	free(name);
	if (!pl) {
		dl_json_fail(r, NULL, "out of memory");
		return ENOMEM;
	}
	pl->split = split;
	pl->units[0] = units[0];
	pl->units[1] = units[1];
	if (vec_pair(r, o, path, "head", pl->head, "head vector"))
		return EINVAL;
	if (pl->head[0].units != units[0] ||
	    pl->head[1].units != (split ? units[1] : 0)) {
		dl_json_fail(r, NULL,
			     "pool %s: head vector does not match its size",
			     pl->name);
		return EINVAL;
	}
	n = json_object_array_length(jobs);
	if (n > 10000000) {
		dl_json_fail(r, NULL, "pool %s: too many jobs", pl->name);
		return EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *jo = json_object_array_get_idx(jobs, i);
		struct rt_job *j;
		char jpath[96];

		snprintf(jpath, sizeof(jpath), "%s.jobs[%zu]", path, i);
		if (!dl_json_is_object(r, jo, jpath))
			return EINVAL;
		j = job_from(r, jo, jpath, pl, (uint32_t) i);
		if (!j)
			return EINVAL;
		if (rt_find_job(tmp, j->id, NULL, NULL) ||
		    rt_find_job(tmp, j->reduce_id, NULL, NULL) ||
		    rt_find_ticket(tmp, j->ticket, NULL, NULL) ||
		    rt_find_ticket(tmp, j->reduce_ticket, NULL, NULL)) {
			dl_json_fail(r, NULL, "job %llu appears twice",
				     (unsigned long long) j->id);
			rt_job_free(j);
			return EINVAL;
		}
		if (rt_insert(pl, pl->n, j)) {
			rt_job_free(j);
			dl_json_fail(r, NULL, "out of memory");
			return ENOMEM;
		}
		/* saved while the pool was being resized: rebuild first */
		if (j->finished &&
		    (j->vec[0].units != pl->units[0] ||
		     j->vec[1].units != (pl->split ? pl->units[1] : 0)))
			pl->size_changed = true;
	}
	/* the vectors of the jobs that have not finished, as they were last
	 * computed (each with its own floor) */
	if (!pl->size_changed && rt_recompute_from(pl, 0, 0, true)) {
		dl_json_fail(r, NULL, "out of memory");
		return ENOMEM;
	}
	/* the live state may have moved on: rebuild at the next plan */
	pl->need_resync = pl->n > 0;
	return 0;
}

static int wc_from(struct dl_json_rd *r, const struct json_object *o,
		   const char *path, struct dl_rt_state *tmp)
{
	struct dl_rt_quantiles q;
	char *user = get_str(r, o, path, "user", 256);
	char *name = get_str(r, o, path, "name", 1024);
	uint64_t phase = get_uint(r, o, path, "phase", DL_PHASES - 1);
	double updated;
	int rc;

	q.p50 = get_time(r, o, path, "p50", NAN);
	q.p90 = get_time(r, o, path, "p90", NAN);
	q.p99 = get_time(r, o, path, "p99", NAN);
	q.max = get_time(r, o, path, "max", NAN);
	q.n = (uint32_t) get_uint(r, o, path, "n", UINT32_MAX);
	updated = get_time(r, o, path, "updated", NAN);
	if (r->failed) {
		free(user);
		free(name);
		return EINVAL;
	}
	rc = dl_rt_wc_store(tmp, user, name, (int) phase, &q,
			    isnan(updated) ? 0 : updated);
	free(user);
	free(name);
	if (rc)
		dl_json_fail(r, NULL, "bad worst-case entry");
	return rc;
}

int dl_rt_state_from_json(struct dl_rt_state *st, const char *text, char *err,
			  size_t errlen)
{
	struct dl_json_rd r = DL_JSON_RD(err, errlen);
	struct json_object *o = NULL, *params, *pools, *wc;
	struct dl_rt_state *tmp = NULL;
	struct dl_rt_params p;
	int rc = EINVAL;

	if (!st || !text) {
		dl_json_fail(&r, NULL, "no state or no text");
		return EINVAL;
	}
	if (strlen(text) > MAX_STATE_FILE) {
		dl_json_fail(&r, NULL, "state text too large");
		return EFBIG;
	}
	o = dl_json_parse(text, strlen(text), MAX_STATE_FILE, "realtime state",
			  err, errlen);
	if (!o)
		return EINVAL;
	if (!dl_json_is_object(&r, o, "realtime state"))
		goto out;
	if (get_uint(&r, o, NULL, "version", UINT32_MAX) != RT_JSON_VERSION) {
		dl_json_fail(&r, NULL, "unsupported version");
		goto out;
	}
	tmp = dl_rt_state_new();
	if (!tmp) {
		dl_json_fail(&r, NULL, "out of memory");
		rc = ENOMEM;
		goto out;
	}
	tmp->seq = get_uint(&r, o, NULL, "seq", UINT64_MAX);
	tmp->next_ticket = get_uint(&r, o, NULL, "next_ticket", UINT64_MAX);
	params = dl_json_get(&r, o, NULL, "params", json_type_object, REQ);
	pools = dl_json_get(&r, o, NULL, "pools", json_type_array, REQ);
	wc = dl_json_get(&r, o, NULL, "wc", json_type_array, REQ);
	if (r.failed)
		goto out;
	p.quantile = get_time(&r, params, "params", "quantile", NAN);
	p.margin = get_time(&r, params, "params", "margin", NAN);
	p.overhead = get_time(&r, params, "params", "overhead", NAN);
	p.feedback_delta =
		get_time(&r, params, "params", "feedback_delta", NAN);
	p.share = get_time(&r, params, "params", "share", NAN);
	p.flags =
		(uint32_t) get_uint(&r, params, "params", "flags", UINT32_MAX);
	p.budget =
		(uint32_t) get_uint(&r, params, "params", "budget", UINT32_MAX);
	p.ticket_ttl = get_time(&r, params, "params", "ticket_ttl", NAN);
	if (r.failed)
		goto out;
	if (dl_rt_set_params(tmp, &p)) {
		dl_json_fail(&r, NULL, "parameters out of range");
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(pools); i++) {
		struct json_object *po = json_object_array_get_idx(pools, i);
		char path[32];

		dl_json_label(path, sizeof(path), "pools", NULL, (long) i);
		if (!dl_json_is_object(&r, po, path))
			goto out;
		if (tmp->npools >= 4096) {
			dl_json_fail(&r, NULL, "too many pools");
			goto out;
		}
		if (pool_from(&r, po, path, tmp))
			goto out;
	}
	for (size_t i = 0; i < json_object_array_length(wc); i++) {
		struct json_object *w = json_object_array_get_idx(wc, i);
		char path[32];

		dl_json_label(path, sizeof(path), "wc", NULL, (long) i);
		if (!dl_json_is_object(&r, w, path))
			goto out;
		if (wc_from(&r, w, path, tmp))
			goto out;
	}
	/* take over tmp's contents; st keeps its own mutex */
	pthread_mutex_lock(&st->lock);
	{
		struct dl_rt_state old = *st;

		st->p = tmp->p;
		st->pools = tmp->pools;
		st->npools = tmp->npools;
		st->cappools = tmp->cappools;
		st->wc = tmp->wc;
		st->nwc = tmp->nwc;
		st->capwc = tmp->capwc;
		st->seq = tmp->seq;
		st->next_ticket = tmp->next_ticket;
		tmp->pools = old.pools;
		tmp->npools = old.npools;
		tmp->cappools = old.cappools;
		tmp->wc = old.wc;
		tmp->nwc = old.nwc;
		tmp->capwc = old.capwc;
	}
	pthread_mutex_unlock(&st->lock);
	rc = 0;
out:
	dl_rt_state_free(tmp);
	json_object_put(o);
	return rc;
}

int dl_rt_state_save(struct dl_rt_state *st, const char *path)
{
	char *text;
	int rc;

	if (!st || !path)
		return EINVAL;
	text = dl_rt_state_to_json(st);
	if (!text)
		return ENOMEM;
	rc = dl_atomic_write(path, text, strlen(text), 0600);
	free(text);
	return rc;
}

int dl_rt_state_load(struct dl_rt_state *st, const char *path, char *err,
		     size_t errlen)
{
	char *text = NULL;
	int rc;

	if (!st || !path)
		return EINVAL;
	rc = dl_read_file(path, MAX_STATE_FILE, &text, NULL);
	if (rc) {
		snprintf(err, err ? errlen : 0, "%s: %s", path,
			 dl_file_strerror(rc));
		return rc;
	}
	rc = dl_rt_state_from_json(st, text, err, errlen);
	free(text);
	return rc;
}
