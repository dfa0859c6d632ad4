/*
 * test_estimate.c - mu, delta, Eq. 1-3 and finish-time predictions.
 */
#include <math.h>

#include "common/estimate/estimate.h"
#include "common/estimate/goal.h"
#include "common/estimate/predictor.h"
#include "fixtures.h"

#define EPS 1e-9

START_TEST(test_mu_and_sd)
{
	struct dl_job *j = fx_job(1, 10, 0, 100);

	ck_assert(dl_mu_pool(&j->phase[DL_MAP], -1) == 0);
	ck_assert_int_eq(dl_phase_mu(&j->phase[DL_MAP]).source, DL_MU_NONE);
	fx_done(j, DL_MAP, 1, 10, DL_POOL_REGULAR);
	fx_done(j, DL_MAP, 1, 20, DL_POOL_REGULAR);
	fx_done(j, DL_MAP, 1, 30, DL_POOL_ACCEL);
	ck_assert_double_eq_tol(dl_mu_pool(&j->phase[DL_MAP], -1), 20, EPS);
	ck_assert_double_eq_tol(dl_mu_pool(&j->phase[DL_MAP], 0), 15, EPS);
	ck_assert_double_eq_tol(dl_mu_pool(&j->phase[DL_MAP], 1), 30, EPS);
	ck_assert_double_eq_tol(dl_sd(&j->phase[DL_MAP]), 10, EPS);
	ck_assert_int_eq(dl_phase_mu(&j->phase[DL_MAP]).source, DL_MU_JOB);
	ck_assert_str_eq(dl_phase_mu(&j->phase[DL_MAP]).label, "job");
	dl_job_free(j);
}
END_TEST

START_TEST(test_prior_mu)
{
	struct dl_job *j = fx_job(1, 10, 0, 100);
	struct dl_mu mu;

	j->phase[DL_MAP].prior_mean = 40;
	j->phase[DL_MAP].prior_p90 = 40 + 1.2816 * 5;
	snprintf(j->phase[DL_MAP].prior_source, 24, "history:name");
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_int_eq(mu.source, DL_MU_PRIOR);
	ck_assert_double_eq_tol(mu.mean, 40, EPS);
	ck_assert_double_eq_tol(mu.sd, 5, 1e-6);
	ck_assert_str_eq(mu.label, "history:name");
	/* own completions win over history */
	fx_done(j, DL_MAP, 2, 8, 0);
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_int_eq(mu.source, DL_MU_JOB);
	ck_assert_double_eq_tol(mu.mean, 8, EPS);
	dl_job_free(j);
}
END_TEST

/* An exact prior (the simulator's perfect knowledge) is not replaced by
 * own completions; the estimator's answer is applied the same way by the
 * plugin and the simulator. */
START_TEST(test_prior_exact_and_use_prediction)
{
	struct dl_job *j = fx_job(1, 10, 0, 100);
	struct dl_prediction p = {.p50 = 30, .p90 = 60, .mean = 35};
	struct dl_mu mu;

	p.source = DL_PRED_DEFAULT;
	ck_assert(!dl_phase_use_prediction(&j->phase[DL_MAP], &p));
	ck_assert_double_eq(j->phase[DL_MAP].prior_mean, 0);
	p.source = DL_PRED_USER;
	ck_assert(dl_phase_use_prediction(&j->phase[DL_MAP], &p));
	ck_assert_double_eq_tol(j->phase[DL_MAP].prior_mean, 35, EPS);
	ck_assert_double_eq_tol(j->phase[DL_MAP].prior_p90, 60, EPS);
	ck_assert_str_eq(j->phase[DL_MAP].prior_source, "history:user");
	p.mean = NAN;
	ck_assert(!dl_phase_use_prediction(&j->phase[DL_MAP], &p));
	ck_assert(!dl_phase_use_prediction(NULL, &p));
	ck_assert(!dl_phase_use_prediction(&j->phase[DL_MAP], NULL));
	j->phase[DL_MAP].prior_exact = true;
	fx_done(j, DL_MAP, 2, 8, 0);
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_int_eq(mu.source, DL_MU_PRIOR);
	ck_assert_double_eq_tol(mu.mean, 35, EPS);
	/* a phase with completions gets no new prior */
	p.mean = 50;
	ck_assert(!dl_phase_use_prediction(&j->phase[DL_MAP], &p));
	j->phase[DL_MAP].prior_exact = false;
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_int_eq(mu.source, DL_MU_JOB);
	dl_job_free(j);
}
END_TEST

