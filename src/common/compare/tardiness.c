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
 *
 * The backlog of one window (released at or after s) can only be held by
 * that window's jobs, so each event also scans the windows nearest t, from
 * the latest release back, with a second set of ranks, and integrates the
 * window that needs the most jobs when that gives more.
 *
 * With layers asked for, the count itself is kept as it goes (the pieces of
 * whichever of the two counts is integrated), and each time it rises past
 * h after having fallen below it, the time between is a gap of layer h.
 */
#include "common/compare/tardiness.h"
#include "common/estimate/stats.h"
#include "common/io/grow.h"

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

/* The largest leaf value over leaves 0..last. */
static double tree_max_to(const struct maxtree *m, uint32_t node, uint32_t lo,
			  uint32_t hi, uint32_t last)
{
	uint32_t mid;

	if (lo > last)
		return -INFINITY;
	if (hi <= last)
		return m->mx[node];
	mid = lo + (hi - lo) / 2;
	return fmax(tree_max_to(m, 2 * node, lo, mid, last),
		    tree_max_to(m, 2 * node + 1, mid + 1, hi, last)) +
	       m->add[node];
}

static double tree_leaf(const struct maxtree *m, uint32_t leaf)
{
	uint32_t node = m->leaves + leaf;
	double v = m->mx[node];

	for (node /= 2; node; node /= 2)
		v += m->add[node];
	return v;
}

/* The due jobs' work by rank (largest first): counts and sums.  With stamps
 * a node is empty unless stamped in the current epoch, so clearing the
 * window's ranks costs nothing. */
struct ranks {
	uint32_t n, top; /* top: highest power of two <= n */
	uint32_t *cnt;
	double *sum;
	uint32_t present;
	uint32_t *stamp; /* NULL: never cleared */
	uint32_t epoch;
};

static uint32_t rk_cnt(const struct ranks *f, uint32_t i)
{
	return !f->stamp || f->stamp[i] == f->epoch ? f->cnt[i] : 0;
}

static double rk_sum(const struct ranks *f, uint32_t i)
{
	return !f->stamp || f->stamp[i] == f->epoch ? f->sum[i] : 0;
}

static void ranks_clear(struct ranks *f)
{
	f->present = 0;
	if (++f->epoch == 0) { /* wrapped: no stale stamp may match */
		memset(f->stamp, 0, (f->n + 1) * sizeof(*f->stamp));
		f->epoch = 1;
	}
}

