/*
 * test_predictor.c - task-length predictors: summaries, the rate model,
 * calibration, quantiles, the default, and the history's predictor chain
 * (job -> history:name -> history:user -> rate -> default), windows, age
 * limit, profiles and bad input.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/estimate/history.h"
#include "common/estimate/predictor.h"
#include "common/estimate/stats.h"
#include "fixtures.h"

static struct dl_pred_cfg pcfg(void)
{
	struct dl_pred_cfg c;

	dl_pred_cfg_defaults(&c);
	return c;
}

START_TEST(test_cfg_defaults_and_check)
{
	struct dl_pred_cfg c = pcfg();
	char err[128] = "";

	ck_assert_int_eq(c.min_samples, 3);
	ck_assert_int_eq(dl_pred_cfg_check(&c, err, sizeof(err)), 0);
	c.prior_sd = 0;
	ck_assert_int_eq(dl_pred_cfg_check(&c, err, sizeof(err)), EINVAL);
	ck_assert(strstr(err, "PriorSpread"));
	c = pcfg();
	c.calib_min = c.calib_window + 1;
	ck_assert_int_eq(dl_pred_cfg_check(&c, err, sizeof(err)), EINVAL);
	c = pcfg();
	c.default_len[1] = NAN;
	ck_assert_int_eq(dl_pred_cfg_check(&c, err, sizeof(err)), EINVAL);
	c = pcfg();
	c.min_samples = 0;
	ck_assert_int_eq(dl_pred_cfg_check(&c, err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_pred_cfg_check(NULL, err, sizeof(err)), EINVAL);
}
END_TEST

START_TEST(test_summary_worked_example)
{
	/* the doc/protocol.md example: 16.4 22.8 23.5 35.6 36.2 61 */
	double x[] = {61, 16.4, 35.6, 22.8, 36.2, 23.5}, s[6];
	struct dl_pred_cfg c = pcfg();
	struct dl_summary sm;
	double lm = 0, ss = 0;

	ck_assert_int_eq(dl_summary_compute(x, 6, &c, s, &sm), 0);
	ck_assert_int_eq(sm.n, 6);
	ck_assert_double_eq_tol(sm.p50, 29.55, 1e-9);
	ck_assert_double_eq_tol(sm.mean, 195.5 / 6, 1e-9);
	ck_assert_double_eq_tol(sm.max, 61, 1e-12);
	for (int i = 0; i < 6; i++)
		lm += log(x[i]) / 6;
	for (int i = 0; i < 6; i++)
		ss += (log(x[i]) - lm) * (log(x[i]) - lm);
	/* pooled with the prior: (nu0 s0^2 + ss) / (nu0 + n - 1) */
	ck_assert_double_eq_tol(sm.lsd, sqrt((2 * 0.25 + ss) / 7), 1e-12);
	ck_assert_double_eq_tol(sm.spread, sm.lsd * sqrt(7.0 / 6), 1e-12);
	ck_assert_double_eq_tol(sm.df, 7, 1e-12);
	ck_assert_double_eq_tol(sm.lsd, 0.4732, 1e-4);
	/* input untouched */
	ck_assert(x[0] == 61);
}
END_TEST

START_TEST(test_summary_degenerate)
{
	struct dl_pred_cfg c = pcfg();
	struct dl_summary sm;
	double one[] = {30}, zero[] = {0, 0, 0}, bad[] = {1, -2}, s[3];
	double nan[] = {1, NAN};

	/* one sample: spread is the prior's (times sqrt 2) */
	ck_assert_int_eq(dl_summary_compute(one, 1, &c, s, &sm), 0);
	ck_assert_double_eq_tol(sm.p50, 30, 1e-12);
	ck_assert_double_eq_tol(sm.lsd, 0.5, 1e-12);
	ck_assert_double_eq_tol(sm.spread, 0.5 * sqrt(2), 1e-12);
	/* zero-length tasks are fine (floored inside the log) */
	ck_assert_int_eq(dl_summary_compute(zero, 3, &c, s, &sm), 0);
	ck_assert(isfinite(sm.spread));
	ck_assert_int_eq(dl_summary_compute(bad, 2, &c, s, &sm), EINVAL);
	ck_assert_int_eq(dl_summary_compute(nan, 2, &c, s, &sm), EINVAL);
	ck_assert_int_eq(dl_summary_compute(one, 0, &c, s, &sm), EINVAL);
	ck_assert_int_eq(dl_summary_compute(one, 1, &c, NULL, &sm), EINVAL);
}
END_TEST

/* Issue 12 E2: completed [0,0,0] gave p50 0.001 > max 0. */
START_TEST(test_zero_durations_ordered)
{
	struct dl_pred_cfg cfg;
	struct dl_summary sm;
	struct dl_prediction p;
	double x[3] = {0, 0, 0}, scratch[3];

	dl_pred_cfg_defaults(&cfg);
	ck_assert_int_eq(dl_summary_compute(x, 3, &cfg, scratch, &sm), 0);
	dl_pred_from_summary(&sm, DL_PRED_JOB, NULL, &cfg, &p);
	ck_assert(p.p50 > 0);
	ck_assert(p.p50 <= p.max);
	ck_assert(p.p50 <= p.mean);
	ck_assert(p.p50 <= p.p90 && p.p90 <= p.p99);
}
END_TEST