START_TEST(test_delta)
{
	ck_assert_double_eq_tol(dl_delta(100, 1000, 1030, 0.1), 70, EPS);
	/* near mu the floor already holds: Eq. 1's margin for a task that
	 * may run past the mean */
	ck_assert_double_eq_tol(dl_delta(100, 1000, 1095, 0.1), 10, EPS);
	/* beta > mu: floored at 10% of mu, never negative */
	ck_assert_double_eq_tol(dl_delta(100, 1000, 1500, 0.1), 10, EPS);
	ck_assert_double_eq_tol(dl_delta(100, 1000, 1500, 0), 0, EPS);
	/* a start in the future (clock skew) counts as just started */
	ck_assert_double_eq_tol(dl_delta(100, 2000, 1500, 0.1), 100, EPS);
	ck_assert_double_eq_tol(dl_delta(0, 0, 10, 0.1), 0, EPS);
}
END_TEST

/* The remaining time at a level of the log-normal conditioned on the
 * time already run: mean 100, sd 50 gives s^2 = ln 1.25 and a median of
 * 100 / sqrt(1.25) = 89.443 s for a task just started. */
START_TEST(test_remaining_at)
{
	double median = 100 / sqrt(1.25), prev = 0;
	double u[] = {0.05, 0.5, 0.95, 0, 1, NAN}, got[6];
	double elapsed[] = {0, 30, 89.4, 200, -5, NAN, INFINITY};
	struct dl_remaining r;

	ck_assert_double_eq_tol(dl_remaining_at(100, 50, 0, 0.5, 0), median,
				1e-6);
	/* half the tasks still running at the median end within its
	 * conditional median: the level's quantile of what is left */
	ck_assert_double_eq_tol(
		dl_remaining_at(100, 50, median, 0.5, 0) + median,
		100 * exp(-log(1.25) / 2 + sqrt(log(1.25)) * 0.6744898), 1e-3);
	/* higher levels end later; a long run leaves something */
	for (double l = 0.05; l < 1; l += 0.1) {
		double x = dl_remaining_at(100, 50, 150, l, 0);

		ck_assert(x > prev);
		prev = x;
	}
	/* no spread, or a level outside (0,1): dl_delta's mean - elapsed */
	ck_assert_double_eq_tol(dl_remaining_at(100, 0, 30, 0.5, 0.1), 70, EPS);
	ck_assert_double_eq_tol(dl_remaining_at(100, 50, 30, 1, 0.1), 70, EPS);
	ck_assert_double_eq_tol(dl_remaining_at(100, 0, 300, 0.5, 0.1), 10,
				EPS);
	/* a length not known exact keeps the floor near its end */
	ck_assert_double_eq_tol(dl_remaining_at(100, 0, 97, 0.5, 0.1), 10, EPS);
	/* never below the floor, no estimate: nothing left */
	ck_assert(dl_remaining_at(100, 50, 5000, 0.01, 0.1) >= 10);
	ck_assert_double_eq(dl_remaining_at(0, 50, 30, 0.5, 0.1), 0);
	ck_assert_double_eq(dl_remaining_at(NAN, 50, 30, 0.5, 0.1), 0);
	/* a phase's distribution prepared once gives the same bits */
	for (int m = 0; m < 3; m++) {
		double mean = m == 2 ? 0 : 100, sd = m == 1 ? 0 : 50;

		dl_remaining_init(&r, mean, sd, false, 0.1);
		for (size_t e = 0; e < sizeof(elapsed) / sizeof(*elapsed);
		     e++) {
			dl_remaining_levels(&r, elapsed[e], u, 6, got);
			for (int i = 0; i < 6; i++)
				ck_assert_msg(
					got[i] == dl_remaining_at(mean, sd,
								  elapsed[e],
								  u[i], 0.1),
					"mean %g elapsed %g u %g", mean,
					elapsed[e], u[i]);
		}
	}
}
END_TEST

