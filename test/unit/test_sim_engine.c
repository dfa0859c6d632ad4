/*
 * test_sim_engine.c - the simulator's engine: timing of a lone job,
 * determinism, throttles and placement from the plan, typed slots and the
 * map -> reduce order, external load, Slurm's hard-deadline cancellation,
 * time limits, EASY backfill, stalls, admission hooks, the metrics, and
 * that no policy ever beats the oracle bound.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/compare/baseline.h"
#include "common/estimate/estimate.h"
#include "common/policy/triage.h"
#include "fixtures.h"
#include "common/portfolio/score.h"
#include "common/simulate/engine.h"
#include "sim/oracle_input.h"
#include "sim/output.h"
#include "common/io/clock.h"
#include "sim/policy.h"
#include "sim/spec.h"

struct run {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct dl_config cfg;
	struct sim_engine *e;
};

static void load(struct run *r, const char *cluster, const char *workload)
{
	char err[512] = "";

	memset(r, 0, sizeof(*r));
	ck_assert_msg(sim_cluster_parse(cluster, strlen(cluster), "cluster",
					NULL, &r->cs, err, sizeof(err)) == 0,
		      "cluster: %s", err);
	ck_assert_msg(sim_workload_parse(workload, strlen(workload), "workload",
					 &r->cs, &r->ws, err, sizeof(err)) == 0,
		      "workload: %s", err);
	r->cfg = fx_config();
}

static void start(struct run *r, const struct sim_policy *p, uint64_t seed)
{
	struct sim_options o = {0};
	char err[512] = "";

	o.seed = seed;
	r->e = sim_engine_new(&r->cs, &r->ws, p, &r->cfg, &o, err, sizeof(err));
	ck_assert_msg(r->e != NULL, "engine: %s", err);
}

static void go(struct run *r, const char *policy, uint64_t seed)
{
	char err[512] = "";

	start(r, sim_policy_find(policy), seed);
	ck_assert_msg(sim_engine_run(r->e, err, sizeof(err)) == 0, "run: %s",
		      err);
}

static void done(struct run *r)
{
	sim_engine_free(r->e);
	sim_workload_spec_free(&r->ws);
	sim_cluster_spec_free(&r->cs);
	dl_config_free(&r->cfg);
}

static const char *four_nodes =
	"{\"nodes\":[{\"name\":\"n\",\"count\":4,\"cpus\":1}]}";

START_TEST(lone_job_runs_in_isolated_time)
{
	struct run r;

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":5,\"relative_deadline\":100,\"maps\":8,"
	     "\"map_length\":10}]}");
	go(&r, "fifo", 1);
	/* the first plan comes ReplanDelay (1 s) after the arrival */
	ck_assert_double_eq_tol(r.e->jobs[0].isolated, 20, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[0].first_start, 6, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 26, 1e-9);
	ck_assert(sim_job_met(&r.e->jobs[0]));
	ck_assert_uint_eq(r.e->jobs[0].max_running, 4);
	ck_assert_double_eq_tol(r.e->jobs[0].unit_seconds, 80, 1e-9);
	done(&r);
}
END_TEST

/* Plan ticks on a grid whose step does not divide evenly: 125 x
 * 16.964294946164593 divided by the step rounds to 124.99999999999999, so
 * the tick after it was computed as the same instant and the run planned
 * at 2120.54 s for ever (a portfolio round on the phased workload ran into
 * its budget).  The run must end, its ticks moving forward. */
START_TEST(plan_ticks_always_advance)
{
	struct run r;
	struct sim_options o = {0};
	char err[512] = "";

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":9000,"
	     "\"maps\":1,\"map_length\":3000}]}");
	r.cfg.plan_interval = 16.964294946164593;
	o.seed = 1;
	o.stop_at = dl_monotonic_s() + 20;
	r.e = sim_engine_new(&r.cs, &r.ws, sim_policy_find("edf"), &r.cfg, &o,
			     err, sizeof(err));
	ck_assert_msg(r.e != NULL, "engine: %s", err);
	ck_assert_msg(sim_engine_run(r.e, err, sizeof(err)) == 0, "run: %s",
		      err);
	ck_assert(sim_job_met(&r.e->jobs[0]));
	/* about one plan per step over the job's 3,000 s, not a livelock */
	ck_assert(r.e->stats.plans < 3000 / 16.96 + 50);
	done(&r);
}
END_TEST

static char *csv_of(struct sim_engine *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sim_write_jobs_csv(e, f), 0);
	fclose(f);
	return buf;
}

START_TEST(draws_keyed_by_the_job)
{
	/* removing a job changes no other job's task lengths */
	const char *three =
		"{\"jobs\":["
		"{\"name\":\"a\",\"arrival\":0,\"maps\":5,\"map_length\":{"
		"\"dist\":\"lognormal\",\"mean\":20,\"sd\":8}},"
		"{\"name\":\"b\",\"arrival\":1,\"maps\":5,\"map_length\":{"
		"\"dist\":\"lognormal\",\"mean\":20,\"sd\":8}},"
		"{\"name\":\"c\",\"arrival\":2,\"maps\":5,\"map_length\":{"
		"\"dist\":\"lognormal\",\"mean\":20,\"sd\":8}}]}";
	const char *two =
		"{\"jobs\":["
		"{\"name\":\"a\",\"arrival\":0,\"maps\":5,\"map_length\":{"
		"\"dist\":\"lognormal\",\"mean\":20,\"sd\":8}},"
		"{\"name\":\"c\",\"arrival\":2,\"maps\":5,\"map_length\":{"
		"\"dist\":\"lognormal\",\"mean\":20,\"sd\":8}}]}";
	struct run r3, r2;

	load(&r3, four_nodes, three);
	start(&r3, sim_policy_find("fifo"), 7);
	load(&r2, four_nodes, two);
	start(&r2, sim_policy_find("fifo"), 7);
	for (uint32_t i = 0; i < 5; i++) {
		ck_assert_double_eq(r3.e->jobs[2].base[DL_MAP][i],
				    r2.e->jobs[1].base[DL_MAP][i]);
		ck_assert_double_eq(r3.e->jobs[0].base[DL_MAP][i],
				    r2.e->jobs[0].base[DL_MAP][i]);
	}
	/* and different jobs draw differently */
	ck_assert(r3.e->jobs[0].base[DL_MAP][0] !=
		  r3.e->jobs[1].base[DL_MAP][0]);
	done(&r3);
	done(&r2);
}
END_TEST

START_TEST(deterministic_for_a_seed)
{
	const char *w =
		"{\"jobs\":["
		"{\"arrival\":0,\"relative_deadline\":300,\"maps\":30,\"map_"
		"length\":{\"dist\":\"lognormal\",\"mean\":20,\"sd\":8}},"
		"{\"arrival\":7,\"relative_deadline\":200,\"maps\":20,"
		"\"reduces\":3,\"map_length\":{\"dist\":\"exponential\","
		"\"mean\":15},\"reduce_length\":25}]}";
	struct run a, b, c;
	char *ca, *cb, *cc;

	load(&a, four_nodes, w);
	load(&b, four_nodes, w);
	load(&c, four_nodes, w);
	go(&a, "adaptive", 42);
	go(&b, "adaptive", 42);
	go(&c, "adaptive", 43);
	ca = csv_of(a.e);
	cb = csv_of(b.e);
	cc = csv_of(c.e);
	ck_assert_str_eq(ca, cb);
	ck_assert_str_ne(ca, cc);
	ck_assert_uint_eq(a.e->stats.events, b.e->stats.events);
	free(ca);
	free(cb);
	free(cc);
	done(&a);
	done(&b);
	done(&c);
}
END_TEST

/* a test policy: every job may run `test_alloc` tasks, and with
 * test_place a placement plan: a row of test_per_node tasks on node
 * test_node, test_cap CPUs of every node for deadline tasks (select's
 * rule) */
static uint32_t test_alloc, test_node, test_per_node;
static double test_cap = INFINITY;
static bool test_place;

static struct dl_plan *test_plan(void *st, const struct sim_policy *self,
				 struct sim_engine *eng,
				 const struct dl_policy_input *in, char *err,
				 size_t errlen)
{
	struct dl_plan *p = dl_plan_new(in->njobs);

	(void) st;
	(void) self;
	(void) eng;
	(void) err;
	(void) errlen;
	ck_assert_ptr_nonnull(p);
	for (uint32_t i = 0; i < in->njobs; i++) {
		p->jobs[i].job_id = in->jobs[i]->id;
		p->jobs[i].phase = dl_job_active_phase(in->jobs[i]);
		p->jobs[i].managed = true;
		p->jobs[i].urgent = true;
		p->jobs[i].rank = i + 1;
		p->jobs[i].alloc = test_alloc;
		p->jobs[i].alloc_for_need = test_alloc;
		/* allotted nothing: held (a throttle cannot say none) */
		p->jobs[i].hold = !test_alloc;
	}
	if (test_place && in->njobs) {
		p->nnodes = in->cluster->nnodes;
		p->nodes = calloc(p->nnodes, sizeof(*p->nodes));
		ck_assert_ptr_nonnull(p->nodes);
		for (uint32_t n = 0; n < p->nnodes; n++) {
			p->nodes[n].cap[0] = test_cap;
			p->nodes[n].cap[1] = p->nodes[n].cap[2] = INFINITY;
		}
		for (uint32_t i = 0; i < in->njobs; i++)
			p->jobs[i].demand[DL_MAP].cpu = 1;
		p->place = calloc(in->njobs, sizeof(*p->place));
		ck_assert_ptr_nonnull(p->place);
		for (uint32_t i = 0; i < in->njobs; i++) {
			p->place[i].job = i;
			p->place[i].node = test_node;
			p->place[i].maps = test_per_node;
		}
		p->nplace = in->njobs;
	}
	dl_plan_finalize(p);
	return p;
}

