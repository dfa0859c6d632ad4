/*
 * test_tardiness.c - the lower bound on the late jobs' total lateness:
 * worked examples where it is exact, the count of jobs falling as the
 * backlog drains, the jobs late alone, capacity over time and per
 * resource, degenerate inputs, and against the optimum of small instances;
 * the count's layers for schedules with few late jobs, the same ways.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/compare/tardiness.h"
#include "fixtures.h"

static struct dl_oracle_job job(double release, double deadline, double work)
{
	struct dl_oracle_job j;

	memset(&j, 0, sizeof(j));
	j.release = release;
	j.deadline = deadline;
	j.map.work = work;
	j.map.width = work;
	j.map.longest = 1;
	j.counted = true;
	return j;
}

static double bound_on(const struct dl_oracle_job *jobs, uint32_t n,
		       const double *t, const double *units, uint32_t nres,
		       uint32_t nsteps)
{
	struct dl_oracle_capacity cap = {nres, nsteps, t, units};
	char err[256] = "";
	double lb = -1;

	ck_assert_msg(
		dl_tardiness_bound(jobs, n, &cap, &lb, err, sizeof(err)) == 0,
		"%s", err);
	return lb;
}

static double flat_bound(const struct dl_oracle_job *jobs, uint32_t n,
			 double units)
{
	static const double t0 = 0;

	return bound_on(jobs, n, &t0, &units, 1, 1);
}

/* The bound on one unit with its layers (freed by the caller). */
static double flat_layers(const struct dl_oracle_job *jobs, uint32_t n,
			  struct dl_tardiness_layers *l)
{
	static const double t0 = 0, one = 1;
	struct dl_oracle_capacity cap = {1, 1, &t0, &one};
	char err[256] = "";
	double lb = -1;

	ck_assert_msg(dl_tardiness_bound_layers(jobs, n, &cap, &lb, l, err,
						sizeof(err)) == 0,
		      "%s", err);
	ck_assert_double_eq_tol(lb, flat_bound(jobs, n, 1), 1e-9);
	return lb;
}

/* One unit, 10 s of work due at 5: it ends at 10 at best, 5 s late. */
START_TEST(one_job_late_by_its_backlog)
{
	struct dl_oracle_job j = job(0, 5, 10);

	ck_assert_double_eq_tol(flat_bound(&j, 1, 1), 5, 1e-9);
	/* on two units it is on time */
	ck_assert_double_eq_tol(flat_bound(&j, 1, 2), 0, 1e-9);
}
END_TEST

/* Two jobs of 10 s due at 10 on one unit: one of them ends at 20 in every
 * schedule; the bound is that schedule's 10 s. */
START_TEST(two_jobs_one_unit_exact)
{
	struct dl_oracle_job j[2] = {job(0, 10, 10), job(0, 10, 10)};

	ck_assert_double_eq_tol(flat_bound(j, 2, 1), 10, 1e-9);
}
END_TEST

/* Three jobs of 4 s due at 6 on one unit.  At 6 the backlog is 12 - 6 = 6:
 * two jobs hold it (one job holds at most 4).  It falls to 4 at 8, where
 * one job is left, and to 0 at 12: 2 x 2 + 1 x 4 = 8, the lateness of the
 * best schedule (ends 4, 8, 12: 0 + 2 + 6). */
START_TEST(count_falls_as_the_backlog_drains)
{
	struct dl_oracle_job j[3] = {job(0, 6, 4), job(0, 6, 4), job(0, 6, 4)};

	ck_assert_double_eq_tol(flat_bound(j, 3, 1), 8, 1e-9);
}
END_TEST

/* Largest jobs cover the backlog first: works 10, 6, 4 due at 10 leave a
 * backlog of 10 at 10, which the 10 s job alone can hold: 1 x 10. */
START_TEST(largest_jobs_hold_the_backlog)
{
	struct dl_oracle_job j[3] = {job(0, 10, 10), job(0, 10, 6),
				     job(0, 10, 4)};

	ck_assert_double_eq_tol(flat_bound(j, 3, 1), 10, 1e-9);
}
END_TEST

/* A job whose end alone is 7 s past its deadline is late by 7, whatever
 * the fluid backlog says (none here). */
START_TEST(late_alone_counts_on_its_own)
{
	struct dl_oracle_job j = job(0, 5, 1);

	j.end_lb = 12;
	ck_assert_double_eq_tol(flat_bound(&j, 1, 10), 7, 1e-9);
	/* an end alone before the deadline, or never, adds nothing */
	j.end_lb = 4;
	ck_assert_double_eq_tol(flat_bound(&j, 1, 10), 0, 1e-9);
	j.end_lb = INFINITY;
	ck_assert_double_eq_tol(flat_bound(&j, 1, 10), 0, 1e-9);
}
END_TEST

