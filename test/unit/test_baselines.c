/*
 * test_baselines.c - the comparison policies: ARIA's minimum slots (its
 * closed form, minimality, degenerate inputs), and the plans of Fair and
 * ARIA (ranks, throttles, work conservation).
 */
#include <math.h>
#include <string.h>

#include "common/compare/baseline.h"
#include "fixtures.h"

static void w_init(struct fx_world *w, uint32_t nodes, uint32_t cpus)
{
	memset(w, 0, sizeof(*w));
	fx_cluster(&w->cl, nodes, cpus, 0);
	w->cfg = fx_config();
}

static struct dl_job *w_add(struct fx_world *w, struct dl_job *j)
{
	w->jobs[w->n++] = j;
	return j;
}

static void w_plan(struct fx_world *w, enum dl_baseline b, double now)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = now,
				     .forecast = NULL,
				     .rt = NULL};
	char err[256] = "";

	dl_plan_free(w->plan);
	w->plan = dl_baseline_plan(b, &in, err, sizeof(err));
	ck_assert_msg(w->plan != NULL, "plan failed: %s", err);
}

START_TEST(aria_closed_form)
{
	double sm, sr;

	/* A = 400 (40 maps of 10 s), B = 100 (5 reduces of 20 s), lam = mu:
	 * a = 395, b = 90, D = 100 - 15 = 85 */
	ck_assert_int_eq(
		dl_aria_min_slots(400, 10, 10, 100, 20, 20, 100, &sm, &sr), 0);
	ck_assert_double_eq_tol(sm, (395 + sqrt(395.0 * 90)) / 85, 1e-9);
	ck_assert_double_eq_tol(sr, (90 + sqrt(395.0 * 90)) / 85, 1e-9);
	/* the slots meet the deadline exactly in the bounds-average model */
	ck_assert_double_eq_tol(395 / sm + 90 / sr + 15, 100, 1e-9);
}
END_TEST

START_TEST(aria_is_minimal)
{
	double sm, sr;

	ck_assert_int_eq(
		dl_aria_min_slots(400, 10, 10, 100, 20, 20, 100, &sm, &sr), 0);
	/* any other split meeting the same time needs more slots in all */
	for (double d = -2; d <= 2; d += 0.25) {
		double m = sm + d, r;

		if (d == 0 || m <= 395 / 85.0)
			continue;
		r = 90 / (85 - 395 / m);
		ck_assert(m + r > sm + sr - 1e-9);
	}
}
END_TEST

START_TEST(aria_map_only_and_degenerate)
{
	double sm, sr;

	/* 10 maps of 10 s, longest 10: D = 52.5 - 5, a = 95 -> 2 slots */
	ck_assert_int_eq(
		dl_aria_min_slots(100, 10, 10, 0, 0, 0, 52.5, &sm, &sr), 0);
	ck_assert_double_eq_tol(sm, 2, 1e-9);
	ck_assert_double_eq(sr, 0);
	/* nothing left: no slots */
	ck_assert_int_eq(dl_aria_min_slots(0, 10, 10, 0, 0, 0, 10, &sm, &sr),
			 0);
	ck_assert_double_eq(sm, 0);
	/* the longest task alone does not fit: no allocation helps */
	ck_assert_int_eq(dl_aria_min_slots(100, 10, 30, 0, 0, 0, 10, &sm, &sr),
			 ERANGE);
	ck_assert_int_eq(dl_aria_min_slots(-1, 10, 10, 0, 0, 0, 10, &sm, &sr),
			 EINVAL);
	ck_assert_int_eq(dl_aria_min_slots(NAN, 10, 10, 0, 0, 0, 10, &sm, &sr),
			 EINVAL);
	ck_assert_int_eq(dl_aria_min_slots(1, 10, 10, 0, 0, 0, 10, NULL, &sr),
			 EINVAL);
}
END_TEST

START_TEST(names)
{
	for (int b = 0; b < DL_BASE_COUNT; b++)
		ck_assert_int_eq(dl_baseline_from_name(dl_baseline_name(
					 (enum dl_baseline) b)),
				 b);
	ck_assert_int_eq(dl_baseline_from_name("ARIA"), DL_BASE_ARIA);
	ck_assert_int_eq(dl_baseline_from_name("edf"), -1); /* core now */
	ck_assert_int_eq(dl_baseline_from_name(NULL), -1);
}
END_TEST

