/*
 * test_triage.c - Policy=triage and Policy=edf: the optimistic task
 * length, Moore and Hodgson's worked example on one CPU (EDF lets two jobs
 * be late, triage one; and any order letting one be late makes it 7/3 of
 * EDF's mean lateness), a job that cannot make it even alone, hysteresis
 * through the previous plan, where hopeless jobs rank, capacity held by
 * jobs without deadlines, MaxDeadlineShare, and plain EDF.
 */
#include <math.h>
#include <string.h>

#include "common/plan/decide.h"
#include "common/policy/policy.h"
#include "common/policy/triage.h"
#include "fixtures.h"

#define T0 1000.0 /* now in these tests: a time since the epoch */

static void w_init(struct fx_world *w, uint32_t nodes, uint32_t cpus)
{
	memset(w, 0, sizeof(*w));
	fx_cluster(&w->cl, nodes, cpus, 0);
	for (uint32_t i = 0; i < nodes; i++)
		w->cl.nodes[i].up = true;
	w->cfg = fx_config();
}

/* A one-task job whose task length is known exactly (a prior without
 * spread), due at `deadline`. */
/* A job of `ntasks` maps of a known length, submitted at T0. */
static struct dl_job *w_tasks(struct fx_world *w, uint64_t id, uint32_t ntasks,
			      double len, double deadline)
{
	struct dl_job *j = fx_job(id, ntasks, T0, T0 + deadline);

	j->phase[DL_MAP].prior_mean = len;
	j->phase[DL_MAP].prior_p90 = len;
	w->jobs[w->n++] = j;
	return j;
}

static struct dl_job *w_task(struct fx_world *w, uint64_t id, double len,
			     double deadline)
{
	return w_tasks(w, id, 1, len, deadline);
}

/* HopelessSlack=0: a given-up job lends nothing and waits behind the
 * feasible ones, for the tests of where it ranks then. */
static void no_lending(struct fx_world *w)
{
	ck_assert_int_eq(dl_config_set(&w->cfg, "HopelessSlack", "0", NULL, 0),
			 0);
}

/* n of the job's unstarted maps wait for a begin time (sbatch --begin). */
static void w_defer(struct dl_job *j, uint32_t n, double until)
{
	j->phase[DL_MAP].deferred = n;
	j->phase[DL_MAP].deferred_until = until;
}

static void w_plan(struct fx_world *w, const char *policy, double now,
		   const struct dl_plan *prev)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = now,
				     .prev = prev};
	char err[256] = "";

	ck_assert_int_eq(
		dl_config_set(&w->cfg, "Policy", policy, err, sizeof(err)), 0);
	if (w->plan != prev)
		dl_plan_free(w->plan);
	w->plan = dl_policy_plan(&in, err, sizeof(err));
	ck_assert_msg(w->plan != NULL, "plan failed: %s", err);
}

START_TEST(optimistic_length)
{
	double mean = 100, sd = 50, cv2 = 0.25, s = sqrt(log1p(cv2));

	/* no spread, or no quantile: the mean */
	ck_assert_double_eq(dl_triage_length(mean, 0, 0.25, 1), mean);
	ck_assert_double_eq(dl_triage_length(mean, sd, 0, 1), mean);
	/* the median of the log-normal with that mean and spread */
	ck_assert_double_eq_tol(dl_triage_length(mean, sd, 0.5, 1),
				mean / sqrt(1 + cv2), 1e-9);
	/* the lower quartile, z = -0.6745 */
	ck_assert_double_eq_tol(dl_triage_length(mean, sd, 0.25, 1),
				mean * exp(-s * s / 2 - 0.6744897502 * s),
				1e-6);
	/* four waves average out: half the way back to the mean */
	ck_assert_double_eq_tol(
		dl_triage_length(mean, sd, 0.25, 4),
		mean + (dl_triage_length(mean, sd, 0.25, 1) - mean) / 2, 1e-9);
	ck_assert(dl_triage_length(mean, sd, 0.1, 1) < mean);
	ck_assert_double_eq(dl_triage_length(0, sd, 0.25, 1), 0);
	ck_assert_double_eq(dl_triage_length(NAN, sd, 0.25, 1), 0);
}
END_TEST

/* Moore and Hodgson's example on one machine: processing times 20, 60, 30,
 * 40 s due 30, 80, 90, 110 s from now.  In deadline order the third is late;
 * dropping the longest so far (60) leaves the others on time.  EDF makes
 * the third and fourth late. */
static void mh_jobs(struct fx_world *w)
{
	w_init(w, 1, 1);
	w_task(w, 1, 20, 30);
	w_task(w, 2, 60, 80);
	w_task(w, 3, 30, 90);
	w_task(w, 4, 40, 110);
}

START_TEST(moore_hodgson_example)
{
	struct fx_world w;
	const struct dl_plan_job *j2;

	mh_jobs(&w);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(fx_world_get(&w, 4)->verdict, DL_VERDICT_ON_TRACK);
	j2 = fx_world_get(&w, 2);
	ck_assert_int_eq(j2->verdict, DL_VERDICT_HOPELESS);
	ck_assert_int_eq(j2->cls, DL_CLASS_HOPELESS);
	ck_assert_msg(strstr(j2->explain, "cannot meet its deadline"), "%s",
		      j2->explain);
	ck_assert_double_eq(j2->hopeless_since, T0);
	/* feasible in deadline order, the hopeless one last */
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 1);
	ck_assert_uint_eq(fx_world_get(&w, 3)->rank, 2);
	ck_assert_uint_eq(fx_world_get(&w, 4)->rank, 3);
	ck_assert_uint_eq(j2->rank, 4);
	/* feasible jobs are urgent with every task allowed; the hopeless
	 * one too, after them and before jobs without deadlines
	 * (HopelessRank=above; hopeless_rank_and_aging tests below) */
	ck_assert(fx_world_get(&w, 3)->urgent);
	ck_assert_uint_eq(fx_world_get(&w, 3)->alloc, 1);
	ck_assert_uint_eq(fx_world_get(&w, 3)->alloc_for_need, 1);
	ck_assert(j2->urgent && j2->managed);
	ck_assert_uint_eq(j2->alloc, 1);
	ck_assert_uint_eq(j2->alloc_for_need, 1);
	ck_assert_msg(strstr(j2->explain, "after feasible deadline jobs"), "%s",
		      j2->explain);
	/* predicted finishes in the triaged order */
	ck_assert_double_eq_tol(fx_world_get(&w, 4)->predicted_finish, T0 + 90,
				1e-9);
	ck_assert_double_eq_tol(j2->predicted_finish, T0 + 150, 1e-9);

	/* EDF keeps the order and lets two be late */
	w_plan(&w, "edf", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_AT_RISK);
	ck_assert_int_eq(fx_world_get(&w, 4)->verdict, DL_VERDICT_AT_RISK);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert(fx_world_get(&w, 4)->urgent);
	ck_assert_double_eq_tol(fx_world_get(&w, 4)->predicted_finish, T0 + 150,
				1e-9);
	fx_world_free(&w);
}
END_TEST

/* Meeting more deadlines can cost the late jobs more than twice EDF's
 * mean lateness, whatever the scheduler: on Moore and Hodgson's example
 * every order of the four jobs that lets only one be late lets job 2 be 70
 * s late, where EDF lets two be 20 and 40 s late (mean 30).  Checked over
 * the 24 orders (one CPU: idle time only delays; pre-emption does not
 * help either, since the job ending last ends at 150 and only job 2 is
 * due later than 110), then against both policies' predictions. */
START_TEST(fewer_late_costs_lateness)
{
	static const double len[4] = {20, 60, 30, 40},
			    due[4] = {30, 80, 90, 110};
	int best_late = 5;
	double best_mean = INFINITY, edf_mean;
	struct fx_world w;

	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++)
			for (int c = 0; c < 4; c++) {
				int d = 6 - a - b - c, order[4] = {a, b, c, d};
				int nlate = 0;
				double t = 0, sum = 0;

				if (a == b || a == c || b == c || d < 0 ||
				    d > 3 || d == a || d == b || d == c)
					continue;
				for (int i = 0; i < 4; i++) {
					t += len[order[i]];
					if (t > due[order[i]]) {
						nlate++;
						sum += t - due[order[i]];
					}
				}
				if (nlate < best_late ||
				    (nlate == best_late &&
				     sum / nlate < best_mean)) {
					best_late = nlate;
					best_mean = nlate ? sum / nlate : 0;
				}
			}
	ck_assert_int_eq(best_late, 1);
	ck_assert_double_eq(best_mean, 70);

	mh_jobs(&w);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_double_eq_tol(fx_world_get(&w, 2)->predicted_finish -
					(T0 + 80),
				best_mean, 1e-9);
	w_plan(&w, "edf", T0, NULL);
	edf_mean = ((fx_world_get(&w, 3)->predicted_finish - (T0 + 90)) +
		    (fx_world_get(&w, 4)->predicted_finish - (T0 + 110))) /
		   2;
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq_tol(edf_mean, 30, 1e-9);
	/* 7/3 of EDF's mean, for any order meeting three deadlines */
	ck_assert(best_mean > 2 * edf_mean);
	fx_world_free(&w);
}
END_TEST

START_TEST(impossible_alone_goes_itself)
{
	struct fx_world w;
	struct dl_job *big;
	const struct dl_plan_job *pj;

	/* 2 CPUs.  Job 1: four 10 s tasks due at 20; job 2: one 30 s task
	 * due at 19, which cannot make it even alone.  Job 1 has more work,
	 * so plain Moore-Hodgson would drop it; the alone test drops job 2
	 * and job 1 keeps its deadline. */
	w_init(&w, 1, 2);
	big = fx_job(1, 4, T0, T0 + 20);
	big->phase[DL_MAP].prior_mean = big->phase[DL_MAP].prior_p90 = 10;
	w.jobs[w.n++] = big;
	w_task(&w, 2, 30, 19);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 1);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_msg(strstr(pj->explain, "even alone"), "%s", pj->explain);
	ck_assert_uint_eq(pj->rank, 2); /* after the feasible job */
	/* due at 25, after job 1: behind it, it makes no job late, so it
	 * keeps its place (late, urgent) rather than wait behind every
	 * feasible job */
	w.jobs[1]->soft_deadline = T0 + 25;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
	ck_assert_msg(strstr(pj->explain, "even alone"), "%s", pj->explain);
	ck_assert(pj->urgent);
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert_double_eq(pj->hopeless_since, 0);
	fx_world_free(&w);
}
END_TEST

/* A task of an exact length about to end frees its CPU then, not
 * OverdueFloor x its length later: job 2 (one 100 s task due at 105) gets
 * the CPU job 1's task frees at T0 + 1 and ends at T0 + 101.  Floored at
 * 10 s, it looked late (T0 + 110).  A length not known exact (no p90)
 * keeps the floor. */
START_TEST(task_about_to_end_frees_its_cpu)
{
	struct fx_world w;
	struct dl_job *one;
	const struct dl_plan_job *pj;

	for (int exact = 1; exact >= 0; exact--) {
		w_init(&w, 1, 1);
		one = w_task(&w, 1, 100, 1000);
		fx_run(one, DL_MAP, 1, T0 - 99, 0);
		one->phase[DL_MAP].running[0].node = 0;
		if (!exact)
			one->phase[DL_MAP].prior_p90 = 0;
		w_task(&w, 2, 100, 105);
		w_plan(&w, "triage", T0, NULL);
		pj = fx_world_get(&w, 2);
		if (exact) {
			ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
			ck_assert_double_eq_tol(pj->predicted_finish, T0 + 101,
						1e-9);
		} else {
			ck_assert_int_ne(pj->verdict, DL_VERDICT_ON_TRACK);
			ck_assert_double_eq_tol(pj->predicted_finish, T0 + 110,
						1e-9);
		}
		fx_world_free(&w);
	}
}
END_TEST

