/*
 * compare/baseline.c - Fair and ARIA-style plans.
 *
 * A plan gives every job with tasks left a rank (the order in which it gets
 * free slots) and a target concurrency (the throttle).  The dispatcher --
 * Slurm in production, the simulator's model of it otherwise -- starts
 * pending tasks in rank order within the throttles, so:
 *   Fair              max-min equal share of each partition's CPUs among its
 *                     active jobs (water-filling), whole tasks, leftover
 *                     round-robin; rank by how far a job runs below its share
 *                     (Hadoop Fair Scheduler's next-slot rule);
 *   ARIA              each job gets the minimum slots that meet its deadline
 *                     (dl_aria_min_slots), in EDF order; leftover capacity
 *                     round-robin in the same order.
 */
#include "common/compare/baseline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/policy/capacity.h"
#include "common/policy/fair.h"
#include "common/estimate/estimate.h"
#include "common/estimate/goal.h"
#include "common/io/clock.h"

static const char *base_names[DL_BASE_COUNT] = {"fair", "aria"};

const char *dl_baseline_name(enum dl_baseline b)
{
	return (unsigned) b < DL_BASE_COUNT ? base_names[b] : "unknown";
}

int dl_baseline_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < DL_BASE_COUNT; i++)
		if (!strcasecmp(name, base_names[i]))
			return i;
	return -1;
}

int dl_aria_min_slots(double A, double mu_m, double lam_m, double B,
		      double mu_r, double lam_r, double avail, double *s_map,
		      double *s_red)
{
	double a, b, D, root;

	if (!s_map || !s_red)
		return EINVAL;
	*s_map = *s_red = 0;
	if (!isfinite(A) || !isfinite(B) || !isfinite(mu_m) ||
	    !isfinite(mu_r) || !isfinite(lam_m) || !isfinite(lam_r) ||
	    isnan(avail) || A < 0 || B < 0 || mu_m < 0 || mu_r < 0 ||
	    lam_m < 0 || lam_r < 0)
		return EINVAL;
	if (A == 0 && B == 0)
		return 0;
	/* the upper bound's longest task only matters for a phase with work */
	D = avail - ((A > 0 ? lam_m : 0) + (B > 0 ? lam_r : 0)) / 2;
	if (!(D > 0))
		return ERANGE;
	a = A - mu_m / 2 > 0 ? A - mu_m / 2 : 0;
	b = B - mu_r / 2 > 0 ? B - mu_r / 2 : 0;
	root = sqrt(a * b);
	*s_map = (a + root) / D;
	*s_red = (b + root) / D;
	return 0;
}

struct bjob {
	struct dl_job *job;
	struct dl_plan_job *out;
	struct dl_goal goal;
	const struct dl_phase *ph;
	double cpu, mem;
	uint32_t rem;   /* pending + running tasks of the active phase */
	uint32_t alloc; /* the throttle being built */
	uint32_t need;  /* ARIA's minimum slots; Fair's share */
	double key;     /* ranking key, smaller first */
	bool active;    /* has an active phase with tasks left */
	bool starved;   /* no capacity fits one more task */
};

static int cmp_key(const void *pa, const void *pb, void *vctx)
{
	const struct bjob *a = vctx;
	const struct bjob *x = &a[*(const uint32_t *) pa];
	const struct bjob *y = &a[*(const uint32_t *) pb];

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->job->submit != y->job->submit)
		return x->job->submit < y->job->submit ? -1 : 1;
	return (x->job->id > y->job->id) - (x->job->id < y->job->id);
}

static void prepare(struct bjob *b, struct dl_job *job, struct dl_plan_job *o,
		    const struct dl_capacity *cap,
		    const struct dl_policy_input *in)
{
	b->job = job;
	b->out = o;
	if (!dl_policy_prepare_job(o, job, cap, in, &b->goal, NULL))
		return;
	b->ph = &job->phase[b->goal.phase_kind];
	b->cpu = b->ph->cpus_per_task ? b->ph->cpus_per_task : 1;
	b->mem = (double) b->ph->mem_per_task;
	b->rem = dl_phase_pending(b->ph) + b->ph->nrunning;
	b->active = b->rem > 0;
}

