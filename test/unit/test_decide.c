/*
 * test_decide.c - the one decision path from a plan to Slurm: the rules of
 * dl_decide (which array is managed, throttle never 0, urgency, holds),
 * what the sched plugin gives back from its memory (dl_sstate_decisions),
 * and the same plan applied by deadline-sim's model of Slurm, which must
 * arrive at the same decision for every array.
 */
#include <math.h>
#include <string.h>

#include "common/plan/decide.h"
#include "common/plan/sched_state.h"
#include "fixtures.h"
#include "common/simulate/engine.h"
#include "sim/spec.h"

static struct dl_plan_job entry(uint64_t map, uint64_t reduce, int phase)
{
	struct dl_plan_job pj;

	memset(&pj, 0, sizeof(pj));
	pj.job_id = map;
	pj.reduce_id = reduce;
	pj.phase = phase;
	pj.managed = true;
	return pj;
}

/* A map-only entry the plan needs all of: alloc tasks, urgent */
static struct dl_plan_job urgent_entry(uint64_t map, uint32_t alloc,
				       uint32_t rank)
{
	struct dl_plan_job pj = entry(map, 0, DL_MAP);

	pj.alloc = alloc;
	pj.alloc_for_need = alloc;
	pj.urgent = true;
	pj.rank = rank;
	return pj;
}

START_TEST(active_phase_only)
{
	struct dl_plan_job pj = entry(10, 11, DL_MAP);
	struct dl_decision d[2];

	pj.alloc = 5;
	pj.alloc_for_need = 3;
	pj.urgent = true;
	pj.rank = 7;
	ck_assert_uint_eq(dl_decide(&pj, d), 2);
	ck_assert_uint_eq(d[0].array_id, 10);
	ck_assert_int_eq(d[0].phase, DL_MAP);
	ck_assert(d[0].manage);
	ck_assert_uint_eq(d[0].throttle, 5);
	ck_assert_uint_eq(d[0].rank, 7);
	ck_assert_uint_eq(d[0].urgent_below, 3);
	/* the reduce array waits on afterok: Slurm's */
	ck_assert_uint_eq(d[1].array_id, 11);
	ck_assert(!d[1].manage);
	ck_assert_int_eq(dl_decide_prio(&d[1], 0), DL_PRIO_NONE);
	/* in the reduce phase it is the other way round */
	pj.phase = DL_REDUCE;
	ck_assert_uint_eq(dl_decide(&pj, d), 2);
	ck_assert(!d[0].manage && d[1].manage);
	/* map-only: one array */
	pj = entry(12, 0, DL_MAP);
	ck_assert_uint_eq(dl_decide(&pj, d), 1);
	/* not managed, or finished: nothing of ours */
	pj.managed = false;
	ck_assert_uint_eq(dl_decide(&pj, d), 1);
	ck_assert(!d[0].manage);
	pj = entry(13, 0, -1);
	ck_assert_uint_eq(dl_decide(&pj, d), 1);
	ck_assert(!d[0].manage);
	ck_assert_uint_eq(dl_decide(NULL, d), 0);
}
END_TEST

START_TEST(throttle_urgency_hold)
{
	struct dl_plan_job pj = entry(20, 0, DL_MAP);
	struct dl_decision d[2];

	/* allotted nothing: Slurm reads 0 as no limit, so 1 and idle */
	ck_assert_uint_eq(dl_decide(&pj, d), 1);
	ck_assert_uint_eq(d[0].throttle, 1);
	ck_assert_int_eq(dl_decide_prio(&d[0], 0), DL_PRIO_IDLE);
	/* urgent while fewer tasks run than the need's share */
	pj.alloc = 8;
	pj.alloc_for_need = 4;
	pj.urgent = true;
	dl_decide(&pj, d);
	ck_assert_int_eq(dl_decide_prio(&d[0], 3), DL_PRIO_URGENT);
	ck_assert_int_eq(dl_decide_prio(&d[0], 4), DL_PRIO_IDLE);
	/* tasks about to end do not count towards the need while tasks are
	 * left to start: 4 run for a need of 4, 3 of them ending.  Kept
	 * above jobs without deadlines, below the urgent arrays */
	pj.need = 4;
	pj.ending_soon = 3;
	pj.pending[DL_MAP] = 2;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].urgent_below, 4);
	ck_assert_uint_eq(d[0].keep_below, 7);
	ck_assert_int_eq(dl_decide_prio(&d[0], 3), DL_PRIO_URGENT);
	ck_assert_int_eq(dl_decide_prio(&d[0], 4), DL_PRIO_KEEP);
	ck_assert_int_eq(dl_decide_prio(&d[0], 6), DL_PRIO_KEEP);
	ck_assert_int_eq(dl_decide_prio(&d[0], 7), DL_PRIO_IDLE);
	ck_assert_str_eq(dl_prio_mode_name(DL_PRIO_KEEP), "keep");
	/* only the need's part of the allocation is kept: a need of 1.5
	 * (2 tasks) with 4 allotted for it */
	pj.need = 1.5;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].keep_below, 5);
	ck_assert_int_eq(dl_decide_prio(&d[0], 4), DL_PRIO_KEEP);
	ck_assert_int_eq(dl_decide_prio(&d[0], 5), DL_PRIO_IDLE);
	/* a need beyond the allocation keeps the allocation */
	pj.need = 1e12;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].keep_below, 7);
	pj.alloc_for_need = UINT32_MAX;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].keep_below, UINT32_MAX);
	pj.alloc_for_need = 4;
	/* no need known, nothing left to start, or not urgent: not kept */
	pj.need = NAN;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].keep_below, 0);
	ck_assert_int_eq(dl_decide_prio(&d[0], 4), DL_PRIO_IDLE);
	pj.need = 4;
	pj.pending[DL_MAP] = 0;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].keep_below, 0);
	pj.pending[DL_MAP] = 2;
	pj.urgent = false;
	dl_decide(&pj, d);
	ck_assert_uint_eq(d[0].keep_below, 0);
	pj.urgent = true;
	pj.ending_soon = 0;
	/* the need's share counts only when the plan says urgent */
	pj.urgent = false;
	dl_decide(&pj, d);
	ck_assert_int_eq(dl_decide_prio(&d[0], 0), DL_PRIO_IDLE);
	/* a hold wins, with a reason (ours when the policy gives none) */
	pj.hold = true;
	dl_decide(&pj, d);
	ck_assert_int_eq(dl_decide_prio(&d[0], 0), DL_PRIO_HELD);
	ck_assert_str_eq(d[0].hold_reason, "sched/deadline");
	snprintf(pj.hold_reason, sizeof(pj.hold_reason), "RealtimeCapacity");
	dl_decide(&pj, d);
	ck_assert_str_eq(d[0].hold_reason, "RealtimeCapacity");
	ck_assert_int_eq(dl_decide_prio(NULL, 0), DL_PRIO_NONE);
	ck_assert_str_eq(dl_prio_mode_name(DL_PRIO_URGENT), "urgent");
}
END_TEST

