/*
 * test_config.c - deadline.conf options: defaults, validation, files.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/config/config.h"
#include "common/config/kv_file.h"
#include "common/policy/policy.h"
#include "fixtures.h"

START_TEST(test_defaults)
{
	struct dl_config c = fx_config();

	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	ck_assert_int_eq(c.hopeless_rank, DL_HOPELESS_ABOVE);
	ck_assert(c.hopeless_aging == 1800);
	ck_assert(c.hopeless_slack == 1);
	ck_assert(c.hopeless_slack_waiting == 1);
	ck_assert(c.hopeless_slack_load == 0);
	ck_assert(c.hopeless_slack_backlog == 300);
	ck_assert(c.hopeless_slack_max_arrivals == 0.8);
	ck_assert(c.late_ahead_max_arrivals == 10);
	ck_assert_int_eq(c.hopeless_promise, DL_NO);
	ck_assert(c.hopeless_promise_margin == 0);
	ck_assert(c.triage_quantile == 0.5);
	ck_assert(c.plan_interval == 10);
	ck_assert(c.max_deadline_share == 1);
	ck_assert(c.reduce_cost == 1);
	ck_assert_str_eq(c.estimator_socket,
			 "/run/slurm-deadline/estimator.sock");
	ck_assert_uint_eq(c.ras_rounds, 10);
	dl_config_free(&c);
	/* every option's default must pass its own validation */
	for (const struct dl_option *o = dl_options; o->name; o++) {
		ck_assert_ptr_nonnull(o->doc);
		ck_assert_ptr_nonnull(o->def);
	}
}
END_TEST

START_TEST(test_set_valid)
{
	struct dl_config c = fx_config();
	char err[256];

	ck_assert_int_eq(dl_config_set(&c, "policy", "RAS", err, sizeof(err)),
			 0);
	ck_assert_int_eq(c.policy, DL_POLICY_RAS);
	ck_assert_int_eq(
		dl_config_set(&c, "PlanInterval", "2m", err, sizeof(err)), 0);
	ck_assert(c.plan_interval == 120);
	ck_assert_int_eq(dl_config_set(&c, "MaxDeadlineShare", " 0.25 ", err,
				       sizeof(err)),
			 0);
	ck_assert(c.max_deadline_share == 0.25);
	ck_assert_int_eq(
		dl_config_set(&c, "EstimatorSocket", "", err, sizeof(err)), 0);
	ck_assert_str_eq(c.estimator_socket, "");
	ck_assert_int_eq(
		dl_config_set(&c, "HopelessPromise", "yes", err, sizeof(err)),
		0);
	ck_assert_int_eq(c.hopeless_promise, DL_YES);
	ck_assert_int_eq(dl_config_set(&c, "HopelessPromiseMargin", "0.5", err,
				       sizeof(err)),
			 0);
	ck_assert(c.hopeless_promise_margin == 0.5);
	dl_config_free(&c);
}
END_TEST

