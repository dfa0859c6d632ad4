/*
 * history.c - in-memory windows of finished tasks, per-level calibration
 * and the predictor chain.
 *
 * Records are stored compactly (floats: a duration or size is needed to a
 * relative 1e-7 at most) so that a million of them fit in a few tens of MB.
 */
#include "common/estimate/history.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hrec {
	uint64_t job; /* to leave a job's own tasks out of its calibration */
	float len;
	float bytes; /* NAN = unknown */
	float cpu, mem, io;
	uint32_t end; /* epoch seconds, for the age limit */
};

/* A ring of records that grows (doubling) up to its maximum. */
struct ring {
	struct hrec *r;
	uint32_t cap, len, next;
};

/* A summary of a key's window, recomputed lazily. */
struct cached_sum {
	bool valid;
	uint64_t adds; /* the key's adds when computed */
	double now;
	uint64_t job; /* excluded job (excl cache only) */
	bool ok;      /* at least one sample */
	struct dl_summary sum;
};

struct hkey {
	/* (user, name, phase) keys only: least recently observed last */
	struct hkey *lru_prev, *lru_next;
	const char *key; /* the map's copy */
	size_t keylen;
	struct ring ring;
	uint64_t adds;
	struct cached_sum plain; /* every record: what predict uses */
	struct cached_sum excl;  /* without one job's records: calibration */
	struct dl_usage usage;   /* with plain */
	/* (user, phase) keys: each level's recent accuracy for the user */
	struct dl_score score[DL_PRED_SOURCES];
};

struct hjob {
	uint64_t key_hash;
	double *len; /* ring of the newest own durations */
	double *end; /* and when each ended (same ring positions) */
	uint32_t cap, n, next;
	struct hjob *prev, *next_lru; /* most recent first */
	char *key;
};

struct cached_rate {
	bool valid;
	uint64_t adds;
	double now;
	uint64_t job;
	struct dl_rate_model model;
};

struct rate_win {
	struct ring ring;
	uint64_t adds;
	struct cached_rate plain, excl;
};

struct hent {
	struct hent *next;
	uint64_t hash;
	char *key;
	size_t keylen;
	void *val;
};

struct hmap {
	struct hent **b;
	size_t nb, n;
};

struct dl_hist {
	struct dl_hist_cfg cfg;
	struct hmap names; /* "phase\037user\037name" -> hkey */
	struct hmap users; /* "phase\037user" -> hkey */
	struct hmap jobs;  /* "phase\037jobid" -> hjob */
	struct hjob *lru_head, *lru_tail;
	struct hkey *key_head,
		*key_tail; /* names, most recently observed first */
	struct rate_win rate[2];
	/* per phase the newest tasks of every user: the default level */
	struct hkey global[2];
	/* per phase and level (map and reduce tasks err differently): the
	 * errors on the tasks the level answered (calib), and, as calib's
	 * fallback, on every task of either phase it could have answered
	 * (calib_all) */
	struct dl_calib calib[2][DL_PRED_SOURCES];
	struct dl_calib calib_all[DL_PRED_SOURCES];
	double *scratch_a, *scratch_b;
	uint32_t scratch_len;
	uint64_t observed, records;
	uint64_t evicted_keys;
};

/* ---- hash map with string keys (FNV-1a, chained) ---- */

static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char) s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static int hmap_init(struct hmap *m)
{
	m->nb = 64;
	m->n = 0;
	m->b = calloc(m->nb, sizeof(*m->b));
	return m->b ? 0 : ENOMEM;
}

static struct hent *hmap_find(const struct hmap *m, const char *key, size_t len,
			      uint64_t h)
{
	for (struct hent *e = m->b[h & (m->nb - 1)]; e; e = e->next)
		if (e->hash == h && e->keylen == len &&
		    !memcmp(e->key, key, len))
			return e;
	return NULL;
}

static void *hmap_get(const struct hmap *m, const char *key, size_t len)
{
	struct hent *e = hmap_find(m, key, len, fnv1a(key, len));

	return e ? e->val : NULL;
}

static int hmap_grow(struct hmap *m)
{
	size_t nb = m->nb * 2;
	struct hent **b = calloc(nb, sizeof(*b));

	if (!b)
		return ENOMEM;
	for (size_t i = 0; i < m->nb; i++) {
		struct hent *e = m->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (nb - 1)];
			b[e->hash & (nb - 1)] = e;
		}
	}
	free(m->b);
	m->b = b;
	m->nb = nb;
	return 0;
}

