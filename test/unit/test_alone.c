/*
 * test_alone.c - the earliest end of a phase alone on the cluster (the
 * oracle's valid cut): exact waves, a job exactly feasible and one a wave
 * short, capacity that changes over time with tasks running on past it,
 * the bounds for unequal lengths, and the greedy against an exhaustive
 * search on small random instances.
 */
#include <math.h>
#include <string.h>

#include "common/compare/alone.h"
#include "fixtures.h"

static void supply(struct dl_alone_supply *s, const double *t,
		   const uint32_t *count, uint32_t n)
{
	ck_assert_int_eq(dl_alone_supply_init(s, t, count, n), 0);
}

static double phase_end(const struct dl_alone_supply *s, double release,
			const double *len, uint32_t n, double horizon)
{
	double end = NAN;

	ck_assert_int_eq(
		dl_alone_phase_end(s, release, len, n, 0, horizon, &end), 0);
	return end;
}

/* n tasks of length L, at most at_once of them at a time (0: no limit) */
static double limited_end(const struct dl_alone_supply *s, double release,
			  double L, uint32_t n, uint32_t at_once,
			  double horizon)
{
	double len[64], end = NAN;

	ck_assert_uint_le(n, 64);
	for (uint32_t i = 0; i < n; i++)
		len[i] = L;
	ck_assert_int_eq(
		dl_alone_phase_end(s, release, len, n, at_once, horizon, &end),
		0);
	return end;
}

static double equal_end(const struct dl_alone_supply *s, double release,
			double L, uint32_t n, double horizon)
{
	return limited_end(s, release, L, n, 0, horizon);
}

START_TEST(whole_waves_on_a_constant_cluster)
{
	double t0 = 0;
	uint32_t four = 4;
	struct dl_alone_supply s;

	supply(&s, &t0, &four, 1);
	/* 8 tasks of 10 s on 4 machines: two waves, exactly feasible by 20 */
	ck_assert_double_eq_tol(equal_end(&s, 0, 10, 8, INFINITY), 20, 1e-12);
	ck_assert_double_eq_tol(equal_end(&s, 0, 10, 8, 20), 20, 1e-12);
	/* a ninth task is a third wave: 30 s, one wave past a deadline of 29
	 * (the fluid relaxation would fit 90 task-seconds in 4 x 29) */
	ck_assert_double_eq_tol(equal_end(&s, 0, 10, 9, INFINITY), 30, 1e-12);
	/* no task may start at or after the horizon: the third wave cannot */
	ck_assert(isinf(equal_end(&s, 0, 10, 9, 20)));
	ck_assert_double_eq_tol(equal_end(&s, 0, 10, 9, 20.5), 30, 1e-12);
	/* released later: the same waves, shifted */
	ck_assert_double_eq_tol(equal_end(&s, 7, 10, 4, INFINITY), 17, 1e-12);
	/* no task: the release */
	ck_assert_double_eq_tol(phase_end(&s, 7, NULL, 0, INFINITY), 7, 1e-12);
	dl_alone_supply_free(&s);
}
END_TEST

START_TEST(capacity_over_time)
{
	/* 4 machines on [0, 5), 1 on [5, 100), 4 from 100 on */
	double t[] = {0, 5, 100};
	uint32_t c[] = {4, 1, 4};
	struct dl_alone_supply s;

	supply(&s, t, c, 3);
	ck_assert_double_eq_tol(dl_alone_next_start(&s, 0, 7), 7, 1e-12);
	ck_assert_double_eq_tol(dl_alone_next_start(&s, 1, 7), 100, 1e-12);
	ck_assert_double_eq_tol(dl_alone_next_start(&s, 3, -3), -3, 1e-12);
	ck_assert(isinf(dl_alone_next_start(&s, 4, 0)));
	/* released at 0: four tasks start at 0 and run on to 10 although
	 * three of their machines stop being available at 5; the rest run
	 * back to back on machine 0 (10-20, ..., 40-50) rather than waiting
	 * for 100 */
	ck_assert_double_eq_tol(equal_end(&s, 0, 10, 8, INFINITY), 50, 1e-12);
	/* released at 3: still four at once (3-13), then 13-53 */
	ck_assert_double_eq_tol(equal_end(&s, 3, 10, 8, INFINITY), 53, 1e-12);
	/* released at 6: machine 0 alone until 100 -- 8 tasks end at 86 */
	ck_assert_double_eq_tol(equal_end(&s, 6, 10, 8, INFINITY), 86, 1e-12);
	/* twelve tasks from 6: 9 on machine 0 (the ninth 86-96), three more
	 * from 100 on machines 1-3 -- and none after a horizon of 100 */
	ck_assert_double_eq_tol(equal_end(&s, 6, 10, 12, INFINITY), 110, 1e-12);
	ck_assert(isinf(equal_end(&s, 6, 10, 12, 100)));
	dl_alone_supply_free(&s);
}
END_TEST

