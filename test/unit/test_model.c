/*
 * test_model.c - jobs, phases and cluster invariants.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"

START_TEST(test_counts)
{
	struct dl_job *j = fx_job(1, 10, 0, 100);
	struct dl_phase *ph = &j->phase[DL_MAP];

	ck_assert_uint_eq(dl_phase_pending(ph), 10);
	fx_done(j, DL_MAP, 3, 5, DL_POOL_REGULAR);
	fx_run(j, DL_MAP, 4, 10, DL_POOL_REGULAR);
	ck_assert_int_eq(dl_phase_add_failed(ph), 0);
	ck_assert_uint_eq(dl_phase_pending(ph), 2);
	ck_assert_uint_eq(dl_phase_done(ph), 3);
	ck_assert(!dl_phase_finished(ph));
	ck_assert_int_eq(dl_job_active_phase(j), DL_MAP);
	dl_job_free(j);
}
END_TEST

START_TEST(test_overflow_rejected)
{
	struct dl_job *j = fx_job(1, 2, 0, 100);
	struct dl_phase *ph = &j->phase[DL_MAP];

	fx_run(j, DL_MAP, 2, 0, DL_POOL_REGULAR);
	ck_assert_int_eq(dl_phase_add_running(ph, 1, DL_NO_NODE, 0), ERANGE);
	ck_assert_int_eq(dl_phase_add_completed(ph, 1, 0), ERANGE);
	ck_assert_int_eq(dl_phase_add_failed(ph), ERANGE);
	ck_assert_int_eq(dl_phase_init(j, DL_MAP, DL_MAX_TASKS + 1, 1, 0),
			 EINVAL);
	dl_job_free(j);
}
END_TEST

START_TEST(test_bad_values)
{
	struct dl_job *j = fx_job(1, 5, 0, 100);
	struct dl_phase *ph = &j->phase[DL_MAP];

	ck_assert_int_eq(dl_phase_add_running(ph, -1, 0, 0), EINVAL);
	ck_assert_int_eq(dl_phase_add_running(ph, NAN, 0, 0), EINVAL);
	ck_assert_int_eq(dl_phase_add_running(ph, 1, 0, 7), EINVAL);
	ck_assert_int_eq(dl_phase_add_completed(ph, -3, 0), EINVAL);
	ck_assert_int_eq(dl_phase_add_completed(ph, INFINITY, 0), EINVAL);
	ck_assert_int_eq(dl_phase_add_running(NULL, 1, 0, 0), EINVAL);
	ck_assert_int_eq(dl_phase_add_completed(NULL, 1, 0), EINVAL);
	ck_assert_int_eq(dl_phase_add_failed(NULL), EINVAL);
	ck_assert_int_eq(dl_phase_init(NULL, DL_MAP, 1, 1, 0), EINVAL);
	ck_assert_int_eq(dl_phase_init(j, (enum dl_phase_kind) 5, 1, 1, 0),
			 EINVAL);
	ck_assert_uint_eq(dl_phase_pending(NULL), 0);
	ck_assert_int_eq(dl_job_active_phase(NULL), -1);
	ck_assert(dl_job_deadline(NULL) == 0);
	dl_job_free(j);
	dl_job_free(NULL);
}
END_TEST

START_TEST(test_validate)
{
	struct dl_cluster cl;
	struct dl_job *j = fx_job(1, 5, 0, 100);
	char err[256];

	fx_cluster(&cl, 2, 2, 0);
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), 0);
	j->submit = -5;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "negative"));
	j->submit = 0;
	j->partition = 3;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	j->partition = 0;
	j->phase[DL_MAP].completed = 9; /* more than the phase has */
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "only 5 exist"));
	j->phase[DL_MAP].completed = 0;
	/* held: at most the tasks not started */
	fx_run(j, DL_MAP, 2, 1, DL_POOL_REGULAR);
	j->phase[DL_MAP].held = 3;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), 0);
	ck_assert_uint_eq(dl_job_held(j), 3);
	ck_assert_uint_eq(dl_job_held(NULL), 0);
	j->phase[DL_MAP].held = 4;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "4 tasks held but only 3 pending"));
	j->phase[DL_MAP].held = 0;
	/* deferred: at most the tasks not started, at a valid time */
	j->phase[DL_MAP].deferred = 3;
	j->phase[DL_MAP].deferred_until = 500;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), 0);
	j->phase[DL_MAP].deferred = 4;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "4 tasks deferred (only 3 pending)"));
	j->phase[DL_MAP].deferred = 1;
	j->phase[DL_MAP].deferred_until = NAN;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	j->phase[DL_MAP].deferred = 0;
	j->phase[DL_MAP].deferred_until = 0;
	j->phase[DL_MAP].nrunning = 0;
	j->phase[DL_MAP].tasks = 0;
	ck_assert_int_eq(dl_job_validate(j, &cl, err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_job_validate(NULL, &cl, err, sizeof(err)), EINVAL);
	dl_job_free(j);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(test_phases_and_deadline)
{
	struct dl_job *j = fx_job(1, 2, 0, 0);

	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 1, 1, 0), 0);
	j->phase[DL_MAP].hard_deadline = 500;
	ck_assert(dl_job_deadline(j) == 500);
	j->phase[DL_REDUCE].hard_deadline = 900;
	ck_assert(dl_job_deadline(j) == 900);
	j->soft_deadline = 700;
	ck_assert(dl_job_deadline(j) == 700);
	fx_done(j, DL_MAP, 2, 1, 0);
	ck_assert_int_eq(dl_job_active_phase(j), DL_REDUCE);
	fx_done(j, DL_REDUCE, 1, 1, 0);
	ck_assert_int_eq(dl_job_active_phase(j), -1);
	dl_job_free(j);
}
END_TEST