static void ranks_insert(struct ranks *f, uint32_t rank, double work)
{
	for (uint32_t i = rank + 1; i <= f->n; i += i & -i) {
		if (f->stamp && f->stamp[i] != f->epoch) {
			f->stamp[i] = f->epoch;
			f->cnt[i] = 0;
			f->sum[i] = 0;
		}
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
		if (pos + step <= f->n && rk_cnt(f, pos + step) <= m) {
			pos += step;
			m -= rk_cnt(f, pos);
			acc += rk_sum(f, pos);
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
		if (pos + step <= f->n && acc + rk_sum(f, pos + step) < x) {
			pos += step;
			acc += rk_sum(f, pos);
			c += rk_cnt(f, pos);
		}
	return c < f->present ? c + 1 : f->present;
}

/* The count over time as integrated: [from, to) at count, in order. */
struct piece {
	double from, to;
	uint32_t count;
};

struct pieces {
	struct piece *p;
	uint32_t n, cap;
	bool oom;
};

static void pieces_add(struct pieces *ps, double from, double to,
		       uint32_t count)
{
	if (!ps || ps->oom)
		return;
	if (dl_grow(&ps->p, ps->n, &ps->cap, sizeof(*ps->p), 64)) {
		ps->oom = true;
		return;
	}
	ps->p[ps->n++] = (struct piece){from, to, count};
}

/* Integral over [a, b) of the jobs late alone plus the fewest other due
 * jobs (those in f) covering what the late-alone jobs' whole work leaves
 * of the backlog; q is that rest at a, falling at u per second (b may be
 * INFINITY once nothing else changes: then the time after the backlog
 * cannot drain is not counted).  The count's pieces into out (NULL:
 * none). */
static double integrate(const struct ranks *f, double a, double b, double q,
			double u, uint32_t late_alone, struct pieces *out)
{
	uint32_t k = ranks_cover(f, q);
	double total = 0, from = a;

	while (k && u > 0) {
		double at = a + (q - ranks_top(f, k - 1)) / u;

		if (at >= b)
			break;
		if (at > from) {
			total += (late_alone + k) * (at - from);
			pieces_add(out, from, at, late_alone + k);
			from = at;
		}
		k--;
	}
	if (isfinite(b) && b > from) {
		total += (late_alone + k) * (b - from);
		pieces_add(out, from, b, late_alone + k);
	}
	return total;
}

/* The layers of the count as it goes (tardiness.h): last_drop[h] is when
 * the count last fell below h (NAN: never, or a gap already taken). */
struct layer_track {
	uint32_t cur, segments, height;
	double *last_drop;
	uint32_t nlevels;
	double end; /* of the last piece */
	double *gaps;
	uint32_t ngaps, capgaps;
};

/* The count becomes c at time at.  0 or ENOMEM. */
static int track_count(struct layer_track *lt, uint32_t c, double at)
{
	if (c > lt->cur) {
		if (c + 1 > lt->nlevels) {
			uint32_t want = lt->nlevels ? lt->nlevels : 64;
			double *d;

			while (want < c + 1)
				want *= 2;
			d = realloc(lt->last_drop, want * sizeof(*d));
			if (!d)
				return ENOMEM;
			for (uint32_t h = lt->nlevels; h < want; h++)
				d[h] = NAN;
			lt->last_drop = d;
			lt->nlevels = want;
		}
		for (uint32_t h = lt->cur + 1; h <= c; h++) {
			lt->segments++;
			if (isnan(lt->last_drop[h]))
				continue;
			if (dl_grow(&lt->gaps, lt->ngaps, &lt->capgaps,
				    sizeof(*lt->gaps), 64))
				return ENOMEM;
			lt->gaps[lt->ngaps++] = at - lt->last_drop[h];
			lt->last_drop[h] = NAN;
		}
		if (c > lt->height)
			lt->height = c;
	} else {
		for (uint32_t h = c + 1; h <= lt->cur; h++)
			lt->last_drop[h] = at;
	}
	lt->cur = c;
	return 0;
}

static int track_pieces(struct layer_track *lt, const struct pieces *ps)
{
	int rc = 0;

	if (ps->oom)
		return ENOMEM;
	for (uint32_t i = 0; !rc && i < ps->n; i++) {
		/* a stretch no piece covers counts no job */
		if (ps->p[i].from > lt->end && lt->cur)
			rc = track_count(lt, 0, lt->end);
		if (!rc)
			rc = track_count(lt, ps->p[i].count, ps->p[i].from);
		lt->end = ps->p[i].to;
	}
	return rc;
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
	struct pieces pieces[2]; /* the two counts' pieces of an event */
	uint32_t n;              /* counted jobs */
	struct keyed *due;       /* by deadline */
	struct keyed *ends;      /* ends alone of the jobs late alone, sorted */
	uint32_t nends;
	struct keyed *byrel; /* by release */
	struct keyed *bywork;
	uint32_t *relpos;  /* job -> its leaf */
	uint32_t *rellast; /* job -> last leaf with its release */
	uint32_t *rank;    /* job -> its rank by work */
	uint8_t *state;    /* job -> enum due_state */
	struct maxtree tree;
	struct ranks ranks, window;
};

enum due_state { NOT_DUE, DUE_LATE_ALONE, DUE_RANKED };

/* How many releases back from the latest a sweep event scans for windows:
 * it bounds an event's cost; a window further back holds about every due
 * job, which the whole set's count already gives. */
#define WINDOW_SCAN 4096

/* Among the windows (jobs released at or after the release of a leaf) with
 * a backlog at t, the one whose ranked jobs need the most of them to hold
 * what its late-alone jobs leave: its first leaf into *from and that rest
 * into *x; returns the count (0: none needs any).  ct is C(t). */
static uint32_t best_window(const struct dl_oracle_job *jobs, struct sweep *w,
			    uint32_t nr, double ct, uint32_t r, uint32_t *from,
			    double *x)
{
	uint32_t best = 0, i = nr;
	double late_work = 0;

	*x = 0;
	*from = nr;
	ranks_clear(&w->window);
	while (i > 0 && nr - i < WINDOW_SCAN &&
	       tree_max_to(&w->tree, 1, 0, w->tree.leaves - 1, i - 1) > ct) {
		uint32_t g = i - 1;
		double v = -INFINITY;

		while (g > 0 && w->byrel[g - 1].key == w->byrel[i - 1].key)
			g--;
		for (uint32_t k = g; k < i; k++) {
			uint32_t j = w->byrel[k].job;

			if (w->state[j] == DUE_LATE_ALONE)
				late_work += work_on(&jobs[j], r);
			else if (w->state[j] == DUE_RANKED)
				ranks_insert(&w->window, w->rank[j],
					     work_on(&jobs[j], r));
			if (w->state[j] != NOT_DUE)
				v = fmax(v, tree_leaf(&w->tree, k));
		}
		if (isfinite(v)) {
			double q = v - ct - late_work;
			uint32_t c = ranks_cover(&w->window, q);

			if (c > best || (c == best && c && q > *x)) {
				best = c;
				*x = q;
				*from = g;
			}
		}
		i = g;
	}
	return best;
}

/* The window's ranks hold the ranked jobs of leaves from..nr-1. */
static void window_fill(const struct dl_oracle_job *jobs, struct sweep *w,
			uint32_t nr, uint32_t from, uint32_t r)
{
	ranks_clear(&w->window);
	for (uint32_t i = from; i < nr; i++) {
		uint32_t j = w->byrel[i].job;

		if (w->state[j] == DUE_RANKED)
			ranks_insert(&w->window, w->rank[j],
				     work_on(&jobs[j], r));
	}
}

/* The integral over [a, b) with the best window's count (0 if none). */
static double window_integral(const struct dl_oracle_job *jobs, struct sweep *w,
			      uint32_t nr, double a, double b, double u,
			      uint32_t r, uint32_t late, double ct,
			      struct pieces *out)
{
	uint32_t from;
	double x;

	if (!best_window(jobs, w, nr, ct, r, &from, &x))
		return 0;
	window_fill(jobs, w, nr, from, r);
	return integrate(&w->window, a, b, x, u, late, out);
}

/* The bound for resource r; with lt, its count's layers.  Negative: out of
 * memory. */
static double sweep_resource(const struct dl_oracle_job *jobs, struct sweep *w,
			     const struct dl_oracle_capacity *cap,
			     const double *prefix, uint32_t r,
			     struct layer_track *lt)
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
	for (uint32_t i = 0; i < nr; i++)
		w->state[w->byrel[i].job] = NOT_DUE;
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
	w->window.n = nr;
	w->window.top = w->ranks.top;
	memset(w->window.stamp, 0, (nr + 1) * sizeof(*w->window.stamp));
	w->window.epoch = 0;

	t = w->due[0].key;
	for (;;) {
		double next = INFINITY, q, u, ct;
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
			if (late_alone(&jobs[j])) {
				late_work += wk;
				w->state[j] = DUE_LATE_ALONE;
			} else {
				ranks_insert(&w->ranks, w->rank[j], wk);
				w->state[j] = DUE_RANKED;
			}
		}
		while (ei < w->nends && w->ends[ei].key <= t) {
			uint32_t j = w->ends[ei++].job;
			double wk = work_on(&jobs[j], r);

			late--;
			if (wk > 0) {
				late_work -= wk;
				ranks_insert(&w->ranks, w->rank[j], wk);
				w->state[j] = DUE_RANKED;
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
		ct = dl_oracle_integral_to(cap, prefix, r, t);
		q = w->tree.mx[1] - ct;
		if (!(q > 0))
			q = 0;
		if (!isfinite(next) && !q)
			break;
		{
			struct pieces *pa = lt ? &w->pieces[0] : NULL;
			struct pieces *pb = lt ? &w->pieces[1] : NULL;
			double whole, window = 0;

			w->pieces[0].n = w->pieces[1].n = 0;
			whole = integrate(&w->ranks, t, next, q - late_work, u,
					  late, pa);
			if (q > 0)
				window = window_integral(jobs, w, nr, t, next,
							 u, r, late, ct, pb);
			lb += fmax(whole, window);
			/* the layers of the count integrated */
			if (lt && track_pieces(lt, window > whole ? pb : pa))
				return -1;
		}
		if (!isfinite(next))
			break;
		t = next;
	}
	return lb;
}

static void sweep_free(struct sweep *w)
{
	free(w->pieces[0].p);
	free(w->pieces[1].p);
	free(w->due);
	free(w->ends);
	free(w->byrel);
	free(w->bywork);
	free(w->relpos);
	free(w->rellast);
	free(w->rank);
	free(w->state);
	free(w->window.cnt);
	free(w->window.sum);
	free(w->window.stamp);
	free(w->tree.mx);
	free(w->tree.add);
	free(w->ranks.cnt);
	free(w->ranks.sum);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

void dl_tardiness_layers_free(struct dl_tardiness_layers *l)
{
	if (!l)
		return;
	free(l->gaps);
	memset(l, 0, sizeof(*l));
}

double dl_tardiness_at_most(const struct dl_tardiness_layers *l, double lb,
			    uint32_t m)
{
	double sum = lb;
	uint32_t bridge;

	if (!l || m >= l->segments)
		return lb;
	if (m < l->height)
		return INFINITY;
	bridge = l->segments - m;
	/* segments - height gaps at most: enough where m >= height */
	for (uint32_t i = 0; i < bridge && i < l->ngaps; i++)
		sum += l->gaps[i];
	return bridge > l->ngaps ? INFINITY : sum;
}

int dl_tardiness_bound(const struct dl_oracle_job *jobs, uint32_t njobs,
		       const struct dl_oracle_capacity *cap, double *lb,
		       char *err, size_t errlen)
{
	return dl_tardiness_bound_layers(jobs, njobs, cap, lb, NULL, err,
					 errlen);
}

int dl_tardiness_bound_layers(const struct dl_oracle_job *jobs, uint32_t njobs,
			      const struct dl_oracle_capacity *cap, double *lb,
			      struct dl_tardiness_layers *layers, char *err,
			      size_t errlen)
{
	struct sweep w;
	double *prefix;
	uint32_t leaves = 1;
	int rc;

	if (layers)
		memset(layers, 0, sizeof(*layers));
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
	w.state = calloc(njobs, sizeof(*w.state));
	w.window.cnt = malloc((w.n + 1) * sizeof(*w.window.cnt));
	w.window.sum = malloc((w.n + 1) * sizeof(*w.window.sum));
	w.window.stamp = malloc((w.n + 1) * sizeof(*w.window.stamp));
	w.tree.mx = malloc(2 * (size_t) leaves * sizeof(*w.tree.mx));
	w.tree.add = malloc(2 * (size_t) leaves * sizeof(*w.tree.add));
	w.ranks.cnt = malloc((w.n + 1) * sizeof(*w.ranks.cnt));
	w.ranks.sum = malloc((w.n + 1) * sizeof(*w.ranks.sum));
	if (!prefix || !w.due || !w.ends || !w.byrel || !w.bywork ||
	    !w.relpos || !w.rellast || !w.rank || !w.tree.mx || !w.tree.add ||
	    !w.ranks.cnt || !w.ranks.sum || !w.state || !w.window.cnt ||
	    !w.window.sum || !w.window.stamp) {
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
	rc = 0;
	for (uint32_t r = 0; r < cap->nres && !rc; r++) {
		struct layer_track lt;
		double b;

		memset(&lt, 0, sizeof(lt));
		lt.end = -INFINITY;
		b = sweep_resource(jobs, &w, cap, prefix, r,
				   layers ? &lt : NULL);
		if (b < 0) {
			snprintf(err, err ? errlen : 0, "out of memory");
			rc = ENOMEM;
		} else if (b > *lb || (r == 0 && layers)) {
			*lb = b;
			/* the resource whose bound is kept gives the layers */
			if (layers) {
				free(layers->gaps);
				if (lt.ngaps) /* none: no array */
					qsort(lt.gaps, lt.ngaps,
					      sizeof(*lt.gaps), cmp_double);
				layers->gaps = lt.gaps;
				layers->ngaps = lt.ngaps;
				layers->segments = lt.segments;
				layers->height = lt.height;
				lt.gaps = NULL;
			}
		}
		free(lt.gaps);
		free(lt.last_drop);
	}
	free(prefix);
	sweep_free(&w);
	if (rc)
		dl_tardiness_layers_free(layers);
	return rc;
}
