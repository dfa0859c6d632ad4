/*
 * policy/triage.c - EDF with triage, and plain EDF (see triage.h).
 *
 * One cycle:
 *  1. every job with a deadline is prepared (goal, task lengths); jobs
 *     without one only hold capacity with their running tasks;
 *  2. two lookaheads of the dispatcher are built, one with optimistic task
 *     lengths (the feasibility test) and one with the mean ones (the
 *     predicted finish);
 *  3. triage (not for Policy=edf): Moore-Hodgson over the optimistic
 *     lookahead (a late job whose demotion would help no other job keeps
 *     its place, or with LateAhead=no is given up -- and judged again by
 *     the same test every cycle), then hopeless jobs of the previous plan
 *     that are feasible again with mean lengths come back (jobs promised a
 *     finish, HopelessPromise, hold their places from the start);
 *  4. ranks, throttles, verdicts and explanations.
 */
#include "common/policy/triage.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/estimate.h"
#include "common/estimate/goal.h"
#include "common/estimate/stats.h"
#include "common/io/clock.h"
#include "common/io/timefmt.h"
#include "common/policy/capacity.h"
#include "common/policy/fair.h"
#include "common/policy/heap.h"
#include "common/policy/lookahead.h"
#include "common/policy/reserve.h"
#include "common/policy/share.h"
#include "common/plan/id_index.h"

enum tstate {
	T_OUT = 0,    /* not managed: no deadline, capped or done */
	T_FEASIBLE,   /* meets its deadline in deadline order */
	T_KEPT,       /* late at its place, but giving it up helps no one */
	T_NODATA,     /* no task length known: cannot be judged */
	T_DEMOTED,    /* others due earlier meet theirs only without it */
	T_IMPOSSIBLE, /* cannot meet its deadline even alone */
	T_PASSED,     /* the deadline has passed: given up (`since` set),
			 or kept at its place as T_KEPT (PassedAhead) */
};

struct tjob {
	struct dl_job *job;
	struct dl_plan_job *out;
	struct dl_goal goal;
	enum tstate state;
	uint32_t la; /* index in both lookaheads */
	/* tasks left in the active phase, at most its own limit
	 * (max_running): the widest it can run, its width everywhere */
	uint32_t rem;
	uint32_t pos; /* deadline order */
	double cpu;   /* one task of the active phase */
	double mem;
	double work;      /* pending CPU-seconds at optimistic lengths */
	double work_mean; /* the same at mean lengths, every phase */
	double alone_lb;  /* no earlier than this even alone (optimistic) */
	double finish_opt, finish_mean, alone;
	double since;     /* hopeless since; 0 = not hopeless */
	double was_since; /* given up late in the previous plan: since when */
	bool guessed;     /* a phase left to run has no length of its own or
			     from history (a ratio or a fallback) */
	bool readmit;     /* hopeless in the previous plan: may come back */
	bool spread;      /* a phase left to run has optimistic tasks shorter
			     than mean ones */
	double prev_late; /* the previous plan's predicted lateness */
	/* a job not ahead placed in the slack of the jobs ahead: it goes
	 * just before the job at deadline-order place `anchor`; NO_ANCHOR =
	 * after every job ahead */
	uint32_t anchor;
	/* the blocking reserve (reserve.h): the active phase is long, and
	 * the concurrency it keeps while ahead */
	bool blocking;
	uint32_t keep;
	double keep_len;    /* the task length `keep` was counted with */
	uint32_t pool_keep; /* unknown length: its part of the reserve */
	/* unknown length, presumed long for its width (BlockingUnknownWide) */
	bool wide_unknown;
	double grain; /* the longest mean task length of its phases left */
	/* of the deadline work arriving until its deadline, the share due
	 * before it (dl_triage_competing), times the arrival share: what
	 * its spare slack leaves for arrivals (steal_slack) */
	double arrivals_ahead;
	bool aged; /* given up for HopelessAging or longer (sort_behind) */
	/* T_PASSED that PassedAhead lets keep its place (by default with one
	 * task left): late already, it stays there while that costs no other
	 * job its deadline, as EDF would run it; given up at once, a short
	 * task waited behind every feasible job (SWIM with priors, k = 4: up
	 * to 98 minutes) */
	bool keep_place;
	/* the active phase is long on a guessed length (a reduce at the
	 * map's length times a ratio, not a measured one) */
	bool guess_active;
	/* BlockingUnderLoad=yes, no length: due before a job ahead whose
	 * active phase is a guess and competes with it, it may take the
	 * CPUs that guess would (free_before_guess): guess_keep tasks */
	bool before_guess;
	uint32_t guess_keep;
	/* late at its place, given up for the jobs that arrive
	 * (given_up_for_arrivals) */
	bool for_arrivals;
	/* HopelessPromise: the finish promised when it was first given up
	 * (0 = none), and the deadline-order place that keeps it: just
	 * before the first job due after it (nedf: after every job ahead);
	 * NO_ANCHOR without a promise */
	double promise;
	uint32_t promise_anchor;
};

#define NO_ANCHOR UINT32_MAX

struct tctx {
	const struct dl_policy_input *in;
	struct tjob *t;
	uint32_t n;
	uint32_t *edf; /* managed jobs in deadline order */
	uint32_t nedf;
	uint32_t *order;  /* the order of a lookahead run (la indexes) */
	uint32_t *seq;    /* the same as job indexes */
	uint32_t *behind; /* jobs not ahead, in their own order */
	uint32_t nbehind;
	uint32_t *anchored; /* those with a place in the slack, by place */
	uint32_t nanchored;
	struct dl_lookahead *opt, *mean;
	double tol;
	bool triage;
	/* the slack history long tasks are judged by (reserve.h); NULL
	 * while the reserve is off */
	const struct dl_plan_slacks *slacks;
	double long_above; /* dl_reserve_long_above of slacks */
	/* deadline work arriving, share of the CPUs, over the last hour (so
	 * low while that hour is still being learnt): what
	 * LateAheadMaxArrivals limits */
	double arrival_share;
	/* the same counted in full while the rate is still being learnt
	 * (dl_triage_arrival_seen): what HopelessSlackMaxArrivals limits */
	double arrival_load;
	/* the slacks of recent jobs, kept whether the reserve is on or not:
	 * how soon after arriving work is due (dl_triage_competing) */
	const struct dl_plan_slacks *arrived;
	/* per partition: a job with a guessed task length runs or waits
	 * there, and whether a lend there can be judged (lend_judgeable);
	 * NULL until steal_slack needs them */
	bool *guessing;
	signed char *judgeable;
	double cpus; /* the CPUs of the partitions planned */
	struct dl_reserve_ledger rl;
	/* BlockingUnknown: the task length a job of unknown length is
	 * presumed to run, when that length is long; 0 when it is not (or
	 * the option is off): one value per cycle (reserve_setup) */
	double unknown_len;
	/* BlockingUnknownWide: recent jobs' typical task (0 while none is
	 * known or BlockingUnknown is off), the capacity a phase's width is
	 * measured against, and whether some phase was presumed long for
	 * its width this cycle (then the jobs of unknown length share the
	 * reserve, as when unknown_len is set) */
	double typical_len;
	const struct dl_capacity *full;
	bool wide_presumed;
	/* per partition: a job without a deadline waits for nodes it shares,
	 * so the reserve holds no given-up job back there (given_up_keep)
	 * and such a job may borrow HopelessSlackWaiting (steal_slack) */
	bool *other_waits;
};

double dl_triage_length(double mean, double sd, double q, double waves)
{
	double cv, s2, len;

	if (!(mean > 0) || !isfinite(mean))
		return 0;
	if (!(sd > 0) || !isfinite(sd) || !(q > 0 && q < 1))
		return mean;
	cv = sd / mean;
	s2 = log1p(cv * cv);
	len = mean * exp(-s2 / 2 + dl_normal_quantile(q) * sqrt(s2));
	if (waves > 1)
		len = mean + (len - mean) / sqrt(waves);
	return len > 0 ? len : mean;
}

double dl_triage_arrival_rate(double rate, double at, double now, double work,
			      double window)
{
	double r = rate >= 0 && isfinite(rate) ? rate : 0;

	if (!(window > 0) || !isfinite(window))
		return r;
	if (now > at && isfinite(now - at))
		r *= exp(-(now - at) / window);
	if (work > 0 && isfinite(work))
		r += work / window;
	return r;
}

double dl_triage_arrival_seen(double since, double now, double window)
{
	double elapsed = now - since;

	if (!(window > 0) || !isfinite(window) || !isfinite(elapsed))
		return 1;
	if (elapsed < DL_TRIAGE_ARRIVAL_MIN_SEEN)
		elapsed = DL_TRIAGE_ARRIVAL_MIN_SEEN;
	return -expm1(-elapsed / window);
}

double dl_triage_spare_slack(double deadline, double finish, double now,
			     double share)
{
	double s;

	if (!(share > 0))
		share = 0;
	s = deadline - finish - share * (deadline - now);
	return s > 0 ? s : 0;
}

double dl_triage_competing(const struct dl_plan_slacks *h, double left)
{
	double sum = 0;
	uint32_t n = 0;

	if (!h || !(left > 0) || !isfinite(left))
		return 1;
	for (uint32_t i = 0; i < h->n && i < DL_PLAN_SLACKS; i++) {
		double v = h->v[i];

		if (isnan(v))
			continue;
		sum += v <= 0 ? 1 : v < left ? (left - v) / left : 0;
		n++;
	}
	return n ? sum / n : 1;
}

double dl_triage_lend_share(double slack, double load_limit, double load)
{
	double lend = slack > 0 && isfinite(slack) ? slack : 0, ramp;

	/* a load not known (NaN) lends no more than the floor */
	if (load_limit > 0 && isfinite(load_limit) && !isnan(load)) {
		ramp = load > 0 ? 1 - load / load_limit : 1;
		if (ramp > lend)
			lend = ramp;
	}
	return lend < 1 ? lend : 1;
}

/* ---------------------------------------------------------- preparing */

/* A task length for a job nobody has a number for yet: it still holds
 * capacity others need.  Half its time limit (users ask for more than
 * they use), else a minute. */
static double unknown_length(const struct dl_phase *ph)
{
	return ph->time_limit > 0 ? ph->time_limit / 2 : 60;
}

/* Slurm's hard-deadline start window: with --deadline, an array's tasks
 * start only while now + time limit (at least a minute) is before it. */
static double latest_start(const struct dl_phase *ph)
{
	double tl;

	if (!(ph->hard_deadline > 0))
		return INFINITY;
	tl = ph->time_limit > 60 ? ph->time_limit : 60;
	return ph->hard_deadline - tl;
}

static void phase_lengths(const struct dl_job *job, const struct dl_goal *g,
			  int p, const struct dl_capacity *cap, double q,
			  double *opt, double *mean, double *sd, bool *exact)
{
	const struct dl_phase *ph = &job->phase[p];
	struct dl_mu mu = p == DL_MAP ? dl_phase_mu(ph) : g->mu_reduce;
	double cpu = ph->cpus_per_task ? ph->cpus_per_task : 1;
	double slots, waves = 1;
	uint32_t pending = dl_phase_pending(ph);

	*sd = mu.sd;
	*exact = mu.exact; /* only ever with a mean */
	if (!(mu.mean > 0)) {
		*opt = *mean = unknown_length(ph);
		*sd = 0;
		return;
	}
	slots = dl_capacity_slots(cap, job->partition, -1, cpu,
				  (double) ph->mem_per_task, true);
	if (slots >= 1 && pending > slots)
		waves = ceil(pending / slots);
	*mean = mu.mean;
	*opt = dl_triage_length(mu.mean, mu.sd, q, waves);
}

/* The concurrency a long active phase keeps whatever the reserve, with
 * tasks of length `len`: what its phase goal `goal` needs in whole waves,
 * plus `margin` of it. */
static uint32_t reserve_keep(const struct tctx *c, const struct tjob *t,
			     double len, double goal, double margin)
{
	const struct dl_config *cfg = c->in->cfg;
	const struct dl_phase *ph = &t->job->phase[t->goal.phase_kind];
	double need = goal > c->in->now ? dl_need(ph, len, goal, c->in->now,
						  cfg->overdue_floor)
					: t->rem;

	need = dl_wave_need(ph, len, goal, c->in->now, cfg->overdue_floor,
			    need);
	return dl_reserve_floor(need, t->rem, margin);
}

/* BlockingUnknownWide: whether phase p's tasks left, running ones
 * included, would take that share of its partition's CPUs or more. */
static bool unknown_wide(const struct tctx *c, const struct tjob *t, int p)
{
	const struct dl_phase *ph = &t->job->phase[p];
	double share = c->in->cfg->blocking_unknown_wide, cpus, width;

	if (!(share > 0) || !(c->typical_len > 0) || !c->full)
		return false;
	cpus = dl_capacity_partition_cpus(c->full, t->job->partition);
	width = (double) (dl_phase_pending(ph) + ph->nrunning) *
		(ph->cpus_per_task ? ph->cpus_per_task : 1);
	return cpus > 0 && width >= share * cpus;
}

