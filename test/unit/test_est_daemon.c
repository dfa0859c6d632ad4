/*
 * test_est_daemon.c - deadline-estimatord's pieces without sockets: the
 * SQLite store (schema, dedup, per-key retention, age pruning, reload
 * order, lock), the config file, and the request handlers (access rules,
 * observe -> predict through store and history, stats).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "estimator/est_config.h"
#include "estimator/handlers.h"
#include "estimator/store.h"
#include "fixtures.h"

static char dir[64], db[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/dl-est-daemon.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/h.db", dir);
}

static void teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct dl_task_rec task(uint64_t job, int64_t idx, const char *user,
			       const char *name, double start, double len)
{
	return (struct dl_task_rec){.job_id = job,
				    .task = idx,
				    .user = user,
				    .name = name,
				    .phase = 0,
				    .start = start,
				    .end = start + len,
				    .input_bytes = NAN,
				    .cpu = NAN,
				    .mem = NAN,
				    .io = NAN};
}

struct collected {
	int n;
	double len[64];
	char node[8];
};

static int collect(void *arg, const struct dl_task_rec *t)
{
	struct collected *c = arg;

	if (c->n < 64)
		c->len[c->n] = t->end - t->start;
	if (t->node)
		snprintf(c->node, sizeof(c->node), "%s", t->node);
	c->n++;
	return 0;
}

START_TEST(test_store_insert_dedup_reload)
{
	struct store *s;
	char err[256];
	struct dl_task_rec t[3] = {task(1, 0, "u", "n", 100, 10),
				   task(1, 1, "u", "n", 100, 20),
				   task(2, -1, "u", "", 100, 30)};
	bool ins[3];
	struct collected c = {0};
	uint64_t loaded = 0;

	t[1].node = "n7";
	t[1].cpu = 2;
	/* issue 12 D14: every user's job names, 0600 whatever the umask */
	{
		int fd = open(db, O_CREAT | O_WRONLY, 0644);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(fchmod(fd, 0644), 0);
		close(fd);
	}
	ck_assert_msg(!store_open(db, false, 100, &s, err, sizeof(err)), "%s",
		      err);
	{
		struct stat sb;

		ck_assert_int_eq(stat(db, &sb), 0);
		ck_assert_int_eq(sb.st_mode & 0777, 0600);
	}
	ck_assert_int_eq(store_insert(s, t, 3, ins, err, sizeof(err)), 0);
	ck_assert(ins[0] && ins[1] && ins[2]);
	ck_assert_int_eq(store_count(s), 3);
	/* the same tasks again are duplicates; a requeued task (new start)
	 * is new */
	t[2].start = 200;
	t[2].end = 230;
	ck_assert_int_eq(store_insert(s, t, 3, ins, err, sizeof(err)), 0);
	ck_assert(!ins[0] && !ins[1] && ins[2]);
	ck_assert_int_eq(store_count(s), 4);
	store_close(s);

	/* reopened: same records, oldest first */
	ck_assert_int_eq(store_open(db, false, 100, &s, err, sizeof(err)), 0);
	ck_assert_int_eq(store_count(s), 4);
	ck_assert_int_eq(store_load(s, collect, &c, &loaded, err, sizeof(err)),
			 0);
	ck_assert_int_eq(loaded, 4);
	ck_assert_double_eq_tol(c.len[0], 10, 1e-9);
	ck_assert_double_eq_tol(c.len[1], 20, 1e-9);
	ck_assert_double_eq_tol(c.len[3], 30, 1e-9);
	ck_assert_str_eq(c.node, "n7");
	store_close(s);
}
END_TEST

