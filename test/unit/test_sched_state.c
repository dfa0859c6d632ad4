/*
 * test_sched_state.c - the sched plugin's per-array memory: task id sets,
 * observations counted once, phases for the core, forgetting, and the saved
 * state's JSON (round trip, atomic file, rejection of damaged files).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/estimate/estimate.h"
#include "common/plan/sched_state.h"
#include "fixtures.h"

START_TEST(test_idset_basic)
{
	struct dl_idset s = {0};
	char *txt;

	ck_assert_int_eq(dl_idset_add(&s, 3), 1);
	ck_assert_int_eq(dl_idset_add(&s, 3), 0);
	ck_assert_int_eq(dl_idset_add(&s, 0), 1);
	ck_assert_int_eq(dl_idset_add(&s, 1), 1);
	ck_assert_int_eq(dl_idset_add(&s, 2), 1);
	ck_assert_int_eq(dl_idset_add(&s, 9), 1);
	ck_assert_int_eq(dl_idset_add(&s, 1000), 1);
	ck_assert_int_eq(dl_idset_add(&s, DL_IDSET_MAX), 1);
	ck_assert_int_eq(dl_idset_add(&s, DL_IDSET_MAX + 1), -EINVAL);
	ck_assert_int_eq(dl_idset_add(NULL, 1), -EINVAL);
	ck_assert_uint_eq(s.count, 7);
	ck_assert(dl_idset_has(&s, 2));
	ck_assert(!dl_idset_has(&s, 4));
	ck_assert(!dl_idset_has(&s, DL_IDSET_MAX - 1));
	ck_assert(!dl_idset_has(NULL, 2));
	txt = dl_idset_format(&s);
	ck_assert_str_eq(txt, "0-3,9,1000,4000000");
	free(txt);
	dl_idset_free(&s);
	txt = dl_idset_format(&s);
	ck_assert_str_eq(txt, "");
	free(txt);
}
END_TEST

START_TEST(test_idset_parse)
{
	struct dl_idset s = {0};
	char err[160], *txt;
	const char *bad[] = {"a",           "1,",  ",1",       "5-3",
			     "1-",          "-1",  "1,,2",     "4000001",
			     "99999999999", "1 2", "0-4000001"};

	ck_assert_int_eq(dl_idset_parse(&s, "0-5,7,9-12", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.count, 11);
	txt = dl_idset_format(&s);
	ck_assert_str_eq(txt, "0-5,7,9-12");
	free(txt);
	/* unsorted and overlapping ranges are accepted and merged */
	ck_assert_int_eq(dl_idset_parse(&s, "7,1-3,2-4", err, sizeof(err)), 0);
	txt = dl_idset_format(&s);
	ck_assert_str_eq(txt, "1-4,7");
	free(txt);
	ck_assert_int_eq(dl_idset_parse(&s, "", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.count, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(dl_idset_parse(&s, bad[i], err, sizeof(err)),
				 EINVAL);
		ck_assert_msg(strstr(err, "malformed"), "%s: %s", bad[i], err);
	}
	ck_assert_int_eq(dl_idset_parse(NULL, "1", err, sizeof(err)), EINVAL);
	ck_assert_int_eq(dl_idset_parse(&s, NULL, err, sizeof(err)), EINVAL);
	dl_idset_free(&s);
}
END_TEST

