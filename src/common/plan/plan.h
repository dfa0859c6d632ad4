/*
 * plan.h - the output of one plan cycle: per deadline job its allocation,
 * rank, predicted finish, need and a one-line explanation, plus the cycle's
 * statistics.  A published plan is immutable and reference counted: the
 * sched plugin publishes a new one each cycle; select, job_submit and the
 * tools read the current one.
 */
#ifndef DL_PLAN_H
#define DL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config/config.h"
#include "common/model/model.h"

/* Priority classes of the adaptive policy, most urgent first. */
enum dl_class {
	DL_CLASS_LATE = 0,     /* the phase goal has passed */
	DL_CLASS_NODATA = 1,   /* no task length known yet */
	DL_CLASS_NEED = 2,     /* ranked by s_req */
	DL_CLASS_MET = 3,      /* need met: only leftover capacity */
	DL_CLASS_HOPELESS = 4, /* triage: cannot meet its deadline */
	DL_CLASS_UNMANAGED = 5,
};

enum dl_verdict {
	DL_VERDICT_ON_TRACK = 0, /* predicted to meet its deadline */
	DL_VERDICT_AT_RISK,      /* needs more than it can get now */
	DL_VERDICT_LATE,         /* goal passed or cannot be met */
	DL_VERDICT_NO_DATA,      /* no estimate yet */
	DL_VERDICT_CAPPED,       /* over MaxDeadlineShare: no deadline boost */
	DL_VERDICT_HELD,         /* held by the policy */
	DL_VERDICT_REJECTED,     /* refused by admission control */
	DL_VERDICT_DONE,
	DL_VERDICT_HOPELESS, /* triage: cannot meet it; runs after others */
	DL_VERDICT_ON_HOLD,  /* tasks held by a user or an admin: not planned */
	DL_VERDICT_WAITING,  /* its begin time is ahead: not planned yet */
	DL_VERDICT_COUNT
};

struct dl_plan_job {
	uint64_t job_id;    /* map (or only) array */
	uint64_t reduce_id; /* 0 = map-only */
	char user[32];
	char account[32];
	char name[64];
	int phase; /* DL_MAP, DL_REDUCE, -1 done */
	enum dl_class cls;
	enum dl_verdict verdict;
	uint32_t rank;  /* 1 = most urgent; 0 = unranked */
	uint32_t alloc; /* target concurrent tasks, active phase */
	uint32_t alloc_pool[DL_POOLS]; /* of which on each pool */
	uint32_t alloc_for_need;       /* the part of alloc that serves need */
	bool urgent;                   /* has unmet need: rank above others */
	bool managed;                  /* false: leave Slurm's own settings */
	bool hold;                     /* policy holds the job */
	double need; /* concurrency that meets the phase goal */
	double sreq; /* Eq. 1, beyond running tasks, at plan time */
	double mu;   /* task length used (s) */
	double mu_sd;
	char mu_source[24];
	double deadline; /* job goal */
	double goal;     /* active phase goal */
	double predicted_finish;
	double finish_err;
	uint32_t tasks[DL_PHASES];
	uint32_t done[DL_PHASES];
	uint32_t running[DL_PHASES];
	uint32_t pending[DL_PHASES];
	/* running tasks of the active phase predicted to end before the next
	 * plan cycle (plan/decide.c) */
	uint32_t ending_soon;
	double hopeless_since; /* triage: first plan that gave up on it; 0 */
	uint64_t ahead_of;     /* triage: hopeless, run in the slack just
				  before this feasible job; 0 = none */
	double promise;        /* triage, HopelessPromise: the finish promised
				  when first given up; 0 = none */
	bool given_up_late;    /* triage (LateAhead=no): given up as late at
				  its place, not for another job's sake */
	char hold_reason[48];  /* Slurm Reason text (no spaces) */
	char explain[200];
	/* placement policies (ras, reverse); NAN / zero otherwise */
	double utility;                     /* u_j of the placement */
	double sfit;                        /* reverse: s_fit (concurrency) */
	struct dl_demand demand[DL_PHASES]; /* one task as placed: map, and
					       a reducer (shuffle or reduce
					       profile) */
};

struct dl_plan_stats {
	uint32_t jobs;
	uint32_t per_class[DL_CLASS_UNMANAGED + 1];
	uint32_t per_verdict[DL_VERDICT_COUNT];
	double capacity_cpus; /* CPUs the plan could hand out */
	uint64_t grants;      /* slots handed out */
	uint64_t compute_us;  /* plan computation */
	uint64_t snapshot_us; /* set by the caller: lock hold for snapshot */
	uint64_t apply_us;    /* set by the caller: lock hold for apply */
	char estimator[48];   /* "ok", "down (fallback to job mu)", ... */
};

/* Per-node placement (ras/reverse): P[j][n] as sparse rows. */
struct dl_place {
	uint32_t job;  /* index into plan->jobs */
	uint32_t node; /* index into the cluster's nodes */
	uint32_t maps;
	uint32_t reduces;
};

/* A node of a placement plan: what select/deadline needs to enforce it
 * without looking anything up under slurmctld's locks. */