/* Insert a new key (must be absent); returns the stored key copy or NULL. */
static struct hent *hmap_put(struct hmap *m, const char *key, size_t len,
			     void *val)
{
	uint64_t h = fnv1a(key, len);
	struct hent *e;

	if (m->n + 1 > m->nb && hmap_grow(m))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = malloc(len + 1);
	if (!e->key) {
		free(e);
		return NULL;
	}
	memcpy(e->key, key, len);
	e->key[len] = '\0';
	e->keylen = len;
	e->hash = h;
	e->val = val;
	e->next = m->b[h & (m->nb - 1)];
	m->b[h & (m->nb - 1)] = e;
	m->n++;
	return e;
}

static void hmap_del(struct hmap *m, const char *key, size_t len)
{
	uint64_t h = fnv1a(key, len);
	struct hent **pp = &m->b[h & (m->nb - 1)];

	for (; *pp; pp = &(*pp)->next) {
		struct hent *e = *pp;

		if (e->hash == h && e->keylen == len &&
		    !memcmp(e->key, key, len)) {
			*pp = e->next;
			free(e->key);
			free(e);
			m->n--;
			return;
		}
	}
}

static void hmap_free(struct hmap *m, void (*free_val)(void *))
{
	if (!m->b)
		return;
	for (size_t i = 0; i < m->nb; i++) {
		struct hent *e = m->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			if (free_val)
				free_val(e->val);
			free(e->key);
			free(e);
		}
	}
	free(m->b);
	memset(m, 0, sizeof(*m));
}

/* ---- rings ---- */

static int ring_push(struct ring *rg, uint32_t max, const struct hrec *x)
{
	if (rg->len == rg->cap && rg->cap < max) {
		/* grow: the ring is full and linear (next == 0 after a wrap
		 * only happens at cap == max), so unroll it first */
		uint32_t cap = rg->cap ? rg->cap * 2 : 4;
		struct hrec *r;

		if (cap > max)
			cap = max;
		r = malloc((size_t) cap * sizeof(*r));
		if (!r)
			return ENOMEM;
		for (uint32_t i = 0; i < rg->len; i++)
			r[i] = rg->r[(rg->next + i) % rg->cap];
		free(rg->r);
		rg->r = r;
		rg->next = rg->len;
		rg->cap = cap;
	}
	rg->r[rg->next] = *x;
	rg->next = (rg->next + 1) % rg->cap;
	if (rg->len < rg->cap)
		rg->len++;
	return 0;
}

/* i-th record, oldest first */
static const struct hrec *ring_at(const struct ring *rg, uint32_t i)
{
	uint32_t start = rg->len < rg->cap ? 0 : rg->next;

	return &rg->r[(start + i) % rg->cap];
}

static bool ring_has_job(const struct ring *rg, uint64_t job)
{
	for (uint32_t i = 0; i < rg->len; i++)
		if (rg->r[i].job == job)
			return true;
	return false;
}

/* ---- config ---- */

void dl_hist_cfg_defaults(struct dl_hist_cfg *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	dl_pred_cfg_defaults(&cfg->pred);
	cfg->window = 500;
	cfg->rate_window = 2000;
	cfg->max_jobs = 2000;
	cfg->max_keys = 100000;
	cfg->max_age = 0;
}

int dl_hist_cfg_check(const struct dl_hist_cfg *cfg, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (!cfg)
		bad = "no history configuration";
	else if (dl_pred_cfg_check(&cfg->pred, err, errlen))
		return EINVAL;
	else if (cfg->window < 1 || cfg->window > 1000000)
		bad = "HistoryPerKey must be 1..1000000";
	else if (cfg->rate_window < 3 || cfg->rate_window > 1000000)
		bad = "RateWindow must be 3..1000000";
	else if (cfg->max_jobs < 1 || cfg->max_jobs > 10000000)
		bad = "MaxJobs must be 1..10000000";
	else if (cfg->max_keys < 1 || cfg->max_keys > 100000000)
		bad = "HistoryMaxKeys must be 1..100000000";
	else if (!(cfg->max_age >= 0) || !isfinite(cfg->max_age))
		bad = "HistoryMaxAge must be >= 0";
	if (!bad)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", bad);
	return EINVAL;
}

/* ---- lifecycle ---- */

static void hkey_free(void *p)
{
	struct hkey *k = p;

	if (k)
		free(k->ring.r);
	free(k);
}

static void hjob_free(void *p)
{
	struct hjob *j = p;

	if (j) {
		free(j->len);
		free(j->end);
	}
	free(j);
}

