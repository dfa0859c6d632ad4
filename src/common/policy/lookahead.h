/*
 * policy/lookahead.h - what Slurm's dispatcher will do with a priority
 * order, from now on: an event-driven run over the plan's deadline jobs.
 *
 * Whenever capacity frees in a node class (policy/capacity.h: nodes with
 * the same partitions and pool, CPUs and memory aggregated), it goes to
 * the first job in the order that has a task which may start and fits:
 * a job's maps first, its reduces once its last map has ended (afterok),
 * no task of a phase with a hard --deadline after deadline - time limit
 * (Slurm cancels the rest, so the job can no longer finish), no deferred
 * task before its begin time.  Running
 * tasks end after their remaining time; work the plan does not manage
 * (jobs without deadlines) frees its CPUs when it is expected to end; an
 * external-load forecast changes what each class has over time.  Tasks
 * are never pre-empted, so a job lower in the order that starts while a
 * higher one waits on its map->reduce barrier keeps what it took.
 *
 * Task ends are rounded up to a grid of `resolution` seconds, so tasks
 * that end together free capacity as one event and start the next ones as
 * one batch: a run costs in proportion to the (time, job) batches, not to
 * the tasks.
 *
 * A lookahead is built once per plan cycle (classes, running tasks, held
 * capacity, forecast) and then run any number of times with different
 * orders, so a policy can try what demoting one job does to the others.
 */
#ifndef DL_LOOKAHEAD_H
#define DL_LOOKAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/forecast.h"
#include "common/model/model.h"

#define DL_LA_NONE UINT32_MAX

/* One phase of a job as the dispatcher sees it. */
struct dl_la_phase {
	uint32_t pending;    /* tasks not started yet */
	double cpus;         /* per task (>= 1 when mem is 0) */
	double mem;          /* per task, MB (0 = not constrained) */
	double len;          /* task length, seconds (> 0 when pending) */
	double latest_start; /* last moment a task may start; INFINITY */
	/* the blocking reserve (policy/reserve.h): a long phase runs at
	 * most dl_reserve_width() tasks at once, keeping `keep` */
	bool blocking;
	uint32_t keep;
	/* the array's own limit on running tasks (model.h, max_running):
	 * never more at once; 0 = none */
	uint32_t max_running;
};

struct dl_la_job {
	uint32_t partition;
	struct dl_la_phase phase[DL_PHASES];
	/* results of the last run */
	double map_end; /* when its last map ended; INFINITY = not by then */
	double finish;  /* when its last task ended; INFINITY = not by the
			   horizon, or never (a phase was cancelled) */
	bool cancelled; /* a hard deadline's start window closed */
};

struct dl_lookahead;

/* A lookahead over the cluster's up nodes at `now`.  `forecast` (may be
 * NULL) replaces the use by unmanaged work on the nodes of its classes, as
 * for the reverse policy.  `resolution` > 0 is the time grid (s).  NULL
 * when out of memory or on bad arguments. */
struct dl_lookahead *dl_la_new(const struct dl_cluster *cl,
			       const struct dl_forecast *forecast, double now,
			       double resolution);
void dl_la_free(struct dl_lookahead *la);

/* Declare a job; returns its index, or DL_LA_NONE on bad input or when
 * out of memory. */
uint32_t dl_la_add_job(struct dl_lookahead *la, const struct dl_la_job *job);
struct dl_la_job *dl_la_job(struct dl_lookahead *la, uint32_t j);

/* Of job j's pending tasks in phase p, n may start only from `until`
 * (their begin time, model.h's deferred): they join the pending ones
 * then.  Nothing is deferred when `until` is not after now.  A second
 * call for the same job and phase replaces the first.  Kept beside the
 * jobs, not in struct dl_la_job: it is rare, and every run copies the
 * jobs.  EINVAL (bad job or phase, n above the phase's pending tasks, a
 * NaN time), ENOMEM. */
int dl_la_defer(struct dl_lookahead *la, uint32_t j, int p, uint32_t n,
		double until);

