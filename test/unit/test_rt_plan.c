/*
 * test_rt_plan.c - the realtime branch of dl_policy_plan(): EDF ranks,
 * throttles from the reservation walk, holds with a Reason for infeasible
 * jobs, jobs judged at plan time (admitted or held as not guaranteed), jobs
 * without deadline left alone, the plan as JSON, and a job whose ticket
 * was lost with a restart.
 */
#include "common/io/log.h"
#include "common/plan/plan_json.h"
#include "common/policy/policy.h"
#include "common/realtime/plan_cycle.h"
#include "rt_fixtures.h"

struct world {
	struct dl_cluster cl;
	struct dl_config cfg;
	struct dl_rt_state *st;
	struct dl_job *jobs[16];
	uint32_t n;
	struct dl_plan *plan;
};

static void w_init(struct world *w, uint32_t cpus)
{
	struct dl_rt_params p;

	memset(w, 0, sizeof(*w));
	fx_cluster(&w->cl, 1, cpus, 0);
	w->cfg = fx_config();
	w->cfg.policy = DL_POLICY_REALTIME;
	w->cfg.realtime_overhead = 0;
	w->st = dl_rt_state_new();
	ck_assert_ptr_nonnull(w->st);
	ck_assert_int_eq(dl_rt_configure(w->st, &w->cfg), 0);
	ck_assert_int_eq(dl_rt_get_params(w->st, &p), 0);
	ck_assert_double_eq(p.overhead, 0);
	ck_assert_int_eq(dl_rt_set_pool(w->st, "batch", cpus, 0, 0), 0);
}

/* A live job with 600 s time limits and a soft deadline. */
static struct dl_job *w_job(struct world *w, uint64_t id, double deadline,
			    uint32_t maps, uint32_t reduces)
{
	struct dl_job *j = dl_job_new(id, "alice", "wc", "acct");

	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(dl_phase_init(j, DL_MAP, maps, 1, 0), 0);
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, reduces, 1, 0), 0);
	j->phase[DL_MAP].time_limit = j->phase[DL_REDUCE].time_limit = 600;
	j->soft_deadline = deadline;
	w->jobs[w->n++] = j;
	return j;
}

/* Tasks of this job take `wc` seconds at worst (history of 10 tasks). */
static void w_history(struct world *w, int phase, double wc)
{
	struct dl_rt_quantiles q = {wc / 1.2, wc / 1.2, wc / 1.2, wc / 1.2, 10};

	ck_assert_int_eq(dl_rt_wc_store(w->st, "alice", "wc", phase, &q, 0), 0);
}

static void w_admit(struct world *w, uint64_t id, double deadline,
		    uint32_t maps, double wm, uint32_t reduces, double wr,
		    double now)
{
	struct dl_rt_request q =
		rt_req(id, now, deadline, maps, wm, reduces, wr);
	struct dl_rt_verdict v;

	ck_assert_int_eq(dl_rt_admit(w->st, &q, now, true, &v), 0);
	ck_assert_msg(v.admitted, "%s", v.msg);
}

static void w_plan(struct world *w, double now)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = now,
				     .forecast = NULL,
				     .rt = w->st};
	char err[256] = "";

	dl_plan_free(w->plan);
	w->plan = dl_policy_plan(&in, err, sizeof(err));
	ck_assert_msg(w->plan != NULL, "plan failed: %s", err);
	ck_assert_int_eq(w->plan->policy, DL_POLICY_REALTIME);
}

static const struct dl_plan_job *w_get(struct world *w, uint64_t id)
{
	const struct dl_plan_job *pj = dl_plan_find(w->plan, id);

	ck_assert_ptr_nonnull(pj);
	return pj;
}

static void w_free(struct world *w)
{
	for (uint32_t i = 0; i < w->n; i++)
		dl_job_free(w->jobs[i]);
	dl_plan_free(w->plan);
	dl_config_free(&w->cfg);
	dl_cluster_free(&w->cl);
	dl_rt_state_free(w->st);
}

