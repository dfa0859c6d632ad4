/*
 * test_rt_state.c - the admitted set across a restart (JSON save/restore,
 * and bad files that change nothing) and its resync with the live state:
 * jobs that left, finished jobs and the feedback threshold, a task running
 * past its worst case, a lost node, holds and releases, tickets that were
 * never bound, a changed deadline.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_fixtures.h"

static struct dl_rt_verdict admit(struct dl_rt_state *st,
				  struct dl_rt_request q, double now)
{
	struct dl_rt_verdict v;

	ck_assert_int_eq(dl_rt_admit(st, &q, now, true, &v), 0);
	return v;
}

/* A live job as the sched plugin would describe it. */
static struct dl_job *live(uint64_t id, double submit, double deadline,
			   uint32_t maps, uint32_t reduces)
{
	struct dl_job *j = dl_job_new(id, "alice", "wc", "acct");

	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(dl_phase_init(j, DL_MAP, maps, 1, 0), 0);
	ck_assert_int_eq(dl_phase_init(j, DL_REDUCE, reduces, 1, 0), 0);
	j->submit = submit;
	j->soft_deadline = deadline;
	return j;
}

START_TEST(test_roundtrip)
{
	struct dl_rt_state *a = rt_state(4, 0, 0), *b = dl_rt_state_new();
	struct dl_rt_quantiles q = {1, 2, 3, 4, 10};
	struct dl_rt_request r;
	struct dl_rt_verdict va, vb;
	char err[256] = "", *t1, *t2;
	uint64_t ticket = dl_rt_new_ticket(a);

	ck_assert_int_eq(dl_rt_set_pool(a, "split", 3, 2, 0), 0);
	ck_assert(admit(a, rt_req(1, 0, 100, 4, 10, 2, 5), 0).admitted);
	ck_assert(admit(a, rt_req(2, 0, 200, 6, 10, 0, 0), 0).admitted);
	r = rt_req(0, 1, 300, 3, 7, 1, 3);
	r.ticket = ticket;
	r.pool = "split";
	ck_assert(admit(a, r, 1).admitted);
	ck_assert_int_eq(dl_rt_mark_started(a, 1), 0);
	ck_assert_int_eq(dl_rt_mark_started(a, 2), 0);
	ck_assert_int_eq(dl_rt_remove(a, 2), 0); /* an anchor behind job 1 */
	ck_assert_int_eq(dl_rt_wc_store(a, "alice", "wc", 0, &q, 5), 0);

	t1 = dl_rt_state_to_json(a);
	ck_assert_ptr_nonnull(t1);
	ck_assert_int_eq(dl_rt_state_from_json(b, t1, err, sizeof(err)), 0);
	t2 = dl_rt_state_to_json(b);
	ck_assert_str_eq(t1, t2);
	ck_assert_uint_eq(dl_rt_count(b), 3);
	/* the same judgement after the restart, in both pools */
	r = rt_req(9, 2, 120, 2, 10, 0, 0);
	ck_assert_int_eq(dl_rt_admit(a, &r, 2, false, &va), 0);
	ck_assert_int_eq(dl_rt_admit(b, &r, 2, false, &vb), 0);
	ck_assert_int_eq(va.admitted, vb.admitted);
	ck_assert_double_eq(va.finish, vb.finish);
	r.pool = "split";
	r.tasks[DL_REDUCE] = 2;
	ck_assert_int_eq(dl_rt_admit(a, &r, 2, false, &va), 0);
	ck_assert_int_eq(dl_rt_admit(b, &r, 2, false, &vb), 0);
	ck_assert_double_eq(va.finish, vb.finish);
	ck_assert_int_eq(dl_rt_bind(b, ticket, 33), 0);
	ck_assert_uint_ne(dl_rt_new_ticket(b), ticket);
	{
		struct dl_rt_quantiles got;

		ck_assert_int_eq(dl_rt_wc_lookup(b, "alice", "wc", 0, &got), 0);
		ck_assert_double_eq(got.max, 4);
	}
	free(t1);
	free(t2);
	dl_rt_state_free(a);
	dl_rt_state_free(b);
}
END_TEST

/* Every corruption is refused with a message and leaves the state as it
 * was. */
