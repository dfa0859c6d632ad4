/*
 * handlers.c - the estimator's operations.
 */
#include "dl_autoconf.h"
#include "estimator/handlers.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/log.h"
#include "estimator/store.h"

static char *error_line(struct est_ctx *ctx, const char *id, const char *code,
			const char *msg, size_t *outlen)
{
	ctx->errors++;
	return dl_est_format_error(id, code, msg, outlen);
}

/* {"error":{"code":..,"message":..}}: one rejected record of a batch */
static struct json_object *error_object(const char *code, const char *msg)
{
	struct json_object *o = json_object_new_object(),
			   *e = json_object_new_object();

	json_object_object_add(e, "code", json_object_new_string(code));
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_object_add(o, "error", e);
	return o;
}

static char *op_ping(const struct dl_est_request *req, size_t *outlen)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "pong", json_object_new_boolean(1));
	json_object_object_add(r, "version", json_object_new_string(VERSION));
	return dl_est_format_result(req->id, r, outlen);
}

static char *op_predict(struct est_ctx *ctx, const struct est_peer *peer,
			const struct dl_est_request *req, size_t *outlen)
{
	struct json_object *arr = NULL, *one = NULL, *r;
	double now = ctx->now();

	if (req->batch && !(arr = json_object_new_array_ext((int) req->njobs)))
		return NULL;
	for (size_t i = 0; i < req->njobs; i++) {
		struct dl_prediction p;
		struct json_object *o;
		int rc;

		if (req->rejected && req->rejected[i].code[0]) {
			json_object_array_add(
				arr, error_object(req->rejected[i].code,
						  req->rejected[i].message));
			ctx->errors++;
			continue;
		}
		if (!est_may_predict_user(ctx->cfg, peer->uid, peer->known,
					  req->jobs[i].user)) {
			/* another user's job names and profiles are theirs */
			if (!req->batch)
				return error_line(ctx, req->id,
						  DL_EST_E_FORBIDDEN,
						  "only root and SlurmUser may "
						  "ask about other users",
						  outlen);
			json_object_array_add(
				arr, error_object(DL_EST_E_FORBIDDEN,
						  "only root and SlurmUser may "
						  "ask about other users"));
			ctx->errors++;
			continue;
		}
		rc = dl_hist_predict(ctx->hist, &req->jobs[i], now, &p);
		if (rc) {
			char msg[128];

			snprintf(msg, sizeof(msg), "prediction failed: %s",
				 strerror(rc));
			if (!req->batch) {
				json_object_put(arr);
				return error_line(
					ctx, req->id,
					rc == ENOMEM ? DL_EST_E_INTERNAL
						     : DL_EST_E_BAD_REQUEST,
					msg, outlen);
			}
			/* per job, as in a failed response */
			o = error_object(rc == ENOMEM ? DL_EST_E_INTERNAL
						      : DL_EST_E_BAD_REQUEST,
					 msg);
		} else {
			ctx->sources[p.source]++;
			o = dl_est_prediction_json(&p);
		}
		if (req->batch)
			json_object_array_add(arr, o);
		else
			one = o;
	}
	if (!req->batch)
		return dl_est_format_result(req->id, one, outlen);
	r = json_object_new_object();
	json_object_object_add(r, "predictions", arr);
	return dl_est_format_result(req->id, r, outlen);
}