struct dl_plan_node {
	char name[64];
	double cap[3]; /* cpu, mem (MB), io for deadline tasks this cycle,
			  external load forecast taken off; INFINITY = not
			  constrained */
};

/* What Policy=portfolio did for a plan (the last round and the choice;
 * issue 16): the plan's policy is the one it chose. */
#define DL_PLAN_PF_MAX 8
struct dl_plan_portfolio {
	bool on; /* the plan was made under Policy=portfolio */
	uint32_t rounds, switches;
	double active_since; /* when the plan's policy became active */
	double last_round;   /* when the last round ran; 0 = none yet */
	double round_s;      /* its wall time */
	bool over_budget;
	bool switched; /* the last round switched */
	uint32_t n;
	struct dl_plan_pf_score {
		enum dl_policy policy;
		bool scored;
		double total, missed_pct, tardiness_min, bsld;
	} score[DL_PLAN_PF_MAX];
	char why[200]; /* the last round's decision, one line */
};

/* The slack of the jobs seen last (deadline minus the earliest finish
 * alone, when first judged) and the grain of their tasks (the longest
 * phase's mean task length then), newest over oldest: what triage's
 * blocking reserve learns which tasks are long from (policy/reserve.h).
 * Each plan carries it on to the next. */
#define DL_PLAN_SLACKS 64
struct dl_plan_slacks {
	double v[DL_PLAN_SLACKS];
	double grain[DL_PLAN_SLACKS];
	uint32_t n;    /* values held, <= DL_PLAN_SLACKS */
	uint32_t next; /* where the next one goes */
};

/* The rate deadline work arrives at: CPU-seconds per second, decayed
 * over an hour (policy/triage.c), when it was last updated, and when
 * learning it began (until a window has passed, the rate counts only part
 * of it).  Each plan carries them on to the next. */
struct dl_plan_arrivals {
	double rate;
	double at;
	double since;
};

struct dl_plan {
	double now;
	enum dl_policy policy;
	uint64_t cycle;
	uint32_t njobs;
	struct dl_plan_job *jobs; /* sorted by rank, unranked last */
	uint32_t nplace;
	struct dl_place *place;
	uint32_t nnodes; /* placement policies: the cluster's nodes, */
	struct dl_plan_node *nodes; /* indexed like dl_place.node */
	struct dl_plan_stats stats;
	struct dl_plan_portfolio portfolio;
	struct dl_plan_slacks slacks;
	struct dl_plan_arrivals arrivals;
	/* map and reduce ids -> index into jobs, as sorted (id, index)
	 * pairs: dl_plan_find in O(log n) once the plan is finalized */
	uint64_t *ids;
	uint32_t nids;
	int refs; /* managed by dl_plan_acquire/release */
};

struct dl_plan *dl_plan_new(uint32_t njobs);
void dl_plan_free(struct dl_plan *plan);
/* Entry for a job id (map or reduce array id); NULL if absent. */
const struct dl_plan_job *dl_plan_find(const struct dl_plan *plan,
				       uint64_t job_id);
/* Sort jobs by rank (unranked last, then by id), index their ids and
 * recount stats.  Entries must not change ids afterwards. */
void dl_plan_finalize(struct dl_plan *plan);

/* Copy into a plan's fixed-size field, truncated at a character boundary
 * and made valid UTF-8 (NULL = ""). */
void dl_plan_copy_str(char *dst, size_t len, const char *src);
/* A finished job's outcome (phase < 0): "missed" when a task did not
 * complete or the last ended after the deadline (predicted_finish holds
 * the last end), "met", or "done" without a deadline; NULL while it runs. */
const char *dl_plan_outcome(const struct dl_plan_job *j);
/* Its explanation, in the same words as the outcome (failed: tasks that
 * failed or were cancelled); a job that left Slurm with tasks never run
 * and no end time is "missed", never "met ... before its deadline". */
void dl_plan_explain_outcome(struct dl_plan_job *j, uint32_t failed);
/* The job's identity (ids, user, account, name) and its task counts per
 * phase, as every policy reports them. */
void dl_plan_job_describe(struct dl_plan_job *o, const struct dl_job *job);

/* The 90th percentile of the job's predicted finish (dl_finish_quantile
 * over predicted_finish and finish_err); NaN for a finished job or one
 * without a prediction. */
double dl_plan_finish_p90(const struct dl_plan_job *j);

/* Format the entry's explanation; a text longer than the field is cut at
 * the last space that fits, never inside a word, and ends in "...". */
void dl_plan_explain(struct dl_plan_job *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

const char *dl_verdict_name(enum dl_verdict v);
const char *dl_class_name(enum dl_class c);

/* ---- the current plan, shared inside one process ---- */

/* Make plan the current one (takes ownership); the previous one is freed
 * once its last reader releases it. */
void dl_plan_publish(struct dl_plan *plan);
/* The current plan with a reference held, or NULL.  Release it after use. */
struct dl_plan *dl_plan_acquire(void);
void dl_plan_release(struct dl_plan *plan);

#endif