/* Hand one more task of b's size out of the capacity; false when full. */
static bool take(struct bjob *b, struct dl_capacity *cap)
{
	if (b->alloc >= b->rem || b->starved)
		return false;
	if (dl_capacity_take(cap, b->job->partition, -1, b->cpu, b->mem) < 0) {
		b->starved = true;
		return false;
	}
	b->alloc++;
	return true;
}

/* Leftover capacity: round-robin in rank order, one task per job and pass. */
static uint64_t leftover(struct bjob *a, const uint32_t *order, uint32_t n,
			 struct dl_capacity *cap)
{
	uint64_t grants = 0;
	bool any = true;

	while (any) {
		any = false;
		for (uint32_t k = 0; k < n; k++)
			if (a[order[k]].active && take(&a[order[k]], cap)) {
				grants++;
				any = true;
			}
	}
	return grants;
}

/* Max-min fair share of each partition's CPUs: water-filling over the
 * active jobs' demands (remaining tasks times task CPUs). */
static void fair_shares(struct bjob *a, uint32_t n,
			const struct dl_capacity *cap)
{
	uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	double *demand = malloc((n ? n : 1) * sizeof(*demand));
	bool *seen = calloc(n ? n : 1, sizeof(*seen));

	if (!idx || !demand || !seen)
		goto out; /* shares stay 0: leftover hands out everything */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t part, m = 0;

		if (seen[i] || !a[i].active)
			continue;
		part = a[i].job->partition;
		for (uint32_t k = i; k < n; k++)
			if (a[k].active && a[k].job->partition == part) {
				seen[k] = true;
				demand[m] = a[k].rem * a[k].cpu;
				idx[m++] = k;
			}
		if (dl_fair_split(demand, m,
				  dl_capacity_partition_cpus(cap, part)))
			goto out;
		for (uint32_t x = 0; x < m; x++) {
			struct bjob *b = &a[idx[x]];
			double s = floor(demand[x] / b->cpu + 1e-9);

			b->need = s < b->rem ? (uint32_t) s : b->rem;
		}
	}
out:
	free(idx);
	free(demand);
	free(seen);
}

/* ARIA's minimum concurrency for the active phase; rem when the deadline
 * cannot be met any more or no task length is known yet. */
static uint32_t aria_need(struct bjob *b, const struct dl_config *cfg,
			  double now)
{
	const struct dl_job *job = b->job;
	const struct dl_phase *r = &job->phase[DL_REDUCE];
	double mu = b->goal.mu.mean, lam, A, B = 0, mu_r = 0, lam_r = 0;
	double s_map, s_red, s;

	if (!(b->goal.job > 0))
		return 0; /* no deadline: leftover only */
	if (b->goal.mu.source == DL_MU_NONE)
		return b->rem;
	/* the longest task: the job's own when known, else mean + 2 sd */
	lam = mu + 2 * b->goal.mu.sd;
	A = dl_phase_work(b->ph, mu, now, cfg->overdue_floor, -1);
	if (b->goal.phase_kind == DL_MAP && r->tasks) {
		mu_r = b->goal.mu_reduce.mean;
		lam_r = mu_r + 2 * b->goal.mu_reduce.sd;
		B = (double) dl_phase_pending(r) * mu_r;
	}
	if (dl_aria_min_slots(A, mu, lam, B, mu_r, lam_r, b->goal.job - now,
			      &s_map, &s_red))
		return b->rem;
	s = ceil(s_map - 1e-9);
	if (s < 1)
		s = 1;
	return s < b->rem ? (uint32_t) s : b->rem;
}

