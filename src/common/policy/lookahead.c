/*
 * policy/lookahead.c - an event-driven run of the dispatcher over the
 * plan's jobs (see lookahead.h for what is modelled).
 *
 * State of a run: free CPUs and memory per class, the events, and per job
 * its pending tasks per phase.  A task's end only gives capacity back, so
 * the tasks running at the start (every running task in the cluster) are
 * merged into one event per (time, class) and read from a sorted array.
 * The run's own events (batches ending, a job's reduces becoming ready when
 * its last map ends) are on the grid: a list per grid step (a bucket
 * queue, O(1) to add and take); the forecast's next sample and a deferred
 * task's begin time come from a heap when off the grid, as does an event
 * too far ahead for the steps kept.
 * Events past the run's horizon are never applied, so never kept.  A
 * job's last map end is known the moment its last map starts, so the
 * map->reduce barrier is one event, not a count kept per task.  The jobs
 * with a task ready to start are a bitset over their positions in the
 * order: the dispatcher walks them highest priority first.
 */
#include "common/policy/lookahead.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/stats.h"
#include "common/policy/capacity.h"
#include "common/policy/reserve.h"

#define EPS 1e-9

enum la_kind {
	LA_END = 0,   /* tasks (or held capacity) end: capacity back */
	LA_READY = 1, /* a job's last map ended: its reduces may start */
	LA_CAP = 2,   /* the forecast's next sample in a class */
	LA_BEGIN = 3, /* a phase's deferred tasks reach their begin time */
};

struct la_event {
	double t;
	double cpu, mem; /* freed (LA_END) */
	uint32_t cls;
	uint32_t job;    /* LA_READY, LA_BEGIN; LA_END of counted tasks */
	uint32_t ntasks; /* LA_BEGIN; LA_END of counted tasks */
	uint8_t kind;
	uint8_t phase; /* LA_BEGIN; LA_END of counted tasks */
	bool blocking; /* LA_END: long tasks of `job` (reserve.h) */
	/* LA_END: tasks of `job` its running count holds (blocking ones,
	 * and those of a phase with a max_running) */
	bool counted;
};

/* Capacity of a class under a forecast class: the CPUs and memory of its
 * nodes there, loaded by that forecast class's series. */
struct la_fc_part {
	uint32_t cls;
	int fc;
	double cpu, mem;
};

struct la_state {
	uint32_t pending[DL_PHASES]; /* may start now */
	uint32_t waiting[DL_PHASES]; /* deferred, their begin time ahead */
	uint32_t running[DL_PHASES]; /* counted tasks (la_event.counted) */
	double map_free;             /* when its started maps have all ended */
	double last_end;             /* when its started tasks have all ended */
	bool reduce_ready;
	bool parked; /* held back by the reserve: in `parked` (below) */
	/* at its phase's max_running: out of the ready set until one of its
	 * tasks ends */
	bool at_limit;
	uint32_t pos; /* in the order of the run; DL_LA_NONE = not in it */
};

/* Pending tasks of a job's phase deferred to a begin time (dl_la_defer). */
struct la_defer {
	uint32_t job;
	int phase;
	uint32_t n;
	double until;
};

struct dl_lookahead {
	double now, res;
	const struct dl_forecast *fc;
	struct dl_capacity cap; /* the classes: identity and order */
	uint32_t ncls;
	uint32_t nnodes;
	int *node_cls;    /* per node: class, or -1 */
	bool *node_fc;    /* per node: under the forecast */
	double *base_cpu; /* per class, without forecast nodes */
	double *base_mem;
	struct la_fc_part *fcp;
	uint32_t nfcp, capfcp;
	double *hold_cpu; /* per class: running tasks' use at now */
	double *hold_mem;
	/* jobs and their classes (offsets into jcls) */
	struct dl_la_job *jobs;
	uint32_t *jcls_off, *jcls_n;
	uint32_t *jcls;
	uint32_t njobs, capjobs, njcls, capjcls;
	/* initial events, sorted once before the first run */
	struct la_event *ev0;
	uint32_t nev0, capev0;
	bool ev0_sorted;
	/* task ends merged as they are added, one event per (time, class):
	 * open addressing over ev0 indexes (DL_LA_NONE: free), cleared when
	 * ev0 is sorted (its indexes move) */
	uint32_t *mslot;
	uint32_t capmslot, nmslot;
	uint32_t next0; /* the run's next initial event */
	/* per job: when the tasks running at now end, maps and all */
	double *map_end0, *end0;
	/* the blocking reserve: per partition the long tasks' budget, their
	 * CPUs at now and in the run; per job its long tasks at now */
	uint32_t npart;
	double *budget, *blk0, *blk_used;
	uint32_t (*run0)[DL_PHASES];
	/* the jobs the reserve holds back (reserve_allows 0), out of the
	 * ready set: bits over order positions.  Such a job (running at
	 * least one task and its keep) may start one only when its
	 * partition's room (budget less the long tasks' CPUs) holds a task of
	 * it, so a dispatch visits them, in rank order, only while the room
	 * holds the smallest task of one (park_open, nopen such partitions):
	 * after a long task ends, the first of them take the room and the
	 * rest cost nothing.  A budget set (dl_la_set_budget) or a keep
	 * changed between dl_la_advance calls brings them all back; per
	 * partition park_n of them, park_cpu the fewest CPUs a task of one
	 * takes (at most) */
	uint64_t *parked;
	uint32_t capparked;
	uint32_t *park_n;
	double *park_cpu;
	bool *park_open;
	uint32_t nopen;
	struct la_defer *defer;
	uint32_t ndefer, capdefer;
	/* the run */
	struct la_state *st;
	double *free_cpu, *free_mem, *cap_cpu, *cap_mem;
	struct la_event *heap;
	uint32_t nheap, capheap;
	/* the bucket queue: step k of the grid (now + k * res) holds a list
	 * of events in bev, linked by bnext, from bhead[k], valid while
	 * bit k of bbits is set; no step before bcur holds one */
	uint32_t *bhead;
	uint64_t *bbits;
	uint32_t capbhead, capbbits, bwords; /* bwords: in use since cleared */
	struct la_event *bev;
	uint32_t *bnext;
	uint32_t nbev, capbev, capbnext;
	uint32_t bcur;
	double horizon; /* of the run */
	/* dl_la_start done (else dl_la_advance has nothing to advance);
	 * done: the horizon reached and the results written */
	bool started, done;
	uint64_t *ready; /* bitset over order positions */
	uint32_t nready_words, capready;
	uint32_t rfirst; /* no ready position before it */
	const uint32_t *order;
	uint32_t norder;
	uint64_t batches;
	/* free CPU-seconds over time per class with no job of the plan
	 * placed (dl_la_supply): cumulative at each change, per class */
	double *sup_t, *sup_cum, *sup_rate;
	uint32_t *sup_off, *sup_n;
	double sup_horizon;
};

/* ------------------------------------------------------------ helpers */

/* ceil(x), by a conversion: truncation is the ceiling for negative x and
 * one short of it for positive x with a fraction.  libm's ceil without
 * SSE4.1 is a dozen instructions, on the dispatcher's every batch. */
static inline double ceil_fast(double x)
{
	double i;

	if (!(fabs(x) < 4503599627370496.0)) /* 2^52: integral, or not finite */
		return ceil(x);
	i = (double) (int64_t) x;
	return i < x ? i + 1 : i;
}