/* A job nobody has a task length for (BlockingUnknown=yes): its phases
 * are presumed as long as recent jobs' typical task (reserve.h) unless
 * their time limit is short, and it keeps the concurrency its deadline
 * needs with such tasks (none under load: reserve_free_feasible).  Where
 * that task is short, only a phase wide enough to take a share of its
 * partition (BlockingUnknownWide, a quarter by default) is presumed to
 * run it: the typical task says little about a job nobody has seen, and
 * one that fills the partition with tasks of unknown length leaves the
 * tight jobs arriving behind it nothing (FB-2010 hours 21.0 at k = 2: 277
 * maps took 164 of 200 CPUs while one-task jobs due within seconds
 * waited; 17 trace slices: 3,852 misses at a quarter, 4,012 at half,
 * 4,252 without, bench/results/sim-summary.md (37), (38)).  A narrow one
 * runs every task at once, as before. */
static bool reserve_long_unknown(struct tctx *c, struct tjob *t, int p)
{
	double limit = t->job->phase[p].time_limit, len = c->unknown_len;
	bool wide = false;

	if (!(len > 0) && unknown_wide(c, t, p)) {
		len = c->typical_len;
		wide = true;
	}
	if (!(len > 0))
		return false;
	/* Slurm ends a task at its time limit: one within it is short */
	if (limit > 0 && !dl_reserve_long_len(c->long_above, limit))
		return false;
	c->wide_presumed = c->wide_presumed || wide;
	if (p == t->goal.phase_kind) {
		t->blocking = true;
		t->wide_unknown = wide;
		t->keep_len = len;
		t->keep = reserve_keep(c, t, len, t->goal.phase,
				       c->in->cfg->blocking_margin);
	}
	return true;
}

/* Whether phase p of the job is long for the blocking reserve: its mean
 * task length (any length, when only guessed) is above the learned
 * horizon; then the concurrency its deadline needs (whole waves) plus the
 * margin is what the active phase keeps. */
static bool reserve_long(struct tctx *c, struct tjob *t, int p, double mean)
{
	const struct dl_phase *ph = &t->job->phase[p];
	struct dl_mu mu = p == DL_MAP ? dl_phase_mu(ph) : t->goal.mu_reduce;
	/* a length guessed (a reduce at the map's length times a ratio) is
	 * not known to be short: judged as the longest it could be until a
	 * task of the phase ends */
	bool measured = mu.source == DL_MU_JOB || mu.source == DL_MU_PRIOR;

	if (c->slacks && t->state == T_NODATA)
		return reserve_long_unknown(c, t, p);
	if (!c->slacks || !(mu.mean > 0) ||
	    !dl_reserve_long_len(c->long_above, measured ? mean : INFINITY))
		return false;
	if (p == t->goal.phase_kind) {
		t->blocking = true;
		t->keep_len = mu.mean;
		t->keep = reserve_keep(c, t, mu.mean, t->goal.phase,
				       c->in->cfg->blocking_margin);
		t->guess_active = !measured;
	}
	return true;
}

/* The job in both lookaheads: its phases and running tasks. */
/* The earliest the job could finish with the whole of its partition to
 * itself (every node free, tasks of optimistic length, whole waves): its
 * running maps end, its pending maps run in waves of what the partition
 * holds, then its reduces the same way.  A valid lower bound: a job whose
 * bound is past its deadline is lost whatever the others do. */
static double alone_bound(const struct tctx *c, const struct tjob *t,
			  const struct dl_capacity *full,
			  const double len[DL_PHASES])
{
	double now = c->in->now, end[DL_PHASES] = {now, now};
	const struct dl_phase *m = &t->job->phase[DL_MAP];

	/* running maps end; pending ones could run beside them */
	for (uint32_t i = 0; i < m->nrunning; i++) {
		double e = now + dl_delta(len[DL_MAP], m->running[i].start, now,
					  c->in->cfg->overdue_floor);

		end[DL_MAP] = e > end[DL_MAP] ? e : end[DL_MAP];
	}
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &t->job->phase[p];
		uint32_t pending = dl_phase_pending(ph);
		double slots, from = p == DL_MAP ? now : end[DL_MAP], e;

		if (!pending)
			continue;
		slots = dl_capacity_slots(full, t->job->partition, -1,
					  ph->cpus_per_task ? ph->cpus_per_task
							    : 1,
					  (double) ph->mem_per_task, true);
		if (!(slots >= 1))
			return INFINITY; /* nothing could ever run it */
		if (ph->max_running && slots > ph->max_running)
			slots = ph->max_running; /* its own limit */
		e = from + ceil(pending / slots) * len[p];
		end[p] = e > end[p] ? e : end[p];
	}
	/* the reduces start once the last map has ended */
	return end[DL_REDUCE] > end[DL_MAP] ? end[DL_REDUCE] : end[DL_MAP];
}

static int add_to_lookaheads(struct tctx *c, struct tjob *t,
			     const struct dl_capacity *cap,
			     const struct dl_capacity *full)
{
	const struct dl_config *cfg = c->in->cfg;
	struct dl_la_job lo = {0}, lm = {0};
	double len_opt[DL_PHASES], len_mean[DL_PHASES], sd[DL_PHASES];
	bool exact[DL_PHASES];

	lo.partition = lm.partition = t->job->partition;
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &t->job->phase[p];
		struct dl_la_phase x = {0};

		phase_lengths(t->job, &t->goal, p, cap, cfg->triage_quantile,
			      &len_opt[p], &len_mean[p], &sd[p], &exact[p]);
		if (dl_phase_pending(ph) + ph->nrunning > 0) {
			enum dl_mu_source src =
				p == DL_MAP ? dl_phase_mu(ph).source
					    : t->goal.mu_reduce.source;

			if (src != DL_MU_JOB && src != DL_MU_PRIOR)
				t->guessed = true;
		}
		x.pending = dl_phase_pending(ph);
		x.cpus = ph->cpus_per_task ? ph->cpus_per_task : 1;
		x.mem = (double) ph->mem_per_task;
		x.latest_start = latest_start(ph);
		x.blocking = reserve_long(c, t, p, len_mean[p]);
		if (x.pending + ph->nrunning > 0 && len_mean[p] > t->grain)
			t->grain = len_mean[p];
		x.keep = x.pending + ph->nrunning;
		x.max_running = ph->max_running;
		x.len = len_opt[p];
		lo.phase[p] = x;
		x.len = len_mean[p];
		lm.phase[p] = x;
		if (x.pending + ph->nrunning > 0 && len_opt[p] < len_mean[p])
			t->spread = true;
		t->work += x.pending * len_opt[p] * lo.phase[p].cpus;
		t->work_mean += x.pending * len_mean[p] * lo.phase[p].cpus;
	}
	t->alone_lb = alone_bound(c, t, full, len_opt);
	t->la = dl_la_add_job(c->opt, &lo);
	if (t->la == DL_LA_NONE || dl_la_add_job(c->mean, &lm) != t->la)
		return ENOMEM;
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &t->job->phase[p];
		uint32_t n = ph->deferred < lo.phase[p].pending
				     ? ph->deferred
				     : lo.phase[p].pending;

		if (n &&
		    (dl_la_defer(c->opt, t->la, p, n, ph->deferred_until) ||
		     dl_la_defer(c->mean, t->la, p, n, ph->deferred_until)))
			return ENOMEM;
	}
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &t->job->phase[p];
		double cpus = lo.phase[p].cpus, mem = lo.phase[p].mem;

		/* the prediction has running tasks end spread as real ones
		 * do: task i at level (i + 1/2)/n of what is left of its
		 * length; the feasibility test takes every one at the
		 * optimistic quantile (a job is not written off on its
		 * slowest task) */
		struct dl_remaining dist;

		dl_remaining_init(&dist, len_mean[p], sd[p], exact[p],
				  cfg->overdue_floor);
		for (uint32_t i = 0; i < ph->nrunning; i++) {
			const struct dl_running_task *r = &ph->running[i];
			double now = c->in->now;
			/* optimistic, then mean-length lookahead */
			double u[2] = {cfg->triage_quantile,
				       (i + 0.5) / ph->nrunning};
			double left[2];

			dl_remaining_levels(&dist, now - r->start, u, 2, left);
			if (dl_la_add_running(c->opt, t->la, p, r->node, cpus,
					      mem, now + left[0]) ||
			    dl_la_add_running(c->mean, t->la, p, r->node, cpus,
					      mem, now + left[1]))
				return ENOMEM;
		}
	}
	return 0;
}

/* A job without deadline holds its nodes until its tasks end: after their
 * known length, else their time limit (what Slurm itself assumes). */
static int add_other(struct tctx *c, const struct dl_job *job)
{
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];
		struct dl_mu mu = dl_phase_mu(ph);
		double len = mu.mean > 0 ? mu.mean : ph->time_limit;
		double cpus = ph->cpus_per_task ? ph->cpus_per_task : 1;

		for (uint32_t i = 0; i < ph->nrunning; i++) {
			const struct dl_running_task *r = &ph->running[i];
			double end = len > 0 ? r->start + len : INFINITY;

			if (end <= c->in->now)
				end = c->in->now + c->in->cfg->lookahead_step;
			if (dl_la_add_other(c->opt, job->partition, r->node,
					    cpus, (double) ph->mem_per_task,
					    end) ||
			    dl_la_add_other(c->mean, job->partition, r->node,
					    cpus, (double) ph->mem_per_task,
					    end))
				return ENOMEM;
		}
	}
	return 0;
}

/* Whether a job past its deadline may keep its place (PassedAhead; never
 * with LateAhead=no): by default with one task left.  PassedAheadReduce=N
 * (off by default) also keeps one whose maps have all started while at
 * most N reduce tasks are left to start (bench/results/sim-summary.md,
 * 2026-12-01 (13): less lateness, misses traded between workloads).
 * PassedAhead=all keeps bigger ones too, which then take capacity from the
 * jobs arriving after them that the test does not see (2026-11-30 (2): far
 * less lateness, more misses). */
static bool cfg_passed(const struct tctx *c, const struct dl_job *job)
{
	const struct dl_phase *map = &job->phase[DL_MAP];
	const struct dl_phase *reduce = &job->phase[DL_REDUCE];
	uint32_t limit = c->in->cfg->passed_ahead_reduce;
	uint64_t left = 0;

	if (c->in->cfg->late_ahead != DL_YES)
		return false;
	switch (c->in->cfg->passed_ahead) {
	case DL_PASSED_ALL:
		return true;
	case DL_PASSED_ONE:
		for (int p = 0; p < DL_PHASES; p++)
			left += (uint64_t) dl_phase_pending(&job->phase[p]) +
				job->phase[p].nrunning;
		if (left <= 1)
			return true;
		return limit > 0 && map->tasks > 0 && reduce->tasks > 0 &&
		       dl_phase_pending(map) == 0 &&
		       dl_phase_pending(reduce) <= limit;
	default:
		return false;
	}
}

/* Goal, task lengths and the state the cycle starts from. */
static void prepare(struct tctx *c, struct tjob *t, struct dl_plan *plan,
		    uint32_t i, const struct dl_capacity *cap)
{
	const struct dl_config *cfg = c->in->cfg;
	const struct dl_plan_job *pj;
	const struct dl_phase *ph;

	t->job = c->in->jobs[i];
	t->out = &plan->jobs[i];
	t->finish_opt = t->finish_mean = t->alone = NAN;
	if (!dl_policy_prepare_job(t->out, t->job, cap, c->in, &t->goal, NULL))
		return;
	ph = &t->job->phase[t->goal.phase_kind];
	t->rem = dl_phase_width(ph);
	t->cpu = ph->cpus_per_task ? ph->cpus_per_task : 1;
	t->mem = (double) ph->mem_per_task;
	if (!(t->goal.job > 0)) {
		t->out->verdict = DL_VERDICT_ON_TRACK;
		t->out->cls = DL_CLASS_UNMANAGED;
		snprintf(t->out->explain, sizeof(t->out->explain),
			 "no deadline: left to Slurm's priority and backfill");
		return;
	}
	if (t->goal.mu.source == DL_MU_NONE)
		t->state = T_NODATA;
	else if (t->goal.job <= c->in->now) {
		t->state = T_PASSED;
		t->keep_place = cfg_passed(c, t->job);
	} else
		t->state = T_FEASIBLE;
	if (!c->triage || !c->in->prev ||
	    c->in->prev->policy != DL_POLICY_TRIAGE)
		return;
	/* hysteresis: what the previous plan gave up on stays given up until
	 * it is feasible with mean task lengths */
	pj = dl_plan_find(c->in->prev, t->job->id);

	if (pj && pj->hopeless_since > 0 && pj->given_up_late &&
	    t->state == T_FEASIBLE && cfg->late_ahead == DL_NO) {
		/* given up only for being late at its place on the optimistic
		 * lengths: the same test judges it again each cycle (on mean
		 * lengths a job whose estimate is pessimistic never came back,
		 * though its tasks would have run short enough) */
		t->was_since = pj->hopeless_since;
	} else if (pj && pj->hopeless_since > 0 && t->state == T_FEASIBLE) {
		t->state = T_DEMOTED;
		t->readmit = true;
		t->since = pj->hopeless_since;
		t->promise = cfg->hopeless_promise == DL_YES ? pj->promise : 0;
		t->prev_late = isfinite(pj->predicted_finish)
				       ? pj->predicted_finish - t->goal.job
				       : INFINITY;
	} else if (pj && pj->hopeless_since > 0) {
		t->since = pj->hopeless_since;
		t->promise = cfg->hopeless_promise == DL_YES ? pj->promise : 0;
	}
}