START_TEST(deadline_passed)
{
	struct fx_world w;
	const struct dl_plan_job *pj;
	struct dl_plan *first;
	struct dl_job *two;

	/* job 2's deadline has passed with one task left: it keeps its place
	 * while that costs no other job its deadline (job 1 still ends at
	 * T0 + 30, due T0 + 50), as EDF would run it */
	w_init(&w, 1, 1);
	w_task(&w, 1, 10, 50);
	w_task(&w, 2, 10, 5); /* due before now */
	w_plan(&w, "triage", T0 + 10, NULL);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert(pj->urgent);
	ck_assert_double_eq(pj->hopeless_since, 0);
	ck_assert_msg(strstr(pj->explain, "deadline passed 5s ago"), "%s",
		      pj->explain);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 30,
				1e-9);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	fx_world_free(&w);

	/* job 1 due at T0 + 25 would miss it behind job 2: job 2 is given up
	 * (after job 1), and stays given up the next cycle */
	w_init(&w, 1, 1);
	no_lending(&w);
	w_task(&w, 1, 10, 25);
	w_task(&w, 2, 10, 5);
	w_plan(&w, "triage", T0 + 10, NULL);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert_double_eq(pj->hopeless_since, T0 + 10);
	ck_assert_msg(strstr(pj->explain, "after feasible deadline jobs"), "%s",
		      pj->explain);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 20,
				1e-9);
	first = w.plan;
	w.plan = NULL;
	w_plan(&w, "triage", T0 + 11, first);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, T0 + 10);
	dl_plan_free(first);
	fx_world_free(&w);

	/* two tasks left: given up at once, though job 1 could spare them;
	 * PassedAhead=all keeps it too; PassedAhead=none gives up a job with
	 * one task left as well */
	w_init(&w, 1, 1);
	no_lending(&w);
	w_task(&w, 1, 10, 50);
	two = fx_job(2, 2, T0, T0 + 5);
	two->phase[DL_MAP].prior_mean = two->phase[DL_MAP].prior_p90 = 5;
	w.jobs[w.n++] = two;
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, T0 + 10);
	ck_assert_int_eq(dl_config_set(&w.cfg, "PassedAhead", "all", NULL, 0),
			 0);
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, 0);
	fx_world_free(&w);
	w_init(&w, 1, 1);
	no_lending(&w);
	w_task(&w, 1, 10, 50);
	w_task(&w, 2, 10, 5);
	ck_assert_int_eq(dl_config_set(&w.cfg, "PassedAhead", "none", NULL, 0),
			 0);
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, T0 + 10);
	ck_assert_int_ne(dl_config_set(&w.cfg, "PassedAhead", "some", NULL, 0),
			 0);
	fx_world_free(&w);

	/* LateAhead=no gives it up at once too; the slack lent then brings
	 * it back before job 1 */
	w_init(&w, 1, 1);
	w_task(&w, 1, 10, 50);
	w_task(&w, 2, 10, 5);
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "no", NULL, 0), 0);
	no_lending(&w);
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, T0 + 10);
	/* with HopelessSlack=0 it goes after job 1 */
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	/* with HopelessSlack=1 (the default) it runs in job 1's 30 s of
	 * slack: first, and job 1 still ends 20 s before its deadline */
	ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessSlack", "1", NULL, 0),
			 0);
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	ck_assert(fx_world_get(&w, 2)->urgent);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 30,
				1e-9);
	/* lending nothing, it goes after job 1 */
	no_lending(&w);
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	/* HopelessSlackLoad=0.5: the load is job 1's need, 10 s of work in
	 * the 40 s to its deadline (0.25; 20 CPU-s arriving an hour is
	 * less), so job 1 lends 1 - 0.25 / 0.5 = 0.5 of its 30 s of slack,
	 * 15 s >= 10 s: first again */
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "HopelessSlackLoad", "0.5", NULL, 0), 0);
	w_plan(&w, "triage", T0 + 10, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 30,
				1e-9);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "HopelessSlackLoad", "0", NULL, 0), 0);
	/* EDF runs the late one first */
	w_plan(&w, "edf", T0 + 10, NULL);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	fx_world_free(&w);
}
END_TEST

/* 1 CPU held by a job without deadline until T0 + 3; job 1, one 4-s task
 * due at T0 + 5.5 (it could make it alone), is predicted to end at T0 + 7
 * even first in deadline order; job 2, one 10-s task, is due at
 * T0 + due2. */
static void tiny_late_jobs(struct fx_world *w, double due2)
{
	struct dl_job *other;

	w_init(w, 1, 1);
	w_task(w, 1, 4, 5.5);
	w_task(w, 2, 10, due2);
	other = fx_job(3, 1, T0, 0); /* no deadline */
	other->phase[DL_MAP].prior_mean = 3;
	fx_run(other, DL_MAP, 1, T0, 0);
	w->jobs[w->n++] = other;
}

START_TEST(late_job_helping_no_one_keeps_its_place)
{
	struct fx_world w;
	const struct dl_plan_job *pj;
	struct dl_plan *first;

	/* Giving job 1 up would make no job meet its deadline that does not
	 * already: it stays first in deadline order, urgent (what EDF does),
	 * not behind every feasible job */
	tiny_late_jobs(&w, 100);
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_AT_RISK);
	ck_assert_int_eq(pj->cls, DL_CLASS_NEED);
	ck_assert_msg(strstr(pj->explain, "late even with short tasks"), "%s",
		      pj->explain);
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert(pj->urgent);
	ck_assert_uint_eq(pj->alloc_for_need, 1);
	ck_assert_double_eq(pj->hopeless_since, 0);
	ck_assert_double_eq_tol(pj->predicted_finish, T0 + 7, 1e-9);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	/* the next cycle judges it afresh: still kept, not given up */
	first = w.plan;
	w_plan(&w, "triage", T0 + 1, first);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_AT_RISK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 1);
	dl_plan_free(first);
	fx_world_free(&w);
}
END_TEST

/* The cycle after T0, following w's plan: job 1 is still given up, since
 * T0 (not since the new cycle: HopelessAging counts from there). */
static void still_given_up_next_cycle(struct fx_world *w)
{
	struct dl_plan *first = w->plan;

	w->plan = NULL;
	w_plan(w, "triage", T0 + 1, first);
	ck_assert_int_eq(fx_world_get(w, 1)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_double_eq(fx_world_get(w, 1)->hopeless_since, T0);
	dl_plan_free(first);
}

/* LateAheadMaxArrivals.  One node of 2 CPUs: job 1 has two 4-s tasks due
 * at T0 + 5.5, one running since T0; the other CPU runs a 3-s task of job
 * 3 (no deadline), so job 1's second task ends at T0 + 7, late at its
 * place, though alone it would make it.  Job 2 (10 s, due at T0 + 100) is
 * on time either way, so giving job 1 up helps no job present. */
static void running_late_jobs(struct fx_world *w, const char *max_arrivals)
{
	struct dl_job *late, *other;

	w_init(w, 1, 2);
	late = fx_job(1, 2, T0, T0 + 5.5);
	late->phase[DL_MAP].prior_mean = late->phase[DL_MAP].prior_p90 = 4;
	fx_run(late, DL_MAP, 1, T0, 0);
	w->jobs[w->n++] = late;
	w_task(w, 2, 10, 100);
	other = fx_job(3, 1, T0, 0); /* no deadline */
	other->phase[DL_MAP].prior_mean = other->phase[DL_MAP].prior_p90 = 3;
	fx_run(other, DL_MAP, 1, T0, 0);
	w->jobs[w->n++] = other;
	ck_assert_int_eq(dl_config_set(&w->cfg, "LateAheadMaxArrivals",
				       max_arrivals, NULL, 0),
			 0);
}

/* Job 1's verdict with LateAheadMaxArrivals at `limit`. */
static enum dl_verdict verdict_at_limit(struct fx_world *w, double limit)
{
	char text[32];

	snprintf(text, sizeof(text), "%.17g", limit);
	ck_assert_int_eq(
		dl_config_set(&w->cfg, "LateAheadMaxArrivals", text, NULL, 0),
		0);
	w_plan(w, "triage", T0, NULL);
	return fx_world_get(w, 1)->verdict;
}

START_TEST(late_ahead_max_arrivals)
{
	struct fx_world w;
	const struct dl_plan_job *pj;

	/* no limit: kept at its place, as EDF would run it */
	running_late_jobs(&w, "10");
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_AT_RISK);
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert_double_eq(pj->hopeless_since, 0);
	fx_world_free(&w);
	/* arrivals at or above the limit (0: any rate): it runs a task, so
	 * it is given up, and says why; job 2 goes first (nothing lent) */
	running_late_jobs(&w, "0");
	no_lending(&w);
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_double_eq(pj->hopeless_since, T0);
	ck_assert_msg(strstr(pj->explain, "late at its place: it would end "
					  "2s after it") &&
			      strstr(pj->explain, "(LateAheadMaxArrivals: "
						  "arrivals at ") &&
			      strstr(pj->explain, "after feasible deadline "
						  "jobs, about 2s late"),
		      "%s", pj->explain);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_uint_eq(pj->rank, 2);
	still_given_up_next_cycle(&w);
	fx_world_free(&w);
	/* the limit is on the share of the last hour, not counted in full
	 * while that hour is learnt: just above it, the job is kept */
	running_late_jobs(&w, "10");
	w_plan(&w, "triage", T0, NULL);
	{
		double share =
			w.plan->arrivals.rate / w.plan->stats.capacity_cpus;

		ck_assert(share > 0);
		ck_assert_int_eq(verdict_at_limit(&w, share * 1.01),
				 DL_VERDICT_AT_RISK);
		ck_assert_int_eq(verdict_at_limit(&w, share * 0.99),
				 DL_VERDICT_HOPELESS);
	}
	fx_world_free(&w);
	/* running no task yet, it keeps its place at any rate */
	tiny_late_jobs(&w, 100);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "LateAheadMaxArrivals", "0", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_AT_RISK);
	ck_assert_uint_eq(pj->rank, 1);
	fx_world_free(&w);
	/* with LateAhead=no it is given up for that rule, as before, at
	 * any rate of arrivals */
	running_late_jobs(&w, "0");
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "no", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_msg(strstr(pj->explain, "(LateAhead=no)"), "%s", pj->explain);
	fx_world_free(&w);
}
END_TEST

START_TEST(late_ahead_no_gives_up_a_kept_job)
{
	struct fx_world w;
	const struct dl_plan_job *pj;

	/* LateAhead=no: job 1, late at its place though giving it up helps
	 * no one, is given up like a demoted job: hopeless, after job 2 */
	tiny_late_jobs(&w, 100);
	no_lending(&w);
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "no", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_int_eq(pj->cls, DL_CLASS_HOPELESS);
	ck_assert_msg(strstr(pj->explain, "given up (LateAhead=no)"), "%s",
		      pj->explain);
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert_double_eq(pj->hopeless_since, T0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	/* the next cycle keeps it given up (hysteresis): it is not feasible
	 * with mean lengths */
	still_given_up_next_cycle(&w);
	/* cannot make it even alone: given up with that explanation */
	w.jobs[0]->phase[DL_MAP].prior_mean = 8;
	w.jobs[0]->phase[DL_MAP].prior_p90 = 8;
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_msg(strstr(pj->explain, "even alone"), "%s", pj->explain);
	ck_assert_uint_eq(pj->rank, 2);
	/* and given up since then, cycle after cycle (HopelessAging counts
	 * from there) */
	still_given_up_next_cycle(&w);
	/* the default keeps it ahead, late */
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "yes", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 1);
	fx_world_free(&w);
}
END_TEST

/* Job 2, past its deadline, has run both maps and has three 5-s reduce
 * tasks to start; job 1 (10 s, due in 40 s) can spare them. */
