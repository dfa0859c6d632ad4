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

/* Acklam's approximation alone: within its stated relative error of the
 * refined quantile everywhere, both tails and both region bounds
 * (0.02425 and 1 - 0.02425) included */
START_TEST(test_normal_quantile_rough)
{
	static const double ps[] = {
		1e-12, 1e-6, 0.001, 0.02424999, 0.02425, 0.0243, 0.1,     0.3,
		0.5,   0.7,  0.9,   0.97575,    0.97576, 0.999,  1 - 1e-9};

	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double x = dl_normal_quantile(ps[i]);

		ck_assert_msg(fabs(dl_normal_quantile_rough(ps[i]) - x) <=
				      1.2e-9 * fabs(x) + 1e-15,
			      "p = %g: %.15g against %.15g", ps[i],
			      dl_normal_quantile_rough(ps[i]), x);
	}
	ck_assert_double_eq_tol(dl_normal_quantile_rough(0.975), 1.959963985,
				1e-8);
	ck_assert(isnan(dl_normal_quantile_rough(0)));
	ck_assert(isnan(dl_normal_quantile_rough(1)));
	ck_assert(isnan(dl_normal_quantile_rough(NAN)));
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

START_TEST(test_weighted_quantile)
{
	double x[] = {5, 1, 3, 2, 4}, w1[] = {1, 1, 1, 1, 1};
	double w[] = {0, 1, 0, 0, 3}; /* only 1 (w 1) and 4 (w 3) count */
	double wneg[] = {1, -1, 1, 1, 1}, w0[] = {0, 0, 0, 0, 0};
	struct dl_weighted sc[5];

	/* equal weights, odd n: the sample median; q 0 and 1: the ends */
	ck_assert_double_eq(dl_weighted_quantile(x, w1, 5, 0.5, sc), 3);
	ck_assert_double_eq(dl_weighted_quantile(x, w1, 5, 0, sc), 1);
	ck_assert_double_eq(dl_weighted_quantile(x, w1, 5, 1, sc), 5);
	/* lower quantile: 0.4 of 5 reaches 2 values -> 2 */
	ck_assert_double_eq(dl_weighted_quantile(x, w1, 5, 0.4, sc), 2);
	/* cumulative weight 1 (x=1) < 2 = half of 4 <= 4 (x=4) */
	ck_assert_double_eq(dl_weighted_quantile(x, w, 5, 0.5, sc), 4);
	ck_assert_double_eq(dl_weighted_quantile(x, w, 5, 0.25, sc), 1);
	/* zero-weight values are never the answer, even at q 0 */
	ck_assert_double_eq(dl_weighted_quantile(x, w, 5, 0, sc), 1);
	ck_assert(isnan(dl_weighted_quantile(x, wneg, 5, 0.5, sc)));
	ck_assert(isnan(dl_weighted_quantile(x, w0, 5, 0.5, sc)));
	ck_assert(isnan(dl_weighted_quantile(x, w1, 0, 0.5, sc)));
	ck_assert(isnan(dl_weighted_quantile(x, w1, 5, 1.5, sc)));
	ck_assert(isnan(dl_weighted_quantile(NULL, w1, 5, 0.5, sc)));
}
END_TEST

/* A deterministic "generator" cycling through given numbers. */
struct seq {
	const double *u;
	size_t n, i;
};

static double seq_unit(void *p)
{
	struct seq *s = p;

	return s->u[s->i++ % s->n];
}

START_TEST(test_groups_median)
{
	/* one big group of 8 errors of 1.0 and three groups of one 0.1:
	 * per task the median is 1.0, per group (each job counts once) 0.1 */
	double x[] = {1, 1, 1, 1, 1, 1, 1, 1, 0.1, 0.1, 0.1};
	size_t start[] = {0, 8, 9, 10, 11};
	struct dl_groups g = {x, start, 4};
	size_t empty_start[] = {0, 0, 0};
	struct dl_groups empty = {x, empty_start, 2};

	ck_assert_double_eq(dl_groups_median(&g, false), 1);
	ck_assert_double_eq(dl_groups_median(&g, true), 0.1);
	ck_assert(isnan(dl_groups_median(&empty, true)));
	ck_assert(isnan(dl_groups_median(NULL, true)));
}
END_TEST

