/*
 * test_rt_admit.c - admission control (Alg. I-III) on worked examples: the
 * Deadline Constraint scheduler's failure cases that RTMR admits correctly
 * (R above the reduce slots; slots freeing at different times), successor
 * checks, promotion, Slurm's start windows, the user messages, tickets and
 * reduce arrays arriving later, the feedback controller (Alg. V-VI), bad
 * input, and concurrent use from two threads.
 */
#include <pthread.h>

#include "rt_sim.h"

static struct dl_rt_verdict
admit(struct dl_rt_state *st, struct dl_rt_request q, double now, bool commit)
{
	struct dl_rt_verdict v;

	ck_assert_int_eq(dl_rt_admit(st, &q, now, commit, &v), 0);
	ck_assert(v.msg[0]);
	return v;
}

/* Admit q at time 0 and mark it started (it cannot be passed any more). */
static void admit_started(struct dl_rt_state *st, struct dl_rt_request q)
{
	struct dl_rt_verdict v = admit(st, q, 0, true);

	ck_assert(v.admitted);
	ck_assert_int_eq(dl_rt_mark_started(st, q.id), 0);
}

/* Paper §1.10 deficiency 1: R above the cluster's reduce slots runs in
 * waves.  4 map / 2 reduce slots; 2 maps of 10 s, 5 reduces of 10 s: maps
 * end at 10, reduces in waves end at 40. */
START_TEST(test_reduce_waves)
{
	struct dl_rt_state *st = rt_state(4, 2, 0);
	struct dl_rt_verdict v;

	v = admit(st, rt_req(1, 0, 39, 2, 10, 5, 10), 0, false);
	ck_assert(!v.admitted);
	ck_assert_double_eq(v.earliest, 40);
	ck_assert_double_eq(v.admissible_deadline, 40);
	ck_assert_ptr_nonnull(strstr(v.msg, "earliest finish t=40s > t=39s"));
	ck_assert_ptr_nonnull(strstr(v.msg, "4 map and 2 reduce slots"));
	ck_assert_ptr_nonnull(strstr(
		v.msg, "a deadline of t=40s or later would be admitted"));
	v = admit(st, rt_req(1, 0, 40, 2, 10, 5, 10), 0, true);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.finish, 40);
	ck_assert_uint_eq(dl_rt_count(st), 1);
	dl_rt_state_free(st);

	/* and it does finish by 40 when run */
	{
		struct sim s;

		memset(&s, 0, sizeof(s));
		s.split = true;
		s.units[0] = 4;
		s.units[1] = 2;
		s.st = rt_state(4, 2, 0);
		fx_cluster(&s.cl, 1, 4, 0);
		s.njobs = 1;
		s.jobs[0].req = rt_req(1, 0, 40, 2, 10, 5, 10);
		for (int i = 0; i < 2; i++)
			s.jobs[0].len[DL_MAP][i] = 10;
		for (int i = 0; i < 5; i++)
			s.jobs[0].len[DL_REDUCE][i] = 10;
		sim_run(&s);
		ck_assert(s.jobs[0].finished);
		ck_assert_double_eq(s.jobs[0].finish, 40);
		ck_assert_uint_eq(s.late, 0);
		sim_free(&s);
	}
}
END_TEST

/* Paper §1.10 deficiency 2: slots free at different times.  3 of 4 map
 * slots are busy until 4; 4 maps of 5 s end at 9 (one at 0-5, three at
 * 4-9): admitted with deadline 10 (DC asks for ceil(20/10) = 2 slots free
 * at arrival and rejects it). */
START_TEST(test_staggered_slots)
{
	struct dl_rt_state *st = rt_state(4, 0, 0);
	struct dl_rt_verdict v;

	admit_started(st, rt_req(1, 0, 4, 3, 4, 0, 0));
	v = admit(st, rt_req(2, 0, 10, 4, 5, 0, 0), 0, true);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.finish, 9);
	ck_assert_uint_eq(v.position, 1);
	dl_rt_state_free(st);
}
END_TEST

/* A job is placed after started jobs whatever its deadline, and a later
 * job that would make an admitted one miss is rejected with a message
 * naming it. */