START_TEST(test_observe_once)
{
	struct dl_sstate st;
	struct dl_array_rec *r;

	dl_sstate_init(&st);
	ck_assert_ptr_null(dl_sstate_add(&st, 0));
	r = dl_sstate_add(&st, 42);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_eq(dl_sstate_add(&st, 42), r);
	ck_assert_int_eq(r->max_delays, -1);
	r->tasks = 10;
	ck_assert_int_eq(dl_sstate_observe(r, 0, true, 100, 106, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 1, true, 100, 104, 1), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 0, true, 100, 106, 0), EEXIST);
	ck_assert_int_eq(dl_sstate_observe(r, 2, false, 0, 110, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 3, true, 100, 99, 0), EINVAL);
	ck_assert_int_eq(dl_sstate_observe(r, 3, true, NAN, 99, 0), EINVAL);
	ck_assert_int_eq(dl_sstate_observe(r, 3, true, 100, 101, 2), EINVAL);
	ck_assert_int_eq(dl_sstate_observe(r, 3, true, -1, 101, 0), EINVAL);
	ck_assert_int_eq(dl_sstate_observe(NULL, 3, true, 1, 2, 0), EINVAL);
	ck_assert_uint_eq(r->completed, 2);
	ck_assert_uint_eq(r->failed, 1);
	ck_assert_uint_eq(r->done_pool[0], 1);
	ck_assert_uint_eq(r->done_pool[1], 1);
	ck_assert_double_eq_tol(r->sum_len[0], 6, 1e-9);
	ck_assert_double_eq_tol(r->sumsq_len[1], 16, 1e-9);
	ck_assert_double_eq_tol(r->first_start, 100, 1e-9);
	ck_assert_double_eq_tol(r->last_end, 110, 1e-9);
	ck_assert_uint_eq(r->finished.count, 3);
	dl_sstate_free(&st);
}
END_TEST

/* A task whose end slurmctld heard of only after a restart: done, but its
 * recorded length teaches nothing (4-s tasks recorded as 9 s after a 5-s
 * outage); the count survives the state file, and a file without the
 * field (written before it existed) still loads. */
START_TEST(test_observe_unmeasured)
{
	struct dl_sstate st, back;
	struct dl_array_rec *r;
	struct dl_job *j = dl_job_new(1, "u", "n", "a");
	struct dl_mu mu;
	char *text, *old, *at, err[256] = "";

	dl_sstate_init(&st);
	r = dl_sstate_add(&st, 5);
	r->tasks = 4;
	r->present = true;
	ck_assert_int_eq(dl_sstate_observe(r, 0, true, 100, 104, 0), 0);
	ck_assert_int_eq(dl_sstate_observe_unmeasured(r, 1, 109), 0);
	ck_assert_int_eq(dl_sstate_observe_unmeasured(r, 1, 109), EEXIST);
	ck_assert_int_eq(dl_sstate_observe(r, 1, true, 100, 109, 0), EEXIST);
	ck_assert_int_eq(dl_sstate_observe_unmeasured(r, 2, NAN), EINVAL);
	ck_assert_int_eq(dl_sstate_observe_unmeasured(NULL, 2, 1), EINVAL);
	ck_assert_int_eq(dl_sstate_observe_unmeasured(r, DL_IDSET_MAX + 1u, 1),
			 EINVAL);
	ck_assert_uint_eq(r->completed, 2);
	ck_assert_uint_eq(r->unmeasured, 1);
	ck_assert_uint_eq(r->done_pool[0], 1);
	ck_assert_double_eq_tol(r->last_end, 109, 1e-9);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(j->phase[DL_MAP].completed, 2);
	ck_assert_uint_eq(dl_phase_pending(&j->phase[DL_MAP]), 2);
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_double_eq_tol(mu.mean, 4, 1e-9);

	text = dl_sstate_to_string(&st);
	ck_assert_ptr_nonnull(text);
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, text, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_sstate_find(&back, 5)->unmeasured, 1);
	ck_assert_uint_eq(dl_sstate_find(&back, 5)->completed, 2);
	dl_sstate_free(&back);
	/* the counts must agree: an unmeasured task taken away is refused
	 * (the record is skipped, with a message) */
	old = strdup(text);
	at = strstr(old, "\"unmeasured\":1");
	ck_assert_ptr_nonnull(at);
	at[strlen("\"unmeasured\":")] = '0';
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, old, err, sizeof(err)),
			 0);
	ck_assert_ptr_null(dl_sstate_find(&back, 5));
	ck_assert_ptr_nonnull(strstr(err, "unmeasured 0"));
	dl_sstate_free(&back);
	free(old);
	free(text);

	/* written before the field existed: every completion measured */
	r->unmeasured = 0;
	r->completed = 1;
	dl_idset_free(&r->finished);
	ck_assert_int_eq(dl_idset_add(&r->finished, 0), 1);
	text = dl_sstate_to_string(&st);
	at = strstr(text, "\"unmeasured\":0,");
	ck_assert_ptr_nonnull(at);
	memmove(at, at + strlen("\"unmeasured\":0,"),
		strlen(at + strlen("\"unmeasured\":0,")) + 1);
	ck_assert_ptr_null(strstr(text, "unmeasured"));
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, text, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_sstate_find(&back, 5)->completed, 1);
	ck_assert_uint_eq(dl_sstate_find(&back, 5)->unmeasured, 0);
	dl_sstate_free(&back);
	free(text);
	dl_job_free(j);
	dl_sstate_free(&st);
}
END_TEST

