/*
 * test_adaptive.c - the adaptive policy: classes, re-ranking, balancing of
 * late jobs, work conservation, hardware affinity, the fairness cap and
 * degenerate inputs.
 */
#include <math.h>
#include <string.h>

#include "common/plan/decide.h"
#include "common/policy/capacity.h"
#include "common/policy/policy.h"
#include "fixtures.h"

static void w_init(struct fx_world *w, uint32_t nodes, uint32_t cpus,
		   uint32_t accel)
{
	memset(w, 0, sizeof(*w));
	fx_cluster(&w->cl, nodes, cpus, accel);
	w->cfg = fx_config();
	w->cfg.policy = DL_POLICY_ADAPTIVE;
}

static struct dl_job *w_add(struct fx_world *w, struct dl_job *j)
{
	w->jobs[w->n++] = j;
	return j;
}

/* The plan at `now` for a caller whose next cycle may come `slack` late
 * (dl_policy_input.cycle_slack). */
static const struct dl_plan_job *w_plan_slack(struct fx_world *w, double now,
					      double slack)
{
	struct dl_policy_input in = {.cluster = &w->cl,
				     .jobs = w->jobs,
				     .njobs = w->n,
				     .cfg = &w->cfg,
				     .now = now,
				     .forecast = NULL,
				     .rt = NULL,
				     .cycle_slack = slack};
	char err[256] = "";

	dl_plan_free(w->plan);
	w->plan = dl_policy_plan(&in, err, sizeof(err));
	ck_assert_msg(w->plan != NULL, "plan failed: %s", err);
	return w->plan->jobs;
}

static const struct dl_plan_job *w_plan(struct fx_world *w, double now)
{
	return w_plan_slack(w, now, 0);
}

/* Needs 6 (Eq. 1: 5.5; 6 whole waves of ten-second tasks) and 3 on 10
 * slots: one slot at a time to the neediest with re-ranking gives 6 and 3;
 * the tenth (idle) slot goes to rank 1. */
START_TEST(test_reranking)
{
	struct fx_world w;
	struct dl_job *a, *b;

	w_init(&w, 10, 1, 0);
	a = w_add(&w, fx_job(1, 57, 0, 1100)); /* 55 pending x 10s / 100s */
	fx_done(a, DL_MAP, 2, 10, 0);
	b = w_add(&w, fx_job(2, 32, 0, 1100)); /* 30 x 10s / 100s */
	fx_done(b, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->sreq, 5.5, 1e-9);
	ck_assert_double_eq(fx_world_get(&w, 1)->need, 6);
	ck_assert_double_eq_tol(fx_world_get(&w, 2)->need, 3.0, 1e-9);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc_for_need, 6);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc_for_need, 3);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 7);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 3);
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 2);
	ck_assert(fx_world_get(&w, 1)->urgent && fx_world_get(&w, 2)->urgent);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	ck_assert_uint_eq(w.plan->stats.grants, 10);
	fx_world_free(&w);
}
END_TEST

/* Class order: late > no data > need, whatever the need. */
START_TEST(test_class_order)
{
	struct fx_world w;
	struct dl_job *late, *nodata, *needy, *nodata_old;

	w_init(&w, 4, 1, 0);
	needy = w_add(&w, fx_job(1, 1000, 0, 1100));
	fx_done(needy, DL_MAP, 1, 10, 0);
	nodata = w_add(&w, fx_job(2, 3, 50, 5000));
	late = w_add(&w, fx_job(3, 2, 10, 900));
	fx_done(late, DL_MAP, 1, 10, 0);
	nodata_old = w_add(&w, fx_job(4, 3, 40, 5000));
	w_plan(&w, 1000);
	ck_assert_int_eq(fx_world_get(&w, 3)->cls, DL_CLASS_LATE);
	ck_assert_uint_eq(fx_world_get(&w, 3)->rank, 1);
	ck_assert_int_eq(fx_world_get(&w, 3)->verdict, DL_VERDICT_LATE);
	ck_assert_uint_eq(fx_world_get(&w, 4)->rank,
			  2); /* older no-data first */
	ck_assert_uint_eq(fx_world_get(&w, 2)->rank, 3);
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 4);
	/* the late job has 1 task left: 1 slot; the no-data jobs sample
	 * with everything else, oldest first; the needy job gets nothing */
	ck_assert_uint_eq(fx_world_get(&w, 3)->alloc, 1);
	ck_assert_uint_eq(fx_world_get(&w, 4)->alloc, 3);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 0);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 0);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_NO_DATA);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_AT_RISK);
	ck_assert_ptr_nonnull(
		strstr(fx_world_get(&w, 1)->explain, "none fits now"));
	(void) nodata;
	(void) nodata_old;
	fx_world_free(&w);
}
END_TEST

