/*
 * estimator_client.h - the core's client of deadline-estimatord
 * (doc/protocol.md).  No Slurm headers; every call is bounded by the
 * client's timeout (connect, send and receive together), never raises
 * SIGPIPE, and after a failure (refused, broken, timed out, garbage) the
 * client backs off: calls within the back-off return EAGAIN at once
 * without touching the network, so a plan cycle never waits on a dead
 * estimator more than once per back-off period (1 s doubling to 60 s).
 *
 * One connection, reused and re-opened as needed.  Not thread-safe: one
 * owner (the sched plugin's plan thread), never under a slurmctld lock.
 *
 * Return values: 0, EAGAIN (backing off, not tried, or busy),
 * ECONNREFUSED/ENOENT/ ECONNRESET/EPIPE (estimator down), ETIMEDOUT (slow),
 * EPROTO (bad reply), EACCES (refused by the estimator's access rules), EINVAL
 * (bad input or rejected request), ENOMEM.
 */
#ifndef DL_ESTIMATOR_CLIENT_H
#define DL_ESTIMATOR_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/estimate/history.h"
#include "common/estimate/predictor.h"

/* Completions sent per job (the newest); the daemon uses fewer anyway. */
#define DL_EST_CLIENT_MAX_COMPLETED 1000
/* Observe records per request. */
#define DL_EST_CLIENT_OBSERVE_CHUNK 1000

enum dl_est_state {
	DL_EST_STATE_NEW = 0, /* never tried */
	DL_EST_STATE_OK,
	DL_EST_STATE_DOWN, /* cannot connect, or the connection broke */
	DL_EST_STATE_SLOW, /* last request timed out */
	DL_EST_STATE_BAD,  /* garbage reply */
	DL_EST_STATE_BUSY, /* answered "busy": no connection slot for us */
};

struct dl_est_client;

/* socket_path: the daemon's Unix socket; timeout: seconds per call
 * (0.001..60).  NULL for a bad path/timeout or out of memory. */
struct dl_est_client *dl_est_client_new(const char *socket_path,
					double timeout);
void dl_est_client_free(struct dl_est_client *c);
int dl_est_client_set_timeout(struct dl_est_client *c, double timeout);

/* Round trip; 0 when the estimator answered. */
int dl_est_ping(struct dl_est_client *c);

/* Predict n phases in one round trip per DL_EST_MAX_JOBS.  status[i] is 0,
 * EINVAL (that query was rejected) or EPROTO (its prediction was malformed
 * or out of range) when the call returns 0; out[i] is valid where
 * status[i] == 0. */
int dl_est_predict(struct dl_est_client *c, const struct dl_pred_query *q,
		   size_t n, struct dl_prediction *out, int *status);

/* Record finished tasks, in chunks of DL_EST_CLIENT_OBSERVE_CHUNK.  On
 * success *stored counts new records (duplicates are not stored twice) and
 * *rejected the tasks the estimator refused one by one (they are not worth
 * resending; the others are stored).  On failure *sent says how many
 * leading tasks were acknowledged or rejected, so the caller can resend
 * the rest later.  Any out pointer may be NULL. */
int dl_est_observe(struct dl_est_client *c, const struct dl_task_rec *t,
		   size_t n, size_t *stored, size_t *sent, size_t *rejected);

/* External load of one class (or the first class when cls is NULL) as the
 * mean of each step in [from, to).  *values is malloc'd, *nvalues long. */
int dl_est_forecast(struct dl_est_client *c, double from, double to,
		    double step, const char *cls, double **values,
		    size_t *nvalues);

enum dl_est_state dl_est_client_state(const struct dl_est_client *c);
/* True when the last call succeeded. */
bool dl_est_client_up(const struct dl_est_client *c);
/* For logs and sdeadline: "ok", "down since 12:01:03: using job mu",
 * "slow (>200ms) since 12:01:03: using job mu", "bad reply since ...",
 * "not contacted yet"; "last priors kept" instead of "using job mu" when
 * the caller plans some jobs with the estimator's last answers for them.
 * Fits in 48 bytes. */
const char *dl_est_client_describe(const struct dl_est_client *c,
				   bool priors_kept, char *buf, size_t len);
/* The last error's message (for the log). */
const char *dl_est_client_last_error(const struct dl_est_client *c);

#endif
