/*
 * policy/adaptive.c - Polo's Adaptive Scheduler as a plan cycle.
 *
 * Allocation here is a target number of concurrently running tasks per job
 * (the ArrayTaskThrottle): every job starts from zero and capacity is handed
 * out one slot at a time to the most urgent job, re-ranking after each
 * grant.  Running tasks are never killed; a target below what runs takes
 * effect as tasks end (the paper's job-level pre-emption only).
 *
 * Order (doc/design.md §3, Polo's priority classes): jobs past their phase
 * goal, balanced so their expected lateness relative to their goal evens out;
 * then jobs with no task length known, oldest first; then by remaining need,
 * largest first. Capacity nobody needs goes round-robin in the same order.
 */
#include "common/policy/adaptive.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy/capacity.h"
#include "common/io/timefmt.h"
#include "common/estimate/estimate.h"
#include "common/estimate/goal.h"
#include "common/policy/heap.h"
#include "common/io/clock.h"
#include "common/policy/share.h"

struct ajob {
	struct dl_job *job;
	struct dl_plan_job *out;
	struct dl_goal goal;
	const struct dl_phase *ph;
	double cpu, mem; /* size of one slot */
	/* tasks left, at most the array's own limit: the most concurrency
	 * of any use (a grant beyond the limit would be lost to the rest) */
	uint32_t rem;
	double work; /* task-seconds left at mu */
	double span; /* goal - submit, for relative lateness */
	double need; /* concurrency meeting the goal */
	enum dl_class cls;
	double key0;  /* initial ranking key */
	double key;   /* current key: refreshed after every grant */
	uint32_t tie; /* rank by (submit, id): the tie-break */
	uint32_t g[DL_POOLS];
	uint32_t g_need;  /* grants made while the job had need */
	uint32_t claimed; /* of those, slots that jobs without deadlines
			     hold now: the job gets them as they end */
	bool managed;
	bool done;    /* no active phase */
	bool starved; /* no capacity fits it any more */
	/* hardware affinity (map phase, accelerated pool present) */
	bool affinity;
	bool accel_job;
	bool calib[DL_POOLS];
	bool acc_exhausted;
	double speedup; /* mu_reg / mu_acc */
	double mu_reg, mu_acc;
	double need_acc; /* Eq. 2 need in accelerated slots */
};

struct actx {
	struct ajob *a;
	double now;
};

static uint32_t granted(const struct ajob *a)
{
	uint32_t n = 0;

	for (int k = 0; k < DL_POOLS; k++)
		n += a->g[k];
	return n;
}

/* Remaining need with the current grants, in slots of the next grant. */
static double remaining_need(const struct ajob *a)
{
	if (a->accel_job) {
		double left = a->need_acc - a->g[DL_POOL_ACCEL];

		if (!a->acc_exhausted)
			return left - a->g[DL_POOL_REGULAR] / a->speedup;
		/* Eq. 3: the shortfall in regular slots */
		return dl_sreq_extra(a->mu_reg, a->mu_acc, a->need_acc,
				     a->g[DL_POOL_ACCEL]) -
		       a->g[DL_POOL_REGULAR];
	}
	return a->need - granted(a);
}

/* Expected lateness relative to the goal's timeframe with current grants. */
static double relative_lateness(const struct ajob *a, double now)
{
	uint32_t g = granted(a);

	if (!g)
		return INFINITY;
	return (now + a->work / g - a->goal.phase) / a->span;
}

static double current_key(const struct ajob *a, double now)
{
	switch (a->cls) {
	case DL_CLASS_LATE:
		return relative_lateness(a, now);
	case DL_CLASS_NODATA:
		return -a->job->submit;
	case DL_CLASS_NEED:
		return remaining_need(a);
	default:
		return 0;
	}
}

static int order_cmp(const struct ajob *x, double kx, const struct ajob *y,
		     double ky)
{
	if (x->cls != y->cls)
		return x->cls < y->cls ? 1 : -1;
	if (kx != ky)
		return kx > ky ? 1 : -1;
	/* ties: older submission first (tie = rank by submit, then id) */
	return x->tie < y->tie ? 1 : (x->tie > y->tie ? -1 : 0);
}