START_TEST(test_quantiles_from_t_and_calibration)
{
	struct dl_pred_cfg c = pcfg();
	struct dl_prediction p;
	struct dl_calib cal;

	/* t prior: p90 = p50 exp(t(0.9, 7) * spread) */
	memset(&p, 0, sizeof(p));
	dl_pred_quantiles(29.55, 0.5111, 7, NULL, &c, &p);
	ck_assert_double_eq_tol(
		p.p90, 29.55 * exp(dl_t_quantile(0.9, 7) * 0.5111), 1e-9);
	ck_assert_double_eq_tol(p.p90, 60.9, 0.05);
	ck_assert(!p.calibrated);
	ck_assert(p.p50 <= p.p90 && p.p90 <= p.p99);

	/* calibration: errors z = 0.01 .. 1.00 (uniform): q0.9 = 0.901 */
	ck_assert_int_eq(dl_calib_init(&cal, 200), 0);
	for (int i = 1; i <= 49; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(i / 100.0));
	ck_assert(isnan(dl_calib_quantile(&cal, 0.9, 50))); /* not yet */
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert(!p.calibrated);
	for (int i = 50; i <= 100; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(i / 100.0));
	ck_assert_double_eq_tol(dl_calib_quantile(&cal, 0.9, 50), 0.901, 1e-9);
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert(p.calibrated);
	ck_assert_double_eq_tol(p.p90, 10 * exp(0.901), 1e-9);
	ck_assert_double_eq_tol(p.p99, 10 * exp(0.9901), 1e-9);
	/* the ring keeps the newest cap errors */
	for (int i = 0; i < 300; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(-2.0));
	ck_assert_int_eq(cal.len, 200);
	ck_assert_double_eq_tol(dl_calib_quantile(&cal, 0.9, 50), -2, 1e-9);
	/* all errors negative: never below p50 */
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert_double_eq_tol(p.p90, 10, 1e-12);
	ck_assert_double_eq_tol(p.p99, 10, 1e-12);
	/* bad errors are ignored */
	dl_calib_add(&cal, 0, 1, 5);
	dl_calib_add(&cal, 10, 0, 5);
	dl_calib_add(&cal, 10, 1, NAN);
	ck_assert_int_eq(cal.total, 400);
	dl_calib_free(&cal);
}
END_TEST

START_TEST(test_calibration_weighs_jobs)
{
	struct dl_calib cal, fb;
	struct dl_pred_cfg c = pcfg();
	struct dl_prediction p;

	/* 90 one-task jobs with errors z = 0/90 .. 89/90 and one job of 100
	 * tasks with z = 5: counted per task its tasks are 100 of 190 and set
	 * the p90 (5); a job of m errors weighs sqrt(m) = 10 against 90, so
	 * the 0.9 quantile (weight 90 of 100) is the largest one-task error
	 * and the median (weight 50) the 50th */
	ck_assert_int_eq(dl_calib_init(&cal, 500), 0);
	for (int i = 0; i < 90; i++)
		dl_calib_add_job(&cal, 10, 1, 10 * exp(i / 90.0),
				 1000 + (uint64_t) i);
	ck_assert_double_eq_tol(
		dl_calib_quantile(&cal, 0.9, 50),
		dl_quantile_sorted((double[]){80 / 90.0, 81 / 90.0}, 2, 0.1),
		1e-9); /* type 7 while one error per job */
	for (int i = 0; i < 100; i++)
		dl_calib_add_job(&cal, 10, 1, 10 * exp(5.0), 7);
	ck_assert_double_eq_tol(dl_calib_quantile(&cal, 0.9, 50), 89 / 90.0,
				1e-9);
	ck_assert_double_eq_tol(dl_calib_quantile(&cal, 0.5, 50), 49 / 90.0,
				1e-9);
	ck_assert_double_eq_tol(dl_calib_quantile(&cal, 0.95, 50), 5, 1e-9);
	/* errors without a job (0) are one each: per task again */
	dl_calib_free(&cal);
	ck_assert_int_eq(dl_calib_init(&cal, 500), 0);
	for (int i = 0; i < 90; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(i / 90.0));
	for (int i = 0; i < 100; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(5.0));
	ck_assert_double_eq_tol(dl_calib_quantile(&cal, 0.9, 50), 5, 1e-9);
	dl_calib_free(&cal);

	/* a ring's quantile is shrunk towards its fallback's once that has
	 * CalibrationMin errors (dl_calib_shrink); before, its own with
	 * CalibrationMin errors, else the t prior */
	ck_assert_int_eq(dl_calib_init(&cal, 100), 0);
	ck_assert_int_eq(dl_calib_init(&fb, 100), 0);
	cal.fallback = &fb;
	for (int i = 0; i < 10; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(3.0));
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert(!p.calibrated);
	ck_assert_int_eq(p.calib_use, DL_CALIB_PRIOR);
	ck_assert_double_eq_tol(p.p90, 10 * exp(dl_t_quantile(0.9, 7)), 1e-9);
	for (int i = 1; i <= 100; i++)
		dl_calib_add(&fb, 10, 1, 10 * exp(i / 100.0));
	/* 10 errors without a job: 10 jobs, 1 expected beyond the p90 and
	 * 0.1 beyond the p99, against 2 pseudo-jobs of the pool (q0.9 =
	 * 0.901, q0.99 = 0.9901) */
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert(p.calibrated);
	ck_assert_int_eq(p.calib_use, DL_CALIB_POOLED);
	ck_assert_double_eq_tol(p.p90, 10 * exp((1 * 3.0 + 2 * 0.901) / 3),
				1e-9);
	/* the p99, shrunk harder towards a narrower pool (z 1.086), would
	 * fall below the p90: p99 >= p90 always */
	ck_assert(10 * exp((0.1 * 3.0 + 2 * 0.9901) / 2.1) < p.p90);
	ck_assert_double_eq_tol(p.p99, p.p90, 1e-12);
	/* 50 jobs: 5 beyond the p90, the own errors weigh 5 / 7 */
	for (int i = 0; i < 40; i++)
		dl_calib_add(&cal, 10, 1, 10 * exp(3.0));
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert_int_eq(p.calib_use, DL_CALIB_OWN);
	ck_assert_double_eq_tol(p.p90, 10 * exp((5 * 3.0 + 2 * 0.901) / 7),
				1e-9);
	/* the same 50 errors from one job: one job's luck, 0.1 of a tail
	 * job: almost the pool's */
	dl_calib_free(&cal);
	ck_assert_int_eq(dl_calib_init(&cal, 100), 0);
	cal.fallback = &fb;
	for (int i = 0; i < 50; i++)
		dl_calib_add_job(&cal, 10, 1, 10 * exp(3.0), 7);
	dl_pred_quantiles(10, 1, 7, &cal, &c, &p);
	ck_assert_int_eq(p.calib_use, DL_CALIB_POOLED);
	ck_assert_double_eq_tol(p.p90, 10 * exp((0.1 * 3.0 + 2 * 0.901) / 2.1),
				1e-9);
	dl_calib_free(&cal);
	dl_calib_free(&fb);
}
END_TEST