/* EDF ranks; the earliest deadline takes every free CPU first. */
START_TEST(test_ranks_and_throttles)
{
	struct world w;

	w_init(&w, 4);
	w_admit(&w, 2, 200, 4, 10, 0, 0, 0);
	w_admit(&w, 1, 100, 6, 10, 0, 0, 0);
	w_job(&w, 1, 100, 6, 0);
	w_job(&w, 2, 200, 4, 0);
	w_job(&w, 3, 0, 5, 0); /* no deadline */
	w_plan(&w, 0);
	ck_assert_uint_eq(w_get(&w, 1)->rank, 1);
	ck_assert_uint_eq(w_get(&w, 2)->rank, 2);
	ck_assert_uint_eq(w_get(&w, 1)->alloc, 4);
	ck_assert_uint_eq(w_get(&w, 2)->alloc, 0);
	ck_assert(w_get(&w, 1)->urgent);
	ck_assert(w_get(&w, 1)->managed);
	ck_assert_int_eq(w_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_double_eq(w_get(&w, 1)->predicted_finish, 20);
	ck_assert_ptr_nonnull(strstr(w_get(&w, 1)->explain, "admitted"));
	ck_assert_ptr_nonnull(strstr(w_get(&w, 2)->explain, "waiting"));
	/* nothing of job 2 may start: Slurm's throttle cannot say "none" */
	ck_assert(!w_get(&w, 1)->hold);
	ck_assert(w_get(&w, 2)->hold);
	ck_assert_str_eq(w_get(&w, 2)->hold_reason, DL_RT_REASON_WAIT);
	ck_assert(!w_get(&w, 3)->managed);
	ck_assert_uint_eq(w_get(&w, 3)->rank, 0);
	/* job 1 was allowed to start: a new job cannot pass it */
	{
		struct dl_rt_job_info info;

		ck_assert_int_eq(dl_rt_job_get(w.st, 1, &info), 0);
		ck_assert(info.started);
		ck_assert_int_eq(dl_rt_job_get(w.st, 2, &info), 0);
		ck_assert(!info.started);
	}
	/* 4 running, 2 pending: the throttle stays 4 until one ends */
	fx_run(w.jobs[0], DL_MAP, 4, 0, 0);
	w_plan(&w, 1);
	ck_assert_uint_eq(w_get(&w, 1)->alloc, 4);
	ck_assert_uint_eq(w_get(&w, 2)->alloc, 0);
	w_free(&w);
}
END_TEST

/* Job A (earlier deadline) has its last map running and 3 reducers to
 * come: 3 of the 3 free CPUs are kept for them, job B gets none. */
START_TEST(test_reduce_reservation)
{
	struct world w;
	struct dl_job *a;

	w_init(&w, 4);
	w_admit(&w, 1, 100, 1, 10, 3, 10, 0);
	w_admit(&w, 2, 200, 4, 10, 0, 0, 0);
	a = w_job(&w, 1, 100, 1, 3);
	w_job(&w, 2, 200, 4, 0);
	fx_run(a, DL_MAP, 1, 0, 0);
	ck_assert_int_eq(dl_rt_mark_started(w.st, 1), 0);
	w_plan(&w, 1);
	ck_assert_uint_eq(w_get(&w, 1)->alloc, 1);
	ck_assert_uint_eq(w_get(&w, 2)->alloc, 0);
	/* A's map is done: its reducers take 3 CPUs, B the fourth */
	a->phase[DL_MAP].nrunning = 0;
	fx_done(a, DL_MAP, 1, 5, 0);
	w_plan(&w, 5);
	ck_assert_int_eq(w_get(&w, 1)->phase, DL_REDUCE);
	ck_assert_uint_eq(w_get(&w, 1)->alloc, 3);
	ck_assert_uint_eq(w_get(&w, 2)->alloc, 1);
	ck_assert(!w_get(&w, 2)->hold); /* its turn: released */
	w_free(&w);
}
END_TEST

/* A task far over its worst case makes the job infeasible: held with a
 * Reason, never cancelled. */
START_TEST(test_hold)
{
	struct world w;
	struct dl_job *a;
	const struct dl_plan_job *pj;
	char *text;
	struct dl_plan *back;
	char err[128];

	w_init(&w, 2);
	w_admit(&w, 1, 30, 3, 10, 0, 0, 0);
	a = w_job(&w, 1, 30, 3, 0);
	fx_run(a, DL_MAP, 2, 0, 0);
	w_plan(&w, 5);
	ck_assert_int_eq(w_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	w_plan(&w, 31); /* both tasks 21 s over; the limit is 600 s */
	pj = w_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HELD);
	/* no CPU is free for its third task: held in Slurm with the Reason,
	 * its two running tasks go on */
	ck_assert(pj->hold);
	ck_assert_uint_eq(pj->alloc, 2);
	ck_assert_str_eq(pj->hold_reason, DL_RT_REASON_INFEASIBLE);
	ck_assert_ptr_nonnull(strstr(pj->explain, "worst case"));
	ck_assert_uint_eq(pj->rank, 1);
	/* the plan as JSON keeps it */
	text = dl_plan_to_string(w.plan);
	ck_assert_ptr_nonnull(text);
	back = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(dl_plan_find(back, 1)->verdict, DL_VERDICT_HELD);
	ck_assert_str_eq(dl_plan_find(back, 1)->hold_reason,
			 DL_RT_REASON_INFEASIBLE);
	free(text);
	dl_plan_free(back);
	w_free(&w);
}
END_TEST

static char hold_log[8][256];
static uint32_t nhold_log;

static void capture(enum dl_log_level level, const char *msg)
{
	(void) level;
	if (strstr(msg, "held") && nhold_log < 8)
		snprintf(hold_log[nhold_log++], sizeof(*hold_log), "%s", msg);
}

/* A straggler of job 1 holds a CPU far past its worst case; the resync
 * holds job 2, whose worst case no longer ends by its deadline.  It is
 * never held for ever: it runs on the CPU job 1 frees, behind every
 * guaranteed job, and is released (guaranteed again) once its worst case
 * fits.  The hold names the job and its cause in the log and the plan. */
START_TEST(test_straggler_hold_released)
{
	struct world w;
	struct dl_job *a, *b;
	const struct dl_plan_job *pb;

	w_init(&w, 2);
	w_admit(&w, 1, 15, 2, 10, 0, 0, 0);
	w_admit(&w, 2, 30, 2, 10, 0, 0, 0); /* 10..20 behind job 1 */
	a = w_job(&w, 1, 15, 2, 0);
	b = w_job(&w, 2, 30, 2, 0);
	fx_run(a, DL_MAP, 2, 0, 0);
	w_plan(&w, 5);
	ck_assert_int_eq(w_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(w_get(&w, 2)->alloc, 0);
	/* at 14 both tasks of job 1 are past their 10 s: until their 600 s
	 * limit they hold both CPUs, so job 2 cannot end by 30 */
	nhold_log = 0;
	dl_log_set_sink(capture, DL_LOG_INFO);
	w_plan(&w, 14);
	dl_log_set_sink(NULL, DL_LOG_ERROR);
	pb = w_get(&w, 2);
	ck_assert_int_eq(pb->verdict, DL_VERDICT_HELD);
	ck_assert(pb->hold);
	ck_assert_str_eq(pb->hold_reason, DL_RT_REASON_INFEASIBLE);
	ck_assert_msg(strstr(pb->explain, "job 1's task ran past its worst "
					  "case"),
		      "%s", pb->explain);
	ck_assert_uint_eq(nhold_log, 2);
	ck_assert_msg(strstr(hold_log[1], "job 2 held") &&
			      strstr(hold_log[1], "job 1's task ran past"),
		      "%s", hold_log[1]);
	/* at 17 one straggler ends: 17 + 2 x 10 > 30, the worst case still
	 * misses, but job 2 runs on the freed CPU (nothing guaranteed needs
	 * it) instead of waiting for ever */
	a->phase[DL_MAP].nrunning = 1;
	fx_done(a, DL_MAP, 1, 17, 0);
	w_plan(&w, 17);
	pb = w_get(&w, 2);
	ck_assert_int_eq(pb->verdict, DL_VERDICT_HELD);
	ck_assert(!pb->hold);
	ck_assert_uint_eq(pb->alloc, 1);
	ck_assert(pb->urgent);
	fx_run(b, DL_MAP, 1, 17, 0);
	/* at 19 the other straggler ends: 19 + 10 <= 30 with job 2's
	 * running task (worst case to 27): released, guaranteed again */
	a->phase[DL_MAP].nrunning = 0;
	fx_done(a, DL_MAP, 1, 19, 0);
	w_plan(&w, 19);
	pb = w_get(&w, 2);
	ck_assert_int_eq(pb->verdict, DL_VERDICT_ON_TRACK);
	ck_assert(!pb->hold);
	ck_assert_uint_eq(pb->alloc, 2);
	ck_assert_double_le(pb->predicted_finish, 30);
	w_free(&w);
}
END_TEST

/* Jobs that were not judged at submit are judged by the plan. */
START_TEST(test_judged_at_plan)
{
	struct world w;
	const struct dl_plan_job *pj;

	w_init(&w, 2);
	w_history(&w, DL_MAP, 10);
	w_job(&w, 7, 100, 4, 0); /* 20 s of work: admitted */
	w_job(&w, 8, 15, 4, 0);  /* needs 20 s even ahead of job 7 */
	w_job(&w, 9, 100, 2, 0);
	w.jobs[2]->phase[DL_MAP].time_limit = 0; /* and no limit */
	{
		struct dl_rt_quantiles none;

		ck_assert_int_eq(dl_rt_wc_lookup(w.st, "alice", "wc", 0, &none),
				 0);
	}
	w_plan(&w, 0);
	pj = w_get(&w, 7);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(pj->rank, 1);
	pj = w_get(&w, 8);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_REJECTED);
	ck_assert(pj->hold);
	ck_assert_str_eq(pj->hold_reason, DL_RT_REASON_REJECTED);
	ck_assert_ptr_nonnull(strstr(pj->explain, "cannot be guaranteed"));
	ck_assert_double_eq(pj->predicted_finish, 20);
	/* job 9 has history (the same user and name): admitted */
	ck_assert_int_eq(w_get(&w, 9)->verdict, DL_VERDICT_ON_TRACK);
	w_free(&w);

	/* job 8 with its own %2: not judged, left to Slurm, not held */
	w_init(&w, 2);
	w_history(&w, DL_MAP, 10);
	w_job(&w, 8, 15, 4, 0);
	w.jobs[0]->phase[DL_MAP].max_running = 2;
	w_plan(&w, 0);
	pj = w_get(&w, 8);
	ck_assert(!pj->managed);
	ck_assert(!pj->hold);
	ck_assert_int_eq(pj->cls, DL_CLASS_UNMANAGED);
	ck_assert_msg(strstr(pj->explain, "not judged: an array with its own "
					  "limit"),
		      "%s", pj->explain);
	ck_assert_uint_eq(dl_rt_count(w.st), 0);
	w_free(&w);
}
END_TEST

/* Issue 12, D2 and D4 as CI met them on Slurm 24.11: slurmctld died after
 * job_submit admitted job 7 under a ticket and before the admitted set was
 * saved.  The restored set does not know job 7 and its counter would hand
 * the same ticket to the next submission; the floor makes it new, and job
 * 7, admitted again at plan time, takes its ticket back so that its submit
 * hold is ours to release. */
START_TEST(test_lost_ticket_restored)
{
	struct world w;
	struct dl_rt_state *replay = dl_rt_state_new();
	struct dl_rt_request q;
	struct dl_rt_verdict v;
	char *stale, err[256] = "", tk7[64], tk9[64], tk12[64];
	char *env7[] = {tk7, "DEADLINE_RT_HOLD=1"};
	char *env9[] = {tk9, "DEADLINE_RT_HOLD=1"};
	char *env12[] = {tk12, "DEADLINE_RT_HOLD=1"};
	uint64_t t7, t9, t12;

	w_init(&w, 2);
	w_history(&w, DL_MAP, 10);
	w_history(&w, DL_REDUCE, 10);
	stale = dl_rt_state_to_json(w.st);
	ck_assert_ptr_nonnull(stale);
	/* job_submit: admitted under a ticket, bound by the next cycle */
	t7 = dl_rt_new_ticket(w.st);
	q = rt_req(0, 0, 100, 4, 10, 1, 10);
	q.ticket = t7;
	ck_assert_int_eq(dl_rt_admit(w.st, &q, 0, true, &v), 0);
	ck_assert(v.admitted);
	ck_assert_int_eq(dl_rt_bind(w.st, t7, 7), 0);
	snprintf(tk7, sizeof(tk7), "DEADLINE_RT_TICKET=%llu",
		 (unsigned long long) t7);
	ck_assert(dl_rt_submit_hold_ours(w.st, 7, env7, 2));

	/* the restart restores the set saved before all that */
	ck_assert_int_eq(dl_rt_state_from_json(w.st, stale, err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_rt_state_from_json(replay, stale, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_rt_new_ticket(replay), t7); /* why the floor */
	dl_rt_ticket_floor(w.st, 1000);
	dl_rt_ticket_floor(w.st, 10); /* never lowered */
	ck_assert_int_eq(dl_rt_bind(w.st, t7, 7), ENOENT);
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t7, 7), ENOENT);
	ck_assert(!dl_rt_submit_hold_ours(w.st, 7, env7, 2));

	/* a new submission gets a new ticket */
	t9 = dl_rt_new_ticket(w.st);
	ck_assert_uint_eq(t9, 1001);
	q = rt_req(0, 1, 200, 2, 10, 0, 0);
	q.ticket = t9;
	ck_assert_int_eq(dl_rt_admit(w.st, &q, 1, true, &v), 0);
	ck_assert(v.admitted);

	/* the plan judges job 7 by its id; the next cycle binds job 9 and
	 * gives job 7 its ticket back */
	w_job(&w, 7, 100, 4, 1)->reduce_id = 12;
	w_job(&w, 9, 200, 2, 0);
	w_plan(&w, 2);
	ck_assert_int_eq(w_get(&w, 7)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(dl_rt_bind(w.st, t9, 9), 0);
	ck_assert(!dl_rt_submit_hold_ours(w.st, 7, env7, 2));
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t7, 7), 0);
	ck_assert(dl_rt_submit_hold_ours(w.st, 7, env7, 2));
	snprintf(tk9, sizeof(tk9), "DEADLINE_RT_TICKET=%llu",
		 (unsigned long long) t9);
	ck_assert(dl_rt_submit_hold_ours(w.st, 9, env9, 2));
	/* its reduce array too, under a ticket of its own */
	t12 = dl_rt_new_ticket(w.st);
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t12, 12), 0);
	snprintf(tk12, sizeof(tk12), "DEADLINE_RT_TICKET=%llu",
		 (unsigned long long) t12);
	ck_assert(dl_rt_submit_hold_ours(w.st, 12, env12, 2));
	/* never another job's ticket, never a second ticket */
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t9, 7), EEXIST);
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t12 + 1, 9), ENOENT);
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t12 + 1, 7), ENOENT);
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, t12 + 1, 99), ENOENT);
	ck_assert_int_eq(dl_rt_adopt_ticket(w.st, 0, 7), EINVAL);
	ck_assert_int_eq(dl_rt_adopt_ticket(NULL, t7, 7), EINVAL);
	free(stale);
	dl_rt_state_free(replay);
	w_free(&w);
}
END_TEST