static int heap_before(uint32_t i, uint32_t j, void *vctx)
{
	struct actx *c = vctx;

	return order_cmp(&c->a[i], c->a[i].key, &c->a[j], c->a[j].key);
}

static int initial_cmp(const void *pi, const void *pj, void *vctx)
{
	struct actx *c = vctx;
	const struct ajob *x = &c->a[*(const uint32_t *) pi];
	const struct ajob *y = &c->a[*(const uint32_t *) pj];

	return -order_cmp(x, x->key0, y, y->key0);
}

/* Take one slot for a, honouring pool affinity.  Returns false when no
 * capacity fits the job any more. */
static bool grant_one(struct ajob *a, struct dl_capacity *cap)
{
	int order[DL_POOLS + 1], n = 0, got = -1;

	if (!a->affinity) {
		order[n++] = -1;
	} else {
		int first = a->accel_job ? DL_POOL_ACCEL : DL_POOL_REGULAR;

		/* calibration: one task on each pool before deciding */
		for (int k = 0; k < DL_POOLS; k++)
			if (a->calib[k] && !a->g[k]) {
				first = k;
				break;
			}
		order[n++] = first;
		order[n++] = first == DL_POOL_ACCEL ? DL_POOL_REGULAR
						    : DL_POOL_ACCEL;
	}
	for (int i = 0; i < n && got < 0; i++) {
		got = dl_capacity_take(cap, a->job->partition, order[i], a->cpu,
				       a->mem);
		if (got < 0 && order[i] == DL_POOL_ACCEL)
			a->acc_exhausted = true;
	}
	if (got < 0)
		return false;
	a->g[got]++;
	return true;
}

static void setup_affinity(struct ajob *a, const struct dl_capacity *cap,
			   const struct dl_config *cfg, double now)
{
	const struct dl_phase *ph = a->ph;
	double mu_reg, mu_acc, T;

	if (a->goal.phase_kind != DL_MAP || !cap->has_pool[DL_POOL_ACCEL] ||
	    !cap->has_pool[DL_POOL_REGULAR])
		return;
	a->affinity = true;
	for (int k = 0; k < DL_POOLS; k++) {
		bool ran = ph->done_pool[k] > 0;

		for (uint32_t i = 0; !ran && i < ph->nrunning; i++)
			ran = ph->running[i].pool == k;
		a->calib[k] = !ran;
	}
	mu_reg = dl_mu_pool(ph, DL_POOL_REGULAR);
	mu_acc = dl_mu_pool(ph, DL_POOL_ACCEL);
	if (!(mu_reg > 0) || !(mu_acc > 0))
		return;
	a->mu_reg = mu_reg;
	a->mu_acc = mu_acc;
	a->speedup = mu_reg / mu_acc;
	if (a->speedup < cfg->accel_threshold)
		return;
	T = a->goal.phase - now;
	if (!(T > 0))
		return; /* late: handled by lateness, not Eq. 2 */
	a->accel_job = true;
	/* Eq. 2 as concurrency: s_req,acc + |R_acc| */
	a->need_acc =
		dl_sreq_acc(ph, mu_acc, a->goal.phase, now, cfg->overdue_floor);
	for (uint32_t i = 0; i < ph->nrunning; i++)
		a->need_acc += ph->running[i].pool == DL_POOL_ACCEL;
}

static int submit_cmp(const void *pi, const void *pj, void *vctx)
{
	struct actx *c = vctx;
	const struct ajob *x = &c->a[*(const uint32_t *) pi];
	const struct ajob *y = &c->a[*(const uint32_t *) pj];

	if (x->job->submit != y->job->submit)
		return x->job->submit < y->job->submit ? -1 : 1;
	return (x->job->id > y->job->id) - (x->job->id < y->job->id);
}

/* MaxDeadlineShare (policy/share.h): a no-data job claims one slot, a
 * late one all its remaining tasks, the others their need.  idx: the jobs
 * in submission order. */
