/*
 * est_config.c - deadline-estimatord.conf: one table of options with
 * bounds; every bad value is an error naming the line and the range.
 */
#include "estimator/est_config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/io/atomic_file.h"
#include "common/io/log.h"
#include "common/config/config.h"
#include "common/config/kv_file.h"

enum opt_type { T_STR, T_UINT, T_DOUBLE, T_DURATION, T_MODE, T_BOOL, T_LOG };

struct opt {
	const char *name;
	enum opt_type type;
	size_t off;
	double min, max;
};

#define O(f) offsetof(struct est_config, f)
#define H(f)                                                                   \
	(offsetof(struct est_config, hist) + offsetof(struct dl_hist_cfg, f))
#define P(f)                                                                   \
	(offsetof(struct est_config, hist) +                                   \
	 offsetof(struct dl_hist_cfg, pred) + offsetof(struct dl_pred_cfg, f))

static const struct opt opts[] = {
	{"Socket", T_STR, O(socket), 0, 0},
	{"SocketMode", T_MODE, O(socket_mode), 0, 0777},
	{"SocketGroup", T_STR, O(socket_group), 0, 0},
	{"TcpPort", T_UINT, O(tcp_port), 0, 65535},
	{"Database", T_STR, O(database), 0, 0},
	{"SlurmUser", T_STR, O(slurm_user), 0, 0},
	{"PredictUsers", T_STR, O(predict_users), 0, 0},
	{"MaxLineBytes", T_UINT, O(max_line), 1024, 64 << 20},
	{"MaxConnections", T_UINT, O(max_connections), 1, 10000},
	{"MaxConnectionsPerUser", T_UINT, O(max_per_user), 1, 10000},
	{"ReservedConnections", T_UINT, O(reserved), 0, 9999},
	{"IdleTimeout", T_DURATION, O(idle_timeout), 1, 86400 * 7},
	{"Synchronous", T_BOOL, O(sync_full), 0, 0},
	{"ForecastFile", T_STR, O(forecast_file), 0, 0},
	{"PidFile", T_STR, O(pid_file), 0, 0},
	{"LogLevel", T_LOG, O(log_level), 0, 0},
	{"HistoryPerKey", T_UINT, H(window), 1, 1000000},
	{"HistoryMaxAge", T_DURATION, H(max_age), 0, 1e10},
	{"RateWindow", T_UINT, H(rate_window), 3, 1000000},
	{"MaxJobs", T_UINT, H(max_jobs), 1, 10000000},
	{"HistoryMaxKeys", T_UINT, H(max_keys), 1, 100000000},
	{"MinSamples", T_UINT, P(min_samples), 1, 100000},
	{"JobWindow", T_UINT, P(job_window), 1, 1000000},
	{"PriorSpread", T_DOUBLE, P(prior_sd), 1e-6, 10},
	{"PriorWeight", T_DOUBLE, P(prior_weight), 1e-6, 1000},
	{"DefaultMap", T_DURATION, P(default_len[0]), 1e-3, 1e9},
	{"DefaultReduce", T_DURATION, P(default_len[1]), 1e-3, 1e9},
	{"DefaultSpread", T_DOUBLE, P(default_spread), 1, 1000},
	{"RateMinSamples", T_UINT, P(rate_min_samples), 3, 1000000},
	{"RateMinR2", T_DOUBLE, P(rate_min_r2), 0, 1},
	{"CalibrationWindow", T_UINT, P(calib_window), 1, 1000000},
	{"CalibrationMin", T_UINT, P(calib_min), 1, 1000000},
	{NULL, 0, 0, 0, 0},
};

static char *dup_or_die(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		fprintf(stderr, "deadline-estimatord: out of memory\n");
		exit(1);
	}
	return d;
}

void est_config_defaults(struct est_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->socket = dup_or_die("/run/slurm-deadline/estimator.sock");
	cfg->socket_mode = 0666;
	cfg->socket_group = dup_or_die("");
	cfg->database = dup_or_die("/var/lib/slurm-deadline/estimator.db");
	cfg->slurm_user = dup_or_die("slurm");
	cfg->predict_users = dup_or_die("*");
	cfg->predict_all = true;
	cfg->max_line = 1 << 20;
	cfg->max_connections = 64;
	cfg->max_per_user = 8;
	cfg->reserved = 8;
	cfg->idle_timeout = 300;
	cfg->forecast_file = dup_or_die("");
	cfg->pid_file = dup_or_die("");
	cfg->log_level = DL_LOG_INFO;
	dl_hist_cfg_defaults(&cfg->hist);
}