/* ----------------------------------------------------------- the order */

static int edf_cmp(const void *pa, const void *pb, void *vctx)
{
	const struct tjob *t = vctx;
	const struct tjob *x = &t[*(const uint32_t *) pa];
	const struct tjob *y = &t[*(const uint32_t *) pb];

	if (x->goal.job != y->goal.job)
		return x->goal.job < y->goal.job ? -1 : 1;
	if (x->job->submit != y->job->submit)
		return x->job->submit < y->job->submit ? -1 : 1;
	return (x->job->id > y->job->id) - (x->job->id < y->job->id);
}

/* A job given up keeps the time it was first given up, also when the
 * previous plan gave it up for being late at its place (LateAhead=no):
 * HopelessAging counts from there. */
static void give_up_since(const struct tctx *c, struct tjob *t)
{
	if (!(t->since > 0))
		t->since = t->was_since > 0 ? t->was_since : c->in->now;
}

/* Past its deadline, not given up, and let keep its place (PassedAhead). */
static bool passed_kept(const struct tjob *t)
{
	return t->state == T_PASSED && !(t->since > 0) && t->keep_place;
}

/* Dispatched first: feasible and unjudged jobs (and, without triage, every
 * job) in deadline order. */
static bool ahead(const struct tctx *c, const struct tjob *t)
{
	if (!c->triage)
		return t->state != T_OUT;
	/* LateAhead=no gives up a kept job only on measured lengths: late
	 * on a guessed phase (a reduce at the map's length times a ratio) is
	 * not known to be late */
	return t->state == T_FEASIBLE || t->state == T_NODATA ||
	       (t->state == T_KEPT &&
		(c->in->cfg->late_ahead == DL_YES || t->guessed)) ||
	       passed_kept(t);
}

/* Late whatever happens, yet at its place: Moore-Hodgson gives such jobs
 * up first (a kept job, or a passed one PassedAhead keeps). */
static bool late_kept(const struct tjob *t)
{
	return t->state == T_KEPT || passed_kept(t);
}

/* LateAheadMaxArrivals (opt-in): a job late at its place whose giving up
 * helps no job present is still given up (on a guessed phase too) while
 * it runs tasks and deadline work arrives at that share of the CPUs or
 * more over the last hour.  Kept, it takes every CPU it frees and more,
 * and the jobs arriving behind it pay, which the test does not see (on
 * FB-2010 hours 21.0 at k = 2 one grew from 80 to 164 of 200 CPUs while
 * one-task jobs due after it waited up to 48 s).  One that runs nothing
 * yet keeps its place: late by seconds in the lookahead it is often on
 * time once a CPU frees, and given up it waits behind every feasible job
 * (SWIM with priors: 244 -> 454 misses with those given up too).  The
 * share is not counted in full while the first hour is learnt: counted
 * so, Polo's scenario B met 1.2 of 5 goals instead of 3.  Off by default:
 * fewer misses on FB-2010 and the reverse family, a few more on SWIM with
 * priors, later late jobs (bench/results/sim-summary.md, 2026-12-05
 * (34)). */
static bool given_up_for_arrivals(const struct tctx *c, const struct tjob *t)
{
	const struct dl_config *cfg = c->in->cfg;

	return c->triage && cfg->late_ahead == DL_YES &&
	       t->job->phase[t->goal.phase_kind].nrunning > 0 &&
	       !(c->arrival_share < cfg->late_ahead_max_arrivals);
}

/* Aging: given up in an earlier cycle (one given up now has since == now)
 * for HopelessAging or longer. */
static bool aged(const struct tctx *c, const struct tjob *t)
{
	double now = c->in->now;

	return t->since > 0 && t->since < now &&
	       now - t->since >= c->in->cfg->hopeless_aging;
}

/* Jobs not ahead among themselves: the aged ones first, in deadline order,
 * so a job given up waits behind jobs given up after it for HopelessAging
 * at most (least pending work first alone would let a stream of smaller
 * ones pass a big one for ever); then the least pending work first, so the
 * late jobs that can be done soonest are (shortest remaining processing
 * time: least lateness summed over them); deadline order breaks ties. */
static int behind_cmp(const void *pa, const void *pb, void *vctx)
{
	const struct tjob *t = vctx;
	const struct tjob *x = &t[*(const uint32_t *) pa];
	const struct tjob *y = &t[*(const uint32_t *) pb];

	if (x->aged != y->aged)
		return x->aged ? -1 : 1;
	if (x->work != y->work && !x->aged)
		return x->work < y->work ? -1 : 1;
	return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

/* Anchored jobs by place, then in the order of the jobs behind. */
static int anchor_cmp(const void *pa, const void *pb, void *vctx)
{
	const struct tjob *t = vctx;
	const struct tjob *x = &t[*(const uint32_t *) pa];
	const struct tjob *y = &t[*(const uint32_t *) pb];

	if (x->anchor != y->anchor)
		return x->anchor < y->anchor ? -1 : 1;
	return behind_cmp(pa, pb, vctx);
}

static void sort_behind(struct tctx *c)
{
	c->nbehind = 0;
	for (uint32_t k = 0; k < c->nedf; k++)
		if (!ahead(c, &c->t[c->edf[k]])) {
			c->t[c->edf[k]].aged = aged(c, &c->t[c->edf[k]]);
			c->behind[c->nbehind++] = c->edf[k];
		}
	qsort_r(c->behind, c->nbehind, sizeof(*c->behind), behind_cmp, c->t);
}

/* Whether a job without a deadline waits for the nodes of partition part. */
static bool other_waits_in(const struct tctx *c, uint32_t part)
{
	return c->other_waits && part < c->in->cluster->npartitions &&
	       c->other_waits[part];
}

/* What the reserve leaves a job given up on: nothing (it has no deadline
 * to keep; a promised one keeps its promise, below) -- except where a job
 * without a deadline waits for the same nodes.  Slurm starts that job on
 * whatever the plan leaves idle, so the CPUs kept from the given-up job would
 * not stay free for the next tight arrival but go to work ranked below it
 * (HopelessRank=above; with below the waiting job takes them first anyway). */
static uint32_t given_up_keep(const struct tctx *c, const struct tjob *t)
{
	if (other_waits_in(c, t->job->partition))
		return t->rem;
	/* HopelessPromise: its promise is its deadline here, or the reserve
	 * breaks it (sched_promise.bats: capped at 27 tasks at once while
	 * its second wave started, its last task waited 20 s behind an
	 * array due after the promise and it ended 8 s past the promise).
	 * Without BlockingMargin: the promise is a prediction already, and
	 * the margin cost the SWIM day with history priors at k = 4 48
	 * misses against 28 */
	if (t->blocking && t->promise_anchor != NO_ANCHOR)
		return reserve_keep(c, t, t->keep_len,
				    t->promise - (t->goal.job - t->goal.phase),
				    0);
	return 0;
}

/* Past its deadline with no task length known: late whatever its tasks
 * take, yet unjudged, so it keeps its place in deadline order.  Its width
 * can no longer meet a deadline, so the reserve gives it no floor and no
 * part of the pool for unknown lengths: those CPUs stay for the tight
 * jobs arriving next (17 trace slices: 3,773 misses instead of 3,836;
 * bench/results/sim-summary.md (33)). */
static bool unknown_passed(const struct tctx *c, const struct tjob *t)
{
	return t->state == T_NODATA && t->goal.job <= c->in->now;
}

/* Whether the reserve leaves a job the floor its deadline needs: a job
 * ahead, unless it is late at its place on measured lengths.  Such a job
 * keeps its place in deadline order but, as one given up, no width for a
 * deadline it misses anyway: its long tasks would take the CPUs the
 * reserve keeps for the tight jobs arriving next, or that the feasible
 * jobs due after it use to meet theirs (FB-2010: a job of 2,877 maps,
 * late even alone, held 186 of 200 CPUs with 40-s tasks while jobs due
 * within 30 s queued; bench/results/sim-summary.md (31)).  Late on a
 * guessed phase (a reduce at the map's length times a ratio) is not known
 * to be late, as for LateAhead=no (Polo Ch.3 B: such a job met its
 * deadline at its full width, and missed it held back). */
static bool keeps_floor(const struct tctx *c, const struct tjob *t)
{
	return ahead(c, t) && !(late_kept(t) && !t->guessed) &&
	       !unknown_passed(c, t);
}

/* What the reserve leaves a long job: its floor (keeps_floor), else
 * given_up_keep. */
static uint32_t reserve_keep_of(const struct tctx *c, const struct tjob *t)
{
	return keeps_floor(c, t) ? t->keep : given_up_keep(c, t);
}

/* The reserve keeps a long job's need only while keeps_floor (or while it
 * is tried as ahead, `extra`). */
static void reserve_keeps(struct tctx *c, uint32_t extra)
{
	for (uint32_t k = 0; k < c->nedf; k++) {
		uint32_t i = c->edf[k];
		struct tjob *t = &c->t[i];
		uint32_t keep = i == extra ? t->keep : reserve_keep_of(c, t);

		if (!t->blocking)
			continue;
		dl_la_job(c->opt, t->la)->phase[t->goal.phase_kind].keep = keep;
		dl_la_job(c->mean, t->la)->phase[t->goal.phase_kind].keep =
			keep;
	}
}

/* The dispatch order: the jobs ahead in deadline order, each preceded by
 * the jobs behind anchored at its place, then (with `tail`) the other jobs
 * behind.  `extra` (if not UINT32_MAX) counts as ahead.  Fills c->order
 * (lookahead indexes) and c->seq (job indexes); returns their length and
 * the horizon: the latest deadline of a job ahead. */
static uint32_t build_order(struct tctx *c, bool tail, uint32_t extra,
			    double *horizon)
{
	uint32_t n = 0, b = 0;

	/* the jobs behind that have a place, by place: c->anchored */
	c->nanchored = 0;
	for (uint32_t i = 0; i < c->nbehind; i++)
		if (c->t[c->behind[i]].anchor != NO_ANCHOR &&
		    c->behind[i] != extra && !ahead(c, &c->t[c->behind[i]]))
			c->anchored[c->nanchored++] = c->behind[i];
	if (c->nanchored > 1)
		qsort_r(c->anchored, c->nanchored, sizeof(*c->anchored),
			anchor_cmp, c->t);
	*horizon = c->in->now;
	for (uint32_t k = 0; k < c->nedf; k++) {
		uint32_t i = c->edf[k];
		struct tjob *t = &c->t[i];

		for (; b < c->nanchored && c->t[c->anchored[b]].anchor == k;
		     b++) {
			c->seq[n] = c->anchored[b];
			c->order[n++] = c->t[c->anchored[b]].la;
		}
		if (!ahead(c, t) && i != extra)
			continue;
		c->seq[n] = i;
		c->order[n++] = t->la;
		if (t->goal.job > *horizon)
			*horizon = t->goal.job;
	}
	for (; b < c->nanchored; b++) { /* promised after every job ahead */
		c->seq[n] = c->anchored[b];
		c->order[n++] = c->t[c->anchored[b]].la;
	}
	for (uint32_t i = 0; tail && i < c->nbehind; i++) {
		struct tjob *d = &c->t[c->behind[i]];

		if (d->anchor == NO_ANCHOR && c->behind[i] != extra &&
		    !ahead(c, d)) {
			c->seq[n] = c->behind[i];
			c->order[n++] = d->la;
		}
	}
	*horizon += c->tol;
	reserve_keeps(c, extra);
	return n;
}

static bool late(const struct tctx *c, const struct tjob *t, double finish)
{
	return !(finish <= t->goal.job + c->tol);
}

/* ------------------------------------------------------------- triage */

/* Whether a plan placed some job in the slack (most place none). */
static bool any_in_slack(const struct dl_plan *plan)
{
	for (uint32_t i = 0; i < plan->njobs; i++)
		if (plan->jobs[i].ahead_of)
			return true;
	return false;
}

/* Places in the slack found by the previous plan, while the job they were
 * found before is still ahead (Moore-Hodgson gives back any that would now
 * cost a deadline). */
static int restore_anchors(struct tctx *c)
{
	const struct dl_plan *prev = c->in->prev;
	struct dl_id_index idx;

	if (!prev || prev->policy != DL_POLICY_TRIAGE || !any_in_slack(prev))
		return 0;
	if (dl_id_index_build(&idx, c->in->jobs, c->in->njobs))
		return ENOMEM;
	for (uint32_t k = 0; k < c->nedf; k++) {
		struct tjob *d = &c->t[c->edf[k]];
		const struct dl_plan_job *pj;
		int64_t i;

		if (ahead(c, d) || !(pj = dl_plan_find(prev, d->job->id)) ||
		    !pj->ahead_of)
			continue;
		i = dl_id_index_find(&idx, pj->ahead_of);
		if (i >= 0 && c->t[i].state != T_OUT && ahead(c, &c->t[i]))
			d->anchor = c->t[i].pos;
	}
	dl_id_index_free(&idx);
	return 0;
}

/* HopelessPromise: a job given up in an earlier cycle goes just before the
 * first job due after its promise, whatever that costs the jobs due after
 * that (Moore-Hodgson gives up one of those instead), so jobs submitted
 * after it no longer pass it for ever.  An earlier place in the slack
 * stays.  A promise that has passed is made again. */
static void promise_places(struct tctx *c)
{
	for (uint32_t k = 0; k < c->nedf; k++) {
		struct tjob *d = &c->t[c->edf[k]];
		uint32_t lo = 0, hi = c->nedf;

		if (!(d->promise > 0) || ahead(c, d))
			continue;
		if (d->promise + c->tol < c->in->now) {
			/* broken (jobs due before it took the CPUs): made
			 * again from this cycle's prediction; kept, it would
			 * go before every job, EDF's domino (SWIM day with
			 * history priors, k = 4: 140 misses against 23) */
			d->promise = 0;
			continue;
		}
		while (lo < hi) { /* c->edf is in deadline order */
			uint32_t mid = lo + (hi - lo) / 2;

			if (c->t[c->edf[mid]].goal.job > d->promise)
				hi = mid;
			else
				lo = mid + 1;
		}
		d->promise_anchor = lo;
		if (d->anchor == NO_ANCHOR || lo < d->anchor)
			d->anchor = lo;
	}
}

static int work_before(uint32_t a, uint32_t b, void *vctx)
{
	const struct tjob *t = vctx;

	if (t[a].work != t[b].work)
		return t[a].work > t[b].work ? 1 : -1;
	return t[a].pos > t[b].pos ? 1 : -1; /* the later due goes first */
}

/* Fluid Moore-Hodgson, a cheap first cut for a cycle with much to decide
 * (the first after a restart, a burst of submissions): in deadline order,
 * the pending work of the jobs ahead in a partition must fit in what its
 * classes have free until each deadline (dl_la_supply); while it does not,
 * the job with the most pending work goes.  Fitting is necessary, not
 * sufficient -- tasks are whole and not pre-empted, partitions may share
 * nodes -- so the exact pass over the lookahead follows. */
static int fluid_triage(struct tctx *c)
{
	struct dl_heap h = {0};
	double horizon = c->in->now;
	int rc;

	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];

		if (t->state == T_FEASIBLE && t->goal.job > horizon)
			horizon = t->goal.job;
	}
	if ((rc = dl_la_supply_build(c->opt, horizon)) ||
	    (rc = dl_heap_init(&h, c->nedf ? c->nedf : 1, work_before, c->t)))
		return rc;
	for (uint32_t k = 0; k < c->nedf; k++) {
		uint32_t part = c->t[c->edf[k]].job->partition;
		double w = 0;
		bool first = true;

		/* each partition once, from its first job on */
		for (uint32_t i = 0; i < k && first; i++)
			first = c->t[c->edf[i]].job->partition != part;
		if (!first)
			continue;
		h.n = 0;
		for (uint32_t i = k; i < c->nedf; i++) {
			struct tjob *t = &c->t[c->edf[i]];
			uint32_t v;

			/* kept jobs are late anyway: the exact pass gives
			 * them up first, so they do not count here; nor does
			 * a job of unknown length, whose work is a guess
			 * (half the time limit a task) and would make the
			 * cut give up jobs it could not show late */
			if (t->job->partition != part || !ahead(c, t) ||
			    late_kept(t) || t->state == T_NODATA)
				continue;
			w += t->work;
			if (t->state == T_FEASIBLE &&
			    (rc = dl_heap_push(&h, c->edf[i])))
				goto out;
			if (t->state != T_FEASIBLE)
				continue;
			while (w > dl_la_supply(c->opt, part, t->goal.job) +
					       c->tol &&
			       dl_heap_pop(&h, &v)) {
				w -= c->t[v].work;
				/* the job itself has the most work: giving it
				 * up lets no job due earlier meet its deadline
				 * (they fit); the exact pass judges it */
				if (v == c->edf[i])
					break;
				c->t[v].state = T_DEMOTED;
				c->t[v].since = c->in->now;
			}
		}
	}