START_TEST(test_bad_files)
{
	struct dl_rt_state *a = rt_state(4, 0, 0), *b = rt_state(2, 0, 0);
	char *good, err[256];
	static const struct {
		const char *from, *to;
	} edits[] = {
		{"\"version\":1", "\"version\":2"},
		{"\"units\":[4,4]", "\"units\":[4,3]"},
		{"\"deadline\":100.0", "\"deadline\":-100"},
		{"\"deadline\":100.0", "\"deadline\":\"x\""},
		{"\"tasks\":[4,0]", "\"tasks\":[0,0]"},
		{"\"cpus\":[1,1]", "\"cpus\":[0,1]"},
		{"\"mtasks\":[4,0]", "\"mtasks\":[5,0]"},
		{"\"quantile\":0.98999999999999999", "\"quantile\":0.1"},
		{"[[0.0,4]]", "[[0.0,0]]"},
		{"\"vec\":[[[10.0,3],[15.0,1]]",
		 "\"vec\":[[[15.0,3],[10.0,1]]"},
		{"\"floor\":0.0", "\"floor\":-1"},
		{"\"finished\":true", "\"finished\":2"},
		{"\"run_end\":[null,null]", "\"run_end\":[-5,null]"},
		{"\"id\":1,", "\"id\":-1,"},
		{"\"name\":\"batch\"", "\"name\":\"\""},
		{"\"jobs\":[", "\"jobs\":{"},
	};

	ck_assert(admit(a, rt_req(1, 0, 100, 4, 10, 0, 0), 0).admitted);
	ck_assert(admit(a, rt_req(2, 0, 200, 1, 5, 0, 0), 0).admitted);
	ck_assert_int_eq(dl_rt_mark_started(a, 1), 0);
	ck_assert_int_eq(dl_rt_mark_started(a, 2), 0);
	ck_assert_int_eq(dl_rt_remove(a, 2), 0); /* an anchor: saved vectors */
	good = dl_rt_state_to_json(a);
	ck_assert_ptr_nonnull(good);
	ck_assert(admit(b, rt_req(7, 0, 100, 1, 1, 0, 0), 0).admitted);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *p = strstr(good, edits[i].from), *bad;
		size_t lf = strlen(edits[i].from), lt = strlen(edits[i].to);
		struct dl_rt_job_info info;

		ck_assert_msg(p, "edit %zu: '%s' not in %s", i, edits[i].from,
			      good);
		bad = malloc(strlen(good) + lt + 1);
		memcpy(bad, good, p - good);
		memcpy(bad + (p - good), edits[i].to, lt);
		strcpy(bad + (p - good) + lt, p + lf);
		err[0] = '\0';
		ck_assert_msg(dl_rt_state_from_json(b, bad, err, sizeof(err)),
			      "edit %zu accepted", i);
		ck_assert_msg(err[0], "edit %zu: no message", i);
		ck_assert_uint_eq(dl_rt_count(b), 1); /* unchanged */
		ck_assert_int_eq(dl_rt_job_get(b, 7, &info), 0);
		free(bad);
	}
	ck_assert_int_ne(dl_rt_state_from_json(b, "{", err, sizeof(err)), 0);
	ck_assert_int_ne(dl_rt_state_from_json(b, "[]", err, sizeof(err)), 0);
	ck_assert_int_ne(dl_rt_state_from_json(b, "{} x", err, sizeof(err)), 0);
	ck_assert_int_eq(dl_rt_state_from_json(b, NULL, err, sizeof(err)),
			 EINVAL);
	free(good);
	dl_rt_state_free(a);
	dl_rt_state_free(b);
}
END_TEST

START_TEST(test_files)
{
	struct dl_rt_state *a = rt_state(4, 0, 0), *b = dl_rt_state_new();
	char path[] = "/tmp/dl_rt_stateXXXXXX", file[64], err[256];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(path);
	snprintf(file, sizeof(file), "%s.json", path);
	ck_assert(admit(a, rt_req(1, 0, 100, 4, 10, 0, 0), 0).admitted);
	ck_assert_int_eq(dl_rt_state_save(a, file), 0);
	ck_assert_int_eq(dl_rt_state_load(b, file, err, sizeof(err)), 0);
	ck_assert_uint_eq(dl_rt_count(b), 1);
	unlink(file);
	ck_assert_int_eq(dl_rt_state_load(b, file, err, sizeof(err)), ENOENT);
	ck_assert_ptr_nonnull(strstr(err, file));
	dl_rt_state_free(a);
	dl_rt_state_free(b);
}
END_TEST