/* Two late jobs: slots even out the lateness relative to each goal. */
START_TEST(test_late_balancing)
{
	struct fx_world w;
	struct dl_job *a, *b;
	const struct dl_plan_job *pa, *pb;
	double la, lb;

	w_init(&w, 30, 1, 0);
	/* a: 100 tasks of 10 s, goal 900 (span 900); b: same work, goal
	 * 450 (span 450), both past at 1000 */
	a = w_add(&w, fx_job(1, 101, 0, 900));
	fx_done(a, DL_MAP, 1, 10, 0);
	b = w_add(&w, fx_job(2, 101, 0, 450));
	fx_done(b, DL_MAP, 1, 10, 0);
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	pb = fx_world_get(&w, 2);
	ck_assert_uint_eq(pa->alloc + pb->alloc, 30);
	/* relative lateness (now + work/alloc - goal) / span, equalised to
	 * within one slot */
	la = (1000 + 1000.0 / pa->alloc - 900) / 900;
	lb = (1000 + 1000.0 / pb->alloc - 450) / 450;
	/* b is relatively later: it gets most slots */
	ck_assert(pb->alloc > pa->alloc);
	ck_assert_msg(fabs(la - lb) < 0.15, "la %g lb %g", la, lb);
	ck_assert_int_eq(pa->verdict, DL_VERDICT_LATE);
	ck_assert_int_eq(pb->verdict, DL_VERDICT_LATE);
	fx_world_free(&w);
}
END_TEST

/* Work conserving: idle slots go to the jobs (never beyond their tasks). */
START_TEST(test_work_conserving)
{
	struct fx_world w;
	struct dl_job *a, *b;

	w_init(&w, 20, 1, 0);
	a = w_add(&w, fx_job(1, 102, 0, 10000)); /* need 0.11 */
	fx_done(a, DL_MAP, 2, 10, 0);
	b = w_add(&w, fx_job(2, 5, 0, 10000)); /* only 3 tasks left */
	fx_done(b, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc_for_need, 1);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 3);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 17);
	ck_assert_uint_eq(w.plan->stats.grants, 20);
	fx_world_free(&w);
}
END_TEST

/* The thesis's hardware-affinity example: 10 accelerated slots, maps of
 * 50 s accelerated vs 100 s regular, s_req,acc = 15 -> 10 accelerated +
 * 10 regular slots. */
START_TEST(test_hardware_affinity_example)
{
	struct fx_world w;
	struct dl_job *acc, *reg;
	const struct dl_plan_job *pa;

	w_init(&w, 40, 1, 10); /* 10 accelerated, 30 regular */
	acc = w_add(&w, fx_job(1, 302, 0, 2000));
	fx_done(acc, DL_MAP, 1, 50, DL_POOL_ACCEL);
	fx_done(acc, DL_MAP, 1, 100, DL_POOL_REGULAR);
	/* a calibrated regular job (no speedup) needing 20 regular slots */
	reg = w_add(&w, fx_job(2, 1002, 0, 2000));
	fx_done(reg, DL_MAP, 1, 20, DL_POOL_REGULAR);
	fx_done(reg, DL_MAP, 1, 20, DL_POOL_ACCEL);
	w_plan(&w, 1000); /* 300 pending x 50 s / 1000 s = 15 acc slots */
	pa = fx_world_get(&w, 1);
	ck_assert_uint_eq(pa->alloc_pool[DL_POOL_ACCEL], 10);
	ck_assert_uint_eq(pa->alloc_pool[DL_POOL_REGULAR], 10);
	ck_assert_uint_eq(pa->alloc_for_need, 20);
	ck_assert_ptr_nonnull(strstr(pa->explain, "accelerable"));
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc_pool[DL_POOL_ACCEL], 0);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc_pool[DL_POOL_REGULAR], 20);
	fx_world_free(&w);
}
END_TEST

/* A job needing fewer accelerated slots than the pool has runs there only;
 * a job without speedup prefers regular nodes. */
