/*
 * realtime.h - the realtime policy's admitted set: admission control with
 * slot-availability vectors (RTMR's Alg. I-III), the feedback controller
 * (Alg. V-VI), and a cache of worst-case task lengths.  doc/design.md
 * states the algorithms and their guarantee, doc/realtime.md how they meet
 * Slurm; realtime/chain.c names the invariant every function here keeps.
 *
 * Pools: each admitted job runs in one pool (a Slurm partition, or the
 * simulated cluster).  A pool is either shared (Slurm: maps and reduces run
 * on the same CPUs; one vector per job) or split (the paper's Hadoop model:
 * l map slots and q reduce slots; vectors T^m and T^r).  A unit is a CPU in
 * Slurm and a slot in the paper's model; a task takes `cpus` units.
 *
 * Queue order: by earliest deadline when admitted, and never changed after;
 * a new job is never placed ahead of a job that has started (the
 * dispatcher does not pre-empt).  The dispatcher serves jobs in queue
 * order.  Each job keeps the vectors of unit availability after it and all
 * jobs before it.
 *
 * Admission (ours) is monotone in the deadline: the job is tried at its EDF
 * position and, if that fails, at earlier positions among the jobs that have
 * not started (it then runs ahead of jobs with earlier deadlines, which the
 * successor check has verified still meet theirs).  A looser deadline can
 * use every position a tighter one could, so it is never rejected where the
 * tighter one was admitted; pure EDF list scheduling lacks that property
 * (see doc/realtime.md).  DL_RT_PAPER_ORDER restricts admission to the EDF
 * position, as RTMR was published.
 *
 * Thread safety: every function locks the state's mutex.  The job_submit
 * plugin runs in submit RPC threads under slurmctld's job *read* lock
 * (Slurm 22.05's validate_job_create_req; with
 * SlurmctldParameters=enable_rpc_queue the queue thread holds the job
 * write lock instead), so several submissions may judge at once; the
 * mutex serialises them with each other and with the sched plugin's plan
 * thread.  No function here takes any other lock, does I/O or blocks, so
 * the lock order slurmctld -> state is safe.
 */
#ifndef DL_REALTIME_H
#define DL_REALTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/config/config.h"
#include "common/model/model.h"
#include "common/realtime/vector.h"
#include "common/realtime/worst.h"

struct dl_rt_state;

/* Admission variants. */
#define DL_RT_PAPER_ORDER 0x1u /* EDF position only (RTMR as published) */
#define DL_RT_EXACT       0x2u /* recompute every later job (no padding) */
#define DL_RT_NO_FEEDBACK                                                      \
	0x4u /* Alg. V-VI off: vectors never rebuilt from                      \
		actual finishes (to measure what the                           \
		feedback controller is worth) */

/* Slurm assigns a job id only after job_submit plugins have run, so
 * job_submit/deadline admits under a ticket that it stores in the job's
 * control environment (SPANK_DEADLINE_RT_TICKET=<n>); the sched plugin
 * binds the ticket to the job id when it first sees the job. */
#define DL_ENV_RT_TICKET "DEADLINE_RT_TICKET"
/* set with the ticket when job_submit/deadline created the job held (the
 * sched plugin releases such a hold when the plan lets the job start; a
 * user's own -H has no such mark) */
#define DL_ENV_RT_HOLD "DEADLINE_RT_HOLD"

/* A job asking for admission.  Strings are copied.  id or ticket (or
 * both) must be set. */
struct dl_rt_request {
	uint64_t id;        /* the map (or only) array; 0 = not known yet */
	uint64_t ticket;    /* provisional key until bound to an id */
	uint64_t reduce_id; /* the reduce array; 0 = none yet */
	const char *user;
	const char *name;
	const char *pool; /* partition name */
	double arrival;
	double deadline;                /* absolute completion deadline */
	uint32_t tasks[DL_PHASES];      /* M, R */
	uint32_t cpus[DL_PHASES];       /* units per task (0 taken as 1) */
	double wc[DL_PHASES];           /* worst-case task length (s) */
	double latest_start[DL_PHASES]; /* last start Slurm allows; 0 = none */
	double typical_map;             /* for the feedback threshold; 0 =
					   wc[DL_MAP] */
};

