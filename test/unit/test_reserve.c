/*
 * test_reserve.c - triage's blocking reserve (policy/reserve.h): the
 * long tasks learned from recent slack and grain, the floor a job keeps,
 * the width rule and its degenerate cases; the lookahead applying the
 * same rule; and through Policy=triage: a long-task job with slack
 * leaves the reserve, the same job without slack takes it, short tasks
 * take it, coarse arrivals leave nothing long, r = 0, one slot and no
 * history change nothing; a job of unknown length is judged by recent
 * jobs' typical task (BlockingUnknown) and keeps no floor once its
 * deadline has passed, and beside a job given up only
 * feasible jobs are freed of the reserve (BlockingUnderLoad); a job
 * given up keeps what its promise needs (HopelessPromise).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/plan/decide.h"
#include "common/policy/fair.h"
#include "common/policy/lookahead.h"
#include "common/policy/policy.h"
#include "common/policy/reserve.h"
#include "fixtures.h"

#define T0 1000.0

START_TEST(long_from_history)
{
	struct dl_plan *p = dl_plan_new(0);

	ck_assert_ptr_nonnull(p);
	/* no history: nothing is long */
	ck_assert(!dl_reserve_is_long(&p->slacks, 0.1, 1000));
	dl_reserve_note(p, 300, 10);
	dl_reserve_note(p, 40, 10);
	dl_reserve_note(p, 2000, 10);
	dl_reserve_note(p, NAN, 10); /* ignored */
	dl_reserve_note(p, -5, NAN); /* no slack at all, grain 0 */
	ck_assert_uint_eq(p->slacks.n, 4);
	ck_assert_double_eq(p->slacks.v[3], 0);
	ck_assert_double_eq(p->slacks.grain[3], 0);
	/* long when at least ceil(q n) of the 4 would have been blocked
	 * (slack below the length, grain below it): q = 0.1 one job, the
	 * one without slack, so anything longer than its grain of 0 */
	ck_assert(dl_reserve_is_long(&p->slacks, 0.1, 1));
	ck_assert(!dl_reserve_is_long(&p->slacks, 0.1, 0));
	ck_assert(!dl_reserve_is_long(&p->slacks, 0.1, -1));
	ck_assert(!dl_reserve_is_long(&p->slacks, 0.1, NAN));
	/* q = 0 still needs one blocked job */
	ck_assert(dl_reserve_is_long(&p->slacks, 0, 1));
	/* q = 0.5: two jobs, slack 0 and 40, and tasks of 10 s */
	ck_assert(!dl_reserve_is_long(&p->slacks, 0.5, 40));
	ck_assert(dl_reserve_is_long(&p->slacks, 0.5, 41));
	ck_assert(!dl_reserve_is_long(&p->slacks, 0.75, 300));
	ck_assert(dl_reserve_is_long(&p->slacks, 0.75, 301));
	ck_assert(dl_reserve_is_long(&p->slacks, 1, 2001));
	ck_assert(!dl_reserve_is_long(&p->slacks, 1.5, 1e9));
	ck_assert(!dl_reserve_is_long(&p->slacks, NAN, 1e9));
	ck_assert(!dl_reserve_is_long(NULL, 0.1, 1000));
	/* the grain: jobs whose own tasks are as long as the blocker's do
	 * not count, however tight; the same slacks with 400-s tasks */
	{
		struct dl_plan *g = dl_plan_new(0);

		dl_reserve_note(g, 0, 400);
		dl_reserve_note(g, 40, 400);
		ck_assert(!dl_reserve_is_long(&g->slacks, 0.1, 400));
		ck_assert(dl_reserve_is_long(&g->slacks, 0.1, 401));
		ck_assert(dl_reserve_is_long(&g->slacks, 1, 401));
		dl_reserve_note(g, 0, 5); /* one short-task job: 1 of 3 */
		ck_assert(dl_reserve_is_long(&g->slacks, 0.1, 400));
		ck_assert(dl_reserve_is_long(&g->slacks, 1.0 / 3, 400));
		ck_assert(!dl_reserve_is_long(&g->slacks, 0.5, 400));
		dl_plan_free(g);
	}
	/* the ring keeps the newest DL_PLAN_SLACKS */
	for (uint32_t i = 0; i < DL_PLAN_SLACKS; i++)
		dl_reserve_note(p, 1000 + i, 10);
	ck_assert_uint_eq(p->slacks.n, DL_PLAN_SLACKS);
	ck_assert(!dl_reserve_is_long(&p->slacks, 0, 1000));
	ck_assert(dl_reserve_is_long(&p->slacks, 0, 1001));
	/* carried to the next plan; a corrupt one is dropped */
	struct dl_plan *q = dl_plan_new(0);

	dl_reserve_inherit(q, p);
	ck_assert(dl_reserve_is_long(&q->slacks, 0, 1001));
	ck_assert_double_eq(q->slacks.grain[0], 10);
	q->slacks.n = DL_PLAN_SLACKS + 1;
	dl_reserve_inherit(q, q);
	ck_assert_uint_eq(q->slacks.n, 0);
	dl_reserve_inherit(q, NULL);
	ck_assert_uint_eq(q->slacks.n, 0);
	dl_plan_free(p);
	dl_plan_free(q);
}
END_TEST

/* The threshold form (dl_reserve_long_above, computed once a cycle)
 * against the definition counted job by job, on random histories with
 * ties, zeros, infinities and NaN entries a corrupted state could hold. */
START_TEST(long_above_is_the_count)
{
	uint64_t x = 88172645463325252ULL;
	const double qs[] = {0, 0.1, 0.25, 1.0 / 3, 0.5, 0.9, 1};

	for (int round = 0; round < 400; round++) {
		struct dl_plan_slacks s = {0};

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		s.n = 1 + (uint32_t) (x % DL_PLAN_SLACKS);
		for (uint32_t i = 0; i < s.n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			s.v[i] = (double) (x % 50) * 10;
			s.grain[i] = (double) ((x >> 8) % 50) * 10;
			if ((x >> 16) % 23 == 0)
				s.v[i] = NAN;
			if ((x >> 24) % 29 == 0)
				s.grain[i] = INFINITY;
		}
		for (size_t qi = 0; qi < sizeof(qs) / sizeof(qs[0]); qi++) {
			double above = dl_reserve_long_above(&s, qs[qi]);
			uint32_t k = (uint32_t) ceil(qs[qi] * s.n - 1e-9);

			for (double len = -5; len <= 520; len += 5) {
				uint32_t blocked = 0;

				for (uint32_t i = 0; i < s.n; i++)
					blocked += s.v[i] < len &&
						   s.grain[i] < len;
				ck_assert_msg(dl_reserve_long_len(above, len) ==
						      (len > 0 &&
						       blocked >= (k ? k : 1)),
					      "round %d q %g len %g: above %g, "
					      "%u blocked of %u",
					      round, qs[qi], len, above,
					      blocked, s.n);
			}
		}
	}
}
END_TEST