static char *op_observe(struct est_ctx *ctx, const struct est_peer *peer,
			const struct dl_est_request *req, size_t *outlen)
{
	struct json_object *r, *rejected;
	struct dl_task_rec *tasks;
	bool *inserted;
	size_t stored = 0, ntasks;
	double now = ctx->now();
	char err[256];

	if (!est_may_observe(ctx->cfg, peer->uid, peer->known)) {
		dl_log(DL_LOG_VERBOSE, "observe refused for uid %ld",
		       peer->known ? (long) peer->uid : -1L);
		return error_line(ctx, req->id, DL_EST_E_FORBIDDEN,
				  "only root and SlurmUser may observe",
				  outlen);
	}
	/* the tasks that validated, in order; the rejected ones are listed
	 * in the reply and cost nothing else */
	ntasks = req->ntasks - req->nrejected;
	tasks = calloc(ntasks ? ntasks : 1, sizeof(*tasks));
	inserted = calloc(ntasks ? ntasks : 1, sizeof(*inserted));
	rejected = json_object_new_array();
	if (!tasks || !inserted || !rejected) {
		free(tasks);
		free(inserted);
		json_object_put(rejected);
		return NULL;
	}
	for (size_t i = 0, k = 0; i < req->ntasks; i++) {
		if (req->rejected && req->rejected[i].code[0]) {
			struct json_object *o =
				error_object(req->rejected[i].code,
					     req->rejected[i].message);

			json_object_object_add(
				o, "index", json_object_new_int64((int64_t) i));
			json_object_array_add(rejected, o);
			continue;
		}
		if (k < ntasks)
			tasks[k++] = req->tasks[i];
	}
	if (req->nrejected) {
		ctx->errors += req->nrejected;
		dl_log(DL_LOG_VERBOSE,
		       "observe: %zu of %zu tasks rejected (first: %s)",
		       req->nrejected, req->ntasks,
		       json_object_get_string(json_object_object_get(
			       json_object_array_get_idx(rejected, 0),
			       "error")));
	}
	if (ctx->store) {
		if (store_insert(ctx->store, tasks, ntasks, inserted, err,
				 sizeof(err))) {
			free(inserted);
			free(tasks);
			json_object_put(rejected);
			dl_log(DL_LOG_ERROR, "observe not stored: %s", err);
			return error_line(ctx, req->id, DL_EST_E_INTERNAL,
					  "history store failed; nothing was "
					  "stored",
					  outlen);
		}
	} else {
		for (size_t i = 0; i < ntasks; i++)
			inserted[i] = true;
	}
	for (size_t i = 0; i < ntasks; i++) {
		if (!inserted[i])
			continue;
		stored++;
		if (dl_hist_observe(ctx->hist, &tasks[i], now))
			dl_log(DL_LOG_ERROR,
			       "task of job %llu not added to "
			       "the in-memory history",
			       (unsigned long long) tasks[i].job_id);
	}
	free(inserted);
	free(tasks);
	ctx->stored += stored;
	ctx->duplicates += ntasks - stored;
	r = json_object_new_object();
	json_object_object_add(r, "stored",
			       json_object_new_int64((int64_t) stored));
	json_object_object_add(
		r, "duplicates",
		json_object_new_int64((int64_t) (ntasks - stored)));
	json_object_object_add(r, "rejected", rejected);
	return dl_est_format_result(req->id, r, outlen);
}

