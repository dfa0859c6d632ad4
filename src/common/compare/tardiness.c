/*
 * tardiness.c - the lower bound on total lateness (see tardiness.h for the
 * model and why it is a bound): one sweep over time per resource.
 *
 * The fluid backlog at t of the jobs due by t is max(0, M - C(t)), where
 * C is the cumulative capacity (the oracle's, dl_oracle_integral_to) and M the
 * largest, over the releases s of those jobs, of C(s) plus their work released
 * at or after s.  M only changes when a deadline passes, so a max tree with
 * range adds keeps it, and between events the backlog falls at the capacity's
 * rate: the count of jobs it needs falls one by one, at times found in closed
 * form.  A job late alone leaves the ranks while its end alone is ahead (it is
 * counted as one, its work taken off the backlog) and joins them after.
 */
#include "common/compare/tardiness.h"
#include "common/estimate/stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Max over the leaves (the releases, in order) with adds over ranges;
 * a leaf not yet due is -INFINITY, which adds leave as it is. */
struct maxtree {
	uint32_t leaves;
	double *mx, *add;
};

static void tree_add(struct maxtree *m, uint32_t node, uint32_t lo, uint32_t hi,
		     uint32_t last, double v)
{
	uint32_t mid;

	if (lo > last)
		return;
	if (hi <= last) {
		m->add[node] += v;
		m->mx[node] += v;
		return;
	}
	mid = lo + (hi - lo) / 2;
	tree_add(m, 2 * node, lo, mid, last, v);
	tree_add(m, 2 * node + 1, mid + 1, hi, last, v);
	m->mx[node] = fmax(m->mx[2 * node], m->mx[2 * node + 1]) + m->add[node];
}

/* The leaf's value becomes base plus the adds that cover it. */
static void tree_activate(struct maxtree *m, uint32_t leaf, double base)
{
	uint32_t node = m->leaves + leaf;

	m->mx[node] = base + m->add[node];
	for (node /= 2; node; node /= 2)
		m->mx[node] = fmax(m->mx[2 * node], m->mx[2 * node + 1]) +
			      m->add[node];
}

/* The due jobs' work by rank (largest first): counts and sums. */
struct ranks {
	uint32_t n, top; /* top: highest power of two <= n */
	uint32_t *cnt;
	double *sum;
	uint32_t present;
};

static void ranks_insert(struct ranks *f, uint32_t rank, double work)
{
	for (uint32_t i = rank + 1; i <= f->n; i += i & -i) {
		f->cnt[i]++;
		f->sum[i] += work;
	}
	f->present++;
}

/* The work of the m largest due jobs. */
static double ranks_top(const struct ranks *f, uint32_t m)
{
	uint32_t pos = 0;
	double acc = 0;

	for (uint32_t step = f->top; step; step >>= 1)
		if (pos + step <= f->n && f->cnt[pos + step] <= m) {
			pos += step;
			m -= f->cnt[pos];
			acc += f->sum[pos];
		}
	return acc;
}

/* The fewest due jobs whose work covers x. */
static uint32_t ranks_cover(const struct ranks *f, double x)
{
	uint32_t pos = 0, c = 0;
	double acc = 0;

	if (x <= 0)
		return 0;
	for (uint32_t step = f->top; step; step >>= 1)
		if (pos + step <= f->n && acc + f->sum[pos + step] < x) {
			pos += step;
			acc += f->sum[pos];
			c += f->cnt[pos];
		}
	return c < f->present ? c + 1 : f->present;
}

/* Integral over [a, b) of the jobs late alone plus the fewest other due
 * jobs (those in f) covering what the late-alone jobs' whole work leaves
 * of the backlog; q is that rest at a, falling at u per second (b may be
 * INFINITY once nothing else changes: then the time after the backlog
 * cannot drain is not counted). */
static double integrate(const struct ranks *f, double a, double b, double q,
			double u, uint32_t late_alone)
{
	uint32_t k = ranks_cover(f, q);
	double total = 0, from = a;

	while (k && u > 0) {
		double at = a + (q - ranks_top(f, k - 1)) / u;

		if (at >= b)
			break;
		if (at > from) {
			total += (late_alone + k) * (at - from);
			from = at;
		}
		k--;
	}
	if (isfinite(b) && b > from)
		total += (late_alone + k) * (b - from);
	return total;
}

