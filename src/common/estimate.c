/*
 * estimate.c - Polo's performance model: mu, delta, s_req (Eq. 1-3) and
 * predicted finish times.
 */
#include "common/estimate.h"

#include <math.h>
#include <stdlib.h>

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

struct dl_mu dl_phase_mu(const struct dl_phase *ph)
{
	struct dl_mu mu = { 0, 0, DL_MU_NONE, "none" };

	if (!ph)
		return mu;
	if (ph->completed && dl_mu_pool(ph, -1) > 0) {
		mu.mean = dl_mu_pool(ph, -1);
		mu.sd = dl_sd(ph);
		mu.source = DL_MU_JOB;
		mu.label = "job";
	} else if (ph->prior_mean > 0) {
		mu.mean = ph->prior_mean;
		/* p90 of a normal is mean + 1.2816 sd */
		mu.sd = ph->prior_p90 > ph->prior_mean
				? (ph->prior_p90 - ph->prior_mean) / 1.2816
				: 0;
		mu.source = DL_MU_PRIOR;
		mu.label = ph->prior_source[0] ? ph->prior_source : "history";
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Tasks of length mu that slots freeing at free[0..n) complete by time t. */
static double tasks_done_by(const double *free_at, uint32_t n, double mu,
			    double t)
{
	double c = 0;

	for (uint32_t k = 0; k < n; k++)
		if (t >= free_at[k])
			c += floor((t - free_at[k]) / mu + 1e-9);
	return c;
}

/* The finish lies in (lo, hi] and is a task end f_k + i * mu: the first
 * such end in the window at which enough tasks are done.  free_at is
 * reused as scratch. */
static double exact_finish(double *free_at, uint32_t n, double mu, double lo,
			   double hi, uint32_t pending)
{
	double *cand = malloc(n * sizeof(*cand)), best = hi;
	uint32_t m = 0;

	if (!cand)
		return hi;
	for (uint32_t k = 0; k < n; k++) {
		double i = free_at[k] > lo ? 1 : floor((lo - free_at[k]) / mu) + 1;
		double c = free_at[k] + i * mu;

		if (c <= hi)
			cand[m++] = c;
	}
	qsort(cand, m, sizeof(*cand), cmp_double);
	for (uint32_t k = 0; k < m; k++)
		if (tasks_done_by(free_at, n, mu, cand[k]) >= pending) {
			best = cand[k];
			break;
		}
	free(cand);
	return best;
}

double dl_phase_finish(const struct dl_phase *ph, double mu, double now,
		       double slots, double floor_frac)
{
	uint32_t pending, nslots, r;
	double *delta, *free_at, last = 0, lo, hi;

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

	delta = malloc((r ? r : 1) * sizeof(*delta));
	free_at = malloc((nslots ? nslots : 1) * sizeof(*free_at));
	if (!delta || !free_at) {
		free(delta);
		free(free_at);
		return NAN;
	}
	for (uint32_t i = 0; i < r; i++) {
		delta[i] = dl_delta(mu, ph->running[i].start, now, floor_frac);
		if (delta[i] > last)
			last = delta[i];
	}
	if (!pending) {
		free(delta);
		free(free_at);
		return now + last;
	}
	qsort(delta, r, sizeof(*delta), cmp_double);
	/* A slot frees when a running task ends, but only once concurrency
	 * has drained below the slot count: with r > slots, the first
	 * r - slots endings free nothing usable. */
	for (uint32_t k = 0; k < nslots; k++) {
		uint64_t idx = (uint64_t) r > nslots ? r - nslots + k : k;

		if ((uint64_t) r > nslots)
			free_at[k] = delta[idx];
		else
			free_at[k] = k < nslots - r ? 0 : delta[k - (nslots - r)];
	}
	if (free_at[nslots - 1] == 0) {
		/* every slot free now: whole waves */
		hi = ceil((double) pending / nslots) * mu;
	} else {
		/* smallest t with tasks_done_by(t) >= pending, by bisection
		 * to a thousandth of a task length */
		lo = 0;
		hi = free_at[nslots - 1] +
		     mu * (ceil((double) pending / nslots) + 1);
		while (hi - lo > 1e-3 * mu) {
			double mid = (lo + hi) / 2;

			if (tasks_done_by(free_at, nslots, mu, mid) >= pending)
				hi = mid;
			else
				lo = mid;
		}
		hi = exact_finish(free_at, nslots, mu, lo, hi, pending);
	}
	free(delta);
	free(free_at);
	return now + (hi > last ? hi : last);
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