/* dl_job_begin_ahead: the begin time of a job none of whose tasks has
 * started and whose first tasks are all deferred past now; 0 otherwise. */
START_TEST(test_begin_ahead)
{
	struct dl_job *j = fx_job(1, 4, 0, 0);

	ck_assert_double_eq(dl_job_begin_ahead(NULL, 100), 0);
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	j->phase[DL_MAP].deferred = 4;
	j->phase[DL_MAP].deferred_until = 500;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 500);
	/* reached, passed, or not a time */
	ck_assert_double_eq(dl_job_begin_ahead(j, 500), 0);
	ck_assert_double_eq(dl_job_begin_ahead(j, 600), 0);
	j->phase[DL_MAP].deferred_until = NAN;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	j->phase[DL_MAP].deferred_until = 500;
	/* one task free to start */
	j->phase[DL_MAP].deferred = 3;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	/* one running, one done, one failed: begun */
	j->phase[DL_MAP].deferred = 3;
	fx_run(j, DL_MAP, 1, 50, DL_POOL_REGULAR);
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	j->phase[DL_MAP].nrunning = 0;
	j->phase[DL_MAP].completed = 1;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	j->phase[DL_MAP].completed = 0;
	j->phase[DL_MAP].failed = 1;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	j->phase[DL_MAP].failed = 0;
	j->phase[DL_MAP].deferred = 4;
	/* reduces after the maps: only the maps' begin time counts */
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, 2, 1, 0), 0);
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 500);
	/* reduces that may run beside the maps: theirs too, the earliest */
	j->reduce_overlap = true;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	j->phase[DL_REDUCE].deferred = 2;
	j->phase[DL_REDUCE].deferred_until = 300;
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 300);
	/* the maps done, the reduces deferred: begun */
	j->reduce_overlap = false;
	j->phase[DL_MAP].deferred = 0;
	fx_done(j, DL_MAP, 4, 10, DL_POOL_REGULAR);
	ck_assert_int_eq(dl_job_active_phase(j), DL_REDUCE);
	ck_assert_double_eq(dl_job_begin_ahead(j, 100), 0);
	dl_job_free(j);
}
END_TEST

START_TEST(test_clone)
{
	struct dl_job *j = fx_job(7, 100, 3, 100), *c;

	fx_run(j, DL_MAP, 20, 5, DL_POOL_ACCEL);
	fx_done(j, DL_MAP, 4, 9, DL_POOL_REGULAR);
	c = dl_job_clone(j);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_ne(c->phase[DL_MAP].running, j->phase[DL_MAP].running);
	ck_assert_uint_eq(c->phase[DL_MAP].nrunning, 20);
	ck_assert_str_eq(c->user, "alice");
	ck_assert_ptr_ne(c->user, j->user);
	ck_assert(c->phase[DL_MAP].sum_len[DL_POOL_REGULAR] == 36);
	dl_job_free(j);
	/* the clone must survive its original */
	ck_assert_int_eq(c->phase[DL_MAP].running[19].pool, DL_POOL_ACCEL);
	dl_job_free(c);
	ck_assert_ptr_null(dl_job_clone(NULL));
}
END_TEST

