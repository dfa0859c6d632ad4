/*
 * sched_state.c - the sched plugin's per-array memory and its JSON state.
 */
#include "common/plan/sched_state.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/atomic_file.h"
#include "common/io/json.h"
#include "common/io/grow.h"

#define SSTATE_VERSION 1
#define MAX_STATE_FILE (256u << 20)
#define MAX_RECS       10000000u

/* ---- task id sets ---- */

int dl_idset_add(struct dl_idset *s, uint32_t id)
{
	uint32_t byte = id / 8;

	if (!s || id > DL_IDSET_MAX)
		return -EINVAL;
	if (byte >= s->nbytes) {
		uint32_t n = s->nbytes ? s->nbytes : 16;
		uint8_t *p;

		while (n <= byte)
			n *= 2;
		if (n > DL_IDSET_MAX / 8 + 1)
			n = DL_IDSET_MAX / 8 + 1;
		p = realloc(s->bits, n);
		if (!p)
			return -ENOMEM;
		memset(p + s->nbytes, 0, n - s->nbytes);
		s->bits = p;
		s->nbytes = n;
	}
	if (s->bits[byte] & (1u << (id % 8)))
		return 0;
	s->bits[byte] |= (uint8_t) (1u << (id % 8));
	s->count++;
	return 1;
}

bool dl_idset_remove(struct dl_idset *s, uint32_t id)
{
	if (!dl_idset_has(s, id))
		return false;
	s->bits[id / 8] &= (uint8_t) ~(1u << (id % 8));
	s->count--;
	return true;
}

bool dl_idset_has(const struct dl_idset *s, uint32_t id)
{
	return s && id / 8 < s->nbytes && (s->bits[id / 8] & (1u << (id % 8)));
}

void dl_idset_free(struct dl_idset *s)
{
	if (!s)
		return;
	free(s->bits);
	memset(s, 0, sizeof(*s));
}

char *dl_idset_format(const struct dl_idset *s)
{
	size_t cap = 64, len = 0;
	char *out = malloc(cap);
	uint32_t nbits = s ? s->nbytes * 8 : 0;

	if (!out)
		return NULL;
	out[0] = '\0';
	for (uint32_t i = 0; i < nbits; i++) {
		uint32_t j = i;
		char item[32];
		int n;

		if (!dl_idset_has(s, i))
			continue;
		while (j + 1 < nbits && dl_idset_has(s, j + 1))
			j++;
		if (j == i)
			n = snprintf(item, sizeof(item), "%s%u", len ? "," : "",
				     i);
		else
			n = snprintf(item, sizeof(item), "%s%u-%u",
				     len ? "," : "", i, j);
		if (len + (size_t) n + 1 > cap) {
			char *p;

			while (len + (size_t) n + 1 > cap)
				cap *= 2;
			p = realloc(out, cap);
			if (!p) {
				free(out);
				return NULL;
			}
			out = p;
		}
		memcpy(out + len, item, (size_t) n + 1);
		len += (size_t) n;
		i = j;
	}
	return out;
}

static int parse_id(const char **p, uint32_t *out)
{
	unsigned long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long) (*s - '0');
		if (v > DL_IDSET_MAX)
			return ERANGE;
		s++;
	}
	*out = (uint32_t) v;
	*p = s;
	return 0;
}

int dl_idset_parse(struct dl_idset *s, const char *text, char *err,
		   size_t errlen)
{
	const char *p = text;
	struct dl_idset tmp = {0};

	if (!s || !text) {
		snprintf(err, err ? errlen : 0, "no task id set");
		return EINVAL;
	}
	while (*p) {
		uint32_t lo, hi;

		if (parse_id(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_id(&p, &hi) || hi < lo)
				goto bad;
		}
		for (uint64_t i = lo; i <= hi; i++)
			if (dl_idset_add(&tmp, (uint32_t) i) < 0) {
				dl_idset_free(&tmp);
				snprintf(err, err ? errlen : 0,
					 "out of memory");
				return ENOMEM;
			}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	dl_idset_free(s);
	*s = tmp;
	return 0;
bad:
	dl_idset_free(&tmp);
	snprintf(err, err ? errlen : 0,
		 "malformed task id set near '%.20s' (expected e.g. 0-5,7; ids "
		 "up to %u)",
		 p, DL_IDSET_MAX);
	return EINVAL;
}

/* ---- records ---- */

void dl_sstate_init(struct dl_sstate *st)
{
	if (st)
		memset(st, 0, sizeof(*st));
}

static void rec_free(struct dl_array_rec *r)
{
	dl_idset_free(&r->finished);
	dl_idset_free(&r->failed_ids);
}

void dl_sstate_free(struct dl_sstate *st)
{
	if (!st)
		return;
	for (uint32_t i = 0; i < st->n; i++)
		rec_free(&st->recs[i]);
	free(st->recs);
	free(st->index);
	memset(st, 0, sizeof(*st));
}

static uint32_t hash_id(uint64_t id, uint32_t size)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (uint32_t) (id & (size - 1));
}

