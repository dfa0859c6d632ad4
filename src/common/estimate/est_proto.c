/*
 * est_proto.c - estimator protocol: parse and format with json-c.
 */
#include "common/estimate/est_proto.h"
#include "common/io/utf8.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/json.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static const char *const op_names[DL_EST_OPS] = {"ping", "predict", "observe",
						 "forecast", "stats"};

const char *dl_est_op_name(enum dl_est_op op)
{
	return (unsigned) op < DL_EST_OPS ? op_names[op] : "unknown";
}

static int set_err(struct dl_est_error *e, const char *code, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

static int set_err(struct dl_est_error *e, const char *code, const char *fmt,
		   ...)
{
	va_list ap;

	if (e) {
		snprintf(e->code, sizeof(e->code), "%s", code);
		va_start(ap, fmt);
		vsnprintf(e->message, sizeof(e->message), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* ---- field access: io/json.h, its failures as bad_request ---- */

#define REQ DL_JSON_REQUIRED

static int bad_request(struct dl_est_error *err, const char *msg)
{
	return set_err(err, DL_EST_E_BAD_REQUEST, "%s", msg);
}

static int get_phase(struct dl_json_rd *r, struct json_object *o,
		     const char *path)
{
	const char *s = dl_json_str(r, o, path, "phase", REQ, 1, 16, NULL);
	char label[64];

	if (!s)
		return 0;
	if (!strcmp(s, "map"))
		return 0;
	if (!strcmp(s, "reduce"))
		return 1;
	dl_json_label(label, sizeof(label), path, "phase", -1);
	dl_json_fail(r, label, " must be \"map\" or \"reduce\"");
	return 0;
}

static bool all_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

static int hex4(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;

	if (n < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned) (c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned) (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned) (c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* json-c turns a lone \ud800 into U+FFFD; RFC 8259 text with one is not
 * a string of Unicode characters, so it is refused before parsing. */
static bool surrogate_escape_unpaired(const char *s, size_t n, size_t *at)
{
	bool in_str = false;

	for (size_t i = 0; i < n; i++) {
		unsigned u, lo;

		if (s[i] == '"') {
			in_str = !in_str;
			continue;
		}
		if (!in_str || s[i] != '\\')
			continue;
		if (i + 1 < n && s[i + 1] != 'u') {
			i++; /* a one-character escape */
			continue;
		}
		if (hex4(s + i + 2, n - (i + 2 < n ? i + 2 : n), &u))
			continue; /* the parser reports it */
		if (u >= 0xdc00 && u <= 0xdfff) {
			*at = i;
			return true;
		}
		if (u >= 0xd800 && u <= 0xdbff) {
			if (i + 11 < n + 0 && s[i + 6] == '\\' &&
			    s[i + 7] == 'u' &&
			    !hex4(s + i + 8, n - i - 8, &lo) && lo >= 0xdc00 &&
			    lo <= 0xdfff) {
				i += 11;
				continue;
			}
			*at = i;
			return true;
		}
		i += 5;
	}
	return false;
}

/* ---- requests ---- */

static int parse_id(struct json_object *root, struct dl_est_request *req,
		    struct dl_est_error *err)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(root, "id", &v);
	if (!v)
		return set_err(err, DL_EST_E_BAD_REQUEST, "id is missing");
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);

		if (i == INT64_MAX || i == INT64_MIN)
			return set_err(err, DL_EST_E_BAD_REQUEST,
				       "id must be a 64-bit integer or a "
				       "string");
		snprintf(req->id, sizeof(req->id), "%lld", (long long) i);
		return 0;
	}
	if (json_object_is_type(v, json_type_string)) {
		const char *txt;

		if (!dl_utf8_valid(json_object_get_string(v),
				   (size_t) json_object_get_string_len(v)))
			return set_err(err, DL_EST_E_BAD_REQUEST,
				       "id is not valid UTF-8");
		if (json_object_get_string_len(v) > DL_EST_MAX_ID)
			return set_err(err, DL_EST_E_BAD_REQUEST,
				       "id strings are at most %d bytes",
				       DL_EST_MAX_ID);
		txt = json_object_to_json_string_ext(v, JSON_FLAGS);
		if (!txt || strlen(txt) >= sizeof(req->id))
			return set_err(err, DL_EST_E_BAD_REQUEST,
				       "id cannot be encoded");
		snprintf(req->id, sizeof(req->id), "%s", txt);
		return 0;
	}
	return set_err(err, DL_EST_E_BAD_REQUEST,
		       "id must be an integer or a string");
}

static int parse_job(struct json_object *o, struct dl_pred_query *q,
		     double *pool, size_t *used, const char *path,
		     struct dl_est_error *err)
{
	char msg[256], label[96];
	struct dl_json_rd r = DL_JSON_RD(msg, sizeof(msg));
	struct json_object *c;
	size_t n;

	if (!dl_json_is_object(&r, o, path))
		return bad_request(err, msg);
	memset(q, 0, sizeof(*q));
	q->user =
		dl_json_str(&r, o, path, "user", REQ, 1, DL_HIST_MAX_STR, NULL);
	q->name =
		dl_json_str(&r, o, path, "name", REQ, 0, DL_HIST_MAX_STR, NULL);
	q->phase = get_phase(&r, o, path);
	q->tasks = (uint32_t) dl_json_uint(&r, o, path, "tasks", 0, 0,
					   100000000, 0);
	q->input_bytes =
		dl_json_num(&r, o, path, "input_bytes", 0, 0, 1e18, NAN);
	c = dl_json_array(&r, o, path, "completed", 0, DL_JSON_ANY_LEN);
	if (r.failed)
		return bad_request(err, msg);
	if (!c)
		return 0;
	n = json_object_array_length(c);
	if (*used + n > DL_EST_MAX_COMPLETED)
		return set_err(err, DL_EST_E_TOO_LARGE,
			       "at most %u completed durations per request",
			       DL_EST_MAX_COMPLETED);
	q->completed = pool + *used;
	q->ncompleted = n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(c, i);

		snprintf(label, sizeof(label), "%s.completed[%zu]", path, i);
		if (!v)
			dl_json_fail(&r, label, " must be a number");
		pool[*used + i] =
			dl_json_num_of(&r, v, label, -INFINITY, INFINITY, 0);
		if (!r.failed &&
		    !(pool[*used + i] >= 0 && pool[*used + i] <= 1e12))
			dl_json_fail(&r, label,
				     " must be seconds in [0, 1e12]");
		if (r.failed)
			return bad_request(err, msg);
	}
	*used += n;
	return 0;
}

/* Count the durations of all jobs first, to size the pool once. */
static size_t count_completed(struct json_object *job)
{
	struct json_object *c = NULL;

	if (json_object_is_type(job, json_type_object) &&
	    json_object_object_get_ex(job, "completed", &c) &&
	    json_object_is_type(c, json_type_array))
		return json_object_array_length(c);
	return 0;
}

static int parse_predict(struct json_object *root, struct dl_est_request *req,
			 struct dl_est_error *err)
{
	struct json_object *job = NULL, *jobs = NULL;
	size_t n, total = 0, used = 0;
	char path[48];

	json_object_object_get_ex(root, "job", &job);
	json_object_object_get_ex(root, "jobs", &jobs);

	if (job && jobs)
		return set_err(err, DL_EST_E_BAD_REQUEST,
			       "give either job or jobs, not both");
	if (!job && !jobs)
		return set_err(err, DL_EST_E_BAD_REQUEST,
			       "predict needs job (an object) or jobs (an "
			       "array)");
	if (jobs) {
		if (!json_object_is_type(jobs, json_type_array))
			return set_err(err, DL_EST_E_BAD_REQUEST,
				       "jobs must be an array");
		n = json_object_array_length(jobs);
		if (n == 0)
			return set_err(err, DL_EST_E_BAD_REQUEST,
				       "jobs is empty");
		if (n > DL_EST_MAX_JOBS)
			return set_err(err, DL_EST_E_TOO_LARGE,
				       "at most %d jobs per predict",
				       DL_EST_MAX_JOBS);
		req->batch = true;
		for (size_t i = 0; i < n; i++)
			total += count_completed(
				json_object_array_get_idx(jobs, i));
	} else {
		n = 1;
		total = count_completed(job);
	}
	if (total > DL_EST_MAX_COMPLETED)
		return set_err(err, DL_EST_E_TOO_LARGE,
			       "at most %u completed durations per request",
			       DL_EST_MAX_COMPLETED);
	req->jobs = calloc(n, sizeof(*req->jobs));
	req->completed = malloc((total ? total : 1) * sizeof(double));
	req->rejected = calloc(n, sizeof(*req->rejected));
	if (!req->jobs || !req->completed || !req->rejected)
		return set_err(err, DL_EST_E_INTERNAL, "out of memory");
	req->njobs = n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *o =
			jobs ? json_object_array_get_idx(jobs, i) : job;

		if (jobs)
			dl_json_label(path, sizeof(path), "jobs", NULL,
				      (long) i);
		else
			snprintf(path, sizeof(path), "job");
		if (parse_job(o, &req->jobs[i], req->completed, &used, path,
			      &req->rejected[i])) {
			/* the limit of the whole request stays whole */
			if (!strcmp(req->rejected[i].code,
				    DL_EST_E_TOO_LARGE) ||
			    !req->batch) {
				if (err)
					*err = req->rejected[i];
				return -1;
			}
			req->jobs[i].user = NULL; /* not to be answered */
			req->nrejected++;
		}
	}
	return 0;
}

static int parse_task(struct json_object *o, struct dl_task_rec *t,
		      const char *path, struct dl_est_error *err)
{
	char msg[256];
	struct dl_json_rd r = DL_JSON_RD(msg, sizeof(msg));
	const char *usage;
	uint64_t task;

	if (!dl_json_is_object(&r, o, path))
		return bad_request(err, msg);
	memset(t, 0, sizeof(*t));
	t->job_id = dl_json_uint(&r, o, path, "job_id", REQ, 0,
				 (uint64_t) DL_EST_MAX_INT, 0);
	task = dl_json_uint(&r, o, path, "task", 0, 0, UINT32_MAX, UINT64_MAX);
	t->user =
		dl_json_str(&r, o, path, "user", REQ, 1, DL_HIST_MAX_STR, NULL);
	t->name =
		dl_json_str(&r, o, path, "name", REQ, 0, DL_HIST_MAX_STR, NULL);
	t->phase = get_phase(&r, o, path);
	t->start = dl_json_num(&r, o, path, "start", REQ, 0, 1e12, NAN);
	t->end = dl_json_num(&r, o, path, "end", REQ, 0, 1e12, NAN);
	t->input_bytes =
		dl_json_num(&r, o, path, "input_bytes", 0, 0, 1e18, NAN);
	t->cpu = dl_json_num(&r, o, path, "cpu", 0, 0, 1e6, NAN);
	t->mem = dl_json_num(&r, o, path, "mem", 0, 0, 1e12, NAN);
	t->io = dl_json_num(&r, o, path, "io", 0, 0, 1e12, NAN);
	t->node = dl_json_str(&r, o, path, "node", 0, 1, DL_HIST_MAX_STR, NULL);
	usage = dl_json_str(&r, o, path, "usage", 0, 1, 16, NULL);
	if (r.failed)
		return bad_request(err, msg);
	if (usage && dl_usage_source_parse(usage, &t->usage))
		return set_err(err, DL_EST_E_BAD_REQUEST,
			       "%s.usage must be measured, declared or "
			       "requested",
			       path);
	if (t->end < t->start)
		return set_err(err, DL_EST_E_BAD_REQUEST,
			       "%s.end is before start", path);
	t->task = task == UINT64_MAX ? -1 : (int64_t) task;
	return 0;
}

static int parse_observe(struct json_object *root, struct dl_est_request *req,
			 struct dl_est_error *err)
{
	struct json_object *tasks = NULL;
	char path[48];
	size_t n;

	json_object_object_get_ex(root, "tasks", &tasks);
	if (!tasks)
		return set_err(err, DL_EST_E_BAD_REQUEST, "tasks is missing");
	if (!json_object_is_type(tasks, json_type_array))
		return set_err(err, DL_EST_E_BAD_REQUEST,
			       "tasks must be an array");
	n = json_object_array_length(tasks);
	if (n > DL_EST_MAX_TASKS)
		return set_err(err, DL_EST_E_TOO_LARGE,
			       "at most %d tasks per observe",
			       DL_EST_MAX_TASKS);
	req->tasks = calloc(n ? n : 1, sizeof(*req->tasks));
	req->rejected = calloc(n ? n : 1, sizeof(*req->rejected));
	if (!req->tasks || !req->rejected)
		return set_err(err, DL_EST_E_INTERNAL, "out of memory");
	req->ntasks = n;
	/* a task that does not validate is rejected alone (the reply lists
	 * it); the others are stored */
	for (size_t i = 0; i < n; i++) {
		dl_json_label(path, sizeof(path), "tasks", NULL, (long) i);
		if (parse_task(json_object_array_get_idx(tasks, i),
			       &req->tasks[i], path, &req->rejected[i])) {
			memset(&req->tasks[i], 0, sizeof(req->tasks[i]));
			req->nrejected++;
		}
	}
	return 0;
}

static int parse_forecast(struct json_object *root, struct dl_est_request *req,
			  struct dl_est_error *err)
{
	char msg[256];
	struct dl_json_rd r = DL_JSON_RD(msg, sizeof(msg));

	req->from = dl_json_num(&r, root, NULL, "from", REQ, 0, 1e12, NAN);
	req->to = dl_json_num(&r, root, NULL, "to", REQ, 0, 1e12, NAN);
	req->step = dl_json_num(&r, root, NULL, "step", REQ, 1e-3, 1e9, NAN);
	req->cls = dl_json_str(&r, root, NULL, "class", 0, 1, 63, NULL);
	if (r.failed)
		return bad_request(err, msg);
	if (req->to < req->from)
		return set_err(err, DL_EST_E_BAD_REQUEST, "to is before from");
	if ((req->to - req->from) / req->step > DL_EST_MAX_POINTS)
		return set_err(err, DL_EST_E_TOO_LARGE,
			       "at most %d points per class",
			       DL_EST_MAX_POINTS);
	return 0;
}

int dl_est_parse_request(const char *line, size_t len,
			 struct dl_est_request *req, struct dl_est_error *err)
{
	struct json_tokener *tok;
	struct json_object *root, *v;
	enum json_tokener_error e;
	size_t end, bad_at = 0, text_len;
	const char *op, *text;
	char *escaped = NULL;
	double ver;

	if (!req)
		return set_err(err, DL_EST_E_INTERNAL, "no request");
	memset(req, 0, sizeof(*req));
	snprintf(req->id, sizeof(req->id), "null");
	if (!line || len > INT32_MAX)
		return set_err(err, DL_EST_E_BAD_JSON, "empty request");
	if (memchr(line, '\0', len))
		return set_err(err, DL_EST_E_BAD_JSON,
			       "request contains a NUL byte");
	if (surrogate_escape_unpaired(line, len, &bad_at))
		return set_err(err, DL_EST_E_BAD_JSON,
			       "unpaired UTF-16 surrogate escape at byte %zu",
			       bad_at);
	/* json-c 0.18's strict mode takes non-ASCII only as \u escapes; an
	 * invalid sequence stays, so json-c 0.18 refuses the whole request
	 * for it where 0.16 leaves it to get_str (one record) */
	if (dl_utf8_json_escape(line, len, &escaped, &text_len))
		return set_err(err, DL_EST_E_INTERNAL, "out of memory");
	text = escaped ? escaped : line;
	if (text_len > INT32_MAX) {
		free(escaped);
		return set_err(err, DL_EST_E_BAD_JSON, "request too large");
	}
	tok = json_tokener_new();
	if (!tok) {
		free(escaped);
		return set_err(err, DL_EST_E_INTERNAL, "out of memory");
	}
	/* RFC 8259 only: no NaN/Infinity literals, no trailing commas.
	 * UTF-8 is checked per string (get_str), so that a bad name costs
	 * its record only. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int) text_len);
	e = json_tokener_get_error(tok);
	if (e == json_tokener_continue) {
		/* a bare number at the end of the line may still be waiting
		 * for more digits: end it */
		root = json_tokener_parse_ex(tok, " ", 1);
		e = json_tokener_get_error(tok);
		end = text_len;
	} else {
		end = json_tokener_get_parse_end(tok);
	}
	json_tokener_free(tok);
	if (e != json_tokener_success ||
	    !all_space(text + end, text_len - end)) {
		free(escaped);
		json_object_put(root);
		if (e == json_tokener_continue)
			return set_err(err, DL_EST_E_BAD_JSON,
				       "incomplete JSON");
		if (e == json_tokener_success)
			return set_err(err, DL_EST_E_BAD_JSON,
				       "trailing data after the request");
		return set_err(err, DL_EST_E_BAD_JSON, "malformed JSON: %s",
			       json_tokener_error_desc(e));
	}
	free(escaped);
	req->root = root;
	if (!json_object_is_type(root, json_type_object))
		return set_err(err, DL_EST_E_BAD_REQUEST,
			       "a request is a JSON object");
	if (parse_id(root, req, err))
		return -1;
	v = NULL;
	json_object_object_get_ex(root, "v", &v);
	if (!v || (!json_object_is_type(v, json_type_int) &&
		   !json_object_is_type(v, json_type_double)))
		return set_err(err, DL_EST_E_BAD_VERSION,
			       "\"v\":%d is required", DL_EST_VERSION);
	ver = json_object_get_double(v);
	if (ver != DL_EST_VERSION)
		return set_err(err, DL_EST_E_BAD_VERSION,
			       "protocol version %g is not supported (only %d)",
			       ver, DL_EST_VERSION);
	{
		char msg[256];
		struct dl_json_rd r = DL_JSON_RD(msg, sizeof(msg));

		op = dl_json_str(&r, root, NULL, "op", REQ, 1, 32, NULL);
		if (r.failed)
			return bad_request(err, msg);
	}
	for (req->op = 0; req->op < DL_EST_OPS; req->op++)
		if (!strcmp(op, op_names[req->op]))
			break;
	switch (req->op) {
	case DL_EST_PING:
	case DL_EST_STATS:
		return 0;
	case DL_EST_PREDICT:
		return parse_predict(root, req, err);
	case DL_EST_OBSERVE:
		return parse_observe(root, req, err);
	case DL_EST_FORECAST:
		return parse_forecast(root, req, err);
	default:
		return set_err(err, DL_EST_E_UNKNOWN_OP,
			       "unknown op (ping, predict, observe, forecast, "
			       "stats)");
	}
}

