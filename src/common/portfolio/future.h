/*
 * future.h - the queue a plan cycle sees, as the simulator's input: what a
 * portfolio round simulates.  The run's time `origin` is the snapshot's
 * `now`, where origin is the oldest running task's elapsed time in whole
 * seconds (the run's clock starts at 0, and the policies refuse negative
 * task starts):
 *
 *   cluster  every node with the CPUs and memory that work the plan does
 *            not manage leaves (a node that is down has none); that
 *            capacity is not given back during the run (a pessimistic
 *            stand-in: Slurm's expected ends are not modelled); the
 *            simulator's typed view (model.h typed_slots) becomes its
 *            typed cluster again, map and reduce slots apart (a job in
 *            its reduce phase then runs its reduce tasks on map slots:
 *            the engine starts a snapshot's running tasks in the first
 *            phase only);
 *   jobs     every job with tasks left, arriving at origin, its deadline
 *            as far from it as from now (one already past: due at once);
 *            the active
 *            phase becomes the run's first phase with its running tasks
 *            on their nodes and their elapsed times; the reduce phase of
 *            a job still mapping follows;
 *   lengths  log-normal with the estimate's mean and spread (dl_phase_mu;
 *            constant without a spread; for a reduce phase without an
 *            estimate, the map mean x ReduceCost), and the same mean and
 *            p90 as the policies' history prior.
 *
 * A phase without any estimate (no completion, no prior) gets half its
 * time limit, else `fallback_len` seconds.  No I/O; the specs are the
 * caller's to free (sim_cluster_spec_free, sim_workload_spec_free).
 */
#ifndef DL_PORTFOLIO_FUTURE_H
#define DL_PORTFOLIO_FUTURE_H

#include <stddef.h>

#include "common/policy/input.h"
#include "common/simulate/spec.h"

/* 0, or EINVAL (bad input, more partitions than the simulator models) /
 * ENOMEM with err set; the specs are initialised either way. */
int dl_pf_future(const struct dl_policy_input *in, double fallback_len,
		 struct sim_cluster_spec *cs, struct sim_workload_spec *ws,
		 char *err, size_t errlen);
/* The same, with the run's origin (the snapshot's now) in *origin. */
int dl_pf_future_at(const struct dl_policy_input *in, double fallback_len,
		    struct sim_cluster_spec *cs, struct sim_workload_spec *ws,
		    double *origin, char *err, size_t errlen);

/* A job as it arrived, for the arrival forecast (forecast.h): every task
 * of both phases, none running, lengths as above, arrival its submission
 * (now when unknown), deadline absolute (0 = none).  Free its strings with
 * the spec's.  0, EINVAL (nothing to replay) or ENOMEM. */
int dl_pf_job_shape(const struct dl_policy_input *in, const struct dl_job *dj,
		    double fallback_len, struct sim_job_spec *js);

#endif