static void passed_reduce_jobs(struct fx_world *w, uint32_t maps_done)
{
	struct dl_job *two;

	w_init(w, 1, 1);
	w_task(w, 1, 10, 50);
	two = fx_job(2, 2, T0, T0 + 5);
	two->phase[DL_MAP].prior_mean = two->phase[DL_MAP].prior_p90 = 5;
	fx_done(two, DL_MAP, maps_done, 5, 0);
	ck_assert_int_eq(dl_phase_init(two, DL_REDUCE, 3, 1, 0), 0);
	two->phase[DL_REDUCE].prior_mean = 5;
	two->phase[DL_REDUCE].prior_p90 = 5;
	w->jobs[w->n++] = two;
}

/* Plans at T0 + 10 with PassedAheadReduce=`limit`; job 2's row. */
static const struct dl_plan_job *plan_reduce_limit(struct fx_world *w,
						   const char *limit)
{
	ck_assert_int_eq(
		dl_config_set(&w->cfg, "PassedAheadReduce", limit, NULL, 0), 0);
	w_plan(w, "triage", T0 + 10, NULL);
	return fx_world_get(w, 2);
}

START_TEST(deadline_passed_reduce)
{
	struct fx_world w;
	const struct dl_plan_job *pj;

	/* PassedAheadReduce=0: three tasks left, given up behind job 1 */
	passed_reduce_jobs(&w, 2);
	no_lending(&w);
	pj = plan_reduce_limit(&w, "0");
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert_double_eq(pj->hopeless_since, T0 + 10);
	/* up to 4 reduce tasks: it keeps its place and job 1 still makes
	 * it (ends at T0 + 35) */
	pj = plan_reduce_limit(&w, "4");
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert_double_eq(pj->hopeless_since, 0);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 35,
				1e-9);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	/* a bound below the three tasks: given up */
	ck_assert_uint_eq(plan_reduce_limit(&w, "2")->rank, 2);
	/* PassedAhead=none overrides it */
	ck_assert_int_eq(dl_config_set(&w.cfg, "PassedAhead", "none", NULL, 0),
			 0);
	ck_assert_uint_eq(plan_reduce_limit(&w, "4")->rank, 2);
	ck_assert_int_ne(
		dl_config_set(&w.cfg, "PassedAheadReduce", "-1", NULL, 0), 0);
	fx_world_free(&w);

	/* a map not yet run: its reduce has not begun, given up */
	passed_reduce_jobs(&w, 1);
	no_lending(&w);
	pj = plan_reduce_limit(&w, "4");
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert_double_eq(pj->hopeless_since, T0 + 10);
	fx_world_free(&w);

	/* job 1 due at T0 + 30 would miss behind the reduce: given up */
	passed_reduce_jobs(&w, 2);
	w.jobs[0]->soft_deadline = T0 + 30;
	ck_assert_uint_eq(plan_reduce_limit(&w, "4")->rank, 2);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	fx_world_free(&w);
}
END_TEST

START_TEST(late_ahead_no_keeps_a_job_late_on_a_guess)
{
	struct fx_world w;
	const struct dl_plan_job *pj;
	struct dl_phase *red;

	/* LateAhead=no: job 1 also has a reduce whose length nobody knows
	 * (the map's length times the cost ratio stands in): late on a guess
	 * is not known to be late, so it keeps its place as with the
	 * default */
	tiny_late_jobs(&w, 100);
	no_lending(&w);
	ck_assert_int_eq(dl_phase_init(w.jobs[0], DL_REDUCE, 1, 1, 0), 0);
	w.jobs[0]->reduce_cost = 0.1; /* alone it would make it */
	red = &w.jobs[0]->phase[DL_REDUCE];
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "no", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_AT_RISK);
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert_double_eq(pj->hopeless_since, 0);
	ck_assert(!pj->given_up_late);
	/* with the reduce's length known (history), it is given up */
	red->prior_mean = 1;
	red->prior_p90 = 1;
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_msg(strstr(pj->explain, "given up (LateAhead=no)"), "%s",
		      pj->explain);
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert(pj->given_up_late);
	fx_world_free(&w);
}
END_TEST

START_TEST(late_ahead_no_judges_a_given_up_job_as_it_gave_it_up)
{
	struct fx_world w;
	struct dl_plan *first;
	const struct dl_plan_job *pj;

	/* job 1 (mean 4 s, sd 4 s: median 2.8 s) after job 3's 4-s task
	 * ends late even with short tasks (T0 + 6.8, due T0 + 5.5 with the
	 * 1-s tolerance): given up at T0.  Judged again by the same test
	 * once that task ended (T0 + 3), it meets its deadline with short
	 * tasks (T0 + 5.8) and comes back, though with its mean length it
	 * would not (T0 + 7) */
	tiny_late_jobs(&w, 100);
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "no", NULL, 0), 0);
	w.jobs[0]->phase[DL_MAP].prior_mean = 4;
	w.jobs[0]->phase[DL_MAP].prior_p90 = 4 + 1.2816 * 4;
	w.jobs[2]->phase[DL_MAP].prior_mean = 4;
	w_plan(&w, "triage", T0, NULL);
	ck_assert(fx_world_get(&w, 1)->given_up_late);
	ck_assert_double_eq(fx_world_get(&w, 1)->hopeless_since, T0);
	first = w.plan;
	w.plan = NULL;
	w.jobs[2]->phase[DL_MAP].nrunning = 0; /* its task ended */
	w_plan(&w, "triage", T0 + 3, first);
	pj = fx_world_get(&w, 1);
	ck_assert_msg(pj->verdict == DL_VERDICT_AT_RISK ||
			      pj->verdict == DL_VERDICT_ON_TRACK,
		      "%d %s", pj->verdict, pj->explain);
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert_double_eq(pj->hopeless_since, 0);
	dl_plan_free(first);
	fx_world_free(&w);
}
END_TEST

START_TEST(kept_job_goes_before_an_on_time_one)
{
	struct fx_world w;

	/* Job 2 (10 s, due at T0 + 15.5) ends at T0 + 17 behind job 1, at
	 * T0 + 13 without it.  Job 1 is late anyway, so it is given up, not
	 * job 2, though job 2 has more work */
	tiny_late_jobs(&w, 15.5);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_double_eq_tol(fx_world_get(&w, 2)->predicted_finish, T0 + 13,
				1e-9);
	fx_world_free(&w);
}
END_TEST

START_TEST(kept_job_does_not_crowd_out_others)
{
	struct fx_world w;

	/* 1 CPU.  Job 2 (8 s, due at T0 + 10), job 1 (30 s, due at T0 + 20,
	 * which it cannot make even alone), job 3 (6 s, due at T0 + 25): jobs
	 * 2 and 3 both make it once job 1 is given up.  The fluid first cut
	 * must not count job 1's work against them (it would give up job 2,
	 * the most work of the two) */
	w_init(&w, 1, 1);
	w_task(&w, 1, 30, 20);
	w_task(&w, 2, 8, 10);
	w_task(&w, 3, 6, 25);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_msg(strstr(fx_world_get(&w, 1)->explain, "even alone"), "%s",
		      fx_world_get(&w, 1)->explain);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq_tol(fx_world_get(&w, 3)->predicted_finish, T0 + 14,
				1e-9);
	fx_world_free(&w);
}
END_TEST

START_TEST(hysteresis)
{
	struct fx_world w;
	struct dl_plan *first;
	struct dl_job *j2;

	mh_jobs(&w);
	w_plan(&w, "triage", T0, NULL);
	first = w.plan;
	w.plan = NULL;
	ck_assert_int_eq(
		fx_world_get(&(struct fx_world){.plan = first}, 2)->verdict,
		DL_VERDICT_HOPELESS);
	/* job 2's tasks turn out shorter: 45 s on average, 20 s in the
	 * optimistic quantile.  Fresh, triage would keep it (20+20+30+40 by
	 * 110); after the previous plan gave up on it, it must be feasible
	 * with mean lengths, which it is not (job 3 would end at 95 > 90) */
	j2 = w.jobs[1];
	j2->phase[DL_MAP].prior_mean = 45;
	j2->phase[DL_MAP].prior_p90 = 45 + 1.2816 * 40;
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "TriageQuantile", "0.05", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	w_plan(&w, "triage", T0, first);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, T0);
	/* with short enough tasks on average it comes back */
	j2->phase[DL_MAP].prior_mean = 5;
	j2->phase[DL_MAP].prior_p90 = 5;
	w_plan(&w, "triage", T0, first);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, 0);
	ck_assert_msg(strstr(fx_world_get(&w, 2)->explain, "before its "
							   "deadline"),
		      "%s", fx_world_get(&w, 2)->explain);
	dl_plan_free(first);
	fx_world_free(&w);
}
END_TEST

/* Readmission must pass Moore-Hodgson's own test too.  Job 1 (30 s
 * exactly, due at 32) meets its deadline; job 2 (mean 50 s, optimistic
 * 20 s, due at 40) meets its own only on optimistic lengths, and only
 * with job 1 given up.  On mean lengths job 2 is late anyway, so job 1
 * harms no job that meets its deadline there: judged on mean lengths
 * alone it came back, was given up again by the next Moore-Hodgson, and
 * flipped every cycle. */
START_TEST(readmission_does_not_flip)
{
	struct fx_world w;
	struct dl_plan *prev;
	struct dl_job *j2;

	w_init(&w, 1, 1);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "TriageQuantile", "0.05", NULL, 0), 0);
	w_task(&w, 1, 30, 32);
	j2 = w_task(&w, 2, 50, 40);
	j2->phase[DL_MAP].prior_p90 = 50 + 1.2816 * 26;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_int_ne(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	for (int cycle = 1; cycle <= 3; cycle++) {
		prev = w.plan;
		w.plan = NULL;
		w_plan(&w, "triage", T0 + cycle, prev);
		dl_plan_free(prev);
		ck_assert_msg(fx_world_get(&w, 1)->verdict ==
				      DL_VERDICT_HOPELESS,
			      "cycle %d: job 1 %s", cycle,
			      fx_world_get(&w, 1)->explain);
		ck_assert_double_eq(fx_world_get(&w, 1)->hopeless_since, T0);
		ck_assert_int_ne(fx_world_get(&w, 2)->verdict,
				 DL_VERDICT_HOPELESS);
	}
	fx_world_free(&w);
}
END_TEST

/* Two candidates for readmission in one cycle.  Given up in the first
 * plan (jobs 2 and 3, the longest: without them jobs 1 and 4 are on
 * time), they turn out shorter.
 * Job 2, tried first (least late in the previous plan), meets its own
 * deadline but would make job 1, which meets its deadline on mean
 * lengths, miss it: it stays given up.  Job 3 is then judged against the
 * jobs known to meet their deadline, each at its own deadline: due after
 * job 1 it harms none and comes back; due before it, it would make job 1
 * late on mean lengths -- not on optimistic ones, so that test alone
 * would let it back -- and stays out. */
START_TEST(readmission_of_two_candidates)
{
	for (int harmful = 0; harmful <= 1; harmful++) {
		struct fx_world w;
		struct dl_plan *first;
		struct dl_job *j2, *j3;

		w_init(&w, 1, 1);
		ck_assert_int_eq(dl_config_set(&w.cfg, "TriageQuantile", "0.25",
					       NULL, 0),
				 0);
		/* job 1: 10 s on average, 7.9 s optimistic (sd 3 s) */
		w_task(&w, 1, 10, 14)->phase[DL_MAP].prior_p90 =
			10 + 1.2816 * 3;
		j2 = w_task(&w, 2, 30, 35);
		j3 = w_task(&w, 3, 40, 45);
		w_task(&w, 4, 5, 50); /* job 3 ahead of it makes it late */
		w_plan(&w, "triage", T0, NULL);
		ck_assert_int_eq(fx_world_get(&w, 1)->verdict,
				 DL_VERDICT_ON_TRACK);
		ck_assert_int_eq(fx_world_get(&w, 2)->verdict,
				 DL_VERDICT_HOPELESS);
		ck_assert_msg(fx_world_get(&w, 3)->verdict ==
				      DL_VERDICT_HOPELESS,
			      "job 3: %s", fx_world_get(&w, 3)->explain);
		first = w.plan;
		w.plan = NULL;
		j2->phase[DL_MAP].prior_mean = j2->phase[DL_MAP].prior_p90 = 5;
		j2->soft_deadline = T0 + 10;
		j3->phase[DL_MAP].prior_mean = j3->phase[DL_MAP].prior_p90 = 5;
		j3->soft_deadline = T0 + (harmful ? 12 : 45);
		w_plan(&w, "triage", T0 + 1, first);
		ck_assert_int_eq(fx_world_get(&w, 1)->verdict,
				 DL_VERDICT_ON_TRACK);
		ck_assert_int_eq(fx_world_get(&w, 4)->verdict,
				 DL_VERDICT_ON_TRACK);
		ck_assert_int_eq(fx_world_get(&w, 2)->verdict,
				 DL_VERDICT_HOPELESS);
		ck_assert_msg(fx_world_get(&w, 3)->verdict ==
				      (harmful ? DL_VERDICT_HOPELESS
					       : DL_VERDICT_ON_TRACK),
			      "harmful %d: job 3 %s", harmful,
			      fx_world_get(&w, 3)->explain);
		dl_plan_free(first);
		fx_world_free(&w);
	}
}
END_TEST

