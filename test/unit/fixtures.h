/*
 * fixtures.h - small builders shared by the unit tests.
 */
#ifndef DL_TEST_FIXTURES_H
#define DL_TEST_FIXTURES_H

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/config/config.h"
#include "common/model/model.h"
#include "common/plan/plan.h"

/* n nodes of `cpus` CPUs, all in partition 0 ("batch"), regular pool;
 * the first `accel` nodes in the accelerated pool. */
static inline void fx_cluster(struct dl_cluster *cl, uint32_t n, uint32_t cpus,
			      uint32_t accel)
{
	ck_assert_int_eq(dl_cluster_init(cl, n), 0);
	ck_assert_int_eq(dl_cluster_add_partition(cl, "batch"), 0);
	for (uint32_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "n%u", i + 1);
		ck_assert_int_eq(dl_node_set(&cl->nodes[i], name, cpus, 4000,
					     i < accel ? DL_POOL_ACCEL
						       : DL_POOL_REGULAR),
				 0);
		ck_assert_int_eq(dl_partset_add(&cl->nodes[i].partitions, 0),
				 0);
	}
}

/* A map-only job of `tasks` 1-CPU tasks with a soft deadline. */
static inline struct dl_job *fx_job(uint64_t id, uint32_t tasks, double submit,
				    double deadline)
{
	struct dl_job *j = dl_job_new(id, "alice", "wc", "acct");

	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(dl_phase_init(j, DL_MAP, tasks, 1, 0), 0);
	j->submit = submit;
	j->soft_deadline = deadline;
	return j;
}

/* Complete k tasks of length len on pool. */
static inline void fx_done(struct dl_job *j, int phase, uint32_t k, double len,
			   int pool)
{
	for (uint32_t i = 0; i < k; i++)
		ck_assert_int_eq(dl_phase_add_completed(&j->phase[phase], len,
							(enum dl_pool) pool),
				 0);
}

static inline void fx_run(struct dl_job *j, int phase, uint32_t k, double start,
			  int pool)
{
	for (uint32_t i = 0; i < k; i++)
		ck_assert_int_eq(dl_phase_add_running(&j->phase[phase], start,
						      DL_NO_NODE,
						      (enum dl_pool) pool),
				 0);
}

static inline struct dl_config fx_config(void)
{
	struct dl_config cfg;

	ck_assert_int_eq(dl_config_defaults(&cfg), 0);
	return cfg;
}

/* Run a suite with Check's normal output; exit status for automake. */
/* A cluster, a configuration, jobs and the plan made of them: the setting
 * of the policy tests (each file builds its own). */
struct fx_world {
	struct dl_cluster cl;
	struct dl_config cfg;
	struct dl_job *jobs[64];
	uint32_t n;
	struct dl_plan *plan;
};

/* The plan's entry of job id; the test fails without one. */
static inline const struct dl_plan_job *fx_world_get(struct fx_world *w,
						     uint64_t id)
{
	const struct dl_plan_job *pj = dl_plan_find(w->plan, id);

	ck_assert_ptr_nonnull(pj);
	return pj;
}

static inline void fx_world_free(struct fx_world *w)
{
	for (uint32_t i = 0; i < w->n; i++)
		dl_job_free(w->jobs[i]);
	dl_plan_free(w->plan);
	dl_config_free(&w->cfg);
	dl_cluster_free(&w->cl);
}

static inline int fx_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
