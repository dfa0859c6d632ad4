/*
 * model.h - the scheduling model of libdeadline: MapReduce jobs made of a map
 * phase and an optional reduce phase, their tasks, and the cluster's nodes
 * and partitions.
 *
 * Plain C11, no Slurm headers: the plugins translate Slurm records into this
 * model and the simulator builds it from traces.  All times are seconds since
 * the epoch (or since the start of a simulation) as doubles.
 */
#ifndef DL_MODEL_H
#define DL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/model/partset.h"

enum dl_phase_kind {
	DL_MAP = 0,
	DL_REDUCE = 1,
};
#define DL_PHASES 2

/* Hardware-affinity pools (doc/design.md §3): nodes carrying the configured
 * accelerator feature form the accelerated pool. */
enum dl_pool {
	DL_POOL_REGULAR = 0,
	DL_POOL_ACCEL = 1,
};
#define DL_POOLS 2

#define DL_NO_NODE   UINT32_MAX
#define DL_MAX_TASKS 100000000u /* sanity bound on tasks per phase */

/* Resource demand of one task (RAS job-slot profile, doc/design.md §4).  cpu is
 * in CPUs, mem in MB, io in the unit of the nodes' io capacity (MB/s). */
struct dl_demand {
	double cpu;
	double mem;
	double io;
};

struct dl_profile {
	struct dl_demand map;
	struct dl_demand
		shuffle; /* a reducer while maps still run, per map placed */
	struct dl_demand reduce; /* a reducer after the map phase */
	bool given;              /* from the user's --task-profile hint */
};

struct dl_running_task {
	double start;
	uint32_t node; /* index into the cluster's nodes, or DL_NO_NODE */
	uint8_t pool;
};

struct dl_phase {
	uint32_t tasks;     /* tasks in the phase; 0 = no such phase */
	uint32_t completed; /* finished successfully: the set C */
	uint32_t failed;    /* finished unsuccessfully; not used for mu */
	/* completed-task statistics, per pool (for hardware affinity) */
	uint32_t done_pool[DL_POOLS];
	double sum_len[DL_POOLS];
	double sumsq_len[DL_POOLS];
	/* the running tasks: the set R */
	struct dl_running_task *running;
	uint32_t nrunning;
	uint32_t cap_running;
	/* what one task asks for */
	uint32_t cpus_per_task;
	uint64_t mem_per_task; /* MB */
	double time_limit;     /* seconds; 0 = none */
	double hard_deadline;  /* this array's own Slurm --deadline; 0 = none */
	/* tasks not started that cannot start until someone releases
	 * them: a user's or an admin's hold (Slurm priority 0), at most
	 * the pending tasks.  The dispatcher leaves a job with held tasks
	 * out of the plan (policy/policy.c) */
	uint32_t held;
	/* tasks not started that Slurm starts no earlier than
	 * deferred_until, their begin time (sbatch --begin, or the delay it
	 * gives a requeued batch job); at most the pending tasks.  Triage
	 * and edf plan them from then (policy/lookahead.h) */
	uint32_t deferred;
	double deferred_until;
	/* the user's own limit on running tasks (--array=...%N, or a later
	 * scontrol update ArrayTaskThrottle=N); 0 = none.  A hard limit:
	 * no plan runs more (policy/width_limit.h) */
	uint32_t max_running;
	/* prior task length from history (the estimator), used until the
	 * phase has its own completions; 0 = none */
	double prior_mean;
	double prior_p90;
	char prior_source[24];
	/* the prior is the phase's true mean (the simulator's perfect-
	 * knowledge runs): own completions do not replace it */
	bool prior_exact;
};

struct dl_job {
	uint64_t id;        /* the map array's job id (or the only array's) */
	uint64_t reduce_id; /* the reduce array's job id; 0 = map-only job */
	char *user;
	char *name;
	char *account;
	uint32_t partition; /* index into the cluster's partitions */
	double submit;
	double soft_deadline; /* completion goal (SPANK --soft-deadline); 0 =
				 none */
	double reduce_cost;   /* reduce/map task cost ratio hint; 0 = default */
	uint32_t max_delays;  /* data-affinity deferrals allowed per task */
	bool reduce_overlap;  /* reduce tasks may run while maps still do (no
				 afterok dependency): they shuffle meanwhile */
	struct dl_profile profile;
	struct dl_phase phase[DL_PHASES];
};

struct dl_node {
	char *name;
	uint32_t cpus;
	uint64_t mem; /* MB */
	double io;    /* I/O capacity (deadline.conf); 0 = not modelled */
	uint32_t cpus_other; /* CPUs held by jobs the plan does not manage */
	uint64_t mem_other;  /* MB held by jobs the plan does not manage */
	struct dl_partset partitions; /* the partitions it is in */
	uint8_t pool;
	bool up; /* schedulable (not down, drained or failing) */
};

/* Capacity that work the plan does not manage holds on a node (already
 * counted in the node's cpus_other/mem_other), and when Slurm expects it
 * back: the job's end time, start + time limit. */
struct dl_held {
	uint32_t node;
	uint32_t cpus;
	uint64_t mem; /* MB */
	double end;
};

struct dl_cluster {
	struct dl_node *nodes;
	uint32_t nnodes;
	struct dl_held *held; /* may be empty: ends unknown */
	uint32_t nheld, capheld;
	char **partitions; /* names; a job's partition indexes them */
	uint32_t npartitions, cappartitions;
	/* the partitions where a job without a deadline waits to start: it
	 * takes whatever CPUs the plan leaves idle there, so capacity kept
	 * free (triage's reserve, policy/reserve.h) goes to it */
	struct dl_partset other_waiting;
	/* the simulator's Hadoop 1 model (typed slots): node 2n holds node
	 * n's map slots (partition "map"), node 2n+1 its reduce slots
	 * ("reduce"); a portfolio round rebuilds the typed cluster from it */
	bool typed_slots;
};