START_TEST(hopeless_rank_and_aging)
{
	struct fx_world w;
	struct dl_plan *first;

	mh_jobs(&w);
	no_lending(&w);
	/* HopelessRank=below: after jobs without deadlines until aged */
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "HopelessRank", "below", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert(!fx_world_get(&w, 2)->urgent);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc_for_need, 0);
	ck_assert_msg(strstr(fx_world_get(&w, 2)->explain,
			     "after jobs without deadlines for 30m"),
		      "%s", fx_world_get(&w, 2)->explain);
	/* HopelessRank=above: before jobs without deadlines at once */
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "HopelessRank", "above", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert(fx_world_get(&w, 2)->urgent);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 4);
	/* below again, and hopeless since 0: urgent once 30 minutes old */
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "HopelessRank", "below", NULL, 0), 0);
	first = w.plan;
	w.plan = NULL;
	w_plan(&w, "triage", T0 + 1799, first);
	ck_assert(!fx_world_get(&w, 2)->urgent);
	w_plan(&w, "triage", T0 + 1800, first);
	ck_assert(fx_world_get(&w, 2)->urgent);
	ck_assert_double_eq(fx_world_get(&w, 2)->hopeless_since, T0);
	/* the others' deadlines have passed too, each with one task left:
	 * they keep their places, harming no job with a deadline ahead */
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 1);
	ck_assert_uint_eq(fx_world_get(&w, 3)->rank, 2);
	ck_assert_uint_eq(fx_world_get(&w, 4)->rank, 3);
	ck_assert_double_eq(fx_world_get(&w, 3)->hopeless_since, 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 4);
	ck_assert_msg(
		strstr(fx_world_get(&w, 2)->explain,
		       "first of given-up jobs (aged 30m, HopelessAging)"),
		"%s", fx_world_get(&w, 2)->explain);
	/* LateAhead=no gives them up now: aged, job 2 goes before them,
	 * though it has the most pending work */
	ck_assert_int_eq(dl_config_set(&w.cfg, "LateAhead", "no", NULL, 0), 0);
	w_plan(&w, "triage", T0 + 1800, first);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 1);
	ck_assert_double_eq(fx_world_get(&w, 3)->hopeless_since, T0 + 1800);
	dl_plan_free(first);
	fx_world_free(&w);
}
END_TEST

/* Aging, 1 CPU: job 1 (one 100-s task due at T0 + 5) cannot make it even
 * alone and is given up at T0.  Every 10 s two jobs arrive: one 12-s task
 * due 15 s later, feasible only if it runs first, and one 5-s task due 2 s
 * later, which cannot make it and would make the first late: given up
 * too.  Least pending work
 * first, each newcomer given up would pass job 1, cycle after cycle, for
 * ever.  Once job 1 has been given up for HopelessAging (60 s) it ranks
 * first among the jobs given up: right after the feasible job, whose
 * deadline it does not cost, and it says why. */
START_TEST(aged_job_not_postponed_by_later_given_up_jobs)
{
	struct fx_world w;
	struct dl_plan *prev = NULL;
	const struct dl_plan_job *pj, *feasible, *small;
	char before[sizeof(pj->explain)] = "";

	w_init(&w, 1, 1);
	ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessAging", "60", NULL, 0),
			 0);
	w_task(&w, 1, 100, 5);
	w.n += 2;
	for (uint32_t k = 0; k <= 12; k++) {
		double now = T0 + 10.0 * k;
		struct dl_job *f = fx_job(100 + k, 1, now, now + 15);
		struct dl_job *g = fx_job(200 + k, 1, now, now + 2);

		f->phase[DL_MAP].prior_mean = f->phase[DL_MAP].prior_p90 = 12;
		g->phase[DL_MAP].prior_mean = g->phase[DL_MAP].prior_p90 = 5;
		for (uint32_t i = 1; i <= 2; i++)
			if (w.jobs[i])
				dl_job_free(w.jobs[i]);
		w.jobs[1] = f;
		w.jobs[2] = g;
		w.plan = NULL;
		w_plan(&w, "triage", now, prev);
		dl_plan_free(prev);
		prev = w.plan;
		pj = fx_world_get(&w, 1);
		feasible = fx_world_get(&w, 100 + k);
		small = fx_world_get(&w, 200 + k);
		ck_assert_double_eq(pj->hopeless_since, T0);
		ck_assert(pj->urgent && small->urgent);
		ck_assert_int_eq(small->verdict, DL_VERDICT_HOPELESS);
		/* the feasible job first, on time, whatever job 1's age */
		ck_assert_uint_eq(feasible->rank, 1);
		ck_assert_int_eq(feasible->verdict, DL_VERDICT_ON_TRACK);
		if (now - T0 < 60) {
			/* least pending work first: the newcomer passes */
			ck_assert_uint_eq(small->rank, 2);
			ck_assert_uint_eq(pj->rank, 3);
			snprintf(before, sizeof(before), "%s", pj->explain);
			continue;
		}
		/* aged: no job given up after it passes it any more */
		ck_assert_uint_eq(pj->rank, 2);
		ck_assert_uint_eq(small->rank, 3);
		ck_assert_msg(
			strstr(pj->explain, "first of given-up jobs (aged "),
			"%s", pj->explain);
		ck_assert_msg(strstr(pj->explain, ", HopelessAging)"), "%s",
			      pj->explain);
		ck_assert_msg(!strstr(pj->explain, "..."), "cut: %s",
			      pj->explain);
		if (k == 6)
			ck_assert_msg(strstr(pj->explain, "(aged 60s,"), "%s",
				      pj->explain);
	}
	/* before it aged, it said it waited after the feasible jobs */
	ck_assert_msg(strstr(before, "after feasible deadline jobs"), "%s",
		      before);
	w.plan = prev;
	fx_world_free(&w);
}
END_TEST

/* HopelessPromise, 1 CPU, a 10-s lookahead grid: job 1 (one 100-s task
 * due at T0 + 5) cannot make it even alone and is given up at T0, behind
 * job 100 (a 12-s task due 15 s later): it is predicted to end at T0 + 120
 * (on the grid), and with HopelessPromise=yes that is its promise.  Every
 * 10 s another such feasible job arrives.  By default each passes job 1
 * for ever (it has nothing given up to age against).  Promised, job 1
 * still lets them pass while they are due by T0 + 120; the first due after
 * it (at T0 + 110, due T0 + 125) runs after it and is late, as the promise
 * costs.  No task runs in this test, so the promise passes: at T0 + 130 it
 * says so, and once more than a lookahead step late (T0 + 140) it is made
 * again from that cycle's prediction, behind that cycle's feasible job.
 * With HopelessPromiseMargin=1 the promise adds the predicted lateness
 * once more: T0 + 120 + 115 = T0 + 235, not passed within the test. */
static void promise_run(struct fx_world *w, const char *margin, double promise)
{
	struct dl_plan *prev = NULL;

	w_init(w, 1, 1);
	if (promise > 0) {
		ck_assert_int_eq(dl_config_set(&w->cfg, "HopelessPromise",
					       "yes", NULL, 0),
				 0);
		ck_assert_int_eq(dl_config_set(&w->cfg, "HopelessPromiseMargin",
					       margin, NULL, 0),
				 0);
	}
	/* a promise is made again once it is a lookahead step late: 10 s
	 * here, so one cycle shows it passed */
	ck_assert_int_eq(dl_config_set(&w->cfg, "LookaheadStep", "10", NULL, 0),
			 0);
	w_task(w, 1, 100, 5);
	w->n++;
	for (uint32_t k = 0; k <= 14; k++) {
		double now = T0 + 10.0 * k;
		struct dl_job *f = fx_job(100 + k, 1, now, now + 15);
		const struct dl_plan_job *pj, *fj;

		f->phase[DL_MAP].prior_mean = f->phase[DL_MAP].prior_p90 = 12;
		if (w->jobs[1])
			dl_job_free(w->jobs[1]);
		w->jobs[1] = f;
		w->plan = NULL;
		w_plan(w, "triage", now, prev);
		dl_plan_free(prev);
		prev = w->plan;
		pj = fx_world_get(w, 1);
		fj = fx_world_get(w, 100 + k);
		/* given up at T0, past its deadline from T0 + 10 on */
		ck_assert_int_eq(pj->verdict,
				 k ? DL_VERDICT_LATE : DL_VERDICT_HOPELESS);
		ck_assert_double_eq(pj->hopeless_since, T0);
		if (!(promise > 0)) {
			ck_assert_double_eq(pj->promise, 0);
			ck_assert_uint_eq(fj->rank, 1);
			ck_assert_uint_eq(pj->rank, 2);
			ck_assert_msg(strstr(pj->explain,
					     "after feasible deadline jobs"),
				      "%s", pj->explain);
			continue;
		}
		if (now > promise + 10) { /* broken: made again */
			ck_assert_msg(pj->promise >= now + 112 &&
					      pj->promise <= now + 130,
				      "%f", pj->promise - now);
			promise = pj->promise;
		}
		ck_assert_double_eq_tol(pj->promise, promise, 1.0);
		if (now + 15 <= promise) {
			ck_assert_uint_eq(fj->rank, 1);
			ck_assert_int_eq(fj->verdict, DL_VERDICT_ON_TRACK);
			ck_assert_uint_eq(pj->rank, 2);
		} else {
			ck_assert_uint_eq(pj->rank, 1);
			ck_assert_uint_eq(fj->rank, 2);
			ck_assert_int_ne(fj->verdict, DL_VERDICT_ON_TRACK);
		}
		ck_assert_msg(strstr(pj->explain,
				     now <= promise ? "promised to end in "
						    : "promised end passed "),
			      "%s", pj->explain);
		ck_assert_msg(strstr(pj->explain, " (HopelessPromise)"), "%s",
			      pj->explain);
		ck_assert_msg(!strstr(pj->explain, "..."), "cut: %s",
			      pj->explain);
		/* the feasible job is the only one ahead, whether job 1 runs
		 * before it or not */
		ck_assert_msg(strstr(fj->explain, "deadline order 1 of 1"),
			      "%s", fj->explain);
		ck_assert_msg(!strstr(fj->explain, "never"), "%s", fj->explain);
	}
	w->plan = prev;
}

START_TEST(hopeless_promise)
{
	struct fx_world w;

	promise_run(&w, NULL, 0);
	fx_world_free(&w);
	promise_run(&w, "0", T0 + 120);
	fx_world_free(&w);
	promise_run(&w, "1", T0 + 235);
	fx_world_free(&w);
}
END_TEST

