/*
 * test_alert.c - which verdict changes alert (plan/alert.h): rises only,
 * one outcome per job, the AlertInterval rate limit with its deferred
 * alert, restart priming, forgetting, mail opt-in by --mail-type, the
 * subject and the environment an AlertProgram gets.
 */
#include <math.h>
#include <string.h>

#include "common/plan/alert.h"
#include "fixtures.h"

/* a plan of one job (id 10, deadline 1000) with verdict v at time now */
static struct dl_plan *plan1(enum dl_verdict v, double now)
{
	struct dl_plan *p = dl_plan_new(1);

	ck_assert_ptr_nonnull(p);
	p->now = now;
	p->jobs[0].job_id = 10;
	p->jobs[0].phase = DL_MAP;
	p->jobs[0].verdict = v;
	p->jobs[0].deadline = 1000;
	p->jobs[0].tasks[DL_MAP] = 4;
	snprintf(p->jobs[0].user, sizeof(p->jobs[0].user), "alice");
	snprintf(p->jobs[0].name, sizeof(p->jobs[0].name), "wc");
	snprintf(p->jobs[0].explain, sizeof(p->jobs[0].explain), "verdict %s",
		 dl_verdict_name(v));
	dl_plan_finalize(p);
	return p;
}

/* the plan of a finished job: all tasks done, last end `end` */
static struct dl_plan *plan_done(double end, double now)
{
	struct dl_plan *p = plan1(DL_VERDICT_DONE, now);

	p->jobs[0].phase = -1;
	p->jobs[0].done[DL_MAP] = 4;
	p->jobs[0].predicted_finish = end;
	return p;
}

/* scan a one-job plan; the kind of the single alert due, or NONE */
static enum dl_alert_kind step(struct dl_alert_tracker *t, struct dl_plan *p,
			       double now, double interval)
{
	struct dl_alert *a = NULL;
	uint32_t n = 99;
	enum dl_alert_kind k = DL_ALERT_NONE;

	ck_assert_int_eq(dl_alert_scan(t, p, now, interval, &a, &n), 0);
	ck_assert_uint_le(n, 1);
	if (n) {
		k = a[0].kind;
		ck_assert_uint_eq(a[0].job_id, 10);
		ck_assert_str_eq(a[0].user, "alice");
	} else {
		ck_assert_ptr_null(a);
	}
	free(a);
	dl_plan_free(p);
	return k;
}

START_TEST(rises_alert_once)
{
	struct dl_alert_tracker t;

	dl_alert_tracker_init(&t);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_NO_DATA, 0), 0, 0),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_ON_TRACK, 10), 10, 0),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 20), 20, 0),
			 DL_ALERT_AT_RISK);
	/* still at risk: nothing new */
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 30), 30, 0),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_HOPELESS, 40), 40, 0),
			 DL_ALERT_HOPELESS);
	/* hopeless -> at_risk -> late: no rise above what was told */
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 50), 50, 0),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_LATE, 60), 60, 0),
			 DL_ALERT_NONE);
	/* on track again, then at risk again: a new alert */
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_ON_TRACK, 70), 70, 0),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 80), 80, 0),
			 DL_ALERT_AT_RISK);
	/* the outcome once, however often the plan shows it */
	ck_assert_int_eq(step(&t, plan_done(1200, 1300), 1300, 0),
			 DL_ALERT_MISSED);
	ck_assert_int_eq(step(&t, plan_done(1200, 1310), 1310, 0),
			 DL_ALERT_NONE);
	dl_alert_tracker_free(&t);
}
END_TEST

START_TEST(rate_limit_defers)
{
	struct dl_alert_tracker t;

	dl_alert_tracker_init(&t);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 0), 0, 300),
			 DL_ALERT_AT_RISK);
	/* flapping inside the interval: silent */
	for (double now = 10; now < 280; now += 20) {
		ck_assert_int_eq(
			step(&t, plan1(DL_VERDICT_ON_TRACK, now), now, 300),
			DL_ALERT_NONE);
		ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, now + 10),
				      now + 10, 300),
				 DL_ALERT_NONE);
	}
	/* a rise to hopeless inside the interval waits for its end ... */
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_HOPELESS, 299), 299, 300),
			 DL_ALERT_NONE);
	/* ... and is sent then, as the job is still hopeless */
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_HOPELESS, 300), 300, 300),
			 DL_ALERT_HOPELESS);
	/* the outcome ignores the interval */
	ck_assert_int_eq(step(&t, plan_done(900, 310), 310, 300), DL_ALERT_MET);
	dl_alert_tracker_free(&t);
}
END_TEST