START_TEST(test_affinity_within_pool)
{
	struct fx_world w;
	struct dl_job *acc, *slow;

	w_init(&w, 20, 1, 10);
	w.cfg.accel_threshold = 1.5;
	acc = w_add(&w, fx_job(1, 122, 0, 2000)); /* 120 x 50 / 1000 = 6 */
	fx_done(acc, DL_MAP, 1, 50, DL_POOL_ACCEL);
	fx_done(acc, DL_MAP, 1, 100, DL_POOL_REGULAR);
	slow = w_add(&w, fx_job(2, 42, 0, 2000)); /* speedup 1.1 */
	fx_done(slow, DL_MAP, 1, 100, DL_POOL_ACCEL);
	fx_done(slow, DL_MAP, 1, 110, DL_POOL_REGULAR);
	w_plan(&w, 1000);
	ck_assert_uint_ge(fx_world_get(&w, 1)->alloc_pool[DL_POOL_ACCEL], 6);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc_for_need, 6);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc_pool[DL_POOL_ACCEL], 0);
	ck_assert_uint_ge(fx_world_get(&w, 2)->alloc_pool[DL_POOL_REGULAR], 5);
	fx_world_free(&w);
}
END_TEST

/* Calibration: a map phase with no task on a pool yet gets one there. */
START_TEST(test_affinity_calibration)
{
	struct fx_world w;
	struct dl_job *j;

	w_init(&w, 8, 1, 4);
	j = w_add(&w, fx_job(1, 50, 0, 5000));
	fx_done(j, DL_MAP, 2, 20, DL_POOL_REGULAR);
	w_plan(&w, 1000);
	ck_assert_uint_ge(fx_world_get(&w, 1)->alloc_pool[DL_POOL_ACCEL], 1);
	fx_world_free(&w);
}
END_TEST

START_TEST(test_share_cap)
{
	struct fx_world w;
	struct dl_job *a1, *a2, *b;

	w_init(&w, 10, 1, 0);
	w.cfg.max_deadline_share = 0.5;
	a1 = w_add(&w, fx_job(1, 42, 0, 1100)); /* need 4 */
	fx_done(a1, DL_MAP, 2, 10, 0);
	a2 = w_add(&w, fx_job(2, 32, 1, 1100)); /* need 3: 7 > 5 */
	fx_done(a2, DL_MAP, 2, 10, 0);
	b = w_add(&w, fx_job(3, 32, 2, 1100));
	free(b->account);
	b->account = strdup("other");
	fx_done(b, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	ck_assert_int_eq(fx_world_get(&w, 2)->verdict, DL_VERDICT_CAPPED);
	ck_assert(!fx_world_get(&w, 2)->managed);
	ck_assert_uint_eq(fx_world_get(&w, 2)->alloc, 0);
	ck_assert_ptr_nonnull(
		strstr(fx_world_get(&w, 2)->explain, "MaxDeadlineShare"));
	ck_assert(fx_world_get(&w, 1)->managed);
	ck_assert(fx_world_get(&w, 3)->managed);
	ck_assert_int_ne(fx_world_get(&w, 3)->verdict, DL_VERDICT_CAPPED);
	fx_world_free(&w);
}
END_TEST

/* The map phase's goal leaves room for the reduce phase. */
START_TEST(test_map_reduce_split)
{
	struct fx_world w;
	struct dl_job *j;
	const struct dl_plan_job *p;

	w_init(&w, 10, 1, 0);
	j = w_add(&w, fx_job(1, 102, 0, 1200));
	j->reduce_id = 2;
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 20, 1, 0), 0);
	fx_done(j, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	p = fx_world_get(&w, 1);
	/* T_red = ceil(20/10) * 10 = 20: map goal 1180, need 1000/180 */
	ck_assert_double_eq_tol(p->goal, 1180, 1e-9);
	ck_assert_double_eq_tol(p->sreq, 1000.0 / 180, 1e-9);
	ck_assert_double_eq(p->need, 6); /* 17 waves of 10 s in 180 s */
	ck_assert_int_eq(p->phase, DL_MAP);
	ck_assert_ptr_eq(dl_plan_find(w.plan, 2), p);
	/* finish = maps on 10 slots (100 s) + reduces (20 s) */
	ck_assert_double_eq_tol(p->predicted_finish, 1120, 1e-6);
	fx_world_free(&w);
}
END_TEST

