/*
 * alone.c - the earliest end of a job's phase alone on the cluster (see
 * alone.h for the model).
 *
 * Why a run of the engine is a schedule of the model.  When the engine
 * starts a task of job j on node n at time x, the node's used CPUs (of all
 * jobs) plus the task's c CPUs fit in floor(avail(x) * cpus), and likewise
 * for memory and I/O.  So the tasks of j running there, the new one
 * included, number q <= q_max(x), the tasks of that size the node may hold
 * at x; machine i of the node is available at x exactly when i < q_max(x).
 * The other q - 1 running tasks of j occupy q - 1 machines of the node, so
 * one of the q machines 0..q-1 is free, and it is available: the task
 * goes there.  Other jobs only take capacity away, a task runs at least its
 * shortest length (fastest node, local read), shortening tasks keeps a
 * schedule valid, and a job's reduces start after its last map has ended,
 * no earlier than the bound of its maps (a later release never ends a phase
 * earlier: a schedule from the later release is one from the earlier).
 *
 * Why the greedy is optimal for n tasks of equal length L.
 * 1. One machine.  Let g_1 be its first available time >= the release and
 *    g_{k+1} the first available time >= g_k + L (back-to-back earliest
 *    starts; availability is a union of half-open steps, so "first" is
 *    attained).  Any valid sequence of starts s_1 < s_2 < ... on the
 *    machine has g_k <= s_k: s_1 is available and >= the release; if
 *    g_k <= s_k then s_{k+1} >= s_k + L >= g_k + L is available, so
 *    g_{k+1} <= s_{k+1}.  By any time T the greedy has ended at least as
 *    many tasks on the machine as any schedule.
 * 2. All machines.  A schedule ending its n-th task at C ends on each
 *    machine no more tasks by C than the greedy, so at least n greedy
 *    ends (over all machines) are <= C: C >= the n-th smallest greedy end.
 *    Running the tasks in those n greedy slots (a prefix of each machine's
 *    sequence) is a valid schedule that ends exactly then: the bound is the
 *    optimum.
 * 3. Only machines 0..n-1 matter: machine m may start whenever m + 1 may
 *    (the available machines are a prefix), so by 1. its k-th greedy end is
 *    no later than that of m + 1; if a machine m >= n ends a task by C,
 *    each of the n machines below it does too, and the first n machines
 *    alone hold n ends <= C.
 *
 * Unequal lengths (sorted p_1 >= p_2 >= ... >= p_n), three valid bounds:
 *  a. every task as short as p_n: the equal-length optimum above;
 *  b. e0 + p_1, with e0 the first time any machine may start (machine 0 is
 *     available whenever any is);
 *  c. the pigeonhole chain: every task runs on a machine that is available
 *     at its start, and by nesting those are machines 0..M-1 with M the
 *     most machines available at once in [release, horizon).  For k >= 0,
 *     some machine runs k + 1 of the k M + 1 longest tasks (pigeonhole),
 *     one after the other and not before e0: the end is >= e0 + the sum
 *     of the k + 1 smallest of them, p_{kM+1-k} + ... + p_{kM+1}.
 *
 * At most K tasks at once (the array's own limit).  The tasks' run
 * intervals then overlap K at a time at most, so they split into K chains
 * of tasks that run one after the other (an interval graph is coloured
 * with as many colours as its largest clique).  Every task starts on a
 * machine available then, so machine 0 is available at every start: each
 * chain is a schedule of machine 0 alone.  Two bounds follow, both valid
 * whatever machines the tasks use:
 *  a'. equal lengths: the n-th smallest greedy end over K copies of
 *      machine 0 (1. on each chain, then 2.); kept when later than a.;
 *  c'. the chain bound with M at most K (pigeonhole over the K chains).
 * The copies of machine 0 are what the limit leaves when capacity is
 * constant; where it changes they can be earlier than any schedule on
 * machines 0..K-1 (the external load may take machine 1 while machine 0
 * is still available).
 */