START_TEST(test_cluster_partitions)
{
	struct dl_cluster cl;

	ck_assert_int_eq(dl_cluster_init(&cl, 0), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "a"), 0);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "b"), 1);
	ck_assert_int_eq(dl_cluster_add_partition(&cl, "a"), 0);
	ck_assert_int_eq(dl_cluster_find_partition(&cl, "b"), 1);
	ck_assert_int_eq(dl_cluster_find_partition(&cl, "zz"), -1);
	/* no limit: a 64-bit mask used to stop at 64 */
	for (int i = 2; i < 300; i++) {
		char n[16];

		snprintf(n, sizeof(n), "p%d", i);
		ck_assert_int_eq(dl_cluster_add_partition(&cl, n), i);
	}
	ck_assert_int_eq(dl_cluster_find_partition(&cl, "p299"), 299);
	ck_assert_int_eq(dl_cluster_add_partition(NULL, "x"), -1);
	ck_assert_int_eq(dl_node_set(NULL, "x", 1, 1, 0), EINVAL);
	dl_cluster_free(&cl);
	dl_cluster_free(NULL);
}
END_TEST

/* A view changes what its nodes hold and nothing in the cluster it was
 * taken from; it shares the names. */
START_TEST(test_cluster_view)
{
	struct dl_cluster cl, view;

	fx_cluster(&cl, 3, 4, 0);
	ck_assert_int_eq(dl_cluster_add_held(&cl, 1, 2, 100, 50), 0);
	ck_assert_int_eq(dl_cluster_view(&view, &cl), 0);
	ck_assert_uint_eq(view.nnodes, 3);
	ck_assert_uint_eq(view.nheld, 1);
	ck_assert_ptr_eq(view.nodes[2].name, cl.nodes[2].name);
	ck_assert_ptr_eq(view.partitions, cl.partitions);
	view.nodes[2].cpus_other = 3;
	for (int i = 0; i < 100; i++) /* grows past the copied table */
		ck_assert_int_eq(dl_cluster_add_held(&view, 2, 1, 0, 60 + i),
				 0);
	ck_assert_uint_eq(view.nheld, 101);
	ck_assert(view.held[0].end == 50 && view.held[100].end == 159);
	ck_assert_uint_eq(cl.nodes[2].cpus_other, 0);
	ck_assert_uint_eq(cl.nheld, 1);
	ck_assert(cl.held[0].end == 50);
	dl_cluster_view_free(&view);
	ck_assert_ptr_null(view.nodes);
	ck_assert_str_eq(cl.nodes[2].name, "n3");
	ck_assert_int_eq(dl_cluster_view(NULL, &cl), EINVAL);
	ck_assert_int_eq(dl_cluster_view(&view, NULL), EINVAL);
	dl_cluster_free(&cl);
}
END_TEST

/* A left-out job's running tasks hold their node's CPUs and memory, back
 * at start + time limit; a task on no node holds nothing; without a limit
 * the CPUs are held with no end noted. */
START_TEST(test_cluster_hold_running)
{
	struct dl_cluster cl;
	struct dl_job *job = fx_job(7, 5, 0, 500);
	struct dl_phase *map = &job->phase[DL_MAP];

	fx_cluster(&cl, 2, 4, 0);
	map->cpus_per_task = 2;
	map->mem_per_task = 300;
	map->time_limit = 120;
	ck_assert_int_eq(dl_phase_add_running(map, 10, 1, DL_POOL_REGULAR), 0);
	ck_assert_int_eq(dl_phase_add_running(map, 20, 1, DL_POOL_REGULAR), 0);
	ck_assert_int_eq(
		dl_phase_add_running(map, 30, DL_NO_NODE, DL_POOL_REGULAR), 0);
	ck_assert_int_eq(dl_cluster_hold_running(&cl, job), 0);
	ck_assert_uint_eq(cl.nodes[0].cpus_other, 0);
	ck_assert_uint_eq(cl.nodes[1].cpus_other, 4);
	ck_assert_uint_eq(cl.nodes[1].mem_other, 600);
	ck_assert_uint_eq(cl.nheld, 2);
	ck_assert(cl.held[0].node == 1 && cl.held[0].cpus == 2 &&
		  cl.held[0].end == 130 && cl.held[1].end == 140);
	map->time_limit = 0;
	ck_assert_int_eq(dl_cluster_hold_running(&cl, job), 0);
	ck_assert_uint_eq(cl.nodes[1].cpus_other, 8);
	ck_assert_uint_eq(cl.nheld, 2);
	ck_assert_int_eq(dl_cluster_hold_running(NULL, job), EINVAL);
	ck_assert_int_eq(dl_cluster_hold_running(&cl, NULL), EINVAL);
	dl_job_free(job);
	dl_cluster_free(&cl);
}
END_TEST

/* The partition bitset: membership past a word, the count, the order of
 * the sets read as numbers (what the capacity classes sort by), equality
 * ignoring empty trailing words. */