START_TEST(test_degenerate_inputs)
{
	struct fx_world w;
	struct dl_job *j;
	struct dl_policy_input in;
	char err[256];

	/* no nodes: nothing to hand out, the job is at risk */
	w_init(&w, 0, 1, 0);
	j = w_add(&w, fx_job(1, 10, 0, 2000));
	fx_done(j, DL_MAP, 1, 10, 0);
	w_plan(&w, 1000);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 0);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_AT_RISK);
	fx_world_free(&w);

	/* no jobs */
	w_init(&w, 4, 2, 0);
	w_plan(&w, 1000);
	ck_assert_uint_eq(w.plan->njobs, 0);
	fx_world_free(&w);

	/* beta > mu everywhere */
	w_init(&w, 4, 1, 0);
	j = w_add(&w, fx_job(1, 10, 0, 2000));
	fx_done(j, DL_MAP, 1, 10, 0);
	fx_run(j, DL_MAP, 4, 100, 0);
	w_plan(&w, 1000);
	ck_assert(isfinite(fx_world_get(&w, 1)->need));
	ck_assert(isfinite(fx_world_get(&w, 1)->predicted_finish));
	fx_world_free(&w);

	/* all done */
	w_init(&w, 4, 1, 0);
	j = w_add(&w, fx_job(1, 3, 0, 2000));
	fx_done(j, DL_MAP, 3, 10, 0);
	w_plan(&w, 1000);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_DONE);
	ck_assert_uint_eq(fx_world_get(&w, 1)->rank, 0);
	ck_assert(!fx_world_get(&w, 1)->managed);
	fx_world_free(&w);

	/* bad inputs are errors, never crashes */
	w_init(&w, 4, 1, 0);
	j = w_add(&w, fx_job(1, 3, 0, 2000));
	memset(&in, 0, sizeof(in));
	ck_assert_ptr_null(dl_policy_plan(NULL, err, sizeof(err)));
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	in.cluster = &w.cl;
	in.cfg = &w.cfg;
	in.njobs = 1;
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	in.jobs = w.jobs;
	in.now = -1;
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	in.now = NAN;
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	in.now = 1000;
	j->phase[DL_MAP].completed = 7; /* more than its 3 tasks */
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "only 3 exist"));
	j->phase[DL_MAP].completed = 0;
	j->phase[DL_MAP].tasks = 0;
	ck_assert_ptr_null(dl_policy_plan(&in, err, sizeof(err)));
	fx_world_free(&w);
}
END_TEST

/* A 100,000-task array plans in one piece. */
START_TEST(test_huge_array)
{
	struct fx_world w;
	struct dl_job *j;

	w_init(&w, 100, 32, 0);
	j = w_add(&w, fx_job(1, 100000, 0, 50000));
	fx_done(j, DL_MAP, 100, 60, 0);
	fx_run(j, DL_MAP, 3000, 990, 0);
	w_plan(&w, 1000);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 3200);
	ck_assert(fx_world_get(&w, 1)->need > 100 &&
		  fx_world_get(&w, 1)->need < 200);
	ck_assert_int_eq(fx_world_get(&w, 1)->verdict, DL_VERDICT_ON_TRACK);
	fx_world_free(&w);
}
END_TEST

/* Hard deadlines: the plan counts with Slurm's start window. */
START_TEST(test_hard_deadline_window)
{
	struct fx_world w;
	struct dl_job *j;

	w_init(&w, 10, 1, 0);
	j = w_add(&w, fx_job(1, 42, 0, 0));
	j->phase[DL_MAP].hard_deadline = 1300;
	j->phase[DL_MAP].time_limit = 120;
	fx_done(j, DL_MAP, 2, 20, 0);
	w_plan(&w, 1000);
	/* start by 1180, done by 1200: need 40 x 20 / 200 = 4 */
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->goal, 1200, 1e-9);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->need, 4, 1e-9);
	fx_world_free(&w);
}
END_TEST

/* Partitions: a job only gets slots of its partition's nodes, and a node
 * shared by two partitions is not handed out twice. */
