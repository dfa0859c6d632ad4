/*
 * estimate.c - Polo's performance model: mu, delta, s_req (Eq. 1-3) and
 * predicted finish times.
 */
#include "common/estimate/estimate.h"
#include "common/estimate/predictor.h"
#include "common/estimate/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A spread below this share of the mean is none: what the rounding of
 * sums of equal lengths leaves */
#define EXACT_SPREAD 1e-6

double dl_mu_pool(const struct dl_phase *ph, int pool)
{
	double sum = 0;
	uint32_t n = 0;

	if (!ph)
		return 0;
	for (int k = 0; k < DL_POOLS; k++) {
		if (pool >= 0 && k != pool)
			continue;
		sum += ph->sum_len[k];
		n += ph->done_pool[k];
	}
	return n ? sum / n : 0;
}

double dl_sd(const struct dl_phase *ph)
{
	double sum = 0, sumsq = 0, var;
	uint32_t n = 0;

	if (!ph)
		return 0;
	for (int k = 0; k < DL_POOLS; k++) {
		sum += ph->sum_len[k];
		sumsq += ph->sumsq_len[k];
		n += ph->done_pool[k];
	}
	if (n < 2)
		return 0;
	var = (sumsq - sum * sum / n) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}

bool dl_phase_use_prediction(struct dl_phase *ph, const struct dl_prediction *p)
{
	if (!ph || !p || p->source == DL_PRED_DEFAULT || !(p->mean > 0) ||
	    !isfinite(p->mean) || !isfinite(p->p90) || dl_phase_done(ph))
		return false;
	ph->prior_mean = p->mean;
	ph->prior_p90 = p->p90;
	snprintf(ph->prior_source, sizeof(ph->prior_source), "%s",
		 dl_pred_source_name(p->source));
	return true;
}

struct dl_mu dl_phase_mu(const struct dl_phase *ph)
{
	struct dl_mu mu = {0, 0, DL_MU_NONE, "none", false};

	if (!ph)
		return mu;
	if (ph->completed && dl_mu_pool(ph, -1) > 0 &&
	    !(ph->prior_exact && ph->prior_mean > 0)) {
		mu.mean = dl_mu_pool(ph, -1);
		mu.sd = dl_sd(ph);
		mu.source = DL_MU_JOB;
		mu.label = "job";
		mu.exact = dl_phase_done(ph) >= 2 &&
			   mu.sd <= EXACT_SPREAD * mu.mean;
	} else if (ph->prior_mean > 0) {
		mu.mean = ph->prior_mean;
		/* p90 of a normal is mean + 1.2816 sd */
		mu.sd = ph->prior_p90 > ph->prior_mean
				? (ph->prior_p90 - ph->prior_mean) / 1.2816
				: 0;
		mu.source = DL_MU_PRIOR;
		mu.label = ph->prior_source[0] ? ph->prior_source : "history";
		mu.exact = fabs(ph->prior_p90 - ph->prior_mean) <=
			   EXACT_SPREAD * ph->prior_mean;
	}
	return mu;
}

double dl_delta(double mu, double start, double now, double floor_frac)
{
	double beta = now - start;
	double floor_s = floor_frac > 0 ? floor_frac * mu : 0;

	if (!(mu > 0))
		return 0;
	if (beta < 0)
		beta = 0; /* clock skew: a task cannot have run negative time */
	return mu - beta > floor_s ? mu - beta : floor_s;
}

void dl_remaining_init(struct dl_remaining *r, double mean, double sd,
		       bool exact, double floor_frac)
{
	double s2;

	r->mean = mean > 0 && isfinite(mean) ? mean : 0;
	r->floor_s = floor_frac > 0 ? floor_frac * r->mean : 0;
	r->m = r->s = 0;
	r->exact = exact;
	if (!(r->mean > 0) || !(sd > 0) || !isfinite(sd) || exact)
		return;
	s2 = log1p((sd / mean) * (sd / mean));
	r->m = log(mean) - s2 / 2;
	r->s = sqrt(s2);
}