static char *op_forecast(struct est_ctx *ctx, const struct dl_est_request *req,
			 size_t *outlen)
{
	struct dl_est_error e;
	struct json_object *r;

	if (!ctx->forecast)
		return error_line(ctx, req->id, DL_EST_E_UNAVAILABLE,
				  "no ForecastFile configured", outlen);
	r = dl_est_forecast_json(ctx->forecast, req->from, req->to, req->step,
				 req->cls, &e);
	if (!r)
		return error_line(ctx, req->id, e.code, e.message, outlen);
	return dl_est_format_result(req->id, r, outlen);
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static char *op_stats(struct est_ctx *ctx, const struct dl_est_request *req,
		      size_t *outlen)
{
	struct json_object *r = json_object_new_object(), *o;
	struct dl_hist_stats hs;

	dl_hist_get_stats(ctx->hist, &hs);
	json_object_object_add(r, "version", json_object_new_string(VERSION));
	json_object_object_add(
		r, "uptime",
		dl_est_json_num(ctx->now() - (double) ctx->started));
	json_object_object_add(r, "records",
			       json_object_new_uint64(store_count(ctx->store)));
	json_object_object_add(r, "window_records",
			       json_object_new_uint64(hs.records));
	json_object_object_add(r, "keys", json_object_new_int64(hs.keys));
	json_object_object_add(r, "evicted_keys",
			       json_object_new_uint64(hs.evicted_keys));
	json_object_object_add(r, "users", json_object_new_int64(hs.users));
	json_object_object_add(r, "jobs_tracked",
			       json_object_new_int64(hs.jobs));
	json_object_object_add(r, "stored",
			       json_object_new_uint64(ctx->stored));
	json_object_object_add(r, "duplicates",
			       json_object_new_uint64(ctx->duplicates));
	json_object_object_add(r, "connections",
			       json_object_new_int64(ctx->connections));
	json_object_object_add(r, "errors",
			       json_object_new_uint64(ctx->errors));
	o = json_object_new_object();
	for (int i = 0; i < DL_EST_OPS; i++)
		json_object_object_add(
			o, dl_est_op_name(i),
			json_object_new_uint64(ctx->requests[i]));
	json_object_object_add(r, "requests", o);
	o = json_object_new_object();
	for (int i = 0; i < DL_PRED_SOURCES; i++)
		json_object_object_add(o, dl_pred_source_name(i),
				       json_object_new_uint64(ctx->sources[i]));
	json_object_object_add(r, "sources", o);
	o = json_object_new_object();
	for (int i = 0; i < DL_PRED_SOURCES; i++)
		if (i != DL_PRED_DEFAULT)
			json_object_object_add(
				o, dl_pred_source_name(i),
				json_object_new_uint64(hs.calib[i]));
	json_object_object_add(r, "calibration_errors", o);
	json_object_object_add(
		r, "forecast",
		ctx->forecast ? json_object_new_string(ctx->cfg->forecast_file)
			      : NULL);
	json_object_object_add(r, "rss_kb", json_object_new_int64(rss_kb()));
	return dl_est_format_result(req->id, r, outlen);
}

char *est_handle_line(struct est_ctx *ctx, const struct est_peer *peer,
		      const char *line, size_t len, size_t *outlen)
{
	struct dl_est_request req;
	struct dl_est_error err;
	char *out;

	if (dl_est_parse_request(line, len, &req, &err)) {
		dl_log(DL_LOG_VERBOSE, "bad request from uid %ld: %s: %s",
		       peer->known ? (long) peer->uid : -1L, err.code,
		       err.message);
		out = error_line(ctx, req.id, err.code, err.message, outlen);
		dl_est_request_free(&req);
		return out;
	}
	ctx->requests[req.op]++;
	switch (req.op) {
	case DL_EST_PING:
		out = op_ping(&req, outlen);
		break;
	case DL_EST_STATS:
		out = op_stats(ctx, &req, outlen);
		break;
	case DL_EST_PREDICT:
	case DL_EST_FORECAST:
		if (!est_may_predict(ctx->cfg, peer->uid, peer->known)) {
			out = error_line(ctx, req.id, DL_EST_E_FORBIDDEN,
					 "this user may not query the "
					 "estimator (PredictUsers)",
					 outlen);
			break;
		}
		out = req.op == DL_EST_PREDICT
			      ? op_predict(ctx, peer, &req, outlen)
			      : op_forecast(ctx, &req, outlen);
		break;
	case DL_EST_OBSERVE:
		out = op_observe(ctx, peer, &req, outlen);
		break;
	default:
		out = error_line(ctx, req.id, DL_EST_E_UNKNOWN_OP, "unknown op",
				 outlen);
		break;
	}
	dl_est_request_free(&req);
	return out;
}

int est_load_record(void *arg, const struct dl_task_rec *t)
{
	struct est_ctx *ctx = arg;

	bool calibrate = ctx->load_seen++ >= ctx->load_calibrate_from;

	/* a record that no longer validates (edited database) is skipped */
	if (dl_hist_observe_ex(ctx->hist, t, ctx->now(), calibrate) == ENOMEM)
		return -1;
	return 0;
}
