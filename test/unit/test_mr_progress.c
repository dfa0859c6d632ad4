/*
 * test_mr_progress.c - smapreduce --wait: task state bookkeeping, the
 * progress line and the verdict (outcome = exit status).
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "fixtures.h"
#include "common/io/timefmt.h"
#include "mr_progress.h"

#define NOW 1700000000.0

static void set_all(struct mr_phase *p, enum mr_task_state s, double end)
{
	for (uint32_t i = 0; i < p->tasks; i++)
		ck_assert_int_eq(mr_phase_set(p, i, s, end - 10, end), 0);
}

START_TEST(test_counts_and_bounds)
{
	struct mr_phase p;
	struct mr_counts c;

	ck_assert_int_eq(mr_phase_init(&p, 7, 5), 0);
	mr_phase_count(&p, &c);
	ck_assert_uint_eq(c.n[MR_TASK_PENDING], 5);
	ck_assert(!mr_phase_final(&p));
	ck_assert_int_eq(mr_phase_set(&p, 0, MR_TASK_RUNNING, NOW, 0), 0);
	ck_assert_int_eq(mr_phase_set(&p, 1, MR_TASK_DONE, NOW, NOW + 5), 0);
	ck_assert_int_eq(mr_phase_set(&p, 2, MR_TASK_FAILED, NOW, NOW + 9), 0);
	/* out of range and unknown states are refused, not stored */
	ck_assert_int_eq(mr_phase_set(&p, 5, MR_TASK_DONE, 0, 0), EINVAL);
	ck_assert_int_eq(mr_phase_set(&p, 0, MR_TASK_STATES, 0, 0), EINVAL);
	mr_phase_count(&p, &c);
	ck_assert_uint_eq(c.n[MR_TASK_PENDING], 2);
	ck_assert_uint_eq(c.n[MR_TASK_RUNNING], 1);
	ck_assert_uint_eq(c.n[MR_TASK_DONE], 1);
	ck_assert_uint_eq(c.n[MR_TASK_FAILED], 1);
	ck_assert_double_eq(p.last_end, NOW + 9);
	ck_assert_double_eq(p.first_start, NOW);
	/* a running task's expected end is not an end */
	ck_assert_int_eq(mr_phase_set(&p, 3, MR_TASK_RUNNING, NOW, NOW + 99),
			 0);
	ck_assert_double_eq(p.last_end, NOW + 9);
	mr_phase_free(&p);
	/* no phase: final, counts zero */
	ck_assert_int_eq(mr_phase_init(&p, 0, 0), 0);
	ck_assert(mr_phase_final(&p));
	ck_assert_int_eq(mr_phase_set(&p, 0, MR_TASK_DONE, 0, 0), EINVAL);
	ck_assert_int_eq(mr_phase_init(NULL, 1, 1), EINVAL);
}
END_TEST

START_TEST(test_progress_line)
{
	struct mr_phase m, r;
	struct mr_prediction pred = {.valid = true,
				     .finish = NOW + 600,
				     .err = 90,
				     .verdict = "on_track"};
	char line[512];

	ck_assert_int_eq(mr_phase_init(&m, 10, 20), 0);
	ck_assert_int_eq(mr_phase_init(&r, 11, 4), 0);
	for (uint32_t i = 0; i < 10; i++)
		mr_phase_set(&m, i, MR_TASK_DONE, NOW - 100, NOW - 50);
	for (uint32_t i = 10; i < 14; i++)
		mr_phase_set(&m, i, MR_TASK_RUNNING, NOW - 10, 0);
	mr_phase_set(&m, 14, MR_TASK_FAILED, NOW - 10, NOW - 1);
	mr_render_progress(line, sizeof(line), &m, &r, &pred, NOW + 1200, NOW,
			   10);
	ck_assert_msg(strstr(line, "map 10/20 [#####-----] 4 run 1 failed"),
		      "%s", line);
	ck_assert_msg(strstr(line, "reduce 0/4 [----------]"), "%s", line);
	ck_assert_msg(strstr(line, "finish ~") && strstr(line, "+/-1m30s"),
		      "%s", line);
	ck_assert_msg(strstr(line, "deadline ") && strstr(line, "(on_track)"),
		      "%s", line);
	/* no prediction: no finish, still the deadline */
	pred.valid = false;
	mr_render_progress(line, sizeof(line), &m, NULL, &pred, NOW + 1200, NOW,
			   4);
	ck_assert_msg(!strstr(line, "finish") && !strstr(line, "reduce") &&
			      strstr(line, "map 10/20 [##--]"),
		      "%s", line);
	/* a short buffer truncates, never overflows */
	ck_assert_uint_eq(mr_render_progress(line, 8, &m, &r, NULL, 0, NOW, 10),
			  7);
	ck_assert_uint_eq(strlen(line), 7);
	mr_phase_free(&m);
	mr_phase_free(&r);
}
END_TEST