START_TEST(test_bootstrap_groups)
{
	double x[] = {1, 1, 1, 1, 1, 1, 1, 1, 0.1, 0.1, 0.1};
	size_t start[] = {0, 8, 9, 10, 11};
	struct dl_groups g = {x, start, 4};
	/* draws 0.0 -> group 0, 0.3 -> 1, 0.6 -> 2, 0.9 -> 3 */
	double all_big[] = {0.0}, none_big[] = {0.3, 0.6, 0.9};
	double mixed[] = {0.0, 0.3, 0.6, 0.9};
	struct seq s1 = {all_big, 1, 0}, s2 = {none_big, 3, 0};
	struct seq s3 = {mixed, 4, 0}, s4 = {mixed, 4, 0};
	double lo, hi, lo2, hi2;
	size_t one_start[] = {0, 1};
	struct dl_groups one = {x + 8, one_start, 1};

	/* every resample of only the big job: its error */
	ck_assert(dl_bootstrap_groups(&g, true, 10, 0.95, seq_unit, &s1, &lo,
				      &hi));
	ck_assert_double_eq(lo, 1);
	ck_assert_double_eq(hi, 1);
	ck_assert(dl_bootstrap_groups(&g, false, 10, 0.95, seq_unit, &s2, &lo,
				      &hi));
	ck_assert_double_eq(lo, 0.1);
	ck_assert_double_eq(hi, 0.1);
	/* the original sample every time: the point estimates */
	ck_assert(dl_bootstrap_groups(&g, false, 5, 0.95, seq_unit, &s3, &lo,
				      &hi));
	ck_assert_double_eq(lo, 1);
	ck_assert_double_eq(hi, 1);
	ck_assert(dl_bootstrap_groups(&g, true, 5, 0.95, seq_unit, &s4, &lo,
				      &hi));
	ck_assert_double_eq(lo, 0.1);
	ck_assert_double_eq(hi, 0.1);
	/* one group: no spread */
	s1.i = 0;
	ck_assert(dl_bootstrap_groups(&one, true, 3, 0.9, seq_unit, &s1, &lo2,
				      &hi2));
	ck_assert_double_eq(lo2, 0.1);
	ck_assert_double_eq(hi2, 0.1);
	/* degenerate requests */
	ck_assert(!dl_bootstrap_groups(&g, true, 0, 0.95, seq_unit, &s1, &lo,
				       &hi));
	ck_assert(isnan(lo) && isnan(hi));
	ck_assert(
		!dl_bootstrap_groups(&g, true, 10, 1, seq_unit, &s1, &lo, &hi));
	ck_assert(
		!dl_bootstrap_groups(&g, true, 10, 0.95, NULL, &s1, &lo, &hi));
	ck_assert(!dl_bootstrap_groups(NULL, true, 10, 0.95, seq_unit, &s1, &lo,
				       &hi));
}
END_TEST

START_TEST(test_groups_mean)
{
	/* coverage of 0/1 values: a big job of 8 tasks all covered, three
	 * one-task jobs none covered */
	double x[] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0};
	size_t start[] = {0, 8, 9, 10, 11};
	struct dl_groups g = {x, start, 4};
	size_t empty_start[] = {0, 0, 0};
	struct dl_groups empty = {x, empty_start, 2};
	/* draws 0.0 -> group 0, 0.3 -> 1, 0.6 -> 2, 0.9 -> 3 */
	double mixed[] = {0.0, 0.3, 0.6, 0.9}, big[] = {0.0};
	struct seq s1 = {mixed, 4, 0}, s2 = {mixed, 4, 0}, s3 = {big, 1, 0};
	double lo, hi;

	/* per task 8 / 11; per job (1 + 0 + 0 + 0) / 4 */
	ck_assert_double_eq_tol(dl_groups_mean(&g, false), 8.0 / 11, 1e-12);
	ck_assert_double_eq_tol(dl_groups_mean(&g, true), 0.25, 1e-12);
	ck_assert(isnan(dl_groups_mean(&empty, true)));
	ck_assert(isnan(dl_groups_mean(NULL, false)));
	/* the original sample every time: the point estimates */
	ck_assert(dl_bootstrap_groups_mean(&g, false, 5, 0.95, seq_unit, &s1,
					   &lo, &hi));
	ck_assert_double_eq_tol(lo, 8.0 / 11, 1e-12);
	ck_assert_double_eq_tol(hi, 8.0 / 11, 1e-12);
	ck_assert(dl_bootstrap_groups_mean(&g, true, 5, 0.95, seq_unit, &s2,
					   &lo, &hi));
	ck_assert_double_eq_tol(lo, 0.25, 1e-12);
	ck_assert_double_eq_tol(hi, 0.25, 1e-12);
	/* only the big job: all covered */
	ck_assert(dl_bootstrap_groups_mean(&g, true, 4, 0.95, seq_unit, &s3,
					   &lo, &hi));
	ck_assert_double_eq(lo, 1);
	ck_assert_double_eq(hi, 1);
	ck_assert(!dl_bootstrap_groups_mean(&g, true, 0, 0.95, seq_unit, &s3,
					    &lo, &hi));
	ck_assert(isnan(lo) && isnan(hi));
}
END_TEST