/* Rebuild the index; the same size reuses its memory (cannot fail). */
static int reindex(struct dl_sstate *st, uint32_t size)
{
	uint32_t *idx;

	if (size == st->index_size && st->index) {
		idx = st->index;
		memset(idx, 0, size * sizeof(*idx));
	} else if (!(idx = calloc(size, sizeof(*idx)))) {
		return ENOMEM;
	}
	for (uint32_t i = 0; i < st->n; i++) {
		uint32_t h = hash_id(st->recs[i].id, size);

		while (idx[h])
			h = (h + 1) & (size - 1);
		idx[h] = i + 1;
	}
	if (idx != st->index)
		free(st->index);
	st->index = idx;
	st->index_size = size;
	return 0;
}

struct dl_array_rec *dl_sstate_find(const struct dl_sstate *st, uint64_t id)
{
	uint32_t h;

	if (!st || !id || !st->index_size)
		return NULL;
	h = hash_id(id, st->index_size);
	while (st->index[h]) {
		struct dl_array_rec *r = &st->recs[st->index[h] - 1];

		if (r->id == id)
			return r;
		h = (h + 1) & (st->index_size - 1);
	}
	return NULL;
}

struct dl_array_rec *dl_sstate_add(struct dl_sstate *st, uint64_t id)
{
	struct dl_array_rec *r = dl_sstate_find(st, id);
	uint32_t h;

	if (r || !st || !id)
		return r;
	if (st->n >= MAX_RECS)
		return NULL;
	if (dl_grow(&st->recs, st->n, &st->cap, sizeof(*st->recs), 64))
		return NULL;
	if ((uint64_t) (st->n + 1) * 2 > st->index_size &&
	    reindex(st, st->index_size ? st->index_size * 2 : 128))
		return NULL;
	r = &st->recs[st->n];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->max_delays = -1;
	h = hash_id(id, st->index_size);
	while (st->index[h])
		h = (h + 1) & (st->index_size - 1);
	st->index[h] = ++st->n;
	return r;
}

/* Count task_id as finished, once: 0, EEXIST when it already was, ENOMEM */
static int count_once(struct dl_array_rec *rec, uint32_t task_id)
{
	int rc = dl_idset_add(&rec->finished, task_id);

	if (rc < 0)
		return -rc;
	return rc == 0 ? EEXIST : 0;
}

/* The bookkeeping every finished task shares, once it is counted */
static void finished_at(struct dl_array_rec *rec, double end)
{
	if (isfinite(end) && end > rec->last_end)
		rec->last_end = end;
	if (rec->finished.count > rec->tasks)
		rec->tasks = rec->finished.count;
}

int dl_sstate_observe(struct dl_array_rec *rec, uint32_t task_id, bool ok,
		      double start, double end, int pool)
{
	int rc;

	if (!rec || task_id > DL_IDSET_MAX)
		return EINVAL;
	if (ok && (!isfinite(start) || !isfinite(end) || start < 0 ||
		   end < start || pool < 0 || pool >= DL_POOLS))
		return EINVAL;
	if (!ok) {
		/* the failed ids first: counting cannot fail after it */
		if (dl_idset_has(&rec->finished, task_id))
			return EEXIST;
		if ((rc = dl_idset_add(&rec->failed_ids, task_id)) < 0)
			return -rc;
	}
	if ((rc = count_once(rec, task_id))) {
		if (!ok)
			dl_idset_remove(&rec->failed_ids, task_id);
		return rc;
	}
	if (ok) {
		double len = end - start;

		rec->completed++;
		rec->done_pool[pool]++;
		rec->sum_len[pool] += len;
		rec->sumsq_len[pool] += len * len;
		if (!(rec->first_start > 0) || start < rec->first_start)
			rec->first_start = start;
	} else {
		rec->failed++;
	}
	finished_at(rec, end);
	return 0;
}

