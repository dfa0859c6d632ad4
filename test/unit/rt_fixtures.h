/*
 * rt_fixtures.h - helpers shared by the realtime unit and property tests:
 * a seeded random generator, a naive (array) slot vector to check the
 * run-length encoded one against, and builders for requests.
 */
#ifndef DL_TEST_RT_FIXTURES_H
#define DL_TEST_RT_FIXTURES_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/realtime/realtime.h"
#include "common/realtime/vector.h"
#include "common/estimate/stats.h"
#include "fixtures.h"

/* splitmix64: small, seeded, the same on every machine */
struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static inline uint32_t rng_u(struct rng *r, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t) (rng_next(r) % ((uint64_t) hi - lo + 1));
}

/* uniform in [lo, hi) */
static inline double rng_d(struct rng *r, double lo, double hi)
{
	return lo +
	       (hi - lo) * (double) (rng_next(r) >> 11) / 9007199254740992.0;
}

/* ---- the naive vector: one double per unit, sorted ---- */

struct naive {
	double *t;
	uint32_t n;
};

static inline void naive_from(struct naive *nv, const struct dl_rt_vec *v)
{
	nv->n = v->units;
	nv->t = malloc((nv->n ? nv->n : 1) * sizeof(double));
	ck_assert_ptr_nonnull(nv->t);
	for (uint32_t i = 0; i < nv->n; i++)
		nv->t[i] = dl_rt_vec_nth(v, i);
}

/* Alg. II literally: per task take the c smallest, start at
 * max(c-th smallest, floor), set them to start + len, sort. */
static inline double naive_schedule(struct naive *nv, uint32_t k, uint32_t c,
				    double len, double floor)
{
	double last_end = -INFINITY;

	for (uint32_t i = 0; i < k; i++) {
		double s = nv->t[c - 1] > floor ? nv->t[c - 1] : floor;

		for (uint32_t u = 0; u < c; u++)
			nv->t[u] = s + len;
		if (s + len > last_end)
			last_end = s + len;
		dl_sort_doubles(nv->t, nv->n);
	}
	return last_end;
}

/* SATU literally: for each finish time in ascending order the c smallest
 * entries take it. */
static inline void naive_satu(struct naive *nv, const double *e, uint32_t n,
			      uint32_t c)
{
	double *s = malloc((n ? n : 1) * sizeof(double));

	memcpy(s, e, n * sizeof(double));
	dl_sort_doubles(s, n);
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t u = 0; u < c; u++)
			nv->t[u] = s[i];
		dl_sort_doubles(nv->t, nv->n);
	}
	free(s);
}

static inline void naive_assert_eq(const struct naive *nv,
				   const struct dl_rt_vec *v)
{
	char err[128];

	ck_assert_int_eq(dl_rt_vec_check(v, err, sizeof(err)), 0);
	ck_assert_uint_eq(nv->n, v->units);
	for (uint32_t i = 0; i < nv->n; i++)
		ck_assert_msg(nv->t[i] == dl_rt_vec_nth(v, i),
			      "unit %u: naive %g, rle %g", i, nv->t[i],
			      dl_rt_vec_nth(v, i));
}

/* A random vector of `units` units with few distinct times. */
static inline void rand_vec(struct rng *r, struct dl_rt_vec *v, uint32_t units,
			    uint32_t distinct, double tmax)
{
	dl_rt_vec_zero(v);
	ck_assert_int_eq(dl_rt_vec_init(v, 0, 0), 0);
	while (v->units < units) {
		uint32_t n = rng_u(r, 1, units - v->units);
		double t = floor(rng_d(r, 0, tmax) * distinct / tmax) *
			   (tmax / distinct);

		ck_assert_int_eq(dl_rt_vec_add(v, t, n), 0);
	}
}

/* ---- requests ---- */

static inline struct dl_rt_request rt_req(uint64_t id, double arrival,
					  double deadline, uint32_t maps,
					  double wc_map, uint32_t reduces,
					  double wc_red)
{
	struct dl_rt_request r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.user = "alice";
	r.name = "wc";
	r.pool = "batch";
	r.arrival = arrival;
	r.deadline = deadline;
	r.tasks[DL_MAP] = maps;
	r.tasks[DL_REDUCE] = reduces;
	r.cpus[DL_MAP] = r.cpus[DL_REDUCE] = 1;
	r.wc[DL_MAP] = wc_map;
	r.wc[DL_REDUCE] = wc_red;
	return r;
}

/* A state with paper-like parameters: no overhead, defaults otherwise. */
static inline struct dl_rt_state *
rt_state(uint32_t map_units, uint32_t reduce_units, uint32_t flags)
{
	struct dl_rt_state *st = dl_rt_state_new();
	struct dl_rt_params p;

	ck_assert_ptr_nonnull(st);
	ck_assert_int_eq(dl_rt_get_params(st, &p), 0);
	p.overhead = 0;
	p.flags = flags;
	ck_assert_int_eq(dl_rt_set_params(st, &p), 0);
	ck_assert_int_eq(
		dl_rt_set_pool(st, "batch", map_units, reduce_units, 0), 0);
	return st;
}

#endif