START_TEST(floor_and_width)
{
	/* the need with its margin, whole tasks, at most what is left */
	ck_assert_uint_eq(dl_reserve_floor(10, 100, 0.1), 11);
	ck_assert_uint_eq(dl_reserve_floor(10, 100, 0), 10);
	ck_assert_uint_eq(dl_reserve_floor(3.2, 100, 0), 4);
	ck_assert_uint_eq(dl_reserve_floor(50, 20, 0.1), 20);
	ck_assert_uint_eq(dl_reserve_floor(NAN, 20, 0.1), 0);
	ck_assert_uint_eq(dl_reserve_floor(0, 20, 0.1), 0);
	/* budget 48 CPUs, others hold 30: room for 18 one-CPU tasks */
	ck_assert_uint_eq(dl_reserve_width(48, 30, 1, 5, 100), 18);
	/* the job's need beats the room */
	ck_assert_uint_eq(dl_reserve_width(48, 30, 1, 25, 100), 25);
	/* two-CPU tasks: 9 */
	ck_assert_uint_eq(dl_reserve_width(48, 30, 2, 0, 100), 9);
	/* never more than it has left */
	ck_assert_uint_eq(dl_reserve_width(48, 0, 1, 0, 7), 7);
	/* no room and no need: still one task, never starved */
	ck_assert_uint_eq(dl_reserve_width(48, 60, 1, 0, 100), 1);
	ck_assert_uint_eq(dl_reserve_width(0, 0, 1, 0, 100), 1);
	ck_assert_uint_eq(dl_reserve_width(48, 0, 1, 0, 0), 0);
	/* no budget (r = 0): everything */
	ck_assert_uint_eq(dl_reserve_width(INFINITY, 1e9, 1, 0, 100), 100);
}
END_TEST

START_TEST(budget)
{
	struct dl_cluster cl;
	struct dl_capacity full;
	struct dl_config cfg = fx_config();

	fx_cluster(&cl, 6, 10, 0);
	ck_assert_int_eq(dl_capacity_build(&full, &cl), 0);
	ck_assert_double_eq_tol(dl_reserve_budget(&full, 0, 0.2), 48, 1e-9);
	ck_assert(isinf(dl_reserve_budget(&full, 0, 0)));
	ck_assert_double_eq(dl_reserve_budget(&full, 0, 1), 0);
	ck_assert_double_eq(dl_reserve_budget(&full, 3, 0.2), 0);
	cfg.blocking_reserve = 0;
	ck_assert(!dl_reserve_on(&cfg));
	cfg.blocking_reserve = 0.2;
	ck_assert(dl_reserve_on(&cfg));
	dl_capacity_free(&full);
	dl_config_free(&cfg);
	dl_cluster_free(&cl);
}
END_TEST

/* One node of 10 CPUs and a lookahead over it with a budget for long
 * tasks; long and short map phases of 1-CPU tasks. */
static struct dl_lookahead *ten_cpus(struct dl_cluster *cl, double long_cpus)
{
	struct dl_lookahead *la;

	fx_cluster(cl, 1, 10, 0);
	cl->nodes[0].up = true;
	la = dl_la_new(cl, NULL, 0, 1);
	ck_assert_ptr_nonnull(la);
	ck_assert_int_eq(dl_la_set_budget(la, 0, long_cpus), 0);
	return la;
}

static struct dl_la_phase long_tasks(uint32_t pending)
{
	return (struct dl_la_phase){.pending = pending,
				    .cpus = 1,
				    .len = 10,
				    .latest_start = INFINITY,
				    .blocking = true,
				    .keep = 0};
}

static struct dl_la_phase short_tasks(uint32_t pending, double len)
{
	return (struct dl_la_phase){.pending = pending,
				    .cpus = 1,
				    .len = len,
				    .latest_start = INFINITY};
}

/* Another job's 4 long tasks in partition `part`, running until `end`. */
static void four_long_in_until(struct dl_lookahead *la, uint32_t part,
			       double end)
{
	struct dl_la_job x = {.partition = part};
	uint32_t j;

	x.phase[DL_MAP] = long_tasks(0);
	j = dl_la_add_job(la, &x);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(
			dl_la_add_running(la, j, DL_MAP, DL_NO_NODE, 1, 0, end),
			0);
}

static void four_long_until(struct dl_lookahead *la, double end)
{
	four_long_in_until(la, 0, end);
}

/* The lookahead: on 10 CPUs with a budget of 8 for long tasks, a long
 * job of 24 ten-second tasks runs 8 wide (3 waves) while a short job
 * beside it takes the 2 CPUs left at once. */
START_TEST(lookahead_applies_the_rule)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	struct dl_la_job lj = {0}, sj = {0};
	uint32_t order[2], a, b;

	la = ten_cpus(&cl, 8);
	ck_assert_int_eq(dl_la_set_budget(la, 0, NAN), EINVAL);
	lj.phase[DL_MAP] = long_tasks(24);
	sj.phase[DL_MAP] = short_tasks(2, 10);
	a = dl_la_add_job(la, &lj);
	b = dl_la_add_job(la, &sj);
	order[0] = a;
	order[1] = b;
	ck_assert_int_eq(dl_la_run(la, order, 2, 1000), 0);
	/* 24 tasks 8 wide: 3 waves */
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 30, 1e-9);
	/* the short job was not kept out of the reserve */
	ck_assert_double_eq_tol(dl_la_job(la, b)->finish, 10, 1e-9);
	/* a job that needs the slots keeps them: keep 10 runs 20 tasks in
	 * 2 waves, where 8 wide takes 3 */
	dl_la_job(la, a)->phase[DL_MAP].pending = 20;
	dl_la_job(la, a)->phase[DL_MAP].keep = 10;
	ck_assert_int_eq(dl_la_run(la, order, 1, 1000), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 20, 1e-9);
	/* without a budget 20 tasks take 2 waves, with one 3 */
	dl_la_free(la);
	la = dl_la_new(&cl, NULL, 0, 1);
	lj.phase[DL_MAP].pending = 20;
	a = dl_la_add_job(la, &lj);
	ck_assert_int_eq(dl_la_run(la, &a, 1, 1000), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 20, 1e-9);
	ck_assert_int_eq(dl_la_set_budget(la, 0, 8), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, 1000), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 30, 1e-9);
	/* running long tasks of another job count against the budget: 8
	 * of them running until 50 leave no room, so the job (keep 0) runs
	 * one task at a time, never none, until they end */
	dl_la_free(la);
	la = dl_la_new(&cl, NULL, 0, 1);
	ck_assert_int_eq(dl_la_set_budget(la, 0, 8), 0);
	a = dl_la_add_job(la, &lj); /* 20 pending */
	b = dl_la_add_job(la, &lj); /* another long job, 20 pending */
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(
			dl_la_add_running(la, b, DL_MAP, DL_NO_NODE, 1, 0, 50),
			0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, 1000), 0);
	/* job a starts 1 at a time (the budget is held by b) until 50,
	 * then 8 wide: 1 task at 0, 10, 20, 30, 40 = 5 done by 50, 15 left
	 * = 2 waves of 8 from 50: ends at 70 */
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 70, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* Jobs the reserve holds back wait off the dispatch's scan (lookahead.c,
 * "parked") and come back exactly when the rule lets them start: on 10
 * CPUs with a budget of 4 held until 47 by another job's long tasks, long
 * jobs A and B (keep 0, ten 10-s tasks each) run one task at a time, each
 * again as soon as its own task ends, although the room stays negative
 * and a short job S (5-s tasks, ranked last) takes the free CPUs every
 * 5 s.  At 47, while their tasks run and nothing else ends, the room
 * opens and goes in rank order: A takes 2 more at once, B none; A ends at
 * 67, B at 77. */