START_TEST(test_calibration_shrink_formula)
{
	/* z = (t z_own + 2 z_pool) / (t + 2), t = jobs (1 - q) */
	/* 20 jobs at q = 0.9: two tail jobs against two: the midpoint */
	ck_assert_double_eq_tol(dl_calib_shrink(3, 20, 0.9, 1), 2, 1e-12);
	/* 200 jobs: t = 20 */
	ck_assert_double_eq_tol(dl_calib_shrink(3, 200, 0.9, 1), 62.0 / 22,
				1e-12);
	/* p99 needs ten times the jobs for the same weight */
	ck_assert_double_eq_tol(dl_calib_shrink(3, 200, 0.99, 1), 2, 1e-12);
	/* one job: 0.1 of a tail job */
	ck_assert_double_eq_tol(dl_calib_shrink(3, 1, 0.9, 1),
				(0.1 * 3 + 2 * 1) / 2.1, 1e-12);
	/* the result lies between the two, either way round */
	ck_assert_double_eq_tol(dl_calib_shrink(-1, 20, 0.9, 1), 0, 1e-12);
	/* degenerate: no own errors, no jobs, no tail, no pool */
	ck_assert_double_eq_tol(dl_calib_shrink(NAN, 50, 0.9, 1), 1, 1e-12);
	ck_assert_double_eq_tol(dl_calib_shrink(3, 0, 0.9, 1), 1, 1e-12);
	ck_assert_double_eq_tol(dl_calib_shrink(3, 50, 1, 1), 1, 1e-12);
	ck_assert_double_eq_tol(dl_calib_shrink(3, 50, 0.9, NAN), 3, 1e-12);
	ck_assert(isnan(dl_calib_shrink(NAN, 50, 0.9, NAN)));
}
END_TEST

START_TEST(test_quantiles_degenerate)
{
	struct dl_pred_cfg c = pcfg();
	struct dl_prediction p;

	memset(&p, 0, sizeof(p));
	dl_pred_quantiles(NAN, NAN, 7, NULL, &c, &p);
	ck_assert(p.p50 > 0 && isfinite(p.p90) && isfinite(p.p99));
	dl_pred_quantiles(100, 1e6, 7, NULL, &c, &p);
	ck_assert(p.p90 <= 1e12 && p.p99 <= 1e12 && p.p90 <= p.p99);
}
END_TEST

START_TEST(test_default)
{
	struct dl_pred_cfg c = pcfg();
	struct dl_prediction p;

	dl_pred_default(&c, 0, &p);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	ck_assert_double_eq_tol(p.p50, 60, 1e-12);
	ck_assert_double_eq_tol(p.p90, 240, 1e-12);
	ck_assert_double_eq_tol(p.p99, 960, 1e-12);
	ck_assert_double_eq_tol(p.max, 960, 1e-12);
	ck_assert_int_eq(p.n, 0);
	dl_pred_default(&c, 1, &p);
	ck_assert_double_eq_tol(p.p50, 120, 1e-12);
	ck_assert_str_eq(dl_pred_source_name(DL_PRED_DEFAULT), "default");
	ck_assert_str_eq(dl_pred_source_name(DL_PRED_NAME), "history:name");
	ck_assert_str_eq(dl_pred_source_name(99), "unknown");
}
END_TEST

START_TEST(test_rate_model)
{
	struct dl_pred_cfg c = pcfg();
	struct dl_rate_model m;
	/* duration = 5 + 2e-6 * bytes exactly */
	double b[] = {1e6, 2e6, 4e6, 8e6, 16e6}, y[5];

	for (int i = 0; i < 5; i++)
		y[i] = 5 + 2e-6 * b[i];
	dl_rate_fit(b, y, 5, &c, &m);
	ck_assert(m.valid);
	ck_assert_double_eq_tol(m.a, 5, 1e-9);
	ck_assert_double_eq_tol(m.b, 2e-6, 1e-15);
	ck_assert_double_eq_tol(m.r2, 1, 1e-12);
	ck_assert_double_eq_tol(dl_rate_predict(&m, 10e6), 25, 1e-9);
	ck_assert(isnan(dl_rate_predict(&m, -1)));
	ck_assert(isnan(dl_rate_predict(&m, NAN)));
	/* too few points */
	dl_rate_fit(b, y, 4, &c, &m);
	ck_assert(!m.valid);
	/* a negative slope is no rate */
	for (int i = 0; i < 5; i++)
		y[i] = 50 - 2e-6 * b[i];
	dl_rate_fit(b, y, 5, &c, &m);
	ck_assert(!m.valid);
	/* no relation (r2 < 0.3) */
	{
		double yy[] = {10, 30, 10, 30, 12};

		dl_rate_fit(b, yy, 5, &c, &m);
		ck_assert(!m.valid);
	}
	/* a fit crossing zero inside the data is refused */
	{
		double bb[] = {0, 1, 2, 3, 100}, yy[] = {1, 1, 1, 1, 100};

		dl_rate_fit(bb, yy, 5, &c, &m);
		ck_assert(!m.valid);
	}
}
END_TEST

