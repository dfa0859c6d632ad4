/*
 * realtime.c - the admitted set: pools, queue order, admission (Alg. I-III,
 * monotone in the deadline), the feedback controller (Alg. V-VI), queries
 * and the worst-case length cache.
 */
#include "common/io/atomic_file.h"
#include "common/realtime/realtime.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/io/log.h"
#include "common/model/job_hints.h"
#include "common/realtime/internal.h"

#define DEFAULT_BUDGET 4096u
#define NO_POS         UINT32_MAX

/* ---- small helpers ---- */

void rt_copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void dl_rt_fmt_time(char *buf, size_t len, double t)
{
	struct tm tm;
	time_t tt;

	if (!buf || !len)
		return;
	if (!isfinite(t)) {
		snprintf(buf, len, "never");
		return;
	}
	if (t < 1e9) {
		snprintf(buf, len, "t=%.0fs", t);
		return;
	}
	if (t > 253402300799.0) { /* past 9999: no calendar date */
		snprintf(buf, len, "%.0f", t);
		return;
	}
	tt = (time_t) t;
	if (!localtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "%.0f", t);
}

static void fmt_dur(char *buf, size_t len, double s)
{
	if (!isfinite(s))
		snprintf(buf, len, "unknown");
	else if (s < 120)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 7200)
		snprintf(buf, len, "%.1fm", s / 60);
	else
		snprintf(buf, len, "%.1fh", s / 3600);
}

/* The verdict's message; long parts are cut at the buffer's end. */
__attribute__((format(printf, 2, 3))) static void
set_msg(struct dl_rt_verdict *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
}

static char *dup_str(const char *s)
{
	return strdup(s ? s : "");
}

void rt_job_free(struct rt_job *j)
{
	if (!j)
		return;
	free(j->user);
	free(j->name);
	for (int p = 0; p < DL_PHASES; p++)
		dl_rt_vec_free(&j->vec[p]);
	free(j);
}

static void pool_free(struct rt_pool *pl)
{
	for (uint32_t i = 0; i < pl->n; i++)
		rt_job_free(pl->q[i]);
	free(pl->q);
	free(pl->name);
	for (int p = 0; p < DL_PHASES; p++)
		dl_rt_vec_free(&pl->head[p]);
	memset(pl, 0, sizeof(*pl));
}

/* ---- state ---- */

static void default_params(struct dl_rt_params *p)
{
	memset(p, 0, sizeof(*p));
	p->quantile = 0.99;
	p->margin = 0.2;
	p->overhead = 5;
	p->share = 1;
	p->ticket_ttl = 120;
}

struct dl_rt_state *dl_rt_state_new(void)
{
	struct dl_rt_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	if (pthread_mutex_init(&st->lock, NULL)) {
		free(st);
		return NULL;
	}
	default_params(&st->p);
	return st;
}

static void clear_contents(struct dl_rt_state *st)
{
	for (uint32_t i = 0; i < st->npools; i++)
		pool_free(&st->pools[i]);
	free(st->pools);
	st->pools = NULL;
	st->npools = st->cappools = 0;
	for (uint32_t i = 0; i < st->nwc; i++) {
		free(st->wc[i].user);
		free(st->wc[i].name);
	}
	free(st->wc);
	st->wc = NULL;
	st->nwc = st->capwc = 0;
}