START_TEST(held_back_jobs_come_back_in_rank_order)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	struct dl_la_job lj = {0}, sj = {0};
	uint32_t order[3], a, b, sh;

	la = ten_cpus(&cl, 4);
	lj.phase[DL_MAP] = long_tasks(10);
	sj.phase[DL_MAP] = short_tasks(200, 5);
	a = dl_la_add_job(la, &lj);
	b = dl_la_add_job(la, &lj);
	sh = dl_la_add_job(la, &sj);
	four_long_until(la, 47);
	order[0] = a;
	order[1] = b;
	order[2] = sh;
	ck_assert_int_eq(dl_la_run(la, order, 3, 1000), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 67, 1e-9);
	ck_assert_double_eq_tol(dl_la_job(la, b)->finish, 77, 1e-9);
	/* the same run again: nothing parked is left over from the first */
	ck_assert_int_eq(dl_la_run(la, order, 3, 1000), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->finish, 67, 1e-9);
	ck_assert_double_eq_tol(dl_la_job(la, b)->finish, 77, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* The room opening in one partition brings back the jobs held back there
 * and no others, past a job ranked first in a partition still full: two
 * nodes of 10 CPUs, each its own partition with a budget of 4 for long
 * tasks, held by another job's long tasks until 100 in partition 0 and
 * until 47 in partition 1.  Long jobs A (partition 0, ranked first) and B
 * (partition 1), ten 10-s tasks each, run one task at a time until then,
 * held back in between: a short job S in partition 0 (5-s tasks, ranked
 * last) makes a dispatch every 5 s.  At 47 B takes 3 more at once (its
 * room of 4 less the task it runs) and ends at 67; A stays at one at a
 * time and ends at 100. */
START_TEST(room_opening_in_one_partition_skips_the_others)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	struct dl_la_job ja = {.partition = 0}, jb = {.partition = 1};
	struct dl_la_job js = {.partition = 0};
	uint32_t order[3];

	ck_assert_int_eq(dl_cluster_init(&cl, 2), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "a"), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "b"), 1);
	for (uint32_t n = 0; n < 2; n++) {
		ck_assert_int_eq(dl_node_set(&cl.nodes[n], n ? "n2" : "n1", 10,
					     4000, DL_POOL_REGULAR),
				 0);
		ck_assert_int_eq(dl_partset_add(&cl.nodes[n].partitions, n), 0);
		cl.nodes[n].up = true;
	}
	la = dl_la_new(&cl, NULL, 0, 1);
	ck_assert_ptr_nonnull(la);
	ck_assert_int_eq(dl_la_set_budget(la, 0, 4), 0);
	ck_assert_int_eq(dl_la_set_budget(la, 1, 4), 0);
	ja.phase[DL_MAP] = long_tasks(10);
	jb.phase[DL_MAP] = long_tasks(10);
	js.phase[DL_MAP] = short_tasks(200, 5);
	order[0] = dl_la_add_job(la, &ja);
	order[1] = dl_la_add_job(la, &jb);
	order[2] = dl_la_add_job(la, &js);
	four_long_in_until(la, 0, 100);
	four_long_in_until(la, 1, 47);
	ck_assert_int_eq(dl_la_run(la, order, 3, 1000), 0);
	ck_assert_double_eq_tol(dl_la_job(la, order[0])->finish, 100, 1e-9);
	ck_assert_double_eq_tol(dl_la_job(la, order[1])->finish, 67, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* A keep changed between the steps of a run (triage sets keeps while a
 * stepped run is under way) applies at the next dispatch, parked or not:
 * job A (10 tasks of 10 s, keep 0) runs one task beside 4 long CPUs that
 * fill the budget until 100 and is held back at 3; its keep raised to 5
 * at 4, it starts 4 more at 6 (the next task end) and ends at 26; held
 * back until its own task ends at 10, it would end at 32. */
START_TEST(keep_changed_between_steps_applies_at_once)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = ten_cpus(&cl, 4);
	struct dl_la_job a = {.phase = {[DL_MAP] = long_tasks(10)}};
	struct dl_la_job s = {.phase = {[DL_MAP] = short_tasks(200, 3)}};
	uint32_t order[2];

	order[0] = dl_la_add_job(la, &a);
	order[1] = dl_la_add_job(la, &s);
	four_long_until(la, 100);
	ck_assert_int_eq(dl_la_start(la, order, 2, 1000), 0);
	ck_assert_int_eq(dl_la_advance(la, 4), 0);
	dl_la_job(la, order[0])->phase[DL_MAP].keep = 5;
	ck_assert_int_eq(dl_la_advance(la, INFINITY), 0);
	ck_assert_double_eq_tol(dl_la_job(la, order[0])->finish, 26, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* ------------------------------------------------- through Policy=triage */

static void w_init(struct fx_world *w, uint32_t cpus, const char *reserve)
{
	char err[128];

	memset(w, 0, sizeof(*w));
	fx_cluster(&w->cl, 1, cpus, 0);
	w->cl.nodes[0].up = true;
	w->cfg = fx_config();
	ck_assert_int_eq(
		dl_config_set(&w->cfg, "Policy", "triage", err, sizeof(err)),
		0);
	ck_assert_int_eq(dl_config_set(&w->cfg, "BlockingReserve", reserve, err,
				       sizeof(err)),
			 0);
}

static struct dl_job *w_job(struct fx_world *w, uint64_t id, uint32_t tasks,
			    double len, double deadline)
{
	struct dl_job *j = fx_job(id, tasks, T0, T0 + deadline);

	j->phase[DL_MAP].prior_mean = len;
	j->phase[DL_MAP].prior_p90 = len;
	w->jobs[w->n++] = j;
	return j;
}

/* A plan with history: a job seen with `slack` s of slack and tasks of
 * `grain` s. */
static struct dl_plan *history(double slack, double grain)
{
	struct dl_plan *p = dl_plan_new(0);

	ck_assert_ptr_nonnull(p);
	dl_plan_finalize(p);
	dl_reserve_note(p, slack, grain);
	return p;
}

static void w_plan(struct fx_world *w, const struct dl_plan *prev)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = T0,
				     .prev = prev};
	char err[256] = "";

	dl_plan_free(w->plan);
	w->plan = dl_policy_plan(&in, err, sizeof(err));
	ck_assert_msg(w->plan != NULL, "plan failed: %s", err);
}

