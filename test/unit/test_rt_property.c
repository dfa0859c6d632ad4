/*
 * test_rt_property.c - property tests of the realtime policy over random
 * workloads (seeded): when actual task lengths stay within the worst case,
 * every admitted job meets its deadline (shared and split pools, with and
 * without feedback, with the Slurm-side resync, as published and ours);
 * admission is monotone in the deadline; feedback never makes an admitted
 * job's worst-case finish later; the reservation walk equals the paper's
 * one-slot-at-a-time form.
 */
#include "rt_sim.h"

/* Random workloads per property.  Under valgrind (its preload library is
 * in LD_PRELOAD) a tenth: the memory checks need the code paths, not the
 * statistics, and CI runs every unit test under valgrind. */
static int runs(void)
{
	const char *pre = getenv("LD_PRELOAD");

	return pre && strstr(pre, "vgpreload") ? 25 : 250;
}

#define RUNS runs()

static void run_many(bool split, enum sim_mode mode, uint32_t flags, double lo,
		     uint64_t seed)
{
	struct rng r = {seed};
	uint32_t admitted = 0, rejected = 0;

	for (int it = 0; it < RUNS; it++) {
		struct sim s;

		sim_random(&s, &r, split, mode, flags, lo);
		sim_run(&s);
		ck_assert_msg(s.late == 0,
			      "run %d: %u admitted jobs missed their deadline",
			      it, s.late);
		ck_assert_msg(s.held == 0, "run %d: %u jobs held", it, s.held);
		admitted += s.admitted;
		rejected += s.rejected;
		sim_free(&s);
	}
	/* the workloads must exercise both verdicts */
	ck_assert_uint_gt(admitted, (uint32_t) RUNS);
	ck_assert_uint_gt(rejected, (uint32_t) RUNS / 2);
}

START_TEST(test_guarantee_shared)
{
	run_many(false, SIM_FEEDBACK, 0, 0.2, 1);
}
END_TEST

START_TEST(test_guarantee_split)
{
	run_many(true, SIM_FEEDBACK, 0, 0.2, 2);
}
END_TEST

START_TEST(test_guarantee_no_feedback)
{
	run_many(false, SIM_NO_FEEDBACK, 0, 0.2, 3);
	run_many(true, SIM_NO_FEEDBACK, 0, 0.2, 4);
}
END_TEST

START_TEST(test_guarantee_paper_order)
{
	run_many(true, SIM_FEEDBACK, DL_RT_PAPER_ORDER, 0.2, 5);
	run_many(false, SIM_FEEDBACK, DL_RT_PAPER_ORDER, 0.2, 6);
}
END_TEST

/* every task exactly at its worst case: the model is exact */
START_TEST(test_guarantee_exact)
{
	run_many(false, SIM_FEEDBACK, 0, 1.0, 7);
	run_many(true, SIM_FEEDBACK, 0, 1.0, 8);
}
END_TEST

/* the Slurm path: the state resynced from live snapshots every event */
START_TEST(test_guarantee_resync)
{
	run_many(false, SIM_RESYNC, 0, 0.2, 9);
	run_many(false, SIM_RESYNC, 0, 1.0, 10);
}
END_TEST

/* without the padding shortcut (every later job recomputed) */
START_TEST(test_guarantee_exact_admission)
{
	run_many(false, SIM_FEEDBACK, DL_RT_EXACT, 0.2, 14);
	run_many(true, SIM_RESYNC, DL_RT_EXACT, 1.0, 15);
}
END_TEST

/* Random admitted sets; a job admitted with deadline D1 is admitted with
 * any D2 > D1. */
