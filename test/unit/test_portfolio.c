/*
 * test_portfolio.c - the portfolio's parts (issue 16): the score of a
 * simulated run (POSUM's weighted sum: missed deadlines, tardiness,
 * bounded slowdown), the switching rule with hysteresis (margin, minimum
 * dwell, budget, unscored current), and a round over the engine: it ranks
 * policies by what they do, is deterministic for a seed, samples task
 * lengths, and gives up at its time budget.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/portfolio/choose.h"
#include "common/plan/plan_json.h"
#include "common/policy/policy.h"
#include "common/policy/reserve.h"
#include "common/portfolio/forecast.h"
#include "common/portfolio/future.h"
#include "common/portfolio/portfolio.h"
#include "common/portfolio/round.h"
#include "common/simulate/core_policy.h"
#include "common/simulate/engine.h"
#include "common/portfolio/score.h"
#include "fixtures.h"
#include "sim/spec.h"

static const struct dl_pf_weights unit_weights = {1, 1, 1};

/* A plan cycle's input at now = 1000 */
static void input_at_1000(struct dl_policy_input *in, struct dl_cluster *cl,
			  struct dl_job **jobs, uint32_t njobs,
			  struct dl_config *cfg)
{
	memset(in, 0, sizeof(*in));
	in->cluster = cl;
	in->jobs = jobs;
	in->njobs = njobs;
	in->cfg = cfg;
	in->now = 1000;
}

START_TEST(score_worked_example)
{
	struct dl_pf_tally t;
	struct dl_pf_score s;

	memset(&t, 0, sizeof(t));
	/* four jobs with a deadline: on time, 60 s late, 180 s late (both
	 * missed) and unfinished at the end (1000) with deadline 940 */
	dl_pf_tally_add(&t, 0, 100, true, 90, 50, 1000);
	dl_pf_tally_add(&t, 0, 100, false, 160, 50, 1000);
	dl_pf_tally_add(&t, 0, 100, false, 280, 50, 1000);
	dl_pf_tally_add(&t, 0, 940, false, INFINITY, 50, 1000);
	/* without a deadline: 200 s for 50 s alone (slowdown 4), 5 s for a
	 * 2 s job (floored at 10 s: 1), unfinished: (1000 - 600) / 100 */
	dl_pf_tally_add(&t, 0, 0, false, 200, 50, 1000);
	dl_pf_tally_add(&t, 10, 0, false, 15, 2, 1000);
	dl_pf_tally_add(&t, 600, 0, false, INFINITY, 100, 1000);
	ck_assert_uint_eq(t.deadline_jobs, 4);
	ck_assert_uint_eq(t.missed, 3);
	ck_assert_double_eq_tol(t.tardiness_s, 60 + 180 + 60, 1e-9);
	dl_pf_score_of(&t, &unit_weights, &s);
	ck_assert_double_eq_tol(s.missed_pct, 75, 1e-9);
	ck_assert_double_eq_tol(s.tardiness_min, 300.0 / 4 / 60, 1e-9);
	ck_assert_double_eq_tol(s.bsld, (4 + 1 + 4) / 3.0, 1e-9);
	ck_assert_double_eq_tol(s.total, 75 + 1.25 + 2, 1e-9);
	/* the weights scale each part; NaN and negative weights count 0 */
	struct dl_pf_weights w = {0.5, 4, NAN};
	dl_pf_score_of(&t, &w, &s);
	ck_assert_double_eq_tol(s.total, 37.5 + 5, 1e-9);
	w.slowdown = -3;
	dl_pf_score_of(&t, &w, &s);
	ck_assert_double_eq_tol(s.total, 37.5 + 5, 1e-9);
}
END_TEST

START_TEST(score_degenerate)
{
	struct dl_pf_tally t;
	struct dl_pf_score s;

	memset(&t, 0, sizeof(t));
	dl_pf_score_of(&t, &unit_weights, &s);
	ck_assert_double_eq(s.total, 0);
	ck_assert_double_eq(s.bsld, 1);
	dl_pf_score_of(NULL, &unit_weights, &s);
	ck_assert_double_eq(s.total, 0);
	dl_pf_tally_add(NULL, 0, 1, true, 1, 1, 1);
	/* bounded slowdown: never below 1, floored isolated time */
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 130, 2), 3, 1e-12);
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 130, 15), 2, 1e-12);
	ck_assert_double_eq_tol(dl_bounded_slowdown(100, 105, 5), 1, 1e-12);
}
END_TEST

static void result(struct dl_pf_round *r, enum dl_policy p, double total)
{
	struct dl_pf_result *x = &r->r[r->n++];

	memset(x, 0, sizeof(*x));
	x->policy = p;
	x->scored = true;
	x->score.total = total;
}

START_TEST(hysteresis)
{
	struct dl_pf_round r;
	struct dl_pf_choice c;

	memset(&r, 0, sizeof(r));
	result(&r, DL_POLICY_TRIAGE, 10);
	result(&r, DL_POLICY_EDF, 7);
	result(&r, DL_POLICY_ADAPTIVE, 7);
	/* better by 3 and run long enough: switch, to the first of equals */
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 300, 1, &c);
	ck_assert(c.switched);
	ck_assert_int_eq(c.reason, DL_PF_SWITCH);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
	ck_assert_double_eq_tol(c.gain, 3, 1e-12);
	ck_assert_ptr_nonnull(strstr(c.why, "triage -> edf"));
	/* too recent */
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 299, 300, 1, &c);
	ck_assert(!c.switched);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_DWELL);
	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	ck_assert_int_eq(c.best, DL_POLICY_EDF);
	/* not better by the margin; exactly the margin switches */
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 300, 3.5, &c);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_MARGIN);
	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 300, 3, &c);
	ck_assert(c.switched);
	/* a tie with the best keeps the current one, whatever the order */
	dl_pf_choose(&r, DL_POLICY_ADAPTIVE, 600, 0, 0, &c);
	ck_assert(!c.switched);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_BEST);
	ck_assert_int_eq(c.policy, DL_POLICY_ADAPTIVE);
	/* current not scored: the best at once, dwell or not */
	r.r[0].scored = false;
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 0, 300, 100, &c);
	ck_assert(c.switched);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
	dl_pf_choose(&r, DL_POLICY_RAS, 0, 300, 100, &c);
	ck_assert(c.switched);
	/* nothing scored, over budget, no round: keep */
	r.r[1].scored = r.r[2].scored = false;
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 0, &c);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_UNSCORED);
	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	r.r[1].scored = true;
	r.over_budget = true;
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 0, &c);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_BUDGET);
	ck_assert(!c.switched);
	ck_assert_ptr_nonnull(strstr(c.why, "budget"));
	dl_pf_choose(NULL, DL_POLICY_EDF, 600, 0, 0, &c);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_UNSCORED);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
	ck_assert_str_eq(dl_pf_reason_name(DL_PF_KEEP_DWELL), "dwell");
}
END_TEST

/* One CPU.  Job A (due 50) has 100 s of work: it cannot make it even
 * alone.  B (due 60) has 30 s.  EDF runs A first and both miss; triage
 * gives A up and B makes it.  Lengths vary (lognormal) around the
 * priors, so samples differ. */
static const char *one_cpu = "{\"nodes\":[{\"name\":\"n\",\"count\":1,"
			     "\"cpus\":1}]}";
static const char *overload =
	"{\"jobs\":["
	"{\"arrival\":0,\"deadline\":50,\"maps\":10,\"map_length\":{\"dist\":"
	"\"lognormal\",\"mean\":10,\"sd\":2},\"map_prior\":{\"mean\":10,"
	"\"p90\":13}},"
	"{\"arrival\":0,\"deadline\":60,\"maps\":3,\"map_length\":{\"dist\":"
	"\"lognormal\",\"mean\":8,\"sd\":2},\"map_prior\":{\"mean\":8,"
	"\"p90\":11}},"
	"{\"arrival\":0,\"maps\":2,\"map_length\":5}]}";

struct specs {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct dl_config cfg;
};

