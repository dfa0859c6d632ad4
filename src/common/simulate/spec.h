/*
 * spec.h - the simulator's inputs: the cluster (nodes, CPUs, memory, I/O,
 * pools, map/reduce slots, external load f(t)) and the workload (jobs with
 * arrival, map and reduce tasks, their lengths and resource demands, a
 * deadline).  deadline-sim reads them from JSON documents (src/sim/spec.h,
 * doc/simulator.md); the engine only reads these structures.
 */
#ifndef DL_SIMULATE_SPEC_H
#define DL_SIMULATE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/simulate/dist.h"

#define SIM_MAX_NODES       100000u
#define SIM_MAX_JOBS        10000000u
#define SIM_MAX_TOTAL_TASKS 100000000u
#define SIM_MAX_SERIES      10000000u
#define SIM_MAX_PARTITIONS  64

/* How tasks consume a node. */
enum sim_slot_mode {
	SIM_SLOTS_CPU = 0, /* CPUs, memory and I/O, as Slurm's cons_tres */
	SIM_SLOTS_TYPED,   /* Hadoop 1 map and reduce slots */
};

/* Which free node a task goes to. */
enum sim_node_order {
	SIM_ORDER_FIRST_FIT = 0, /* lowest index first (Slurm's default) */
	SIM_ORDER_ROUND_ROBIN,   /* after the last node used (heartbeats) */
};

struct sim_node_spec {
	char *name;
	uint32_t cpus;
	uint64_t mem;                     /* MB; 0 = not constrained */
	double io;                        /* MB/s; 0 = not constrained */
	uint32_t map_slots, reduce_slots; /* typed mode */
	double speed;                     /* task length is divided by it */
	uint8_t pool;                     /* DL_POOL_* */
	uint64_t partitions;
};

/* f(t): the share of the cluster's nodes that an external (higher
 * priority) workload holds, piecewise constant per step, in [0, 1]. */
struct sim_series {
	double start; /* time of values[0] */
	double step;  /* seconds per value */
	uint32_t n;
	double *values;
	bool repeat; /* wrap around after the last value */
};

struct sim_cluster_spec {
	enum sim_slot_mode mode;
	enum sim_node_order order;
	struct sim_node_spec *nodes;
	uint32_t nnodes;
	char *partitions[SIM_MAX_PARTITIONS];
	uint32_t npartitions;
	double dispatch_latency; /* seconds from a free slot to a start */
	double task_overhead;    /* seconds a task holds its slot beyond its
				  * length: Slurm's launch and completion
				  * (with a distribution: its mean) */
	/* NULL: every task's overhead is task_overhead.  Otherwise each task
	 * draws its own from this distribution (Slurm's is spread, not
	 * constant), on a stream per (seed, job, phase) of its own, so the
	 * task lengths are the same with or without it. */
	struct sim_dist *task_overhead_dist;
	double batch_sched_delay; /* Slurm's background pass: at most one
				   * per this many seconds (0: not modelled) */
	struct sim_series ext;    /* n == 0: no external load */
	/* partitions (bit k: partitions[k]; typed slots: bit 0 the view's
	 * "map", bit 1 its "reduce") where work without a deadline that the
	 * run does not simulate waits to start, all run long: a snapshot's
	 * future keeps the queue as the snapshot saw it (portfolio/future.h) */
	uint64_t other_waiting;
};

struct sim_phase_spec {
	uint32_t tasks;
	uint32_t cpus; /* per task (cpu mode) */
	uint64_t mem;  /* MB per task */
	double io;     /* MB/s per task */
	struct sim_dist len;
	double *lengths;   /* explicit per-task lengths, or NULL */
	double time_limit; /* Slurm time limit of a task; 0 = derived */
	double prior_mean; /* history prior for the policies; 0 = none */
	double prior_p90;
	double input_mb; /* data per task (RTMR's delta_i); 0 = unknown */
	/* the array's own limit on running tasks (Slurm's --array=...%N);
	 * 0 = none */
	uint32_t max_running;
	/* a snapshot's tasks already running when the run starts (map phase
	 * only; not in deadline-sim's documents): the first nrunning tasks,
	 * task k on node running_node[k] for running_elapsed[k] seconds so
	 * far.  The engine draws their time left given that they have not
	 * ended. */
	uint32_t nrunning;
	uint32_t *running_node;
	double *running_elapsed;
	/* Slurm's begin time (sbatch --begin, or the delay a requeue gives
	 * a task): "deferred" of the tasks not running at the start wait
	 * until "begin" (absolute); 0 = none.  A workload's "begin" defers
	 * every task of both phases; a snapshot may defer fewer. */
	uint32_t deferred;
	double begin;
};

struct sim_job_spec {
	char *name;
	char *user;
	char *account;
	uint32_t partition;
	double arrival;
	double deadline;        /* absolute; 0 = none */
	double deadline_factor; /* deadline = arrival + factor x isolated */
	bool hard;              /* Slurm --deadline rather than a soft goal */
	double reduce_cost;     /* hint for the policies; 0 = default */
	double remote_prob;     /* chance a map task reads remotely */
	double remote_factor;   /* its length multiplier */
	double accel_speedup;   /* map tasks on accelerated nodes; 0 = none */
	struct sim_phase_spec phase[2];
};

struct sim_workload_spec {
	struct sim_job_spec *jobs;
	uint32_t njobs;
	bool has_window;
	double window[2]; /* statistics only over jobs that start or finish
			   * inside (the reverse family's middle days) */
	char *description;
};

/* The earliest time any of the job's work may start: its arrival, or its
 * begin time when that is later and holds back every task of its first
 * phase with tasks. */
double sim_job_release(const struct sim_job_spec *j);

void sim_cluster_spec_free(struct sim_cluster_spec *c);
/* Free what a job spec owns and zero it (NULL: nothing). */
void sim_job_spec_free(struct sim_job_spec *j);
void sim_workload_spec_free(struct sim_workload_spec *w);
void sim_series_free(struct sim_series *s);
/* Value at time t (0 outside a non-repeating series). */
double sim_series_at(const struct sim_series *s, double t);
/* Next time after t where the value may change; +inf when never. */
double sim_series_next_change(const struct sim_series *s, double t);

#endif