void dl_est_request_free(struct dl_est_request *req)
{
	if (!req)
		return;
	json_object_put(req->root);
	free(req->jobs);
	free(req->completed);
	free(req->tasks);
	free(req->rejected);
	memset(req, 0, sizeof(*req));
}

/* ---- responses ---- */

struct json_object *dl_est_json_num(double v)
{
	char buf[48];

	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		/* 7 significant digits at any magnitude: durations to a
		 * tenth of a second and better, without float noise of the
		 * stored samples (a 1e9 s duration is not printed to the
		 * millisecond) */
		snprintf(buf, sizeof(buf), "%.7g", v);
	return json_object_new_double_s(v, buf);
}

struct json_object *dl_est_json_time(double v)
{
	char buf[48], *e;

	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, sizeof(buf), "%.0f", v);
		return json_object_new_double_s(v, buf);
	}
	/* epoch times: milliseconds */
	snprintf(buf, sizeof(buf), "%.3f", v);
	e = buf + strlen(buf) - 1;
	while (*e == '0')
		*e-- = '\0';
	if (*e == '.')
		*e = '\0';
	return json_object_new_double_s(v, buf);
}

static char *join_line(const char *id, const char *kind, const char *body,
		       size_t *len)
{
	size_t n = strlen(id) + strlen(kind) + strlen(body) + 32;
	char *line = malloc(n);
	int w;

	if (!line)
		return NULL;
	w = snprintf(line, n, "{\"v\":%d,\"id\":%s,\"%s\":%s}\n",
		     DL_EST_VERSION, id, kind, body);
	if (w < 0 || (size_t) w >= n) {
		free(line);
		return NULL;
	}
	if (len)
		*len = (size_t) w;
	return line;
}