START_TEST(unequal_lengths_lower_bound)
{
	double t0 = 0, len[] = {9, 5, 1, 5, 5}, pair[] = {10, 2, 9, 9};
	uint32_t two = 2;
	struct dl_alone_supply s;
	double t[] = {0, 50};
	uint32_t c[] = {1, 3};
	double three[] = {10, 2, 9};

	supply(&s, &t0, &two, 1);
	/* 2 machines: all as short as 1 -> 3; the longest 9; the chain over
	 * the 3 longest (9, 5, 5): 5 + 5 = 10, over all 5: 1 + 5 + 5 = 11.
	 * The optimum is 14 ({9, 5} and {5, 5, 1}): 11 is a valid bound */
	ck_assert_double_eq_tol(phase_end(&s, 0, len, 5, INFINITY), 11, 1e-12);
	/* {10, 9, 9, 2}: the chain 9 + 9 = 18 is the optimum ({10, 2},
	 * {9, 9}) */
	ck_assert_double_eq_tol(phase_end(&s, 0, pair, 4, INFINITY), 18, 1e-12);
	/* from a later release */
	ck_assert_double_eq_tol(phase_end(&s, 4, pair, 4, INFINITY), 22, 1e-12);
	dl_alone_supply_free(&s);

	/* one machine until 50, three after: with a horizon of 40 only one
	 * machine can be used, so all three tasks run one after the other
	 * (21); without one the longest task bounds (10) */
	supply(&s, t, c, 2);
	ck_assert_double_eq_tol(phase_end(&s, 0, three, 3, 40), 21, 1e-12);
	ck_assert_double_eq_tol(phase_end(&s, 0, three, 3, INFINITY), 10,
				1e-12);
	/* released at 45: machine 0 at 45 */
	ck_assert_double_eq_tol(phase_end(&s, 45, three, 3, INFINITY), 55,
				1e-12);
	dl_alone_supply_free(&s);
}
END_TEST

/* Exhaustive search (every choice of integer start times, by dynamic
 * programming): the earliest k tasks of length L can all have ended on one
 * machine that may start at the times y < T where avail[y] holds, the first
 * at `from` or later; INFINITY when they cannot. */
static double best_on_machine(const bool *avail, int T, int L, int k, int from)
{
	/* f[j][y]: earliest end of j tasks starting at y or later */
	double f[6][72];

	ck_assert_int_le(k, 5);
	ck_assert_int_le(T + L, 72);
	for (int j = 1; j <= k; j++)
		for (int y = 71; y >= 0; y--) {
			double best = y + 1 < 72 ? f[j][y + 1] : INFINITY;

			if (y < T && avail[y]) {
				double e = j == 1 ? y + L : f[j - 1][y + L];

				best = e < best ? e : best;
			}
			f[j][y] = best;
		}
	return k ? f[k][from] : from;
}

/* The optimum over every split of n tasks among the machines. */
static double best_split(bool avail[][64], int machines, int T, int L, int n,
			 int m)
{
	double best = INFINITY;

	if (m == machines - 1) {
		double e = best_on_machine(avail[m], T, L, n, 0);

		return n ? e : 0;
	}
	for (int k = 0; k <= n; k++) {
		double a = k ? best_on_machine(avail[m], T, L, k, 0) : 0;
		double b, e;

		if (isinf(a))
			break;
		b = best_split(avail, machines, T, L, n - k, m + 1);
		e = a > b ? a : b;
		if (e < best)
			best = e;
	}
	return best;
}

START_TEST(greedy_is_optimal_on_random_instances)
{
	uint64_t x = 88172645463325252ULL;

	for (int round = 0; round < 300; round++) {
		double t[6];
		uint32_t c[6], nsteps = 1 + (uint32_t) (round % 5);
		bool avail[3][64];
		int L, n, T = 48, machines = 3;
		double got, want;
		struct dl_alone_supply s;

		/* an integer step function of 0-3 machines */
		for (uint32_t k = 0; k < nsteps; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			t[k] = k ? t[k - 1] + 1 + (double) (x % 9) : 0;
			c[k] = (uint32_t) ((x >> 8) % 4);
		}
		L = 1 + (int) ((x >> 16) % 6);
		n = 1 + (int) ((x >> 24) % 5);
		supply(&s, t, c, nsteps);
		for (int m = 0; m < machines; m++)
			for (int y = 0; y < T; y++)
				avail[m][y] = dl_alone_next_start(
						      &s, (uint32_t) m, y) == y;
		/* tasks that cannot start before T: the search does not
		 * see them, so compare with the horizon T */
		got = equal_end(&s, 0, L, (uint32_t) n, T);
		want = best_split(avail, machines, T, L, n, 0);
		ck_assert_msg(got == want || (isinf(got) && isinf(want)),
			      "round %d: greedy %g, exhaustive %g", round, got,
			      want);
		/* at most 1 or 2 at once: never earlier than without the
		 * limit, never later than the optimum on machines 0..K-1 (a
		 * schedule with at most K at once), and equal to it where the
		 * capacity does not change */
		for (int K = 1; K < machines; K++) {
			double lim = limited_end(&s, 0, L, (uint32_t) n,
						 (uint32_t) K, T);

			/* one at a time on any machine is a sequence whose
			 * starts find machine 0 available: exact */
			want = K == 1 ? best_on_machine(avail[0], T, L, n, 0)
				      : best_split(avail, K, T, L, n, 0);
			ck_assert_msg(lim >= got && lim <= want &&
					      (!(K == 1 || nsteps == 1) ||
					       lim == want),
				      "round %d, %d at once: bound %g, without "
				      "the limit %g, exhaustive on %d "
				      "machines %g",
				      round, K, lim, got, K, want);
		}
		dl_alone_supply_free(&s);
	}
}
END_TEST