START_TEST(test_partitions)
{
	struct fx_world w;
	struct dl_job *a, *b;

	w_init(&w, 6, 1, 0);
	ck_assert_int_eq(dl_cluster_add_partition(&w.cl, "small"), 1);
	/* n1-n2 only in small, n3 in both, n4-n6 only in batch */
	ck_assert_int_eq(dl_partset_from_mask(&w.cl.nodes[0].partitions, 2), 0);
	ck_assert_int_eq(dl_partset_from_mask(&w.cl.nodes[1].partitions, 2), 0);
	ck_assert_int_eq(dl_partset_from_mask(&w.cl.nodes[2].partitions, 3), 0);
	a = w_add(&w, fx_job(1, 100, 0, 1100));
	fx_done(a, DL_MAP, 2, 10, 0);
	b = w_add(&w, fx_job(2, 100, 0, 1100));
	b->partition = 1;
	fx_done(b, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	ck_assert_uint_eq(
		fx_world_get(&w, 1)->alloc + fx_world_get(&w, 2)->alloc, 6);
	ck_assert_uint_ge(fx_world_get(&w, 2)->alloc, 2);
	ck_assert_uint_le(fx_world_get(&w, 2)->alloc, 3);
	ck_assert_uint_le(fx_world_get(&w, 1)->alloc, 4);
	fx_world_free(&w);
}
END_TEST

/* More partitions than a 64-bit mask holds: a job of the 70th partition
 * gets exactly the slots of that partition's nodes, the jobs of partition
 * 0 none of them (the 65th partition used to be dropped and its jobs
 * planned against partition 0). */
START_TEST(test_partitions_beyond_64)
{
	struct fx_world w;
	struct dl_job *a, *b;

	w_init(&w, 6, 1, 0);
	for (int i = 1; i < 70; i++) {
		char name[16];

		snprintf(name, sizeof(name), "p%d", i);
		ck_assert_int_eq(dl_cluster_add_partition(&w.cl, name), i);
	}
	/* n1-n2 only in p69, n3 in batch and p69, n4-n6 only in batch */
	for (int n = 0; n < 3; n++) {
		if (n < 2)
			dl_partset_free(&w.cl.nodes[n].partitions);
		ck_assert_int_eq(dl_partset_add(&w.cl.nodes[n].partitions, 69),
				 0);
	}
	a = w_add(&w, fx_job(1, 100, 0, 1100));
	fx_done(a, DL_MAP, 2, 10, 0);
	b = w_add(&w, fx_job(2, 100, 0, 1100));
	b->partition = 69;
	fx_done(b, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	ck_assert_uint_eq(
		fx_world_get(&w, 1)->alloc + fx_world_get(&w, 2)->alloc, 6);
	ck_assert_uint_ge(fx_world_get(&w, 2)->alloc, 2);
	ck_assert_uint_le(fx_world_get(&w, 2)->alloc, 3);
	ck_assert_uint_le(fx_world_get(&w, 1)->alloc, 4);
	ck_assert_uint_ge(fx_world_get(&w, 1)->alloc, 3);
	fx_world_free(&w);
}
END_TEST

/* Memory is a capacity too: 4 GB nodes, 3 GB tasks -> one per node. */
START_TEST(test_memory_bound)
{
	struct fx_world w;
	struct dl_job *j;

	w_init(&w, 5, 8, 0);
	j = w_add(&w, fx_job(1, 100, 0, 1100));
	j->phase[DL_MAP].mem_per_task = 3000;
	fx_done(j, DL_MAP, 2, 10, 0);
	w_plan(&w, 1000);
	/* aggregate memory 20000 MB / 3000 = 6 slots (fragmentation is the
	 * placement policies' business) */
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 6);
	fx_world_free(&w);
}
END_TEST

/* Whole waves: 34 tasks of 390 s due in 951 s.  Eq. 1 (fluid) says 13.9
 * concurrent tasks, but 14 slots take 3 waves (1,170 s); 17 take 2. */
START_TEST(test_wave_need)
{
	struct fx_world w;
	struct dl_job *a;
	const struct dl_plan_job *pa;

	w_init(&w, 40, 1, 0);
	a = w_add(&w, fx_job(1, 36, 0, 1951));
	fx_done(a, DL_MAP, 2, 390, 0);
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	ck_assert_double_eq_tol(pa->sreq, 34.0 * 390 / 951, 1e-9);
	ck_assert_double_eq(pa->need, 17);
	ck_assert_uint_eq(pa->alloc_for_need, 17);
	ck_assert_int_eq(pa->verdict, DL_VERDICT_ON_TRACK);
	/* a goal no concurrency meets needs every task; one that Eq. 1
	 * meets exactly in whole waves keeps Eq. 1 (34 x 390 / 780 = 17);
	 * 3 waves of 390 s: 12 slots, where Eq. 1 says 11.3 */
	a->soft_deadline = 1300;
	w_plan(&w, 1000);
	ck_assert_double_eq(fx_world_get(&w, 1)->need, 34);
	a->soft_deadline = 1780;
	w_plan(&w, 1000);
	ck_assert_double_eq_tol(fx_world_get(&w, 1)->need, 17, 1e-9);
	a->soft_deadline = 2170;
	w_plan(&w, 1000);
	ck_assert_double_eq(fx_world_get(&w, 1)->need, 12);
	/* 2.5 waves away (975 s): Eq. 1's 13.6 slots would take 3 waves
	 * (34 / 14 tasks), 1,170 s; only the slots for 2 waves, 17, end by
	 * the goal */
	a->soft_deadline = 1975;
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	ck_assert_double_eq_tol(pa->sreq, 34.0 * 390 / 975, 1e-9);
	ck_assert_double_eq(pa->need, 17);
	ck_assert_uint_eq(pa->alloc_for_need, 17);
	fx_world_free(&w);
}
END_TEST

/* D10: every CPU of the partition is held by jobs without deadlines.  A
 * deadline job with a known task length keeps its claim: it is allotted
 * its need from what they hold, urgent, so it gets CPUs as they end
 * before new work without deadlines starts; never more than they hold. */
START_TEST(test_claim_held_capacity)
{
	struct fx_world w;
	struct dl_job *a, *late, *fresh;
	const struct dl_plan_job *pa, *pl, *pf;
	struct dl_decision d[2];

	w_init(&w, 4, 4, 0);
	for (uint32_t n = 0; n < 4; n++) {
		w.cl.nodes[n].cpus_other = 4;
		w.cl.nodes[n].mem_other = 1000;
	}
	/* 60 tasks of 10 s from an estimator prior, due in 100 s: needs 6 */
	a = w_add(&w, fx_job(1, 60, 990, 1100));
	a->phase[DL_MAP].prior_mean = 10;
	a->phase[DL_MAP].mem_per_task = 500;
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	ck_assert_double_eq(pa->need, 6);
	ck_assert_uint_eq(pa->alloc, 6);
	ck_assert_uint_eq(pa->alloc_for_need, 6);
	ck_assert(pa->urgent);
	ck_assert_ptr_nonnull(strstr(pa->explain, "6 of them as jobs without "
						  "deadlines free their CPUs"));
	ck_assert_uint_eq(dl_decide(pa, d), 1);
	ck_assert_uint_eq(d[0].throttle, 6);
	ck_assert_int_eq(dl_decide_prio(&d[0], 0), DL_PRIO_URGENT);
	/* a late job and a job with no task length yet claim too: the late
	 * one (first) all it can use, the new one a slot to sample */
	late = w_add(&w, fx_job(2, 6, 0, 900));
	fx_done(late, DL_MAP, 1, 10, 0);
	fresh = w_add(&w, fx_job(3, 8, 995, 5000));
	ck_assert_int_eq(fresh->phase[DL_MAP].done_pool[0], 0);
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	pl = fx_world_get(&w, 2);
	pf = fx_world_get(&w, 3);
	ck_assert_uint_eq(pa->alloc, 6);
	ck_assert_uint_eq(pl->alloc, 5);
	ck_assert_uint_eq(pf->alloc, 1);
	ck_assert(pa->urgent && pl->urgent && pf->urgent);
	ck_assert_int_eq(pl->verdict, DL_VERDICT_LATE);
	ck_assert_ptr_null(strstr(pl->explain, "never"));
	/* never more than others hold: alone, a need of 20 (200 tasks of
	 * 10 s in 100 s) gets the 16 CPUs they hold */
	a->phase[DL_MAP].tasks = 200;
	late->soft_deadline = 0;
	fresh->soft_deadline = 0;
	w_plan(&w, 1000);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 16);
	/* memory: what the holders use plus what is still free; with only
	 * 100 MB held per node, four 500 MB tasks still fit each node */
	for (uint32_t n = 0; n < 4; n++)
		w.cl.nodes[n].mem_other = 100;
	w_plan(&w, 1000);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 16);
	fx_world_free(&w);
}
END_TEST