out:
	dl_heap_free(&h);
	sort_behind(c);
	return rc;
}

/* Of two jobs that would free capacity for a late one: a kept job (late
 * anyway) before one that would be on time, then the most pending work. */
static bool better_victim(const struct tjob *a, const struct tjob *b)
{
	bool ka = late_kept(a), kb = late_kept(b);

	return ka != kb ? ka : a->work > b->work;
}

/* Moore-Hodgson: while a job ahead is late, demote the job with the most
 * pending work among those due no later than it that compete for its
 * capacity -- or the late job itself when even alone it cannot make it. */
static int moore_hodgson(struct tctx *c)
{
	for (uint32_t step = 0; step < DL_TRIAGE_MAX_STEPS; step++) {
		double horizon;
		uint32_t n = build_order(c, true, UINT32_MAX, &horizon);
		struct tjob *lj = NULL, *victim = NULL;
		bool helps_none;
		uint32_t lk = 0;
		int rc;

		if ((rc = dl_la_run(c->opt, c->order, n, horizon)))
			return rc;
		for (uint32_t k = 0; k < c->nedf && !lj; k++) {
			struct tjob *t = &c->t[c->edf[k]];

			if (t->state != T_FEASIBLE)
				continue;
			t->finish_opt = dl_la_job(c->opt, t->la)->finish;
			if (late(c, t, t->finish_opt)) {
				lj = t;
				lk = k;
			}
		}
		if (!lj)
			return 0;
		/* slack taken by jobs behind must never cost a deadline: give
		 * it back first */
		bool gave_back = false;

		for (uint32_t b = 0; b < c->nbehind; b++) {
			struct tjob *d = &c->t[c->behind[b]];

			/* a promised place is kept: a job ahead is given
			 * up instead */
			if (d->anchor != NO_ANCHOR && d->anchor <= lk &&
			    d->anchor != d->promise_anchor) {
				d->anchor = d->promise_anchor;
				gave_back = true;
			}
		}
		if (gave_back)
			continue;
		/* a kept job is late anyway: it goes before any job that
		 * would be on time */
		for (uint32_t k = 0; k <= lk; k++) {
			struct tjob *t = &c->t[c->edf[k]];

			if ((t->state != T_FEASIBLE && !late_kept(t)) ||
			    !(t->work > 0) ||
			    !dl_la_compete(c->opt, t->job->partition,
					   lj->job->partition))
				continue;
			if (!victim || better_victim(t, victim))
				victim = t;
		}
		if (victim && victim != lj) {
			/* is the late job lost anyway?  Then only it goes */
			c->order[0] = lj->la;
			if ((rc = dl_la_run(c->opt, c->order, 1,
					    lj->goal.job + c->tol)))
				return rc;
			lj->alone = dl_la_job(c->opt, lj->la)->finish;
			if (late(c, lj, lj->alone))
				victim = lj;
		}
		if (!victim) /* nothing pending left to give: it is lost */
			victim = lj;
		/* giving up the late job itself would make no other job meet
		 * its deadline (none due before it is late): it keeps its
		 * place until it costs one a deadline, unless the jobs that
		 * arrive pay for it (given up below all the same) */
		helps_none = victim == lj && lj->work > 0 &&
			     !(isfinite(lj->alone) && late(c, lj, lj->alone));
		if (helps_none && given_up_for_arrivals(c, lj)) {
			lj->state = T_DEMOTED;
			lj->for_arrivals = true;
		} else if (helps_none) {
			lj->state = T_KEPT;
			if (!ahead(c, lj)) { /* LateAhead=no: given up */
				give_up_since(c, lj);
				sort_behind(c);
			}
			continue;
		}
		if (victim->state != T_PASSED)
			victim->state =
				victim == lj && !(lj->work > 0) ? T_IMPOSSIBLE
				: isfinite(victim->alone) &&
						late(c, victim, victim->alone)
					? T_IMPOSSIBLE
					: T_DEMOTED;
		give_up_since(c, victim);
		victim->anchor = victim->promise_anchor;
		sort_behind(c);
	}
	return 0;
}

/* Runs `la` on to job t's deadline (a job not fully started by then is
 * late, whatever comes after). */
static int advance_to_deadline(const struct tctx *c, struct dl_lookahead *la,
			       const struct tjob *t)
{
	double until = t->goal.job + c->tol;

	return dl_la_advance(la, isnan(until) ? INFINITY : until);
}

/* Starts the run of the jobs ahead (and `extra`) with mean lengths in the
 * current order. */
static int mean_start(struct tctx *c, uint32_t extra)
{
	double horizon;
	uint32_t n = build_order(c, false, extra, &horizon);

	return dl_la_start(c->mean, c->order, n, horizon);
}

/* Which jobs ahead meet their deadline with mean lengths now. */
static int measure_met(struct tctx *c, bool *met)
{
	int rc = mean_start(c, UINT32_MAX);

	if (rc || (rc = dl_la_advance(c->mean, INFINITY)))
		return rc;
	for (uint32_t i = 0; i < c->nedf; i++) {
		struct tjob *t = &c->t[c->edf[i]];

		met[c->edf[i]] = ahead(c, t) &&
				 !late(c, t, dl_la_job(c->mean, t->la)->finish);
	}
	return 0;
}

/* In a started run of `la`: whether no job that `judged` picks is late,
 * each judged in deadline order once the run reaches its deadline, so the
 * first late one ends the run there. */
static int none_late(const struct tctx *c, struct dl_lookahead *la,
		     bool (*judged)(const struct tctx *, uint32_t,
				    const void *),
		     const void *arg, bool *ok)
{
	int rc = 0;

	*ok = true;
	for (uint32_t k = 0; !rc && *ok && k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];

		if (!judged(c, c->edf[k], arg))
			continue;
		rc = advance_to_deadline(c, la, t);
		if (!rc && late(c, t, dl_la_finish_so_far(la, t->la)))
			*ok = false;
	}
	return rc;
}

static bool judged_feasible(const struct tctx *c, uint32_t i, const void *arg)
{
	(void) arg;
	return c->t[i].state == T_FEASIBLE;
}

/* Whether, with job `extra` back ahead, every feasible job ahead still
 * passes Moore-Hodgson's own test (optimistic lengths): a job readmitted
 * on mean lengths that made one of them late there would be demoted again
 * by the next cycle's Moore-Hodgson, and readmitted again on mean lengths,
 * and so flip every cycle. */
static int feasible_beside(struct tctx *c, uint32_t extra, bool *ok)
{
	double horizon;
	uint32_t n = build_order(c, true, extra, &horizon);
	int rc = dl_la_start(c->opt, c->order, n, horizon);

	*ok = false;
	return rc ? rc : none_late(c, c->opt, judged_feasible, NULL, ok);
}

