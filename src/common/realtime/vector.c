/*
 * realtime/vector.c - run-length encoded slot-availability vectors.
 *
 * List scheduling of identical tasks takes the earliest units first, so the
 * tasks' start times never decrease and the runs it creates (start + len)
 * come out in ascending order.  The old runs and the new runs are therefore
 * two sorted queues: the next earliest unit is at the head of one of them,
 * and the result is their merge.  A batch costs O(runs + steps), where a
 * step starts every task that fits on one run at once.
 */
#include "common/realtime/vector.h"
#include "common/estimate/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dl_rt_vec_zero(struct dl_rt_vec *v)
{
	if (v)
		memset(v, 0, sizeof(*v));
}

void dl_rt_vec_free(struct dl_rt_vec *v)
{
	if (!v)
		return;
	free(v->r);
	memset(v, 0, sizeof(*v));
}

static int reserve(struct dl_rt_vec *v, uint32_t want)
{
	struct dl_rt_run *r;
	uint32_t cap;

	if (want <= v->cap)
		return 0;
	cap = v->cap ? v->cap : 4;
	while (cap < want)
		cap = cap > UINT32_MAX / 2 ? want : cap * 2;
	r = realloc(v->r, (size_t) cap * sizeof(*r));
	if (!r)
		return ENOMEM;
	v->r = r;
	v->cap = cap;
	return 0;
}

int dl_rt_vec_init(struct dl_rt_vec *v, uint32_t units, double t)
{
	if (!v || !isfinite(t) || units > DL_RT_MAX_UNITS)
		return EINVAL;
	v->nruns = 0;
	v->units = 0;
	if (!units)
		return 0;
	if (reserve(v, 1))
		return ENOMEM;
	v->r[0] = (struct dl_rt_run){t, units};
	v->nruns = 1;
	v->units = units;
	return 0;
}

int dl_rt_vec_copy(struct dl_rt_vec *dst, const struct dl_rt_vec *src)
{
	struct dl_rt_run *r = NULL;

	if (!dst || !src)
		return EINVAL;
	if (dst == src)
		return 0;
	if (src->nruns) {
		r = malloc((size_t) src->nruns * sizeof(*r));
		if (!r)
			return ENOMEM;
		memcpy(r, src->r, (size_t) src->nruns * sizeof(*r));
	}
	free(dst->r);
	dst->r = r;
	dst->nruns = dst->cap = src->nruns;
	dst->units = src->units;
	return 0;
}

int dl_rt_vec_add(struct dl_rt_vec *v, double t, uint32_t n)
{
	uint32_t i;

	if (!v || !isfinite(t))
		return EINVAL;
	if (!n)
		return 0;
	if (n > DL_RT_MAX_UNITS - v->units)
		return ERANGE;
	for (i = 0; i < v->nruns && v->r[i].t < t; i++)
		;
	if (i < v->nruns && v->r[i].t == t) {
		v->r[i].n += n;
		v->units += n;
		return 0;
	}
	if (reserve(v, v->nruns + 1))
		return ENOMEM;
	memmove(&v->r[i + 1], &v->r[i], (v->nruns - i) * sizeof(*v->r));
	v->r[i] = (struct dl_rt_run){t, n};
	v->nruns++;
	v->units += n;
	return 0;
}

void dl_rt_vec_floor(struct dl_rt_vec *v, double f)
{
	uint32_t below = 0, k = 0, merged = 0;

	if (!v || !v->nruns || isnan(f) || !(v->r[0].t < f))
		return;
	while (k < v->nruns && v->r[k].t <= f) {
		merged += v->r[k].n;
		k++;
	}
	below = k; /* runs 0..k-1 collapse into one run at f */
	v->r[0] = (struct dl_rt_run){f, merged};
	memmove(&v->r[1], &v->r[below], (v->nruns - below) * sizeof(*v->r));
	v->nruns = v->nruns - below + 1;
}

/* ---- two sorted queues: the old runs and the runs created so far ---- */

struct queues {
	const struct dl_rt_run *a; /* old runs */
	uint32_t na, ia;
	uint32_t a_left;    /* units left in a[ia] */
	struct dl_rt_vec b; /* new runs, consumed from bhead */
	uint32_t bhead;
};

static bool q_empty(const struct queues *q)
{
	return q->ia >= q->na && q->bhead >= q->b.nruns;
}

/* The queue holding the earliest unit: 0 = old, 1 = new. */
static int q_min(const struct queues *q)
{
	if (q->ia >= q->na)
		return 1;
	if (q->bhead >= q->b.nruns)
		return 0;
	return q->b.r[q->bhead].t < q->a[q->ia].t ? 1 : 0;
}

static double q_head_t(const struct queues *q, int which)
{
	return which ? q->b.r[q->bhead].t : q->a[q->ia].t;
}