/* The held CPUs come back only when that work ends (Slurm's end: start +
 * time limit): a claimed need counts its waves from then, not from now,
 * or the job comes up a wave short (seen on a local Slurm: 2 s late). */
START_TEST(test_claim_counts_from_held_end)
{
	struct fx_world w;
	struct dl_job *a;
	const struct dl_plan_job *pa;

	w_init(&w, 4, 4, 0);
	for (uint32_t n = 0; n < 4; n++) {
		w.cl.nodes[n].cpus_other = 4;
		w.cl.nodes[n].mem_other = 1000;
		ck_assert_int_eq(dl_cluster_add_held(&w.cl, n, 4, 1000, 1050),
				 0);
	}
	/* 60 tasks of 10 s due at 1100: 6 from now, but the CPUs are back
	 * at 1050, so 50 s of waves: 12 */
	a = w_add(&w, fx_job(1, 60, 990, 1100));
	a->phase[DL_MAP].prior_mean = 10;
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	ck_assert_double_eq(pa->need, 12);
	ck_assert_uint_eq(pa->alloc, 12);
	ck_assert(pa->urgent);
	/* back only after the goal: every CPU it can get (16 held) */
	for (uint32_t i = 0; i < w.cl.nheld; i++)
		w.cl.held[i].end = 1200;
	w_plan(&w, 1000);
	pa = fx_world_get(&w, 1);
	ck_assert_uint_eq(pa->alloc, 16);
	fx_world_free(&w);
}
END_TEST

