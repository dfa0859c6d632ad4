/*
 * test_affinity.c - Polo's data-affinity rule (every branch), s_req from
 * the plan, and the bounded deferral table: one count per attempt, the
 * per-task maximum, forgetting started tasks and ended arrays, a full table.
 */
#include <math.h>

#include "common/policy/affinity.h"
#include "fixtures.h"

START_TEST(test_sreq_now)
{
	/* need 2.5 concurrent tasks, 4 running: 1.5 more than needed */
	ck_assert_double_eq(dl_affinity_sreq(2.5, 4), -1.5);
	ck_assert_double_eq(dl_affinity_sreq(2.5, 0), 2.5);
	/* every start lowers s_req by one (Eq. 1) */
	ck_assert_double_eq(dl_affinity_sreq(3, 2) - dl_affinity_sreq(3, 3), 1);
	ck_assert(isnan(dl_affinity_sreq(NAN, 3)));
	ck_assert(isnan(dl_affinity_sreq(-1, 3)));
	ck_assert(isinf(dl_affinity_sreq(INFINITY, 1000)));
}
END_TEST

START_TEST(test_decide)
{
	/* a preferred node has room: local, whatever else holds */
	ck_assert_int_eq(dl_affinity_decide(true, 5, 0, 3), DL_AFFINITY_LOCAL);
	ck_assert_int_eq(dl_affinity_decide(true, -2, 9, 3), DL_AFFINITY_LOCAL);
	ck_assert_int_eq(dl_affinity_decide(true, NAN, 0, 0),
			 DL_AFFINITY_LOCAL);
	/* ahead of the goal, deferrals left: defer */
	ck_assert_int_eq(dl_affinity_decide(false, -1.5, 0, 3),
			 DL_AFFINITY_DEFER);
	ck_assert_int_eq(dl_affinity_decide(false, -1.5, 2, 3),
			 DL_AFFINITY_DEFER);
	ck_assert_int_eq(dl_affinity_decide(false, 0, 0, 1),
			 DL_AFFINITY_DEFER); /* s_req = 0 is "enough" */
	ck_assert_int_eq(dl_affinity_decide(false, -INFINITY, 0, 1),
			 DL_AFFINITY_DEFER);
	/* this task's deferrals used up */
	ck_assert_int_eq(dl_affinity_decide(false, -1.5, 3, 3),
			 DL_AFFINITY_ANYWHERE);
	ck_assert_int_eq(dl_affinity_decide(false, -1.5, 7, 3),
			 DL_AFFINITY_ANYWHERE);
	/* --max-delays=0 or not given: never defer */
	ck_assert_int_eq(dl_affinity_decide(false, -1.5, 0, 0),
			 DL_AFFINITY_ANYWHERE);
	ck_assert_int_eq(dl_affinity_decide(false, -1.5, 0, -1),
			 DL_AFFINITY_ANYWHERE);
	/* behind the goal (s_req > 0), late, or no estimate: run now */
	ck_assert_int_eq(dl_affinity_decide(false, 0.01, 0, 3),
			 DL_AFFINITY_ANYWHERE);
	ck_assert_int_eq(dl_affinity_decide(false, INFINITY, 0, 3),
			 DL_AFFINITY_ANYWHERE);
	ck_assert_int_eq(dl_affinity_decide(false, NAN, 0, 3),
			 DL_AFFINITY_ANYWHERE);
	ck_assert_str_eq(dl_affinity_name(DL_AFFINITY_LOCAL), "local");
	ck_assert_str_eq(dl_affinity_name(DL_AFFINITY_DEFER), "defer");
	ck_assert_str_eq(dl_affinity_name(DL_AFFINITY_ANYWHERE), "anywhere");
	ck_assert_str_eq(dl_affinity_name((enum dl_affinity) 9), "?");
}
END_TEST

START_TEST(test_attempts_count_to_max)
{
	struct dl_deferrals t;
	bool counted;

	dl_deferrals_init(&t, DL_DEFERRALS_MAX);
	for (int64_t stamp = 1; stamp <= 3; stamp++) {
		ck_assert_int_eq(dl_affinity_attempt(&t, 7, 4, stamp, false, -1,
						     3, &counted),
				 DL_AFFINITY_DEFER);
		ck_assert(counted);
		/* more tests in the same attempt: still deferred, not
		 * counted again */
		ck_assert_int_eq(dl_affinity_attempt(&t, 7, 4, stamp, false, -1,
						     3, &counted),
				 DL_AFFINITY_DEFER);
		ck_assert(!counted);
		ck_assert_uint_eq(dl_deferrals_get(&t, 7, 4), (uint32_t) stamp);
	}
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 7, 4, 4, false, -1, 3, &counted),
		DL_AFFINITY_ANYWHERE);
	ck_assert(!counted);
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 7, 4, 4, false, -1, 3, &counted),
		DL_AFFINITY_ANYWHERE);
	ck_assert_uint_eq(dl_deferrals_get(&t, 7, 4), 3);
	/* a free preferred node: local, the count untouched */
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 7, 4, 5, true, -1, 3, &counted),
		DL_AFFINITY_LOCAL);
	ck_assert_uint_eq(dl_deferrals_get(&t, 7, 4), 3);
	/* the task starts: forgotten */
	ck_assert_uint_eq(dl_deferrals_forget(&t, 7, 4), 3);
	ck_assert_uint_eq(dl_deferrals_get(&t, 7, 4), 0);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_uint_eq(dl_deferrals_forget(&t, 7, 4), 0);
	dl_deferrals_free(&t);
}
END_TEST

