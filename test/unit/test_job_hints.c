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

/* job_submit/deadline's mark of an ArrayTaskThrottle update: what Slurm
 * stored, 0 (no limit) to UINT32_MAX; anything else is refused whole */
START_TEST(test_array_limit)
{
	static const struct {
		const char *text;
		int rc;
		int64_t value;
	} cases[] = {
		{"0", 0, 0},
		{"3", 0, 3},
		{"007", 0, 7},
		{"4294967295", 0, 4294967295LL},
		{"4294967296", EINVAL, -1},
		{"99999999999999999999999", EINVAL, -1},
		{"-1", EINVAL, -1},
		{"+3", EINVAL, -1},
		{" 3", EINVAL, -1},
		{"3 ", EINVAL, -1},
		{"3x", EINVAL, -1},
		{"0x10", EINVAL, -1},
		{"", EINVAL, -1},
		{NULL, EINVAL, -1},
	};
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = -1;

		err[0] = '\0';
		ck_assert_int_eq(dl_hints_parse_array_limit(cases[i].text, &v,
							    err, sizeof(err)),
				 cases[i].rc);
		ck_assert_int_eq(v, cases[i].value);
		if (cases[i].rc)
			ck_assert_ptr_nonnull(strstr(err, "array limit"));
	}
	ck_assert_int_eq(
		dl_hints_parse_array_limit("3", NULL, err, sizeof(err)),
		EINVAL);
	/* no buffer for the message: still refused, nothing written */
	ck_assert_int_eq(dl_hints_parse_array_limit("x", NULL, NULL, 0),
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
	ck_assert_int_eq(h.array_limit, -1);
	ck_assert_int_eq(dl_hints_from_env(NULL, 3, &h, err, sizeof(err)), 0);
	ck_assert_double_eq(h.soft_deadline, 0);
	ck_assert_int_eq(h.array_limit, -1);
}
END_TEST

/* job_submit's mark of a hold asked for on a held record: exactly "user"
 * or "admin", with or without the prefix, the last entry deciding */
START_TEST(test_hold_request)
{
	char *user[] = {"DEADLINE_REDUCE_COST=2", "DEADLINE_HOLD_REQUEST=user"};
	char *admin[] = {"SPANK_DEADLINE_HOLD_REQUEST=admin"};
	char *bad[] = {"DEADLINE_HOLD_REQUEST=Admin",
		       "DEADLINE_HOLD_REQUEST=user ", "DEADLINE_HOLD_REQUEST="};
	char *last[] = {"DEADLINE_HOLD_REQUEST=admin",
			"DEADLINE_HOLD_REQUEST=user"};
	struct dl_job_hints h;
	char err[256];

	ck_assert_int_eq(dl_hints_hold_request_from_env(user, 2),
			 DL_HOLD_REQUEST_USER);
	ck_assert_int_eq(dl_hints_hold_request_from_env(admin, 1),
			 DL_HOLD_REQUEST_ADMIN);
	for (uint32_t i = 1; i <= 3; i++)
		ck_assert_int_eq(dl_hints_hold_request_from_env(bad, i),
				 DL_HOLD_REQUEST_NONE);
	ck_assert_int_eq(dl_hints_hold_request_from_env(last, 2),
			 DL_HOLD_REQUEST_USER);
	ck_assert_int_eq(dl_hints_hold_request_from_env(NULL, 2),
			 DL_HOLD_REQUEST_NONE);
	ck_assert_int_eq(dl_hints_parse_hold_request(NULL),
			 DL_HOLD_REQUEST_NONE);
	ck_assert_str_eq(dl_hold_request_name(DL_HOLD_REQUEST_ADMIN), "admin");
	ck_assert_str_eq(dl_hold_request_name(DL_HOLD_REQUEST_NONE), "none");
	/* not a user's hint: the hints reader passes over it */
	ck_assert_int_eq(dl_hints_from_env(user, 2, &h, err, sizeof(err)), 0);
	ck_assert_double_eq(h.reduce_cost, 2);
}
END_TEST

/* the array limit mark beside the hints: read with or without the prefix;
 * a bad one is reported and leaves no limit, the others still apply */
START_TEST(test_from_env_array_limit)
{
	char *good[] = {"DEADLINE_ARRAY_LIMIT=0", "DEADLINE_REDUCE_COST=2"};
	char *prefixed[] = {"SPANK_DEADLINE_ARRAY_LIMIT=5"};
	char *bad[] = {"DEADLINE_ARRAY_LIMIT=-5", "DEADLINE_REDUCE_COST=2"};
	/* two marks (a forged one beside ours, no job_submit/deadline on its
	 * way): both readers take the last valid one */
	char *twice[] = {"DEADLINE_ARRAY_LIMIT=3",
			 "SPANK_DEADLINE_ARRAY_LIMIT=7",
			 "DEADLINE_ARRAY_LIMIT=x", NULL};
	struct dl_job_hints h;
	char err[256];

	ck_assert_int_eq(dl_hints_from_env(good, 2, &h, err, sizeof(err)), 0);
	ck_assert_int_eq(h.array_limit, 0);
	ck_assert_str_eq(dl_hints_env_get(good, 2, DL_ENV_ARRAY_LIMIT), "0");
	ck_assert_int_eq(dl_hints_from_env(prefixed, 1, &h, err, sizeof(err)),
			 0);
	ck_assert_int_eq(h.array_limit, 5);
	ck_assert_int_eq(dl_hints_array_limit_from_env(good, 2), 0);
	ck_assert_int_eq(dl_hints_array_limit_from_env(prefixed, 1), 5);
	ck_assert_int_eq(dl_hints_from_env(bad, 2, &h, err, sizeof(err)), 1);
	ck_assert_int_eq(h.array_limit, -1);
	ck_assert_ptr_nonnull(strstr(err, "array limit '-5'"));
	ck_assert_double_eq(h.reduce_cost, 2);
	ck_assert_int_eq(dl_hints_array_limit_from_env(bad, 2), -1);
	ck_assert_int_eq(dl_hints_array_limit_from_env(NULL, 2), -1);
	ck_assert_int_eq(dl_hints_from_env(twice, 4, &h, err, sizeof(err)), 1);
	ck_assert_int_eq(h.array_limit, 7);
	ck_assert_int_eq(dl_hints_array_limit_from_env(twice, 4), 7);
	ck_assert_ptr_nonnull(strstr(err, "array limit 'x'"));
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
	tcase_add_test(tc, test_array_limit);
	tcase_add_test(tc, test_from_env);
	tcase_add_test(tc, test_from_env_array_limit);
	tcase_add_test(tc, test_hold_request);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