void dl_hist_free(struct dl_hist *h)
{
	if (!h)
		return;
	hmap_free(&h->names, hkey_free);
	hmap_free(&h->users, hkey_free);
	hmap_free(&h->jobs, hjob_free);
	for (int p = 0; p < 2; p++) {
		free(h->rate[p].ring.r);
		free(h->global[p].ring.r);
	}
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < DL_PRED_SOURCES; i++) {
			dl_calib_free(&h->calib[p][i]);
			dl_calib_free(&h->calib_all[i]);
		}
	free(h->scratch_a);
	free(h->scratch_b);
	free(h);
}

struct dl_hist *dl_hist_new(const struct dl_hist_cfg *cfg, char *err,
			    size_t errlen)
{
	struct dl_hist *h;
	uint32_t n;

	if (dl_hist_cfg_check(cfg, err, errlen))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		goto nomem;
	h->cfg = *cfg;
	if (hmap_init(&h->names) || hmap_init(&h->users) || hmap_init(&h->jobs))
		goto nomem;
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < DL_PRED_SOURCES; i++) {
			if (dl_calib_init(&h->calib[p][i],
					  cfg->pred.calib_window) ||
			    (!p && dl_calib_init(&h->calib_all[i],
						 cfg->pred.calib_window)))
				goto nomem;
			h->calib[p][i].fallback = &h->calib_all[i];
		}
	n = cfg->window;
	if (cfg->rate_window > n)
		n = cfg->rate_window;
	if (cfg->pred.job_window > n)
		n = cfg->pred.job_window;
	h->scratch_a = malloc((size_t) n * sizeof(double));
	h->scratch_b = malloc((size_t) n * sizeof(double));
	if (!h->scratch_a || !h->scratch_b)
		goto nomem;
	h->scratch_len = n;
	return h;
nomem:
	if (err && errlen)
		snprintf(err, errlen, "out of memory");
	dl_hist_free(h);
	return NULL;
}

/* ---- validation ---- */

static int fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return EINVAL;
}

static bool opt_ok(double v)
{
	return isnan(v) || (isfinite(v) && v >= 0 && v <= 1e18);
}

static bool str_ok(const char *s, bool allow_empty)
{
	size_t len;

	if (!s)
		return false;
	len = strnlen(s, DL_HIST_MAX_STR + 1);
	return len <= DL_HIST_MAX_STR && (allow_empty || len > 0);
}

int dl_task_rec_check(const struct dl_task_rec *t, char *err, size_t errlen)
{
	if (!t)
		return fail(err, errlen, "no task");
	if (!str_ok(t->user, false))
		return fail(err, errlen, "user must be 1..255 bytes");
	if (!str_ok(t->name, true))
		return fail(err, errlen, "name must be at most 255 bytes");
	if (t->phase != 0 && t->phase != 1)
		return fail(err, errlen, "phase must be map or reduce");
	if (!isfinite(t->start) || !isfinite(t->end) || t->start < 0 ||
	    t->end > 1e12)
		return fail(err, errlen,
			    "start and end must be finite "
			    "times >= 0");
	if (t->end < t->start)
		return fail(err, errlen, "end is before start");
	if (!opt_ok(t->input_bytes))
		return fail(err, errlen, "input_bytes must be >= 0");
	if (!opt_ok(t->cpu) || !opt_ok(t->mem) || !opt_ok(t->io))
		return fail(err, errlen, "cpu, mem and io must be >= 0");
	return 0;
}

int dl_pred_query_check(const struct dl_pred_query *q, char *err, size_t errlen)
{
	if (!q)
		return fail(err, errlen, "no query");
	if (!str_ok(q->user, false))
		return fail(err, errlen, "user must be 1..255 bytes");
	if (!str_ok(q->name, true))
		return fail(err, errlen, "name must be at most 255 bytes");
	if (q->phase != 0 && q->phase != 1)
		return fail(err, errlen, "phase must be map or reduce");
	if (q->ncompleted && !q->completed)
		return fail(err, errlen, "completed missing");
	for (size_t i = 0; i < q->ncompleted; i++)
		if (!isfinite(q->completed[i]) || q->completed[i] < 0 ||
		    q->completed[i] > 1e12)
			return fail(err, errlen,
				    "completed durations must "
				    "be finite seconds >= 0");
	if (!opt_ok(q->input_bytes))
		return fail(err, errlen, "input_bytes must be >= 0");
	return 0;
}

/* ---- keys ---- */