/* 2 CPUs.  Job 1: 2 maps of 10 s; job 2: 2 maps of 10 s after it. */
static struct dl_rt_state *two_jobs(struct dl_cluster *cl)
{
	struct dl_rt_state *st = rt_state(2, 0, 0);

	fx_cluster(cl, 1, 2, 0);
	ck_assert(admit(st, rt_req(1, 0, 15, 2, 10, 0, 0), 0).admitted);
	ck_assert(admit(st, rt_req(2, 0, 25, 2, 10, 0, 0), 0).admitted);
	return st;
}

START_TEST(test_sync_overrun_and_release)
{
	struct dl_cluster cl;
	struct dl_rt_state *st = two_jobs(&cl);
	struct dl_job *j1 = live(1, 0, 15, 2, 0), *j2 = live(2, 0, 25, 2, 0);
	struct dl_job *jobs[2] = {j1, j2};
	struct dl_rt_sync_stats ss;
	struct dl_rt_job_info info;

	/* within the worst case: nothing to do */
	fx_run(j1, DL_MAP, 2, 0, 0);
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, 5, &ss), 0);
	ck_assert_uint_eq(ss.held, 0);
	ck_assert_uint_eq(ss.resynced_pools, 0);
	/* at 14 both of job 1's tasks run past their 10 s: its time limit
	 * (600 s) bounds them, so job 1 (deadline 15) and job 2 cannot make
	 * it: job 1 is held first, which does not help job 2 */
	j1->phase[DL_MAP].time_limit = 600;
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, 14, &ss), 0);
	ck_assert_uint_eq(ss.resynced_pools, 1);
	ck_assert_uint_eq(ss.held, 2);
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert(info.held);
	ck_assert_ptr_nonnull(strstr(info.hold_why, "worst case"));
	/* job 1's tasks end; job 2 can run now: 14 + 10 <= 25: released */
	j1->phase[DL_MAP].nrunning = 0;
	fx_done(j1, DL_MAP, 2, 14, 0);
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, 14.5, &ss), 0);
	ck_assert_uint_eq(ss.finished, 1);
	ck_assert_uint_eq(ss.released, 1);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert(!info.held);
	ck_assert_double_eq(info.finish, 24.5);
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), ENOENT);
	dl_job_free(j1);
	dl_job_free(j2);
	dl_rt_state_free(st);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(test_sync_node_lost)
{
	struct dl_cluster cl;
	struct dl_rt_state *st = rt_state(4, 0, 0);
	struct dl_job *j1 = live(1, 0, 25, 4, 0);
	struct dl_rt_sync_stats ss;
	struct dl_rt_job_info info;
	uint32_t units[2];

	fx_cluster(&cl, 2, 2, 0);
	ck_assert(admit(st, rt_req(1, 0, 25, 4, 10, 0, 0), 0).admitted);
	ck_assert_int_eq(dl_rt_sync(st, &j1, 1, &cl, 1, &ss), 0);
	ck_assert_uint_eq(ss.held, 0);
	/* one node down: 2 CPUs, 4 tasks of 10 s from now (1) end at 21 */
	cl.nodes[1].up = false;
	ck_assert_int_eq(dl_rt_sync(st, &j1, 1, &cl, 1, &ss), 0);
	ck_assert_int_eq(dl_rt_pool_units(st, "batch", units, NULL), 0);
	ck_assert_uint_eq(units[0], 2);
	ck_assert_uint_eq(ss.held, 0);
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert_double_eq(info.finish, 21);
	/* nothing started when the model said (1); within Δ (10 s) that is
	 * tolerated, at 12 the pool is rebuilt: 12 + 20 > 25, held */
	ck_assert_int_eq(dl_rt_sync(st, &j1, 1, &cl, 6, &ss), 0);
	ck_assert_uint_eq(ss.resynced_pools, 0);
	ck_assert_int_eq(dl_rt_sync(st, &j1, 1, &cl, 12, &ss), 0);
	ck_assert_uint_eq(ss.resynced_pools, 1);
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), 0);
	ck_assert(info.held);
	ck_assert_ptr_nonnull(strstr(info.hold_why, "2 CPUs"));
	dl_job_free(j1);
	dl_rt_state_free(st);
	dl_cluster_free(&cl);
}
END_TEST