static const struct sim_policy test_policy = {
	.name = "test", .summary = "fixed throttle", .plan = test_plan};

START_TEST(throttle_is_honoured)
{
	struct run r;
	char err[256] = "";

	/* the plan sees jobs with a deadline only */
	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":500,"
	     "\"maps\":6,\"map_length\":10}]}");
	test_alloc = 2;
	test_place = false;
	start(&r, &test_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.e->jobs[0].max_running, 2);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 31, 1e-9);
	done(&r);
}
END_TEST

/* Slurm's %N (map_max_running): never more at once, however wide the
 * plan's throttle, and for a job the plan leaves to Slurm too; a bad
 * value is refused by name. */
START_TEST(own_limit_is_honoured)
{
	static const char bad[] = "{\"jobs\":[{\"arrival\":0,\"maps\":2,"
				  "\"map_length\":10,\"map_max_running\":-1}]}";
	struct sim_workload_spec ws;
	struct run r;
	char err[256] = "";

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":500,"
	     "\"maps\":6,\"map_length\":10,\"map_max_running\":2},"
	     "{\"arrival\":0,\"maps\":3,\"map_length\":10,"
	     "\"map_max_running\":1}]}");
	test_alloc = 4;
	test_place = false;
	start(&r, &test_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.e->jobs[0].max_running, 2);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 31, 1e-9);
	ck_assert_uint_eq(r.e->jobs[1].max_running, 1);
	ck_assert_double_eq_tol(r.e->jobs[1].finish, 31, 1e-9);
	memset(&ws, 0, sizeof(ws));
	ck_assert_int_eq(sim_workload_parse(bad, strlen(bad), "w", &r.cs, &ws,
					    err, sizeof(err)),
			 EINVAL);
	ck_assert_msg(strstr(err, "map_max_running"), "%s", err);
	sim_workload_spec_free(&ws);
	done(&r);

	/* the oracle's bound counts the limit: eight 10 s tasks due in 25 s
	 * on 4 CPUs fit in two waves, one at a time they cannot */
	for (int limit = 0; limit <= 1; limit++) {
		struct dl_oracle_result o;
		double lb;
		char w[256];

		snprintf(w, sizeof(w),
			 "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":25,"
			 "\"maps\":8,\"map_length\":10,"
			 "\"map_max_running\":%d}]}",
			 limit);
		load(&r, four_nodes, w);
		go(&r, "edf", 1);
		ck_assert_int_eq(sim_oracle(r.e, &o, &lb, err, sizeof(err)), 0);
		ck_assert_uint_eq(o.bound, limit ? 0 : 1);
		/* and the alone cut with it: 80 s one at a time */
		ck_assert_uint_eq(o.impossible_alone, limit ? 1 : 0);
		done(&r);
	}
}
END_TEST

START_TEST(placement_is_honoured)
{
	struct run r;
	char err[256] = "";

	/* P puts one task on node 2, but rows are targets: a task of a job
	 * below its allocation takes a free slot on any node where it fits
	 * the node's capacity for deadline tasks (1 CPU each here), so the
	 * three run at once, one per node */
	load(&r, "{\"nodes\":[{\"name\":\"n\",\"count\":4,\"cpus\":4}]}",
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":500,"
	     "\"maps\":3,\"map_length\":10}]}");
	test_alloc = 4;
	test_place = true;
	test_node = 2;
	test_per_node = 1;
	test_cap = 1;
	start(&r, &test_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.e->jobs[0].max_running, 3);
	for (uint32_t i = 0; i < 3; i++)
		for (uint32_t k = 0; k < i; k++)
			ck_assert_uint_ne(r.e->jobs[0].task[DL_MAP][i].node,
					  r.e->jobs[0].task[DL_MAP][k].node);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 11, 1e-9);
	done(&r);
	/* one node: P allows 3 there and the allocation 4, but the node's
	 * capacity for deadline tasks this cycle is 2 CPUs: two at a time */
	load(&r, "{\"nodes\":[{\"name\":\"n\",\"count\":1,\"cpus\":4}]}",
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":500,"
	     "\"maps\":4,\"map_length\":10}]}");
	test_node = 0;
	test_per_node = 3;
	test_cap = 2;
	start(&r, &test_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.e->jobs[0].max_running, 2);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 21, 1e-9);
	test_place = false;
	test_cap = INFINITY;
	done(&r);
}
END_TEST

START_TEST(stall_is_detected)
{
	struct run r;
	char err[256] = "";

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":50,\"maps\":3,"
	     "\"map_length\":10}]}");
	test_alloc = 0; /* a policy that holds everything for ever */
	start(&r, &test_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert(r.e->stats.stalled);
	ck_assert(r.e->jobs[0].unfinished);
	ck_assert(!sim_job_met(&r.e->jobs[0]));
	/* the stall names the job's cause (issue 17) */
	ck_assert_msg(strstr(r.e->jobs[0].stall, "held by policy test"),
		      "stall: '%s'", r.e->jobs[0].stall);
	done(&r);
}
END_TEST

START_TEST(typed_slots_and_reduce_order)
{
	struct run r;
	const struct sim_job *j;
	double last_map = 0, first_red = INFINITY;

	load(&r,
	     "{\"slots\":\"typed\",\"nodes\":[{\"count\":2,\"map_slots\":2,"
	     "\"reduce_slots\":1}]}",
	     "{\"jobs\":[{\"arrival\":0,\"maps\":4,\"map_length\":10,"
	     "\"reduces\":4,\"reduce_length\":5}]}");
	go(&r, "fifo", 1);
	j = &r.e->jobs[0];
	for (uint32_t i = 0; i < 4; i++) {
		if (j->task[DL_MAP][i].end > last_map)
			last_map = j->task[DL_MAP][i].end;
		if (j->task[DL_REDUCE][i].start < first_red)
			first_red = j->task[DL_REDUCE][i].start;
	}
	ck_assert(first_red >= last_map);
	/* 4 maps on 4 map slots: one wave; 4 reduces on 2 slots: two.
	 * Without a plan (Slurm as shipped) the reduces start as the last map
	 * ends (afterok): 1 + 10 + 2 x 5 */
	ck_assert_double_eq_tol(j->isolated, 20, 1e-9);
	ck_assert_double_eq_tol(j->finish, 1 + 10 + 10, 1e-9);
	ck_assert_uint_eq(r.e->total_units, 6);
	done(&r);
}
END_TEST

START_TEST(external_load_takes_nodes)
{
	struct run r;

	/* half the nodes held for the first 100 s */
	load(&r,
	     "{\"nodes\":[{\"count\":4,\"cpus\":1}],\"external_load\":{"
	     "\"step\":100,\"values\":[0.5,0]}}",
	     "{\"jobs\":[{\"arrival\":0,\"maps\":4,\"map_length\":10}]}");
	go(&r, "fifo", 1);
	ck_assert_uint_eq(r.e->jobs[0].max_running, 2);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 21, 1e-9);
	/* the nodes taken are the last ones */
	for (uint32_t i = 0; i < 4; i++)
		ck_assert_uint_lt(r.e->jobs[0].task[DL_MAP][i].node, 2);
	done(&r);
}
END_TEST

START_TEST(external_load_is_the_reverse_forecast)
{
	struct run r;
	double start, step, period;
	uint32_t ns;

	load(&r,
	     "{\"nodes\":[{\"count\":10,\"cpus\":1}],\"external_load\":{"
	     "\"step\":60,\"values\":[0.1,0.55,0],\"repeat\":true}}",
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":900,\"maps\":1,"
	     "\"map_length\":10}]}");
	go(&r, "reverse", 1);
	/* the last plan's forecast: one class of every node holding whole
	 * nodes from the end, over the window from that plan to the
	 * deadline plus a plan interval */
	ck_assert_ptr_nonnull(r.e->forecast);
	ck_assert_uint_eq(dl_forecast_nclasses(r.e->forecast), 1);
	ck_assert(dl_forecast_whole_nodes(r.e->forecast, 0));
	ck_assert_int_eq(dl_forecast_class_of(r.e->forecast, "n7"), 0);
	dl_forecast_grid(r.e->forecast, &start, &step, &period, &ns);
	ck_assert_double_eq(step, 60);
	ck_assert_double_eq(period, 0);
	ck_assert(start <= r.e->jobs[0].finish);
	ck_assert(start + ns * step >= 900 + r.cfg.plan_interval);
	for (double t = start + 30; t < start + ns * step; t += 60)
		ck_assert_double_eq_tol(dl_forecast_at(r.e->forecast, 0, t),
					sim_series_at(&r.cs.ext, t), 1e-12);
	done(&r);
	/* a policy that does not read it gets none */
	load(&r,
	     "{\"nodes\":[{\"count\":4,\"cpus\":1}],\"external_load\":{"
	     "\"values\":[0.5]}}",
	     "{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":10}]}");
	go(&r, "adaptive", 1);
	ck_assert_ptr_null(r.e->forecast);
	done(&r);
}
END_TEST

START_TEST(slurm_cancels_at_the_hard_deadline)
{
	struct run r;
	const struct sim_job *j;

	/* the 4 tasks take 100 s (time limit 2 min), one node: the second
	 * cannot start before deadline - 120 s */
	load(&r, "{\"nodes\":[{\"count\":1,\"cpus\":1}]}",
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":300,\"maps\":4,"
	     "\"map_length\":100}]}");
	go(&r, "slurm", 1);
	j = &r.e->jobs[0];
	ck_assert(j->hard);
	ck_assert(j->cancelled);
	ck_assert(!sim_job_met(j));
	ck_assert_double_eq_tol(j->time_limit[DL_MAP], 120, 1e-9);
	/* started at 1 and 101; 201 + 120 > 300: the rest is cancelled */
	ck_assert_uint_eq(j->started[DL_MAP], 2);
	ck_assert_double_eq_tol(j->finish, 201, 1e-9);
	done(&r);
	/* the same job with a soft goal under FIFO runs to the end late */
	load(&r, "{\"nodes\":[{\"count\":1,\"cpus\":1}]}",
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":300,\"maps\":4,"
	     "\"map_length\":100}]}");
	go(&r, "fifo", 1);
	ck_assert(!r.e->jobs[0].cancelled);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 401, 1e-9);
	done(&r);
}
END_TEST