static size_t name_key(char *buf, size_t len, int phase, const char *user,
		       const char *name)
{
	int n = snprintf(buf, len, "%d\037%s\037%s", phase, user, name);

	return n > 0 && (size_t) n < len ? (size_t) n : 0;
}

static size_t user_key(char *buf, size_t len, int phase, const char *user)
{
	int n = snprintf(buf, len, "%d\037%s", phase, user);

	return n > 0 && (size_t) n < len ? (size_t) n : 0;
}

static size_t job_key(char *buf, size_t len, int phase, uint64_t job)
{
	int n = snprintf(buf, len, "%d\037%llu", phase,
			 (unsigned long long) job);

	return n > 0 && (size_t) n < len ? (size_t) n : 0;
}

#define KEYBUF (2 * DL_HIST_MAX_STR + 32)

static struct hkey *key_get(struct hmap *m, const char *k, size_t len,
			    bool create)
{
	struct hkey *v = hmap_get(m, k, len);
	struct hent *e;

	if (v || !create)
		return v;
	v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	if (!(e = hmap_put(m, k, len, v))) {
		free(v);
		return NULL;
	}
	v->key = e->key;
	v->keylen = e->keylen;
	return v;
}

static void key_unlink(struct dl_hist *h, struct hkey *k)
{
	if (k->lru_prev)
		k->lru_prev->lru_next = k->lru_next;
	else if (h->key_head == k)
		h->key_head = k->lru_next;
	if (k->lru_next)
		k->lru_next->lru_prev = k->lru_prev;
	else if (h->key_tail == k)
		h->key_tail = k->lru_prev;
	k->lru_prev = k->lru_next = NULL;
}

static void key_push_front(struct dl_hist *h, struct hkey *k)
{
	k->lru_prev = NULL;
	k->lru_next = h->key_head;
	if (h->key_head)
		h->key_head->lru_prev = k;
	h->key_head = k;
	if (!h->key_tail)
		h->key_tail = k;
}

/* The (user, name, phase) key of an observation, created if new.  Their
 * number is bounded (HistoryMaxKeys): unique job names would otherwise
 * grow the history without limit; the key observed least recently goes
 * (its user's key keeps the user's history). */
static struct hkey *name_key_touch(struct dl_hist *h, const char *k, size_t len)
{
	struct hkey *v = hmap_get(&h->names, k, len);

	if (v) {
		key_unlink(h, v);
		key_push_front(h, v);
		return v;
	}
	while (h->names.n >= h->cfg.max_keys && h->key_tail) {
		struct hkey *old = h->key_tail;

		key_unlink(h, old);
		h->records -= old->ring.len;
		hmap_del(&h->names, old->key, old->keylen);
		hkey_free(old);
		h->evicted_keys++;
	}
	v = key_get(&h->names, k, len, true);
	if (v)
		key_push_front(h, v);
	return v;
}

static bool recent(const struct dl_hist *h, const struct hrec *r, double now)
{
	return h->cfg.max_age <= 0 || (double) r->end >= now - h->cfg.max_age;
}

static void usage_add(double *sum, uint32_t *cnt, float v)
{
	if (!isnan(v)) {
		*sum += v;
		(*cnt)++;
	}
}

static bool stale(const struct dl_hist *h, bool valid, uint64_t adds_then,
		  uint64_t adds_now, double now_then, double now,
		  uint64_t slack)
{
	if (!valid || adds_now - adds_then > slack)
		return true;
	return h->cfg.max_age > 0 &&
	       fabs(now - now_then) > h->cfg.max_age / 1000;
}

/* Summary of a key's window (leaving out job `skip` when exclude), and
 * the usage means when usage is given. */
static bool summarize(struct dl_hist *h, const struct hkey *k, double now,
		      bool exclude, uint64_t skip, struct dl_summary *out,
		      struct dl_usage *usage)
{
	double *x = h->scratch_a;
	double su[3] = {0, 0, 0};
	uint32_t cu[3] = {0, 0, 0}, nu = 0, n = 0;
	bool ok;

	for (uint32_t i = 0; i < k->ring.len; i++) {
		const struct hrec *r = ring_at(&k->ring, i);

		if (!recent(h, r, now) || (exclude && r->job == skip))
			continue;
		x[n++] = r->len;
		if (!usage)
			continue;
		if (!isnan(r->cpu) || !isnan(r->mem) || !isnan(r->io))
			nu++;
		usage_add(&su[0], &cu[0], r->cpu);
		usage_add(&su[1], &cu[1], r->mem);
		usage_add(&su[2], &cu[2], r->io);
	}
	ok = n > 0 &&
	     !dl_summary_compute(x, n, &h->cfg.pred, h->scratch_b, out);
	if (!ok)
		memset(out, 0, sizeof(*out));
	if (usage) {
		usage->n = nu;
		usage->cpu = cu[0] ? su[0] / cu[0] : NAN;
		usage->mem = cu[1] ? su[1] / cu[1] : NAN;
		usage->io = cu[2] ? su[2] / cu[2] : NAN;
	}
	return ok;
}

