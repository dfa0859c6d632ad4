/*
 * sched_deadline.h - the pieces of sched/deadline shared by its files.
 *
 * One plan cycle (sched_deadline.c):
 *   snapshot.c  under the slurmctld read locks, copy what the plan needs out
 *               of the job, node and partition records (no I/O, no policy);
 *   snapshot.c  with no lock held, merge the copy into the plugin's memory
 *               (the core's dl_sstate: observed task lengths, pairing) and
 *               build the core's jobs and cluster;
 *   estimator.c still unlocked: send finished tasks to the estimator,
 *               history priors for phases without completions;
 *   core        dl_policy_plan();
 *   apply.c     under the job write lock, throttle/priority/hold per array;
 *   state.c     with no lock held, publish the plan, write plan JSON and
 *               the saved state.
 */
#ifndef SCHED_DEADLINE_H
#define SCHED_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "common/config/config.h"
#include "common/io/log.h"
#include "common/model/job_hints.h"
#include "common/model/model.h"
#include "common/plan/decide.h"
#include "common/plan/plan.h"
#include "common/plan/sched_state.h"
#include "common/estimate/usage.h"

#define SDL_PREFIX "sched/deadline"

/* ---- snapshot (plain copies, valid after the locks are dropped) ---- */

enum sdl_task_kind {
	SDL_TASK_RUNNING = 0,
	SDL_TASK_DONE_OK = 1,
	SDL_TASK_DONE_FAIL = 2,
	/* waiting to start with a record of its own: requeued, or split off
	 * the pending record; counted in sdl_array.pending too */
	SDL_TASK_PENDING = 3,
};

struct sdl_task {
	uint32_t array_id;
	uint32_t task_id;
	uint8_t kind;
	time_t start, end;
	uint32_t node; /* DL_NO_NODE when unknown */
	/* finished tasks: what Slurm gave them (the usage source
	 * "requested", common/usage.h) */
	uint32_t alloc_cpus, nodes;
	uint64_t mem; /* MB per node, or per CPU with mem_per_cpu */
	bool mem_per_cpu;
	/* running tasks: the next running task of the same array (index
	 * into the snapshot's tasks, SDL_NO_TASK at the end) */
	uint32_t next_running;
};

#define SDL_NO_TASK UINT32_MAX

/* A task that ends while slurmctld is down tells it at its slurmstepd's
 * next retry, every 15 s (22.05 and 24.11), and slurmctld records the end
 * when it hears of it: a task started before slurmctld did and ending this
 * soon after has no known length (doc/slurm-facts.md) */
#define SDL_RESTART_REPORT_WINDOW 30

struct sdl_array {
	uint32_t id;         /* ArrayJobId */
	bool described;      /* the description fields below are set */
	bool head_seen;      /* the record with job_id == ArrayJobId */
	uint32_t pending;    /* unstarted tasks */
	uint32_t ntasks_rec; /* task records seen (running or finished) */
	uint32_t throttle;   /* ArrayTaskThrottle now (0 = none) */
	bool throttle_seen;  /* throttle was read (a record with array_recs) */
	uint32_t priority;   /* of the record holding the pending tasks */
	bool held;           /* that record has priority 0 */
	time_t deadline;     /* Slurm --deadline (0 = none) */
	time_t submit;
	uint32_t uid;
	char *account, *name, *partition;
	uint32_t cpus;      /* per task */
	uint64_t mem;       /* MB per task */
	uint32_t limit_min; /* the limit deadline_ok() tests, minutes */
	struct dl_job_hints hints;
	char *hints_err;    /* bad hint entries (logged once) */
	uint32_t dep_array; /* afterok on this array (map of a pair) */
	uint64_t rt_ticket; /* job_submit/deadline's realtime ticket */
	bool rt_held;       /* job_submit's hold, not released yet */
	uint32_t dep_other; /* afterok on a job that is not an array */
	uint16_t mail_type; /* --mail-type (MAIL_JOB_* bits) */
	char *mail_user;    /* --mail-user, Slurm's default filled in */
	/* its running tasks in the order Slurm listed them, linked through
	 * sdl_task.next_running, so that merging them costs what they are
	 * and not what every array's tasks are (SDL_NO_TASK: none) */
	uint32_t first_running, last_running;
};

/* The unstarted tasks of an array that cannot start now. */
struct sdl_waiting {
	uint32_t held;         /* held by a user or an admin */
	uint32_t deferred;     /* their begin time is ahead */
	time_t deferred_until; /* the latest of those begin times */
};