/* The grid step (from now) at or after t. */
static double grid_step(const struct dl_lookahead *la, double t)
{
	return t > la->now ? ceil_fast((t - la->now) / la->res - 1e-9) : 0;
}

static double grid_up(const struct dl_lookahead *la, double t)
{
	return la->now + grid_step(la, t) * la->res;
}

/* The first set bit at or after pos in bits[0..nwords), or DL_LA_NONE. */
static inline uint32_t bits_next(const uint64_t *bits, uint32_t nwords,
				 uint32_t pos)
{
	uint32_t w = pos / 64;
	uint64_t word;

	if (w >= nwords)
		return DL_LA_NONE;
	word = bits[w] & (~UINT64_C(0) << (pos % 64));
	for (;;) {
		if (word)
			return w * 64 + (uint32_t) __builtin_ctzll(word);
		if (++w >= nwords)
			return DL_LA_NONE;
		word = bits[w];
	}
}

static inline bool bit_get(const uint64_t *bits, uint32_t pos)
{
	return bits[pos / 64] & (UINT64_C(1) << (pos % 64));
}

static inline void bit_put(uint64_t *bits, uint32_t pos, bool on)
{
	if (on)
		bits[pos / 64] |= UINT64_C(1) << (pos % 64);
	else
		bits[pos / 64] &= ~(UINT64_C(1) << (pos % 64));
}

/* A capacity of at least `need`, doubling from cap (or `first`). */
static uint32_t doubled(uint32_t cap, uint32_t need, uint32_t first)
{
	uint32_t n = cap ? cap : first;

	while (n < need)
		n = n > UINT32_MAX / 2 ? need : n * 2;
	return n;
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t n;
	void *q;

	if (need <= *cap)
		return 0;
	n = doubled(*cap, need, 16);
	q = realloc(*p, (size_t) n * size);
	if (!q)
		return ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static bool ev_before(const struct la_event *a, const struct la_event *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	return a->kind < b->kind; /* capacity changes after task ends */
}

static int heap_push(struct dl_lookahead *la, const struct la_event *e)
{
	uint32_t i;

	if (grow((void **) &la->heap, &la->capheap, la->nheap + 1,
		 sizeof(*la->heap)))
		return ENOMEM;
	i = la->nheap++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!ev_before(e, &la->heap[parent]))
			break;
		la->heap[i] = la->heap[parent];
		i = parent;
	}
	la->heap[i] = *e;
	return 0;
}

static void heap_sift_down(struct dl_lookahead *la, uint32_t i)
{
	struct la_event x = la->heap[i];

	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = l;

		if (l >= la->nheap)
			break;
		if (r < la->nheap && ev_before(&la->heap[r], &la->heap[l]))
			m = r;
		if (!ev_before(&la->heap[m], &x))
			break;
		la->heap[i] = la->heap[m];
		i = m;
	}
	la->heap[i] = x;
}

static struct la_event heap_pop(struct dl_lookahead *la)
{
	struct la_event top = la->heap[0];

	la->heap[0] = la->heap[--la->nheap];
	if (la->nheap)
		heap_sift_down(la, 0);
	return top;
}

/* Grid steps the bucket queue keeps (from now; 12 days on the default 1 s
 * grid); later events use the heap.  Bounds its memory whatever the
 * horizon and grid: 4 MB of list heads. */
#define LA_MAX_STEPS (UINT32_C(1) << 20)

/* A run's event at grid step kd (e->t is its time): dropped past the
 * horizon (never applied), into the step's bucket, or into the heap when
 * too far ahead.  Inlined: the dispatcher calls it for every batch. */
static inline __attribute__((always_inline)) int
push_at(struct dl_lookahead *la, const struct la_event *e, double kd)
{
	uint32_t k, w, i;

	if (e->t > la->horizon)
		return 0;
	if (!(kd >= 0 && kd < LA_MAX_STEPS))
		return heap_push(la, e);
	k = (uint32_t) kd;
	w = k / 64 + 1;
	if ((k >= la->capbhead || w > la->capbbits || la->nbev >= la->capbev ||
	     la->nbev >= la->capbnext) &&
	    (grow((void **) &la->bhead, &la->capbhead, k + 1,
		  sizeof(*la->bhead)) ||
	     grow((void **) &la->bbits, &la->capbbits, w, sizeof(*la->bbits)) ||
	     grow((void **) &la->bev, &la->capbev, la->nbev + 1,
		  sizeof(*la->bev)) ||
	     grow((void **) &la->bnext, &la->capbnext, la->nbev + 1,
		  sizeof(*la->bnext))))
		return ENOMEM;
	if (w > la->bwords) {
		memset(la->bbits + la->bwords, 0,
		       (size_t) (w - la->bwords) * sizeof(*la->bbits));
		la->bwords = w;
	}
	i = la->nbev++;
	la->bev[i] = *e;
	if (bit_get(la->bbits, k)) {
		la->bnext[i] = la->bhead[k];
	} else {
		la->bnext[i] = DL_LA_NONE;
		bit_put(la->bbits, k, true);
	}
	la->bhead[k] = i;
	if (k < la->bcur)
		la->bcur = k;
	return 0;
}

/* A run's event at any time: off the grid (the forecast's samples) into
 * the heap. */
static int push_event(struct dl_lookahead *la, const struct la_event *e)
{
	double kd = floor((e->t - la->now) / la->res + 0.5);

	if (la->now + kd * la->res != e->t)
		return e->t > la->horizon ? 0 : heap_push(la, e);
	return push_at(la, e, kd);
}

/* The first step at or after bcur holding an event, or DL_LA_NONE. */
static uint32_t bucket_first(struct dl_lookahead *la)
{
	uint32_t k = bits_next(la->bbits, la->bwords, la->bcur);

	if (k != DL_LA_NONE)
		la->bcur = k;
	return k;
}

/* Takes the first event of step bcur (bucket_first found it). */
static void bucket_take(struct dl_lookahead *la)
{
	uint32_t k = la->bcur, i = la->bhead[k];

	if (la->bnext[i] == DL_LA_NONE)
		bit_put(la->bbits, k, false);
	else
		la->bhead[k] = la->bnext[i];
}

static int ev_cmp(const void *pa, const void *pb)
{
	const struct la_event *a = pa, *b = pb;

	return ev_before(a, b) ? -1 : (ev_before(b, a) ? 1 : 0);
}

/* The initial events are on the grid (task ends round up to it): a
 * counting sort by grid step when the steps span little more than the
 * events, else a comparison sort. */
static int sort_initial(struct dl_lookahead *la)
{
	uint64_t span = 0, *count;
	struct la_event *out;

	for (uint32_t i = 0; i < la->nev0; i++) {
		double k = (la->ev0[i].t - la->now) / la->res;

		if (!(k < 4.0 * la->nev0 + 1024)) {
			qsort(la->ev0, la->nev0, sizeof(*la->ev0), ev_cmp);
			return 0;
		}
		if ((uint64_t) (k + 0.5) > span)
			span = (uint64_t) (k + 0.5);
	}
	count = calloc(span + 2, sizeof(*count));
	out = malloc((la->nev0 ? la->nev0 : 1) * sizeof(*out));
	if (!count || !out) {
		free(count);
		free(out);
		return ENOMEM;
	}
	for (uint32_t i = 0; i < la->nev0; i++)
		count[(uint64_t) ((la->ev0[i].t - la->now) / la->res + 0.5) +
		      1]++;
	for (uint64_t k = 1; k <= span + 1; k++)
		count[k] += count[k - 1];
	/* stable: equal times keep their order (all are task ends) */
	for (uint32_t i = 0; i < la->nev0; i++)
		out[count[(uint64_t) ((la->ev0[i].t - la->now) / la->res +
				      0.5)]++] = la->ev0[i];
	free(la->ev0);
	la->ev0 = out;
	la->capev0 = la->nev0 ? la->nev0 : 1;
	free(count);
	return 0;
}