/* --task-lengths: what each mode tells the policy before (and after) a
 * phase's own completions.  The estimator is the daemon's history, as
 * deadline-sim passes it. */
static int t_predict(void *ctx, const struct dl_pred_query *q, double now,
		     struct dl_prediction *out)
{
	return dl_hist_predict(ctx, q, now, out);
}

static int t_observe(void *ctx, const struct dl_task_rec *r, double now)
{
	return dl_hist_observe(ctx, r, now);
}

struct lengths_seen {
	struct dl_phase ph;       /* counts and the prior only */
	enum dl_mu_source at_end; /* where the policy's mu came from last */
	double mu_end;
};

static struct lengths_seen lengths_run(enum sim_lengths m, uint32_t job)
{
	struct run r;
	struct sim_options o = {0};
	char err[512] = "";
	struct lengths_seen ls;
	struct dl_mu mu;
	struct dl_hist *hist = NULL;

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"user\":\"u\",\"name\":\"wc\","
	     "\"maps\":4,\"map_lengths\":[10,10,10,50],\"map_time_limit\":100,"
	     "\"relative_deadline\":1000},"
	     "{\"arrival\":500,\"user\":\"u\",\"name\":\"wc\",\"maps\":2,"
	     "\"map_lengths\":[30,30],\"map_time_limit\":100,"
	     "\"relative_deadline\":1000}]}");
	o.seed = 1;
	o.lengths = m;
	if (m == SIM_LENGTHS_ESTIMATOR) {
		struct dl_hist_cfg hc;

		dl_hist_cfg_defaults(&hc);
		hist = dl_hist_new(&hc, err, sizeof(err));
		ck_assert_ptr_nonnull(hist);
		o.est = (struct sim_estimator){hist, t_predict, t_observe};
	}
	r.e = sim_engine_new(&r.cs, &r.ws, sim_policy_find("fifo"), &r.cfg, &o,
			     err, sizeof(err));
	ck_assert_msg(r.e != NULL, "engine: %s", err);
	ck_assert_msg(sim_engine_run(r.e, err, sizeof(err)) == 0, "run: %s",
		      err);
	ck_assert(sim_job_met(&r.e->jobs[0]) && sim_job_met(&r.e->jobs[1]));
	ls.ph = r.e->jobs[job].dj->phase[DL_MAP];
	ls.ph.running = NULL; /* freed with the run */
	mu = dl_phase_mu(&r.e->jobs[job].dj->phase[DL_MAP]);
	ls.at_end = mu.source;
	ls.mu_end = mu.mean;
	done(&r);
	dl_hist_free(hist);
	return ls;
}

START_TEST(task_lengths_modes)
{
	struct lengths_seen ls;
	struct dl_phase *ph = &ls.ph;

	ck_assert_int_eq(sim_lengths_parse("perfect"), SIM_LENGTHS_PERFECT);
	ck_assert_int_eq(sim_lengths_parse("estimator"), SIM_LENGTHS_ESTIMATOR);
	ck_assert_int_eq(sim_lengths_parse("own"), SIM_LENGTHS_OWN);
	ck_assert_int_eq(sim_lengths_parse("limit"), SIM_LENGTHS_LIMIT);
	ck_assert_int_eq(sim_lengths_parse("spec"), SIM_LENGTHS_SPEC);
	ck_assert_int_eq(sim_lengths_parse("oracle"), -1);
	ck_assert_int_eq(sim_lengths_parse(NULL), -1);
	ck_assert_str_eq(sim_lengths_name(SIM_LENGTHS_ESTIMATOR), "estimator");
	{
		/* the estimator mode without an estimator: a clear error */
		struct run r;
		struct sim_options o = {0};
		char err[512] = "";

		load(&r, four_nodes,
		     "{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":5}]"
		     "}");
		o.lengths = SIM_LENGTHS_ESTIMATOR;
		r.e = sim_engine_new(&r.cs, &r.ws, sim_policy_find("fifo"),
				     &r.cfg, &o, err, sizeof(err));
		ck_assert_ptr_null(r.e);
		ck_assert(strstr(err, "needs an estimator"));
		done(&r);
	}
	/* perfect: the true mean (20) and p90, kept over own completions */
	ls = lengths_run(SIM_LENGTHS_PERFECT, 0);
	ck_assert_double_eq_tol(ph->prior_mean, 20, 1e-9);
	ck_assert(ph->prior_exact);
	ck_assert_str_eq(ph->prior_source, "perfect");
	ck_assert_int_eq(ls.at_end, DL_MU_PRIOR);
	/* own: nothing before completions, then the completions */
	ls = lengths_run(SIM_LENGTHS_OWN, 1);
	ck_assert_double_eq(ph->prior_mean, 0);
	ck_assert_int_eq(ls.at_end, DL_MU_JOB);
	ck_assert_double_eq_tol(ls.mu_end, 30, 1e-9);
	/* limit: the time limit until own completions */
	ls = lengths_run(SIM_LENGTHS_LIMIT, 1);
	ck_assert_double_eq_tol(ph->prior_mean, 100, 1e-9);
	ck_assert_str_eq(ph->prior_source, "limit");
	ck_assert_int_eq(ls.at_end, DL_MU_JOB);
	/* estimator: nothing known for the first job; the first job's 4
	 * tasks of (u, wc, map) answer for the second at its arrival (the
	 * history's mean of 10, 10, 10, 50) */
	ls = lengths_run(SIM_LENGTHS_ESTIMATOR, 0);
	ck_assert_double_eq(ph->prior_mean, 0);
	ls = lengths_run(SIM_LENGTHS_ESTIMATOR, 1);
	ck_assert_double_eq_tol(ph->prior_mean, 20, 1e-3);
	ck_assert_str_eq(ph->prior_source, "history:name");
	ck_assert(!ph->prior_exact);
}
END_TEST

START_TEST(time_limit_kills_and_fails)
{
	struct run r;

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"maps\":2,\"map_lengths\":[10,200],"
	     "\"map_time_limit\":60,"
	     "\"reduces\":1,\"reduce_length\":5,\"relative_deadline\":1000}]}");
	go(&r, "fifo", 1);
	/* the long map is killed at 60 s: the map phase fails and the
	 * reduces never start (afterok) */
	ck_assert_double_eq_tol(r.e->jobs[0].task[DL_MAP][1].end, 61, 1e-9);
	ck_assert_uint_eq(r.e->jobs[0].started[DL_REDUCE], 0);
	ck_assert_uint_eq(r.e->jobs[0].dj->phase[DL_MAP].failed, 1);
	ck_assert(!sim_job_met(&r.e->jobs[0]));
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 61, 1e-9);
	done(&r);
}
END_TEST

/* Slurm's launch and completion time (task_overhead) holds the slot, is in
 * the length the policies observe and counts against the time limit. */
START_TEST(task_overhead_holds_the_slot)
{
	struct run r;
	const struct dl_phase *m;

	load(&r,
	     "{\"task_overhead\":0.5,\"nodes\":[{\"name\":\"n\",\"count\":4,"
	     "\"cpus\":1}]}",
	     "{\"jobs\":[{\"arrival\":5,\"relative_deadline\":100,\"maps\":8,"
	     "\"map_length\":10},"
	     "{\"arrival\":200,\"maps\":1,\"map_lengths\":[59.8],"
	     "\"map_time_limit\":60}]}");
	go(&r, "fifo", 1);
	/* two waves of 10.5 s, alone and in the run */
	ck_assert_double_eq_tol(r.e->jobs[0].isolated, 21, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[0].first_start, 6, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 27, 1e-9);
	m = &r.e->jobs[0].dj->phase[DL_MAP];
	ck_assert_uint_eq(m->completed, 8);
	ck_assert_double_eq_tol(m->sum_len[DL_POOL_REGULAR], 8 * 10.5, 1e-9);
	/* 59.8 s plus 0.5 s passes a one-minute limit: killed, as in Slurm */
	ck_assert_uint_eq(r.e->jobs[1].dj->phase[DL_MAP].failed, 1);
	ck_assert_double_eq_tol(r.e->jobs[1].finish, 201 + 60, 1e-9);
	done(&r);
}
END_TEST

/* task_overhead drawn per task: each task holds its slot its length plus
 * its own draw (here 0.25 or 1.5 s), the same draws for the same seed, the
 * task lengths untouched by the draws; a constant distribution is the
 * plain number. */