static void specs_load(struct specs *s)
{
	char err[512] = "";

	memset(s, 0, sizeof(*s));
	ck_assert_msg(sim_cluster_parse(one_cpu, strlen(one_cpu), "c", NULL,
					&s->cs, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(sim_workload_parse(overload, strlen(overload), "w",
					 &s->cs, &s->ws, err, sizeof(err)) == 0,
		      "%s", err);
	s->cfg = fx_config();
}

static void specs_free(struct specs *s)
{
	sim_workload_spec_free(&s->ws);
	sim_cluster_spec_free(&s->cs);
	dl_config_free(&s->cfg);
}

static const enum dl_policy cands[] = {DL_POLICY_TRIAGE, DL_POLICY_EDF,
				       DL_POLICY_ADAPTIVE};

static struct dl_pf_params params(uint64_t seed)
{
	struct dl_pf_params p = {.samples = 4,
				 .seed = seed,
				 .budget_s = 60,
				 .weights = {1, 0.1, 0.1}};
	return p;
}

START_TEST(round_ranks_by_behaviour)
{
	struct specs s;
	struct dl_pf_round r;
	struct dl_pf_params p = params(7);
	struct dl_pf_choice c;
	char err[256] = "";

	specs_load(&s);
	ck_assert_msg(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
				      err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert(!r.over_budget);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.runs, 12);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_msg(r.r[i].scored, "%s: %s",
			      dl_policy_name(r.r[i].policy), r.r[i].err);
	/* triage: A missed, B met; EDF: both missed, in every sample */
	ck_assert_double_eq_tol(r.r[0].score.missed_pct, 50, 1e-9);
	ck_assert_double_eq_tol(r.r[1].score.missed_pct, 100, 1e-9);
	ck_assert(r.r[0].score.total < r.r[1].score.total);
	ck_assert(r.r[0].worst_total >= r.r[0].score.total);
	/* a horizon of 20 s: nobody has finished, and no deadline has
	 * passed, so nothing counts as missed yet */
	p.horizon_s = 20;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 0);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_double_eq(r.r[i].score.missed_pct, 0);
	/* 55 s: A's deadline has passed under every policy */
	p.horizon_s = 55;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 0);
	ck_assert_double_eq_tol(r.r[0].score.missed_pct, 50, 1e-9);
	ck_assert_double_eq_tol(r.r[1].score.missed_pct, 50, 1e-9);
	p.horizon_s = 0;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 0);
	/* from EDF, run long enough: switch to triage */
	dl_pf_choose(&r, DL_POLICY_EDF, 3600, 600, 1, &c);
	ck_assert(c.switched);
	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	specs_free(&s);
}
END_TEST

START_TEST(round_is_deterministic)
{
	struct specs s;
	struct dl_pf_round a, b, other;
	struct dl_pf_params p = params(11);
	char err[256] = "";
	bool differs = false;

	specs_load(&s);
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &a,
					 err, sizeof(err)),
			 0);
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &b,
					 err, sizeof(err)),
			 0);
	for (uint32_t i = 0; i < 3; i++) {
		ck_assert(memcmp(&a.r[i].score, &b.r[i].score,
				 sizeof(a.r[i].score)) == 0);
		ck_assert(a.r[i].worst_total == b.r[i].worst_total);
	}
	/* another seed draws other lengths: the tardiness moves */
	p.seed = 12;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p,
					 &other, err, sizeof(err)),
			 0);
	for (uint32_t i = 0; i < 3; i++)
		differs |= a.r[i].score.tardiness_min !=
			   other.r[i].score.tardiness_min;
	ck_assert(differs);
	/* one sample is not the mean of four: the samples differ */
	p.seed = 11;
	p.samples = 1;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p,
					 &other, err, sizeof(err)),
			 0);
	ck_assert(other.r[1].score.tardiness_min != a.r[1].score.tardiness_min);
	specs_free(&s);
}
END_TEST

START_TEST(round_budget_and_arguments)
{
	struct specs s;
	struct dl_pf_round r;
	struct dl_pf_params p = params(3);
	struct dl_pf_choice c;
	enum dl_policy twice[] = {DL_POLICY_EDF, DL_POLICY_EDF};
	enum dl_policy rt[] = {DL_POLICY_REALTIME};
	char err[256] = "";

	specs_load(&s);
	/* a budget no run can meet: over budget, nothing scored, kept */
	p.budget_s = 1e-9;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 0);
	ck_assert(r.over_budget);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert(!r.r[i].scored);
	dl_pf_choose(&r, DL_POLICY_EDF, 3600, 0, 0, &c);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_BUDGET);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
	/* bad arguments: a clear error, nothing run */
	p = params(3);
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, twice, 2, &p, &r,
					 err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "twice"));
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, rt, 1, &p, &r,
					 err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 0, &p, &r,
					 err, sizeof(err)),
			 EINVAL);
	p.samples = 0;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 EINVAL);
	p = params(3);
	p.budget_s = NAN;
	ck_assert_int_eq(dl_pf_run_round(&s.cs, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_pf_run_round(NULL, &s.ws, &s.cfg, cands, 3, &p, &r,
					 err, sizeof(err)),
			 EINVAL);
	specs_free(&s);
}
END_TEST

/* Two nodes of 2 CPUs, one CPU of n2 held by work the plan does not
 * manage; job 10 (due at 1100): 6 tasks, 2 done in 20 s each, 2 running on
 * n1 since 990, 2 pending. */
/* A future run to its end by triage, as a round runs it (seed 5). */
static struct sim_engine *run_future(const struct sim_cluster_spec *cs,
				     const struct sim_workload_spec *ws,
				     const struct dl_config *cfg)
{
	struct sim_options opt = {.seed = 5};
	struct sim_engine *e;
	char err[256] = "";

	e = sim_engine_new(cs, ws, sim_core_policy(DL_POLICY_TRIAGE), cfg, &opt,
			   err, sizeof(err));
	ck_assert_msg(e != NULL, "%s", err);
	ck_assert_msg(sim_engine_run(e, err, sizeof(err)) == 0, "%s", err);
	return e;
}

static struct dl_job *snapshot_with_job10(struct dl_cluster *cl)
{
	struct dl_job *j;

	fx_cluster(cl, 2, 2, 0);
	cl->nodes[1].cpus_other = 1;
	j = fx_job(10, 6, 900, 1100);
	fx_done(j, DL_MAP, 2, 20, DL_POOL_REGULAR);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(dl_phase_add_running(&j->phase[DL_MAP], 990, 0,
						      DL_POOL_REGULAR),
				 0);
	return j;
}

/* A plan cycle's snapshot at now = 1000 (snapshot_with_job10); job 11: no
 * task left. */
