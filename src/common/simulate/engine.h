/*
 * engine.h - the discrete-event simulator: jobs arrive, a policy plans every
 * PlanInterval and ReplanDelay after each arrival and task end, and a model
 * of Slurm's dispatcher starts pending tasks in priority order within the
 * plan's throttles and placement, with EASY backfill and Slurm's hard
 * deadline cancellation.  Running tasks are never killed.  A run is
 * deterministic for a given seed: task lengths come from per-job random
 * streams, and simultaneous events are ordered by kind and insertion.
 */
#ifndef DL_SIMULATE_ENGINE_H
#define DL_SIMULATE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/config/config.h"
#include "common/estimate/history.h"
#include "common/model/forecast.h"
#include "common/policy/place_index.h"
#include "common/model/model.h"
#include "common/plan/decide.h"
#include "common/plan/plan.h"
#include "common/simulate/policy.h"
#include "common/simulate/spec.h"

enum sim_job_state {
	SIM_JOB_FUTURE = 0, /* not arrived yet */
	SIM_JOB_ACTIVE,     /* admitted, tasks left */
	SIM_JOB_REJECTED,   /* refused by admission control */
	SIM_JOB_DONE,       /* every task finished (or the rest cancelled) */
};

struct sim_task {
	double start; /* -1 while not started */
	double end;
	uint32_t node; /* index into the cluster's nodes */
	uint32_t slot; /* position in the node's running list */
};

struct sim_job {
	const struct sim_job_spec *spec;
	uint32_t idx;
	struct dl_job *dj; /* the core's view, kept current */
	enum sim_job_state state;
	double deadline;      /* absolute; 0 = none */
	bool hard;            /* Slurm --deadline semantics */
	double isolated;      /* completion time alone on the empty cluster */
	double time_limit[2]; /* Slurm time limit per task of each phase */
	double *base[2];      /* drawn task lengths before node effects */
	/* each task's launch and completion time when the cluster's
	 * task_overhead is a distribution; NULL: the constant */
	double *overhead[2];
	struct sim_task *task[2];
	uint32_t started[2];
	uint32_t ended[2];
	bool cancelled;  /* unstarted tasks cancelled at the hard deadline */
	bool unfinished; /* still running at the horizon */
	double first_start, map_end, finish, cancel_time;
	double unit_seconds; /* slot-seconds (typed) or CPU-seconds used */
	uint32_t max_running;
	char why[160];   /* admission verdict */
	char stall[160]; /* why it never started, when the run stalled */
	/* realtime holds (the resync's): how often, how long, the last cause;
	 * held_since < 0 while not held */
	uint32_t holds;
	double held_since, held_s;
	char hold_why[200]; /* the plan's explanation */
	/* the current plan's decisions for the job's two arrays (the core's
	 * dl_decide, as the sched plugin applies them) */
	bool in_plan;
	struct dl_decision dec[2];
	uint8_t mode[2];   /* enum dl_prio_mode, set when the plan is applied */
	uint32_t plan_idx; /* index into the current plan's jobs */
	uint32_t active_pos;
	bool dirty; /* running count changed (timeline) */
};

struct sim_node {
	const struct sim_node_spec *spec;
	double avail; /* 1 - share held by the external load */
	uint32_t used_cpus;
	uint64_t used_mem;
	double used_io;
	uint32_t used_map, used_red;
	/* running tasks, for backfill's shadow time */
	struct sim_ref {
		uint32_t job;
		uint8_t phase;
		uint32_t task;
	} * run;
	uint32_t nrun, caprun;
};

/* What the policy is told about task lengths before a phase has its own
 * completions (--task-lengths; doc/simulator.md). */
enum sim_lengths {
	SIM_LENGTHS_SPEC = 0,  /* the workload's priors (and --priors) */
	SIM_LENGTHS_PERFECT,   /* each phase's true mean, kept throughout */
	SIM_LENGTHS_ESTIMATOR, /* the estimator's history, learned in the run */
	SIM_LENGTHS_OWN,       /* nothing: the job's own completions only */
	SIM_LENGTHS_LIMIT,     /* the time limit, then own completions */
};

/* "spec", "perfect", "estimator", "own", "limit"; -1 when unknown */
int sim_lengths_parse(const char *s);
const char *sim_lengths_name(enum sim_lengths m);

/* SIM_LENGTHS_ESTIMATOR: the caller's estimator.  The engine (in
 * libdeadline) does not link the estimator's history; deadline-sim and the
 * tests pass the daemon's (history.h) through these. */
struct sim_estimator {
	void *ctx;
	/* the answer for one phase of a job at its arrival: 0 or an errno */
	int (*predict)(void *ctx, const struct dl_pred_query *q, double now,
		       struct dl_prediction *out);
	/* a task finished: 0 or an errno (ENOMEM stops the run) */
	int (*observe)(void *ctx, const struct dl_task_rec *r, double now);
};

