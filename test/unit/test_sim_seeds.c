/*
 * test_sim_seeds.c - deadline-sim --seeds: mean and sample standard
 * deviation per figure (undefined values left out), the seed list, the
 * table's "-" and the JSON's null for undefined figures.
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "fixtures.h"
#include "sim/seeds.h"

START_TEST(mean_and_sd)
{
	static const double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct sim_seed_stats s;

	sim_seed_stats_init(&s, "triage");
	ck_assert(isnan(sim_seed_stats_mean(&s, SIM_FIG_MET)));
	ck_assert(isnan(sim_seed_stats_sd(&s, SIM_FIG_MET)));
	sim_seed_stats_add_fig(&s, SIM_FIG_MET, 3);
	ck_assert_double_eq(sim_seed_stats_mean(&s, SIM_FIG_MET), 3);
	ck_assert_double_eq(sim_seed_stats_sd(&s, SIM_FIG_MET), 0);
	sim_seed_stats_init(&s, "triage");
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		sim_seed_stats_add_fig(&s, SIM_FIG_MISSED_PCT, v[i]);
		sim_seed_stats_add_fig(&s, SIM_FIG_LATENESS, NAN); /* none */
	}
	/* the textbook set: mean 5, sample sd sqrt(32/7) */
	ck_assert_double_eq_tol(sim_seed_stats_mean(&s, SIM_FIG_MISSED_PCT), 5,
				1e-12);
	ck_assert_double_eq_tol(sim_seed_stats_sd(&s, SIM_FIG_MISSED_PCT),
				sqrt(32.0 / 7), 1e-12);
	ck_assert(isnan(sim_seed_stats_mean(&s, SIM_FIG_LATENESS)));
}
END_TEST

START_TEST(summaries)
{
	struct sim_seed_stats s;
	struct sim_summary a = {0}, b = {0};
	json_object *j, *m, *x;
	uint64_t seeds[2] = {3, 9};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	a.met = 4;
	a.missed = 1;
	a.missed_pct = 20;
	a.mean_lateness_s = NAN; /* no finished job: undefined */
	b.met = 2;
	b.missed = 3;
	b.missed_pct = 60;
	b.mean_lateness_s = NAN;
	sim_seed_stats_init(&s, "edf");
	sim_seed_stats_add(&s, &a);
	sim_seed_stats_add(&s, &b);
	ck_assert_uint_eq(s.runs, 2);
	ck_assert_double_eq(sim_seed_stats_mean(&s, SIM_FIG_MET), 3);
	ck_assert_double_eq_tol(sim_seed_stats_sd(&s, SIM_FIG_MISSED_PCT),
				sqrt(800.0), 1e-9);
	j = sim_seed_stats_to_json(&s, seeds, 2);
	ck_assert_ptr_nonnull(j);
	ck_assert(json_object_object_get_ex(j, "mean", &m));
	ck_assert(json_object_object_get_ex(m, "met", &x));
	ck_assert_double_eq(json_object_get_double(x), 3);
	/* undefined: null */
	ck_assert(json_object_object_get_ex(m, "mean_lateness_s", &x));
	ck_assert_ptr_null(x);
	ck_assert(json_object_object_get_ex(j, "seeds", &x));
	ck_assert_int_eq(json_object_array_length(x), 2);
	json_object_put(j);
	f = open_memstream(&buf, &len);
	sim_seed_stats_print(f, &s, 1, true);
	fclose(f);
	ck_assert_msg(strstr(buf, "edf\t2\t3.0000\t1.4142\t") &&
			      strstr(buf, "\t-\t-"),
		      "%s", buf);
	free(buf);
}
END_TEST

START_TEST(seed_lists)
{
	static const char *bad[] = {"",   "0",    "a",     "1,",
				    "-1", "1,,2", "10001", "2x"};
	uint64_t *s = NULL;
	size_t n = 0;
	char err[256];

	ck_assert_int_eq(sim_parse_seeds("3", 5, &s, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert(s[0] == 5 && s[1] == 6 && s[2] == 7);
	free(s);
	ck_assert_int_eq(sim_parse_seeds("3,7,11", 1, &s, &n, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(n, 3);
	ck_assert(s[0] == 3 && s[1] == 7 && s[2] == 11);
	free(s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		ck_assert_msg(sim_parse_seeds(bad[i], 1, &s, &n, err,
					      sizeof(err)) == EINVAL,
			      "accepted '%s'", bad[i]);
		ck_assert_ptr_null(s);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim_seeds");
	TCase *tc = tcase_create("seeds");

	tcase_add_test(tc, mean_and_sd);
	tcase_add_test(tc, summaries);
	tcase_add_test(tc, seed_lists);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
