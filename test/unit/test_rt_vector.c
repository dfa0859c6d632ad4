/*
 * test_rt_vector.c - slot-availability vectors: list scheduling (Alg. II and
 * III), SATU (Alg. VI), the order of the correctness proof, against a naive
 * one-entry-per-unit implementation on random inputs and on worked examples.
 */
#include "rt_fixtures.h"

static void vec_of(struct dl_rt_vec *v, const double *t, uint32_t n)
{
	dl_rt_vec_zero(v);
	ck_assert_int_eq(dl_rt_vec_init(v, 0, 0), 0);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_int_eq(dl_rt_vec_add(v, t[i], 1), 0);
}

static void expect(const struct dl_rt_vec *v, const double *t, uint32_t n)
{
	char err[128];

	ck_assert_int_eq(dl_rt_vec_check(v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v->units, n);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_double_eq(dl_rt_vec_nth(v, i), t[i]);
}

/* 3 free slots, 5 tasks of 10 s: two waves; the last task starts at 10. */
START_TEST(test_waves)
{
	struct dl_rt_vec v;
	struct dl_rt_sched w;
	const double want[] = {10, 20, 20};

	dl_rt_vec_zero(&v);
	ck_assert_int_eq(dl_rt_vec_init(&v, 3, 0), 0);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 5, 1, 10, 0, &w), 0);
	expect(&v, want, 3);
	ck_assert_double_eq(w.first_start, 0);
	ck_assert_double_eq(w.last_start, 10);
	ck_assert_double_eq(w.last_end, 20);
	ck_assert_uint_eq(v.nruns, 2); /* run-length encoded */
	dl_rt_vec_free(&v);
}
END_TEST

/* Alg. III's max(t, e^m): only the picked units wait for the floor. */
START_TEST(test_floor_picked_only)
{
	struct dl_rt_vec v;
	struct dl_rt_sched w;
	const double in[] = {0, 0, 100}, want[] = {0, 55, 100};
	const double want2[] = {50, 100};

	vec_of(&v, in, 3);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 1, 5, 50, &w), 0);
	expect(&v, want, 3);
	ck_assert_double_eq(w.first_start, 50);
	/* MAX(V, f) floors every unit */
	dl_rt_vec_floor(&v, 50);
	ck_assert_uint_eq(v.units, 3);
	ck_assert_double_eq(dl_rt_vec_nth(&v, 0), 50);
	ck_assert_double_eq(dl_rt_vec_nth(&v, 1), 55);
	dl_rt_vec_free(&v);
	vec_of(&v, want2, 2);
	dl_rt_vec_floor(&v, 10); /* nothing below: unchanged */
	expect(&v, want2, 2);
	dl_rt_vec_free(&v);
}
END_TEST

/* A task of c units waits for the c-th earliest unit. */
START_TEST(test_wide_tasks)
{
	struct dl_rt_vec v;
	struct dl_rt_sched w;
	const double in[] = {0, 10, 20}, want[] = {15, 15, 20};

	vec_of(&v, in, 3);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 2, 5, 0, &w), 0);
	expect(&v, want, 3);
	ck_assert_double_eq(w.last_start, 10);
	/* wider than the pool */
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 4, 5, 0, &w), EINVAL);
	expect(&v, want, 3); /* unchanged */
	dl_rt_vec_free(&v);
}
END_TEST

START_TEST(test_satu_example)
{
	struct dl_rt_vec v;
	const double e[] = {5, 3}, want[] = {0, 3, 5};

	dl_rt_vec_zero(&v);
	ck_assert_int_eq(dl_rt_vec_init(&v, 3, 0), 0);
	ck_assert_int_eq(dl_rt_vec_satu(&v, e, 2, 1), 0);
	expect(&v, want, 3);
	/* wider than the pool */
	ck_assert_int_eq(dl_rt_vec_satu(&v, e, 1, 4), EINVAL);
	dl_rt_vec_free(&v);
}
END_TEST

START_TEST(test_bad_input)
{
	struct dl_rt_vec v;
	char err[128];

	dl_rt_vec_zero(&v);
	ck_assert_int_eq(dl_rt_vec_init(NULL, 1, 0), EINVAL);
	ck_assert_int_eq(dl_rt_vec_init(&v, 1, NAN), EINVAL);
	ck_assert_int_eq(dl_rt_vec_init(&v, DL_RT_MAX_UNITS + 1, 0), EINVAL);
	ck_assert_int_eq(dl_rt_vec_init(&v, 2, 0), 0);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 1, NAN, 0, NULL), EINVAL);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 1, -1, 0, NULL), EINVAL);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 0, 1, 0, NULL), EINVAL);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 1, 1, 1, NAN, NULL), EINVAL);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 0, 0, 1, 0, NULL), 0);
	ck_assert_int_eq(dl_rt_vec_add(&v, INFINITY, 1), EINVAL);
	ck_assert_int_eq(dl_rt_vec_add(&v, 1, DL_RT_MAX_UNITS), ERANGE);
	ck_assert(isnan(dl_rt_vec_nth(&v, 2)));
	ck_assert(dl_rt_vec_max(NULL) == -INFINITY);
	{
		double e = NAN;

		ck_assert_int_eq(dl_rt_vec_satu(&v, &e, 1, 1), EINVAL);
	}
	ck_assert_int_eq(dl_rt_vec_check(&v, err, sizeof(err)), 0);
	v.r[0].n = 0; /* corrupt */
	ck_assert_int_eq(dl_rt_vec_check(&v, err, sizeof(err)), EINVAL);
	ck_assert(strlen(err) > 0);
	dl_rt_vec_free(&v);
}
END_TEST

