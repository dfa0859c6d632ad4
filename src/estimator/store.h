/*
 * store.h - the estimator's persistent task history in SQLite (WAL).
 *
 * Every observe request is one transaction: when it is acknowledged it is
 * on disk (synchronous=NORMAL survives a killed process; Synchronous=full
 * also a power cut).  A crash at any moment loses at most the transaction
 * in flight and never corrupts the database (SQLite's own guarantee).
 * Retention: at most HistoryPerKey records per (user, name, phase), and
 * none older than HistoryMaxAge.
 */
#ifndef EST_STORE_H
#define EST_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/estimate/history.h"

struct store;

/* Open (creating the schema if needed) and lock the database: a second
 * daemon on the same file is refused.  0, or -1 with err set. */
int store_open(const char *path, bool sync_full, uint32_t per_key,
	       struct store **out, char *err, size_t errlen);
void store_close(struct store *s);

/* Feed every record, oldest first, to cb (which returns 0 to go on). */
int store_load(struct store *s,
	       int (*cb)(void *arg, const struct dl_task_rec *t), void *arg,
	       uint64_t *loaded, char *err, size_t errlen);

/* Insert n records in one transaction.  inserted[i] tells whether record i
 * was new (false: already stored, same key, job, task and start).  On
 * error nothing is stored. */
int store_insert(struct store *s, const struct dl_task_rec *t, size_t n,
		 bool *inserted, char *err, size_t errlen);

/* Delete up to limit records that ended before `before`; *deleted says how
 * many (0: nothing left to prune). */
int store_prune_age(struct store *s, double before, int limit, int *deleted,
		    char *err, size_t errlen);

/* Records stored (kept up to date by insert and prune). */
uint64_t store_count(const struct store *s);

#endif