#include "common/compare/alone.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/stats.h"

#define NONE UINT32_MAX

int dl_alone_supply_init(struct dl_alone_supply *s, const double *t,
			 const uint32_t *count, uint32_t nsteps)
{
	uint32_t leaves = 1;

	if (!s)
		return EINVAL;
	memset(s, 0, sizeof(*s));
	if (!t || !count || !nsteps || nsteps > UINT32_MAX / 4)
		return EINVAL;
	for (uint32_t k = 0; k < nsteps; k++)
		if (!isfinite(t[k]) || (k && !(t[k] > t[k - 1])))
			return EINVAL;
	while (leaves < nsteps)
		leaves *= 2;
	s->t = malloc(nsteps * sizeof(*s->t));
	s->count = malloc(nsteps * sizeof(*s->count));
	s->tmax = calloc(2 * (size_t) leaves, sizeof(*s->tmax));
	if (!s->t || !s->count || !s->tmax) {
		dl_alone_supply_free(s);
		return ENOMEM;
	}
	memcpy(s->t, t, nsteps * sizeof(*t));
	memcpy(s->count, count, nsteps * sizeof(*count));
	s->nsteps = nsteps;
	s->leaves = leaves;
	for (uint32_t k = 0; k < nsteps; k++)
		s->tmax[leaves + k] = count[k];
	for (uint32_t v = leaves - 1; v >= 1; v--)
		s->tmax[v] = s->tmax[2 * v] > s->tmax[2 * v + 1]
				     ? s->tmax[2 * v]
				     : s->tmax[2 * v + 1];
	return 0;
}

void dl_alone_supply_free(struct dl_alone_supply *s)
{
	if (!s)
		return;
	free(s->t);
	free(s->count);
	free(s->tmax);
	memset(s, 0, sizeof(*s));
}

/* the step holding x: the last k with t[k] <= x, 0 before t[0] */
static uint32_t step_of(const struct dl_alone_supply *s, double x)
{
	return dl_last_at_or_before(s->t, s->nsteps, x);
}

/* the first step k >= from whose count exceeds m (tree node v covers
 * [lo, hi)) */
static uint32_t first_above(const struct dl_alone_supply *s, uint32_t v,
			    uint32_t lo, uint32_t hi, uint32_t from, uint32_t m)
{
	uint32_t mid, r;

	if (hi <= from || s->tmax[v] <= m)
		return NONE;
	if (hi - lo == 1)
		return lo;
	mid = lo + (hi - lo) / 2;
	r = first_above(s, 2 * v, lo, mid, from, m);
	return r != NONE ? r : first_above(s, 2 * v + 1, mid, hi, from, m);
}

/* the most machines available at once over steps a..b */
static uint32_t range_max(const struct dl_alone_supply *s, uint32_t a,
			  uint32_t b)
{
	uint32_t best = 0, l = a + s->leaves, r = b + s->leaves + 1;

	while (l < r) {
		if (l & 1) {
			best = s->tmax[l] > best ? s->tmax[l] : best;
			l++;
		}
		if (r & 1) {
			r--;
			best = s->tmax[r] > best ? s->tmax[r] : best;
		}
		l /= 2;
		r /= 2;
	}
	return best;
}

double dl_alone_next_start(const struct dl_alone_supply *s, uint32_t m,
			   double x)
{
	uint32_t k, next;

	if (!s || !s->nsteps || isnan(x))
		return INFINITY;
	k = step_of(s, x);
	if (s->count[k] > m)
		return x;
	next = first_above(s, 1, 0, s->leaves, k + 1, m);
	return next == NONE ? INFINITY : s->t[next];
}

struct slot {
	double end;
	uint32_t machine;
};