START_TEST(task_overhead_drawn_per_task)
{
	const char *w = "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":"
			"500,\"maps\":40,\"map_length\":{\"dist\":"
			"\"uniform\",\"min\":5,\"max\":15}},"
			"{\"arrival\":300,\"maps\":1,\"map_length\":7}]}";
	const char *drawn = "{\"task_overhead\":{\"dist\":\"empirical\","
			    "\"values\":[0.25,1.5]},\"nodes\":[{\"name\":"
			    "\"n\",\"count\":4,\"cpus\":1}]}";
	const char *fixed = "{\"task_overhead\":0.25,\"nodes\":[{\"name\":"
			    "\"n\",\"count\":4,\"cpus\":1}]}";
	const char *fixed_dist = "{\"task_overhead\":{\"dist\":\"const\","
				 "\"value\":0.25},\"nodes\":[{\"name\":"
				 "\"n\",\"count\":4,\"cpus\":1}]}";
	struct run a, b, c, d;
	uint32_t small = 0, large = 0, differ = 0;

	load(&a, drawn, w);
	go(&a, "fifo", 1);
	load(&b, drawn, w);
	go(&b, "fifo", 1);
	load(&c, fixed, w);
	go(&c, "fifo", 1);
	for (uint32_t i = 0; i < 40; i++) {
		const struct sim_task *t = &a.e->jobs[0].task[DL_MAP][i];
		double o = t->end - t->start - a.e->jobs[0].base[DL_MAP][i];

		ck_assert_msg(fabs(o - 0.25) < 1e-9 || fabs(o - 1.5) < 1e-9,
			      "task %u held its slot %g s beyond its length", i,
			      o);
		small += fabs(o - 0.25) < 1e-9;
		large += fabs(o - 1.5) < 1e-9;
		/* the same seed, the same draws */
		ck_assert_double_eq(t->end, b.e->jobs[0].task[DL_MAP][i].end);
		/* the lengths do not depend on the overhead draws */
		ck_assert_double_eq(a.e->jobs[0].base[DL_MAP][i],
				    c.e->jobs[0].base[DL_MAP][i]);
	}
	ck_assert_uint_gt(small, 5);
	ck_assert_uint_gt(large, 5);
	/* alone, the one-task job takes its length plus its own draw */
	ck_assert(fabs(a.e->jobs[1].isolated - 7.25) < 1e-9 ||
		  fabs(a.e->jobs[1].isolated - 8.5) < 1e-9);
	ck_assert_double_eq_tol(a.e->jobs[1].finish - a.e->jobs[1].first_start,
				a.e->jobs[1].isolated, 1e-9);
	done(&b);

	/* another seed, other draws (the overheads of equal lengths) */
	load(&b, drawn, w);
	go(&b, "fifo", 2);
	for (uint32_t i = 0; i < 40; i++)
		differ += b.e->jobs[0].overhead[DL_MAP][i] !=
			  a.e->jobs[0].overhead[DL_MAP][i];
	ck_assert_uint_gt(differ, 0);
	done(&b);

	/* constant as a distribution: exactly the plain number's run */
	load(&d, fixed_dist, w);
	go(&d, "fifo", 1);
	ck_assert_ptr_null(d.e->jobs[0].overhead[DL_MAP]);
	for (uint32_t k = 0; k < 2; k++)
		for (uint32_t i = 0; i < d.ws.jobs[k].phase[DL_MAP].tasks; i++)
			ck_assert_double_eq(d.e->jobs[k].task[DL_MAP][i].end,
					    c.e->jobs[k].task[DL_MAP][i].end);
	done(&d);
	done(&c);
	done(&a);
}
END_TEST

/* A job no plan has seen yet is Slurm's newest submission
 * (priority/basic): a CPU freed before its first plan goes to Slurm's older
 * pending job first, and the new job may start at that dispatch when a
 * second CPU is free -- as sched/deadline leaves it to Slurm
 * (order_arrival). */
START_TEST(unplanned_arrival_is_slurms_newest)
{
	/* L holds both CPUs from the plan at 1 until 21 and 41; N (no
	 * deadline) waits from 5; B arrives at 20.5, after the plan at 20 */
	const char *w =
		"{\"jobs\":["
		"{\"arrival\":0,\"maps\":2,\"map_lengths\":[20,40]},"
		"{\"arrival\":5,\"maps\":1,\"map_lengths\":[5]},"
		"{\"arrival\":20.5,\"relative_deadline\":100,\"maps\":1,"
		"\"map_lengths\":[5]}]}";
	const char *w2 = "{\"jobs\":["
			 "{\"arrival\":0,\"maps\":2,\"map_lengths\":[20,20]},"
			 "{\"arrival\":5,\"maps\":1,\"map_lengths\":[5]},"
			 "{\"arrival\":20.5,\"relative_deadline\":100,"
			 "\"maps\":1,\"map_lengths\":[5]}]}";
	const char *two = "{\"nodes\":[{\"name\":\"n\",\"count\":2,"
			  "\"cpus\":1}]}";
	struct run r;

	load(&r, two, w);
	go(&r, "edf", 1);
	ck_assert_double_eq_tol(r.e->jobs[0].first_start, 1, 1e-9);
	/* the CPU freed at 21 goes to N, the older submission */
	ck_assert_double_eq_tol(r.e->jobs[1].first_start, 21, 1e-9);
	/* B starts when N's CPU frees, not at its plan (21.5): none free */
	ck_assert_double_eq_tol(r.e->jobs[2].first_start, 26, 1e-9);
	done(&r);

	/* both CPUs free at 21: N and, before any plan has seen it, B */
	load(&r, two, w2);
	go(&r, "edf", 1);
	ck_assert_double_eq_tol(r.e->jobs[1].first_start, 21, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[2].first_start, 21, 1e-9);
	done(&r);
}
END_TEST

/* What each plan saw of work without deadlines waiting (partition 0). */
static double waits_at[64];
static bool waits_seen[64];
static uint32_t nwaits;

static struct dl_plan *note_waits(void *st, const struct sim_policy *self,
				  struct sim_engine *eng,
				  const struct dl_policy_input *in, char *err,
				  size_t errlen)
{
	if (nwaits < 64) {
		waits_at[nwaits] = in->now;
		waits_seen[nwaits++] =
			dl_partset_has(&in->cluster->other_waiting, 0);
	}
	(void) st;
	(void) self;
	(void) eng;
	return dl_edf_plan(in, err, errlen);
}

static const struct sim_policy waits_policy = {
	.name = "waits-test", .summary = "other_waiting", .plan = note_waits};

/* The plans see where a job without a deadline waits to start, as the sched
 * plugin's snapshot does (dl_cluster.other_waiting): D holds both CPUs from
 * 1 to 21, N (no deadline) waits from 5 and runs from 21 to 26. */