/* Room for `njobs` more jobs and `nevents` more running tasks or held
 * capacities, so that adding them does not reallocate (optional: at 1,000
 * arrays the growth by doubling copied 3 % of a plan cycle).  0, EINVAL
 * or ENOMEM. */
int dl_la_reserve(struct dl_lookahead *la, uint32_t njobs, uint32_t nevents);

/* A running task of a job holding (cpus, mem) on node `node` (DL_NO_NODE:
 * the first class of the job's partition) until `end`.  A map task delays
 * its job's reduces until it ends.  0, EINVAL or ENOMEM. */
int dl_la_add_running(struct dl_lookahead *la, uint32_t job, int phase,
		      uint32_t node, double cpus, double mem, double end);

/* A running task of work the plan does not manage that is not in the
 * nodes' *_other counts (a job without deadline among the input's jobs),
 * on node `node` (DL_NO_NODE: the first class serving `partition`) until
 * `end` (INFINITY: for good).  0, EINVAL or ENOMEM. */
int dl_la_add_other(struct dl_lookahead *la, uint32_t partition, uint32_t node,
		    double cpus, double mem, double end);

/* Capacity already counted in a node's cpus_other/mem_other (work the plan
 * does not manage) that frees at `end`.  Ignored on nodes under the
 * forecast, whose load it already is.  0, EINVAL or ENOMEM. */
int dl_la_add_held(struct dl_lookahead *la, uint32_t node, double cpus,
		   double mem, double end);

/* The CPUs the long (blocking) tasks of the jobs of `partition` may hold
 * together (policy/reserve.h); INFINITY (the default) = no limit.  It may
 * change between runs (triage decides it after its verdicts).  0 or
 * EINVAL. */
int dl_la_set_budget(struct dl_lookahead *la, uint32_t partition, double cpus);

/* Run the dispatcher with the jobs of `order` (indexes, highest priority
 * first; jobs not in it take nothing) until every one has finished or the
 * clock passes `horizon`.  Results go into each job's map_end, finish and
 * cancelled.  0, EINVAL or ENOMEM. */
int dl_la_run(struct dl_lookahead *la, const uint32_t *order, uint32_t norder,
	      double horizon);

/* The same run in steps, so a caller can stop as soon as it knows the
 * answer: dl_la_start dispatches at now, dl_la_advance applies every
 * event up to `until` (capped at the horizon) and dispatches after each,
 * exactly as dl_la_run would.  Reaching the horizon ends the run and
 * writes the results as dl_la_run does; before that, a job's finish is
 * read with dl_la_finish_so_far; advancing further does nothing.  The
 * jobs and budgets must not change between the steps.  0, EINVAL (advance
 * before any start, or after one that failed) or ENOMEM. */
int dl_la_start(struct dl_lookahead *la, const uint32_t *order, uint32_t norder,
		double horizon);
int dl_la_advance(struct dl_lookahead *la, double until);

/* Job j's finish in the run so far: its last task's end once every task
 * has started (final: later events do not change it), else INFINITY --
 * which, after advancing to `until`, means it ends after `until`.
 * INFINITY too before any run, or after a start that failed. */
double dl_la_finish_so_far(const struct dl_lookahead *la, uint32_t j);

/* The fluid supply: CPU-seconds the classes serving `partition` have free
 * for the plan's jobs from now until t -- what the running tasks, the held
 * capacity and the forecast leave, with no job of the plan placed.  Build
 * once (up to `horizon`; later times hold the last rate), then query.
 * A necessary condition for a set of jobs to finish by t is that their
 * work fits in it. */
int dl_la_supply_build(struct dl_lookahead *la, double horizon);
double dl_la_supply(const struct dl_lookahead *la, uint32_t partition,
		    double t);

/* Batches started by the last run (cost accounting for benchmarks). */
uint64_t dl_la_batches(const struct dl_lookahead *la);

/* Whether any up node of the cluster serves the partition. */
bool dl_la_serves(const struct dl_lookahead *la, uint32_t partition);

/* Whether the two partitions share a node class (compete for capacity). */
bool dl_la_compete(const struct dl_lookahead *la, uint32_t part_a,
		   uint32_t part_b);

#endif
