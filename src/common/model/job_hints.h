/*
 * job_hints.h - the per-job hints users give through the SPANK options
 * (--soft-deadline, --task-profile, --reduce-cost, --max-delays; the
 * --input-nodes locality has its own parser, common/locality.h).
 *
 * The SPANK plugin validates the user's text with these parsers and stores
 * a normalised value in the job control environment (job_ptr->spank_job_env
 * keeps "NAME=value"; Slurm prefixes "SPANK_" only in prolog/epilog
 * environments); the sched plugin reads the same entries back from
 * job_ptr->spank_job_env with dl_hints_from_env().  One parser for both.
 * The same environment carries job_submit/deadline's mark of a throttle
 * update (DL_ENV_ARRAY_LIMIT), read here too.
 */
#ifndef DL_JOB_HINTS_H
#define DL_JOB_HINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/model/model.h"

/* Names in the job control environment, as the SPANK plugin sets them;
 * prolog/epilog scripts see them with the "SPANK_" prefix. */
#define DL_ENV_SOFT_DEADLINE "DEADLINE_SOFT"
#define DL_ENV_TASK_PROFILE  "DEADLINE_TASK_PROFILE"
#define DL_ENV_REDUCE_COST   "DEADLINE_REDUCE_COST"
#define DL_ENV_MAX_DELAYS    "DEADLINE_MAX_DELAYS"
/* --input-nodes, normalised (common/locality.h); read by select/deadline */
#define DL_ENV_INPUT_NODES "DEADLINE_INPUT_NODES"
/* set by smapreduce on the map array: reduce tasks that will follow, so that
 * admission can judge the MapReduce job as one at the map submission */
#define DL_ENV_MR_REDUCES "DEADLINE_MR_REDUCES"
/* set by job_submit/deadline (not a user's hint) on an array's record each
 * time an ArrayTaskThrottle update passes slurmctld (scontrol, libslurm,
 * REST): the limit as Slurm stored it.  The throttle alone cannot tell a
 * limit equal to the plan's own throttle from the plan's own. */
#define DL_ENV_ARRAY_LIMIT "DEADLINE_ARRAY_LIMIT"
/* set by job_submit/deadline on a pending record that was already held
 * (priority 0) when someone asked to hold it (scontrol hold or uhold):
 * Slurm changes nothing visible then, and a plan that later dropped its
 * own hold (or job_submit's at submit) would release a hold asked for.
 * "user" when the job's owner asked, "admin" when anyone else did. */
#define DL_ENV_HOLD_REQUEST "DEADLINE_HOLD_REQUEST"
#define DL_ENV_PREFIX       "SPANK_"

/* The latest time a hint may name: 9999-12-31T23:59:59Z.  Values read from
 * a job's environment are checked against it wherever they are read, as a
 * job can reach slurmctld without the SPANK plugin (libslurm, REST). */
#define DL_TIME_MAX 253402300799.0

struct dl_job_hints {
	double soft_deadline; /* epoch seconds; 0 = none */
	bool has_profile;
	struct dl_demand task; /* the array's own tasks */
	bool has_shuffle;
	struct dl_demand shuffle; /* reduce arrays: while maps still run */
	double reduce_cost;       /* 0 = none */
	int32_t max_delays;       /* -1 = none */
	int32_t mr_reduces;       /* -1 = none */
	int64_t array_limit;      /* DL_ENV_ARRAY_LIMIT; -1 = none, 0 = no
				     limit */
};

void dl_hints_init(struct dl_job_hints *h);

/* "cpu=2,mem=4G,io=50[,shuffle_cpu=..,shuffle_mem=..,shuffle_io=..]";
 * mem takes K/M/G/T suffixes (MB without), cpu > 0, io >= 0 (MB/s).
 * Returns 0 or EINVAL with a message; h unchanged on error. */
int dl_hints_parse_profile(const char *text, struct dl_job_hints *h, char *err,
			   size_t errlen);
/* Normalised form "cpu=2,mem=4096,io=50[,shuffle_...]" (mem in MB), keys
 * with a zero value left out; it parses back to the same profile. */
int dl_hints_format_profile(const struct dl_job_hints *h, char *buf,
			    size_t len);

/* A reduce/map cost ratio: a number in (0, 1000]. */
int dl_hints_parse_reduce_cost(const char *text, double *out, char *err,
			       size_t errlen);
/* A whole number of deferrals in [0, 1000]. */
int dl_hints_parse_max_delays(const char *text, int32_t *out, char *err,
			      size_t errlen);

/* A reduce task count announced with a map array: [0, DL_MAX_TASKS]. */
int dl_hints_parse_mr_reduces(const char *text, int32_t *out, char *err,
			      size_t errlen);

/* An ArrayTaskThrottle as DL_ENV_ARRAY_LIMIT carries it: a whole number
 * from 0 (no limit) to UINT32_MAX, digits only. */
int dl_hints_parse_array_limit(const char *text, int64_t *out, char *err,
			       size_t errlen);

/* Check a soft deadline against the time of submission and the hard
 * deadline (0 = none): it must be in the future and not after the hard
 * one.  Returns 0 or EINVAL with a message. */
int dl_hints_check_soft(double soft, double hard, double now, char *err,
			size_t errlen);

/* The value of the entry `name` (a DL_ENV_* name, with or without the
 * SPANK_ prefix) of a job control environment, or NULL. */
const char *dl_hints_env_get(char *const *env, uint32_t count,
			     const char *name);

/* Only the DL_ENV_ARRAY_LIMIT entry, as dl_hints_from_env reads it (the
 * last valid one; -1 = none): for a caller under slurmctld's job write
 * lock that needs nothing else. */
int64_t dl_hints_array_limit_from_env(char *const *env, uint32_t count);

/* Who asked for a hold on an already-held record (DL_ENV_HOLD_REQUEST). */
enum dl_hold_request {
	DL_HOLD_REQUEST_NONE = 0,
	DL_HOLD_REQUEST_USER,
	DL_HOLD_REQUEST_ADMIN,
};

/* "user" or "admin", exactly; anything else is no request. */
enum dl_hold_request dl_hints_parse_hold_request(const char *text);
const char *dl_hold_request_name(enum dl_hold_request r);
/* The DL_ENV_HOLD_REQUEST entry of a job control environment (the last
 * one; NONE without one or with a bad value), for a caller under
 * slurmctld's job lock. */
enum dl_hold_request dl_hints_hold_request_from_env(char *const *env,
						    uint32_t count);

/* Read the hints from a job control environment ("NAME=value" entries,
 * with or without the SPANK_ prefix).  Entries that fail to parse are
 * reported in err and ignored (the others still apply); returns the number
 * of bad entries. */
int dl_hints_from_env(char *const *env, uint32_t count, struct dl_job_hints *h,
		      char *err, size_t errlen);

#endif