void est_config_free(struct est_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->socket);
	free(cfg->socket_group);
	free(cfg->database);
	free(cfg->slurm_user);
	free(cfg->predict_users);
	free(cfg->forecast_file);
	free(cfg->pid_file);
	memset(cfg, 0, sizeof(*cfg));
}

static int set_opt(struct est_config *cfg, const struct opt *o, const char *val,
		   char *why, size_t whylen)
{
	char *base = (char *) cfg, *end;
	double v = NAN;

	switch (o->type) {
	case T_STR: {
		char **dst = (char **) (base + o->off);

		free(*dst);
		*dst = dup_or_die(val);
		return 0;
	}
	case T_BOOL: /* Synchronous=normal|full */
		if (!strcasecmp(val, "full")) {
			*(bool *) (base + o->off) = true;
			return 0;
		}
		if (!strcasecmp(val, "normal")) {
			*(bool *) (base + o->off) = false;
			return 0;
		}
		snprintf(why, whylen, "must be normal or full");
		return -1;
	case T_LOG:
		if (!strcasecmp(val, "error"))
			*(int *) (base + o->off) = DL_LOG_ERROR;
		else if (!strcasecmp(val, "info"))
			*(int *) (base + o->off) = DL_LOG_INFO;
		else if (!strcasecmp(val, "verbose"))
			*(int *) (base + o->off) = DL_LOG_VERBOSE;
		else if (!strcasecmp(val, "debug"))
			*(int *) (base + o->off) = DL_LOG_DEBUG;
		else {
			snprintf(why, whylen,
				 "must be error, info, verbose or debug");
			return -1;
		}
		return 0;
	case T_MODE:
		errno = 0;
		v = (double) strtoul(val, &end, 8);
		if (errno || end == val || *end)
			v = NAN;
		break;
	case T_DURATION:
		v = dl_parse_duration(val);
		if (v < 0)
			v = NAN;
		break;
	case T_UINT:
	case T_DOUBLE:
		errno = 0;
		v = strtod(val, &end);
		if (errno || end == val || *end || !isfinite(v))
			v = NAN;
		if (o->type == T_UINT && v != floor(v))
			v = NAN;
		break;
	}
	if (isnan(v) || v < o->min || v > o->max) {
		snprintf(why, whylen, "must be %s in [%g, %g]",
			 o->type == T_DURATION ? "a duration (s, m, h, d)"
			 : o->type == T_MODE   ? "an octal mode"
			 : o->type == T_UINT   ? "an integer"
					       : "a number",
			 o->min, o->max);
		return -1;
	}
	switch (o->type) {
	case T_UINT:
		*(uint32_t *) (base + o->off) = (uint32_t) v;
		break;
	case T_MODE:
		*(unsigned *) (base + o->off) = (unsigned) v;
		break;
	default:
		*(double *) (base + o->off) = v;
		break;
	}
	return 0;
}

/* One setting of the file (dl_kv_parse does the syntax). */
static int set_named(void *ctx, const char *name, const char *val, char *msg,
		     size_t msglen)
{
	const struct opt *o;
	char why[128];

	for (o = opts; o->name; o++)
		if (!strcasecmp(o->name, name))
			break;
	if (!o->name) {
		snprintf(msg, msglen, "unknown option '%s'", name);
		return EINVAL;
	}
	if (set_opt(ctx, o, val, why, sizeof(why))) {
		snprintf(msg, msglen, "%s %s", o->name, why);
		return EINVAL;
	}
	return 0;
}

int est_config_parse(struct est_config *cfg, const char *text,
		     const char *origin, char *err, size_t errlen)
{
	return dl_kv_parse(text, text ? strlen(text) : 0, origin, set_named,
			   cfg, err, errlen)
		       ? -1
		       : 0;
}