START_TEST(test_tasks_grow_with_observations)
{
	struct dl_sstate st;
	struct dl_array_rec *r;

	dl_sstate_init(&st);
	r = dl_sstate_add(&st, 7);
	r->tasks = 1;
	ck_assert_int_eq(dl_sstate_observe(r, 0, true, 1, 2, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 5, true, 1, 2, 0), 0);
	ck_assert_uint_eq(r->tasks, 2);
	dl_sstate_free(&st);
}
END_TEST

START_TEST(test_fill_phase)
{
	struct dl_sstate st;
	struct dl_array_rec *r;
	struct dl_job *j = dl_job_new(1, "u", "n", "a");
	struct dl_mu mu;

	dl_sstate_init(&st);
	r = dl_sstate_add(&st, 1);
	r->tasks = 10;
	r->cpus_per_task = 2;
	r->mem_per_task = 500;
	r->time_limit = 60;
	r->hard_deadline = 1000;
	r->present = true;
	ck_assert_int_eq(dl_sstate_observe(r, 0, true, 0, 4, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 1, true, 0, 8, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 2, false, 0, 8, 0), 0);
	ck_assert_int_eq(dl_phase_add_running(&j->phase[DL_MAP], 1, 0, 0),
			 ERANGE);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(j->phase[DL_MAP].tasks, 10);
	ck_assert_uint_eq(j->phase[DL_MAP].completed, 2);
	ck_assert_uint_eq(j->phase[DL_MAP].failed, 1);
	ck_assert_uint_eq(j->phase[DL_MAP].cpus_per_task, 2);
	ck_assert_uint_eq(dl_phase_pending(&j->phase[DL_MAP]), 7);
	mu = dl_phase_mu(&j->phase[DL_MAP]);
	ck_assert_int_eq(mu.source, DL_MU_JOB);
	ck_assert_double_eq_tol(mu.mean, 6, 1e-9);
	ck_assert_double_eq_tol(j->phase[DL_MAP].hard_deadline, 1000, 1e-9);
	/* the user's own throttle is the phase's limit once it was read */
	ck_assert_uint_eq(j->phase[DL_MAP].max_running, 0);
	r->user_throttle = 3;
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(j->phase[DL_MAP].max_running, 0);
	r->user_saved = true;
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(j->phase[DL_MAP].max_running, 3);
	/* running tasks fit after filling */
	ck_assert_int_eq(dl_phase_add_running(&j->phase[DL_MAP], 5, 0, 0), 0);
	/* gone from slurmctld: the tasks never seen finishing failed */
	r->present = false;
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(j->phase[DL_MAP].failed, 8);
	ck_assert(dl_phase_finished(&j->phase[DL_MAP]));
	ck_assert_int_eq(dl_sstate_fill_phase(NULL, &j->phase[DL_MAP]), EINVAL);
	ck_assert_int_eq(dl_sstate_fill_phase(r, NULL), EINVAL);
	dl_job_free(j);
	dl_sstate_free(&st);
}
END_TEST

/* Unstarted tasks cancelled by id leave slurmctld with no record of their
 * own: 12 tasks, 2 running and 10 pending, then scancel --user.  Before,
 * the plan kept 10 pending tasks until slurmctld purged the array. */
