/*
 * policy/reserve.h - triage's blocking reserve (BlockingReserve=).
 *
 * Tasks are never pre-empted, so a job whose tasks are long against the
 * slack of the jobs that arrive blocks them: a job due in two minutes
 * finds every slot held by tasks ending in five.  The reserve is a share
 * r of each partition's CPUs that such long tasks leave free unless their
 * own job needs them for its deadline; short tasks, and the part of a job
 * it needs, still take everything, so the policy stays work-conserving
 * for short work.
 *
 * What "long" means is learned, not configured: the slack (deadline minus
 * the earliest finish alone) and the grain (the longest phase's mean task
 * length) of the last DL_PLAN_SLACKS jobs, taken once when each is first
 * judged, are carried from plan to plan.  A phase is long when its mean
 * task length L would have blocked at least the BlockingHorizon share of
 * them (default: a tenth): their slack was shorter than L and their own
 * tasks were shorter than L.  The second condition is what the reserve is
 * for: it serves work finer-grained than the tasks that block it.  A job
 * whose own tasks are as long needs whole waves of them, a width a share
 * of the CPUs rarely holds, and is served by deadline order at task ends
 * as well; where every task is alike (the reverse family) nothing is long
 * and the reserve keeps nothing idle.  Without history nothing is long.
 * A phase whose length is only guessed (a reduce at the map's length
 * times the cost ratio) is judged as the longest it could be (len =
 * INFINITY): a guess is no evidence that its tasks are short, and the
 * first of them to end measures them.  A phase with no length at all (a
 * new job without history) is judged, with BlockingUnknown=yes, as long as
 * the typical task of recent jobs (their median grain): on a cluster whose
 * jobs run hours-long tasks a new job is presumed to, and the reserve
 * keeps it from taking every CPU for hours before its first task ends;
 * where jobs' tasks are typically short it is not held back.  It keeps the
 * floor its deadline needs with tasks of that length, except under load
 * (below).  Besides, the jobs of unknown length share the reserve itself
 * max-min fair (dl_fair_split, running tasks included): the width
 * that meets a deadline is unknown while the length is, and only every
 * task left is safe; a job keeps that if it is within an equal part, so a
 * big one cannot take what the small ones need, and together they hold no
 * more than the reserve until their first tasks end and measure them.
 *
 * The rule, per partition, jobs in rank order: a long phase may run
 *   max(floor, room)  tasks at once, never more than it has left, and at
 *   least one,
 * where floor = ceil(need x (1 + BlockingMargin)) for a job ahead (its
 * concurrency for its deadline, whole waves; 0 for a job given up on, and
 * for one late at its place on measured lengths: it keeps its place, but
 * a width for a deadline it misses anyway would only take CPUs from the
 * jobs arriving next and the feasible ones due after it) and
 * room = ((1 - r) x the partition's CPUs - CPUs of the other long tasks)
 * / its CPUs per task.  The plan applies it to the allocation (hence the
 * throttle, plan/decide.c); the lookahead applies it at every dispatch,
 * with the long tasks running then, which is what re-planning at task
 * ends does.
 *
 * Only out of slack: CPUs kept idle for jobs that may come are worth it
 * only while the jobs present can spare them.  Triage decides its verdicts
 * without the reserve, then runs the final order with it (policy/
 * triage.c, reserve_decide).  When a job with a deadline competing for a
 * partition is given up or late at its place, or the reserve would make a
 * feasible one late:
 *   BlockingUnderLoad=yes  every feasible job with known task lengths is
 *     freed of the reserve there (it may run as wide as it can); given-up
 *     jobs (unless a job without a deadline waits for their nodes: Slurm
 *     would start it on the CPUs kept idle, triage.c given_up_keep) and
 *     phases of unknown length keep leaving it, the latter
 *     with their fair part of the reserve but without their presumed
 *     floor.  Under overload
 *     the jobs that can still meet their deadlines run unrestricted, while
 *     work already lost or not yet measured cannot fill the partition with
 *     long tasks that block the short jobs arriving next.
 *   BlockingUnderLoad=no  the partition's reserve is off for the cycle:
 *     an overloaded partition uses every CPU for whatever runs.
 * Either way the reserve never costs a feasible job its deadline as the
 * lookahead predicts it.
 */