START_TEST(test_weighted_quantile_sorted)
{
	/* the same answers as dl_weighted_quantile on sorted pairs */
	struct dl_weighted v[] = {{1, 1}, {2, 3}, {5, 1}, {9, 5}};
	double x[] = {9, 1, 5, 2}, w[] = {5, 1, 1, 3};
	struct dl_weighted scratch[4];

	for (double q = 0; q <= 1.0001; q += 0.05)
		ck_assert_double_eq(
			dl_weighted_quantile_sorted(v, 4, q > 1 ? 1 : q),
			dl_weighted_quantile(x, w, 4, q > 1 ? 1 : q, scratch));
	/* total 10: cumulative 1, 4, 5, 10 */
	ck_assert_double_eq(dl_weighted_quantile_sorted(v, 4, 0.4), 2);
	ck_assert_double_eq(dl_weighted_quantile_sorted(v, 4, 0.5), 5);
	ck_assert_double_eq(dl_weighted_quantile_sorted(v, 4, 0.51), 9);
	ck_assert(isnan(dl_weighted_quantile_sorted(v, 0, 0.5)));
	ck_assert(isnan(dl_weighted_quantile_sorted(v, 4, 1.5)));
	ck_assert(isnan(dl_weighted_quantile_sorted(NULL, 4, 0.5)));
	dl_sort_weighted(scratch, 0); /* no-op */
}
END_TEST

START_TEST(test_bootstrap_spread)
{
	/* a real spread: 20 groups of one value each 1..20; a 90 % interval
	 * from a pseudo-random sequence must contain the median and lie
	 * within the data */
	double x[20], u[97];
	size_t start[21];
	struct dl_groups g = {x, start, 20};
	struct seq s = {u, 97, 0};
	double lo, hi;

	for (int i = 0; i < 20; i++) {
		x[i] = i + 1;
		start[i] = (size_t) i;
	}
	start[20] = 20;
	for (int i = 0; i < 97; i++)
		u[i] = fmod(i * 0.6180339887, 1.0);
	ck_assert(dl_bootstrap_groups(&g, false, 200, 0.9, seq_unit, &s, &lo,
				      &hi));
	ck_assert(lo < 10 && hi > 10);
	ck_assert(lo >= 1 && hi <= 20);
	ck_assert(hi - lo >= 2);
}
END_TEST

/* The step of a series holding x: before the first breakpoint, on one,
 * between two, after the last; degenerate inputs give 0. */
START_TEST(test_last_at_or_before)
{
	static const double t[5] = {0, 10, 10, 20, 35};

	ck_assert_uint_eq(dl_last_at_or_before(t, 5, -1), 0);
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, 0), 0);
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, 9.99), 0);
	/* equal breakpoints: the last of them */
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, 10), 2);
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, 19), 2);
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, 20), 3);
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, 1e9), 4);
	ck_assert_uint_eq(dl_last_at_or_before(t, 1, 50), 0);
	ck_assert_uint_eq(dl_last_at_or_before(t, 0, 50), 0);
	ck_assert_uint_eq(dl_last_at_or_before(NULL, 5, 50), 0);
	ck_assert_uint_eq(dl_last_at_or_before(t, 5, NAN), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_quantile_type7);
	tcase_add_test(tc, test_quantile_bad_input);
	tcase_add_test(tc, test_normal_quantile);
	tcase_add_test(tc, test_normal_quantile_rough);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_ols);
	tcase_add_test(tc, test_rel_error);
	tcase_add_test(tc, test_weighted_quantile);
	tcase_add_test(tc, test_groups_median);
	tcase_add_test(tc, test_bootstrap_groups);
	tcase_add_test(tc, test_bootstrap_spread);
	tcase_add_test(tc, test_groups_mean);
	tcase_add_test(tc, test_weighted_quantile_sorted);
	tcase_add_test(tc, test_last_at_or_before);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