static void conclude(struct bjob *b, enum dl_baseline kind, double now)
{
	struct dl_plan_job *o = b->out;

	if (!b->active)
		return;
	o->managed = true;
	o->alloc = b->alloc;
	o->alloc_pool[DL_POOL_REGULAR] = b->alloc;
	o->alloc_for_need = b->need < b->alloc ? b->need : b->alloc;
	o->urgent = true;
	o->need = b->need;
	o->cls = DL_CLASS_NEED;
	if (b->goal.mu.source == DL_MU_NONE) {
		o->verdict = DL_VERDICT_NO_DATA;
		snprintf(o->explain, sizeof(o->explain),
			 "%s: rank %u, %u tasks at once, no task length known",
			 dl_baseline_name(kind), o->rank, o->alloc);
		return;
	}
	/* the baselines do not predict: a verdict from the goal alone */
	if (!(b->goal.job > 0))
		o->verdict = DL_VERDICT_ON_TRACK;
	else if (b->goal.phase <= now)
		o->verdict = DL_VERDICT_LATE;
	else
		o->verdict = DL_VERDICT_ON_TRACK;
	snprintf(o->explain, sizeof(o->explain),
		 "%s: rank %u, %u tasks at once (%u needed)",
		 dl_baseline_name(kind), o->rank, o->alloc, b->need);
}

struct dl_plan *dl_baseline_plan(enum dl_baseline kind,
				 const struct dl_policy_input *in, char *err,
				 size_t errlen)
{
	struct dl_capacity cap;
	struct dl_plan *plan;
	struct bjob *a;
	uint32_t *order, n, nact = 0;
	uint64_t t0 = dl_monotonic_us(), grants = 0;

	if ((unsigned) kind >= DL_BASE_COUNT) {
		snprintf(err, err ? errlen : 0, "unknown baseline policy %d",
			 (int) kind);
		return NULL;
	}
	if (dl_policy_check_input(in, err, errlen))
		return NULL;
	n = in->njobs;
	if (dl_capacity_build(&cap, in->cluster)) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return NULL;
	}
	plan = dl_plan_new(n);
	a = calloc(n ? n : 1, sizeof(*a));
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!plan || !a || !order) {
		snprintf(err, err ? errlen : 0, "out of memory");
		dl_plan_free(plan);
		free(a);
		free(order);
		dl_capacity_free(&cap);
		return NULL;
	}
	plan->now = in->now;
	/* not a deadline.conf policy: marked as none of them */
	plan->policy = DL_POLICY_COUNT;
	for (uint32_t c = 0; c < cap.ncls; c++)
		plan->stats.capacity_cpus += cap.cls[c].cpus_total;

	for (uint32_t i = 0; i < n; i++) {
		prepare(&a[i], in->jobs[i], &plan->jobs[i], &cap, in);
		if (a[i].active)
			order[nact++] = i;
	}
	if (kind == DL_BASE_FAIR)
		fair_shares(a, n, &cap);
	for (uint32_t k = 0; k < nact; k++) {
		struct bjob *b = &a[order[k]];
		double dl = b->goal.job;

		if (kind == DL_BASE_ARIA) {
			/* jobs without a deadline after every deadline */
			b->key = dl > 0 ? dl : INFINITY;
			b->need = aria_need(b, in->cfg, in->now);
		} else {
			/* furthest below its share first */
			b->key = (double) b->ph->nrunning - (double) b->need;
		}
	}
	qsort_r(order, nact, sizeof(*order), cmp_key, a);
	for (uint32_t k = 0; k < nact; k++)
		a[order[k]].out->rank = k + 1;

	/* needs (shares, minimum slots) in rank order ... */
	for (uint32_t k = 0; k < nact; k++) {
		struct bjob *b = &a[order[k]];

		while (b->alloc < b->need && take(b, &cap))
			grants++;
	}
	/* ... then whatever is left, round-robin (work-conserving) */
	grants += leftover(a, order, nact, &cap);
	for (uint32_t k = 0; k < nact; k++)
		conclude(&a[order[k]], kind, in->now);

	plan->stats.grants = grants;
	dl_plan_finalize(plan);
	plan->stats.compute_us = dl_monotonic_us() - t0;
	free(a);
	free(order);
	dl_capacity_free(&cap);
	return plan;
}