START_TEST(test_monotone_admission)
{
	struct rng r = {11};
	uint32_t checked = 0;

	for (int it = 0; it < 400 * RUNS / 250; it++) {
		bool split = rng_u(&r, 0, 1);
		uint32_t um = rng_u(&r, 1, 8), ur = split ? rng_u(&r, 1, 4) : 0;
		struct dl_rt_state *st = rt_state(um, ur, 0);
		uint32_t n = rng_u(&r, 0, 12);
		double now = rng_d(&r, 0, 20);

		for (uint32_t i = 0; i < n; i++) {
			struct dl_rt_request q =
				rt_req(i + 1, rng_d(&r, 0, now),
				       now + rng_d(&r, 5, 120), rng_u(&r, 1, 8),
				       rng_d(&r, 1, 10), rng_u(&r, 0, 5),
				       rng_d(&r, 1, 10));
			struct dl_rt_verdict v;

			ck_assert_int_eq(
				dl_rt_admit(st, &q, q.arrival, true, &v), 0);
		}
		for (int k = 0; k < 10; k++) {
			struct dl_rt_request q =
				rt_req(1000 + k, now, 0, rng_u(&r, 1, 10),
				       rng_d(&r, 1, 10), rng_u(&r, 0, 4),
				       rng_d(&r, 1, 10));
			struct dl_rt_verdict v1, v2;
			double d1 = now + rng_d(&r, 1, 100);
			double d2 = d1 + rng_d(&r, 0.001, 60);

			q.deadline = d1;
			ck_assert_int_eq(dl_rt_admit(st, &q, now, false, &v1),
					 0);
			q.deadline = d2;
			ck_assert_int_eq(dl_rt_admit(st, &q, now, false, &v2),
					 0);
			if (v1.admitted) {
				checked++;
				ck_assert_msg(v2.admitted,
					      "admitted with deadline %g but "
					      "not %g: %s",
					      d1, d2, v2.msg);
			}
			/* the suggested deadline is admitted */
			if (!v2.admitted && !isnan(v2.admissible_deadline)) {
				struct dl_rt_verdict v3;

				q.deadline = v2.admissible_deadline;
				ck_assert_int_eq(
					dl_rt_admit(st, &q, now, false, &v3),
					0);
				ck_assert_msg(
					v3.admitted,
					"suggested deadline %g rejected: %s",
					q.deadline, v3.msg);
			}
		}
		dl_rt_state_free(st);
	}
	ck_assert_uint_gt(checked, (uint32_t) (200 * RUNS / 250));
}
END_TEST

/* Pure EDF list scheduling is not monotone: 2 slots; K (2 tasks of 2 s,
 * deadline 4) is admitted; J (1 task of 3 s) meets deadline 3 ahead of K,
 * but with deadline 4.5 it would run behind K and end at 5.  Ours places it
 * ahead of K then; as published it is rejected. */
START_TEST(test_edf_not_monotone)
{
	for (int paper = 0; paper < 2; paper++) {
		struct dl_rt_state *st =
			rt_state(2, 0, paper ? DL_RT_PAPER_ORDER : 0);
		struct dl_rt_request k = rt_req(1, 0, 4, 2, 2, 0, 0);
		struct dl_rt_request j = rt_req(2, 0, 3, 1, 3, 0, 0);
		struct dl_rt_verdict v;

		ck_assert_int_eq(dl_rt_admit(st, &k, 0, true, &v), 0);
		ck_assert(v.admitted);
		ck_assert_int_eq(dl_rt_admit(st, &j, 0, false, &v), 0);
		ck_assert(v.admitted); /* ahead of K: J ends 3, K ends 4 */
		ck_assert_double_eq(v.finish, 3);
		j.deadline = 4.5;
		ck_assert_int_eq(dl_rt_admit(st, &j, 0, false, &v), 0);
		if (paper) {
			ck_assert(!v.admitted);
			ck_assert_double_eq(v.finish, 5);
		} else {
			ck_assert(v.admitted);
			ck_assert(v.promoted);
			ck_assert_double_eq(v.finish, 3);
		}
		dl_rt_state_free(st);
	}
}
END_TEST

/* Alg. V inside running workloads (sim_end_job checks that no admitted
 * job's worst-case finish gets later); it must actually rebuild vectors. */
START_TEST(test_feedback_never_invalidates)
{
	struct rng r = {12};
	uint32_t updates = 0;

	for (int it = 0; it < RUNS; it++) {
		struct sim s;

		sim_random(&s, &r, it % 2, SIM_FEEDBACK, 0, 0.1);
		sim_run(&s);
		ck_assert_uint_eq(s.late, 0);
		updates += s.feedback_updates;
		sim_free(&s);
	}
	ck_assert_uint_gt(updates, (uint32_t) RUNS);
}
END_TEST

