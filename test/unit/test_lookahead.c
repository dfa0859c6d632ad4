/*
 * test_lookahead.c - the dispatcher lookahead: waves, priority order,
 * running tasks, the map->reduce barrier and what a lower job takes while a
 * higher one waits on it, reduces whose maps ended before now, Slurm's
 * hard-deadline start window, tasks deferred to a begin time, held
 * capacity, the forecast, partitions, the time grid, a run in steps, the
 * fluid supply, and bad input.
 */
#include <math.h>
#include <string.h>

#include "common/policy/lookahead.h"
#include "fixtures.h"

#define NOW 1000.0

static struct dl_la_job map_job(uint32_t tasks, double len)
{
	struct dl_la_job j;

	memset(&j, 0, sizeof(j));
	j.phase[DL_MAP].pending = tasks;
	j.phase[DL_MAP].cpus = 1;
	j.phase[DL_MAP].len = len;
	j.phase[DL_MAP].latest_start = INFINITY;
	j.phase[DL_REDUCE].latest_start = INFINITY;
	return j;
}

/* A MapReduce job: its reduces as long as its maps. */
static struct dl_la_job mr_job(uint32_t maps, double len, uint32_t reduces)
{
	struct dl_la_job j = map_job(maps, len);

	j.phase[DL_REDUCE] = j.phase[DL_MAP];
	j.phase[DL_REDUCE].pending = reduces;
	return j;
}

static struct dl_lookahead *la_on(struct dl_cluster *cl, uint32_t nodes,
				  uint32_t cpus)
{
	struct dl_lookahead *la;

	fx_cluster(cl, nodes, cpus, 0);
	for (uint32_t i = 0; i < nodes; i++)
		cl->nodes[i].up = true;
	la = dl_la_new(cl, NULL, NOW, 1);
	ck_assert_ptr_nonnull(la);
	return la;
}

/* Two nodes of `cpus` CPUs, up: n1 in the default partition, n2 only in
 * "gpu" (partition 1), so two classes. */
static void two_partitions(struct dl_cluster *cl, uint32_t cpus)
{
	fx_cluster(cl, 2, cpus, 0);
	ck_assert_int_eq(dl_cluster_add_partition(cl, "gpu"), 1);
	ck_assert_int_eq(dl_partset_from_mask(&cl->nodes[1].partitions, 2), 0);
	cl->nodes[0].up = cl->nodes[1].up = true;
}

static double finish(struct dl_lookahead *la, uint32_t j)
{
	return dl_la_job(la, j)->finish - NOW;
}

