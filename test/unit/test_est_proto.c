/*
 * test_est_proto.c - the estimator protocol: request parsing (every op,
 * every error code, limits), response formatting, and the client-side
 * builders and parsers (round trips).
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "common/estimate/est_proto.h"
#include "fixtures.h"

static int parse(const char *line, struct dl_est_request *req,
		 struct dl_est_error *err)
{
	memset(err, 0, sizeof(*err));
	return dl_est_parse_request(line, strlen(line), req, err);
}

static void expect_error(const char *line, const char *code, const char *id,
			 const char *msg_part)
{
	struct dl_est_request req;
	struct dl_est_error err;

	ck_assert_msg(parse(line, &req, &err) == -1, "accepted: %s", line);
	ck_assert_msg(!strcmp(err.code, code), "%s: code %s, want %s", line,
		      err.code, code);
	ck_assert_msg(!strcmp(req.id, id), "%s: id %s, want %s", line, req.id,
		      id);
	ck_assert_msg(strstr(err.message, msg_part),
		      "%s: message '%s' lacks '%s'", line, err.message,
		      msg_part);
	dl_est_request_free(&req);
}

START_TEST(test_ping_and_ids)
{
	struct dl_est_request req;
	struct dl_est_error err;

	ck_assert_int_eq(
		parse("{\"v\":1,\"id\":42,\"op\":\"ping\"}", &req, &err), 0);
	ck_assert_int_eq(req.op, DL_EST_PING);
	ck_assert_str_eq(req.id, "42");
	dl_est_request_free(&req);
	/* string ids are echoed as JSON text, escaped */
	ck_assert_int_eq(
		parse("{\"v\":1,\"id\":\"a\\\"b/c\",\"op\":\"stats\"}  \r",
		      &req, &err),
		0);
	ck_assert_int_eq(req.op, DL_EST_STATS);
	ck_assert_str_eq(req.id, "\"a\\\"b/c\"");
	dl_est_request_free(&req);
	ck_assert_int_eq(
		parse("{\"v\":1,\"id\":-7,\"op\":\"ping\",\"extra\":[1]}", &req,
		      &err),
		0);
	ck_assert_str_eq(req.id, "-7");
	dl_est_request_free(&req);
}
END_TEST