static int readmit_cmp(const void *pa, const void *pb, void *vctx)
{
	const struct tjob *t = vctx;
	const struct tjob *x = &t[*(const uint32_t *) pa];
	const struct tjob *y = &t[*(const uint32_t *) pb];

	if (x->prev_late != y->prev_late)
		return x->prev_late < y->prev_late ? -1 : 1;
	return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

struct judged_met {
	uint32_t extra;
	const bool *met;
};

static bool judged_met(const struct tctx *c, uint32_t i, const void *arg)
{
	const struct judged_met *m = arg;

	(void) c;
	return i == m->extra || m->met[i];
}

/* Whether candidate `extra` meets its deadline at its place with mean
 * lengths and every job in met[] still meets its own beside it. */
static int harmless_beside(struct tctx *c, uint32_t extra, const bool *met,
			   bool *ok)
{
	struct judged_met m = {.extra = extra, .met = met};
	int rc = mean_start(c, extra);

	*ok = false;
	return rc ? rc : none_late(c, c->mean, judged_met, &m, ok);
}

/* Hysteresis: a job hopeless in the previous plan comes back when, with
 * mean task lengths, it meets its deadline at its place and no job ahead
 * that met its deadline misses it because of it, and no feasible job is
 * late beside it on the optimistic lengths (feasible_beside).  The jobs the
 * previous plan saw least late are tried first, DL_TRIAGE_MAX_READMIT a cycle.
 * Which jobs meet their deadline without the candidate takes a run of its
 * own, made only for a candidate on time at its place: most are late even
 * there (on rev-l0.8 seed 1, 11,206 of 13,191 tries), which the run with
 * them shows by their deadline.  Each test decides alone, so their order
 * only sets the cost: a job whose optimistic tasks are shorter than its
 * mean ones was given up on the optimistic lengths, and feasible_beside,
 * the test that gave it up, goes first (on the plan-cycle benchmark it
 * fails where the mean-length test passes); with lengths known exactly
 * its own deadline does. */
static int readmit(struct tctx *c)
{
	bool *met = calloc(c->n ? c->n : 1, sizeof(*met));
	double *fin = malloc((c->n ? c->n : 1) * sizeof(*fin));
	uint32_t *cand = malloc((c->nedf ? c->nedf : 1) * sizeof(*cand));
	uint32_t ncand = 0;
	bool measured = false;
	int rc = 0;

	if (!met || !fin || !cand) {
		free(met);
		free(fin);
		free(cand);
		return ENOMEM;
	}
	for (uint32_t k = 0; k < c->nedf; k++)
		if (c->t[c->edf[k]].state == T_DEMOTED &&
		    c->t[c->edf[k]].readmit)
			cand[ncand++] = c->edf[k];
	qsort_r(cand, ncand, sizeof(*cand), readmit_cmp, c->t);
	for (uint32_t k = 0; k < ncand && k < DL_TRIAGE_MAX_READMIT; k++) {
		struct tjob *d = &c->t[cand[k]];
		bool ok = true;

		if (d->spread && (rc = feasible_beside(c, cand[k], &ok)))
			break;
		if (!ok)
			continue;
		if (measured) {
			rc = harmless_beside(c, cand[k], met, &ok);
		} else {
			/* its own test first, then the rest of its run */
			if ((rc = mean_start(c, cand[k])) ||
			    (rc = advance_to_deadline(c, c->mean, d)))
				break;
			if (late(c, d, dl_la_finish_so_far(c->mean, d->la)))
				continue;
			if ((rc = dl_la_advance(c->mean, INFINITY)))
				break;
			for (uint32_t i = 0; i < c->nedf; i++)
				fin[c->edf[i]] =
					dl_la_job(c->mean, c->t[c->edf[i]].la)
						->finish;
			if ((rc = measure_met(c, met)))
				break;
			measured = true;
			for (uint32_t i = 0; ok && i < c->nedf; i++)
				if (met[c->edf[i]] &&
				    late(c, &c->t[c->edf[i]], fin[c->edf[i]]))
					ok = false;
		}
		if (!rc && ok && !d->spread)
			rc = feasible_beside(c, cand[k], &ok);
		if (rc)
			break;
		if (!ok)
			continue;
		d->state = T_FEASIBLE;
		d->readmit = false;
		d->since = 0;
		d->anchor = d->promise_anchor = NO_ANCHOR;
		d->promise = 0;
		sort_behind(c);
		measured = false; /* the jobs ahead changed */
	}
	free(met);
	free(fin);
	free(cand);
	return rc;
}

/* The mean-length finish of every job ahead in the current order. */
static int ahead_finishes(struct tctx *c, double *fin)
{
	double horizon;
	uint32_t n = build_order(c, false, UINT32_MAX, &horizon);
	int rc = dl_la_run(c->mean, c->order, n, horizon);

	for (uint32_t k = 0; !rc && k < c->nedf; k++) {
		struct tjob *t = &c->t[c->edf[k]];

		fin[c->edf[k]] =
			ahead(c, t) ? dl_la_job(c->mean, t->la)->finish : NAN;
	}
	return rc;
}

/* Whether, against the finishes fin0, no job ahead that was on time is
 * late and no late one is later. */
static bool harmless(const struct tctx *c, const double *fin0, double lend)
{
	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];
		double f, f0 = fin0[c->edf[k]];

		if (!ahead(c, t))
			continue;
		f = dl_la_job(c->mean, t->la)->finish;
		if (!late(c, t, f0)) {
			/* of its slack that the work arriving and due
			 * before it will not take, it lends `lend` */
			if (f > f0 +
					lend * dl_triage_spare_slack(
						       t->goal.job, f0,
						       c->in->now,
						       t->arrivals_ahead) +
					c->tol)
				return false;
		} else if (f > f0 + c->tol) {
			return false;
		}
	}
	return true;
}

/* How busy the cluster is for lending (HopelessSlackLoad): the larger of
 * the share of the CPUs deadline work has been arriving at and the share
 * the jobs ahead need until their deadlines (the most, over every
 * deadline in deadline order, of the mean-length work due by it over the
 * CPU-seconds left until it). */
static double lend_load(const struct tctx *c)
{
	double load = c->arrival_share > 0 ? c->arrival_share : 0, work = 0;

	if (!(c->cpus > 0))
		return load;
	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];
		double left = t->goal.job - c->in->now, need;

		if (!ahead(c, t))
			continue;
		if (t->work_mean > 0 && isfinite(t->work_mean))
			work += t->work_mean;
		if (!(left > 0))
			continue;
		need = work / (left * c->cpus);
		if (need > load)
			load = need;
	}
	return load;
}

/* What each job ahead keeps of its slack for the deadline work arriving
 * (harmless): the arrival share times the part of it due before the
 * job. */
static void arrivals_ahead_setup(struct tctx *c)
{
	for (uint32_t k = 0; k < c->nedf; k++) {
		struct tjob *t = &c->t[c->edf[k]];

		if (ahead(c, t))
			t->arrivals_ahead =
				c->arrival_share *
				dl_triage_competing(c->arrived,
						    t->goal.job - c->in->now);
	}
}

/* The partitions a job with a guessed task length (none of its own or
 * from history, or none at all) runs or waits in: c->guessing, set once
 * per cycle by steal_slack, with c->judgeable (lend_judgeable's verdict
 * per partition, 0 until asked). */
static int guessing_setup(struct tctx *c)
{
	uint32_t np = c->in->cluster->npartitions;

	c->guessing = calloc(np ? np : 1, sizeof(*c->guessing));
	c->judgeable = calloc(np ? np : 1, sizeof(*c->judgeable));
	if (!c->guessing || !c->judgeable)
		return ENOMEM;
	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];

		if (t->guessed && t->job->partition < np)
			c->guessing[t->job->partition] = true;
	}
	return 0;
}

/* Whether the lookahead can judge a lend in partition part: no job
 * competing for its nodes runs or waits on a guessed length.  With one
 * that does, the lookahead's harm check is blind: on Alibaba's trace a
 * given-up job lent slack took every CPU that freed for 40 s while the
 * lookahead, which had jobs of unknown length ending as they did without
 * it, judged them unharmed; five missed (bench/results/sim-summary.md,
 * 2026-12-02 (21)). */
static bool lend_judgeable(const struct tctx *c, uint32_t part)
{
	uint32_t np = c->in->cluster->npartitions;
	bool ok = true;

	if (part >= np)
		return false;
	if (c->judgeable[part])
		return c->judgeable[part] > 0;
	for (uint32_t q = 0; q < np && ok; q++)
		ok = !(c->guessing[q] && dl_la_compete(c->mean, q, part));
	c->judgeable[part] = ok ? 1 : -1;
	return ok;
}

/* The pending work of the jobs given up, at mean lengths, in seconds of
 * every CPU planned. */
static double given_up_backlog(const struct tctx *c)
{
	double work = 0;

	for (uint32_t b = 0; b < c->nbehind; b++) {
		double w = c->t[c->behind[b]].work_mean;

		if (w > 0 && isfinite(w))
			work += w;
	}
	return c->cpus > 0 ? work / c->cpus : INFINITY;
}

/* Slack stealing: a job behind runs as early as it can without costing a
 * job ahead its deadline (or a late one more lateness), with mean task
 * lengths -- so hopeless jobs end as little late as the feasible ones
 * allow.  Each job behind, in its order, looks for the earliest place by
 * bisection over the places of the jobs ahead; DL_TRIAGE_MAX_SLACK_RUNS
 * lookahead runs per cycle, the places found carry over to the next. */
static int steal_slack(struct tctx *c)
{
	uint32_t *places = malloc((c->nedf ? c->nedf : 1) * sizeof(*places));
	double *fin0 = malloc((c->n ? c->n : 1) * sizeof(*fin0));
	uint32_t np = 0, runs = 0;
	bool measured = false, reserved = false;
	/* HopelessSlack, more while the cluster is not busy */
	double lend = dl_triage_lend_share(
		c->in->cfg->hopeless_slack, c->in->cfg->hopeless_slack_load,
		c->in->cfg->hopeless_slack_load > 0 ? lend_load(c) : 0);
	/* a backlog the cluster clears within HopelessSlackBacklog runs
	 * earlier at little cost; a longer one means overload, where the
	 * slack lent to jobs already lost is what the next arrivals need
	 * (reverse family at load 1.0: 8-60 % more misses lent without
	 * this).  It stops new lends only: a job lent a place earlier keeps
	 * it until Moore-Hodgson finds it makes a job late (as when lending
	 * is off) */
	if (lend > 0 &&
	    given_up_backlog(c) > c->in->cfg->hopeless_slack_backlog)
		lend = 0;
	/* nor while deadline work arrives at HopelessSlackMaxArrivals of
	 * the CPUs or more: then the room the lookahead leaves for the
	 * arrivals is their mean, and their bursts find it taken (30 s
	 * tasks at load 0.95, bench/sweep-reverse.sh: 3.6 % more misses
	 * lent without this, bench/results/sim-summary.md 2026-12-02 (22)) */
	if (lend > 0 &&
	    !(c->arrival_load < c->in->cfg->hopeless_slack_max_arrivals))
		lend = 0;
	/* where a job without a deadline waits for the same nodes, at least
	 * HopelessSlackWaiting: there a given-up job otherwise waits behind
	 * every feasible job, also one due hours later, while the CPUs it
	 * is not given go to that work; lent everywhere, jobs due seconds
	 * after they arrive found the CPUs taken on Alibaba's trace
	 * (bench/results/sim-summary.md, 2026-12-02 (19)) */
	double lend_waiting = c->in->cfg->hopeless_slack_waiting > lend
				      ? c->in->cfg->hopeless_slack_waiting
				      : lend;
	int rc = 0;

	if (!places || !fin0) {
		free(places);
		free(fin0);
		return ENOMEM;
	}
	for (uint32_t k = 0; k < c->nedf; k++)
		if (ahead(c, &c->t[c->edf[k]]))
			places[np++] = k;
	for (uint32_t b = 0; (lend > 0 || lend_waiting > 0) && b < c->nbehind &&
			     runs < DL_TRIAGE_MAX_SLACK_RUNS;
	     b++) {
		struct tjob *d = &c->t[c->behind[b]];
		uint32_t was = d->anchor, lo = 0, hi = np, best;
		bool waiting = other_waits_in(c, d->job->partition);
		double share = waiting ? lend_waiting : lend;

		if (!(d->work > 0) || !(share > 0))
			continue; /* nothing left to start, or none lent */
		/* where work without deadlines waits, the CPUs the borrower
		 * takes would go to that work, not to the next arrival: lent
		 * there also on guessed lengths */
		if (!waiting) {
			if (!c->guessing && (rc = guessing_setup(c)))
				break;
			if (!lend_judgeable(c, d->job->partition)) {
				d->anchor = d->promise_anchor;
				continue;
			}
		}
		while (hi > 0 && was != NO_ANCHOR && places[hi - 1] >= was)
			hi--; /* below its current place only */
		best = hi;
		if (!reserved) { /* once, and only when something is lent */
			arrivals_ahead_setup(c);
			reserved = true;
		}
		if (!measured) {
			if ((rc = ahead_finishes(c, fin0)))
				break;
			runs++;
			measured = true;
		}
		while (lo < hi && runs < DL_TRIAGE_MAX_SLACK_RUNS) {
			uint32_t mid = lo + (hi - lo) / 2;
			double horizon;
			uint32_t n;

			d->anchor = places[mid];
			n = build_order(c, false, UINT32_MAX, &horizon);
			if ((rc = dl_la_run(c->mean, c->order, n, horizon)))
				goto out;
			runs++;
			if (harmless(c, fin0, share)) {
				best = mid;
				hi = mid;
			} else {
				lo = mid + 1;
			}
		}
		if (best < np && (was == NO_ANCHOR || places[best] < was)) {
			d->anchor = places[best];
			measured = false;
		} else {
			d->anchor = was;
		}
	}
out:
	free(places);
	free(fin0);
	return rc;
}

