/*
 * realtime/admit.h - admission of one job into a pool (Alg. I; private
 * to realtime/, lock held).
 */
#ifndef DL_RT_ADMIT_H
#define DL_RT_ADMIT_H

#include <stdbool.h>
#include "common/realtime/internal.h"

/* Judge j (not in the queue) for pool pl and, with commit, insert it where
 * it was admitted.  The verdict says what happened.  0 or ENOMEM. */
int rt_admit_locked(struct dl_rt_state *st, struct rt_pool *pl,
		    struct rt_job *j, double now, bool commit,
		    struct dl_rt_verdict *v);

#endif