START_TEST(future_from_snapshot)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[2];
	struct dl_policy_input in;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct sim_options opt = {.seed = 5};
	struct sim_engine *e;
	char err[256] = "";

	jobs[0] = snapshot_with_job10(&cl);
	jobs[1] = fx_job(11, 1, 900, 1100);
	fx_done(jobs[1], DL_MAP, 1, 20, DL_POOL_REGULAR);
	input_at_1000(&in, &cl, jobs, 2, &cfg);
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(cs.nnodes, 2);
	ck_assert_uint_eq(cs.nodes[0].cpus, 2);
	ck_assert_uint_eq(cs.nodes[1].cpus, 1);
	ck_assert_uint_eq(ws.njobs, 1);
	ck_assert_str_eq(ws.jobs[0].name, "10");
	/* the run starts at the oldest running task's elapsed time: 10 */
	ck_assert_double_eq_tol(ws.jobs[0].arrival, 10, 1e-9);
	ck_assert_double_eq_tol(ws.jobs[0].deadline, 110, 1e-9);
	ck_assert_uint_eq(ws.jobs[0].phase[0].tasks, 4);
	ck_assert_uint_eq(ws.jobs[0].phase[0].nrunning, 2);
	ck_assert_uint_eq(ws.jobs[0].phase[0].running_node[1], 0);
	ck_assert_double_eq_tol(ws.jobs[0].phase[0].running_elapsed[0], 10,
				1e-9);
	/* equal completions: no spread, the mean itself */
	ck_assert_int_eq(ws.jobs[0].phase[0].len.kind, SIM_DIST_CONST);
	ck_assert_double_eq_tol(ws.jobs[0].phase[0].len.a, 20, 1e-9);
	ck_assert_double_eq_tol(ws.jobs[0].phase[0].prior_mean, 20, 1e-9);

	/* the engine starts the running tasks where they run, with their
	 * start (0): they end 10 s in; the pending ones go to free CPUs */
	e = run_future(&cs, &ws, &cfg);
	for (int k = 0; k < 2; k++) {
		ck_assert_double_eq_tol(e->jobs[0].task[0][k].start, 0, 1e-9);
		ck_assert_double_eq_tol(e->jobs[0].task[0][k].end, 20, 1e-9);
		ck_assert_uint_eq(e->jobs[0].task[0][k].node, 0);
	}
	ck_assert_double_eq_tol(e->jobs[0].first_start, 0, 1e-9);
	ck_assert_uint_eq(e->jobs[0].ended[0], 4);
	ck_assert(sim_job_met(&e->jobs[0]));
	sim_engine_free(e);

	/* a running task on no node of the cluster: refused, clearly */
	ws.jobs[0].phase[0].running_node[0] = 7;
	ck_assert_ptr_null(sim_engine_new(&cs, &ws,
					  sim_core_policy(DL_POLICY_TRIAGE),
					  &cfg, &opt, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "running tasks"));
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	ck_assert_int_eq(dl_pf_future(NULL, 60, &cs, &ws, err, sizeof(err)),
			 EINVAL);
	dl_job_free(jobs[0]);
	dl_job_free(jobs[1]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* A job a user or an admin holds is in no round (no policy plans it), and
 * its running tasks keep their CPUs there: job 10 (snapshot_with_job10)
 * holds its 2 pending tasks and runs 2 on n1, so a round's n1 has none for
 * job 12 (before: both of n1's CPUs were the candidates'). */
START_TEST(future_keeps_held_jobs_cpus)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[2];
	struct dl_policy_input in;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	char err[256] = "";

	jobs[0] = snapshot_with_job10(&cl);
	jobs[0]->phase[DL_MAP].held = 2;
	jobs[1] = fx_job(12, 4, 950, 1200);
	input_at_1000(&in, &cl, jobs, 2, &cfg);
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(ws.njobs, 1);
	ck_assert_str_eq(ws.jobs[0].name, "12");
	ck_assert_uint_eq(cs.nnodes, 2);
	ck_assert_uint_eq(cs.nodes[0].cpus, 0);
	ck_assert_uint_eq(cs.nodes[1].cpus, 1);
	/* the snapshot itself is left as it was */
	ck_assert_uint_eq(cl.nodes[0].cpus_other, 0);
	ck_assert_uint_eq(cl.nheld, 0);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);

	/* released: in the round again, on both of n1's CPUs */
	jobs[0]->phase[DL_MAP].held = 0;
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(ws.njobs, 2);
	ck_assert_uint_eq(cs.nodes[0].cpus, 2);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_job_free(jobs[0]);
	dl_job_free(jobs[1]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* Tasks Slurm starts no earlier than their begin time wait for it in a
 * round too: job 10's 2 pending tasks are deferred to 1030 (30 s after
 * the snapshot, 40 s into the run), so neither takes n2's free CPU before
 * then (before: one started there at once).  A begin time already past
 * defers nothing. */
START_TEST(future_keeps_begin_times)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[1];
	struct dl_policy_input in;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct sim_engine *e;
	char err[256] = "";

	jobs[0] = snapshot_with_job10(&cl);
	jobs[0]->phase[DL_MAP].deferred = 2;
	jobs[0]->phase[DL_MAP].deferred_until = 1030;
	input_at_1000(&in, &cl, jobs, 1, &cfg);
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(ws.jobs[0].phase[0].deferred, 2);
	ck_assert_double_eq_tol(ws.jobs[0].phase[0].begin, 10 + 30, 1e-9);
	e = run_future(&cs, &ws, &cfg);
	ck_assert_uint_eq(e->jobs[0].ended[0], 4);
	for (int k = 2; k < 4; k++)
		ck_assert_double_ge(e->jobs[0].task[0][k].start, 40);
	sim_engine_free(e);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);

	jobs[0]->phase[DL_MAP].deferred_until = 1000;
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(ws.jobs[0].phase[0].deferred, 0);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_job_free(jobs[0]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* The simulator's typed view (node 2n map slots, 2n+1 reduce slots) comes
 * back as its typed cluster: map and reduce slots apart, not one pool of
 * CPUs where reduce tasks take map slots (before: CPU mode, 4 nodes). */
START_TEST(future_typed_view)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[1];
	struct dl_policy_input in;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	char err[256] = "";

	fx_cluster(&cl, 4, 1, 0);
	cl.typed_slots = true;
	cl.nodes[1].cpus = 2;   /* node 0: 1 map slot, 2 reduce slots */
	cl.nodes[3].up = false; /* node 1: its reduce side down */
	jobs[0] = fx_job(10, 3, 900, 1100);
	ck_assert_int_eq(dl_phase_add_running(&jobs[0]->phase[DL_MAP], 990, 2,
					      DL_POOL_REGULAR),
			 0);
	input_at_1000(&in, &cl, jobs, 1, &cfg);
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(cs.mode, SIM_SLOTS_TYPED);
	ck_assert_uint_eq(cs.nnodes, 2);
	ck_assert_uint_eq(cs.nodes[0].map_slots, 1);
	ck_assert_uint_eq(cs.nodes[0].reduce_slots, 2);
	ck_assert_uint_eq(cs.nodes[1].map_slots, 1);
	ck_assert_uint_eq(cs.nodes[1].reduce_slots, 0);
	ck_assert_uint_eq(ws.jobs[0].partition, 0);
	/* the task on view node 2 (node 1's map side) runs on node 1 */
	ck_assert_uint_eq(ws.jobs[0].phase[0].nrunning, 1);
	ck_assert_uint_eq(ws.jobs[0].phase[0].running_node[0], 1);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_job_free(jobs[0]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* Where the snapshot saw work without a deadline waiting to start, the
 * future keeps it waiting (sim_cluster_spec.other_waiting), so triage's
 * reserve decides there as on the live cluster; typed views by the
 * engine's partition names. */
START_TEST(future_keeps_work_waiting)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[1];
	struct dl_policy_input in;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct sim_engine *e;
	char err[256] = "";

	fx_cluster(&cl, 2, 2, 0);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "gpu"), 1);
	jobs[0] = fx_job(10, 4, 900, 1100);
	fx_done(jobs[0], DL_MAP, 1, 20, DL_POOL_REGULAR);
	input_at_1000(&in, &cl, jobs, 1, &cfg);
	ck_assert_int_eq(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)), 0);
	ck_assert_uint_eq(cs.other_waiting, 0);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);

	ck_assert_int_eq(dl_partset_add(&cl.other_waiting, 1), 0);
	ck_assert_int_eq(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)), 0);
	ck_assert_uint_eq(cs.other_waiting, UINT64_C(1) << 1);
	/* the run's plans see it waiting in gpu, not in batch */
	e = run_future(&cs, &ws, &cfg);
	ck_assert(dl_partset_has(&e->view.other_waiting, 1));
	ck_assert(!dl_partset_has(&e->view.other_waiting, 0));
	sim_engine_free(e);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_cluster_free(&cl);

	/* typed: the view's "reduce" is the engine's bit 1 wherever it is
	 * listed; a partition of another name has no typed counterpart */
	ck_assert_int_eq(dl_cluster_init(&cl, 2), 0);
	cl.typed_slots = true;
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "other"), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "reduce"), 1);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "map"), 2);
	for (uint32_t n = 0; n < 2; n++) {
		ck_assert_int_eq(dl_node_set(&cl.nodes[n], n ? "r" : "m", 1, 0,
					     DL_POOL_REGULAR),
				 0);
		ck_assert_int_eq(
			dl_partset_add(&cl.nodes[n].partitions, n ? 1 : 2), 0);
	}
	ck_assert_int_eq(dl_partset_add(&cl.other_waiting, 0), 0);
	ck_assert_int_eq(dl_partset_add(&cl.other_waiting, 1), 0);
	ck_assert_int_eq(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)), 0);
	ck_assert_int_eq(cs.mode, SIM_SLOTS_TYPED);
	ck_assert_uint_eq(cs.other_waiting, UINT64_C(1) << 1);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_job_free(jobs[0]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* A drawn length past the task's time limit is the fitted tail's: the
 * round's task ends inside the limit instead of being killed (before: no
 * cap, and a job whose tasks all finished in time counted as missed). */