/* The paper's walk: one free slot at a time, restarting from the top. */
static void literal_walk(struct dl_rt_walk_job *j, uint32_t n, uint64_t freeu)
{
	for (uint32_t i = 0; i < n; i++)
		j[i].granted = 0;
	for (;;) {
		uint64_t reserved = 0;
		bool assigned = false;

		for (uint32_t i = 0; i < n; i++) {
			uint32_t c = j[i].cpus ? j[i].cpus : 1;

			if (reserved >= freeu)
				break;
			if (j[i].granted < j[i].ready) {
				if (freeu - reserved >= c) {
					j[i].granted++;
					freeu -= c;
					assigned = true;
				}
				break; /* served, or its task does not fit */
			}
			reserved += j[i].reserve;
		}
		if (!assigned)
			return;
	}
}

START_TEST(test_walk_equals_literal)
{
	struct rng r = {13};

	for (int it = 0; it < 20 * RUNS; it++) {
		struct dl_rt_walk_job a[12], b[12];
		uint32_t n = rng_u(&r, 0, 12);
		uint64_t freeu = rng_u(&r, 0, 30);

		for (uint32_t i = 0; i < n; i++) {
			memset(&a[i], 0, sizeof(a[i]));
			a[i].ready = rng_u(&r, 0, 3) ? rng_u(&r, 0, 8) : 0;
			a[i].cpus = rng_u(&r, 1, 3);
			a[i].reserve = rng_u(&r, 0, 1) ? rng_u(&r, 0, 10) : 0;
			b[i] = a[i];
		}
		dl_rt_walk(a, n, freeu);
		literal_walk(b, n, freeu);
		for (uint32_t i = 0; i < n; i++)
			ck_assert_msg(a[i].granted == b[i].granted,
				      "case %d job %u: %u vs literal %u", it, i,
				      a[i].granted, b[i].granted);
	}
}
END_TEST

/* The paper's walk on its own terms: higher-priority jobs that have not
 * reached their reduce stage hold their R reduce slots. */
START_TEST(test_walk_reservation)
{
	struct dl_rt_walk_job w[3];

	memset(w, 0, sizeof(w));
	w[0].reserve = 3; /* maps still running, 3 reducers to come */
	w[1].ready = 5;   /* reducers ready */
	w[2].ready = 5;
	/* 4 free slots: 3 held for job 0, one for job 1 */
	ck_assert_uint_eq(dl_rt_walk(w, 3, 4), 1);
	ck_assert_uint_eq(w[1].granted, 1);
	ck_assert_uint_eq(w[2].granted, 0);
	ck_assert(w[2].blocked);
	/* 3 free: everything held */
	ck_assert_uint_eq(dl_rt_walk(w, 3, 3), 0);
	ck_assert(w[1].blocked);
	/* a job in its reduce stage with nothing ready holds nothing */
	w[0].reserve = 0;
	ck_assert_uint_eq(dl_rt_walk(w, 3, 7), 7);
	ck_assert_uint_eq(w[1].granted, 5);
	ck_assert_uint_eq(w[2].granted, 2);
	ck_assert_uint_eq(dl_rt_walk(NULL, 3, 7), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_property");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_walk_reservation);
	tcase_add_test(tc, test_walk_equals_literal);
	tcase_add_test(tc, test_edf_not_monotone);
	tcase_add_test(tc, test_monotone_admission);
	tcase_add_test(tc, test_feedback_never_invalidates);
	tcase_add_test(tc, test_guarantee_shared);
	tcase_add_test(tc, test_guarantee_split);
	tcase_add_test(tc, test_guarantee_no_feedback);
	tcase_add_test(tc, test_guarantee_paper_order);
	tcase_add_test(tc, test_guarantee_exact);
	tcase_add_test(tc, test_guarantee_resync);
	tcase_add_test(tc, test_guarantee_exact_admission);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