START_TEST(test_reconcile_vanished)
{
	struct dl_sstate st, back;
	struct dl_array_rec *r;
	struct dl_job *j = dl_job_new(1, "u", "n", "a");
	char *text, *at, err[256] = "";

	dl_sstate_init(&st);
	r = dl_sstate_add(&st, 3);
	r->present = true;
	dl_sstate_reconcile(r, 2, 10);
	ck_assert_uint_eq(r->tasks, 12);
	ck_assert_uint_eq(r->vanished, 0);
	/* the running two end cancelled; the pending record ends emptied */
	ck_assert_int_eq(dl_sstate_observe(r, 0, false, 0, 5, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 1, false, 0, 5, 0), 0);
	dl_sstate_reconcile(r, 0, 0);
	ck_assert_uint_eq(r->vanished, 10);
	ck_assert_uint_eq(r->failed, 2);
	ck_assert_uint_eq(r->tasks, 12);
	/* once: the next snapshot sees the same */
	dl_sstate_reconcile(r, 0, 0);
	ck_assert_uint_eq(r->vanished, 10);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(j->phase[DL_MAP].tasks, 12);
	ck_assert_uint_eq(j->phase[DL_MAP].failed, 12);
	ck_assert_uint_eq(dl_phase_pending(&j->phase[DL_MAP]), 0);
	ck_assert(dl_phase_finished(&j->phase[DL_MAP]));

	/* saved and read back; a file from before the field reads 0 */
	text = dl_sstate_to_string(&st);
	ck_assert_ptr_nonnull(text);
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, text, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_sstate_find(&back, 3)->vanished, 10);
	ck_assert_uint_eq(dl_sstate_find(&back, 3)->tasks, 12);
	dl_sstate_free(&back);
	at = strstr(text, "\"vanished\":10,");
	ck_assert_ptr_nonnull(at);
	memmove(at, at + strlen("\"vanished\":10,"),
		strlen(at + strlen("\"vanished\":10,")) + 1);
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, text, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(dl_sstate_find(&back, 3)->vanished, 0);
	dl_sstate_free(&back);
	free(text);

	/* part of the pending rest cancelled (scancel 4_[8-11]): those four
	 * vanish, the rest runs to the end and nothing more vanishes */
	r = dl_sstate_add(&st, 4);
	r->present = true;
	dl_sstate_reconcile(r, 2, 10);
	dl_sstate_reconcile(r, 2, 6);
	ck_assert_uint_eq(r->vanished, 4);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(dl_phase_pending(&j->phase[DL_MAP]), 8);
	for (uint32_t k = 1; k <= 8; k++) { /* two at a time, in order */
		ck_assert_int_eq(dl_sstate_observe(r, k - 1, true, 0, 5, 0), 0);
		dl_sstate_reconcile(r, 8 - k < 2 ? 8 - k : 2,
				    k < 6 ? 6 - k : 0);
		ck_assert_uint_eq(r->vanished, 4);
	}
	ck_assert_uint_eq(r->vanished, 4);
	ck_assert_uint_eq(r->completed, 8);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert(dl_phase_finished(&j->phase[DL_MAP]));
	ck_assert_uint_eq(j->phase[DL_MAP].failed, 4);

	/* more than known raises the count (a requeued task); a count past
	 * the largest array is not taken; no record, nothing happens */
	r = dl_sstate_add(&st, 5);
	dl_sstate_reconcile(r, 0, 3);
	dl_sstate_reconcile(r, 1, 3);
	ck_assert_uint_eq(r->tasks, 4);
	ck_assert_uint_eq(r->vanished, 0);
	dl_sstate_reconcile(r, DL_MAX_TASKS, 1);
	ck_assert_uint_eq(r->tasks, 4);
	ck_assert_uint_eq(r->vanished, 0);
	dl_sstate_reconcile(NULL, 1, 1);
	dl_job_free(j);
	dl_sstate_free(&st);
}
END_TEST