START_TEST(future_lengths_within_time_limit)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[1];
	struct dl_policy_input in;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct sim_options opt = {.seed = 3};
	struct sim_engine *e;
	char err[256] = "";

	fx_cluster(&cl, 1, 8, 0);
	/* 8 tasks of mean 50 s, spread 40 s, limit 60 s; due in 500 s */
	jobs[0] = fx_job(10, 8, 900, 1500);
	jobs[0]->phase[DL_MAP].prior_mean = 50;
	jobs[0]->phase[DL_MAP].prior_p90 = 50 + 1.2815515655 * 40;
	jobs[0]->phase[DL_MAP].time_limit = 60;
	input_at_1000(&in, &cl, jobs, 1, &cfg);
	ck_assert_msg(dl_pf_future(&in, 60, &cs, &ws, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(ws.jobs[0].phase[0].len.kind, SIM_DIST_LOGNORMAL);
	ck_assert(ws.jobs[0].phase[0].len.max < 60);
	ck_assert(ws.jobs[0].phase[0].len.max > 59.9);
	e = sim_engine_new(&cs, &ws, sim_core_policy(DL_POLICY_EDF), &cfg, &opt,
			   err, sizeof(err));
	ck_assert_msg(e != NULL, "%s", err);
	ck_assert_msg(sim_engine_run(e, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(e->jobs[0].dj->phase[0].failed, 0);
	ck_assert(sim_job_met(&e->jobs[0]));
	sim_engine_free(e);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_job_free(jobs[0]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* The arrival forecast: jobs seen once are recorded with their whole
 * shape, forgotten after the window, and replayed shifted forward by the
 * window (sample 0), or rotated within it (other samples). */
START_TEST(forecast_replays_recent_arrivals)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[2];
	struct dl_policy_input in;
	struct dl_pf_recent r;
	struct sim_workload_spec base, w0, w1;
	struct sim_job_spec one;
	bool rotated = false;

	memset(&r, 0, sizeof(r));
	memset(&base, 0, sizeof(base));
	memset(&one, 0, sizeof(one));
	fx_cluster(&cl, 1, 4, 0);
	jobs[0] = fx_job(10, 6, 700, 1300); /* due 600 s after arrival */
	fx_done(jobs[0], DL_MAP, 2, 20, DL_POOL_REGULAR);
	jobs[1] = fx_job(11, 3, 950, 0);
	input_at_1000(&in, &cl, jobs, 2, &cfg);
	ck_assert_int_eq(dl_pf_recent_note(&r, &in, 600, 60), 0);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.last_id, 11);
	ck_assert_uint_eq(r.jobs[0].phase[0].tasks, 6); /* all, not pending */
	ck_assert_double_eq_tol(r.jobs[0].arrival, 700, 1e-9);
	ck_assert_double_eq_tol(r.jobs[0].deadline, 1300, 1e-9);
	ck_assert_double_eq_tol(r.jobs[1].deadline, 0, 1e-9);
	/* seen again: not recorded twice */
	ck_assert_int_eq(dl_pf_recent_note(&r, &in, 600, 60), 0);
	ck_assert_uint_eq(r.n, 2);

	/* a base future of one job at origin 10 */
	one.name = "10";
	one.arrival = 10;
	base.jobs = &one;
	base.njobs = 1;
	ck_assert_int_eq(dl_pf_forecast(&base, &r, 1000, 10, 600, 7, 0, &w0),
			 0);
	ck_assert_uint_eq(w0.njobs, 3);
	ck_assert_str_eq(w0.jobs[0].name, "10");
	ck_assert_str_eq(w0.jobs[1].name, "+wc");
	/* arrived 700 = 300 s into the window [400, 1000]: 300 s after the
	 * origin, due 600 s after that */
	ck_assert_double_eq_tol(w0.jobs[1].arrival, 310, 1e-9);
	ck_assert_double_eq_tol(w0.jobs[1].deadline, 910, 1e-9);
	ck_assert_double_eq_tol(w0.jobs[2].arrival, 560, 1e-9);
	ck_assert_double_eq_tol(w0.jobs[2].deadline, 0, 1e-9);
	/* other samples: rotated within the window, gaps kept mod window */
	for (uint32_t k = 1; k < 4; k++) {
		double gap;

		ck_assert_int_eq(
			dl_pf_forecast(&base, &r, 1000, 10, 600, 7, k, &w1), 0);
		ck_assert_uint_eq(w1.njobs, 3);
		for (int i = 1; i < 3; i++) {
			ck_assert(w1.jobs[i].arrival >= 10);
			ck_assert(w1.jobs[i].arrival < 610);
		}
		gap = fmod(w1.jobs[2].arrival - w1.jobs[1].arrival + 600, 600);
		ck_assert_double_eq_tol(gap, 250, 1e-6);
		rotated |= fabs(w1.jobs[1].arrival - 310) > 1;
		dl_pf_forecast_free(&w1, 1);
	}
	ck_assert(rotated);
	dl_pf_forecast_free(&w0, 1);
	/* no window: the base alone */
	ck_assert_int_eq(dl_pf_forecast(&base, &r, 1000, 10, 0, 7, 0, &w0), 0);
	ck_assert_uint_eq(w0.njobs, 1);
	dl_pf_forecast_free(&w0, 1);
	/* later: the job of 700 falls out of the window [800, 1400] */
	in.now = 1400;
	ck_assert_int_eq(dl_pf_recent_note(&r, &in, 600, 60), 0);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_double_eq_tol(r.jobs[0].arrival, 950, 1e-9);
	dl_pf_recent_clear(&r);
	ck_assert_uint_eq(r.n, 0);
	dl_job_free(jobs[0]);
	dl_job_free(jobs[1]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* Switching needs the challenger to win on most samples, not only on the
 * mean: one lucky draw does not carry a switch. */
START_TEST(switch_needs_most_samples)
{
	struct dl_pf_round r;
	struct dl_pf_choice c;
	const double cur[3] = {10, 10, 10}, one_lucky[3] = {0, 12, 12},
		     most[3] = {9, 9, 11};

	memset(&r, 0, sizeof(r));
	result(&r, DL_POLICY_TRIAGE, 10);
	result(&r, DL_POLICY_EDF, 8);
	r.samples = 3;
	memcpy(r.r[0].sample_total, cur, sizeof(cur));
	memcpy(r.r[1].sample_total, one_lucky, sizeof(one_lucky));
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 1, &c);
	ck_assert(!c.switched);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_SAMPLES);
	ck_assert_uint_eq(c.wins, 1);
	ck_assert_ptr_nonnull(strstr(c.why, "1 of 3 samples"));
	ck_assert_str_eq(dl_pf_reason_name(c.reason), "samples");
	r.r[1].score.total = 29.0 / 3;
	memcpy(r.r[1].sample_total, most, sizeof(most));
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 0.1, &c);
	ck_assert(c.switched);
	ck_assert_uint_eq(c.wins, 2);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
}
END_TEST

/* A switch goes ahead only after winning `confirm` rounds in a row: a
 * round on a few jobs that favours adaptive once, then triage, then
 * adaptive does not switch (phased workload, seed 2: the portfolio went to
 * adaptive on one round of three jobs and the next ones disagreed). */
START_TEST(switch_needs_confirmation)
{
	struct dl_pf_choice c;
	enum dl_policy pending = DL_POLICY_TRIAGE;
	uint32_t streak = 0;

	memset(&c, 0, sizeof(c));
	c.switched = true;
	c.policy = DL_POLICY_ADAPTIVE;
	c.gain = 22.23;
	dl_pf_confirm(&c, DL_POLICY_TRIAGE, &pending, &streak, 2);
	ck_assert(!c.switched);
	ck_assert_int_eq(c.policy, DL_POLICY_TRIAGE);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_CONFIRM);
	ck_assert_ptr_nonnull(strstr(c.why, "1 of 2 rounds"));
	/* the next round keeps triage: the streak ends */
	memset(&c, 0, sizeof(c));
	c.policy = DL_POLICY_TRIAGE;
	dl_pf_confirm(&c, DL_POLICY_TRIAGE, &pending, &streak, 2);
	ck_assert_uint_eq(streak, 0);
	/* two rounds in a row for edf: the second switches */
	for (int k = 0; k < 2; k++) {
		memset(&c, 0, sizeof(c));
		c.switched = true;
		c.policy = DL_POLICY_EDF;
		dl_pf_confirm(&c, DL_POLICY_TRIAGE, &pending, &streak, 2);
		ck_assert(c.switched == (k == 1));
	}
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
	/* a different winner restarts the count */
	memset(&c, 0, sizeof(c));
	c.switched = true;
	c.policy = DL_POLICY_ADAPTIVE;
	dl_pf_confirm(&c, DL_POLICY_EDF, &pending, &streak, 2);
	ck_assert(!c.switched);
	ck_assert_uint_eq(streak, 1);
	/* confirm 1: at once */
	memset(&c, 0, sizeof(c));
	c.switched = true;
	c.policy = DL_POLICY_ADAPTIVE;
	streak = 0;
	dl_pf_confirm(&c, DL_POLICY_EDF, &pending, &streak, 1);
	ck_assert(c.switched);
	ck_assert_str_eq(dl_pf_reason_name(DL_PF_KEEP_CONFIRM), "confirm");
}
END_TEST

/* When missed deadlines weigh in the score, a candidate better only on
 * lateness (the same deadlines missed) is not switched to; one that
 * misses fewer is. */
START_TEST(switch_needs_fewer_misses)
{
	struct dl_pf_round r;
	struct dl_pf_choice c;

	memset(&r, 0, sizeof(r));
	result(&r, DL_POLICY_TRIAGE, 67.84);
	result(&r, DL_POLICY_EDF, 66.82);
	r.r[0].score.missed_pct = r.r[1].score.missed_pct = 66.7;
	r.misses_count = true;
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 1, &c);
	ck_assert(!c.switched);
	ck_assert_int_eq(c.reason, DL_PF_KEEP_MISSES);
	ck_assert_ptr_nonnull(strstr(c.why, "no fewer deadlines"));
	ck_assert_str_eq(dl_pf_reason_name(c.reason), "misses");
	/* the weights leave misses out: lateness alone may switch */
	r.misses_count = false;
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 1, &c);
	ck_assert(c.switched);
	/* fewer misses: switch */
	r.misses_count = true;
	r.r[1].score.missed_pct = 50;
	dl_pf_choose(&r, DL_POLICY_TRIAGE, 600, 0, 1, &c);
	ck_assert(c.switched);
	ck_assert_int_eq(c.policy, DL_POLICY_EDF);
}
END_TEST