static uint32_t q_head_n(const struct queues *q, int which)
{
	return which ? q->b.r[q->bhead].n : q->a_left;
}

static void q_take(struct queues *q, int which, uint32_t n)
{
	if (which) {
		q->b.r[q->bhead].n -= n;
		if (!q->b.r[q->bhead].n)
			q->bhead++;
	} else {
		q->a_left -= n;
		if (!q->a_left && ++q->ia < q->na)
			q->a_left = q->a[q->ia].n;
	}
}

/* Append n units at t to the new runs; t never decreases. */
static int q_push(struct queues *q, double t, uint32_t n)
{
	struct dl_rt_vec *b = &q->b;

	if (b->nruns > q->bhead && b->r[b->nruns - 1].t == t) {
		b->r[b->nruns - 1].n += n;
		return 0;
	}
	/* drop consumed runs before growing */
	if (q->bhead && b->nruns == b->cap) {
		memmove(b->r, &b->r[q->bhead],
			(b->nruns - q->bhead) * sizeof(*b->r));
		b->nruns -= q->bhead;
		q->bhead = 0;
	}
	if (reserve(b, b->nruns + 1))
		return ENOMEM;
	b->r[b->nruns++] = (struct dl_rt_run){t, n};
	return 0;
}

static void q_start(struct queues *q, const struct dl_rt_vec *v)
{
	memset(q, 0, sizeof(*q));
	q->a = v->r;
	q->na = v->nruns;
	q->a_left = v->nruns ? v->r[0].n : 0;
}

/* Merge what is left of both queues into v (replacing its runs). */
static int q_finish(struct queues *q, struct dl_rt_vec *v)
{
	struct dl_rt_run *out;
	uint32_t n = 0, cap = (q->na - (q->ia < q->na ? q->ia : q->na)) +
			      (q->b.nruns - q->bhead);

	out = malloc((size_t) (cap ? cap : 1) * sizeof(*out));
	if (!out)
		return ENOMEM;
	while (!q_empty(q)) {
		int w = q_min(q);
		double t = q_head_t(q, w);
		uint32_t k = q_head_n(q, w);

		if (n && out[n - 1].t == t)
			out[n - 1].n += k;
		else
			out[n++] = (struct dl_rt_run){t, k};
		q_take(q, w, k);
	}
	free(v->r);
	v->r = out;
	v->nruns = n;
	v->cap = cap ? cap : 1;
	dl_rt_vec_free(&q->b);
	return 0;
}

int dl_rt_vec_schedule(struct dl_rt_vec *v, uint32_t k, uint32_t c, double len,
		       double floor, struct dl_rt_sched *where)
{
	struct queues q;
	struct dl_rt_sched w = {NAN, NAN, -INFINITY};
	int rc = 0;

	if (!v || !isfinite(len) || len < 0 || isnan(floor) ||
	    floor == INFINITY)
		return EINVAL;
	if (k && (!c || c > v->units))
		return EINVAL;
	if (!k) {
		if (where)
			*where = w;
		return 0;
	}
	q_start(&q, v);
	while (k && !rc) {
		int h = q_min(&q);
		double t = q_head_t(&q, h);
		uint32_t avail = q_head_n(&q, h);
		double s;

		if (avail >= c) {
			/* every task that fits on this run starts together */
			uint32_t tasks = avail / c;

			if (tasks > k)
				tasks = k;
			s = t > floor ? t : floor;
			q_take(&q, h, tasks * c);
			rc = q_push(&q, s + len, tasks * c);
			k -= tasks;
		} else {
			/* one task gathers its units from several runs */
			uint32_t got = 0;

			while (got < c) {
				uint32_t m;

				h = q_min(&q);
				t = q_head_t(&q, h);
				m = q_head_n(&q, h);
				if (m > c - got)
					m = c - got;
				q_take(&q, h, m);
				got += m;
			}
			s = t > floor ? t : floor;
			rc = q_push(&q, s + len, c);
			k--;
		}
		if (isnan(w.first_start))
			w.first_start = s;
		w.last_start = s;
		if (s + len > w.last_end)
			w.last_end = s + len;
	}
	if (!rc)
		rc = q_finish(&q, v);
	else
		dl_rt_vec_free(&q.b);
	if (!rc && where)
		*where = w;
	return rc;
}

