/*
 * hindsight.h - the recent past a portfolio round judges the candidates
 * on: what each policy would have achieved over the last stretch of the
 * actual workload (classic portfolio scheduling's evaluation on recent
 * history).  A look-ahead round simulates only the jobs already queued,
 * so it cannot see an advantage that comes from the arrival process
 * (pacing that leaves CPUs turning over for urgent jobs that arrive
 * later); the recent past holds those arrivals.
 *
 * A checkpoint is a round's own future (future.h: the cluster and the
 * queue as specs, and the run clock's origin) kept after the round: one
 * every window / 2 of time, the two newest kept.  The recent past at `now`
 * is the older checkpoint's queue followed by every job that arrived
 * after it (forecast.h's record, as recorded at arrival: the estimates of
 * then, not the observed lengths), on the checkpoint's cluster and clock:
 * a stretch of window / 2 to window (plus one round interval).
 *
 * Memory: at most two queues' specs and the record of the arrivals of the
 * last 2 x window.  In memory only: a restart of slurmctld (or of the
 * plugin) starts with none, and rounds run without hindsight until the
 * first checkpoint has aged.  No I/O, no global state.
 */
#ifndef DL_PORTFOLIO_HINDSIGHT_H
#define DL_PORTFOLIO_HINDSIGHT_H

#include <stdbool.h>

#include "common/portfolio/forecast.h"
#include "common/simulate/spec.h"

struct dl_pf_checkpoint {
	bool set;
	double now;    /* the snapshot's time */
	double origin; /* its run clock's origin (future.h) */
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
};

struct dl_pf_hindsight {
	struct dl_pf_checkpoint cp[2]; /* cp[0] the older */
};

/* Free both checkpoints and zero h. */
void dl_pf_hindsight_clear(struct dl_pf_hindsight *h);

/* Offer a round's future taken at `now`: kept (ownership moves to h, *cs
 * and *ws are zeroed) when there is no checkpoint or the newer is at
 * least window / 2 old; the older is then freed.  Returns whether it was
 * kept (false: the caller still owns and frees them).  window <= 0 keeps
 * nothing and frees what h holds. */
bool dl_pf_hindsight_keep(struct dl_pf_hindsight *h, double now, double origin,
			  double window, struct sim_cluster_spec *cs,
			  struct sim_workload_spec *ws);

/* The recent past at now into *out (free with dl_pf_forecast_free(out,
 * nbase)), its cluster in *cs (h's) and the checkpoint's queue size in
 * *nbase.  Nothing (out->njobs 0, *cs NULL) without a checkpoint older
 * than now.  0, EINVAL or ENOMEM. */
int dl_pf_hindsight_past(const struct dl_pf_hindsight *h,
			 const struct dl_pf_recent *r, double now,
			 const struct sim_cluster_spec **cs,
			 struct sim_workload_spec *out, uint32_t *nbase);

#endif
