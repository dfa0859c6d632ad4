/*
 * test_sdl_view.c - sdeadline's row selection (--user, --job, the jobs
 * Slurm shows the caller under PrivateData) and its table and JSON output.
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "common/io/timefmt.h"
#include "fixtures.h"
#include "sdl_view.h"

#define NOW 1700000000.0

static struct dl_plan *fixture(void)
{
	struct dl_plan *p = dl_plan_new(3);
	struct dl_plan_job *j;

	ck_assert_ptr_nonnull(p);
	p->now = NOW;
	p->cycle = 42;
	p->policy = DL_POLICY_ADAPTIVE;
	snprintf(p->stats.estimator, sizeof(p->stats.estimator), "ok");
	/* alice: a MapReduce pair in its map phase */
	j = &p->jobs[0];
	j->job_id = 101;
	j->reduce_id = 102;
	snprintf(j->user, sizeof(j->user), "alice");
	j->phase = DL_MAP;
	j->verdict = DL_VERDICT_ON_TRACK;
	j->deadline = NOW + 3600;
	j->predicted_finish = NOW + 1800;
	j->finish_err = 95;
	j->tasks[DL_MAP] = 200;
	j->tasks[DL_REDUCE] = 10;
	j->done[DL_MAP] = 120;
	j->running[DL_MAP] = 40;
	j->pending[DL_MAP] = 40;
	j->pending[DL_REDUCE] = 10;
	j->alloc = 40;
	j->need = 31.5;
	snprintf(j->mu_source, sizeof(j->mu_source), "history:name");
	snprintf(j->explain, sizeof(j->explain),
		 "needs 31.5 slots to finish map by 15:20, has 40");
	/* bob: a lone array with no estimate yet */
	j = &p->jobs[1];
	j->job_id = 200;
	snprintf(j->user, sizeof(j->user), "bob");
	j->phase = DL_MAP;
	j->verdict = DL_VERDICT_NO_DATA;
	j->deadline = NOW + 600;
	j->need = NAN;
	j->tasks[DL_MAP] = 8;
	j->pending[DL_MAP] = 8;
	snprintf(j->explain, sizeof(j->explain), "waiting for a first task");
	/* alice: finished, late */
	j = &p->jobs[2];
	j->job_id = 300;
	snprintf(j->user, sizeof(j->user), "alice");
	j->phase = -1;
	j->verdict = DL_VERDICT_DONE;
	j->deadline = NOW - 100;
	j->predicted_finish = NOW - 50;
	j->tasks[DL_MAP] = 4;
	j->done[DL_MAP] = 4;
	p->njobs = 3;
	return p;
}

static char *table(const struct dl_plan *p, const struct sdl_filter *f,
		   bool utf8, double now)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(m);
	sdl_print_table(m, p, f, now, utf8, 60);
	fclose(m);
	return buf;
}