START_TEST(test_sync_gone_and_tickets)
{
	struct dl_cluster cl;
	struct dl_rt_state *st = two_jobs(&cl);
	struct dl_job *j2 = live(2, 0, 25, 2, 0);
	struct dl_rt_sync_stats ss;
	struct dl_rt_request r = rt_req(0, 3, 100, 1, 1, 0, 0);
	struct dl_rt_job_info info;

	r.ticket = dl_rt_new_ticket(st);
	ck_assert(admit(st, r, 3).admitted);
	/* job 1 is gone (cancelled before it started); the ticket is
	 * young */
	ck_assert_int_eq(dl_rt_sync(st, &j2, 1, &cl, 4, &ss), 0);
	ck_assert_uint_eq(ss.removed, 1);
	ck_assert_int_eq(dl_rt_job_get(st, 1, &info), ENOENT);
	ck_assert_uint_eq(dl_rt_count(st), 2);
	/* the ticket is never bound: dropped after ticket_ttl (120 s) */
	ck_assert_int_eq(dl_rt_sync(st, &j2, 1, &cl, 200, &ss), 0);
	ck_assert_uint_eq(ss.removed, 1);
	ck_assert_uint_eq(dl_rt_count(st), 1);
	/* a job admitted after the snapshot (arrival >= now) is kept */
	ck_assert(admit(st, rt_req(5, 300, 900, 1, 1, 0, 0), 300).admitted);
	ck_assert_int_eq(dl_rt_sync(st, &j2, 1, &cl, 300, &ss), 0);
	ck_assert_int_eq(dl_rt_job_get(st, 5, &info), 0);
	/* a changed deadline is taken over */
	j2->soft_deadline = 400;
	ck_assert_int_eq(dl_rt_sync(st, &j2, 1, &cl, 300, &ss), 0);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.deadline, 400);
	dl_job_free(j2);
	dl_rt_state_free(st);
	dl_cluster_free(&cl);
}
END_TEST

/* A finished job beyond the threshold rebuilds the vectors from the live
 * state; within it, nothing is rebuilt. */
START_TEST(test_sync_feedback)
{
	struct dl_cluster cl;
	struct dl_rt_state *st = two_jobs(&cl);
	struct dl_job *j1 = live(1, 0, 15, 2, 0), *j2 = live(2, 0, 25, 2, 0);
	struct dl_job *jobs[2] = {j1, j2};
	struct dl_rt_sync_stats ss;
	struct dl_rt_job_info info;

	{
		struct dl_rt_params p;

		ck_assert_int_eq(dl_rt_get_params(st, &p), 0);
		p.feedback_delta = 2; /* Δ */
		ck_assert_int_eq(dl_rt_set_params(st, &p), 0);
	}
	fx_done(j1, DL_MAP, 2, 3, 0); /* done at 3 instead of 10 */
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, 3, &ss), 0);
	ck_assert_uint_eq(ss.finished, 1);
	ck_assert_uint_eq(ss.feedback, 1);
	ck_assert_uint_eq(ss.resynced_pools, 1);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 13);
	dl_job_free(j1);
	dl_job_free(j2);
	dl_rt_state_free(st);
	dl_cluster_free(&cl);

	st = two_jobs(&cl);
	j1 = live(1, 0, 15, 2, 0);
	j2 = live(2, 0, 25, 2, 0);
	jobs[0] = j1;
	jobs[1] = j2;
	fx_done(j1, DL_MAP, 2, 9, 0); /* 1 s early: within Δ (default:
				       * the map worst case, 10 s) */
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, 9, &ss), 0);
	ck_assert_uint_eq(ss.feedback, 0);
	ck_assert_uint_eq(ss.resynced_pools, 0);
	ck_assert_int_eq(dl_rt_job_get(st, 2, &info), 0);
	ck_assert_double_eq(info.finish, 20);
	/* job 2 ends at 12, 8 s before its worst case (within Δ): the pool
	 * is empty and starts again from "both units free now", so 4 tasks
	 * of 10 s end at 32 (from job 2's worst case, 20, at 40) */
	fx_done(j2, DL_MAP, 2, 2, 0);
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, 12, &ss), 0);
	ck_assert_uint_eq(ss.finished, 1);
	ck_assert_uint_eq(ss.feedback, 0);
	ck_assert_uint_eq(dl_rt_count(st), 0);
	ck_assert(!admit(st, rt_req(3, 12, 31.9, 4, 10, 0, 0), 12).admitted);
	ck_assert(admit(st, rt_req(3, 12, 32, 4, 10, 0, 0), 12).admitted);
	ck_assert_int_eq(dl_rt_sync(NULL, jobs, 2, &cl, 9, &ss), EINVAL);
	ck_assert_int_eq(dl_rt_sync(st, NULL, 2, &cl, 9, &ss), EINVAL);
	ck_assert_int_eq(dl_rt_sync(st, jobs, 2, &cl, NAN, &ss), EINVAL);
	dl_job_free(j1);
	dl_job_free(j2);
	dl_rt_state_free(st);
	dl_cluster_free(&cl);
}
END_TEST

