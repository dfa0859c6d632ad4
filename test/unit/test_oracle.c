/*
 * test_oracle.c - the deadline upper bound: exact cases, contention,
 * rerouting through earlier jobs, time-varying capacity, typed resources,
 * critical paths and input validation.
 */
#include <math.h>
#include <string.h>

#include "common/compare/oracle.h"
#include "fixtures.h"

/* a constant capacity of `units` of one resource */
static struct dl_oracle_capacity flat(const double *t, const double *units)
{
	struct dl_oracle_capacity c = {1, 1, t, units};

	return c;
}

static struct dl_oracle_job map_job(double release, double deadline,
				    double work, double width, double longest)
{
	struct dl_oracle_job j;

	memset(&j, 0, sizeof(j));
	j.release = release;
	j.deadline = deadline;
	j.map.work = work;
	j.map.width = width;
	j.map.longest = longest;
	j.counted = true;
	return j;
}

static struct dl_oracle_result bound(const struct dl_oracle_job *jobs,
				     uint32_t n,
				     const struct dl_oracle_capacity *cap)
{
	struct dl_oracle_result r;
	char err[256] = "";

	ck_assert_msg(dl_oracle_bound(jobs, n, cap, &r, err, sizeof(err)) == 0,
		      "oracle failed: %s", err);
	return r;
}

START_TEST(exact_fit_and_just_too_little)
{
	double t0 = 0, two = 2;
	struct dl_oracle_capacity c = flat(&t0, &two);
	struct dl_oracle_job j = map_job(0, 50, 100, 2, 10);
	struct dl_oracle_result r = bound(&j, 1, &c);

	ck_assert_uint_eq(r.bound, 1);
	ck_assert_uint_eq(r.routed, 1);
	ck_assert_double_eq_tol(r.fraction, 1, 1e-9);
	j.deadline = 49; /* 98 unit-seconds of room for 100 */
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 0);
	ck_assert_double_eq_tol(r.fraction, 0.98, 1e-6);
	/* the width caps a job: one task cannot use both units */
	j = map_job(0, 50, 60, 1, 60);
	j.deadline = 59;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.impossible, 1);
	ck_assert_uint_eq(r.bound, 0);
}
END_TEST

START_TEST(contention_keeps_the_smaller_jobs)
{
	double t0 = 0, one = 1;
	struct dl_oracle_capacity c = flat(&t0, &one);
	struct dl_oracle_job j[3] = {map_job(0, 10, 10, 1, 1),
				     map_job(0, 10, 10, 1, 1),
				     map_job(0, 10, 4, 1, 1)};
	struct dl_oracle_result r = bound(j, 3, &c);

	/* 10 unit-seconds for 24 of demand: the 4 and 6 of a 10 */
	ck_assert_uint_eq(r.bound, 1);
	ck_assert_double_eq_tol(r.fraction, 1 + 0.6, 1e-6);
	ck_assert_uint_eq(r.counted, 3);
	/* jobs that do not count take nothing from the bound */
	j[2].counted = false;
	r = bound(j, 3, &c);
	ck_assert_uint_eq(r.counted, 2);
	ck_assert_uint_eq(r.bound, 1);
}
END_TEST

START_TEST(earlier_jobs_are_rerouted)
{
	double t0 = 0, one = 1;
	struct dl_oracle_capacity c = flat(&t0, &one);
	/* A may run in [0, 20], B only in [10, 20]: both fit only if A
	 * moves to [0, 10], whatever the first routing put it */
	struct dl_oracle_job j[2] = {map_job(0, 20, 10, 1, 1),
				     map_job(10, 20, 10, 1, 1)};
	struct dl_oracle_result r = bound(j, 2, &c);

	ck_assert_uint_eq(r.bound, 2);
	ck_assert_uint_eq(r.routed, 2);
	/* the reverse order of equal demands gives the same answer */
	struct dl_oracle_job k[2] = {j[1], j[0]};

	r = bound(k, 2, &c);
	ck_assert_uint_eq(r.bound, 2);
}
END_TEST

START_TEST(capacity_over_time)
{
	/* nothing in [0, 10), 2 units after */
	double t[2] = {0, 10}, u[2] = {0, 2};
	struct dl_oracle_capacity c = {1, 2, t, u};
	struct dl_oracle_job j = map_job(0, 15, 20, 2, 1);
	struct dl_oracle_result r = bound(&j, 1, &c);

	ck_assert_uint_eq(r.bound, 0);
	ck_assert_double_eq_tol(r.fraction, 0.5, 1e-6);
	j.deadline = 20;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
	/* before the first breakpoint the first value holds */
	j = map_job(-10, -5, 1, 1, 1);
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 0);
}
END_TEST