enum la_source { SRC_INITIAL, SRC_BUCKET, SRC_HEAP };

/* The earliest pending event, from the sorted initial ones, the buckets
 * or the heap, and where it is; NULL when there is none.  Events at the
 * same time are all applied before the next dispatch, in any order.
 * Inlined: a run calls it for every event. */
static inline __attribute__((always_inline)) const struct la_event *
next_event(struct dl_lookahead *la, enum la_source *src)
{
	const struct la_event *e =
		la->next0 < la->nev0 ? &la->ev0[la->next0] : NULL;
	uint32_t k = bucket_first(la);

	*src = SRC_INITIAL;
	if (k != DL_LA_NONE && (!e || ev_before(&la->bev[la->bhead[k]], e))) {
		e = &la->bev[la->bhead[k]];
		*src = SRC_BUCKET;
	}
	if (la->nheap && (!e || ev_before(&la->heap[0], e))) {
		e = &la->heap[0];
		*src = SRC_HEAP;
	}
	return e;
}

static void take_event(struct dl_lookahead *la, enum la_source src)
{
	if (src == SRC_INITIAL)
		la->next0++;
	else if (src == SRC_BUCKET)
		bucket_take(la);
	else
		heap_pop(la);
}

/* ----------------------------------------------------------- building */

static double fc_load(const struct dl_lookahead *la, int fc, int r, double t)
{
	double v = dl_forecast_load_at(la->fc, fc, r, t);

	return isfinite(v) ? (v < 0 ? 0 : (v > 1 ? 1 : v)) : 0;
}

/* What class k has at t: its nodes outside the forecast, plus those under
 * it minus the forecast load. */
static void class_capacity(const struct dl_lookahead *la, uint32_t k, double t,
			   double *cpu, double *mem)
{
	*cpu = la->base_cpu[k];
	*mem = la->base_mem[k];
	for (uint32_t i = 0; i < la->nfcp; i++) {
		const struct la_fc_part *p = &la->fcp[i];

		if (p->cls != k)
			continue;
		*cpu += p->cpu * (1 - fc_load(la, p->fc, DL_RES_CPU, t));
		*mem += p->mem * (1 - fc_load(la, p->fc, DL_RES_MEM, t));
	}
}

static bool class_has_fc(const struct dl_lookahead *la, uint32_t k)
{
	for (uint32_t i = 0; i < la->nfcp; i++)
		if (la->fcp[i].cls == k)
			return true;
	return false;
}

/* The forecast's first sample boundary after t; INFINITY when the series
 * no longer changes (past the end of a series that is not periodic). */
static double fc_next(const struct dl_lookahead *la, double t)
{
	double start, step, period;
	uint32_t n;
	double b;

	dl_forecast_grid(la->fc, &start, &step, &period, &n);
	if (!(step > 0))
		return INFINITY;
	if (t < start)
		return start;
	b = start + (floor((t - start) / step + 1e-9) + 1) * step;
	if (!(period > 0) && b > start + (double) n * step + EPS)
		return INFINITY;
	return b;
}

struct dl_lookahead *dl_la_new(const struct dl_cluster *cl,
			       const struct dl_forecast *forecast, double now,
			       double resolution)
{
	struct dl_lookahead *la;

	if (!cl || (cl->nnodes && !cl->nodes) || !isfinite(now) ||
	    !(resolution > 0) || !isfinite(resolution))
		return NULL;
	la = calloc(1, sizeof(*la));
	if (!la)
		return NULL;
	la->now = now;
	la->res = resolution;
	la->fc = forecast;
	la->nnodes = cl->nnodes;
	if (dl_capacity_build(&la->cap, cl))
		goto fail;
	la->ncls = la->cap.ncls;
	la->node_cls = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(int));
	la->node_fc = calloc(cl->nnodes ? cl->nnodes : 1, sizeof(bool));
	la->base_cpu = calloc(la->ncls + 1, sizeof(double));
	la->base_mem = calloc(la->ncls + 1, sizeof(double));
	la->hold_cpu = calloc(la->ncls + 1, sizeof(double));
	la->hold_mem = calloc(la->ncls + 1, sizeof(double));
	la->free_cpu = calloc(la->ncls + 1, sizeof(double));
	la->free_mem = calloc(la->ncls + 1, sizeof(double));
	la->cap_cpu = calloc(la->ncls + 1, sizeof(double));
	la->cap_mem = calloc(la->ncls + 1, sizeof(double));
	la->npart = cl->npartitions;
	la->budget = malloc((la->npart + 1) * sizeof(double));
	la->blk0 = calloc(la->npart + 1, sizeof(double));
	la->blk_used = calloc(la->npart + 1, sizeof(double));
	la->park_n = calloc(la->npart + 1, sizeof(uint32_t));
	la->park_cpu = malloc((la->npart + 1) * sizeof(double));
	la->park_open = calloc(la->npart + 1, sizeof(bool));
	if (!la->budget || !la->blk0 || !la->blk_used || !la->park_n ||
	    !la->park_cpu || !la->park_open)
		goto fail;
	for (uint32_t p = 0; p <= la->npart; p++) {
		la->budget[p] = INFINITY;
		la->park_cpu[p] = INFINITY;
	}
	if (!la->node_cls || !la->node_fc || !la->base_cpu || !la->base_mem ||
	    !la->hold_cpu || !la->hold_mem || !la->free_cpu || !la->free_mem ||
	    !la->cap_cpu || !la->cap_mem)
		goto fail;
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		const struct dl_node *n = &cl->nodes[i];
		int k = dl_capacity_class_of(&la->cap, n);
		int fc = forecast && n->name
				 ? dl_forecast_class_of(forecast, n->name)
				 : -1;

		la->node_cls[i] = k;
		if (k < 0)
			continue;
		if (fc < 0) {
			la->base_cpu[k] += n->cpus > n->cpus_other
						   ? n->cpus - n->cpus_other
						   : 0;
			la->base_mem[k] +=
				n->mem > n->mem_other
					? (double) (n->mem - n->mem_other)
					: 0;
			continue;
		}
		la->node_fc[i] = true;
		/* one part per (class, forecast class) */
		uint32_t p;

		for (p = 0; p < la->nfcp; p++)
			if (la->fcp[p].cls == (uint32_t) k &&
			    la->fcp[p].fc == fc)
				break;
		if (p == la->nfcp) {
			if (grow((void **) &la->fcp, &la->capfcp, la->nfcp + 1,
				 sizeof(*la->fcp)))
				goto fail;
			la->fcp[p].cls = (uint32_t) k;
			la->fcp[p].fc = fc;
			la->fcp[p].cpu = la->fcp[p].mem = 0;
			la->nfcp++;
		}
		la->fcp[p].cpu += n->cpus;
		la->fcp[p].mem += (double) n->mem;
	}
	return la;