START_TEST(test_successor_check)
{
	struct dl_rt_state *st = rt_state(2, 0, 0);
	struct dl_rt_verdict v;

	admit_started(st, rt_req(1, 0, 100, 4, 10, 0, 0));     /* ends 20 */
	v = admit(st, rt_req(2, 0, 40, 4, 10, 0, 0), 0, true); /* 20..40 */
	ck_assert(v.admitted);
	ck_assert_double_eq(v.finish, 40);
	/* a tighter job would go ahead of job 2 (not started) and make it
	 * miss: rejected, naming job 2 */
	v = admit(st, rt_req(3, 0, 30, 2, 10, 0, 0), 0, true);
	ck_assert(!v.admitted);
	ck_assert_uint_eq(v.blocker, 2);
	ck_assert_double_eq(v.blocker_deadline, 40);
	ck_assert_double_eq(v.blocker_finish, 50);
	ck_assert_ptr_nonnull(
		strstr(v.msg, "admitted job 2 miss its deadline"));
	/* at the end of the queue it disturbs nobody: deadline 50 */
	ck_assert_double_eq(v.admissible_deadline, 50);
	v = admit(st, rt_req(3, 0, 50, 2, 10, 0, 0), 0, true);
	ck_assert(v.admitted);
	ck_assert_uint_eq(dl_rt_count(st), 3);
	/* EEXIST for the same id */
	{
		struct dl_rt_request q = rt_req(3, 0, 50, 2, 10, 0, 0);

		ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), EEXIST);
	}
	dl_rt_state_free(st);
}
END_TEST

/* A job admitted under a ticket that Slurm has not given an id yet is
 * named as such when it blocks another, and by its id once bound. */
START_TEST(test_blocker_by_ticket)
{
	struct dl_rt_state *st = rt_state(2, 0, 0);
	struct dl_rt_request q = rt_req(0, 0, 40, 4, 10, 0, 0);
	struct dl_rt_verdict v;

	admit_started(st, rt_req(1, 0, 100, 4, 10, 0, 0)); /* ends 20 */
	q.ticket = dl_rt_new_ticket(st);
	v = admit(st, q, 0, true); /* 20..40 */
	ck_assert(v.admitted);
	v = admit(st, rt_req(3, 0, 30, 2, 10, 0, 0), 0, true);
	ck_assert(!v.admitted);
	ck_assert_uint_eq(v.blocker, q.ticket);
	ck_assert(v.blocker_ticket);
	ck_assert_ptr_nonnull(strstr(v.msg, "it would make a job admitted "
					    "moments ago (no job id yet) miss "
					    "its deadline t=40s (finish "
					    "t=50s)"));
	ck_assert_int_eq(dl_rt_bind(st, q.ticket, 9), 0);
	v = admit(st, rt_req(3, 0, 30, 2, 10, 0, 0), 0, true);
	ck_assert(!v.admitted);
	ck_assert_uint_eq(v.blocker, 9);
	ck_assert(!v.blocker_ticket);
	ck_assert_ptr_nonnull(
		strstr(v.msg, "admitted job 9 miss its deadline"));
	dl_rt_state_free(st);
}
END_TEST

/* Slurm cancels the rest of a --deadline array once now + time limit
 * passes the deadline: the last task must start by deadline - limit. */
START_TEST(test_start_window)
{
	struct dl_rt_state *st = rt_state(1, 0, 0);
	struct dl_rt_request q = rt_req(1, 0, 200, 3, 50, 0, 0);
	struct dl_rt_verdict v;

	/* starts 0, 50, 100; ends 150 <= 200 */
	v = admit(st, q, 0, false);
	ck_assert(v.admitted);
	q.latest_start[DL_MAP] = dl_rt_latest_start(200, 120); /* 80 */
	ck_assert_double_eq(q.latest_start[DL_MAP], 80);
	v = admit(st, q, 0, false);
	ck_assert(!v.admitted);
	/* the suggested deadline moves the window along: 100 + 120 */
	ck_assert_double_eq(v.admissible_deadline, 220);
	ck_assert_double_eq(dl_rt_latest_start(200, 10), 140); /* >= 60 s */
	ck_assert_double_eq(dl_rt_latest_start(0, 10), 0);
	dl_rt_state_free(st);
}
END_TEST

