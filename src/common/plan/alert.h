/*
 * plan/alert.h - which changes of a job's verdict are worth telling someone
 * (its user by mail, the site through AlertProgram): the rules, their rate
 * limit and the text.  The sched plugin only runs what this decides, off
 * every slurmctld lock (doc/sched-deadline.md, "Alerts").
 *
 * Rules, per deadline job of a plan (map+reduce pair = one job):
 *   - a job's level is 0 while it is on track (or has no estimate yet,
 *     is capped, held or refused), 1 when at_risk, 2 when late or
 *     hopeless;
 *   - an alert is due when the level rises above the last level alerted
 *     (at_risk, then hopeless: two alerts; hopeless -> at_risk -> hopeless:
 *     one); back at level 0 the job is on track again and a later rise
 *     alerts anew;
 *   - two verdict alerts of one job are at least `interval` seconds apart;
 *     a rise inside the interval is sent when the interval ends if the job
 *     is still at that level (a flapping verdict costs one alert per
 *     interval, never one per cycle);
 *   - the outcome (met or missed) is sent once per job, at once.
 */
#ifndef DL_ALERT_H
#define DL_ALERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/plan/plan.h"

enum dl_alert_kind {
	DL_ALERT_NONE = 0,
	DL_ALERT_AT_RISK,  /* level 1 */
	DL_ALERT_HOPELESS, /* level 2: verdict late or hopeless */
	DL_ALERT_MET,      /* outcome */
	DL_ALERT_MISSED,   /* outcome */
};

/* One alert, self-contained (valid after the plan is gone). */
struct dl_alert {
	enum dl_alert_kind kind;
	uint64_t job_id;    /* map (or only) array */
	uint64_t reduce_id; /* 0 = map-only */
	char user[32];
	char name[64];
	char verdict[16]; /* the plan's word: at_risk, late, hopeless, met,
			     missed */
	double deadline;
	double predicted_finish; /* outcome: the last task's end */
	double finish_err;
	double when; /* plan time */
	char explain[200];
};

/* What the core remembers per job between plans. */
struct dl_alert_job {
	uint64_t job_id;
	uint8_t level;    /* last level alerted (0 = none or on track since) */
	bool final_sent;  /* met/missed sent (or known before a restart) */
	bool seen;        /* in the current plan (sweep) */
	double last_sent; /* time of the last verdict alert; -inf = never */
};

struct dl_alert_tracker {
	struct dl_alert_job *jobs; /* sorted by job_id */
	uint32_t n, cap;
};

void dl_alert_tracker_init(struct dl_alert_tracker *t);
void dl_alert_tracker_free(struct dl_alert_tracker *t);

const char *dl_alert_kind_name(enum dl_alert_kind k);

/* Seed the tracker from the plan of the previous slurmctld (restored at
 * start), so a restart repeats no alert: jobs at risk then count as
 * alerted at their level, finished ones as told their outcome.  Returns 0
 * or ENOMEM. */
int dl_alert_prime(struct dl_alert_tracker *t, const struct dl_plan *plan);

/* The alerts a new plan makes due at time now (AlertInterval = interval
 * seconds).  *out (malloc'd, free() it) gets *nout alerts; jobs no longer
 * in the plan are forgotten.  Returns 0, EINVAL or ENOMEM (then the
 * tracker is as before and nothing is due). */
int dl_alert_scan(struct dl_alert_tracker *t, const struct dl_plan *plan,
		  double now, double interval, struct dl_alert **out,
		  uint32_t *nout);

/* Which alerts a user's --mail-type asks for (the plugin translates
 * Slurm's flags): verdict alerts (at_risk, hopeless) with FAIL or any
 * TIME_LIMIT type, as they warn of a job going wrong; outcomes (met,
 * missed) with END.  --mail-type=ALL includes END and FAIL. */
#define DL_MAIL_WANT_TROUBLE 0x1u
#define DL_MAIL_WANT_END     0x2u
bool dl_alert_mail_wanted(enum dl_alert_kind k, unsigned wants);

/* A --mail-user fit to be MailProg's argument: 1..255 bytes, no control
 * character or blank, not starting with '-' (it would read as an
 * option). */
bool dl_alert_mail_user_ok(const char *mail_user);

/* The mail subject, in Slurm's style: "Slurm Job_id=12 Name=wc Deadline
 * at_risk: <explanation>" (a pair: "Job_id=12+13"). */
void dl_alert_subject(const struct dl_alert *a, char *buf, size_t len);

/* The environment of AlertProgram and MailProg: at most max strings
 * "NAME=value" (malloc'd, free each) in env, NULL-terminated; returns how
 * many, or -1 (ENOMEM).  Names: SLURM_JOB_ID, SLURM_JOB_USER,
 * SLURM_JOB_NAME, DEADLINE_EVENT, DEADLINE_VERDICT, DEADLINE,
 * DEADLINE_TIME, DEADLINE_PREDICTED_FINISH, DEADLINE_REDUCE_JOB_ID,
 * DEADLINE_EXPLANATION, PATH. */
#define DL_ALERT_ENV_MAX 12
int dl_alert_env(const struct dl_alert *a, char **env, size_t max);

#endif