static void sift_down(struct slot *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		struct slot t;

		if (l < n && h[l].end < h[m].end)
			m = l;
		if (r < n && h[r].end < h[m].end)
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct slot *h, uint32_t i)
{
	while (i) {
		uint32_t p = (i - 1) / 2;
		struct slot t;

		if (!(h[i].end < h[p].end))
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

/* The n-th smallest greedy end of tasks of length L over machines
 * 0..machines-1, or over that many copies of machine 0 (proof above);
 * INFINITY when fewer than n can start before the horizon. */
static int greedy_end(const struct dl_alone_supply *s, double release, double L,
		      uint32_t n, uint32_t machines, bool copies_of_first,
		      double horizon, double *end)
{
	struct slot *h = malloc((machines ? machines : 1) * sizeof(*h));
	uint32_t nh = 0;

	if (!h)
		return ENOMEM;
	*end = INFINITY;
	for (uint32_t m = 0; m < machines; m++) {
		uint32_t as = copies_of_first ? 0 : m;
		double st = dl_alone_next_start(s, as, release);

		if (st < horizon) {
			h[nh].end = st + L;
			h[nh].machine = as;
			sift_up(h, nh++);
		}
	}
	for (uint32_t done = 0; nh;) {
		struct slot top = h[0];
		double st;

		if (++done == n) {
			*end = top.end;
			break;
		}
		st = dl_alone_next_start(s, top.machine, top.end);
		if (st < horizon) {
			h[0].end = st + L;
			sift_down(h, nh, 0);
		} else {
			h[0] = h[--nh];
			sift_down(h, nh, 0);
		}
	}
	free(h);
	return 0;
}

int dl_alone_phase_end(const struct dl_alone_supply *s, double release,
		       const double *len, uint32_t n, uint32_t at_once,
		       double horizon, double *end)
{
	double *p, e0, a, b, chain = 0, *sum;
	uint32_t most, machines;
	int rc;

	if (!s || !s->nsteps || !end || (n && !len) || !isfinite(release) ||
	    isnan(horizon))
		return EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (!isfinite(len[i]) || !(len[i] > 0))
			return EINVAL;
	*end = release;
	if (!n)
		return 0;
	e0 = dl_alone_next_start(s, 0, release);
	if (!(e0 < horizon)) {
		*end = INFINITY;
		return 0;
	}
	most = range_max(s, step_of(s, release),
			 isfinite(horizon) ? step_of(s, horizon)
					   : s->nsteps - 1);
	if (!most) { /* e0 < horizon implies most >= 1; the chain needs it */
		*end = INFINITY;
		return 0;
	}
	machines = most < n ? most : n;
	p = malloc(n * sizeof(*p));
	sum = malloc(((size_t) n + 1) * sizeof(*sum));
	if (!p || !sum) {
		free(p);
		free(sum);
		return ENOMEM;
	}
	memcpy(p, len, n * sizeof(*len));
	dl_sort_doubles(p, n);
	/* a: all as short as the shortest; a': with the limit */
	rc = greedy_end(s, release, p[0], n, machines, false, horizon, &a);
	if (!rc && at_once && at_once < machines) {
		double a_limit;

		rc = greedy_end(s, release, p[0], n, at_once, true, horizon,
				&a_limit);
		a = a_limit > a ? a_limit : a;
	}
	if (at_once && at_once < most)
		most = at_once; /* c' */
	/* b: the longest from the first possible start */
	b = e0 + p[n - 1];
	/* c: the chain over the k M + 1 longest (sum[i]: the i longest) */
	sum[0] = 0;
	for (uint32_t i = 1; i <= n; i++)
		sum[i] = sum[i - 1] + p[n - i];
	for (uint64_t k = 1; k * most + 1 <= n; k++) {
		uint64_t top = k * most + 1;
		double c = sum[top] - sum[top - k - 1];

		chain = c > chain ? c : chain;
	}
	free(p);
	free(sum);
	if (rc)
		return rc;
	*end = a > b ? a : b;
	if (e0 + chain > *end)
		*end = e0 + chain;
	return 0;
}