/* Policy=portfolio over plan cycles: the overload of round_ranks_* as a
 * snapshot (one CPU; job 1 due in 50 s with 100 s of work, job 2 due in
 * 60 s with 24 s), EDF listed first so it starts active. */
static struct dl_job *prior_job(uint64_t id, uint32_t tasks, double due,
				double mean)
{
	struct dl_job *j = fx_job(id, tasks, 990, due);

	j->phase[DL_MAP].prior_mean = mean;
	j->phase[DL_MAP].prior_p90 = mean * 1.3;
	return j;
}

/* One CPU, two jobs EDF misses both of and triage one (10 x 10 s due at
 * 1050, 3 x 8 s due at 1060), Policy=portfolio over edf,triage, now 1000. */
struct pf_fixture {
	struct dl_cluster cl;
	struct dl_config cfg;
	struct dl_job *jobs[2];
	struct dl_policy_input in;
};

static void pf_fixture_init(struct pf_fixture *f)
{
	char err[256] = "";

	f->cfg = fx_config();
	fx_cluster(&f->cl, 1, 1, 0);
	f->jobs[0] = prior_job(1, 10, 1050, 10);
	f->jobs[1] = prior_job(2, 3, 1060, 8);
	ck_assert_int_eq(
		dl_config_set(&f->cfg, "Policy", "portfolio", err, sizeof(err)),
		0);
	ck_assert_int_eq(dl_config_set(&f->cfg, "PortfolioPolicies",
				       "edf,triage", err, sizeof(err)),
			 0);
	memset(&f->in, 0, sizeof(f->in));
	f->in.cluster = &f->cl;
	f->in.jobs = f->jobs;
	f->in.njobs = 2;
	f->in.cfg = &f->cfg;
	f->in.now = 1000;
}

static void pf_fixture_free(struct pf_fixture *f)
{
	dl_job_free(f->jobs[0]);
	dl_job_free(f->jobs[1]);
	dl_cluster_free(&f->cl);
	dl_config_free(&f->cfg);
}

