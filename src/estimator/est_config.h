/*
 * est_config.h - deadline-estimatord's configuration file
 * (contrib/deadline-estimatord.conf, deadline-estimatord(8)): Name=Value
 * lines, '#' comments, names case-insensitive like Slurm's.
 */
#ifndef EST_CONFIG_H
#define EST_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/estimate/history.h"

#define EST_DEFAULT_CONFIG    "/etc/slurm/deadline-estimatord.conf"
#define EST_MAX_PREDICT_USERS 256

struct est_config {
	char *socket; /* Unix socket path */
	unsigned socket_mode;
	char *socket_group; /* "" = the daemon's group */
	uint32_t tcp_port;  /* 0 = no TCP listener (127.0.0.1 only) */
	char *database;
	char *slurm_user;    /* name or uid: may observe (root always may) */
	uid_t slurm_uid;     /* resolved */
	char *predict_users; /* "*" = everyone, else list of names/uids */
	bool predict_all;
	uid_t predict_uids[EST_MAX_PREDICT_USERS];
	size_t npredict_uids;
	uint32_t max_line;
	uint32_t max_connections;
	uint32_t
		max_per_user; /* connections of one user (not root/SlurmUser) */
	uint32_t reserved;    /* of max_connections, for root and SlurmUser */
	double idle_timeout;
	bool sync_full;
	char *forecast_file; /* "" = forecast unavailable */
	char *pid_file;      /* "" = none */
	int log_level;       /* dl_log_level */
	struct dl_hist_cfg hist;
};

void est_config_defaults(struct est_config *cfg);
void est_config_free(struct est_config *cfg);

/* Parse a config file over the defaults.  A missing file is an error only
 * when required (an explicit --config).  0, or -1 with err set. */
int est_config_load(struct est_config *cfg, const char *path, bool required,
		    char *err, size_t errlen);
/* Parse text (for the tests). */
int est_config_parse(struct est_config *cfg, const char *text,
		     const char *origin, char *err, size_t errlen);
/* Resolve user names and check cross-field constraints (after the command
 * line overrides).  0, or -1 with err set. */
int est_config_finish(struct est_config *cfg, char *err, size_t errlen);

/* Whether uid may predict / observe (root and SlurmUser always may). */
bool est_may_predict(const struct est_config *cfg, uid_t uid, bool known);
bool est_may_observe(const struct est_config *cfg, uid_t uid, bool known);
/* Whether uid may ask about the history of `user` (a login name): root and
 * SlurmUser about anyone, a known user about themselves only (job names
 * and profiles are private), a peer of unknown identity (TCP) only under
 * PredictUsers=*. */
bool est_may_predict_user(const struct est_config *cfg, uid_t uid, bool known,
			  const char *user);
/* Whether a new connection of uid may be kept, with open connections in
 * all and of this uid in mine: root and SlurmUser up to MaxConnections,
 * everyone else up to MaxConnections - ReservedConnections in all and
 * MaxConnectionsPerUser each (peers of unknown identity count as one
 * user), so no user can take the slots slurmctld needs. */
bool est_may_connect(const struct est_config *cfg, uid_t uid, bool known,
		     uint32_t all, uint32_t mine);

#endif