static int apply_share_cap(struct ajob *a, uint32_t n, const uint32_t *idx,
			   const struct dl_capacity *cap,
			   const struct dl_config *cfg)
{
	struct dl_share_claim *claims;
	int rc;

	if (!(cfg->max_deadline_share < 1))
		return 0;
	claims = calloc(n ? n : 1, sizeof(*claims));
	if (!claims)
		return ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		struct ajob *j = &a[idx[k]];

		claims[k].job = j->job;
		claims[k].out = j->out;
		claims[k].cpu = j->cpu;
		claims[k].mem = j->mem;
		claims[k].managed = j->managed;
		if (j->cls == DL_CLASS_NODATA)
			claims[k].want = 1;
		else if (j->cls == DL_CLASS_LATE)
			claims[k].want = j->rem;
		else
			claims[k].want = fmin(ceil(j->need), j->rem);
	}
	rc = dl_share_cap(claims, n, cap, cfg);
	for (uint32_t k = 0; !rc && k < n; k++)
		a[idx[k]].managed = claims[k].managed;
	free(claims);
	return rc;
}

/* Prepare one job: goal, estimates and class. */
static void prepare(struct ajob *a, struct dl_job *job, struct dl_plan_job *o,
		    const struct dl_capacity *cap,
		    const struct dl_policy_input *in)
{
	const struct dl_config *cfg = in->cfg;
	double now = in->now;

	a->job = job;
	a->out = o;
	if (!dl_policy_prepare_job(o, job, cap, in, &a->goal, NULL)) {
		a->done = true;
		return;
	}
	a->ph = &job->phase[a->goal.phase_kind];
	a->cpu = a->ph->cpus_per_task ? a->ph->cpus_per_task : 1;
	a->mem = (double) a->ph->mem_per_task;
	a->rem = dl_phase_width(a->ph);
	if (!(a->goal.job > 0)) {
		o->verdict = DL_VERDICT_ON_TRACK;
		o->cls = DL_CLASS_UNMANAGED;
		snprintf(o->explain, sizeof(o->explain),
			 "no deadline: left to Slurm's priority and backfill");
		return;
	}
	a->managed = true;
	a->span = a->goal.phase - job->submit;
	if (!(a->span >= 1))
		a->span = 1;
	if (a->goal.mu.source == DL_MU_NONE) {
		a->cls = DL_CLASS_NODATA;
		a->need = NAN;
	} else {
		a->work = dl_phase_work(a->ph, a->goal.mu.mean, now,
					cfg->overdue_floor, -1);
		if (a->goal.phase <= now) {
			a->cls = DL_CLASS_LATE;
			a->need = INFINITY;
		} else {
			/* Eq. 1 treats the work as divisible; with coarse
			 * tasks that started whole it can be a wave short (a
			 * goal 2.5 waves away needs the slots of 3): the need
			 * is the smallest whole concurrency whose waves end
			 * by the goal, never below Eq. 1 (dl_wave_need) */
			a->cls = DL_CLASS_NEED;
			a->need = dl_wave_need(a->ph, a->goal.mu.mean,
					       a->goal.phase, now,
					       cfg->overdue_floor,
					       a->work / (a->goal.phase - now));
			setup_affinity(a, cap, cfg, now);
		}
		o->sreq = dl_sreq(a->ph, a->goal.mu.mean, a->goal.phase, now,
				  cfg->overdue_floor);
	}
	o->need = a->need;
	a->key0 = current_key(a, now);
	a->key = a->key0;
}