void dl_remaining_levels(const struct dl_remaining *r, double elapsed,
			 const double *u, uint32_t n, double *out)
{
	double flat, z0, p0;

	if (elapsed < 0 || !isfinite(elapsed))
		elapsed = 0;
	if (!(r->mean > 0)) {
		for (uint32_t i = 0; i < n; i++)
			out[i] = 0;
		return;
	}
	/* without a spread (or at a level out of (0, 1)): the mean less
	 * what has run, at least the floor -- but an exact length short of
	 * the mean has just that left (floored, every task ending within
	 * floor_s looked floor_s away: a job due soon was written off as
	 * lost even alone while the CPUs it needed were about to free) */
	if (r->exact && r->mean - elapsed > 0)
		flat = r->mean - elapsed;
	else
		flat = r->mean - elapsed > r->floor_s ? r->mean - elapsed
						      : r->floor_s;
	if (!(r->s > 0)) {
		for (uint32_t i = 0; i < n; i++)
			out[i] = flat;
		return;
	}
	/* P(L <= elapsed), once for every level, then the level u of what
	 * is left above it */
	z0 = elapsed > 0 ? (log(elapsed) - r->m) / r->s : -INFINITY;
	p0 = 0.5 * erfc(-z0 / M_SQRT2);
	for (uint32_t i = 0; i < n; i++) {
		double p, len;

		if (!(u[i] > 0 && u[i] < 1)) {
			out[i] = flat;
			continue;
		}
		p = p0 + u[i] * (1 - p0);
		if (!(p < 1 - 1e-12))
			p = 1 - 1e-12;
		len = exp(r->m + r->s * dl_normal_quantile_rough(p));
		out[i] =
			len - elapsed > r->floor_s ? len - elapsed : r->floor_s;
	}
}

double dl_remaining_at(double mean, double sd, double elapsed, double u,
		       double floor_frac)
{
	struct dl_remaining r;
	double out;

	dl_remaining_init(&r, mean, sd, false, floor_frac);
	dl_remaining_levels(&r, elapsed, &u, 1, &out);
	return out;
}

double dl_phase_work(const struct dl_phase *ph, double mu, double now,
		     double floor_frac, int pool)
{
	double w = 0;

	if (!ph || !(mu > 0))
		return 0;
	for (uint32_t i = 0; i < ph->nrunning; i++)
		if (pool < 0 || ph->running[i].pool == pool)
			w += dl_delta(mu, ph->running[i].start, now,
				      floor_frac);
	return w + (double) dl_phase_pending(ph) * mu;
}

static uint32_t running_on(const struct dl_phase *ph, int pool)
{
	uint32_t n = 0;

	if (pool < 0)
		return ph->nrunning;
	for (uint32_t i = 0; i < ph->nrunning; i++)
		n += ph->running[i].pool == pool;
	return n;
}

static double sreq_pool(const struct dl_phase *ph, double mu, double goal,
			double now, double floor_frac, int pool)
{
	double work;

	if (!ph || !(mu > 0) || !isfinite(goal) || !isfinite(now))
		return NAN;
	work = dl_phase_work(ph, mu, now, floor_frac, pool);
	if (work <= 0)
		return -(double) running_on(ph, pool);
	if (goal <= now)
		return INFINITY;
	return work / (goal - now) - (double) running_on(ph, pool);
}

double dl_sreq(const struct dl_phase *ph, double mu, double goal, double now,
	       double floor_frac)
{
	return sreq_pool(ph, mu, goal, now, floor_frac, -1);
}

double dl_need(const struct dl_phase *ph, double mu, double goal, double now,
	       double floor_frac)
{
	double s = dl_sreq(ph, mu, goal, now, floor_frac);

	return isnan(s) ? s : s + (double) ph->nrunning;
}

double dl_sreq_acc(const struct dl_phase *ph, double mu_acc, double goal,
		   double now, double floor_frac)
{
	return sreq_pool(ph, mu_acc, goal, now, floor_frac, DL_POOL_ACCEL);
}

double dl_sreq_extra(double mu_reg, double mu_acc, double sreq_acc,
		     double acc_slots)
{
	if (!(mu_reg > 0) || !(mu_acc > 0) || !(sreq_acc > acc_slots))
		return 0;
	return mu_reg / mu_acc * (sreq_acc - acc_slots);
}

/* Rearrange a[0..n) so that a[k] is the k-th smallest (0-based), with
 * nothing larger before it and nothing smaller after it (quickselect). */