struct sim_options {
	uint64_t seed;
	enum sim_lengths lengths;
	struct sim_estimator est; /* with SIM_LENGTHS_ESTIMATOR */
	double horizon;           /* stop here; 0 = automatic */
	bool priors_from_dist;    /* give every phase a history prior */
	FILE *timeline;           /* running tasks per job over time; or NULL */
	FILE *log;        /* decisions (admission, cancellations); or NULL */
	bool no_feedback; /* realtime, rtmr: Alg. V-VI off (--no-feedback) */
	/* stop with ETIME once dl_monotonic_s() passes this (a caller's
	 * time budget, e.g. a portfolio round); 0 = no limit */
	double stop_at;
	/* the plan the first cycle follows, as every later one follows its
	 * predecessor (a portfolio round: the live plan's memory, round.h);
	 * NULL: none.  The caller's, kept until the run ends. */
	const struct dl_plan *prev;
};

struct sim_stats {
	uint64_t events;
	uint64_t plans;
	uint64_t plan_us;
	uint64_t dispatches;
	uint64_t task_starts;
	uint64_t reservations; /* backfill reservations worked out */
	double wall_s;
	double end_time;
	bool stalled;
};

struct sim_event;
struct shadow_end;

struct sim_engine {
	const struct sim_cluster_spec *cs;
	const struct sim_workload_spec *ws;
	const struct sim_policy *policy;
	void *pstate;
	struct dl_config cfg;
	struct sim_options opt;
	double now;
	/* cluster */
	struct sim_node *nodes;
	uint32_t nnodes;
	struct dl_cluster view;       /* what the policies see */
	struct dl_forecast *forecast; /* f(t) for the reverse policy, or NULL */
	double *fc_load;
	uint32_t fc_cap;
	uint32_t part_map, part_reduce; /* typed mode: view partitions */
	uint64_t total_units;           /* slots (typed) or CPUs */
	uint32_t rr_cursor;
	uint32_t first_free;   /* first-fit scan start */
	uint64_t *free_bits;   /* nodes with a free unit (first_free's index) */
	int64_t free_units[2]; /* typed: free map/reduce slots; cpu: [0] */
	/* jobs */
	struct sim_job *jobs;
	uint32_t njobs;
	uint32_t *active; /* indexes of active jobs */
	uint32_t nactive;
	struct dl_job **in_jobs; /* policy input buffer */
	/* dispatch order: arrays as job * 2 + phase -- urgent ones by rank,
	 * then Slurm's own (not managed, jobs without deadlines) by
	 * submission, then idle ones by rank */
	uint32_t *order;
	uint32_t norder;
	uint32_t slurm_end; /* where Slurm's own arrays end in order */
	bool plan_has_place;
	struct dl_plan *plan; /* the current plan, kept for select's rule */
	struct dl_place_index pidx; /* its placement index */
	/* events */
	struct sim_event *ev;
	uint32_t nev, capev;
	uint64_t seq;
	bool replan_pending;
	double dispatch_at;       /* pending dispatch time, or +inf */
	double last_pass;         /* Slurm's last background pass, or -inf */
	uint32_t progress_events; /* arrivals, task ends, ext changes queued */
	bool ticking;
	struct sim_stats stats;
	uint32_t *dirty;
	uint32_t ndirty;
	bool use_estimator;        /* SIM_LENGTHS_ESTIMATOR with opt.est set */
	struct shadow_end *shadow; /* backfill's scratch: a node's task ends */
	uint32_t capshadow;
};

/* Build a run: draws task lengths, resolves deadlines (deadline_factor x
 * the isolated completion time) and the policy's state.  The specs must
 * outlive the engine.  cfg is copied.  Returns NULL with a message. */
struct sim_engine *sim_engine_new(const struct sim_cluster_spec *cs,
				  const struct sim_workload_spec *ws,
				  const struct sim_policy *policy,
				  const struct dl_config *cfg,
				  const struct sim_options *opt, char *err,
				  size_t errlen);
/* Run to the end (every job finished, rejected or the horizon).  0, ETIME
 * when opt.stop_at passed first, or an errno with err set when the policy
 * failed. */
int sim_engine_run(struct sim_engine *eng, char *err, size_t errlen);
void sim_engine_free(struct sim_engine *eng);

/* The time a task of job j, phase p, index i holds its slot on node n:
 * its drawn length divided by the node's speed, times the remote-read
 * factor when the task reads remotely there, divided by the accelerator
 * speedup for a map task on an accelerated node, plus the task's overhead
 * (the cluster's task_overhead, or the task's own draw from
 * task_overhead_dist: Slurm's launch and completion, inside the time limit
 * and in the length the policies observe, as in Slurm's records). */
double sim_task_length(const struct sim_engine *eng, uint32_t j, int p,
		       uint32_t i, uint32_t n);

/* Resource units one task of phase p of job j holds (slots or CPUs). */
double sim_task_units(const struct sim_engine *eng, uint32_t j, int p);

/* Write the run's draws into w, the workload the engine was built from:
 * every task's drawn length, every time limit and every deadline resolved
 * (deadline_factor x the isolated time becomes an absolute deadline).  A
 * run of the result is the same under any seed, and a replay on a real
 * cluster can submit exactly it.  0, EINVAL when w is not the engine's
 * workload, or ENOMEM. */
int sim_engine_fix_workload(const struct sim_engine *eng,
			    struct sim_workload_spec *w);

/* Whether job j met its deadline (finished all tasks by it). */
bool sim_job_met(const struct sim_job *job);

#endif