/* Predicted finish, verdict and explanation once grants are known. */
static void conclude(struct ajob *a, const struct dl_capacity *cap,
		     const struct dl_config *cfg, double now)
{
	struct dl_plan_job *o = a->out;
	double finish, err, slots, reduce_slots, mu;
	char left[32], late[32], need[48], claimed[64] = "";
	const char *phase = a->goal.phase_kind == DL_REDUCE ? "reduce" : "map";

	if (a->done || !a->managed)
		return;
	o->managed = true;
	slots = granted(a);
	o->alloc = (uint32_t) slots;
	for (int k = 0; k < DL_POOLS; k++)
		o->alloc_pool[k] = a->g[k];
	o->alloc_for_need = a->g_need;
	o->cls = a->cls;
	/* the first alloc_for_need tasks must start before jobs without
	 * deadlines; the rest only use capacity nobody else wants */
	o->urgent = a->g_need > 0;

	if (a->goal.mu.source == DL_MU_NONE) {
		o->predicted_finish = NAN;
		o->verdict = DL_VERDICT_NO_DATA;
		snprintf(o->explain, sizeof(o->explain),
			 "no %s task length known yet: sampling with %u task%s "
			 "(oldest first)",
			 phase, o->alloc, o->alloc == 1 ? "" : "s");
		return;
	}
	/* a job allotted nothing still has its running tasks */
	if (slots < a->ph->nrunning && slots < 1)
		slots = a->ph->nrunning;
	mu = a->goal.mu.mean;
	if (a->accel_job) {
		/* in accelerated-task units: a regular slot does 1/speedup */
		mu = dl_mu_pool(a->ph, DL_POOL_ACCEL);
		slots = a->g[DL_POOL_ACCEL] +
			a->g[DL_POOL_REGULAR] / a->speedup;
	}
	finish = dl_phase_finish(a->ph, mu, now, slots, cfg->overdue_floor);
	err = dl_phase_finish_err(a->ph, a->goal.mu.sd, slots);
	if (a->goal.phase_kind == DL_MAP && a->job->phase[DL_REDUCE].tasks) {
		const struct dl_phase *r = &a->job->phase[DL_REDUCE];

		reduce_slots = dl_capacity_slots(
			cap, a->job->partition, -1, r->cpus_per_task,
			(double) r->mem_per_task, true);
		finish += dl_reduce_time(a->job, &a->goal.mu_reduce,
					 reduce_slots);
		err += dl_phase_finish_err(r, a->goal.mu_reduce.sd,
					   reduce_slots);
	}
	o->predicted_finish = finish;
	o->finish_err = err;

	dl_format_span(a->goal.phase - now, left, sizeof(left));
	dl_format_span(finish - a->goal.job, late, sizeof(late));
	if (a->claimed)
		snprintf(claimed, sizeof(claimed),
			 " (%u of them as jobs without deadlines free their "
			 "CPUs)",
			 a->claimed);
	if (a->cls == DL_CLASS_LATE) {
		o->verdict = DL_VERDICT_LATE;
		if (!isfinite(finish))
			snprintf(o->explain, sizeof(o->explain),
				 "%s goal passed %s ago: no CPU for it now, "
				 "more urgent deadline jobs hold its "
				 "partition; it starts as they end",
				 phase, left + (left[0] == '-'));
		else
			snprintf(o->explain, sizeof(o->explain),
				 "%s goal passed %s ago: finishing as soon as "
				 "possible with %u task%s%s, about %s late",
				 phase, left + (left[0] == '-'), o->alloc,
				 o->alloc == 1 ? "" : "s", claimed, late);
		return;
	}
	o->verdict = finish <= a->goal.job ? DL_VERDICT_ON_TRACK
					   : DL_VERDICT_AT_RISK;
	snprintf(need, sizeof(need), "%.1f",
		 a->accel_job ? a->need_acc : a->need);
	if (o->verdict == DL_VERDICT_AT_RISK && !isfinite(finish))
		snprintf(o->explain, sizeof(o->explain),
			 "needs %s concurrent %s tasks to meet its goal in %s "
			 "but none fits now: more urgent deadline jobs hold "
			 "its partition",
			 need, phase, left);
	else if (a->claimed)
		snprintf(o->explain, sizeof(o->explain),
			 "needs %s concurrent %s tasks for its goal in %s; "
			 "allotted %u%s",
			 need, phase, left, o->alloc, claimed);
	else if (o->verdict == DL_VERDICT_AT_RISK && a->starved)
		snprintf(o->explain, sizeof(o->explain),
			 "needs %s concurrent %s tasks to meet its goal in %s "
			 "but only %u fit: about %s late",
			 need, phase, left, o->alloc, late);
	else if (a->accel_job)
		snprintf(o->explain, sizeof(o->explain),
			 "accelerable (%.1fx): needs %s accelerated %s slots "
			 "for its goal in %s; %u accelerated + %u regular",
			 a->speedup, need, phase, left, a->g[DL_POOL_ACCEL],
			 a->g[DL_POOL_REGULAR]);
	else
		snprintf(o->explain, sizeof(o->explain),
			 "needs %s concurrent %s tasks for its goal in %s; "
			 "allotted %u (%u from idle capacity)",
			 need, phase, left, o->alloc,
			 o->alloc > a->g_need ? o->alloc - a->g_need : 0);
}