static double nth_smallest(double *a, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = a[lo + (hi - lo) / 2];
		uint32_t i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				double t = a[i];

				a[i] = a[j];
				a[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return a[k];
}

/*
 * When the last of `pending` tasks of length mu ends, list-scheduled on
 * `idle` slots free now and busy slots that free at busy[0..nbusy): the
 * pending-th smallest of the completion times free_at + i * mu, i >= 1.
 *
 * g(T) = sum_k max(0, T - free_at[k]) bounds the completions by T from
 * above (g/mu) and from below (g/mu - active slots).  T_lb, the first T with
 * g(T) = pending * mu, is therefore a lower bound, at most one completion
 * per active slot is missing there, and every active slot's next completion
 * lies within one task length after T_lb, before any second one: the
 * answer is the missing-th smallest of those next completions.  The idle
 * slots are alike (free at 0, the same next completion), so they count as
 * one block: the cost is O(nbusy) whatever the slot count, which is what
 * keeps dl_wave_need's search cheap for a wide job with few running tasks.
 * When every slot is free by T_lb (the usual case) no sort is needed;
 * otherwise busy is sorted to find the active slots.  scratch holds nbusy
 * doubles.
 */
static double list_finish(uint32_t idle, double *busy, uint32_t nbusy,
			  double mu, uint32_t pending, double *scratch)
{
	double sum = 0, max = 0, t_lb, done = 0, idle_next, i_idle;
	uint32_t active = idle + nbusy, busy_active = nbusy, missing, below = 0;

	for (uint32_t k = 0; k < nbusy; k++) {
		sum += busy[k];
		max = busy[k] > max ? busy[k] : max;
	}
	t_lb = (pending * mu + sum) / active;
	if (t_lb < max) {
		/* some slots free only after T_lb: sweep in order.  g's slope
		 * counts the idle slots from 0 on; T_lb > 0 lies past them */
		dl_sort_doubles(busy, nbusy);
		sum = 0;
		busy_active = 0;
		if (idle) {
			t_lb = pending * mu / idle;
			active = idle;
		}
		/* with idle slots, T_lb may come before any busy one frees */
		for (uint32_t k = 0; (!idle || t_lb > busy[0]) && k < nbusy;
		     k++) {
			sum += busy[k];
			/* g on [busy[k], busy[k+1]] is (idle+k+1) T - sum */
			t_lb = (pending * mu + sum) / (idle + k + 1);
			active = idle + k + 1;
			busy_active = k + 1;
			if (k + 1 == nbusy || t_lb <= busy[k + 1])
				break;
		}
	}
	i_idle = floor(t_lb / mu + 1e-9);
	done = idle * (i_idle > 0 ? i_idle : 0);
	idle_next = (i_idle > 0 ? i_idle + 1 : 1) * mu;
	for (uint32_t k = 0; k < busy_active; k++) {
		double i = floor((t_lb - busy[k]) / mu + 1e-9);

		done += i > 0 ? i : 0;
		scratch[k] = busy[k] + (i > 0 ? i + 1 : 1) * mu;
		below += scratch[k] < idle_next;
	}
	if (done >= pending) /* t_lb is itself a completion time */
		return t_lb;
	missing = pending - (uint32_t) done;
	if (missing > active)
		missing = active; /* guards rounding; cannot happen exactly */
	/* the missing-th smallest of the busy slots' next completions and
	 * `idle` copies of the idle slots' one */
	if (missing - 1 < below)
		return nth_smallest(scratch, busy_active, missing - 1);
	if (missing - 1 < below + idle)
		return idle_next;
	return nth_smallest(scratch, busy_active, missing - 1 - idle);
}

/* The finish in seconds from now of `pending` (> 0) tasks behind running
 * ones with remaining times delta[0..r) (rearranged), the longest `last`,
 * on nslots (>= 1) slots.  scratch holds r doubles. */
static double finish_after(double *delta, uint32_t r, double last,
			   uint32_t pending, double mu, uint32_t nslots,
			   double *scratch)
{
	double t;

	if (!r) /* every slot free now: whole waves */
		return ceil((double) pending / nslots) * mu;
	/* A slot frees when a running task ends, but only once concurrency
	 * has drained below the slot count: with r > slots, the first
	 * r - slots endings free nothing usable. */
	if (r > nslots) {
		nth_smallest(delta, r, r - nslots);
		t = list_finish(0, delta + (r - nslots), nslots, mu, pending,
				scratch);
	} else {
		t = list_finish(nslots - r, delta, r, mu, pending, scratch);
	}
	return t > last ? t : last;
}

/* The longest of the running tasks' remaining times; with delta, each of
 * them too, in running order. */
static double running_deltas(const struct dl_phase *ph, double mu, double now,
			     double floor_frac, double *delta)
{
	double last = 0;

	for (uint32_t i = 0; i < ph->nrunning; i++) {
		double d = dl_delta(mu, ph->running[i].start, now, floor_frac);

		if (delta)
			delta[i] = d;
		last = d > last ? d : last;
	}
	return last;
}

#define FINISH_STACK 256

/* n doubles on the stack when they fit, else on the heap (NULL: none) */
static double *finish_buffer(double *stack, size_t n)
{
	return n <= 3 * FINISH_STACK ? stack : malloc(n * sizeof(double));
}

double dl_phase_finish(const struct dl_phase *ph, double mu, double now,
		       double slots, double floor_frac)
{
	double stack[3 * FINISH_STACK], *buf, last = 0, t;
	uint32_t pending, nslots, r;

	if (!ph || !isfinite(now))
		return NAN;
	pending = dl_phase_pending(ph);
	r = ph->nrunning;
	if (!pending && !r)
		return now;
	if (!(mu > 0))
		return NAN;
	nslots = slots >= 1 ? (slots > 1e7 ? 10000000u : (uint32_t) slots) : 0;
	if (pending && !nslots)
		return INFINITY;
	if (pending > 0 && nslots > pending + r)
		nslots = pending + r; /* more slots than tasks do not help */
	if (!pending)
		return now + running_deltas(ph, mu, now, floor_frac, NULL);
	buf = finish_buffer(stack, 2 * (size_t) r);
	if (!buf)
		return NAN;
	last = running_deltas(ph, mu, now, floor_frac, buf);
	t = finish_after(buf, r, last, pending, mu, nslots, buf + r);
	if (buf != stack)
		free(buf);
	return now + t;
}

double dl_phase_finish_err(const struct dl_phase *ph, double sd, double slots)
{
	double tasks;

	if (!ph || !(sd > 0))
		return 0;
	tasks = (double) dl_phase_pending(ph) + ph->nrunning;
	if (tasks <= 0)
		return 0;
	if (slots < 1)
		slots = 1;
	return sd * sqrt(ceil(tasks / slots));
}

double dl_finish_quantile(double finish, double err, double q)
{
	if (!(finish > 0) || !isfinite(finish) || !(q > 0 && q < 1))
		return NAN;
	if (!isfinite(err) || !(err > 0))
		return finish;
	return finish + dl_normal_quantile(q) * err;
}

/* dl_wave_need's search: the running tasks' remaining times are computed
 * once, and each probe works on a copy in running order, so it sums exactly
 * as dl_phase_finish does. */
struct wave_search {
	double *delta;   /* the running tasks' remaining times, running order */
	double *work;    /* a copy a probe may rearrange */
	double *scratch; /* list_finish's */
	double last, mu, now;
	uint32_t r, pending;
};

/* A probe of dl_wave_need's search: the finish with `slots` slots. */
static double wave_finish(const struct wave_search *w, uint32_t slots)
{
	memcpy(w->work, w->delta, w->r * sizeof(*w->work));
	return w->now + finish_after(w->work, w->r, w->last, w->pending, w->mu,
				     slots, w->scratch);
}

/* The need in whole tasks: the smallest concurrency (running tasks
 * included) whose list-scheduled finish (dl_phase_finish: running tasks
 * end, pending ones start in waves as slots free) meets the goal.  Polo's
 * Eq. 1 treats the work as divisible; with tasks long against the time
 * left it under-counts by up to a wave (34 tasks of 390 s due in 951 s:
 * Eq. 1 says 13.9, but 14 slots take 3 waves, 1170 s; 17 take 2).  Never
 * below Eq. 1; everything left when even that cannot meet the goal. */
double dl_wave_need(const struct dl_phase *ph, double mu, double goal,
		    double now, double floor_frac, double fluid)
{
	double stack[3 * FINISH_STACK], need;
	struct wave_search w = {.mu = mu, .now = now};
	uint32_t lo = 1, hi;

	w.pending = dl_phase_pending(ph);
	w.r = ph->nrunning;
	hi = w.pending + w.r;
	if (!(mu > 0) || !isfinite(fluid) || !(goal > now) || !isfinite(now) ||
	    !w.pending)
		return fluid;
	w.delta = finish_buffer(stack, 3 * (size_t) w.r);
	if (!w.delta) /* no memory to search: every task left, the safe side */
		return hi;
	w.work = w.delta + w.r;
	w.scratch = w.work + w.r;
	w.last = running_deltas(ph, mu, now, floor_frac, w.delta);
	if (wave_finish(&w, hi) > goal + 1e-6) {
		need = hi; /* even everything at once misses: all of it */
	} else {
		/* never below Eq. 1: start there (most often the answer) */
		if (fluid > 1 && ceil(fluid - 1e-9) < hi)
			lo = (uint32_t) ceil(fluid - 1e-9);
		/* the finish never rises with more slots, so when Eq. 1's
		 * concurrency is enough it is the least that is */
		if (lo < hi && wave_finish(&w, lo) <= goal + 1e-6)
			hi = lo;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (wave_finish(&w, mid) <= goal + 1e-6)
				hi = mid;
			else
				lo = mid + 1;
		}
		need = lo > fluid ? lo : fluid;
	}
	if (w.delta != stack)
		free(w.delta);
	return need;
}
