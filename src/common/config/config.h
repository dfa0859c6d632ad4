/*
 * config/config.h - deadline.conf settings as the core sees them.
 *
 * One table describes every option: its name, type, default, bounds and
 * documentation.  The sched plugin and the tools (simulator, sdeadline)
 * read the file with dl_config_load() (Slurm's s_p_hashtbl took an
 * unterminated quote literally and silently ignored everything after a
 * NUL byte).  So
 * validation and defaults exist exactly once.
 */
#ifndef DL_CONFIG_H
#define DL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dl_policy {
	DL_POLICY_ADAPTIVE = 0,
	DL_POLICY_RAS,
	DL_POLICY_REVERSE,
	DL_POLICY_REALTIME,
	DL_POLICY_TRIAGE,    /* the default: EDF with Moore-Hodgson demotion */
	DL_POLICY_EDF,       /* earliest deadline first, as wide as possible */
	DL_POLICY_PORTFOLIO, /* the best of PortfolioPolicies, by simulation */
	DL_POLICY_COUNT
};

/* Where jobs the triage policy gave up on rank against jobs without
 * deadlines (HopelessRank=). */
enum dl_hopeless_rank {
	DL_HOPELESS_BELOW = 0, /* after them, until HopelessAging */
	DL_HOPELESS_ABOVE = 1, /* before them, after every feasible job */
};

enum dl_yes_no { DL_NO = 0, DL_YES = 1 };

/* Which jobs whose deadline has passed keep their place in deadline order
 * while they make no other job late (PassedAhead=); the others are given
 * up at once. */
enum dl_passed_ahead {
	DL_PASSED_NONE = 0,
	DL_PASSED_ONE = 1, /* those with one task left */
	DL_PASSED_ALL = 2,
};

struct dl_config {
	enum dl_policy policy;
	double plan_interval;      /* seconds between plan cycles */
	double replan_delay;       /* seconds from a submit/end to a replan */
	char *estimator_socket;    /* "" = no estimator */
	double estimator_timeout;  /* seconds per request */
	double max_deadline_share; /* of a partition, per account; 1 = no cap */
	double reduce_cost;        /* default reduce/map task cost ratio */
	double overdue_floor;      /* delta floor, as a fraction of mu */
	char *accel_feature;       /* node feature of the accelerated pool */
	double accel_threshold;    /* speedup mu_reg/mu_acc to be accelerable */
	double priority_base;      /* Slurm priority of the top urgent job */
	char *plan_file;           /* published plan; "" = StateSaveLocation */
	uint32_t ras_rounds;       /* max-min rounds of the placement */
	char *node_io;             /* "node[1-4]=200,node5=100" I/O capacity */
	double default_io;         /* I/O capacity of nodes not in node_io */
	char *availability_forecast; /* f(t) file (reverse policy) */
	double realtime_share;     /* share of a partition for realtime jobs */
	double realtime_margin;    /* safety margin on worst-case lengths */
	double realtime_quantile;  /* quantile used as worst-case length */
	double realtime_overhead;  /* slot turnover added to each task (s) */
	double feedback_threshold; /* realtime feedback delta; 0 = auto */
	double triage_quantile;    /* task-length quantile of the triage test */
	enum dl_hopeless_rank hopeless_rank;
	double hopeless_aging; /* s given up before it goes first among them */
	double hopeless_slack; /* share of a feasible job's slack lent */
	/* the same where a job without a deadline waits for the same nodes */
	double hopeless_slack_waiting;
	/* the load (share of the CPUs) lending to hopeless jobs ends at */
	double hopeless_slack_load;
	/* HopelessSlack lends while the given-up jobs' pending work would
	 * take all CPUs at most this long (s) */
	double hopeless_slack_backlog;
	/* ... and while deadline work arrives at less than this share of
	 * the CPUs */
	double hopeless_slack_max_arrivals;
	/* HopelessPromise: a job given up keeps the place of the finish
	 * predicted when it was (plus the margin times its lateness) */
	enum dl_yes_no hopeless_promise;
	double hopeless_promise_margin;
	/* jobs past their deadline that keep their place (PassedAhead) */
	enum dl_passed_ahead passed_ahead;
	/* PassedAhead=one also keeps a job whose maps have all started while
	 * at most this many reduce tasks are left to start; 0 = off */
	uint32_t passed_ahead_reduce;
	enum dl_yes_no late_ahead; /* late jobs that help no one stay ahead */
	/* ... unless they run tasks while deadline work arrives at this
	 * share of the CPUs or more (10: always kept) */
	double late_ahead_max_arrivals;
	double lookahead_step;   /* time grid of the dispatcher lookahead */
	double blocking_reserve; /* share of a partition long tasks leave */
	double blocking_horizon; /* share of recent jobs a long task blocks */
	double blocking_margin;  /* safety margin on a long job's own need */
	/* a phase of unknown task length is as long as recent jobs' tasks */
	enum dl_yes_no blocking_unknown;
	/* share of a partition from which such a phase is presumed so too */
	double blocking_unknown_wide;
	/* while a job is late: the reserve stays for given-up and unknown
	 * phases, only feasible jobs are freed of it */
	enum dl_yes_no blocking_under_load;
	char *alert_program;       /* AlertProgram; "" = none */
	enum dl_yes_no alert_mail; /* alerts through MailProg */
	double alert_interval;     /* s between two verdict alerts of a job */
	double alert_timeout;      /* s an alert command may run */
	uint32_t debug;            /* 0 quiet .. 3 very verbose */
	/* Policy=portfolio */
	char *portfolio_policies;        /* candidates, comma-separated */
	double portfolio_interval;       /* s between two rounds */
	uint32_t portfolio_samples;      /* runs per candidate and round */
	double portfolio_horizon;        /* simulated s; 0 = until all end */
	double portfolio_budget;         /* wall s a round may take */
	uint32_t portfolio_sample_tasks; /* round: sample above this; 0 no */
	double portfolio_plan_grid;      /* round: plans at most this often */
	double portfolio_margin;         /* score points a switch must gain */
	double portfolio_min_dwell;      /* s a policy runs before a switch */
	double portfolio_forecast;       /* s of arrivals replayed; 0 = none */
	double portfolio_hindsight;      /* s of recent past judged; 0 = none */
	uint32_t portfolio_confirm;      /* rounds in a row a switch must win */
	double portfolio_missed_weight;  /* per % of deadlines missed */
	double portfolio_lateness_weight; /* per minute of mean tardiness */
	double portfolio_slowdown_weight; /* per unit of mean slowdown - 1 */
};