/* One slot at a time to the most urgent job, re-ranking after each grant:
 * the job served stays at the heap's top and sinks to its new place.
 * claim: cap is what jobs without deadlines hold, and a job without a task
 * length claims one slot only (enough for its first sample). */
static void need_loop(struct ajob *a, struct dl_heap *h,
		      struct dl_capacity *cap, double now, bool claim,
		      uint64_t *grants)
{
	uint32_t i;

	while (dl_heap_peek(h, &i)) {
		struct ajob *j = &a[i];
		bool out = granted(j) >= j->rem ||
			   (claim && j->cls == DL_CLASS_NODATA && granted(j));

		if (!out && !grant_one(j, cap)) {
			j->starved = true;
			out = true;
		} else if (!out) {
			j->g_need++;
			j->claimed += claim;
			(*grants)++;
			if (j->cls == DL_CLASS_NEED && !(remaining_need(j) > 0))
				j->cls = DL_CLASS_MET;
			out = j->cls == DL_CLASS_MET || granted(j) >= j->rem;
		}
		if (out) {
			dl_heap_pop(h, &i);
			continue;
		}
		j->key = current_key(j, now);
		dl_heap_update_top(h);
	}
}

/* When the first CPU that work without deadlines holds is expected back:
 * the earliest end Slurm has for it (start + time limit), now when no end
 * is known. */
static double held_first_end(const struct dl_cluster *cl, double now)
{
	double t = INFINITY;

	for (uint32_t i = 0; i < cl->nheld; i++)
		if (cl->held[i].cpus && cl->held[i].end > now &&
		    cl->held[i].end < t)
			t = cl->held[i].end;
	return isfinite(t) ? t : now;
}

/* The need of a job whose tasks can start only when held CPUs free at
 * start: its waves must fit between start and the goal, so a need sized
 * from now would come up a wave short (every remaining task when even
 * they cannot fit). */
static void need_from(struct ajob *j, double start, double now,
		      double floor_frac)
{
	if (!(start > now) || j->cls != DL_CLASS_NEED)
		return;
	if (j->goal.phase <= start) {
		j->need = j->rem;
	} else {
		double need = dl_wave_need(j->ph, j->goal.mu.mean,
					   j->goal.phase, start, floor_frac,
					   j->work / (j->goal.phase - start));

		if (need > j->need)
			j->need = fmin(need, j->rem);
	}
	j->out->need = j->need;
}

/* A job with unmet need that found no free capacity keeps its claim on
 * what jobs without deadlines hold now: the slots are granted (counted in
 * its allocation and its need, so it is urgent) and the job gets them as
 * that work ends, before new work without deadlines starts.  Its need is
 * counted from when that capacity is expected back (need_from).  Most
 * urgent first, one slot at a time, as in need_loop.  The claimable memory
 * of a class is what they hold plus what is still free there. */
static int claim_loop(struct ajob *a, uint32_t n, struct dl_heap *h,
		      const struct dl_cluster *cl,
		      const struct dl_capacity *cap, double now,
		      double floor_frac, uint64_t *grants)
{
	double start = held_first_end(cl, now);

	struct dl_capacity held;
	int rc;

	if ((rc = dl_capacity_build_other(&held, cl)))
		return rc;
	for (uint32_t k = 0; k < held.ncls && k < cap->ncls; k++)
		if (dl_partset_equal(&held.cls[k].partitions,
				     &cap->cls[k].partitions) &&
		    held.cls[k].pool == cap->cls[k].pool) {
			held.cls[k].mem_total += cap->cls[k].mem_free;
			held.cls[k].mem_free += cap->cls[k].mem_free;
		}
	for (uint32_t i = 0; i < n; i++) {
		struct ajob *j = &a[i];

		if (!j->managed || j->done || !j->starved ||
		    granted(j) >= j->rem)
			continue;
		need_from(j, start, now, floor_frac);
		if (j->cls == DL_CLASS_NEED && !(remaining_need(j) > 0))
			continue;
		if (j->cls == DL_CLASS_NODATA && granted(j))
			continue;
		j->key = current_key(j, now);
		if ((rc = dl_heap_push(h, i)))
			break;
	}
	if (!rc)
		need_loop(a, h, &held, now, true, grants);
	dl_capacity_free(&held);
	return rc;
}