START_TEST(test_table_columns)
{
	struct dl_plan *p = fixture();
	char *t = table(p, NULL, true, NOW + 5), *line;

	ck_assert_msg(strstr(t, "plan cycle 42 at ") &&
			      strstr(t, "(5s ago), policy adaptive, estimator "
					"ok, 3 deadline jobs"),
		      "%s", t);
	ck_assert_ptr_null(strstr(t, "warning"));
	line = strstr(t, "JOBID");
	ck_assert_ptr_nonnull(line);
	for (const char *h =
		     "USER PHASE POLICY DEADLINE PREDICTED DONE/RUN/PEND ALLOC "
		     "NEED SOURCE VERDICT EXPLANATION";
	     *h;) {
		char word[32];
		size_t n = strcspn(h, " ");

		snprintf(word, sizeof(word), "%.*s", (int) n, h);
		ck_assert_msg(strstr(line, word), "no column %s", word);
		h += n + (h[n] == ' ');
	}
	/* the MapReduce row: both ids, uncertainty, counts, source */
	line = strstr(t, "101+102");
	ck_assert_ptr_nonnull(line);
	ck_assert_msg(strstr(line, "alice") && strstr(line, "map") &&
			      strstr(line, "\u00b11m35s") &&
			      strstr(line, "120/40/50") &&
			      strstr(line, "31.5") &&
			      strstr(line, "history:name") &&
			      strstr(line, "on_track") &&
			      strstr(line, "needs 31.5 slots"),
		      "%s", line);
	/* unknown need and source print as "-" */
	line = strstr(t, "\n200 ");
	ck_assert_ptr_nonnull(line);
	ck_assert_msg(strstr(line, "no_data") && strstr(line, " - "), "%s",
		      line);
	/* a finished job shows its outcome */
	line = strstr(t, "\n300 ");
	ck_assert_ptr_nonnull(line);
	ck_assert_msg(strstr(line, "missed") && strstr(line, "done"), "%s",
		      line);
	free(t);
	/* ASCII terminals get +/- */
	t = table(p, NULL, false, NOW);
	ck_assert_ptr_nonnull(strstr(t, "+/-1m35s"));
	ck_assert_ptr_null(strstr(t, "\u00b1"));
	free(t);
	/* a stale plan says so */
	t = table(p, NULL, false, NOW + 600);
	ck_assert_ptr_nonnull(strstr(t, "warning: the plan is 10m00s old"));
	free(t);
	dl_plan_free(p);
}
END_TEST

START_TEST(test_filters)
{
	struct dl_plan *p = fixture();
	struct sdl_filter f;
	char err[256];
	uint64_t *ids;
	char *t;

	sdl_filter_init(&f);
	ck_assert_uint_eq(sdl_count_selected(p, &f), 3);
	ck_assert_int_eq(sdl_filter_add_users(&f, "bob", err, sizeof(err)), 0);
	ck_assert_uint_eq(sdl_count_selected(p, &f), 1);
	ck_assert(sdl_selected(&f, &p->jobs[1]));
	sdl_filter_free(&f);

	/* a reduce id or a task of the array selects the pair */
	sdl_filter_init(&f);
	ck_assert_int_eq(sdl_filter_add_jobs(&f, "102", err, sizeof(err)), 0);
	ck_assert(sdl_selected(&f, &p->jobs[0]));
	ck_assert_uint_eq(sdl_count_selected(p, &f), 1);
	sdl_filter_free(&f);
	sdl_filter_init(&f);
	ck_assert_int_eq(sdl_filter_add_jobs(&f, "300,101_7,200_[1-3]", err,
					     sizeof(err)),
			 0);
	ck_assert_uint_eq(sdl_count_selected(p, &f), 3);
	ck_assert_int_eq(
		sdl_filter_add_users(&f, "alice,carol", err, sizeof(err)), 0);
	ck_assert_uint_eq(sdl_count_selected(p, &f), 2);
	sdl_filter_free(&f);

	/* PrivateData: only jobs slurmctld showed (array ids of tasks) */
	sdl_filter_init(&f);
	ids = malloc(3 * sizeof(*ids));
	ids[0] = 999;
	ids[1] = 102;
	ids[2] = 5;
	sdl_filter_set_visible(&f, ids, 3);
	ck_assert(sdl_selected(&f, &p->jobs[0]));
	ck_assert(!sdl_selected(&f, &p->jobs[1]));
	ck_assert(!sdl_selected(&f, &p->jobs[2]));
	t = table(p, &f, false, NOW);
	ck_assert_ptr_nonnull(strstr(t, "1 deadline job\n"));
	ck_assert_ptr_null(strstr(t, "bob"));
	free(t);
	/* nothing visible: no rows at all */
	sdl_filter_set_visible(&f, NULL, 0);
	ck_assert_uint_eq(sdl_count_selected(p, &f), 0);
	sdl_filter_free(&f);
	dl_plan_free(p);
}
END_TEST