/* Issue 12 D2: the submission hold is recognised from the job record at
 * every cycle; a mark without the admitted set's ticket is not ours. */
START_TEST(test_submit_hold_ours)
{
	struct dl_cluster cl;
	struct dl_rt_state *st = two_jobs(&cl);
	struct dl_rt_request r = rt_req(0, 3, 100, 1, 1, 0, 0);
	char tk[64], wrong[64];
	char *env_held[] = {tk, "DEADLINE_RT_HOLD=1", NULL};
	char *env_prefixed[] = {"SPANK_DEADLINE_RT_HOLD=1", tk, NULL};
	char *env_done[] = {tk, "DEADLINE_RT_HOLD=0", NULL};
	char *env_forged[] = {"DEADLINE_RT_HOLD=1", NULL};
	char *env_wrong[] = {wrong, "DEADLINE_RT_HOLD=1", NULL};

	r.ticket = dl_rt_new_ticket(st);
	ck_assert(admit(st, r, 3).admitted);
	ck_assert_int_eq(dl_rt_bind(st, r.ticket, 7), 0);
	snprintf(tk, sizeof(tk), "DEADLINE_RT_TICKET=%llu",
		 (unsigned long long) r.ticket);
	snprintf(wrong, sizeof(wrong), "DEADLINE_RT_TICKET=%llu",
		 (unsigned long long) r.ticket + 1000);
	ck_assert(dl_rt_submit_hold_ours(st, 7, env_held, 2));
	ck_assert(dl_rt_submit_hold_ours(st, 7, env_prefixed, 2));
	ck_assert_int_eq(dl_rt_hold_env_index(env_prefixed, 2), 0);
	/* released (=0), forged (no ticket), another job's ticket */
	ck_assert(!dl_rt_submit_hold_ours(st, 7, env_done, 2));
	ck_assert(!dl_rt_submit_hold_ours(st, 7, env_forged, 1));
	ck_assert(!dl_rt_submit_hold_ours(st, 7, env_wrong, 2));
	ck_assert(!dl_rt_submit_hold_ours(st, 8, env_held, 2));
	ck_assert(!dl_rt_submit_hold_ours(NULL, 7, env_held, 2));
	dl_rt_state_free(st);
	dl_cluster_free(&cl);
}
END_TEST

/* Issue 12 D13: a damaged admitted set was overwritten by the next save
 * instead of kept. */
START_TEST(test_shared_load_keeps_damaged)
{
	char path[] = "/tmp/dlrtXXXXXX", bad[64], err[256];
	struct stat sb;
	struct timespec ts;
	int fd = mkstemp(path);
	uint64_t before;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "{\"version\":", 11), 11);
	close(fd);
	ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &ts), 0);
	before =
		(uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
	ck_assert_int_eq(dl_rt_shared_load(path, err, sizeof(err)), EINVAL);
	/* whatever was restored, tickets are above the clock's microseconds
	 * (D4: a stale counter handed a ticket out twice) */
	ck_assert_uint_gt(dl_rt_new_ticket(dl_rt_shared()), before);
	ck_assert_ptr_nonnull(strstr(err, "truncated"));
	ck_assert_ptr_nonnull(strstr(err, ".bad"));
	snprintf(bad, sizeof(bad), "%s.bad", path);
	ck_assert_int_eq(stat(bad, &sb), 0);
	ck_assert_int_eq((int) sb.st_size, 11);
	ck_assert_int_ne(stat(path, &sb), 0);
	unlink(bad);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rt_state");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_bad_files);
	tcase_add_test(tc, test_shared_load_keeps_damaged);
	tcase_add_test(tc, test_submit_hold_ours);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_sync_overrun_and_release);
	tcase_add_test(tc, test_sync_node_lost);
	tcase_add_test(tc, test_sync_gone_and_tickets);
	tcase_add_test(tc, test_sync_feedback);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