START_TEST(typed_resources_and_windows)
{
	/* resource 0: 1 map slot, resource 1: 1 reduce slot */
	double t0 = 0, u[2] = {1, 1};
	struct dl_oracle_capacity c = {2, 1, &t0, u};
	struct dl_oracle_job j;
	struct dl_oracle_result r;

	memset(&j, 0, sizeof(j));
	j.release = 0;
	j.deadline = 20;
	j.counted = true;
	j.map.res = 0;
	j.map.work = 10;
	j.map.width = 1;
	j.map.longest = 10;
	j.reduce.res = 1;
	j.reduce.work = 10;
	j.reduce.width = 1;
	j.reduce.longest = 10;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
	/* the reduce needs the map's longest task first: 10 + 10 > 19 */
	j.deadline = 19;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.impossible, 1);
	ck_assert_uint_eq(r.bound, 0);
	/* maps cannot use the reduce slot: 20 of map work in [0, 20] with
	 * one map slot while the reduce needs [10+, 20]: not all of it */
	j.deadline = 30;
	j.map.work = 25;
	j.map.width = 2;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 0);
}
END_TEST

/* The valid cut: a job whose bound alone is past its deadline is left out
 * of the flow (the capacity it would have taken goes to the others) and of
 * the bound; the bound of its maps delays its reduce window. */
START_TEST(impossible_alone_leaves_the_flow)
{
	double t0 = 0, one = 1;
	struct dl_oracle_capacity c = flat(&t0, &one);
	/* both fit the relaxation alone; together only one */
	struct dl_oracle_job j[2] = {map_job(0, 10, 10, 1, 1),
				     map_job(0, 10, 10, 1, 1)};
	struct dl_oracle_result r = bound(j, 2, &c);

	ck_assert_uint_eq(r.bound, 1);
	ck_assert_uint_eq(r.impossible_alone, 0);
	/* exactly feasible alone: not cut */
	j[0].end_lb = 10;
	r = bound(j, 2, &c);
	ck_assert_uint_eq(r.impossible_alone, 0);
	ck_assert_uint_eq(r.bound, 1);
	/* a wave short: cut, and the other job routes whole */
	j[0].end_lb = 11;
	r = bound(j, 2, &c);
	ck_assert_uint_eq(r.counted, 2);
	ck_assert_uint_eq(r.impossible, 1);
	ck_assert_uint_eq(r.impossible_alone, 1);
	ck_assert_uint_eq(r.routed, 1);
	ck_assert_uint_eq(r.bound, 1);
	/* both cut: nothing can be met */
	j[1].end_lb = INFINITY;
	r = bound(j, 2, &c);
	ck_assert_uint_eq(r.impossible_alone, 2);
	ck_assert_uint_eq(r.bound, 0);
	/* NaN is refused */
	j[1].map_end_lb = NAN;
	{
		char err[256] = "";

		ck_assert_int_eq(
			dl_oracle_bound(j, 2, &c, &r, err, sizeof(err)),
			EINVAL);
		ck_assert_ptr_nonnull(strstr(err, "NaN"));
	}
}
END_TEST

START_TEST(map_bound_delays_the_reduces)
{
	double t0 = 0, u[2] = {1, 1};
	struct dl_oracle_capacity c = {2, 1, &t0, u};
	struct dl_oracle_job j;
	struct dl_oracle_result r;

	memset(&j, 0, sizeof(j));
	j.deadline = 20;
	j.counted = true;
	j.map.work = 10;
	j.map.width = 2;
	j.map.longest = 5;
	j.reduce.res = 1;
	j.reduce.work = 10;
	j.reduce.width = 1;
	j.reduce.longest = 10;
	/* maps in [0, 10], the reduce in [5, 20]: fits */
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
	/* the maps cannot end before 10 (one slot): the reduce still fits
	 * in [10, 20] */
	j.map_end_lb = 10;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
	/* not before 11: the reduce's 10 s no longer fit in [11, 20] */
	j.map_end_lb = 11;
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.impossible_alone, 1);
	ck_assert_uint_eq(r.bound, 0);
}
END_TEST

/* n tasks of `len` seconds each in [release, deadline], one unit each,
 * shortest and longest known: the task-granularity cuts apply */
static struct dl_oracle_job tasks_job(double release, double deadline,
				      uint32_t n, double len)
{
	struct dl_oracle_job j = map_job(release, deadline, n * len, n, len);

	j.map.shortest = len;
	return j;
}

/* The compulsory part: two 10 s tasks in [0, 15] both run over [5, 10]
 * whatever their start, so a dip to one unit over [6, 7] makes the job
 * impossible; the fluid relaxation (which the job without a known
 * shortest task gets) spreads the work around the dip. */
START_TEST(compulsory_part_needs_the_whole_width)
{
	double t[3] = {0, 6, 7}, u[3] = {2, 1, 2};
	struct dl_oracle_capacity c = {1, 3, t, u};
	struct dl_oracle_job j = map_job(0, 15, 20, 2, 10);
	struct dl_oracle_result r = bound(&j, 1, &c);

	ck_assert_uint_eq(r.bound, 1);
	ck_assert_uint_eq(r.task_bound, UINT32_MAX); /* not applicable */
	j = tasks_job(0, 15, 2, 10);
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.fluid_bound, 0);
	ck_assert_uint_eq(r.bound, 0);
	/* a window of two tasks or more has no compulsory part: one task
	 * before the dip, one after */
	j = tasks_job(0, 20, 2, 10);
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
	/* and without the dip the short window fits */
	u[1] = 2;
	j = tasks_job(0, 15, 2, 10);
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
}
END_TEST