START_TEST(long_job_with_slack_leaves_the_reserve)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);
	const struct dl_plan_job *pj;

	/* 10 CPUs, r = 0.2: long tasks hold at most 8.  100 tasks of 100 s
	 * due in 3,000 s need 4 at once (25 waves); 5 with the margin. */
	w_init(&w, 10, "0.2");
	w_job(&w, 1, 100, 100, 3000);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(pj->alloc, 8);
	ck_assert_uint_eq(pj->alloc_for_need, 8);
	ck_assert_msg(strstr(pj->explain, "at most 8 tasks at once"), "%s",
		      pj->explain);
	/* what Slurm is told, by sched/deadline and deadline-sim alike */
	{
		struct dl_decision d[2];

		ck_assert_uint_eq(dl_decide(pj, d), 1);
		ck_assert(d[0].manage);
		ck_assert_uint_eq(d[0].throttle, 8);
		ck_assert_uint_eq(d[0].urgent_below, 8);
		ck_assert_int_eq(dl_decide_prio(&d[0], 7), DL_PRIO_URGENT);
		ck_assert_int_eq(dl_decide_prio(&d[0], 8), DL_PRIO_IDLE);
	}
	/* the lookahead runs it 8 wide too: 13 waves */
	ck_assert_double_eq_tol(pj->predicted_finish, T0 + 1300, 1e-6);
	/* it learnt nothing new that makes it short: its own slack (3000 -
	 * 1000 s) joins the history, 20 s stays the tightest */
	ck_assert_uint_eq(w.plan->slacks.n, 2);

	/* r = 0: every task at once, 10 waves */
	ck_assert_int_eq(dl_config_set(&w.cfg, "BlockingReserve", "0", NULL, 0),
			 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish,
				T0 + 1000, 1e-6);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* The grain: the same long job, but the tight job seen ran 100-s tasks
 * itself, as long as this job's; no reserve would have served it, so
 * nothing is long and the job runs every task at once. */
START_TEST(no_reserve_for_coarse_arrivals)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 100);
	const struct dl_plan_job *pj;

	w_init(&w, 10, "0.2");
	w_job(&w, 1, 100, 100, 3000);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(pj->alloc, 100);
	ck_assert(!strstr(pj->explain, "at most"));
	/* its own slack and grain join the history */
	ck_assert_uint_eq(w.plan->slacks.n, 2);
	ck_assert_double_eq_tol(w.plan->slacks.grain[1], 100, 1e-9);
	ck_assert_double_eq_tol(w.plan->slacks.v[1], 2000, 1e-6);
	/* a tight job with 99-s tasks would have been blocked: long */
	dl_plan_free(prev);
	prev = history(20, 99);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* A reduce whose length nobody has measured (the map's length times the
 * cost ratio stands in) is not known to be short: its tasks may block
 * the tight jobs that arrive as long ones would, so it leaves the reserve
 * until one of its tasks ends.  Then its measured length decides. */
/* 10 CPUs, r = 0.2: long tasks hold at most 8.  Job 1's 50 maps of 5 s
 * are done; 100 reduces due in 3,000 s, guessed at 5 s (ratio 1), shorter
 * than the 20-s horizon. */
static struct dl_job *guessed_reduce_world(struct fx_world *w)
{
	struct dl_job *j;

	w_init(w, 10, "0.2");
	j = w_job(w, 1, 50, 5, 3000);
	fx_done(j, DL_MAP, 50, 5, DL_POOL_REGULAR);
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 100, 1, 0), 0);
	return j;
}

START_TEST(guessed_reduce_leaves_the_reserve)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);
	struct dl_job *j;
	const struct dl_plan_job *pj;

	j = guessed_reduce_world(&w);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(pj->alloc, 8);
	ck_assert_msg(strstr(pj->explain, "at most 8 tasks at once"), "%s",
		      pj->explain);
	/* the reserve off: every reduce at once */
	ck_assert_int_eq(dl_config_set(&w.cfg, "BlockingReserve", "0", NULL, 0),
			 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "BlockingReserve", "0.2", NULL, 0), 0);
	/* one reduce ended after 5 s: short, every reduce at once */
	fx_done(j, DL_REDUCE, 1, 5, DL_POOL_REGULAR);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 99);
	/* measured long (100 s): the reserve again */
	fx_world_free(&w);
	j = guessed_reduce_world(&w);
	fx_done(j, DL_REDUCE, 1, 100, DL_POOL_REGULAR);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	/* a reduce known from history (a prior of 5 s) is short */
	fx_world_free(&w);
	j = guessed_reduce_world(&w);
	j->phase[DL_REDUCE].prior_mean = 5;
	j->phase[DL_REDUCE].prior_p90 = 5;
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

START_TEST(long_job_without_slack_takes_it)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);
	const struct dl_plan_job *pj;

	/* the same job due in 1,000 s needs all 10 CPUs: it keeps 11 */
	w_init(&w, 10, "0.2");
	w_job(&w, 1, 100, 100, 1000);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(pj->alloc, 11);
	ck_assert_double_eq_tol(pj->predicted_finish, T0 + 1000, 1e-6);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

START_TEST(short_tasks_take_it)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);

	/* 5 s tasks are shorter than the 20 s horizon: not capped */
	w_init(&w, 10, "0.2");
	w_job(&w, 1, 100, 5, 3000);
	w_job(&w, 2, 100, 100, 3000);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 8);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

START_TEST(no_history_one_slot)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5), *first;

	/* no history: nothing is long */
	w_init(&w, 10, "0.2");
	w_job(&w, 1, 100, 100, 3000);
	w_plan(&w, NULL);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	/* the job itself, first judged, is the history now: 2,000 s of
	 * slack, so its 100 s tasks stay short on the next cycle */
	ck_assert_uint_eq(w.plan->slacks.n, 1);
	first = w.plan;
	w.plan = NULL;
	w_plan(&w, first);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_uint_eq(w.plan->slacks.n, 1); /* judged before: once */
	dl_plan_free(first);
	fx_world_free(&w);

	/* one slot, r = 0.5, no margin: the budget holds no task, the job
	 * (which needs 1) still runs one at a time */
	w_init(&w, 1, "0.5");
	ck_assert_int_eq(dl_config_set(&w.cfg, "BlockingMargin", "0", NULL, 0),
			 0);
	w_job(&w, 1, 10, 100, 3000);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 1);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->predicted_finish,
				T0 + 1000, 1e-6);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* The reserve only out of slack: a job given up (here one that cannot
 * make its deadline even alone) shows the partition has no CPUs to spare,
 * so the long job runs as wide as it can. */