/* Exact: no spread, known.  Two completions or more all alike, or
 * history whose p90 is its mean; one completion, a spread, no p90 or a
 * ratio guess are not. */
START_TEST(test_mu_exact)
{
	struct dl_job *j = fx_job(1, 10, 2, 100);
	struct dl_mu mu;

	ck_assert(!dl_phase_mu(&j->phase[DL_MAP]).exact);
	j->phase[DL_MAP].prior_mean = 40;
	ck_assert(!dl_phase_mu(&j->phase[DL_MAP]).exact); /* no p90 */
	j->phase[DL_MAP].prior_p90 = 40;
	ck_assert(dl_phase_mu(&j->phase[DL_MAP]).exact);
	j->phase[DL_MAP].prior_p90 = 41;
	ck_assert(!dl_phase_mu(&j->phase[DL_MAP]).exact);
	fx_done(j, DL_MAP, 1, 390.37, DL_POOL_REGULAR);
	ck_assert(!dl_phase_mu(&j->phase[DL_MAP]).exact); /* one */
	fx_done(j, DL_MAP, 4, 390.37, DL_POOL_REGULAR);
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_int_eq(mu.source, DL_MU_JOB);
	ck_assert(mu.exact);
	fx_done(j, DL_MAP, 1, 391, DL_POOL_REGULAR);
	ck_assert(!dl_phase_mu(&j->phase[DL_MAP]).exact);
	dl_job_free(j);
	/* a reduce length from the map's by a ratio is a guess */
	j = fx_job(2, 10, 2, 100);
	j->phase[DL_MAP].prior_mean = j->phase[DL_MAP].prior_p90 = 40;
	ck_assert(dl_phase_mu(&j->phase[DL_MAP]).exact);
	mu = dl_reduce_mu(j, 1);
	ck_assert_int_eq(mu.source, DL_MU_RATIO);
	ck_assert(!mu.exact);
	dl_job_free(j);
}
END_TEST

/* An exact length short of its mean has just what is left: tasks ending
 * within the floor do not all look floor_s away.  Past the mean, and for
 * a length not known exact, the floor holds. */
START_TEST(test_remaining_exact)
{
	struct dl_remaining r;
	double u[2] = {0.1, 0.5}, out[2];

	dl_remaining_init(&r, 390, 0, true, 0.1);
	dl_remaining_levels(&r, 389, u, 2, out);
	ck_assert_double_eq_tol(out[0], 1, EPS);
	ck_assert_double_eq_tol(out[1], 1, EPS);
	dl_remaining_levels(&r, 0, u, 2, out);
	ck_assert_double_eq_tol(out[0], 390, EPS);
	dl_remaining_levels(&r, 390, u, 2, out);
	ck_assert_double_eq_tol(out[0], 39, EPS);
	dl_remaining_levels(&r, 1000, u, 2, out);
	ck_assert_double_eq_tol(out[1], 39, EPS);
	/* the same length not known exact */
	dl_remaining_init(&r, 390, 0, false, 0.1);
	dl_remaining_levels(&r, 389, u, 2, out);
	ck_assert_double_eq_tol(out[0], 39, EPS);
	/* exact wins over a spread given with it (no spread to draw) */
	dl_remaining_init(&r, 390, 1e-4, true, 0.1);
	dl_remaining_levels(&r, 380, u, 2, out);
	ck_assert_double_eq_tol(out[0], 10, EPS);
	ck_assert_double_eq_tol(out[1], 10, EPS);
}
END_TEST

/* Eq. 1 by hand: mu 10, two running (elapsed 4 and 12 -> delta 6 and
 * floor 1), 20 pending, 100 s to the goal:
 * (6 + 1 + 20*10) / 100 - 2 = 0.07 */
