/*
 * forecast.h - the arrivals a portfolio round expects: the recent arrival
 * process, replayed.  A round that sees only the jobs already queued
 * cannot see what a policy's pacing leaves for the jobs still to come (on
 * Polo's scenario A adaptive meets every deadline by keeping slots turning
 * over for a job that arrives later); so every job that arrived in the last
 * `window` seconds is simulated once more as a future arrival, the same
 * shape (tasks, CPUs, memory, lengths, time limits, deadline as far from
 * its arrival), shifted forward by the window: the last window's arrivals
 * are the next window's forecast (a stationary arrival process).
 *
 * Per sample the replay is rotated by a seeded random phase (sample 0 not
 * at all): arrival a goes to origin + ((a - (now - window)) + u x window)
 * mod window, so a policy is not judged on one exact arrival time.
 *
 * The same record, unrotated, is the recent past a round judges the
 * candidates on in hindsight (dl_pf_replay, hindsight.h).
 *
 * The caller keeps the record between cycles (no global state, no I/O).
 */
#ifndef DL_PORTFOLIO_FORECAST_H
#define DL_PORTFOLIO_FORECAST_H

#include <stddef.h>
#include <stdint.h>

#include "common/policy/input.h"
#include "common/simulate/spec.h"

struct dl_pf_recent {
	struct sim_job_spec *jobs; /* arrival = submission time (absolute) */
	uint32_t n, cap;
	uint64_t last_id; /* the highest job id recorded */
};

/* Free everything and zero the record. */
void dl_pf_recent_clear(struct dl_pf_recent *r);

/* Record the jobs of a snapshot not seen before (ids above last_id;
 * Slurm's ids grow) and forget those that arrived before now - window.
 * window <= 0 forgets everything.  0 or ENOMEM (the record then keeps what
 * it had). */
int dl_pf_recent_note(struct dl_pf_recent *r, const struct dl_policy_input *in,
		      double window, double fallback_len);

/* The workload of sample k: base's jobs (shallow copies: the strings and
 * arrays stay base's) followed by the replayed arrivals (their names
 * "+<name>", owned by out; arrays shared with r).  Free with
 * dl_pf_forecast_free.  0, EINVAL or ENOMEM. */
int dl_pf_forecast(const struct sim_workload_spec *base,
		   const struct dl_pf_recent *r, double now, double origin,
		   double window, uint64_t seed, uint32_t k,
		   struct sim_workload_spec *out);
void dl_pf_forecast_free(struct sim_workload_spec *out, uint32_t nbase);

/* The recent past as it happened (hindsight.h): base's jobs (shallow
 * copies) followed by the recorded arrivals in (from, to], each at its own
 * arrival + shift, deadline as far from it as recorded, named "+<name>".
 * Not rotated.  Free with dl_pf_forecast_free.  0, EINVAL or ENOMEM. */
int dl_pf_replay(const struct sim_workload_spec *base,
		 const struct dl_pf_recent *r, double from, double to,
		 double shift, struct sim_workload_spec *out);

#endif