char *dl_est_format_result(const char *id, struct json_object *result,
			   size_t *len)
{
	const char *body;
	char *line;

	if (!result)
		return NULL;
	body = json_object_to_json_string_ext(result, JSON_FLAGS);
	line = body ? join_line(id && id[0] ? id : "null", "result", body, len)
		    : NULL;
	json_object_put(result);
	return line;
}

char *dl_est_format_error(const char *id, const char *code, const char *message,
			  size_t *len)
{
	struct json_object *e = json_object_new_object();
	char *line = NULL;
	const char *body;

	if (!e)
		return NULL;
	json_object_object_add(e, "code", dl_json_string(code));
	json_object_object_add(e, "message",
			       dl_json_string(message ? message : ""));
	body = json_object_to_json_string_ext(e, JSON_FLAGS);
	if (body)
		line = join_line(id && id[0] ? id : "null", "error", body, len);
	json_object_put(e);
	return line;
}

struct json_object *dl_est_prediction_json(const struct dl_prediction *p)
{
	struct json_object *o;

	if (!p || !(o = json_object_new_object()))
		return NULL;
	json_object_object_add(o, "p50", dl_est_json_num(p->p50));
	json_object_object_add(o, "p90", dl_est_json_num(p->p90));
	json_object_object_add(o, "p99", dl_est_json_num(p->p99));
	json_object_object_add(o, "max", dl_est_json_num(p->max));
	json_object_object_add(o, "mean", dl_est_json_num(p->mean));
	json_object_object_add(o, "n", json_object_new_int64(p->n));
	json_object_object_add(o, "source",
			       dl_json_string(dl_pred_source_name(p->source)));
	json_object_object_add(o, "calibrated",
			       json_object_new_boolean(p->calibrated));
	if (p->has_profile) {
		struct json_object *pr = json_object_new_object();

		json_object_object_add(pr, "cpu",
				       dl_est_json_num(p->profile.cpu));
		json_object_object_add(pr, "mem",
				       dl_est_json_num(p->profile.mem));
		json_object_object_add(pr, "io",
				       dl_est_json_num(p->profile.io));
		json_object_object_add(pr, "n",
				       json_object_new_int64(p->profile.n));
		json_object_object_add(o, "profile", pr);
	}
	return o;
}