int dl_sstate_observe_unmeasured(struct dl_array_rec *rec, uint32_t task_id,
				 double end)
{
	int rc;

	if (!rec || task_id > DL_IDSET_MAX || !isfinite(end) || end < 0)
		return EINVAL;
	if ((rc = count_once(rec, task_id)))
		return rc;
	rec->completed++;
	rec->unmeasured++;
	finished_at(rec, end);
	return 0;
}

void dl_sstate_reconcile(struct dl_array_rec *rec, uint32_t running,
			 uint32_t pending)
{
	uint64_t known;

	if (!rec)
		return;
	known = (uint64_t) rec->finished.count + rec->vanished + running +
		pending;
	if (known > rec->tasks && known <= DL_MAX_TASKS)
		rec->tasks = (uint32_t) known;
	else if (known < rec->tasks)
		rec->vanished += rec->tasks - (uint32_t) known;
}

int dl_sstate_rerun(struct dl_array_rec *rec, uint32_t task_id)
{
	if (!rec)
		return EINVAL;
	if (!dl_idset_has(&rec->finished, task_id))
		return ENOENT;
	if (!dl_idset_remove(&rec->failed_ids, task_id))
		return EEXIST;
	dl_idset_remove(&rec->finished, task_id);
	if (rec->failed)
		rec->failed--;
	return 0;
}

bool dl_sstate_counted_completed(const struct dl_array_rec *rec,
				 uint32_t task_id)
{
	return rec && dl_idset_has(&rec->finished, task_id) &&
	       !dl_idset_has(&rec->failed_ids, task_id);
}

int dl_sstate_fill_phase(const struct dl_array_rec *rec, struct dl_phase *ph)
{
	uint64_t failed, known;
	uint32_t tasks;

	if (!rec || !ph)
		return EINVAL;
	failed = (uint64_t) rec->failed + rec->vanished;
	known = rec->completed + failed;
	if (known < rec->tasks)
		known = rec->tasks;
	if (known > DL_MAX_TASKS)
		return EINVAL;
	tasks = (uint32_t) known;
	free(ph->running);
	memset(ph, 0, sizeof(*ph));
	ph->tasks = tasks;
	ph->completed = rec->completed;
	/* an array slurmctld no longer has will run nothing more */
	ph->failed = rec->present ? (uint32_t) failed : tasks - rec->completed;
	for (int k = 0; k < DL_POOLS; k++) {
		ph->done_pool[k] = rec->done_pool[k];
		ph->sum_len[k] = rec->sum_len[k];
		ph->sumsq_len[k] = rec->sumsq_len[k];
	}
	ph->cpus_per_task = rec->cpus_per_task ? rec->cpus_per_task : 1;
	ph->mem_per_task = rec->mem_per_task;
	ph->time_limit = rec->time_limit;
	ph->hard_deadline = rec->hard_deadline;
	ph->max_running = rec->user_saved ? rec->user_throttle : 0;
	return 0;
}

uint32_t dl_sstate_gc(struct dl_sstate *st, double now, double retention)
{
	uint32_t kept = 0, gone = 0;

	if (!st || !st->n)
		return 0;
	for (uint32_t i = 0; i < st->n; i++) {
		struct dl_array_rec *r = &st->recs[i];
		bool keep = r->present || !(now - r->last_seen > retention);

		for (uint32_t k = 0; !keep && k < st->n; k++)
			keep = st->recs[k].present &&
			       (st->recs[k].map_id == r->id ||
				st->recs[k].reduce_id == r->id);
		if (!keep) {
			rec_free(r);
			gone++;
			continue;
		}
		if (kept != i)
			st->recs[kept] = *r;
		kept++;
	}
	st->n = kept;
	if (gone && st->index_size)
		reindex(st, st->index_size);
	return gone;
}

/* ---- JSON ---- */