struct sdl_snapshot {
	struct dl_cluster cl;
	struct sdl_array *arrays; /* sorted by id */
	uint32_t narrays;
	/* per array (indexed like arrays), NULL until a task that cannot
	 * start now is seen: most cycles have none, and struct sdl_array's
	 * size is what _find_array's search pays for */
	struct sdl_waiting *waiting;
	struct sdl_task *tasks;
	uint32_t ntasks, cap_tasks;
	uint32_t max_other_prio; /* highest priority of other pending jobs */
	/* taking it: the partition records by index (cl.partitions), for
	 * cl.other_waiting, and the last one found */
	const void **part_ptrs;
	const void *last_part;
	int last_idx;
	/* taking it: the plan's record of arrays[k] (the merge may move the
	 * records, so not kept) */
	const struct dl_array_rec **counted;
	time_t taken;
	time_t ctld_boot;  /* when this slurmctld started */
	time_t job_update; /* last_job_update seen under the lock */
	char *mail_prog;   /* slurm.conf MailProg */
	/* JobSubmitPlugins has job_submit/deadline, which marks every
	 * ArrayTaskThrottle update it lets through: a throttle changed
	 * without a new mark is no user's limit (Slurm before 23.11 stores a
	 * non-owner's update before refusing it) */
	bool marks_only;
	uint64_t hold_us;
};

/* ---- decisions (what apply.c sets per array) ---- */

struct sdl_decision {
	/* the core's (dl_sstate_decisions: common/plan/decide.h and
	 * common/plan/sched_state.h); not managed: give back the user's own
	 * settings */
	struct dl_array_decision a;
	/* out: what apply did */
	uint8_t prio_mode; /* enum dl_prio_mode set */
	uint32_t prio;
	bool user_held; /* left alone: held by a user or admin */
	/* a hold asked for while the plan or job_submit held the array
	 * (submit_hold.h): user_held, and never released by the plan */
	uint8_t hold_requested; /* enum dl_hold_request */
	/* job_submit's hold, whose admission the set lost, that the plan
	 * holds again: becomes the plan's hold */
	bool submit_hold_lost;
	/* not the plan's: only job_submit's orphaned hold is released (the
	 * throttle and the rest stay the user's) */
	bool hold_only;
	bool gone;
	/* ArrayTaskThrottle in the snapshot the plan was made from; apply
	 * leaves a throttle someone changed since (the plan ran without the
	 * lock) and sdl_record takes it as the user's limit */
	bool throttle_known;
	uint32_t throttle_before;
	/* job_submit/deadline's mark of the last update (DL_ENV_ARRAY_LIMIT,
	 * -1 = none) in that snapshot: a new one is an update too, also of
	 * the value the plan had set */
	int64_t limit_mark_before;
	bool marks_only; /* the snapshot's */
	bool throttle_outside;
	uint32_t throttle_found;
};

/* conf.c */
/* Read deadline.conf (next to slurm.conf) with the core's dl_config_load into
 * cfg (initialised by the caller with dl_config_defaults); a missing file
 * means all defaults.  Returns SLURM_SUCCESS or SLURM_ERROR with a message
 * in err; cfg is unchanged on error. */
extern int sdl_conf_read(struct dl_config *cfg, char **path, char *err,
			 size_t errlen);
/* deadline.conf at plugin start (init): sdl_conf_read(), and when the file
 * is broken while slurmctld is reconfiguring (Slurm >= 23.11 restarts it),
 * its last good copy, with an error saying so (*from_copy).  Logs; returns
 * SLURM_ERROR when the plugin must not start. */
extern int sdl_conf_start(const char *prefix, struct dl_config *cfg,
			  char **path, bool *from_copy);

/* last_good.c: StateSaveLocation/NAME.last-good */
#define SDL_CONF_NAME     "deadline.conf"
#define SDL_FORECAST_NAME "deadline-forecast"
extern char *sdl_last_good_path(const char *name);
/* Copy src (NULL or absent: every default) as the last good NAME. */
extern void sdl_last_good_save(const char *name, const char *src);
/* The copy's path (xfree) when it may stand in for a broken file now:
 * slurmctld is reconfiguring.  why: where the copy comes from, or why it
 * may not be used. */
extern char *sdl_last_good_usable(const char *name, char *why, size_t len);

/* log_sink.c */
/* Send the core's log lines at min and above to Slurm's log, each prefixed
 * with prefix (a string that outlives the plugin's use of it). */
extern void sdl_log_to_slurm(const char *prefix, enum dl_log_level min);

/* snapshot.c */
extern int sdl_snapshot_take(struct sdl_snapshot *s, const struct dl_sstate *st,
			     const struct dl_config *cfg);
extern void sdl_snapshot_free(struct sdl_snapshot *s);
/* The snapshot's array with this ArrayJobId, or NULL. */
extern const struct sdl_array *sdl_snapshot_array(const struct sdl_snapshot *s,
						  uint32_t id);
/* A throttle the plan did not set is the user's limit from now on
 * (model.h, max_running): recorded in r and logged. */
extern void sdl_user_throttle_set(struct dl_array_rec *r, uint32_t id,
				  uint32_t throttle);
/* Merge into the plugin's memory; returns a signature of everything the
 * plan depends on (a cycle whose signature did not change may be
 * skipped). */