/* A number member of a reply (null allowed when nullable: NAN); EPROTO. */
static int num_field(struct json_object *o, const char *key, bool nullable,
		     double *out)
{
	struct dl_json_rd r = DL_JSON_RD(NULL, 0);

	*out = dl_json_num(&r, o, NULL, key,
			   REQ | (nullable ? DL_JSON_NULL : 0), -INFINITY,
			   INFINITY, NAN);
	return r.failed ? EPROTO : 0;
}

int dl_est_prediction_parse(struct json_object *o, struct dl_prediction *p,
			    char *err, size_t errlen)
{
	struct json_object *src = NULL, *pr = NULL;
	double n = 0;
	const char *s;

	if (!p)
		return EINVAL;
	memset(p, 0, sizeof(*p));
	if (!o || !json_object_is_type(o, json_type_object) ||
	    num_field(o, "p50", false, &p->p50) ||
	    num_field(o, "p90", false, &p->p90) ||
	    num_field(o, "p99", false, &p->p99) ||
	    num_field(o, "max", false, &p->max) ||
	    num_field(o, "n", false, &n) ||
	    !json_object_object_get_ex(o, "source", &src) ||
	    !json_object_is_type(src, json_type_string))
		goto bad;
	/* a task length the plan could use: a garbage estimator must not
	 * make a job "need 1e46 tasks" */
	if (!(p->p50 > 0) || p->p90 < p->p50 || p->p99 < p->p90 ||
	    p->p99 > DL_EST_MAX_LENGTH || n < 0 || n > UINT32_MAX)
		goto bad;
	p->n = (uint32_t) n;
	if (num_field(o, "mean", true, &p->mean))
		p->mean = p->p50;
	if (!(p->mean > 0) || p->mean > DL_EST_MAX_LENGTH)
		goto bad;
	s = json_object_get_string(src);
	for (p->source = 0; p->source < DL_PRED_SOURCES; p->source++)
		if (!strcmp(s, dl_pred_source_name(p->source)))
			break;
	if (p->source == DL_PRED_SOURCES)
		goto bad;
	if (json_object_object_get_ex(o, "profile", &pr) && pr) {
		double pn = 0;

		if (!json_object_is_type(pr, json_type_object) ||
		    num_field(pr, "cpu", true, &p->profile.cpu) ||
		    num_field(pr, "mem", true, &p->profile.mem) ||
		    num_field(pr, "io", true, &p->profile.io) ||
		    num_field(pr, "n", false, &pn) || pn < 0 || pn > UINT32_MAX)
			goto bad;
		p->profile.n = (uint32_t) pn;
		p->has_profile = true;
	}
	return 0;
bad:
	if (err && errlen)
		snprintf(err, errlen, "malformed prediction in the reply");
	return EPROTO;
}