int est_config_load(struct est_config *cfg, const char *path, bool required,
		    char *err, size_t errlen)
{
	char *data = NULL;
	size_t len;
	int rc = dl_read_file(path, 1 << 20, &data, &len);

	if (rc == ENOENT && !required)
		return 0;
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, dl_file_strerror(rc));
		return -1;
	}
	if (memchr(data, '\0', len)) {
		snprintf(err, errlen, "%s: contains a NUL byte", path);
		free(data);
		return -1;
	}
	rc = est_config_parse(cfg, data, path, err, errlen);
	free(data);
	return rc;
}

static int resolve_uid(const char *s, uid_t *uid)
{
	struct passwd *pw;
	char *end;
	unsigned long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (!errno && !*end && v < (unsigned long) (uid_t) -1) {
		*uid = (uid_t) v;
		return 0;
	}
	pw = getpwnam(s);
	if (!pw)
		return -1;
	*uid = pw->pw_uid;
	return 0;
}

int est_config_finish(struct est_config *cfg, char *err, size_t errlen)
{
	char *copy, *tok, *save = NULL;

	if (!cfg->socket[0]) {
		snprintf(err, errlen, "Socket must not be empty");
		return -1;
	}
	if (!cfg->database[0]) {
		snprintf(err, errlen, "Database must not be empty");
		return -1;
	}
	if (resolve_uid(cfg->slurm_user, &cfg->slurm_uid)) {
		snprintf(err, errlen, "SlurmUser '%s' is not a known user",
			 cfg->slurm_user);
		return -1;
	}
	cfg->npredict_uids = 0;
	cfg->predict_all = false;
	copy = dup_or_die(cfg->predict_users);
	for (tok = strtok_r(copy, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		uid_t u;

		if (!strcmp(tok, "*")) {
			cfg->predict_all = true;
			continue;
		}
		if (resolve_uid(tok, &u)) {
			snprintf(err, errlen,
				 "PredictUsers: '%s' is not a known user", tok);
			free(copy);
			return -1;
		}
		if (cfg->npredict_uids == EST_MAX_PREDICT_USERS) {
			snprintf(err, errlen, "PredictUsers: at most %d users",
				 EST_MAX_PREDICT_USERS);
			free(copy);
			return -1;
		}
		cfg->predict_uids[cfg->npredict_uids++] = u;
	}
	free(copy);
	if (cfg->reserved >= cfg->max_connections) {
		snprintf(
			err, errlen,
			"ReservedConnections (%u) must be below MaxConnections "
			"(%u)",
			cfg->reserved, cfg->max_connections);
		return -1;
	}
	if (cfg->hist.pred.calib_min > cfg->hist.pred.calib_window) {
		snprintf(err, errlen,
			 "CalibrationMin must not exceed CalibrationWindow");
		return -1;
	}
	if (dl_hist_cfg_check(&cfg->hist, err, errlen))
		return -1;
	return 0;
}

bool est_may_observe(const struct est_config *cfg, uid_t uid, bool known)
{
	return known && (uid == 0 || uid == cfg->slurm_uid);
}

bool est_may_predict(const struct est_config *cfg, uid_t uid, bool known)
{
	if (cfg->predict_all)
		return true;
	if (!known)
		return false;
	if (uid == 0 || uid == cfg->slurm_uid)
		return true;
	for (size_t i = 0; i < cfg->npredict_uids; i++)
		if (cfg->predict_uids[i] == uid)
			return true;
	return false;
}

static bool privileged(const struct est_config *cfg, uid_t uid, bool known)
{
	return known && (uid == 0 || uid == cfg->slurm_uid);
}

bool est_may_predict_user(const struct est_config *cfg, uid_t uid, bool known,
			  const char *user)
{
	char buf[1024];
	struct passwd pw, *res = NULL;

	if (privileged(cfg, uid, known))
		return true;
	if (!known)
		return cfg->predict_all;
	if (!user || getpwuid_r(uid, &pw, buf, sizeof(buf), &res) || !res)
		return false;
	return !strcmp(res->pw_name, user);
}

bool est_may_connect(const struct est_config *cfg, uid_t uid, bool known,
		     uint32_t all, uint32_t mine)
{
	if (all >= cfg->max_connections)
		return false;
	if (privileged(cfg, uid, known))
		return true;
	return all < cfg->max_connections - cfg->reserved &&
	       mine < cfg->max_per_user;
}