/* Slurm (from 23.11.4 / 24.05) cancels a pending job, held or not, once
 * now + its time limit passes its --deadline: the plan's hold ends
 * 2 x PlanInterval + ReplanDelay (here 21 s) before that cut-off, so the
 * hold never loses the job; its tasks may then take idle CPUs only. */
START_TEST(test_hold_ends_before_slurm_cutoff)
{
	struct world w;
	struct dl_job *a;
	const struct dl_plan_job *pj;

	w_init(&w, 2);
	ck_assert_double_eq(w.cfg.plan_interval, 10);
	ck_assert_double_eq(w.cfg.replan_delay, 1);
	/* rejected at plan time (4 x 600 s of worst case on 2 CPUs against a
	 * 15 s soft deadline), hard --deadline 700 with a 600 s limit: Slurm
	 * cancels what has not started by 100 */
	a = w_job(&w, 8, 15, 4, 0);
	a->phase[DL_MAP].hard_deadline = 700;
	w_plan(&w, 0);
	pj = w_get(&w, 8);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_REJECTED);
	ck_assert(pj->hold);
	w_plan(&w, 78.9);
	ck_assert(w_get(&w, 8)->hold);
	w_plan(&w, 79);
	pj = w_get(&w, 8);
	ck_assert(!pj->hold);
	ck_assert_str_eq(pj->hold_reason, "");
	ck_assert(pj->managed);
	ck_assert(!pj->urgent);
	ck_assert_uint_eq(pj->alloc, 4);
	ck_assert_uint_eq(pj->alloc_for_need, 0);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_REJECTED);
	ck_assert_ptr_nonnull(strstr(pj->explain, "cut-off"));
	/* no hard deadline: Slurm never cancels it, the hold stays */
	a->phase[DL_MAP].hard_deadline = 0;
	w_plan(&w, 95);
	ck_assert(w_get(&w, 8)->hold);
	w_free(&w);

	/* an admitted job held as infeasible (its tasks far over their
	 * worst case), hard --deadline 660: cut-off 60 */
	w_init(&w, 2);
	w_admit(&w, 1, 30, 3, 10, 0, 0, 0);
	a = w_job(&w, 1, 30, 3, 0);
	a->phase[DL_MAP].hard_deadline = 660;
	fx_run(a, DL_MAP, 2, 0, 0);
	w_plan(&w, 5);
	ck_assert(!w_get(&w, 1)->hold);
	w_plan(&w, 38.5);
	pj = w_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HELD);
	ck_assert(pj->hold);
	ck_assert_str_eq(pj->hold_reason, DL_RT_REASON_INFEASIBLE);
	w_plan(&w, 39);
	pj = w_get(&w, 1);
	ck_assert(!pj->hold);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HELD);
	ck_assert_uint_eq(pj->alloc, 3); /* 2 running + 1 pending */
	ck_assert(!pj->urgent);
	w_free(&w);
}
END_TEST

START_TEST(test_bad_input)
{
	struct world w;
	struct dl_policy_input in;
	char err[128] = "";

	w_init(&w, 2);
	in = (struct dl_policy_input){
		.cluster = &w.cl, .jobs = w.jobs, .cfg = &w.cfg};
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "admitted set"));
	in.rt = w.st;
	in.now = NAN;
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	w_free(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_plan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ranks_and_throttles);
	tcase_add_test(tc, test_reduce_reservation);
	tcase_add_test(tc, test_hold);
	tcase_add_test(tc, test_straggler_hold_released);
	tcase_add_test(tc, test_hold_ends_before_slurm_cutoff);
	tcase_add_test(tc, test_judged_at_plan);
	tcase_add_test(tc, test_lost_ticket_restored);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