START_TEST(no_reserve_beside_a_late_job)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);
	const struct dl_plan_job *pj;

	w_init(&w, 10, "0.2");
	w_job(&w, 1, 100, 100, 3000); /* alone: 8 wide, as above */
	w_job(&w, 2, 1, 100, 50);     /* 100 s of work due in 50 s */
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(pj->alloc, 100);
	ck_assert_msg(!strstr(pj->explain, "at most"), "%s", pj->explain);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* A job given up keeps nothing of the reserve: job 2, 40 tasks of 100 s
 * due in 50 s (lost even alone), is given up for job 3 (80 short tasks due
 * in 100 s, which it would make late) and runs at most 8 wide on 10 CPUs
 * with 0.2 reserved.  But where a job without a deadline waits for the
 * same nodes, Slurm would start it on the 2 CPUs kept idle, so they are no
 * reserve: the given-up job may take every CPU (40), still after job 3.
 * So where the job waits in another partition on the same node, and not
 * where it waits in a partition without that node. */
START_TEST(given_up_job_beside_work_without_deadline)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);
	const struct dl_plan_job *pj;
	int other;

	w_init(&w, 10, "0.2");
	w_job(&w, 2, 40, 100, 50);
	w_job(&w, 3, 80, 10, 100);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 3)->rank, 1);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(pj->rank, 2);
	ck_assert_uint_eq(pj->alloc, 8);
	/* a partition "other" without batch's node */
	other = dl_cluster_add_partition(&w.cl, "other");
	ck_assert_int_eq(other, 1);
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 1), 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 8);
	/* "other" on batch's node too */
	ck_assert_int_eq(dl_partset_add(&w.cl.nodes[0].partitions, 1), 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 40);
	dl_partset_free(&w.cl.other_waiting);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 8);
	/* waiting in batch itself */
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 2);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
	ck_assert_uint_eq(pj->alloc, 40);
	/* the reserve off: the same either way */
	ck_assert_int_eq(dl_config_set(&w.cfg, "BlockingReserve", "0", NULL, 0),
			 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 40);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* A job late at its place keeps its place but no floor of the reserve.
 * Job 1, 40 tasks of 100 s due in 300 s, is late even alone (4 waves on
 * 10 CPUs) and nothing due earlier can be helped, so it stays ahead, late;
 * it no longer runs every task at once but at most 8 (r = 0.2), 5 waves;
 * a feasible long job due after it takes the 2 CPUs it leaves.  Where a
 * job without a deadline waits for the node, or late on a guessed phase
 * (a reduce of no measured length, so not known to be late), it keeps
 * its width. */
START_TEST(late_job_leaves_the_reserve)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);
	const struct dl_plan_job *pj;
	struct dl_job *j;

	w_init(&w, 10, "0.2");
	j = w_job(&w, 1, 40, 100, 300);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(pj->rank, 1);
	ck_assert_uint_eq(pj->alloc, 8);
	ck_assert_msg(strstr(pj->explain, "even alone") &&
			      strstr(pj->explain, "at most 8 tasks at once"),
		      "%s", pj->explain);
	ck_assert_double_eq_tol(pj->predicted_finish, T0 + 500, 1e-6);
	/* a feasible long job due after it takes the 2 CPUs left, freed
	 * of the reserve under load */
	w_job(&w, 2, 20, 100, 3000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 20);
	/* a job without a deadline waits for the node: Slurm would start it
	 * on the CPUs kept idle, so they are no reserve (given_up_keep) */
	ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 40);
	dl_partset_free(&w.cl.other_waiting);
	/* a reduce after the maps, of no measured length: a guess */
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 1, 1, 0), 0);
	w_plan(&w, prev);
	pj = fx_world_get(&w, 1);
	ck_assert_int_eq(pj->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(pj->alloc, 40);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* HopelessPromise: a promised job keeps what its promise needs.  Job 2
 * (10 tasks of 100 s due in 50 s, lost even alone) is given up for job 3
 * (80 tasks of 10 s due in 100 s) while a job without a deadline waits for
 * the node: it may take all 10 CPUs (given_up_job_beside_work_without_
 * deadline), one wave after job 3, and is promised that end, T0 + 180.
 * Once nothing else waits, the reserve would hold it to 8 CPUs, two waves,
 * T0 + 280, and the 2 CPUs kept idle would go to whatever arrives, due
 * after the promise or not (on a real slurmctld, sched_promise.bats: the
 * promised array capped at 27 tasks at once ended 8 s past its promise).
 * Its promise is its deadline for the reserve instead: one wave of 10.
 * Unpromised, as before, 8. */
START_TEST(promised_job_keeps_what_its_promise_needs)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5), *first;
	const struct dl_plan_job *pj;

	for (int promised = 0; promised < 2; promised++) {
		w_init(&w, 10, "0.2");
		ck_assert_int_eq(dl_config_set(&w.cfg, "HopelessPromise",
					       promised ? "yes" : "no", NULL,
					       0),
				 0);
		w_job(&w, 2, 10, 100, 50);
		w_job(&w, 3, 80, 10, 100);
		ck_assert_int_eq(dl_partset_add(&w.cl.other_waiting, 0), 0);
		w_plan(&w, prev);
		pj = fx_world_get(&w, 2);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
		ck_assert_uint_eq(pj->alloc, 10);
		ck_assert_double_eq_tol(pj->predicted_finish, T0 + 180, 1);
		ck_assert_double_eq_tol(pj->promise, promised ? T0 + 180 : 0,
					1);
		/* the next cycle, nothing else waits */
		first = w.plan;
		w.plan = NULL;
		dl_partset_free(&w.cl.other_waiting);
		w_plan(&w, first);
		dl_plan_free(first);
		pj = fx_world_get(&w, 2);
		ck_assert_int_eq(pj->verdict, DL_VERDICT_HOPELESS);
		ck_assert_uint_eq(fx_world_get(&w, 3)->rank, 1);
		ck_assert_uint_eq(pj->rank, 2);
		ck_assert_uint_eq(pj->alloc, promised ? 10 : 8);
		ck_assert_double_eq_tol(pj->predicted_finish,
					promised ? T0 + 180 : T0 + 280, 1);
		ck_assert_double_eq_tol(pj->promise, promised ? T0 + 180 : 0,
					1);
		fx_world_free(&w);
	}
	dl_plan_free(prev);
}
END_TEST

/* Nor where the reserve itself would cost a deadline.  10 CPUs, long
 * tasks may hold 8: A (40 x 100 s, due 500 s) keeps 9 wide, B (52 x
 * 100 s, due 1,000 s) its floor of 7 once A's tasks end; B's first 4 tasks
 * then run one at a time beside A and it ends at 1,100 s.  Without the
 * reserve A ends at 400 s and B at 1,000 s: both on time, so triage gives
 * up neither and the reserve stays off. */