START_TEST(test_job_level)
{
	struct dl_pred_cfg c = pcfg();
	struct dl_prediction p;
	double done[] = {100, 10, 12, 11}, s[4], bad[] = {10, -1, 12};

	ck_assert(!dl_pred_job(done, 2, &c, NULL, s, &p)); /* < k */
	ck_assert(dl_pred_job(done, 4, &c, NULL, s, &p));
	ck_assert_int_eq(p.source, DL_PRED_JOB);
	ck_assert_double_eq_tol(p.p50, 11.5, 1e-12);
	ck_assert_int_eq(p.n, 4);
	/* only the newest job_window completions count */
	c.job_window = 3;
	ck_assert(dl_pred_job(done, 4, &c, NULL, s, &p));
	ck_assert_double_eq_tol(p.p50, 11, 1e-12);
	ck_assert_double_eq_tol(p.max, 12, 1e-12);
	ck_assert(!dl_pred_job(bad, 3, &c, NULL, s, &p));
}
END_TEST

/* ---- the history ---- */

static struct dl_hist *hist(uint32_t window)
{
	struct dl_hist_cfg c;
	char err[128];
	struct dl_hist *h;

	dl_hist_cfg_defaults(&c);
	c.window = window;
	h = dl_hist_new(&c, err, sizeof(err));
	ck_assert_ptr_nonnull(h);
	return h;
}

static struct dl_task_rec rec(uint64_t job, const char *user, const char *name,
			      int phase, double len)
{
	struct dl_task_rec r = {.job_id = job,
				.user = user,
				.name = name,
				.phase = phase,
				.start = 1000,
				.end = 1000 + len,
				.input_bytes = NAN,
				.cpu = NAN,
				.mem = NAN,
				.io = NAN,
				.task = -1};
	return r;
}

static struct dl_prediction predict(struct dl_hist *h, const char *user,
				    const char *name, int phase,
				    const double *done, size_t n, double bytes)
{
	struct dl_pred_query q = {.user = user,
				  .name = name,
				  .phase = phase,
				  .completed = done,
				  .ncompleted = n,
				  .input_bytes = bytes};
	struct dl_prediction p;

	ck_assert_int_eq(dl_hist_predict(h, &q, 5000, &p), 0);
	return p;
}