START_TEST(test_errors)
{
	expect_error("", DL_EST_E_BAD_JSON, "null", "");
	expect_error("{\"v\":1,", DL_EST_E_BAD_JSON, "null", "incomplete");
	expect_error("{\"v\":1,\"id\":1,\"op\":\"ping\"}{}", DL_EST_E_BAD_JSON,
		     "null", "malformed JSON");
	expect_error("{\"v\":1,\"id\":1,\"op\":\"ping\"} x", DL_EST_E_BAD_JSON,
		     "null", "malformed JSON");
	/* issue E2: a JSON value that is not an object is a bad request,
	 * not bad JSON */
	expect_error("42", DL_EST_E_BAD_REQUEST, "null", "object");
	expect_error("null", DL_EST_E_BAD_REQUEST, "null", "object");
	expect_error("\"x\" ", DL_EST_E_BAD_REQUEST, "null", "object");
	/* an unpaired surrogate escape is no Unicode text; a pair is */
	expect_error("{\"v\":1,\"id\":\"a\\ud800\",\"op\":\"ping\"}",
		     DL_EST_E_BAD_JSON, "null", "surrogate");
	expect_error("{\"v\":1,\"id\":\"\\udc00x\",\"op\":\"ping\"}",
		     DL_EST_E_BAD_JSON, "null", "surrogate");
	expect_error("{\"v\":1,\"id\":\"\\ud800\\u0041\",\"op\":\"ping\"}",
		     DL_EST_E_BAD_JSON, "null", "surrogate");
	expect_error("{\"v\":1,]", DL_EST_E_BAD_JSON, "null", "malformed");
	expect_error("{\"v\":1,\"id\":1,\"op\":\"ping\",}", DL_EST_E_BAD_JSON,
		     "null", "malformed");
	expect_error("[1]", DL_EST_E_BAD_REQUEST, "null", "object");
	expect_error("{\"v\":1,\"op\":\"ping\"}", DL_EST_E_BAD_REQUEST, "null",
		     "id is missing");
	expect_error("{\"v\":1,\"id\":1.5,\"op\":\"ping\"}",
		     DL_EST_E_BAD_REQUEST, "null", "id must be");
	expect_error(
		"{\"v\":1,\"id\":\"0123456789012345678901234567890123456789"
		"01234567890123456789xxxxx\",\"op\":\"ping\"}",
		DL_EST_E_BAD_REQUEST, "null", "at most 64");
	expect_error("{\"id\":3,\"op\":\"ping\"}", DL_EST_E_BAD_VERSION, "3",
		     "required");
	expect_error("{\"v\":2,\"id\":3,\"op\":\"ping\"}", DL_EST_E_BAD_VERSION,
		     "3", "not supported");
	expect_error("{\"v\":1,\"id\":3}", DL_EST_E_BAD_REQUEST, "3",
		     "op is missing");
	expect_error("{\"v\":1,\"id\":3,\"op\":\"Ping\"}", DL_EST_E_UNKNOWN_OP,
		     "3", "unknown op");
	expect_error("{\"v\":1,\"id\":3,\"op\":\"predict\"}",
		     DL_EST_E_BAD_REQUEST, "3", "job");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{},\"jobs\":[]}",
		DL_EST_E_BAD_REQUEST, "3", "not both");
	expect_error("{\"v\":1,\"id\":3,\"op\":\"predict\",\"jobs\":[]}",
		     DL_EST_E_BAD_REQUEST, "3", "empty");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{\"user\":\"u\","
		"\"name\":\"n\",\"phase\":\"map\",\"tasks\":-1}}",
		DL_EST_E_BAD_REQUEST, "3", "job.tasks");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{\"user\":\"u\","
		"\"name\":\"n\",\"phase\":\"map\",\"completed\":\"1\"}}",
		DL_EST_E_BAD_REQUEST, "3", "completed must be an array");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{\"user\":\"u\","
		"\"name\":\"n\",\"phase\":\"map\",\"input_bytes\":true}}",
		DL_EST_E_BAD_REQUEST, "3", "input_bytes must be a number");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{\"user\":\"u\","
		"\"name\":\"n\\u0000x\",\"phase\":\"map\"}}",
		DL_EST_E_BAD_REQUEST, "3", "NUL");
	expect_error("{\"v\":1,\"id\":3,\"op\":\"observe\"}",
		     DL_EST_E_BAD_REQUEST, "3", "tasks is missing");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"forecast\",\"from\":0,\"to\":1e9,"
		"\"step\":1}",
		DL_EST_E_TOO_LARGE, "3", "points");
	expect_error(
		"{\"v\":1,\"id\":3,\"op\":\"forecast\",\"from\":0,\"to\":10}",
		DL_EST_E_BAD_REQUEST, "3", "step is missing");
	{
		const char nul[] = "{\"v\":1,\"id\":1,\"op\":\"ping\"}\0x";
		struct dl_est_request req;
		struct dl_est_error err;

		ck_assert_int_eq(
			dl_est_parse_request(nul, sizeof(nul) - 1, &req, &err),
			-1);
		ck_assert_str_eq(err.code, DL_EST_E_BAD_JSON);
		dl_est_request_free(&req);
	}
}
END_TEST

/* json-c 0.18 (Debian 13): JSON_TOKENER_STRICT refuses every byte >= 0x80
 * in a string; 0.16 (Debian 12) takes them. */
static bool strict_json_c_refuses_high_bytes(void)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	bool refused;

	ck_assert_ptr_nonnull(tok);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, "\"\xc3\xa9\" ", 4);
	refused = !o;
	json_object_put(o);
	json_tokener_free(tok);
	return refused;
}

/* Job names are UTF-8: a request with them is read the same by every
 * json-c, the names' bytes unchanged (json-c 0.18 refused it before). */