/* Tasks of c CPUs in a shared pool; a job wider than the pool. */
START_TEST(test_wide_and_unknown)
{
	struct dl_rt_state *st = rt_state(4, 0, 0);
	struct dl_rt_request q = rt_req(1, 0, 100, 4, 10, 0, 0);
	struct dl_rt_verdict v;

	q.cpus[DL_MAP] = 2; /* 2 slots of 2 CPUs: two waves */
	v = admit(st, q, 0, false);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.finish, 20);
	ck_assert_uint_eq(v.slots[DL_MAP], 2);
	q.cpus[DL_MAP] = 5;
	v = admit(st, q, 0, false);
	ck_assert(!v.admitted);
	ck_assert_ptr_nonnull(strstr(v.msg, "need 5 CPUs"));
	ck_assert(isnan(v.admissible_deadline));
	q.cpus[DL_MAP] = 1;
	q.wc[DL_MAP] = NAN; /* no history, no time limit */
	v = admit(st, q, 0, false);
	ck_assert(!v.admitted);
	ck_assert_ptr_nonnull(strstr(v.msg, "--time"));
	dl_rt_state_free(st);
}
END_TEST

START_TEST(test_bad_requests)
{
	struct dl_rt_state *st = rt_state(4, 0, 0);
	struct dl_rt_request q = rt_req(1, 0, 100, 4, 10, 0, 0);
	struct dl_rt_verdict v;

	ck_assert_int_eq(dl_rt_admit(st, NULL, 0, true, &v), EINVAL);
	ck_assert(v.msg[0]);
	ck_assert_int_eq(dl_rt_admit(NULL, &q, 0, true, &v), EINVAL);
	ck_assert_int_eq(dl_rt_admit(st, &q, NAN, true, &v), EINVAL);
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, NULL), EINVAL);
	q.deadline = NAN;
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), EINVAL);
	q = rt_req(0, 0, 100, 4, 10, 0, 0);
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), EINVAL);
	q = rt_req(1, 0, 100, 0, 10, 0, 0);
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), EINVAL);
	q = rt_req(1, 0, 100, 4, -1, 0, 0);
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), EINVAL);
	q = rt_req(1, 0, 100, 4, 10, 0, 0);
	q.pool = "nope";
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), ENOENT);
	ck_assert_ptr_nonnull(strstr(v.msg, "nope"));
	q.pool = NULL;
	ck_assert_int_eq(dl_rt_admit(st, &q, 0, true, &v), EINVAL);
	ck_assert_uint_eq(dl_rt_count(st), 0);
	ck_assert_int_eq(dl_rt_set_pool(st, "", 1, 0, 0), EINVAL);
	ck_assert_int_eq(dl_rt_set_pool(st, "x", 1, 0, NAN), EINVAL);
	ck_assert_int_eq(dl_rt_remove(st, 99), ENOENT);
	ck_assert_int_eq(dl_rt_mark_started(st, 99), ENOENT);
	{
		struct dl_rt_params p;

		ck_assert_int_eq(dl_rt_get_params(st, &p), 0);
		p.quantile = 0.2;
		ck_assert_int_eq(dl_rt_set_params(st, &p), EINVAL);
		p.quantile = 0.9;
		p.share = 0;
		ck_assert_int_eq(dl_rt_set_params(st, &p), EINVAL);
	}
	dl_rt_state_free(st);
}
END_TEST

/* Tickets: admitted before Slurm assigns the id, bound later; the reduce
 * array attaches (or is judged again) by the map's id. */
