/*
 * test_job_hints.c - the users' per-job hints: profile, reduce cost, max
 * delays, soft deadline checks, and reading them back from a job control
 * environment.
 */
#include <math.h>
#include <string.h>

#include "common/model/job_hints.h"
#include "fixtures.h"

START_TEST(test_profile)
{
	struct dl_job_hints h;
	char err[256], buf[128];

	dl_hints_init(&h);
	ck_assert_int_eq(h.max_delays, -1);
	ck_assert_int_eq(dl_hints_parse_profile("cpu=2,mem=4G,io=50", &h, err,
						sizeof(err)),
			 0);
	ck_assert(h.has_profile && !h.has_shuffle);
	ck_assert_double_eq(h.task.cpu, 2);
	ck_assert_double_eq(h.task.mem, 4096);
	ck_assert_double_eq(h.task.io, 50);
	ck_assert_int_eq(dl_hints_format_profile(&h, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "cpu=2,mem=4096,io=50");
	ck_assert_int_eq(
		dl_hints_parse_profile(
			"mem=512M, io=10,shuffle_io=80,shuffle_mem=1GB", &h,
			err, sizeof(err)),
		0);
	ck_assert(h.has_shuffle);
	ck_assert_double_eq(h.task.cpu, 0);
	ck_assert_double_eq(h.task.mem, 512);
	ck_assert_double_eq(h.shuffle.io, 80);
	ck_assert_double_eq(h.shuffle.mem, 1024);
	ck_assert_int_eq(dl_hints_format_profile(&h, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "mem=512,io=10,shuffle_mem=1024,shuffle_io=80");
	/* the normalised form parses back to the same profile */
	{
		struct dl_job_hints g;

		dl_hints_init(&g);
		ck_assert_int_eq(
			dl_hints_parse_profile(buf, &g, err, sizeof(err)), 0);
		ck_assert_double_eq(g.shuffle.mem, 1024);
	}
	ck_assert_int_eq(dl_hints_format_profile(&h, buf, 8), ERANGE);
}
END_TEST

START_TEST(test_profile_errors)
{
	static const char *bad[] = {
		"",        "cpu",     "cpu=0",       "cpu=-1",
		"cpu=abc", "mem=4X",  "mem=-1G",     "io=-3",
		"gpu=1",   "cpu=1,,", "shuffle_x=1", "cpu=nan",
		"mem=",    "=5",
	};
	struct dl_job_hints h;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dl_hints_init(&h);
		err[0] = '\0';
		ck_assert_msg(dl_hints_parse_profile(bad[i], &h, err,
						     sizeof(err)) == EINVAL,
			      "accepted '%s'", bad[i]);
		ck_assert_msg(err[0], "no message for '%s'", bad[i]);
		ck_assert(!h.has_profile);
	}
	ck_assert_int_eq(dl_hints_parse_profile(NULL, &h, err, sizeof(err)),
			 EINVAL);
}
END_TEST

START_TEST(test_cost_and_delays)
{
	double c;
	int32_t d;
	char err[256];

	ck_assert_int_eq(
		dl_hints_parse_reduce_cost("2.5", &c, err, sizeof(err)), 0);
	ck_assert_double_eq(c, 2.5);
	ck_assert_int_eq(dl_hints_parse_reduce_cost("0", &c, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(
		dl_hints_parse_reduce_cost("1e9", &c, err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(dl_hints_parse_reduce_cost("x", &c, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_hints_parse_max_delays("3", &d, err, sizeof(err)),
			 0);
	ck_assert_int_eq(d, 3);
	ck_assert_int_eq(dl_hints_parse_max_delays("1.5", &d, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_hints_parse_max_delays("-1", &d, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_hints_parse_max_delays(NULL, &d, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_hints_parse_mr_reduces("40", &d, err, sizeof(err)),
			 0);
	ck_assert_int_eq(d, 40);
	ck_assert_int_eq(dl_hints_parse_mr_reduces("-2", &d, err, sizeof(err)),
			 EINVAL);
}
END_TEST

START_TEST(test_soft_checks)
{
	char err[256];

	ck_assert_int_eq(
		dl_hints_check_soft(2000, 3000, 1000, err, sizeof(err)), 0);
	ck_assert_int_eq(dl_hints_check_soft(2000, 0, 1000, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_hints_check_soft(900, 0, 1000, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "past"));
	ck_assert_int_eq(
		dl_hints_check_soft(4000, 3000, 1000, err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "after the hard deadline"));
	ck_assert_int_eq(dl_hints_check_soft(NAN, 0, 1000, err, sizeof(err)),
			 EINVAL);
}
END_TEST

START_TEST(test_from_env)
{
	char *env[] = {
		"SPANK_DEADLINE_SOFT=1700000000",
		"SPANK_DEADLINE_TASK_PROFILE=cpu=1,mem=100,io=5",
		"DEADLINE_REDUCE_COST=3",
		"SPANK_OTHER=1",
		NULL,
		"SPANK_DEADLINE_MAX_DELAYS=oops",
		"SPANK_DEADLINE_MR_REDUCES=12",
	};
	struct dl_job_hints h;
	char err[256];

	ck_assert_int_eq(dl_hints_from_env(env, 7, &h, err, sizeof(err)), 1);
	ck_assert_int_eq(h.mr_reduces, 12);
	ck_assert_ptr_nonnull(strstr(err, "max delays"));
	ck_assert_double_eq(h.soft_deadline, 1700000000);
	ck_assert(h.has_profile);
	ck_assert_double_eq(h.task.io, 5);
	ck_assert_double_eq(h.reduce_cost, 3);
	ck_assert_int_eq(h.max_delays, -1);
	ck_assert_int_eq(dl_hints_from_env(NULL, 3, &h, err, sizeof(err)), 0);
	ck_assert_double_eq(h.soft_deadline, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("job_hints");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_profile);
	tcase_add_test(tc, test_profile_errors);
	tcase_add_test(tc, test_cost_and_delays);
	tcase_add_test(tc, test_soft_checks);
	tcase_add_test(tc, test_from_env);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
