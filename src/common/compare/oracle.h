/*
 * oracle.h - an upper bound on the deadlines any scheduler could meet with
 * perfect knowledge of task lengths (doc/design.md §8–9).
 *
 * The relaxation: work is fluid and preemptive, a phase may use at most
 * `width` resource units at once (its tasks times their size), maps must run
 * in [release, deadline - longest reduce] and reduces in
 * [release + longest map, deadline] (the precedence is kept only through
 * these windows), and the cluster offers a time-varying number of units per
 * resource.  Which jobs can all finish is then a max-flow question (Horn,
 * 1974): jobs -> phases -> (time window, resource) -> sink.
 *
 * Maximising the number of complete jobs in that relaxation is still hard,
 * so the bound solves its LP relaxation exactly: maximise sum_j f_j / W_j
 * (the fraction of each counted job's work that can be routed).  The
 * routable vectors form a polymatroid, so the greedy order -- smallest job
 * first, each pushed as far as augmenting paths allow without undoing
 * earlier jobs -- is optimal, and the floor of the sum bounds every real
 * schedule from above.  Capacities are rounded up and demands down (to
 * milli-unit-seconds), so rounding never makes the bound too small.
 *
 * A second relaxation counts tasks instead of work (oracle.c, "task
 * count"): with a grid of points spaced by the shortest task length, every
 * task runs over exactly one point of [its start, start + spacing), so at
 * each point the tasks counted are at most the units busy there, and a
 * job's tasks fall on the points of its window.  Each grid offset gives a
 * flow of the same kind; every one bounds every schedule, so the result is
 * the least of the fluid bound and the grid bounds.
 *
 * Within the fluid relaxation, a window shorter than two of a phase's
 * shortest tasks has a compulsory part: every task runs over its middle,
 * so the phase takes its whole width there.  And in either relaxation the
 * LP counts jobs partly routed; a job not routed whole lies in a tight set
 * of jobs (its reach in the residual network), and the jobs of such a set
 * that a schedule meets must fit its capacity whole: at most as many as
 * its smallest demands that fit ("whole jobs", oracle.c).
 *
 * A valid cut from outside the relaxation: the caller may give each job a
 * proven lower bound on its completion alone on the cluster (alone.h,
 * non-preemptive tasks, whole waves, capacity over time).  A job whose
 * bound is past its deadline is impossible: it is left out of the flow and
 * of the bound.  The bound of its maps also delays its reduce window.
 */
#ifndef DL_ORACLE_H
#define DL_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DL_ORACLE_MAX_RES 4

struct dl_oracle_phase {
	uint32_t res;    /* resource the phase's tasks use */
	double work;     /* resource-unit-seconds (task length x size summed) */
	double width;    /* most units usable at once (tasks x size) */
	double longest;  /* longest task of the phase (s) */
	double shortest; /* shortest task of the phase (s); 0: not known,
			    which turns the task-count relaxation off */
};

struct dl_oracle_job {
	double release;
	double deadline;
	struct dl_oracle_phase map;
	struct dl_oracle_phase reduce; /* work 0: map-only job */
	bool counted;                  /* counts towards the bound */
	/* proven lower bounds (alone.h), 0 when not known, +inf when never:
	 * the last map ends no earlier than map_end_lb, the job no earlier
	 * than end_lb */
	double map_end_lb;
	double end_lb;
};

/* Units of each resource over time: piecewise constant, value k holds on
 * [t[k], t[k+1]); the first value also before t[0], the last one after
 * t[nsteps-1].  units is row-major: units[r * nsteps + k]. */
struct dl_oracle_capacity {
	uint32_t nres;
	uint32_t nsteps;
	const double *t;
	const double *units;
};

struct dl_oracle_result {
	uint32_t counted;    /* counted jobs */
	uint32_t impossible; /* counted jobs that cannot meet the deadline:
				critical path or alone bound */
	uint32_t impossible_alone; /* of which by the alone bound */
	uint32_t routed;           /* counted jobs whose work routes entirely */
	double fraction;           /* the LP optimum: sum_j f_j / W_j */
	uint32_t bound;            /* the least of the relaxations' bounds */
	uint32_t fluid_bound;      /* the fluid relaxation: floor(fraction), or
				      fewer by whole jobs per tight set */
	uint32_t task_bound;       /* the task-count relaxation at its best grid
				      offset; UINT32_MAX when not applicable */
	uint64_t edges;            /* size of the flow network */
	uint64_t augmentations;
};

/* The inputs' sanity, as every function over them needs it: 0, or EINVAL
 * with a message in err (NULL, NaN, negative or inconsistent inputs). */
int dl_oracle_check_input(const struct dl_oracle_job *jobs, uint32_t njobs,
			  const struct dl_oracle_capacity *cap, char *err,
			  size_t errlen);

/* The capacity over time, shared by the bounds: its units are taken as 0
 * where negative.  prefix (nres x nsteps) gets each resource's integral from
 * t[0] to each step's start; dl_oracle_integral_to gives it at any x
 * (negative before t[0]), dl_oracle_units_at the units of the step holding
 * x. */
void dl_oracle_capacity_prefix(const struct dl_oracle_capacity *c,
			       double *prefix);
double dl_oracle_integral_to(const struct dl_oracle_capacity *c,
			     const double *prefix, uint32_t r, double x);
double dl_oracle_units_at(const struct dl_oracle_capacity *c, uint32_t r,
			  double x);

/* Compute the bound.  Returns 0, EINVAL (NULL, NaN, negative or
 * inconsistent inputs, with a message in err) or ENOMEM. */
int dl_oracle_bound(const struct dl_oracle_job *jobs, uint32_t njobs,
		    const struct dl_oracle_capacity *cap,
		    struct dl_oracle_result *res, char *err, size_t errlen);

#endif