/* A job late alone holds at most its whole work of the backlog, not the
 * job it is: two 4 s jobs due at 6 on one unit leave one job late over
 * [6, 8); when one of them cannot end before 9 alone, that one is late
 * over [6, 9) and holds the backlog of 2 itself: 3, not 2 + 3. */
START_TEST(late_alone_jobs_hold_their_work)
{
	struct dl_oracle_job j[2] = {job(0, 6, 4), job(0, 6, 4)};
	struct dl_oracle_job k[2] = {job(0, 6, 1), job(0, 6, 10)};

	ck_assert_double_eq_tol(flat_bound(j, 2, 1), 2, 1e-9);
	j[0].end_lb = 9;
	ck_assert_double_eq_tol(flat_bound(j, 2, 1), 3, 1e-9);
	/* a 1 s job that cannot end before 20 holds 1 of the backlog of 5 at
	 * 6: the 10 s job is late too until the other 4 drain at 10, so 2 x 4
	 * + 1 x 10 = 18, the best schedule's (the 10 s job ends at 10, the
	 * other at 20); counting either alone gives 14 */
	k[0].end_lb = 20;
	ck_assert_double_eq_tol(flat_bound(k, 2, 1), 18, 1e-9);
}
END_TEST

/* No capacity before 10, two units after: 10 s of work due at 5 ends at
 * 15 at best. */
START_TEST(capacity_over_time)
{
	static const double t[2] = {0, 10}, units[2] = {0, 2};
	struct dl_oracle_job j = job(0, 5, 10);

	ck_assert_double_eq_tol(bound_on(&j, 1, t, units, 1, 2), 10, 1e-9);
}
END_TEST

/* The backlog counts work from its release: a job released at 50 with
 * 10 s due at 55 is 5 s late on one unit, although the cluster was idle
 * before; an earlier job due later changes nothing. */
START_TEST(backlog_from_the_release)
{
	struct dl_oracle_job j[2] = {job(0, 100, 10), job(50, 55, 10)};

	ck_assert_double_eq_tol(flat_bound(&j[1], 1, 1), 5, 1e-9);
	ck_assert_double_eq_tol(flat_bound(j, 2, 1), 5, 1e-9);
}
END_TEST

/* Only a window's own jobs hold its backlog: A (10 s due at 10) is done on
 * time; B, C, D (2 s each, released at 100, due at 102) leave 4 s at 102
 * on one unit.  A alone could hold 4 s, but A was released before the
 * window: two of B, C, D hold it until 104, one until 106: 2 x 2 + 1 x 2
 * = 6, the best schedule's (B on time, C 2 s late, D 4 s).  Counting A
 * among the holders would give 4. */
START_TEST(backlog_held_by_its_window)
{
	struct dl_oracle_job j[4] = {job(0, 10, 10), job(100, 102, 2),
				     job(100, 102, 2), job(100, 102, 2)};

	ck_assert_double_eq_tol(flat_bound(j, 4, 1), 6, 1e-9);
	/* C late alone until 103 (its end alone set by hand) counts on its
	 * own and holds at most its 2 s of the window's 4 s; one of B and D
	 * holds the rest: 2 until 103, then 3 s left need two jobs until
	 * 104, one until 106: 2 + 2 + 2 = 6, the best schedule's (B, C, D
	 * 2 and 4 s late).  Not taking C's work off would give 7. */
	j[2].end_lb = 103;
	ck_assert_double_eq_tol(flat_bound(j, 4, 1), 6, 1e-9);
}
END_TEST

/* Each resource gives a bound and the largest is kept: two 10 s reduce
 * phases due at 5 on one reduce slot leave 15 at 5 (two jobs until 10,
 * one until 20): 20; the map slots are plenty. */
START_TEST(typed_resources_take_the_larger)
{
	static const double t0 = 0, units[2] = {100, 1};
	struct dl_oracle_job j[2] = {job(0, 5, 1), job(0, 5, 1)};

	for (int i = 0; i < 2; i++) {
		j[i].reduce.res = 1;
		j[i].reduce.work = 10;
		j[i].reduce.width = 10;
		j[i].reduce.longest = 10;
	}
	ck_assert_double_eq_tol(bound_on(j, 2, &t0, units, 2, 1), 20, 1e-9);
}
END_TEST