START_TEST(test_store_lock)
{
	struct store *a, *b;
	char err[256];

	ck_assert_int_eq(store_open(db, false, 10, &a, err, sizeof(err)), 0);
	ck_assert_int_eq(store_open(db, false, 10, &b, err, sizeof(err)), -1);
	ck_assert(strstr(err, "in use by another"));
	store_close(a);
	ck_assert_int_eq(store_open(db, false, 10, &b, err, sizeof(err)), 0);
	store_close(b);
	/* a path that cannot be a database */
	ck_assert_int_eq(store_open("/nonexistent/dir/h.db", false, 10, &b, err,
				    sizeof(err)),
			 -1);
	ck_assert(strstr(err, "/nonexistent/dir/h.db"));
}
END_TEST

START_TEST(test_store_retention)
{
	struct store *s;
	char err[256];
	bool ins[1];
	struct collected c = {0};
	int deleted = -1;

	ck_assert_int_eq(store_open(db, false, 16, &s, err, sizeof(err)), 0);
	for (int i = 0; i < 100; i++) {
		struct dl_task_rec t =
			task((uint64_t) i, -1, "u", "n", 1000 + i, i);

		ck_assert_int_eq(store_insert(s, &t, 1, ins, err, sizeof(err)),
				 0);
	}
	/* at most per_key + per_key/16 per key, the newest kept */
	ck_assert_int_le(store_count(s), 17);
	ck_assert_int_ge(store_count(s), 16);
	ck_assert_int_eq(store_load(s, collect, &c, NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(c.n, (int) store_count(s));
	ck_assert_double_eq_tol(c.len[c.n - 1], 99, 1e-9);
	ck_assert_double_eq_tol(c.len[0], 100 - c.n, 1e-9);
	/* another key is not affected */
	{
		struct dl_task_rec t = task(500, -1, "v", "n", 10, 1);

		ck_assert_int_eq(store_insert(s, &t, 1, ins, err, sizeof(err)),
				 0);
	}
	/* age: everything that ended before 1090 */
	ck_assert_int_eq(
		store_prune_age(s, 1090 + 90, 1000, &deleted, err, sizeof(err)),
		0);
	ck_assert_int_gt(deleted, 0);
	c.n = 0;
	ck_assert_int_eq(store_load(s, collect, &c, NULL, err, sizeof(err)), 0);
	for (int i = 0; i < c.n && i < 64; i++)
		ck_assert(c.len[i] >= 90);
	ck_assert_int_eq(c.n, (int) store_count(s));
	/* batches of a limit */
	ck_assert_int_eq(
		store_prune_age(s, 1e12, 3, &deleted, err, sizeof(err)), 0);
	ck_assert_int_eq(deleted, 3);
	store_close(s);
}
END_TEST

START_TEST(test_config)
{
	struct est_config cfg;
	char err[256];

	est_config_defaults(&cfg);
	ck_assert_int_eq(est_config_parse(&cfg,
					  "# comment\n"
					  "socket = /tmp/x.sock\n"
					  "SocketMode=0600\n"
					  "HistoryPerKey=42\n"
					  "HistoryMaxAge=2d\n"
					  "DefaultMap=5m\n"
					  "IdleTimeout=90s\n"
					  "Synchronous=full\n"
					  "LogLevel=debug\n"
					  "PredictUsers=root,nobody\n"
					  "SlurmUser=0\n",
					  "t", err, sizeof(err)),
			 0);
	ck_assert_str_eq(cfg.socket, "/tmp/x.sock");
	ck_assert_int_eq(cfg.socket_mode, 0600);
	ck_assert_int_eq(cfg.hist.window, 42);
	ck_assert_double_eq_tol(cfg.hist.max_age, 2 * 86400, 1e-9);
	ck_assert_double_eq_tol(cfg.hist.pred.default_len[0], 300, 1e-9);
	ck_assert_double_eq_tol(cfg.idle_timeout, 90, 1e-9);
	ck_assert(cfg.sync_full);
	ck_assert_int_eq(est_config_finish(&cfg, err, sizeof(err)), 0);
	ck_assert(!cfg.predict_all);
	ck_assert_int_eq(cfg.npredict_uids, 2);
	ck_assert(est_may_predict(&cfg, 65534, true));   /* nobody */
	ck_assert(!est_may_predict(&cfg, 1, true));      /* daemon */
	ck_assert(!est_may_predict(&cfg, 65534, false)); /* TCP */
	ck_assert(est_may_observe(&cfg, 0, true));
	ck_assert(!est_may_observe(&cfg, 65534, true));
	ck_assert(!est_may_observe(&cfg, 0, false));
	est_config_free(&cfg);

	est_config_defaults(&cfg);
	ck_assert_int_eq(est_config_parse(&cfg, "MaxLineBytes=12\n", "f", err,
					  sizeof(err)),
			 -1);
	ck_assert(strstr(err, "f:1: MaxLineBytes must be an integer in [1024"));
	ck_assert_int_eq(
		est_config_parse(&cfg, "\n\nNope=1\n", "f", err, sizeof(err)),
		-1);
	ck_assert(strstr(err, "f:3: unknown option 'Nope'"));
	ck_assert_int_eq(
		est_config_parse(&cfg, "Socket\n", "f", err, sizeof(err)), -1);
	ck_assert(strstr(err, "Name=Value"));
	ck_assert_int_eq(est_config_parse(&cfg, "IdleTimeout=5x\n", "f", err,
					  sizeof(err)),
			 -1);
	ck_assert_int_eq(est_config_parse(&cfg, "SocketMode=999\n", "f", err,
					  sizeof(err)),
			 -1);
	ck_assert_int_eq(est_config_parse(&cfg, "PriorSpread=nan\n", "f", err,
					  sizeof(err)),
			 -1);
	ck_assert_int_eq(est_config_parse(&cfg, "SlurmUser=no-such-user-x\n",
					  "f", err, sizeof(err)),
			 0);
	ck_assert_int_eq(est_config_finish(&cfg, err, sizeof(err)), -1);
	ck_assert(strstr(err, "no-such-user-x"));
	est_config_free(&cfg);

	est_config_defaults(&cfg);
	ck_assert_int_eq(est_config_parse(&cfg,
					  "CalibrationWindow=10\n"
					  "CalibrationMin=20\n",
					  "f", err, sizeof(err)),
			 0);
	cfg.slurm_user[0] = '0';
	cfg.slurm_user[1] = '\0';
	ck_assert_int_eq(est_config_finish(&cfg, err, sizeof(err)), -1);
	ck_assert(strstr(err, "CalibrationMin"));
	est_config_free(&cfg);
}
END_TEST

static double fixed_now(void)
{
	return 5000;
}

static struct json_object *call(struct est_ctx *ctx, uid_t uid,
				const char *line)
{
	struct est_peer peer = {.uid = uid, .known = true};
	size_t len;
	char *out = est_handle_line(ctx, &peer, line, strlen(line), &len);
	struct json_object *o;

	ck_assert_ptr_nonnull(out);
	ck_assert(len > 0 && out[len - 1] == '\n');
	o = json_tokener_parse(out);
	ck_assert_ptr_nonnull(o);
	free(out);
	return o;
}

static const char *str_at(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = NULL, *y = NULL;

	if (!json_object_object_get_ex(o, a, &x) ||
	    !json_object_object_get_ex(x, b, &y))
		return "";
	return json_object_get_string(y);
}

START_TEST(test_handlers)
{
	struct est_config cfg;
	struct est_ctx ctx;
	struct store *s;
	char err[256];
	struct json_object *o;
	/* the history is uid 2's: a user may ask about their own jobs */
	struct passwd *pw2 = getpwuid(2);
	char u2[64], obs[1024], pred[256], pred_other[256];

	ck_assert_ptr_nonnull(pw2);
	snprintf(u2, sizeof(u2), "%s", pw2->pw_name);
	snprintf(obs, sizeof(obs),
		 "{\"v\":1,\"id\":1,\"op\":\"observe\",\"tasks\":["
		 "{\"job_id\":1,\"user\":\"%s\",\"name\":\"n\",\"phase\":"
		 "\"map\",\"start\":4000,\"end\":4010,\"cpu\":2},"
		 "{\"job_id\":2,\"user\":\"%s\",\"name\":\"n\",\"phase\":"
		 "\"map\",\"start\":4000,\"end\":4020},"
		 "{\"job_id\":3,\"user\":\"%s\",\"name\":\"n\",\"phase\":"
		 "\"map\",\"start\":4000,\"end\":4030}]}",
		 u2, u2, u2);
	snprintf(pred, sizeof(pred),
		 "{\"v\":1,\"id\":2,\"op\":\"predict\",\"job\":{\"user\":"
		 "\"%s\",\"name\":\"n\",\"phase\":\"map\"}}",
		 u2);
	snprintf(pred_other, sizeof(pred_other),
		 "{\"v\":1,\"id\":2,\"op\":\"predict\",\"jobs\":[{\"user\":"
		 "\"%s\",\"name\":\"n\",\"phase\":\"map\"},{\"user\":"
		 "\"root\",\"name\":\"n\",\"phase\":\"map\"}]}",
		 u2);

	est_config_defaults(&cfg);
	ck_assert_int_eq(est_config_parse(&cfg, "SlurmUser=1\nPredictUsers=2\n",
					  "t", err, sizeof(err)),
			 0);
	ck_assert_int_eq(est_config_finish(&cfg, err, sizeof(err)), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = &cfg;
	ctx.now = fixed_now;
	ctx.hist = dl_hist_new(&cfg.hist, err, sizeof(err));
	ck_assert_int_eq(store_open(db, false, 100, &s, err, sizeof(err)), 0);
	ctx.store = s;

	/* uid 3 may neither observe nor predict; nothing is stored */
	o = call(&ctx, 3, obs);
	ck_assert_str_eq(str_at(o, "error", "code"), "forbidden");
	json_object_put(o);
	o = call(&ctx, 3, pred);
	ck_assert_str_eq(str_at(o, "error", "code"), "forbidden");
	json_object_put(o);
	ck_assert_int_eq(store_count(s), 0);
	/* PredictUsers=2 may predict but not observe */
	o = call(&ctx, 2, obs);
	ck_assert_str_eq(str_at(o, "error", "code"), "forbidden");
	json_object_put(o);
	o = call(&ctx, 2, pred);
	ck_assert_str_eq(str_at(o, "result", "source"), "default");
	json_object_put(o);
	/* SlurmUser (1) observes; then history answers */
	o = call(&ctx, 1, obs);
	ck_assert_str_eq(str_at(o, "result", "stored"), "3");
	json_object_put(o);
	ck_assert_int_eq(store_count(s), 3);
	o = call(&ctx, 2, pred);
	ck_assert_str_eq(str_at(o, "result", "source"), "history:name");
	ck_assert_str_eq(str_at(o, "result", "p50"), "20");
	json_object_put(o);
	/* issue 12 E2: not about another user (root asks about anyone) */
	o = call(&ctx, 2, pred_other);
	{
		struct json_object *r, *a, *e;

		ck_assert(json_object_object_get_ex(o, "result", &r));
		ck_assert(json_object_object_get_ex(r, "predictions", &a));
		ck_assert(!json_object_object_get_ex(
			json_object_array_get_idx(a, 0), "error", &e));
		ck_assert(json_object_object_get_ex(
			json_object_array_get_idx(a, 1), "error", &e));
		ck_assert_str_eq(json_object_get_string(
					 json_object_object_get(e, "code")),
				 "forbidden");
	}
	json_object_put(o);
	o = call(&ctx, 0, pred_other);
	ck_assert_ptr_null(strstr(json_object_get_string(o), "forbidden"));
	json_object_put(o);
	/* root resends: duplicates, not stored twice, history unchanged */
	o = call(&ctx, 0, obs);
	ck_assert_str_eq(str_at(o, "result", "duplicates"), "3");
	json_object_put(o);
	ck_assert_int_eq(store_count(s), 3);
	/* stats */
	o = call(&ctx, 3, "{\"v\":1,\"id\":9,\"op\":\"stats\"}");
	ck_assert_str_eq(str_at(o, "result", "records"), "3");
	ck_assert_str_eq(str_at(o, "result", "stored"), "3");
	ck_assert_str_eq(str_at(o, "result", "duplicates"), "3");
	json_object_put(o);
	ck_assert_int_eq(ctx.requests[DL_EST_PREDICT], 5);
	ck_assert_int_eq(ctx.sources[DL_PRED_NAME], 3);
	/* forecast without a file */
	o = call(&ctx, 0,
		 "{\"v\":1,\"id\":9,\"op\":\"forecast\",\"from\":0,"
		 "\"to\":60,\"step\":60}");
	ck_assert_str_eq(str_at(o, "error", "code"), "unavailable");
	json_object_put(o);

	/* a restart: the store replays into a fresh history */
	dl_hist_free(ctx.hist);
	ctx.hist = dl_hist_new(&cfg.hist, err, sizeof(err));
	ck_assert_int_eq(
		store_load(s, est_load_record, &ctx, NULL, err, sizeof(err)),
		0);
	o = call(&ctx, 2, pred);
	ck_assert_str_eq(str_at(o, "result", "source"), "history:name");
	ck_assert_str_eq(str_at(o, "result", "p50"), "20");
	json_object_put(o);

	store_close(s);
	dl_hist_free(ctx.hist);
	est_config_free(&cfg);
}
END_TEST

/* Issue 12 D6: 64 idle connections of one user held every slot. */
START_TEST(test_connection_limits)
{
	struct est_config cfg;
	char err[256];

	est_config_defaults(&cfg);
	ck_assert_int_eq(est_config_parse(&cfg,
					  "SlurmUser=1\nMaxConnections=20\n"
					  "MaxConnectionsPerUser=4\n"
					  "ReservedConnections=5\n",
					  "t", err, sizeof(err)),
			 0);
	ck_assert_int_eq(est_config_finish(&cfg, err, sizeof(err)), 0);
	/* a user: 4 of their own at most */
	ck_assert(est_may_connect(&cfg, 1000, true, 0, 0));
	ck_assert(est_may_connect(&cfg, 1000, true, 10, 3));
	ck_assert(!est_may_connect(&cfg, 1000, true, 10, 4));
	/* users together up to 20 - 5 */
	ck_assert(est_may_connect(&cfg, 1001, true, 14, 0));
	ck_assert(!est_may_connect(&cfg, 1001, true, 15, 0));
	/* root and SlurmUser: the reserved ones too, no per-user cap */
	ck_assert(est_may_connect(&cfg, 0, true, 19, 12));
	ck_assert(est_may_connect(&cfg, 1, true, 15, 9));
	ck_assert(!est_may_connect(&cfg, 0, true, 20, 0));
	/* unknown peers (TCP) are one user, never privileged */
	ck_assert(!est_may_connect(&cfg, 0, false, 15, 0));
	ck_assert(!est_may_connect(&cfg, 0, false, 1, 4));
	est_config_free(&cfg);
	/* the reserve must leave room */
	est_config_defaults(&cfg);
	ck_assert_int_eq(est_config_parse(&cfg,
					  "SlurmUser=1\nMaxConnections=4\n"
					  "ReservedConnections=4\n",
					  "t", err, sizeof(err)),
			 0);
	ck_assert_int_ne(est_config_finish(&cfg, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "ReservedConnections"));
	est_config_free(&cfg);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("est_daemon");
	TCase *tc = tcase_create("daemon");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_store_insert_dedup_reload);
	tcase_add_test(tc, test_store_lock);
	tcase_add_test(tc, test_store_retention);
	tcase_add_test(tc, test_config);
	tcase_add_test(tc, test_handlers);
	tcase_add_test(tc, test_connection_limits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