/* ------------------------------------------------------------ results */

static void explain_ahead(const struct tctx *c, struct tjob *t, uint32_t place,
			  uint32_t nahead)
{
	struct dl_plan_job *o = t->out;
	double now = c->in->now;
	char when[32], margin[32];

	if (t->state == T_NODATA) {
		char passed[64] = "";

		if (unknown_passed(c, t)) {
			dl_format_span(now - t->goal.job, margin,
				       sizeof(margin));
			snprintf(passed, sizeof(passed),
				 ", deadline passed %s ago", margin);
		}
		o->verdict = DL_VERDICT_NO_DATA;
		/* held to the reserve's room instead (reserve_cap) */
		dl_plan_explain(o,
				"no task length known yet%s: deadline order "
				"%u of %u%s; judged once a task ends",
				passed, place, nahead,
				t->blocking ? ""
					    : ", every task allowed at once");
		return;
	}
	dl_format_span(t->finish_mean - now, when, sizeof(when));
	if (t->state == T_KEPT && isfinite(t->alone) && late(c, t, t->alone)) {
		dl_format_span(t->alone - t->goal.job, margin, sizeof(margin));
		o->verdict = DL_VERDICT_LATE;
		dl_plan_explain(
			o,
			"cannot meet its deadline even alone: ends %s after it "
			"even with short tasks; runs in deadline order %u of "
			"%u while it makes no other job late, finishing in "
			"about %s",
			margin, place, nahead, when);
		return;
	}
	if (t->state == T_KEPT) {
		char late_by[48] = "late";

		/* not finite: it ends past the lookahead's horizon */
		if (isfinite(t->finish_opt)) {
			dl_format_span(t->finish_opt - t->goal.job, margin,
				       sizeof(margin));
			snprintf(late_by, sizeof(late_by), "%s late", margin);
		}
		o->verdict = DL_VERDICT_AT_RISK;
		dl_plan_explain(o,
				"deadline order %u of %u: %s even with short "
				"tasks, but giving it up would let no other "
				"job meet its deadline; finishes in about %s",
				place, nahead, late_by, when);
		return;
	}
	if (t->state == T_PASSED) { /* edf: it keeps its place */
		dl_format_span(now - t->goal.job, margin, sizeof(margin));
		o->verdict = DL_VERDICT_LATE;
		dl_plan_explain(
			o,
			"deadline passed %s ago: deadline order %u of %u, "
			"finishing in about %s",
			margin, place, nahead, when);
		return;
	}
	if (!late(c, t, t->finish_mean)) {
		dl_format_span(t->goal.job - t->finish_mean, margin,
			       sizeof(margin));
		o->verdict = DL_VERDICT_ON_TRACK;
		dl_plan_explain(
			o,
			"deadline order %u of %u, ahead of jobs without "
			"deadlines: finishes in about %s, %s before its "
			"deadline",
			place, nahead, when, margin);
		return;
	}
	dl_format_span(t->finish_mean - t->goal.job, margin, sizeof(margin));
	o->verdict = DL_VERDICT_AT_RISK;
	dl_plan_explain(
		o,
		"deadline order %u of %u, ahead of jobs without deadlines: "
		"finishes in about %s, %s late with mean task lengths "
		"(in time if they run short)",
		place, nahead, when, margin);
}

static void explain_hopeless(const struct tctx *c, struct tjob *t, bool urgent)
{
	struct dl_plan_job *o = t->out;
	const struct dl_config *cfg = c->in->cfg;
	double now = c->in->now, f;
	char span[16], when[16], wait[16], rank[64];

	if (t->anchor != NO_ANCHOR && t->anchor != t->promise_anchor) {
		snprintf(rank, sizeof(rank),
			 "in the slack of feasible deadline jobs");
	} else if (t->promise > 0) {
		dl_format_span(fabs(t->promise - now), wait, sizeof(wait));
		snprintf(rank, sizeof(rank),
			 t->promise >= now
				 ? "promised to end in %s (HopelessPromise)"
				 : "promised end passed %s ago "
				   "(HopelessPromise)",
			 wait);
	} else if (t->aged) {
		dl_format_span(now - t->since, wait, sizeof(wait));
		/* short: the explanation has 200 bytes */
		snprintf(rank, sizeof(rank),
			 "first of given-up jobs (aged %s, HopelessAging)",
			 wait);
	} else if (urgent) {
		snprintf(rank, sizeof(rank), "after feasible deadline jobs");
	} else {
		dl_format_span(t->since + cfg->hopeless_aging - now, wait,
			       sizeof(wait));
		snprintf(rank, sizeof(rank),
			 "after jobs without deadlines for %s", wait);
	}
	dl_format_span(t->finish_mean - now, when, sizeof(when));
	if (t->state == T_PASSED) {
		dl_format_span(now - t->goal.job, span, sizeof(span));
		o->verdict = DL_VERDICT_LATE;
		o->cls = DL_CLASS_LATE;
		dl_plan_explain(
			o,
			"deadline passed %s ago: still runs, %s; finishes "
			"in about %s",
			span, rank, when);
		return;
	}
	o->verdict = DL_VERDICT_HOPELESS;
	o->cls = DL_CLASS_HOPELESS;
	if (t->for_arrivals ||
	    (t->state == T_KEPT &&
	     !(isfinite(t->alone) && late(c, t, t->alone)))) {
		/* late at its place, given up though that lets no other job
		 * meet its deadline: LateAhead=no, or LateAheadMaxArrivals
		 * (shorter: the explanation has 200 bytes) */
		const char *what = "cannot meet its deadline: in deadline "
				   "order it would end";
		char why[64] = "(LateAhead=no)";

		if (t->for_arrivals) {
			what = "late at its place: it would end";
			snprintf(why, sizeof(why),
				 "(LateAheadMaxArrivals: arrivals at %.0f%% of "
				 "CPUs)",
				 100 * c->arrival_share);
		}
		dl_format_span(t->finish_opt - t->goal.job, span, sizeof(span));
		dl_format_span(t->finish_mean - t->goal.job, when,
			       sizeof(when));
		dl_plan_explain(o,
				"%s %s after it even with short tasks; given "
				"up %s, still runs, %s, about %s late",
				what, span, why, rank,
				isfinite(t->finish_mean) ? when : "long");
		return;
	}
	if (t->state == T_IMPOSSIBLE || t->state == T_KEPT || t->readmit) {
		f = isfinite(t->alone) ? t->alone : t->finish_opt;
		dl_format_span(f - t->goal.job, span, sizeof(span));
		dl_plan_explain(
			o,
			"cannot meet its deadline%s: ends %s after it even "
			"with short tasks, so needs a deadline that much "
			"later; still runs, %s",
			t->state != T_DEMOTED ? " even alone" : "",
			isfinite(f) ? span : "long", rank);
		return;
	}
	/* what it would take: the lateness in deadline order (when the
	 * test ran that far); what to expect: the lateness as planned */
	dl_format_span(t->finish_opt - t->goal.job, span, sizeof(span));
	dl_format_span(t->finish_mean - t->goal.job, when, sizeof(when));
	if (isfinite(t->finish_opt))
		dl_plan_explain(
			o,
			"cannot meet its deadline without making jobs "
			"due earlier late: in deadline order it would "
			"end %s after it; still runs, %s, about %s late",
			span, rank, isfinite(t->finish_mean) ? when : "long");
	else
		dl_plan_explain(o,
				"cannot meet its deadline without making jobs "
				"due earlier late; still runs, %s, about %s "
				"late",
				rank, isfinite(t->finish_mean) ? when : "long");
}

/* What a job given up is promised: the promise of the cycle that first
 * gave it up, else (HopelessPromise=yes) the finish this plan predicts
 * plus HopelessPromiseMargin times the lateness that means; 0 = none (no
 * finish predicted within the lookahead yet: the next cycle tries
 * again). */
static double promise_for(const struct tctx *c, const struct tjob *t)
{
	const struct dl_config *cfg = c->in->cfg;
	double late_by;

	if (t->promise > 0)
		return t->promise;
	if (!c->triage || cfg->hopeless_promise != DL_YES || !(t->since > 0) ||
	    !isfinite(t->finish_mean))
		return 0;
	late_by = t->finish_mean - t->goal.job;
	return t->finish_mean +
	       (late_by > 0 ? cfg->hopeless_promise_margin * late_by : 0);
}

/* rank: among every job planned; place: among the jobs ahead alone (a job
 * given up may run among them, in the slack or at its promise), which the
 * explanation counts, "deadline order place of nahead" */
static void conclude(struct tctx *c, struct tjob *t, uint32_t rank,
		     uint32_t place, uint32_t nahead)
{
	const struct dl_config *cfg = c->in->cfg;
	struct dl_plan_job *o = t->out;
	const struct dl_phase *ph = &t->job->phase[t->goal.phase_kind];
	bool urgent;

	o->managed = true;
	o->rank = rank;
	o->alloc = t->rem;
	o->alloc_pool[DL_POOL_REGULAR] = t->rem;
	/* a job nobody has a task length for has no prediction (its guess
	 * only stands in for the capacity it holds) */
	o->predicted_finish = t->state == T_NODATA ? NAN : t->finish_mean;
	o->finish_err = dl_phase_finish_err(ph, t->goal.mu.sd, (double) t->rem);
	o->hopeless_since = t->since;
	o->given_up_late = t->state == T_KEPT && !ahead(c, t);
	/* the concurrency that meets the phase goal, what data affinity
	 * defers against: in whole waves only for a job that may defer (the
	 * refinement costs a search) */
	if (t->goal.mu.mean > 0 && t->goal.phase > c->in->now) {
		o->need = dl_need(ph, t->goal.mu.mean, t->goal.phase,
				  c->in->now, cfg->overdue_floor);
		if (t->job->max_delays)
			o->need = dl_wave_need(ph, t->goal.mu.mean,
					       t->goal.phase, c->in->now,
					       cfg->overdue_floor, o->need);
	} else {
		o->need = t->rem;
	}
	if (t->goal.mu.mean > 0)
		o->sreq = dl_sreq(ph, t->goal.mu.mean, t->goal.phase,
				  c->in->now, cfg->overdue_floor);
	if (ahead(c, t)) {
		o->cls = t->state == T_NODATA   ? DL_CLASS_NODATA
			 : t->state == T_PASSED ? DL_CLASS_LATE
						: DL_CLASS_NEED;
		o->urgent = true;
		o->alloc_for_need = t->rem;
		explain_ahead(c, t, place, nahead);
		return;
	}
	t->promise = promise_for(c, t);
	o->promise = t->promise;
	/* a place lent in the slack is remembered; a promised one is found
	 * again from the promise */
	if (t->anchor != NO_ANCHOR && t->anchor != t->promise_anchor &&
	    t->anchor < c->nedf)
		o->ahead_of = c->t[c->edf[t->anchor]].job->id;
	/* in the slack of the jobs ahead, it ranks among them */
	urgent = t->anchor != NO_ANCHOR ||
		 cfg->hopeless_rank == DL_HOPELESS_ABOVE || t->aged;
	o->urgent = urgent;
	o->alloc_for_need = urgent ? t->rem : 0;
	explain_hopeless(c, t, urgent);
}

/* ------------------------------------------------------------ reserve */

/* The blocking reserve, triage only: the history of slack from the
 * previous plan, the horizon it gives, what a job of unknown length is
 * presumed to run, each partition's budget. */
static int reserve_setup(struct tctx *c, struct dl_plan *plan,
			 const struct dl_capacity *full)
{
	const struct dl_cluster *cl = c->in->cluster;
	const struct dl_config *cfg = c->in->cfg;

	c->slacks = NULL;
	c->unknown_len = 0;
	c->typical_len = 0;
	c->full = full;
	c->wide_presumed = false;
	dl_reserve_inherit(plan, c->in->prev);
	if (!c->triage || !dl_reserve_on(cfg))
		return 0;
	c->slacks = &plan->slacks;
	/* the history as the previous plan left it: this plan notes its own
	 * jobs (reserve_learn) after judging them */
	c->long_above = dl_reserve_long_above(c->slacks, cfg->blocking_horizon);
	if (cfg->blocking_unknown == DL_YES) {
		double typical = dl_reserve_typical_grain(c->slacks);

		c->typical_len = typical > 0 ? typical : 0;
		if (dl_reserve_long_len(c->long_above, typical))
			c->unknown_len = typical;
	}
	/* triage decides without it: the budgets reach the lookahead only
	 * in reserve_decide, where the reserve may cost no deadline */
	return dl_reserve_ledger_init(&c->rl, cl->npartitions, full, cfg);
}

/* The partitions where a job without a deadline waits to start, and those
 * sharing a node class with one (c->other_waits; NULL where none waits):
 * one pass over the classes, not over pairs. */