START_TEST(test_partset)
{
	struct dl_partset a = {NULL, 0}, b = {NULL, 0}, c = {NULL, 0};

	ck_assert(dl_partset_empty(&a));
	ck_assert(dl_partset_empty(NULL));
	ck_assert(!dl_partset_has(&a, 0));
	ck_assert_int_eq(dl_partset_add(&a, 0), 0);
	ck_assert_int_eq(dl_partset_add(&a, 64), 0);
	ck_assert_int_eq(dl_partset_add(&a, 199), 0);
	ck_assert_int_eq(dl_partset_add(&a, 64), 0);
	ck_assert(dl_partset_has(&a, 0) && dl_partset_has(&a, 64) &&
		  dl_partset_has(&a, 199));
	ck_assert(!dl_partset_has(&a, 1) && !dl_partset_has(&a, 63) &&
		  !dl_partset_has(&a, 200) && !dl_partset_has(&a, 100000));
	ck_assert_uint_eq(dl_partset_count(&a), 3);
	ck_assert_int_eq(dl_partset_add(NULL, 1), EINVAL);
	/* as numbers: {0} < {1} < {0,1} < {64} < {0,64,199} */
	ck_assert_int_eq(dl_partset_from_mask(&b, 1), 0);
	ck_assert_int_eq(dl_partset_from_mask(&c, 2), 0);
	ck_assert_int_lt(dl_partset_cmp(&b, &c), 0);
	ck_assert_int_eq(dl_partset_from_mask(&b, 3), 0);
	ck_assert_int_gt(dl_partset_cmp(&b, &c), 0);
	dl_partset_free(&c);
	ck_assert_int_eq(dl_partset_add(&c, 64), 0);
	ck_assert_int_lt(dl_partset_cmp(&b, &c), 0);
	ck_assert_int_lt(dl_partset_cmp(&c, &a), 0);
	/* a set whose high words were emptied equals the small one */
	ck_assert_int_eq(dl_partset_copy(&c, &b), 0);
	ck_assert(dl_partset_equal(&b, &c));
	ck_assert_int_eq(dl_partset_add(&c, 500), 0);
	ck_assert(!dl_partset_equal(&b, &c));
	c.w[500 / 64] = 0;
	ck_assert(dl_partset_equal(&b, &c));
	ck_assert_int_eq(dl_partset_from_mask(&b, 0), 0);
	ck_assert(dl_partset_empty(&b));
	ck_assert_int_eq(dl_partset_cmp(&b, NULL), 0);
	/* NULL is the empty set; a word longer set differs in the others */
	ck_assert(dl_partset_equal(&b, NULL) && dl_partset_equal(NULL, &b));
	ck_assert(!dl_partset_equal(&a, NULL) && !dl_partset_equal(NULL, &a));
	ck_assert(!dl_partset_equal(&a, &c) && !dl_partset_equal(&c, &a));
	dl_partset_free(&a);
	dl_partset_free(&b);
	dl_partset_free(&c);
	dl_partset_free(NULL);
}
END_TEST

/* Running tasks predicted to have ended by a time: start + mu <= t. */
START_TEST(test_ending_by)
{
	struct dl_job *j = fx_job(1, 6, 0, 100);
	struct dl_phase *ph = &j->phase[DL_MAP];

	ck_assert_uint_eq(dl_phase_ending_by(ph, 10, 1000), 0);
	fx_run(j, DL_MAP, 1, 0, DL_POOL_REGULAR);
	fx_run(j, DL_MAP, 2, 5, DL_POOL_REGULAR);
	fx_run(j, DL_MAP, 1, 9, DL_POOL_REGULAR);
	ck_assert_uint_eq(dl_phase_ending_by(ph, 10, 9.5), 0);
	ck_assert_uint_eq(dl_phase_ending_by(ph, 10, 10), 1);
	ck_assert_uint_eq(dl_phase_ending_by(ph, 10, 15), 3);
	ck_assert_uint_eq(dl_phase_ending_by(ph, 10, 1e9), 4);
	/* no length known: none predicted */
	ck_assert_uint_eq(dl_phase_ending_by(ph, 0, 1e9), 0);
	ck_assert_uint_eq(dl_phase_ending_by(ph, -1, 1e9), 0);
	ck_assert_uint_eq(dl_phase_ending_by(ph, NAN, 1e9), 0);
	ck_assert_uint_eq(dl_phase_ending_by(ph, INFINITY, 1e9), 0);
	ck_assert_uint_eq(dl_phase_ending_by(NULL, 10, 1e9), 0);
	dl_job_free(j);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_overflow_rejected);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_phases_and_deadline);
	tcase_add_test(tc, test_begin_ahead);
	tcase_add_test(tc, test_clone);
	tcase_add_test(tc, test_cluster_partitions);
	tcase_add_test(tc, test_cluster_view);
	tcase_add_test(tc, test_cluster_hold_running);
	tcase_add_test(tc, test_partset);
	tcase_add_test(tc, test_ending_by);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