int dl_rt_vec_satu(struct dl_rt_vec *v, const double *e, uint32_t n, uint32_t c)
{
	struct queues q;
	double *sorted;
	int rc = 0;

	if (!v || (n && (!e || !c)))
		return EINVAL;
	if (!n)
		return 0;
	if (c > v->units)
		return EINVAL; /* later waves replace entries again */
	for (uint32_t i = 0; i < n; i++)
		if (!isfinite(e[i]))
			return EINVAL;
	sorted = malloc((size_t) n * sizeof(*sorted));
	if (!sorted)
		return ENOMEM;
	memcpy(sorted, e, (size_t) n * sizeof(*sorted));
	dl_sort_doubles(sorted, n);
	q_start(&q, v);
	for (uint32_t i = 0; i < n && !rc; i++) {
		uint32_t got = 0;

		while (got < c) {
			int h = q_min(&q);
			uint32_t m = q_head_n(&q, h);

			if (m > c - got)
				m = c - got;
			q_take(&q, h, m);
			got += m;
		}
		rc = q_push(&q, sorted[i], c);
	}
	free(sorted);
	if (!rc)
		rc = q_finish(&q, v);
	else
		dl_rt_vec_free(&q.b);
	return rc;
}

double dl_rt_vec_nth(const struct dl_rt_vec *v, uint32_t i)
{
	if (!v || i >= v->units)
		return NAN;
	for (uint32_t k = 0; k < v->nruns; k++) {
		if (i < v->r[k].n)
			return v->r[k].t;
		i -= v->r[k].n;
	}
	return NAN;
}

double dl_rt_vec_max(const struct dl_rt_vec *v)
{
	if (!v || !v->nruns)
		return -INFINITY;
	return v->r[v->nruns - 1].t;
}

void dl_rt_vec_shift(struct dl_rt_vec *v, double d)
{
	if (!v || !isfinite(d) || d == 0)
		return;
	for (uint32_t i = 0; i < v->nruns; i++)
		v->r[i].t += d;
}

double dl_rt_vec_excess(const struct dl_rt_vec *a, const struct dl_rt_vec *b,
			double bpad)
{
	uint32_t ia = 0, ib = 0, la, lb;
	double ex = 0;

	if (!a || !b || a->units != b->units || !isfinite(bpad))
		return INFINITY;
	la = a->nruns ? a->r[0].n : 0;
	lb = b->nruns ? b->r[0].n : 0;
	while (ia < a->nruns && ib < b->nruns) {
		uint32_t m = la < lb ? la : lb;
		double d = a->r[ia].t - (b->r[ib].t + bpad);

		if (d > ex)
			ex = d;
		la -= m;
		lb -= m;
		if (!la && ++ia < a->nruns)
			la = a->r[ia].n;
		if (!lb && ++ib < b->nruns)
			lb = b->r[ib].n;
	}
	return ex;
}

/* Walk two vectors unit group by unit group; cmp < 0: a < b somewhere. */
static bool walk_leq(const struct dl_rt_vec *a, const struct dl_rt_vec *b,
		     bool equal)
{
	uint32_t ia = 0, ib = 0, la, lb;

	if (!a || !b || a->units != b->units)
		return false;
	la = a->nruns ? a->r[0].n : 0;
	lb = b->nruns ? b->r[0].n : 0;
	while (ia < a->nruns && ib < b->nruns) {
		uint32_t m = la < lb ? la : lb;

		if (equal ? a->r[ia].t != b->r[ib].t : a->r[ia].t > b->r[ib].t)
			return false;
		la -= m;
		lb -= m;
		if (!la && ++ia < a->nruns)
			la = a->r[ia].n;
		if (!lb && ++ib < b->nruns)
			lb = b->r[ib].n;
	}
	return true;
}

bool dl_rt_vec_leq(const struct dl_rt_vec *a, const struct dl_rt_vec *b)
{
	return walk_leq(a, b, false);
}

bool dl_rt_vec_equal(const struct dl_rt_vec *a, const struct dl_rt_vec *b)
{
	return walk_leq(a, b, true);
}

int dl_rt_vec_check(const struct dl_rt_vec *v, char *err, size_t errlen)
{
	uint64_t sum = 0;

	if (!v) {
		snprintf(err, err ? errlen : 0, "no vector");
		return EINVAL;
	}
	if (v->nruns && !v->r) {
		snprintf(err, err ? errlen : 0, "vector without runs");
		return EINVAL;
	}
	for (uint32_t i = 0; i < v->nruns; i++) {
		if (!isfinite(v->r[i].t) || !v->r[i].n) {
			snprintf(err, err ? errlen : 0,
				 "vector run %u is empty or not finite", i);
			return EINVAL;
		}
		if (i && !(v->r[i - 1].t < v->r[i].t)) {
			snprintf(err, err ? errlen : 0,
				 "vector runs not ascending at %u", i);
			return EINVAL;
		}
		sum += v->r[i].n;
	}
	if (sum != v->units || sum > DL_RT_MAX_UNITS) {
		snprintf(err, err ? errlen : 0,
			 "vector counts %llu units but says %u",
			 (unsigned long long) sum, v->units);
		return EINVAL;
	}
	return 0;
}