START_TEST(whole_waves)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 2, 2);
	struct dl_la_job j = map_job(10, 10);
	uint32_t a = dl_la_add_job(la, &j);

	/* 10 tasks on 4 CPUs: three waves */
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	ck_assert_double_eq_tol(dl_la_job(la, a)->map_end - NOW, 30, 1e-9);
	/* not in the order: it never starts */
	ck_assert_int_eq(dl_la_run(la, NULL, 0, INFINITY), 0);
	ck_assert(isinf(dl_la_job(la, a)->finish));
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(priority_order)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job ja = map_job(8, 10), jb = map_job(4, 10);
	uint32_t a = dl_la_add_job(la, &ja), b = dl_la_add_job(la, &jb);
	uint32_t ba[2] = {b, a}, ab[2] = {a, b};

	ck_assert_int_eq(dl_la_run(la, ba, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, b), 10, 1e-9);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	ck_assert_int_eq(dl_la_run(la, ab, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 20, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 30, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(running_tasks_hold_capacity)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job j = map_job(4, 10);
	uint32_t a = dl_la_add_job(la, &j);

	/* two of its own tasks run until NOW + 5 */
	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, 1, 0, NOW + 5), 0);
	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, 1, 0, NOW + 5), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	/* two start now (end 10), two at 5 (end 15) */
	ck_assert_double_eq_tol(finish(la, a), 15, 1e-9);
	/* a running task outlasting the pending ones sets the finish */
	ck_assert_int_eq(
		dl_la_add_running(la, a, DL_MAP, DL_NO_NODE, 0, 0, NOW + 40),
		0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 40, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* The array's own limit (%N): never more of its tasks at once, its
 * running ones included; the CPUs it leaves go to the next job. */
START_TEST(own_limit)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 2, 4);
	struct dl_la_job ja = map_job(10, 10), jb = map_job(6, 10);
	uint32_t a, b, ab[2];

	ja.phase[DL_MAP].max_running = 2;
	a = dl_la_add_job(la, &ja);
	b = dl_la_add_job(la, &jb);
	ab[0] = a;
	ab[1] = b;
	/* 8 CPUs, but 2 at a time: five waves of two */
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 50, 1e-9);
	/* ranked first, it leaves 6 CPUs to b: b in one wave */
	ck_assert_int_eq(dl_la_run(la, ab, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 50, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 10, 1e-9);
	/* one of its tasks already runs until NOW + 5, so one starts now
	 * and then one whenever one ends, 5 s apart: the tenth starts at
	 * 45 and ends at 55 */
	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, 1, 0, NOW + 5), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 55, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(barrier_and_what_lower_jobs_take)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job mr = mr_job(2, 10, 4), other = map_job(10, 100);
	uint32_t a = dl_la_add_job(la, &mr), b = dl_la_add_job(la, &other);
	uint32_t order[2] = {a, b};

	ck_assert_int_eq(dl_la_run(la, order, 2, INFINITY), 0);
	/* maps [0, 10]; meanwhile the lower job takes the two free CPUs
	 * until 100, so the four reduces run two at a time: 10-20, 20-30 */
	ck_assert_double_eq_tol(dl_la_job(la, a)->map_end - NOW, 10, 1e-9);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	/* alone, all four reduces run at once */
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 20, 1e-9);
	/* a running map keeps the reduces waiting until it ends */
	mr.phase[DL_MAP].pending = 0;
	a = dl_la_add_job(la, &mr);
	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, 1, 0, NOW + 25),
			 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->map_end - NOW, 25, 1e-9);
	ck_assert_double_eq_tol(finish(la, a), 35, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(reduces_ready_at_start)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 2);
	struct dl_la_job mr = mr_job(0, 10, 2), other = map_job(2, 100);
	uint32_t a = dl_la_add_job(la, &mr), b = dl_la_add_job(la, &other);
	uint32_t order[2] = {a, b};

	/* every map has ended before now: the reduces start now, ahead of
	 * the lower job, not after it has taken both CPUs */
	ck_assert_int_eq(dl_la_run(la, order, 2, INFINITY), 0);
	ck_assert_double_eq_tol(dl_la_job(la, a)->map_end - NOW, 0, 1e-9);
	ck_assert_double_eq_tol(finish(la, a), 10, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 110, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(hard_deadline_start_window)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job j = map_job(8, 10);
	uint32_t a;

	/* the second wave would start at 10, after the window closed */
	j.phase[DL_MAP].latest_start = NOW + 5;
	a = dl_la_add_job(la, &j);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert(dl_la_job(la, a)->cancelled);
	ck_assert(isinf(dl_la_job(la, a)->finish));
	/* open until 10: both waves start in time */
	dl_la_job(la, a)->phase[DL_MAP].latest_start = NOW + 10;
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert(!dl_la_job(la, a)->cancelled);
	ck_assert_double_eq_tol(finish(la, a), 20, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* Tasks Slurm starts no earlier than their begin time: the rest of the
 * phase starts now, a lower job takes what they leave meanwhile, the
 * reduces wait for a deferred map, deferred reduces wait for their time,
 * a begin time already passed defers nothing and one past the horizon
 * never ends. */
START_TEST(deferred_tasks_start_at_their_begin_time)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job j = map_job(4, 10), other = map_job(4, 100);
	struct dl_la_job mr = mr_job(2, 10, 2);
	uint32_t a, b, m, order[2];

	a = dl_la_add_job(la, &j);
	ck_assert_int_eq(dl_la_defer(la, a, DL_MAP, 2, NOW + 50), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 60, 1e-9);
	ck_assert_double_eq_tol(dl_la_job(la, a)->map_end - NOW, 60, 1e-9);
	/* below it, a job of 100-s tasks takes the two CPUs left at 0 and
	 * the two its first tasks free at 10: the deferred ones wait for
	 * them until 100 */
	b = dl_la_add_job(la, &other);
	order[0] = a;
	order[1] = b;
	ck_assert_int_eq(dl_la_run(la, order, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 110, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 110, 1e-9);
	/* a begin time already passed defers nothing (the call replaces
	 * the first) */
	ck_assert_int_eq(dl_la_defer(la, a, DL_MAP, 2, NOW - 5), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 10, 1e-9);
	/* past the horizon: never started, never ended */
	ck_assert_int_eq(dl_la_defer(la, a, DL_MAP, 2, NOW + 50), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, NOW + 40), 0);
	ck_assert(isinf(dl_la_job(la, a)->finish));
	/* one map deferred to 30: the reduces wait for it, 40-50 */
	m = dl_la_add_job(la, &mr);
	ck_assert_int_eq(dl_la_defer(la, m, DL_MAP, 1, NOW + 30), 0);
	ck_assert_int_eq(dl_la_run(la, &m, 1, INFINITY), 0);
	ck_assert_double_eq_tol(dl_la_job(la, m)->map_end - NOW, 40, 1e-9);
	ck_assert_double_eq_tol(finish(la, m), 50, 1e-9);
	/* the reduces deferred to 100 instead: maps 0-10, reduces 100-110 */
	ck_assert_int_eq(dl_la_defer(la, m, DL_MAP, 0, NOW + 30), 0);
	ck_assert_int_eq(dl_la_defer(la, m, DL_REDUCE, 2, NOW + 100), 0);
	ck_assert_int_eq(dl_la_run(la, &m, 1, INFINITY), 0);
	ck_assert_double_eq_tol(dl_la_job(la, m)->map_end - NOW, 10, 1e-9);
	ck_assert_double_eq_tol(finish(la, m), 110, 1e-9);
	/* more deferred than pending, no begin time, no such job or phase */
	ck_assert_int_eq(dl_la_defer(la, a, DL_MAP, 5, NOW + 50), EINVAL);
	ck_assert_int_eq(dl_la_defer(la, a, DL_MAP, 1, NAN), EINVAL);
	ck_assert_int_eq(dl_la_defer(la, 99, DL_MAP, 1, NOW + 50), EINVAL);
	ck_assert_int_eq(dl_la_defer(la, a, 2, 1, NOW + 50), EINVAL);
	ck_assert_int_eq(dl_la_defer(NULL, a, DL_MAP, 1, NOW + 50), EINVAL);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(held_capacity_comes_back)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	struct dl_la_job j = map_job(6, 10);
	uint32_t a;

	fx_cluster(&cl, 1, 4, 0);
	cl.nodes[0].up = true;
	cl.nodes[0].cpus_other = 2; /* a job without deadline */
	la = dl_la_new(&cl, NULL, NOW, 1);
	a = dl_la_add_job(la, &j);
	/* never back: 6 tasks on 2 CPUs */
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	dl_la_free(la);
	/* back at 5: 2 at 0, 2 at 5, 2 at 10 */
	la = dl_la_new(&cl, NULL, NOW, 1);
	a = dl_la_add_job(la, &j);
	ck_assert_int_eq(dl_la_add_held(la, 0, 2, 0, NOW + 5), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 20, 1e-9);
	/* a job without deadline among the input's jobs holds 2 more CPUs
	 * until 100 (node unknown: the partition's class): from 5 on, 2
	 * CPUs run the 6 tasks in three waves */
	ck_assert_int_eq(dl_la_add_other(la, 0, DL_NO_NODE, 2, 0, NOW + 100),
			 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 35, 1e-9);
	/* 2 more for good: the node is over-full until 100 and then has 2
	 * CPUs for the job */
	ck_assert_int_eq(dl_la_add_other(la, 0, 0, 2, 0, INFINITY), 0);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 130, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(forecast_takes_capacity)
{
	struct dl_cluster cl;
	struct dl_forecast *f;
	struct dl_lookahead *la;
	struct dl_la_job j = map_job(4, 10);
	double load[3] = {0.5, 0.5, 0}; /* half the CPUs until NOW + 100 */
	uint32_t a;

	fx_cluster(&cl, 1, 4, 0);
	cl.nodes[0].up = true;
	cl.nodes[0].cpus_other = 4; /* replaced by the forecast there */
	f = dl_forecast_new(NOW, 50, 0, 3);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(dl_forecast_add_class(f, "web", "n1", 0, load), 0);
	la = dl_la_new(&cl, f, NOW, 1);
	a = dl_la_add_job(la, &j);
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 20, 1e-9);
	/* 8 tasks: 2 at 0, 2 at 10, ..., all 4 CPUs from 100 */
	dl_la_job(la, a)->phase[DL_MAP].pending = 24;
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	/* 20 tasks by 100 (2 per 10 s), then 4 at once */
	ck_assert_double_eq_tol(finish(la, a), 110, 1e-9);
	/* supply: 2 CPUs for 100 s, then 4 */
	ck_assert_int_eq(dl_la_supply_build(la, NOW + 200), 0);
	ck_assert_double_eq_tol(dl_la_supply(la, 0, NOW + 150), 400, 1e-6);
	dl_la_free(la);
	dl_forecast_free(f);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(partitions_and_grid)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	struct dl_la_job j = map_job(4, 3);
	uint32_t a;

	two_partitions(&cl, 2);
	/* a 5 s grid: 3 s tasks end at 5 */
	la = dl_la_new(&cl, NULL, NOW, 5);
	a = dl_la_add_job(la, &j);
	ck_assert(dl_la_serves(la, 0) && dl_la_serves(la, 1));
	ck_assert(!dl_la_compete(la, 0, 1));
	ck_assert(dl_la_compete(la, 1, 1));
	/* partition 0 has 2 CPUs: two waves of 5 */
	ck_assert_int_eq(dl_la_run(la, &a, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 10, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* Ends of capacity at the same time in the same class are one event,
 * however they interleave with other classes and times (more than the
 * merge table's first size), and an end added after a run still counts. */
START_TEST(merged_ends_per_class)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	struct dl_la_job ja = map_job(4, 10), jb = map_job(4, 10);
	uint32_t a, b, order[2];

	two_partitions(&cl, 4);
	la = dl_la_new(&cl, NULL, NOW, 1);
	jb.partition = 1;
	a = dl_la_add_job(la, &ja);
	b = dl_la_add_job(la, &jb);
	/* every CPU of both nodes until 10, a task at a time and the nodes
	 * taking turns, between 1,500 empty ends at other times */
	for (uint32_t i = 0; i < 1500; i++) {
		if (i % 375 == 0)
			for (uint32_t n = 0; n < 2; n++)
				ck_assert_int_eq(dl_la_add_other(la, n, n, 1, 0,
								 NOW + 10),
						 0);
		ck_assert_int_eq(
			dl_la_add_other(la, i % 2, i % 2, 0, 0, NOW + 30 + i),
			0);
	}
	order[0] = a;
	order[1] = b;
	ck_assert_int_eq(dl_la_run(la, order, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 20, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 20, 1e-9);
	/* one more CPU of n1 held until 15: 3 tasks at 10, the last at 15 */
	ck_assert_int_eq(dl_la_add_other(la, 0, 0, 1, 0, NOW + 15), 0);
	ck_assert_int_eq(dl_la_run(la, order, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 25, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 20, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

/* Events far ahead on a fine grid (past the steps kept in buckets, so in
 * the heap) come in time order with the near ones; events past the
 * horizon are never applied, yet a job whose tasks all started by then
 * gets its last end. */
START_TEST(far_events_and_horizon)
{
	struct dl_cluster cl;
	struct dl_lookahead *la;
	/* 5,000 s tasks on a 0.01 s grid: ends at 0.5, 1 and 1.5 million
	 * steps, the last past the buckets' 2^20 */
	struct dl_la_job ja = map_job(3, 5000), jb = map_job(1, 0.5);
	uint32_t a, b, ab[2];

	fx_cluster(&cl, 1, 1, 0);
	cl.nodes[0].up = true;
	la = dl_la_new(&cl, NULL, NOW, 0.01);
	ck_assert_ptr_nonnull(la);
	a = dl_la_add_job(la, &ja);
	b = dl_la_add_job(la, &jb);
	ab[0] = a;
	ab[1] = b;
	ck_assert_int_eq(dl_la_run(la, ab, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 15000, 1e-6);
	ck_assert_double_eq_tol(finish(la, b), 15000.5, 1e-6);
	/* the horizon before the third task starts: a never finishes,
	 * nor does b behind it */
	ck_assert_int_eq(dl_la_run(la, ab, 2, NOW + 9000), 0);
	ck_assert(isinf(dl_la_job(la, a)->finish));
	ck_assert(isinf(dl_la_job(la, b)->finish));
	dl_la_free(la);
	/* three CPUs: every task starts now; a 100 s horizon drops their
	 * ends, and a still finishes at its last one, b never */
	dl_cluster_free(&cl);
	fx_cluster(&cl, 1, 3, 0);
	cl.nodes[0].up = true;
	la = dl_la_new(&cl, NULL, NOW, 0.01);
	a = dl_la_add_job(la, &ja);
	b = dl_la_add_job(la, &jb);
	ab[0] = a;
	ab[1] = b;
	ck_assert_int_eq(dl_la_run(la, ab, 2, NOW + 100), 0);
	ck_assert_double_eq_tol(finish(la, a), 5000, 1e-6);
	ck_assert(isinf(dl_la_job(la, b)->finish));
	ck_assert_int_eq(dl_la_run(la, ab, 2, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, b), 5000.5, 1e-6);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(supply_of_running_tasks)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job j = map_job(1, 10);
	uint32_t a = dl_la_add_job(la, &j);

	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, 2, 0, NOW + 10),
			 0);
	ck_assert_int_eq(dl_la_supply_build(la, NOW + 100), 0);
	/* 2 free CPUs for 10 s, then 4 */
	ck_assert_double_eq_tol(dl_la_supply(la, 0, NOW + 20), 60, 1e-9);
	ck_assert_double_eq_tol(dl_la_supply(la, 0, NOW + 5), 10, 1e-9);
	ck_assert_double_eq_tol(dl_la_supply(la, 0, NOW), 0, 1e-9);
	ck_assert_double_eq_tol(dl_la_supply(la, 1, NOW + 20), 0, 1e-9);
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(run_in_steps)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job mr = mr_job(6, 10, 2), small = map_job(2, 5);
	uint32_t a = dl_la_add_job(la, &mr), b = dl_la_add_job(la, &small);
	uint32_t order[2] = {a, b}, bad = 9;

	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, 1, 0, NOW + 3), 0);
	/* not started: nothing to advance, no finish */
	ck_assert_int_eq(dl_la_advance(la, NOW + 10), EINVAL);
	ck_assert(isinf(dl_la_finish_so_far(la, a)));
	ck_assert_int_eq(dl_la_run(la, order, 2, INFINITY), 0);
	/* maps: 3 at 0-10, 1 at 3-13, 2 at 10-20; b's two at 10-15 and
	 * 13-18; the reduces wait for the last map (20), then 20-30 */
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 18, 1e-9);

	ck_assert_int_eq(dl_la_start(la, order, 2, INFINITY), 0);
	ck_assert(isinf(dl_la_finish_so_far(la, a)));
	ck_assert_int_eq(dl_la_advance(la, NOW + 12), 0);
	/* b's first task started at 10, its second not yet */
	ck_assert(isinf(dl_la_finish_so_far(la, b)));
	ck_assert_int_eq(dl_la_advance(la, NOW + 13), 0);
	ck_assert_double_eq_tol(dl_la_finish_so_far(la, b) - NOW, 18, 1e-9);
	ck_assert(isinf(dl_la_finish_so_far(la, a))); /* reduces wait */
	ck_assert_int_eq(dl_la_advance(la, NOW + 20), 0);
	/* every task started by 20: the finishes are final */
	ck_assert_double_eq_tol(dl_la_finish_so_far(la, a) - NOW, 30, 1e-9);
	/* results are written once the horizon is reached, as by dl_la_run */
	ck_assert(isinf(dl_la_job(la, a)->finish));
	ck_assert_int_eq(dl_la_advance(la, NOW + 20), 0); /* again: nothing */
	ck_assert_int_eq(dl_la_advance(la, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	ck_assert_double_eq_tol(finish(la, b), 18, 1e-9);
	ck_assert_double_eq_tol(dl_la_job(la, a)->map_end - NOW, 20, 1e-9);
	/* the run is over: advancing again changes nothing */
	dl_la_job(la, b)->finish = 0;
	ck_assert_int_eq(dl_la_advance(la, INFINITY), 0);
	ck_assert_double_eq(dl_la_job(la, b)->finish, 0);
	ck_assert_int_eq(dl_la_advance(NULL, INFINITY), EINVAL);
	ck_assert(isinf(dl_la_finish_so_far(la, 9)));
	ck_assert(isinf(dl_la_finish_so_far(NULL, a)));

	/* a step past the horizon ends the run; the next step is a no-op
	 * (triage steps to each deadline, and the last may pass it) */
	ck_assert_int_eq(dl_la_start(la, order, 2, NOW + 40), 0);
	ck_assert_int_eq(dl_la_advance(la, NOW + 50), 0);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	ck_assert_int_eq(dl_la_advance(la, NOW + 60), 0);
	ck_assert_double_eq_tol(finish(la, a), 30, 1e-9);
	/* a failed start leaves nothing to advance */
	ck_assert_int_eq(dl_la_start(la, &bad, 1, INFINITY), EINVAL);
	ck_assert_int_eq(dl_la_advance(la, INFINITY), EINVAL);
	ck_assert(isinf(dl_la_finish_so_far(la, b)));

	/* a run stopped early is replaced by the next start */
	ck_assert_int_eq(dl_la_start(la, order, 2, INFINITY), 0);
	ck_assert_int_eq(dl_la_advance(la, NOW + 5), 0);
	ck_assert_int_eq(dl_la_run(la, &b, 1, INFINITY), 0);
	ck_assert_double_eq_tol(finish(la, b), 5, 1e-9);
	ck_assert(isinf(dl_la_job(la, a)->finish));
	dl_la_free(la);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(bad_input)
{
	struct dl_cluster cl;
	struct dl_lookahead *la = la_on(&cl, 1, 4);
	struct dl_la_job j = map_job(1, 10);
	uint32_t a, bad = 7;

	ck_assert_ptr_null(dl_la_new(NULL, NULL, NOW, 1));
	ck_assert_ptr_null(dl_la_new(&cl, NULL, NAN, 1));
	ck_assert_ptr_null(dl_la_new(&cl, NULL, NOW, 0));
	j.phase[DL_MAP].len = 0; /* pending tasks need a length */
	ck_assert_uint_eq(dl_la_add_job(la, &j), DL_LA_NONE);
	j.phase[DL_MAP].len = NAN;
	ck_assert_uint_eq(dl_la_add_job(la, &j), DL_LA_NONE);
	j.phase[DL_MAP].len = 10;
	/* room reserved ahead, or refused past what a job index holds */
	ck_assert_int_eq(dl_la_reserve(NULL, 1, 1), EINVAL);
	ck_assert_int_eq(dl_la_reserve(la, UINT32_MAX, 0), ENOMEM);
	ck_assert_int_eq(dl_la_reserve(la, 100, 1000), 0);
	a = dl_la_add_job(la, &j);
	ck_assert_uint_ne(a, DL_LA_NONE);
	ck_assert_int_eq(dl_la_add_running(la, a + 1, DL_MAP, 0, 1, 0, NOW),
			 EINVAL);
	ck_assert_int_eq(dl_la_add_running(la, a, 2, 0, 1, 0, NOW), EINVAL);
	ck_assert_int_eq(dl_la_add_running(la, a, DL_MAP, 0, NAN, 0, NOW),
			 EINVAL);
	ck_assert_int_eq(
		dl_la_add_running(la, DL_LA_NONE, DL_MAP, 0, 1, 0, NOW),
		EINVAL);
	ck_assert_int_eq(dl_la_add_other(la, 0, 0, -1, 0, NOW), EINVAL);
	ck_assert_int_eq(dl_la_add_held(la, 5, 1, 0, NOW), EINVAL);
	ck_assert_int_eq(dl_la_run(la, &bad, 1, INFINITY), EINVAL);
	ck_assert_int_eq(dl_la_run(NULL, &a, 1, INFINITY), EINVAL);
	ck_assert_ptr_null(dl_la_job(la, 9));
	dl_la_free(la);
	dl_la_free(NULL);
	dl_cluster_free(&cl);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lookahead");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, whole_waves);
	tcase_add_test(tc, priority_order);
	tcase_add_test(tc, running_tasks_hold_capacity);
	tcase_add_test(tc, own_limit);
	tcase_add_test(tc, barrier_and_what_lower_jobs_take);
	tcase_add_test(tc, reduces_ready_at_start);
	tcase_add_test(tc, hard_deadline_start_window);
	tcase_add_test(tc, deferred_tasks_start_at_their_begin_time);
	tcase_add_test(tc, held_capacity_comes_back);
	tcase_add_test(tc, forecast_takes_capacity);
	tcase_add_test(tc, partitions_and_grid);
	tcase_add_test(tc, merged_ends_per_class);
	tcase_add_test(tc, far_events_and_horizon);
	tcase_add_test(tc, supply_of_running_tasks);
	tcase_add_test(tc, run_in_steps);
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