START_TEST(test_sreq_eq1)
{
	struct dl_job *j = fx_job(1, 30, 0, 1100);
	struct dl_phase *ph = &j->phase[DL_MAP];

	fx_done(j, DL_MAP, 8, 10, 0);
	ck_assert_int_eq(dl_phase_add_running(ph, 996, DL_NO_NODE, 0), 0);
	ck_assert_int_eq(dl_phase_add_running(ph, 988, DL_NO_NODE, 0), 0);
	ck_assert_uint_eq(dl_phase_pending(ph), 20);
	ck_assert_double_eq_tol(dl_sreq(ph, 10, 1100, 1000, 0.1), 0.07, EPS);
	ck_assert_double_eq_tol(dl_need(ph, 10, 1100, 1000, 0.1), 2.07, EPS);
	dl_job_free(j);
}
END_TEST

/* The paper's property: launching a task (delta = mu) moves it from U to R
 * without changing the numerator, so s_req drops by exactly one. */
START_TEST(test_sreq_drops_by_one_per_slot)
{
	struct dl_job *j = fx_job(1, 500, 0, 5000);
	struct dl_phase *ph = &j->phase[DL_MAP];
	double prev, now = 1000;

	fx_done(j, DL_MAP, 10, 37.5, 0);
	fx_run(j, DL_MAP, 3, 990, 0);
	prev = dl_sreq(ph, 37.5, 3000, now, 0.1);
	for (int k = 0; k < 50; k++) {
		double s;

		ck_assert_int_eq(dl_phase_add_running(ph, now, DL_NO_NODE, 0),
				 0);
		s = dl_sreq(ph, 37.5, 3000, now, 0.1);
		ck_assert_double_eq_tol(prev - s, 1.0, 1e-9);
		prev = s;
	}
	dl_job_free(j);
}
END_TEST

START_TEST(test_sreq_degenerate)
{
	struct dl_job *j = fx_job(1, 10, 0, 100);
	struct dl_phase *ph = &j->phase[DL_MAP];

	/* no estimate */
	ck_assert(isnan(dl_sreq(ph, 0, 100, 0, 0.1)));
	ck_assert(isnan(dl_sreq(NULL, 10, 100, 0, 0.1)));
	/* goal already past with work left */
	ck_assert(isinf(dl_sreq(ph, 10, 100, 100, 0.1)));
	ck_assert(isinf(dl_sreq(ph, 10, 100, 250, 0.1)));
	/* no work left: only the running tasks could be given back */
	fx_done(j, DL_MAP, 10, 5, 0);
	ck_assert_double_eq_tol(dl_sreq(ph, 10, 100, 50, 0.1), 0, EPS);
	dl_job_free(j);
}
END_TEST

/* Eq. 2 uses only accelerated running tasks and the accelerated mean. */
START_TEST(test_sreq_acc_eq2)
{
	struct dl_job *j = fx_job(1, 110, 0, 2000);
	struct dl_phase *ph = &j->phase[DL_MAP];

	fx_done(j, DL_MAP, 2, 50, DL_POOL_ACCEL);
	fx_done(j, DL_MAP, 2, 100, DL_POOL_REGULAR);
	fx_run(j, DL_MAP, 4, 980, DL_POOL_ACCEL);   /* delta 30 each */
	fx_run(j, DL_MAP, 2, 980, DL_POOL_REGULAR); /* ignored */
	/* pending 100: (4*30 + 100*50) / 1000 - 4 = 1.12 */
	ck_assert_double_eq_tol(dl_sreq_acc(ph, 50, 2000, 1000, 0.1), 1.12,
				EPS);
	dl_job_free(j);
}
END_TEST

/* Eq. 3, the thesis's worked example: 10 accelerated slots, maps of 50 s
 * accelerated and 100 s regular, s_req,acc = 15 -> 10 regular slots. */
