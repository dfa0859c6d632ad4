/*
 * policy/triage.h - the default policy: earliest deadline first, as wide as
 * each job can use, with triage (Policy=triage), and plain EDF without it
 * (Policy=edf).
 *
 * Under overload, deadline order alone has a domino effect: the job due
 * first that can no longer make it still takes the capacity the next one
 * needed, and every job ends up a little late.  Triage stops it the way
 * Moore and Hodgson's rule minimises late jobs on one machine: the jobs
 * are taken in deadline order and what the dispatcher will do with them
 * is simulated (policy/lookahead.h: running tasks, jobs without deadlines,
 * CPUs and memory per task, partitions, the map->reduce barrier, Slurm's
 * hard-deadline start window, the external-load forecast); while some job
 * is predicted late, the job with the most pending work among those due no
 * later than it is demoted, unless the late job cannot make it even alone
 * (then it is the one demoted).  A job is demoted only when that lets
 * another job meet its deadline: when the job with the most work is the
 * late job itself, or a job cannot make it even alone, it keeps its place
 * (at risk, resp. late) until it makes a later job late; jobs kept so are
 * late anyway and go before any job that would be on time.  The
 * test uses optimistic task lengths (a lower quantile, TriageQuantile=),
 * so a job is not written off on a pessimistic guess.
 *
 * Feasible jobs run urgent (before jobs without deadlines), in deadline
 * order, with every remaining task allowed at once.  Demoted jobs get the
 * verdict hopeless and an explanation of what it would take; they still
 * run after the feasible jobs, least pending work first, below jobs
 * without deadlines (HopelessRank=below) until they have been hopeless for
 * HopelessAging, or above them (HopelessRank=above).  Aging: those
 * hopeless for HopelessAging go first among them, in deadline order, so
 * jobs given up later cannot pass them for ever.  HopelessPromise=yes
 * bounds the wait instead: a job given up is promised the finish predicted
 * then and from the next cycle goes before every job due after that time
 * (a job it makes late is given up in its place).  Hysteresis: a job
 * hopeless in the previous plan comes back only when it is feasible with
 * its mean task lengths, not merely the optimistic ones, so it does not
 * flip from one cycle to the next.
 */
#ifndef DL_POLICY_TRIAGE_H
#define DL_POLICY_TRIAGE_H

#include "common/policy/input.h"

/* Demotion steps one cycle may take (each runs the lookahead again); the
 * rest carries over to the next cycle, whose hysteresis keeps what was
 * decided. */
#define DL_TRIAGE_MAX_STEPS 64
/* Hopeless jobs one cycle tries to bring back. */
#define DL_TRIAGE_MAX_READMIT 2
/* Lookahead runs one cycle spends placing hopeless jobs in the slack of
 * the feasible ones. */
#define DL_TRIAGE_MAX_SLACK_RUNS 16
/* The window over which the rate deadline work arrives at is learnt. */
#define DL_TRIAGE_ARRIVAL_WINDOW 3600.0
/* The least time a rate learnt since its first plan is scaled up for
 * (dl_triage_arrival_seen): the first plan counts the whole queue. */
#define DL_TRIAGE_ARRIVAL_MIN_SEEN 600.0

struct dl_plan *dl_triage_plan(const struct dl_policy_input *in, char *err,
			       size_t errlen);
struct dl_plan *dl_edf_plan(const struct dl_policy_input *in, char *err,
			    size_t errlen);

/* The optimistic task length of the triage test: quantile q of a
 * log-normal with the estimate's mean and spread, moved back towards the
 * mean by sqrt(waves) (the tasks one slot runs in sequence average out).
 * The mean when the spread is unknown; never above the mean for q < 0.5. */
double dl_triage_length(double mean, double sd, double q, double waves);

/* The rate deadline work arrives at (CPU-seconds per second), decayed
 * exponentially over `window` seconds: the rate learnt until `at`, aged to
 * `now`, plus `work` that arrived since.  Constant arrivals r give r. */
double dl_triage_arrival_rate(double rate, double at, double now, double work,
			      double window);

/* The share of the steady rate dl_triage_arrival_rate has counted when
 * learning began at `since`: 1 - e^(-elapsed / window), the elapsed time
 * at least DL_TRIAGE_ARRIVAL_MIN_SEEN; 1 for a bad input.  Constant
 * arrivals r since `since` give rate / seen = r from the first window on
 * (the bare rate reaches 0.63 r after an hour). */
double dl_triage_arrival_seen(double since, double now, double window);

/* The slack a job on time may lend (HopelessSlack): its slack, deadline
 * minus finish, less the delay work arriving until its deadline would
 * cost it if all of it came first (share = that work's share of the
 * cluster: the arrival rate over the capacity, times dl_triage_competing
 * where only the work due before it counts); never below 0. */
double dl_triage_spare_slack(double deadline, double finish, double now,
			     double share);

/* Of the deadline work that arrives in the next `left` seconds, the share
 * due within them, by the slacks of recent jobs (deadline minus the
 * earliest finish alone; h->v): arriving evenly, a job of slack v is due
 * in time only when it arrives in the first left - v seconds.  The work
 * due later runs after a job due in `left` seconds in deadline order, so
 * it takes none of that job's slack.  A slack stands for the window (its
 * deadline minus its arrival), which is longer: the share is an upper
 * bound.  1 (all of it) without history or for left not > 0. */
double dl_triage_competing(const struct dl_plan_slacks *h, double left);

/* The share of its spare slack a job on time lends (HopelessSlack and
 * HopelessSlackLoad): `slack` whatever the load; with `load_limit` > 0
 * at least 1 - load / load_limit, so all of it on an idle cluster and
 * nothing from the HopelessSlack floor up once the load (the larger of
 * the deadline work arriving and the work the jobs ahead need until
 * their deadlines, shares of the CPUs) reaches `load_limit`; a load not
 * known (NaN) lends `slack`.  E.g. slack 0, limit 0.5: load 0.1 lends
 * 0.8, load 0.5 and above lend 0; slack 0.25: load 0.4 lends 0.25. */
double dl_triage_lend_share(double slack, double load_limit, double load);

#endif
