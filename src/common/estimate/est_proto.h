/*
 * est_proto.h - the estimator protocol (doc/protocol.md): newline-delimited
 * JSON, one request per line, one response per line, "v":1 and an "id" in
 * every message.  Request parsing and response formatting for the daemon,
 * response parsing and request building for the client: the protocol's
 * schema and limits live here once.
 */
#ifndef DL_EST_PROTO_H
#define DL_EST_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/model/forecast.h"
#include "common/estimate/history.h"
#include "common/estimate/predictor.h"

struct json_object;

#define DL_EST_VERSION       1
#define DL_EST_MAX_ID        64       /* bytes of a string id */
#define DL_EST_ID_TEXT       400      /* an id as JSON text, escaped */
#define DL_EST_MAX_JOBS      1000     /* jobs in one predict */
#define DL_EST_MAX_TASKS     2000     /* tasks in one observe: fit 1 MiB */
#define DL_EST_MAX_COMPLETED 1000000u /* durations in one predict */
#define DL_EST_MAX_POINTS    100000   /* points per class in a forecast */
#define DL_EST_MAX_INT       9007199254740992.0 /* 2^53: exact in a double */
/* the longest task length (s) a client accepts in a prediction: ~31 years */
#define DL_EST_MAX_LENGTH 1e9

enum dl_est_op {
	DL_EST_PING = 0,
	DL_EST_PREDICT,
	DL_EST_OBSERVE,
	DL_EST_FORECAST,
	DL_EST_STATS,
	DL_EST_OPS
};

const char *dl_est_op_name(enum dl_est_op op);

/* Error codes of the protocol. */
#define DL_EST_E_BAD_JSON    "bad_json"
#define DL_EST_E_BAD_REQUEST "bad_request"
#define DL_EST_E_BAD_VERSION "bad_version"
#define DL_EST_E_UNKNOWN_OP  "unknown_op"
#define DL_EST_E_TOO_LARGE   "too_large"
#define DL_EST_E_FORBIDDEN   "forbidden"
#define DL_EST_E_UNAVAILABLE "unavailable"
#define DL_EST_E_BUSY        "busy"
#define DL_EST_E_INTERNAL    "internal"

struct dl_est_error {
	char code[24];
	char message[256];
};

struct dl_est_request {
	struct json_object *root; /* owns every string pointed to below */
	enum dl_est_op op;
	char id[DL_EST_ID_TEXT]; /* the id as JSON text; "null" if unusable */
	/* predict */
	bool batch; /* "jobs":[...] rather than "job":{...} */
	struct dl_pred_query *jobs;
	size_t njobs;
	double *completed; /* storage of every job's completed durations */
	/* observe */
	struct dl_task_rec *tasks;
	size_t ntasks;
	/* per record of a predict batch or an observe: code[0] != 0 where
	 * that job or task was rejected (the others are answered) */
	struct dl_est_error *rejected;
	size_t nrejected;
	/* forecast */
	double from, to, step;
	const char *cls; /* NULL = every class */
};

/* Parse one request line (without its newline).  0, or -1 with err filled
 * (req->id holds the id when it could be read, so the error can echo it).
 * A job of a predict batch or a task of an observe that does not validate
 * does not fail the request: req->rejected[i] says why (one bad record
 * never costs another).
 * Always call dl_est_request_free() afterwards. */
int dl_est_parse_request(const char *line, size_t len,
			 struct dl_est_request *req, struct dl_est_error *err);
void dl_est_request_free(struct dl_est_request *req);

/* Response lines, newline-terminated, malloc'd (NULL when out of memory).
 * dl_est_format_result takes ownership of result. */
char *dl_est_format_result(const char *id, struct json_object *result,
			   size_t *len);
char *dl_est_format_error(const char *id, const char *code, const char *message,
			  size_t *len);

/* JSON number: finite values, integers exactly, others with 7 significant
 * digits (durations, ratios); else null. */
struct json_object *dl_est_json_num(double v);
/* An epoch time: exactly to the millisecond; else null. */
struct json_object *dl_est_json_time(double v);

/* A prediction as a result object (or one element of a batch). */
struct json_object *dl_est_prediction_json(const struct dl_prediction *p);
/* The reverse, for the client.  0 or EPROTO with a message. */
int dl_est_prediction_parse(struct json_object *o, struct dl_prediction *p,
			    char *err, size_t errlen);

/* A forecast result for [from, to) in steps: {"from","to","step",
 * "classes":{name:[mean of each step,...]}}; cls NULL = all classes.
 * NULL with err filled when cls is unknown. */
struct json_object *dl_est_forecast_json(const struct dl_forecast *fc,
					 double from, double to, double step,
					 const char *cls,
					 struct dl_est_error *err);

/* ---- client side ---- */

struct dl_est_response {
	struct json_object *root;
	int64_t id; /* -1 when the id was not an integer */
	bool is_error;
	struct json_object *result; /* borrowed from root */
	char code[24];
	char message[256];
};

/* 0, or EPROTO with a message when the line is not a valid response. */
int dl_est_parse_response(const char *line, size_t len,
			  struct dl_est_response *r, char *err, size_t errlen);
void dl_est_response_free(struct dl_est_response *r);

/* Request builders: a line with trailing newline, malloc'd. */
char *dl_est_build_predict(int64_t id, const struct dl_pred_query *q, size_t n,
			   size_t max_completed, size_t *len);
char *dl_est_build_observe(int64_t id, const struct dl_task_rec *t, size_t n,
			   size_t *len);
char *dl_est_build_simple(int64_t id, enum dl_est_op op, size_t *len);
char *dl_est_build_forecast(int64_t id, double from, double to, double step,
			    const char *cls, size_t *len);

#endif