void dl_rt_state_free(struct dl_rt_state *st)
{
	if (!st)
		return;
	clear_contents(st);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

static int check_params(const struct dl_rt_params *p)
{
	if (!p || isnan(p->quantile) || p->quantile < 0.5 || p->quantile > 1 ||
	    !isfinite(p->margin) || p->margin < 0 || !isfinite(p->overhead) ||
	    p->overhead < 0 || !isfinite(p->feedback_delta) ||
	    p->feedback_delta < 0 || !isfinite(p->share) || !(p->share > 0) ||
	    p->share > 1 || (p->flags & ~(DL_RT_PAPER_ORDER | DL_RT_EXACT)) ||
	    !isfinite(p->ticket_ttl) || p->ticket_ttl < 0)
		return EINVAL;
	return 0;
}

int dl_rt_set_params(struct dl_rt_state *st, const struct dl_rt_params *p)
{
	if (!st || check_params(p))
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	st->p = *p;
	pthread_mutex_unlock(&st->lock);
	return 0;
}

int dl_rt_get_params(struct dl_rt_state *st, struct dl_rt_params *p)
{
	if (!st || !p)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	*p = st->p;
	pthread_mutex_unlock(&st->lock);
	return 0;
}

int dl_rt_configure(struct dl_rt_state *st, const struct dl_config *cfg)
{
	struct dl_rt_params p;

	if (!st || !cfg)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	p = st->p;
	pthread_mutex_unlock(&st->lock);
	p.quantile = cfg->realtime_quantile;
	p.margin = cfg->realtime_margin;
	p.overhead = cfg->realtime_overhead;
	p.feedback_delta = cfg->feedback_threshold;
	p.share = cfg->realtime_share;
	return dl_rt_set_params(st, &p);
}

/* ---- pools and queues (lock held) ---- */

struct rt_pool *rt_find_pool(struct dl_rt_state *st, const char *name)
{
	if (!name)
		return NULL;
	for (uint32_t i = 0; i < st->npools; i++)
		if (!strcmp(st->pools[i].name, name))
			return &st->pools[i];
	return NULL;
}

struct rt_pool *rt_add_pool(struct dl_rt_state *st, const char *name)
{
	struct rt_pool *pl;

	if (st->npools == st->cappools) {
		uint32_t cap = st->cappools ? st->cappools * 2 : 4;
		struct rt_pool *np = realloc(st->pools, cap * sizeof(*np));

		if (!np)
			return NULL;
		st->pools = np;
		st->cappools = cap;
	}
	pl = &st->pools[st->npools];
	memset(pl, 0, sizeof(*pl));
	pl->name = strdup(name);
	if (!pl->name)
		return NULL;
	st->npools++;
	return pl;
}

/* The admitted job whose pair of keys (its array ids, or its tickets)
 * holds key; its pool and position too when asked. */
static struct rt_job *find_by(struct dl_rt_state *st, uint64_t key,
			      bool tickets, struct rt_pool **pool,
			      uint32_t *pos)
{
	if (!key)
		return NULL;
	for (uint32_t k = 0; k < st->npools; k++) {
		struct rt_pool *pl = &st->pools[k];

		for (uint32_t i = 0; i < pl->n; i++) {
			const struct rt_job *j = pl->q[i];

			if (tickets ? j->ticket != key &&
					      j->reduce_ticket != key
				    : j->id != key && j->reduce_id != key)
				continue;
			if (pool)
				*pool = pl;
			if (pos)
				*pos = i;
			return pl->q[i];
		}
	}
	return NULL;
}

struct rt_job *rt_find_job(struct dl_rt_state *st, uint64_t id,
			   struct rt_pool **pool, uint32_t *pos)
{
	return find_by(st, id, false, pool, pos);
}

struct rt_job *rt_find_ticket(struct dl_rt_state *st, uint64_t ticket,
			      struct rt_pool **pool, uint32_t *pos)
{
	return find_by(st, ticket, true, pool, pos);
}

void rt_unlink(struct rt_pool *pl, uint32_t pos)
{
	if (pos >= pl->n)
		return;
	memmove(&pl->q[pos], &pl->q[pos + 1],
		(pl->n - pos - 1) * sizeof(*pl->q));
	pl->n--;
}

int rt_insert(struct rt_pool *pl, uint32_t pos, struct rt_job *j)
{
	if (pl->n == pl->cap) {
		uint32_t cap = pl->cap ? pl->cap * 2 : 16;
		struct rt_job **nq = realloc(pl->q, cap * sizeof(*nq));

		if (!nq)
			return ENOMEM;
		pl->q = nq;
		pl->cap = cap;
	}
	if (pos > pl->n)
		pos = pl->n;
	memmove(&pl->q[pos + 1], &pl->q[pos], (pl->n - pos) * sizeof(*pl->q));
	pl->q[pos] = j;
	pl->n++;
	return 0;
}

uint32_t rt_first_open(const struct rt_pool *pl)
{
	for (uint32_t i = pl->n; i-- > 0;)
		if (pl->q[i]->started)
			return i + 1;
	return 0;
}

const struct dl_rt_vec *rt_pred(const struct rt_pool *pl, uint32_t pos)
{
	return pos ? pl->q[pos - 1]->vec : pl->head;
}

double rt_pred_pad(const struct rt_pool *pl, uint32_t pos)
{
	return pos ? pl->q[pos - 1]->pad : 0;
}

int rt_init_head(struct rt_pool *pl, double now)
{
	int rc = dl_rt_vec_init(&pl->head[DL_MAP], pl->units[DL_MAP], now);

	if (!rc)
		rc = dl_rt_vec_init(&pl->head[DL_REDUCE],
				    pl->split ? pl->units[DL_REDUCE] : 0, now);
	return rc;
}

int dl_rt_set_pool(struct dl_rt_state *st, const char *name, uint32_t map_units,
		   uint32_t reduce_units, double now)
{
	struct rt_pool *pl;
	bool split = reduce_units > 0;
	uint32_t units[DL_PHASES] = {map_units,
				     split ? reduce_units : map_units};
	int rc = 0;

	if (!st || !name || !*name || map_units > DL_RT_MAX_UNITS ||
	    reduce_units > DL_RT_MAX_UNITS || !isfinite(now))
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	pl = rt_find_pool(st, name);
	if (!pl) {
		pl = rt_add_pool(st, name);
		if (!pl) {
			rc = ENOMEM;
			goto out;
		}
		pl->split = split;
		pl->units[DL_MAP] = units[DL_MAP];
		pl->units[DL_REDUCE] = units[DL_REDUCE];
		rc = rt_init_head(pl, now);
		goto out;
	}
	if (pl->split == split && pl->units[DL_MAP] == units[DL_MAP] &&
	    pl->units[DL_REDUCE] == units[DL_REDUCE])
		goto out;
	dl_log(DL_LOG_INFO,
	       "realtime: pool %s changes from %u/%u to %u/%u units; %u "
	       "admitted jobs are checked again",
	       name, pl->units[DL_MAP], pl->units[DL_REDUCE], units[DL_MAP],
	       units[DL_REDUCE], pl->n);
	pl->split = split;
	pl->units[DL_MAP] = units[DL_MAP];
	pl->units[DL_REDUCE] = units[DL_REDUCE];
	/* until the resync, the head is "everything free now"; jobs keep
	 * their vectors (sized for the old pool) but admissions wait */
	rc = rt_init_head(pl, now);
	pl->need_resync = pl->size_changed = pl->n > 0;
out:
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_pool_units(struct dl_rt_state *st, const char *name,
		     uint32_t units[DL_PHASES], bool *split)
{
	struct rt_pool *pl;
	int rc = ENOENT;

	if (!st || !name || !units)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	pl = rt_find_pool(st, name);
	if (pl) {
		units[DL_MAP] = pl->units[DL_MAP];
		units[DL_REDUCE] = pl->units[DL_REDUCE];
		if (split)
			*split = pl->split;
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* ---- Alg. II + III ---- */

/* The earliest start the model gives the job's tasks: tasks that may have
 * started keep the times they were placed at (its arrival); otherwise not
 * before now. */
static double job_floor(const struct rt_job *j, double now)
{
	if (j->started && j->model_total)
		return j->arrival;
	return j->arrival > now ? j->arrival : now;
}

static int calt(const struct rt_pool *pl, const struct rt_job *j,
		const struct dl_rt_vec pred[DL_PHASES], double pred_pad,
		double now, struct dl_rt_vec out[DL_PHASES], struct rt_calc *c)
{
	struct dl_rt_sched w;
	double floor = job_floor(j, now);
	struct dl_rt_vec *rv;
	int rc;

	memset(c, 0, sizeof(*c));
	c->last_start[DL_MAP] = c->last_start[DL_REDUCE] = NAN;
	c->first_start[DL_MAP] = c->first_start[DL_REDUCE] = NAN;
	c->fits = true;
	c->floor = floor;
	if (j->finished) {
		/* an anchor: the availability it left behind stays */
		c->map_finish = j->map_finish + j->pad;
		c->finish = j->finish + j->pad;
		c->ok = true;
		rc = dl_rt_vec_copy(&out[DL_MAP], &j->vec[DL_MAP]);
		if (!rc)
			rc = dl_rt_vec_copy(&out[DL_REDUCE],
					    &j->vec[DL_REDUCE]);
		dl_rt_vec_shift(&out[DL_MAP], j->pad);
		dl_rt_vec_shift(&out[DL_REDUCE], j->pad);
		return rc;
	}
	rc = dl_rt_vec_copy(&out[DL_MAP], &pred[DL_MAP]);
	if (!rc)
		rc = dl_rt_vec_copy(&out[DL_REDUCE], &pred[DL_REDUCE]);
	if (rc)
		return rc;
	dl_rt_vec_shift(&out[DL_MAP], pred_pad);
	dl_rt_vec_shift(&out[DL_REDUCE], pred_pad);
	if (j->held) {
		/* passes the predecessor through: nothing left to place */
		c->map_finish = c->finish = j->finish;
		c->ok = true;
		return 0;
	}
	if (!(pred_pad >= 0) || !isfinite(pred_pad))
		return EINVAL;
	for (int p = 0; p < DL_PHASES; p++)
		if (j->mtasks[p] && j->cpus[p] > pl->units[p])
			c->fits = false;
	if (!c->fits)
		return 0;

	/* maps: list scheduling from the job's arrival (or now) on */
	rc = dl_rt_vec_schedule(&out[DL_MAP], j->mtasks[DL_MAP],
				j->cpus[DL_MAP], j->wc[DL_MAP], floor, &w);
	if (rc)
		return rc;
	c->map_finish = floor;
	if (j->run_end[DL_MAP] > c->map_finish)
		c->map_finish = j->run_end[DL_MAP];
	if (j->mtasks[DL_MAP]) {
		c->first_start[DL_MAP] = w.first_start;
		c->last_start[DL_MAP] = w.last_start;
		if (w.last_end > c->map_finish)
			c->map_finish = w.last_end;
	}
	/* reduces: after the job's last map, in waves if R > slots */
	rv = pl->split ? &out[DL_REDUCE] : &out[DL_MAP];
	rc = dl_rt_vec_schedule(rv, j->mtasks[DL_REDUCE], j->cpus[DL_REDUCE],
				j->wc[DL_REDUCE], c->map_finish, &w);
	if (rc)
		return rc;
	c->finish = c->map_finish;
	if (j->run_end[DL_REDUCE] > c->finish)
		c->finish = j->run_end[DL_REDUCE];
	if (j->mtasks[DL_REDUCE]) {
		c->first_start[DL_REDUCE] = w.first_start;
		c->last_start[DL_REDUCE] = w.last_start;
		if (w.last_end > c->finish)
			c->finish = w.last_end;
	}
	if (!pl->split)
		dl_rt_vec_free(&out[DL_REDUCE]);
	c->ok = c->finish <= j->deadline;
	for (int p = 0; p < DL_PHASES; p++)
		if (j->latest_start[p] > 0 && !isnan(c->last_start[p]) &&
		    c->last_start[p] > j->latest_start[p])
			c->ok = false;
	return 0;
}

int rt_calt(const struct rt_pool *pl, const struct rt_job *j,
	    const struct dl_rt_vec pred[DL_PHASES], double pred_pad, double now,
	    struct dl_rt_vec out[DL_PHASES], struct rt_calc *c)
{
	return calt(pl, j, pred, pred_pad, now, out, c);
}

void rt_store_calc(struct rt_job *j, const struct rt_calc *c)
{
	if (j->held) {
		j->pad = 0; /* its vectors are its predecessor's, pad applied */
		return;
	}
	if (j->finished) {
		/* an anchor's output is its own vectors with its pad applied */
		j->map_finish = c->map_finish;
		j->finish = c->finish;
		j->pad = 0;
		return;
	}
	j->map_finish = c->fits ? c->map_finish : INFINITY;
	j->finish = c->fits ? c->finish : INFINITY;
	j->floor = c->floor;
	j->pad = 0;
	for (int p = 0; p < DL_PHASES; p++) {
		j->first_start[p] = c->first_start[p];
		j->last_start[p] = c->last_start[p];
	}
}

int rt_recompute_from(struct rt_pool *pl, uint32_t from, double now,
		      bool stored_floor)
{
	for (uint32_t i = from; i < pl->n; i++) {
		struct rt_job *j = pl->q[i];
		struct dl_rt_vec out[DL_PHASES] = {{0}};
		struct rt_calc c;
		int rc = calt(pl, j, rt_pred(pl, i), rt_pred_pad(pl, i),
			      stored_floor ? j->floor : now, out, &c);

		if (rc) {
			dl_rt_vec_free(&out[0]);
			dl_rt_vec_free(&out[1]);
			return rc;
		}
		/* (tasks wider than the pool: calt passed pred through) */
		for (int p = 0; p < DL_PHASES; p++) {
			dl_rt_vec_free(&j->vec[p]);
			j->vec[p] = out[p];
		}
		if (j->held)
			j->pad = 0; /* pred with its pad already applied */
		rt_store_calc(j, &c);
	}
	return 0;
}

double rt_feedback_delta(const struct dl_rt_state *st, const struct rt_job *j)
{
	if (st->p.feedback_delta > 0)
		return st->p.feedback_delta;
	if (j->typical_map > 0)
		return j->typical_map;
	return j->wc[DL_MAP];
}

/* ---- admission ---- */

static bool bad_time(double t)
{
	return !isfinite(t) || t < 0;
}

static int validate(const struct dl_rt_request *r, char *msg, size_t len)
{
	if (!r) {
		snprintf(msg, len, "no request");
		return EINVAL;
	}
	if (!r->id && !r->ticket) {
		snprintf(msg, len, "job without id or ticket");
		return EINVAL;
	}
	if (!r->pool || !*r->pool) {
		snprintf(msg, len, "job %llu: no partition",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	if (bad_time(r->arrival) || bad_time(r->deadline) ||
	    !(r->deadline > 0)) {
		snprintf(msg, len, "job %llu: invalid arrival or deadline",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	if (!r->tasks[DL_MAP] && !r->tasks[DL_REDUCE]) {
		snprintf(msg, len, "job %llu has no tasks",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	for (int p = 0; p < DL_PHASES; p++) {
		if (r->tasks[p] > DL_MAX_TASKS) {
			snprintf(msg, len, "job %llu: %u tasks is too many",
				 (unsigned long long) r->id, r->tasks[p]);
			return EINVAL;
		}
		if (r->cpus[p] > DL_RT_MAX_UNITS) {
			snprintf(msg, len, "job %llu: %u CPUs per task",
				 (unsigned long long) r->id, r->cpus[p]);
			return EINVAL;
		}
		/* NAN = unknown worst case (judged, not malformed) */
		if (r->tasks[p] && !isnan(r->wc[p]) && bad_time(r->wc[p])) {
			snprintf(msg, len,
				 "job %llu: invalid worst-case task length",
				 (unsigned long long) r->id);
			return EINVAL;
		}
		if (bad_time(r->latest_start[p])) {
			snprintf(msg, len, "job %llu: invalid start window",
				 (unsigned long long) r->id);
			return EINVAL;
		}
	}
	if (!isfinite(r->typical_map) || r->typical_map < 0) {
		snprintf(msg, len, "job %llu: invalid typical map length",
			 (unsigned long long) r->id);
		return EINVAL;
	}
	return 0;
}

static struct rt_job *job_from_request(const struct dl_rt_request *r,
				       uint64_t seq)
{
	struct rt_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->user = dup_str(r->user);
	j->name = dup_str(r->name);
	if (!j->user || !j->name) {
		rt_job_free(j);
		return NULL;
	}
	j->id = r->id;
	j->ticket = r->ticket;
	j->reduce_id = r->reduce_id;
	j->arrival = r->arrival;
	j->deadline = r->deadline;
	j->key = r->deadline;
	j->seq = seq;
	for (int p = 0; p < DL_PHASES; p++) {
		j->tasks[p] = j->mtasks[p] = r->tasks[p];
		j->cpus[p] = r->cpus[p] ? r->cpus[p] : 1;
		j->wc[p] = r->tasks[p] ? r->wc[p] : 0;
		j->latest_start[p] = r->latest_start[p];
		j->run_end[p] = -INFINITY;
	}
	j->model_total = true;
	j->typical_map = r->typical_map;
	return j;
}

/* One placement attempt's scratch: the new job's vectors and the later
 * jobs recomputed behind it. */
struct trial {
	struct dl_rt_vec jv[DL_PHASES];
	struct rt_calc jc;
	struct dl_rt_vec (*sv)[DL_PHASES];
	struct rt_calc *sc;
	uint32_t cap;     /* entries in sv/sc */
	uint32_t nsucc;   /* later jobs recomputed exactly */
	double shift;     /* then added as pad to the rest (0: none) */
	uint64_t blocker; /* first later job that would miss */
	double bfin, bdl;
};

static void trial_clear(struct trial *t)
{
	for (int p = 0; p < DL_PHASES; p++)
		dl_rt_vec_free(&t->jv[p]);
	for (uint32_t i = 0; i < t->nsucc; i++)
		for (int p = 0; p < DL_PHASES; p++)
			dl_rt_vec_free(&t->sv[i][p]);
	t->nsucc = 0;
	t->shift = 0;
	t->blocker = 0;
}

static void trial_free(struct trial *t)
{
	trial_clear(t);
	free(t->sv);
	free(t->sc);
}

static int trial_alloc(struct trial *t, uint32_t n)
{
	memset(t, 0, sizeof(*t));
	t->cap = n ? n : 1;
	t->sv = calloc(t->cap, sizeof(*t->sv));
	t->sc = calloc(t->cap, sizeof(*t->sc));
	return t->sv && t->sc ? 0 : ENOMEM;
}

/* How much later than its model a job may finish (and start its last
 * tasks) without missing anything. */
static double job_slack(const struct rt_job *j)
{
	double s;

	if (j->held || j->finished)
		return INFINITY;
	s = j->deadline - (j->finish + j->pad);
	for (int p = 0; p < DL_PHASES; p++)
		if (j->latest_start[p] > 0 && !isnan(j->last_start[p]))
			s = fmin(s, j->latest_start[p] -
					    (j->last_start[p] + j->pad));
	return s;
}

/* slack[i] = the least slack of the jobs at positions i.. (n+1 entries) */
static double *suffix_slack(const struct rt_pool *pl)
{
	double *sl = malloc((pl->n + 1) * sizeof(*sl));

	if (!sl)
		return NULL;
	sl[pl->n] = INFINITY;
	for (uint32_t i = pl->n; i-- > 0;)
		sl[i] = fmin(job_slack(pl->q[i]), sl[i + 1]);
	return sl;
}

static double excess(const struct dl_rt_vec a[DL_PHASES],
		     const struct dl_rt_vec b[DL_PHASES], double bpad)
{
	return fmax(dl_rt_vec_excess(&a[0], &b[0], bpad),
		    dl_rt_vec_excess(&a[1], &b[1], bpad));
}

/* Place j at position pos (j not in the queue) and follow the effect down
 * the queue: the later jobs are recomputed one by one while the shift they
 * receive exceeds the slack of some job further down; once it fits in the
 * slack of all of them (list scheduling is monotone and 1-Lipschitz: a
 * predecessor freeing every unit at most d later moves every later job by
 * at most d), the rest is padded by it instead.  *ok: j and every later
 * job still meet their deadlines. */
static int try_at(const struct dl_rt_state *st, const struct rt_pool *pl,
		  const struct rt_job *j, uint32_t pos, double now,
		  const double *slack, struct trial *t, uint32_t *budget,
		  bool *ok)
{
	const struct dl_rt_vec *prev;
	bool exact = st->p.flags & DL_RT_EXACT;
	double delta;
	int rc;

	trial_clear(t);
	*ok = false;
	rc = calt(pl, j, rt_pred(pl, pos), rt_pred_pad(pl, pos), now, t->jv,
		  &t->jc);
	if (rc)
		return rc;
	if (!t->jc.ok || !t->jc.fits)
		return 0;
	prev = t->jv;
	delta = excess(t->jv, rt_pred(pl, pos), rt_pred_pad(pl, pos));
	for (uint32_t i = pos; i < pl->n; i++) {
		const struct rt_job *s = pl->q[i];
		struct rt_calc *sc = &t->sc[t->nsucc];
		struct dl_rt_vec *sv = t->sv[t->nsucc];

		if (!(delta > 1e-9))
			break; /* no later job moves */
		if (!exact && slack[i] >= delta) {
			t->shift = delta;
			break;
		}
		if (!*budget)
			return ETIME;
		(*budget)--;
		memset(sv, 0, sizeof(t->sv[0]));
		rc = calt(pl, s, prev, 0, now, sv, sc);
		t->nsucc++;
		if (rc)
			return rc;
		if (s->finished) {
			/* an anchor's vectors do not follow its predecessor;
			 * the shift passes through it */
			dl_rt_vec_shift(&sv[0], delta);
			dl_rt_vec_shift(&sv[1], delta);
			sc->finish += delta;
			sc->map_finish += delta;
			prev = sv;
			continue;
		}
		if (!s->held && (!sc->ok || !sc->fits)) {
			t->blocker = s->id ? s->id : s->ticket;
			t->bfin = sc->fits ? sc->finish : INFINITY;
			t->bdl = s->deadline;
			return 0;
		}
		delta = excess(sv, s->vec, s->pad);
		prev = sv;
	}
	*ok = true;
	return 0;
}

/* Move the trial into the queue: j at pos, the recomputed jobs behind it,
 * the pad on the rest. */
static int trial_commit(struct rt_pool *pl, uint32_t pos, struct rt_job *j,
			struct trial *t)
{
	int rc = rt_insert(pl, pos, j);

	if (rc)
		return rc;
	for (int p = 0; p < DL_PHASES; p++) {
		dl_rt_vec_free(&j->vec[p]);
		j->vec[p] = t->jv[p];
		memset(&t->jv[p], 0, sizeof(t->jv[p]));
	}
	rt_store_calc(j, &t->jc);
	for (uint32_t i = 0; i < t->nsucc; i++) {
		struct rt_job *s = pl->q[pos + 1 + i];

		for (int p = 0; p < DL_PHASES; p++) {
			dl_rt_vec_free(&s->vec[p]);
			s->vec[p] = t->sv[i][p];
			memset(&t->sv[i][p], 0, sizeof(t->sv[i][p]));
		}
		rt_store_calc(s, &t->sc[i]);
	}
	if (t->shift > 0)
		for (uint32_t i = pos + 1 + t->nsucc; i < pl->n; i++)
			pl->q[i]->pad += t->shift;
	t->nsucc = 0;
	return 0;
}

int rt_try_place(const struct dl_rt_state *st, struct rt_pool *pl,
		 struct rt_job *j, uint32_t pos, double now, uint32_t *budget,
		 bool *ok, uint64_t *blocker)
{
	struct trial t;
	double *slack = suffix_slack(pl);
	int rc = trial_alloc(&t, pl->n + 1);

	*ok = false;
	if (!rc && !slack)
		rc = ENOMEM;
	if (!rc)
		rc = try_at(st, pl, j, pos, now, slack, &t, budget, ok);
	if (!rc && *ok)
		rc = trial_commit(pl, pos, j, &t);
	if (rc)
		*ok = false;
	if (blocker)
		*blocker = t.blocker;
	trial_free(&t);
	free(slack);
	return rc;
}

static void fill_units(const struct rt_pool *pl, const struct rt_job *j,
		       struct dl_rt_verdict *v)
{
	for (int p = 0; p < DL_PHASES; p++) {
		v->units[p] = pl->units[p];
		v->slots[p] = pl->units[p] / (j->cpus[p] ? j->cpus[p] : 1);
	}
}

static void slots_text(char *buf, size_t len, const struct rt_pool *pl,
		       const struct rt_job *j)
{
	uint32_t cm = j->cpus[DL_MAP];

	if (pl->split)
		snprintf(buf, len, "%u map and %u reduce slots",
			 pl->units[DL_MAP] / cm,
			 pl->units[DL_REDUCE] / j->cpus[DL_REDUCE]);
	else if (cm == 1)
		snprintf(buf, len, "%u slots", pl->units[DL_MAP]);
	else
		snprintf(buf, len, "%u slots of %u CPUs",
			 pl->units[DL_MAP] / cm, cm);
}

static void wc_text(char *buf, size_t len, const struct rt_job *j)
{
	char m[24], r[24];

	fmt_dur(m, sizeof(m), j->wc[DL_MAP]);
	fmt_dur(r, sizeof(r), j->wc[DL_REDUCE]);
	if (j->tasks[DL_MAP] && j->tasks[DL_REDUCE])
		snprintf(buf, len, "worst-case map task %s, reduce task %s", m,
			 r);
	else if (j->tasks[DL_MAP])
		snprintf(buf, len, "worst-case task %s", m);
	else
		snprintf(buf, len, "worst-case reduce task %s", r);
}

/* Whether j meets its own deadline (and start windows) at position pos. */
static int own_ok(const struct rt_pool *pl, const struct rt_job *j,
		  uint32_t pos, double now, bool *ok)
{
	struct dl_rt_vec tv[DL_PHASES] = {{0}};
	struct rt_calc c;
	int rc = calt(pl, j, rt_pred(pl, pos), rt_pred_pad(pl, pos), now, tv,
		      &c);

	dl_rt_vec_free(&tv[0]);
	dl_rt_vec_free(&tv[1]);
	*ok = !rc && c.ok && c.fits;
	return rc;
}

/* A deadline that would be admitted now: the job at the end of the queue
 * disturbs nobody and is judged on its own finish and start windows. */
static int admissible_deadline(const struct rt_pool *pl, struct rt_job *j,
			       double now, double *out)
{
	struct dl_rt_vec tv[DL_PHASES] = {{0}};
	struct rt_calc c;
	double d, saved = j->deadline;
	int rc;

	*out = NAN;
	j->deadline = INFINITY;
	rc = calt(pl, j, rt_pred(pl, pl->n), rt_pred_pad(pl, pl->n), now, tv,
		  &c);
	j->deadline = saved;
	dl_rt_vec_free(&tv[0]);
	dl_rt_vec_free(&tv[1]);
	if (rc || !c.fits || !isfinite(c.finish))
		return rc;
	d = c.finish;
	if (pl->n > rt_first_open(pl) && pl->q[pl->n - 1]->key > d)
		d = pl->q[pl->n - 1]->key;
	for (int p = 0; p < DL_PHASES; p++)
		if (j->latest_start[p] > 0 && !isnan(c.last_start[p]) &&
		    c.last_start[p] + (saved - j->latest_start[p]) > d)
			d = c.last_start[p] + (saved - j->latest_start[p]);
	*out = ceil(d);
	return 0;
}

static void reject_message(struct dl_rt_verdict *v, const struct rt_pool *pl,
			   const struct rt_job *j, const char *why)
{
	char fin[40], dl[40], adm[40], slots[64], wc[96], tail[96] = "";

	dl_rt_fmt_time(fin, sizeof(fin), v->earliest);
	dl_rt_fmt_time(dl, sizeof(dl), j->deadline);
	slots_text(slots, sizeof(slots), pl, j);
	wc_text(wc, sizeof(wc), j);
	if (!isnan(v->admissible_deadline)) {
		dl_rt_fmt_time(adm, sizeof(adm), v->admissible_deadline);
		snprintf(tail, sizeof(tail),
			 "; a deadline of %s or later would be admitted", adm);
	}
	if (why) {
		set_msg(v, "deadline cannot be guaranteed: %s%s", why, tail);
	} else if (v->blocker && v->earliest <= j->deadline) {
		char bf[40], bd[40];

		dl_rt_fmt_time(bf, sizeof(bf), v->blocker_finish);
		dl_rt_fmt_time(bd, sizeof(bd), v->blocker_deadline);
		set_msg(v,
			"deadline cannot be guaranteed: it would make admitted "
			"job %llu miss its deadline %s (finish %s) with %s "
			"(%s)%s",
			(unsigned long long) v->blocker, bd, bf, slots, wc,
			tail);
	} else {
		set_msg(v,
			"deadline cannot be guaranteed: earliest finish %s > "
			"%s with %s (%s)%s",
			fin, dl, slots, wc, tail);
	}
}

static int admit_locked(struct dl_rt_state *st, struct rt_pool *pl,
			struct rt_job *j, double now, bool commit,
			struct dl_rt_verdict *v)
{
	struct trial t;
	uint32_t first = rt_first_open(pl), pedf, lowest, budget, pos;
	bool ok = false, found = false;
	double *slack = NULL;
	uint32_t top;
	int rc = 0;

	memset(&t, 0, sizeof(t));
	fill_units(pl, j, v);
	v->deadline = j->deadline;
	v->finish = v->earliest = NAN;
	v->admissible_deadline = NAN;
	for (int p = 0; p < DL_PHASES; p++) {
		if (j->tasks[p] && isnan(j->wc[p])) {
			set_msg(v,
				"deadline cannot be guaranteed: no worst-case "
				"length for its %s tasks (no task-length "
				"history and no time limit); give the array a "
				"time limit (--time)",
				p == DL_MAP ? "map" : "reduce");
			return 0;
		}
		if (j->tasks[p] && j->cpus[p] > pl->units[p]) {
			set_msg(v,
				"deadline cannot be guaranteed: its %s tasks "
				"need %u CPUs but realtime admission may use "
				"%u in partition %s",
				p == DL_MAP ? "map" : "reduce", j->cpus[p],
				pl->units[p], pl->name);
			return 0;
		}
	}
	if (pl->size_changed) {
		set_msg(v,
			"deadline cannot be judged right now: partition %s "
			"changed and the admitted jobs are being checked "
			"again; submit again in a few seconds",
			pl->name);
		return 0;
	}

	budget = st->p.budget ? st->p.budget : DEFAULT_BUDGET + 4 * pl->n;
	slack = suffix_slack(pl);
	if (trial_alloc(&t, pl->n + 1) || !slack) {
		rc = ENOMEM;
		goto out;
	}
	/* EDF position: after every job whose key is not later */
	for (pedf = first; pedf < pl->n && pl->q[pedf]->key <= j->deadline;
	     pedf++)
		;
	lowest = (st->p.flags & DL_RT_PAPER_ORDER) ? pedf : first;
	/* the job's own finish only gets earlier at earlier positions (the
	 * vectors ahead of it only get smaller): the latest position where it
	 * meets its own deadline, by bisection; none: rejected right away */
	{
		bool own;

		rc = own_ok(pl, j, lowest, now, &own);
		if (rc)
			goto out;
		top = NO_POS;
		if (own) {
			uint32_t lo = lowest, hi = pedf; /* own_ok(lo) holds */

			while (lo < hi) {
				uint32_t mid = lo + (hi - lo + 1) / 2;

				rc = own_ok(pl, j, mid, now, &own);
				if (rc)
					goto out;
				if (own)
					lo = mid;
				else
					hi = mid - 1;
			}
			top = lo;
		}
	}
	for (pos = top + 1; top != NO_POS && pos-- > lowest;) {
		rc = try_at(st, pl, j, pos, now, slack, &t, &budget, &ok);
		if (rc == ETIME) {
			set_msg(v,
				"deadline cannot be guaranteed: the admission "
				"search over %u admitted jobs reached its "
				"limit",
				pl->n);
			rc = 0;
			break;
		}
		if (rc)
			goto out;
		if (pos == pedf)
			v->finish = t.jc.fits ? t.jc.finish : NAN;
		if (t.blocker && !v->blocker) {
			v->blocker = t.blocker;
			v->blocker_finish = t.bfin;
			v->blocker_deadline = t.bdl;
		}
		if (ok) {
			found = true;
			break;
		}
	}
	if (found) {
		v->admitted = true;
		v->finish = t.jc.finish;
		v->earliest = t.jc.finish;
		v->position = pos;
		v->promoted = pos < pedf;
		v->blocker = 0;
		if (commit) {
			if (pos < pedf)
				j->key = pl->q[pos]->key;
			rc = trial_commit(pl, pos, j, &t);
			if (rc)
				goto out;
		}
		{
			char fin[40], dl[40];

			dl_rt_fmt_time(fin, sizeof(fin), v->finish);
			dl_rt_fmt_time(dl, sizeof(dl), j->deadline);
			set_msg(v,
				"admitted: worst-case finish %s, deadline %s "
				"(queue position %u of %u%s)",
				fin, dl, pos + 1, pl->n + (commit ? 0 : 1),
				v->promoted ? ", ahead of its deadline order"
					    : "");
		}
		goto out;
	}
	/* rejected: the earliest finish (ahead of every waiting job) and a
	 * deadline that would do */
	{
		struct dl_rt_vec tv[DL_PHASES] = {{0}};
		struct rt_calc c;

		rc = calt(pl, j, rt_pred(pl, first), rt_pred_pad(pl, first),
			  now, tv, &c);
		dl_rt_vec_free(&tv[0]);
		dl_rt_vec_free(&tv[1]);
		if (rc)
			goto out;
		v->earliest = c.fits ? c.finish : NAN;
		if (isnan(v->finish)) {
			/* where EDF would have put it */
			rc = calt(pl, j, rt_pred(pl, pedf),
				  rt_pred_pad(pl, pedf), now, tv, &c);
			dl_rt_vec_free(&tv[0]);
			dl_rt_vec_free(&tv[1]);
			if (rc)
				goto out;
			v->finish = c.fits ? c.finish : NAN;
		}
		rc = admissible_deadline(pl, j, now, &v->admissible_deadline);
		if (rc)
			goto out;
		if (!v->msg[0]) /* else: the search-limit message stays */
			reject_message(v, pl, j, NULL);
	}
out:
	trial_free(&t);
	free(slack);
	return rc;
}

int dl_rt_admit(struct dl_rt_state *st, const struct dl_rt_request *req,
		double now, bool commit, struct dl_rt_verdict *v)
{
	struct rt_pool *pl;
	struct rt_job *j;
	int rc;

	if (!v)
		return EINVAL;
	memset(v, 0, sizeof(*v));
	if (!st || !isfinite(now) || now < 0) {
		set_msg(v, "no state or invalid time");
		return EINVAL;
	}
	rc = validate(req, v->msg, sizeof(v->msg));
	if (rc)
		return rc;
	pthread_mutex_lock(&st->lock);
	if (rt_find_job(st, req->id, NULL, NULL) ||
	    rt_find_job(st, req->reduce_id, NULL, NULL) ||
	    rt_find_ticket(st, req->ticket, NULL, NULL)) {
		set_msg(v, "job %llu is already admitted",
			(unsigned long long) (req->id ? req->id : req->ticket));
		rc = EEXIST;
		goto out;
	}
	pl = rt_find_pool(st, req->pool);
	if (!pl) {
		set_msg(v, "partition %s has no realtime capacity", req->pool);
		rc = ENOENT;
		goto out;
	}
	j = job_from_request(req, st->seq + 1);
	if (!j) {
		rc = ENOMEM;
		goto out;
	}
	rc = admit_locked(st, pl, j, now, commit, v);
	if (!rc && v->admitted && commit) {
		st->seq++;
		dl_log(DL_LOG_VERBOSE, "realtime: job %llu (ticket %llu) %s",
		       (unsigned long long) j->id,
		       (unsigned long long) j->ticket, v->msg);
	} else {
		rt_job_free(j);
	}
out:
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* A started job cannot move: judge its new version in place. */
static int rejudge_in_place(const struct dl_rt_state *st, struct rt_pool *pl,
			    uint32_t pos, struct rt_job *old, struct rt_job *nj,
			    double now, struct dl_rt_verdict *v)
{
	uint32_t budget = UINT32_MAX;
	uint64_t blocker = 0;
	bool ok = false;
	int rc;

	rt_unlink(pl, pos); /* the jobs behind it now start at pos */
	rc = rt_try_place(st, pl, nj, pos, now, &budget, &ok, &blocker);
	if (!rc && ok) {
		rt_job_free(old);
		v->admitted = true;
		v->finish = v->earliest = nj->finish;
		v->position = pos;
		return 0;
	}
	rt_insert(pl, pos, old); /* the slot it left: no allocation */
	v->finish = v->earliest = NAN;
	v->blocker = blocker;
	v->admissible_deadline = NAN;
	reject_message(v, pl, nj,
		       blocker ? NULL
			       : "it cannot finish in time "
				 "with its reduce array");
	rt_job_free(nj);
	return rc ? rc : ERANGE;
}

int dl_rt_attach_reduce(struct dl_rt_state *st, uint64_t map_id,
			uint64_t reduce_id, uint64_t reduce_ticket,
			uint32_t reduces, uint32_t cpus, double wc,
			double latest_start, double now,
			struct dl_rt_verdict *v)
{
	struct rt_pool *pl;
	struct rt_job *j, *nj;
	uint32_t pos;
	int rc = 0;

	if (!v)
		return EINVAL;
	memset(v, 0, sizeof(*v));
	if (!st || !map_id || (!reduce_id && !reduce_ticket) || !reduces ||
	    reduces > DL_MAX_TASKS || (!isnan(wc) && bad_time(wc)) ||
	    bad_time(latest_start) || !isfinite(now)) {
		set_msg(v, "invalid reduce array");
		return EINVAL;
	}
	if (!cpus)
		cpus = 1;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, map_id, &pl, &pos);
	if (!j || j->id != map_id) {
		set_msg(v, "job %llu is not an admitted map array",
			(unsigned long long) map_id);
		rc = ENOENT;
		goto out;
	}
	if ((j->reduce_id && j->reduce_id != reduce_id) ||
	    (j->reduce_ticket && j->reduce_ticket != reduce_ticket)) {
		set_msg(v, "admitted job %llu already has a reduce array",
			(unsigned long long) map_id);
		rc = EEXIST;
		goto out;
	}
	fill_units(pl, j, v);
	v->deadline = j->deadline;
	if (reduces <= j->tasks[DL_REDUCE] && cpus <= j->cpus[DL_REDUCE] &&
	    !isnan(wc) && wc <= j->wc[DL_REDUCE] &&
	    (!j->latest_start[DL_REDUCE] ||
	     (latest_start && latest_start >= j->latest_start[DL_REDUCE]))) {
		/* within what was admitted: attach as is */
		j->reduce_id = reduce_id;
		j->reduce_ticket = reduce_ticket;
		v->admitted = true;
		v->finish = v->earliest = j->finish;
		v->position = pos;
		goto out;
	}
	/* judge the job again with the reduce phase it really has */
	nj = calloc(1, sizeof(*nj));
	if (!nj) {
		rc = ENOMEM;
		goto out;
	}
	*nj = *j;
	memset(nj->vec, 0, sizeof(nj->vec));
	nj->user = dup_str(j->user);
	nj->name = dup_str(j->name);
	if (!nj->user || !nj->name) {
		rt_job_free(nj);
		rc = ENOMEM;
		goto out;
	}
	nj->reduce_id = reduce_id;
	nj->reduce_ticket = reduce_ticket;
	nj->tasks[DL_REDUCE] = nj->mtasks[DL_REDUCE] = reduces;
	nj->cpus[DL_REDUCE] = cpus;
	nj->wc[DL_REDUCE] = wc;
	nj->latest_start[DL_REDUCE] = latest_start;
	if (isnan(wc) || cpus > pl->units[DL_REDUCE]) {
		v->earliest = NAN;
		v->admissible_deadline = NAN;
		reject_message(
			v, pl, nj,
			isnan(wc) ? "no worst-case length for its reduce tasks "
				    "(no task-length history and no time limit)"
				  : "its reduce tasks need more CPUs than "
				    "realtime admission may use");
		rt_job_free(nj);
		rc = ERANGE;
		goto out;
	}
	if (j->started) {
		rc = rejudge_in_place(st, pl, pos, j, nj, now, v);
		goto out;
	}
	/* not started: a fresh admission of the whole job; the old version
	 * goes back where it was when that fails */
	rt_unlink(pl, pos);
	nj->key = nj->deadline;
	rc = admit_locked(st, pl, nj, now, true, v);
	if (!rc && v->admitted) {
		rt_job_free(j);
	} else {
		int rc2 = rt_insert(pl, pos, j);

		rt_job_free(nj);
		if (!rc)
			rc = rc2 ? rc2 : ERANGE;
	}
out:
	if (v->admitted)
		set_msg(v, "admitted as the reduce phase of job %llu",
			(unsigned long long) map_id);
	pthread_mutex_unlock(&st->lock);
	return rc;
}

void rt_prune(struct rt_pool *pl)
{
	while (pl->n && pl->q[0]->finished) {
		struct rt_job *j = pl->q[0];

		for (int p = 0; p < DL_PHASES; p++) {
			dl_rt_vec_free(&pl->head[p]);
			pl->head[p] = j->vec[p];
			memset(&j->vec[p], 0, sizeof(j->vec[p]));
			dl_rt_vec_shift(&pl->head[p],
					j->pad); /* the head has none */
		}
		rt_unlink(pl, 0);
		rt_job_free(j);
	}
}

void rt_retire(struct rt_pool *pl, uint32_t pos, bool prune)
{
	struct rt_job *j = pl->q[pos];

	if (j->started) {
		j->finished = true; /* anchors the jobs behind it */
		j->held = false;
	} else {
		rt_unlink(pl, pos); /* never ran: nothing to remember */
		rt_job_free(j);
	}
	if (prune)
		rt_prune(pl);
}

int dl_rt_remove(struct dl_rt_state *st, uint64_t id)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	int rc = ENOENT;

	if (!st)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (j) {
		rt_retire(pl, pos, true);
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_mark_started(struct dl_rt_state *st, uint64_t id)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	int rc = ENOENT;

	if (!st)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (j) {
		rc = 0;
		j->started = true; /* it keeps its place in the queue */
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

int dl_rt_mark_started_many(struct dl_rt_state *st, const uint64_t *ids,
			    uint32_t n)
{
	uint64_t *sorted;

	if (!st || (n && !ids))
		return EINVAL;
	if (!n)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return ENOMEM;
	memcpy(sorted, ids, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_id);
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools; k++)
		for (uint32_t i = 0; i < st->pools[k].n; i++) {
			struct rt_job *j = st->pools[k].q[i];

			if (j->id &&
			    bsearch(&j->id, sorted, n, sizeof(*sorted), cmp_id))
				j->started = true;
		}
	pthread_mutex_unlock(&st->lock);
	free(sorted);
	return 0;
}

/* ---- feedback (Alg. V-VI) ---- */

int dl_rt_feedback(struct dl_rt_state *st, uint64_t id, const double *map_ends,
		   uint32_t nmap, const double *reduce_ends, uint32_t nreduce,
		   double now, bool *updated)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	double actual = -INFINITY, delta;
	struct dl_rt_vec u[DL_PHASES] = {{0}};
	int rc = 0;

	if (updated)
		*updated = false;
	if (!st || (nmap && !map_ends) || (nreduce && !reduce_ends) ||
	    !isfinite(now))
		return EINVAL;
	for (uint32_t i = 0; i < nmap; i++)
		if (!isfinite(map_ends[i]))
			return EINVAL;
	for (uint32_t i = 0; i < nreduce; i++)
		if (!isfinite(reduce_ends[i]))
			return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (!j) {
		rc = ENOENT;
		goto out;
	}
	if (nmap > j->tasks[DL_MAP] || nreduce > j->tasks[DL_REDUCE]) {
		rc = EINVAL;
		goto out;
	}
	for (uint32_t i = 0; i < nmap; i++)
		if (map_ends[i] > actual)
			actual = map_ends[i];
	for (uint32_t i = 0; i < nreduce; i++)
		if (reduce_ends[i] > actual)
			actual = reduce_ends[i];
	delta = rt_feedback_delta(st, j);
	j->started = true; /* it ran */
	if (!(fabs(j->finish - actual) > delta) && actual <= j->deadline) {
		/* within Δ of the estimate: the vectors stay */
		j->finished = true;
		goto out;
	}
	/* SATU: the predecessor's vectors with the actual finish times
	 * replacing the earliest entries */
	rc = dl_rt_vec_copy(&u[DL_MAP], &rt_pred(pl, pos)[DL_MAP]);
	if (!rc)
		rc = dl_rt_vec_copy(&u[DL_REDUCE],
				    &rt_pred(pl, pos)[DL_REDUCE]);
	dl_rt_vec_shift(&u[DL_MAP], rt_pred_pad(pl, pos));
	dl_rt_vec_shift(&u[DL_REDUCE], rt_pred_pad(pl, pos));
	if (!rc)
		rc = dl_rt_vec_satu(&u[DL_MAP], map_ends, nmap,
				    j->cpus[DL_MAP]);
	if (!rc)
		rc = dl_rt_vec_satu(pl->split ? &u[DL_REDUCE] : &u[DL_MAP],
				    reduce_ends, nreduce, j->cpus[DL_REDUCE]);
	if (rc) {
		dl_rt_vec_free(&u[0]);
		dl_rt_vec_free(&u[1]);
		goto out;
	}
	for (int p = 0; p < DL_PHASES; p++) {
		dl_rt_vec_free(&j->vec[p]);
		j->vec[p] = u[p];
	}
	j->finished = true;
	j->finish = actual;
	j->map_finish = actual;
	for (uint32_t i = 0; i < nmap; i++)
		j->map_finish =
			i ? fmax(j->map_finish, map_ends[i]) : map_ends[i];
	if (updated)
		*updated = true;
	dl_log(DL_LOG_VERBOSE,
	       "realtime: job %llu finished %.0fs from its estimate (threshold "
	       "%.0fs): %u later jobs recomputed",
	       (unsigned long long) id, fabs(j->finish - actual), delta,
	       pl->n - pos - 1);
	/* successors from the new vectors (Alg. V lines 12-19); a finished
	 * job passes its vectors through, so recompute from pos + 1 */
	j->pad = 0;
	rc = rt_recompute_from(pl, pos + 1, now, false);
out:
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* ---- queries ---- */

static void fill_info(const struct rt_pool *pl, const struct rt_job *j,
		      uint32_t pos, struct dl_rt_job_info *o)
{
	memset(o, 0, sizeof(*o));
	o->id = j->id;
	o->reduce_id = j->reduce_id;
	o->ticket = j->ticket;
	o->reduce_ticket = j->reduce_ticket;
	rt_copy_str(o->user, sizeof(o->user), j->user);
	rt_copy_str(o->name, sizeof(o->name), j->name);
	rt_copy_str(o->pool, sizeof(o->pool), pl->name);
	o->arrival = j->arrival;
	o->deadline = j->deadline;
	o->key = j->key;
	for (int p = 0; p < DL_PHASES; p++) {
		o->tasks[p] = j->tasks[p];
		o->cpus[p] = j->cpus[p];
		o->wc[p] = j->wc[p];
		o->latest_start[p] = j->latest_start[p];
	}
	/* the bounds with the lazy pad applied */
	o->finish = j->finish + j->pad;
	o->map_finish = j->map_finish + j->pad;
	o->started = j->started;
	o->held = j->held;
	o->finished = j->finished;
	rt_copy_str(o->hold_why, sizeof(o->hold_why), j->hold_why);
	o->position = pos;
}

uint32_t dl_rt_count(struct dl_rt_state *st)
{
	uint32_t n = 0;

	if (!st)
		return 0;
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools; k++)
		n += st->pools[k].n;
	pthread_mutex_unlock(&st->lock);
	return n;
}

int dl_rt_job_get(struct dl_rt_state *st, uint64_t id,
		  struct dl_rt_job_info *out)
{
	struct rt_pool *pl;
	struct rt_job *j;
	uint32_t pos;
	int rc = ENOENT;

	if (!st || !out)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, &pos);
	if (j) {
		fill_info(pl, j, pos, out);
		rc = 0;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_job_at(struct dl_rt_state *st, uint32_t i, struct dl_rt_job_info *out)
{
	int rc = ENOENT;

	if (!st || !out)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	for (uint32_t k = 0; k < st->npools; k++) {
		struct rt_pool *pl = &st->pools[k];

		if (i < pl->n) {
			fill_info(pl, pl->q[i], i, out);
			rc = 0;
			break;
		}
		i -= pl->n;
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

int dl_rt_job_vectors(struct dl_rt_state *st, uint64_t id,
		      struct dl_rt_vec vec[DL_PHASES])
{
	struct rt_pool *pl;
	struct rt_job *j;
	int rc = ENOENT;

	if (!st || !vec)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_job(st, id, &pl, NULL);
	if (j) {
		rc = dl_rt_vec_copy(&vec[DL_MAP], &j->vec[DL_MAP]);
		if (!rc)
			rc = dl_rt_vec_copy(&vec[DL_REDUCE],
					    pl->split ? &j->vec[DL_REDUCE]
						      : &j->vec[DL_MAP]);
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* ---- worst-case cache ---- */

static int wc_cmp(const struct rt_wc_entry *e, const char *user,
		  const char *name, int phase)
{
	int c = strcmp(e->user, user);

	if (!c)
		c = strcmp(e->name, name);
	if (!c)
		c = (e->phase > phase) - (e->phase < phase);
	return c;
}

/* Index of the key, or where it would go (found says which). */
static uint32_t wc_search(const struct dl_rt_state *st, const char *user,
			  const char *name, int phase, bool *found)
{
	uint32_t lo = 0, hi = st->nwc;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = wc_cmp(&st->wc[mid], user, name, phase);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static bool bad_q(const struct dl_rt_quantiles *q)
{
	return bad_time(q->p50) || bad_time(q->p90) || bad_time(q->p99) ||
	       bad_time(q->max);
}

static int wc_store(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, const struct dl_rt_quantiles *q, double now);

int dl_rt_wc_store_locked(struct dl_rt_state *st, const struct rt_wc_entry *e)
{
	return wc_store(st, e->user, e->name, e->phase, &e->q, e->updated);
}

int dl_rt_wc_store(struct dl_rt_state *st, const char *user, const char *name,
		   int phase, const struct dl_rt_quantiles *q, double now)
{
	int rc;

	if (!st || !q || phase < 0 || phase >= DL_PHASES || bad_q(q) ||
	    !isfinite(now))
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	rc = wc_store(st, user, name, phase, q, now);
	pthread_mutex_unlock(&st->lock);
	return rc;
}

/* (lock held) */
static int wc_store(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, const struct dl_rt_quantiles *q, double now)
{
	struct rt_wc_entry *e;
	bool found;
	uint32_t i;
	int rc = 0;

	if (!user)
		user = "";
	if (!name)
		name = "";

	i = wc_search(st, user, name, phase, &found);
	if (found) {
		st->wc[i].q = *q;
		st->wc[i].updated = now;
		goto out;
	}
	if (st->nwc >= DL_RT_WC_MAX) {
		/* drop the least recently updated key */
		uint32_t old = 0;

		for (uint32_t k = 1; k < st->nwc; k++)
			if (st->wc[k].updated < st->wc[old].updated)
				old = k;
		free(st->wc[old].user);
		free(st->wc[old].name);
		memmove(&st->wc[old], &st->wc[old + 1],
			(st->nwc - old - 1) * sizeof(*st->wc));
		st->nwc--;
		if (old < i)
			i--;
	}
	if (st->nwc == st->capwc) {
		uint32_t cap = st->capwc ? st->capwc * 2 : 64;
		struct rt_wc_entry *nw = realloc(st->wc, cap * sizeof(*nw));

		if (!nw) {
			rc = ENOMEM;
			goto out;
		}
		st->wc = nw;
		st->capwc = cap;
	}
	memmove(&st->wc[i + 1], &st->wc[i], (st->nwc - i) * sizeof(*st->wc));
	e = &st->wc[i];
	e->user = strdup(user);
	e->name = strdup(name);
	if (!e->user || !e->name) {
		free(e->user);
		free(e->name);
		memmove(&st->wc[i], &st->wc[i + 1],
			(st->nwc - i) * sizeof(*st->wc));
		rc = ENOMEM;
		goto out;
	}
	e->phase = phase;
	e->q = *q;
	e->updated = now;
	st->nwc++;
out:
	return rc;
}

int dl_rt_wc_lookup(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, struct dl_rt_quantiles *q)
{
	bool found;
	uint32_t i;

	if (!st || !q || phase < 0 || phase >= DL_PHASES)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	i = wc_search(st, user ? user : "", name ? name : "", phase, &found);
	if (found)
		*q = st->wc[i].q;
	pthread_mutex_unlock(&st->lock);
	return found ? 0 : ENOENT;
}

int dl_rt_wc_get(struct dl_rt_state *st, const char *user, const char *name,
		 int phase, double time_limit, struct dl_rt_worst *out)
{
	struct dl_rt_quantiles q;
	struct dl_rt_params p;
	int have;

	if (!st || !out)
		return EINVAL;
	have = dl_rt_wc_lookup(st, user, name, phase, &q) == 0;
	if (dl_rt_get_params(st, &p))
		return EINVAL;
	return dl_rt_worst_case(have ? &q : NULL, p.quantile, p.margin,
				time_limit, p.overhead, out);
}

/* ---- tickets ---- */

uint64_t dl_rt_new_ticket(struct dl_rt_state *st)
{
	uint64_t t;

	if (!st)
		return 0;
	pthread_mutex_lock(&st->lock);
	do {
		t = ++st->next_ticket;
		if (!t)
			t = ++st->next_ticket;
	} while (rt_find_ticket(st, t, NULL, NULL));
	pthread_mutex_unlock(&st->lock);
	return t;
}

int dl_rt_bind(struct dl_rt_state *st, uint64_t ticket, uint64_t job_id)
{
	struct rt_job *j;
	int rc = ENOENT;

	if (!st || !ticket || !job_id)
		return EINVAL;
	pthread_mutex_lock(&st->lock);
	j = rt_find_ticket(st, ticket, NULL, NULL);
	if (j) {
		rc = 0;
		if (j->ticket == ticket && j->id != job_id) {
			if (j->id)
				rc = EEXIST;
			else
				j->id = job_id;
		} else if (j->reduce_ticket == ticket &&
			   j->reduce_id != job_id) {
			if (j->reduce_id)
				rc = EEXIST;
			else
				j->reduce_id = job_id;
		}
	}
	pthread_mutex_unlock(&st->lock);
	return rc;
}

uint64_t dl_rt_ticket_from_env(char *const *env, uint32_t count)
{
	size_t plen = strlen(DL_ENV_PREFIX), nlen = strlen(DL_ENV_RT_TICKET);

	if (!env)
		return 0;
	for (uint32_t i = 0; i < count; i++) {
		const char *e = env[i];
		char *end;
		unsigned long long v;

		if (!e)
			continue;
		if (!strncmp(e, DL_ENV_PREFIX, plen))
			e += plen;
		if (strncmp(e, DL_ENV_RT_TICKET, nlen) || e[nlen] != '=')
			continue;
		e += nlen + 1;
		if (*e < '0' || *e > '9')
			return 0;
		errno = 0;
		v = strtoull(e, &end, 10);
		if (errno || *end)
			return 0;
		return v;
	}
	return 0;
}

int dl_rt_hold_env_index(char *const *env, uint32_t count)
{
	size_t plen = strlen(DL_ENV_PREFIX), nlen = strlen(DL_ENV_RT_HOLD);

	for (uint32_t i = 0; env && i < count && i < INT32_MAX; i++) {
		const char *e = env[i];

		if (!e)
			continue;
		if (!strncmp(e, DL_ENV_PREFIX, plen))
			e += plen;
		if (!strncmp(e, DL_ENV_RT_HOLD, nlen) && e[nlen] == '=')
			return strcmp(e + nlen + 1, "1") ? -1 : (int) i;
	}
	return -1;
}

bool dl_rt_hold_from_env(char *const *env, uint32_t count)
{
	return dl_rt_hold_env_index(env, count) >= 0;
}

bool dl_rt_submit_hold_ours(struct dl_rt_state *st, uint64_t job_id,
			    char *const *env, uint32_t count)
{
	struct dl_rt_job_info info;
	uint64_t t;

	if (!st || !job_id || dl_rt_hold_env_index(env, count) < 0)
		return false;
	t = dl_rt_ticket_from_env(env, count);
	return t && !dl_rt_job_get(st, job_id, &info) &&
	       (info.ticket == t || info.reduce_ticket == t);
}

/* ---- the process-wide state ---- */

static pthread_once_t shared_once = PTHREAD_ONCE_INIT;
static struct dl_rt_state *shared_state;

static void shared_init(void)
{
	shared_state = dl_rt_state_new();
}

struct dl_rt_state *dl_rt_shared(void)
{
	pthread_once(&shared_once, shared_init);
	return shared_state;
}

static pthread_mutex_t shared_load_lock = PTHREAD_MUTEX_INITIALIZER;
static bool shared_loaded;
static int shared_load_rc;
static char shared_load_err[256];

int dl_rt_shared_load(const char *path, char *err, size_t errlen)
{
	struct dl_rt_state *st = dl_rt_shared();
	int rc;

	if (!st || !path)
		return EINVAL;
	pthread_mutex_lock(&shared_load_lock);
	if (!shared_loaded) {
		shared_load_err[0] = '\0';
		shared_load_rc = dl_rt_state_load(st, path, shared_load_err,
						  sizeof(shared_load_err));
		shared_loaded = true;
		/* damaged: kept for the admin, not overwritten by the next
		 * save of the (empty) admitted set */
		if (shared_load_rc == EINVAL || shared_load_rc == EFBIG) {
			size_t l = strlen(shared_load_err);

			if (!dl_file_set_aside(path))
				snprintf(shared_load_err + l,
					 sizeof(shared_load_err) - l,
					 " (the file is kept as %s.bad)", path);
		}
	}
	rc = shared_load_rc;
	if (err && errlen)
		snprintf(err, errlen, "%s", shared_load_err);
	pthread_mutex_unlock(&shared_load_lock);
	return rc;
}