static int other_waiting_setup(struct tctx *c, const struct dl_capacity *full)
{
	const struct dl_cluster *cl = c->in->cluster;

	if (!c->triage || dl_partset_empty(&cl->other_waiting) ||
	    !cl->npartitions)
		return 0;
	if (!(c->other_waits = calloc(cl->npartitions, sizeof(bool))))
		return ENOMEM;
	for (uint32_t p = 0; p < cl->npartitions; p++)
		c->other_waits[p] = dl_partset_has(&cl->other_waiting, p);
	for (uint32_t k = 0; full && k < full->ncls; k++) {
		const struct dl_capclass *cls = &full->cls[k];
		bool waits = false;

		for (uint32_t q = 0; q < cl->npartitions && !waits; q++)
			waits = dl_partset_has(&cl->other_waiting, q) &&
				dl_capclass_serves(cls, q);
		for (uint32_t p = 0; waits && p < cl->npartitions; p++)
			if (dl_capclass_serves(cls, p))
				c->other_waits[p] = true;
	}
	return 0;
}

/* BlockingUnderLoad=yes: a job of unknown length due before jobs ahead
 * whose active phase runs on a guessed length, where they compete, may
 * run beyond its part of the reserve as many tasks as those guesses have
 * left (t->guess_keep; shared in deadline order among the jobs of
 * partitions that compete, so two such jobs do not both take one guess's
 * CPUs, and one partition's takes never shrink a room elsewhere).  Linear
 * in the jobs times the partitions.  Holding it to its part keeps CPUs for
 * arrivals only if nothing equally unknown takes them: freed, the guess
 * takes them instead, though it is due later.  Alibaba 2017, hours 1-2
 * at k = 2: six jobs of unknown length held to 137 tasks while a later
 * one's reduces, guessed at 65 s from its maps, took 1,197 CPUs for
 * 3,900 s; EDF met the six.  Freeing every job of unknown length under
 * load instead lost on Google 2011 (file 4 at k = 1.5: 788 misses
 * against 305), where no guess competes; freeing those due before a
 * guess of every task they have left lost hours 2-3 at k = 2 (122 -> 163:
 * a job of 2,000 maps took 821 more CPUs than a small guess would have).
 * Set once per plan, before reserve_decide's loop, so each pass applies
 * the same keeps. */
static int free_before_guess(struct tctx *c)
{
	uint32_t np = c->rl.npart, *guess, nguess = 0, next = 0;
	/* per partition: the guesses' tasks left (rem x cpu), those of them
	 * due no later than the job at hand, and what jobs before it took */
	double *left, *passed, *taken;

	guess = malloc((c->nedf + 1) * sizeof(*guess));
	left = calloc(3 * ((size_t) np + 1), sizeof(*left));
	if (!guess || !left) {
		free(guess);
		free(left);
		return ENOMEM;
	}
	passed = left + np + 1;
	taken = passed + np + 1;
	/* c->edf is in deadline order, so are the guesses */
	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *u = &c->t[c->edf[k]];

		if (u->blocking && u->guess_active && u->state != T_NODATA &&
		    ahead(c, u) && u->job->partition < np) {
			guess[nguess++] = c->edf[k];
			left[u->job->partition] += (double) u->rem * u->cpu;
		}
	}
	for (uint32_t k = 0; nguess && k < c->nedf; k++) {
		struct tjob *t = &c->t[c->edf[k]];
		uint32_t part = t->job->partition;
		double room = 0, want;

		if (!t->blocking || t->state != T_NODATA ||
		    t->rem <= t->pool_keep || part >= np)
			continue;
		/* only the guesses due after it leave it room */
		for (; next < nguess &&
		       !(c->t[guess[next]].goal.job > t->goal.job);
		     next++) {
			const struct tjob *u = &c->t[guess[next]];

			passed[u->job->partition] += (double) u->rem * u->cpu;
		}
		/* where it competes; jobs due before it there took first.
		 * A take is counted on the taker's partition, not on the
		 * guesses' it came from (the same where partitions do not
		 * share nodes), and one taken from a guess later passed is
		 * subtracted twice, which narrows the room; per-guess counts
		 * would cost jobs x guesses */
		for (uint32_t p = 0; p < np; p++)
			if ((left[p] > 0 || taken[p] > 0) &&
			    dl_la_compete(c->mean, p, part))
				room += left[p] - passed[p] - taken[p];
		want = (double) (t->rem - t->pool_keep) * t->cpu;
		if (want > room)
			want = room;
		if (!(want >= t->cpu))
			continue;
		t->before_guess = true;
		t->guess_keep =
			t->pool_keep + (uint32_t) floor(want / t->cpu + 1e-9);
		taken[part] += want;
	}
	free(guess);
	free(left);
	return 0;
}

/* BlockingUnderLoad=yes: the feasible jobs with known task lengths
 * competing with `part` run free of the reserve (they keep every task
 * left); given-up jobs keep leaving it, and so do phases of unknown
 * length, now without the floor their presumed length gave them: under
 * load a guess holds no CPUs a measured job could use, except those a
 * guessed job due later would take (free_before_guess).  Whether anything
 * changed (keeps only rise for the known jobs, and the unknown ones are
 * set to what the plan fixed before the loop, so reserve_decide's loop
 * ends). */
static bool reserve_free_feasible(struct tctx *c, uint32_t part)
{
	bool was = false;

	for (uint32_t k = 0; k < c->nedf; k++) {
		struct tjob *t = &c->t[c->edf[k]];

		if (!t->blocking || !keeps_floor(c, t) ||
		    !dl_la_compete(c->mean, t->job->partition, part))
			continue;
		if (t->state == T_NODATA) {
			uint32_t to =
				t->before_guess ? t->guess_keep : t->pool_keep;

			/* a part of the reserve only ever lowers the keep */
			if (t->before_guess ? t->keep != to : t->keep > to) {
				t->keep = to;
				was = true;
			}
		} else if (t->keep < t->rem) {
			t->keep = t->rem;
			was = true;
		}
	}
	if (was)
		reserve_keeps(c, UINT32_MAX);
	return was;
}

static int part_cmp(const void *pa, const void *pb, void *vctx)
{
	const struct tjob *t = vctx;
	uint32_t x = t[*(const uint32_t *) pa].job->partition;
	uint32_t y = t[*(const uint32_t *) pb].job->partition;

	return (x > y) - (x < y);
}

/* BlockingUnknown: the jobs of unknown length share the reserve.  Such a
 * job's length is a guess, so the width that meets its deadline is unknown
 * too; the only safe one is every task it has left.  The reserve
 * (BlockingReserve x the partition's CPUs) is shared max-min fair among
 * them, running tasks included: a job gets all it has left if that is no
 * more than an equal part, and the larger ones split the rest equally,
 * so one big job of unknown length cannot take what the small ones need
 * and together they hold no more than the reserve (and the tasks they
 * run already) while their first tasks measure them.  Without load a job
 * keeps at least the floor its presumed length gives. */
static int reserve_unknown_pool(struct tctx *c, const struct dl_capacity *full)
{
	uint32_t *idx, n = 0;
	double *demand;
	int rc = 0;

	if (!c->slacks || !(c->unknown_len > 0 || c->wide_presumed) ||
	    !c->rl.budget)
		return 0;
	idx = malloc((c->nedf + 1) * sizeof(*idx));
	demand = malloc((c->nedf + 1) * sizeof(*demand));
	if (!idx || !demand) {
		free(idx);
		free(demand);
		return ENOMEM;
	}
	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];

		if (t->blocking && t->state == T_NODATA &&
		    !unknown_passed(c, t) && t->job->partition < c->rl.npart &&
		    t->cpu > 0)
			idx[n++] = c->edf[k];
	}
	/* one partition's jobs after another: each shares its own reserve */
	qsort_r(idx, n, sizeof(*idx), part_cmp, c->t);
	for (uint32_t from = 0, to; !rc && from < n; from = to) {
		uint32_t part = c->t[idx[from]].job->partition;

		for (to = from; to < n && c->t[idx[to]].job->partition == part;
		     to++)
			demand[to] = c->t[idx[to]].rem * c->t[idx[to]].cpu;
		rc = dl_fair_split(
			demand + from, to - from,
			dl_reserve_share_cpus(full, part,
					      c->in->cfg->blocking_reserve));
		for (uint32_t k = from; !rc && k < to; k++) {
			struct tjob *t = &c->t[idx[k]];
			uint32_t running =
				t->job->phase[t->goal.phase_kind].nrunning;
			double w = floor(demand[k] / t->cpu + 1e-9);
			uint32_t keep = w >= t->rem ? t->rem : (uint32_t) w;

			t->pool_keep = keep > running ? keep : running;
			if (t->keep < t->pool_keep)
				t->keep = t->pool_keep;
		}
	}
	free(idx);
	free(demand);
	/* the final order was built with the keeps before: the lookahead
	 * reserve_decide runs must apply these */
	if (!rc)
		reserve_keeps(c, UINT32_MAX);
	return rc;
}

/* A job competing with `part` is given up, late at its place or made late
 * by the reserve: BlockingUnderLoad=yes frees the feasible jobs there,
 * =no turns the reserve off in the partitions that share a node class
 * with `part`.  Whether anything changed. */
static bool reserve_off_near(struct tctx *c, uint32_t part)
{
	bool was = false;

	if (c->in->cfg->blocking_under_load == DL_YES)
		return reserve_free_feasible(c, part);
	for (uint32_t p = 0; p < c->rl.npart; p++)
		if (c->rl.budget[p] < INFINITY &&
		    dl_la_compete(c->mean, p, part)) {
			c->rl.budget[p] = INFINITY;
			was = true;
		}
	return was;
}

/* The reserve only out of slack: idle CPUs kept for jobs that may arrive
 * are worth it only while the jobs present can spare them.  A partition
 * keeps its whole reserve while every judged job with a deadline
 * competing for its nodes is ahead and, with the reserve, predicted on
 * time (mean task lengths); a job given up, late at its place or made
 * late by the reserve frees the feasible jobs there or turns it off for
 * the cycle (reserve_off_near).  Runs the final order (c->order, n jobs)
 * on the mean lookahead with the budgets kept. */
static int reserve_decide(struct tctx *c, uint32_t n, double horizon)
{
	bool any, *seen;
	int rc;

	/* once per partition: a second job given up there changes nothing
	 * (many are, under overload) */
	if (!(seen = calloc(c->rl.npart + 1, sizeof(*seen))))
		return ENOMEM;
	if (c->rl.budget && c->in->cfg->blocking_under_load == DL_YES &&
	    (rc = free_before_guess(c))) {
		free(seen);
		return rc;
	}
	for (uint32_t k = 0; c->rl.budget && k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];
		uint32_t part = t->job->partition;

		if (t->state == T_NODATA || (ahead(c, t) && !late_kept(t)))
			continue;
		if (part < c->rl.npart && seen[part])
			continue;
		if (part < c->rl.npart)
			seen[part] = true;
		reserve_off_near(c, part);
	}
	free(seen);
	for (;;) {
		bool changed = false;

		any = false;
		for (uint32_t p = 0; c->rl.budget && p < c->rl.npart; p++) {
			if ((rc = dl_la_set_budget(c->mean, p,
						   c->rl.budget[p])))
				return rc;
			any = any || c->rl.budget[p] < INFINITY;
		}
		if ((rc = dl_la_run(c->mean, c->order, n, horizon)) || !any)
			return rc;
		for (uint32_t k = 0; k < c->nedf; k++) {
			const struct tjob *t = &c->t[c->edf[k]];

			if (t->state == T_FEASIBLE &&
			    late(c, t, dl_la_job(c->mean, t->la)->finish))
				changed |=
					reserve_off_near(c, t->job->partition);
		}
		if (!changed)
			return 0;
	}
}

/* Each job judged for the first time adds its slack and grain to the
 * history and its work to the arrival rate (what the slack lent keeps
 * free). */
static void reserve_learn(struct tctx *c, struct dl_plan *plan)
{
	const struct dl_plan *prev = c->in->prev;
	double work = 0;

	for (uint32_t k = 0; k < c->nedf; k++) {
		const struct tjob *t = &c->t[c->edf[k]];

		if (t->state != T_NODATA && t->goal.job > 0 &&
		    dl_reserve_first_judged(c->in->prev, t->job->id)) {
			dl_reserve_note(plan, t->goal.job - t->alone_lb,
					t->grain);
			work += t->work_mean;
		}
	}
	plan->arrivals.at = c->in->now;
	plan->arrivals.rate = dl_triage_arrival_rate(
		prev ? prev->arrivals.rate : 0, prev ? prev->arrivals.at : 0,
		c->in->now, work, DL_TRIAGE_ARRIVAL_WINDOW);
	/* learning began with the first plan that learnt something (a plan
	 * of another policy learnt nothing: the rate restarts from 0) */
	plan->arrivals.since =
		prev && (prev->arrivals.rate > 0 || prev->arrivals.at > 0) &&
				prev->arrivals.since <= c->in->now
			? prev->arrivals.since
			: c->in->now;
	c->arrival_share =
		plan->stats.capacity_cpus > 0
			? plan->arrivals.rate / plan->stats.capacity_cpus
			: 0;
	c->arrival_load =
		c->arrival_share /
		dl_triage_arrival_seen(plan->arrivals.since, c->in->now,
				       DL_TRIAGE_ARRIVAL_WINDOW);
}