START_TEST(arrival_rate_and_spare_slack)
{
	double r = 0;

	/* constant arrivals of 2 CPU-seconds a second, a minute apart: the
	 * rate converges to 2 (the sum of a geometric series, exactly
	 * 60 / (W (1 - e^(-60/W))) * 2 in the steady state, ~2.0167) */
	for (int i = 1; i <= 2000; i++)
		r = dl_triage_arrival_rate(r, 60.0 * (i - 1), 60.0 * i, 120,
					   3600);
	ck_assert_double_eq_tol(r, 120 / (3600 * (1 - exp(-60.0 / 3600))),
				1e-6);
	/* nothing arrives for one window: 1/e of it is left */
	ck_assert_double_eq_tol(dl_triage_arrival_rate(2, 0, 3600, 0, 3600),
				2 / M_E, 1e-12);
	/* degenerate input: no decay backwards, bad values ignored */
	ck_assert_double_eq(dl_triage_arrival_rate(2, 100, 50, 0, 3600), 2);
	ck_assert_double_eq(dl_triage_arrival_rate(NAN, 0, 10, 36, 3600), 0.01);
	ck_assert_double_eq(dl_triage_arrival_rate(-1, 0, 10, NAN, 3600), 0);
	ck_assert_double_eq(dl_triage_arrival_rate(2, 0, 10, 36, 0), 2);
	/* while the rate is learnt: the same arrivals for 30 minutes from
	 * the first plan (at 60 s) count 0.79 of the 2 CPU-seconds a
	 * second; scaled by what the window has seen, 1 - e^(-1740/3600),
	 * 2.07 (the steady state's 2.0167 within 3 %) */
	r = 0;
	for (int i = 1; i <= 30; i++)
		r = dl_triage_arrival_rate(r, 60.0 * (i - 1), 60.0 * i, 120,
					   3600);
	ck_assert(r < 0.8);
	ck_assert_double_eq_tol(r / dl_triage_arrival_seen(60, 1800, 3600),
				2.0167, 0.06);
	ck_assert_double_eq_tol(dl_triage_arrival_seen(0, 3600, 3600),
				1 - 1 / M_E, 1e-12);
	ck_assert(dl_triage_arrival_seen(0, 1e6, 3600) == 1);
	/* at least DL_TRIAGE_ARRIVAL_MIN_SEEN: the first plan counts the
	 * whole queue as arrived */
	ck_assert_double_eq_tol(dl_triage_arrival_seen(100, 100, 3600),
				1 - exp(-DL_TRIAGE_ARRIVAL_MIN_SEEN / 3600),
				1e-12);
	ck_assert_double_eq(dl_triage_arrival_seen(500, 100, 3600),
			    dl_triage_arrival_seen(100, 100, 3600));
	/* bad input: the rate as learnt */
	ck_assert_double_eq(dl_triage_arrival_seen(NAN, 100, 3600), 1);
	ck_assert_double_eq(dl_triage_arrival_seen(0, INFINITY, 3600), 1);
	ck_assert_double_eq(dl_triage_arrival_seen(0, 100, 0), 1);
	ck_assert_double_eq(dl_triage_arrival_seen(0, 100, NAN), 1);
	/* due in 100 s, ends in 10: 90 s of slack; with arrivals taking a
	 * quarter of the cluster, 25 s of it is theirs */
	ck_assert_double_eq(dl_triage_spare_slack(1100, 1010, 1000, 0), 90);
	ck_assert_double_eq(dl_triage_spare_slack(1100, 1010, 1000, 0.25), 65);
	ck_assert_double_eq(dl_triage_spare_slack(1100, 1010, 1000, 0.95), 0);
	ck_assert_double_eq(dl_triage_spare_slack(1100, 1010, 1000, NAN), 90);
	ck_assert_double_eq(dl_triage_spare_slack(1100, 1200, 1000, 0), 0);
}
END_TEST

/* Of the work arriving in the next `left` seconds, the share due within
 * them: a job of slack v arriving evenly is, for the first left - v. */
START_TEST(work_due_within)
{
	struct dl_plan_slacks h = {0};

	/* no history: all of it, as if every job were due as it arrives */
	ck_assert_double_eq(dl_triage_competing(NULL, 100), 1);
	ck_assert_double_eq(dl_triage_competing(&h, 100), 1);
	h.v[0] = 0;
	h.v[1] = 25;
	h.v[2] = 100;
	h.v[3] = 400;
	h.n = 4;
	/* (1 + 0.75 + 0 + 0) / 4 */
	ck_assert_double_eq_tol(dl_triage_competing(&h, 100), 0.4375, 1e-12);
	/* (1 + 0.95 + 0.8 + 0.2) / 4 */
	ck_assert_double_eq_tol(dl_triage_competing(&h, 500), 0.7375, 1e-12);
	/* far ahead, nearly every arrival is due before */
	ck_assert(dl_triage_competing(&h, 1e9) > 0.999);
	/* a NaN slack does not count; a negative one is due at once */
	h.v[2] = NAN;
	h.v[3] = -5;
	ck_assert_double_eq_tol(dl_triage_competing(&h, 100), 2.75 / 3, 1e-12);
	/* due now or past, or no time at all: all of it */
	ck_assert_double_eq(dl_triage_competing(&h, 0), 1);
	ck_assert_double_eq(dl_triage_competing(&h, -10), 1);
	ck_assert_double_eq(dl_triage_competing(&h, NAN), 1);
	ck_assert_double_eq(dl_triage_competing(&h, INFINITY), 1);
	/* a count beyond the ring reads the ring only: the 60 slots never
	 * written hold 0, due at once */
	h.n = DL_PLAN_SLACKS + 5;
	ck_assert_double_eq_tol(
		dl_triage_competing(&h, 100),
		(2.75 + (DL_PLAN_SLACKS - 4)) / (DL_PLAN_SLACKS - 1), 1e-12);
}
END_TEST

/* The lending tests' jobs: job 1 (10 s, due in due1), job 2 (50 s, due
 * in 40 s: cannot make it) and job 3 (30 s, due in 45 s), lengths known. */
static void slack_jobs(struct fx_world *w, double due1)
{
	w_task(w, 1, 10, due1);
	w_task(w, 2, 50, 40);
	w_task(w, 3, 30, 45);
}

/* HopelessSlack lends only the slack the work arriving meanwhile will not
 * need.  On one CPU: job 1 (10 s, due in 100 s), job 2 (50 s, due in 40 s:
 * impossible), job 3 (30 s, due in 45 s).  Job 2 gives way to job 3; then
 * job 3 ends at 30 s and job 1 at 40 s.  Job 2 before job 1 ends job 1 at
 * 90 s: within its 60 s of slack while little work arrives, not when the
 * work arriving takes 80 % of the CPU: of it, (10/100 + 1 + 85/100) / 3 =
 * 0.65 is due before job 1 by the three jobs' slacks (90, 0 and 15 s), 54
 * s of the 100 s to its deadline, which leaves 6 s of its slack. */
START_TEST(hopeless_slack_leaves_room_for_arrivals)
{
	struct fx_world w;
	struct dl_plan *prev;

	w_init(&w, 1, 1);
	slack_jobs(&w, 100);
	ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessSlack", "1", NULL, 0),
			 0);
	/* the first plan counts only these three: 90 CPU-s an hour */
	w_plan(&w, "triage", T0, NULL);
	ck_assert_double_eq_tol(w.plan->arrivals.rate, 90 / 3600.0, 1e-12);
	ck_assert_double_eq(w.plan->arrivals.at, T0);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert(fx_world_get(&w, 2)->urgent);
	ck_assert_msg(strstr(fx_world_get(&w, 2)->explain,
			     "still runs, in the slack of feasible deadline "
			     "jobs"),
		      "%s", fx_world_get(&w, 2)->explain);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 90,
				1e-9);
	/* deadline work has been arriving at 0.8 CPU: no room to lend */
	prev = dl_plan_new(0);
	ck_assert_ptr_nonnull(prev);
	prev->policy = DL_POLICY_TRIAGE;
	prev->arrivals.rate = 0.8;
	prev->arrivals.at = T0;
	dl_plan_finalize(prev);
	w_plan(&w, "triage", T0, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 3);
	ck_assert_msg(strstr(fx_world_get(&w, 2)->explain,
			     "after feasible deadline jobs"),
		      "%s", fx_world_get(&w, 2)->explain);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 40,
				1e-9);
	/* HopelessSlack=0 lends nothing whatever arrives */
	no_lending(&w);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	dl_plan_free(prev);
	fx_world_free(&w);
}
END_TEST

/* Plans at T0: job 2 is given up and goes just before job `ahead_of` (0:
 * after the feasible jobs) at `rank`; job 1 is predicted to end at
 * `finish1`. */
static void plan_lent(struct fx_world *w, uint64_t ahead_of, uint32_t rank,
		      double finish1)
{
	w_plan(w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(w, 2)->ahead_of, ahead_of);
	ck_assert_uint_eq(fx_world_get(w, 2)->rank, rank);
	ck_assert_double_eq_tol(fx_world_get(w, 1)->predicted_finish, finish1,
				1e-9);
}

/* Sets key=val, plans at T0 and checks where job 2 goes (0: after the
 * feasible jobs). */
static void lends_with(struct fx_world *w, const char *key, const char *val,
		       uint64_t ahead_of)
{
	ck_assert_int_eq(dl_config_set(&w->cfg, key, val, NULL, 0), 0);
	w_plan(w, "triage", T0, NULL);
	ck_assert_uint_eq(fx_world_get(w, 2)->ahead_of, ahead_of);
}

/* HopelessSlackWaiting: where a job without a deadline waits for the same
 * nodes, a given-up job borrows that share of a feasible job's spare slack
 * (all of it by default; here HopelessSlack=0).  The jobs of the test above
 * with job 1 due in 400 s: job 2 before it ends it at 90 s, 50 s later,
 * within 0.2 of its spare slack: 400 - 40 less 6.6 s for the work arriving
 * (90 CPU-s an hour, of which (10/400 + 1 + 385/400) / 3 = 0.66 is due
 * before job 1 by the slacks of the three jobs, 390, 0 and 15 s). */
START_TEST(hopeless_slack_where_work_without_deadline_waits)
{
	struct fx_world w;
	int other;

	w_init(&w, 1, 1);
	slack_jobs(&w, 400);
	no_lending(&w);
	ck_assert(w.cfg.hopeless_slack_waiting == 1);
	/* nothing waits: nothing lent */
	plan_lent(&w, 0, 3, T0 + 40);
	/* waiting in a partition without the node: nothing lent */
	other = dl_cluster_add_partition(&w.cl, "other");
	ck_assert_int_eq(other, 1);
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 1), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	/* waiting for the node: job 2 runs in job 1's slack */
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
	plan_lent(&w, 1, 2, T0 + 90);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 3)->rank, 1);
	/* 0.1 of 353 s is 35 s, less than the 50 s it would cost */
	lends_with(&w, "HopelessSlackWaiting", "0.1", 0);
	/* the reserve off does not turn it off */
	ck_assert_int_eq(dl_config_set(&w.cfg, "BlockingReserve", "0", NULL, 0),
			 0);
	lends_with(&w, "HopelessSlackWaiting", "0.2", 1);
	/* 0 lends nothing */
	lends_with(&w, "HopelessSlackWaiting", "0", 0);
	dl_partset_free(&w.cl.other_waiting);
	fx_world_free(&w);
}
END_TEST

/* HopelessSlackMaxArrivals: lent only while deadline work arrives at less
 * than that share of the CPUs, counted in full while the rate is being
 * learnt.  The jobs of hopeless_slack_backlog: the first plan counts their
 * 90 CPU-s as arrived within the last DL_TRIAGE_ARRIVAL_MIN_SEEN, 0.025 /
 * (1 - e^(-1/6)) = 0.163 of the one CPU; learnt for ten hours, 0.025. */