static struct json_object *rec_to_json(const struct dl_array_rec *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *dp, *sl, *sq;
	char *ids, *failed_ids;

	if (!o)
		return NULL;
	ids = dl_idset_format(&r->finished);
	failed_ids = dl_idset_format(&r->failed_ids);
	if (!ids || !failed_ids) {
		free(ids);
		free(failed_ids);
		json_object_put(o);
		return NULL;
	}
	dl_json_put_u64(o, "id", r->id);
	dl_json_put_u64(o, "map_id", r->map_id);
	dl_json_put_u64(o, "reduce_id", r->reduce_id);
	dl_json_put_u64(o, "dep_other", r->dep_other);
	json_object_object_add(o, "user", dl_json_string(r->user));
	json_object_object_add(o, "account", dl_json_string(r->account));
	json_object_object_add(o, "name", dl_json_string(r->name));
	json_object_object_add(o, "partition", dl_json_string(r->partition));
	dl_json_put_num(o, "submit", r->submit);
	dl_json_put_u64(o, "tasks", r->tasks);
	dl_json_put_u64(o, "cpus_per_task", r->cpus_per_task);
	dl_json_put_u64(o, "mem_per_task", r->mem_per_task);
	dl_json_put_num(o, "time_limit", r->time_limit);
	dl_json_put_num(o, "hard_deadline", r->hard_deadline);
	dl_json_put_num(o, "soft_deadline", r->soft_deadline);
	dl_json_put_num(o, "reduce_cost", r->reduce_cost);
	json_object_object_add(o, "max_delays",
			       json_object_new_int(r->max_delays));
	json_object_object_add(o, "finished", dl_json_string(ids));
	free(ids);
	json_object_object_add(o, "failed_ids", dl_json_string(failed_ids));
	free(failed_ids);
	dl_json_put_u64(o, "completed", r->completed);
	dl_json_put_u64(o, "unmeasured", r->unmeasured);
	dl_json_put_u64(o, "failed", r->failed);
	dl_json_put_u64(o, "vanished", r->vanished);
	dp = json_object_new_array_ext(DL_POOLS);
	sl = json_object_new_array_ext(DL_POOLS);
	sq = json_object_new_array_ext(DL_POOLS);
	for (int k = 0; k < DL_POOLS; k++) {
		json_object_array_add(dp,
				      json_object_new_uint64(r->done_pool[k]));
		json_object_array_add(sl,
				      json_object_new_double(r->sum_len[k]));
		json_object_array_add(sq,
				      json_object_new_double(r->sumsq_len[k]));
	}
	json_object_object_add(o, "done_pool", dp);
	json_object_object_add(o, "sum_len", sl);
	json_object_object_add(o, "sumsq_len", sq);
	dl_json_put_num(o, "first_start", r->first_start);
	dl_json_put_num(o, "last_end", r->last_end);
	json_object_object_add(o, "managed",
			       json_object_new_boolean(r->managed));
	dl_json_put_u64(o, "alloc", r->alloc);
	dl_json_put_u64(o, "prio_mode", r->prio_mode);
	json_object_object_add(o, "user_saved",
			       json_object_new_boolean(r->user_saved));
	dl_json_put_u64(o, "user_throttle", r->user_throttle);
	json_object_object_add(o, "verdict", dl_json_string(r->verdict));
	dl_json_put_num(o, "last_seen", r->last_seen);
	json_object_object_add(o, "present",
			       json_object_new_boolean(r->present));
	return o;
}

char *dl_sstate_to_string(const struct dl_sstate *st)
{
	struct json_object *o, *arr;
	char *text = NULL;

	if (!st)
		return NULL;
	o = json_object_new_object();
	arr = json_object_new_array_ext((int) (st->n ? st->n : 1));
	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	json_object_object_add(o, "version",
			       json_object_new_int(SSTATE_VERSION));
	dl_json_put_u64(o, "cycle", st->cycle);
	json_object_object_add(o, "arrays", arr);
	for (uint32_t i = 0; i < st->n; i++) {
		struct json_object *r = rec_to_json(&st->recs[i]);

		if (!r || json_object_array_add(arr, r)) {
			json_object_put(r);
			json_object_put(o);
			return NULL;
		}
	}
	{
		const char *s = json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PLAIN);

		text = s ? strdup(s) : NULL;
	}
	json_object_put(o);
	return text;
}

/* Field readers: absent fields keep their zero default, present ones must
 * have the right type and range. */