struct dl_rt_verdict {
	bool admitted;
	double finish;   /* worst-case finish where it was (or would be)
			    placed; NAN when it can never be placed */
	double earliest; /* earliest guaranteed finish (ahead of every job
			    that has not started) */
	double deadline;
	uint64_t blocker;    /* a later job that would miss; 0 = none */
	bool blocker_ticket; /* blocker is the admission ticket of a job
				Slurm has not given an id yet (the caller
				may find the job and ask again) */
	double blocker_finish, blocker_deadline;
	double admissible_deadline; /* a deadline that would be admitted now
				       (at the end of the queue); NAN if no
				       deadline helps */
	uint32_t position;          /* queue position (0-based) if admitted */
	bool promoted;              /* placed ahead of its EDF position */
	uint32_t units[DL_PHASES];  /* pool units per phase */
	uint32_t slots[DL_PHASES];  /* units / task cpus */
	char msg[320];              /* one line for the user */
};

/* Configuration the state takes from deadline.conf. */
struct dl_rt_params {
	double quantile;       /* RealtimeQuantile */
	double margin;         /* RealtimeMargin */
	double overhead;       /* RealtimeTaskOverhead (s) */
	double feedback_delta; /* FeedbackThreshold; 0 = the typical map */
	double share;          /* RealtimeShare */
	uint32_t flags;  /* DL_RT_PAPER_ORDER, DL_RT_EXACT, DL_RT_NO_FEEDBACK */
	uint32_t budget; /* max job recomputations per admission;
			    0 = 4096 + 4 x jobs */
	double ticket_ttl; /* a ticket not bound by then is dropped (s) */
};

struct dl_rt_state *dl_rt_state_new(void);
void dl_rt_state_free(struct dl_rt_state *st);

/* Take the realtime options of cfg (quantile, margin, overhead, feedback
 * threshold, share).  EINVAL on NULL. */
int dl_rt_configure(struct dl_rt_state *st, const struct dl_config *cfg);
int dl_rt_set_params(struct dl_rt_state *st, const struct dl_rt_params *p);
int dl_rt_get_params(struct dl_rt_state *st, struct dl_rt_params *p);

/* Declare a pool or change its size.  reduce_units == 0: shared pool of
 * map_units units; otherwise split (map_units map slots, reduce_units
 * reduce slots).  A size change of a pool with jobs marks it for a resync
 * (the sched plugin's next plan rebuilds its vectors).  EINVAL, ENOMEM. */
int dl_rt_set_pool(struct dl_rt_state *st, const char *name, uint32_t map_units,
		   uint32_t reduce_units, double now);
/* Units of a pool (map, reduce; equal for a shared pool); ENOENT. */
int dl_rt_pool_units(struct dl_rt_state *st, const char *name,
		     uint32_t units[DL_PHASES], bool *split);

/* Admission control (Alg. I).  With commit false it only judges (the
 * state is unchanged).  Returns 0 with the verdict filled (admitted or
 * not), EINVAL for a malformed request (message in v->msg), EEXIST for a
 * job id already admitted, ENOENT for an unknown pool, ENOMEM. */
int dl_rt_admit(struct dl_rt_state *st, const struct dl_rt_request *req,
		double now, bool commit, struct dl_rt_verdict *v);

/* The reduce array of an admitted map job arrives (by id, or by the ticket
 * it was given at submission): when it fits what was admitted (tasks, CPUs
 * and worst case not above the announcement), it is attached; otherwise
 * the job is judged again with the new reduce phase (and keeps its old
 * admission when that fails: ERANGE with the verdict saying why).  0,
 * ENOENT (map job not admitted), EEXIST (it has another reduce array),
 * EINVAL, ENOMEM. */
int dl_rt_attach_reduce(struct dl_rt_state *st, uint64_t map_id,
			uint64_t reduce_id, uint64_t reduce_ticket,
			uint32_t reduces, uint32_t cpus, double wc,
			double latest_start, double now,
			struct dl_rt_verdict *v);

/* A new ticket (never 0, unique in this state, also across restarts of a
 * restored state once dl_rt_ticket_floor has raised it past every ticket
 * an earlier process may have handed out after its last save). */
uint64_t dl_rt_new_ticket(struct dl_rt_state *st);
/* Tickets from now on are above floor.  The saved set is older than the
 * tickets job_submit gave since the last plan cycle: a restored counter
 * would hand them out again, and the next job's ticket would then bind to
 * the old job's admission, leaving the new job held (issue 12, D4). */
void dl_rt_ticket_floor(struct dl_rt_state *st, uint64_t floor);
/* A job held at submit whose ticket the set lost (slurmctld died after
 * job_submit admitted it and before the set was saved) and that the plan
 * has admitted again by its id takes its ticket back, so that its submit
 * hold is known as ours and released (issue 12, D2).  The caller vouches
 * that the hold is a user hold (an administrator's hold never is).  0,
 * ENOENT (no such job, or it has a ticket for that array), EEXIST (the
 * ticket is another job's), EINVAL. */
