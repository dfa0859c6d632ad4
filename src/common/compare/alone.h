/*
 * alone.h - the earliest a job could finish alone on the cluster: a proven
 * lower bound on its completion time in every schedule, whatever the other
 * jobs and the policy do.  The oracle writes off a job whose bound is past
 * its deadline (oracle.h, doc/simulator.md "The oracle bound").
 *
 * The model, the simulator's: a phase's tasks (all of one size) run on
 * "slot machines", one per task a node can hold at full availability,
 * numbered node by node.  The external load takes whole nodes from the end
 * of the node list, so at any time the machines that may start a task are
 * a prefix 0..count(t)-1 of that numbering; a running task is never
 * pre-empted and runs to its end even where the node is no longer
 * available; a machine starts a task only while it is available.  Tasks
 * take their shortest possible length.  alone.c proves why a schedule of
 * the engine is a schedule of this model and why the bound is exact for
 * tasks of equal length.
 */
#ifndef DL_ALONE_H
#define DL_ALONE_H

#include <stddef.h>
#include <stdint.h>

/* Machines that may start a task over time, piecewise constant: count[k]
 * holds on [t[k], t[k+1]), count[0] also before t[0] and the last count
 * after t[nsteps-1]. */
struct dl_alone_supply {
	uint32_t nsteps;
	double *t;
	uint32_t *count;
	uint32_t leaves; /* power of two >= nsteps */
	uint32_t *tmax;  /* max segment tree over count (2 x leaves) */
};

/* Copy a series into s.  0, EINVAL (no steps, times not finite and
 * increasing) or ENOMEM. */
int dl_alone_supply_init(struct dl_alone_supply *s, const double *t,
			 const uint32_t *count, uint32_t nsteps);
void dl_alone_supply_free(struct dl_alone_supply *s);

/* The earliest time >= x at which machine m may start a task; INFINITY
 * when it never may again. */
double dl_alone_next_start(const struct dl_alone_supply *s, uint32_t m,
			   double x);

/* A lower bound on the time n tasks of lengths len[] (seconds, > 0) released
 * at `release` have all ended on s, when no task may start at or after
 * `horizon` (INFINITY: no such limit) and at most `at_once` run at a time
 * (the array's own %N; 0 = no limit).  Exact (the optimum of the model)
 * when the lengths are equal and there is no limit, or a limit under
 * constant capacity; otherwise the largest of valid bounds (alone.c):
 * every task as short as the shortest (exact for that instance), the
 * longest task from the first possible start, and the pigeonhole chain
 * bound.  *end is INFINITY when the tasks cannot all start before the
 * horizon, the release when n == 0.  0, EINVAL or ENOMEM. */
int dl_alone_phase_end(const struct dl_alone_supply *s, double release,
		       const double *len, uint32_t n, uint32_t at_once,
		       double horizon, double *end);

#endif