START_TEST(test_verdicts)
{
	struct mr_phase m, r;
	char line[512];

	ck_assert_int_eq(mr_phase_init(&m, 10, 3), 0);
	ck_assert_int_eq(mr_phase_init(&r, 11, 2), 0);
	ck_assert_int_eq(
		mr_verdict(&m, &r, NOW + 100, 0, NOW, line, sizeof(line)),
		MR_OUTCOME_RUNNING);
	set_all(&m, MR_TASK_DONE, NOW + 30);
	/* maps done, reduces pending: still running */
	ck_assert_int_eq(
		mr_verdict(&m, &r, NOW + 100, 0, NOW, line, sizeof(line)),
		MR_OUTCOME_RUNNING);
	set_all(&r, MR_TASK_DONE, NOW + 80);
	ck_assert_int_eq(
		mr_verdict(&m, &r, NOW + 100, 0, NOW, line, sizeof(line)),
		MR_OUTCOME_MET);
	ck_assert_msg(strstr(line, "MapReduce job 10:11 completed at") &&
			      strstr(line, "20s before its soft deadline"),
		      "%s", line);
	/* the soft deadline is the goal when both are given */
	ck_assert_int_eq(mr_verdict(&m, &r, NOW + 70, NOW + 200, NOW, line,
				    sizeof(line)),
			 MR_OUTCOME_LATE);
	ck_assert_msg(strstr(line, "10s after its soft deadline"), "%s", line);
	ck_assert_int_eq(
		mr_verdict(&m, &r, 0, NOW + 70, NOW, line, sizeof(line)),
		MR_OUTCOME_LATE);
	ck_assert_msg(strstr(line, "after its deadline"), "%s", line);
	/* no deadline at all */
	ck_assert_int_eq(mr_verdict(&m, &r, 0, 0, NOW, line, sizeof(line)),
			 MR_OUTCOME_MET);
	/* a failed map: the reduce array was cancelled */
	mr_phase_set(&m, 1, MR_TASK_FAILED, NOW, NOW + 20);
	set_all(&r, MR_TASK_CANCELLED, NOW + 40);
	ck_assert_int_eq(
		mr_verdict(&m, &r, NOW + 100, 0, NOW, line, sizeof(line)),
		MR_OUTCOME_INCOMPLETE);
	ck_assert_msg(strstr(line, "did not complete: 1 map task failed; 2 "
				   "reduce tasks cancelled"),
		      "%s", line);
	/* Slurm's hard deadline cancelled the rest */
	set_all(&m, MR_TASK_DONE, NOW + 30);
	mr_phase_set(&m, 2, MR_TASK_DEADLINE, 0, NOW + 50);
	ck_assert_int_eq(
		mr_verdict(&m, NULL, 0, NOW + 50, NOW, line, sizeof(line)),
		MR_OUTCOME_INCOMPLETE);
	ck_assert_msg(strstr(line,
			     "MapReduce job 10 did not complete: 1 map task "
			     "cancelled by Slurm at the hard deadline ("),
		      "%s", line);
	ck_assert_int_eq(mr_verdict(NULL, NULL, 0, 0, NOW, line, sizeof(line)),
			 MR_OUTCOME_INCOMPLETE);
	mr_phase_free(&m);
	mr_phase_free(&r);
}
END_TEST