fail:
	dl_la_free(la);
	return NULL;
}

void dl_la_free(struct dl_lookahead *la)
{
	if (!la)
		return;
	dl_capacity_free(&la->cap);
	free(la->node_cls);
	free(la->node_fc);
	free(la->base_cpu);
	free(la->base_mem);
	free(la->fcp);
	free(la->hold_cpu);
	free(la->hold_mem);
	free(la->jobs);
	free(la->defer);
	free(la->jcls_off);
	free(la->jcls_n);
	free(la->jcls);
	free(la->ev0);
	free(la->mslot);
	free(la->map_end0);
	free(la->end0);
	free(la->budget);
	free(la->blk0);
	free(la->blk_used);
	free(la->parked);
	free(la->park_n);
	free(la->park_cpu);
	free(la->park_open);
	free(la->run0);
	free(la->st);
	free(la->free_cpu);
	free(la->free_mem);
	free(la->cap_cpu);
	free(la->cap_mem);
	free(la->heap);
	free(la->bhead);
	free(la->bbits);
	free(la->bev);
	free(la->bnext);
	free(la->ready);
	free(la->sup_t);
	free(la->sup_cum);
	free(la->sup_rate);
	free(la->sup_off);
	free(la->sup_n);
	free(la);
}

static bool phase_ok(const struct dl_la_phase *p)
{
	if (!p->pending)
		return true;
	return isfinite(p->cpus) && p->cpus >= 0 && isfinite(p->mem) &&
	       p->mem >= 0 && (p->cpus > 0 || p->mem > 0) && isfinite(p->len) &&
	       p->len > 0 && !isnan(p->latest_start);
}

/* Room for `need` jobs in every per-job array. */
static int grow_jobs(struct dl_lookahead *la, uint32_t need)
{
	uint32_t n;

	if (need <= la->capjobs)
		return 0;
	n = doubled(la->capjobs, need, 64);
#define GROW(a)                                                                \
	do {                                                                   \
		void *q = realloc(la->a, (size_t) n * sizeof(*la->a));         \
		if (!q)                                                        \
			return ENOMEM;                                         \
		la->a = q;                                                     \
	} while (0)
	GROW(jobs);
	GROW(jcls_off);
	GROW(jcls_n);
	GROW(map_end0);
	GROW(end0);
	GROW(run0);
	GROW(st);
#undef GROW
	la->capjobs = n;
	return 0;
}

uint32_t dl_la_add_job(struct dl_lookahead *la, const struct dl_la_job *job)
{
	uint32_t j, n = 0;

	if (!la || !job || !phase_ok(&job->phase[DL_MAP]) ||
	    !phase_ok(&job->phase[DL_REDUCE]) || la->njobs == DL_LA_NONE - 1)
		return DL_LA_NONE;
	if (grow_jobs(la, la->njobs + 1) ||
	    grow((void **) &la->jcls, &la->capjcls, la->njcls + la->ncls + 1,
		 sizeof(*la->jcls)))
		return DL_LA_NONE;
	j = la->njobs++;
	la->jobs[j] = *job;
	la->jobs[j].map_end = la->jobs[j].finish = INFINITY;
	la->jobs[j].cancelled = false;
	la->jcls_off[j] = la->njcls;
	for (uint32_t k = 0; k < la->ncls; k++)
		if (dl_capclass_serves(&la->cap.cls[k], job->partition))
			la->jcls[la->njcls + n++] = k;
	la->jcls_n[j] = n;
	la->njcls += n;
	la->map_end0[j] = la->end0[j] = la->now;
	memset(la->run0[j], 0, sizeof(la->run0[j]));
	return j;
}

int dl_la_reserve(struct dl_lookahead *la, uint32_t njobs, uint32_t nevents)
{
	if (!la)
		return EINVAL;
	if (njobs > DL_LA_NONE - 1 - la->njobs ||
	    nevents > UINT32_MAX - la->nev0)
		return ENOMEM;
	if (grow_jobs(la, la->njobs + njobs) ||
	    grow((void **) &la->ev0, &la->capev0, la->nev0 + nevents,
		 sizeof(*la->ev0)))
		return ENOMEM;
	return 0;
}

struct dl_la_job *dl_la_job(struct dl_lookahead *la, uint32_t j)
{
	return la && j < la->njobs ? &la->jobs[j] : NULL;
}

int dl_la_defer(struct dl_lookahead *la, uint32_t j, int p, uint32_t n,
		double until)
{
	uint32_t k;

	if (!la || j >= la->njobs || p < 0 || p >= DL_PHASES ||
	    n > la->jobs[j].phase[p].pending || isnan(until))
		return EINVAL;
	for (k = 0; k < la->ndefer; k++)
		if (la->defer[k].job == j && la->defer[k].phase == p)
			break;
	if (k == la->ndefer) {
		if (grow((void **) &la->defer, &la->capdefer, la->ndefer + 1,
			 sizeof(*la->defer)))
			return ENOMEM;
		la->ndefer++;
	}
	la->defer[k].job = j;
	la->defer[k].phase = p;
	la->defer[k].n = n;
	la->defer[k].until = until;
	return 0;
}

static int add_event(struct dl_lookahead *la, const struct la_event *e)
{
	if (grow((void **) &la->ev0, &la->capev0, la->nev0 + 1,
		 sizeof(*la->ev0)))
		return ENOMEM;
	la->ev0[la->nev0++] = *e;
	la->ev0_sorted = false;
	return 0;
}

static uint32_t merge_hash(double t, uint32_t cls, uint32_t cap)
{
	uint64_t h;

	memcpy(&h, &t, sizeof(h));
	h ^= (uint64_t) cls * UINT64_C(0x9e3779b97f4a7c15);
	h *= UINT64_C(0xff51afd7ed558ccd);
	return (uint32_t) (h ^ (h >> 32)) & (cap - 1);
}

static void merge_clear(struct dl_lookahead *la)
{
	for (uint32_t i = 0; i < la->capmslot; i++)
		la->mslot[i] = DL_LA_NONE;
	la->nmslot = 0;
}

/* The table twice as large (it stays at most half full). */
static int merge_grow(struct dl_lookahead *la)
{
	uint32_t *old = la->mslot, oldcap = la->capmslot, cap;

	cap = oldcap ? oldcap * 2 : 1024;
	if (cap <= oldcap || !(la->mslot = malloc(cap * sizeof(*la->mslot)))) {
		la->mslot = old;
		return ENOMEM;
	}
	la->capmslot = cap;
	merge_clear(la);
	for (uint32_t i = 0; i < oldcap; i++) {
		uint32_t j = old[i], h;

		if (j == DL_LA_NONE)
			continue;
		h = merge_hash(la->ev0[j].t, la->ev0[j].cls, cap);
		while (la->mslot[h] != DL_LA_NONE)
			h = (h + 1) & (cap - 1);
		la->mslot[h] = j;
		la->nmslot++;
	}
	free(old);
	return 0;
}

/* An initial end of capacity that is not a job's own (not blocking): into
 * the event of the same time and class when there is one.  Capacities are
 * whole CPUs and megabytes, so the sums do not depend on the order. */