START_TEST(reserve_never_costs_a_deadline)
{
	struct fx_world w;
	struct dl_plan *prev = history(20, 5);

	w_init(&w, 10, "0.2");
	w_job(&w, 1, 40, 100, 500);
	w_job(&w, 2, 52, 100, 1000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 40);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 52);
	ck_assert_double_eq_tol(fx_world_get(&w, 2)->predicted_finish,
				T0 + 1000, 1e-6);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

START_TEST(typical_grain)
{
	struct dl_plan *p = dl_plan_new(0);

	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq(dl_reserve_typical_grain(NULL), 0);
	ck_assert_double_eq(dl_reserve_typical_grain(&p->slacks), 0);
	dl_reserve_note(p, 100, 300);
	ck_assert_double_eq(dl_reserve_typical_grain(&p->slacks), 300);
	dl_reserve_note(p, 100, 10);
	dl_reserve_note(p, 100, 40);
	/* 10, 40, 300: the median, not the mean (117) */
	ck_assert_double_eq(dl_reserve_typical_grain(&p->slacks), 40);
	/* 10, 20, 40, 300: the upper of the two middle ones */
	dl_reserve_note(p, 100, 20);
	ck_assert_double_eq(dl_reserve_typical_grain(&p->slacks), 40);
	/* a NaN grain counts as 0: 0, 10, 20, 40, 300 */
	dl_reserve_note(p, 100, NAN);
	ck_assert_double_eq(dl_reserve_typical_grain(&p->slacks), 20);
	/* a corrupt count is no history */
	p->slacks.n = DL_PLAN_SLACKS + 1;
	ck_assert_double_eq(dl_reserve_typical_grain(&p->slacks), 0);
	dl_plan_free(p);
}
END_TEST

/* A history of three jobs: one due 20 s after arriving with 5-s tasks,
 * two with `grain`-s tasks and plenty of slack.  The typical task is
 * `grain` long. */
static struct dl_plan *history3(double grain)
{
	struct dl_plan *p = history(20, 5);

	dl_reserve_note(p, 5000, grain);
	dl_reserve_note(p, 5000, grain);
	return p;
}

/* A job nobody has a task length for, due in `deadline` s. */
static struct dl_job *w_unknown(struct fx_world *w, uint64_t id, uint32_t tasks,
				double deadline)
{
	struct dl_job *j = fx_job(id, tasks, T0, T0 + deadline);

	w->jobs[w->n++] = j;
	return j;
}

/* On 10 CPUs with r = 0.2, job 1 alone: 100 tasks of unknown length
 * submitted at `submit`, due `deadline` s after T0; planned, it is
 * unjudged and held to the 8 CPUs outside the reserve. */
static struct dl_job *plan_one_unknown(struct fx_world *w,
				       const struct dl_plan *prev,
				       double submit, double deadline)
{
	struct dl_job *j;

	w_init(w, 10, "0.2");
	j = w_unknown(w, 1, 100, deadline);
	j->submit = submit;
	w_plan(w, prev);
	ck_assert_int_eq(fx_world_get(w, 1)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_uint_eq(fx_world_get(w, 1)->alloc, 8);
	return j;
}

/* With BlockingUnknown=no job 1 of w (100 tasks of unknown length) runs
 * every task at once and says so; the option is set back to yes. */
static void every_task_without_blocking_unknown(struct fx_world *w,
						const struct dl_plan *prev)
{
	const struct dl_plan_job *pj;

	ck_assert_int_eq(
		dl_config_set(&w->cfg, "BlockingUnknown", "no", NULL, 0), 0);
	w_plan(w, prev);
	pj = fx_world_get(w, 1);
	ck_assert_uint_eq(pj->alloc, 100);
	ck_assert_msg(strstr(pj->explain, "every task allowed at once"), "%s",
		      pj->explain);
	ck_assert_int_eq(
		dl_config_set(&w->cfg, "BlockingUnknown", "yes", NULL, 0), 0);
}

/* BlockingUnknown: where recent jobs typically ran 300-s tasks (which
 * would have blocked the tight one), a new job is presumed to run such
 * tasks too, unless its time limit is short: it keeps the concurrency its
 * deadline needs with them (plus the margin) and leaves the reserve
 * beyond it until a task ends; where they typically ran 5-s tasks, it
 * runs every task at once. */
START_TEST(unknown_job_leaves_the_reserve)
{
	struct fx_world w;
	struct dl_plan *prev = history3(300);
	const struct dl_plan_job *pj;
	struct dl_job *j;

	/* 100 tasks due in 30,000 s: with 300-s tasks it needs 1 at once,
	 * keeps 2 with the margin, and gets the room: 8 of 10 CPUs */
	j = plan_one_unknown(&w, prev, T0, 30000);
	pj = fx_world_get(&w, 1);
	ck_assert_msg(strstr(pj->explain, "at most 8 tasks at once until "
					  "then: tasks of unknown length"),
		      "%s", pj->explain);
	ck_assert_msg(!strstr(pj->explain, "every task allowed"), "%s",
		      pj->explain);
	/* Slurm ends a task at its time limit: with a limit of 15 s its
	 * tasks cannot be long (over 20 s, the tight job's slack), so every
	 * task runs at once; a limit of 10 minutes leaves it presumed long */
	j->phase[DL_MAP].time_limit = 15;
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	j->phase[DL_MAP].time_limit = 600;
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	j->phase[DL_MAP].time_limit = 0;
	/* BlockingUnknown=no: as before, every task at once */
	every_task_without_blocking_unknown(&w, prev);
	/* a task ended after 5 s: measured short, every task at once */
	fx_done(j, DL_MAP, 1, 5, DL_POOL_REGULAR);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 99);
	fx_world_free(&w);

	/* due in 3,000 s it would need all 10 at once with 300-s tasks:
	 * that floor (11 with the margin) is never taken from it */
	w_init(&w, 10, "0.2");
	w_unknown(&w, 1, 100, 3000);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 11);
	dl_plan_free(prev);
	fx_world_free(&w);

	/* recent jobs typically ran 5-s tasks: only a job wide against its
	 * partition is held back.  9 tasks on 10 CPUs: wide at the default
	 * BlockingUnknownWide=0.25, held to the 8 CPUs beside the reserve;
	 * narrow under 0.95 (9.5 CPUs), all 9 run (a job under 8 tasks would
	 * run them all either way) */
	prev = history3(5);
	ck_assert_double_eq(dl_reserve_typical_grain(&prev->slacks), 5);
	w_init(&w, 10, "0.2");
	w_unknown(&w, 1, 9, 30000);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "BlockingUnknownWide", "0.95", NULL, 0),
		0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 9);
	fx_world_free(&w);
	/* one of 100 tasks would take every CPU: presumed to run 5-s tasks,
	 * it needs 1 at once and leaves the reserve (8 of 10 CPUs) until a
	 * task ends, and says why */
	w_init(&w, 10, "0.2");
	w_unknown(&w, 1, 100, 30000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 8);
	ck_assert_msg(strstr(fx_world_get(&w, 1)->explain,
			     "too many to presume short"),
		      "%s", fx_world_get(&w, 1)->explain);
	/* BlockingUnknownWide=0: every task at once, as before the option */
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "BlockingUnknownWide", "0", NULL, 0), 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* A partition under load: job 1's 100 long tasks due in 3,000 s beside
 * job 2, 100 s of work due in 50 s, given up. */