START_TEST(outcomes)
{
	struct dl_alert_tracker t;
	struct dl_plan *p;

	dl_alert_tracker_init(&t);
	/* a job first seen finished still gets its outcome */
	ck_assert_int_eq(step(&t, plan_done(999, 1000), 1000, 0), DL_ALERT_MET);
	dl_alert_tracker_free(&t);
	/* a task that never completed: missed, even before the deadline */
	dl_alert_tracker_init(&t);
	p = plan_done(500, 600);
	p->jobs[0].done[DL_MAP] = 3;
	ck_assert_int_eq(step(&t, p, 600, 0), DL_ALERT_MISSED);
	dl_alert_tracker_free(&t);
	/* without a deadline: never an alert */
	dl_alert_tracker_init(&t);
	p = plan1(DL_VERDICT_AT_RISK, 0);
	p->jobs[0].deadline = 0;
	ck_assert_int_eq(step(&t, p, 0, 0), DL_ALERT_NONE);
	p = plan_done(5, 10);
	p->jobs[0].deadline = 0;
	ck_assert_int_eq(step(&t, p, 10, 0), DL_ALERT_NONE);
	dl_alert_tracker_free(&t);
}
END_TEST

START_TEST(prime_after_restart)
{
	struct dl_alert_tracker t;
	struct dl_plan *p;

	dl_alert_tracker_init(&t);
	p = plan1(DL_VERDICT_AT_RISK, 100);
	ck_assert_int_eq(dl_alert_prime(&t, p), 0);
	dl_plan_free(p);
	/* the previous slurmctld told at_risk: not again; hopeless is news,
	 * after the interval counted from the restored plan */
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 110), 110, 60),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_HOPELESS, 120), 120, 60),
			 DL_ALERT_NONE);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_HOPELESS, 160), 160, 60),
			 DL_ALERT_HOPELESS);
	dl_alert_tracker_free(&t);
	/* an outcome in the restored plan was told before */
	dl_alert_tracker_init(&t);
	p = plan_done(900, 950);
	ck_assert_int_eq(dl_alert_prime(&t, p), 0);
	dl_plan_free(p);
	ck_assert_int_eq(step(&t, plan_done(900, 960), 960, 0), DL_ALERT_NONE);
	dl_alert_tracker_free(&t);
	ck_assert_int_eq(dl_alert_prime(NULL, NULL), EINVAL);
}
END_TEST