START_TEST(plans_see_work_without_deadline_waiting)
{
	const char *w = "{\"jobs\":["
			"{\"arrival\":0,\"relative_deadline\":100,\"maps\":2,"
			"\"map_lengths\":[20,20]},"
			"{\"arrival\":5,\"maps\":1,\"map_lengths\":[5]}]}";
	const char *two = "{\"nodes\":[{\"name\":\"n\",\"count\":2,"
			  "\"cpus\":1}]}";
	struct run r;
	char err[256] = "";
	uint32_t before = 0, during = 0, after = 0;

	nwaits = 0;
	load(&r, two, w);
	start(&r, &waits_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(r.e->jobs[1].first_start, 21, 1e-9);
	for (uint32_t i = 0; i < nwaits; i++) {
		if (waits_at[i] < 5) {
			ck_assert(!waits_seen[i]);
			before++;
		} else if (waits_at[i] < 21) {
			ck_assert_msg(waits_seen[i], "plan at %g", waits_at[i]);
			during++;
		} else {
			ck_assert_msg(!waits_seen[i], "plan at %g",
				      waits_at[i]);
			after++;
		}
	}
	ck_assert_uint_gt(before, 0);
	ck_assert_uint_gt(during, 0);
	ck_assert_uint_gt(after, 0);
	done(&r);
}
END_TEST

/* A cluster whose work without deadlines is not simulated but waits all run
 * long (a portfolio's future of a snapshot, sim_cluster_spec.other_waiting):
 * every plan sees it waiting, in that partition only. */
START_TEST(plans_see_work_the_cluster_keeps_waiting)
{
	const char *w = "{\"jobs\":["
			"{\"arrival\":0,\"relative_deadline\":100,\"maps\":2,"
			"\"map_lengths\":[20,20]}]}";
	const char *two = "{\"partitions\":[\"a\",\"b\"],\"nodes\":[{"
			  "\"name\":\"n\",\"count\":2,\"cpus\":1,"
			  "\"partitions\":[\"a\",\"b\"]}]}";
	struct run r;
	char err[256] = "";

	for (int waiting = 0; waiting < 2; waiting++) {
		nwaits = 0;
		load(&r, two, w);
		/* partition b (index 1): the test policy looks at a (0) */
		r.cs.other_waiting = waiting ? UINT64_C(1) : UINT64_C(2);
		start(&r, &waits_policy, 1);
		ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
		ck_assert_uint_gt(nwaits, 1);
		for (uint32_t i = 0; i < nwaits; i++)
			ck_assert_msg(waits_seen[i] == (waiting == 1),
				      "plan at %g", waits_at[i]);
		ck_assert(dl_partset_has(&r.e->view.other_waiting,
					 waiting ? 0 : 1));
		ck_assert(!dl_partset_has(&r.e->view.other_waiting,
					  waiting ? 1 : 0));
		done(&r);
	}
}
END_TEST

/* Slurm without the plugin (fifo) with batch_sched_delay: tasks start only
 * in Slurm's background pass, at most one per 3 s -- a new job at once when
 * the last pass is old, a freed CPU at the next pass.  A plugin policy (edf)
 * is not limited: its plans kick Slurm's scheduler. */
START_TEST(slurm_passes_follow_batch_sched_delay)
{
	const char *w = "{\"jobs\":["
			"{\"arrival\":0,\"relative_deadline\":100,\"maps\":2,"
			"\"map_lengths\":[10,11]},"
			"{\"arrival\":1,\"relative_deadline\":100,\"maps\":2,"
			"\"map_lengths\":[5,5]}]}";
	const char *two = "{\"nodes\":[{\"name\":\"n\",\"count\":2,"
			  "\"cpus\":1}]}";
	const char *two_passes = "{\"batch_sched_delay\":3,\"nodes\":[{"
				 "\"name\":\"n\",\"count\":2,\"cpus\":1}]}";
	struct run r;

	load(&r, two_passes, w);
	go(&r, "fifo", 1);
	ck_assert_double_eq_tol(r.e->jobs[0].first_start, 0, 1e-9);
	/* B arrives at 1, no CPU is free: a pass at 0 + 3 starts nothing;
	 * A's first task ends at 10: a pass at once (the last was at 3) */
	ck_assert_double_eq_tol(r.e->jobs[1].task[DL_MAP][0].start, 10, 1e-9);
	/* A's second ends at 11: the next pass is at 10 + 3 */
	ck_assert_double_eq_tol(r.e->jobs[1].task[DL_MAP][1].start, 13, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[1].finish, 18, 1e-9);
	done(&r);

	/* not modelled (the default): the job waits for the plan after
	 * ReplanDelay, and every task end dispatches */
	load(&r, two, w);
	go(&r, "fifo", 1);
	ck_assert_double_eq_tol(r.e->jobs[0].first_start, 1, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[1].task[DL_MAP][1].start, 12, 1e-9);
	done(&r);

	load(&r, two_passes, w);
	go(&r, "edf", 1);
	ck_assert_double_eq_tol(r.e->jobs[0].first_start, 1, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[1].task[DL_MAP][1].start, 12, 1e-9);
	done(&r);
}
END_TEST

START_TEST(easy_backfill_respects_the_reservation)
{
	struct run r;
	const struct sim_job *big, *shortj, *longj;

	/* one 4-CPU node.  A (2 CPUs, 600 s) starts first; B wants all 4
	 * CPUs and waits for A (reservation at A's time limit, 601 s);
	 * C's 1-CPU tasks of 60 s limit fit before it, D's of 20 min do
	 * not.  FIFO order: A, B, C, D. */
	load(&r, "{\"nodes\":[{\"count\":1,\"cpus\":4}]}",
	     "{\"jobs\":["
	     "{\"name\":\"A\",\"arrival\":0,\"maps\":1,\"map_length\":600,"
	     "\"map_cpus\":2},"
	     "{\"name\":\"B\",\"arrival\":0.5,\"maps\":1,\"map_length\":100,"
	     "\"map_cpus\":4},"
	     "{\"name\":\"C\",\"arrival\":0.6,\"maps\":2,\"map_length\":30},"
	     "{\"name\":\"D\",\"arrival\":0.7,\"maps\":1,\"map_length\":1000}]"
	     "}");
	go(&r, "fifo", 1);
	big = &r.e->jobs[1];
	shortj = &r.e->jobs[2];
	longj = &r.e->jobs[3];
	ck_assert_double_eq_tol(shortj->first_start, 1, 1e-9);
	/* D would delay B: it starts only after B */
	ck_assert_double_eq_tol(big->first_start, 601, 1e-9);
	ck_assert(longj->first_start >= big->first_start);
	ck_assert_uint_ge(r.e->stats.reservations, 1);
	done(&r);
}
END_TEST

START_TEST(no_reservation_while_the_cluster_is_full)
{
	struct run r;

	/* one array that always has more tasks than free CPUs: every
	 * dispatch fills the cluster and then finds no room, but no later
	 * start could be refused by a reservation, so none is worked out
	 * (it cost a sort of every node's tasks per dispatch) */
	load(&r, "{\"nodes\":[{\"count\":3,\"cpus\":2}]}",
	     "{\"jobs\":[{\"arrival\":0,\"maps\":60,"
	     "\"map_length\":{\"dist\":\"uniform\",\"min\":5,"
	     "\"max\":50}}]}");
	go(&r, "fifo", 3);
	ck_assert_uint_eq(r.e->stats.task_starts, 60);
	ck_assert_uint_gt(r.e->stats.dispatches, 20);
	ck_assert_uint_eq(r.e->stats.reservations, 0);
	done(&r);
}
END_TEST

START_TEST(first_fit_takes_the_lowest_free_node)
{
	char w[4096];
	size_t used = 0;
	struct run r;

	/* 130 one-CPU nodes (three words of the free-node index): A's task
	 * i runs on node i, node 129 frees at 10 s and node 65 at 20 s; B
	 * (t = 25) takes the lowest free node, C (t = 30) the next */
	used += (size_t) snprintf(w + used, sizeof(w) - used,
				  "{\"jobs\":[{\"name\":\"A\",\"arrival\":0,"
				  "\"maps\":130,\"map_lengths\":[");
	for (int i = 0; i < 130; i++)
		used += (size_t) snprintf(
			w + used, sizeof(w) - used, "%s%d", i ? "," : "",
			i == 129 ? 10 : (i == 65 ? 20 : 1000));
	snprintf(w + used, sizeof(w) - used,
		 "]},{\"name\":\"B\",\"arrival\":25,\"maps\":1,"
		 "\"map_length\":500},{\"name\":\"C\",\"arrival\":30,"
		 "\"maps\":1,\"map_length\":500}]}");
	load(&r, "{\"nodes\":[{\"count\":130,\"cpus\":1}]}", w);
	go(&r, "fifo", 1);
	ck_assert_uint_eq(r.e->jobs[0].task[DL_MAP][129].node, 129);
	ck_assert_uint_eq(r.e->jobs[1].task[DL_MAP][0].node, 65);
	ck_assert_uint_eq(r.e->jobs[2].task[DL_MAP][0].node, 129);
	done(&r);
}
END_TEST

/* an admission policy for the test: reject jobs with more than 2 maps,
 * count job ends */
static int test_ends;

static bool small_only(void *st, struct sim_engine *eng, uint32_t job,
		       char *why, size_t whylen)
{
	(void) st;
	if (eng->jobs[job].spec->phase[DL_MAP].tasks > 2) {
		snprintf(why, whylen, "too many maps");
		return false;
	}
	return true;
}

static void count_end(void *st, struct sim_engine *eng, uint32_t job)
{
	(void) st;
	ck_assert_int_eq(eng->jobs[job].state, SIM_JOB_DONE);
	test_ends++;
}

static struct dl_plan *edf_plan(void *st, const struct sim_policy *self,
				struct sim_engine *eng,
				const struct dl_policy_input *in, char *err,
				size_t errlen)
{
	(void) st;
	(void) self;
	(void) eng;
	return dl_edf_plan(in, err, errlen);
}

static const struct sim_policy admit_policy = {.name = "admit-test",
					       .summary = "admission",
					       .admission = true,
					       .admit = small_only,
					       .plan = edf_plan,
					       .job_end = count_end};

/* a dispatcher rule of the instant: no reduce before t = 50 */
static bool reduces_after_50(void *st, struct sim_engine *eng, uint32_t job,
			     int phase)
{
	(void) st;
	(void) job;
	return phase != DL_REDUCE || eng->now >= 50;
}

static const struct sim_policy late_reduce_policy = {.name = "late-reduce",
						     .summary = "may_start",
						     .plan = edf_plan,
						     .may_start =
							     reduces_after_50};

START_TEST(may_start_is_asked_before_each_start)
{
	struct run r;
	char err[256] = "";

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"maps\":2,\"map_length\":10,"
	     "\"reduces\":2,\"reduce_length\":5}]}");
	start(&r, &late_reduce_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(r.e->jobs[0].map_end, 11, 1e-9);
	/* the next dispatch from t = 50 on: the plan tick at 50 */
	ck_assert_double_eq_tol(r.e->jobs[0].task[DL_REDUCE][0].start, 50,
				1e-9);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 55, 1e-9);
	done(&r);
}
END_TEST

START_TEST(admission_hooks_and_metrics)
{
	struct run r;
	struct sim_summary s;
	char err[256] = "";

	load(&r, four_nodes,
	     "{\"jobs\":["
	     "{\"arrival\":0,\"relative_deadline\":100,\"maps\":2,\"map_"
	     "length\":10},"
	     "{\"arrival\":0,\"relative_deadline\":100,\"maps\":3,\"map_"
	     "length\":10},"
	     "{\"arrival\":0,\"relative_deadline\":5,\"maps\":1,\"map_length\":"
	     "10}]}");
	test_ends = 0;
	start(&r, &admit_policy, 1);
	ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	ck_assert_int_eq(r.e->jobs[1].state, SIM_JOB_REJECTED);
	ck_assert_str_eq(r.e->jobs[1].why, "too many maps");
	ck_assert_int_eq(test_ends, 2);
	sim_summarize(r.e, &s);
	ck_assert_uint_eq(s.jobs, 3);
	ck_assert_uint_eq(s.admitted, 2);
	ck_assert_uint_eq(s.rejected, 1);
	ck_assert_uint_eq(s.met, 1);
	ck_assert_uint_eq(s.missed, 1);
	ck_assert_double_eq_tol(s.accept_ratio, 2.0 / 3, 1e-9);
	ck_assert_double_eq_tol(s.success_ratio, 0.5, 1e-9);
	/* RTMR's utilisation for an admission policy: the met job's 20
	 * slot-seconds over 4 slots x 11 s (arrival 0 to last finish) */
	ck_assert_double_eq_tol(s.makespan_s, 11, 1e-9);
	ck_assert_double_eq_tol(s.utilization, 20.0 / 44, 1e-9);
	ck_assert_double_eq_tol(s.utilization_all, 30.0 / 44, 1e-9);
	/* lateness: job 1 finishes at 11 (deadline 100), job 3 at 11 (5) */
	ck_assert_double_eq_tol(s.mean_lateness_s,
				((11 - 100) + (11 - 5)) / 2.0, 1e-9);
	ck_assert_double_eq_tol(s.mean_tardiness_s, 6, 1e-9);
	done(&r);
}
END_TEST

