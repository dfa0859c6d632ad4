/*
 * test_pf_scale.c - a portfolio round's model of a large queue
 * (portfolio/scale.c, round.c): a seeded sample of the arrays on the same
 * share of the cluster, running tasks kept on their nodes or moved to the
 * kept node with the most room, every sampled array's partition served,
 * and plan cycles on the round's coarser grid.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/portfolio/round.h"
#include "common/portfolio/scale.h"
#include "fixtures.h"

struct q {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
};

/* nnodes one-partition nodes of 4 CPUs (node 3 also in partition 1),
 * njobs arrays of 10 tasks of 100 s, job j with 2 running tasks on node j
 * (mod nnodes) when running */
static void q_make(struct q *q, uint32_t nnodes, uint32_t njobs, bool running)
{
	memset(q, 0, sizeof(*q));
	q->cs.nnodes = nnodes;
	q->cs.nodes = calloc(nnodes, sizeof(*q->cs.nodes));
	ck_assert_ptr_nonnull(q->cs.nodes);
	q->cs.partitions[0] = strdup("batch");
	q->cs.partitions[1] = strdup("gpu");
	q->cs.npartitions = 2;
	for (uint32_t n = 0; n < nnodes; n++) {
		char name[16];

		snprintf(name, sizeof(name), "n%u", n);
		q->cs.nodes[n].name = strdup(name);
		q->cs.nodes[n].cpus = 4;
		q->cs.nodes[n].speed = 1;
		q->cs.nodes[n].partitions = n == 3 ? 3 : 1;
	}
	q->ws.njobs = njobs;
	q->ws.jobs = calloc(njobs, sizeof(*q->ws.jobs));
	ck_assert_ptr_nonnull(q->ws.jobs);
	for (uint32_t j = 0; j < njobs; j++) {
		struct sim_job_spec *js = &q->ws.jobs[j];
		struct sim_phase_spec *ph = &js->phase[0];
		char name[16];

		snprintf(name, sizeof(name), "j%u", j);
		js->name = strdup(name);
		js->user = strdup("u");
		js->account = strdup("a");
		js->arrival = 100;
		js->deadline = 100 + 400 + 10 * j;
		ph->tasks = 10;
		ph->cpus = 1;
		sim_dist_const(&ph->len, 100);
		ph->prior_mean = ph->prior_p90 = 100;
		if (running) {
			ph->nrunning = 2;
			ph->running_node = calloc(2, sizeof(uint32_t));
			ph->running_elapsed = calloc(2, sizeof(double));
			ph->running_node[0] = ph->running_node[1] = j % nnodes;
			ph->running_elapsed[0] = 10;
			ph->running_elapsed[1] = 20;
		}
	}
}

static void q_free(struct q *q)
{
	sim_workload_spec_free(&q->ws);
	sim_cluster_spec_free(&q->cs);
}

START_TEST(small_queue_is_not_scaled)
{
	struct q q;
	struct dl_pf_scaled s;
	char err[128] = "";

	q_make(&q, 10, 5, true);
	ck_assert_int_eq(dl_pf_scale(&q.cs, &q.ws, 50, 1, &s, err, sizeof(err)),
			 0);
	ck_assert(!s.scaled);
	ck_assert_double_eq(s.share, 1);
	ck_assert_uint_eq(s.tasks_in, 50);
	dl_pf_scaled_free(&s);
	/* 0: never */
	ck_assert_int_eq(dl_pf_scale(&q.cs, &q.ws, 0, 1, &s, err, sizeof(err)),
			 0);
	ck_assert(!s.scaled);
	dl_pf_scaled_free(&s);
	ck_assert_int_eq(dl_pf_scale(NULL, &q.ws, 10, 1, &s, err, sizeof(err)),
			 EINVAL);
	q_free(&q);
}
END_TEST