START_TEST(forgets_and_many)
{
	struct dl_alert_tracker t;
	struct dl_plan *p = dl_plan_new(3);
	struct dl_alert *a = NULL;
	uint32_t n = 0;

	dl_alert_tracker_init(&t);
	for (uint32_t i = 0; i < 3; i++) {
		p->jobs[i].job_id = 30 - 10 * i; /* 30, 20, 10 */
		p->jobs[i].phase = DL_MAP;
		p->jobs[i].deadline = 100;
		p->jobs[i].tasks[DL_MAP] = 1;
		p->jobs[i].verdict =
			i == 1 ? DL_VERDICT_ON_TRACK : DL_VERDICT_AT_RISK;
	}
	p->jobs[2].reduce_id = 11;
	dl_plan_finalize(p);
	ck_assert_int_eq(dl_alert_scan(&t, p, 5, 0, &a, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(t.n, 3);
	ck_assert(t.jobs[0].job_id < t.jobs[1].job_id &&
		  t.jobs[1].job_id < t.jobs[2].job_id);
	free(a);
	dl_plan_free(p);
	/* an empty plan forgets them all: the same job alerts again when it
	 * comes back (a new job with a reused id) */
	p = dl_plan_new(0);
	ck_assert_int_eq(dl_alert_scan(&t, p, 6, 0, &a, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(a);
	ck_assert_uint_eq(t.n, 0);
	dl_plan_free(p);
	ck_assert_int_eq(step(&t, plan1(DL_VERDICT_AT_RISK, 7), 7, 0),
			 DL_ALERT_AT_RISK);
	ck_assert_int_eq(dl_alert_scan(&t, NULL, 0, 0, &a, &n), EINVAL);
	ck_assert_int_eq(dl_alert_scan(NULL, NULL, 0, 0, &a, &n), EINVAL);
	dl_alert_tracker_free(&t);
}
END_TEST

START_TEST(mail_opt_in)
{
	ck_assert(dl_alert_mail_wanted(DL_ALERT_AT_RISK, DL_MAIL_WANT_TROUBLE));
	ck_assert(
		dl_alert_mail_wanted(DL_ALERT_HOPELESS, DL_MAIL_WANT_TROUBLE));
	ck_assert(!dl_alert_mail_wanted(DL_ALERT_AT_RISK, DL_MAIL_WANT_END));
	ck_assert(dl_alert_mail_wanted(DL_ALERT_MET, DL_MAIL_WANT_END));
	ck_assert(dl_alert_mail_wanted(DL_ALERT_MISSED, DL_MAIL_WANT_END));
	ck_assert(!dl_alert_mail_wanted(DL_ALERT_MISSED, DL_MAIL_WANT_TROUBLE));
	ck_assert(!dl_alert_mail_wanted(DL_ALERT_MET, 0));
	ck_assert(!dl_alert_mail_wanted(DL_ALERT_NONE, ~0u));
	ck_assert(dl_alert_mail_user_ok("alice"));
	ck_assert(dl_alert_mail_user_ok("alice@example.org"));
	ck_assert(!dl_alert_mail_user_ok(NULL));
	ck_assert(!dl_alert_mail_user_ok(""));
	ck_assert(!dl_alert_mail_user_ok("-oQ/tmp/x"));
	ck_assert(!dl_alert_mail_user_ok("a b"));
	ck_assert(!dl_alert_mail_user_ok("a\nb"));
}
END_TEST

START_TEST(subject_and_env)
{
	struct dl_alert a;
	char buf[256], small[24], *env[DL_ALERT_ENV_MAX];
	int n;
	bool saw_expl = false, saw_reduce = false, saw_event = false;

	memset(&a, 0, sizeof(a));
	a.kind = DL_ALERT_HOPELESS;
	a.job_id = 12;
	a.reduce_id = 13;
	a.deadline = 1700000000;
	snprintf(a.user, sizeof(a.user), "alice");
	snprintf(a.name, sizeof(a.name), "wc");
	snprintf(a.verdict, sizeof(a.verdict), "hopeless");
	snprintf(a.explain, sizeof(a.explain),
		 "needs 40 CPUs from now, café closes");
	dl_alert_subject(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "Slurm Job_id=12+13 Name=wc Deadline hopeless: "
			      "needs 40 CPUs from now, café closes");
	/* cut short: still valid UTF-8 */
	dl_alert_subject(&a, small, sizeof(small));
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	n = dl_alert_env(&a, env, DL_ALERT_ENV_MAX);
	ck_assert_int_eq(n, 11);
	ck_assert_ptr_null(env[n]);
	for (int i = 0; i < n; i++) {
		if (!strcmp(env[i], "DEADLINE_EXPLANATION=needs 40 CPUs from "
				    "now, café closes"))
			saw_expl = true;
		if (!strcmp(env[i], "DEADLINE_REDUCE_JOB_ID=13"))
			saw_reduce = true;
		if (!strcmp(env[i], "DEADLINE_EVENT=hopeless"))
			saw_event = true;
		free(env[i]);
	}
	ck_assert(saw_expl && saw_reduce && saw_event);
	/* too little room: what fits, NULL-terminated */
	n = dl_alert_env(&a, env, 3);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(env[0], "SLURM_JOB_ID=12");
	ck_assert_ptr_null(env[2]);
	free(env[0]);
	free(env[1]);
	ck_assert_int_eq(dl_alert_env(NULL, env, 3), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alert");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rises_alert_once);
	tcase_add_test(tc, rate_limit_defers);
	tcase_add_test(tc, outcomes);
	tcase_add_test(tc, prime_after_restart);
	tcase_add_test(tc, forgets_and_many);
	tcase_add_test(tc, mail_opt_in);
	tcase_add_test(tc, subject_and_env);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