static int add_end(struct dl_lookahead *la, const struct la_event *e)
{
	uint32_t h;
	int rc;

	if ((la->nmslot + 1) * 2 > la->capmslot && (rc = merge_grow(la)))
		return rc;
	h = merge_hash(e->t, e->cls, la->capmslot);
	for (; la->mslot[h] != DL_LA_NONE; h = (h + 1) & (la->capmslot - 1)) {
		struct la_event *x = &la->ev0[la->mslot[h]];

		if (x->t == e->t && x->cls == e->cls) {
			x->cpu += e->cpu;
			x->mem += e->mem;
			return 0;
		}
	}
	if ((rc = add_event(la, e)))
		return rc;
	la->mslot[h] = la->nev0 - 1;
	la->nmslot++;
	return 0;
}

static int hold_until(struct dl_lookahead *la, int k, double cpus, double mem,
		      double end)
{
	struct la_event e = {0};

	if (k < 0)
		return 0; /* on no class: holds nothing the plan hands out */
	e.t = end;
	e.kind = LA_END;
	e.cls = (uint32_t) k;
	e.cpu = cpus;
	e.mem = mem;
	la->hold_cpu[k] += cpus;
	la->hold_mem[k] += mem;
	return add_end(la, &e);
}

static bool hold_ok(double cpus, double mem, double end)
{
	return isfinite(cpus) && cpus >= 0 && isfinite(mem) && mem >= 0 &&
	       !isnan(end);
}

/* Whether the job's partition has a budget for long tasks. */
static bool has_budget(const struct dl_lookahead *la, uint32_t j)
{
	uint32_t part = la->jobs[j].partition;

	return part < la->npart && la->budget[part] < INFINITY;
}

static void unpark(struct dl_lookahead *la, uint32_t part);

int dl_la_set_budget(struct dl_lookahead *la, uint32_t partition, double cpus)
{
	if (!la || isnan(cpus) || cpus < 0)
		return EINVAL;
	if (partition < la->npart) {
		la->budget[partition] = cpus;
		if (la->started && !la->done)
			unpark(la, partition);
	}
	return 0;
}

int dl_la_add_running(struct dl_lookahead *la, uint32_t job, int phase,
		      uint32_t node, double cpus, double mem, double end)
{
	struct la_event e = {0};
	int k;

	if (!la || job >= la->njobs ||
	    (phase != DL_MAP && phase != DL_REDUCE) || !hold_ok(cpus, mem, end))
		return EINVAL;
	k = node < la->nnodes ? la->node_cls[node]
	    : la->jcls_n[job] ? (int) la->jcls[la->jcls_off[job]]
			      : -1;
	if (!(end > la->now)) /* overdue: frees at the next step */
		end = la->now + la->res;
	end = grid_up(la, end);
	if (phase == DL_MAP && end > la->map_end0[job])
		la->map_end0[job] = end;
	if (end > la->end0[job])
		la->end0[job] = end;
	if (!(la->jobs[job].phase[phase].blocking ||
	      la->jobs[job].phase[phase].max_running) ||
	    k < 0)
		return hold_until(la, k, cpus, mem, end);
	/* a long task, or one its job's limit counts: its end is the job's
	 * own event, whether or not its partition has a budget yet
	 * (dl_la_set_budget may come later) */
	e.blocking = la->jobs[job].phase[phase].blocking;
	if (e.blocking)
		la->blk0[la->jobs[job].partition] += cpus;
	la->run0[job][phase]++;
	e.t = end;
	e.kind = LA_END;
	e.cls = (uint32_t) k;
	e.cpu = cpus;
	e.mem = mem;
	e.counted = true;
	e.job = job;
	e.phase = (uint8_t) phase;
	e.ntasks = 1;
	la->hold_cpu[k] += cpus;
	la->hold_mem[k] += mem;
	return add_event(la, &e);
}

int dl_la_add_other(struct dl_lookahead *la, uint32_t partition, uint32_t node,
		    double cpus, double mem, double end)
{
	int k = -1;

	if (!la || !hold_ok(cpus, mem, end))
		return EINVAL;
	if (node < la->nnodes) {
		k = la->node_cls[node];
	} else {
		for (uint32_t c = 0; c < la->ncls && k < 0; c++)
			if (dl_capclass_serves(&la->cap.cls[c], partition))
				k = (int) c;
	}
	if (!(end > la->now))
		end = la->now + la->res;
	return hold_until(la, k, cpus, mem,
			  isfinite(end) ? grid_up(la, end) : INFINITY);
}

int dl_la_add_held(struct dl_lookahead *la, uint32_t node, double cpus,
		   double mem, double end)
{
	struct la_event e = {0};

	if (!la || node >= la->nnodes || !isfinite(cpus) || cpus < 0 ||
	    !isfinite(mem) || mem < 0 || isnan(end))
		return EINVAL;
	if (la->node_cls[node] < 0 || la->node_fc[node] || !isfinite(end))
		return 0; /* down, the forecast's load, or never frees */
	e.t = grid_up(la, end > la->now ? end : la->now);
	e.kind = LA_END;
	e.cls = (uint32_t) la->node_cls[node];
	e.cpu = cpus;
	e.mem = mem;
	return add_end(la, &e);
}

bool dl_la_serves(const struct dl_lookahead *la, uint32_t partition)
{
	if (!la)
		return false;
	for (uint32_t k = 0; k < la->ncls; k++)
		if (dl_capclass_serves(&la->cap.cls[k], partition))
			return true;
	return false;
}

bool dl_la_compete(const struct dl_lookahead *la, uint32_t part_a,
		   uint32_t part_b)
{
	if (!la)
		return false;
	if (part_a == part_b)
		return true;
	for (uint32_t k = 0; k < la->ncls; k++)
		if (dl_capclass_serves(&la->cap.cls[k], part_a) &&
		    dl_capclass_serves(&la->cap.cls[k], part_b))
			return true;
	return false;
}

uint64_t dl_la_batches(const struct dl_lookahead *la)
{
	return la ? la->batches : 0;
}

/* -------------------------------------------------------------- the run */

static void ready_set(struct dl_lookahead *la, uint32_t pos, bool on)
{
	bit_put(la->ready, pos, on);
	if (on && pos < la->rfirst)
		la->rfirst = pos;
}

/* The first position at or after pos set in `bits` (ready or parked), or
 * DL_LA_NONE. */
static uint32_t position_next(const struct dl_lookahead *la,
			      const uint64_t *bits, uint32_t pos)
{
	return pos < la->norder ? bits_next(bits, la->nready_words, pos)
				: DL_LA_NONE;
}

static uint32_t ready_next(const struct dl_lookahead *la, uint32_t pos)
{
	return position_next(la, la->ready, pos);
}

/* The phase whose tasks may start: maps, then reduces once every map has
 * ended; -1 when none may. */
static int startable(const struct la_state *s)
{
	if (s->pending[DL_MAP])
		return DL_MAP;
	return s->reduce_ready && s->pending[DL_REDUCE] ? DL_REDUCE : -1;
}

static void mark_ready(struct dl_lookahead *la, uint32_t j)
{
	const struct la_state *s = &la->st[j];

	if (s->pos != DL_LA_NONE)
		ready_set(la, s->pos,
			  startable(s) >= 0 && !la->jobs[j].cancelled &&
				  !s->at_limit);
}

/* Tasks of job j's phase p its own limit lets start now (UINT32_MAX: no
 * limit). */
static uint32_t limit_allows(const struct dl_lookahead *la, uint32_t j, int p)
{
	uint32_t max = la->jobs[j].phase[p].max_running;
	uint32_t run = la->st[j].running[p];

	if (!max)
		return UINT32_MAX;
	return max > run ? max - run : 0;
}