extern uint64_t sdl_snapshot_merge(struct sdl_snapshot *s, struct dl_sstate *st,
				   double now);
/* The core's jobs (map + reduce of each pair), one per root array. */
extern int sdl_build_jobs(const struct sdl_snapshot *s,
			  const struct dl_sstate *st, struct dl_job ***jobs,
			  uint32_t *njobs);
extern void sdl_free_jobs(struct dl_job **jobs, uint32_t njobs);
/* Plan entries the core cannot know: finished jobs' outcome, pairing
 * notes. */
extern void sdl_annotate_plan(struct dl_plan *plan, const struct dl_sstate *st);

/* estimator.c (plan thread only, no slurmctld lock held) */
/* (Re)open the estimator client for EstimatorSocket/EstimatorTimeout. */
extern void sdl_est_configure(const struct dl_config *cfg);
/* Queue a task the tracker has just counted as completed (once each). */
/* usage: the task's profile (NaN = unknown) from source src
 * (common/usage.h), DL_USAGE_NONE for none. */
extern void sdl_est_queue(const struct dl_sstate *st,
			  const struct dl_array_rec *r, uint32_t task_id,
			  double start, double end, const char *node,
			  const struct dl_demand *usage,
			  enum dl_usage_source src);
/* Send queued tasks, set history priors of phases without completions,
 * and describe the estimator's state (for the plan and the log). */
extern void sdl_est_cycle(struct dl_job **jobs, uint32_t njobs, char *state,
			  size_t len);
/* The unsent queue in StateSaveLocation (save before the tracker). */
extern void sdl_est_save(void);
extern void sdl_est_load(const struct dl_sstate *st);
extern void sdl_est_fini(void);

/* apply.c */
/* The plan's decisions for the arrays in st, and one for each array of
 * snap still held as job_submit held it that the plan does not decide
 * (hold_only: sdl_apply releases it under a policy other than realtime,
 * and leaves it alone otherwise); NULL when none. */
extern struct sdl_decision *sdl_decide(const struct dl_plan *plan,
				       const struct dl_sstate *st,
				       const struct sdl_snapshot *snap,
				       uint32_t *ndec);
/* Under the job write lock. */
extern int sdl_apply(struct sdl_decision *dec, uint32_t ndec,
		     const struct dl_config *cfg, uint32_t max_other_prio,
		     time_t now);
/* After apply, no lock: log changes and remember them. */
extern void sdl_record(const struct sdl_decision *dec, uint32_t ndec,
		       const struct dl_plan *plan, struct dl_sstate *st);

/* alert.c: verdict alerts (common/plan/alert.h) run by a worker thread of
 * their own, never by the plan thread, never under a slurmctld lock */
extern void sdl_alert_start(void);
extern void sdl_alert_stop(void);
/* Plan thread, no lock: seed from the restored plan, then per cycle queue
 * the alerts the plan makes due (mail addresses from the snapshot). */
extern void sdl_alert_prime(const struct dl_plan *plan);
extern void sdl_alert_cycle(const struct dl_plan *plan,
			    const struct sdl_snapshot *snap,
			    const struct dl_config *cfg);

/* state.c */
extern char *sdl_state_path(void);
/* StateSaveLocation/deadline_realtime.json: the realtime admitted set */
extern char *sdl_rt_state_path(void);
extern char *sdl_plan_path(const struct dl_config *cfg);
extern void sdl_state_load(struct dl_sstate *st);
extern void sdl_state_save(const struct dl_sstate *st);
extern void sdl_plan_write(const struct dl_plan *plan,
			   const struct dl_config *cfg);

/* release_watch.c (plan thread): between plan cycles, every
 * SDL_RELEASE_TICK, ask slurmctld's main scheduler for a pass when a job
 * ended or a completing node was released while deadline work waits */
#define SDL_RELEASE_TICK 0.05 /* seconds */

struct sdl_release_stats {
	uint64_t looks;       /* looks under the node read lock */
	uint64_t passes;      /* scheduling passes requested */
	uint64_t idle;        /* ends or releases with no deadline work
				 waiting: left to Slurm */
	uint64_t max_hold_us; /* longest node read lock hold */
};

/* jobs submitted, started or ended so far (slurmctld's counters, read
 * without a lock): a change tells that job records changed within the
 * second last_job_update cannot resolve */
extern uint64_t sdl_job_events(void);
/* jobs submitted so far (the same counters) */
extern uint64_t sdl_jobs_submitted(void);
/* at start and reconfigure: whether it is on (off under
 * SchedulerParameters=defer) */
extern bool sdl_release_watch_configure(void);
/* deadline_waits: the last look saw deadline tasks waiting to start, or a
 * job was submitted since */
extern void sdl_release_watch_tick(bool deadline_waits);
/* since the last call, then reset */
extern void sdl_release_watch_take_stats(struct sdl_release_stats *out);
extern void sdl_release_watch_fini(void);

#endif