/* The lateness of late jobs and the bounded slowdown of the jobs without
 * a deadline, computed by hand.  Four one-CPU nodes under FIFO, the first
 * plan 1 s after the arrivals at 0: A (4 x 10 s, due 5) runs 1-11, B (no
 * deadline, 4 x 10 s) 11-21, C (due 15) 21-31, D (no deadline, one 2 s
 * task) 31-33, E (due 100) 31-43, F (no deadline, one 5 s task, arrives
 * at 40) 41-46.  Late: A by 6 s and C by 16 s: mean 11, p95 6 + 0.95 x 10
 * = 15.5.  Slowdowns: B 21 / 10 = 2.1, D 33 / max(2, 10) = 3.3, F 6 / 10
 * raised to 1: mean 6.4 / 3, p95 2.1 + 0.9 x 1.2 = 3.18. */
static const char *metrics_jobs =
	"{\"jobs\":["
	"{\"arrival\":0,\"relative_deadline\":5,\"maps\":4,\"map_length\":10},"
	"{\"arrival\":0,\"maps\":4,\"map_length\":10},"
	"{\"arrival\":0,\"relative_deadline\":15,\"maps\":4,\"map_length\":"
	"10},"
	"{\"arrival\":0,\"maps\":1,\"map_length\":2},"
	"{\"arrival\":0,\"relative_deadline\":100,\"maps\":4,\"map_length\":"
	"10},"
	"{\"arrival\":40,\"maps\":1,\"map_length\":5}]}";

START_TEST(lateness_and_bounded_slowdown)
{
	struct run r;
	struct sim_summary s;

	load(&r, four_nodes, metrics_jobs);
	go(&r, "fifo", 1);
	ck_assert_int_eq(sim_summarize(r.e, &s), 0);
	ck_assert_double_eq_tol(r.e->jobs[3].finish, 33, 1e-9);
	ck_assert_double_eq_tol(r.e->jobs[5].finish, 46, 1e-9);
	ck_assert_uint_eq(s.met, 1);
	ck_assert_uint_eq(s.late_jobs, 2);
	ck_assert_double_eq_tol(s.mean_tardiness_s, 11, 1e-9);
	ck_assert_double_eq_tol(s.p95_tardiness_s, 15.5, 1e-9);
	ck_assert_uint_eq(s.nodl_jobs, 3);
	ck_assert_double_eq_tol(s.bsld_mean, 6.4 / 3, 1e-9);
	ck_assert_double_eq_tol(s.bsld_p95, 3.18, 1e-9);
	done(&r);

	/* stopped at 25: C, D and E still pending or running, F not yet
	 * arrived.  D counts with the run's end (25 / 10, a lower bound),
	 * F not at all; C is unfinished, not late */
	load(&r, four_nodes, metrics_jobs);
	{
		struct sim_options o = {0};
		char err[256] = "";

		o.seed = 1;
		o.horizon = 25;
		r.e = sim_engine_new(&r.cs, &r.ws, sim_policy_find("fifo"),
				     &r.cfg, &o, err, sizeof(err));
		ck_assert_msg(r.e != NULL, "engine: %s", err);
		ck_assert_int_eq(sim_engine_run(r.e, err, sizeof(err)), 0);
	}
	ck_assert_int_eq(sim_summarize(r.e, &s), 0);
	ck_assert_uint_eq(s.unfinished, 3);
	ck_assert_uint_eq(s.late_jobs, 1);
	ck_assert_double_eq_tol(s.mean_tardiness_s, 6, 1e-9);
	ck_assert_uint_eq(s.nodl_jobs, 2);
	ck_assert_double_eq_tol(s.bsld_mean, (2.1 + 2.5) / 2, 1e-9);
	done(&r);
}
END_TEST

START_TEST(bounded_slowdown_formula)
{
	/* short jobs count as 10 s long; never below 1 */
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 130, 2), 3, 1e-12);
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 130, 0), 3, 1e-12);
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 130, 15), 2, 1e-12);
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 105, 5), 1, 1e-12);
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 100, 30), 1, 1e-12);
}
END_TEST

static void never_beat_the_oracle(const char *cluster, const char *w,
				  uint64_t seeds)
{
	static const char *pols[] = {"fifo", "edf",      "fair",  "slurm",
				     "aria", "adaptive", "triage"};
	uint32_t lateness_bounded = 0;

	for (uint64_t seed = 1; seed <= seeds; seed++)
		for (size_t p = 0; p < sizeof(pols) / sizeof(*pols); p++) {
			struct run r;
			struct sim_summary s;
			struct dl_oracle_result o;
			struct dl_tardiness_layers l;
			char err[256] = "";
			double lb;

			load(&r, cluster, w);
			go(&r, pols[p], seed);
			ck_assert_int_eq(sim_summarize(r.e, &s), 0);
			ck_assert_int_eq(sim_oracle_layers(r.e, &o, &lb, &l,
							   err, sizeof(err)),
					 0);
			ck_assert_uint_eq(o.counted, 5);
			ck_assert_msg(s.met <= o.bound,
				      "%s seed %llu met %u > bound %u", pols[p],
				      (unsigned long long) seed, s.met,
				      o.bound);
			/* nor come in under the lateness bound, when every
			 * job ran to its end (Slurm cancels the jobs that
			 * cannot finish in time) */
			ck_assert_msg(s.cancelled || s.unfinished ||
					      s.arrived_lateness_s >= lb - 1e-6,
				      "%s seed %llu late %g s < bound %g s",
				      pols[p], (unsigned long long) seed,
				      s.arrived_lateness_s, lb);
			/* and with the layers, at its number of late jobs */
			ck_assert_msg(
				s.cancelled || s.unfinished ||
					s.arrived_lateness_s >=
						dl_tardiness_at_most(
							&l, lb,
							s.arrived_late_jobs) -
							1e-6,
				"%s seed %llu: %u late, %g s < %g s", pols[p],
				(unsigned long long) seed, s.arrived_late_jobs,
				s.arrived_lateness_s,
				dl_tardiness_at_most(&l, lb,
						     s.arrived_late_jobs));
			if (lb > 0)
				lateness_bounded++;
			dl_tardiness_layers_free(&l);
			done(&r);
		}
	/* the instances are tight enough that the bound says something */
	ck_assert_uint_gt(lateness_bounded, 0);
}

static const char *oracle_jobs =
	"{\"jobs\":["
	"{\"arrival\":0,\"relative_deadline\":60,\"maps\":10,\"map_"
	"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20}},"
	"{\"arrival\":3,\"relative_deadline\":40,\"maps\":6,\"map_"
	"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20},"
	"\"reduces\":2,\"reduce_length\":8},"
	"{\"arrival\":5,\"relative_deadline\":30,\"maps\":8,\"map_"
	"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20}},"
	"{\"arrival\":9,\"relative_deadline\":25,\"maps\":4,\"map_"
	"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20}},"
	"{\"arrival\":12,\"relative_deadline\":90,\"maps\":12,\"map_"
	"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20}}]}";

START_TEST(policies_never_beat_the_oracle)
{
	never_beat_the_oracle(four_nodes, oracle_jobs, 8);
}
END_TEST

/* The same jobs, three of them with their own %N: the bound counts the
 * limit (a width of N tasks) and stays a bound. */
START_TEST(policies_never_beat_the_oracle_with_own_limits)
{
	static const char limited[] =
		"{\"jobs\":["
		"{\"arrival\":0,\"relative_deadline\":60,\"maps\":10,"
		"\"map_max_running\":2,\"map_length\":{\"dist\":"
		"\"uniform\",\"min\":5,\"max\":20}},"
		"{\"arrival\":3,\"relative_deadline\":40,\"maps\":6,\"map_"
		"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20},"
		"\"reduces\":2,\"reduce_length\":8,"
		"\"reduce_max_running\":1},"
		"{\"arrival\":5,\"relative_deadline\":30,\"maps\":8,"
		"\"map_max_running\":3,\"map_length\":{\"dist\":"
		"\"uniform\",\"min\":5,\"max\":20}},"
		"{\"arrival\":9,\"relative_deadline\":25,\"maps\":4,\"map_"
		"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20}},"
		"{\"arrival\":12,\"relative_deadline\":90,\"maps\":12,\"map_"
		"length\":{\"dist\":\"uniform\",\"min\":5,\"max\":20}}]}";

	never_beat_the_oracle(four_nodes, limited, 8);
}
END_TEST

/* With an external load that takes and gives back nodes every few
 * seconds: tasks started before the load rises keep running past it (the
 * bound's capacity counts them), and the cut alone sees the waves. */
START_TEST(policies_never_beat_the_oracle_under_external_load)
{
	never_beat_the_oracle(
		"{\"nodes\":[{\"count\":4,\"cpus\":1}],\"external_load\":{"
		"\"step\":7,\"values\":[0,0.75,0.25,0.5,1,0],"
		"\"repeat\":true}}",
		oracle_jobs, 8);
}
END_TEST

/* Tasks of one length, the regime of the task-granularity cuts (the
 * compulsory part, task counts on a grid, whole jobs per tight set): on
 * random small instances (2-4 nodes, 3-8 jobs of 1-7 tasks of 10 s,
 * windows of 1-3.5 tasks) no policy meets more than the bound, and the
 * cuts bite on some of them (the bound below the LP's floor). */
static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