/* The array's own limit: never more than K tasks at once, bounded as K
 * copies of machine 0 (alone.c), exact where the capacity does not change;
 * a limit at or above what the cluster offers changes nothing. */
START_TEST(own_limit)
{
	/* 8 tasks of 10 s on 4 machines: two waves of 4, four of 2, eight
	 * of 1, and four waves of 2 cannot all start by a horizon of 30.
	 * One machine until 50, three after, released at 45: 65 without a
	 * limit (machine 0 at 55 and 65, machines 1 and 2 at 60).  With a
	 * limit of 2 the best schedule ends at 70 (machine 0 at 55 and 65,
	 * machine 1 at 60 and 70); the bound counts two copies of machine 0
	 * (alone.c), 65: valid, not exact where the capacity changes.  One
	 * at a time: machine 0 back to back, 85. */
	static const struct {
		bool varying;
		double release;
		uint32_t n, at_once;
		double horizon, want;
	} cases[] = {
		{false, 0, 8, 0, INFINITY, 20}, {false, 0, 8, 2, INFINITY, 40},
		{false, 0, 8, 1, INFINITY, 80}, {false, 0, 8, 4, INFINITY, 20},
		{false, 0, 8, 9, INFINITY, 20}, {false, 0, 8, 2, 30, INFINITY},
		{true, 45, 4, 0, INFINITY, 65}, {true, 45, 4, 2, INFINITY, 65},
		{true, 45, 4, 1, INFINITY, 85},
	};
	double t0 = 0, t[] = {0, 50}, three[] = {10, 2, 9}, end = NAN;
	uint32_t four = 4, c[] = {1, 3};
	struct dl_alone_supply constant, varying;

	supply(&constant, &t0, &four, 1);
	supply(&varying, t, c, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		double got =
			limited_end(cases[i].varying ? &varying : &constant,
				    cases[i].release, 10, cases[i].n,
				    cases[i].at_once, cases[i].horizon);

		ck_assert_msg(got == cases[i].want ||
				      fabs(got - cases[i].want) < 1e-12,
			      "case %zu: %g, not %g", i, got, cases[i].want);
	}
	/* unequal lengths, one at a time: the chain is their sum */
	ck_assert_int_eq(
		dl_alone_phase_end(&constant, 0, three, 3, 1, INFINITY, &end),
		0);
	ck_assert_double_eq_tol(end, 21, 1e-12);
	dl_alone_supply_free(&constant);
	dl_alone_supply_free(&varying);
}
END_TEST

START_TEST(validation)
{
	double t[] = {0, 5}, bad_t[] = {5, 5}, end, len[] = {1, 0};
	uint32_t c[] = {1, 2};
	struct dl_alone_supply s;

	ck_assert_int_eq(dl_alone_supply_init(&s, bad_t, c, 2), EINVAL);
	ck_assert_int_eq(dl_alone_supply_init(&s, t, c, 0), EINVAL);
	ck_assert_int_eq(dl_alone_supply_init(NULL, t, c, 2), EINVAL);
	supply(&s, t, c, 2);
	/* a task of length 0 or NaN, a NaN release */
	ck_assert_int_eq(dl_alone_phase_end(&s, 0, len, 2, 0, INFINITY, &end),
			 EINVAL);
	len[1] = NAN;
	ck_assert_int_eq(dl_alone_phase_end(&s, 0, len, 2, 0, INFINITY, &end),
			 EINVAL);
	ck_assert_int_eq(dl_alone_phase_end(&s, NAN, len, 1, 0, INFINITY, &end),
			 EINVAL);
	ck_assert_int_eq(dl_alone_phase_end(&s, 0, len, 1, 0, INFINITY, NULL),
			 EINVAL);
	/* no machine ever: never */
	dl_alone_supply_free(&s);
	c[0] = c[1] = 0;
	supply(&s, t, c, 2);
	ck_assert_int_eq(dl_alone_phase_end(&s, 0, len, 1, 0, INFINITY, &end),
			 0);
	ck_assert(isinf(end));
	dl_alone_supply_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alone");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, whole_waves_on_a_constant_cluster);
	tcase_add_test(tc, capacity_over_time);
	tcase_add_test(tc, unequal_lengths_lower_bound);
	tcase_add_test(tc, greedy_is_optimal_on_random_instances);
	tcase_add_test(tc, own_limit);
	tcase_add_test(tc, validation);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