START_TEST(test_tickets_and_reduce)
{
	struct dl_rt_state *st = rt_state(4, 0, 0);
	struct dl_rt_request q = rt_req(0, 0, 100, 4, 10, 2, 10);
	struct dl_rt_verdict v;
	struct dl_rt_job_info info;
	uint64_t t1 = dl_rt_new_ticket(st), t2 = dl_rt_new_ticket(st);
	char *env[] = {"SPANK_DEADLINE_SOFT=5", "SPANK_DEADLINE_RT_TICKET=42",
		       NULL};

	ck_assert_uint_ne(t1, 0);
	ck_assert_uint_ne(t1, t2);
	q.ticket = t1;
	v = admit(st, q, 0, true); /* maps 0-10, reduces 10-20 */
	ck_assert(v.admitted);
	ck_assert_int_eq(dl_rt_job_get(st, 77, &info), ENOENT);
	ck_assert_int_eq(dl_rt_bind(st, t1, 77), 0);
	ck_assert_int_eq(dl_rt_bind(st, t1, 77), 0); /* again: same id */
	ck_assert_int_eq(dl_rt_bind(st, t1, 78), EEXIST);
	ck_assert_int_eq(dl_rt_bind(st, 999, 78), ENOENT);
	ck_assert_int_eq(dl_rt_job_get(st, 77, &info), 0);
	ck_assert_uint_eq(info.ticket, t1);
	ck_assert_double_eq(info.finish, 20);
	/* a reduce array within what was announced attaches as is */
	ck_assert_int_eq(dl_rt_attach_reduce(st, 77, 0, t2, 2, 1, 10, 0, 1, &v),
			 0);
	ck_assert(v.admitted);
	ck_assert_int_eq(dl_rt_bind(st, t2, 80), 0);
	ck_assert_int_eq(dl_rt_job_get(st, 80, &info), 0);
	ck_assert_uint_eq(info.id, 77);
	ck_assert_uint_eq(info.reduce_id, 80);
	/* a second reduce array is refused */
	ck_assert_int_eq(dl_rt_attach_reduce(st, 77, 81, 0, 1, 1, 10, 0, 1, &v),
			 EEXIST);
	ck_assert_uint_eq(dl_rt_ticket_from_env(env, 2), 42);
	ck_assert_uint_eq(dl_rt_ticket_from_env(env, 1), 0);
	{
		char *bad[] = {"DEADLINE_RT_TICKET=4x2"};

		ck_assert_uint_eq(dl_rt_ticket_from_env(bad, 1), 0);
		ck_assert_uint_eq(dl_rt_ticket_from_env(NULL, 1), 0);
	}
	dl_rt_state_free(st);
}
END_TEST

/* A reduce array larger than announced: judged again; when that fails
 * the job keeps its old admission. */
START_TEST(test_reduce_rejudged)
{
	struct dl_rt_state *st = rt_state(2, 0, 0);
	struct dl_rt_verdict v;
	struct dl_rt_job_info info;

	v = admit(st, rt_req(1, 0, 60, 2, 10, 0, 0), 0, true); /* map-only */
	ck_assert(v.admitted);
	/* 2 reduces of 10 s: 10-20, fine for 60 */
	ck_assert_int_eq(dl_rt_attach_reduce(st, 1, 2, 0, 2, 1, 10, 0, 0, &v),
			 0);
	ck_assert(v.admitted);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 20);
	ck_assert_uint_eq(info.tasks[DL_REDUCE], 2);
	dl_rt_state_free(st);

	st = rt_state(2, 0, 0);
	admit_started(st, rt_req(1, 0, 30, 2, 10, 0, 0));
	/* 6 reduces of 10 s: 3 waves after 10, ends 40 > 30 */
	ck_assert_int_eq(dl_rt_attach_reduce(st, 1, 2, 0, 6, 1, 10, 0, 0, &v),
			 ERANGE);
	ck_assert(!v.admitted);
	ck_assert_ptr_nonnull(strstr(v.msg, "cannot be guaranteed"));
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert_uint_eq(info.tasks[DL_REDUCE], 0); /* the old admission */
	ck_assert_uint_eq(info.reduce_id, 0);
	ck_assert_double_eq(info.finish, 10);
	ck_assert(info.started);
	ck_assert_int_eq(dl_rt_attach_reduce(st, 5, 2, 0, 6, 1, 10, 0, 0, &v),
			 ENOENT);
	dl_rt_state_free(st);

	/* started map job 1 (0-10), job 3 behind it (10-20, deadline 25): 2
	 * reduces of 10 s for job 1 meet its 60 but push job 3 to 30 */
	st = rt_state(2, 0, 0);
	admit_started(st, rt_req(1, 0, 60, 2, 10, 0, 0));
	v = admit(st, rt_req(3, 0, 25, 2, 10, 0, 0), 0, true);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.finish, 20);
	ck_assert_int_eq(dl_rt_attach_reduce(st, 1, 2, 0, 2, 1, 10, 0, 0, &v),
			 ERANGE);
	ck_assert(!v.admitted);
	ck_assert_double_eq(v.earliest, 20);
	ck_assert_uint_eq(v.blocker, 3);
	ck_assert_double_eq(v.blocker_deadline, 25);
	ck_assert_double_eq(v.blocker_finish, 30);
	ck_assert_ptr_nonnull(strstr(v.msg, "it would make admitted job 3 miss "
					    "its deadline t=25s (finish "
					    "t=30s)"));
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert_uint_eq(info.tasks[DL_REDUCE], 0); /* the old admission */
	dl_rt_state_free(st);
}
END_TEST