START_TEST(policies_never_beat_the_oracle_with_equal_tasks)
{
	static const char *pols[] = {"fifo", "edf",      "fair",  "slurm",
				     "aria", "adaptive", "triage"};
	static const int gaps[] = {0, 1, 2, 3, 5, 8};
	static const int windows[] = {10, 12, 15, 18, 20, 22, 25, 30, 35};
	uint64_t x = 0x9e3779b97f4a7c15u;
	uint32_t bitten = 0, layered = 0;

	for (int inst = 0; inst < 60; inst++) {
		char cluster[128], w[4096];
		size_t len;
		int njobs, t = 0;

		snprintf(cluster, sizeof(cluster),
			 "{\"nodes\":[{\"count\":%d,\"cpus\":1}]}",
			 2 + (int) (xorshift(&x) % 3));
		njobs = 3 + (int) (xorshift(&x) % 6);
		len = (size_t) snprintf(w, sizeof(w), "{\"jobs\":[");
		for (int j = 0; j < njobs; j++) {
			int rel, maps;

			t += gaps[xorshift(&x) % 6];
			rel = windows[xorshift(&x) % 9];
			maps = 1 + (int) (xorshift(&x) % 7);
			len += (size_t) snprintf(
				w + len, sizeof(w) - len,
				"%s{\"arrival\":%d,\"relative_deadline\":%d,"
				"\"maps\":%d,\"map_length\":10}",
				j ? "," : "", t, rel, maps);
		}
		snprintf(w + len, sizeof(w) - len, "]}");
		for (size_t p = 0; p < sizeof(pols) / sizeof(*pols); p++) {
			struct run r;
			struct sim_summary s;
			struct dl_oracle_result o;
			struct dl_tardiness_layers l;
			char err[256] = "";
			double lb, few;

			load(&r, cluster, w);
			go(&r, pols[p], 1);
			ck_assert_int_eq(sim_summarize(r.e, &s), 0);
			ck_assert_int_eq(sim_oracle_layers(r.e, &o, &lb, &l,
							   err, sizeof(err)),
					 0);
			ck_assert_msg(s.cancelled || s.unfinished ||
					      s.arrived_lateness_s >= lb - 1e-6,
				      "instance %d %s late %g s < bound %g s",
				      inst, pols[p], s.arrived_lateness_s, lb);
			/* at its number of late jobs, with the layers */
			few = dl_tardiness_at_most(&l, lb, s.arrived_late_jobs);
			ck_assert_msg(s.cancelled || s.unfinished ||
					      s.arrived_lateness_s >=
						      few - 1e-6,
				      "instance %d %s: %u late, %g s < %g s",
				      inst, pols[p], s.arrived_late_jobs,
				      s.arrived_lateness_s, few);
			layered += few > lb + 1e-6;
			dl_tardiness_layers_free(&l);
			ck_assert_msg(s.met <= o.bound,
				      "instance %d %s met %u > bound %u: %s",
				      inst, pols[p], s.met, o.bound, w);
			if (!p && o.bound < floor(o.fraction + 1e-6))
				bitten++;
			done(&r);
		}
	}
	ck_assert_uint_gt(bitten, 0);
	/* and the layers raised the lateness bound at some runs' number of
	 * late jobs (68 of these runs when written) */
	ck_assert_uint_gt(layered, 0);
}
END_TEST

/* Tasks that started before the external load took their nodes keep
 * running: four 20 s tasks start at 1 on four nodes, three of the nodes
 * are taken from 10 on, and the job still ends at 21, on time.  A bound
 * that counted only the nodes available (4 x 10 + 1 x 11 CPU-seconds by
 * 21 for 80 of work) would say it cannot be met. */
