/*
 * placement.h - RAS Algorithm 1 (doc/design.md §4):
 * reducers first and spread, then max-min rounds that move map slots from
 * the highest-utility job to the lowest, then a greedy fill of each node,
 * all under per-node multi-resource capacity (Eq. 10).  Used by the ras and
 * reverse policies; the utility decides which (utility.h).
 *
 * Running tasks count in their job's allocation where they run.  Running
 * reducers are fixed; a running map's slot is a target the rounds may move
 * to a job of lower utility, which gets it when the task ends (no task is
 * ever killed).  So P[j][n] is the concurrency the plan wants, not a lower
 * bound (doc/ras-reverse.md, "Placement").
 */
#ifndef DL_PLACEMENT_H
#define DL_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/forecast.h"
#include "common/plan/plan.h"

/* Map outputs a shuffling reducer fetches at once (Hadoop's default
 * parallelCopies): its demand grows with the job's placed maps up to this
 * many, then stays (the profile's shuffle value is an upper bound). */
#define DL_SHUFFLE_COPIES 5
#define DL_PL_MAX_TRACE   64 /* rounds whose minimum utility is recorded */

enum dl_util_kind {
	DL_UTIL_RAS = 0,     /* Eq. 6-7 */
	DL_UTIL_REVERSE = 1, /* Eq. 14-15 */
};

struct dl_pl_node {
	double cap[DL_RESOURCES]; /* capacity for planned tasks this cycle;
				     INFINITY = not constrained */
	/* the partitions it serves (borrowed; NULL or empty: only jobs
	 * without a partition) */
	const struct dl_partset *partitions;
	bool usable; /* up and not reserved */
};

struct dl_pl_job {
	uint32_t partition;           /* UINT32_MAX = any partition */
	double map[DL_RESOURCES];     /* one map task */
	double reduce[DL_RESOURCES];  /* one reducer: reduce profile, or in
					 shuffle mode its base demand */
	double shuffle[DL_RESOURCES]; /* shuffle mode: per placed map */
	bool shuffle_mode;            /* reducers shuffle while maps run */
	uint32_t maps_left;           /* s_pend: running + not started */
	uint32_t reduces_left;        /* r_pend: reducers that may be placed */
	double s_req, s_fit;          /* utility parameters (s_fit: reverse) */
	/* running tasks: node index of each (DL_NO_NODE = unknown) */
	const uint32_t *map_nodes;
	uint32_t nmap_running;
	const uint32_t *reduce_nodes;
	uint32_t nreduce_running;
	/* results */
	uint32_t maps, reduces; /* placed, running included */
	double utility;
};

struct dl_pl_stats {
	uint32_t rounds;   /* rounds run (stops early without change) */
	uint64_t moves;    /* map slots moved by the max-min rounds */
	uint64_t fills;    /* map slots added by greedy fill */
	uint64_t reducers; /* reducers placed (not running before) */
	double min_utility[DL_PL_MAX_TRACE + 1]; /* [0]: before the rounds,
						    [k]: after round k */
};

/* Demand of one reducer of job j when the job has `maps` maps placed. */
void dl_pl_reducer_demand(const struct dl_pl_job *j, uint32_t maps,
			  double out[DL_RESOURCES]);

/* Utility of job j at the given allocation. */
double dl_pl_utility(const struct dl_pl_job *j, enum dl_util_kind kind,
		     uint32_t maps, uint32_t reduces);

/* Place.  rows receives a malloc'd array of P[j][n] (job = index into
 * jobs), one row per (job, node) with a task; fills jobs[].maps/reduces/
 * utility.  Returns 0, EINVAL (bad input: NaN or negative demand or
 * capacity, bad node index is ignored) or ENOMEM. */
int dl_placement(const struct dl_pl_node *nodes, uint32_t nnodes,
		 struct dl_pl_job *jobs, uint32_t njobs, enum dl_util_kind kind,
		 uint32_t rounds, struct dl_place **rows, uint32_t *nrows,
		 struct dl_pl_stats *stats);

#endif