/* text with its first `from` replaced by `to` (caller frees) */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);

	ck_assert_ptr_nonnull(at);
	ck_assert_ptr_nonnull(out);
	snprintf(out, n, "%.*s%s%s", (int) (at - text), text, to,
		 at + strlen(from));
	return out;
}

/* scontrol requeue of ended tasks: a failed one is taken back and counted
 * by its rerun's end; a completed one stays completed, its rerun no work;
 * the failed ids are saved, damage to them refused, old files read none */
START_TEST(test_rerun)
{
	struct dl_sstate st, back;
	struct dl_array_rec *r;
	struct dl_job *j = dl_job_new(1, "u", "n", "a");
	char *text, *at, err[256] = "";

	dl_sstate_init(&st);
	r = dl_sstate_add(&st, 7);
	r->present = true;
	dl_sstate_reconcile(r, 4, 0);
	ck_assert_int_eq(dl_sstate_observe(r, 0, true, 0, 10, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 1, true, 0, 10, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 2, false, 0, 3, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 3, true, 0, 10, 0), 0);
	ck_assert_int_eq(dl_sstate_observe(r, 2, false, 0, 3, 0), EEXIST);
	ck_assert_int_eq(dl_sstate_observe(r, 2, true, 0, 3, 0), EEXIST);
	ck_assert_uint_eq(r->failed_ids.count, 1);
	dl_sstate_reconcile(r, 0, 0);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert(dl_phase_finished(&j->phase[DL_MAP]));
	ck_assert_uint_eq(j->phase[DL_MAP].failed, 1);
	/* a completed task's rerun is another job's use; a failed one's and
	 * one never counted are not */
	ck_assert(dl_sstate_counted_completed(r, 0));
	ck_assert(!dl_sstate_counted_completed(r, 2));
	ck_assert(!dl_sstate_counted_completed(r, 9));
	ck_assert(!dl_sstate_counted_completed(NULL, 0));

	/* task 2 requeued: pending work again, not a task more */
	ck_assert_int_eq(dl_sstate_rerun(r, 2), 0);
	ck_assert_uint_eq(r->failed, 0);
	ck_assert_uint_eq(r->finished.count, 3);
	ck_assert(!dl_idset_has(&r->failed_ids, 2));
	dl_sstate_reconcile(r, 0, 1);
	ck_assert_uint_eq(r->tasks, 4);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert_uint_eq(dl_phase_pending(&j->phase[DL_MAP]), 1);
	ck_assert(!dl_phase_finished(&j->phase[DL_MAP]));
	/* it completes: 4 of 4, nothing failed or vanished */
	ck_assert_int_eq(dl_sstate_observe(r, 2, true, 20, 30, 0), 0);
	dl_sstate_reconcile(r, 0, 0);
	ck_assert_uint_eq(r->completed, 4);
	ck_assert_uint_eq(r->failed, 0);
	ck_assert_uint_eq(r->vanished, 0);
	ck_assert_uint_eq(r->tasks, 4);
	ck_assert_int_eq(dl_sstate_fill_phase(r, &j->phase[DL_MAP]), 0);
	ck_assert(dl_phase_finished(&j->phase[DL_MAP]));
	ck_assert_uint_eq(j->phase[DL_MAP].failed, 0);
	ck_assert_uint_eq(j->phase[DL_MAP].completed, 4);
	ck_assert(dl_sstate_counted_completed(r, 2));
	/* a completed task requeued stays completed; one never counted is
	 * not a rerun */
	ck_assert_int_eq(dl_sstate_rerun(r, 0), EEXIST);
	ck_assert_uint_eq(r->completed, 4);
	ck_assert_int_eq(dl_sstate_rerun(r, 9), ENOENT);
	ck_assert_int_eq(dl_sstate_rerun(NULL, 0), EINVAL);

	/* the failed ids saved and read back */
	ck_assert_int_eq(dl_sstate_observe(r, 5, false, 0, 3, 0), 0);
	text = dl_sstate_to_string(&st);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(strstr(text, "\"failed_ids\":\"5\""));
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, text, err, sizeof(err)),
			 0);
	ck_assert(dl_idset_has(&dl_sstate_find(&back, 7)->failed_ids, 5));
	ck_assert_int_eq(dl_sstate_rerun(dl_sstate_find(&back, 7), 5), 0);
	dl_sstate_free(&back);
	/* an id not counted, more ids than failures, not a set: the record
	 * is refused */
	{
		const char *damaged[] = {"\"failed_ids\":\"6\"",
					 "\"failed_ids\":\"3,5\"",
					 "\"failed_ids\":[5]"};

		for (size_t k = 0; k < 3; k++) {
			char *bad = replaced(text, "\"failed_ids\":\"5\"",
					     damaged[k]);

			dl_sstate_init(&back);
			ck_assert_int_eq(dl_sstate_from_string(&back, bad, err,
							       sizeof(err)),
					 0);
			ck_assert_msg(!dl_sstate_find(&back, 7), "%s",
				      damaged[k]);
			ck_assert_uint_eq(back.skipped, 1);
			ck_assert_ptr_nonnull(strstr(err, "failed"));
			dl_sstate_free(&back);
			free(bad);
		}
	}
	/* a file from before the field: no failed ids, a failed task stays
	 * counted when it runs again */
	at = replaced(text, "\"failed_ids\":\"5\",", "");
	dl_sstate_init(&back);
	ck_assert_int_eq(dl_sstate_from_string(&back, at, err, sizeof(err)), 0);
	ck_assert_uint_eq(dl_sstate_find(&back, 7)->failed, 1);
	ck_assert_int_eq(dl_sstate_rerun(dl_sstate_find(&back, 7), 5), EEXIST);
	dl_sstate_free(&back);
	free(at);
	free(text);
	dl_job_free(j);
	dl_sstate_free(&st);
}
END_TEST