int dl_rt_adopt_ticket(struct dl_rt_state *st, uint64_t ticket,
		       uint64_t job_id);
/* The job admitted (map or reduce) under this ticket got its Slurm id.
 * 0 when bound (or already bound to this id), ENOENT. */
int dl_rt_bind(struct dl_rt_state *st, uint64_t ticket, uint64_t job_id);
/* Parse a ticket from a job control environment ("NAME=value" entries,
 * with or without the SPANK_ prefix); 0 when there is none. */
uint64_t dl_rt_ticket_from_env(char *const *env, uint32_t count);
/* Whether the environment has DL_ENV_RT_HOLD=1 (with or without the
 * prefix). */
bool dl_rt_hold_from_env(char *const *env, uint32_t count);
/* The index of that entry (value "1"), or -1.  The sched plugin sets it to
 * DL_ENV_RT_HOLD=0 in the same job write lock in which it releases the
 * hold, so that "job_submit's hold, not yet released" is a fact saved with
 * the job itself: a slurmctld killed between the two finds both undone
 * and releases again (issue 12, D2). */
int dl_rt_hold_env_index(char *const *env, uint32_t count);
/* Whether job_id's hold is job_submit/deadline's submission hold, still to
 * be released: the mark is 1 and the job's ticket is the one the admitted
 * set holds for it.  A mark a client put in the environment itself (no
 * job_submit plugin on its way) comes without that ticket, so it cannot
 * make the plan release an administrator's hold. */
bool dl_rt_submit_hold_ours(struct dl_rt_state *st, uint64_t job_id,
			    char *const *env, uint32_t count);

/* A job left (finished or cancelled).  One that never started is
 * forgotten; one that started stays as an anchor in the queue (finished,
 * its vectors are the base of the jobs behind it, as in the paper where
 * finished jobs stay in the queue) until every job ahead of it has left,
 * when it folds into the pool's head vector.  0 or ENOENT. */
int dl_rt_remove(struct dl_rt_state *st, uint64_t id);

/* The dispatcher started (or allowed to start) one of the job's tasks: no
 * new job may be placed ahead of it any more.  0 or ENOENT. */
int dl_rt_mark_started(struct dl_rt_state *st, uint64_t id);
/* The same for several jobs at once (ids not admitted are skipped). */
int dl_rt_mark_started_many(struct dl_rt_state *st, const uint64_t *ids,
			    uint32_t n);

/* Feedback controller (Alg. V) for a job that finished, with the actual
 * finish times of its tasks: when |e - ê| > Δ or it missed its deadline,
 * its vectors become SATU's (Alg. VI) and every later job's vectors are
 * recomputed.  Δ is the configured threshold or the job's typical map
 * length.  *updated says whether it did.  The job stays in the queue (its
 * vectors anchor the later jobs) until dl_rt_remove.  0, ENOENT, EINVAL,
 * ENOMEM. */
int dl_rt_feedback(struct dl_rt_state *st, uint64_t id, const double *map_ends,
		   uint32_t nmap, const double *reduce_ends, uint32_t nreduce,
		   double now, bool *updated);

/* ---- what the state holds (copies; for plans, tools and tests) ---- */

struct dl_rt_job_info {
	uint64_t id, reduce_id;
	uint64_t ticket, reduce_ticket;
	char user[32], name[64], pool[64];
	double arrival, deadline, key;
	uint32_t tasks[DL_PHASES], cpus[DL_PHASES];
	double wc[DL_PHASES], latest_start[DL_PHASES];
	double finish;     /* worst-case finish (from its vectors) */
	double map_finish; /* worst-case end of its map phase */
	bool started;
	bool finished; /* left; kept as an anchor for the jobs behind it */
	bool held;     /* infeasible: held by the plan */
	char hold_why[160];
	uint32_t position; /* in its pool's queue */
};

uint32_t dl_rt_count(struct dl_rt_state *st);
/* Info of the job with this map or reduce id; ENOENT. */
int dl_rt_job_get(struct dl_rt_state *st, uint64_t id,
		  struct dl_rt_job_info *out);
/* The i-th job over all pools (pool by pool, queue order); ENOENT. */
int dl_rt_job_at(struct dl_rt_state *st, uint32_t i,
		 struct dl_rt_job_info *out);
/* Copies of a job's vectors (vec[1] equals vec[0] in a shared pool). */
int dl_rt_job_vectors(struct dl_rt_state *st, uint64_t id,
		      struct dl_rt_vec vec[DL_PHASES]);

/* ---- worst-case lengths per (user, job name, phase) ---- */

