/*
 * test_spank_opts.c - the deadline SPANK options: validation, the checks
 * against now/--begin/--deadline, and the job control environment entries
 * reading back through dl_hints_from_env() (what sched/deadline does).
 */
#include <string.h>
#include <unistd.h>

#include "deadline_opts.h"
#include "fixtures.h"

/* A deterministic stand-in for Slurm's parser: "uts<N>" is epoch N (one of
 * the formats parse_time accepts), anything else is not a time. */
static time_t stub_time(const char *text)
{
	char *end;
	long v;

	if (strncmp(text, "uts", 3))
		return 0;
	v = strtol(text + 3, &end, 10);
	return *end ? 0 : (time_t) v;
}

#define NOW 1700000000.0

START_TEST(test_all_options_roundtrip)
{
	struct dl_spank_opts o;
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	char *entries[DL_SPANK_OPT_COUNT];
	char buf[DL_SPANK_OPT_COUNT][200];
	struct dl_job_hints h;
	char err[512];
	int n;

	dl_spank_opts_init(&o);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_SOFT_DEADLINE,
					  "uts1700003600", stub_time, err,
					  sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_TASK_PROFILE,
					  "cpu=2,mem=4G,io=50,shuffle_io=80",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_REDUCE_COST, "0.3",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_MAX_DELAYS, "4",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_MR_REDUCES, "12",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES,
					  "4-7=n3;0-3=n[2,1]", stub_time, err,
					  sizeof(err)),
			 0);
	ck_assert_int_eq(
		dl_spank_opts_check(&o, NOW, NOW + 7200, 0, err, sizeof(err)),
		0);
	n = dl_spank_opts_env(&o, env);
	ck_assert_int_eq(n, DL_SPANK_OPT_COUNT);
	ck_assert_str_eq(env[5].name, DL_ENV_INPUT_NODES);
	ck_assert_str_eq(env[5].value, "0-3=n[1-2];4-7=n3");
	ck_assert_str_eq(env[0].name, DL_ENV_SOFT_DEADLINE);
	ck_assert_str_eq(env[0].value, "1700003600");
	ck_assert_str_eq(env[1].value, "cpu=2,mem=4096,io=50,shuffle_io=80");
	ck_assert_str_eq(env[3].value, "4");
	ck_assert_str_eq(env[4].name, DL_ENV_MR_REDUCES);
	/* slurmctld stores them as SPANK_<name>=<value> */
	for (int i = 0; i < n; i++) {
		snprintf(buf[i], sizeof(buf[i]), "%s%s=%s", DL_ENV_PREFIX,
			 env[i].name, env[i].value);
		entries[i] = buf[i];
	}
	ck_assert_int_eq(
		dl_hints_from_env(entries, (uint32_t) n, &h, err, sizeof(err)),
		0);
	ck_assert_double_eq(h.soft_deadline, 1700003600);
	ck_assert(h.has_profile && h.has_shuffle);
	ck_assert_double_eq(h.task.mem, 4096);
	ck_assert_double_eq(h.shuffle.io, 80);
	ck_assert_double_eq(h.reduce_cost, 0.3);
	ck_assert_int_eq(h.max_delays, 4);
	ck_assert_int_eq(h.mr_reduces, 12);
	/* select/deadline finds the locality the same way */
	ck_assert_str_eq(
		dl_hints_env_get(entries, (uint32_t) n, DL_ENV_INPUT_NODES),
		"0-3=n[1-2];4-7=n3");
	ck_assert_ptr_null(dl_hints_env_get(entries, 2, DL_ENV_INPUT_NODES));
	ck_assert_ptr_null(dl_hints_env_get(NULL, 2, DL_ENV_INPUT_NODES));
	ck_assert_ptr_null(dl_hints_env_get(entries, (uint32_t) n, NULL));
}
END_TEST

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_input_nodes)
{
	static const char spec[] = "# map input blocks\n0-3 = n[1-2]\n"
				   "4-7 = n3 # rack 2\n";
	char dir[] = "/tmp/test_spank_opts.XXXXXX", path[64], err[512];
	struct dl_spank_opts o;
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	char *big;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/blocks", dir);
	write_file(path, spec, strlen(spec));
	dl_spank_opts_init(&o);
	/* a value with '/' names a file, read here */
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, path,
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 1);
	ck_assert_str_eq(env[0].value, "0-3=n[1-2];4-7=n3");
	/* errors in a file name its line */
	write_file(path, "0-3=n1\n\n2=n2\n", 13);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, path,
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "line 3: task 2 is already listed"));
	/* ... and the earlier value stays */
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 1);
	ck_assert_str_eq(env[0].value, "0-3=n[1-2];4-7=n3");
	write_file(path, "0=n1\0002=n2", 9);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, path,
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "NUL byte"));
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, dir,
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
	big = malloc(DL_LOCALITY_MAX_INPUT + 2);
	memset(big, ' ', DL_LOCALITY_MAX_INPUT + 1);
	write_file(path, big, DL_LOCALITY_MAX_INPUT + 1);
	free(big);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, path,
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "larger than 1048576 bytes"));
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, path,
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "cannot read the file"));
	ck_assert_int_eq(rmdir(dir), 0);
	/* inline: a later value replaces the earlier one */
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, "n[5-6]",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 1);
	ck_assert_str_eq(env[0].value, "*=n[5-6]");
}
END_TEST