START_TEST(test_bad_filters)
{
	static const char *bad_jobs[] = {"",    "abc",  "0",  "12x",
					 "12_", "1,,2", "-3", "99999999999",
					 ",",   "12,"};
	static const char *bad_users[] = {"", "a b", ",bob", "x/y"};
	struct sdl_filter f;
	char err[256];

	for (size_t i = 0; i < sizeof(bad_jobs) / sizeof(*bad_jobs); i++) {
		sdl_filter_init(&f);
		err[0] = '\0';
		ck_assert_msg(sdl_filter_add_jobs(&f, bad_jobs[i], err,
						  sizeof(err)) == EINVAL,
			      "accepted --job=%s", bad_jobs[i]);
		ck_assert(err[0]);
		sdl_filter_free(&f);
	}
	for (size_t i = 0; i < sizeof(bad_users) / sizeof(*bad_users); i++) {
		sdl_filter_init(&f);
		ck_assert_msg(sdl_filter_add_users(&f, bad_users[i], err,
						   sizeof(err)) == EINVAL,
			      "accepted --user=%s", bad_users[i]);
		sdl_filter_free(&f);
	}
	ck_assert_int_eq(sdl_filter_add_jobs(NULL, "1", err, sizeof(err)),
			 EINVAL);
	ck_assert(!sdl_selected(NULL, NULL));
}
END_TEST

START_TEST(test_json)
{
	struct dl_plan *p = fixture();
	struct sdl_filter f;
	struct json_object *o, *jobs, *row, *v;
	char err[256];

	sdl_filter_init(&f);
	ck_assert_int_eq(sdl_filter_add_users(&f, "alice", err, sizeof(err)),
			 0);
	o = sdl_json(p, &f);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_object_get_ex(o, "jobs", &jobs));
	ck_assert_uint_eq(json_object_array_length(jobs), 2);
	row = json_object_array_get_idx(jobs, 0);
	ck_assert(json_object_object_get_ex(row, "reduce_id", &v));
	ck_assert_int_eq(json_object_get_int64(v), 102);
	ck_assert(json_object_object_get_ex(row, "finish_err", &v));
	ck_assert_double_eq(json_object_get_double(v), 95);
	ck_assert(json_object_object_get_ex(row, "source", &v));
	ck_assert_str_eq(json_object_get_string(v), "history:name");
	ck_assert(json_object_object_get_ex(row, "outcome", &v));
	ck_assert_ptr_null(v); /* still running */
	row = json_object_array_get_idx(jobs, 1);
	ck_assert(json_object_object_get_ex(row, "outcome", &v));
	ck_assert_str_eq(json_object_get_string(v), "missed");
	json_object_put(o);
	sdl_filter_free(&f);
	/* NaN need is null, not invalid JSON */
	o = sdl_json(p, NULL);
	ck_assert(json_object_object_get_ex(o, "jobs", &jobs));
	row = json_object_array_get_idx(jobs, 1);
	ck_assert(json_object_object_get_ex(row, "need", &v));
	ck_assert_ptr_null(v);
	{
		struct json_object *back =
			json_tokener_parse(json_object_to_json_string(o));

		ck_assert_ptr_nonnull(back);
		json_object_put(back);
	}
	json_object_put(o);
	ck_assert_ptr_null(sdl_json(NULL, NULL));
	dl_plan_free(p);
}
END_TEST

static char *render(const struct dl_plan *p, const struct sdl_view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(sdl_print(m, p, NULL, NOW, v), 0);
	fclose(m);
	return buf;
}

/* every word of `words` appears whole in `text`, or text ends with a
 * prefix of it followed by the dots: never a word cut in two */
static void assert_word_cut(const char *text, const char *words,
			    const char *dots)
{
	size_t n = strlen(text), d = strlen(dots);

	ck_assert_msg(n > d && !strcmp(text + n - d, dots), "'%s'", text);
	/* what precedes the dots is a prefix of the whole text ending
	 * just before a blank */
	ck_assert_msg(!strncmp(text, words, n - d), "'%s'", text);
	ck_assert_msg(words[n - d] == ' ', "cut inside a word: '%s'", text);
}