/* Alg. V-VI: the head job finished 15 s early (Δ = 5): its vectors become
 * SATU's and the next job moves up; within Δ nothing changes. */
START_TEST(test_feedback_example)
{
	struct dl_rt_state *st = rt_state(2, 0, 0);
	struct dl_rt_params p;
	struct dl_rt_job_info info;
	struct dl_rt_vec vec[2] = {{0}, {0}};
	double ends[4] = {4, 5, 9, 10};
	bool updated = false;

	ck_assert_int_eq(dl_rt_get_params(st, &p), 0);
	p.feedback_delta = 5;
	ck_assert_int_eq(dl_rt_set_params(st, &p), 0);
	ck_assert(admit(st, rt_req(1, 0, 100, 4, 10, 0, 0), 0, true).admitted);
	ck_assert(admit(st, rt_req(2, 0, 100, 2, 10, 0, 0), 0, true).admitted);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 30);
	ck_assert_int_eq(dl_rt_mark_started(st, 1), 0);
	/* job 1 ended at 10 instead of 20 */
	ck_assert_int_eq(dl_rt_feedback(st, 1, ends, 4, NULL, 0, 10, &updated),
			 0);
	ck_assert(updated);
	ck_assert_int_eq(dl_rt_job_vectors(st, 1, vec), 0);
	ck_assert_double_eq(dl_rt_vec_nth(&vec[0], 0), 9);
	ck_assert_double_eq(dl_rt_vec_nth(&vec[0], 1), 10);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 20); /* 10 + 10 */
	dl_rt_vec_free(&vec[0]);
	dl_rt_vec_free(&vec[1]);
	/* the finished job stays as the anchor until it leaves */
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert(info.finished);
	ck_assert_int_eq(dl_rt_remove(st, 1), 0);
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), ENOENT);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 20);
	ck_assert_int_eq(dl_rt_mark_started(st, 2), 0);
	/* within Δ: no update */
	{
		double e2[3] = {18, 19, 19};

		ck_assert_int_eq(
			dl_rt_feedback(st, 2, e2, 2, NULL, 0, 19, &updated), 0);
		ck_assert(!updated);
		/* more map ends than the job has maps */
		ck_assert_int_eq(
			dl_rt_feedback(st, 2, e2, 3, NULL, 0, 19, &updated),
			EINVAL);
		ck_assert_int_eq(
			dl_rt_feedback(st, 9, e2, 2, NULL, 0, 19, &updated),
			ENOENT);
	}
	dl_rt_state_free(st);
}
END_TEST

/* DL_RT_NO_FEEDBACK (deadline-sim --no-feedback): the same early finish
 * changes nothing; the next job keeps its worst-case place. */
START_TEST(test_feedback_off)
{
	struct dl_rt_state *st = rt_state(2, 0, 0);
	struct dl_rt_params p;
	struct dl_rt_job_info info;
	double ends[4] = {4, 5, 9, 10};
	bool updated = true;

	ck_assert_int_eq(dl_rt_get_params(st, &p), 0);
	p.feedback_delta = 5;
	p.flags |= DL_RT_NO_FEEDBACK;
	ck_assert_int_eq(dl_rt_set_params(st, &p), 0);
	ck_assert(admit(st, rt_req(1, 0, 100, 4, 10, 0, 0), 0, true).admitted);
	ck_assert(admit(st, rt_req(2, 0, 100, 2, 10, 0, 0), 0, true).admitted);
	ck_assert_int_eq(dl_rt_mark_started(st, 1), 0);
	ck_assert_int_eq(dl_rt_feedback(st, 1, ends, 4, NULL, 0, 10, &updated),
			 0);
	ck_assert(!updated);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 30); /* with feedback: 20 */
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert(info.finished);
	dl_rt_state_free(st);
}
END_TEST

