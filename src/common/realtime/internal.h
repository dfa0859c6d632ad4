/*
 * realtime/internal.h - the realtime state's layout, shared by realtime.c
 * (admission, feedback, queries), realtime/sync.c (resync with the live state)
 * and realtime/state_json.c (persistence).  Not part of the core's API.
 */
#ifndef DL_RT_INTERNAL_H
#define DL_RT_INTERNAL_H

#include <pthread.h>

#include "common/realtime/realtime.h"

struct rt_job {
	uint64_t id, reduce_id;
	uint64_t ticket, reduce_ticket; /* provisional keys (0 = none) */
	char *user, *name;
	double arrival, deadline;
	double key; /* queue order among jobs that have not started */
	uint64_t seq;
	uint32_t tasks[DL_PHASES];
	uint32_t cpus[DL_PHASES]; /* >= 1 */
	double wc[DL_PHASES];
	double latest_start[DL_PHASES]; /* 0 = none */
	double typical_map;
	/* what the model schedules for this job: tasks not yet running and
	 * the latest end of its running tasks (-INFINITY: none) */
	uint32_t mtasks[DL_PHASES];
	double run_end[DL_PHASES];
	/* mtasks are all its tasks (as admitted), some of which may have
	 * started: recomputations keep its arrival as the floor.  After a
	 * rebuild they are the pending tasks only, which start from now. */
	bool model_total;
	/* the model's results */
	struct dl_rt_vec vec[DL_PHASES]; /* vec[1] unused in a shared pool */
	double map_finish, finish;
	double last_start[DL_PHASES]; /* NAN: no task placed */
	double floor; /* the floor of its last exact computation */
	/* lazy shift: the job's true bound is vec + pad (and finish + pad,
	 * starts + pad).  Set when an earlier job was admitted and the shift
	 * it causes (at most pad, list scheduling being 1-Lipschitz) fits in
	 * the slack of every later job; cleared by an exact computation. */
	double pad;
	/* lag detection: where the model put the first of mtasks, and how
	 * many of the phase's tasks had started then */
	double first_start[DL_PHASES];
	uint32_t lag_ref[DL_PHASES];
	bool started, held, finished;
	char hold_why[160];
};

struct rt_pool {
	char *name;
	bool split;
	uint32_t units[DL_PHASES]; /* equal in a shared pool */
	struct dl_rt_vec
		head[DL_PHASES]; /* availability before the first job */
	struct rt_job **q;       /* queue order */
	uint32_t n, cap;
	bool need_resync;  /* a rebuild from the live state is due */
	bool size_changed; /* vectors do not match the units: no admission
			      until the rebuild */
};

struct rt_wc_entry {
	char *user, *name;
	int phase;
	struct dl_rt_quantiles q;
	double updated;
};

struct dl_rt_state {
	pthread_mutex_t lock;
	struct dl_rt_params p;
	struct rt_pool *pools;
	uint32_t npools, cappools;
	struct rt_wc_entry *wc;
	uint32_t nwc, capwc;
	uint64_t seq;
	uint64_t next_ticket;
};

/* ---- helpers of realtime.c used by the other files (lock held) ---- */

struct rt_pool *rt_find_pool(struct dl_rt_state *st, const char *name);
struct rt_pool *rt_add_pool(struct dl_rt_state *st, const char *name);
void rt_job_free(struct rt_job *j);
/* Position of a job (map or reduce id) in its pool; NULL if absent. */
struct rt_job *rt_find_job(struct dl_rt_state *st, uint64_t id,
			   struct rt_pool **pool, uint32_t *pos);
/* The same by ticket (map or reduce ticket). */
struct rt_job *rt_find_ticket(struct dl_rt_state *st, uint64_t ticket,
			      struct rt_pool **pool, uint32_t *pos);
/* Take q[pos] out of the queue (not freed). */
void rt_unlink(struct rt_pool *pl, uint32_t pos);
/* A job left (finished or cancelled): one that started stays as an
 * anchor (its vectors are what the jobs behind it build on) until every
 * job ahead of it has left; the anchors at the front fold into the head. */
void rt_retire(struct rt_pool *pl, uint32_t pos, bool prune);
void rt_prune(struct rt_pool *pl);
/* The head of an empty pool: every unit free at now; ENOMEM. */
int rt_init_head(struct rt_pool *pl, double now);

/* Insert at pos; ENOMEM. */
int rt_insert(struct rt_pool *pl, uint32_t pos, struct rt_job *j);

/* The first position a new job may take: behind the job that started
 * last (the dispatcher never pre-empts a started job), 0 when none has. */
uint32_t rt_first_open(const struct rt_pool *pl);

/* Vectors before position pos (the pool's head for 0), and their pad. */
const struct dl_rt_vec *rt_pred(const struct rt_pool *pl, uint32_t pos);
double rt_pred_pad(const struct rt_pool *pl, uint32_t pos);

/* Place job j (not in the queue) at position pos if it and every job
 * behind it still meet their deadlines: then j is inserted and the later
 * jobs' vectors updated (recomputed, or padded by the shift once it fits in
 * their slack).  *ok says whether it was placed.  *budget counts job
 * recomputations (ETIME when it runs out).  blocker: the first later job
 * that would miss (0 if none).  0, ETIME, ENOMEM. */
int rt_try_place(const struct dl_rt_state *st, struct rt_pool *pl,
		 struct rt_job *j, uint32_t pos, double now, uint32_t *budget,
		 bool *ok, uint64_t *blocker);

struct rt_calc {
	double floor;
	double map_finish, finish;
	double first_start[DL_PHASES]; /* NAN: no task placed */
	double last_start[DL_PHASES];
	bool ok;   /* deadline and start windows met */
	bool fits; /* tasks no wider than the pool */
};

/* Alg. II + III for one job onto predecessor vectors: fills out (which must
 * be empty), the worst-case map and job finish, and whether the job meets
 * its deadline and Slurm's start windows.  A held job passes the
 * predecessor's vectors through, a finished one (an anchor) gives its own.
 * Tasks wider than the pool place nothing (c->fits false).  0 or ENOMEM. */
int rt_calt(const struct rt_pool *pl, const struct rt_job *j,
	    const struct dl_rt_vec pred[DL_PHASES], double pred_pad, double now,
	    struct dl_rt_vec out[DL_PHASES], struct rt_calc *c);
/* Take a computation's results into the job (not for held/finished). */
void rt_store_calc(struct rt_job *j, const struct rt_calc *c);

/* Recompute every job from position `from` on (feasibility not judged);
 * with stored_floor each job keeps the floor of its last computation
 * (restoring a saved set). */
int rt_recompute_from(struct rt_pool *pl, uint32_t from, double now,
		      bool stored_floor);

void rt_copy_str(char *dst, size_t len, const char *src);
/* Add a worst-case entry to a state whose lock the caller holds (or that
 * nobody else sees). */
int dl_rt_wc_store_locked(struct dl_rt_state *st, const struct rt_wc_entry *e);
double rt_feedback_delta(const struct dl_rt_state *st, const struct rt_job *j);

#endif