/* Whether the room of partition part (its budget less its long tasks'
 * CPUs) holds the smallest task of a job parked there; the test errs
 * towards open, which reserve_allows checks exactly per job. */
static inline void park_gate(struct dl_lookahead *la, uint32_t part)
{
	bool open;

	/* nothing parked there: closed since its last one left */
	if (part >= la->npart || !la->park_n[part])
		return;
	open = la->budget[part] - la->blk_used[part] >=
	       la->park_cpu[part] - 1e-6;
	if (open == la->park_open[part])
		return;
	la->park_open[part] = open;
	if (open)
		la->nopen++;
	else
		la->nopen--;
}

/* Job j, at order position pos, is held back by the reserve in phase p:
 * out of the ready set until its partition's room holds a task of it. */
static void park(struct dl_lookahead *la, uint32_t j, uint32_t pos, int p)
{
	struct la_state *s = &la->st[j];
	uint32_t part = la->jobs[j].partition;
	double cpu = la->jobs[j].phase[p].cpus;

	if (part >= la->npart) /* no budget there: it stays ready */
		return;
	ready_set(la, pos, false);
	if (s->parked)
		return;
	if (!(cpu > 0))
		cpu = 1;
	if (cpu < la->park_cpu[part])
		la->park_cpu[part] = cpu;
	s->parked = true;
	bit_put(la->parked, pos, true);
	la->park_n[part]++;
	park_gate(la, part);
}

/* Job j may start again: ready, no longer parked. */
static void unpark_one(struct dl_lookahead *la, uint32_t j)
{
	struct la_state *s = &la->st[j];
	uint32_t part = la->jobs[j].partition;

	s->parked = false;
	bit_put(la->parked, s->pos, false);
	if (--la->park_n[part]) {
		park_gate(la, part);
	} else { /* the last one: closed */
		la->park_cpu[part] = INFINITY;
		if (la->park_open[part]) {
			la->park_open[part] = false;
			la->nopen--;
		}
	}
	mark_ready(la, j);
}

/* Every job parked in partition part (DL_LA_NONE: in any) is ready. */
static void unpark(struct dl_lookahead *la, uint32_t part)
{
	for (uint32_t q = position_next(la, la->parked, 0); q != DL_LA_NONE;
	     q = position_next(la, la->parked, q + 1)) {
		uint32_t j = la->order[q];

		if (part == DL_LA_NONE || la->jobs[j].partition == part)
			unpark_one(la, j);
	}
}

/* A long task of job j's phase p has ended: its partition's room grew
 * (park_gate), and job j itself, parked, may start again if it now runs
 * fewer tasks than it keeps, or none (one task may always run). */
static void long_task_ended(struct dl_lookahead *la, uint32_t j, int p)
{
	uint32_t part = la->jobs[j].partition;
	const struct la_state *s = &la->st[j];

	if (part >= la->npart)
		return;
	if (s->parked &&
	    (la->jobs[j].phase[p].keep > s->running[p] || !s->running[p]))
		unpark_one(la, j);
	park_gate(la, part);
}

/* Every map has started: the reduces wait for the last one to end.  When
 * it has already ended they may start now, in the same dispatch as every
 * other job's tasks (an event at now would come after that dispatch and
 * hand their CPUs to jobs ranked below). */
static int maps_started(struct dl_lookahead *la, uint32_t j)
{
	struct la_state *s = &la->st[j];
	struct la_event e = {0};

	la->jobs[j].map_end = s->map_free;
	if (!s->pending[DL_REDUCE] && !s->waiting[DL_REDUCE])
		return 0;
	if (s->map_free <= la->now) {
		s->reduce_ready = true;
		return 0;
	}
	e.t = s->map_free;
	e.kind = LA_READY;
	e.job = j;
	return push_event(la, &e);
}

static bool any_free(const struct dl_lookahead *la)
{
	for (uint32_t k = 0; k < la->ncls; k++)
		if (la->free_cpu[k] >= 1 - EPS)
			return true;
	return false;
}

/* Tasks of the phase class k has room for now, at most its pending ones.
 * The smaller quotient is floored once, by the conversion (it is at least
 * 1 and below the pending count there). */
static uint32_t fits(const struct dl_lookahead *la, uint32_t k,
		     const struct dl_la_phase *ph)
{
	double n = ph->cpus > 0 ? la->free_cpu[k] / ph->cpus + EPS : INFINITY;

	if (ph->mem > 0) {
		double m = la->free_mem[k] / ph->mem + EPS;

		n = m < n ? m : n;
	}
	if (!(n >= 1))
		return 0;
	return n >= ph->pending ? ph->pending : (uint32_t) n;
}

/* Tasks of job j's phase p the reserve lets start now (UINT32_MAX: no
 * limit): the width of reserve.h's rule less what runs. */
static uint32_t reserve_allows(const struct dl_lookahead *la, uint32_t j, int p)
{
	const struct la_state *s = &la->st[j];
	const struct dl_la_phase *ph = &la->jobs[j].phase[p];
	uint32_t part = la->jobs[j].partition, w;
	double cpu = ph->cpus > 0 ? ph->cpus : 1;

	if (!ph->blocking || !has_budget(la, j))
		return UINT32_MAX;
	w = dl_reserve_width(la->budget[part],
			     la->blk_used[part] - s->running[p] * cpu, cpu,
			     ph->keep, s->pending[p] + s->running[p]);
	return w > s->running[p] ? w - s->running[p] : 0;
}

/* The next position a dispatch visits: the first ready one at or after
 * `ready_from`, or before it a parked one at or after `parked_from` whose
 * partition's room is open. */
static uint32_t visit_next(const struct dl_lookahead *la, uint32_t ready_from,
			   uint32_t parked_from)
{
	uint32_t r = ready_next(la, ready_from), words;

	if (!la->nopen || parked_from >= la->norder)
		return r;
	/* the parked bits up to r's word only */
	words = r < la->norder ? r / 64 + 1 : la->nready_words;
	for (uint32_t q = bits_next(la->parked, words, parked_from);
	     q != DL_LA_NONE && q < r; q = bits_next(la->parked, words, q + 1))
		if (la->park_open[la->jobs[la->order[q]].partition])
			return q;
	return r;
}