struct json_object *dl_est_forecast_json(const struct dl_forecast *fc,
					 double from, double to, double step,
					 const char *cls,
					 struct dl_est_error *err)
{
	struct json_object *o, *classes;
	size_t first = 0, last, npts;
	int idx = -1;

	if (!fc || !(step > 0) || to < from) {
		set_err(err, DL_EST_E_BAD_REQUEST, "bad forecast range");
		return NULL;
	}
	if (cls) {
		idx = dl_forecast_class_index(fc, cls);
		if (idx < 0) {
			set_err(err, DL_EST_E_BAD_REQUEST,
				"unknown class \"%s\"", cls);
			return NULL;
		}
		first = (size_t) idx;
	}
	last = cls ? first + 1 : dl_forecast_nclasses(fc);
	npts = (size_t) ceil((to - from) / step);
	if ((double) npts * (double) (last - first) >
	    DL_EST_MAX_POINTS * 10.0) {
		set_err(err, DL_EST_E_TOO_LARGE,
			"at most %d values per forecast; ask for one class or "
			"fewer steps",
			DL_EST_MAX_POINTS * 10);
		return NULL;
	}
	o = json_object_new_object();
	classes = json_object_new_object();
	if (!o || !classes) {
		json_object_put(o);
		json_object_put(classes);
		set_err(err, DL_EST_E_INTERNAL, "out of memory");
		return NULL;
	}
	json_object_object_add(o, "from", dl_est_json_time(from));
	json_object_object_add(o, "to", dl_est_json_time(to));
	json_object_object_add(o, "step", dl_est_json_num(step));
	for (size_t c = first; c < last; c++) {
		struct json_object *a = json_object_new_array_ext((int) npts);

		for (size_t i = 0; a && i < npts; i++) {
			double a0 = from + (double) i * step;
			double b0 = a0 + step < to ? a0 + step : to;

			json_object_array_add(
				a, dl_est_json_num(
					   dl_forecast_mean(fc, c, a0, b0)));
		}
		json_object_object_add(
			classes, dl_forecast_class_name(fc, (uint32_t) c), a);
	}
	json_object_object_add(o, "classes", classes);
	return o;
}

