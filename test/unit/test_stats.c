/*
 * test_stats.c - quantiles, normal and Student-t quantiles, least squares,
 * relative error.
 */
#include <math.h>

#include "common/estimate/stats.h"
#include "fixtures.h"

START_TEST(test_quantile_type7)
{
	/* R: quantile(c(1,2,3,4), c(0, .25, .5, .9, 1)) = 1 1.75 2.5 3.7 4 */
	double x[] = {4, 1, 3, 2}, s[4];

	ck_assert_double_eq_tol(dl_quantile(x, 4, 0, s), 1, 1e-12);
	ck_assert_double_eq_tol(dl_quantile(x, 4, 0.25, s), 1.75, 1e-12);
	ck_assert_double_eq_tol(dl_quantile(x, 4, 0.5, s), 2.5, 1e-12);
	ck_assert_double_eq_tol(dl_quantile(x, 4, 0.9, s), 3.7, 1e-12);
	ck_assert_double_eq_tol(dl_quantile(x, 4, 1, s), 4, 1e-12);
	/* the input is not reordered */
	ck_assert(x[0] == 4 && x[1] == 1);
	/* odd count: the middle value */
	{
		double y[] = {5, 1, 9};

		ck_assert_double_eq_tol(dl_quantile(y, 3, 0.5, s), 5, 1e-12);
	}
	/* one value is every quantile */
	ck_assert_double_eq_tol(dl_quantile(x, 1, 0.9, s), 4, 1e-12);
}
END_TEST

START_TEST(test_quantile_bad_input)
{
	double x[] = {1, 2}, s[2];

	ck_assert(isnan(dl_quantile(x, 0, 0.5, s)));
	ck_assert(isnan(dl_quantile(NULL, 2, 0.5, s)));
	ck_assert(isnan(dl_quantile(x, 2, 0.5, NULL)));
	ck_assert(isnan(dl_quantile(x, 2, -0.1, s)));
	ck_assert(isnan(dl_quantile(x, 2, 1.1, s)));
	ck_assert(isnan(dl_quantile(x, 2, NAN, s)));
	ck_assert(isnan(dl_quantile_sorted(NULL, 3, 0.5)));
}
END_TEST

START_TEST(test_normal_quantile)
{
	ck_assert_double_eq_tol(dl_normal_quantile(0.5), 0, 1e-12);
	ck_assert_double_eq_tol(dl_normal_quantile(0.975), 1.959963985, 1e-9);
	ck_assert_double_eq_tol(dl_normal_quantile(0.9), 1.281551566, 1e-9);
	ck_assert_double_eq_tol(dl_normal_quantile(0.99), 2.326347874, 1e-9);
	ck_assert_double_eq_tol(dl_normal_quantile(0.01), -2.326347874, 1e-9);
	ck_assert_double_eq_tol(dl_normal_quantile(1e-6), -4.753424309, 1e-8);
	ck_assert(isnan(dl_normal_quantile(0)));
	ck_assert(isnan(dl_normal_quantile(1)));
	ck_assert(isnan(dl_normal_quantile(NAN)));
}
END_TEST

START_TEST(test_t_quantile)
{
	/* table values (e.g. R qt) */
	ck_assert_double_eq_tol(dl_t_quantile(0.9, 1), 3.077684, 1e-6);
	ck_assert_double_eq_tol(dl_t_quantile(0.99, 1), 31.820516, 1e-5);
	ck_assert_double_eq_tol(dl_t_quantile(0.9, 2), 1.885618, 1e-6);
	ck_assert_double_eq_tol(dl_t_quantile(0.99, 2), 6.964557, 1e-6);
	/* Cornish-Fisher: within 0.5 % at df >= 3 up to p = 0.99 */
	ck_assert_double_eq_tol(dl_t_quantile(0.9, 3), 1.637744,
				1.637744 * 0.005);
	ck_assert_double_eq_tol(dl_t_quantile(0.99, 3), 4.540703,
				4.540703 * 0.005);
	ck_assert_double_eq_tol(dl_t_quantile(0.9, 7), 1.414924, 1e-4);
	ck_assert_double_eq_tol(dl_t_quantile(0.99, 10), 2.763769, 1e-4);
	ck_assert_double_eq_tol(dl_t_quantile(0.9, 30), 1.310415, 1e-5);
	/* converges to the normal */
	ck_assert_double_eq_tol(dl_t_quantile(0.9, 1e6), 1.281552, 1e-5);
	/* symmetric, monotone in df (heavier tails with fewer df) */
	ck_assert_double_eq_tol(dl_t_quantile(0.1, 5), -dl_t_quantile(0.9, 5),
				1e-9);
	ck_assert(dl_t_quantile(0.9, 2.5) < dl_t_quantile(0.9, 2));
	ck_assert(dl_t_quantile(0.9, 2.5) > dl_t_quantile(0.9, 3));
	ck_assert(dl_t_quantile(0.99, 4) > dl_t_quantile(0.99, 5));
	/* degenerate */
	ck_assert(isnan(dl_t_quantile(0.9, 0)));
	ck_assert(isnan(dl_t_quantile(0.9, -1)));
	ck_assert(isnan(dl_t_quantile(0.9, INFINITY)));
	ck_assert(isnan(dl_t_quantile(1, 5)));
}
END_TEST

START_TEST(test_ols)
{
	double x[] = {1, 2, 3, 4}, y[] = {5, 7, 9, 11}, a = 0, b = 0, r2 = 0;
	double yn[] = {5, 8, 8, 11}, same[] = {2, 2, 2, 2};

	ck_assert(dl_ols(x, y, 4, &a, &b, &r2));
	ck_assert_double_eq_tol(a, 3, 1e-12);
	ck_assert_double_eq_tol(b, 2, 1e-12);
	ck_assert_double_eq_tol(r2, 1, 1e-12);
	/* noisy: slope 1.8, intercept 3.5, r2 = 0.9 */
	ck_assert(dl_ols(x, yn, 4, &a, &b, &r2));
	ck_assert_double_eq_tol(b, 1.8, 1e-12);
	ck_assert_double_eq_tol(a, 3.5, 1e-12);
	ck_assert_double_eq_tol(r2, 16.2 / 18.0, 1e-12);
	/* no spread in x, too few points, NaN: no model */
	ck_assert(!dl_ols(same, y, 4, &a, &b, &r2));
	ck_assert(!dl_ols(x, y, 1, &a, &b, &r2));
	yn[2] = NAN;
	ck_assert(!dl_ols(x, yn, 4, &a, &b, &r2));
	ck_assert(!dl_ols(NULL, y, 4, &a, &b, &r2));
}
END_TEST

START_TEST(test_rel_error)
{
	ck_assert_double_eq_tol(dl_rel_error(12, 10), 0.2, 1e-12);
	ck_assert_double_eq_tol(dl_rel_error(8, 10), 0.2, 1e-12);
	ck_assert(isnan(dl_rel_error(1, 0)));
	ck_assert(isnan(dl_rel_error(1, -1)));
	ck_assert(isnan(dl_rel_error(NAN, 1)));
	ck_assert(isnan(dl_rel_error(1, INFINITY)));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_quantile_type7);
	tcase_add_test(tc, test_quantile_bad_input);
	tcase_add_test(tc, test_normal_quantile);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_ols);
	tcase_add_test(tc, test_rel_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