/* The RLE vector equals the naive one for random batches. */
START_TEST(test_random_against_naive)
{
	struct rng r = {20240601u};

	for (int it = 0; it < 2000; it++) {
		struct dl_rt_vec v;
		struct naive nv;
		struct dl_rt_sched w;
		uint32_t units = rng_u(&r, 1, 40);
		uint32_t c = rng_u(&r, 1, units < 4 ? units : 4);
		uint32_t k = rng_u(&r, 0, 60);
		double len = rng_u(&r, 0, 3) ? rng_d(&r, 0, 20) : 0;
		double fl = rng_u(&r, 0, 1) ? rng_d(&r, 0, 50) : -INFINITY;
		double last;

		rand_vec(&r, &v, units, rng_u(&r, 1, 8), 60);
		naive_from(&nv, &v);
		ck_assert_int_eq(dl_rt_vec_schedule(&v, k, c, len, fl, &w), 0);
		last = naive_schedule(&nv, k, c, len, fl);
		naive_assert_eq(&nv, &v);
		if (k)
			ck_assert_double_eq(w.last_end, last);
		/* SATU on top */
		{
			uint32_t n = rng_u(&r, 0, 40);
			double e[40];

			for (uint32_t i = 0; i < n; i++)
				e[i] = rng_d(&r, 0, 100);
			ck_assert_int_eq(dl_rt_vec_satu(&v, e, n, c), 0);
			naive_satu(&nv, e, n, c);
			naive_assert_eq(&nv, &v);
		}
		free(nv.t);
		dl_rt_vec_free(&v);
	}
}
END_TEST

/* The proof's lemma: ⊕ is monotone in the vector and in task lengths. */
START_TEST(test_monotone)
{
	struct rng r = {77u};

	for (int it = 0; it < 1000; it++) {
		struct dl_rt_vec a, b;
		uint32_t units = rng_u(&r, 1, 30), k = rng_u(&r, 0, 50);
		uint32_t c = rng_u(&r, 1, units < 3 ? units : 3);
		double len = rng_d(&r, 0, 10), fl = rng_d(&r, 0, 30);

		rand_vec(&r, &a, units, 6, 40);
		/* b: every unit of a, some of them later */
		dl_rt_vec_zero(&b);
		ck_assert_int_eq(dl_rt_vec_init(&b, 0, 0), 0);
		for (uint32_t i = 0; i < units; i++)
			ck_assert_int_eq(
				dl_rt_vec_add(&b,
					      dl_rt_vec_nth(&a, i) +
						      (rng_u(&r, 0, 1)
							       ? rng_d(&r, 0, 5)
							       : 0),
					      1),
				0);
		ck_assert(dl_rt_vec_leq(&a, &b));
		ck_assert_int_eq(dl_rt_vec_schedule(&a, k, c, len, fl, NULL),
				 0);
		ck_assert_int_eq(dl_rt_vec_schedule(&b, k, c,
						    len + rng_d(&r, 0, 3), fl,
						    NULL),
				 0);
		ck_assert(dl_rt_vec_leq(&a, &b));
		dl_rt_vec_free(&a);
		dl_rt_vec_free(&b);
	}
}
END_TEST

START_TEST(test_leq_equal)
{
	struct dl_rt_vec a, b;
	const double x[] = {1, 2, 3}, y[] = {1, 2, 4}, z[] = {0, 5};

	vec_of(&a, x, 3);
	vec_of(&b, y, 3);
	ck_assert(dl_rt_vec_leq(&a, &b));
	ck_assert(!dl_rt_vec_leq(&b, &a));
	ck_assert(!dl_rt_vec_equal(&a, &b));
	ck_assert(dl_rt_vec_equal(&a, &a));
	dl_rt_vec_free(&b);
	vec_of(&b, z, 2);
	ck_assert(!dl_rt_vec_leq(&a, &b)); /* different sizes */
	ck_assert_double_eq(dl_rt_vec_max(&a), 3);
	dl_rt_vec_free(&a);
	dl_rt_vec_free(&b);
}
END_TEST

/* 10,000 units freeing at one time take one run, and a batch of 100,000
 * tasks stays cheap (two queues, no per-task insertion). */
START_TEST(test_large)
{
	struct dl_rt_vec v;
	struct dl_rt_sched w;

	dl_rt_vec_zero(&v);
	ck_assert_int_eq(dl_rt_vec_init(&v, 10000, 0), 0);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 100000, 1, 3, 0, &w), 0);
	ck_assert_uint_eq(v.nruns, 1);
	ck_assert_double_eq(w.last_end, 30);
	ck_assert_int_eq(dl_rt_vec_schedule(&v, 5000, 2, 1, 0, &w), 0);
	ck_assert_uint_eq(v.units, 10000);
	ck_assert_double_eq(dl_rt_vec_nth(&v, 0), 31);
	dl_rt_vec_free(&v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_vector");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_waves);
	tcase_add_test(tc, test_floor_picked_only);
	tcase_add_test(tc, test_wide_tasks);
	tcase_add_test(tc, test_satu_example);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_random_against_naive);
	tcase_add_test(tc, test_monotone);
	tcase_add_test(tc, test_leq_equal);
	tcase_add_test(tc, test_large);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
