/*
 * tardiness.h - a lower bound on the late jobs' total lateness in every
 * schedule, whatever the policy (doc/simulator.md, "The lateness bound").
 *
 * The instance is the oracle's (oracle.h): the counted jobs, their work per
 * resource at the shortest task lengths, the capacity over time, and each
 * job's proven earliest end alone (end_lb, alone.h).  A schedule's total
 * lateness is the integral over time of the number of jobs past their
 * deadline and not yet done.  At any time t that number is at least:
 *   - the jobs due by t whose earliest end alone is after t ("late
 *     alone"), plus
 *   - the fewest other jobs due by t that can hold what the late-alone
 *     jobs leave of the work all due jobs still have at t.  That work is
 *     at least the backlog of a fluid machine with the resource's capacity
 *     serving only the due jobs, each from its release: max over s of
 *     (their work released at or after s - the capacity of [s, t]).  A job
 *     holds at most its own work, so the late-alone jobs hold at most
 *     theirs, and the rest needs at least the fewest of the largest other
 *     jobs whose work covers it.  The backlog of one window s alone can
 *     only be held by the jobs released at or after s (none runs before
 *     its release), so counting in a window can need more jobs; the
 *     larger count is kept.
 * This holds in every schedule the oracle bounds (its relaxation drops
 * task widths and the map-reduce order; jobs not counted only take
 * capacity), so its integral is a lower bound.  Each resource gives one;
 * the largest is kept.
 *
 * What it proves: in any schedule that runs every job to its end, m late
 * jobs among the counted ones are late by at least bound / m on average.
 *
 * The count's layers tighten it for few late jobs.  Layer h is where the
 * count is at least h: a set of segments.  A schedule's late jobs are
 * intervals [deadline, end], at least as many over every time as the
 * count; where there are fewer of them than the layers' segments, the
 * components of the schedule's own layers (at most its late jobs in all)
 * cover some layer's consecutive segments and the whole gap between
 * them.  So m late jobs are late by at least the bound plus the segments
 * - m shortest gaps in all, and no schedule has fewer late jobs than the
 * highest layer.
 */
#ifndef DL_TARDINESS_H
#define DL_TARDINESS_H

#include <stddef.h>
#include <stdint.h>

#include "common/compare/oracle.h"

/* The bound in seconds, summed over the counted jobs, into *lb.  0, EINVAL
 * (dl_oracle_check_input's checks) or ENOMEM.  Where the capacity is zero
 * after its last step while work is left, that time is not counted (the
 * result stays a bound). */
int dl_tardiness_bound(const struct dl_oracle_job *jobs, uint32_t njobs,
		       const struct dl_oracle_capacity *cap, double *lb,
		       char *err, size_t errlen);

/* The layers of the count whose bound is kept (the resource's). */
struct dl_tardiness_layers {
	uint32_t segments; /* over every layer */
	uint32_t height;   /* the highest layer */
	uint32_t ngaps;    /* segments - height */
	double *gaps; /* between a layer's consecutive segments, ascending */
};

/* dl_tardiness_bound, and with layers (NULL: none) the count's layers,
 * which the caller frees with dl_tardiness_layers_free. */
int dl_tardiness_bound_layers(const struct dl_oracle_job *jobs, uint32_t njobs,
			      const struct dl_oracle_capacity *cap, double *lb,
			      struct dl_tardiness_layers *layers, char *err,
			      size_t errlen);
void dl_tardiness_layers_free(struct dl_tardiness_layers *l);

/* The least total lateness of a schedule with at most m late jobs among the
 * counted ones, from the bound lb and its layers: lb plus the segments - m
 * shortest gaps; lb when m covers every segment; INFINITY below the
 * height (no such schedule).  NULL layers: lb. */
double dl_tardiness_at_most(const struct dl_tardiness_layers *l, double lb,
			    uint32_t m);

#endif