START_TEST(test_fit_words)
{
	const char *words = "alpha beta gamma delta epsilon";
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", words);
	ck_assert_uint_eq(sdl_fit_words(buf, sizeof(buf), 40, false),
			  strlen(words));
	ck_assert_str_eq(buf, words);
	for (size_t cols = 9; cols < strlen(words); cols++) {
		snprintf(buf, sizeof(buf), "%s", words);
		sdl_fit_words(buf, sizeof(buf), cols, false);
		ck_assert_uint_le(strlen(buf), cols);
		assert_word_cut(buf, words, "...");
		snprintf(buf, sizeof(buf), "%s", words);
		sdl_fit_words(buf, sizeof(buf), cols, true);
		assert_word_cut(buf, words, "\u2026");
	}
	/* one word longer than the room: cut, still valid UTF-8 */
	snprintf(buf, sizeof(buf), "caf\u00e9\u00e9\u00e9\u00e9\u00e9");
	sdl_fit_words(buf, sizeof(buf), 6, true);
	ck_assert_str_eq(buf, "caf\u00e9\u00e9\u2026");
	/* a buffer too small for the dots backs off whole characters */
	snprintf(buf, 7, "%s", "ab\u00e9 c");
	sdl_fit_words(buf, 7, 4, true);
	ck_assert_str_eq(buf, "ab\u2026");
}
END_TEST

START_TEST(test_long_and_wrap)
{
	struct dl_plan *p = fixture();
	struct sdl_view v = {0};
	char *t, *row, *explain;
	size_t n = 0;

	/* a 199-byte explanation as the core cuts it (at a word) */
	dl_plan_explain(&p->jobs[0], "%s",
			"every word here is whole and the sentence goes "
			"on and on about slots and waves and goals "
			"until it is far longer than a plan entry can "
			"hold, so the core must cut it somewhere between "
			"two words and never inside one of them at all");
	ck_assert_uint_le(strlen(p->jobs[0].explain), 199);
	/* not a terminal: the row carries it whole */
	v.utf8 = false;
	t = render(p, &v);
	ck_assert_ptr_nonnull(strstr(t, p->jobs[0].explain));
	free(t);
	/* a terminal of 140 columns: no line longer, cut between words */
	v.columns = 140;
	t = render(p, &v);
	for (char *line = t; *line;) {
		size_t len = strcspn(line, "\n");

		ck_assert_msg(len <= 140 || !strncmp(line, "plan cycle", 10),
			      "line of %zu columns: %.*s", len, (int) len,
			      line);
		line += len + (line[len] == '\n');
	}
	row = strstr(t, "101+102");
	ck_assert_ptr_nonnull(row);
	explain = strstr(row, "every word");
	ck_assert_ptr_nonnull(explain);
	explain[strcspn(explain, "\n")] = '\0';
	assert_word_cut(explain, p->jobs[0].explain, "...");
	free(t);
	/* --long: the whole explanation below the row, wrapped at 60 */
	v.long_view = true;
	v.columns = 60;
	t = render(p, &v);
	ck_assert_msg(strstr(t, "ACCOUNT") && strstr(t, "NAME") &&
			      strstr(t, "RANK") && strstr(t, "TASKLEN") &&
			      !strstr(t, "EXPLANATION"),
		      "%s", t);
	row = strstr(t, "101+102");
	row = strchr(row, '\n') + 1;
	{
		/* the wrapped lines, joined, are the explanation */
		char joined[400] = "";

		while (!strncmp(row, "    ", 4)) {
			size_t len = strcspn(row, "\n");

			ck_assert_uint_le(len, 60);
			if (joined[0])
				strcat(joined, " ");
			strncat(joined, row + 4, len - 4);
			row += len + 1;
			n++;
		}
		ck_assert_uint_ge(n, 3);
		ck_assert_str_eq(joined, p->jobs[0].explain);
	}
	free(t);
	dl_plan_free(p);
}
END_TEST