static int dispatch(struct dl_lookahead *la, double t)
{
	uint32_t pos = ready_next(la, la->rfirst);

	la->rfirst = pos != DL_LA_NONE ? pos : la->norder;
	if (la->nopen)
		pos = visit_next(la, la->rfirst, 0);
	for (; pos != DL_LA_NONE;
	     pos = la->nopen ? visit_next(la, pos + 1, pos + 1)
			     : ready_next(la, pos + 1)) {
		uint32_t j = la->order[pos];
		struct la_state *s = &la->st[j];
		struct dl_la_job *job = &la->jobs[j];
		int p = startable(s);
		struct dl_la_phase ph;
		uint32_t allowed;
		int rc;

		if (!any_free(la))
			break;
		/* parked, and its partition's room opened: visited in rank */
		if (s->parked)
			unpark_one(la, j);
		if (p < 0) {
			ready_set(la, pos, false);
			continue;
		}
		ph = job->phase[p];
		if (t > ph.latest_start + EPS) {
			/* Slurm cancels the unstarted rest: never finishes */
			job->cancelled = true;
			ready_set(la, pos, false);
			continue;
		}
		ph.pending = s->pending[p];
		if (!limit_allows(la, j, p)) {
			/* back when one of its tasks ends */
			s->at_limit = true;
			ready_set(la, pos, false);
			continue;
		}
		allowed = reserve_allows(la, j, p);
		if (!allowed) {
			park(la, j, pos, p);
			continue;
		}
		if (limit_allows(la, j, p) < allowed)
			allowed = limit_allows(la, j, p);
		for (uint32_t c = 0; c < la->jcls_n[j] && ph.pending && allowed;
		     c++) {
			uint32_t k = la->jcls[la->jcls_off[j] + c];
			uint32_t n = fits(la, k, &ph);
			struct la_event e = {0};
			double step;

			if (n > allowed)
				n = allowed;
			if (!n)
				continue;
			allowed -= n;
			la->free_cpu[k] -= n * ph.cpus;
			la->free_mem[k] -= n * ph.mem;
			step = grid_step(la, t + ph.len);
			e.t = la->now + step * la->res;
			e.kind = LA_END;
			e.cls = k;
			e.cpu = n * ph.cpus;
			e.mem = n * ph.mem;
			/* a counted task of a long phase is a long task too,
			 * budget or not, so that the long tasks' CPUs hold
			 * every one the job's running count holds */
			e.blocking = ph.blocking &&
				     (has_budget(la, j) || ph.max_running);
			if (e.blocking || ph.max_running) {
				e.counted = true;
				e.job = j;
				e.phase = (uint8_t) p;
				e.ntasks = n;
				s->running[p] += n;
			}
			if (e.blocking) {
				la->blk_used[job->partition] += e.cpu;
				park_gate(la, job->partition);
			}
			if (push_at(la, &e, step))
				return ENOMEM;
			ph.pending -= n;
			s->pending[p] -= n;
			if (e.t > s->last_end)
				s->last_end = e.t;
			if (p == DL_MAP && e.t > s->map_free)
				s->map_free = e.t;
			la->batches++;
		}
		if (p == DL_MAP && !s->pending[DL_MAP] && !s->waiting[DL_MAP] &&
		    (rc = maps_started(la, j)))
			return rc;
		if (!s->pending[p])
			ready_set(la, pos, false);
	}
	return 0;
}

static void apply_event(struct dl_lookahead *la, const struct la_event *e,
			double horizon)
{
	if (e->kind == LA_CAP) {
		double cpu, mem, next;

		class_capacity(la, e->cls, e->t, &cpu, &mem);
		la->free_cpu[e->cls] += cpu - la->cap_cpu[e->cls];
		la->free_mem[e->cls] += mem - la->cap_mem[e->cls];
		la->cap_cpu[e->cls] = cpu;
		la->cap_mem[e->cls] = mem;
		next = fc_next(la, e->t);
		if (isfinite(next) && next <= horizon) {
			struct la_event n = *e;

			n.t = next;
			push_event(la, &n); /* no memory: the series holds */
		}
		return;
	}
	if (e->kind == LA_READY) {
		la->st[e->job].reduce_ready = true;
		mark_ready(la, e->job);
		return;
	}
	if (e->kind == LA_BEGIN) {
		la->st[e->job].pending[e->phase] += e->ntasks;
		la->st[e->job].waiting[e->phase] -= e->ntasks;
		mark_ready(la, e->job);
		return;
	}
	la->free_cpu[e->cls] += e->cpu;
	la->free_mem[e->cls] += e->mem;
	if (e->counted)
		la->st[e->job].running[e->phase] -= e->ntasks;
	if (e->blocking) {
		la->blk_used[la->jobs[e->job].partition] -= e->cpu;
		long_task_ended(la, e->job, e->phase);
	}
	if (e->counted && la->st[e->job].at_limit) {
		la->st[e->job].at_limit = false;
		mark_ready(la, e->job);
	}
}

/* The initial events, once: sorted, and merged per (time, class). */
static int prepare_initial(struct dl_lookahead *la)
{
	uint32_t out = 0;
	int rc;

	if ((rc = sort_initial(la)))
		return rc;
	for (uint32_t i = 0; i < la->nev0; i++) {
		struct la_event *e = &la->ev0[i];

		if (out && la->ev0[out - 1].t == e->t &&
		    la->ev0[out - 1].cls == e->cls && !e->counted &&
		    !la->ev0[out - 1].counted) {
			la->ev0[out - 1].cpu += e->cpu;
			la->ev0[out - 1].mem += e->mem;
			continue;
		}
		la->ev0[out++] = *e;
	}
	la->nev0 = out;
	la->ev0_sorted = true;
	merge_clear(la); /* the indexes moved */
	return 0;
}

int dl_la_start(struct dl_lookahead *la, const uint32_t *order, uint32_t norder,
		double horizon)
{
	uint32_t words;
	int rc;

	if (!la)
		return EINVAL;
	la->started = la->done = false;
	if ((norder && !order) || isnan(horizon))
		return EINVAL;
	for (uint32_t i = 0; i < norder; i++)
		if (order[i] >= la->njobs)
			return EINVAL;
	if (!la->ev0_sorted && (rc = prepare_initial(la)))
		return rc;
	words = norder / 64 + 1;
	if (grow((void **) &la->ready, &la->capready, words,
		 sizeof(*la->ready)))
		return ENOMEM;
	memset(la->ready, 0, (size_t) words * sizeof(*la->ready));
	if (grow((void **) &la->parked, &la->capparked, words,
		 sizeof(*la->parked)))
		return ENOMEM;
	memset(la->parked, 0, (size_t) words * sizeof(*la->parked));
	la->nready_words = words;
	la->rfirst = 0;
	la->order = order;
	la->norder = norder;
	la->batches = 0;
	la->next0 = 0;
	la->nheap = 0;
	la->horizon = horizon;
	if (la->bwords) /* bbits is NULL before the first event */
		memset(la->bbits, 0, (size_t) la->bwords * sizeof(*la->bbits));
	la->bwords = 0;
	la->nbev = 0;
	la->bcur = 0;
	memcpy(la->blk_used, la->blk0, (la->npart + 1) * sizeof(double));
	for (uint32_t p = 0; p <= la->npart; p++) {
		la->park_n[p] = 0;
		la->park_cpu[p] = INFINITY;
		la->park_open[p] = false;
	}
	la->nopen = 0;
	for (uint32_t k = 0; k < la->ncls; k++) {
		class_capacity(la, k, la->now, &la->cap_cpu[k],
			       &la->cap_mem[k]);
		la->free_cpu[k] = la->cap_cpu[k] - la->hold_cpu[k];
		la->free_mem[k] = la->cap_mem[k] - la->hold_mem[k];
	}
	for (uint32_t k = 0; la->fc && k < la->ncls; k++) {
		struct la_event e = {0};

		if (!class_has_fc(la, k))
			continue;
		e.t = fc_next(la, la->now);
		e.kind = LA_CAP;
		e.cls = k;
		if (isfinite(e.t) && (rc = push_event(la, &e)))
			return rc;
	}
	/* the state at now */
	for (uint32_t j = 0; j < la->njobs; j++) {
		struct la_state *s = &la->st[j];
		struct dl_la_job *job = &la->jobs[j];

		for (int p = 0; p < DL_PHASES; p++) {
			s->pending[p] = job->phase[p].pending;
			s->waiting[p] = 0;
		}
		s->map_free = la->map_end0[j];
		s->last_end = la->end0[j];
		memcpy(s->running, la->run0[j], sizeof(s->running));
		s->reduce_ready = false;
		s->parked = false;
		s->at_limit = false;
		s->pos = DL_LA_NONE;
		job->map_end = INFINITY;
		job->finish = INFINITY;
		job->cancelled = false;
	}
	for (uint32_t i = 0; i < norder; i++)
		if (la->st[order[i]].pos == DL_LA_NONE)
			la->st[order[i]].pos = i;
	/* deferred tasks join the pending ones at their begin time */
	for (uint32_t k = 0; k < la->ndefer; k++) {
		const struct la_defer *d = &la->defer[k];
		struct la_state *s = &la->st[d->job];
		uint32_t n = d->n < s->pending[d->phase] ? d->n
							 : s->pending[d->phase];
		struct la_event e = {0};

		if (!n || !(d->until > la->now))
			continue;
		s->pending[d->phase] -= n;
		s->waiting[d->phase] = n;
		e.t = d->until;
		e.kind = LA_BEGIN;
		e.job = d->job;
		e.phase = (uint8_t) d->phase;
		e.ntasks = n;
		if ((rc = push_event(la, &e)))
			return rc;
	}
	for (uint32_t j = 0; j < la->njobs; j++) {
		if (!la->st[j].pending[DL_MAP] && !la->st[j].waiting[DL_MAP] &&
		    (rc = maps_started(la, j)))
			return rc;
		mark_ready(la, j);
	}

	if ((rc = dispatch(la, la->now)))
		return rc;
	la->started = true;
	return 0;
}