static double get_time(struct dl_json_rd *rd, const struct json_object *o,
		       const char *path, const char *k)
{
	return dl_json_num(rd, o, path, k, 0, 0, 1e15, 0);
}

static void get_str(struct dl_json_rd *rd, const struct json_object *o,
		    const char *path, const char *k, char *dst, size_t len)
{
	snprintf(dst, len, "%s",
		 dl_json_str(rd, o, path, k, 0, 0, SIZE_MAX, ""));
}

/* A per-pool array: DL_POOLS whole numbers (u) or numbers (d), >= 0. */
static void get_pool_array(struct dl_json_rd *rd, const struct json_object *o,
			   const char *path, const char *k, uint32_t *u,
			   double *d)
{
	const struct json_object *v =
		dl_json_array(rd, o, path, k, 0, DL_POOLS);
	char label[96];

	dl_json_label(label, sizeof(label), path, k, -1);
	for (int i = 0; v && i < DL_POOLS; i++) {
		const struct json_object *e = json_object_array_get_idx(v, i);

		if (u)
			u[i] = (uint32_t) dl_json_uint_of(rd, e, label, 0,
							  UINT32_MAX, 0);
		else
			d[i] = dl_json_num_of(rd, e, label, 0, INFINITY, 0);
		if (!e)
			dl_json_fail(rd, label, " has a null entry");
	}
}

/* Every id of a also in b */
static bool idset_within(const struct dl_idset *a, const struct dl_idset *b)
{
	for (uint32_t i = 0; i < a->nbytes; i++) {
		uint8_t other = i < b->nbytes ? b->bits[i] : 0;

		if (a->bits[i] & (uint8_t) ~other)
			return false;
	}
	return true;
}