/* A late job that finds no CPU at all (every one taken by more urgent
 * deadline jobs, none held by others): a plain explanation, no "0 tasks,
 * about never late". */
START_TEST(test_late_without_cpu)
{
	struct fx_world w;
	struct dl_job *hog, *late;
	const struct dl_plan_job *pl;

	w_init(&w, 1, 1, 0);
	hog = w_add(&w, fx_job(1, 400, 0, 950));
	fx_done(hog, DL_MAP, 1, 100, 0);
	late = w_add(&w, fx_job(2, 40, 500, 990));
	fx_done(late, DL_MAP, 1, 1, 0);
	w_plan(&w, 1000);
	pl = fx_world_get(&w, 2);
	ck_assert_uint_eq(fx_world_get(&w, 1)->alloc, 1);
	ck_assert_uint_eq(pl->alloc, 0);
	ck_assert_int_eq(pl->verdict, DL_VERDICT_LATE);
	ck_assert_ptr_null(strstr(pl->explain, "never"));
	ck_assert_ptr_null(strstr(pl->explain, "0 tasks"));
	ck_assert_ptr_nonnull(strstr(pl->explain, "no CPU for it now"));
	fx_world_free(&w);
}
END_TEST

START_TEST(test_deterministic)
{
	struct fx_world w;
	char *first;

	w_init(&w, 16, 2, 4);
	for (int i = 0; i < 20; i++) {
		struct dl_job *j =
			w_add(&w, fx_job(i + 1, 30 + i, i, 1500 + 7 * i));

		if (i % 3)
			fx_done(j, DL_MAP, 2, 10 + i, i % 2);
	}
	w_plan(&w, 1000);
	first = strdup(w.plan->jobs[0].explain);
	for (int k = 0; k < 3; k++) {
		uint32_t allocs[20];

		for (uint32_t i = 0; i < 20; i++)
			allocs[i] = w.plan->jobs[i].alloc;
		w_plan(&w, 1000);
		for (uint32_t i = 0; i < 20; i++)
			ck_assert_uint_eq(allocs[i], w.plan->jobs[i].alloc);
		ck_assert_str_eq(first, w.plan->jobs[0].explain);
	}
	free(first);
	fx_world_free(&w);
}
END_TEST

/* 12 tasks of 10 s on 4 CPUs, due at 125, cycles 2 s apart: 4 done, 2
 * running since 91 and 2 since `later`. */
static struct dl_job *wave_world(struct fx_world *w, double later)
{
	struct dl_job *a;

	w_init(w, 1, 4, 0);
	w->cfg.plan_interval = 2;
	a = w_add(w, fx_job(1, 12, 0, 125));
	fx_done(a, DL_MAP, 4, 10, 0);
	fx_run(a, DL_MAP, 2, 91, 0);
	fx_run(a, DL_MAP, 2, later, 0);
	return a;
}