/* The key's summary over every record; slack: records that may have been
 * added since without a recompute (0 = exact). */
static const struct cached_sum *key_plain(struct dl_hist *h, struct hkey *k,
					  double now, uint64_t slack)
{
	struct cached_sum *c = &k->plain;

	if (stale(h, c->valid, c->adds, k->adds, c->now, now, slack)) {
		c->ok = summarize(h, k, now, false, 0, &c->sum, &k->usage);
		c->valid = true;
		c->adds = k->adds;
		c->now = now;
	}
	return c;
}

/* What the key would have predicted for a task of `job` before that job's
 * own tasks reached the history: the window without them.  A job's tasks
 * usually start together, before any of them finishes, so this is the
 * error its tasks were exposed to. */
static const struct cached_sum *key_for_job(struct dl_hist *h, struct hkey *k,
					    double now, bool job_seen,
					    uint64_t job)
{
	struct cached_sum *c = &k->excl;
	uint64_t slack = k->plain.sum.n / 8;

	if (!job_seen || !ring_has_job(&k->ring, job))
		return key_plain(h, k, now, slack); /* nothing to leave out */
	if (c->job != job ||
	    stale(h, c->valid, c->adds, k->adds, c->now, now, slack)) {
		c->ok = summarize(h, k, now, true, job, &c->sum, NULL);
		c->valid = true;
		c->adds = k->adds;
		c->now = now;
		c->job = job;
	}
	return c;
}

static void rate_compute(struct dl_hist *h, const struct rate_win *w,
			 double now, bool exclude, uint64_t skip,
			 struct dl_rate_model *m)
{
	double *bx = h->scratch_a, *ly = h->scratch_b;
	uint32_t n = 0;

	for (uint32_t i = 0; i < w->ring.len; i++) {
		const struct hrec *r = ring_at(&w->ring, i);

		if (!recent(h, r, now) || (exclude && r->job == skip))
			continue;
		bx[n] = r->bytes;
		ly[n] = r->len;
		n++;
	}
	dl_rate_fit(bx, ly, n, &h->cfg.pred, m);
}

static const struct dl_rate_model *
rate_plain(struct dl_hist *h, struct rate_win *w, double now, uint64_t slack)
{
	struct cached_rate *c = &w->plain;

	if (stale(h, c->valid, c->adds, w->adds, c->now, now, slack)) {
		rate_compute(h, w, now, false, 0, &c->model);
		c->valid = true;
		c->adds = w->adds;
		c->now = now;
	}
	return &c->model;
}

static const struct dl_rate_model *rate_for_job(struct dl_hist *h,
						struct rate_win *w, double now,
						bool job_seen, uint64_t job)
{
	struct cached_rate *c = &w->excl;
	uint64_t slack = w->plain.model.n / 8;

	if (!job_seen || !ring_has_job(&w->ring, job))
		return rate_plain(h, w, now, slack);
	if (c->job != job ||
	    stale(h, c->valid, c->adds, w->adds, c->now, now, slack)) {
		rate_compute(h, w, now, true, job, &c->model);
		c->valid = true;
		c->adds = w->adds;
		c->now = now;
		c->job = job;
	}
	return &c->model;
}

/* ---- jobs (own completions, for calibrating the job level) ---- */

static void lru_unlink(struct dl_hist *h, struct hjob *j)
{
	if (j->prev)
		j->prev->next_lru = j->next_lru;
	else
		h->lru_head = j->next_lru;
	if (j->next_lru)
		j->next_lru->prev = j->prev;
	else
		h->lru_tail = j->prev;
	j->prev = j->next_lru = NULL;
}

static void lru_push_front(struct dl_hist *h, struct hjob *j)
{
	j->prev = NULL;
	j->next_lru = h->lru_head;
	if (h->lru_head)
		h->lru_head->prev = j;
	h->lru_head = j;
	if (!h->lru_tail)
		h->lru_tail = j;
}

static struct hjob *job_get(struct dl_hist *h, int phase, uint64_t id)
{
	char k[KEYBUF];
	size_t len = job_key(k, sizeof(k), phase, id);
	struct hjob *j;
	struct hent *e;