/* P (3 s due at 2), M (1 s due at 5), N (3 s due at 6) on one unit: one
 * job must be late over [2, 3] and one over [6, 7], a layer of two
 * segments with a 3 s gap.  The bound, 2, is the best schedule's (P, M, N:
 * P and N 1 s late each).  With one late job at most, that job is late
 * over both segments and the gap: 5, the best such schedule's (M, N, P:
 * P ends at 7, 5 s late).  No schedule has no late job. */
START_TEST(few_late_jobs_bridge_the_gaps)
{
	struct dl_oracle_job j[3] = {job(0, 2, 3), job(0, 5, 1), job(0, 6, 3)};
	struct dl_tardiness_layers l;
	double lb = flat_layers(j, 3, &l);

	ck_assert_double_eq_tol(lb, 2, 1e-9);
	ck_assert_uint_eq(l.segments, 2);
	ck_assert_uint_eq(l.height, 1);
	ck_assert_uint_eq(l.ngaps, 1);
	ck_assert_double_eq_tol(l.gaps[0], 3, 1e-9);
	ck_assert_double_eq_tol(dl_tardiness_at_most(&l, lb, 3), 2, 1e-9);
	ck_assert_double_eq_tol(dl_tardiness_at_most(&l, lb, 2), 2, 1e-9);
	ck_assert_double_eq_tol(dl_tardiness_at_most(&l, lb, 1), 5, 1e-9);
	ck_assert(isinf(dl_tardiness_at_most(&l, lb, 0)));
	/* without layers: the bound itself */
	ck_assert_double_eq_tol(dl_tardiness_at_most(NULL, lb, 0), 2, 1e-9);
	dl_tardiness_layers_free(&l);
	ck_assert_ptr_null(l.gaps);

	/* two layers: Q and R (2 s each due at 1) leave 3 s at 1, two jobs
	 * until 2, one until 4; S (2 s due at 5) leaves 1 s, one job until
	 * 6, when T (4 s due at 6) leaves 4 s, one job until 10: 2 + 2 + 5
	 * = 9.  Layer 1 is [1, 4] and [5, 10] (a 1 s gap), layer 2 [1, 2]:
	 * at least two late jobs (Q and R are late in every schedule), and
	 * with two the gap is covered (the best such schedule: 16) */
	{
		struct dl_oracle_job k[4] = {job(0, 1, 2), job(0, 1, 2),
					     job(0, 5, 2), job(0, 6, 4)};

		lb = flat_layers(k, 4, &l);
		ck_assert_double_eq_tol(lb, 9, 1e-9);
		ck_assert_uint_eq(l.segments, 3);
		ck_assert_uint_eq(l.height, 2);
		ck_assert_uint_eq(l.ngaps, 1);
		ck_assert_double_eq_tol(l.gaps[0], 1, 1e-9);
		ck_assert_double_eq_tol(dl_tardiness_at_most(&l, lb, 3), 9,
					1e-9);
		ck_assert_double_eq_tol(dl_tardiness_at_most(&l, lb, 2), 10,
					1e-9);
		ck_assert(isinf(dl_tardiness_at_most(&l, lb, 1)));
		dl_tardiness_layers_free(&l);
	}
}
END_TEST