START_TEST(test_many_and_gc)
{
	struct dl_sstate st;
	uint32_t gone;

	dl_sstate_init(&st);
	for (uint64_t id = 1; id <= 5000; id++) {
		struct dl_array_rec *r = dl_sstate_add(&st, id * 7);

		ck_assert_ptr_nonnull(r);
		r->present = id % 2 == 0;
		r->last_seen = id % 3 == 0 ? 1000 : 100;
	}
	/* array 7 (odd, old) is the map of a present reduce array 14 */
	dl_sstate_find(&st, 14)->map_id = 7;
	for (uint64_t id = 1; id <= 5000; id++)
		ck_assert_uint_eq(dl_sstate_find(&st, id * 7)->id, id * 7);
	ck_assert_ptr_null(dl_sstate_find(&st, 8));
	/* now 1000, retention 500: absent and last seen at 100 go */
	gone = dl_sstate_gc(&st, 1000, 500);
	for (uint64_t id = 1; id <= 5000; id++) {
		bool keep = id % 2 == 0 || id % 3 == 0 || id == 1;

		ck_assert_msg((dl_sstate_find(&st, id * 7) != NULL) == keep,
			      "array %llu", (unsigned long long) id * 7);
	}
	ck_assert_uint_eq(gone + st.n, 5000);
	ck_assert_ptr_nonnull(dl_sstate_add(&st, 99991));
	ck_assert_ptr_nonnull(dl_sstate_find(&st, 99991));
	dl_sstate_free(&st);
}
END_TEST