/* A later job that has started is never passed; an anchor in the middle
 * keeps the occupancy of the job before it. */
START_TEST(test_anchor_in_middle)
{
	struct dl_rt_state *st = rt_state(1, 0, 0);
	struct dl_rt_job_info info;

	ck_assert(admit(st, rt_req(1, 0, 100, 1, 50, 0, 0), 0, true).admitted);
	ck_assert(admit(st, rt_req(2, 0, 200, 1, 10, 0, 0), 0, true).admitted);
	ck_assert_int_eq(dl_rt_mark_started(st, 1), 0);
	ck_assert_int_eq(dl_rt_mark_started(st, 2), 0);
	/* job 2 left: it stays as an anchor behind the unfinished job 1 */
	ck_assert_int_eq(dl_rt_remove(st, 2), 0);
	ck_assert_uint_eq(dl_rt_count(st), 2);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert(info.finished);
	/* a new job goes behind both and sees job 1's 50 s + job 2's slot */
	{
		struct dl_rt_verdict v =
			admit(st, rt_req(3, 5, 300, 1, 10, 0, 0), 5, false);

		ck_assert(v.admitted);
		ck_assert_double_eq(v.finish, 70);
		ck_assert_uint_eq(v.position, 2);
	}
	/* job 1 leaves too: both fold into the head */
	ck_assert_int_eq(dl_rt_remove(st, 1), 0);
	ck_assert_uint_eq(dl_rt_count(st), 0);
	{
		struct dl_rt_verdict v =
			admit(st, rt_req(3, 5, 300, 1, 10, 0, 0), 5, false);

		ck_assert_double_eq(v.finish, 70);
	}
	dl_rt_state_free(st);
}
END_TEST

/* The worst-case cache: a stored quantile answer beats the time limit. */
START_TEST(test_wc_cache)
{
	struct dl_rt_state *st = rt_state(1, 0, 0);
	struct dl_rt_quantiles q = {10, 20, 30, 40, 50}, got;
	struct dl_rt_worst w;

	ck_assert_int_eq(dl_rt_wc_lookup(st, "u", "n", 0, &got), ENOENT);
	ck_assert_int_eq(dl_rt_wc_get(st, "u", "n", 0, 600, &w), 0);
	ck_assert_int_eq(w.source, DL_RT_WC_TIME_LIMIT);
	ck_assert_double_eq(w.len, 600); /* overhead 0 in rt_state */
	ck_assert_int_eq(dl_rt_wc_store(st, "u", "n", 0, &q, 1), 0);
	ck_assert_int_eq(dl_rt_wc_lookup(st, "u", "n", 0, &got), 0);
	ck_assert_double_eq(got.p99, 30);
	ck_assert_int_eq(dl_rt_wc_get(st, "u", "n", 0, 600, &w), 0);
	ck_assert_int_eq(w.source, DL_RT_WC_QUANTILE);
	ck_assert_double_eq_tol(w.len, 30 * 1.2, 1e-9); /* p99, 20% */
	ck_assert_int_eq(dl_rt_wc_lookup(st, "u", "n", 1, &got), ENOENT);
	ck_assert_int_eq(dl_rt_wc_lookup(st, "u", "m", 0, &got), ENOENT);
	q.p50 = -1;
	ck_assert_int_eq(dl_rt_wc_store(st, "u", "n", 0, &q, 1), EINVAL);
	ck_assert_int_eq(dl_rt_wc_store(st, "u", "n", 2, &got, 1), EINVAL);
	/* many keys: the oldest is dropped past DL_RT_WC_MAX */
	for (int i = 0; i < DL_RT_WC_MAX + 5; i++) {
		char name[32];

		snprintf(name, sizeof(name), "job%d", i);
		ck_assert_int_eq(dl_rt_wc_store(st, "v", name, 0, &got, 10 + i),
				 0);
	}
	ck_assert_int_eq(dl_rt_wc_lookup(st, "v", "job0", 0, &got), ENOENT);
	ck_assert_int_eq(dl_rt_wc_lookup(st, "v", "job30", 0, &got), 0);
	dl_rt_state_free(st);
}
END_TEST