START_TEST(test_formats)
{
	char b[64];

	dl_format_duration(45, b, sizeof(b));
	ck_assert_str_eq(b, "45s");
	dl_format_duration(17 * 60 + 50, b, sizeof(b));
	ck_assert_str_eq(b, "17m50s");
	dl_format_duration(2 * 3600 + 3 * 60 + 59, b, sizeof(b));
	ck_assert_str_eq(b, "2h03m");
	dl_format_duration(3 * 86400 + 4 * 3600, b, sizeof(b));
	ck_assert_str_eq(b, "3d04h");
	dl_format_duration(NAN, b, sizeof(b));
	ck_assert_str_eq(b, "?");
	dl_format_duration(-1, b, sizeof(b));
	ck_assert_str_eq(b, "?");
	dl_format_time(NOW + 3600, NOW, b, sizeof(b));
	ck_assert_uint_eq(strlen(b), 8); /* HH:MM:SS, same day */
	dl_format_time(NOW + 40 * 86400, NOW, b, sizeof(b));
	ck_assert_uint_eq(strlen(b), 19);
	ck_assert(b[10] == 'T');
	dl_format_time(0, NOW, b, sizeof(b));
	ck_assert_str_eq(b, "-");
	/* the plan's explanations */
	dl_format_span(45.4, b, sizeof(b));
	ck_assert_str_eq(b, "45s");
	dl_format_span(-7, b, sizeof(b));
	ck_assert_str_eq(b, "-7s");
	dl_format_span(119, b, sizeof(b));
	ck_assert_str_eq(b, "119s");
	dl_format_span(120, b, sizeof(b));
	ck_assert_str_eq(b, "2m");
	dl_format_span(-1800, b, sizeof(b));
	ck_assert_str_eq(b, "-30m");
	dl_format_span(9000, b, sizeof(b));
	ck_assert_str_eq(b, "2.5h");
	dl_format_span(INFINITY, b, sizeof(b));
	ck_assert_str_eq(b, "never");
	dl_format_span(NAN, b, sizeof(b));
	ck_assert_str_eq(b, "never");
	dl_format_span(45, NULL, 8); /* no crash */
	/* as snprintf's "%.0f": ties to even, the sign of -0, truncated to
	 * the buffer */
	for (double v = -130; v <= 130; v += 0.25) {
		char want[16];

		snprintf(want, sizeof(want), "%.0fs", v);
		dl_format_span(v, b, sizeof(b));
		if (fabs(v) < 120)
			ck_assert_str_eq(b, want);
		snprintf(want, sizeof(want), "%.0fm", v * 60 / 60);
		dl_format_span(v * 60, b, sizeof(b));
		if (fabs(v * 60) >= 120 && fabs(v * 60) < 7200)
			ck_assert_str_eq(b, want);
	}
	dl_format_span(-0.4, b, sizeof(b));
	ck_assert_str_eq(b, "-0s");
	dl_format_span(-119.4, b, 4);
	ck_assert_str_eq(b, "-11");
	dl_format_span(5, b, 1);
	ck_assert_str_eq(b, "");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mr_progress");
	TCase *tc = tcase_create("progress");

	tcase_add_test(tc, test_counts_and_bounds);
	tcase_add_test(tc, test_progress_line);
	tcase_add_test(tc, test_verdicts);
	tcase_add_test(tc, test_formats);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	setenv("TZ", "UTC", 1); /* the "same day" format checks */
	tzset();
	return fx_run_suite(suite());
}