START_TEST(test_sreq_extra_eq3)
{
	ck_assert_double_eq_tol(dl_sreq_extra(100, 50, 15, 10), 10, EPS);
	ck_assert_double_eq_tol(dl_sreq_extra(100, 50, 10, 10), 0, EPS);
	ck_assert_double_eq_tol(dl_sreq_extra(100, 50, 8, 10), 0, EPS);
	ck_assert_double_eq_tol(dl_sreq_extra(100, 4, 11, 10), 25, EPS);
	ck_assert_double_eq_tol(dl_sreq_extra(0, 50, 15, 10), 0, EPS);
	ck_assert_double_eq_tol(dl_sreq_extra(100, 0, 15, 10), 0, EPS);
}
END_TEST

START_TEST(test_finish_waves)
{
	struct dl_job *j = fx_job(1, 10, 0, 1000);
	struct dl_phase *ph = &j->phase[DL_MAP];

	/* 10 pending tasks of 10 s on 3 slots: waves 3,3,3,1 -> 40 s */
	ck_assert_double_eq_tol(dl_phase_finish(ph, 10, 100, 3, 0.1), 140,
				1e-6);
	/* on 10 slots: one wave */
	ck_assert_double_eq_tol(dl_phase_finish(ph, 10, 100, 10, 0.1), 110,
				1e-6);
	/* more slots than tasks do not help */
	ck_assert_double_eq_tol(dl_phase_finish(ph, 10, 100, 50, 0.1), 110,
				1e-6);
	/* no slot: never */
	ck_assert(isinf(dl_phase_finish(ph, 10, 100, 0, 0.1)));
	dl_job_free(j);
}
END_TEST

START_TEST(test_finish_with_running)
{
	struct dl_job *j = fx_job(1, 6, 0, 1000);
	struct dl_phase *ph = &j->phase[DL_MAP];

	/* 2 running with 4 s and 8 s left, 4 pending of 10 s on 2 slots:
	 * slot A frees at 4 -> 14 -> 24; slot B at 8 -> 18 -> 28 */
	ck_assert_int_eq(dl_phase_add_running(ph, 94, DL_NO_NODE, 0), 0);
	ck_assert_int_eq(dl_phase_add_running(ph, 98, DL_NO_NODE, 0), 0);
	ck_assert_double_eq_tol(dl_phase_finish(ph, 10, 100, 2, 0.1), 128,
				1e-6);
	/* throttled to 1 below the 2 running: the pending tasks wait for
	 * concurrency to drain below 1: 8 + 4 * 10 = 48 */
	ck_assert_double_eq_tol(dl_phase_finish(ph, 10, 100, 1, 0.1), 148,
				1e-6);
	dl_job_free(j);
}
END_TEST

START_TEST(test_finish_err)
{
	struct dl_job *j = fx_job(1, 16, 0, 1000);

	ck_assert_double_eq_tol(dl_phase_finish_err(&j->phase[DL_MAP], 3, 4),
				3 * 2, EPS);
	ck_assert_double_eq_tol(dl_phase_finish_err(&j->phase[DL_MAP], 0, 4), 0,
				EPS);
	dl_job_free(j);
}
END_TEST

/* Whole waves: 34 tasks of 390 s due in 951 s.  Eq. 1 says 13.9, but 14
 * slots take 3 waves (1170 s) and 16 still 3; 17 take 2 (780 s). */
