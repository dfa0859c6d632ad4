/*
 * test_reverse.c - node sets, the forecast f(t) and its file format,
 * reverse fitting (Algorithm 2) on a hand-worked three-deadline example,
 * and the reverse plan cycle: equal to ras with a flat f(t), and the
 * forecast taking capacity away from deadline tasks.
 */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "common/model/forecast.h"
#include "common/model/nodeset.h"
#include "common/policy/policy.h"
#include "common/policy/reverse.h"
#include "fixtures.h"

#define TOL 1e-9

START_TEST(test_nodeset)
{
	char err[128];

	ck_assert(dl_nodeset_match("n[1-4,7]", "n1"));
	ck_assert(dl_nodeset_match("n[1-4,7]", "n4"));
	ck_assert(dl_nodeset_match("n[1-4,7]", "n7"));
	ck_assert(!dl_nodeset_match("n[1-4,7]", "n5"));
	ck_assert(!dl_nodeset_match("n[1-4,7]", "n10"));
	ck_assert(!dl_nodeset_match("n[1-4,7]", "n01"));
	ck_assert(dl_nodeset_match("gpu[01-10]", "gpu03"));
	ck_assert(!dl_nodeset_match("gpu[01-10]", "gpu3"));
	ck_assert(dl_nodeset_match("r[1-2]n[1-3]", "r2n3"));
	ck_assert(!dl_nodeset_match("r[1-2]n[1-3]", "r3n1"));
	ck_assert(dl_nodeset_match("login,n[1-2]", "login"));
	ck_assert(dl_nodeset_match("login,n[1-2]", "n2"));
	ck_assert(!dl_nodeset_match("login,n[1-2]", "logi"));
	ck_assert(dl_nodeset_match("*", "anything"));
	ck_assert(!dl_nodeset_match("n[1-", "n1"));
	ck_assert_int_eq(dl_nodeset_check("n[1-", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_nodeset_check("n[4-2]", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_nodeset_check("a,,b", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_nodeset_check("", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_nodeset_check("n[1-4,7],x", err, sizeof(err)), 0);
	/* NodeIO */
	ck_assert_double_eq(dl_node_io_lookup("n[1-4,7]=200,n5=100", "n7", 0),
			    200);
	ck_assert_double_eq(dl_node_io_lookup("n[1-4,7]=200,n5=100", "n5", 0),
			    100);
	ck_assert_double_eq(dl_node_io_lookup("n[1-4,7]=200,n5=100", "n6", 7),
			    7);
	ck_assert_int_eq(dl_node_io_check("n1=-3", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_node_io_check("n1", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_node_io_check("n1=abc", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_node_io_check("n[1-2]=5,n3=0", err, sizeof(err)),
			 0);
}
END_TEST

static const char good[] = "# demo\n"
			   "Version=1\n"
			   "Start=1000\n"
			   "Step=60\n"
			   "Period=240\n"
			   "Class=web Nodes=n[1-2] Resources=cpu,io\n"
			   "Class=rest Nodes=*\n"
			   "0.5 0\n"
			   "0.25 0.1  # comment\n"
			   "\n"
			   "1 0\n"
			   "0 0.2\n";

START_TEST(test_forecast_parse)
{
	struct dl_forecast *f = NULL;
	char err[256] = "";
	const struct dl_series *s;

	ck_assert_int_eq(dl_forecast_parse(good, strlen(good), "t", &f, err,
					   sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_forecast_nclasses(f), 2);
	ck_assert_str_eq(dl_forecast_class_name(f, 0), "web");
	ck_assert_int_eq(dl_forecast_class_of(f, "n2"), 0);
	ck_assert_int_eq(dl_forecast_class_of(f, "n3"), 1);
	ck_assert(dl_forecast_applies(f, 0, DL_RES_CPU));
	ck_assert(!dl_forecast_applies(f, 0, DL_RES_MEM));
	ck_assert(dl_forecast_applies(f, 1, DL_RES_MEM));
	/* piecewise constant, periodic over 240 s from 1000 */
	ck_assert_double_eq(dl_forecast_load_at(f, 0, DL_RES_CPU, 1000), 0.5);
	ck_assert_double_eq(dl_forecast_load_at(f, 0, DL_RES_CPU, 1059), 0.5);
	ck_assert_double_eq(dl_forecast_load_at(f, 0, DL_RES_CPU, 1060), 0.25);
	ck_assert_double_eq(dl_forecast_load_at(f, 0, DL_RES_CPU, 1240), 0.5);
	ck_assert_double_eq(dl_forecast_load_at(f, 0, DL_RES_CPU, 1000 - 60),
			    0);
	ck_assert_double_eq(dl_forecast_load_at(f, 0, DL_RES_MEM, 1000), 0);
	ck_assert_double_eq(dl_forecast_load_at(f, -1, DL_RES_CPU, 1000), 0);
	ck_assert_double_eq(dl_forecast_load_max(f, 0, DL_RES_CPU, 1060, 1130),
			    1);
	ck_assert_double_eq(dl_forecast_load_max(f, 0, DL_RES_CPU, 1180, 1250),
			    0.5); /* wraps into the next period */
	s = dl_forecast_series(f, 0);
	/* one period: 60 * (0.5 + 0.25 + 1 + 0) = 105 */
	ck_assert_double_eq_tol(dl_series_integral(s, 1000, 1240), 105, TOL);
	ck_assert_double_eq_tol(dl_series_integral(s, 1000, 1000 + 10 * 240),
				1050, 1e-6);
	ck_assert_double_eq_tol(dl_series_integral(s, 1030, 1090), 15 + 7.5,
				TOL);
	ck_assert_double_eq_tol(dl_series_integral(s, 1210, 1270), 15, TOL);
	ck_assert_double_eq(dl_series_integral(s, 1100, 1100), 0);
	dl_forecast_free(f);
}
END_TEST

START_TEST(test_forecast_errors)
{
	static const char *bad[] = {
		"Step=60\nClass=a Nodes=*\n0.5\n",             /* no Version */
		"Version=2\nStep=60\nClass=a Nodes=*\n0.5\n",  /* version */
		"Version=1\nStep=60\nClass=a Nodes=*\n1.5\n",  /* > 1 */
		"Version=1\nStep=60\nClass=a Nodes=*\n-0.1\n", /* < 0 */
		"Version=1\nStep=60\nClass=a Nodes=*\nnan\n",  /* NaN */
		"Version=1\nStep=60\nClass=a Nodes=*\n0.1 0.2\n", /* count */
		"Version=1\nStep=60\n0.1\n",                      /* no class */
		"Version=1\nStep=0\nClass=a Nodes=*\n0.1\n",      /* step */
		"Version=1\nStep=60\nPeriod=100\nClass=a Nodes=*\n0.1\n",
		"Version=1\nStep=60\nClass=a Nodes=n[1-\n0.1\n", /* nodes */
		"Version=1\nStep=60\nClass=a Nodes=*\nClass=a Nodes=*\n0 0\n",
		"Version=1\nStep=60\nClass=a Nodes=* Resources=gpu\n0\n",
		"Version=1\nStep=60\nFoo=1\nClass=a Nodes=*\n0\n",
		"Version=1\nStep=60\nClass=a Nodes=*\n0.1\nStep=30\n",
		"Version=1\nStep=60\nClass=a\n0.1\n",
		"Version=1\nStep=60\nClass=a Nodes=*\n", /* no samples */
		"",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dl_forecast *f = NULL;
		char err[256] = "";

		ck_assert_msg(dl_forecast_parse(bad[i], strlen(bad[i]), "bad",
						&f, err, sizeof(err)) == EINVAL,
			      "case %zu accepted", i);
		ck_assert_ptr_null(f);
		ck_assert_msg(!strncmp(err, "bad", 3), "case %zu: '%s'", i,
			      err);
	}
}
END_TEST

/* The keyword/block syntax (the estimator's demo series) reads into the
 * same forecast. */
START_TEST(test_forecast_block_syntax)
{
	static const char text[] = "# demo\n"
				   "step 60\n"
				   "epoch 1000\n"
				   "period 240\n"
				   "class web nodes=n[1-2] resources=cpu,io\n"
				   "0.5 0.25\n1 0\n"
				   "class rest\n"
				   "0 0.1 0 0.2\n";
	static const char *bad[] = {
		"step 60\nclass a\n",      /* no values */
		"step 60\nclass a\n2\n",   /* > 1 */
		"class a\n0.5\nstep 60\n", /* setting late */
		"step 60\nperiod 120\nclass a\n0 0\nclass b\n0\n",
		"step 60\nclass a\n0\nVersion=1\n", /* mixed */
		"Version=1\nstep 60\n",             /* mixed */
		"step 60\nclass a nodes=n[\n0\n",
		"step 60\nclass a\nclass a\n0\n",
		"step x\nclass a\n0\n",
		"0.5\n",
	};
	struct dl_forecast *f = NULL, *g = NULL;
	char err[256] = "";

	ck_assert_int_eq(dl_forecast_parse(text, strlen(text), "blk", &f, err,
					   sizeof(err)),
			 0);
	ck_assert_int_eq(dl_forecast_parse(good, strlen(good), "row", &g, err,
					   sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_forecast_nclasses(f), 2);
	ck_assert_int_eq(dl_forecast_class_index(f, "rest"), 1);
	ck_assert_int_eq(dl_forecast_class_index(f, "none"), -1);
	ck_assert_int_eq(dl_forecast_class_of(f, "n2"), 0);
	ck_assert_int_eq(dl_forecast_class_of(f, "x9"), 1);
	ck_assert(!dl_forecast_applies(f, 0, DL_RES_MEM));
	/* the same series as the row-syntax file */
	for (int k = 0; k < 12; k++) {
		double t = 1000 + k * 37.0;

		for (int c = 0; c < 2; c++)
			ck_assert_double_eq(dl_forecast_at(f, c, t),
					    dl_forecast_at(g, c, t));
	}
	ck_assert_double_eq_tol(dl_forecast_mean(f, 0, 1000, 1240), 105.0 / 240,
				1e-12);
	ck_assert_double_eq(dl_forecast_mean(f, 0, 1070, 1070), 0.25);
	ck_assert(isnan(dl_forecast_mean(f, 0, 10, 5)));
	ck_assert(isnan(dl_forecast_mean(f, 5, 0, 5)));
	ck_assert(isnan(dl_forecast_at(f, 0, NAN)));
	dl_forecast_free(f);
	dl_forecast_free(g);
	/* a shorter class holds its last value when not periodic */
	ck_assert_int_eq(
		dl_forecast_parse(
			"step 10\nclass a\n0.1 0.2 0.3\nclass b\n0.5\n",
			strlen("step 10\nclass a\n0.1 0.2 0.3\nclass b\n0.5\n"),
			"short", &f, err, sizeof(err)),
		0);
	ck_assert_double_eq(dl_forecast_at(f, 1, 25), 0.5);
	dl_forecast_free(f);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = NULL;
		err[0] = '\0';
		ck_assert_msg(dl_forecast_parse(bad[i], strlen(bad[i]), "bad",
						&f, err, sizeof(err)) == EINVAL,
			      "case %zu accepted", i);
		ck_assert_ptr_null(f);
		ck_assert(err[0]);
	}
}
END_TEST

START_TEST(test_forecast_file)
{
	char path[] = "/tmp/dl_forecast_XXXXXX";
	int fd = mkstemp(path);
	struct dl_forecast *f = NULL;
	char err[256];

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, good, strlen(good)), (int) strlen(good));
	close(fd);
	ck_assert_int_eq(dl_forecast_load(path, &f, err, sizeof(err)), 0);
	ck_assert_uint_eq(dl_forecast_nclasses(f), 2);
	dl_forecast_free(f);
	unlink(path);
	ck_assert_int_eq(dl_forecast_load(path, &f, err, sizeof(err)), ENOENT);
	ck_assert_ptr_null(f);
}
END_TEST

/* ---- reverse fitting ---- */

/* The thesis's three-job example, made concrete so every step can be
 * worked out by hand.  One class of 10 CPUs; external load 0 on [0,100),
 * 0.9 on [100,200), 0 from 200: A(t) = 10, 1, 10 CPUs.  Tasks take 1 CPU
 * for mu = 10 s.  Work: J1 40 tasks due 100, J2 100 due 200, J3 50 due 300.
 *
 *   E(F1=[0,100]) = 1000, E(F2=[100,200]) = 100, E(F3=[200,300]) = 1000
 *   CPU-seconds, i.e. 100, 10 and 100 tasks.
 *   desires: J3: 50 * E(Fk) / 2100 -> F3 500/21, F2 50/21, F1 500/21
 *            J2: 100 * E(Fk) / 1100 -> F2 100/11, F1 1000/11
 *            J1: 40 in F1
 *   F3: J3 wants 500/21, gets it.
 *   F2 (10 tasks): J3 wants 50/21, gets it (left 10 - 50/21 = 160/21);
 *       J2 wants 100/11, gets 160/21, carries 100/11 - 160/21.
 *   F1 (100 tasks): J3 wants 500/21, gets it (left 100 - 500/21);
 *       J2 wants 1000/11 + 100/11 - 160/21 = 1100/11 - 160/21, gets the
 *       rest, 100 - 500/21, and overflows 1100/11 - 160/21 - 100 + 500/21
 *       = 340/21; J1 wants 40, gets 0, overflows 40.
 *   s_fit = (F1 work + overflow) * mu * A(0) / E(F1) = that / 10:
 *       J1 4 (= s_req 40*10/100), J2 (1100/11 - 160/21)/10 = 9.238...
 *       (s_req 5: the scarce [100,200) pushes its work forward),
 *       J3 (500/21)/10 = 2.381 (s_req 50*10/300 = 1.667). */
START_TEST(test_reverse_fit_three_deadlines)
{
	struct dl_forecast *f = dl_forecast_new(0, 100, 0, 3);
	double load[3] = {0, 0.9, 0};
	struct dl_avail_node node = {
		{10, INFINITY, INFINITY}, {0, 0, 0}, 0, true};
	struct dl_avail av;
	struct dl_fit_job j[3] = {
		{100, 40, 10, {1, 0, 0}, 0, 0, 0, 0},
		{200, 100, 10, {1, 0, 0}, 0, 0, 0, 0},
		{300, 50, 10, {1, 0, 0}, 0, 0, 0, 0},
	};
	struct dl_fit_step tr[16];
	uint32_t nt;
	const double c = 1100.0 / 11 - 160.0 / 21; /* J2's want in F1 */

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(dl_forecast_add_class(f, "all", "*", 0, load), 0);
	ck_assert_int_eq(dl_avail_build(&av, &node, 1, f), 0);
	ck_assert_double_eq_tol(dl_series_integral(&av.a[DL_RES_CPU], 0, 100),
				1000, TOL);
	ck_assert_double_eq_tol(dl_series_integral(&av.a[DL_RES_CPU], 100, 200),
				100, TOL);
	ck_assert(av.unbounded[DL_RES_MEM] && av.unbounded[DL_RES_IO]);
	ck_assert_int_eq(dl_reverse_fit(j, 3, &av, 0, tr, 16, &nt), 0);
	ck_assert_uint_eq(nt, 6);
	/* frame 3: J3 */
	ck_assert_uint_eq(tr[0].frame, 3);
	ck_assert_uint_eq(tr[0].job, 2);
	ck_assert_double_eq_tol(tr[0].a, 200, TOL);
	ck_assert_double_eq_tol(tr[0].want, 500.0 / 21, TOL);
	ck_assert_double_eq_tol(tr[0].got, 500.0 / 21, TOL);
	/* frame 2: J3 first, then J2 */
	ck_assert_uint_eq(tr[1].frame, 2);
	ck_assert_uint_eq(tr[1].job, 2);
	ck_assert_double_eq_tol(tr[1].want, 50.0 / 21, TOL);
	ck_assert_double_eq_tol(tr[1].got, 50.0 / 21, TOL);
	ck_assert_uint_eq(tr[2].job, 1);
	ck_assert_double_eq_tol(tr[2].want, 100.0 / 11, TOL);
	ck_assert_double_eq_tol(tr[2].got, 160.0 / 21, TOL);
	/* frame 1: J3, J2, J1 */
	ck_assert_uint_eq(tr[3].frame, 1);
	ck_assert_uint_eq(tr[3].job, 2);
	ck_assert_double_eq_tol(tr[3].got, 500.0 / 21, TOL);
	ck_assert_uint_eq(tr[4].job, 1);
	ck_assert_double_eq_tol(tr[4].want, c, TOL);
	ck_assert_double_eq_tol(tr[4].got, 100 - 500.0 / 21, TOL);
	ck_assert_uint_eq(tr[5].job, 0);
	ck_assert_double_eq_tol(tr[5].want, 40, TOL);
	ck_assert_double_eq_tol(tr[5].got, 0, TOL);
	/* results */
	ck_assert_double_eq_tol(j[0].overflow, 40, TOL);
	ck_assert_double_eq_tol(j[1].overflow, 340.0 / 21, TOL);
	ck_assert_double_eq_tol(j[2].overflow, 0, TOL);
	ck_assert_double_eq_tol(j[0].s_fit, 4, TOL);
	ck_assert_double_eq(j[0].s_fit, j[0].s_req);
	ck_assert_double_eq_tol(j[1].s_fit, c / 10, TOL);
	ck_assert_double_eq_tol(j[1].s_req, 5, TOL);
	ck_assert_double_eq_tol(j[2].s_fit, 500.0 / 210, TOL);
	ck_assert_double_eq_tol(j[2].s_req, 500.0 / 300, TOL);
	dl_avail_free(&av);

	/* the same jobs with f(t) = 0: nothing overflows and s_fit = s_req */
	load[1] = 0;
	dl_forecast_free(f);
	f = dl_forecast_new(0, 100, 0, 3);
	ck_assert_int_eq(dl_forecast_add_class(f, "all", "*", 0, load), 0);
	ck_assert_int_eq(dl_avail_build(&av, &node, 1, f), 0);
	j[1].work = 60;
	ck_assert_int_eq(dl_reverse_fit(j, 3, &av, 0, NULL, 0, NULL), 0);
	for (int i = 0; i < 3; i++) {
		ck_assert_double_eq(j[i].s_fit, j[i].s_req);
		ck_assert_double_eq_tol(j[i].overflow, 0, TOL);
	}
	dl_avail_free(&av);
	dl_forecast_free(f);
}
END_TEST

START_TEST(test_reverse_fit_edges)
{
	struct dl_avail_node node = {
		{4, INFINITY, INFINITY}, {1, 0, 0}, -1, true};
	struct dl_avail av;
	struct dl_fit_job j[3] = {
		{50, 10, 10, {1, 0, 0}, 0, 0, 0, 0},  /* late */
		{500, 0, 10, {1, 0, 0}, 0, 0, 0, 0},  /* nothing left */
		{500, 10, 10, {0, 0, 0}, 0, 0, 0, 0}, /* no bounded use */
	};

	ck_assert_int_eq(dl_avail_build(&av, &node, 1, NULL), 0);
	/* without a forecast: capacity minus what others hold, constant */
	ck_assert_double_eq_tol(dl_series_at(&av.a[DL_RES_CPU], 123), 3, TOL);
	ck_assert_int_eq(dl_reverse_fit(j, 3, &av, 100, NULL, 0, NULL), 0);
	ck_assert(isinf(j[0].s_fit) && isinf(j[0].s_req));
	ck_assert_double_eq(j[1].s_fit, 0);
	ck_assert_double_eq_tol(j[2].s_fit, j[2].s_req, TOL);
	j[2].mu = 0;
	ck_assert_int_eq(dl_reverse_fit(j, 3, &av, 100, NULL, 0, NULL), EINVAL);
	j[2].mu = 10;
	j[2].demand[0] = NAN;
	ck_assert_int_eq(dl_reverse_fit(j, 3, &av, 100, NULL, 0, NULL), EINVAL);
	ck_assert_int_eq(dl_reverse_fit(NULL, 3, &av, 100, NULL, 0, NULL),
			 EINVAL);
	dl_avail_free(&av);
}
END_TEST

/* ---- the reverse plan cycle ---- */

struct world {
	struct dl_cluster cl;
	struct dl_config cfg;
	struct dl_job *jobs[40];
	uint32_t n;
};

static struct dl_plan *plan_with(struct world *w, const char *policy,
				 const struct dl_forecast *f, double now)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = now,
				     .forecast = f,
				     .rt = NULL};
	char err[256] = "";
	struct dl_plan *p;

	ck_assert_int_eq(
		dl_config_set(&w->cfg, "Policy", policy, err, sizeof(err)), 0);
	p = dl_policy_plan(&in, err, sizeof(err));
	ck_assert_msg(p != NULL, "%s plan: %s", policy, err);
	return p;
}

static void w_free(struct world *w)
{
	for (uint32_t i = 0; i < w->n; i++)
		dl_job_free(w->jobs[i]);
	dl_config_free(&w->cfg);
	dl_cluster_free(&w->cl);
}

static void assert_same_plan(const struct dl_plan *a, const struct dl_plan *b)
{
	ck_assert_uint_eq(a->njobs, b->njobs);
	ck_assert_uint_eq(a->nplace, b->nplace);
	for (uint32_t i = 0; i < a->njobs; i++) {
		ck_assert_uint_eq(a->jobs[i].job_id, b->jobs[i].job_id);
		ck_assert_uint_eq(a->jobs[i].alloc, b->jobs[i].alloc);
		ck_assert_uint_eq(a->jobs[i].rank, b->jobs[i].rank);
		if (isnan(a->jobs[i].utility))
			ck_assert(isnan(b->jobs[i].utility));
		else
			ck_assert_double_eq_tol(a->jobs[i].utility,
						b->jobs[i].utility, 1e-12);
	}
	for (uint32_t k = 0; k < a->nplace; k++) {
		ck_assert_uint_eq(a->place[k].job, b->place[k].job);
		ck_assert_uint_eq(a->place[k].node, b->place[k].node);
		ck_assert_uint_eq(a->place[k].maps, b->place[k].maps);
		ck_assert_uint_eq(a->place[k].reduces, b->place[k].reduces);
	}
}

/* Experiment 1's property: with a flat f(t) (no external load) reverse
 * makes exactly the ras plan, on random workloads that do not overload
 * any deadline frame but do compete for nodes. */
START_TEST(test_reverse_equals_ras_when_flat)
{
	uint64_t state = 42;
	uint32_t differing_allocs = 0;

	for (int trial = 0; trial < 30; trial++) {
		struct world w;
		struct dl_forecast *f = dl_forecast_new(0, 60, 86400, 1440);
		double zero[1440] = {0};
		struct dl_plan *ras, *rev, *rev_none;
		char err[128];

		memset(&w, 0, sizeof(w));
		fx_cluster(&w.cl, 6, 8, 0);
		w.cfg = fx_config();
		ck_assert_int_eq(dl_config_set(&w.cfg, "DefaultIO", "100", err,
					       sizeof(err)),
				 0);
		ck_assert_int_eq(dl_forecast_add_class(f, "all", "*", 0, zero),
				 0);
		for (uint32_t i = 0; i < 8; i++) {
			struct dl_job *j;
			uint32_t tasks;

			state = state * 6364136223846793005ULL + 1;
			tasks = 5 + (uint32_t) ((state >> 33) % 60);
			/* deadlines far enough that the 48 CPUs suffice */
			j = fx_job(i + 1, tasks, 0,
				   2000 + 4000 * ((state >> 40) % 5));
			j->profile.map.io = (double) ((state >> 45) % 50);
			fx_done(j, DL_MAP, 2, 50 + (state >> 50) % 100, 0);
			w.jobs[w.n++] = j;
		}
		ras = plan_with(&w, "ras", NULL, 1000);
		rev = plan_with(&w, "reverse", f, 1000);
		rev_none = plan_with(&w, "reverse", NULL, 1000);
		assert_same_plan(ras, rev);
		assert_same_plan(ras, rev_none);
		for (uint32_t i = 1; i < ras->njobs; i++)
			differing_allocs +=
				ras->jobs[i].alloc != ras->jobs[0].alloc;
		dl_plan_free(ras);
		dl_plan_free(rev);
		dl_plan_free(rev_none);
		dl_forecast_free(f);
		w_free(&w);
	}
	ck_assert_uint_gt(differing_allocs, 0); /* not a trivial split */
}
END_TEST

/* A forecast load on a node class is taken off what deadline tasks may
 * use there this cycle. */
START_TEST(test_forecast_reduces_capacity)
{
	struct world w;
	struct dl_forecast *f = dl_forecast_new(0, 60, 0, 100);
	double load[100];
	struct dl_plan *ras, *rev;
	uint32_t on[2][2] = {{0}};

	for (int i = 0; i < 100; i++)
		load[i] = 0.5;
	memset(&w, 0, sizeof(w));
	fx_cluster(&w.cl, 2, 4, 0);
	w.cfg = fx_config();
	ck_assert_int_eq(dl_forecast_add_class(f, "web", "n1", 0, load), 0);
	w.jobs[w.n] = fx_job(1, 20, 0, 1200);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	ras = plan_with(&w, "ras", NULL, 1000);
	rev = plan_with(&w, "reverse", f, 1000);
	ck_assert_double_eq(ras->nodes[0].cap[DL_RES_CPU], 4);
	ck_assert_double_eq(rev->nodes[0].cap[DL_RES_CPU], 2);
	ck_assert_double_eq(rev->nodes[1].cap[DL_RES_CPU], 4);
	for (uint32_t k = 0; k < ras->nplace; k++)
		on[0][ras->place[k].node] += ras->place[k].maps;
	for (uint32_t k = 0; k < rev->nplace; k++)
		on[1][rev->place[k].node] += rev->place[k].maps;
	ck_assert_uint_eq(on[0][0], 4);
	ck_assert_uint_eq(on[0][1], 4);
	ck_assert_uint_eq(on[1][0], 2);
	ck_assert_uint_eq(on[1][1], 4);
	ck_assert(isfinite(rev->jobs[0].sfit));
	ck_assert(isnan(ras->jobs[0].sfit));
	dl_plan_free(ras);
	dl_plan_free(rev);
	dl_forecast_free(f);
	w_free(&w);
}
END_TEST

/* Availability that drops ahead of a deadline makes reverse ask for more
 * now (s_fit > s_req) and take more of the node than ras does.  10 CPUs;
 * the external load takes 9 of them on [1000, 2000).  a: 60 tasks of 100 s
 * due 2000 (need 3); b: 200 due 4000 (need 5).  ras balances at a 4, b 6;
 * reverse sees s_fit(a) = 60*100*10/11000 = 5.45 and s_fit(b) =
 * (200*11000/31000)*100*10/11000 = 6.45 and balances at a 5, b 5. */
START_TEST(test_reverse_plans_ahead)
{
	struct world w;
	struct dl_forecast *f = dl_forecast_new(0, 500, 0, 8);
	double load[8] = {0, 0, 0.9, 0.9, 0, 0, 0, 0};
	struct dl_plan *ras, *rev;

	memset(&w, 0, sizeof(w));
	fx_cluster(&w.cl, 1, 10, 0);
	w.cfg = fx_config();
	ck_assert_int_eq(dl_forecast_add_class(f, "all", "*", 0, load), 0);
	w.jobs[w.n] = fx_job(1, 62, 0, 2000);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	w.jobs[w.n] = fx_job(2, 202, 0, 4000);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	ras = plan_with(&w, "ras", NULL, 0);
	rev = plan_with(&w, "reverse", f, 0);
	ck_assert_double_eq_tol(dl_plan_find(rev, 1)->sfit, 60000.0 / 11000,
				1e-9);
	ck_assert_double_eq_tol(dl_plan_find(rev, 2)->sfit,
				200.0 * 1000 / 31000, 1e-9);
	ck_assert_double_eq_tol(dl_plan_find(rev, 1)->need, 3, 1e-9);
	ck_assert_uint_eq(dl_plan_find(ras, 1)->alloc, 4);
	ck_assert_uint_eq(dl_plan_find(ras, 2)->alloc, 6);
	ck_assert_uint_eq(dl_plan_find(rev, 1)->alloc, 5);
	ck_assert_uint_eq(dl_plan_find(rev, 2)->alloc, 5);
	dl_plan_free(ras);
	dl_plan_free(rev);
	dl_forecast_free(f);
	w_free(&w);
}
END_TEST

/* A class's f(t) is all the load outside the plan on its nodes: what jobs
 * outside the plan hold now is a floor for this cycle, not an addition;
 * reverse fitting sees only f(t) on those nodes. */
START_TEST(test_forecast_and_measured_use)
{
	struct world w;
	struct dl_forecast *f = dl_forecast_new(0, 60, 0, 100);
	double load[100];
	struct dl_plan *p;
	struct dl_avail_node an[2] = {
		{{4, INFINITY, INFINITY}, {2, 0, 0}, 0, true},
		{{4, INFINITY, INFINITY}, {1, 0, 0}, -1, true},
	};
	struct dl_avail av;

	for (int i = 0; i < 100; i++)
		load[i] = i < 50 ? 0.25 : 0.75;
	memset(&w, 0, sizeof(w));
	fx_cluster(&w.cl, 2, 4, 0);
	w.cfg = fx_config();
	ck_assert_int_eq(dl_forecast_add_class(f, "svc", "n1", 0, load), 0);
	w.cl.nodes[0].cpus_other = 2; /* the service, seen as used now */
	w.jobs[w.n] = fx_job(1, 20, 0, 100000);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	p = plan_with(&w, "reverse", f, 100);
	ck_assert_double_eq(p->nodes[0].cap[DL_RES_CPU], 2); /* 4-max(2,1) */
	dl_plan_free(p);
	p = plan_with(&w, "reverse", f, 3100);
	ck_assert_double_eq(p->nodes[0].cap[DL_RES_CPU], 1); /* 4-max(2,3) */
	dl_plan_free(p);
	/* fitting: n1 gives 4 x (1 - f(t)), n2 (no class) 4 - 1 */
	ck_assert_int_eq(dl_avail_build(&av, an, 2, f), 0);
	ck_assert_double_eq_tol(dl_series_at(&av.a[DL_RES_CPU], 100), 3 + 3,
				1e-12);
	ck_assert_double_eq_tol(dl_series_at(&av.a[DL_RES_CPU], 4000), 1 + 3,
				1e-12);
	dl_avail_free(&av);
	dl_forecast_free(f);
	w_free(&w);
}
END_TEST

/* Share=nodes: the thesis's "available number of nodes": a load of 0.6 on
 * a class of 4 nodes holds 2.4 of them whole from the end of the list. */
START_TEST(test_forecast_share_nodes)
{
	static const char rows[] = "Version=1\nStep=60\n"
				   "Class=all Nodes=* Share=nodes\n0.6\n";
	static const char blocks[] = "step 60\nclass all share=nodes\n0.6\n";
	struct world w;
	struct dl_forecast *f = NULL, *g = NULL;
	struct dl_plan *p;
	char err[256];

	ck_assert_int_eq(dl_forecast_parse(rows, strlen(rows), "r", &f, err,
					   sizeof(err)),
			 0);
	ck_assert_int_eq(dl_forecast_parse(blocks, strlen(blocks), "b", &g, err,
					   sizeof(err)),
			 0);
	ck_assert(dl_forecast_whole_nodes(f, 0) &&
		  dl_forecast_whole_nodes(g, 0));
	dl_forecast_free(g);
	g = NULL;
	ck_assert_int_eq(
		dl_forecast_parse(
			"Version=1\nStep=60\nClass=a Nodes=* Share=half\n0\n",
			strlen("Version=1\nStep=60\nClass=a Nodes=* "
			       "Share=half\n0\n"),
			"x", &g, err, sizeof(err)),
		EINVAL);
	memset(&w, 0, sizeof(w));
	fx_cluster(&w.cl, 4, 2, 0);
	w.cfg = fx_config();
	w.jobs[w.n] = fx_job(1, 20, 0, 100000);
	fx_done(w.jobs[w.n++], DL_MAP, 2, 100, 0);
	p = plan_with(&w, "reverse", f, 100);
	ck_assert_double_eq_tol(p->nodes[0].cap[DL_RES_CPU], 2, 1e-12);
	ck_assert_double_eq_tol(p->nodes[1].cap[DL_RES_CPU], 1.2, 1e-12);
	ck_assert_double_eq_tol(p->nodes[2].cap[DL_RES_CPU], 0, 1e-12);
	ck_assert_double_eq_tol(p->nodes[3].cap[DL_RES_CPU], 0, 1e-12);
	ck_assert_uint_eq(dl_plan_find(p, 1)->alloc, 3);
	dl_plan_free(p);
	dl_forecast_free(f);
	w_free(&w);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("reverse");
	TCase *t = tcase_create("forecast");
	TCase *r = tcase_create("fit");
	TCase *p = tcase_create("policy");

	tcase_add_test(t, test_nodeset);
	tcase_add_test(t, test_forecast_parse);
	tcase_add_test(t, test_forecast_errors);
	tcase_add_test(t, test_forecast_file);
	tcase_add_test(t, test_forecast_block_syntax);
	tcase_add_test(r, test_reverse_fit_three_deadlines);
	tcase_add_test(r, test_reverse_fit_edges);
	tcase_add_test(p, test_reverse_equals_ras_when_flat);
	tcase_add_test(p, test_forecast_reduces_capacity);
	tcase_add_test(p, test_forecast_and_measured_use);
	tcase_add_test(p, test_forecast_share_nodes);
	tcase_add_test(p, test_reverse_plans_ahead);
	tcase_set_timeout(p, 60);
	suite_add_tcase(s, t);
	suite_add_tcase(s, r);
	suite_add_tcase(s, p);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