START_TEST(test_chain_order)
{
	struct dl_hist *h = hist(100);
	struct dl_prediction p;
	double own[] = {7, 8, 9};

	/* nothing known: default */
	p = predict(h, "alice", "wc", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	/* two samples of the name: not enough (k = 3) */
	for (int i = 0; i < 2; i++) {
		struct dl_task_rec r = rec(1, "alice", "wc", 0, 20 + i);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	p = predict(h, "alice", "wc", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	{
		struct dl_task_rec r = rec(1, "alice", "wc", 0, 22);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	p = predict(h, "alice", "wc", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_NAME);
	ck_assert_double_eq_tol(p.p50, 21, 1e-6);
	ck_assert_int_eq(p.n, 3);
	/* the job's own completions win */
	p = predict(h, "alice", "wc", 0, own, 3, NAN);
	ck_assert_int_eq(p.source, DL_PRED_JOB);
	ck_assert_double_eq_tol(p.p50, 8, 1e-12);
	/* other name of the user: user level */
	p = predict(h, "alice", "sort", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_USER);
	ck_assert_double_eq_tol(p.p50, 21, 1e-6);
	/* an empty name is not a name: user level */
	p = predict(h, "alice", "", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_USER);
	/* phases are separate */
	p = predict(h, "alice", "wc", 1, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	ck_assert_double_eq_tol(p.p50, 120, 1e-12);
	/* other user: default, also with bytes while no rate model exists */
	p = predict(h, "bob", "wc", 0, NULL, 0, 1e6);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_rate_level)
{
	struct dl_hist *h = hist(100);
	struct dl_prediction p;

	/* sized tasks of one user: 5 + 1e-6 s/byte */
	for (int i = 1; i <= 8; i++) {
		struct dl_task_rec r =
			rec((uint64_t) i, "alice", "wc", 0, 5 + i);

		r.input_bytes = i * 1e6;
		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	/* a user without history, with a size: the rate model */
	p = predict(h, "carol", "etl", 0, NULL, 0, 20e6);
	ck_assert_int_eq(p.source, DL_PRED_RATE);
	ck_assert_double_eq_tol(p.p50, 25, 1e-4);
	ck_assert_int_eq(p.n, 8);
	/* without a size: the default */
	p = predict(h, "carol", "etl", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	/* the rate model is per phase */
	p = predict(h, "carol", "etl", 1, NULL, 0, 20e6);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_window_and_age)
{
	struct dl_hist_cfg c;
	struct dl_hist *h;
	struct dl_prediction p;
	struct dl_hist_stats st;
	char err[128];

	/* window 5: 20 long tasks, then 5 short ones: only the short count */
	h = hist(5);
	for (int i = 0; i < 20; i++) {
		struct dl_task_rec r = rec(1, "u", "n", 0, 1000);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	for (int i = 0; i < 5; i++) {
		struct dl_task_rec r = rec(2, "u", "n", 0, 10 + i);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	p = predict(h, "u", "n", 0, NULL, 0, NAN);
	ck_assert_double_eq_tol(p.p50, 12, 1e-6);
	ck_assert_double_eq_tol(p.max, 14, 1e-6);
	ck_assert_int_eq(p.n, 5);
	dl_hist_get_stats(h, &st);
	ck_assert_int_eq(st.observed, 25);
	ck_assert_int_eq(st.records, 5);
	ck_assert_int_eq(st.keys, 1);
	dl_hist_free(h);

	/* age limit: tasks that ended more than max_age ago are ignored */
	dl_hist_cfg_defaults(&c);
	c.max_age = 100;
	h = dl_hist_new(&c, err, sizeof(err));
	ck_assert_ptr_nonnull(h);
	for (int i = 0; i < 3; i++) {
		struct dl_task_rec r = rec(1, "u", "n", 0, 10); /* ends 1010 */

		ck_assert_int_eq(dl_hist_observe(h, &r, 1010), 0);
	}
	{
		struct dl_pred_query q = {
			.user = "u", .name = "n", .input_bytes = NAN};

		ck_assert_int_eq(dl_hist_predict(h, &q, 1050, &p), 0);
		ck_assert_int_eq(p.source, DL_PRED_NAME);
		ck_assert_int_eq(dl_hist_predict(h, &q, 1200, &p), 0);
		ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	}
	dl_hist_free(h);
}
END_TEST

START_TEST(test_profile)
{
	struct dl_hist *h = hist(100);
	struct dl_prediction p;
	double own[] = {5, 5, 5};

	for (int i = 0; i < 4; i++) {
		struct dl_task_rec r = rec(1, "u", "n", 0, 10);

		r.cpu = 1 + i;             /* 1..4: mean 2.5 */
		r.mem = i < 2 ? 100 : NAN; /* only two carry mem */
		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	p = predict(h, "u", "n", 0, NULL, 0, NAN);
	ck_assert(p.has_profile);
	ck_assert_double_eq_tol(p.profile.cpu, 2.5, 1e-6);
	ck_assert_double_eq_tol(p.profile.mem, 100, 1e-6);
	ck_assert(isnan(p.profile.io));
	ck_assert_int_eq(p.profile.n, 4);
	/* also when the job itself answers the length */
	p = predict(h, "u", "n", 0, own, 3, NAN);
	ck_assert_int_eq(p.source, DL_PRED_JOB);
	ck_assert(p.has_profile);
	/* no usage recorded: no profile */
	p = predict(h, "u", "other", 0, NULL, 0, NAN);
	ck_assert(!p.has_profile);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_calibration_in_history)
{
	struct dl_hist *h = hist(500);
	struct dl_prediction p;
	struct dl_hist_stats st;

	/* 100 one-task jobs of the same name, lengths alternating 10 / 40:
	 * the name level's errors get recorded (from the 4th task on) and
	 * after CalibrationMin (50) of them its quantiles are calibrated; the
	 * user level could have answered too but the name level did: its
	 * errors are not the user level's to calibrate on */
	for (int i = 0; i < 100; i++) {
		struct dl_task_rec r =
			rec((uint64_t) i, "u", "n", 0, i % 2 ? 40 : 10);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	dl_hist_get_stats(h, &st);
	ck_assert_int_eq(st.calib[DL_PRED_NAME], 97);
	ck_assert_int_eq(st.calib[DL_PRED_USER], 0);
	ck_assert_int_eq(st.calib[DL_PRED_JOB], 0); /* no job had 3 tasks */
	p = predict(h, "u", "n", 0, NULL, 0, NAN);
	ck_assert(p.calibrated);
	/* half the tasks are 40 s: p90 must cover them */
	ck_assert(p.p90 >= 40);
	dl_hist_free(h);

	/* every job a new name: the user level answers them all */
	h = hist(500);
	for (int i = 0; i < 100; i++) {
		char name[16];
		struct dl_task_rec r;

		snprintf(name, sizeof(name), "n%d", i);
		r = rec((uint64_t) i, "u", name, 0, i % 2 ? 40 : 10);
		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	dl_hist_get_stats(h, &st);
	ck_assert_int_eq(st.calib[DL_PRED_NAME], 0);
	ck_assert_int_eq(st.calib[DL_PRED_USER], 97);
	p = predict(h, "u", "new", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_USER);
	ck_assert(p.calibrated);
	ck_assert(p.p90 >= 40);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_calibration_excludes_own_job)
{
	struct dl_hist *h = hist(500);
	struct dl_hist_stats st;

	/* one job of 10 tasks started together and no other history: its
	 * tasks are never errors of the history level (it had no history
	 * when they started) nor of the job level (none had finished when
	 * any started) */
	for (int i = 0; i < 10; i++) {
		struct dl_task_rec r = rec(7, "u", "n", 0, 10 + i);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	dl_hist_get_stats(h, &st);
	ck_assert_int_eq(st.calib[DL_PRED_NAME], 0);
	ck_assert_int_eq(st.calib[DL_PRED_JOB], 0);
	ck_assert_int_eq(st.jobs, 1);
	/* a job whose 10 tasks ran one after another: the job level
	 * answered from the 4th on */
	for (int i = 0; i < 10; i++) {
		struct dl_task_rec r = rec(8, "u", "m", 0, 10);

		r.start = 1000 + 10 * i;
		r.end = r.start + 10;
		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	dl_hist_get_stats(h, &st);
	ck_assert_int_eq(st.calib[DL_PRED_JOB], 7);
	ck_assert_int_eq(st.calib[DL_PRED_NAME], 0);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_job_lru_bound)
{
	struct dl_hist_cfg c;
	struct dl_hist *h;
	struct dl_hist_stats st;
	char err[64];

	dl_hist_cfg_defaults(&c);
	c.max_jobs = 10;
	h = dl_hist_new(&c, err, sizeof(err));
	ck_assert_ptr_nonnull(h);
	for (int i = 0; i < 1000; i++) {
		struct dl_task_rec r = rec((uint64_t) i, "u", "n", i % 2, 5);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	dl_hist_get_stats(h, &st);
	ck_assert_int_le(st.jobs, 10);
	ck_assert_int_eq(st.observed, 1000);
	dl_hist_free(h);
}
END_TEST

/* Issue 12 D14: unique job names grew the history without bound (300k
 * names = 164 MB).  HistoryMaxKeys bounds the (user, name, phase) keys;
 * the least recently observed goes, the user's key keeps the history. */
START_TEST(test_name_keys_bound)
{
	struct dl_hist_cfg c;
	struct dl_hist *h;
	struct dl_hist_stats st;
	struct dl_pred_query q = {
		.user = "u", .name = "kept", .phase = 0, .input_bytes = NAN};
	struct dl_prediction p;
	char err[64], name[32];

	dl_hist_cfg_defaults(&c);
	c.max_keys = 50;
	h = dl_hist_new(&c, err, sizeof(err));
	ck_assert_ptr_nonnull(h);
	for (int i = 0; i < 5000; i++) {
		struct dl_task_rec r;

		snprintf(name, sizeof(name), "n%d", i);
		r = rec((uint64_t) i, "u", name, 0, 5);
		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
		/* one name observed all along stays */
		r = rec((uint64_t) i + 100000, "u", "kept", 0, 7);
		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	dl_hist_get_stats(h, &st);
	ck_assert_int_eq(st.keys, 50);
	ck_assert_int_eq(st.evicted_keys, 5001 - 50);
	ck_assert_int_eq(st.observed, 10000);
	/* the windows' record count follows the evictions */
	ck_assert_uint_le(st.records, 50 * (uint64_t) c.window);
	ck_assert_int_eq(dl_hist_predict(h, &q, 5000, &p), 0);
	ck_assert_int_eq(p.source, DL_PRED_NAME);
	ck_assert_double_eq_tol(p.p50, 7, 1e-9);
	/* an evicted name falls back to the user's history */
	q.name = "n0";
	ck_assert_int_eq(dl_hist_predict(h, &q, 5000, &p), 0);
	ck_assert_int_ne(p.source, DL_PRED_NAME);
	dl_hist_free(h);
	c.max_keys = 0;
	ck_assert_int_ne(dl_hist_cfg_check(&c, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_score)
{
	struct dl_score sc = {0, 0};

	/* no weight yet: no score */
	ck_assert(isnan(dl_score_get(&sc, 0.5)));
	/* |log(20/10)| with weight 1 */
	dl_score_add(&sc, 10, 20, 1);
	ck_assert_double_eq_tol(sc.weight, 1, 1e-12);
	ck_assert_double_eq_tol(dl_score_get(&sc, 1), log(2), 1e-12);
	ck_assert(isnan(dl_score_get(&sc, 1.5)));
	/* a second error 0 of weight 1: old sums x 0.9 first:
	 * (0.9 log 2 + 0) / (0.9 + 1) */
	dl_score_add(&sc, 10, 10, 1);
	ck_assert_double_eq_tol(dl_score_get(&sc, 1.5), 0.9 * log(2) / 1.9,
				1e-12);
	/* bad input is ignored */
	dl_score_add(&sc, 0, 10, 1);
	dl_score_add(&sc, 10, NAN, 1);
	dl_score_add(&sc, 10, 10, 0);
	dl_score_add(&sc, 10, 10, -1);
	dl_score_add(NULL, 10, 10, 1);
	ck_assert_double_eq_tol(sc.weight, 1.9, 1e-12);
	ck_assert(isnan(dl_score_get(NULL, 0)));
	/* task weights: 1/(k(k+1)), an array of n weighs n/(n+1) < 1 */
	ck_assert_double_eq_tol(dl_score_task_weight(1), 0.5, 1e-12);
	ck_assert_double_eq_tol(dl_score_task_weight(3), 1.0 / 12, 1e-12);
	{
		double sum = 0;

		for (uint64_t k = 1; k <= 3000; k++)
			sum += dl_score_task_weight(k);
		ck_assert_double_eq_tol(sum, 3000.0 / 3001, 1e-9);
	}
	ck_assert(dl_score_task_weight(0) > 0);
}
END_TEST

START_TEST(test_choose)
{
	struct dl_score sc[DL_PRED_SOURCES];
	unsigned user = 1u << DL_PRED_USER, rate = 1u << DL_PRED_RATE;
	unsigned def = 1u << DL_PRED_DEFAULT;

	memset(sc, 0, sizeof(sc));
	/* nothing to choose from (job and name are not chosen here) */
	ck_assert_int_eq(dl_pred_choose(sc, 0), DL_PRED_SOURCES);
	ck_assert_int_eq(
		dl_pred_choose(sc, (1u << DL_PRED_JOB) | (1u << DL_PRED_NAME)),
		DL_PRED_SOURCES);
	/* no scores: the fixed order */
	ck_assert_int_eq(dl_pred_choose(sc, user | rate | def), DL_PRED_USER);
	ck_assert_int_eq(dl_pred_choose(NULL, rate | def), DL_PRED_RATE);
	ck_assert_int_eq(dl_pred_choose(sc, def), DL_PRED_DEFAULT);
	/* the default is better for this user, but the user level has no
	 * trusted score yet: no switch without evidence */
	sc[DL_PRED_DEFAULT] = (struct dl_score){0.2 * 5, 5};
	sc[DL_PRED_USER] = (struct dl_score){1.0 * 1, 1};
	ck_assert_int_eq(dl_pred_choose(sc, user | def), DL_PRED_USER);
	/* both trusted, default clearly better: default */
	sc[DL_PRED_USER] = (struct dl_score){1.0 * 5, 5};
	ck_assert_int_eq(dl_pred_choose(sc, user | def), DL_PRED_DEFAULT);
	/* not available: not chosen */
	ck_assert_int_eq(dl_pred_choose(sc, user), DL_PRED_USER);
	/* within the margin (0.9 vs 1.0 > 0.8): keep the first */
	sc[DL_PRED_DEFAULT] = (struct dl_score){0.9 * 5, 5};
	ck_assert_int_eq(dl_pred_choose(sc, user | def), DL_PRED_USER);
	/* the best of three */
	sc[DL_PRED_RATE] = (struct dl_score){0.1 * 5, 5};
	ck_assert_int_eq(dl_pred_choose(sc, user | rate | def), DL_PRED_RATE);
}
END_TEST

START_TEST(test_regime)
{
	/* a first wave of 10 tasks of ~800 s, then 6 of ~40 s */
	double x[16], s[16];
	struct dl_pred_cfg c = pcfg();
	struct dl_summary sum;
	struct dl_prediction p;

	for (int i = 0; i < 10; i++)
		x[i] = 800 + i;
	for (int i = 10; i < 16; i++)
		x[i] = 40 + i;
	/* newest 5 (m = 5) differ by 16x: the regime starts at 11; m = 10
	 * would cross into the first wave (median 800s/40s mixed) */
	ck_assert_uint_eq(dl_regime_start(x, 16, 5, 2.5, s), 11);
	ck_assert_int_eq(dl_job_summary(x, 16, &c, s, &sum), 0);
	ck_assert_uint_eq(sum.n, 5);
	ck_assert_double_eq_tol(sum.p50, 53, 1e-12);
	ck_assert(dl_pred_job(x, 16, &c, NULL, s, &p));
	ck_assert_double_eq_tol(p.p50, 53, 1e-12);
	/* the other way (the newest longer): stragglers of one wave, not a
	 * new regime */
	for (int i = 0; i < 10; i++)
		x[i] = 40 + i;
	for (int i = 10; i < 16; i++)
		x[i] = 800 + i;
	ck_assert_uint_eq(dl_regime_start(x, 16, 5, 2.5, s), 0);
	/* no change: a steady job */
	for (int i = 0; i < 16; i++)
		x[i] = 100 + (i % 3) * 20;
	ck_assert_uint_eq(dl_regime_start(x, 16, 5, 2.5, s), 0);
	ck_assert_int_eq(dl_job_summary(x, 16, &c, s, &sum), 0);
	ck_assert_uint_eq(sum.n, 16);
	/* too few for two runs of 5; bad arguments */
	ck_assert_uint_eq(dl_regime_start(x, 9, 5, 2.5, s), 0);
	ck_assert_uint_eq(dl_regime_start(x, 16, 0, 2.5, s), 0);
	ck_assert_uint_eq(dl_regime_start(x, 16, 5, 1, s), 0);
	ck_assert_uint_eq(dl_regime_start(NULL, 16, 5, 2.5, s), 0);
	ck_assert_int_eq(dl_job_summary(x, 0, &c, s, &sum), EINVAL);
}
END_TEST

START_TEST(test_default_calibrated)
{
	struct dl_hist *h = hist(100);
	struct dl_prediction p;
	int covered = 0;

	/* alice's tasks run ~1000 s: a new user's default is no longer the
	 * configured 60 s but every user's recent median */
	for (int i = 0; i < 200; i++) {
		struct dl_task_rec r = rec((uint64_t) i / 10 + 1, "alice", "a",
					   0, 1000 * exp(0.3 * sin(i * 1.7)));

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	p = predict(h, "bob", "b", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	ck_assert(p.p50 > 700 && p.p50 < 1300);
	ck_assert(p.calibrated);
	ck_assert_uint_ge(p.n, 100);
	/* and its p90 covers about 90 % of such tasks */
	for (int i = 0; i < 200; i++)
		covered += 1000 * exp(0.3 * sin(i * 1.3 + 0.5)) <= p.p90;
	ck_assert_int_ge(covered, 160);
	ck_assert_int_le(covered, 200);
	/* reduces have seen nothing: the configured length */
	p = predict(h, "bob", "b", 1, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	ck_assert_double_eq_tol(p.p50, 120, 1e-12);
	ck_assert(!p.calibrated);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_choice_in_history)
{
	struct dl_hist *h = hist(100);
	struct dl_prediction p;

	/* everyone's tasks take 100 s; carol's first job took 5 s and her
	 * next jobs take 100 s like everyone's: her user history (the
	 * 5 s job dominates its median for a while) loses to the default */
	for (int i = 0; i < 60; i++) {
		struct dl_task_rec r = rec(1000 + i, "dave", "d", 0, 100);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	for (int i = 0; i < 20; i++) {
		struct dl_task_rec r = rec(1, "carol", "c1", 0, 5);

		ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
	}
	/* one job of carol's so far: the user level by the fixed order */
	p = predict(h, "carol", "new", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_USER);
	ck_assert_double_eq_tol(p.p50, 5, 1e-6);
	ck_assert(p.available & (1u << DL_PRED_DEFAULT));
	ck_assert(!(p.available & (1u << DL_PRED_NAME)));
	/* four more jobs of 3 tasks of 100 s each: the user level was wrong
	 * by 20x on each, the default right */
	for (int j = 0; j < 4; j++)
		for (int i = 0; i < 3; i++) {
			struct dl_task_rec r = rec(2 + (uint64_t) j, "carol",
						   j % 2 ? "c2" : "c3", 0, 100);

			ck_assert_int_eq(dl_hist_observe(h, &r, 5000), 0);
		}
	p = predict(h, "carol", "new", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_DEFAULT);
	ck_assert_double_eq_tol(p.p50, 100, 1e-6);
	/* dave's user history is as good as the default: kept */
	p = predict(h, "dave", "new", 0, NULL, 0, NAN);
	ck_assert_int_eq(p.source, DL_PRED_USER);
	dl_hist_free(h);
}
END_TEST

START_TEST(test_bad_records_and_queries)
{
	struct dl_hist *h = hist(10);
	struct dl_prediction p;
	struct dl_task_rec r;
	struct dl_pred_query q = {.user = "u", .name = "n", .input_bytes = NAN};
	char err[128], longname[300];
	double bad[] = {1, NAN};

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	r = rec(1, "", "n", 0, 1);
	ck_assert_int_eq(dl_task_rec_check(&r, err, sizeof(err)), EINVAL);
	ck_assert(strstr(err, "user"));
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	r = rec(1, "u", longname, 0, 1);
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	r = rec(1, "u", "n", 2, 1);
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	r = rec(1, "u", "n", 0, 1);
	r.end = r.start - 1;
	ck_assert_int_eq(dl_task_rec_check(&r, err, sizeof(err)), EINVAL);
	ck_assert(strstr(err, "before start"));
	r = rec(1, "u", "n", 0, 1);
	r.start = NAN;
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	r = rec(1, "u", "n", 0, 1);
	r.cpu = -1;
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	r = rec(1, "u", "n", 0, 1);
	r.input_bytes = INFINITY;
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	r.user = NULL;
	ck_assert_int_eq(dl_hist_observe(h, &r, 0), EINVAL);
	ck_assert_int_eq(dl_hist_observe(h, NULL, 0), EINVAL);
	ck_assert_int_eq(dl_hist_observe(NULL, &r, 0), EINVAL);

	q.completed = bad;
	q.ncompleted = 2;
	ck_assert_int_eq(dl_hist_predict(h, &q, 0, &p), EINVAL);
	q.completed = NULL;
	ck_assert_int_eq(dl_hist_predict(h, &q, 0, &p), EINVAL);
	q.ncompleted = 0;
	q.phase = -1;
	ck_assert_int_eq(dl_hist_predict(h, &q, 0, &p), EINVAL);
	q.phase = 0;
	q.user = NULL;
	ck_assert_int_eq(dl_hist_predict(h, &q, 0, &p), EINVAL);
	ck_assert_int_eq(dl_hist_predict(h, NULL, 0, &p), EINVAL);
	q.user = "u";
	ck_assert_int_eq(dl_hist_predict(h, &q, 0, NULL), EINVAL);
	/* nothing bad was stored */
	{
		struct dl_hist_stats st;

		dl_hist_get_stats(h, &st);
		ck_assert_int_eq(st.observed, 0);
	}
	dl_hist_free(h);

	/* a bad configuration is refused with a reason */
	{
		struct dl_hist_cfg c;

		dl_hist_cfg_defaults(&c);
		c.window = 0;
		ck_assert_ptr_null(dl_hist_new(&c, err, sizeof(err)));
		ck_assert(strstr(err, "HistoryPerKey"));
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("predictor");
	TCase *tc = tcase_create("formulas");
	TCase *th = tcase_create("history");

	tcase_add_test(tc, test_cfg_defaults_and_check);
	tcase_add_test(tc, test_summary_worked_example);
	tcase_add_test(tc, test_summary_degenerate);
	tcase_add_test(tc, test_quantiles_from_t_and_calibration);
	tcase_add_test(tc, test_quantiles_degenerate);
	tcase_add_test(tc, test_calibration_weighs_jobs);
	tcase_add_test(tc, test_calibration_shrink_formula);
	tcase_add_test(tc, test_default);
	tcase_add_test(tc, test_rate_model);
	tcase_add_test(tc, test_job_level);
	suite_add_tcase(s, tc);
	tcase_add_test(th, test_chain_order);
	tcase_add_test(th, test_rate_level);
	tcase_add_test(th, test_window_and_age);
	tcase_add_test(th, test_profile);
	tcase_add_test(th, test_calibration_in_history);
	tcase_add_test(th, test_calibration_excludes_own_job);
	tcase_add_test(th, test_job_lru_bound);
	tcase_add_test(th, test_zero_durations_ordered);
	tcase_add_test(th, test_name_keys_bound);
	tcase_add_test(th, test_bad_records_and_queries);
	tcase_add_test(tc, test_score);
	tcase_add_test(tc, test_choose);
	tcase_add_test(tc, test_regime);
	tcase_add_test(th, test_default_calibrated);
	tcase_add_test(th, test_choice_in_history);
	suite_add_tcase(s, th);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