#ifndef DL_POLICY_RESERVE_H
#define DL_POLICY_RESERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/config/config.h"
#include "common/plan/plan.h"
#include "common/policy/capacity.h"

/* Whether the reserve is on for this configuration. */
bool dl_reserve_on(const struct dl_config *cfg);

/* Start the plan's slack history from the previous plan's (NULL: empty). */
void dl_reserve_inherit(struct dl_plan *plan, const struct dl_plan *prev);

/* Whether the job is judged for the first time: absent from the previous
 * plan, without a task length there, or waiting there for its begin time. */
bool dl_reserve_first_judged(const struct dl_plan *prev, uint64_t job_id);

/* Add a job's slack and grain (seconds; a slack below 0 counts as 0, a
 * NaN slack is ignored; a grain below 0 or NaN counts as 0). */
void dl_reserve_note(struct dl_plan *plan, double slack, double grain);

/* Whether tasks of mean length `len` are long: at least the share `q` of
 * the jobs in the history (at least one) would have been blocked by one,
 * that is, had a slack shorter than `len` and tasks of their own shorter
 * than `len`.  False when the history is empty, q is not in [0, 1] or
 * len is not > 0. */
bool dl_reserve_is_long(const struct dl_plan_slacks *s, double q, double len);

/* The same test in two steps, for many lengths against one history: the
 * length tasks must exceed to be long (INFINITY: none is long), then
 * whether `len` does. */
double dl_reserve_long_above(const struct dl_plan_slacks *s, double q);
static inline bool dl_reserve_long_len(double above, double len)
{
	return len > 0 && len > above;
}

/* The typical task of recent jobs: the median grain of the history (the
 * upper one of an even count: an order statistic, not an interpolation);
 * 0 when the history is empty.  What a phase nobody has a task length
 * for is judged by (BlockingUnknown). */
double dl_reserve_typical_grain(const struct dl_plan_slacks *s);

/* The concurrency a job keeps whatever the reserve: ceil(need x (1 +
 * margin)) (less 1e-9, so an exact need is not rounded up), at most
 * `rem`; 0 for need NaN or <= 0. */
uint32_t dl_reserve_floor(double need, uint32_t rem, double margin);

/* The CPUs of partition `part` long tasks may hold together: (1 - share)
 * x the CPUs of its classes in `full` (every up node, other work
 * included); INFINITY when share <= 0. */
double dl_reserve_budget(const struct dl_capacity *full, uint32_t part,
			 double share);

/* The CPUs of the reserve itself: share (at most 1) x the CPUs of
 * partition `part`'s classes in `full`; 0 when share <= 0 or full is
 * NULL.  What the jobs of unknown length share (BlockingUnknown). */
double dl_reserve_share_cpus(const struct dl_capacity *full, uint32_t part,
			     double share);

/* The rule: tasks of a long phase that may run at once, given `budget`,
 * the CPUs `others` of the other long tasks, `cpu` per task (> 0), the
 * job's floor `keep` and `rem` tasks left (running ones included).  At least 1
 * while rem > 0, so the reserve never starves a job. */
uint32_t dl_reserve_width(double budget, double others, double cpu,
			  uint32_t keep, uint32_t rem);

/* The plan's side of the rule, jobs taken in rank order: per partition
 * the CPUs long jobs ranked so far were allotted, the CPUs long tasks run
 * now, and of those the ones of jobs ranked so far.  A job's `others` is
 * what the jobs ahead of it were allotted and what those behind it run. */
struct dl_reserve_ledger {
	uint32_t npart;
	double *budget; /* per partition, dl_reserve_budget */
	double *allotted, *running, *running_seen;
};

/* 0 or ENOMEM; budgets from `full` and the configured share. */
int dl_reserve_ledger_init(struct dl_reserve_ledger *l, uint32_t npart,
			   const struct dl_capacity *full,
			   const struct dl_config *cfg);
void dl_reserve_ledger_free(struct dl_reserve_ledger *l);
/* A long phase runs `cpus` now (before the first dl_reserve_allot). */
void dl_reserve_ledger_running(struct dl_reserve_ledger *l, uint32_t part,
			       double cpus);
/* The next job in rank order with a long active phase: its width by the
 * rule, recorded as its allotment. */
uint32_t dl_reserve_allot(struct dl_reserve_ledger *l, uint32_t part,
			  double cpu, uint32_t keep, uint32_t running,
			  uint32_t rem);

#endif
