/*
 * test_rt_worst.c - worst-case task lengths: quantile interpolation, the
 * margin, the time-limit cap and fallback, the overhead, and the paper's
 * ever-growing c^max.
 */
#include <math.h>

#include "common/realtime/worst.h"
#include "fixtures.h"

START_TEST(test_quantile)
{
	struct dl_rt_quantiles q = {10, 20, 30, 50, 100};

	ck_assert_double_eq(dl_rt_quantile(&q, 0.5), 10);
	ck_assert_double_eq(dl_rt_quantile(&q, 0.9), 20);
	ck_assert_double_eq(dl_rt_quantile(&q, 0.99), 30);
	ck_assert_double_eq(dl_rt_quantile(&q, 1), 50);
	ck_assert_double_eq_tol(dl_rt_quantile(&q, 0.7), 15, 1e-9);
	ck_assert_double_eq_tol(dl_rt_quantile(&q, 0.995), 40, 1e-9);
	ck_assert(isnan(dl_rt_quantile(&q, 0.4)));
	ck_assert(isnan(dl_rt_quantile(&q, 1.1)));
	ck_assert(isnan(dl_rt_quantile(NULL, 0.9)));
	/* out-of-order points are made nondecreasing */
	q.p90 = 5;
	ck_assert_double_eq(dl_rt_quantile(&q, 0.9), 10);
	q.p99 = NAN;
	ck_assert(isnan(dl_rt_quantile(&q, 0.9)));
}
END_TEST

START_TEST(test_worst_case)
{
	struct dl_rt_quantiles q = {10, 20, 30, 50, 100};
	struct dl_rt_worst w;

	/* p99 x 1.2 + 5 s overhead */
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.99, 0.2, 600, 5, &w), 0);
	ck_assert_int_eq(w.source, DL_RT_WC_QUANTILE);
	ck_assert_double_eq_tol(w.len, 41, 1e-9);
	ck_assert_double_eq(w.typical, 10);
	/* capped by the time limit */
	ck_assert_int_eq(dl_rt_worst_case(&q, 1, 1, 60, 5, &w), 0);
	ck_assert_int_eq(w.source, DL_RT_WC_TIME_LIMIT);
	ck_assert_double_eq(w.len, 65);
	/* too few samples: the time limit */
	q.n = DL_RT_MIN_SAMPLES - 1;
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.99, 0.2, 600, 0, &w), 0);
	ck_assert_int_eq(w.source, DL_RT_WC_TIME_LIMIT);
	ck_assert_double_eq(w.len, 600);
	ck_assert(isnan(w.typical));
	/* nothing at all: unknown */
	ck_assert_int_eq(dl_rt_worst_case(NULL, 0.99, 0.2, 0, 5, &w), 0);
	ck_assert_int_eq(w.source, DL_RT_WC_NONE);
	ck_assert(isnan(w.len));
	ck_assert_str_eq(dl_rt_wc_source_name(DL_RT_WC_QUANTILE), "history");
	ck_assert_str_eq(dl_rt_wc_source_name(DL_RT_WC_NONE), "none");
	/* bad parameters */
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.3, 0.2, 0, 5, &w), EINVAL);
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.9, -1, 0, 5, &w), EINVAL);
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.9, 0, NAN, 5, &w), EINVAL);
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.9, 0, 0, -5, &w), EINVAL);
	ck_assert_int_eq(dl_rt_worst_case(&q, 0.9, 0, 0, 0, NULL), EINVAL);
}
END_TEST

/* c^max = max over tasks of length / size, and it never goes down. */
START_TEST(test_cmax)
{
	struct dl_rt_cmax cm;

	ck_assert_int_eq(dl_rt_cmax_init(&cm, 0.1, 0.2), 0);
	ck_assert_double_eq(dl_rt_cmax_worst(&cm, 0, 128), 12.8);
	ck_assert_int_eq(dl_rt_cmax_observe(&cm, 0, 25.6, 128), 0);
	ck_assert_double_eq(dl_rt_cmax_worst(&cm, 0, 128), 25.6);
	ck_assert_int_eq(dl_rt_cmax_observe(&cm, 0, 1, 128), 0); /* shorter */
	ck_assert_double_eq(dl_rt_cmax_worst(&cm, 0, 128), 25.6);
	ck_assert_double_eq(dl_rt_cmax_worst(&cm, 1, 10), 2);
	ck_assert_int_eq(dl_rt_cmax_observe(&cm, 1, 5, 0), EINVAL);
	ck_assert_int_eq(dl_rt_cmax_observe(&cm, 2, 5, 1), EINVAL);
	ck_assert_int_eq(dl_rt_cmax_observe(&cm, 0, NAN, 1), EINVAL);
	ck_assert(isnan(dl_rt_cmax_worst(&cm, 0, -1)));
	ck_assert_int_eq(dl_rt_cmax_init(&cm, -1, 0), EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_worst");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_quantile);
	tcase_add_test(tc, test_worst_case);
	tcase_add_test(tc, test_cmax);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