static void reserve_running(struct tctx *c, const struct tjob *t)
{
	if (t->blocking)
		dl_reserve_ledger_running(
			&c->rl, t->job->partition,
			t->job->phase[t->goal.phase_kind].nrunning * t->cpu);
}

/* The rule on the plan's allocation, in rank order (hence the throttle,
 * plan/decide.c). */
static void reserve_cap(struct tctx *c, const struct tjob *t)
{
	struct dl_plan_job *o = t->out;
	uint32_t w;

	if (!t->blocking)
		return;
	w = dl_reserve_allot(
		&c->rl, t->job->partition, t->cpu, reserve_keep_of(c, t),
		t->job->phase[t->goal.phase_kind].nrunning, t->rem);
	if (w >= o->alloc)
		return;
	o->alloc = w;
	o->alloc_pool[DL_POOL_REGULAR] = w;
	if (o->alloc_for_need > w)
		o->alloc_for_need = w;
	{
		char was[sizeof(o->explain)];

		memcpy(was, o->explain, sizeof(was));
		dl_plan_explain(o,
				t->state == T_NODATA && t->wide_unknown
					? "%s; at most %u task%s at once until "
					  "then: tasks of unknown length, too "
					  "many to presume short, leave "
					  "BlockingReserve to jobs that arrive"
				: t->state == T_NODATA
					? "%s; at most %u task%s at once until "
					  "then: tasks of unknown length, "
					  "presumed as long as recent jobs' "
					  "typical ones, leave BlockingReserve "
					  "to jobs that arrive"
					: "%s; at most %u task%s at once: its "
					  "long tasks leave BlockingReserve to "
					  "jobs that arrive",
				was, w, w == 1 ? "" : "s");
	}
}

/* ------------------------------------------------------------- the plan */

/* The capacity classes with every node's CPUs and memory, what other work
 * holds now included: the most any job could ever get (alone_bound). */
static int build_full(struct dl_capacity *full, const struct dl_cluster *cl)
{
	struct dl_cluster copy = *cl;
	int rc;

	copy.nodes =
		malloc((cl->nnodes ? cl->nnodes : 1) * sizeof(*copy.nodes));
	if (!copy.nodes)
		return ENOMEM;
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		copy.nodes[i] = cl->nodes[i];
		copy.nodes[i].cpus_other = 0;
		copy.nodes[i].mem_other = 0;
	}
	rc = dl_capacity_build(full, &copy);
	free(copy.nodes);
	return rc;
}

static void ctx_free(struct tctx *c)
{
	dl_la_free(c->opt);
	dl_la_free(c->mean);
	free(c->t);
	free(c->edf);
	free(c->order);
	free(c->seq);
	free(c->behind);
	free(c->anchored);
	dl_reserve_ledger_free(&c->rl);
	free(c->other_waits);
	free(c->guessing);
	free(c->judgeable);
}

/* MaxDeadlineShare: jobs claim the concurrency that meets their goal (an
 * unjudged one a single slot, a late one every remaining task). */
static int share_cap(struct tctx *c, const struct dl_capacity *cap)
{
	struct dl_share_claim *claims;
	uint32_t *bysubmit;
	int rc;

	if (!(c->in->cfg->max_deadline_share < 1))
		return 0;
	claims = calloc(c->n ? c->n : 1, sizeof(*claims));
	bysubmit = malloc((c->n ? c->n : 1) * sizeof(*bysubmit));
	if (!claims || !bysubmit) {
		free(claims);
		free(bysubmit);
		return ENOMEM;
	}
	for (uint32_t i = 0; i < c->n; i++)
		bysubmit[i] = i;
	for (uint32_t i = 1; i < c->n; i++) /* insertion: few jobs usually */
		for (uint32_t k = i; k > 0; k--) {
			const struct dl_job *a = c->t[bysubmit[k - 1]].job;
			const struct dl_job *b = c->t[bysubmit[k]].job;

			if (a->submit < b->submit ||
			    (a->submit == b->submit && a->id <= b->id))
				break;
			uint32_t x = bysubmit[k];
			bysubmit[k] = bysubmit[k - 1];
			bysubmit[k - 1] = x;
		}
	for (uint32_t k = 0; k < c->n; k++) {
		struct tjob *t = &c->t[bysubmit[k]];
		const struct dl_phase *ph;

		claims[k].job = t->job;
		claims[k].out = t->out;
		claims[k].managed = t->state != T_OUT;
		if (t->state == T_OUT)
			continue;
		ph = &t->job->phase[t->goal.phase_kind];
		claims[k].cpu = t->cpu;
		claims[k].mem = t->mem;
		if (t->state == T_NODATA)
			claims[k].want = 1;
		else if (t->state == T_PASSED)
			claims[k].want = t->rem;
		else
			claims[k].want =
				fmin(ceil(dl_need(ph, t->goal.mu.mean,
						  t->goal.phase, c->in->now,
						  c->in->cfg->overdue_floor) -
					  1e-9),
				     t->rem);
	}
	rc = dl_share_cap(claims, c->n, cap, c->in->cfg);
	for (uint32_t k = 0; !rc && k < c->n; k++)
		if (!claims[k].managed)
			c->t[bysubmit[k]].state = T_OUT;
	free(claims);
	free(bysubmit);
	return rc;
}

static struct dl_plan *plan_edf(const struct dl_policy_input *in, bool triage,
				char *err, size_t errlen)
{
	struct tctx c = {0};
	struct dl_capacity cap = {0}, full = {0};
	struct dl_plan *plan = NULL;
	uint64_t t0 = dl_monotonic_us();
	uint32_t rank = 0, nahead = 0;
	int rc = ENOMEM;

	if (dl_policy_check_input(in, err, errlen))
		return NULL;
	c.in = in;
	c.n = in->njobs;
	c.triage = triage;
	c.tol = in->cfg->lookahead_step;
	if (dl_capacity_build(&cap, in->cluster) ||
	    build_full(&full, in->cluster))
		goto fail;
	plan = dl_plan_new(c.n);
	c.t = calloc(c.n ? c.n : 1, sizeof(*c.t));
	c.edf = malloc((c.n ? c.n : 1) * sizeof(*c.edf));
	c.order = malloc((c.n ? c.n : 1) * sizeof(*c.order));
	c.seq = malloc((c.n ? c.n : 1) * sizeof(*c.seq));
	c.behind = malloc((c.n ? c.n : 1) * sizeof(*c.behind));
	c.anchored = malloc((c.n ? c.n : 1) * sizeof(*c.anchored));
	c.opt = dl_la_new(in->cluster, in->forecast, in->now, c.tol);
	c.mean = dl_la_new(in->cluster, in->forecast, in->now, c.tol);
	if (!plan || !c.t || !c.edf || !c.order || !c.seq || !c.behind ||
	    !c.anchored || !c.opt || !c.mean)
		goto fail;
	plan->now = in->now;
	plan->policy = triage ? DL_POLICY_TRIAGE : DL_POLICY_EDF;
	for (uint32_t k = 0; k < cap.ncls; k++)
		plan->stats.capacity_cpus += cap.cls[k].cpus_total;
	c.cpus = plan->stats.capacity_cpus;

	{
		uint64_t nrun = in->cluster->nheld;

		for (uint32_t i = 0; i < c.n; i++) {
			prepare(&c, &c.t[i], plan, i, &cap);
			for (int p = 0; in->jobs[i] && p < DL_PHASES; p++)
				nrun += in->jobs[i]->phase[p].nrunning;
		}
		if (nrun < UINT32_MAX &&
		    ((rc = dl_la_reserve(c.opt, c.n, (uint32_t) nrun)) ||
		     (rc = dl_la_reserve(c.mean, c.n, (uint32_t) nrun))))
			goto fail;
	}
	if ((rc = share_cap(&c, &cap)))
		goto fail;
	for (uint32_t i = 0; i < in->cluster->nheld; i++) {
		const struct dl_held *h = &in->cluster->held[i];

		if ((rc = dl_la_add_held(c.opt, h->node, h->cpus,
					 (double) h->mem, h->end)) ||
		    (rc = dl_la_add_held(c.mean, h->node, h->cpus,
					 (double) h->mem, h->end)))
			goto fail;
	}
	if ((rc = other_waiting_setup(&c, &full)) ||
	    (rc = reserve_setup(&c, plan, &full)))
		goto fail;
	for (uint32_t i = 0; i < c.n; i++) {
		struct tjob *t = &c.t[i];

		if (t->state == T_OUT) {
			if (t->goal.phase_kind >= 0 && !(t->goal.job > 0) &&
			    (rc = add_other(&c, t->job)))
				goto fail;
			continue;
		}
		if ((rc = add_to_lookaheads(&c, t, &cap, &full)))
			goto fail;
		c.edf[c.nedf++] = i;
	}
	reserve_learn(&c, plan);
	c.arrived = &plan->slacks;
	qsort_r(c.edf, c.nedf, sizeof(*c.edf), edf_cmp, c.t);
	for (uint32_t k = 0; k < c.nedf; k++) {
		struct tjob *t = &c.t[c.edf[k]];

		t->pos = k;
		t->anchor = t->promise_anchor = NO_ANCHOR;
		if (triage && t->state == T_PASSED && !ahead(&c, t))
			give_up_since(&c, t); /* not let by PassedAhead */
	}
	/* lost whatever the others do: late anyway, so it keeps its place
	 * only while it costs no other job its deadline (Moore-Hodgson
	 * demotes kept jobs first) */
	for (uint32_t k = 0; triage && k < c.nedf; k++) {
		struct tjob *t = &c.t[c.edf[k]];

		if (t->state == T_FEASIBLE && late(&c, t, t->alone_lb)) {
			t->alone = t->alone_lb;
			t->state = given_up_for_arrivals(&c, t) ? T_IMPOSSIBLE
								: T_KEPT;
			if (!ahead(&c, t))
				give_up_since(&c, t);
		}
	}
	if (triage && (rc = restore_anchors(&c)))
		goto fail;
	if (triage)
		promise_places(&c);
	sort_behind(&c);
	if (triage && ((rc = fluid_triage(&c)) || (rc = moore_hodgson(&c)) ||
		       (rc = readmit(&c)) || (rc = steal_slack(&c))))
		goto fail;
	/* final runs in the final order, with both lengths: predicted
	 * finishes for verdicts and explanations */
	{
		double horizon, h2;
		uint32_t n = build_order(&c, true, UINT32_MAX, &horizon);

		/* the jobs behind are followed an hour past the last
		 * deadline ahead; later than that they finish "long" after */
		h2 = horizon + 3600;
		if ((rc = reserve_unknown_pool(&c, &full)) ||
		    (rc = reserve_decide(&c, n, h2)))
			goto fail;
		plan->stats.grants = dl_la_batches(c.mean);
		for (uint32_t k = 0; k < c.nedf; k++) {
			struct tjob *t = &c.t[c.edf[k]];

			/* finish_opt stays what triage saw when it decided */
			t->finish_mean = dl_la_job(c.mean, t->la)->finish;
			nahead += ahead(&c, t);
		}
		for (uint32_t k = 0; k < n; k++)
			reserve_running(&c, &c.t[c.seq[k]]);
		for (uint32_t k = 0, place = 0; k < n; k++) {
			struct tjob *t = &c.t[c.seq[k]];

			conclude(&c, t, ++rank, place += ahead(&c, t), nahead);
			reserve_cap(&c, t);
		}
	}

	dl_plan_finalize(plan);
	plan->stats.compute_us = dl_monotonic_us() - t0;
	ctx_free(&c);
	dl_capacity_free(&cap);
	dl_capacity_free(&full);
	return plan;
fail:
	snprintf(err, err ? errlen : 0, "%s",
		 rc == ENOMEM ? "out of memory" : "lookahead failed");
	ctx_free(&c);
	dl_plan_free(plan);
	dl_capacity_free(&cap);
	dl_capacity_free(&full);
	return NULL;
}

struct dl_plan *dl_triage_plan(const struct dl_policy_input *in, char *err,
			       size_t errlen)
{
	return plan_edf(in, true, err, errlen);
}

struct dl_plan *dl_edf_plan(const struct dl_policy_input *in, char *err,
			    size_t errlen)
{
	return plan_edf(in, false, err, errlen);
}