START_TEST(fair_water_fills)
{
	struct fx_world w;
	const struct dl_plan_job *a, *b, *c;

	w_init(&w, 5, 2); /* 10 CPUs */
	w_add(&w, fx_job(1, 100, 0, 1000));
	w_add(&w, fx_job(2, 100, 1, 1000));
	w_plan(&w, DL_BASE_FAIR, 10);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 5);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 5);
	/* a small job takes its whole demand, the others split the rest */
	w_add(&w, fx_job(3, 2, 2, 1000));
	w_plan(&w, DL_BASE_FAIR, 10);
	a = fx_world_get(&w, 1);
	b = fx_world_get(&w, 2);
	c = fx_world_get(&w, 3);
	ck_assert_uint_eq(c->alloc, 2);
	ck_assert_uint_eq(a->alloc + b->alloc, 8);
	ck_assert_uint_eq(a->alloc, 4);
	/* the job furthest below its share gets the next free slot */
	ck_assert_int_eq(dl_phase_add_running(&w.jobs[0]->phase[DL_MAP], 5,
					      DL_NO_NODE, DL_POOL_REGULAR),
			 0);
	w_plan(&w, DL_BASE_FAIR, 10);
	ck_assert_uint_gt(fx_world_get(&w, 1)->rank, fx_world_get(&w, 2)->rank);
	fx_world_free(&w);
}
END_TEST

START_TEST(fair_hands_out_leftover_in_whole_tasks)
{
	struct fx_world w;

	w_init(&w, 1, 7); /* 7 CPUs, three jobs: 2 + 2 + 2 and one left */
	w_add(&w, fx_job(1, 50, 0, 1000));
	w_add(&w, fx_job(2, 50, 1, 1000));
	w_add(&w, fx_job(3, 50, 2, 1000));
	w_plan(&w, DL_BASE_FAIR, 10);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc +
				  fx_world_get(&w, 2)->alloc +
				  fx_world_get(&w, 3)->alloc,
			  7);
	for (uint64_t id = 1; id <= 3; id++) {
		ck_assert_uint_ge(fx_world_get(&w, id)->alloc, 2);
		ck_assert_uint_le(fx_world_get(&w, id)->alloc, 3);
	}
	fx_world_free(&w);
}
END_TEST

START_TEST(aria_gives_minimum_then_leftover)
{
	struct fx_world w;
	const struct dl_plan_job *tight, *loose;

	w_init(&w, 10, 1); /* 10 slots */
	/* 40 tasks of 10 s known from history */
	tight = NULL;
	w_add(&w, fx_job(1, 40, 0, 100))->phase[DL_MAP].prior_mean = 10;
	w_add(&w, fx_job(2, 40, 0, 1000))->phase[DL_MAP].prior_mean = 10;
	w_plan(&w, DL_BASE_ARIA, 0);
	tight = fx_world_get(&w, 1);
	loose = fx_world_get(&w, 2);
	ck_assert_uint_eq(tight->rank, 1);
	/* tight: a = 395, D = 95 -> ceil(4.16) = 5 at least */
	ck_assert_uint_ge(tight->alloc_for_need, 5);
	/* loose: a = 395, D = 995 -> 1 */
	ck_assert_uint_eq(loose->alloc_for_need, 1);
	/* work-conserving: the 10 slots are all handed out */
	ck_assert_uint_eq(tight->alloc + loose->alloc, 10);
	/* without a task length the job gets what it could use (EDF) */
	w.jobs[0]->phase[DL_MAP].prior_mean = 0;
	w_plan(&w, DL_BASE_ARIA, 0);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc_for_need, 10);
	fx_world_free(&w);
}
END_TEST

START_TEST(bad_input)
{
	struct fx_world w;
	struct dl_policy_input in;
	char err[256] = "";

	w_init(&w, 2, 2);
	memset(&in, 0, sizeof(in));
	ck_assert_ptr_null(
		dl_baseline_plan(DL_BASE_FAIR, &in, err, sizeof(err)));
	ck_assert(err[0]);
	ck_assert_ptr_null(
		dl_baseline_plan(DL_BASE_FAIR, NULL, err, sizeof(err)));
	in.cluster = &w.cl;
	in.cfg = &w.cfg;
	err[0] = '\0';
	ck_assert_ptr_null(
		dl_baseline_plan(DL_BASE_COUNT, &in, err, sizeof(err)));
	ck_assert(strstr(err, "unknown"));
	in.now = NAN;
	ck_assert_ptr_null(
		dl_baseline_plan(DL_BASE_ARIA, &in, err, sizeof(err)));
	/* no jobs: an empty plan */
	in.now = 0;
	w.plan = dl_baseline_plan(DL_BASE_ARIA, &in, err, sizeof(err));
	ck_assert_ptr_nonnull(w.plan);
	ck_assert_uint_eq(w.plan->njobs, 0);
	fx_world_free(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("baselines");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, aria_closed_form);
	tcase_add_test(tc, aria_is_minimal);
	tcase_add_test(tc, aria_map_only_and_degenerate);
	tcase_add_test(tc, names);
	tcase_add_test(tc, fair_water_fills);
	tcase_add_test(tc, fair_hands_out_leftover_in_whole_tasks);
	tcase_add_test(tc, aria_gives_minimum_then_leftover);
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