static void w_under_load(struct fx_world *w, uint32_t cpus)
{
	w_init(w, cpus, "0.2");
	w_job(w, 1, 100, 100, 3000);
	w_job(w, 2, 1, 100, 50);
}

/* No job given up: job 1's 100 long tasks due in 2,000 s (on track)
 * beside job 3, 100 tasks of unknown length due in 40,000 s.  Job 3's
 * allocation, and job 1's in *alloc1 (unless NULL). */
static uint32_t unknown_beside_long(const struct dl_plan *prev, uint32_t cpus,
				    uint32_t *alloc1)
{
	struct fx_world w;
	uint32_t alloc;

	w_init(&w, cpus, "0.2");
	w_job(&w, 1, 100, 100, 2000);
	w_unknown(&w, 3, 100, 40000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	if (alloc1)
		*alloc1 = fx_world_get(&w, 1)->alloc;
	alloc = fx_world_get(&w, 3)->alloc;
	fx_world_free(&w);
	return alloc;
}

/* BlockingUnderLoad: beside a job given up, the feasible long job runs
 * as wide as it can either way; the job of unknown length keeps leaving
 * the reserve with =yes, without the floor its presumed length gave it,
 * but with its part of the reserve (0.2 x 10 CPUs, alone: 2 tasks)
 * beside the 100 the feasible one may hold.  With =no it takes every CPU
 * (the partition's reserve off). */
START_TEST(reserve_under_load)
{
	struct fx_world w;
	struct dl_plan *prev = history3(300);

	w_under_load(&w, 10);
	w_unknown(&w, 3, 100, 40000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_uint_eq(fx_world_get(&w, 3)->alloc, 2);
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "BlockingUnderLoad", "no", NULL, 0), 0);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_uint_eq(fx_world_get(&w, 3)->alloc, 100);
	fx_world_free(&w);

	/* no job given up: the unknown one keeps its floor beside the
	 * known long one (8 CPUs for long tasks: 8 - 1's floor of 6 = 2,
	 * its own floor 2, its part of the reserve 2) */
	ck_assert_uint_eq(unknown_beside_long(prev, 10, NULL), 2);
	dl_plan_free(prev);
}
END_TEST

/* Max-min fair: demands within an equal part are met whole, what they
 * leave is split equally among the larger ones. */
START_TEST(fair_split)
{
	double d[4] = {1, 10, 3, 10}, e[3] = {NAN, -2, 4}, one = 5;

	ck_assert_int_eq(dl_fair_split(d, 4, 12), 0);
	ck_assert_double_eq(d[0], 1);
	ck_assert_double_eq(d[2], 3);
	ck_assert_double_eq(d[1], 4); /* (12 - 1 - 3) / 2 */
	ck_assert_double_eq(d[3], 4);
	/* enough for all: every demand whole */
	d[0] = 1, d[1] = 10, d[2] = 3, d[3] = 10;
	ck_assert_int_eq(dl_fair_split(d, 4, 100), 0);
	ck_assert_double_eq(d[1] + d[3], 20);
	/* bad demands ask for nothing; a total below 0 is 0 */
	ck_assert_int_eq(dl_fair_split(e, 3, 3), 0);
	ck_assert_double_eq(e[0], 0);
	ck_assert_double_eq(e[1], 0);
	ck_assert_double_eq(e[2], 3);
	ck_assert_int_eq(dl_fair_split(&one, 1, -1), 0);
	ck_assert_double_eq(one, 0);
	ck_assert_int_eq(dl_fair_split(NULL, 0, 1), 0);
	ck_assert_int_eq(dl_fair_split(NULL, 2, 1), EINVAL);
}
END_TEST

/* Under load the jobs of unknown length share the reserve max-min fair:
 * on 40 CPUs with 0.2 reserved (8), a 3-task job gets all 3 and a
 * 100-task one the other 5, though the big one is due first; with the
 * 3-task job alone it keeps its 3 however little room the long jobs
 * leave. */
START_TEST(unknown_jobs_share_the_reserve)
{
	struct fx_world w;
	struct dl_plan *prev = history3(300);
	uint32_t alloc1;

	w_under_load(&w, 40);
	w_unknown(&w, 3, 100, 30000);
	w_unknown(&w, 4, 3, 40000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_uint_eq(fx_world_get(&w, 3)->alloc, 5);
	ck_assert_uint_eq(fx_world_get(&w, 4)->alloc, 3);
	fx_world_free(&w);

	w_under_load(&w, 40);
	w_unknown(&w, 4, 3, 40000);
	w_plan(&w, prev);
	ck_assert_uint_eq(fx_world_get(&w, 4)->alloc, 3);
	fx_world_free(&w);

	/* no job given up: job 1 takes the 32 CPUs long tasks may hold;
	 * the job of unknown length keeps the larger of its floor (2 with
	 * 300-s tasks) and its part of the reserve, all 8 CPUs of it */
	ck_assert_uint_eq(unknown_beside_long(prev, 40, &alloc1), 8);
	ck_assert_uint_eq(alloc1, 32);
	dl_plan_free(prev);
}
END_TEST

/* Under load a job of unknown length is held to its part of the reserve
 * only while no job competing with it whose active phase is a guess is
 * due later: job 3 (100 tasks of unknown length, due in 30,000 s) beside
 * job 5's `reduces` reduces, guessed from its maps and due in `due5` s.
 * Job 3's allocation. */
static uint32_t unknown_beside_guess(const struct dl_plan *prev, double due5,
				     uint32_t reduces, bool measured)
{
	struct fx_world w;
	struct dl_job *j;
	uint32_t alloc;

	w_under_load(&w, 10);
	w_unknown(&w, 3, 100, 30000);
	j = w_job(&w, 5, 50, 5, due5);
	fx_done(j, DL_MAP, 50, 5, DL_POOL_REGULAR);
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, reduces, 1, 0), 0);
	if (measured)
		fx_done(j, DL_REDUCE, 1, 300, DL_POOL_REGULAR);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_int_eq(fx_world_get(&w, 5)->verdict, DL_VERDICT_ON_TRACK);
	alloc = fx_world_get(&w, 3)->alloc;
	fx_world_free(&w);
	return alloc;
}