START_TEST(test_set_invalid)
{
	struct dl_config c = fx_config();
	char err[256];

	ck_assert_int_eq(dl_config_set(&c, "Policy", "lifo", err, sizeof(err)),
			 EINVAL);
	/* the message lists every choice */
	ck_assert_ptr_nonnull(strstr(err, "adaptive"));
	ck_assert_ptr_nonnull(strstr(err, "triage"));
	ck_assert_ptr_nonnull(strstr(err, "edf"));
	ck_assert_int_eq(
		dl_config_set(&c, "HopelessRank", "middle", err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "below, above"));
	ck_assert_int_eq(dl_config_set(&c, "Policy", "EDF", err, sizeof(err)),
			 0);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
	ck_assert_int_eq(
		dl_config_set(&c, "HopelessRank", "Below", err, sizeof(err)),
		0);
	ck_assert_int_eq(c.hopeless_rank, DL_HOPELESS_BELOW);
	ck_assert_str_eq(dl_hopeless_rank_name(c.hopeless_rank), "below");
	ck_assert_int_eq(
		dl_config_set(&c, "Policy", "triage", err, sizeof(err)), 0);
	ck_assert_int_eq(
		dl_config_set(&c, "HopelessRank", "above", err, sizeof(err)),
		0);
	ck_assert_int_eq(
		dl_config_set(&c, "TriageQuantile", "0.99", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(
		dl_config_set(&c, "HopelessPromise", "maybe", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(dl_config_set(&c, "HopelessPromiseMargin", "-0.5", err,
				       sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_config_set(&c, "HopelessPromiseMargin", "inf", err,
				       sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(
		dl_config_set(&c, "PlanInterval", "0", err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "PlanInterval"));
	ck_assert_int_eq(
		dl_config_set(&c, "PlanInterval", "10x", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(
		dl_config_set(&c, "MaxDeadlineShare", "1.5", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(
		dl_config_set(&c, "MaxDeadlineShare", "nan", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(
		dl_config_set(&c, "RasRounds", "2.5", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(dl_config_set(&c, "RasRounds", "-1", err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(
		dl_config_set(&c, "NoSuchThing", "1", err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown option"));
	ck_assert_int_eq(dl_config_set(NULL, "Policy", "ras", NULL, 0), EINVAL);
	ck_assert_int_eq(dl_config_set(&c, NULL, "ras", NULL, 0), EINVAL);
	/* failed sets change nothing */
	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	ck_assert_int_eq(c.hopeless_rank, DL_HOPELESS_ABOVE);
	ck_assert(c.hopeless_aging == 1800);
	ck_assert(c.triage_quantile == 0.5);
	ck_assert(c.plan_interval == 10);
	ck_assert(c.max_deadline_share == 1);
	ck_assert_int_eq(c.hopeless_promise, DL_NO);
	ck_assert(c.hopeless_promise_margin == 0);
	dl_config_free(&c);
}
END_TEST

START_TEST(test_durations)
{
	ck_assert(dl_parse_duration("15") == 15);
	ck_assert(dl_parse_duration("1.5m") == 90);
	ck_assert(dl_parse_duration("2h") == 7200);
	ck_assert(dl_parse_duration("-1") < 0);
	ck_assert(dl_parse_duration("") < 0);
	/* one parser for deadline.conf and deadline-estimatord.conf, which
	 * keeps history for days */
	ck_assert(dl_parse_duration("3d") == 259200);
	ck_assert(dl_parse_duration(" 90s ") == 90);
	ck_assert(dl_parse_duration("3w") < 0);
	ck_assert(dl_parse_duration("2h5") < 0);
	ck_assert(dl_parse_duration(NULL) < 0);
}
END_TEST

static char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/dlconfXXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

START_TEST(test_load_file)
{
	struct dl_config c = fx_config();
	char err[256];
	char *p = write_tmp("# deadline.conf\n"
			    "Policy=reverse\n"
			    "  planinterval = 5   # comment\n"
			    "\n"
			    "NodeIO=n[1-4]=200\n"
			    "EstimatorSocket=\"\"\n"
			    "PlanFile=\"/var/lib/plan.json\"\n");

	ck_assert_int_eq(dl_config_load(&c, p, err, sizeof(err)), 0);
	ck_assert_int_eq(c.policy, DL_POLICY_REVERSE);
	ck_assert(c.plan_interval == 5);
	ck_assert_str_eq(c.node_io, "n[1-4]=200");
	ck_assert_str_eq(c.estimator_socket, "");
	ck_assert_str_eq(c.plan_file, "/var/lib/plan.json");
	unlink(p);
	dl_config_free(&c);
}
END_TEST

START_TEST(test_load_broken_keeps_previous)
{
	struct dl_config c = fx_config();
	char err[256];
	char *p;

	ck_assert_int_eq(dl_config_set(&c, "Policy", "ras", err, sizeof(err)),
			 0);
	p = write_tmp("Policy=adaptive\nPlanInterval=fast\n");
	ck_assert_int_eq(dl_config_load(&c, p, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, ":2: PlanInterval=fast"));
	ck_assert_int_eq(c.policy, DL_POLICY_RAS);
	unlink(p);
	p = write_tmp("EstimatorSocket=\n");
	ck_assert_int_eq(dl_config_load(&c, p, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "empty or badly quoted"));
	unlink(p);
	p = write_tmp("PlanFile=\"/x\n");
	ck_assert_int_eq(dl_config_load(&c, p, err, sizeof(err)), EINVAL);
	unlink(p);
	p = write_tmp("Policy adaptive\n");
	ck_assert_int_eq(dl_config_load(&c, p, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "expected Name=Value"));
	unlink(p);
	ck_assert_int_eq(dl_config_load(&c, "/nonexistent/deadline.conf", err,
					sizeof(err)),
			 ENOENT);
	ck_assert_int_eq(c.policy, DL_POLICY_RAS);
	dl_config_free(&c);
}
END_TEST

START_TEST(test_copy)
{
	struct dl_config a = fx_config(), b;

	ck_assert_int_eq(dl_config_copy(&b, &a), 0);
	ck_assert_ptr_ne(a.estimator_socket, b.estimator_socket);
	ck_assert_str_eq(a.estimator_socket, b.estimator_socket);
	dl_config_free(&a);
	ck_assert_str_eq(b.estimator_socket,
			 "/run/slurm-deadline/estimator.sock");
	dl_config_free(&b);
	ck_assert_str_eq(dl_policy_name(DL_POLICY_REALTIME), "realtime");
	ck_assert_str_eq(dl_policy_name((enum dl_policy) 99), "unknown");
}
END_TEST

/* Records every setting as "name=value;"; refuses the name "Bad". */
static int record(void *ctx, const char *name, const char *value, char *msg,
		  size_t msglen)
{
	char *out = ctx;

	if (!strcmp(name, "Bad")) {
		snprintf(msg, msglen, "Bad is refused");
		return ERANGE;
	}
	strcat(out, name);
	strcat(out, "=");
	strcat(out, value);
	strcat(out, ";");
	return 0;
}

START_TEST(test_kv_syntax)
{
	char seen[256] = "", err[256] = "", longline[5000];
	const char *ok = "# comment\n\n  A = 1  \nB=\"two words\" # note\n"
			 "C=\"\"\n";

	ck_assert_int_eq(dl_kv_parse(ok, strlen(ok), "t", record, seen, err,
				     sizeof(err)),
			 0);
	ck_assert_str_eq(seen, "A=1;B=two words;C=;");
	/* the setter's error, with file and line; nothing after it is read */
	seen[0] = '\0';
	ck_assert_int_eq(dl_kv_parse("A=1\nBad=2\nC=3\n", 15, "f", record, seen,
				     err, sizeof(err)),
			 ERANGE);
	ck_assert_str_eq(err, "f:2: Bad is refused");
	ck_assert_str_eq(seen, "A=1;");
	/* syntax errors */
	ck_assert_int_eq(
		dl_kv_parse("A\n", 2, "f", record, seen, err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "f:1: expected Name=Value"));
	ck_assert_int_eq(
		dl_kv_parse("A=\n", 3, "f", record, seen, err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "A=\"\" for an empty one"));
	ck_assert_int_eq(
		dl_kv_parse("A=\"x\n", 5, "f", record, seen, err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(dl_kv_parse("A=\"x\"y\"\n", 8, "f", record, seen, err,
				     sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_kv_parse("A=1\0B=2\n", 8, "f", record, seen, err,
				     sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "NUL"));
	memset(longline, 'x', sizeof(longline));
	ck_assert_int_eq(dl_kv_parse(longline, sizeof(longline), "f", record,
				     seen, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "line too long"));
	/* degenerate calls */
	ck_assert_int_eq(dl_kv_parse(NULL, 0, NULL, record, seen, NULL, 0), 0);
	ck_assert_int_eq(
		dl_kv_parse(NULL, 3, "f", record, seen, err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(
		dl_kv_parse("A=1", 3, "f", NULL, seen, err, sizeof(err)),
		EINVAL);
}
END_TEST

static int load_text(struct dl_config *cfg, const char *text, size_t len,
		     char *err, size_t errlen)
{
	char path[] = "/tmp/dlconfXXXXXX";
	int fd = mkstemp(path), rc;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t) len);
	close(fd);
	rc = dl_config_load(cfg, path, err, errlen);
	unlink(path);
	return rc;
}

/* Issue 12 D12 and D8: what Slurm's s_p_hashtbl let through, and a NodeIO
 * that failed every plan cycle instead of the reconfigure. */
START_TEST(test_load_refuses_what_slurm_let_through)
{
	struct dl_config cfg;
	char err[256];
	const char nul[] = "Policy=realtime\n\0PlanInterval=7\n";

	dl_config_defaults(&cfg);
	ck_assert_int_eq(
		load_text(&cfg, "Policy=realtime\n", 16, err, sizeof(err)), 0);
	ck_assert_int_eq(cfg.policy, DL_POLICY_REALTIME);
	/* an empty file keeps realtime (the caller keeps cfg) */
	ck_assert_int_eq(load_text(&cfg, "", 0, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is empty"));
	ck_assert_int_eq(load_text(&cfg, " \n\t\n", 4, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(cfg.policy, DL_POLICY_REALTIME);
	/* comments only: every default, said on purpose */
	ck_assert_int_eq(
		load_text(&cfg, "# all defaults\n", 15, err, sizeof(err)), 0);
	{
		struct dl_config def;

		dl_config_defaults(&def);
		ck_assert_int_eq(cfg.policy, def.policy);
		ck_assert_int_ne(def.policy, DL_POLICY_REALTIME);
		dl_config_free(&def);
	}
	ck_assert_int_ne(
		load_text(&cfg, nul, sizeof(nul) - 1, err, sizeof(err)), 0);
	ck_assert_int_ne(
		load_text(&cfg, "PlanFile=\"/tmp/x\n", 17, err, sizeof(err)),
		0);
	/* a bad NodeIO is refused with the configuration */
	ck_assert_int_eq(
		load_text(&cfg, "NodeIO=n[1-=5\n", 14, err, sizeof(err)), 0);
	ck_assert_int_eq(dl_policy_check_config(&cfg, err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "NodeIO"));
	ck_assert_int_eq(
		load_text(&cfg, "NodeIO=n[1-4]=100\n", 18, err, sizeof(err)),
		0);
	ck_assert_int_eq(dl_policy_check_config(&cfg, err, sizeof(err)), 0);
	ck_assert_int_eq(dl_policy_check_config(NULL, err, sizeof(err)),
			 EINVAL);
	dl_config_free(&cfg);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_set_valid);
	tcase_add_test(tc, test_set_invalid);
	tcase_add_test(tc, test_durations);
	tcase_add_test(tc, test_load_file);
	tcase_add_test(tc, test_load_broken_keeps_previous);
	tcase_add_test(tc, test_copy);
	tcase_add_test(tc, test_kv_syntax);
	tcase_add_test(tc, test_load_refuses_what_slurm_let_through);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