	if (!len)
		return NULL;
	j = hmap_get(&h->jobs, k, len);
	if (j) {
		lru_unlink(h, j);
		lru_push_front(h, j);
		return j;
	}
	if (h->jobs.n >= h->cfg.max_jobs && h->lru_tail) {
		struct hjob *old = h->lru_tail;

		lru_unlink(h, old);
		hmap_del(&h->jobs, old->key, strlen(old->key));
		hjob_free(old);
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	e = hmap_put(&h->jobs, k, len, j);
	if (!e) {
		free(j);
		return NULL;
	}
	j->key = e->key;
	lru_push_front(h, j);
	return j;
}

static int job_add(struct dl_hist *h, struct hjob *j, double len, double end)
{
	uint32_t max = h->cfg.pred.job_window;

	if (j->n == j->cap && j->cap < max) {
		uint32_t cap = j->cap ? j->cap * 2 : 4;
		double *v, *e;

		if (cap > max)
			cap = max;
		v = malloc((size_t) cap * sizeof(*v));
		e = malloc((size_t) cap * sizeof(*e));
		if (!v || !e) {
			free(v);
			free(e);
			return ENOMEM;
		}
		for (uint32_t i = 0; i < j->n; i++) {
			v[i] = j->len[(j->next + i) % j->cap];
			e[i] = j->end[(j->next + i) % j->cap];
		}
		free(j->len);
		free(j->end);
		j->len = v;
		j->end = e;
		j->next = j->n;
		j->cap = cap;
	}
	j->len[j->next] = len;
	j->end[j->next] = end;
	j->next = (j->next + 1) % j->cap;
	if (j->n < j->cap)
		j->n++;
	return 0;
}

/* The job's own completions that had ended by `when` (what a prediction
 * at that time was given), oldest first, into x; returns the count. */
static uint32_t job_samples_by(const struct hjob *j, double when, double *x)
{
	uint32_t start = j->n < j->cap ? 0 : j->next, n = 0;

	for (uint32_t i = 0; i < j->n; i++) {
		uint32_t at = (start + i) % j->cap;

		if (j->end[at] <= when)
			x[n++] = j->len[at];
	}
	return n;
}

/* ---- observe ---- */

static float to_float(double v)
{
	if (isnan(v))
		return NAN;
	return v > 3e38 ? 3e38f : (float) v;
}

/* A level's would-be prediction of one task: center and log spread. */
struct would_be {
	bool ok;
	double p50, spread;
};

static void would_be_sum(const struct cached_sum *cs,
			 const struct dl_pred_cfg *pc, struct would_be *out)
{
	out->ok = cs->ok && cs->sum.n >= pc->min_samples;
	out->p50 = cs->sum.p50;
	out->spread = cs->sum.spread;
}

/* Record the errors the levels would have made on a finished task.
 *
 * Calibration (split-conformal): each level's ring receives the errors of
 * only the tasks that level would have answered when they started, so the
 * empirical quantile of the ring covers what the level is asked for.  The
 * job level answers when the job had MinSamples completions by the task's
 * start; else the name level when its key had MinSamples records of other
 * jobs; else the level dl_pred_choose picks among the user's history, the
 * rate model and the default.  A level's errors on tasks another level
 * answers are not its errors: the user history is accurate on a user's
 * routine names (answered by the name level) and was calibrated on them,
 * which left its p90 too narrow for the new names it does answer.
 *
 * Scores (dl_pred_choose) record every available choosable level, with the
 * job-size weight: they compare the levels, whichever answered. */
static void observe_errors(struct dl_hist *h, const struct dl_task_rec *t,
			   double len, const struct hjob *job, struct hkey *kn,
			   struct hkey *ku, bool seen, double now)
{
	const struct dl_pred_cfg *pc = &h->cfg.pred;
	struct would_be lv[DL_PRED_SOURCES];
	unsigned avail = 1u << DL_PRED_DEFAULT;
	enum dl_pred_source served = DL_PRED_SOURCES;
	uint32_t n;
	double w;