START_TEST(test_warning)
{
	struct dl_spank_opts o;
	char err[512], warn[256];

	dl_spank_opts_init(&o);
	ck_assert_int_eq(dl_spank_opts_warning(&o, 0, warn, sizeof(warn)), 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_MAX_DELAYS, "3",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_warning(&o, NOW, warn, sizeof(warn)), 1);
	ck_assert_ptr_nonnull(strstr(warn, "--max-delays has no effect "
					   "without --input-nodes"));
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_INPUT_NODES, "n1",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_warning(&o, NOW, warn, sizeof(warn)), 0);
	ck_assert_str_eq(warn, "");
	/* no deadline at all: the hint does nothing */
	ck_assert_int_eq(dl_spank_opts_warning(&o, 0, warn, sizeof(warn)), 1);
	ck_assert_ptr_nonnull(strstr(warn, "--input-nodes has no effect "
					   "without --deadline or "
					   "--soft-deadline"));
	/* --deadline not visible here: no guess */
	ck_assert_int_eq(dl_spank_opts_warning(&o, -1, warn, sizeof(warn)), 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_SOFT_DEADLINE,
					  "uts1700003600", stub_time, err,
					  sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_warning(&o, 0, warn, sizeof(warn)), 0);
	ck_assert_int_eq(dl_spank_opts_warning(NULL, 0, warn, sizeof(warn)), 0);
	ck_assert_int_eq(dl_spank_opts_warning(&o, 0, NULL, 0), 0);
}
END_TEST

START_TEST(test_only_given_options_are_passed)
{
	struct dl_spank_opts o;
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	char err[512];

	dl_spank_opts_init(&o);
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_MAX_DELAYS, "0",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 1);
	ck_assert_str_eq(env[0].name, DL_ENV_MAX_DELAYS);
	ck_assert_str_eq(env[0].value, "0");
	/* no soft deadline: nothing to check against the hard one */
	ck_assert_int_eq(
		dl_spank_opts_check(&o, NOW, NOW - 10, 0, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_later_value_wins)
{
	struct dl_spank_opts o;
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	char err[512];

	dl_spank_opts_init(&o);
	/* #SBATCH line first, then the command line */
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_TASK_PROFILE,
					  "cpu=1,io=5", stub_time, err,
					  sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_TASK_PROFILE, "mem=1G",
					  stub_time, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 1);
	ck_assert_str_eq(env[0].value, "mem=1024");
	/* a bad later value is refused and leaves the earlier one */
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_TASK_PROFILE, "gpu=1",
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_spank_opts_env(&o, env), 1);
	ck_assert_str_eq(env[0].value, "mem=1024");
}
END_TEST