/* A job of unknown length past its deadline is late whatever its tasks
 * take: it keeps its place in deadline order (it is not judged), but the
 * reserve leaves it neither the floor its deadline would need nor a part
 * of the pool for unknown lengths.  Alone on 10 CPUs with r = 0.2, job 1
 * (100 tasks, due 10 s ago) gets the 8 CPUs outside the reserve, where
 * the floor of a deadline already passed was every task; under load the
 * pool (2 CPUs) goes whole to job 4, of unknown length and due later. */
START_TEST(unknown_job_past_its_deadline_leaves_the_reserve)
{
	struct fx_world w;
	struct dl_plan *prev = history3(300);
	const struct dl_plan_job *pj;
	struct dl_job *j;

	plan_one_unknown(&w, prev, T0 - 100, -10);
	pj = fx_world_get(&w, 1);
	ck_assert_msg(strstr(pj->explain, "deadline passed 10s ago: deadline "
					  "order 1 of 1; judged"),
		      "%s", pj->explain);
	ck_assert_msg(strstr(pj->explain, "at most 8 tasks at once"), "%s",
		      pj->explain);
	/* BlockingUnknown=no: every task at once, as for any such job */
	every_task_without_blocking_unknown(&w, prev);
	fx_world_free(&w);

	w_under_load(&w, 10);
	j = w_unknown(&w, 3, 100, -10);
	j->submit = T0 - 100;
	w_unknown(&w, 4, 100, 40000);
	w_plan(&w, prev);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 100);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_int_eq(fx_world_get(&w, 4)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_uint_eq(fx_world_get(&w, 4)->alloc, 2);
	pj = fx_world_get(&w, 4);
	ck_assert_msg(strstr(pj->explain, "at most 2 tasks at once"), "%s",
		      pj->explain);
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

/* Held back, job 3 would leave its CPUs to the guess due after it, not to
 * arrivals: beyond its part of the reserve (0.2 x 10 CPUs: 2 tasks) it
 * may take what the guess has left, 100 reduces (every task of its own)
 * or 10 (2 + 10 = 12: a big job of unknown length does not take the
 * whole partition for a small guess).  Job 5 due first, or its reduces
 * measured (a 300-s task ended): job 3 keeps its part, as in
 * reserve_under_load. */
START_TEST(unknown_before_a_guess_runs_free)
{
	struct dl_plan *prev = history3(300);

	ck_assert_uint_eq(unknown_beside_guess(prev, 40000, 100, false), 100);
	ck_assert_uint_eq(unknown_beside_guess(prev, 40000, 10, false), 12);
	ck_assert_uint_eq(unknown_beside_guess(prev, 20000, 100, false), 2);
	ck_assert_uint_eq(unknown_beside_guess(prev, 40000, 100, true), 2);
	dl_plan_free(prev);
}
END_TEST

/* Two partitions on their own nodes (10 CPUs each), each under load with
 * a job of unknown length due before a guess of 10 reduces: what one
 * partition's job takes from its guess leaves the other's room whole,
 * so each gets 2 + 10 as alone.  Job 3 (partition a) is due before job 13
 * (partition b); counting job 3's take against every partition left job
 * 13 its part only (2). */
START_TEST(guess_room_is_per_partition)
{
	struct dl_plan *prev = history3(300);
	struct fx_world w;
	char err[128];

	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(dl_cluster_init(&w.cl, 2), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&w.cl, "a"), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&w.cl, "b"), 1);
	for (uint32_t n = 0; n < 2; n++) {
		ck_assert_int_eq(dl_node_set(&w.cl.nodes[n], n ? "n2" : "n1",
					     10, 4000, DL_POOL_REGULAR),
				 0);
		ck_assert_int_eq(dl_partset_add(&w.cl.nodes[n].partitions, n),
				 0);
		w.cl.nodes[n].up = true;
	}
	w.cfg = fx_config();
	ck_assert_int_eq(
		dl_config_set(&w.cfg, "Policy", "triage", err, sizeof(err)), 0);
	ck_assert_int_eq(dl_config_set(&w.cfg, "BlockingReserve", "0.2", err,
				       sizeof(err)),
			 0);
	for (uint32_t part = 0; part < 2; part++) {
		uint64_t base = 10 * part;
		struct dl_job *j;
		uint32_t from = w.n;

		w_job(&w, base + 1, 100, 100, 3000);
		w_job(&w, base + 2, 1, 100, 50);
		w_unknown(&w, base + 3, 100, 30000 + 5000 * part);
		j = w_job(&w, base + 5, 50, 5, 40000 + 5000 * part);
		fx_done(j, DL_MAP, 50, 5, DL_POOL_REGULAR);
		ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 10, 1, 0), 0);
		for (uint32_t k = from; k < w.n; k++)
			w.jobs[k]->partition = part;
	}
	w_plan(&w, prev);
	for (uint64_t base = 0; base <= 10; base += 10) {
		ck_assert_int_eq(fx_world_get(&w, base + 2)->verdict,
				 DL_VERDICT_LATE);
		ck_assert_int_eq(fx_world_get(&w, base + 3)->verdict,
				 DL_VERDICT_NO_DATA);
		ck_assert_uint_eq(fx_world_get(&w, base + 3)->alloc, 12);
	}
	fx_world_free(&w);
	dl_plan_free(prev);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("reserve");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, long_from_history);
	tcase_add_test(tc, long_above_is_the_count);
	tcase_add_test(tc, floor_and_width);
	tcase_add_test(tc, budget);
	tcase_add_test(tc, lookahead_applies_the_rule);
	tcase_add_test(tc, held_back_jobs_come_back_in_rank_order);
	tcase_add_test(tc, room_opening_in_one_partition_skips_the_others);
	tcase_add_test(tc, keep_changed_between_steps_applies_at_once);
	tcase_add_test(tc, long_job_with_slack_leaves_the_reserve);
	tcase_add_test(tc, no_reserve_for_coarse_arrivals);
	tcase_add_test(tc, guessed_reduce_leaves_the_reserve);
	tcase_add_test(tc, long_job_without_slack_takes_it);
	tcase_add_test(tc, short_tasks_take_it);
	tcase_add_test(tc, no_history_one_slot);
	tcase_add_test(tc, no_reserve_beside_a_late_job);
	tcase_add_test(tc, given_up_job_beside_work_without_deadline);
	tcase_add_test(tc, late_job_leaves_the_reserve);
	tcase_add_test(tc, reserve_never_costs_a_deadline);
	tcase_add_test(tc, typical_grain);
	tcase_add_test(tc, unknown_job_leaves_the_reserve);
	tcase_add_test(tc, reserve_under_load);
	tcase_add_test(tc, fair_split);
	tcase_add_test(tc, unknown_jobs_share_the_reserve);
	tcase_add_test(tc, unknown_before_a_guess_runs_free);
	tcase_add_test(tc, unknown_job_past_its_deadline_leaves_the_reserve);
	tcase_add_test(tc, guess_room_is_per_partition);
	tcase_add_test(tc, promised_job_keeps_what_its_promise_needs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