START_TEST(policy_portfolio_switches_and_records)
{
	struct pf_fixture f;
	struct dl_config *cfg = &f.cfg;
	struct dl_policy_input *in = &f.in;
	struct dl_pf_state st;
	struct dl_plan *plan, *back;
	char err[256] = "", *text;

	pf_fixture_init(&f);
	ck_assert_int_eq(
		dl_config_set(cfg, "PortfolioMinDwell", "0", err, sizeof(err)),
		0);
	ck_assert_int_eq(
		dl_config_set(cfg, "PortfolioBudget", "60", err, sizeof(err)),
		0);
	/* a switch at the first round (switch_needs_confirmation tests
	 * PortfolioConfirm) */
	ck_assert_int_eq(
		dl_config_set(cfg, "PortfolioConfirm", "1", err, sizeof(err)),
		0);
	/* the queue alone (forecast_* tests the replayed arrivals) */
	ck_assert_int_eq(
		dl_config_set(cfg, "PortfolioForecast", "0", err, sizeof(err)),
		0);
	dl_pf_state_init(&st);
	/* the first cycle runs a round: EDF misses both, triage one */
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_msg(plan != NULL, "%s", err);
	ck_assert_int_eq(plan->policy, DL_POLICY_TRIAGE);
	ck_assert(plan->portfolio.on);
	ck_assert(plan->portfolio.switched);
	ck_assert_uint_eq(plan->portfolio.rounds, 1);
	ck_assert_uint_eq(plan->portfolio.switches, 1);
	ck_assert_uint_eq(plan->portfolio.n, 2);
	ck_assert_int_eq(plan->portfolio.score[0].policy, DL_POLICY_EDF);
	ck_assert_double_eq_tol(plan->portfolio.score[0].missed_pct, 100, 1e-9);
	ck_assert_double_eq_tol(plan->portfolio.score[1].missed_pct, 50, 1e-9);
	ck_assert_ptr_nonnull(strstr(plan->portfolio.why, "edf -> triage"));
	/* the published JSON carries it */
	text = dl_plan_to_string(plan);
	ck_assert_ptr_nonnull(text);
	back = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_msg(back != NULL, "%s", err);
	ck_assert(back->portfolio.on);
	ck_assert_uint_eq(back->portfolio.n, 2);
	ck_assert_int_eq(back->portfolio.score[1].policy, DL_POLICY_TRIAGE);
	ck_assert_double_eq_tol(back->portfolio.score[1].total,
				plan->portfolio.score[1].total, 1e-6);
	ck_assert_str_eq(back->portfolio.why, plan->portfolio.why);
	free(text);
	dl_plan_free(back);
	dl_plan_free(plan);
	/* 30 s later: no round (PortfolioInterval 60), triage plans */
	in->now = 1030;
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_ptr_nonnull(plan);
	ck_assert_int_eq(plan->policy, DL_POLICY_TRIAGE);
	ck_assert_uint_eq(plan->portfolio.rounds, 1);
	dl_plan_free(plan);
	/* the list changed without the active policy: the first one */
	ck_assert_int_eq(dl_config_set(cfg, "PortfolioPolicies", "adaptive",
				       err, sizeof(err)),
			 0);
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_ptr_nonnull(plan);
	ck_assert_int_eq(plan->policy, DL_POLICY_ADAPTIVE);
	dl_plan_free(plan);
	/* bad lists are refused by the configuration */
	ck_assert_int_eq(dl_config_set(cfg, "PortfolioPolicies",
				       "triage,realtime", err, sizeof(err)),
			 EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "realtime"));
	ck_assert_int_eq(dl_config_set(cfg, "PortfolioPolicies", "edf,edf", err,
				       sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(
		dl_config_set(cfg, "PortfolioPolicies", "", err, sizeof(err)),
		EINVAL);
	ck_assert_int_eq(dl_config_set(cfg, "PortfolioPolicies", "portfolio",
				       err, sizeof(err)),
			 EINVAL);
	/* dl_policy_plan does not plan Policy=portfolio itself */
	ck_assert_ptr_null(dl_policy_plan(in, err, sizeof(err)));
	dl_pf_state_free(&st);
	pf_fixture_free(&f);
}
END_TEST

/* A restarted slurmctld resumes the policy its restored plan ran, with
 * its dwell and round times, instead of the first candidate (which the
 * rounds would take PortfolioConfirm rounds to leave again); a plan that
 * was not the portfolio's, or ran a policy no longer listed, starts
 * afresh. */
START_TEST(policy_portfolio_resumes_after_restart)
{
	struct pf_fixture f;
	struct dl_policy_input *in = &f.in;
	struct dl_pf_state st;
	struct dl_plan *prev = dl_plan_new(0), *plan;
	char err[256] = "";

	ck_assert_ptr_nonnull(prev);
	pf_fixture_init(&f);
	prev->policy = DL_POLICY_TRIAGE;
	prev->cycle = 77;
	prev->portfolio.on = true;
	prev->portfolio.active_since = 700;
	prev->portfolio.last_round = 990;
	prev->portfolio.rounds = 5;
	prev->portfolio.switches = 2;
	dl_plan_finalize(prev);
	in->prev = prev;
	dl_pf_state_init(&st);
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_msg(plan != NULL, "%s", err);
	ck_assert_int_eq(plan->policy, DL_POLICY_TRIAGE);
	ck_assert_double_eq(plan->portfolio.active_since, 700);
	/* the last round was 10 s ago: none now (PortfolioInterval 60) */
	ck_assert_uint_eq(plan->portfolio.rounds, 5);
	ck_assert_uint_eq(plan->portfolio.switches, 2);
	ck_assert_ptr_nonnull(strstr(plan->portfolio.why, "resumed"));
	dl_plan_free(plan);
	dl_pf_state_free(&st);

	/* times from the future are not trusted */
	prev->portfolio.active_since = 5000;
	prev->portfolio.last_round = 5000;
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_ptr_nonnull(plan);
	ck_assert_double_eq(plan->portfolio.active_since, 1000);
	ck_assert_uint_eq(plan->portfolio.rounds, 6); /* a round ran */
	dl_plan_free(plan);
	dl_pf_state_free(&st);

	/* a policy no longer listed, or a plan not the portfolio's */
	prev->policy = DL_POLICY_ADAPTIVE;
	ck_assert_int_eq(dl_config_set(&f.cfg, "PortfolioConfirm", "3", err,
				       sizeof(err)),
			 0);
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_ptr_nonnull(plan);
	ck_assert_int_eq(plan->policy, DL_POLICY_EDF);
	ck_assert_uint_eq(plan->portfolio.switches, 0);
	dl_plan_free(plan);
	dl_pf_state_free(&st);
	prev->policy = DL_POLICY_TRIAGE;
	prev->portfolio.on = false;
	plan = dl_pf_plan(&st, in, err, sizeof(err));
	ck_assert_ptr_nonnull(plan);
	ck_assert_int_eq(plan->policy, DL_POLICY_EDF);
	dl_plan_free(plan);
	dl_pf_state_free(&st);

	dl_plan_free(prev);
	pf_fixture_free(&f);
}
END_TEST

/* The round's plan grid follows the median deadline distance, so one job
 * due soon in a large queue does not make every plan cycle seconds apart
 * (that made a round at 1,000 arrays cost minutes), while a queue of jobs
 * due in a minute is still planned often enough to compare anything. */
/* Pooled tallies are a score over the union of the jobs: 2 missed of 5
 * is 40 %, not the mean of 25 % and 100 %. */
START_TEST(tally_merge_pools_jobs)
{
	struct dl_pf_tally a, b;
	struct dl_pf_weights w = {1, 1, 1};
	struct dl_pf_score sc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	dl_pf_tally_add(&a, 0, 100, true, 90, 50, 1000);
	dl_pf_tally_add(&a, 0, 100, true, 100, 50, 1000);
	dl_pf_tally_add(&a, 0, 100, true, 80, 50, 1000);
	dl_pf_tally_add(&a, 0, 100, false, 220, 50, 1000); /* 120 s late */
	dl_pf_tally_add(&a, 0, 0, true, 30, 10, 1000);     /* slowdown 3 */
	dl_pf_tally_add(&b, 0, 100, false, 580, 50, 1000); /* 480 s late */
	dl_pf_tally_add(&b, 0, 0, true, 5, 10, 1000);      /* slowdown 1 */
	dl_pf_tally_merge(&a, &b);
	ck_assert_uint_eq(a.deadline_jobs, 5);
	ck_assert_uint_eq(a.missed, 2);
	ck_assert_uint_eq(a.other_jobs, 2);
	dl_pf_score_of(&a, &w, &sc);
	ck_assert_double_eq_tol(sc.missed_pct, 40, 1e-9);
	ck_assert_double_eq_tol(sc.tardiness_min, 2, 1e-9); /* 600 s / 5 */
	ck_assert_double_eq_tol(sc.bsld, 2, 1e-9);
	ck_assert_double_eq_tol(sc.total, 43, 1e-9);
	/* an empty tally adds nothing; NULL is ignored */
	memset(&b, 0, sizeof(b));
	dl_pf_tally_merge(&a, &b);
	dl_pf_tally_merge(&a, NULL);
	dl_pf_tally_merge(NULL, &b);
	ck_assert_uint_eq(a.deadline_jobs, 5);
	ck_assert_uint_eq(a.missed, 2);
}
END_TEST

/* a recorded arrival for the hindsight tests */
static void recent_add(struct dl_pf_recent *r, const char *name, double arrival,
		       double deadline)
{
	struct sim_job_spec *j;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->jobs = realloc(r->jobs, r->cap * sizeof(*r->jobs));
		ck_assert_ptr_nonnull(r->jobs);
	}
	j = &r->jobs[r->n++];
	memset(j, 0, sizeof(*j));
	j->name = strdup(name);
	j->arrival = arrival;
	j->deadline = deadline;
	j->phase[0].tasks = 1;
}

/* Checkpoints every window / 2, the two newest kept; the recent past is
 * the older one's queue and the arrivals after it, on its clock. */