/* ---- jobs ---- */

/* A new job with no phases; strings are copied (NULL allowed).  Returns NULL
 * when out of memory. */
struct dl_job *dl_job_new(uint64_t id, const char *user, const char *name,
			  const char *account);
void dl_job_free(struct dl_job *job);

/* Whether an array that waits (afterok) on a whole other array becomes the
 * reduce phase of that array's MapReduce job: only when both belong to the
 * same user.  Anyone may depend on anyone's job in Slurm; a dependency must
 * never let one user move another's goal or plan (issue 12, D4). */
bool dl_mr_pair_allowed(uint32_t map_uid, uint32_t reduce_uid);
/* Deep copy (running tasks and strings included); NULL on failure. */
struct dl_job *dl_job_clone(const struct dl_job *job);

/* Declare a phase: tasks, what one task asks for.  Errors: EINVAL (NULL job,
 * bad phase, tasks > DL_MAX_TASKS). */
int dl_phase_init(struct dl_job *job, enum dl_phase_kind kind, uint32_t tasks,
		  uint32_t cpus_per_task, uint64_t mem_per_task);

/* Record a running task.  EINVAL for a NaN/negative start, ERANGE when the
 * phase would hold more running tasks than it has tasks, ENOMEM. */
int dl_phase_add_running(struct dl_phase *ph, double start, uint32_t node,
			 enum dl_pool pool);

/* Record a completed task of the given length (seconds, >= 0, finite). */
int dl_phase_add_completed(struct dl_phase *ph, double length,
			   enum dl_pool pool);

/* Record a failed task (counts as finished, not used for estimates). */
int dl_phase_add_failed(struct dl_phase *ph);

/* Tasks not yet started: the set U (never negative). */
uint32_t dl_phase_pending(const struct dl_phase *ph);
/* The most tasks the phase can run at once: those left (pending and
 * running), at most its own limit (max_running) when it has one. */
uint32_t dl_phase_width(const struct dl_phase *ph);
/* Running tasks predicted to have ended by time t when a task takes mu
 * seconds (0 when mu is not a positive length). */
uint32_t dl_phase_ending_by(const struct dl_phase *ph, double mu, double t);
/* Tasks completed on all pools. */
uint32_t dl_phase_done(const struct dl_phase *ph);
bool dl_phase_finished(const struct dl_phase *ph);

/* The phase the job is in: the map phase until every map task has finished,
 * then the reduce phase.  Returns -1 when the job has nothing left to run. */
int dl_job_active_phase(const struct dl_job *job);

/* Its unstarted tasks a user or an admin holds, both phases (dl_phase.held):
 * a job with any is in no plan (policy/policy.c). */
uint32_t dl_job_held(const struct dl_job *job);

/* A job that has not begun: none of its tasks has started (none runs,
 * none finished) and every unstarted task that could start first -- its
 * active phase's, and with reduce_overlap the reduces' too -- is deferred
 * past now (dl_phase.deferred).  Returns its begin time, the earliest of
 * those, or 0 when it has begun.  Such a job is in no plan until then
 * (policy/policy.c). */
double dl_job_begin_ahead(const struct dl_job *job, double now);

/* The completion goal of the whole job: the soft deadline when given,
 * otherwise the hard deadline of its last phase; 0 = none. */
double dl_job_deadline(const struct dl_job *job);

/* Reject impossible job descriptions (counts inconsistent, negative or NaN
 * times, ...).  Returns 0 or EINVAL with a message in err. */
int dl_job_validate(const struct dl_job *job, const struct dl_cluster *cl,
		    char *err, size_t errlen);

/* ---- cluster ---- */

int dl_cluster_init(struct dl_cluster *cl, uint32_t nnodes);
/* Record capacity held on node until end.  EINVAL (bad node, NaN end),
 * ENOMEM. */
int dl_cluster_add_held(struct dl_cluster *cl, uint32_t node, uint32_t cpus,
			uint64_t mem, double end);
void dl_cluster_free(struct dl_cluster *cl);
/* A view of src that may change what nodes hold (cpus_other, mem_other,
 * held) and nothing else: its own nodes and held tables, names and
 * partition sets shared with src, which must outlive it.  Free it with
 * dl_cluster_view_free, never dl_cluster_free.  EINVAL, ENOMEM. */
int dl_cluster_view(struct dl_cluster *view, const struct dl_cluster *src);
void dl_cluster_view_free(struct dl_cluster *view);
/* The running tasks of a job the plan leaves out (one a user or an admin
 * holds) hold their CPUs and memory on cl, a view, as the tasks of work the
 * plan does not manage do: counted in cpus_other/mem_other, back at start +
 * time limit (no entry without a limit: held for good).  Tasks on no node
 * of cl hold nothing.  EINVAL, ENOMEM. */
int dl_cluster_hold_running(struct dl_cluster *cl, const struct dl_job *job);
/* Add a partition name (any number of them); returns its index, or -1 for
 * NULL or when out of memory. */
int dl_cluster_add_partition(struct dl_cluster *cl, const char *name);
int dl_cluster_find_partition(const struct dl_cluster *cl, const char *name);
/* Describe a node: up, in no partition yet (dl_partset_add on its
 * partitions), nothing held by others.  EINVAL, ENOMEM. */
int dl_node_set(struct dl_node *node, const char *name, uint32_t cpus,
		uint64_t mem, uint8_t pool);

#endif