START_TEST(hopeless_slack_max_arrivals)
{
	struct fx_world w;
	struct dl_plan *prev;

	w_init(&w, 1, 1);
	slack_jobs(&w, 100);
	ck_assert(w.cfg.hopeless_slack_max_arrivals == 0.8);
	plan_lent(&w, 1, 2, T0 + 90);
	ck_assert_double_eq(w.plan->arrivals.since, T0);
	lends_with(&w, "HopelessSlackMaxArrivals", "0.16", 0);
	lends_with(&w, "HopelessSlackMaxArrivals", "0.17", 1);
	/* learnt since ten hours before: 0.025 */
	prev = dl_plan_new(0);
	ck_assert_ptr_nonnull(prev);
	prev->policy = DL_POLICY_TRIAGE;
	prev->arrivals.at = T0;
	prev->arrivals.since = T0 - 36000;
	dl_plan_finalize(prev);
	ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessSlackMaxArrivals",
				       "0.025", NULL, 0),
			 0);
	w_plan(&w, "triage", T0, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	ck_assert_double_eq(w.plan->arrivals.since, T0 - 36000);
	ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessSlackMaxArrivals",
				       "0.026", NULL, 0),
			 0);
	w_plan(&w, "triage", T0, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	/* a previous plan that learnt nothing (another policy's): learning
	 * starts with this one */
	prev->arrivals.at = 0;
	w_plan(&w, "triage", T0, prev);
	ck_assert_double_eq(w.plan->arrivals.since, T0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	prev->arrivals.at = T0;
	/* a previous plan from after now (a clock set back): learning
	 * starts again */
	prev->arrivals.since = T0 + 5;
	w_plan(&w, "triage", T0, prev);
	ck_assert_double_eq(w.plan->arrivals.since, T0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	/* where work without deadlines waits, HopelessSlackWaiting lends
	 * whatever arrives */
	lends_with(&w, "HopelessSlackMaxArrivals", "0", 0);
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	dl_partset_free(&w.cl.other_waiting);
	dl_plan_free(prev);
	fx_world_free(&w);
}
END_TEST

/* HopelessSlackBacklog: lent only while the given-up jobs' pending work
 * would take every CPU at most that long: past it the cluster is
 * overloaded and the slack lent is what the next arrivals need.  The jobs
 * of hopeless_slack_leaves_room_for_arrivals with the defaults: job 2,
 * given up, has 50 CPU-s left on one CPU, a backlog of 50 s. */
START_TEST(hopeless_slack_backlog)
{
	struct fx_world w;

	w_init(&w, 1, 1);
	slack_jobs(&w, 100);
	ck_assert(w.cfg.hopeless_slack == 1);
	plan_lent(&w, 1, 2, T0 + 90);
	lends_with(&w, "HopelessSlackBacklog", "49", 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 3);
	lends_with(&w, "HopelessSlackBacklog", "50", 1);
	/* a second job given up (it cannot make it even alone, and at its
	 * place it would make job 1 late), 70 s on one CPU: 120 s in all */
	w_task(&w, 4, 70, 55);
	lends_with(&w, "HopelessSlackBacklog", "119", 0);
	ck_assert_int_eq(fx_world_get(&w, 4)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(&w, 4)->ahead_of, 0);
	lends_with(&w, "HopelessSlackBacklog", "120", 1);
	/* where work without deadlines waits, HopelessSlackWaiting lends
	 * whatever the backlog */
	lends_with(&w, "HopelessSlackBacklog", "0", 0);
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	dl_partset_free(&w.cl.other_waiting);
	fx_world_free(&w);
}
END_TEST

/* HopelessSlack lends only where the lookahead knows every competing job's
 * task length: its harm check is blind to a job whose tasks it guesses
 * (on Alibaba's trace a borrower took the CPUs of small jobs of unknown
 * length the lookahead judged unharmed).  The jobs of
 * hopeless_slack_leaves_room_for_arrivals (job 2 lent before job 1) with
 * job 4, one task of unknown length due in an hour. */
START_TEST(hopeless_slack_needs_known_lengths)
{
	struct fx_world w;
	struct dl_job *j;

	w_init(&w, 2, 1);
	/* node 2 only in partition "side" */
	dl_partset_free(&w.cl.nodes[1].partitions);
	ck_assert_int_eq(dl_cluster_add_partition(&w.cl, "side"), 1);
	ck_assert_int_eq(dl_partset_add(&w.cl.nodes[1].partitions, 1), 0);
	slack_jobs(&w, 100);
	ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessSlack", "1", NULL, 0),
			 0);
	plan_lent(&w, 1, 2, T0 + 90);
	/* job 4's task length unknown, on the same node: nothing lent */
	j = fx_job(4, 1, T0, T0 + 3600);
	j->phase[DL_MAP].time_limit = 600;
	w.jobs[w.n++] = j;
	plan_lent(&w, 0, 4, T0 + 40);
	ck_assert_int_eq(fx_world_get(&w, 4)->verdict, DL_VERDICT_NO_DATA);
	/* its length known: lent again */
	j->phase[DL_MAP].prior_mean = 20;
	j->phase[DL_MAP].prior_p90 = 20;
	plan_lent(&w, 1, 2, T0 + 90);
	/* unknown again, but on the other node: lent */
	j->phase[DL_MAP].prior_mean = j->phase[DL_MAP].prior_p90 = 0;
	j->partition = 1;
	plan_lent(&w, 1, 2, T0 + 90);
	ck_assert_int_eq(fx_world_get(&w, 4)->verdict, DL_VERDICT_NO_DATA);
	/* on job 2's node where work without deadlines waits for it:
	 * HopelessSlackWaiting lends also on guessed lengths */
	j->partition = 0;
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
	plan_lent(&w, 1, 2, T0 + 90);
	dl_partset_free(&w.cl.other_waiting);
	fx_world_free(&w);
}
END_TEST

/* A previous plan's slack history: n recent jobs of slack v each. */
static void prev_slacks(struct dl_plan *prev, uint32_t n, double v)
{
	for (uint32_t i = 0; i < n; i++)
		prev->slacks.v[i] = v;
	prev->slacks.n = n;
	prev->slacks.next = n % DL_PLAN_SLACKS;
}

/* HopelessSlackLoad: lending follows the load, the larger of the arrival
 * share and the share of the CPUs the jobs ahead need until their
 * deadlines.  One CPU, HopelessSlack=0: job 1 (10 s, due in 400 s), job 2
 * (50 s, due in 40 s: impossible), job 3 (30 s, due in 75 s; job 2 before
 * it would make it late).  Job 3 then job 1 end at 30 and 40 s; job 2
 * between them ends job 1 at 90 s, 50 s later.  Load: the arrival share
 * is 90 CPU-s an hour (0.025); job 3 needs 30 / 75 = 0.4 of the CPU until
 * its deadline, jobs 3 and 1 together 40 / 400 = 0.1, so 0.4.  With
 * HopelessSlackLoad=0.5 job 1 lends 1 - 0.4 / 0.5 = 0.2 of its spare
 * slack 400 - 40 - 0.025 x 0.64 x 400 = 354 s (0.64 = (10/400 + 1 +
 * 355/400) / 3 of the work arriving is due before it, by the slacks of
 * the three jobs): 71 s >= 50 s, job 2 runs before it.  Job 3 due in 65 s
 * needs 30 / 65 = 0.46: 1 - 0.46 / 0.5 = 0.077 x 354 s = 27 s < 50 s,
 * job 2 waits.  Deadline work arriving at 0.3 CPU
 * (share 0.325; job 3 due in 75 s), by a history of 61 jobs due as they
 * arrived (slack 0) besides the three (slacks 390, 0 and 45 s): of the
 * work arriving in 400 s, (61 + 10/400 + 1 + 355/400) / 64 = 0.983 is due
 * before job 1, 128 s of its slack; 0.2 x (400 - 40 - 128) = 46 s < 50 s,
 * job 2 waits.  The same rate of jobs due 1,000 s after arriving: only
 * the three count, (10/400 + 1 + 355/400) / 64 = 0.030, 3.9 s; 0.2 x 356
 * = 71 s >= 50 s, job 2 runs before job 1. */
START_TEST(hopeless_slack_load_lends_while_idle)
{
	struct fx_world w;
	struct dl_plan *prev;

	ck_assert_double_eq_tol(dl_triage_lend_share(0, 0.5, 0.1), 0.8, 1e-12);
	ck_assert_double_eq(dl_triage_lend_share(0, 0.5, 0.5), 0);
	ck_assert_double_eq(dl_triage_lend_share(0, 0.5, 0.7), 0);
	ck_assert_double_eq(dl_triage_lend_share(0.25, 0.5, 0.4), 0.25);
	ck_assert_double_eq(dl_triage_lend_share(0, 0.5, 0), 1);
	ck_assert_double_eq(dl_triage_lend_share(0, 0, 0.1), 0);
	ck_assert_double_eq(dl_triage_lend_share(0, 0.5, NAN), 0);
	ck_assert_double_eq(dl_triage_lend_share(0.5, 0.5, INFINITY), 0.5);

	w_init(&w, 1, 1);
	w_task(&w, 1, 10, 400);
	w_task(&w, 2, 50, 40);
	w_task(&w, 3, 30, 75);
	/* HopelessSlack=0 alone lends nothing */
	no_lending(&w);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 3);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "HopelessSlackLoad", "0.5", NULL, 0), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_double_eq_tol(w.plan->arrivals.rate, 90 / 3600.0, 1e-12);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 90,
				1e-9);
	ck_assert_double_eq_tol(fx_world_get(&w, 3)->predicted_finish, T0 + 30,
				1e-9);
	/* job 3 due sooner: the jobs present need more of the CPU */
	w.jobs[2]->soft_deadline = T0 + 65;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 3);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 40,
				1e-9);
	/* job 3 due in 75 s again, but more deadline work arriving */
	w.jobs[2]->soft_deadline = T0 + 75;
	prev = dl_plan_new(0);
	ck_assert_ptr_nonnull(prev);
	prev->policy = DL_POLICY_TRIAGE;
	prev->arrivals.rate = 0.3;
	prev->arrivals.at = T0;
	prev->arrivals.since = T0 - 36000; /* learnt for ten hours */
	prev_slacks(prev, 61, 0);
	dl_plan_finalize(prev);
	w_plan(&w, "triage", T0, prev);
	ck_assert_double_eq_tol(w.plan->arrivals.rate, 0.3 + 90 / 3600.0,
				1e-12);
	ck_assert_uint_eq(w.plan->slacks.n, 64);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 3);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 40,
				1e-9);
	/* the work arriving is due after job 1: it leaves job 1's slack */
	prev_slacks(prev, 61, 1000);
	w_plan(&w, "triage", T0, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->ahead_of, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 90,
				1e-9);
	dl_plan_free(prev);
	fx_world_free(&w);
}
END_TEST

START_TEST(jobs_without_deadline_hold_capacity)
{
	struct fx_world w;
	struct dl_job *other;

	/* 2 CPUs; a job without deadline runs 2 tasks known to take 100 s;
	 * a 2-task deadline job due at 50 cannot make it (giving it up would
	 * help no other deadline job: it stays first, at risk) */
	w_init(&w, 1, 2);
	other = fx_job(1, 2, T0, T0 + 50);
	other->phase[DL_MAP].prior_mean = other->phase[DL_MAP].prior_p90 = 10;
	w.jobs[w.n++] = other;
	other = fx_job(2, 2, T0, 0); /* no deadline */
	other->phase[DL_MAP].prior_mean = 100;
	fx_run(other, DL_MAP, 2, T0, 0);
	w.jobs[w.n++] = other;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_AT_RISK);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 110,
				1e-9);
	ck_assert(!fx_world_get(&w, 2)->managed);
	ck_assert_int_eq(fx_world_get(&w, 2)->cls, DL_CLASS_UNMANAGED);
	/* the same held as the sched plugin sees it: cpus_other with an
	 * end time */
	w.n = 1;
	w.cl.nodes[0].cpus_other = 2;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_AT_RISK);
	ck_assert(!isfinite(fx_world_get(&w, 1)->predicted_finish));
	ck_assert_int_eq(dl_cluster_add_held(&w.cl, 0, 2, 0, T0 + 30), 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish, T0 + 40,
				1e-9);
	w.n = 2;
	fx_world_free(&w);
}
END_TEST

/* Tasks a user or an admin holds (policy/policy.c): the job leaves the
 * plan, shown on_hold; its pending work takes nothing from the others and
 * its running tasks hold their CPUs until start + time limit.  The same
 * for every policy but realtime. */