START_TEST(test_utf8_names)
{
	struct dl_est_request req;
	struct dl_est_error err;

	ck_assert_msg(
		parse("{\"v\":1,\"id\":1,\"op\":\"predict\",\"job\":{\"user\":"
		      "\"j\xc3\xb8rn\",\"name\":\"caf\xc3\xa9 \xe2\x82\xac "
		      "\xf0\x9f\x98\x80\",\"phase\":\"map\"}}",
		      &req, &err) == 0,
		"%s: %s", err.code, err.message);
	ck_assert_str_eq(req.jobs[0].user, "j\xc3\xb8rn");
	ck_assert_str_eq(req.jobs[0].name,
			 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	dl_est_request_free(&req);
}
END_TEST

static void expect_rejected(const char *line, size_t n, size_t index,
			    const char *msg_part)
{
	struct dl_est_request req;
	struct dl_est_error err;
	const struct dl_est_error *rj;

	ck_assert_msg(parse(line, &req, &err) == 0, "refused whole: %s (%s)",
		      line, err.message);
	ck_assert_uint_eq(req.nrejected, 1);
	ck_assert_uint_eq(req.op == DL_EST_OBSERVE ? req.ntasks : req.njobs, n);
	for (size_t i = 0; i < n; i++) {
		rj = &req.rejected[i];
		ck_assert_msg((i == index) == (rj->code[0] != 0),
			      "%s: record %zu", line, i);
	}
	rj = &req.rejected[index];
	ck_assert_str_eq(rj->code, DL_EST_E_BAD_REQUEST);
	ck_assert_msg(strstr(rj->message, msg_part), "%s: '%s' lacks '%s'",
		      line, rj->message, msg_part);
	dl_est_request_free(&req);
}

/* A record with invalid UTF-8 costs that record only where json-c leaves
 * the bytes to the per-string check (0.16); json-c 0.18's strict parser
 * refuses the text for it before any record is read. */
static void expect_rejected_bad_utf8(const char *line, size_t n, size_t index,
				     const char *msg_part)
{
	if (strict_json_c_refuses_high_bytes())
		expect_error(line, DL_EST_E_BAD_JSON, "null", "malformed JSON");
	else
		expect_rejected(line, n, index, msg_part);
}

#define TASK_OK                                                                \
	"{\"job_id\":1,\"user\":\"u\",\"name\":\"n\",\"phase\":\"map\","       \
	"\"start\":1,\"end\":2}"

/* Issue D1: one bad record of a batch costs that record only. */
START_TEST(test_per_record_rejection)
{
	expect_rejected("{\"v\":1,\"id\":3,\"op\":\"predict\",\"jobs\":[{"
			"\"user\":\"u\",\"name\":\"n\",\"phase\":\"map\"},7]}",
			2, 1, "jobs[1] must be an object");
	/* a name cut inside a two-byte character */
	expect_rejected_bad_utf8(
		"{\"v\":1,\"id\":3,\"op\":\"predict\",\"jobs\":[{"
		"\"user\":\"u\",\"name\":\"a\xc3\",\"phase\":"
		"\"map\"},{\"user\":\"u\",\"name\":\"\xc3\xa9\","
		"\"phase\":\"map\"}]}",
		2, 0, "jobs[0].name is not valid UTF-8");
	expect_rejected("{\"v\":1,\"id\":3,\"op\":\"observe\",\"tasks\":["
			"{\"job_id\":1e30,\"user\":\"u\",\"name\":\"n\","
			"\"phase\":\"map\",\"start\":1,\"end\":2}," TASK_OK
			"]}",
			2, 0, "tasks[0].job_id");
	/* 2^53 + 1 is not exact in a double: refused, not rounded */
	expect_rejected(
		"{\"v\":1,\"id\":3,\"op\":\"observe\",\"tasks\":[" TASK_OK
		",{\"job_id\":9007199254740993,\"user\":\"u\","
		"\"name\":\"n\",\"phase\":\"map\",\"start\":1,\"end\":2}]}",
		2, 1, "tasks[1].job_id");
	expect_rejected(
		"{\"v\":1,\"id\":3,\"op\":\"observe\",\"tasks\":[" TASK_OK
		",{\"job_id\":1,\"user\":\"u\",\"name\":\"n\","
		"\"phase\":\"map\",\"start\":1}," TASK_OK "]}",
		3, 1, "tasks[1].end is missing");
	expect_rejected_bad_utf8(
		"{\"v\":1,\"id\":3,\"op\":\"observe\",\"tasks\":[" TASK_OK
		"," TASK_OK ",{\"job_id\":1,\"user\":\"u\","
		"\"name\":\"n\\u00e9\xe9\",\"phase\":\"map\",\"start\":1,"
		"\"end\":2}]}",
		3, 2, "tasks[2].name is not valid UTF-8");
	expect_rejected("{\"v\":1,\"id\":3,\"op\":\"observe\",\"tasks\":["
			"{\"job_id\":1,\"user\":\"u\",\"name\":\"n\",\"phase\":"
			"\"map\",\"start\":1,\"end\":2,\"cpu\":-1}," TASK_OK
			"]}",
			2, 0, "tasks[0].cpu");
}
END_TEST

/* Issue 12 E2: 10,000 tasks per observe did not fit the daemon's default
 * 1 MiB line.  The most the protocol allows, as slurmctld sends them
 * (user 31 bytes, name and node 63, usage), fits. */
START_TEST(test_max_observe_fits_default_line)
{
	static struct dl_task_rec t[DL_EST_MAX_TASKS];
	const char *user = "uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu";
	const char *name = "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"
			   "nnnnnnnnnnnn";
	const char *node = "hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh"
			   "hhhhhhhhhhhh";
	size_t len = 0;
	char *line;

	for (size_t i = 0; i < DL_EST_MAX_TASKS; i++)
		t[i] = (struct dl_task_rec){.job_id = 4294967295u,
					    .task = 4000000000u,
					    .user = user,
					    .name = name,
					    .phase = 1,
					    .start = 1700000000.123,
					    .end = 1700086399.987,
					    .input_bytes = NAN,
					    .cpu = 127.5,
					    .mem = 1048576.25,
					    .io = 12345.5,
					    .usage = DL_USAGE_REQUESTED,
					    .node = node};
	line = dl_est_build_observe(1, t, DL_EST_MAX_TASKS, &len);
	ck_assert_ptr_nonnull(line);
	ck_assert_uint_lt(len, 1u << 20);
	free(line);
	ck_assert_ptr_null(
		dl_est_build_observe(1, t, DL_EST_MAX_TASKS + 1, &len));
}
END_TEST

START_TEST(test_predict_fields)
{
	struct dl_est_request req;
	struct dl_est_error err;

	ck_assert_int_eq(
		parse("{\"v\":1,\"id\":5,\"op\":\"predict\",\"jobs\":["
		      "{\"user\":\"a\",\"name\":\"\",\"phase\":\"reduce\","
		      "\"tasks\":4,"
		      "\"completed\":[1,2.5],\"input_bytes\":1000},"
		      "{\"user\":\"b\",\"name\":\"n\",\"phase\":\"map\","
		      "\"completed\":[3]}]}",
		      &req, &err),
		0);
	ck_assert(req.batch);
	ck_assert_int_eq(req.njobs, 2);
	ck_assert_str_eq(req.jobs[0].user, "a");
	ck_assert_str_eq(req.jobs[0].name, "");
	ck_assert_int_eq(req.jobs[0].phase, 1);
	ck_assert_int_eq(req.jobs[0].tasks, 4);
	ck_assert_int_eq(req.jobs[0].ncompleted, 2);
	ck_assert_double_eq_tol(req.jobs[0].completed[1], 2.5, 1e-12);
	ck_assert_double_eq_tol(req.jobs[0].input_bytes, 1000, 1e-12);
	ck_assert_int_eq(req.jobs[1].ncompleted, 1);
	ck_assert_double_eq_tol(req.jobs[1].completed[0], 3, 1e-12);
	ck_assert(isnan(req.jobs[1].input_bytes));
	dl_est_request_free(&req);
}
END_TEST

START_TEST(test_observe_fields)
{
	struct dl_est_request req;
	struct dl_est_error err;

	ck_assert_int_eq(
		parse("{\"v\":1,\"id\":5,\"op\":\"observe\",\"tasks\":["
		      "{\"job_id\":9007199254740992,\"task\":3,\"user\":\"a\","
		      "\"name\":\"n\",\"phase\":\"map\",\"start\":10,\"end\":"
		      "20.5,"
		      "\"cpu\":2,\"node\":\"n1\",\"mem\":null}]}",
		      &req, &err),
		0);
	ck_assert_int_eq(req.ntasks, 1);
	ck_assert(req.tasks[0].job_id == 9007199254740992ull);
	ck_assert_int_eq(req.tasks[0].task, 3);
	ck_assert_double_eq_tol(req.tasks[0].end, 20.5, 1e-12);
	ck_assert_double_eq_tol(req.tasks[0].cpu, 2, 1e-12);
	ck_assert(isnan(req.tasks[0].mem)); /* null = absent */
	ck_assert(isnan(req.tasks[0].io));
	ck_assert_str_eq(req.tasks[0].node, "n1");
	dl_est_request_free(&req);
	/* an empty batch is valid */
	ck_assert_int_eq(
		parse("{\"v\":1,\"id\":5,\"op\":\"observe\",\"tasks\":[]}",
		      &req, &err),
		0);
	ck_assert_int_eq(req.ntasks, 0);
	dl_est_request_free(&req);
}
END_TEST

START_TEST(test_format)
{
	struct json_object *r = json_object_new_object();
	size_t len = 0;
	char *line;

	json_object_object_add(r, "x", dl_est_json_num(1.5));
	json_object_object_add(r, "t", dl_est_json_time(1700000000.25));
	json_object_object_add(r, "n", dl_est_json_num(NAN));
	json_object_object_add(r, "f", dl_est_json_num(29.549999237060547));
	/* issue 12 E2: a duration >= 1e9 s printed 14 digits */
	json_object_object_add(r, "d", dl_est_json_num(2308548150.403));
	json_object_object_add(r, "i", dl_est_json_num(1234567892));
	line = dl_est_format_result("\"q\"", r, &len);
	ck_assert_str_eq(line, "{\"v\":1,\"id\":\"q\",\"result\":{\"x\":1.5,"
			       "\"t\":1700000000.25,\"n\":null,\"f\":29.55,"
			       "\"d\":2.308548e+09,\"i\":1234567892}}\n");
	ck_assert_int_eq(len, strlen(line));
	free(line);
	line = dl_est_format_error("null", DL_EST_E_BAD_JSON, "bad \"x\"",
				   &len);
	ck_assert_str_eq(
		line, "{\"v\":1,\"id\":null,\"error\":{\"code\":\"bad_json\","
		      "\"message\":\"bad \\\"x\\\"\"}}\n");
	free(line);
}
END_TEST

START_TEST(test_client_round_trip)
{
	double done[] = {1, 2, 3, 4, 5};
	struct dl_pred_query q[2] = {
		{.user = "alice",
		 .name = "wc",
		 .phase = 1,
		 .tasks = 10,
		 .completed = done,
		 .ncompleted = 5,
		 .input_bytes = 123},
		{.user = "bob", .name = "", .phase = 0, .input_bytes = NAN},
	};
	struct dl_task_rec t = {.job_id = 77,
				.task = 2,
				.user = "u",
				.name = "n",
				.phase = 1,
				.start = 1700000000.5,
				.end = 1700000100.25,
				.input_bytes = NAN,
				.cpu = 1.5,
				.mem = NAN,
				.io = 3,
				.node = "n4"};
	struct dl_est_request req;
	struct dl_est_error err;
	size_t len;
	char *line;

	/* a predict built by the client parses back to the same queries,
	 * keeping only the newest max_completed durations */
	line = dl_est_build_predict(11, q, 2, 3, &len);
	ck_assert_ptr_nonnull(line);
	ck_assert(line[len - 1] == '\n');
	ck_assert_int_eq(dl_est_parse_request(line, len - 1, &req, &err), 0);
	ck_assert_str_eq(req.id, "11");
	ck_assert_int_eq(req.njobs, 2);
	ck_assert_str_eq(req.jobs[0].user, "alice");
	ck_assert_int_eq(req.jobs[0].phase, 1);
	ck_assert_int_eq(req.jobs[0].ncompleted, 3);
	ck_assert_double_eq_tol(req.jobs[0].completed[0], 3, 1e-12);
	ck_assert_double_eq_tol(req.jobs[0].input_bytes, 123, 1e-12);
	ck_assert(isnan(req.jobs[1].input_bytes));
	dl_est_request_free(&req);
	free(line);

	line = dl_est_build_observe(12, &t, 1, &len);
	ck_assert_int_eq(dl_est_parse_request(line, len, &req, &err), 0);
	ck_assert_int_eq(req.op, DL_EST_OBSERVE);
	ck_assert(req.tasks[0].job_id == 77);
	ck_assert_int_eq(req.tasks[0].task, 2);
	ck_assert_double_eq_tol(req.tasks[0].start, 1700000000.5, 1e-6);
	ck_assert_double_eq_tol(req.tasks[0].end, 1700000100.25, 1e-6);
	ck_assert(isnan(req.tasks[0].mem));
	ck_assert_double_eq_tol(req.tasks[0].io, 3, 1e-12);
	ck_assert_str_eq(req.tasks[0].node, "n4");
	dl_est_request_free(&req);
	free(line);

	line = dl_est_build_forecast(13, 0, 60, 30, "gpu", &len);
	ck_assert_int_eq(dl_est_parse_request(line, len, &req, &err), 0);
	ck_assert_str_eq(req.cls, "gpu");
	ck_assert_double_eq_tol(req.step, 30, 1e-12);
	dl_est_request_free(&req);
	free(line);
	ck_assert_ptr_null(dl_est_build_simple(1, DL_EST_PREDICT, &len));
}
END_TEST

START_TEST(test_response_parsing)
{
	struct dl_est_response r;
	struct dl_prediction p = {.p50 = 10,
				  .p90 = 20,
				  .p99 = 40,
				  .max = 35,
				  .mean = 12,
				  .n = 7,
				  .source = DL_PRED_USER,
				  .has_profile = true,
				  .profile = {1.5, NAN, 3, 4}},
			     back;
	char err[128], *line;
	size_t len;

	line = dl_est_format_result("5", dl_est_prediction_json(&p), &len);
	ck_assert_int_eq(
		dl_est_parse_response(line, len - 1, &r, err, sizeof(err)), 0);
	ck_assert_int_eq(r.id, 5);
	ck_assert(!r.is_error);
	ck_assert_int_eq(
		dl_est_prediction_parse(r.result, &back, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(back.p90, 20, 1e-12);
	ck_assert_int_eq(back.n, 7);
	ck_assert_int_eq(back.source, DL_PRED_USER);
	ck_assert(back.has_profile);
	ck_assert(isnan(back.profile.mem));
	ck_assert_int_eq(back.profile.n, 4);
	dl_est_response_free(&r);
	free(line);

	line = dl_est_format_error("9", DL_EST_E_FORBIDDEN, "no", &len);
	ck_assert_int_eq(dl_est_parse_response(line, len, &r, err, sizeof(err)),
			 0);
	ck_assert(r.is_error);
	ck_assert_str_eq(r.code, "forbidden");
	ck_assert_int_eq(r.id, 9);
	dl_est_response_free(&r);
	free(line);

	/* garbage replies are EPROTO with a reason, never a crash */
	{
		const char *bad[] = {
			"hello",
			"{\"v\":2,\"id\":1,\"result\":{}}",
			"{\"v\":1,\"id\":1}",
			"{\"v\":1,\"id\":1,\"error\":3}",
			"{\"v\":1,\"id\":1,\"result\":[]}",
			"{\"v\":1,\"id\":1,\"error\":{\"message\":\"x\"}}",
			"[]",
			""};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			err[0] = '\0';
			ck_assert_int_eq(
				dl_est_parse_response(bad[i], strlen(bad[i]),
						      &r, err, sizeof(err)),
				EPROTO);
			ck_assert(strstr(err, "bad reply"));
			ck_assert_ptr_null(r.root);
		}
	}
	/* a prediction that violates p50 <= p90 <= p99 is refused */
	{
		struct json_object *o = json_tokener_parse(
			"{\"p50\":10,\"p90\":5,\"p99\":40,\"max\":1,\"n\":1,"
			"\"source\":\"job\"}");

		ck_assert_int_eq(
			dl_est_prediction_parse(o, &back, err, sizeof(err)),
			EPROTO);
		json_object_put(o);
		o = json_tokener_parse(
			"{\"p50\":10,\"p90\":15,\"p99\":40,\"max\":1,"
			"\"n\":1,\"source\":\"oracle\"}");
		ck_assert_int_eq(
			dl_est_prediction_parse(o, &back, err, sizeof(err)),
			EPROTO);
		json_object_put(o);
	}
}
END_TEST

START_TEST(test_forecast_json)
{
	struct dl_forecast *fc = NULL;
	struct dl_est_error err;
	struct json_object *o, *cls, *a;
	const char txt[] = "step 60\nclass a\n0 1\nclass b\n0.5\n";
	char e[64];

	ck_assert_int_eq(
		dl_forecast_parse(txt, sizeof(txt) - 1, "t", &fc, e, sizeof(e)),
		0);
	o = dl_est_forecast_json(fc, 0, 150, 60, NULL, &err);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_object_get_ex(o, "classes", &cls));
	ck_assert(json_object_object_get_ex(cls, "a", &a));
	/* [0,60) 0, [60,120) 1, [120,150) 1 (held) */
	ck_assert_int_eq(json_object_array_length(a), 3);
	ck_assert_double_eq_tol(
		json_object_get_double(json_object_array_get_idx(a, 1)), 1,
		1e-12);
	ck_assert(json_object_object_get_ex(cls, "b", &a));
	json_object_put(o);
	ck_assert_ptr_null(dl_est_forecast_json(fc, 0, 60, 60, "zz", &err));
	ck_assert_str_eq(err.code, DL_EST_E_BAD_REQUEST);
	dl_forecast_free(fc);
}
END_TEST

START_TEST(test_demo_forecast_file)
{
	/* the shipped Twitter-derived demo loads with the core's parser */
	struct dl_forecast *fc = NULL;
	const struct dl_series *sr;
	char err[256] = "", path[4096];
	double lo = 1, hi = 0, start, step, period;
	uint32_t n;

	snprintf(path, sizeof(path),
		 "%s/contrib/forecast/twitter-2021-08.forecast", SRCDIR);
	ck_assert_msg(!dl_forecast_load(path, &fc, err, sizeof(err)), "%s",
		      err);
	ck_assert_int_eq(dl_forecast_nclasses(fc), 1);
	ck_assert_str_eq(dl_forecast_class_name(fc, 0), "default");
	dl_forecast_grid(fc, &start, &step, &period, &n);
	ck_assert_int_eq(n, 1440);
	ck_assert_double_eq_tol(step, 60, 1e-9);
	ck_assert_double_eq_tol(period, 86400, 1e-9);
	ck_assert_double_eq_tol(start, 1740, 1e-9);
	sr = dl_forecast_series(fc, 0);
	ck_assert_ptr_nonnull(sr);
	for (uint32_t i = 0; i < sr->n; i++) {
		lo = fmin(lo, sr->v[i]);
		hi = fmax(hi, sr->v[i]);
	}
	ck_assert_double_eq_tol(hi, 0.8, 1e-9); /* scaled to PEAK */
	ck_assert(lo > 0.05); /* the archive's hole is filled */
	/* a day averages the same wherever it starts (periodic) */
	ck_assert_double_eq_tol(dl_forecast_mean(fc, 0, 0, 86400),
				dl_forecast_mean(fc, 0, 1.7e9, 1.7e9 + 86400),
				1e-9);
	dl_forecast_free(fc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("est_proto");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ping_and_ids);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_per_record_rejection);
	tcase_add_test(tc, test_max_observe_fits_default_line);
	tcase_add_test(tc, test_predict_fields);
	tcase_add_test(tc, test_utf8_names);
	tcase_add_test(tc, test_observe_fields);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_client_round_trip);
	tcase_add_test(tc, test_response_parsing);
	tcase_add_test(tc, test_forecast_json);
	tcase_add_test(tc, test_demo_forecast_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