static int rec_from_json(struct dl_array_rec *r, const struct json_object *o,
			 const char *path, char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	const char *ids;
	uint64_t done = 0;
	double md;
	char sub[160];

	r->map_id = dl_json_uint(&rd, o, path, "map_id", 0, 0, UINT32_MAX, 0);
	r->reduce_id =
		dl_json_uint(&rd, o, path, "reduce_id", 0, 0, UINT32_MAX, 0);
	r->dep_other =
		dl_json_uint(&rd, o, path, "dep_other", 0, 0, UINT32_MAX, 0);
	get_str(&rd, o, path, "user", r->user, sizeof(r->user));
	get_str(&rd, o, path, "account", r->account, sizeof(r->account));
	get_str(&rd, o, path, "name", r->name, sizeof(r->name));
	get_str(&rd, o, path, "partition", r->partition, sizeof(r->partition));
	r->submit = get_time(&rd, o, path, "submit");
	r->tasks = (uint32_t) dl_json_uint(&rd, o, path, "tasks", 0, 0,
					   DL_MAX_TASKS, 0);
	r->cpus_per_task = (uint32_t) dl_json_uint(
		&rd, o, path, "cpus_per_task", 0, 0, UINT16_MAX, 0);
	r->mem_per_task = dl_json_uint(&rd, o, path, "mem_per_task", 0, 0,
				       UINT64_MAX >> 12, 0);
	r->time_limit = get_time(&rd, o, path, "time_limit");
	r->hard_deadline = get_time(&rd, o, path, "hard_deadline");
	r->soft_deadline = get_time(&rd, o, path, "soft_deadline");
	r->reduce_cost = get_time(&rd, o, path, "reduce_cost");
	md = dl_json_num(&rd, o, path, "max_delays", 0, -1, 1000, -1);
	if (md != floor(md))
		dl_json_fail(&rd, path, ".max_delays must be an integer");
	r->max_delays = (int32_t) md;
	ids = dl_json_str(&rd, o, path, "finished", 0, 0, SIZE_MAX, NULL);
	if (ids && dl_idset_parse(&r->finished, ids, sub, sizeof(sub)))
		dl_json_fail(&rd, path, ".finished: %s", sub);
	/* absent from files written before it existed */
	ids = dl_json_str(&rd, o, path, "failed_ids", 0, 0, SIZE_MAX, NULL);
	if (ids && dl_idset_parse(&r->failed_ids, ids, sub, sizeof(sub)))
		dl_json_fail(&rd, path, ".failed_ids: %s", sub);
	r->completed = (uint32_t) dl_json_uint(&rd, o, path, "completed", 0, 0,
					       DL_MAX_TASKS, 0);
	/* absent from files written before it existed */
	r->unmeasured = (uint32_t) dl_json_uint(&rd, o, path, "unmeasured", 0,
						0, DL_MAX_TASKS, 0);
	r->failed = (uint32_t) dl_json_uint(&rd, o, path, "failed", 0, 0,
					    DL_MAX_TASKS, 0);
	r->vanished = (uint32_t) dl_json_uint(&rd, o, path, "vanished", 0, 0,
					      DL_MAX_TASKS, 0);
	get_pool_array(&rd, o, path, "done_pool", r->done_pool, NULL);
	get_pool_array(&rd, o, path, "sum_len", NULL, r->sum_len);
	get_pool_array(&rd, o, path, "sumsq_len", NULL, r->sumsq_len);
	r->first_start = get_time(&rd, o, path, "first_start");
	r->last_end = get_time(&rd, o, path, "last_end");
	r->managed = dl_json_bool(&rd, o, path, "managed", 0, false);
	r->alloc = (uint32_t) dl_json_uint(&rd, o, path, "alloc", 0, 0,
					   UINT32_MAX, 0);
	r->prio_mode = (uint8_t) dl_json_uint(&rd, o, path, "prio_mode", 0, 0,
					      DL_PRIO_KEEP, 0);
	r->user_saved = dl_json_bool(&rd, o, path, "user_saved", 0, false);
	r->user_throttle = (uint32_t) dl_json_uint(
		&rd, o, path, "user_throttle", 0, 0, UINT32_MAX, 0);
	get_str(&rd, o, path, "verdict", r->verdict, sizeof(r->verdict));
	r->last_seen = get_time(&rd, o, path, "last_seen");
	r->present = dl_json_bool(&rd, o, path, "present", 0, false);
	if (rd.failed)
		return EINVAL;
	for (int k = 0; k < DL_POOLS; k++)
		done += r->done_pool[k];
	if (done + r->unmeasured != r->completed ||
	    (uint64_t) r->completed + r->failed != r->finished.count) {
		snprintf(err, err ? errlen : 0,
			 "counts disagree (completed %u, unmeasured %u, failed "
			 "%u, per pool %llu, task ids %u)",
			 r->completed, r->unmeasured, r->failed,
			 (unsigned long long) done, r->finished.count);
		return EINVAL;
	}
	if (r->failed_ids.count > r->failed ||
	    !idset_within(&r->failed_ids, &r->finished)) {
		snprintf(err, err ? errlen : 0,
			 "failed task ids (%u) not among the %u failed or the "
			 "counted ids",
			 r->failed_ids.count, r->failed);
		return EINVAL;
	}
	if ((uint64_t) r->tasks < (uint64_t) r->finished.count + r->vanished) {
		uint64_t known = (uint64_t) r->finished.count + r->vanished;

		r->tasks =
			known > DL_MAX_TASKS ? DL_MAX_TASKS : (uint32_t) known;
	}
	return 0;
}