START_TEST(held_tasks_leave_the_plan)
{
	static const char *const policies[] = {"triage", "edf", "adaptive"};

	for (size_t p = 0; p < sizeof(policies) / sizeof(*policies); p++) {
		struct fx_world w;
		struct dl_job *held;
		const struct dl_plan_job *pj;

		/* 2 CPUs: job 1, 2 tasks of 10 s due at +10; job 2, 4 tasks
		 * of 10 s due at +25 */
		w_init(&w, 1, 2);
		held = w_tasks(&w, 1, 2, 10, 10);
		w_tasks(&w, 2, 4, 10, 25);
		/* not held: job 1 goes first and job 2 cannot make it */
		w_plan(&w, policies[p], T0, NULL);
		ck_assert_int_ne(fx_world_get(&w, 2)->verdict,
				 DL_VERDICT_ON_TRACK);
		held->phase[DL_MAP].held = 2;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_HOLD);
		ck_assert_int_eq(pj->cls, DL_CLASS_UNMANAGED);
		ck_assert(!pj->managed);
		ck_assert_uint_eq(pj->rank, 0);
		ck_assert(isnan(pj->predicted_finish));
		ck_assert_double_eq(pj->deadline, T0 + 10);
		ck_assert_uint_eq(pj->pending[DL_MAP], 2);
		ck_assert_msg(strstr(pj->explain, "held: its 2 unstarted tasks "
						  "wait for a user or an "
						  "admin to release them"),
			      "%s", pj->explain);
		ck_assert_msg(strstr(pj->explain, "(10s to its deadline)"),
			      "%s", pj->explain);
		ck_assert_str_eq(dl_verdict_name(pj->verdict), "on_hold");
		pj = fx_world_get(&w, 2);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
		ck_assert_uint_eq(pj->rank, 1);
		ck_assert_double_eq_tol(pj->predicted_finish, T0 + 20, 1e-9);
		ck_assert_uint_eq(w.plan->njobs, 2);
		ck_assert_uint_eq(w.plan->stats.per_verdict[DL_VERDICT_ON_HOLD],
				  1);
		fx_world_free(&w);

		/* job 1: 4 tasks with a 30-s limit, two running on the node
		 * since T0 - 5, the other two held; job 2 starts when Slurm
		 * expects the CPUs back, at T0 + 25, and ends at T0 + 45 */
		w_init(&w, 1, 2);
		held = w_tasks(&w, 1, 4, 10, 100);
		held->phase[DL_MAP].time_limit = 30;
		for (int k = 0; k < 2; k++)
			ck_assert_int_eq(dl_phase_add_running(
						 &held->phase[DL_MAP], T0 - 5,
						 0, DL_POOL_REGULAR),
					 0);
		held->phase[DL_MAP].held = 2;
		w_tasks(&w, 2, 4, 10, 60);
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_HOLD);
		ck_assert_uint_eq(pj->running[DL_MAP], 2);
		/* (adaptive claims CPUs others hold and predicts from its
		 * need: the lookahead's times are triage's and EDF's) */
		if (p < 2)
			ck_assert_double_eq_tol(
				fx_world_get(&w, 2)->predicted_finish, T0 + 45,
				1e-9);
		/* no time limit: the CPUs are not expected back */
		held->phase[DL_MAP].time_limit = 0;
		w_plan(&w, policies[p], T0, NULL);
		if (p < 2)
			ck_assert(!isfinite(
				fx_world_get(&w, 2)->predicted_finish));
		/* one of the two held, its deadline passed */
		held->phase[DL_MAP].held = 1;
		w_plan(&w, policies[p], T0 + 110, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_HOLD);
		ck_assert_msg(strstr(pj->explain,
				     "held: 1 of its 2 unstarted tasks waits "
				     "for a user or an admin to release it "),
			      "%s", pj->explain);
		ck_assert_msg(strstr(pj->explain, "(10s past its deadline)"),
			      "%s", pj->explain);
		/* released: planned again */
		held->phase[DL_MAP].held = 0;
		w_plan(&w, policies[p], T0, NULL);
		ck_assert_int_ne(fx_world_get(&w, 1)->verdict,
				 DL_VERDICT_ON_HOLD);
		ck_assert(fx_world_get(&w, 1)->managed);
		fx_world_free(&w);
	}
}
END_TEST

/* The placement policies: the on_hold entry comes after their plan, and
 * each placement row still names the job it places. */
START_TEST(held_tasks_leave_placement_plans)
{
	static const char *const policies[] = {"ras", "reverse"};

	for (size_t p = 0; p < sizeof(policies) / sizeof(*policies); p++) {
		struct fx_world w;
		struct dl_job *held;
		const struct dl_plan_job *pj;

		w_init(&w, 2, 2);
		held = w_tasks(&w, 1, 2, 10, 10);
		held->phase[DL_MAP].held = 2;
		w_tasks(&w, 2, 4, 10, 25);
		w_tasks(&w, 3, 2, 10, 40);
		w_plan(&w, policies[p], T0, NULL);
		ck_assert_uint_eq(w.plan->njobs, 3);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_HOLD);
		ck_assert(!pj->managed);
		ck_assert_uint_gt(w.plan->nplace, 0);
		for (uint32_t k = 0; k < w.plan->nplace; k++) {
			uint32_t j = w.plan->place[k].job;

			ck_assert_uint_lt(j, w.plan->njobs);
			ck_assert_uint_ne(w.plan->jobs[j].job_id, 1);
			ck_assert(w.plan->jobs[j].managed);
		}
		fx_world_free(&w);
	}
}
END_TEST

/* Tasks deferred to a begin time (sbatch --begin, a requeued batch job):
 * triage and edf start them no earlier, and every entry says so. */
START_TEST(deferred_tasks_wait_for_their_begin_time)
{
	static const char *const policies[] = {"triage", "edf"};

	for (size_t p = 0; p < sizeof(policies) / sizeof(*policies); p++) {
		struct fx_world w;
		struct dl_job *j;
		const struct dl_plan_job *pj;
		const char *note = " [2 tasks may start only in 50s, their "
				   "begin time]";

		/* 2 CPUs, 4 tasks of 10 s due at +100, 2 of them from +50 */
		w_init(&w, 1, 2);
		j = w_tasks(&w, 1, 4, 10, 100);
		w_defer(j, 2, T0 + 50);
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
		ck_assert_double_eq_tol(pj->predicted_finish, T0 + 60, 1e-9);
		ck_assert_msg(strlen(pj->explain) > strlen(note) &&
				      !strcmp(pj->explain +
						      strlen(pj->explain) -
						      strlen(note),
					      note),
			      "%s", pj->explain);
		/* due at +55: not before the begin time and a task */
		j->soft_deadline = T0 + 55;
		w_plan(&w, policies[p], T0, NULL);
		ck_assert_int_ne(fx_world_get(&w, 1)->verdict,
				 DL_VERDICT_ON_TRACK);
		/* the begin time passed: nothing deferred, no note */
		j->soft_deadline = T0 + 100;
		j->phase[DL_MAP].deferred_until = T0 - 1;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_double_eq_tol(pj->predicted_finish, T0 + 20, 1e-9);
		ck_assert_ptr_null(strstr(pj->explain, "begin time"));
		fx_world_free(&w);
	}
}
END_TEST

/* A job that has not begun (every task deferred to a begin time, none
 * started) is judged from its begin time, as if submitted then: until
 * then it is shown waiting, takes nothing, and every other job's entry is
 * what it would be without it.  Planned early, it cost the others: here
 * job 1, due first from +5, would take the CPUs at +10 and make job 2
 * late.  Started or past its begin time, it is planned as before. */
START_TEST(a_job_not_begun_waits_outside_the_plan)
{
	static const char *const policies[] = {"triage", "edf", "adaptive",
					       "ras", "reverse"};

	for (size_t p = 0; p < sizeof(policies) / sizeof(*policies); p++) {
		struct fx_world w;
		struct dl_job *j1;
		struct dl_plan_job alone;
		const struct dl_plan_job *pj;

		/* 2 CPUs: job 2, 4 tasks of 10 s due at +25, alone */
		w_init(&w, 1, 2);
		w_tasks(&w, 2, 4, 10, 25);
		w_plan(&w, policies[p], T0, NULL);
		alone = *fx_world_get(&w, 2);
		ck_assert_msg(alone.verdict == DL_VERDICT_ON_TRACK, "%s: %s",
			      policies[p], alone.explain);
		/* job 1, 2 tasks of 10 s due at +22, from +5 */
		j1 = w_tasks(&w, 1, 2, 10, 22);
		w_defer(j1, 2, T0 + 5);
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_msg(pj->verdict == DL_VERDICT_WAITING, "%s: %s",
			      policies[p], pj->explain);
		ck_assert_str_eq(dl_verdict_name(pj->verdict), "waiting");
		ck_assert(!pj->managed);
		ck_assert_int_eq(pj->cls, DL_CLASS_UNMANAGED);
		ck_assert(isnan(pj->predicted_finish));
		ck_assert_double_eq(pj->deadline, T0 + 22);
		ck_assert_msg(strstr(pj->explain,
				     "waiting for its begin time, in 5s: no "
				     "task may start before it"),
			      "%s", pj->explain);
		ck_assert_msg(strstr(pj->explain, "(22s to its deadline)"),
			      "%s", pj->explain);
		ck_assert_ptr_null(strstr(pj->explain, "may start only in"));
		ck_assert_uint_eq(w.plan->stats.per_verdict[DL_VERDICT_WAITING],
				  1);
		pj = fx_world_get(&w, 2);
		ck_assert_int_eq(pj->verdict, alone.verdict);
		ck_assert_uint_eq(pj->rank, alone.rank);
		ck_assert_uint_eq(pj->alloc, alone.alloc);
		ck_assert(pj->managed);
		ck_assert_double_eq_tol(pj->predicted_finish,
					alone.predicted_finish, 1e-9);

		/* a begin time that leaves no room: late already */
		j1->phase[DL_MAP].deferred_until = T0 + 15;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
		ck_assert(!pj->managed);
		ck_assert_msg(strstr(pj->explain, "from then (22s to its "
						  "deadline): too late for "
						  "its deadline"),
			      "%s", pj->explain);
		ck_assert_ptr_null(strstr(pj->explain, "may start only in"));
		/* a hard deadline at +22 with a 20-s limit: no start after
		 * +2, so Slurm cancels what the begin time holds back */
		j1->soft_deadline = 0;
		j1->phase[DL_MAP].hard_deadline = T0 + 22;
		j1->phase[DL_MAP].time_limit = 20;
		j1->phase[DL_MAP].deferred_until = T0 + 5;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
		ck_assert_msg(strstr(pj->explain, "too late, past the last "
						  "start Slurm allows"),
			      "%s", pj->explain);
		j1->phase[DL_MAP].hard_deadline = 0;
		j1->phase[DL_MAP].time_limit = 0;
		j1->soft_deadline = T0 + 22;

		/* begun: one task done, the other deferred (a requeued
		 * task): planned, with the note */
		j1->phase[DL_MAP].completed = 1;
		j1->phase[DL_MAP].deferred = 1;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert(pj->managed);
		ck_assert_int_ne(pj->verdict, DL_VERDICT_WAITING);
		ck_assert_msg(strstr(pj->explain, "[1 task may start only in "
						  "5s, its begin time]"),
			      "%s", pj->explain);
		/* not begun, its begin time passed: planned */
		j1->phase[DL_MAP].completed = 0;
		j1->phase[DL_MAP].deferred = 2;
		j1->phase[DL_MAP].deferred_until = T0;
		w_plan(&w, policies[p], T0, NULL);
		ck_assert(fx_world_get(&w, 1)->managed);
		ck_assert_uint_eq(w.plan->stats.per_verdict[DL_VERDICT_WAITING],
				  0);
		fx_world_free(&w);
	}
}
END_TEST

/* The papers' policies know no begin times: what they predict is bounded
 * by them (a deferred task ends no sooner than its begin time and a task),
 * and a job that cannot make its deadline so is late, also when the begin
 * time is past Slurm's start window. */