static void sample(struct dl_sstate *st)
{
	struct dl_array_rec *m, *r;

	dl_sstate_init(st);
	st->cycle = 77;
	m = dl_sstate_add(st, 100);
	snprintf(m->user, sizeof(m->user), "alice");
	snprintf(m->name, sizeof(m->name), "wc \"map\"");
	snprintf(m->partition, sizeof(m->partition), "debug");
	m->tasks = 400;
	m->submit = 1700000000;
	m->hard_deadline = 1700000200;
	m->time_limit = 60;
	m->reduce_id = 101;
	m->present = true;
	m->managed = true;
	m->alloc = 17;
	m->prio_mode = DL_PRIO_URGENT;
	m->user_saved = true;
	m->user_throttle = 5;
	snprintf(m->verdict, sizeof(m->verdict), "on_track");
	for (uint32_t t = 0; t < 50; t++)
		ck_assert_int_eq(dl_sstate_observe(m, t * 2, t % 7 != 0,
						   1700000000 + t,
						   1700000006.5 + t, t % 2),
				 0);
	r = dl_sstate_add(st, 101);
	r->map_id = 100;
	r->tasks = 10;
	r->soft_deadline = 1700000150;
	r->reduce_cost = 2.5;
	r->max_delays = 3;
	r->dep_other = 55;
}

START_TEST(test_json_round_trip)
{
	struct dl_sstate a, b;
	char *t1, *t2, err[256];

	sample(&a);
	t1 = dl_sstate_to_string(&a);
	ck_assert_ptr_nonnull(t1);
	dl_sstate_init(&b);
	ck_assert_int_eq(dl_sstate_from_string(&b, t1, err, sizeof(err)), 0);
	t2 = dl_sstate_to_string(&b);
	ck_assert_str_eq(t1, t2);
	ck_assert_uint_eq(b.cycle, 77);
	ck_assert_uint_eq(dl_sstate_find(&b, 100)->completed, 42);
	ck_assert_uint_eq(dl_sstate_find(&b, 100)->failed, 8);
	ck_assert(dl_idset_has(&dl_sstate_find(&b, 100)->finished, 98));
	ck_assert_str_eq(dl_sstate_find(&b, 100)->name, "wc \"map\"");
	ck_assert_int_eq(dl_sstate_find(&b, 101)->max_delays, 3);
	ck_assert_int_eq(dl_sstate_find(&b, 100)->max_delays, -1);
	ck_assert_double_eq_tol(dl_sstate_find(&b, 101)->reduce_cost, 2.5,
				1e-12);
	/* observations continue where they stopped: no double counting */
	ck_assert_int_eq(
		dl_sstate_observe(dl_sstate_find(&b, 100), 0, true, 1, 2, 0),
		EEXIST);
	free(t1);
	free(t2);
	dl_sstate_free(&a);
	dl_sstate_free(&b);
}
END_TEST

START_TEST(test_json_rejects_damage)
{
	struct dl_sstate a, b;
	char err[256];
	/* damage to the file's structure: nothing can be trusted */
	const char *bad[] = {
		"",
		"[]",
		"{\"version\":1,\"arrays\":[]} x",
		"{\"version\":1,\"arrays\":[",
		"{\"version\":2,\"arrays\":[]}",
		"{\"version\":1}",
	};

	sample(&a);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(dl_sstate_from_string(&a, bad[i], err,
						    sizeof(err)) != 0,
			      "accepted: %s", bad[i]);
		ck_assert_msg(err[0], "no message for %s", bad[i]);
		/* json-c's own words ("success", "continue") are not an
		 * explanation */
		ck_assert_msg(!strstr(err, "success") &&
				      strcmp(err, "continue") != 0,
			      "%s: '%s'", bad[i], err);
		/* unchanged on error */
		ck_assert_uint_eq(a.n, 2);
		ck_assert_uint_eq(a.cycle, 77);
	}
	dl_sstate_init(&b);
	ck_assert_int_eq(dl_sstate_from_string(&b,
					       "{\"version\":1,\"arrays\":[]}",
					       err, sizeof(err)),
			 0);
	ck_assert_uint_eq(b.n, 0);
	ck_assert_int_eq(dl_sstate_from_string(NULL, "{}", err, sizeof(err)),
			 EINVAL);
	dl_sstate_free(&a);
	dl_sstate_free(&b);
}
END_TEST

/* One bad record costs that record only (issue D3: a soft deadline of
 * 1e16 from a job submitted without the SPANK plugin made every restart
 * throw away every user's observed task lengths). */