/* Two threads (the submit RPC and the plan thread) on one state. */
struct thr {
	struct dl_rt_state *st;
	uint64_t base;
	uint32_t admitted;
};

static void *hammer(void *arg)
{
	struct thr *t = arg;

	for (uint64_t i = 0; i < 400; i++) {
		struct dl_rt_request q =
			rt_req(t->base + i, 0, 1e6, 2, 1, 1, 1);
		struct dl_rt_verdict v;
		struct dl_rt_job_info info;

		if (dl_rt_admit(t->st, &q, 0, true, &v) == 0 && v.admitted)
			t->admitted++;
		dl_rt_job_get(t->st, t->base + i / 2, &info);
		if (i % 3 == 0)
			dl_rt_remove(t->st, t->base + i);
		/* now and then: serialising the whole state every time made
		 * this the slowest unit test under valgrind (3.5 minutes) */
		if (i % 16 == 0)
			free(dl_rt_state_to_json(t->st));
	}
	return NULL;
}

START_TEST(test_threads)
{
	struct dl_rt_state *st = rt_state(8, 0, 0);
	struct thr a = {st, 1, 0}, b = {st, 100001, 0};
	pthread_t ta, tb;

	ck_assert_int_eq(pthread_create(&ta, NULL, hammer, &a), 0);
	ck_assert_int_eq(pthread_create(&tb, NULL, hammer, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	ck_assert_uint_eq(a.admitted + b.admitted, 800);
	/* every third was removed (never started: gone) */
	ck_assert_uint_eq(dl_rt_count(st), 800 - 2 * 134);
	dl_rt_state_free(st);
}
END_TEST

START_TEST(test_shared_state)
{
	struct dl_rt_state *a = dl_rt_shared(), *b = dl_rt_shared();

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_eq(a, b);
}
END_TEST

/* Admitting a job shifts the later ones by at most how much later it
 * leaves the units (list scheduling is 1-Lipschitz); when that fits in
 * their slack they are padded instead of recomputed.  2 units; A: one
 * 10 s task.  J (one 5 s task, earlier deadline) goes first: exactly, A
 * still ends at 10 (it takes the other unit); padded, its bound is 15. */
START_TEST(test_padding)
{
	for (int exact = 0; exact < 2; exact++) {
		struct dl_rt_state *st =
			rt_state(2, 0, exact ? DL_RT_EXACT : 0);
		struct dl_rt_job_info info;

		ck_assert(admit(st, rt_req(1, 0, 100, 1, 10, 0, 0), 0, true)
				  .admitted);
		ck_assert(admit(st, rt_req(2, 0, 50, 1, 5, 0, 0), 0, true)
				  .admitted);
		ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
		ck_assert_uint_eq(info.position, 1);
		ck_assert_double_eq(info.finish, exact ? 10 : 15);
		/* a padded job behind a too tight slack is recomputed */
		ck_assert(admit(st, rt_req(3, 0, 12, 1, 8, 0, 0), 0, true)
				  .admitted);
		ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
		ck_assert(info.finish <= 100);
		dl_rt_state_free(st);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_admit");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reduce_waves);
	tcase_add_test(tc, test_staggered_slots);
	tcase_add_test(tc, test_successor_check);
	tcase_add_test(tc, test_blocker_by_ticket);
	tcase_add_test(tc, test_start_window);
	tcase_add_test(tc, test_wide_and_unknown);
	tcase_add_test(tc, test_bad_requests);
	tcase_add_test(tc, test_tickets_and_reduce);
	tcase_add_test(tc, test_reduce_rejudged);
	tcase_add_test(tc, test_feedback_example);
	tcase_add_test(tc, test_feedback_off);
	tcase_add_test(tc, test_anchor_in_middle);
	tcase_add_test(tc, test_wc_cache);
	tcase_add_test(tc, test_padding);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_shared_state);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