/* ---- client side ---- */

int dl_est_parse_response(const char *line, size_t len,
			  struct dl_est_response *r, char *err, size_t errlen)
{
	struct json_object *root, *v = NULL, *e = NULL;
	const char *why = "not a JSON object";

	if (!r)
		return EINVAL;
	memset(r, 0, sizeof(*r));
	r->id = -1;
	if (!line || len > INT32_MAX || memchr(line, '\0', len))
		goto bad_noroot;
	{
		struct json_tokener *tok = json_tokener_new();

		if (!tok)
			return ENOMEM;
		root = json_tokener_parse_ex(tok, line, (int) len);
		if (root &&
		    json_tokener_get_error(tok) != json_tokener_success) {
			json_object_put(root);
			root = NULL;
		}
		json_tokener_free(tok);
	}
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		goto bad_noroot;
	}
	r->root = root;
	why = "missing or wrong \"v\"";
	{
		struct dl_json_rd rv = DL_JSON_RD(NULL, 0);

		if (dl_json_num(&rv, root, NULL, "v", REQ, DL_EST_VERSION,
				DL_EST_VERSION, 0) != DL_EST_VERSION ||
		    rv.failed)
			goto bad;
	}
	why = "missing \"id\"";
	if (!json_object_object_get_ex(root, "id", &v))
		goto bad;
	if (v && json_object_is_type(v, json_type_int))
		r->id = json_object_get_int64(v);
	if (json_object_object_get_ex(root, "error", &e) && e) {
		struct json_object *c = NULL, *m = NULL;

		why = "malformed error object";
		if (!json_object_is_type(e, json_type_object) ||
		    !json_object_object_get_ex(e, "code", &c) ||
		    !json_object_is_type(c, json_type_string) ||
		    json_object_get_string_len(c) == 0)
			goto bad;
		r->is_error = true;
		snprintf(r->code, sizeof(r->code), "%s",
			 json_object_get_string(c));
		if (json_object_object_get_ex(e, "message", &m) &&
		    json_object_is_type(m, json_type_string))
			snprintf(r->message, sizeof(r->message), "%s",
				 json_object_get_string(m));
		return 0;
	}
	why = "neither result nor error";
	if (!json_object_object_get_ex(root, "result", &r->result) ||
	    !r->result || !json_object_is_type(r->result, json_type_object))
		goto bad;
	return 0;