	memset(lv, 0, sizeof(lv));
	n = job_samples_by(job, t->start, h->scratch_a);
	if (n >= pc->min_samples) {
		struct dl_summary s;

		if (!dl_job_summary(h->scratch_a, n, pc, h->scratch_b, &s)) {
			lv[DL_PRED_JOB] =
				(struct would_be){true, s.p50, s.spread};
			served = DL_PRED_JOB;
		}
	}
	if (t->name[0]) {
		would_be_sum(key_for_job(h, kn, now, seen, t->job_id), pc,
			     &lv[DL_PRED_NAME]);
		if (lv[DL_PRED_NAME].ok && served == DL_PRED_SOURCES)
			served = DL_PRED_NAME;
	}
	would_be_sum(key_for_job(h, ku, now, seen, t->job_id), pc,
		     &lv[DL_PRED_USER]);
	if (lv[DL_PRED_USER].ok)
		avail |= 1u << DL_PRED_USER;
	if (!isnan(t->input_bytes)) {
		const struct dl_rate_model *m = rate_for_job(
			h, &h->rate[t->phase], now, seen, t->job_id);

		if (m->valid) {
			lv[DL_PRED_RATE] = (struct would_be){
				true, dl_rate_predict(m, t->input_bytes),
				m->spread};
			avail |= 1u << DL_PRED_RATE;
		}
	}
	would_be_sum(key_for_job(h, &h->global[t->phase], now, seen, t->job_id),
		     pc, &lv[DL_PRED_DEFAULT]);
	if (served == DL_PRED_SOURCES)
		served = dl_pred_choose(ku->score, avail);
	/* the configured default (too few tasks of the phase) has a fixed
	 * spread: nothing to calibrate */
	if (served < DL_PRED_SOURCES && lv[served].ok)
		dl_calib_add_job(&h->calib[t->phase][served], lv[served].p50,
				 lv[served].spread, len, t->job_id + 1);
	for (int s = 0; s < DL_PRED_SOURCES; s++)
		if (lv[s].ok)
			dl_calib_add_job(&h->calib_all[s], lv[s].p50,
					 lv[s].spread, len, t->job_id + 1);

