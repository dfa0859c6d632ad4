/*
 * store.c - SQLite history: schema, batched inserts, retention.
 */
#include "estimator/store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCHEMA_VERSION "1"

struct store {
	sqlite3 *db;
	int lock_fd;
	uint32_t per_key;
	uint64_t count;
	sqlite3_stmt *key_ins, *key_sel, *task_ins, *key_bump, *key_count,
		*key_trim, *key_setn, *age_del;
};

static const char *const schema =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)"
	" WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS keys("
	" id INTEGER PRIMARY KEY, user TEXT NOT NULL, name TEXT NOT NULL,"
	" phase INTEGER NOT NULL CHECK (phase IN (0, 1)),"
	" n INTEGER NOT NULL DEFAULT 0, UNIQUE (user, name, phase));"
	"CREATE TABLE IF NOT EXISTS tasks("
	" id INTEGER PRIMARY KEY, key_id INTEGER NOT NULL REFERENCES keys(id),"
	" job_id INTEGER NOT NULL, task INTEGER NOT NULL,"
	" start REAL NOT NULL, end REAL NOT NULL CHECK (end >= start),"
	" input_bytes REAL, cpu REAL, mem REAL, io REAL, node TEXT);"
	"CREATE UNIQUE INDEX IF NOT EXISTS tasks_once"
	" ON tasks(key_id, job_id, task, start);"
	"CREATE INDEX IF NOT EXISTS tasks_key ON tasks(key_id, id);"
	"CREATE INDEX IF NOT EXISTS tasks_end ON tasks(end);"
	"INSERT OR IGNORE INTO meta VALUES ('schema', '" SCHEMA_VERSION "');";

static int db_err(struct store *s, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", what,
		 s && s->db ? sqlite3_errmsg(s->db) : "no database");
	return -1;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->key_ins);
	sqlite3_finalize(s->key_sel);
	sqlite3_finalize(s->task_ins);
	sqlite3_finalize(s->key_bump);
	sqlite3_finalize(s->key_count);
	sqlite3_finalize(s->key_trim);
	sqlite3_finalize(s->key_setn);
	sqlite3_finalize(s->age_del);
	if (s->db)
		sqlite3_close(s->db); /* checkpoints the WAL */
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s);
}

static int prep(struct store *s, sqlite3_stmt **st, const char *sql, char *err,
		size_t errlen)
{
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
			       NULL) != SQLITE_OK)
		return db_err(s, err, errlen, "prepare");
	return 0;
}

static int lock_db(struct store *s, const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path) + 6;
	char *lp = malloc(n);

	if (!lp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(lp, n, "%s.lock", path);
	s->lock_fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (s->lock_fd < 0) {
		snprintf(err, errlen, "%s: %s", lp, strerror(errno));
		free(lp);
		return -1;
	}
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(err, errlen,
			 "%s is in use by another deadline-estimatord (%s)",
			 path, strerror(errno));
		free(lp);
		return -1;
	}
	free(lp);
	return 0;
}