bad:
	dl_est_response_free(r);
bad_noroot:
	if (err && errlen)
		snprintf(err, errlen, "bad reply from the estimator: %s", why);
	return EPROTO;
}

void dl_est_response_free(struct dl_est_response *r)
{
	if (!r)
		return;
	json_object_put(r->root);
	r->root = NULL;
	r->result = NULL;
}

static char *build(int64_t id, enum dl_est_op op, struct json_object *extra,
		   size_t *len)
{
	struct json_object *o = json_object_new_object();
	const char *txt;
	char *line = NULL;
	size_t n;

	if (!o) {
		json_object_put(extra);
		return NULL;
	}
	json_object_object_add(o, "v", json_object_new_int(DL_EST_VERSION));
	json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "op", dl_json_string(op_names[op]));
	if (extra) {
		json_object_object_foreach(extra, k, val)
		{
			json_object_object_add(o, k, json_object_get(val));
		}
		json_object_put(extra);
	}
	txt = json_object_to_json_string_ext(o, JSON_FLAGS);
	if (txt) {
		n = strlen(txt);
		line = malloc(n + 2);
		if (line) {
			memcpy(line, txt, n);
			line[n] = '\n';
			line[n + 1] = '\0';
			if (len)
				*len = n + 1;
		}
	}
	json_object_put(o);
	return line;
}