START_TEST(test_wave_need)
{
	struct dl_job *j = fx_job(1, 34, 0, 951);
	struct dl_phase *ph = &j->phase[DL_MAP];
	double fluid = dl_need(ph, 390, 951, 0, 0.1);

	ck_assert_double_eq_tol(fluid, 34 * 390 / 951.0, EPS);
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 951, 0, 0.1, fluid), 17,
				EPS);
	/* at the wave boundary: 34 tasks in exactly 2 waves with 17 */
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 780, 0, 0.1,
					     dl_need(ph, 390, 780, 0, 0.1)),
				17, EPS);
	/* one wave is too little time for anything less than all */
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 400, 0, 0.1,
					     dl_need(ph, 390, 400, 0, 0.1)),
				34, EPS);
	/* even all at once misses: every task left */
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 100, 0, 0.1,
					     dl_need(ph, 390, 100, 0, 0.1)),
				34, EPS);
	/* a loose goal: never below Eq. 1, which is then exact enough */
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 34 * 390, 0, 0.1, 1), 1,
				EPS);
	/* nothing to refine: fluid comes back */
	ck_assert(isnan(dl_wave_need(ph, 0, 951, 0, 0.1, NAN)));
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 951, 1000, 0.1, 5), 5,
				EPS);
	/* running tasks count: 10 running (started at 0) + 24 pending by
	 * 951 s: 12 slots take 390 + 2 waves of 12 = 1170; 17: 390 + 390 */
	fx_run(j, DL_MAP, 10, 0, 0);
	ck_assert_double_eq_tol(dl_wave_need(ph, 390, 951, 0, 0.1,
					     dl_need(ph, 390, 951, 0, 0.1)),
				17, EPS);
	dl_job_free(j);
}
END_TEST

START_TEST(test_big_array)
{
	struct dl_job *j = fx_job(1, 100000, 0, 100000);
	struct dl_phase *ph = &j->phase[DL_MAP];
	double s, f;

	fx_done(j, DL_MAP, 1000, 30, 0);
	fx_run(j, DL_MAP, 500, 990, 0);
	s = dl_sreq(ph, 30, 11000, 1000, 0.1);
	/* (500*20 + 98500*30) / 10000 - 500 = -203.5 */
	ck_assert_double_eq_tol(s, -203.5, 1e-6);
	f = dl_phase_finish(ph, 30, 1000, 1000, 0.1);
	ck_assert(isfinite(f) && f > 1000);
	dl_job_free(j);
}
END_TEST

/* Brute force: list-schedule tasks one by one on the earliest free slot. */
static double brute_finish(const struct dl_phase *ph, double mu, double now,
			   uint32_t slots)
{
	double free_at[64], d[64], end = 0;
	uint32_t r = ph->nrunning, n = slots, pending = dl_phase_pending(ph);

	for (uint32_t i = 0; i < r; i++)
		d[i] = dl_delta(mu, ph->running[i].start, now, 0.1);
	for (uint32_t i = 0; i < r; i++) /* sort */
		for (uint32_t k = i + 1; k < r; k++)
			if (d[k] < d[i]) {
				double t = d[i];

				d[i] = d[k];
				d[k] = t;
			}
	for (uint32_t i = 0; i < r; i++)
		end = d[i] > end ? d[i] : end;
	if (n > pending + r)
		n = pending + r;
	for (uint32_t k = 0; k < n; k++)
		free_at[k] =
			r > n ? d[r - n + k] : (k < n - r ? 0 : d[k - (n - r)]);
	for (uint32_t t = 0; t < pending; t++) {
		uint32_t best = 0;

		for (uint32_t k = 1; k < n; k++)
			if (free_at[k] < free_at[best])
				best = k;
		free_at[best] += mu;
		end = free_at[best] > end ? free_at[best] : end;
	}
	return now + end;
}

START_TEST(test_finish_matches_list_scheduling)
{
	uint64_t seed = 12345;

	for (int trial = 0; trial < 2000; trial++) {
		uint32_t tasks, run, slots;
		struct dl_job *j;
		double mu, want, got;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		tasks = 1 + (uint32_t) ((seed >> 33) % 40);
		run = (uint32_t) ((seed >> 20) % 16);
		run = run > tasks ? tasks : run;
		slots = 1 + (uint32_t) ((seed >> 40) % 20);
		mu = 1 + (double) ((seed >> 12) % 997) / 10;
		j = fx_job(1, tasks, 0, 1e6);
		for (uint32_t i = 0; i < run; i++)
			ck_assert_int_eq(
				dl_phase_add_running(
					&j->phase[DL_MAP],
					1000 - (double) ((seed >> (i % 50)) %
							 1000) /
							7,
					DL_NO_NODE, 0),
				0);
		want = brute_finish(&j->phase[DL_MAP], mu, 1000, slots);
		got = dl_phase_finish(&j->phase[DL_MAP], mu, 1000, slots, 0.1);
		ck_assert_msg(
			fabs(want - got) < 1e-6 * (1 + want),
			"trial %d: tasks %u run %u slots %u mu %g: %g vs %g",
			trial, tasks, run, slots, mu, got, want);
		dl_job_free(j);
	}
}
END_TEST