struct keyed {
	double key;
	uint32_t job;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

static double work_on(const struct dl_oracle_job *j, uint32_t r)
{
	double w = 0;

	if (j->map.work > 0 && j->map.res == r)
		w += j->map.work;
	if (j->reduce.work > 0 && j->reduce.res == r)
		w += j->reduce.work;
	return w;
}

static bool late_alone(const struct dl_oracle_job *j)
{
	return isfinite(j->end_lb) && j->end_lb > j->deadline;
}

/* Scratch of one sweep, sized for the counted jobs. */
struct sweep {
	uint32_t n;         /* counted jobs */
	struct keyed *due;  /* by deadline */
	struct keyed *ends; /* ends alone of the jobs late alone, sorted */
	uint32_t nends;
	struct keyed *byrel; /* by release */
	struct keyed *bywork;
	uint32_t *relpos;  /* job -> its leaf */
	uint32_t *rellast; /* job -> last leaf with its release */
	uint32_t *rank;    /* job -> its rank by work */
	struct maxtree tree;
	struct ranks ranks;
};

/* The bound for resource r. */
static double sweep_resource(const struct dl_oracle_job *jobs, struct sweep *w,
			     const struct dl_oracle_capacity *cap,
			     const double *prefix, uint32_t r)
{
	uint32_t nr = 0, di = 0, ei = 0, late = 0;
	double lb = 0, late_work = 0, t;

	for (uint32_t i = 0; i < w->n; i++) {
		uint32_t j = w->due[i].job;
		double wk = work_on(&jobs[j], r);

		if (wk > 0) {
			w->byrel[nr].key = jobs[j].release;
			w->byrel[nr].job = j;
			w->bywork[nr].key = -wk;
			w->bywork[nr].job = j;
			nr++;
		}
	}
	qsort(w->byrel, nr, sizeof(*w->byrel), cmp_keyed);
	qsort(w->bywork, nr, sizeof(*w->bywork), cmp_keyed);
	for (uint32_t i = 0; i < nr; i++) {
		w->relpos[w->byrel[i].job] = i;
		w->rank[w->bywork[i].job] = i;
	}
	for (uint32_t i = nr; i-- > 0;)
		w->rellast[w->byrel[i].job] =
			i + 1 < nr && w->byrel[i + 1].key == w->byrel[i].key
				? w->rellast[w->byrel[i + 1].job]
				: i;
	for (w->tree.leaves = 1; w->tree.leaves < (nr ? nr : 1);)
		w->tree.leaves *= 2;
	for (uint32_t i = 0; i < 2 * w->tree.leaves; i++) {
		w->tree.mx[i] = -INFINITY;
		w->tree.add[i] = 0;
	}
	w->ranks.n = nr;
	w->ranks.present = 0;
	for (w->ranks.top = 1; w->ranks.top * 2 <= nr;)
		w->ranks.top *= 2;
	memset(w->ranks.cnt, 0, (nr + 1) * sizeof(*w->ranks.cnt));
	memset(w->ranks.sum, 0, (nr + 1) * sizeof(*w->ranks.sum));

	t = w->due[0].key;
	for (;;) {
		double next = INFINITY, q, u;
		uint32_t k;

		while (di < w->n && w->due[di].key <= t) {
			uint32_t j = w->due[di++].job;
			double wk = work_on(&jobs[j], r);

			if (late_alone(&jobs[j]))
				late++;
			if (!(wk > 0))
				continue;
			tree_add(&w->tree, 1, 0, w->tree.leaves - 1,
				 w->rellast[j], wk);
			tree_activate(&w->tree, w->relpos[j],
				      dl_oracle_integral_to(cap, prefix, r,
							    jobs[j].release));
			/* a job late alone holds at most its whole work of
			 * the backlog; the others are counted by rank */
			if (late_alone(&jobs[j]))
				late_work += wk;
			else
				ranks_insert(&w->ranks, w->rank[j], wk);
		}
		while (ei < w->nends && w->ends[ei].key <= t) {
			uint32_t j = w->ends[ei++].job;
			double wk = work_on(&jobs[j], r);

			late--;
			if (wk > 0) {
				late_work -= wk;
				ranks_insert(&w->ranks, w->rank[j], wk);
			}
		}
		if (di < w->n)
			next = w->due[di].key;
		if (ei < w->nends && w->ends[ei].key < next)
			next = w->ends[ei].key;
		/* the capacity's next step */
		k = dl_last_at_or_before(cap->t, cap->nsteps, t);
		if (t < cap->t[0]) {
			if (cap->t[0] < next)
				next = cap->t[0];
		} else if (k + 1 < cap->nsteps && cap->t[k + 1] < next) {
			next = cap->t[k + 1];
		}
		u = dl_oracle_units_at(cap, r, t);
		q = w->tree.mx[1] - dl_oracle_integral_to(cap, prefix, r, t);
		if (!(q > 0))
			q = 0;
		if (!isfinite(next) && !q)
			break;
		lb += integrate(&w->ranks, t, next, q - late_work, u, late);
		if (!isfinite(next))
			break;
		t = next;
	}
	return lb;
}

static void sweep_free(struct sweep *w)
{
	free(w->due);
	free(w->ends);
	free(w->byrel);
	free(w->bywork);
	free(w->relpos);
	free(w->rellast);
	free(w->rank);
	free(w->tree.mx);
	free(w->tree.add);
	free(w->ranks.cnt);
	free(w->ranks.sum);
}

int dl_tardiness_bound(const struct dl_oracle_job *jobs, uint32_t njobs,
		       const struct dl_oracle_capacity *cap, double *lb,
		       char *err, size_t errlen)
{
	struct sweep w;
	double *prefix;
	uint32_t leaves = 1;
	int rc;

	if (!lb) {
		snprintf(err, err ? errlen : 0, "no place for the bound");
		return EINVAL;
	}
	*lb = 0;
	if ((rc = dl_oracle_check_input(jobs, njobs, cap, err, errlen)))
		return rc;
	memset(&w, 0, sizeof(w));
	for (uint32_t i = 0; i < njobs; i++)
		if (jobs[i].counted)
			w.n++;
	if (!w.n)
		return 0;
	while (leaves < w.n)
		leaves *= 2;
	prefix = malloc((size_t) cap->nres * cap->nsteps * sizeof(*prefix));
	w.due = malloc(w.n * sizeof(*w.due));
	w.ends = malloc(w.n * sizeof(*w.ends));
	w.byrel = malloc(w.n * sizeof(*w.byrel));
	w.bywork = malloc(w.n * sizeof(*w.bywork));
	w.relpos = calloc(njobs, sizeof(*w.relpos));
	w.rellast = calloc(njobs, sizeof(*w.rellast));
	w.rank = calloc(njobs, sizeof(*w.rank));
	w.tree.mx = malloc(2 * (size_t) leaves * sizeof(*w.tree.mx));
	w.tree.add = malloc(2 * (size_t) leaves * sizeof(*w.tree.add));
	w.ranks.cnt = malloc((w.n + 1) * sizeof(*w.ranks.cnt));
	w.ranks.sum = malloc((w.n + 1) * sizeof(*w.ranks.sum));
	if (!prefix || !w.due || !w.ends || !w.byrel || !w.bywork ||
	    !w.relpos || !w.rellast || !w.rank || !w.tree.mx || !w.tree.add ||
	    !w.ranks.cnt || !w.ranks.sum) {
		snprintf(err, err ? errlen : 0, "out of memory");
		free(prefix);
		sweep_free(&w);
		return ENOMEM;
	}
	w.n = 0;
	for (uint32_t i = 0; i < njobs; i++) {
		if (!jobs[i].counted)
			continue;
		w.due[w.n].key = jobs[i].deadline;
		w.due[w.n++].job = i;
		if (late_alone(&jobs[i])) {
			w.ends[w.nends].key = jobs[i].end_lb;
			w.ends[w.nends++].job = i;
		}
	}
	qsort(w.due, w.n, sizeof(*w.due), cmp_keyed);
	qsort(w.ends, w.nends, sizeof(*w.ends), cmp_keyed);
	dl_oracle_capacity_prefix(cap, prefix);
	for (uint32_t r = 0; r < cap->nres; r++) {
		double b;

		b = sweep_resource(jobs, &w, cap, prefix, r);
		if (b > *lb)
			*lb = b;
	}
	free(prefix);
	sweep_free(&w);
	return 0;
}