START_TEST(test_json_skips_bad_records)
{
	const char *bad_rec[] = {
		"{\"id\":0}",
		"{\"id\":7}",
		"{\"id\":5,\"finished\":\"0-3\",\"completed\":1}",
		"{\"id\":5,\"tasks\":-1}",
		"{\"id\":5,\"submit\":\"x\"}",
		"{\"id\":5,\"soft_deadline\":1e16}",
		"{\"id\":5,\"finished\":\"3-1\"}",
		"{\"id\":5,\"done_pool\":[1]}",
		"{\"id\":5,\"max_delays\":-7}",
		"{\"id\":5,\"sum_len\":[1e400,0]}",
		"{\"id\":5,\"completed\":1,\"finished\":\"1\","
		"\"done_pool\":[0,0]}",
		"7",
	};

	for (size_t i = 0; i < sizeof(bad_rec) / sizeof(bad_rec[0]); i++) {
		struct dl_sstate a;
		char text[512], err[256] = "";

		/* a good record on each side of the bad one; id 7 twice */
		snprintf(text, sizeof(text),
			 "{\"version\":1,\"cycle\":9,\"arrays\":["
			 "{\"id\":7,\"user\":\"alice\",\"finished\":\"0-1\","
			 "\"completed\":2,\"done_pool\":[2,0]},%s,"
			 "{\"id\":8,\"user\":\"bob\"}]}",
			 bad_rec[i]);
		dl_sstate_init(&a);
		ck_assert_msg(
			!dl_sstate_from_string(&a, text, err, sizeof(err)),
			"refused whole: %s (%s)", text, err);
		ck_assert_msg(a.skipped == 1, "%s: skipped %u", text,
			      a.skipped);
		ck_assert_msg(err[0], "no message for %s", text);
		ck_assert_uint_eq(a.n, 2);
		ck_assert_uint_eq(a.cycle, 9);
		ck_assert_str_eq(dl_sstate_find(&a, 7)->user, "alice");
		ck_assert_uint_eq(dl_sstate_find(&a, 7)->completed, 2);
		ck_assert_str_eq(dl_sstate_find(&a, 8)->user, "bob");
		dl_sstate_free(&a);
	}
}
END_TEST

START_TEST(test_file_save_load)
{
	struct dl_sstate a, b;
	char dir[] = "/tmp/dl_sstate_XXXXXX", path[128], err[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	sample(&a);
	dl_sstate_init(&b);
	ck_assert_int_eq(dl_sstate_load(&b, path, err, sizeof(err)), ENOENT);
	ck_assert_int_eq(dl_sstate_save(&a, path, 0600), 0);
	ck_assert_int_eq(dl_sstate_load(&b, path, err, sizeof(err)), 0);
	ck_assert_uint_eq(b.n, 2);
	/* a truncated file is refused and b keeps what it had */
	f = fopen(path, "w");
	fputs("{\"version\":1,\"arrays\":[{\"id\":", f);
	fclose(f);
	ck_assert_int_eq(dl_sstate_load(&b, path, err, sizeof(err)), EINVAL);
	ck_assert_uint_eq(b.n, 2);
	ck_assert_int_eq(
		dl_sstate_save(&a, "/nonexistent-dir/x/state.json", 0600) != 0,
		1);
	unlink(path);
	rmdir(dir);
	dl_sstate_free(&a);
	dl_sstate_free(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sched_state");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_idset_basic);
	tcase_add_test(tc, test_idset_parse);
	tcase_add_test(tc, test_observe_once);
	tcase_add_test(tc, test_observe_unmeasured);
	tcase_add_test(tc, test_tasks_grow_with_observations);
	tcase_add_test(tc, test_fill_phase);
	tcase_add_test(tc, test_reconcile_vanished);
	tcase_add_test(tc, test_rerun);
	tcase_add_test(tc, test_many_and_gc);
	tcase_add_test(tc, test_json_round_trip);
	tcase_add_test(tc, test_json_rejects_damage);
	tcase_add_test(tc, test_json_skips_bad_records);
	tcase_add_test(tc, test_file_save_load);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