/* The wave need is the smallest slot count from Eq. 1's (rounded up)
 * whose list schedule meets the goal (every task when none does): checked
 * against the brute-force schedule of every slot count.  The running
 * tasks have from none to all of a task length left, so some slots free
 * before the pending tasks on the idle ones are done and some after. */
START_TEST(test_wave_need_matches_list_scheduling)
{
	uint64_t seed = 987654321;

	for (int trial = 0; trial < 1000; trial++) {
		uint32_t tasks, run, from, want = 0;
		struct dl_job *j;
		struct dl_phase *ph;
		double mu, goal, fluid, got;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		tasks = 1 + (uint32_t) ((seed >> 33) % 40);
		run = (uint32_t) ((seed >> 20) % 16);
		run = run >= tasks ? tasks - 1 : run; /* some pending */
		mu = 1 + (double) ((seed >> 12) % 997) / 10;
		goal = 1000 + mu * (1 + (double) ((seed >> 45) % 400) / 40);
		j = fx_job(1, tasks, 0, 1e6);
		ph = &j->phase[DL_MAP];
		for (uint32_t i = 0; i < run; i++) {
			/* started 0 to 1.2 task lengths ago */
			double ago =
				mu * (double) ((seed >> (i % 50)) % 120) / 100;

			ck_assert_int_eq(dl_phase_add_running(ph, 1000 - ago,
							      DL_NO_NODE, 0),
					 0);
		}
		fluid = dl_need(ph, mu, goal, 1000, 0.1);
		/* whole tasks from Eq. 1 up, when that leaves room to search */
		from = fluid > 1 && ceil(fluid - 1e-9) < tasks
			       ? (uint32_t) ceil(fluid - 1e-9)
			       : 1;
		for (uint32_t s = from; s <= tasks && !want; s++)
			if (brute_finish(ph, mu, 1000, s) <= goal + 1e-6)
				want = s;
		got = dl_wave_need(ph, mu, goal, 1000, 0.1, fluid);
		if (!want)
			ck_assert_msg(got == tasks, "trial %d: %g, not all %u",
				      trial, got, tasks);
		else
			ck_assert_msg(
				got == (want > fluid ? want : fluid),
				"trial %d: tasks %u run %u mu %g goal %g: "
				"%g, brute force %u (Eq. 1 %g)",
				trial, tasks, run, mu, goal, got, want, fluid);
		dl_job_free(j);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("estimate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mu_and_sd);
	tcase_add_test(tc, test_prior_mu);
	tcase_add_test(tc, test_prior_exact_and_use_prediction);
	tcase_add_test(tc, test_delta);
	tcase_add_test(tc, test_remaining_at);
	tcase_add_test(tc, test_mu_exact);
	tcase_add_test(tc, test_remaining_exact);
	tcase_add_test(tc, test_sreq_eq1);
	tcase_add_test(tc, test_sreq_drops_by_one_per_slot);
	tcase_add_test(tc, test_sreq_degenerate);
	tcase_add_test(tc, test_sreq_acc_eq2);
	tcase_add_test(tc, test_sreq_extra_eq3);
	tcase_add_test(tc, test_finish_waves);
	tcase_add_test(tc, test_finish_with_running);
	tcase_add_test(tc, test_finish_err);
	tcase_add_test(tc, test_finish_matches_list_scheduling);
	tcase_add_test(tc, test_big_array);
	tcase_add_test(tc, test_wave_need);
	tcase_add_test(tc, test_wave_need_matches_list_scheduling);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