START_TEST(plugin_gives_back)
{
	struct dl_sstate st;
	struct dl_plan *plan = dl_plan_new(2);
	struct dl_array_decision out[4];
	struct dl_array_rec *r;

	dl_sstate_init(&st);
	plan->jobs[0] = entry(30, 0, DL_MAP);
	plan->jobs[0].alloc = 2;
	plan->jobs[1] = entry(31, 0, DL_MAP);
	plan->jobs[1].managed = false; /* capped now */
	dl_plan_finalize(plan);
	r = dl_sstate_add(&st, 30);
	r->present = true;
	r->prio_mode = DL_PRIO_HELD; /* we held it last cycle */
	r->managed = true;
	r = dl_sstate_add(&st, 31);
	r->present = true;
	r->managed = true;
	r->prio_mode = DL_PRIO_URGENT;
	r->user_throttle = 9;
	ck_assert_uint_eq(dl_sstate_decisions(plan, &st, out), 2);
	for (int i = 0; i < 2; i++) {
		if (out[i].d.array_id == 30) {
			ck_assert(out[i].d.manage && out[i].release_hold);
			ck_assert(out[i].ours_held);
		} else {
			ck_assert(!out[i].d.manage && out[i].restore_prio);
			ck_assert_uint_eq(out[i].user_throttle, 9);
		}
	}
	/* an array slurmctld no longer has gets nothing */
	dl_sstate_find(&st, 31)->present = false;
	ck_assert_uint_eq(dl_sstate_decisions(plan, &st, out), 1);
	dl_plan_free(plan);
	dl_sstate_free(&st);
}
END_TEST

/* ---- the same plan through deadline-sim's model of Slurm ---- */

static struct dl_plan *fixed_plan; /* what the test policy returns */

static struct dl_plan *copy_fixed(void *state, const struct sim_policy *self,
				  struct sim_engine *eng,
				  const struct dl_policy_input *in, char *err,
				  size_t errlen)
{
	struct dl_plan *p = dl_plan_new(fixed_plan->njobs);

	(void) state;
	(void) self;
	(void) eng;
	(void) err;
	(void) errlen;
	memcpy(p->jobs, fixed_plan->jobs, fixed_plan->njobs * sizeof(*p->jobs));
	p->now = in->now;
	dl_plan_finalize(p);
	return p;
}

static const struct sim_policy fixed_policy = {
	.name = "fixed", .summary = "a given plan", .plan = copy_fixed};

/* Three jobs of six 100 s tasks on 4 CPUs, jobs 1 and 2 with deadlines,
 * job 3 without (Slurm's own), under fixed_plan until the first plan and
 * its dispatch are done. */
struct fixed_run {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct dl_config cfg;
	struct sim_engine *e;
};