int dl_sstate_from_string(struct dl_sstate *st, const char *text, char *err,
			  size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	struct json_object *o, *arr;
	struct dl_sstate tmp;
	size_t n;
	int rc = EINVAL;

	if (!st || !text) {
		snprintf(err, err ? errlen : 0, "no state");
		return EINVAL;
	}
	o = dl_json_parse(text, strlen(text), MAX_STATE_FILE, "state", err,
			  errlen);
	if (!o)
		return EINVAL;
	dl_sstate_init(&tmp);
	if (!dl_json_is_object(&rd, o, "state"))
		goto out;
	if (dl_json_uint(&rd, o, NULL, "version", 0, 0, UINT32_MAX, 0) !=
	    SSTATE_VERSION) {
		dl_json_fail(&rd, NULL,
			     "unsupported state version (expected %d)",
			     SSTATE_VERSION);
		goto out;
	}
	tmp.cycle = dl_json_uint(&rd, o, NULL, "cycle", 0, 0, UINT64_MAX, 0);
	arr = dl_json_array(&rd, o, NULL, "arrays", DL_JSON_REQUIRED,
			    DL_JSON_ANY_LEN);
	if (rd.failed)
		goto out;
	n = json_object_array_length(arr);
	/* one damaged record costs that record only: the others (other
	 * users' observed task lengths, pairings, outcomes) are kept */
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		struct dl_array_rec rec, *r;
		struct dl_json_rd er;
		char path[40], why[200] = "", sub[256] = "";
		uint64_t id = 0;

		dl_json_label(path, sizeof(path), "arrays", NULL, (long) i);
		er = (struct dl_json_rd) DL_JSON_RD(why, sizeof(why));
		if (dl_json_is_object(&er, e, path))
			id = dl_json_uint(&er, e, path, "id", DL_JSON_REQUIRED,
					  1, UINT32_MAX, 0);
		if (er.failed) {
			snprintf(sub, sizeof(sub), "%s", why);
		} else if (dl_sstate_find(&tmp, id)) {
			snprintf(sub, sizeof(sub), "array %llu listed twice",
				 (unsigned long long) id);
		} else {
			memset(&rec, 0, sizeof(rec));
			rec.id = id;
			rec.max_delays = -1;
			if (rec_from_json(&rec, e, path, why, sizeof(why))) {
				snprintf(sub, sizeof(sub), "array %llu: %s",
					 (unsigned long long) id, why);
				rec_free(&rec);
			} else if (!(r = dl_sstate_add(&tmp, id))) {
				rec_free(&rec);
				snprintf(err, err ? errlen : 0,
					 "out of memory");
				rc = ENOMEM;
				goto out;
			} else {
				*r = rec;
				continue;
			}
		}
		if (!tmp.skipped++)
			snprintf(err, err ? errlen : 0, "%s", sub);
	}
	dl_sstate_free(st);
	*st = tmp;
	json_object_put(o);
	return 0;
out:
	dl_sstate_free(&tmp);
	json_object_put(o);
	return rc;
}

int dl_sstate_save(const struct dl_sstate *st, const char *path, unsigned mode)
{
	char *text;
	int rc;

	if (!st || !path)
		return EINVAL;
	text = dl_sstate_to_string(st);
	if (!text)
		return ENOMEM;
	rc = dl_atomic_write(path, text, strlen(text), mode);
	free(text);
	return rc;
}

int dl_sstate_load(struct dl_sstate *st, const char *path, char *err,
		   size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!st || !path) {
		snprintf(err, err ? errlen : 0, "no state file");
		return EINVAL;
	}
	rc = dl_read_file(path, MAX_STATE_FILE, &text, &len);
	if (rc) {
		snprintf(err, err ? errlen : 0, "%s: %s", path,
			 dl_file_strerror(rc));
		return rc;
	}
	if (strlen(text) != len) {
		snprintf(err, err ? errlen : 0, "%s: contains NUL bytes", path);
		free(text);
		return EINVAL;
	}
	rc = dl_sstate_from_string(st, text, err, errlen);
	free(text);
	return rc;
}

uint32_t dl_sstate_decisions(const struct dl_plan *plan,
			     const struct dl_sstate *st,
			     struct dl_array_decision *out)
{
	uint32_t n = 0;

	if (!plan || !st || !out)
		return 0;
	for (uint32_t i = 0; i < plan->njobs; i++) {
		const struct dl_plan_job *pj = &plan->jobs[i];
		struct dl_decision core[2];
		uint32_t nc = dl_decide(pj, core);

		for (uint32_t k = 0; k < nc; k++) {
			const struct dl_array_rec *r =
				dl_sstate_find(st, core[k].array_id);
			struct dl_array_decision *d;

			if (!r || !r->present)
				continue;
			if (core[k].manage) {
				d = &out[n++];
				memset(d, 0, sizeof(*d));
				d->d = core[k];
				d->release_hold = !core[k].hold &&
						  r->prio_mode == DL_PRIO_HELD;
				d->ours_held = r->prio_mode == DL_PRIO_HELD;
			} else if (r->managed && pj->phase >= 0) {
				/* ours before, not any more: give it back */
				d = &out[n++];
				memset(d, 0, sizeof(*d));
				d->d = core[k];
				d->user_throttle = r->user_throttle;
				d->restore_prio = r->prio_mode != DL_PRIO_NONE;
				d->release_hold = r->prio_mode == DL_PRIO_HELD;
			}
		}
	}
	return n;
}
