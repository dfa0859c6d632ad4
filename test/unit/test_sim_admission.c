/*
 * test_sim_admission.c - the admission-based policies in the simulator
 * (realtime, rtmr, dc): what each admits and rejects, that a rejected job
 * never runs, the summary's admitted / accept / success counts, the
 * Deadline Constraint test's published deficiencies, and that under
 * realtime every admitted job meets its deadline when tasks stay within
 * their worst case (a seeded random property loop).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "sim/admission.h"
#include "common/simulate/engine.h"
#include "sim/output.h"
#include "sim/policy.h"
#include "sim/spec.h"

struct run {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct dl_config cfg;
	struct sim_engine *e;
	struct sim_summary sum;
};

static bool no_feedback; /* the next go() runs with --no-feedback */

static void go(struct run *r, const char *cluster, const char *workload,
	       const char *policy)
{
	struct sim_options o = {0};
	char err[512] = "";

	o.no_feedback = no_feedback;

	memset(r, 0, sizeof(*r));
	ck_assert_msg(sim_cluster_parse(cluster, strlen(cluster), "cluster",
					NULL, &r->cs, err, sizeof(err)) == 0,
		      "cluster: %s", err);
	ck_assert_msg(sim_workload_parse(workload, strlen(workload), "workload",
					 &r->cs, &r->ws, err, sizeof(err)) == 0,
		      "workload: %s", err);
	r->cfg = fx_config();
	o.seed = 1;
	r->e = sim_engine_new(&r->cs, &r->ws, sim_policy_find(policy), &r->cfg,
			      &o, err, sizeof(err));
	ck_assert_msg(r->e != NULL, "engine: %s", err);
	ck_assert_msg(sim_engine_run(r->e, err, sizeof(err)) == 0, "run: %s",
		      err);
	ck_assert(!r->e->stats.stalled);
	sim_summarize(r->e, &r->sum);
}

static void done(struct run *r)
{
	sim_engine_free(r->e);
	sim_workload_spec_free(&r->ws);
	sim_cluster_spec_free(&r->cs);
	dl_config_free(&r->cfg);
}

static bool never_ran(const struct sim_job *j)
{
	return j->state == SIM_JOB_REJECTED && !j->started[0] &&
	       !j->started[1] && j->unit_seconds == 0 && j->first_start < 0;
}

/* 2 map slots, 1 reduce slot */
static const char *small_typed =
	"{\"slots\":\"typed\",\"nodes\":[{\"count\":1,\"map_slots\":2,"
	"\"reduce_slots\":1}]}";

static const char *const adm_policies[] = {"realtime", "rtmr", "dc"};

START_TEST(registered_as_admission_policies)
{
	for (size_t i = 0; i < 3; i++) {
		const struct sim_policy *p = sim_policy_find(adm_policies[i]);
		char why[256] = "";

		ck_assert_ptr_nonnull(p);
		ck_assert(p->admission);
		ck_assert(p->admit && p->job_end && p->task_end);
		ck_assert_msg(sim_policy_available(p, why, sizeof(why)), "%s",
			      why);
	}
	ck_assert(sim_policy_find("realtime")->may_start);
	ck_assert(sim_policy_find("dc")->typed_only);
}
END_TEST

/* A long task of another program was seen: RTMR's c^max (one per phase,
 * only growing) makes the short job's worst case 100 s and rejects it;
 * realtime's worst case comes from the short program's own bound. */