enum dl_opt_type {
	DL_OPT_CHOICE, /* one of `choices`; the field is an enum */
	DL_OPT_DOUBLE,
	DL_OPT_UINT,
	DL_OPT_STRING,
	DL_OPT_DURATION, /* seconds, or a number with s/m/h suffix */
};

struct dl_option {
	const char *name; /* as written in deadline.conf */
	enum dl_opt_type type;
	size_t offset; /* into struct dl_config */
	double min, max;
	const char *def;            /* default, as text */
	const char *doc;            /* one line for man page and --help */
	const char *const *choices; /* DL_OPT_CHOICE: names, NULL-ended */
};

/* The table of options, terminated by a NULL name. */
extern const struct dl_option dl_options[];

/* Fill cfg with the documented defaults (strings are allocated). */
/* PortfolioPolicies: a comma-separated list of planning policies
 * (triage, edf, adaptive, ras, reverse), each once, at least one.  0 with
 * out[0..*n) filled, or EINVAL with err set. */
int dl_policy_list_parse(const char *s, enum dl_policy *out, uint32_t max,
			 uint32_t *n, char *err, size_t errlen);

int dl_config_defaults(struct dl_config *cfg);
void dl_config_free(struct dl_config *cfg);
int dl_config_copy(struct dl_config *dst, const struct dl_config *src);

/* Set one option from its text value.  Names are case-insensitive like
 * Slurm's.  Returns 0, or EINVAL (unknown option, malformed or out-of-range
 * value) with a message naming the option and the accepted range in err;
 * cfg is unchanged on error. */
int dl_config_set(struct dl_config *cfg, const char *name, const char *value,
		  char *err, size_t errlen);

/* Parse a deadline.conf (Name=Value lines, '#' comments, case-insensitive
 * names) into cfg, starting from defaults.  On any error cfg is left
 * untouched and err says which line is wrong.  A missing file is ENOENT
 * (callers treat it as "all defaults"); an empty one (blanks only) is
 * EINVAL; one that is not a regular file is DL_E_NOT_REGULAR (never
 * waited on: io/atomic_file.h). */
int dl_config_load(struct dl_config *cfg, const char *path, char *err,
		   size_t errlen);
/* The same from text in memory; origin names it in messages.  cfg must
 * have been initialised (dl_config_defaults). */
int dl_config_parse(struct dl_config *cfg, const char *text, size_t len,
		    const char *origin, char *err, size_t errlen);

const char *dl_policy_name(enum dl_policy p);
const char *dl_hopeless_rank_name(enum dl_hopeless_rank r);
/* -1 if unknown */
int dl_policy_from_name(const char *name);

/* Parse "120", "90s", "15m", "2h", "3d" into seconds (blanks around it
 * allowed); -1 on error.  deadline.conf and deadline-estimatord.conf. */
double dl_parse_duration(const char *s);

#endif
