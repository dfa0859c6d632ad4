/*
 * place_index.h - a published placement plan indexed for enforcement
 * (select/deadline's job_test runs under slurmctld's locks, so every lookup
 * there must be cheap and allocation-free): array id -> plan job and phase,
 * the plan's P[j][n] rows per job, and the rule that lets one more task
 * start on a node.
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
 * the job's tasks there (running_here, this phase) stay below P[j][n] and
 * the node's capacity holds on every resource with the deadline tasks
 * already running there (`used`, summed with dl_place_add_use). */
bool dl_place_may_start(const struct dl_place_index *x, uint32_t job, int phase,
			uint32_t node, uint32_t running_here,
			const double used[3]);

#endif
