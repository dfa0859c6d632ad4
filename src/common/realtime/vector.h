/*
 * realtime/vector.h - sorted slot-availability vectors of the realtime policy
 * (doc/design.md §6).
 *
 * A vector holds, for each unit of a pool (a CPU in Slurm, a slot in the
 * paper's Hadoop model), the time at which the unit becomes free.  Only the
 * sorted multiset matters, so it is stored run-length encoded: ascending
 * distinct times with a unit count each.  A pool of 10,000 CPUs whose units
 * free at a few distinct times takes a few runs, not 10,000 doubles.
 *
 * The operations are the paper's: list scheduling of identical worst-case
 * tasks onto the earliest units (the appendix's "⊕", Alg. II/III), the
 * elementwise MAX with a time, SATU's replacement of the smallest entries by
 * actual finish times (Alg. VI) and the elementwise order "≥" used by the
 * correctness proof (and by the property tests).
 */
#ifndef DL_RT_VECTOR_H
#define DL_RT_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DL_RT_MAX_UNITS 100000000u /* sanity bound on units per pool */

struct dl_rt_run {
	double t;   /* time the units become free */
	uint32_t n; /* how many units */
};

struct dl_rt_vec {
	struct dl_rt_run *r; /* ascending t, distinct, every n > 0 */
	uint32_t nruns;
	uint32_t cap;
	uint32_t units; /* sum of n */
};

/* Where list scheduling put a batch of tasks. */
struct dl_rt_sched {
	double first_start; /* start of the first task; NAN if no task */
	double last_start;  /* start of the last task (starts never decrease) */
	double last_end;    /* latest end of any task of the batch */
};

/* An empty vector (no units); free with dl_rt_vec_free. */
void dl_rt_vec_zero(struct dl_rt_vec *v);
void dl_rt_vec_free(struct dl_rt_vec *v);

/* `units` units all free at t.  EINVAL for t not finite or units above
 * DL_RT_MAX_UNITS, ENOMEM. */
int dl_rt_vec_init(struct dl_rt_vec *v, uint32_t units, double t);
/* dst becomes a copy of src (dst's old contents are freed). */
int dl_rt_vec_copy(struct dl_rt_vec *dst, const struct dl_rt_vec *src);
/* Add n units free at t (kept sorted).  EINVAL, ERANGE beyond the bound,
 * ENOMEM. */
int dl_rt_vec_add(struct dl_rt_vec *v, double t, uint32_t n);

/* MAX(V, f): every unit free before f is free at f. */
void dl_rt_vec_floor(struct dl_rt_vec *v, double f);

/* List-schedule k identical tasks of length len, each taking c units at
 * once, onto the earliest units (Alg. II/III): task i starts when c units
 * are free and not before `floor`, and its units are busy until start+len.
 * Units that take no task keep their time (only picked units are floored,
 * as in Alg. III's max(t_1, e^m)).  Returns 0 and fills where (may be
 * NULL); EINVAL for a bad length or floor, c == 0 or c > units when k > 0;
 * ENOMEM (v unchanged on error). */
int dl_rt_vec_schedule(struct dl_rt_vec *v, uint32_t k, uint32_t c, double len,
		       double floor, struct dl_rt_sched *where);

/* SATU (Alg. VI): for each finish time of e (any order; they are sorted
 * first) the c smallest units take that time; with more tasks than units
 * (waves) entries are replaced again.  c must not exceed the units.
 * Returns 0, EINVAL or ENOMEM (v unchanged on error). */
int dl_rt_vec_satu(struct dl_rt_vec *v, const double *e, uint32_t n,
		   uint32_t c);

/* The i-th smallest time (0-based); NAN when out of range. */
double dl_rt_vec_nth(const struct dl_rt_vec *v, uint32_t i);
/* Latest time in the vector; -INFINITY when empty. */
double dl_rt_vec_max(const struct dl_rt_vec *v);

/* Every unit d later (d finite). */
void dl_rt_vec_shift(struct dl_rt_vec *v, double d);

/* How much later a frees its units than b + bpad at most: max(0, sup over
 * sorted units of a_i - (b_i + bpad)); INFINITY when the sizes differ. */
double dl_rt_vec_excess(const struct dl_rt_vec *a, const struct dl_rt_vec *b,
			double bpad);

/* The proof's order: a ≤ b elementwise in sorted order (same number of
 * units; false otherwise). */
bool dl_rt_vec_leq(const struct dl_rt_vec *a, const struct dl_rt_vec *b);
bool dl_rt_vec_equal(const struct dl_rt_vec *a, const struct dl_rt_vec *b);

/* Check the invariants (ascending distinct finite times, n > 0, units =
 * sum); 0 or EINVAL with a message.  Used on restored state. */
int dl_rt_vec_check(const struct dl_rt_vec *v, char *err, size_t errlen);

#endif
