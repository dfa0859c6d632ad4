/*
 * test_prior_cache.c - the estimator's last answers kept across plan
 * cycles: a cycle it does not answer in gets them back, a fresh answer
 * replaces them, phases no longer asked about are dropped.
 */
#include <stdlib.h>

#include "common/estimate/prior_cache.h"
#include "common/model/model.h"
#include "fixtures.h"

static struct dl_prediction pred(double mean)
{
	return (struct dl_prediction){.mean = mean,
				      .p50 = mean,
				      .p90 = 1.5 * mean,
				      .n = 7,
				      .source = DL_PRED_NAME};
}

/* one cycle of n phases; answers[i] > 0 is this cycle's mean for phase
 * i, 0 = no answer.  Returns the filled count; out[i] the mean after the
 * call (0 when still unanswered). */
static int64_t cycle(struct dl_prior_cache *c, const struct dl_prior_key *k,
		     const double *answers, double *out, uint32_t n)
{
	struct dl_prediction p[16];
	bool ok[16];
	int64_t filled;

	ck_assert_uint_le(n, 16);
	for (uint32_t i = 0; i < n; i++) {
		ok[i] = answers[i] > 0;
		p[i] = ok[i] ? pred(answers[i]) : (struct dl_prediction){0};
	}
	filled = dl_prior_cache_cycle(c, k, p, ok, n);
	for (uint32_t i = 0; i < n; i++) {
		out[i] = ok[i] ? p[i].mean : 0;
		if (ok[i]) {
			/* the whole answer comes back, not only the mean */
			ck_assert_double_eq(p[i].p90, 1.5 * p[i].mean);
			ck_assert_uint_eq(p[i].n, 7);
			ck_assert_int_eq(p[i].source, DL_PRED_NAME);
		}
	}
	return filled;
}

START_TEST(test_unanswered_cycle_gets_last_answer)
{
	struct dl_prior_cache *c = dl_prior_cache_new();
	struct dl_prior_key k[2] = {{41, DL_MAP}, {42, DL_MAP}};
	double out[2];

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(cycle(c, k, (double[]){10, 20}, out, 2), 0);
	ck_assert_uint_eq(dl_prior_cache_size(c), 2);
	/* the estimator does not answer: both keep their last answer */
	ck_assert_int_eq(cycle(c, k, (double[]){0, 0}, out, 2), 2);
	ck_assert_double_eq(out[0], 10);
	ck_assert_double_eq(out[1], 20);
	/* still not: kept again (not only for one cycle) */
	ck_assert_int_eq(cycle(c, k, (double[]){0, 0}, out, 2), 2);
	ck_assert_double_eq(out[1], 20);
	/* a fresh answer replaces the old one, and is what is kept next */
	ck_assert_int_eq(cycle(c, k, (double[]){0, 33}, out, 2), 1);
	ck_assert_double_eq(out[0], 10);
	ck_assert_double_eq(out[1], 33);
	ck_assert_int_eq(cycle(c, k, (double[]){0, 0}, out, 2), 2);
	ck_assert_double_eq(out[1], 33);
	dl_prior_cache_free(c);
}
END_TEST