START_TEST(realtime_admits_what_rtmr_rejects)
{
	static const char *wl =
		"{\"jobs\":["
		"{\"name\":\"etl\",\"arrival\":0,\"maps\":1,"
		"\"map_lengths\":[100],\"map_time_limit\":120,"
		"\"relative_deadline\":1000},"
		"{\"name\":\"query\",\"arrival\":200,\"maps\":1,"
		"\"map_lengths\":[10],\"map_time_limit\":20,"
		"\"relative_deadline\":40}]}";
	struct run rt, rm, dc;
	struct sim_adm_stats st;

	go(&rt, small_typed, wl, "realtime");
	go(&rm, small_typed, wl, "rtmr");
	go(&dc, small_typed, wl, "dc");
	/* realtime: both admitted, both on time */
	ck_assert_int_eq(rt.e->jobs[1].state, SIM_JOB_DONE);
	ck_assert(sim_job_met(&rt.e->jobs[1]));
	ck_assert_uint_eq(rt.sum.admitted, 2);
	ck_assert_double_eq_tol(rt.sum.accept_ratio, 1, 1e-12);
	ck_assert_double_eq_tol(rt.sum.success_ratio, 1, 1e-12);
	/* rtmr: the first job admitted on its time limit (no c^max yet),
	 * the second rejected with c^max = 100 s per task */
	ck_assert_int_eq(rm.e->jobs[0].state, SIM_JOB_DONE);
	ck_assert(never_ran(&rm.e->jobs[1]));
	ck_assert_msg(strstr(rm.e->jobs[1].why, "cannot be guaranteed"), "%s",
		      rm.e->jobs[1].why);
	sim_adm_get_stats(rm.e->pstate, &st);
	ck_assert_double_eq_tol(st.cmax[DL_MAP], 100, 1e-9);
	ck_assert_uint_eq(rm.sum.admitted, 1);
	ck_assert_double_eq_tol(rm.sum.accept_ratio, 0.5, 1e-12);
	ck_assert_double_eq_tol(rm.sum.success_ratio, 1, 1e-12);
	/* dc with the same c^max: n_m^min = ceil(100 / 40) = 3 > 2 slots */
	ck_assert(never_ran(&dc.e->jobs[1]));
	ck_assert_uint_eq(dc.sum.admitted, 1);
	done(&rt);
	done(&rm);
	done(&dc);
}
END_TEST

/* --no-feedback: a job admitted on its 120 s time limit ends after 10 s;
 * with RTMR's feedback (Alg. V) its vectors are rebuilt from the actual
 * end, without it they are not. */
START_TEST(feedback_switch)
{
	static const char *wl =
		"{\"jobs\":["
		"{\"name\":\"short\",\"arrival\":0,\"maps\":2,"
		"\"map_lengths\":[10,10],\"map_time_limit\":120,"
		"\"relative_deadline\":1000},"
		"{\"name\":\"next\",\"arrival\":1,\"maps\":2,"
		"\"map_lengths\":[10,10],\"map_time_limit\":120,"
		"\"relative_deadline\":1000}]}";
	static const char *const pols[] = {"rtmr", "realtime"};
	struct run on, off;
	struct sim_adm_stats s_on, s_off;

	for (int i = 0; i < 2; i++) {
		no_feedback = false;
		go(&on, small_typed, wl, pols[i]);
		no_feedback = true;
		go(&off, small_typed, wl, pols[i]);
		no_feedback = false;
		sim_adm_get_stats(on.e->pstate, &s_on);
		sim_adm_get_stats(off.e->pstate, &s_off);
		ck_assert_msg(s_on.feedback_updates > 0, "%s: %u", pols[i],
			      s_on.feedback_updates);
		ck_assert_uint_eq(s_off.feedback_updates, 0);
		/* the jobs themselves still run and meet their deadlines */
		ck_assert_uint_eq(off.sum.met, 2);
		done(&on);
		done(&off);
	}
}
END_TEST

/* Three 10 s maps on two slots and a 5 s reduce by 12 s: impossible
 * (`extra`: more fields of the job). */
#define IMPOSSIBLE_JOB(extra)                                                  \
	"{\"name\":\"x\",\"arrival\":0,\"maps\":3,"                            \
	"\"map_lengths\":[10,10,10],\"map_time_limit\":10," extra              \
	"\"reduces\":1,\"reduce_lengths\":[5],\"reduce_time_limit\":5,"        \
	"\"relative_deadline\":12}"

/* One 10 s map due at 100 s. */
#define FEASIBLE_JOB                                                           \
	"{\"name\":\"y\",\"arrival\":0,\"maps\":1,"                            \
	"\"map_lengths\":[10],\"map_time_limit\":10,\"relative_deadline\":"    \
	"100}"

/* Every admission policy rejects the impossible job, it never runs, and
 * the feasible job beside it is admitted and meets its deadline. */