START_TEST(oracle_counts_tasks_running_past_the_external_load)
{
	struct run r;
	struct sim_summary s;
	struct dl_oracle_result o;
	char err[256] = "";

	load(&r,
	     "{\"nodes\":[{\"count\":4,\"cpus\":1}],\"external_load\":{"
	     "\"step\":10,\"values\":[0,0.75,0.75,0.75,0.75,0.75]}}",
	     "{\"jobs\":[{\"arrival\":0,\"relative_deadline\":21,\"maps\":4,"
	     "\"map_length\":20}]}");
	go(&r, "fifo", 1);
	ck_assert_int_eq(sim_summarize(r.e, &s), 0);
	ck_assert_double_eq_tol(r.e->jobs[0].finish, 21, 1e-9);
	ck_assert_uint_eq(s.met, 1);
	ck_assert_int_eq(sim_oracle(r.e, &o, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.impossible, 0);
	ck_assert_uint_eq(o.bound, 1);
	done(&r);
}
END_TEST

/* The valid cut in the engine's model: half the nodes held for the first
 * 100 s.  Three 10 s tasks on the two nodes left take two waves: due at 20
 * the job is exactly feasible, due at 19 it is not -- although the fluid
 * relaxation fits its 30 CPU-seconds in 2 x 19.  Arriving at 95, two tasks
 * start at once and the third at 100 when the nodes come back: 110. */
START_TEST(oracle_writes_off_jobs_impossible_alone)
{
	struct run r;
	struct dl_oracle_result o;
	char err[256] = "";

	load(&r,
	     "{\"nodes\":[{\"count\":4,\"cpus\":1}],\"external_load\":{"
	     "\"step\":100,\"values\":[0.5,0]}}",
	     "{\"jobs\":["
	     "{\"arrival\":0,\"relative_deadline\":20,\"maps\":3,\"map_"
	     "length\":10},"
	     "{\"arrival\":0,\"relative_deadline\":19,\"maps\":3,\"map_"
	     "length\":10},"
	     "{\"arrival\":95,\"relative_deadline\":15,\"maps\":3,\"map_"
	     "length\":10},"
	     "{\"arrival\":95,\"relative_deadline\":14,\"maps\":3,\"map_"
	     "length\":10}]}");
	start(&r, sim_policy_find("edf"), 1);
	ck_assert_int_eq(sim_oracle(r.e, &o, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.counted, 4);
	ck_assert_uint_eq(o.impossible, 2);
	ck_assert_uint_eq(o.impossible_alone, 2);
	ck_assert_uint_eq(o.bound, 2);
	done(&r);
}
END_TEST

START_TEST(window_counts_jobs_inside_only)
{
	struct run r;
	struct sim_summary s;

	load(&r, four_nodes,
	     "{\"stats_window\":[100,200],\"jobs\":["
	     "{\"arrival\":0,\"relative_deadline\":50,\"maps\":1,\"map_"
	     "length\":10},"
	     "{\"arrival\":150,\"relative_deadline\":50,\"maps\":1,\"map_"
	     "length\":10},"
	     "{\"arrival\":300,\"relative_deadline\":50,\"maps\":1,\"map_"
	     "length\":10}]}");
	go(&r, "fifo", 1);
	sim_summarize(r.e, &s);
	ck_assert_uint_eq(s.jobs, 1);
	ck_assert_uint_eq(s.met, 1);
	ck_assert(s.has_window);
	done(&r);
}
END_TEST

START_TEST(deadline_factor_uses_isolated_time)
{
	struct run r;

	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":10,\"deadline_factor\":1.5,\"maps\":8,"
	     "\"map_length\":10}]}");
	go(&r, "edf", 1);
	ck_assert_double_eq_tol(r.e->jobs[0].deadline, 10 + 1.5 * 20, 1e-9);
	done(&r);
}
END_TEST

/* A job's begin time (sbatch --begin): no task starts before it, the CPUs
 * go to others meanwhile, the plan sees the tasks deferred as Slurm's
 * snapshot shows them (the job waits outside the plan until then), a deadline
 * factor counts from it, and the oracle's alone cut starts there.  A begin at
 * or after the deadline is refused, as sbatch refuses it. */
START_TEST(begin_time_defers_the_tasks)
{
	static const char bad[] = "{\"jobs\":[{\"arrival\":0,\"begin\":50,"
				  "\"deadline\":50,\"maps\":2,"
				  "\"map_length\":10}]}";
	static const char *w =
		"{\"jobs\":[{\"arrival\":0,\"begin\":103,"
		"\"deadline_factor\":2,\"maps\":8,\"map_length\":10,"
		"\"map_prior\":{\"mean\":10,\"p90\":10}},"
		"{\"arrival\":0,\"maps\":4,\"map_length\":50}]}";
	struct sim_workload_spec ws = {0};
	struct sim_options o = {.seed = 1, .horizon = 50};
	struct dl_oracle_result orc;
	const struct dl_plan_job *pj = NULL;
	json_object *doc, *v;
	double lb;
	struct run r;
	char err[256] = "";

	load(&r, four_nodes, w);
	go(&r, "triage", 1);
	ck_assert_double_eq_tol(r.e->jobs[0].deadline, 103 + 2 * 20, 1e-9);
	ck_assert_double_ge(r.e->jobs[0].first_start, 103);
	/* the begin time's replan starts it (ReplanDelay 1 s), not the
	 * next plan tick (110) */
	ck_assert_double_le(r.e->jobs[0].first_start, 103 + 1 + 1e-9);
	for (uint32_t k = 0; k < 8; k++)
		ck_assert_double_ge(r.e->jobs[0].task[0][k].start, 103);
	ck_assert(sim_job_met(&r.e->jobs[0]));
	/* the other job had the CPUs at once */
	ck_assert_double_eq_tol(r.e->jobs[1].first_start, 1, 1e-9);
	ck_assert_uint_eq(r.e->jobs[1].max_running, 4);
	/* the writer keeps it */
	doc = sim_workload_to_json(&r.ws, &r.cs);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(
		json_object_array_get_idx(json_object_object_get(doc, "jobs"),
					  0),
		"begin", &v));
	ck_assert_double_eq(json_object_get_double(v), 103);
	json_object_put(doc);
	done(&r);

	/* halfway to the begin time it waits outside the plan, judged
	 * from its begin time (policy/policy.c) */
	load(&r, four_nodes, w);
	r.e = sim_engine_new(&r.cs, &r.ws, sim_policy_find("triage"), &r.cfg,
			     &o, err, sizeof(err));
	ck_assert_msg(r.e != NULL, "%s", err);
	ck_assert_msg(sim_engine_run(r.e, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_lt(r.e->jobs[0].first_start, 0);
	ck_assert_uint_eq(r.e->jobs[0].dj->phase[DL_MAP].deferred, 8);
	ck_assert_ptr_nonnull(r.e->plan);
	for (uint32_t k = 0; k < r.e->plan->njobs; k++)
		if (r.e->plan->jobs[k].job_id == 1)
			pj = &r.e->plan->jobs[k];
	ck_assert_ptr_nonnull(pj);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_WAITING);
	ck_assert(!pj->managed);
	ck_assert_msg(strstr(pj->explain, "waiting for its begin time, in 53s"),
		      "%s", pj->explain);
	done(&r);

	/* due 10 s after its begin time, 20 s of work on 4 CPUs: impossible
	 * alone from the begin time, though not from the arrival */
	load(&r, four_nodes,
	     "{\"jobs\":[{\"arrival\":0,\"begin\":100,\"deadline\":110,"
	     "\"maps\":8,\"map_length\":10}]}");
	go(&r, "edf", 1);
	ck_assert(!sim_job_met(&r.e->jobs[0]));
	ck_assert_int_eq(sim_oracle(r.e, &orc, &lb, err, sizeof(err)), 0);
	ck_assert_uint_eq(orc.impossible_alone, 1);
	ck_assert_uint_eq(orc.bound, 0);
	done(&r);

	/* two jobs submitted before the statistics window, their begin
	 * times in it, and one submitted in it that begins after it: the
	 * oracle and the summary's arrived_* count the first two (by
	 * submission it would be the third alone) */
	load(&r, four_nodes,
	     "{\"stats_window\":[100,200],\"jobs\":["
	     "{\"arrival\":0,\"begin\":150,\"deadline\":400,\"maps\":4,"
	     "\"map_length\":10},"
	     "{\"arrival\":50,\"begin\":180,\"deadline\":400,\"maps\":4,"
	     "\"map_length\":10},"
	     "{\"arrival\":120,\"begin\":250,\"deadline\":400,"
	     "\"maps\":4,\"map_length\":10}]}");
	go(&r, "edf", 1);
	ck_assert_int_eq(sim_oracle(r.e, &orc, &lb, err, sizeof(err)), 0);
	ck_assert_uint_eq(orc.counted, 2);
	{
		struct sim_summary sum;

		ck_assert_int_eq(sim_summarize(r.e, &sum), 0);
		ck_assert_uint_eq(sum.arrived_deadline_jobs, 2);
	}
	done(&r);

	load(&r, four_nodes, "{\"jobs\":[]}");
	ck_assert_int_eq(sim_workload_parse(bad, strlen(bad), "w", &r.cs, &ws,
					    err, sizeof(err)),
			 EINVAL);
	ck_assert_msg(strstr(err, "begin"), "%s", err);
	sim_workload_spec_free(&ws);
	done(&r);
}
END_TEST

/* The workload with the run's draws fixed in it (deadline-sim draw) runs
 * the same under any seed: same lengths, limits, deadlines and finishes. */
START_TEST(fixed_workload_replays_the_draws)
{
	const char *w = "{\"jobs\":["
			"{\"arrival\":0,\"deadline_factor\":1.5,\"maps\":9,"
			"\"reduces\":2,\"map_length\":{\"dist\":\"lognormal\","
			"\"mean\":20,\"sd\":8},\"reduce_length\":{\"dist\":"
			"\"uniform\",\"min\":30,\"max\":90}},"
			"{\"arrival\":4,\"maps\":5,\"map_length\":{\"dist\":"
			"\"exponential\",\"mean\":15}}]}";
	struct run a, b;
	struct sim_workload_spec fixed = {0};
	json_object *doc;
	const char *text;
	char err[512] = "", *ca, *cb;

	load(&a, four_nodes, w);
	go(&a, "triage", 7);
	/* a second copy of the workload takes the draws of run a */
	ck_assert_int_eq(sim_workload_parse(w, strlen(w), "w", &a.cs, &fixed,
					    err, sizeof(err)),
			 0);
	ck_assert_int_eq(sim_engine_fix_workload(a.e, &fixed), 0);
	ck_assert_ptr_nonnull(fixed.jobs[0].phase[0].lengths);
	ck_assert_ptr_nonnull(fixed.jobs[0].phase[1].lengths);
	ck_assert_ptr_null(fixed.jobs[1].phase[1].lengths);
	ck_assert_double_eq(fixed.jobs[0].deadline_factor, 0);
	ck_assert_double_eq_tol(fixed.jobs[0].deadline, a.e->jobs[0].deadline,
				1e-9);
	ck_assert_double_eq_tol(fixed.jobs[0].deadline,
				1.5 * a.e->jobs[0].isolated, 1e-9);
	ck_assert_double_eq(fixed.jobs[1].deadline, 0);
	for (uint32_t i = 0; i < 9; i++)
		ck_assert_double_eq(fixed.jobs[0].phase[0].lengths[i],
				    a.e->jobs[0].base[0][i]);
	ck_assert_double_eq(fixed.jobs[0].phase[1].time_limit,
			    a.e->jobs[0].time_limit[1]);
	/* through the JSON writer and parser, as deadline-sim draw does */
	doc = sim_workload_to_json(&fixed, &a.cs);
	ck_assert_ptr_nonnull(doc);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	memset(&b, 0, sizeof(b));
	b.cfg = fx_config();
	ck_assert_int_eq(sim_cluster_parse(four_nodes, strlen(four_nodes), "c",
					   NULL, &b.cs, err, sizeof(err)),
			 0);
	ck_assert_msg(sim_workload_parse(text, strlen(text), "fixed", &b.cs,
					 &b.ws, err, sizeof(err)) == 0,
		      "fixed workload: %s", err);
	json_object_put(doc);
	go(&b, "triage", 99);
	ca = csv_of(a.e);
	cb = csv_of(b.e);
	ck_assert_str_eq(ca, cb);
	free(ca);
	free(cb);
	sim_workload_spec_free(&fixed);
	done(&a);
	done(&b);
}
END_TEST

START_TEST(lengths_depend_on_node_speed_and_remote_reads)
{
	struct run r;

	load(&r,
	     "{\"nodes\":[{\"name\":\"fast\",\"cpus\":1,\"speed\":2},{\"name\":"
	     "\"slow\",\"cpus\":1,\"speed\":0.5}]}",
	     "{\"jobs\":[{\"arrival\":0,\"maps\":2,\"map_length\":10,"
	     "\"remote\":{\"prob\":1,\"factor\":3}}]}");
	start(&r, sim_policy_find("fifo"), 1);
	ck_assert_double_eq_tol(sim_task_length(r.e, 0, DL_MAP, 0, 0), 15,
				1e-9);
	ck_assert_double_eq_tol(sim_task_length(r.e, 0, DL_MAP, 0, 1), 60,
				1e-9);
	/* a user's time limit covers the slowest case: 60 s -> 1 min */
	ck_assert_double_eq_tol(r.e->jobs[0].time_limit[DL_MAP], 60, 1e-9);
	done(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_engine");
	TCase *tc = tcase_create("engine");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, lone_job_runs_in_isolated_time);
	tcase_add_test(tc, plan_ticks_always_advance);
	tcase_add_test(tc, deterministic_for_a_seed);
	tcase_add_test(tc, draws_keyed_by_the_job);
	tcase_add_test(tc, throttle_is_honoured);
	tcase_add_test(tc, own_limit_is_honoured);
	tcase_add_test(tc, placement_is_honoured);
	tcase_add_test(tc, stall_is_detected);
	tcase_add_test(tc, typed_slots_and_reduce_order);
	tcase_add_test(tc, external_load_takes_nodes);
	tcase_add_test(tc, external_load_is_the_reverse_forecast);
	tcase_add_test(tc, slurm_cancels_at_the_hard_deadline);
	tcase_add_test(tc, time_limit_kills_and_fails);
	tcase_add_test(tc, task_lengths_modes);
	tcase_add_test(tc, easy_backfill_respects_the_reservation);
	tcase_add_test(tc, no_reservation_while_the_cluster_is_full);
	tcase_add_test(tc, first_fit_takes_the_lowest_free_node);
	tcase_add_test(tc, admission_hooks_and_metrics);
	tcase_add_test(tc, may_start_is_asked_before_each_start);
	tcase_add_test(tc, lateness_and_bounded_slowdown);
	tcase_add_test(tc, bounded_slowdown_formula);
	tcase_add_test(tc, policies_never_beat_the_oracle);
	tcase_add_test(tc, policies_never_beat_the_oracle_with_own_limits);
	tcase_add_test(tc, policies_never_beat_the_oracle_under_external_load);
	tcase_add_test(tc, policies_never_beat_the_oracle_with_equal_tasks);
	tcase_add_test(tc, oracle_counts_tasks_running_past_the_external_load);
	tcase_add_test(tc, oracle_writes_off_jobs_impossible_alone);
	tcase_add_test(tc, window_counts_jobs_inside_only);
	tcase_add_test(tc, deadline_factor_uses_isolated_time);
	tcase_add_test(tc, begin_time_defers_the_tasks);
	tcase_add_test(tc, fixed_workload_replays_the_draws);
	tcase_add_test(tc, task_overhead_holds_the_slot);
	tcase_add_test(tc, task_overhead_drawn_per_task);
	tcase_add_test(tc, unplanned_arrival_is_slurms_newest);
	tcase_add_test(tc, plans_see_work_without_deadline_waiting);
	tcase_add_test(tc, plans_see_work_the_cluster_keeps_waiting);
	tcase_add_test(tc, slurm_passes_follow_batch_sched_delay);
	tcase_add_test(tc, lengths_depend_on_node_speed_and_remote_reads);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