int store_open(const char *path, bool sync_full, uint32_t per_key,
	       struct store **out, char *err, size_t errlen)
{
	struct store *s;
	sqlite3_stmt *st = NULL;
	char *msg = NULL;
	const char *mode;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->lock_fd = -1;
	s->per_key = per_key ? per_key : 1;
	if (lock_db(s, path, err, errlen))
		goto fail;
	{
		/* created 0600 whatever the umask (--foreground keeps the
		 * caller's), and an older 0644 file is tightened: it holds
		 * every user's job names */
		int fd = open(path,
			      O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
				      O_NONBLOCK,
			      0600);
		struct stat sb;

		if (fd < 0 || fstat(fd, &sb) ||
		    ((sb.st_mode & 077) && fchmod(fd, 0600))) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		close(fd);
		if (!S_ISREG(sb.st_mode)) {
			snprintf(err, errlen, "%s: not a regular file", path);
			goto fail;
		}
	}
	if (sqlite3_open_v2(path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		db_err(s, err, errlen, path);
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 2000);
	/* WAL: readers never block, a crash never corrupts the file */
	if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &st,
			       NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		db_err(s, err, errlen, "journal_mode=WAL");
		goto fail;
	}
	mode = (const char *) sqlite3_column_text(st, 0);
	if (!mode || strcmp(mode, "wal")) {
		snprintf(err, errlen, "%s: cannot use WAL mode (got %s)", path,
			 mode ? mode : "?");
		sqlite3_finalize(st);
		goto fail;
	}
	sqlite3_finalize(st);
	if (sqlite3_exec(s->db,
			 sync_full ? "PRAGMA synchronous=FULL;"
				   : "PRAGMA synchronous=NORMAL;",
			 NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(s->db,
			 "PRAGMA cache_size=-8192; PRAGMA temp_store=MEMORY;",
			 NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, msg ? msg : "schema");
		sqlite3_free(msg);
		goto fail;
	}
	/* a database of a newer, unknown schema is not touched */
	if (sqlite3_prepare_v2(s->db,
			       "SELECT value FROM meta WHERE key='schema'", -1,
			       &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW ||
	    strcmp((const char *) sqlite3_column_text(st, 0), SCHEMA_VERSION)) {
		snprintf(err, errlen, "%s: unknown schema version", path);
		sqlite3_finalize(st);
		goto fail;
	}
	sqlite3_finalize(st);
	if (prep(s, &s->key_ins,
		 "INSERT OR IGNORE INTO keys(user, name, phase) VALUES (?,?,?)",
		 err, errlen) ||
	    prep(s, &s->key_sel,
		 "SELECT id, n FROM keys WHERE user=? AND name=? AND phase=?",
		 err, errlen) ||
	    prep(s, &s->task_ins,
		 "INSERT OR IGNORE INTO tasks(key_id, job_id, task, start, end,"
		 " input_bytes, cpu, mem, io, node)"
		 " VALUES (?,?,?,?,?,?,?,?,?,?)",
		 err, errlen) ||
	    prep(s, &s->key_bump, "UPDATE keys SET n = n + ? WHERE id = ?", err,
		 errlen) ||
	    prep(s, &s->key_count, "SELECT count(*) FROM tasks WHERE key_id=?",
		 err, errlen) ||
	    prep(s, &s->key_trim,
		 "DELETE FROM tasks WHERE key_id = ?1 AND id <= (SELECT id FROM"
		 " tasks WHERE key_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
		 err, errlen) ||
	    prep(s, &s->key_setn, "UPDATE keys SET n = ? WHERE id = ?", err,
		 errlen) ||
	    prep(s, &s->age_del,
		 "DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE"
		 " end < ? LIMIT ?)",
		 err, errlen))
		goto fail;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM tasks", -1, &st,
			       NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		db_err(s, err, errlen, "count");
		goto fail;
	}
	s->count = (uint64_t) sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

uint64_t store_count(const struct store *s)
{
	return s ? s->count : 0;
}

static double col_opt(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL
		       ? NAN
		       : sqlite3_column_double(st, i);
}

int store_load(struct store *s,
	       int (*cb)(void *arg, const struct dl_task_rec *t), void *arg,
	       uint64_t *loaded, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	uint64_t n = 0;
	int rc;

	if (sqlite3_prepare_v2(
		    s->db,
		    "SELECT k.user, k.name, k.phase, t.job_id, t.task,"
		    " t.start, t.end, t.input_bytes, t.cpu, t.mem,"
		    " t.io, t.node FROM tasks t JOIN keys k"
		    " ON k.id = t.key_id ORDER BY t.id",
		    -1, &st, NULL) != SQLITE_OK)
		return db_err(s, err, errlen, "load");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct dl_task_rec t = {
			.user = (const char *) sqlite3_column_text(st, 0),
			.name = (const char *) sqlite3_column_text(st, 1),
			.phase = sqlite3_column_int(st, 2),
			.job_id = (uint64_t) sqlite3_column_int64(st, 3),
			.task = sqlite3_column_int64(st, 4),
			.start = sqlite3_column_double(st, 5),
			.end = sqlite3_column_double(st, 6),
			.input_bytes = col_opt(st, 7),
			.cpu = col_opt(st, 8),
			.mem = col_opt(st, 9),
			.io = col_opt(st, 10),
			.node = (const char *) sqlite3_column_text(st, 11),
		};

		if (!t.user || !t.name)
			continue;
		n++;
		if (cb(arg, &t))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_err(s, err, errlen, "load");
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (loaded)
		*loaded = n;
	return 0;
}

static void bind_opt(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

/* The key's id and stored count (creating it). */
static int key_id(struct store *s, const struct dl_task_rec *t, int64_t *id,
		  int64_t *n)
{
	sqlite3_reset(s->key_ins);
	sqlite3_bind_text(s->key_ins, 1, t->user, -1, SQLITE_STATIC);
	sqlite3_bind_text(s->key_ins, 2, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(s->key_ins, 3, t->phase);
	if (sqlite3_step(s->key_ins) != SQLITE_DONE)
		return -1;
	sqlite3_reset(s->key_sel);
	sqlite3_bind_text(s->key_sel, 1, t->user, -1, SQLITE_STATIC);
	sqlite3_bind_text(s->key_sel, 2, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(s->key_sel, 3, t->phase);
	if (sqlite3_step(s->key_sel) != SQLITE_ROW)
		return -1;
	*id = sqlite3_column_int64(s->key_sel, 0);
	*n = sqlite3_column_int64(s->key_sel, 1);
	sqlite3_reset(s->key_sel);
	return 0;
}

/* Keep the newest per_key records of a key.  The counter n only triggers
 * this (a sixteenth of slack amortises the delete); the real count comes
 * from the index. */
static int trim_key(struct store *s, int64_t id, int64_t *removed)
{
	int64_t real;

	sqlite3_reset(s->key_count);
	sqlite3_bind_int64(s->key_count, 1, id);
	if (sqlite3_step(s->key_count) != SQLITE_ROW)
		return -1;
	real = sqlite3_column_int64(s->key_count, 0);
	sqlite3_reset(s->key_count);
	*removed = 0;
	if (real > s->per_key) {
		sqlite3_reset(s->key_trim);
		sqlite3_bind_int64(s->key_trim, 1, id);
		sqlite3_bind_int64(s->key_trim, 2, s->per_key);
		if (sqlite3_step(s->key_trim) != SQLITE_DONE)
			return -1;
		*removed = sqlite3_changes(s->db);
		sqlite3_reset(s->key_trim);
		real -= *removed;
	}
	sqlite3_reset(s->key_setn);
	sqlite3_bind_int64(s->key_setn, 1, real);
	sqlite3_bind_int64(s->key_setn, 2, id);
	if (sqlite3_step(s->key_setn) != SQLITE_DONE)
		return -1;
	sqlite3_reset(s->key_setn);
	return 0;
}

int store_insert(struct store *s, const struct dl_task_rec *t, size_t n,
		 bool *inserted, char *err, size_t errlen)
{
	int64_t added = 0, removed = 0;
	char *msg = NULL;

	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "begin: %s", msg ? msg : "?");
		sqlite3_free(msg);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_stmt *st = s->task_ins;
		int64_t id, cnt, rm;
		int ch;

		inserted[i] = false;
		if (key_id(s, &t[i], &id, &cnt))
			goto fail;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64) t[i].job_id);
		sqlite3_bind_int64(st, 3, t[i].task);
		sqlite3_bind_double(st, 4, t[i].start);
		sqlite3_bind_double(st, 5, t[i].end);
		bind_opt(st, 6, t[i].input_bytes);
		bind_opt(st, 7, t[i].cpu);
		bind_opt(st, 8, t[i].mem);
		bind_opt(st, 9, t[i].io);
		if (t[i].node)
			sqlite3_bind_text(st, 10, t[i].node, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 10);
		if (sqlite3_step(st) != SQLITE_DONE)
			goto fail;
		ch = sqlite3_changes(s->db);
		sqlite3_reset(st);
		if (!ch)
			continue;
		inserted[i] = true;
		added++;
		sqlite3_reset(s->key_bump);
		sqlite3_bind_int64(s->key_bump, 1, 1);
		sqlite3_bind_int64(s->key_bump, 2, id);
		if (sqlite3_step(s->key_bump) != SQLITE_DONE)
			goto fail;
		sqlite3_reset(s->key_bump);
		if (cnt + 1 > (int64_t) s->per_key + s->per_key / 16) {
			if (trim_key(s, id, &rm))
				goto fail;
			removed += rm;
		}
	}
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "commit: %s", msg ? msg : "?");
		sqlite3_free(msg);
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		for (size_t i = 0; i < n; i++)
			inserted[i] = false;
		return -1;
	}
	s->count += (uint64_t) added;
	s->count -=
		(uint64_t) removed < s->count ? (uint64_t) removed : s->count;
	return 0;
fail:
	db_err(s, err, errlen, "insert");
	sqlite3_reset(s->task_ins);
	sqlite3_reset(s->key_ins);
	sqlite3_reset(s->key_sel);
	sqlite3_reset(s->key_bump);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		inserted[i] = false;
	return -1;
}

int store_prune_age(struct store *s, double before, int limit, int *deleted,
		    char *err, size_t errlen)
{
	int ch;

	*deleted = 0;
	sqlite3_reset(s->age_del);
	sqlite3_bind_double(s->age_del, 1, before);
	sqlite3_bind_int(s->age_del, 2, limit);
	if (sqlite3_step(s->age_del) != SQLITE_DONE) {
		sqlite3_reset(s->age_del);
		return db_err(s, err, errlen, "prune");
	}
	ch = sqlite3_changes(s->db);
	sqlite3_reset(s->age_del);
	*deleted = ch;
	s->count -= (uint64_t) ch < s->count ? (uint64_t) ch : s->count;
	return 0;
}