START_TEST(impossible_deadline_rejected_by_all)
{
	static const char *wl =
		"{\"jobs\":[" IMPOSSIBLE_JOB("") "," FEASIBLE_JOB "]}";

	for (size_t i = 0; i < 3; i++) {
		struct run r;

		go(&r, small_typed, wl, adm_policies[i]);
		ck_assert_msg(never_ran(&r.e->jobs[0]), "%s admitted it",
			      adm_policies[i]);
		ck_assert(r.e->jobs[0].why[0]);
		ck_assert_int_eq(r.e->jobs[1].state, SIM_JOB_DONE);
		ck_assert(sim_job_met(&r.e->jobs[1]));
		ck_assert_uint_eq(r.sum.jobs, 2);
		ck_assert_uint_eq(r.sum.admitted, 1);
		ck_assert_uint_eq(r.sum.rejected, 1);
		ck_assert_uint_eq(r.sum.met, 1);
		ck_assert_double_eq_tol(r.sum.accept_ratio, 0.5, 1e-12);
		ck_assert_double_eq_tol(r.sum.success_ratio, 1, 1e-12);
		/* RTMR's utilisation: only the met job's slot time counts */
		ck_assert_double_eq_tol(r.sum.utilization,
					r.sum.utilization_all, 1e-12);
		done(&r);
	}
}
END_TEST

/* The impossible job with its own %1: not judged (job_submit/deadline
 * does not judge such an array), so it runs, unadmitted and late, at most
 * one map at a time. */
START_TEST(own_limit_not_judged)
{
	static const char *wl =
		"{\"jobs\":[" IMPOSSIBLE_JOB("\"map_max_running\":1,") "]}";

	for (size_t i = 0; i < 3; i++) {
		struct run r;

		go(&r, small_typed, wl, adm_policies[i]);
		ck_assert_msg(strstr(r.e->jobs[0].why, "not judged"), "%s: %s",
			      adm_policies[i], r.e->jobs[0].why);
		ck_assert_int_eq(r.e->jobs[0].state, SIM_JOB_DONE);
		ck_assert_uint_eq(r.e->jobs[0].max_running, 1);
		ck_assert(!sim_job_met(&r.e->jobs[0]));
		ck_assert_uint_eq(r.sum.rejected, 0);
		done(&r);
	}
}
END_TEST

/* Kc & Anyanwu's map bound is continuous (it ignores waves): three 10 s
 * maps with S_r^max - A = 15 s need ceil(30 / 15) = 2 slots, both free,
 * so dc admits a job that then misses (two waves end at 21, the reduce at
 * 26 > 20).  realtime and rtmr list-schedule the waves and reject it. */
START_TEST(dc_ignores_map_waves)
{
	static const char *wl =
		"{\"jobs\":[{\"name\":\"w\",\"arrival\":0,\"maps\":3,"
		"\"map_lengths\":[10,10,10],\"map_time_limit\":10,"
		"\"reduces\":1,\"reduce_lengths\":[5],\"reduce_time_limit\":5,"
		"\"relative_deadline\":20}]}";
	struct run r;

	go(&r, small_typed, wl, "dc");
	ck_assert_uint_eq(r.sum.admitted, 1);
	ck_assert(!sim_job_met(&r.e->jobs[0]));
	ck_assert_double_eq_tol(r.sum.success_ratio, 0, 1e-12);
	ck_assert_double_eq_tol(r.sum.utilization, 0, 1e-12);
	ck_assert(r.sum.utilization_all > 0);
	done(&r);
	go(&r, small_typed, wl, "realtime");
	ck_assert(never_ran(&r.e->jobs[0]));
	done(&r);
	go(&r, small_typed, wl, "rtmr");
	ck_assert(never_ran(&r.e->jobs[0]));
	done(&r);
}
END_TEST

/* Kc & Anyanwu reject a job with more reducers than reduce slots (all
 * reducers must start at S_r^max); realtime runs them in waves. */
START_TEST(dc_rejects_reducers_beyond_the_slots)
{
	static const char *wl =
		"{\"jobs\":[{\"name\":\"r\",\"arrival\":0,\"maps\":1,"
		"\"map_lengths\":[10],\"map_time_limit\":10,"
		"\"reduces\":2,\"reduce_lengths\":[5,5],"
		"\"reduce_time_limit\":5,\"relative_deadline\":100}]}";
	struct run r;

	go(&r, small_typed, wl, "dc");
	ck_assert(never_ran(&r.e->jobs[0]));
	done(&r);
	go(&r, small_typed, wl, "realtime");
	ck_assert_int_eq(r.e->jobs[0].state, SIM_JOB_DONE);
	ck_assert(sim_job_met(&r.e->jobs[0]));
	/* the two reducers ran one after the other on the one slot */
	ck_assert(fabs(r.e->jobs[0].task[DL_REDUCE][0].start -
		       r.e->jobs[0].task[DL_REDUCE][1].start) >= 5 - 1e-9);
	done(&r);
}
END_TEST