START_TEST(degenerate_inputs)
{
	static const double t0 = 0, one = 1, zero = 0;
	struct dl_oracle_capacity cap = {1, 1, &t0, &one};
	struct dl_oracle_job j = job(0, 5, 10);
	char err[256] = "";
	double lb = -1;

	/* no jobs, or none counted: nothing to be late */
	ck_assert_int_eq(
		dl_tardiness_bound(NULL, 0, &cap, &lb, err, sizeof(err)), 0);
	ck_assert_double_eq(lb, 0);
	j.counted = false;
	ck_assert_double_eq_tol(flat_bound(&j, 1, 1), 0, 1e-12);
	j.counted = true;
	/* no capacity ever: the backlog never drains, nothing is counted
	 * after the last step, and the result stays finite */
	ck_assert_double_eq(bound_on(&j, 1, &t0, &zero, 1, 1), 0);
	/* rejected with a message */
	ck_assert_int_eq(
		dl_tardiness_bound(&j, 1, &cap, NULL, err, sizeof(err)),
		EINVAL);
	j.deadline = NAN;
	ck_assert_int_eq(dl_tardiness_bound(&j, 1, &cap, &lb, err, sizeof(err)),
			 EINVAL);
	ck_assert_str_ne(err, "");
	j.deadline = 5;
	j.end_lb = NAN;
	ck_assert_int_eq(dl_tardiness_bound(&j, 1, &cap, &lb, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_tardiness_bound(&j, 1, NULL, &lb, err, sizeof(err)),
			 EINVAL);
}
END_TEST

/* The least total lateness of n jobs released at 0 on one unit: some
 * order of them (preempting does not help when all are released at once). */
static double best_order(const double *work, const double *due, int n, int used,
			 double now)
{
	double best = INFINITY;

	if (used == (1 << n) - 1)
		return 0;
	for (int i = 0; i < n; i++) {
		double end, v;

		if (used & (1 << i))
			continue;
		end = now + work[i];
		v = (end > due[i] ? end - due[i] : 0) +
		    best_order(work, due, n, used | (1 << i), end);
		if (v < best)
			best = v;
	}
	return best;
}

/* The same with at most m late jobs (INFINITY: no order has so few). */
static double best_order_few(const double *work, const double *due, int n,
			     int used, double now, int m)
{
	double best = INFINITY;

	if (used == (1 << n) - 1)
		return 0;
	for (int i = 0; i < n; i++) {
		double end, v;
		bool late;

		if (used & (1 << i))
			continue;
		end = now + work[i];
		late = end > due[i];
		if (late && !m)
			continue;
		v = (late ? end - due[i] : 0) + best_order_few(work, due, n,
							       used | (1 << i),
							       end, m - late);
		if (v < best)
			best = v;
	}
	return best;
}

/* Never above the optimum, on 500 random instances of 5 jobs. */
START_TEST(never_above_the_optimum)
{
	unsigned seed = 11;
	int exact = 0;

	for (int inst = 0; inst < 500; inst++) {
		struct dl_oracle_job j[5];
		double work[5], due[5], opt, lb;

		for (int i = 0; i < 5; i++) {
			work[i] = 1 + rand_r(&seed) % 10;
			due[i] = 1 + rand_r(&seed) % 30;
			j[i] = job(0, due[i], work[i]);
		}
		opt = best_order(work, due, 5, 0, 0);
		lb = flat_bound(j, 5, 1);
		ck_assert_msg(lb <= opt + 1e-9, "instance %d: %g > optimum %g",
			      inst, lb, opt);
		if (fabs(lb - opt) < 1e-9)
			exact++;
	}
	/* and not vacuous: exact on a good share of them */
	ck_assert_int_ge(exact, 100);
}
END_TEST

/* With its layers, never above the optimum of the schedules with at most m
 * late jobs, for every m, on 500 random instances of 5 jobs; and the
 * layers add to the bound on some of them. */
START_TEST(layers_never_above_the_optimum)
{
	unsigned seed = 23;
	int tighter = 0;

	for (int inst = 0; inst < 500; inst++) {
		struct dl_oracle_job j[5];
		struct dl_tardiness_layers l;
		double work[5], due[5], lb;

		for (int i = 0; i < 5; i++) {
			work[i] = 1 + rand_r(&seed) % 6;
			due[i] = 1 + rand_r(&seed) % 20;
			j[i] = job(0, due[i], work[i]);
		}
		lb = flat_layers(j, 5, &l);
		ck_assert_uint_eq(l.ngaps, l.segments - l.height);
		for (uint32_t k = 1; k < l.ngaps; k++)
			ck_assert(l.gaps[k - 1] <= l.gaps[k]);
		for (int m = 0; m <= 5; m++) {
			double opt = best_order_few(work, due, 5, 0, 0, m);
			double at = dl_tardiness_at_most(&l, lb, (uint32_t) m);

			ck_assert_msg(at <= opt + 1e-9,
				      "instance %d, %d late: %g > optimum %g",
				      inst, m, at, opt);
			tighter += isfinite(at) && at > lb + 1e-9;
		}
		dl_tardiness_layers_free(&l);
	}
	ck_assert_int_ge(tighter, 20);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tardiness");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_job_late_by_its_backlog);
	tcase_add_test(tc, two_jobs_one_unit_exact);
	tcase_add_test(tc, count_falls_as_the_backlog_drains);
	tcase_add_test(tc, largest_jobs_hold_the_backlog);
	tcase_add_test(tc, late_alone_counts_on_its_own);
	tcase_add_test(tc, late_alone_jobs_hold_their_work);
	tcase_add_test(tc, capacity_over_time);
	tcase_add_test(tc, backlog_from_the_release);
	tcase_add_test(tc, backlog_held_by_its_window);
	tcase_add_test(tc, typed_resources_take_the_larger);
	tcase_add_test(tc, degenerate_inputs);
	tcase_add_test(tc, never_above_the_optimum);
	tcase_add_test(tc, few_late_jobs_bridge_the_gaps);
	tcase_add_test(tc, layers_never_above_the_optimum);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
