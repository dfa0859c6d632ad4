/*
 * place_index.h - a published placement plan indexed for enforcement
 * (select/deadline's job_test runs under slurmctld's locks, so every lookup
 * there must be cheap and allocation-free): array id -> plan job and phase,
 * the plan's P[j][n] rows per job and per node, each phase's planned
 * concurrency, and the rule that lets one more task start on a node.
 *
 * The rule is the papers' task scheduler (a free slot goes to the
 * lowest-utility job whose task fits) under a plan that changes only
 * every cycle: P[j][n] is a target, not a lower bound, and a row not yet
 * filled reserves its room on that node for its job against every job of
 * higher utility (a higher rank).  doc/ras-reverse.md, "The start rule".
 */
#ifndef DL_PLACE_INDEX_H
#define DL_PLACE_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "common/plan/plan.h"

struct dl_place_id {
	uint64_t id;  /* map or reduce array id */
	uint32_t job; /* index into plan->jobs */
	uint8_t phase;
};

struct dl_place_index {
	const struct dl_plan *plan; /* not owned */
	struct dl_place_id *ids;    /* sorted by id */
	uint32_t nids;
	uint32_t *row_start;   /* njobs + 1: rows of job j are
				  rows[row_start[j] .. row_start[j+1]) */
	struct dl_place *rows; /* plan->place sorted by job, then node */
	uint32_t *node_start;  /* nnodes + 1, like row_start */
	uint32_t *node_rows;   /* indices into rows, per node, lowest rank
				  (lowest utility) first */
	uint32_t *planned;     /* [2 * job + phase]: the concurrency the plan
				  gives the phase (its allocation for the
				  active phase, its rows' sum for the other) */
};

/* What runs now, as the caller counts it: select/deadline from its table
 * of running array tasks and Slurm's array records, the simulator from
 * its model.  Both functions are required. */
struct dl_place_now {
	/* tasks of (job, phase) running on plan node `node` */
	uint32_t (*here)(void *ctx, uint32_t job, int phase, uint32_t node);
	/* tasks of (job, phase) running anywhere; *waiting: the array has a
	 * task waiting to start */
	uint32_t (*running)(void *ctx, uint32_t job, int phase, bool *waiting);
	void *ctx;
};

/* Build the index of a plan (NULL plan: an empty index).  Returns 0,
 * EINVAL (rows pointing outside the plan) or ENOMEM. */
int dl_place_index_build(struct dl_place_index *x, const struct dl_plan *plan);
void dl_place_index_free(struct dl_place_index *x);

/* The plan job and phase of an array id.  Returns false when the plan does
 * not manage the array (not in the plan, or not managed). */
bool dl_place_index_find(const struct dl_place_index *x, uint64_t array_id,
			 uint32_t *job, int *phase);

/* The row of (job, node), or NULL when P[j][n] = 0. */
const struct dl_place *dl_place_index_row(const struct dl_place_index *x,
					  uint32_t job, uint32_t node);

/* Add one running task of (job, phase) to a node's use. */
void dl_place_add_use(const struct dl_plan *plan, uint32_t job, int phase,
		      double used[3]);

/* May one more task of (job, phase) start on plan node `node`?  Only while
 *  1. the phase runs fewer tasks than the plan gives it (its planned
 *     concurrency: P rows are targets, a job above its share waits), and
 *  2. the node's capacity holds on every resource with the deadline tasks
 *     already running there (`used`, summed with dl_place_add_use), this
 *     task, and the room every job ranked before this one (lower utility)
 *     is still owed there: min(P[k][n] - its tasks there, its planned
 *     concurrency - its running tasks), for each k with a task waiting.
 * A job may so take a free slot on any node where its task fits, except
 * room the plan keeps for a job of lower utility. */
bool dl_place_may_start(const struct dl_place_index *x, uint32_t job, int phase,
			uint32_t node, const struct dl_place_now *now,
			const double used[3]);

#endif