START_TEST(test_key_is_job_and_phase)
{
	struct dl_prior_cache *c = dl_prior_cache_new();
	struct dl_prior_key map = {7, DL_MAP};
	struct dl_prior_key other[3] = {
		{7, DL_REDUCE}, {8, DL_MAP}, {6, DL_MAP}};
	double out[3];

	ck_assert_int_eq(cycle(c, &map, (double[]){5}, out, 1), 0);
	/* another phase of the job, or another job: nothing to give back */
	ck_assert_int_eq(cycle(c, other, (double[]){0, 0, 0}, out, 3), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_double_eq(out[i], 0);
	dl_prior_cache_free(c);
}
END_TEST

START_TEST(test_phases_not_asked_are_dropped)
{
	struct dl_prior_cache *c = dl_prior_cache_new();
	struct dl_prior_key k[2] = {{1, DL_MAP}, {2, DL_MAP}};
	double out[2];

	ck_assert_int_eq(cycle(c, k, (double[]){4, 6}, out, 2), 0);
	/* job 2 is not asked about (its tasks completed, or it ended) */
	ck_assert_int_eq(cycle(c, k, (double[]){4}, out, 1), 0);
	ck_assert_uint_eq(dl_prior_cache_size(c), 1);
	/* asked again later, unanswered: its old answer is gone */
	ck_assert_int_eq(cycle(c, k, (double[]){0, 0}, out, 2), 1);
	ck_assert_double_eq(out[0], 4);
	ck_assert_double_eq(out[1], 0);
	/* a cycle that asks nothing empties the cache */
	ck_assert_int_eq(dl_prior_cache_cycle(c, NULL, NULL, NULL, 0), 0);
	ck_assert_uint_eq(dl_prior_cache_size(c), 0);
	ck_assert_int_eq(cycle(c, k, (double[]){0, 0}, out, 2), 0);
	dl_prior_cache_free(c);
}
END_TEST

START_TEST(test_degenerate)
{
	struct dl_prior_cache *c = dl_prior_cache_new();
	struct dl_prior_key twice[2] = {{3, DL_MAP}, {3, DL_MAP}};
	struct dl_prediction p = pred(1);
	bool ok = true;
	double out[2];

	/* no cache: nothing filled, nothing touched */
	ck_assert_int_eq(dl_prior_cache_cycle(NULL, twice, &p, &ok, 1), 0);
	dl_prior_cache_free(NULL);
	ck_assert_uint_eq(dl_prior_cache_size(NULL), 0);
	/* a key given twice keeps its first answer */
	ck_assert_int_eq(cycle(c, twice, (double[]){2, 9}, out, 2), 0);
	ck_assert_uint_eq(dl_prior_cache_size(c), 1);
	ck_assert_int_eq(cycle(c, twice, (double[]){0}, out, 1), 1);
	ck_assert_double_eq(out[0], 2);
	dl_prior_cache_free(c);
}
END_TEST

/* Many phases in an order unlike the key's: each gets its own answer
 * back (the cache sorts and searches). */
START_TEST(test_many_phases)
{
	enum { N = 2000 };
	struct dl_prior_cache *c = dl_prior_cache_new();
	struct dl_prior_key *k = calloc(N, sizeof(*k));
	struct dl_prediction *p = calloc(N, sizeof(*p));
	bool *ok = calloc(N, sizeof(*ok));

	ck_assert(k && p && ok);
	for (uint32_t i = 0; i < N; i++) {
		/* ids descending, phases alternating */
		k[i] = (struct dl_prior_key){100000 - i / 2, (int) (i % 2)};
		p[i] = pred(1 + i);
		ok[i] = true;
	}
	ck_assert_int_eq(dl_prior_cache_cycle(c, k, p, ok, N), 0);
	ck_assert_uint_eq(dl_prior_cache_size(c), N);
	/* every other phase answered afresh this time */
	for (uint32_t i = 0; i < N; i++) {
		ok[i] = i % 3 == 0;
		p[i] = ok[i] ? pred(5000 + i) : (struct dl_prediction){0};
	}
	ck_assert_int_eq(dl_prior_cache_cycle(c, k, p, ok, N), N - (N + 2) / 3);
	for (uint32_t i = 0; i < N; i++) {
		ck_assert(ok[i]);
		ck_assert_double_eq(p[i].mean, i % 3 == 0 ? 5000 + i : 1 + i);
	}
	free(k);
	free(p);
	free(ok);
	dl_prior_cache_free(c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("prior_cache");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_unanswered_cycle_gets_last_answer);
	tcase_add_test(tc, test_key_is_job_and_phase);
	tcase_add_test(tc, test_phases_not_asked_are_dropped);
	tcase_add_test(tc, test_degenerate);
	tcase_add_test(tc, test_many_phases);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
