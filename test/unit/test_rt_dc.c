/*
 * test_rt_dc.c - the Deadline Constraint baseline: S_r^max and n_m^min,
 * both rejection cases, and the insufficiency the RTMR paper points out
 * (reduce slots checked at one instant only).
 */
#include <math.h>

#include "common/compare/dc.h"
#include "fixtures.h"

static struct dl_dc_request req(uint64_t id, double a, double d, uint32_t m,
				double wm, uint32_t r, double wr)
{
	struct dl_dc_request q = {id, a, d, m, r, wm, wr};

	return q;
}

START_TEST(test_formulas)
{
	struct dl_dc_state *st = dl_dc_new(10, 4);
	struct dl_dc_verdict v;
	struct dl_dc_request q = req(1, 100, 200, 20, 10, 4, 20);

	/* S_r^max = 200 - 20; n_m^min = ceil(20 x 10 / 80) = 3 */
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), 0);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.sr_max, 180);
	ck_assert_uint_eq(v.nm_min, 3);
	ck_assert_uint_eq(dl_dc_free_at(st, 0, 150), 7);
	ck_assert_uint_eq(dl_dc_free_at(st, 0, 180), 10);
	ck_assert_uint_eq(dl_dc_free_at(st, 1, 185), 0);
	ck_assert_uint_eq(dl_dc_free_at(st, 1, 200), 4);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), EEXIST);
	/* release at 150: its slots are free from then on */
	ck_assert_int_eq(dl_dc_release(st, 1, 150), 0);
	ck_assert_uint_eq(dl_dc_free_at(st, 0, 150), 10);
	ck_assert_uint_eq(dl_dc_free_at(st, 0, 120), 7);
	ck_assert_int_eq(dl_dc_release(st, 9, 150), ENOENT);
	dl_dc_free(st);
}
END_TEST

START_TEST(test_rejections)
{
	struct dl_dc_state *st = dl_dc_new(4, 2);
	struct dl_dc_verdict v;
	struct dl_dc_request q;

	/* R above the reduce slots: never (RTMR runs it in waves) */
	q = req(1, 0, 1000, 1, 10, 3, 10);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), 0);
	ck_assert(!v.admitted);
	ck_assert_uint_eq(v.free_reduce, 2);
	/* slots free at different times: 3 of 4 busy until 4; 4 maps of
	 * 5 s by 10 need ceil(20 / 10) = 2 free now (RTMR admits it) */
	q = req(2, 0, 4, 3, 4, 0, 0);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), 0);
	ck_assert(v.admitted);
	ck_assert_uint_eq(v.nm_min, 3);
	q = req(3, 0, 10, 4, 5, 0, 0);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), 0);
	ck_assert(!v.admitted);
	ck_assert_uint_eq(v.nm_min, 2);
	ck_assert_uint_eq(v.free_map, 1);
	ck_assert(v.msg[0]);
	/* no time for the maps at all */
	q = req(4, 0, 10, 1, 5, 1, 20);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), 0);
	ck_assert(!v.admitted);
	/* bad input */
	q = req(0, 0, 10, 1, 5, 0, 0);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), EINVAL);
	q = req(5, 0, 10, 1, NAN, 0, 0);
	ck_assert_int_eq(dl_dc_admit(st, &q, true, &v), EINVAL);
	ck_assert_int_eq(dl_dc_admit(NULL, &q, true, &v), EINVAL);
	dl_dc_free(st);
}
END_TEST

/* Reduce slots checked only at S_r^max: X holds both reduce slots over
 * [50, 60); Y needs both over [45, 55) and is admitted because both are
 * free at 45 - four reducers at 50 on two slots: one job misses. */
START_TEST(test_insufficient)
{
	struct dl_dc_state *st = dl_dc_new(10, 2);
	struct dl_dc_verdict v;
	struct dl_dc_request x = req(1, 0, 60, 1, 10, 2, 10);
	struct dl_dc_request y = req(2, 1, 55, 1, 10, 2, 10);

	ck_assert_int_eq(dl_dc_admit(st, &x, true, &v), 0);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.sr_max, 50);
	ck_assert_int_eq(dl_dc_admit(st, &y, true, &v), 0);
	ck_assert(v.admitted);
	ck_assert_double_eq(v.sr_max, 45);
	ck_assert_uint_eq(dl_dc_free_at(st, 1, 50), 0); /* over-committed */
	dl_dc_free(st);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_dc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_formulas);
	tcase_add_test(tc, test_rejections);
	tcase_add_test(tc, test_insufficient);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