START_TEST(dc_needs_typed_slots)
{
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct dl_config cfg = fx_config();
	struct sim_options o = {0};
	const char *c = "{\"nodes\":[{\"count\":1,\"cpus\":2}]}";
	const char *w = "{\"jobs\":[{\"arrival\":0,\"maps\":1,"
			"\"map_length\":1,\"relative_deadline\":10}]}";
	char err[512] = "";

	ck_assert_int_eq(
		sim_cluster_parse(c, strlen(c), "c", NULL, &cs, err, 512), 0);
	ck_assert_int_eq(
		sim_workload_parse(w, strlen(w), "w", &cs, &ws, err, 512), 0);
	ck_assert_ptr_null(sim_engine_new(&cs, &ws, sim_policy_find("dc"), &cfg,
					  &o, err, sizeof(err)));
	ck_assert_msg(strstr(err, "typed"), "%s", err);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_config_free(&cfg);
}
END_TEST

/* xorshift64*: the property loop's own seeded stream */
static uint64_t rnd_state;

static double rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return (double) ((rnd_state * UINT64_C(2685821657736338717)) >> 11) /
	       9007199254740992.0;
}

static size_t put(char *buf, size_t len, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	ck_assert_uint_lt(at, len);
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	ck_assert(n >= 0 && (size_t) n < len - at);
	return at + (size_t) n;
}
/* A straggler (500 s where 4 runs of the program took 10 s) of job 5
 * holds one of the two map slots.  The resync holds job 5 and job 6,
 * admitted behind it, whose worst case no longer ends by its deadline.
 * Job 6 is not held for ever: it runs on the other slot, behind every
 * guaranteed job, is released when its worst case fits again and meets
 * its deadline; the summary and the job record name the holds. */
START_TEST(straggler_hold_is_not_for_ever)
{
#define TEN10 "10,10,10,10,10,10,10,10,10,10"
	static const char *wl =
		"{\"jobs\":["
		"{\"name\":\"wc\",\"arrival\":0,\"maps\":1,\"map_lengths\":[10]"
		","
		"\"map_time_limit\":120,\"relative_deadline\":1000},"
		"{\"name\":\"wc\",\"arrival\":20,\"maps\":1,\"map_lengths\":["
		"10],"
		"\"map_time_limit\":120,\"relative_deadline\":1000},"
		"{\"name\":\"wc\",\"arrival\":40,\"maps\":1,\"map_lengths\":["
		"10],"
		"\"map_time_limit\":120,\"relative_deadline\":1000},"
		"{\"name\":\"wc\",\"arrival\":60,\"maps\":1,\"map_lengths\":["
		"10],"
		"\"map_time_limit\":120,\"relative_deadline\":1000},"
		"{\"name\":\"wc\",\"arrival\":100,\"maps\":2,"
		"\"map_lengths\":[10,500],\"map_time_limit\":600,"
		"\"relative_deadline\":400},"
		"{\"name\":\"wc\",\"arrival\":101,\"maps\":20,"
		"\"map_lengths\":[" TEN10 "," TEN10 "],"
		"\"map_time_limit\":120,\"relative_deadline\":479}]}";
#undef TEN10
	struct run r;
	const struct sim_job *s5, *s6;

	go(&r, small_typed, wl, "realtime");
	s5 = &r.e->jobs[4];
	s6 = &r.e->jobs[5];
	ck_assert_uint_eq(r.sum.admitted, 6);
	/* job 5's own straggler makes it late: held, never cancelled */
	ck_assert_uint_eq(s5->holds, 1);
	ck_assert(!sim_job_met(s5));
	ck_assert_ptr_nonnull(strstr(s5->hold_why, "ran past its worst case"));
	/* job 6: held for the straggler of job 5, runs on, is released */
	ck_assert_uint_eq(s6->holds, 1);
	ck_assert_msg(strstr(s6->hold_why, "job 5's task ran past"), "%s",
		      s6->hold_why);
	ck_assert(s6->held_s > 0);
	ck_assert(s6->held_since < 0);
	ck_assert_int_eq(s6->state, SIM_JOB_DONE);
	ck_assert(sim_job_met(s6));
	ck_assert_uint_eq(r.sum.held, 2);
	ck_assert_uint_eq(r.sum.held_at_end, 0);
	ck_assert_uint_eq(r.sum.unfinished, 0);
	ck_assert_uint_eq(r.sum.met, 5);
	done(&r);
}
END_TEST