static void fixed_run_start(struct fixed_run *r)
{
	const char *cluster =
		"{\"nodes\":[{\"name\":\"n\",\"count\":4,\"cpus\":1}]}";
	const char *workload =
		"{\"jobs\":["
		"{\"arrival\":0,\"deadline\":5000,\"maps\":6,"
		"\"map_length\":100},"
		"{\"arrival\":0,\"deadline\":5000,\"maps\":6,"
		"\"map_length\":100},"
		"{\"arrival\":0,\"maps\":6,\"map_length\":100}]}";
	struct sim_options opt = {0};
	char err[256] = "";

	r->cfg = fx_config();
	ck_assert_msg(sim_cluster_parse(cluster, strlen(cluster), "cluster",
					NULL, &r->cs, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(sim_workload_parse(workload, strlen(workload), "workload",
					 &r->cs, &r->ws, err, sizeof(err)) == 0,
		      "%s", err);
	opt.horizon = 50; /* the first plan and its dispatch */
	r->e = sim_engine_new(&r->cs, &r->ws, &fixed_policy, &r->cfg, &opt, err,
			      sizeof(err));
	ck_assert_msg(r->e != NULL, "%s", err);
	ck_assert_int_eq(sim_engine_run(r->e, err, sizeof(err)), 0);
}

static void fixed_run_free(struct fixed_run *r)
{
	sim_engine_free(r->e);
	sim_workload_spec_free(&r->ws);
	sim_cluster_spec_free(&r->cs);
	dl_plan_free(fixed_plan);
	dl_config_free(&r->cfg);
}

START_TEST(simulator_applies_the_same_decisions)
{
	/* job 1 urgent with a throttle of 2, job 2 idle and allotted nothing
	 * (throttle 1) */
	struct fixed_run r;
	struct sim_engine *e;

	fixed_plan = dl_plan_new(2);
	fixed_plan->jobs[0] = urgent_entry(1, 2, 1);
	fixed_plan->jobs[1] = entry(2, 0, DL_MAP);
	fixed_plan->jobs[1].rank = 2;
	dl_plan_finalize(fixed_plan);
	fixed_run_start(&r);
	e = r.e;
	for (uint32_t k = 0; k < fixed_plan->njobs; k++) {
		const struct dl_plan_job *pj = &fixed_plan->jobs[k];
		const struct sim_job *j = &e->jobs[pj->job_id - 1];
		struct dl_decision d[2];

		/* the engine ended at the horizon: the last plan it applied
		 * saw no task running yet (first plan at 1 s) or some */
		ck_assert_uint_eq(dl_decide(pj, d), 1);
		ck_assert_int_eq(memcmp(&j->dec[DL_MAP], &d[0], sizeof(d[0])),
				 0);
	}
	/* dispatched: the urgent job up to its throttle, then Slurm's job
	 * 3 takes the other two CPUs, and the idle job gets none */
	ck_assert_uint_eq(e->jobs[0].started[DL_MAP], 2);
	ck_assert_uint_eq(e->jobs[2].started[DL_MAP], 2);
	ck_assert_uint_eq(e->jobs[1].started[DL_MAP], 0);
	ck_assert(!e->jobs[2].in_plan);
	/* priority modes as the plugin sets them with 2, 0 and 2 running */
	ck_assert_int_eq(e->jobs[0].mode[DL_MAP], DL_PRIO_IDLE);
	ck_assert_int_eq(e->jobs[1].mode[DL_MAP], DL_PRIO_IDLE);
	ck_assert_int_eq(e->jobs[2].mode[DL_MAP], DL_PRIO_NONE);
	fixed_run_free(&r);
}
END_TEST

/* A kept array (its need's tasks end before the next cycle) ranks below
 * the urgent ones and above Slurm's own jobs in the simulator as in the
 * plugin (sched/deadline/apply.c): the urgent job 1 takes its 1 CPU, the
 * kept job 2 its 2, job 3 without a deadline the last one. */
START_TEST(simulator_ranks_kept_arrays)
{
	struct fixed_run r;
	struct dl_decision d[2];

	fixed_plan = dl_plan_new(2);
	fixed_plan->jobs[0] = urgent_entry(1, 1, 1);
	fixed_plan->jobs[1] = urgent_entry(2, 2, 2);
	fixed_plan->jobs[1].alloc_for_need = 0;
	fixed_plan->jobs[1].need = 2;
	fixed_plan->jobs[1].ending_soon = 2;
	fixed_plan->jobs[1].pending[DL_MAP] = 6;
	dl_plan_finalize(fixed_plan);
	ck_assert_uint_eq(dl_decide(&fixed_plan->jobs[1], d), 1);
	ck_assert_int_eq(dl_decide_prio(&d[0], 0), DL_PRIO_KEEP);
	fixed_run_start(&r);
	ck_assert_uint_eq(r.e->jobs[0].started[DL_MAP], 1);
	ck_assert_uint_eq(r.e->jobs[1].started[DL_MAP], 2);
	ck_assert_uint_eq(r.e->jobs[2].started[DL_MAP], 1);
	/* with its 2 running it is idle-only at the next plan */
	ck_assert_int_eq(r.e->jobs[1].mode[DL_MAP], DL_PRIO_IDLE);
	fixed_run_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, active_phase_only);
	tcase_add_test(tc, throttle_urgency_hold);
	tcase_add_test(tc, plugin_gives_back);
	tcase_add_test(tc, simulator_applies_the_same_decisions);
	tcase_add_test(tc, simulator_ranks_kept_arrays);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