START_TEST(deferred_tasks_bound_the_papers_policies)
{
	static const char *const policies[] = {"adaptive", "ras", "reverse"};

	for (size_t p = 0; p < sizeof(policies) / sizeof(*policies); p++) {
		struct fx_world w;
		struct dl_job *j;
		const struct dl_plan_job *pj;

		/* 2 CPUs, 4 tasks of 10 s due at +100, 2 of them from +50 */
		w_init(&w, 1, 2);
		j = w_tasks(&w, 1, 4, 10, 100);
		w_defer(j, 2, T0 + 50);
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_msg(pj->verdict == DL_VERDICT_ON_TRACK, "%s: %s",
			      policies[p], pj->explain);
		ck_assert_double_ge(pj->predicted_finish, T0 + 60);
		ck_assert_ptr_nonnull(strstr(pj->explain,
					     "[2 tasks may start only in 50s, "
					     "their begin time]"));
		/* due at +55: not before the begin time and a task */
		j->soft_deadline = T0 + 55;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_msg(pj->verdict == DL_VERDICT_LATE, "%s: %s",
			      policies[p], pj->explain);
		ck_assert_ptr_nonnull(strstr(pj->explain,
					     "their begin time: too late for "
					     "its deadline]"));
		ck_assert_uint_eq(w.plan->stats.per_verdict[DL_VERDICT_LATE],
				  1);
		ck_assert_uint_eq(
			w.plan->stats.per_verdict[DL_VERDICT_ON_TRACK], 0);
		/* due at +100, but a 60-s limit under a hard deadline at +100
		 * lets no task start after +40: Slurm cancels them */
		j->soft_deadline = 0;
		j->phase[DL_MAP].hard_deadline = T0 + 100;
		j->phase[DL_MAP].time_limit = 60;
		w_plan(&w, policies[p], T0, NULL);
		ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_LATE);
		/* the begin time passed: judged as before, no note */
		j->phase[DL_MAP].deferred_until = T0 - 1;
		w_plan(&w, policies[p], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
		ck_assert_ptr_null(strstr(pj->explain, "begin time"));
		fx_world_free(&w);
	}
}
END_TEST

START_TEST(share_cap_applies)
{
	struct fx_world w;
	char err[128];

	/* 4 CPUs, MaxDeadlineShare 50 %: the second job of the account
	 * would take the claim over 2 slots */
	w_init(&w, 1, 4);
	w_task(&w, 1, 100, 150);
	w_task(&w, 2, 100, 150);
	w.jobs[1]->submit = T0 + 1;
	w_task(&w, 3, 100, 150);
	w.jobs[2]->submit = T0 + 2;
	ck_assert_int_eq(dl_config_set(&w.cfg, "MaxDeadlineShare", "0.5", err,
				       sizeof(err)),
			 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert(fx_world_get(&w, 1)->managed);
	ck_assert(fx_world_get(&w, 2)->managed);
	ck_assert(!fx_world_get(&w, 3)->managed);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_CAPPED);
	fx_world_free(&w);
}
END_TEST

/* The array's own limit (--array=...%2): triage plans it 2 wide, so a
 * job the limit makes late is judged so, and the CPUs it cannot use go to
 * the next job; every policy's throttle stays within it. */
START_TEST(own_limit)
{
	static const char *const policies[] = {"triage", "edf", "adaptive",
					       "ras", "reverse"};
	struct fx_world w;
	struct dl_job *limited;
	const struct dl_plan_job *pj;

	/* 8 CPUs.  Job 1: eight 10 s tasks due at 30, 2 at a time: 40 s
	 * even alone.  Job 2: eight 10 s tasks due at 20. */
	w_init(&w, 1, 8);
	limited = w_tasks(&w, 1, 8, 10, 30);
	w_tasks(&w, 2, 8, 10, 20);
	/* without the limit, 8 wide: on time */
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	limited->phase[DL_MAP].max_running = 2;
	w_plan(&w, "triage", T0, NULL);
	pj = fx_world_get(&w, 1);
	ck_assert_uint_eq(pj->alloc, 2);
	ck_assert_int_ne(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_msg(strstr(pj->explain, "even alone"), "%s", pj->explain);
	ck_assert_msg(strstr(pj->explain, "its own limit runs at most 2 of "
					  "its 8 tasks left at once"),
		      "%s", pj->explain);
	/* given up, it runs after job 2's one wave: 10 + 4 x 10 */
	ck_assert_double_eq_tol(pj->predicted_finish - T0, 50, 1e-6);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq_tol(pj->predicted_finish - T0, 10, 1e-6);
	ck_assert_ptr_null(strstr(pj->explain, "own limit"));
	for (size_t i = 0; i < sizeof(policies) / sizeof(*policies); i++) {
		struct dl_decision d[2];

		w_plan(&w, policies[i], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_msg(pj->managed, "%s", policies[i]);
		ck_assert_uint_eq(dl_decide(pj, d), 1);
		ck_assert_msg(d[0].throttle >= 1 && d[0].throttle <= 2,
			      "%s: throttle %u", policies[i], d[0].throttle);
		ck_assert_msg(pj->alloc_for_need <= 2, "%s", policies[i]);
		ck_assert_msg(strstr(pj->explain, "own limit"), "%s: %s",
			      policies[i], pj->explain);
	}
	/* a limit at or above its tasks left changes nothing */
	limited->phase[DL_MAP].max_running = 8;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_ptr_null(strstr(fx_world_get(&w, 1)->explain, "own limit"));
	fx_world_free(&w);
}
END_TEST

/* What an array's own limit keeps it from using goes to the other jobs in
 * the same plan, under every policy: adaptive, ras and reverse used to
 * size the limited job as if it had none, so the cut left those CPUs to
 * nobody's plan. */
START_TEST(own_limit_leaves_the_rest)
{
	static const char *const policies[] = {"triage", "edf", "adaptive",
					       "ras", "reverse"};
	struct fx_world w;

	/* 8 CPUs.  Job 1: sixteen 10 s tasks due at 40, 2 at a time.  Job 2:
	 * eight 10 s tasks due at 100, which one CPU would finish. */
	w_init(&w, 1, 8);
	w_tasks(&w, 1, 16, 10, 40)->phase[DL_MAP].max_running = 2;
	w_tasks(&w, 2, 8, 10, 100);
	for (size_t i = 0; i < sizeof(policies) / sizeof(*policies); i++) {
		const struct dl_plan_job *pj;

		w_plan(&w, policies[i], T0, NULL);
		pj = fx_world_get(&w, 1);
		ck_assert_msg(pj->alloc == 2, "%s: job 1 alloc %u", policies[i],
			      pj->alloc);
		pj = fx_world_get(&w, 2);
		ck_assert_msg(pj->managed && pj->alloc >= 6,
			      "%s: job 2 alloc %u, not the 6 CPUs job 1 "
			      "cannot use",
			      policies[i], pj->alloc);
	}
	fx_world_free(&w);
}
END_TEST

START_TEST(no_data_is_not_judged)
{
	struct fx_world w;
	struct dl_job *j;

	w_init(&w, 1, 1);
	j = fx_job(1, 3, T0, T0 + 5); /* hopeless if it had a length */
	j->phase[DL_MAP].time_limit = 600;
	w.jobs[w.n++] = j;
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_NO_DATA);
	ck_assert(fx_world_get(&w, 1)->urgent);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 3);
	fx_world_free(&w);
}
END_TEST

/* A job nobody has a task length for holds capacity in the lookahead, but
 * its guessed work (half its time limit a task) gives up no job: with it
 * counted, the fluid cut gave up job 1, due first and on time, because
 * 100 tasks of 300 s "had to" run before job 3's deadline. */
START_TEST(unknown_work_gives_up_no_one)
{
	struct fx_world w;
	struct dl_job *unknown, *running;

	w_init(&w, 1, 2);
	w_task(&w, 1, 10, 30);
	unknown = fx_job(2, 100, T0, T0 + 200);
	unknown->phase[DL_MAP].time_limit = 600;
	w.jobs[w.n++] = unknown;
	running = w_task(&w, 3, 5, 250);
	fx_run(running, DL_MAP, 1, T0, 0);
	w_plan(&w, "triage", T0, NULL);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq(fx_world_get(&w, 1)->hopeless_since, 0);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_ON_TRACK);
	fx_world_free(&w);
}
END_TEST

START_TEST(bad_input)
{
	struct fx_world w;
	struct dl_policy_input in;
	char err[128] = "";

	w_init(&w, 1, 1);
	memset(&in, 0, sizeof(in));
	ck_assert_ptr_null(dl_triage_plan(&in, err, sizeof(err)));
	ck_assert(err[0]);
	ck_assert_ptr_null(dl_edf_plan(NULL, err, sizeof(err)));
	in.cluster = &w.cl;
	in.cfg = &w.cfg;
	in.now = NAN;
	ck_assert_ptr_null(dl_triage_plan(&in, err, sizeof(err)));
	in.now = T0; /* no jobs: an empty plan */
	w.plan = dl_triage_plan(&in, err, sizeof(err));
	ck_assert_ptr_nonnull(w.plan);
	ck_assert_uint_eq(w.plan->njobs, 0);
	ck_assert_int_eq(w.plan->policy, DL_POLICY_TRIAGE);
	fx_world_free(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("triage");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, optimistic_length);
	tcase_add_test(tc, moore_hodgson_example);
	tcase_add_test(tc, fewer_late_costs_lateness);
	tcase_add_test(tc, impossible_alone_goes_itself);
	tcase_add_test(tc, task_about_to_end_frees_its_cpu);
	tcase_add_test(tc, deadline_passed);
	tcase_add_test(tc, deadline_passed_reduce);
	tcase_add_test(tc, late_job_helping_no_one_keeps_its_place);
	tcase_add_test(tc, late_ahead_no_gives_up_a_kept_job);
	tcase_add_test(tc, late_ahead_max_arrivals);
	tcase_add_test(tc, late_ahead_no_keeps_a_job_late_on_a_guess);
	tcase_add_test(tc,
		       late_ahead_no_judges_a_given_up_job_as_it_gave_it_up);
	tcase_add_test(tc, kept_job_goes_before_an_on_time_one);
	tcase_add_test(tc, kept_job_does_not_crowd_out_others);
	tcase_add_test(tc, hysteresis);
	tcase_add_test(tc, readmission_does_not_flip);
	tcase_add_test(tc, readmission_of_two_candidates);
	tcase_add_test(tc, hopeless_rank_and_aging);
	tcase_add_test(tc, aged_job_not_postponed_by_later_given_up_jobs);
	tcase_add_test(tc, arrival_rate_and_spare_slack);
	tcase_add_test(tc, work_due_within);
	tcase_add_test(tc, hopeless_slack_leaves_room_for_arrivals);
	tcase_add_test(tc, hopeless_slack_where_work_without_deadline_waits);
	tcase_add_test(tc, hopeless_slack_backlog);
	tcase_add_test(tc, hopeless_promise);
	tcase_add_test(tc, hopeless_slack_max_arrivals);
	tcase_add_test(tc, hopeless_slack_needs_known_lengths);
	tcase_add_test(tc, hopeless_slack_load_lends_while_idle);
	tcase_add_test(tc, jobs_without_deadline_hold_capacity);
	tcase_add_test(tc, held_tasks_leave_the_plan);
	tcase_add_test(tc, held_tasks_leave_placement_plans);
	tcase_add_test(tc, deferred_tasks_wait_for_their_begin_time);
	tcase_add_test(tc, a_job_not_begun_waits_outside_the_plan);
	tcase_add_test(tc, deferred_tasks_bound_the_papers_policies);
	tcase_add_test(tc, share_cap_applies);
	tcase_add_test(tc, own_limit);
	tcase_add_test(tc, own_limit_leaves_the_rest);
	tcase_add_test(tc, no_data_is_not_judged);
	tcase_add_test(tc, unknown_work_gives_up_no_one);
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