	w = dl_score_task_weight((uint64_t) job->n + 1);
	for (int s = DL_PRED_USER; s <= DL_PRED_DEFAULT; s++)
		if (lv[s].ok)
			dl_score_add(&ku->score[s], lv[s].p50, len, w);
	if (!lv[DL_PRED_DEFAULT].ok)
		dl_score_add(&ku->score[DL_PRED_DEFAULT],
			     pc->default_len[t->phase], len, w);
}

int dl_hist_observe(struct dl_hist *h, const struct dl_task_rec *t, double now)
{
	return dl_hist_observe_ex(h, t, now, true);
}

int dl_hist_observe_ex(struct dl_hist *h, const struct dl_task_rec *t,
		       double now, bool calibrate)
{
	char nk[KEYBUF], uk[KEYBUF];
	size_t nlen, ulen;
	struct hkey *kn, *ku;
	struct hjob *job;
	struct hrec r;
	double len;
	bool seen;
	int rc;

	if (!h)
		return EINVAL;
	if (dl_task_rec_check(t, NULL, 0))
		return EINVAL;
	len = t->end - t->start;
	nlen = name_key(nk, sizeof(nk), t->phase, t->user, t->name);
	ulen = user_key(uk, sizeof(uk), t->phase, t->user);
	if (!nlen || !ulen)
		return EINVAL;
	kn = name_key_touch(h, nk, nlen);
	ku = key_get(&h->users, uk, ulen, true);
	job = job_get(h, t->phase, t->job_id);
	if (!kn || !ku || !job)
		return ENOMEM;

	/* errors each level would have made on this task; summaries may lag
	 * by an eighth of their samples (cheap replays of big histories) */
	seen = job->n > 0;
	if (!calibrate)
		goto store;
	observe_errors(h, t, len, job, kn, ku, seen, now);

store:
	r.job = t->job_id;
	r.len = to_float(len);
	r.bytes = to_float(t->input_bytes);
	r.cpu = to_float(t->cpu);
	r.mem = to_float(t->mem);
	r.io = to_float(t->io);
	r.end = t->end >= 4294967295.0 ? UINT32_MAX : (uint32_t) t->end;
	if ((rc = job_add(h, job, len, t->end)))
		return rc;
	if (kn->ring.len < h->cfg.window)
		h->records++;
	if ((rc = ring_push(&kn->ring, h->cfg.window, &r)) ||
	    (rc = ring_push(&ku->ring, h->cfg.window, &r)))
		return rc;
	if ((rc = ring_push(&h->global[t->phase].ring, h->cfg.window, &r)))
		return rc;
	kn->adds++;
	ku->adds++;
	h->global[t->phase].adds++;
	if (!isnan(t->input_bytes)) {
		struct rate_win *rw = &h->rate[t->phase];

		if ((rc = ring_push(&rw->ring, h->cfg.rate_window, &r)))
			return rc;
		rw->adds++;
	}
	h->observed++;
	return 0;
}

/* ---- predict ---- */

int dl_hist_predict(struct dl_hist *h, const struct dl_pred_query *q,
		    double now, struct dl_prediction *out)
{
	const struct dl_pred_cfg *pc;
	char nk[KEYBUF], uk[KEYBUF];
	size_t nlen, ulen;
	struct hkey *kn, *ku;
	const struct cached_sum *cs, *user = NULL;
	const struct dl_rate_model *rate = NULL;
	unsigned avail = 0;
	size_t use;

	if (!h || !out)
		return EINVAL;
	if (dl_pred_query_check(q, NULL, 0))
		return EINVAL;
	pc = &h->cfg.pred;
	memset(out, 0, sizeof(*out));
	nlen = name_key(nk, sizeof(nk), q->phase, q->user, q->name);
	ulen = user_key(uk, sizeof(uk), q->phase, q->user);
	if (!nlen || !ulen)
		return EINVAL;
	kn = key_get(&h->names, nk, nlen, false);
	ku = key_get(&h->users, uk, ulen, false);

	use = q->ncompleted < pc->job_window ? q->ncompleted : pc->job_window;
	if (use > h->scratch_len)
		use = h->scratch_len;
	if (kn && q->name[0]) {
		cs = key_plain(h, kn, now, 0);
		if (cs->ok && cs->sum.n >= pc->min_samples)
			avail |= 1u << DL_PRED_NAME;
	}
	if (q->ncompleted >= pc->min_samples &&
	    dl_pred_job(q->completed + (q->ncompleted - use), use, pc,
			&h->calib[q->phase][DL_PRED_JOB], h->scratch_b, out)) {
		avail |= 1u << DL_PRED_JOB;
		goto profile;
	}
	/* an empty job name says nothing more than the user */
	if (avail & (1u << DL_PRED_NAME)) {
		cs = key_plain(h, kn, now, 0);
		dl_pred_from_summary(&cs->sum, DL_PRED_NAME,
				     &h->calib[q->phase][DL_PRED_NAME], pc,
				     out);
		goto profile;
	}
	if (ku) {
		user = key_plain(h, ku, now, 0);
		if (user->ok && user->sum.n >= pc->min_samples)
			avail |= 1u << DL_PRED_USER;
	}
	if (!isnan(q->input_bytes)) {
		rate = rate_plain(h, &h->rate[q->phase], now, 0);
		if (isfinite(dl_rate_predict(rate, q->input_bytes)))
			avail |= 1u << DL_PRED_RATE;
	}
	avail |= 1u << DL_PRED_DEFAULT;
	switch (dl_pred_choose(ku ? ku->score : NULL, avail)) {
	case DL_PRED_USER:
		dl_pred_from_summary(&user->sum, DL_PRED_USER,
				     &h->calib[q->phase][DL_PRED_USER], pc,
				     out);
		break;
	case DL_PRED_RATE:
		dl_pred_from_rate(rate, q->input_bytes,
				  &h->calib[q->phase][DL_PRED_RATE], pc, out);
		break;
	default:
		/* every user's recent tasks of the phase, calibrated like the
		 * other levels; the configured length until there are
		 * enough of them */
		cs = key_plain(h, &h->global[q->phase], now, 0);
		if (cs->ok && cs->sum.n >= pc->min_samples)
			dl_pred_from_summary(
				&cs->sum, DL_PRED_DEFAULT,
				&h->calib[q->phase][DL_PRED_DEFAULT], pc, out);
		else
			dl_pred_default(pc, q->phase, out);
		break;
	}
profile:
	out->available = avail | (1u << out->source);
	/* the RAS profile comes from the (user, name, phase) history
	 * whichever level answered the length */
	if (kn) {
		key_plain(h, kn, now, 0);
		if (kn->usage.n) {
			out->has_profile = true;
			out->profile = kn->usage;
		}
	}
	return 0;
}

void dl_hist_get_stats(const struct dl_hist *h, struct dl_hist_stats *st)
{
	if (!st)
		return;
	memset(st, 0, sizeof(*st));
	if (!h)
		return;
	st->observed = h->observed;
	st->records = h->records;
	st->keys = (uint32_t) h->names.n;
	st->evicted_keys = h->evicted_keys;
	st->users = (uint32_t) h->users.n;
	st->jobs = (uint32_t) h->jobs.n;
	for (int i = 0; i < DL_PRED_SOURCES; i++)
		st->calib[i] = h->calib[0][i].total + h->calib[1][i].total;
}