/* The tasks serving a need are about to end: Slurm hands their CPUs to the
 * first-ranked pending job when they end, before the next cycle, so the
 * array stays above jobs without deadlines until what runs beyond them
 * covers its need.  12 tasks
 * of 10 s on 4 CPUs, due 25 s from now: 4 done, 4 running, of which 2 end
 * in 1 s and 2 in 8 s. */
START_TEST(test_wave_end_keeps_urgency)
{
	struct fx_world w;
	struct dl_job *a;
	const struct dl_plan_job *pa;
	struct dl_decision d[2];

	a = wave_world(&w, 98);
	w_plan(&w, 100);
	pa = fx_world_get(&w, 1);
	ck_assert(pa->urgent);
	ck_assert_uint_eq(pa->alloc_for_need, 3);
	ck_assert_uint_eq(pa->ending_soon, 2);
	ck_assert_uint_eq(dl_decide(pa, d), 1);
	ck_assert_uint_eq(d[0].urgent_below, 3);
	ck_assert_uint_eq(d[0].keep_below, 5);
	/* 4 run for a need of 3, but 2 of them end within the cycle: kept
	 * above jobs without deadlines, so their CPUs come back to it */
	ck_assert_int_eq(dl_decide_prio(&d[0], 4), DL_PRIO_KEEP);
	ck_assert_int_eq(dl_decide_prio(&d[0], 5), DL_PRIO_IDLE);
	/* cycles 10 s apart: all four end before the next one */
	w.cfg.plan_interval = 10;
	w_plan(&w, 100);
	ck_assert_uint_eq(fx_world_get(&w, 1)->ending_soon, 4);
	/* nothing left to start: the tasks that end free CPUs for others */
	w.cfg.plan_interval = 2;
	a->phase[DL_MAP].tasks = 8;
	w_plan(&w, 100);
	pa = fx_world_get(&w, 1);
	ck_assert_uint_eq(pa->ending_soon, 2);
	dl_decide(pa, d);
	ck_assert_uint_eq(d[0].keep_below, 0);
	fx_world_free(&w);
}
END_TEST

/* The caller's cycle slack (its clock's resolution, a late cycle) widens
 * what "before the next cycle" means: 2 tasks end at 101 and 2 at 103;
 * now 100, cycles 2 s apart.  On time, the next cycle at 102 sees only the
 * first two end; one that may come 1.5 s late sees all four.  A slack that
 * is not a positive number is none. */
static uint32_t ending_soon_with_slack(struct fx_world *w, double slack)
{
	w_plan_slack(w, 100, slack);
	return fx_world_get(w, 1)->ending_soon;
}

START_TEST(test_cycle_slack_widens_ending_soon)
{
	struct fx_world w;

	wave_world(&w, 93);
	ck_assert_uint_eq(ending_soon_with_slack(&w, 0), 2);
	ck_assert_uint_eq(ending_soon_with_slack(&w, 0.9), 2);
	ck_assert_uint_eq(ending_soon_with_slack(&w, 1), 4);
	ck_assert_uint_eq(ending_soon_with_slack(&w, 1.5), 4);
	ck_assert_uint_eq(ending_soon_with_slack(&w, -5), 2);
	ck_assert_uint_eq(ending_soon_with_slack(&w, NAN), 2);
	ck_assert_uint_eq(ending_soon_with_slack(&w, INFINITY), 2);
	fx_world_free(&w);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("adaptive");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_reranking);
	tcase_add_test(tc, test_class_order);
	tcase_add_test(tc, test_late_balancing);
	tcase_add_test(tc, test_work_conserving);
	tcase_add_test(tc, test_hardware_affinity_example);
	tcase_add_test(tc, test_affinity_within_pool);
	tcase_add_test(tc, test_affinity_calibration);
	tcase_add_test(tc, test_share_cap);
	tcase_add_test(tc, test_map_reduce_split);
	tcase_add_test(tc, test_degenerate_inputs);
	tcase_add_test(tc, test_huge_array);
	tcase_add_test(tc, test_hard_deadline_window);
	tcase_add_test(tc, test_partitions);
	tcase_add_test(tc, test_partitions_beyond_64);
	tcase_add_test(tc, test_memory_bound);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_wave_need);
	tcase_add_test(tc, test_claim_held_capacity);
	tcase_add_test(tc, test_claim_counts_from_held_end);
	tcase_add_test(tc, test_late_without_cpu);
	tcase_add_test(tc, test_wave_end_keeps_urgency);
	tcase_add_test(tc, test_cycle_slack_widens_ending_soon);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