static void put_opt(struct json_object *o, const char *k, double v)
{
	if (!isnan(v))
		json_object_object_add(o, k, dl_est_json_num(v));
}

char *dl_est_build_predict(int64_t id, const struct dl_pred_query *q, size_t n,
			   size_t max_completed, size_t *len)
{
	struct json_object *extra, *arr;

	if (!q || !n || n > DL_EST_MAX_JOBS)
		return NULL;
	extra = json_object_new_object();
	arr = json_object_new_array_ext((int) n);
	if (!extra || !arr) {
		json_object_put(extra);
		json_object_put(arr);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_new_object();
		struct json_object *c;
		size_t from = 0;

		json_object_object_add(
			j, "user", dl_json_string(q[i].user ? q[i].user : ""));
		json_object_object_add(
			j, "name", dl_json_string(q[i].name ? q[i].name : ""));
		json_object_object_add(
			j, "phase",
			dl_json_string(q[i].phase ? "reduce" : "map"));
		json_object_object_add(j, "tasks",
				       json_object_new_int64(q[i].tasks));
		if (max_completed && q[i].ncompleted > max_completed)
			from = q[i].ncompleted - max_completed;
		c = json_object_new_array_ext((int) (q[i].ncompleted - from));
		for (size_t k = from; c && k < q[i].ncompleted; k++)
			json_object_array_add(
				c, dl_est_json_num(q[i].completed[k]));
		json_object_object_add(j, "completed", c);
		put_opt(j, "input_bytes", q[i].input_bytes);
		json_object_array_add(arr, j);
	}
	json_object_object_add(extra, "jobs", arr);
	return build(id, DL_EST_PREDICT, extra, len);
}

char *dl_est_build_observe(int64_t id, const struct dl_task_rec *t, size_t n,
			   size_t *len)
{
	struct json_object *extra, *arr;

	if (!t || n > DL_EST_MAX_TASKS)
		return NULL;
	extra = json_object_new_object();
	arr = json_object_new_array_ext((int) (n ? n : 1));
	if (!extra || !arr) {
		json_object_put(extra);
		json_object_put(arr);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "job_id",
				       json_object_new_uint64(t[i].job_id));
		if (t[i].task >= 0)
			json_object_object_add(
				j, "task", json_object_new_int64(t[i].task));
		json_object_object_add(
			j, "user", dl_json_string(t[i].user ? t[i].user : ""));
		json_object_object_add(
			j, "name", dl_json_string(t[i].name ? t[i].name : ""));
		json_object_object_add(
			j, "phase",
			dl_json_string(t[i].phase ? "reduce" : "map"));
		json_object_object_add(j, "start",
				       dl_est_json_time(t[i].start));
		json_object_object_add(j, "end", dl_est_json_time(t[i].end));
		put_opt(j, "input_bytes", t[i].input_bytes);
		put_opt(j, "cpu", t[i].cpu);
		put_opt(j, "mem", t[i].mem);
		put_opt(j, "io", t[i].io);
		if (t[i].usage != DL_USAGE_NONE)
			json_object_object_add(
				j, "usage",
				dl_json_string(
					dl_usage_source_name(t[i].usage)));
		if (t[i].node)
			json_object_object_add(j, "node",
					       dl_json_string(t[i].node));
		json_object_array_add(arr, j);
	}
	json_object_object_add(extra, "tasks", arr);
	return build(id, DL_EST_OBSERVE, extra, len);
}

char *dl_est_build_simple(int64_t id, enum dl_est_op op, size_t *len)
{
	if (op != DL_EST_PING && op != DL_EST_STATS)
		return NULL;
	return build(id, op, NULL, len);
}

char *dl_est_build_forecast(int64_t id, double from, double to, double step,
			    const char *cls, size_t *len)
{
	struct json_object *extra = json_object_new_object();

	if (!extra)
		return NULL;
	json_object_object_add(extra, "from", dl_est_json_time(from));
	json_object_object_add(extra, "to", dl_est_json_time(to));
	json_object_object_add(extra, "step", dl_est_json_num(step));
	if (cls)
		json_object_object_add(extra, "class", dl_json_string(cls));
	return build(id, DL_EST_FORECAST, extra, len);
}
