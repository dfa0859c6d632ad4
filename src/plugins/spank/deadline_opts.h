/*
 * deadline_opts.h - the sbatch options of the deadline SPANK plugin, as
 * plain C: collect the users' text, validate it with the core's parsers
 * (job_hints.h) and produce the normalised job control environment entries
 * that slurmctld stores and the sched plugin reads back with
 * dl_hints_from_env().
 *
 * Kept free of Slurm headers so that the unit tests and the fuzz target run
 * exactly this code; the plugin (deadline_spank.c) only wires it to SPANK.
 */
#ifndef DL_SPANK_OPTS_H
#define DL_SPANK_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "common/model/job_hints.h"
#include "common/model/locality.h"

enum dl_spank_opt {
	DL_SPANK_SOFT_DEADLINE = 0,
	DL_SPANK_TASK_PROFILE,
	DL_SPANK_REDUCE_COST,
	DL_SPANK_MAX_DELAYS,
	DL_SPANK_MR_REDUCES,
	DL_SPANK_INPUT_NODES,
	DL_SPANK_OPT_COUNT
};

/* The option name users type (without "--"), for messages. */
const char *dl_spank_opt_name(enum dl_spank_opt which);

/* Slurm's time parser, as sbatch uses it for --deadline: seconds since the
 * epoch, 0 for text that is not a time. */
typedef time_t (*dl_time_parser_f)(const char *text);

struct dl_spank_opts {
	bool given[DL_SPANK_OPT_COUNT];
	double soft_deadline;      /* epoch seconds */
	struct dl_job_hints hints; /* profile, reduce cost, max delays, ... */
	char input_nodes[DL_LOCALITY_MAX_TEXT + 1]; /* normalised */
};

void dl_spank_opts_init(struct dl_spank_opts *o);

/* Validate and remember one option's text (a later call for the same option
 * replaces the earlier value, as sbatch's command line overrides #SBATCH
 * lines).  Returns 0, or EINVAL with a message for the user in err; o is
 * unchanged on error.  --input-nodes reads the file the value names when
 * it contains a '/' (as Slurm's --nodelist does), here, on the submit
 * host. */
int dl_spank_opt_set(struct dl_spank_opts *o, enum dl_spank_opt which,
		     const char *arg, dl_time_parser_f parse_time, char *err,
		     size_t errlen);

/* Checks that need the whole submission: the soft deadline must lie after
 * now, not before the job's --begin time (0 = none) and not after its hard
 * --deadline (0 = none).  Returns 0 or EINVAL with a message. */
int dl_spank_opts_check(const struct dl_spank_opts *o, double now,
			double hard_deadline, double begin, char *err,
			size_t errlen);

/* A warning about options that are accepted but do nothing: --max-delays
 * without --input-nodes, --input-nodes without a soft or hard deadline
 * (hard_deadline: the job's --deadline, 0 = none, < 0 = not known here).
 * 1 with the message in buf, else 0. */
int dl_spank_opts_warning(const struct dl_spank_opts *o, double hard_deadline,
			  char *buf, size_t len);

/* One job control environment entry; slurmctld stores it as SPANK_<name>. */
struct dl_spank_env {
	const char *name;  /* a DL_ENV_* name */
	const char *value; /* buf, or a string inside the options */
	char buf[160];
};

/* The entries for the options given, in enum order.  Returns how many were
 * written to out (at most DL_SPANK_OPT_COUNT), or -1 if a value did not
 * fit.  The values may point into o: use them while o is unchanged. */
int dl_spank_opts_env(const struct dl_spank_opts *o,
		      struct dl_spank_env out[DL_SPANK_OPT_COUNT]);

#endif