START_TEST(hindsight_checkpoints_and_past)
{
	struct dl_pf_hindsight h;
	struct dl_pf_recent r;
	struct specs a, b, c, d;
	struct sim_workload_spec past;
	const struct sim_cluster_spec *pcs;
	uint32_t nbase = 99;

	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	specs_load(&a);
	specs_load(&b);
	specs_load(&c);
	specs_load(&d);
	/* nothing kept yet: no past */
	ck_assert_int_eq(
		dl_pf_hindsight_past(&h, &r, 1000, &pcs, &past, &nbase), 0);
	ck_assert_uint_eq(past.njobs, 0);
	ck_assert_ptr_null(pcs);
	ck_assert_uint_eq(nbase, 0);
	ck_assert(dl_pf_hindsight_keep(&h, 1000, 5, 600, &a.cs, &a.ws));
	ck_assert_uint_eq(a.ws.njobs, 0); /* moved */
	/* 200 s later: the newest is younger than 300 s, not kept */
	ck_assert(!dl_pf_hindsight_keep(&h, 1200, 5, 600, &b.cs, &b.ws));
	ck_assert_uint_eq(b.ws.njobs, 3); /* still the caller's */
	ck_assert(dl_pf_hindsight_keep(&h, 1300, 7, 600, &b.cs, &b.ws));
	ck_assert(h.cp[0].set && h.cp[1].set);
	ck_assert_double_eq(h.cp[0].now, 1000);
	ck_assert(!dl_pf_hindsight_keep(&h, 1500, 9, 600, &c.cs, &c.ws));
	/* the third: the first is dropped */
	ck_assert(dl_pf_hindsight_keep(&h, 1700, 9, 600, &c.cs, &c.ws));
	ck_assert_double_eq(h.cp[0].now, 1300);
	ck_assert_double_eq(h.cp[1].now, 1700);

	recent_add(&r, "before", 1250, 1500);
	recent_add(&r, "with", 1300, 1600); /* in the checkpoint already */
	recent_add(&r, "after", 1310, 1610);
	recent_add(&r, "now", 1750, 0);
	recent_add(&r, "later", 1760, 1900);
	ck_assert_int_eq(
		dl_pf_hindsight_past(&h, &r, 1750, &pcs, &past, &nbase), 0);
	ck_assert_ptr_eq(pcs, &h.cp[0].cs);
	ck_assert_uint_eq(nbase, 3);
	ck_assert_uint_eq(past.njobs, 5);
	/* arrived 10 s after the checkpoint of 1300, whose clock starts at
	 * 7: at 17, due 300 s later */
	ck_assert_str_eq(past.jobs[3].name, "+after");
	ck_assert_double_eq_tol(past.jobs[3].arrival, 17, 1e-9);
	ck_assert_double_eq_tol(past.jobs[3].deadline, 317, 1e-9);
	ck_assert_str_eq(past.jobs[4].name, "+now");
	ck_assert_double_eq_tol(past.jobs[4].arrival, 457, 1e-9);
	ck_assert_double_eq(past.jobs[4].deadline, 0);
	dl_pf_forecast_free(&past, nbase);
	/* window 0: everything forgotten */
	ck_assert(!dl_pf_hindsight_keep(&h, 2000, 9, 0, &d.cs, &d.ws));
	ck_assert(!h.cp[0].set && !h.cp[1].set);
	ck_assert_int_eq(
		dl_pf_hindsight_past(NULL, &r, 1750, &pcs, &past, &nbase),
		EINVAL);
	dl_pf_recent_clear(&r);
	specs_free(&a);
	specs_free(&b);
	specs_free(&c);
	specs_free(&d);
}
END_TEST

/* A queue every candidate handles alike, and a recent past where EDF
 * missed what triage met: the round's scores pool both, so they rank the
 * candidates as the past does. */