/* Leftover capacity: round-robin in ranking order, one slot per job per
 * pass, until nothing fits or every job has a slot per task. */
static void leftover_loop(struct ajob *a, uint32_t *order, uint32_t n,
			  struct dl_capacity *cap, uint64_t *grants)
{
	uint32_t live = 0;

	for (uint32_t k = 0; k < n; k++) {
		struct ajob *j = &a[order[k]];

		if (j->managed && !j->done && !j->starved &&
		    granted(j) < j->rem)
			order[live++] = order[k];
	}
	while (live) {
		uint32_t kept = 0;

		for (uint32_t k = 0; k < live; k++) {
			struct ajob *j = &a[order[k]];

			if (!grant_one(j, cap))
				continue; /* full for this job: done */
			(*grants)++;
			if (granted(j) < j->rem)
				order[kept++] = order[k];
		}
		live = kept;
	}
}

struct dl_plan *dl_adaptive_plan(const struct dl_policy_input *in, char *err,
				 size_t errlen)
{
	struct dl_capacity cap;
	struct dl_plan *plan = NULL;
	struct ajob *a = NULL;
	uint32_t *order = NULL, n, rank = 0;
	struct dl_heap h = {0};
	struct actx ctx;
	uint64_t t0 = dl_monotonic_us(), grants = 0;
	int rc;

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
	if (!plan || !a || !order ||
	    dl_heap_init(&h, n ? n : 1, heap_before, &ctx)) {
		snprintf(err, err ? errlen : 0, "out of memory");
		goto fail;
	}
	ctx.a = a;
	ctx.now = in->now;
	plan->now = in->now;
	plan->policy = DL_POLICY_ADAPTIVE;

	for (uint32_t i = 0; i < n; i++) {
		prepare(&a[i], in->jobs[i], &plan->jobs[i], &cap, in);
		order[i] = i;
	}
	qsort_r(order, n, sizeof(*order), submit_cmp, &ctx);
	for (uint32_t k = 0; k < n; k++)
		a[order[k]].tie = k;
	if (apply_share_cap(a, n, order, &cap, in->cfg)) {
		snprintf(err, err ? errlen : 0, "out of memory");
		goto fail;
	}

	/* ranks: the order in which the jobs should get free slots */
	qsort_r(order, n, sizeof(*order), initial_cmp, &ctx);
	for (uint32_t k = 0; k < n; k++)
		if (a[order[k]].managed && !a[order[k]].done)
			a[order[k]].out->rank = ++rank;

	for (uint32_t k = 0; k < n; k++) {
		struct ajob *j = &a[order[k]];

		if (j->managed && !j->done && j->rem &&
		    (rc = dl_heap_push(&h, order[k]))) {
			snprintf(err, err ? errlen : 0, "out of memory");
			goto fail;
		}
	}
	for (uint32_t k = 0; k < DL_POOLS; k++)
		for (uint32_t c = 0; c < cap.ncls; c++)
			if (cap.cls[c].pool == k)
				plan->stats.capacity_cpus +=
					cap.cls[c].cpus_total;
	need_loop(a, &h, &cap, in->now, false, &grants);
	if (claim_loop(a, n, &h, in->cluster, &cap, in->now,
		       in->cfg->overdue_floor, &grants)) {
		snprintf(err, err ? errlen : 0, "out of memory");
		goto fail;
	}
	leftover_loop(a, order, n, &cap, &grants);
	for (uint32_t i = 0; i < n; i++)
		conclude(&a[i], &cap, in->cfg, in->now);

	plan->stats.grants = grants;
	dl_plan_finalize(plan);
	plan->stats.compute_us = dl_monotonic_us() - t0;
	dl_heap_free(&h);
	free(order);
	free(a);
	dl_capacity_free(&cap);
	return plan;
fail:
	dl_heap_free(&h);
	free(order);
	free(a);
	dl_plan_free(plan);
	dl_capacity_free(&cap);
	return NULL;
}
