/*
 * history.h - the estimator's in-memory task history and its predictions
 * (doc/design.md §7).  Keeps, per (user, job name, phase) and per (user,
 * phase), a window of the newest finished tasks; per phase the newest tasks
 * with input sizes for the rate model; per recent job its own completions; and
 * per predictor level the standardised errors of its would-be predictions
 * (online calibration of the quantiles).
 *
 * The daemon persists records in SQLite and replays them into a dl_hist at
 * start; the accuracy benchmark feeds trace tasks straight in.  Both call
 * dl_hist_observe() and dl_hist_predict(), so what is measured is what
 * runs.  Not thread-safe: one owner.
 */
#ifndef DL_HISTORY_H
#define DL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/estimate/predictor.h"
#include "common/estimate/usage.h"

#define DL_HIST_MAX_STR 255 /* user and job name length limit (bytes) */

struct dl_hist_cfg {
	struct dl_pred_cfg pred;
	uint32_t window;      /* newest tasks kept per key (HistoryPerKey) */
	uint32_t rate_window; /* newest sized tasks per phase, rate model */
	uint32_t max_jobs;    /* jobs whose own completions are tracked */
	uint32_t max_keys;    /* (user, name, phase) keys (HistoryMaxKeys) */
	double max_age;       /* seconds; older tasks are ignored; 0 = keep */
};

void dl_hist_cfg_defaults(struct dl_hist_cfg *cfg);
int dl_hist_cfg_check(const struct dl_hist_cfg *cfg, char *err, size_t errlen);

/* One finished task.  Optional numbers are NAN when absent. */
struct dl_task_rec {
	uint64_t job_id;
	const char *user; /* non-empty, <= DL_HIST_MAX_STR bytes */
	const char *name; /* may be empty, <= DL_HIST_MAX_STR bytes */
	int phase;        /* 0 map, 1 reduce */
	double start, end;
	double input_bytes;
	double cpu, mem, io;        /* usage: CPUs, MB, MB/s */
	enum dl_usage_source usage; /* where cpu/mem/io came from (usage.h) */
	/* kept by the store, not used by the predictors */
	int64_t task;     /* array index, -1 = none */
	const char *node; /* NULL = unknown */
};

/* A prediction request for one phase of a job. */
struct dl_pred_query {
	const char *user;
	const char *name;
	int phase;
	uint32_t tasks;          /* tasks in the phase (informational) */
	const double *completed; /* own completed durations, oldest first */
	size_t ncompleted;
	double input_bytes; /* per task; NAN when unknown */
};

struct dl_hist_stats {
	uint64_t observed;     /* records accepted since creation */
	uint64_t records;      /* records held in the name-level windows */
	uint32_t keys;         /* (user, name, phase) keys */
	uint64_t evicted_keys; /* keys dropped for HistoryMaxKeys */
	uint32_t users;        /* (user, phase) keys */
	uint32_t jobs;         /* jobs tracked for calibration */
	uint64_t calib[DL_PRED_SOURCES]; /* errors recorded per level */
};

struct dl_hist;

/* NULL when cfg is invalid (err says why) or out of memory. */
struct dl_hist *dl_hist_new(const struct dl_hist_cfg *cfg, char *err,
			    size_t errlen);
void dl_hist_free(struct dl_hist *h);

/* Validate a record: 0 or EINVAL with a message (names the field). */
int dl_task_rec_check(const struct dl_task_rec *t, char *err, size_t errlen);

/* Add a finished task (after recording the errors the levels would have
 * made on it).  now is the current time for the age limit.  EINVAL for a
 * bad record, ENOMEM. */
int dl_hist_observe(struct dl_hist *h, const struct dl_task_rec *t, double now);
/* The same; calibrate = false skips recording the levels' errors (a
 * restart replays old records, of which only the newest can still be in
 * the calibration windows). */
int dl_hist_observe_ex(struct dl_hist *h, const struct dl_task_rec *t,
		       double now, bool calibrate);

/* Validate a query: 0 or EINVAL with a message. */
int dl_pred_query_check(const struct dl_pred_query *q, char *err,
			size_t errlen);

/* Predict one phase (see predictor.h for the levels).  EINVAL for a bad
 * query, ENOMEM. */
int dl_hist_predict(struct dl_hist *h, const struct dl_pred_query *q,
		    double now, struct dl_prediction *out);

void dl_hist_get_stats(const struct dl_hist *h, struct dl_hist_stats *st);

#endif