/* Store the estimator's answer (copied; at most DL_RT_WC_MAX keys, the
 * least recently updated is dropped).  0, EINVAL, ENOMEM. */
#define DL_RT_WC_MAX 20000
int dl_rt_wc_store(struct dl_rt_state *st, const char *user, const char *name,
		   int phase, const struct dl_rt_quantiles *q, double now);
/* The stored answer; ENOENT. */
int dl_rt_wc_lookup(struct dl_rt_state *st, const char *user, const char *name,
		    int phase, struct dl_rt_quantiles *q);
/* Worst-case length with the state's quantile, margin and overhead, from
 * the stored answer or the time limit (realtime/worst.h).  0 or EINVAL. */
int dl_rt_wc_get(struct dl_rt_state *st, const char *user, const char *name,
		 int phase, double time_limit, struct dl_rt_worst *out);

/* ---- resync with the live state (the sched plugin's plan cycle) ---- */

struct dl_rt_sync_stats {
	uint32_t resynced_pools;
	uint32_t removed;  /* admitted jobs no longer present */
	uint32_t finished; /* finished this cycle */
	uint32_t feedback; /* of which beyond Δ or late: vectors rebuilt */
	uint32_t held;     /* jobs newly found infeasible */
	uint32_t released; /* held jobs feasible again */
	uint32_t late_admitted; /* present jobs admitted during the sync */
};

/* Bring the admitted set in line with the jobs of a plan input: admitted
 * jobs absent from `jobs` are removed; jobs that finished go through the
 * feedback test; running tasks longer than their worst case, pools whose
 * size changed and inconsistent start orders trigger a rebuild of the
 * pool's vectors from the live state (running tasks busy until start +
 * worst case; pending tasks list-scheduled in queue order).  A job that
 * cannot meet its deadline in the rebuilt chain is held (taken out of the
 * chain, reason in hold_why) and logged; a held job that fits again is
 * released.  Returns 0, EINVAL, ENOMEM. */
int dl_rt_sync(struct dl_rt_state *st, struct dl_job *const *jobs,
	       uint32_t njobs, const struct dl_cluster *cl, double now,
	       struct dl_rt_sync_stats *stats);

/* ---- translating Slurm's view ---- */

/* The last start Slurm allows a task of an array with a hard --deadline:
 * it cancels what has not started once now + time limit (at least one
 * minute) passes the deadline.  0 when there is no hard deadline. */
double dl_rt_latest_start(double hard_deadline, double time_limit);

/* Units realtime admission may promise in a partition: the CPUs of its up
 * nodes times RealtimeShare (rounded down). */
uint32_t dl_rt_partition_units(const struct dl_cluster *cl,
			       const char *partition, double share);
uint32_t dl_rt_share_units(double cpus, double share);

/* A request for a live job (its tasks not yet done, worst cases from the
 * cache and its time limits), arriving now.  Strings point into job and
 * pool.  EINVAL when the job has no deadline or no tasks left. */
int dl_rt_request_from_job(struct dl_rt_state *st, const struct dl_job *job,
			   const char *pool, double now,
			   struct dl_rt_request *req);

/* ---- persistence ---- */

/* The file in StateSaveLocation that holds the admitted set. */
#define DL_RT_STATE_FILE "deadline_realtime.json"

/* The admitted set (params, pools, jobs with their vectors, worst-case
 * cache) as JSON text (caller frees); NULL when out of memory. */
char *dl_rt_state_to_json(struct dl_rt_state *st);
/* Replace the state's contents with a saved set.  On any error the state is
 * unchanged and err says what is wrong.  Restored pools are marked for a
 * resync. */
int dl_rt_state_from_json(struct dl_rt_state *st, const char *text, char *err,
			  size_t errlen);
/* Atomic file versions (atomic_file.h). */
int dl_rt_state_save(struct dl_rt_state *st, const char *path);
int dl_rt_state_load(struct dl_rt_state *st, const char *path, char *err,
		     size_t errlen);

/* ---- the shared state of one process (slurmctld) ---- */

/* The process-wide state the plugins share (created on first use); NULL
 * when out of memory. */
struct dl_rt_state *dl_rt_shared(void);
/* Restore the process-wide state from its file, once per process (the
 * first plugin to start does it; later calls return what the first one
 * got), and raise its tickets above the wall clock's microseconds
 * (dl_rt_ticket_floor), whatever the file held.  0, ENOENT (no file: an
 * empty set), or another errno with err saying why (the set stays
 * empty). */
int dl_rt_shared_load(const char *path, char *err, size_t errlen);

#endif