START_TEST(test_attempts_follow_sreq)
{
	struct dl_deferrals t;
	bool counted;

	dl_deferrals_init(&t, DL_DEFERRALS_MAX);
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 1, 0, 10, false, -0.5, 3, &counted),
		DL_AFFINITY_DEFER);
	/* the job fell behind: no deferral, and none counted */
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 1, 0, 11, false, 0.5, 3, &counted),
		DL_AFFINITY_ANYWHERE);
	ck_assert(!counted);
	ck_assert_uint_eq(dl_deferrals_get(&t, 1, 0), 1);
	/* ahead again: the count goes on where it was */
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 1, 0, 12, false, -0.5, 3, &counted),
		DL_AFFINITY_DEFER);
	ck_assert(counted);
	ck_assert_uint_eq(dl_deferrals_get(&t, 1, 0), 2);
	/* no estimate: no entry made for a task never deferred */
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 1, 1, 12, false, NAN, 3, &counted),
		DL_AFFINITY_ANYWHERE);
	ck_assert_uint_eq(t.n, 1);
	/* --max-delays=0 never defers */
	ck_assert_int_eq(
		dl_affinity_attempt(&t, 2, 0, 12, false, -9, 0, &counted),
		DL_AFFINITY_ANYWHERE);
	ck_assert_uint_eq(t.n, 1);
	/* without a table: the rule with no deferral allowed */
	ck_assert_int_eq(
		dl_affinity_attempt(NULL, 2, 0, 12, false, -9, 3, &counted),
		DL_AFFINITY_ANYWHERE);
	ck_assert_int_eq(dl_affinity_attempt(NULL, 2, 0, 12, true, -9, 3, NULL),
			 DL_AFFINITY_LOCAL);
	dl_deferrals_free(&t);
}
END_TEST

START_TEST(test_table_bound)
{
	struct dl_deferrals t;

	dl_deferrals_init(&t, 2);
	ck_assert_int_eq(dl_affinity_attempt(&t, 5, 1, 1, false, -1, 3, NULL),
			 DL_AFFINITY_DEFER);
	ck_assert_int_eq(dl_affinity_attempt(&t, 3, 1, 1, false, -1, 3, NULL),
			 DL_AFFINITY_DEFER);
	/* full: a third task runs rather than waiting uncounted */
	ck_assert_int_eq(dl_affinity_attempt(&t, 4, 1, 1, false, -1, 3, NULL),
			 DL_AFFINITY_ANYWHERE);
	ck_assert_uint_eq(t.full, 1);
	/* tasks already in the table keep their deferrals */
	ck_assert_int_eq(dl_affinity_attempt(&t, 5, 1, 2, false, -1, 3, NULL),
			 DL_AFFINITY_DEFER);
	ck_assert_uint_eq(dl_deferrals_get(&t, 5, 1), 2);
	ck_assert_uint_eq(dl_deferrals_forget(&t, 3, 1), 1);
	ck_assert_int_eq(dl_affinity_attempt(&t, 4, 1, 2, false, -1, 3, NULL),
			 DL_AFFINITY_DEFER);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_uint_le(t.cap, 2);
	dl_deferrals_free(&t);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_uint_eq(t.max, 2);
}
END_TEST

static bool keep_even(uint64_t array_id, void *ctx)
{
	(*(int *) ctx)++;
	return array_id % 2 == 0;
}

START_TEST(test_retain_and_order)
{
	static const uint64_t arrays[] = {9, 2, 4, 2, 3, 4, 2, 8};
	static const uint32_t tasks[] = {0, 5, 1, 1, 0, 0, 3, 2};
	struct dl_deferrals t;
	int asked = 0;

	dl_deferrals_init(&t, 100);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(dl_affinity_attempt(&t, arrays[i], tasks[i], 1,
						     false, -1, 5, NULL),
				 DL_AFFINITY_DEFER);
	for (uint32_t i = 1; i < t.n; i++)
		ck_assert(t.e[i - 1].array_id < t.e[i].array_id ||
			  (t.e[i - 1].array_id == t.e[i].array_id &&
			   t.e[i - 1].task < t.e[i].task));
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(dl_deferrals_get(&t, arrays[i], tasks[i]), 1);
	dl_deferrals_retain(&t, keep_even, &asked);
	ck_assert_int_eq(asked, 5); /* once per array: 2, 3, 4, 8, 9 */
	ck_assert_uint_eq(t.n, 6);
	for (uint32_t i = 0; i < t.n; i++)
		ck_assert_uint_eq(t.e[i].array_id % 2, 0);
	ck_assert_uint_eq(dl_deferrals_get(&t, 9, 0), 0);
	ck_assert_uint_eq(dl_deferrals_get(&t, 2, 3), 1);
	ck_assert_uint_eq(dl_deferrals_get(&t, 4, 1), 1);
	dl_deferrals_retain(&t, NULL, NULL);
	ck_assert_uint_eq(t.n, 6);
	dl_deferrals_free(&t);
	dl_deferrals_free(NULL);
	dl_deferrals_init(NULL, 1);
	ck_assert_uint_eq(dl_deferrals_get(NULL, 1, 1), 0);
	ck_assert_uint_eq(dl_deferrals_forget(NULL, 1, 1), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("affinity");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sreq_now);
	tcase_add_test(tc, test_decide);
	tcase_add_test(tc, test_attempts_count_to_max);
	tcase_add_test(tc, test_attempts_follow_sreq);
	tcase_add_test(tc, test_table_bound);
	tcase_add_test(tc, test_retain_and_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
