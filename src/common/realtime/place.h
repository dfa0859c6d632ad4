/*
 * realtime/place.h - placing a job in a pool's queue and following its
 * effect down the queue (private to realtime/; lock held).
 */
#ifndef DL_RT_PLACE_H
#define DL_RT_PLACE_H

#include <stdbool.h>
#include <stdint.h>
#include "common/realtime/chain.h"

/* The first later job a placement would make miss its deadline: its id,
 * or its admission ticket while Slurm has not given it one (ticket). */
struct rt_blocker {
	uint64_t id; /* 0 = none */
	bool ticket;
	double finish, deadline;
};

/* One placement attempt's scratch: the new job's vectors and the later
 * jobs recomputed behind it. */
struct rt_trial {
	struct dl_rt_vec jv[DL_PHASES];
	struct rt_calc jc;
	struct dl_rt_vec (*sv)[DL_PHASES];
	struct rt_calc *sc;
	uint32_t cap;              /* entries in sv/sc */
	uint32_t nsucc;            /* later jobs recomputed exactly */
	double shift;              /* then added as pad to the rest (0: none) */
	struct rt_blocker blocker; /* first later job that would miss */
};

int rt_trial_alloc(struct rt_trial *t, uint32_t n);
void rt_trial_free(struct rt_trial *t);
/* slack[i] = the least slack of the jobs at positions i.. (n+1 entries);
 * NULL when out of memory. */
double *rt_suffix_slack(const struct rt_pool *pl);
/* Try j (not in the queue) at position pos: t holds j's vectors and the
 * later jobs recomputed; *ok says whether j and every later job still meet
 * their deadlines.  *budget counts job recomputations (ETIME when it runs
 * out).  0, ETIME, ENOMEM. */
int rt_try_at(const struct dl_rt_state *st, const struct rt_pool *pl,
	      const struct rt_job *j, uint32_t pos, double now,
	      const double *slack, struct rt_trial *t, uint32_t *budget,
	      bool *ok);
/* Move a successful trial into the queue: j at pos, the recomputed jobs
 * behind it, the pad on the rest.  ENOMEM. */
int rt_trial_commit(struct rt_pool *pl, uint32_t pos, struct rt_job *j,
		    struct rt_trial *t);

/* Both in one: place j at pos if it and every job behind it still meet
 * their deadlines.  blocker (may be NULL): the first later job that would
 * miss (id 0 if none); finish: j's own worst-case finish there (NAN when
 * it does not fit).  0, ETIME, ENOMEM. */
int rt_try_place(const struct dl_rt_state *st, struct rt_pool *pl,
		 struct rt_job *j, uint32_t pos, double now, uint32_t *budget,
		 bool *ok, struct rt_blocker *blocker, double *finish);

#endif