/* Task counts: 7 tasks of 10 s on 3 units in [0, 25] need three waves
 * (30 s), but the fluid fits 70 unit-seconds in 75.  A grid with a point
 * every 10 s at offset 5 has only two points (5, 15) where the job's tasks
 * can be counted: 6 tasks at most.  With 25 s more the job fits. */
START_TEST(task_count_needs_whole_waves)
{
	double t0 = 0, three = 3;
	struct dl_oracle_capacity c = flat(&t0, &three);
	struct dl_oracle_job j = tasks_job(0, 25, 7, 10);
	struct dl_oracle_result r = bound(&j, 1, &c);

	ck_assert_uint_eq(r.fluid_bound, 1);
	ck_assert_uint_eq(r.task_bound, 0);
	ck_assert_uint_eq(r.bound, 0);
	j = tasks_job(0, 30, 7, 10);
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.task_bound, 1);
	ck_assert_uint_eq(r.bound, 1);
	/* six tasks fit two waves exactly */
	j = tasks_job(0, 20, 6, 10);
	r = bound(&j, 1, &c);
	ck_assert_uint_eq(r.bound, 1);
}
END_TEST

/* Whole jobs: two busy spells, each with two jobs of 6 unit-seconds in
 * 10, and a fifth job alone: the LP routes 1 + 2/3 in each spell and the
 * fifth whole (4.33, floor 4), but a schedule meets one job per spell:
 * each spell is a tight set that fits one of its demands (3 in all). */
START_TEST(whole_jobs_per_tight_set)
{
	double t0 = 0, one = 1;
	struct dl_oracle_capacity c = flat(&t0, &one);
	struct dl_oracle_job j[5] = {
		map_job(0, 10, 6, 1, 1),  map_job(0, 10, 6, 1, 1),
		map_job(20, 30, 6, 1, 1), map_job(20, 30, 6, 1, 1),
		map_job(40, 50, 4, 1, 1), /* alone: routes whole */
	};
	struct dl_oracle_result r = bound(j, 5, &c);

	ck_assert_double_eq_tol(r.fraction, 1 + 2.0 / 3 + 1 + 2.0 / 3 + 1,
				1e-6);
	ck_assert_uint_eq(r.routed, 3);
	ck_assert_uint_eq(r.fluid_bound, 3);
	ck_assert_uint_eq(r.bound, 3);
	/* with a smaller third job in the first spell the set fits two of
	 * its three demands (4 + 6 <= 10): one more */
	{
		struct dl_oracle_job k[6] = {
			j[0], j[1], j[2], j[3], j[4], map_job(0, 10, 4, 1, 1)};

		r = bound(k, 6, &c);
		ck_assert_uint_eq(r.bound, 4);
	}
}
END_TEST

START_TEST(validation)
{
	double t[2] = {0, 10}, u[2] = {1, 1}, bad_t[2] = {5, 5};
	struct dl_oracle_capacity c = {1, 2, t, u};
	struct dl_oracle_job j = map_job(0, 10, 5, 1, 1);
	struct dl_oracle_result r;
	char err[256];

	ck_assert_int_eq(dl_oracle_bound(&j, 1, &c, NULL, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_oracle_bound(NULL, 1, &c, &r, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_oracle_bound(&j, 1, NULL, &r, err, sizeof(err)),
			 EINVAL);
	c.t = bad_t;
	ck_assert_int_eq(dl_oracle_bound(&j, 1, &c, &r, err, sizeof(err)),
			 EINVAL);
	ck_assert(strstr(err, "increasing"));
	c.t = t;
	j.map.work = NAN;
	ck_assert_int_eq(dl_oracle_bound(&j, 1, &c, &r, err, sizeof(err)),
			 EINVAL);
	j.map.work = 5;
	j.map.res = 3;
	ck_assert_int_eq(dl_oracle_bound(&j, 1, &c, &r, err, sizeof(err)),
			 EINVAL);
	j.map.res = 0;
	j.map.work = 0;
	ck_assert_int_eq(dl_oracle_bound(&j, 1, &c, &r, err, sizeof(err)),
			 EINVAL);
	/* no jobs: a bound of 0 */
	ck_assert_int_eq(dl_oracle_bound(NULL, 0, &c, &r, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.bound, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("oracle");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, exact_fit_and_just_too_little);
	tcase_add_test(tc, contention_keeps_the_smaller_jobs);
	tcase_add_test(tc, earlier_jobs_are_rerouted);
	tcase_add_test(tc, capacity_over_time);
	tcase_add_test(tc, typed_resources_and_windows);
	tcase_add_test(tc, impossible_alone_leaves_the_flow);
	tcase_add_test(tc, map_bound_delays_the_reduces);
	tcase_add_test(tc, compulsory_part_needs_the_whole_width);
	tcase_add_test(tc, task_count_needs_whole_waves);
	tcase_add_test(tc, whole_jobs_per_tight_set);
	tcase_add_test(tc, validation);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