START_TEST(test_bad_values)
{
	static const struct {
		enum dl_spank_opt which;
		const char *arg;
		const char *expect; /* in the message */
	} bad[] = {
		{DL_SPANK_SOFT_DEADLINE, "", "--soft-deadline=: not a time"},
		{DL_SPANK_SOFT_DEADLINE, "yesterday-ish", "not a time"},
		{DL_SPANK_SOFT_DEADLINE, "uts12x", "--deadline format"},
		{DL_SPANK_SOFT_DEADLINE, "uts253402300800", "year 9999"},
		{DL_SPANK_TASK_PROFILE, "cpu=0", "--task-profile=cpu=0"},
		{DL_SPANK_TASK_PROFILE, "", "--task-profile=:"},
		{DL_SPANK_TASK_PROFILE, "gpu=2", "unknown key"},
		{DL_SPANK_TASK_PROFILE, "mem=lots", "bad value"},
		{DL_SPANK_REDUCE_COST, "0", "--reduce-cost=0"},
		{DL_SPANK_REDUCE_COST, "-1", "above 0"},
		{DL_SPANK_REDUCE_COST, "1001", "at most 1000"},
		{DL_SPANK_REDUCE_COST, "inf", "reduce cost"},
		{DL_SPANK_REDUCE_COST, "two", "reduce cost"},
		{DL_SPANK_MAX_DELAYS, "-1", "--max-delays=-1"},
		{DL_SPANK_MAX_DELAYS, "2.5", "whole number"},
		{DL_SPANK_MAX_DELAYS, "1001", "0 to 1000"},
		{DL_SPANK_MR_REDUCES, "-3", "--mr-reduces=-3"},
		{DL_SPANK_MR_REDUCES, "1e12", "whole number"},
		{DL_SPANK_INPUT_NODES, "",
		 "--input-nodes=: no preferred nodes"},
		{DL_SPANK_INPUT_NODES, "0-3=n1;2=n2",
		 "--input-nodes=0-3=n1;2=n2: entry '2=n2': task 2 is already "
		 "listed in another entry"},
		{DL_SPANK_INPUT_NODES, "0=n[1-", "is not a host list"},
		{DL_SPANK_INPUT_NODES, "4000001=n1", "above 4000000"},
		{DL_SPANK_INPUT_NODES, "0-3",
		 "--input-nodes=0-3: entry '0-3': task indexes without hosts"},
		{DL_SPANK_INPUT_NODES, "/no/such/file", "cannot read the file"},
	};
	struct dl_spank_opts o;
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dl_spank_opts_init(&o);
		err[0] = '\0';
		ck_assert_msg(dl_spank_opt_set(&o, bad[i].which, bad[i].arg,
					       stub_time, err,
					       sizeof(err)) == EINVAL,
			      "accepted --%s=%s",
			      dl_spank_opt_name(bad[i].which), bad[i].arg);
		ck_assert_msg(strstr(err, bad[i].expect),
			      "message for --%s=%s: '%s'",
			      dl_spank_opt_name(bad[i].which), bad[i].arg, err);
		ck_assert_int_eq(dl_spank_opts_env(&o, env), 0);
	}
	dl_spank_opts_init(&o);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_REDUCE_COST, NULL,
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_OPT_COUNT, "1",
					  stub_time, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_spank_opt_set(NULL, DL_SPANK_MAX_DELAYS, "1",
					  stub_time, err, sizeof(err)),
			 EINVAL);
	/* no parser: a time cannot be accepted */
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_SOFT_DEADLINE,
					  "uts1700003600", NULL, err,
					  sizeof(err)),
			 EINVAL);
	/* a NULL message buffer is fine */
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_MAX_DELAYS, "x",
					  stub_time, NULL, 0),
			 EINVAL);
}
END_TEST

static int check_soft(const char *soft, double now, double hard, double begin,
		      char *err, size_t len)
{
	struct dl_spank_opts o;

	dl_spank_opts_init(&o);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_SOFT_DEADLINE, soft,
					  stub_time, err, len),
			 0);
	return dl_spank_opts_check(&o, now, hard, begin, err, len);
}

/* Reads the value as Slurm 22.05's parse_time can with "now" after the
 * start: up to twice its length plus a keyword past it (ASan and valgrind
 * see any read beyond what the options code hands over). */
static time_t overreading_time(const char *text)
{
	size_t n = strlen(text);

	for (size_t i = n; i < 2 * n + 63; i++)
		if (text[i])
			return 0;
	return 2000000000;
}

START_TEST(test_time_parser_may_read_past_the_value)
{
	struct dl_spank_opts o;
	char err[256] = "";

	dl_spank_opts_init(&o);
	ck_assert_int_eq(dl_spank_opt_set(&o, DL_SPANK_SOFT_DEADLINE,
					  "now-1hournow-1", overreading_time,
					  err, sizeof(err)),
			 0);
	ck_assert_double_eq(o.soft_deadline, 2000000000);
}
END_TEST

START_TEST(test_soft_deadline_checks)
{
	char err[512];

	/* in the past, or exactly now */
	ck_assert_int_eq(
		check_soft("uts1699999000", NOW, 0, 0, err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "in the past"));
	ck_assert_int_eq(
		check_soft("uts1700000000", NOW, 0, 0, err, sizeof(err)),
		EINVAL);
	/* later than the hard deadline */
	ck_assert_int_eq(check_soft("uts1700007200", NOW, NOW + 3600, 0, err,
				    sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is later than --deadline="));
	/* equal to the hard deadline is fine */
	ck_assert_int_eq(check_soft("uts1700003600", NOW, NOW + 3600, 0, err,
				    sizeof(err)),
			 0);
	/* not after --begin */
	ck_assert_int_eq(check_soft("uts1700003600", NOW, 0, NOW + 3600, err,
				    sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "--begin="));
	ck_assert_int_eq(
		check_soft("uts1700003600", NOW, 0, NOW + 60, err, sizeof(err)),
		0);
	/* nonsense hard deadlines are ignored, not trusted */
	ck_assert_int_eq(
		check_soft("uts1700003600", NOW, NAN, NAN, err, sizeof(err)),
		0);
	ck_assert_int_eq(
		check_soft("uts1700003600", NOW, -5, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(dl_spank_opts_check(NULL, NOW, 0, 0, err, sizeof(err)),
			 EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("spank_opts");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, test_all_options_roundtrip);
	tcase_add_test(tc, test_only_given_options_are_passed);
	tcase_add_test(tc, test_later_value_wins);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_input_nodes);
	tcase_add_test(tc, test_warning);
	tcase_add_test(tc, test_soft_deadline_checks);
	tcase_add_test(tc, test_time_parser_may_read_past_the_value);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
