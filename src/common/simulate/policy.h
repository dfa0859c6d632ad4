/*
 * policy.h - the simulator's policy interface (the registry of policies is
 * deadline-sim's: src/sim/policy.h).
 *
 * Every policy produces, each plan cycle, the core's plan (dl_plan): a rank
 * per job (the priority order Slurm dispatches in), a target concurrency
 * (ArrayTaskThrottle) and, for ras/reverse, a per-node placement.  The
 * engine applies plans exactly as the sched and select plugins would.
 *
 * Admission-based policies (realtime, RTMR as published, Kc & Anyanwu's
 * Deadline Constraint test) add three hooks around the plan:
 *   admit()    at a job's arrival: accept or reject (a rejected job never
 *              runs and counts in accept_ratio);
 *   plan()     the dispatch order -- EDF ranks, and reduce throttles that
 *              keep the reduce slots reserved for earlier-deadline jobs;
 *   task_end() when a task ends (the history the worst cases come from);
 *   job_end()  when an admitted job finishes, with its tasks' actual start
 *              and end times in the engine's records (feedback);
 *   may_start() optionally, before each task start: a dispatcher rule that
 *              must see the instant's free slots (RTMR's reduce
 *              reservation walk, Alg. IV) rather than the last plan's.
 * All policy arithmetic lives in the core (src/common); an entry here only
 * translates between the engine's records and the core's calls.
 */
#ifndef DL_SIMULATE_POLICY_H
#define DL_SIMULATE_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "common/plan/plan.h"
#include "common/policy/policy.h"

struct sim_engine;

struct sim_policy {
	const char *name;
	const char *summary;
	/* deadlines are Slurm's hard --deadline (Slurm-like baseline) */
	bool hard_deadlines;
	/* the policy decides admission: its utilisation counts only jobs
	 * that met their deadline (RTMR's definition) */
	bool admission;
	/* the policy reads the external load's forecast (reverse) */
	bool forecast;
	/* the policy models Hadoop's map and reduce slots: it runs only on
	 * a cluster with typed slots (Kc & Anyanwu's test) */
	bool typed_only;
	/* Slurm without the deadline plugin (FIFO, Slurm): no plan reaches
	 * Slurm, so with the cluster's batch_sched_delay set, tasks start
	 * only in Slurm's own scheduling passes */
	bool slurm_only;
	/* run only when named (compare's default list leaves it out): its
	 * results depend on the machine (portfolio: wall-time budgets) */
	bool on_request;
	/* per-run state; NULL hooks mean "none" */
	int (*init)(const struct sim_policy *self, struct sim_engine *eng,
		    void **state, char *err, size_t errlen);
	void (*fini)(void *state);
	bool (*admit)(void *state, struct sim_engine *eng, uint32_t job,
		      char *why, size_t whylen);
	/* required: the plan of one cycle */
	struct dl_plan *(*plan)(void *state, const struct sim_policy *self,
				struct sim_engine *eng,
				const struct dl_policy_input *in, char *err,
				size_t errlen);
	/* task `task` of phase `phase` of job `job` ended (its record holds
	 * start and end; a task killed at its time limit ends there) */
	void (*task_end)(void *state, struct sim_engine *eng, uint32_t job,
			 int phase, uint32_t task);
	void (*job_end)(void *state, struct sim_engine *eng, uint32_t job);
	/* may a task of (job, phase) start now, besides the plan's throttle
	 * and placement?  NULL = yes */
	bool (*may_start)(void *state, struct sim_engine *eng, uint32_t job,
			  int phase);
	int arg; /* enum dl_policy or enum dl_baseline, for plan() */
};

#endif