START_TEST(round_pools_the_recent_past)
{
	static const char *easy = "{\"jobs\":[{\"arrival\":0,\"deadline\":"
				  "100,\"maps\":1,\"map_length\":5}]}";
	struct specs past;
	struct sim_workload_spec now, empty;
	struct dl_pf_round r;
	struct dl_pf_params p = params(5);
	char err[256] = "";

	memset(&empty, 0, sizeof(empty));
	specs_load(&past);
	ck_assert_msg(sim_workload_parse(easy, strlen(easy), "w", &past.cs,
					 &now, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(dl_pf_run_round(&past.cs, &now, &past.cfg, cands, 3,
					 &p, &r, err, sizeof(err)),
			 0);
	ck_assert(!r.hindsight);
	ck_assert_double_eq(r.r[0].score.missed_pct, 0);
	ck_assert_double_eq(r.r[1].score.missed_pct, 0);
	p.past_cs = &past.cs;
	p.past_ws = &past.ws;
	ck_assert_msg(dl_pf_run_round(&past.cs, &now, &past.cfg, cands, 3, &p,
				      &r, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert(r.hindsight);
	ck_assert_uint_eq(r.past_jobs, 3);
	ck_assert_uint_eq(r.runs, 24); /* 4 samples x 3 candidates x 2 */
	/* the past alone: triage misses A (50 %), EDF A and B (100 %) */
	ck_assert_double_eq_tol(r.r[0].past.missed_pct, 50, 1e-9);
	ck_assert_double_eq_tol(r.r[1].past.missed_pct, 100, 1e-9);
	/* pooled with the queue's one met job: 1 and 2 of 3 */
	ck_assert_double_eq_tol(r.r[0].score.missed_pct, 100.0 / 3, 1e-9);
	ck_assert_double_eq_tol(r.r[1].score.missed_pct, 200.0 / 3, 1e-9);
	ck_assert(r.r[0].score.total < r.r[1].score.total);
	/* an empty past is no past */
	p.past_ws = &empty;
	ck_assert_int_eq(dl_pf_run_round(&past.cs, &now, &past.cfg, cands, 3,
					 &p, &r, err, sizeof(err)),
			 0);
	ck_assert(!r.hindsight);
	ck_assert_uint_eq(r.runs, 12);
	sim_workload_spec_free(&now);
	specs_free(&past);
}
END_TEST

/* Policy=portfolio with PortfolioHindsight: the first round has no past;
 * it leaves its queue as a checkpoint, so the next round also runs the
 * recent past -- that queue and the job that arrived since; state_free
 * forgets it all (a restart). */
START_TEST(policy_portfolio_judges_the_recent_past)
{
	struct dl_cluster cl;
	struct dl_config cfg = fx_config();
	struct dl_job *jobs[3];
	struct dl_policy_input in;
	struct dl_pf_state st;
	struct dl_plan *plan;
	char err[256] = "";

	fx_cluster(&cl, 1, 1, 0);
	jobs[0] = prior_job(1, 10, 1050, 10);
	jobs[1] = prior_job(2, 3, 1060, 8);
	jobs[2] = fx_job(3, 2, 1030, 1200); /* arrives after the first */
	ck_assert_int_eq(
		dl_config_set(&cfg, "Policy", "portfolio", err, sizeof(err)),
		0);
	ck_assert_int_eq(dl_config_set(&cfg, "PortfolioHindsight", "10m", err,
				       sizeof(err)),
			 0);
	ck_assert_double_eq(cfg.portfolio_hindsight, 600);
	ck_assert_int_eq(
		dl_config_set(&cfg, "PortfolioBudget", "60", err, sizeof(err)),
		0);
	input_at_1000(&in, &cl, jobs, 2, &cfg);
	dl_pf_state_init(&st);
	plan = dl_pf_plan(&st, &in, err, sizeof(err));
	ck_assert_msg(plan != NULL, "%s", err);
	ck_assert(st.have_round);
	ck_assert(!st.round.hindsight);
	ck_assert(st.past.cp[0].set);
	ck_assert_double_eq(st.past.cp[0].now, 1000);
	ck_assert_uint_eq(st.past.cp[0].ws.njobs, 2);
	dl_plan_free(plan);
	in.njobs = 3;
	in.now = 1060;
	plan = dl_pf_plan(&st, &in, err, sizeof(err));
	ck_assert_msg(plan != NULL, "%s", err);
	ck_assert(st.have_round);
	ck_assert(st.round.hindsight);
	ck_assert_uint_eq(st.round.past_jobs, 3);
	for (uint32_t i = 0; i < st.round.n; i++)
		ck_assert(st.round.r[i].scored);
	/* 60 s is less than half the window: no second checkpoint */
	ck_assert(!st.past.cp[1].set);
	dl_plan_free(plan);
	dl_pf_state_free(&st);
	ck_assert(!st.past.cp[0].set);
	ck_assert_uint_eq(st.recent.n, 0);
	plan = dl_pf_plan(&st, &in, err, sizeof(err));
	ck_assert_msg(plan != NULL, "%s", err);
	ck_assert(!st.round.hindsight);
	dl_plan_free(plan);
	dl_pf_state_free(&st);
	for (int i = 0; i < 3; i++)
		dl_job_free(jobs[i]);
	dl_cluster_free(&cl);
	dl_config_free(&cfg);
}
END_TEST

/* The live plan's memory for a round's run: its reserve history and
 * arrival rate, and the jobs it has judged under the run's own ids (1 +
 * the index), so that the run learns from none of them twice. */
static const char *judged_queue =
	"{\"jobs\":["
	"{\"name\":\"8\",\"arrival\":0,\"deadline\":400,\"maps\":4,"
	"\"map_length\":20,\"map_prior\":{\"mean\":20,\"p90\":24}},"
	"{\"name\":\"7\",\"arrival\":0,\"deadline\":500,\"maps\":4,"
	"\"map_length\":20,\"map_prior\":{\"mean\":20,\"p90\":24}},"
	"{\"name\":\"+7\",\"arrival\":0,\"deadline\":600,\"maps\":4,"
	"\"map_length\":20,\"map_prior\":{\"mean\":20,\"p90\":24}},"
	"{\"name\":\"9\",\"arrival\":0,\"deadline\":700,\"maps\":4,"
	"\"map_length\":20,\"map_prior\":{\"mean\":20,\"p90\":24}}]}";

static struct dl_plan *live_plan(void)
{
	struct dl_plan *live = dl_plan_new(2);

	ck_assert_ptr_nonnull(live);
	live->policy = DL_POLICY_TRIAGE;
	for (uint32_t i = 0; i < 10; i++)
		dl_reserve_note(live, 100 + i, 5);
	live->arrivals.rate = 2.5;
	live->arrivals.at = 90;
	live->jobs[0].job_id = 7;
	live->jobs[0].verdict = DL_VERDICT_ON_TRACK;
	live->jobs[1].job_id = 8;
	live->jobs[1].verdict = DL_VERDICT_NO_DATA;
	dl_plan_finalize(live);
	return live;
}

static void parse_judged_queue(struct sim_cluster_spec *cs,
			       struct sim_workload_spec *ws)
{
	char err[512] = "";

	ck_assert_msg(sim_cluster_parse(one_cpu, strlen(one_cpu), "c", NULL, cs,
					err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(sim_workload_parse(judged_queue, strlen(judged_queue),
					 "w", cs, ws, err, sizeof(err)) == 0,
		      "%s", err);
}

START_TEST(live_memory_carries_history_and_judged)
{
	struct sim_cluster_spec cs = {0};
	struct sim_workload_spec ws = {0};
	struct dl_plan *live = live_plan(), *m;
	const struct dl_plan_job *pj;

	parse_judged_queue(&cs, &ws);
	ck_assert_ptr_null(dl_pf_live_memory(NULL, &ws));
	m = dl_pf_live_memory(live, &ws);
	ck_assert_ptr_nonnull(m);
	/* no policy takes it for its own previous plan */
	ck_assert_int_eq(m->policy, DL_POLICY_PORTFOLIO);
	ck_assert(memcmp(&m->slacks, &live->slacks, sizeof(m->slacks)) == 0);
	ck_assert_double_eq(m->arrivals.rate, 2.5);
	ck_assert_double_eq(m->arrivals.at, 90);
	/* "7" (index 1) was judged live; "8" had no data; "+7" is a
	 * forecast's job, "9" new */
	ck_assert_uint_eq(m->njobs, 1);
	pj = dl_plan_find(m, 2);
	ck_assert_ptr_nonnull(pj);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_ptr_null(dl_plan_find(m, 1));
	ck_assert_ptr_null(dl_plan_find(m, 3));
	ck_assert_ptr_null(dl_plan_find(m, 4));
	dl_plan_free(m);
	dl_plan_free(live);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
}
END_TEST

/* A run given the live memory continues it: triage's reserve history
 * holds the live plan's ten slacks and the three jobs it did not judge,
 * in that order (a run from nothing learns all four). */
START_TEST(round_run_continues_the_live_history)
{
	struct sim_cluster_spec cs = {0};
	struct sim_workload_spec ws = {0};
	struct dl_config cfg = fx_config();
	struct dl_plan *live = live_plan(), *m;
	char err[512] = "";

	parse_judged_queue(&cs, &ws);
	m = dl_pf_live_memory(live, &ws);
	ck_assert_ptr_nonnull(m);
	for (int with = 0; with < 2; with++) {
		struct sim_options opt = {.seed = 1, .prev = with ? m : NULL};
		struct sim_engine *eng = sim_engine_new(
			&cs, &ws, sim_core_policy(DL_POLICY_TRIAGE), &cfg, &opt,
			err, sizeof(err));

		ck_assert_msg(eng != NULL, "%s", err);
		ck_assert_msg(sim_engine_run(eng, err, sizeof(err)) == 0, "%s",
			      err);
		ck_assert_ptr_nonnull(eng->plan);
		ck_assert_uint_eq(eng->plan->slacks.n, (with ? 13 : 4));
		if (with) {
			for (uint32_t i = 0; i < 10; i++)
				ck_assert_double_eq(eng->plan->slacks.v[i],
						    100 + i);
			/* the rate went on from the live one, decayed */
			ck_assert(eng->plan->arrivals.rate > 0);
		}
		sim_engine_free(eng);
	}
	dl_plan_free(m);
	dl_plan_free(live);
	dl_config_free(&cfg);
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
}
END_TEST

START_TEST(round_grid_follows_median_deadline)
{
	struct sim_job_spec jobs[5] = {0};
	struct sim_workload_spec ws = {.jobs = jobs, .njobs = 5};
	double grid = 0;

	for (int i = 0; i < 5; i++) {
		jobs[i].arrival = 100;
		jobs[i].deadline = 100 + 3600;
	}
	jobs[0].deadline = 100 + 45; /* one job due soon */
	ck_assert_int_eq(dl_pf_round_grid(&ws, 60, &grid), 0);
	ck_assert_double_eq(grid, 60);
	/* all due within a minute: a tenth of the median, 5.5 s */
	for (int i = 0; i < 5; i++)
		jobs[i].deadline = 100 + 50 + 2.5 * i;
	ck_assert_int_eq(dl_pf_round_grid(&ws, 60, &grid), 0);
	ck_assert_double_eq_tol(grid, 5.5, 1e-12);
	/* no deadlines, or none ahead of its arrival: the grid as given */
	for (int i = 0; i < 5; i++)
		jobs[i].deadline = i ? 0 : 50;
	ck_assert_int_eq(dl_pf_round_grid(&ws, 60, &grid), 0);
	ck_assert_double_eq(grid, 60);
	ws.njobs = 0;
	ck_assert_int_eq(dl_pf_round_grid(&ws, 60, &grid), 0);
	ck_assert_double_eq(grid, 60);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("portfolio");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, score_worked_example);
	tcase_add_test(tc, score_degenerate);
	tcase_add_test(tc, hysteresis);
	tcase_add_test(tc, round_ranks_by_behaviour);
	tcase_add_test(tc, round_is_deterministic);
	tcase_add_test(tc, round_budget_and_arguments);
	tcase_add_test(tc, future_from_snapshot);
	tcase_add_test(tc, future_keeps_held_jobs_cpus);
	tcase_add_test(tc, future_keeps_begin_times);
	tcase_add_test(tc, future_typed_view);
	tcase_add_test(tc, future_keeps_work_waiting);
	tcase_add_test(tc, future_lengths_within_time_limit);
	tcase_add_test(tc, forecast_replays_recent_arrivals);
	tcase_add_test(tc, switch_needs_most_samples);
	tcase_add_test(tc, switch_needs_fewer_misses);
	tcase_add_test(tc, switch_needs_confirmation);
	tcase_add_test(tc, round_grid_follows_median_deadline);
	tcase_add_test(tc, live_memory_carries_history_and_judged);
	tcase_add_test(tc, round_run_continues_the_live_history);
	tcase_add_test(tc, tally_merge_pools_jobs);
	tcase_add_test(tc, hindsight_checkpoints_and_past);
	tcase_add_test(tc, round_pools_the_recent_past);
	tcase_add_test(tc, policy_portfolio_judges_the_recent_past);
	tcase_add_test(tc, policy_portfolio_switches_and_records);
	tcase_add_test(tc, policy_portfolio_resumes_after_restart);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