START_TEST(sample_holds_the_tasks_on_the_same_share)
{
	struct q q;
	struct dl_pf_scaled s, again, other;
	char err[128] = "";
	bool differs = false;

	/* 100 equal arrays of 10 tasks on 200 nodes; 95 tasks asked: ten
	 * arrays (the tenth crosses 95), a tenth of the work, so 20 nodes */
	q_make(&q, 200, 100, false);
	ck_assert_int_eq(dl_pf_scale(&q.cs, &q.ws, 95, 7, &s, err, sizeof(err)),
			 0);
	ck_assert(s.scaled);
	ck_assert_uint_eq(s.ws.njobs, 10);
	ck_assert_uint_eq(s.tasks_out, 100);
	ck_assert_uint_eq(s.tasks_in, 1000);
	ck_assert_double_eq_tol(s.share, 0.1, 1e-12);
	ck_assert_uint_eq(s.cs.nnodes, 20);
	/* evenly spread: one node in every ten of the list */
	for (uint32_t i = 0; i < s.cs.nnodes; i++) {
		int n = atoi(s.cs.nodes[i].name + 1);

		ck_assert_int_ge(n, (int) (10 * i));
		ck_assert_int_lt(n, (int) (10 * (i + 1)));
	}
	/* the sample keeps the queue's order and the jobs' identity (the
	 * engine keys a job's draws by its name) */
	for (uint32_t i = 1; i < s.ws.njobs; i++)
		ck_assert_int_lt(atoi(s.ws.jobs[i - 1].name + 1),
				 atoi(s.ws.jobs[i].name + 1));
	/* deterministic for a seed; another seed samples other arrays */
	ck_assert_int_eq(
		dl_pf_scale(&q.cs, &q.ws, 95, 7, &again, err, sizeof(err)), 0);
	ck_assert_int_eq(
		dl_pf_scale(&q.cs, &q.ws, 95, 8, &other, err, sizeof(err)), 0);
	for (uint32_t i = 0; i < s.ws.njobs; i++) {
		ck_assert_str_eq(s.ws.jobs[i].name, again.ws.jobs[i].name);
		differs |= strcmp(s.ws.jobs[i].name, other.ws.jobs[i].name);
	}
	for (uint32_t i = 0; i < s.cs.nnodes; i++)
		ck_assert_str_eq(s.cs.nodes[i].name, again.cs.nodes[i].name);
	ck_assert(differs);
	dl_pf_scaled_free(&s);
	dl_pf_scaled_free(&again);
	dl_pf_scaled_free(&other);
	/* the share is of the work: one array of 30-s tasks among arrays
	 * of 100 s weighs less than its tasks' share */
	sim_dist_const(&q.ws.jobs[0].phase[0].len, 30);
	ck_assert_int_eq(dl_pf_scale(&q.cs, &q.ws, 1, 3, &s, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(s.ws.njobs, 1);
	ck_assert_double_eq_tol(s.share,
				!strcmp(s.ws.jobs[0].name, "j0")
					? 300.0 / (300 + 99 * 1000)
					: 1000.0 / (300 + 99 * 1000),
				1e-12);
	dl_pf_scaled_free(&s);
	q_free(&q);
}
END_TEST

START_TEST(partition_of_a_sampled_array_is_served)
{
	struct q q;
	struct dl_pf_scaled s;
	char err[128] = "";
	bool gpu = false;

	/* every array in partition gpu, which only node 3 serves; a share
	 * of a tenth keeps one node in ten, and node 3 is added if missed */
	q_make(&q, 100, 50, false);
	for (uint32_t j = 0; j < 50; j++)
		q.ws.jobs[j].partition = 1;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		ck_assert_int_eq(dl_pf_scale(&q.cs, &q.ws, 50, seed, &s, err,
					     sizeof(err)),
				 0);
		ck_assert(s.scaled);
		gpu = false;
		for (uint32_t i = 0; i < s.cs.nnodes; i++)
			gpu |= !strcmp(s.cs.nodes[i].name, "n3");
		ck_assert_msg(gpu, "seed %llu: no node of partition gpu",
			      (unsigned long long) seed);
		dl_pf_scaled_free(&s);
	}
	q_free(&q);
}
END_TEST

START_TEST(running_tasks_stay_or_move_to_room)
{
	struct q q;
	struct dl_pf_scaled s;
	char err[128] = "";

	/* 40 arrays with two tasks running on node j % 20: half the
	 * arrays sampled, half the nodes kept.  Tasks on a kept node stay
	 * there; the others go where most CPUs are free (lowest first) */
	q_make(&q, 20, 40, true);
	ck_assert_int_eq(
		dl_pf_scale(&q.cs, &q.ws, 200, 5, &s, err, sizeof(err)), 0);
	ck_assert(s.scaled);
	ck_assert_uint_eq(s.ws.njobs, 20);
	ck_assert_uint_eq(s.cs.nnodes, 10);
	{
		uint32_t used[10] = {0};
		uint32_t moved = 0;

		for (uint32_t j = 0; j < s.ws.njobs; j++) {
			const struct sim_phase_spec *ph =
				&s.ws.jobs[j].phase[0];
			uint32_t orig =
				(uint32_t) atoi(s.ws.jobs[j].name + 1) % 20;

			ck_assert_uint_eq(ph->nrunning, 2);
			ck_assert_double_eq(ph->running_elapsed[0], 10);
			ck_assert_double_eq(ph->running_elapsed[1], 20);
			for (int r = 0; r < 2; r++) {
				uint32_t n = ph->running_node[r];

				ck_assert_uint_lt(n, s.cs.nnodes);
				used[n]++;
				if (atoi(s.cs.nodes[n].name + 1) != (int) orig)
					moved++;
			}
		}
		/* 40 tasks on 40 kept CPUs: spread so no node is over */
		for (uint32_t n = 0; n < 10; n++)
			ck_assert_uint_le(used[n], 4);
		ck_assert_uint_gt(moved, 0);
	}
	/* the input is untouched: its running tasks on the full cluster */
	for (uint32_t j = 0; j < 40; j++)
		ck_assert_uint_eq(q.ws.jobs[j].phase[0].running_node[0],
				  j % 20);
	dl_pf_scaled_free(&s);
	q_free(&q);
}
END_TEST

START_TEST(round_simulates_the_sample_on_the_grid)
{
	struct q q;
	struct dl_pf_round full, model, grid;
	enum dl_policy cands[] = {DL_POLICY_TRIAGE, DL_POLICY_EDF};
	struct dl_pf_params p = {.samples = 2,
				 .seed = 9,
				 .budget_s = 600,
				 .horizon_s = 3600,
				 .weights = {1, 0.1, 0.1}};
	struct dl_config cfg = fx_config();
	char err[256] = "";

	cfg.plan_interval = 10;
	cfg.replan_delay = 1;
	q_make(&q, 40, 60, true);
	ck_assert_int_eq(dl_pf_run_round(&q.cs, &q.ws, &cfg, cands, 2, &p,
					 &full, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(full.jobs, 60);
	ck_assert_uint_eq(full.nodes, 40);
	ck_assert_double_eq(full.share, 1);
	/* the grid alone: every array, plans at most every 120 s and 120 s
	 * after task ends -- two per 120 s of an hour at most, per run */
	p.plan_grid = 120;
	ck_assert_int_eq(dl_pf_run_round(&q.cs, &q.ws, &cfg, cands, 2, &p,
					 &grid, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(grid.runs, 4);
	ck_assert_uint_le(grid.plans, 4 * (2 * 3600 / 120 + 2));
	ck_assert_uint_lt(grid.plans, full.plans);
	/* the sample: a third of the tasks, the same share of the nodes */
	p.sample_tasks = 200;
	ck_assert_int_eq(dl_pf_run_round(&q.cs, &q.ws, &cfg, cands, 2, &p,
					 &model, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(model.jobs, 20);
	ck_assert_double_eq_tol(model.share, 1.0 / 3, 1e-12);
	ck_assert_uint_ge(model.nodes, 13);
	ck_assert_uint_le(model.nodes, 14);
	ck_assert_uint_eq(model.runs, 4);
	for (uint32_t i = 0; i < 2; i++)
		ck_assert_msg(model.r[i].scored, "%s", model.r[i].err);
	q_free(&q);
	dl_config_free(&cfg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("pf_scale");
	TCase *tc = tcase_create("scale");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, small_queue_is_not_scaled);
	tcase_add_test(tc, sample_holds_the_tasks_on_the_same_share);
	tcase_add_test(tc, partition_of_a_sampled_array_is_served);
	tcase_add_test(tc, running_tasks_stay_or_move_to_room);
	tcase_add_test(tc, round_simulates_the_sample_on_the_grid);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
