/*
 * test_goal.c - map/reduce split of the deadline and hard-deadline windows.
 */
#include <math.h>

#include "common/estimate/goal.h"
#include "fixtures.h"

#define EPS 1e-9

START_TEST(test_hard_goal)
{
	struct dl_job *j = fx_job(1, 10, 0, 0);
	struct dl_phase *ph = &j->phase[DL_MAP];

	/* no hard deadline: the goal passes through */
	ck_assert_double_eq_tol(dl_hard_goal(ph, 60, 900), 900, EPS);
	ph->hard_deadline = 1000;
	ph->time_limit = 300;
	/* tasks must start by 700; a 60 s task started then ends at 760 */
	ck_assert_double_eq_tol(dl_hard_goal(ph, 60, 0), 760, EPS);
	ck_assert_double_eq_tol(dl_hard_goal(ph, 60, 2000), 760, EPS);
	/* an earlier soft goal wins */
	ck_assert_double_eq_tol(dl_hard_goal(ph, 60, 500), 500, EPS);
	/* Slurm rounds a time limit up to a minute */
	ph->time_limit = 10;
	ck_assert_double_eq_tol(dl_hard_goal(ph, 6, 0), 1000 - 54, EPS);
	/* tasks longer than the limit cannot be: the deadline itself */
	ph->time_limit = 60;
	ck_assert_double_eq_tol(dl_hard_goal(ph, 90, 0), 1000, EPS);
	/* no estimate: the whole limit is reserved */
	ck_assert_double_eq_tol(dl_hard_goal(ph, 0, 0), 940, EPS);
	dl_job_free(j);
}
END_TEST

START_TEST(test_reduce_mu_sources)
{
	struct dl_job *j = fx_job(1, 10, 0, 1000);
	struct dl_mu mu;

	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 4, 1, 0), 0);
	mu = dl_reduce_mu(j, 1);
	ck_assert_int_eq(mu.source, DL_MU_NONE);
	fx_done(j, DL_MAP, 2, 10, 0);
	mu = dl_reduce_mu(j, 1);
	ck_assert_int_eq(mu.source, DL_MU_RATIO);
	ck_assert_double_eq_tol(mu.mean, 10, EPS);
	/* the job's own hint beats the configured default */
	j->reduce_cost = 3;
	ck_assert_double_eq_tol(dl_reduce_mu(j, 2).mean, 30, EPS);
	j->reduce_cost = 0;
	ck_assert_double_eq_tol(dl_reduce_mu(j, 2).mean, 20, EPS);
	j->phase[DL_REDUCE].prior_mean = 44;
	ck_assert_int_eq(dl_reduce_mu(j, 2).source, DL_MU_PRIOR);
	dl_job_free(j);
}
END_TEST

START_TEST(test_reduce_time_waves)
{
	struct dl_job *j = fx_job(1, 10, 0, 1000);
	struct dl_mu mu = {20, 0, DL_MU_RATIO, "ratio", false};

	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 10, 1, 0), 0);
	ck_assert_double_eq_tol(dl_reduce_time(j, &mu, 100), 20, EPS);
	ck_assert_double_eq_tol(dl_reduce_time(j, &mu, 4), 60, EPS);
	ck_assert_double_eq_tol(dl_reduce_time(j, &mu, 0), 200, EPS);
	fx_done(j, DL_REDUCE, 7, 20, 0);
	ck_assert_double_eq_tol(dl_reduce_time(j, &mu, 4), 20, EPS);
	dl_job_free(j);
}
END_TEST

/* Map goal = deadline - T_red, T_red = ceil(R / slots) * mu_r. */
START_TEST(test_phase_goal_split)
{
	struct dl_job *j = fx_job(1, 100, 0, 1000);
	struct dl_goal g;

	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 10, 1, 0), 0);
	fx_done(j, DL_MAP, 5, 12, 0);
	ck_assert_int_eq(dl_phase_goal(j, 100, 5, 1, &g), 0);
	ck_assert_int_eq(g.phase_kind, DL_MAP);
	ck_assert_double_eq_tol(g.reduce_time, 24, EPS);
	ck_assert_double_eq_tol(g.phase, 976, EPS);
	ck_assert_double_eq_tol(g.job, 1000, EPS);
	/* reduce/map cost ratio 2.5: reduces of 30 s */
	j->reduce_cost = 2.5;
	ck_assert_int_eq(dl_phase_goal(j, 100, 5, 1, &g), 0);
	ck_assert_double_eq_tol(g.phase, 1000 - 60, EPS);
	/* in the reduce phase, the goal is the job's */
	fx_done(j, DL_MAP, 95, 12, 0);
	ck_assert_int_eq(dl_phase_goal(j, 100, 5, 1, &g), 0);
	ck_assert_int_eq(g.phase_kind, DL_REDUCE);
	ck_assert_double_eq_tol(g.phase, 1000, EPS);
	ck_assert_int_eq(dl_phase_goal(NULL, 100, 5, 1, &g), EINVAL);
	ck_assert_int_eq(dl_phase_goal(j, NAN, 5, 1, &g), EINVAL);
	dl_job_free(j);
}
END_TEST

/* A hard reduce deadline shrinks the reduce goal, and the map goal with
 * it. */
START_TEST(test_phase_goal_hard_pair)
{
	struct dl_job *j = fx_job(1, 40, 0, 0);
	struct dl_goal g;

	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 2, 1, 0), 0);
	j->phase[DL_REDUCE].hard_deadline = 2000;
	j->phase[DL_REDUCE].time_limit = 600;
	j->phase[DL_MAP].hard_deadline = 2000;
	j->phase[DL_MAP].time_limit = 120;
	fx_done(j, DL_MAP, 1, 50, 0);
	ck_assert_int_eq(dl_phase_goal(j, 0, 10, 1, &g), 0);
	/* reduce: start by 1400, 50 s long -> 1450; maps by 1400 */
	ck_assert_double_eq_tol(g.phase, 1400, EPS);
	dl_job_free(j);
}
END_TEST

START_TEST(test_no_deadline)
{
	struct dl_job *j = fx_job(1, 40, 0, 0);
	struct dl_goal g;

	ck_assert_int_eq(dl_phase_goal(j, 0, 10, 1, &g), 0);
	ck_assert_double_eq_tol(g.job, 0, EPS);
	ck_assert_double_eq_tol(g.phase, 0, EPS);
	dl_job_free(j);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("goal");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hard_goal);
	tcase_add_test(tc, test_reduce_mu_sources);
	tcase_add_test(tc, test_reduce_time_waves);
	tcase_add_test(tc, test_phase_goal_split);
	tcase_add_test(tc, test_phase_goal_hard_pair);
	tcase_add_test(tc, test_no_deadline);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