int dl_la_advance(struct dl_lookahead *la, double until)
{
	double stop;
	int rc;

	if (!la || !la->started || isnan(until))
		return EINVAL;
	if (la->done)
		return 0;
	/* a caller may have changed a keep since the last call */
	unpark(la, DL_LA_NONE);
	stop = until < la->horizon ? until : la->horizon;
	for (;;) {
		enum la_source src;
		const struct la_event *e = next_event(la, &src);
		double t;

		if (!e || e->t > stop || !isfinite(e->t))
			break;
		t = e->t;
		do {
			struct la_event x = *e;

			take_event(la, src);
			apply_event(la, &x, la->horizon);
		} while ((e = next_event(la, &src)) && e->t == t);
		if ((rc = dispatch(la, t)))
			return rc;
	}
	if (until < la->horizon)
		return 0;
	/* what ended by the horizon: every task started, and its last end
	 * is known (a job whose last task ends past the horizon still gets
	 * that time) */
	for (uint32_t j = 0; j < la->njobs; j++)
		la->jobs[j].finish = dl_la_finish_so_far(la, j);
	la->done = true;
	return 0;
}

double dl_la_finish_so_far(const struct dl_lookahead *la, uint32_t j)
{
	const struct la_state *s;

	if (!la || !la->started || j >= la->njobs)
		return INFINITY;
	s = &la->st[j];
	if (la->jobs[j].cancelled || s->pending[DL_MAP] ||
	    s->pending[DL_REDUCE] || s->waiting[DL_MAP] ||
	    s->waiting[DL_REDUCE])
		return INFINITY;
	return s->last_end;
}

int dl_la_run(struct dl_lookahead *la, const uint32_t *order, uint32_t norder,
	      double horizon)
{
	int rc = dl_la_start(la, order, norder, horizon);

	return rc ? rc : dl_la_advance(la, horizon);
}

/* ------------------------------------------------------------- supply */

int dl_la_supply_build(struct dl_lookahead *la, double horizon)
{
	uint32_t nfc = 0, cap;
	int rc;

	if (!la || isnan(horizon))
		return EINVAL;
	if (!la->ev0_sorted && (rc = prepare_initial(la)))
		return rc;
	free(la->sup_t);
	free(la->sup_cum);
	free(la->sup_rate);
	free(la->sup_off);
	free(la->sup_n);
	la->sup_t = la->sup_cum = la->sup_rate = NULL;
	la->sup_off = la->sup_n = NULL;
	/* forecast samples up to the horizon, per class under it */
	if (la->fc) {
		double b = fc_next(la, la->now);

		while (b <= horizon && nfc < (1u << 22)) {
			nfc++;
			b = fc_next(la, b);
		}
	}
	cap = la->nev0 + la->ncls * (nfc + 1) + 1;
	la->sup_t = malloc(cap * sizeof(double));
	la->sup_cum = malloc(cap * sizeof(double));
	la->sup_rate = malloc(cap * sizeof(double));
	la->sup_off = calloc(la->ncls + 1, sizeof(uint32_t));
	la->sup_n = calloc(la->ncls + 1, sizeof(uint32_t));
	if (!la->sup_t || !la->sup_cum || !la->sup_rate || !la->sup_off ||
	    !la->sup_n)
		return ENOMEM;
	la->sup_horizon = horizon;
	uint32_t used = 0;

	for (uint32_t k = 0; k < la->ncls; k++) {
		double cpu, mem, t = la->now, cum = 0, rate;
		double nextfc = la->fc && class_has_fc(la, k)
					? fc_next(la, la->now)
					: INFINITY;
		uint32_t i = 0;

		class_capacity(la, k, la->now, &cpu, &mem);
		rate = cpu - la->hold_cpu[k];
		la->sup_off[k] = used;
		la->sup_t[used] = t;
		la->sup_cum[used] = 0;
		la->sup_rate[used++] = rate > 0 ? rate : 0;
		for (;;) {
			double te = INFINITY;

			while (i < la->nev0 && la->ev0[i].cls != k)
				i++;
			if (i < la->nev0)
				te = la->ev0[i].t;
			if (!isfinite(fmin(te, nextfc)) ||
			    !(fmin(te, nextfc) <= horizon))
				break;
			if (nextfc < te) {
				double c2, m2;

				cum += (rate > 0 ? rate : 0) * (nextfc - t);
				t = nextfc;
				class_capacity(la, k, t, &c2, &m2);
				rate += c2 - cpu;
				cpu = c2;
				nextfc = fc_next(la, t);
			} else {
				cum += (rate > 0 ? rate : 0) * (te - t);
				t = te;
				rate += la->ev0[i].cpu;
				i++;
			}
			if (la->sup_t[used - 1] == t) {
				la->sup_rate[used - 1] = rate > 0 ? rate : 0;
				continue;
			}
			if (used == cap)
				break;
			la->sup_t[used] = t;
			la->sup_cum[used] = cum;
			la->sup_rate[used++] = rate > 0 ? rate : 0;
		}
		la->sup_n[k] = used - la->sup_off[k];
	}
	return 0;
}

double dl_la_supply(const struct dl_lookahead *la, uint32_t partition, double t)
{
	double sum = 0;

	if (!la || !la->sup_n || !(t > la->now))
		return 0;
	for (uint32_t k = 0; k < la->ncls; k++) {
		const double *ts = la->sup_t + la->sup_off[k];
		uint32_t lo;

		if (!la->sup_n[k] ||
		    !dl_capclass_serves(&la->cap.cls[k], partition))
			continue;
		/* the last change at or before t */
		lo = dl_last_at_or_before(ts, la->sup_n[k], t);
		sum += la->sup_cum[la->sup_off[k] + lo] +
		       la->sup_rate[la->sup_off[k] + lo] * (t - ts[lo]);
	}
	return sum;
}