START_TEST(test_format)
{
	struct dl_plan *p = fixture();
	struct sdl_view v = {0};
	char err[128], *t;
	static const char *bad[] = {"",     "%",      "%z",      "%9999i",
				    "nope", "jobid,", "jobid:0", "user:x"};

	/* squeue style: widths, "." right-aligns, literal text */
	v.format = "%i|%.6v|%E|%s %%";
	v.no_header = true;
	t = render(p, &v);
	/* p90 = 1800 s + 1.2816 * 95 s = 1921.7 s after NOW */
	{
		char want[64], p90[32];

		dl_format_time(NOW + 1800 + 1.2815516 * 95, NOW, p90,
			       sizeof(p90));
		snprintf(want, sizeof(want),
			 "101+102|on_...|%s|history:name %%", p90);
		ck_assert_msg(strstr(t, want), "want '%s' in\n%s", want, t);
	}
	ck_assert_ptr_null(strstr(t, "JOBID"));
	/* a finished job has no p90 */
	ck_assert_ptr_nonnull(strstr(t, "300    |missed|-       |- %"));
	free(t);
	/* names */
	v.format = "jobid,verdict:8,p90";
	v.no_header = false;
	t = render(p, &v);
	ck_assert_ptr_nonnull(strstr(t, "JOBID   VERDICT  P90"));
	free(t);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ck_assert_msg(sdl_check_format(bad[i], err, sizeof(err)) ==
				      EINVAL,
			      "accepted '%s'", bad[i]);
	ck_assert_int_eq(sdl_check_format("%.10i %u %x", err, sizeof(err)), 0);
	v.format = "%z";
	ck_assert_int_eq(sdl_print(stdout, p, NULL, NOW, &v), EINVAL);
	dl_plan_free(p);
}
END_TEST

/* Policy=portfolio: the header names the active policy, and a line the
 * last round's scores and decision */
START_TEST(test_portfolio_header)
{
	struct dl_plan *p = fixture();
	struct sdl_view v = {0};
	char *t;

	p->policy = DL_POLICY_TRIAGE;
	p->portfolio.on = true;
	p->portfolio.rounds = 3;
	p->portfolio.switches = 1;
	p->portfolio.last_round = NOW - 30;
	p->portfolio.round_s = 0.25;
	p->portfolio.n = 2;
	p->portfolio.score[0] = (struct dl_plan_pf_score){
		DL_POLICY_TRIAGE, true, 12.5, 10, 1.5, 1};
	p->portfolio.score[1] =
		(struct dl_plan_pf_score){DL_POLICY_EDF, false, 0, 0, 0, 0};
	snprintf(p->portfolio.why, sizeof(p->portfolio.why),
		 "kept triage: best (12.50)");
	t = render(p, &v);
	ck_assert_msg(strstr(t, "policy portfolio, now triage (switched)"),
		      "%s", t);
	ck_assert_msg(strstr(t, "portfolio round 3 at "), "%s", t);
	ck_assert_msg(strstr(t, "(0.25 s): triage 12.50 (10.0% missed), edf "
				"-; kept triage: best (12.50)\n"),
		      "%s", t);
	free(t);
	/* --json carries the same */
	{
		struct json_object *o = sdl_json(p, NULL), *pf, *sc;

		ck_assert_ptr_nonnull(o);
		ck_assert(json_object_object_get_ex(o, "portfolio", &pf));
		ck_assert(json_object_object_get_ex(pf, "scores", &sc));
		ck_assert_uint_eq(json_object_array_length(sc), 2);
		json_object_put(o);
	}
	/* before the first round: why there is none */
	p->portfolio.rounds = 0;
	snprintf(p->portfolio.why, sizeof(p->portfolio.why), "no round yet");
	t = render(p, &v);
	ck_assert_msg(strstr(t, "portfolio: no round yet\n"), "%s", t);
	free(t);
	/* not portfolio: no such line */
	p->portfolio.on = false;
	t = render(p, &v);
	ck_assert_ptr_null(strstr(t, "portfolio"));
	free(t);
	dl_plan_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sdl_view");
	TCase *tc = tcase_create("view");

	tcase_add_test(tc, test_table_columns);
	tcase_add_test(tc, test_filters);
	tcase_add_test(tc, test_bad_filters);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_fit_words);
	tcase_add_test(tc, test_long_and_wrap);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_portfolio_header);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return fx_run_suite(suite());
}