/* Maps take 9-10 s (time limit 10 s), reduces 5-6 s (limit 6 s), so the
 * worst case -- the limit, or min(p99 x 1.2, limit) with history, where
 * p99 >= p50 >= the shortest sample -- is never exceeded.  Then every job
 * realtime admits meets its deadline, on typed slots (split pool) and on
 * CPUs (shared pool). */
START_TEST(realtime_admitted_jobs_meet_their_deadlines)
{
	static const char *names[] = {"a", "b", "c"};
	uint32_t admitted = 0, rejected = 0;

	for (uint64_t seed = 1; seed <= 24; seed++) {
		static char wl[65536];
		const char *cluster =
			seed % 2 ? "{\"slots\":\"typed\",\"nodes\":[{\"count\":"
				   "2,\"map_slots\":2,\"reduce_slots\":1}]}"
				 : "{\"nodes\":[{\"count\":2,\"cpus\":3}]}";
		size_t at = 0;
		double t = 0;
		struct run r;

		rnd_state = seed * UINT64_C(0x9E3779B97F4A7C15);
		at = put(wl, sizeof(wl), at, "{\"jobs\":[");
		for (int k = 0; k < 14; k++) {
			uint32_t m = 1 + (uint32_t) (rnd() * 6);
			uint32_t red = (uint32_t) (rnd() * 4);

			t += rnd() * 15;
			at = put(wl, sizeof(wl), at,
				 "%s{\"name\":\"%s\",\"arrival\":%.3f,"
				 "\"relative_deadline\":%.3f,\"maps\":%u,"
				 "\"map_time_limit\":10,\"map_lengths\":[",
				 k ? "," : "", names[(int) (rnd() * 3)], t,
				 15 + rnd() * 65, m);
			for (uint32_t i = 0; i < m; i++)
				at = put(wl, sizeof(wl), at, "%s%.3f",
					 i ? "," : "", 9 + rnd());
			at = put(wl, sizeof(wl), at, "]");
			if (red) {
				at = put(
					wl, sizeof(wl), at,
					",\"reduces\":%u,\"reduce_time_limit\":"
					"6,\"reduce_lengths\":[",
					red);
				for (uint32_t i = 0; i < red; i++)
					at = put(wl, sizeof(wl), at, "%s%.3f",
						 i ? "," : "", 5 + rnd());
				at = put(wl, sizeof(wl), at, "]");
			}
			at = put(wl, sizeof(wl), at, "}");
		}
		put(wl, sizeof(wl), at, "]}");
		go(&r, cluster, wl, "realtime");
		for (uint32_t k = 0; k < r.e->njobs; k++) {
			const struct sim_job *j = &r.e->jobs[k];

			if (j->state == SIM_JOB_REJECTED) {
				ck_assert(never_ran(j));
				rejected++;
				continue;
			}
			admitted++;
			ck_assert_msg(sim_job_met(j),
				      "seed %llu job %u finished %.3f, "
				      "deadline %.3f",
				      (unsigned long long) seed, k + 1,
				      j->finish, j->deadline);
		}
		ck_assert_double_eq_tol(r.sum.success_ratio, 1, 1e-12);
		done(&r);
	}
	/* the loop exercised both verdicts */
	ck_assert_uint_gt(admitted, 50);
	ck_assert_uint_gt(rejected, 10);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_admission");
	TCase *tc = tcase_create("admission");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, registered_as_admission_policies);
	tcase_add_test(tc, realtime_admits_what_rtmr_rejects);
	tcase_add_test(tc, feedback_switch);
	tcase_add_test(tc, impossible_deadline_rejected_by_all);
	tcase_add_test(tc, own_limit_not_judged);
	tcase_add_test(tc, dc_ignores_map_waves);
	tcase_add_test(tc, dc_rejects_reducers_beyond_the_slots);
	tcase_add_test(tc, dc_needs_typed_slots);
	tcase_add_test(tc, realtime_admitted_jobs_meet_their_deadlines);
	tcase_add_test(tc, straggler_hold_is_not_for_ever);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
