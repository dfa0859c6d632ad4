/*
 * realtime/internal.h - the layout of the realtime state (the admitted set),
 * shared by the files of realtime/ and by no one else.  Which file does
 * what: doc/architecture.md, "The core".  Every function of realtime/ that
 * reads or writes these structures runs with dl_rt_state.lock held (the
 * public functions take it; the rt_* helpers expect it taken).
 */
#ifndef DL_RT_INTERNAL_H
#define DL_RT_INTERNAL_H

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* A time the admitted set refuses: not finite, or negative. */
static inline bool rt_bad_time(double t)
{
	return !isfinite(t) || t < 0;
}

/* A copy of s ("" for NULL); NULL when out of memory. */
static inline char *rt_dup_str(const char *s)
{
	return strdup(s ? s : "");
}

#endif
