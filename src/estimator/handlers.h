/*
 * handlers.h - one request line in, one response line out: parsing,
 * access rules, and the ops (ping, predict, observe, forecast, stats).
 * No sockets here, so the fuzz target and the unit tests drive it
 * directly.
 */
#ifndef EST_HANDLERS_H
#define EST_HANDLERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "common/estimate/est_proto.h"
#include "common/model/forecast.h"
#include "common/estimate/history.h"
#include "estimator/est_config.h"

struct store;

struct est_peer {
	uid_t uid;
	pid_t pid;
	bool known; /* SO_PEERCRED worked (Unix socket) */
};

struct est_ctx {
	const struct est_config *cfg;
	struct dl_hist *hist;
	struct store *store; /* NULL: memory only (fuzzing) */
	struct dl_forecast *forecast;
	time_t started;
	uint32_t connections;
	uint64_t requests[DL_EST_OPS];
	uint64_t errors;
	uint64_t sources[DL_PRED_SOURCES];
	uint64_t stored, duplicates;
	double (*now)(void); /* wall clock; replaceable for tests */
	/* replay at start: records before this index are not used for
	 * calibration (only the newest can matter) */
	uint64_t load_seen, load_calibrate_from;
};

/* Handle one request line (without its newline); returns a malloc'd
 * response line with its newline, or NULL when out of memory. */
char *est_handle_line(struct est_ctx *ctx, const struct est_peer *peer,
		      const char *line, size_t len, size_t *outlen);

/* Feed one stored record into the history (store_load callback). */
int est_load_record(void *ctx, const struct dl_task_rec *t);

#endif
