/*
 * engine.c - the event loop, the model of Slurm's dispatcher and the
 * bookkeeping that keeps the core's job view current.
 *
 * What the engine models (doc/simulator.md has the reasons):
 *  - plan cycles every PlanInterval while jobs are active, and ReplanDelay
 *    after every arrival and task end (coalesced);
 *  - a dispatch pass after every plan and after every task end (plus the
 *    cluster's dispatch_latency): jobs in plan order -- managed jobs with
 *    unmet need by rank, then jobs the plan leaves to Slurm, then the other
 *    managed jobs by rank -- each starting pending tasks of its active phase
 *    while it runs fewer than its throttle and its own %N (max_running);
 *    a job the plan has not seen yet waits for the next plan;
 *  - placement (ras/reverse): a task of a managed job starts on a node
 *    only where select/deadline's rule (the core's dl_place_may_start)
 *    allows it: below the job's planned concurrency, within the node's
 *    capacity for deadline tasks with the room owed to jobs of lower
 *    utility kept;
 *  - node capacity: CPUs, memory and I/O (or typed map/reduce slots) minus
 *    the external load's share of the node;
 *  - EASY backfill: the first job that cannot start for lack of resources
 *    gets a reservation at the earliest time its task fits (from running
 *    tasks' time limits); later jobs may use the reserved node only with
 *    tasks that end before it or fit beside it;
 *  - hard deadlines (Slurm --deadline): the unstarted rest of a phase is
 *    cancelled once now + time limit (at least a minute) passes the
 *    deadline; a map phase that did not complete keeps the reduces from
 *    ever starting (afterok); a task longer than its time limit is killed
 *    at the limit and fails;
 *  - begin times (Slurm's --begin): a phase's deferred tasks start no
 *    earlier, and the plan sees them deferred until then;
 *  - reduces start only after every map has ended; running tasks are never
 *    killed by a policy.
 */
#include "common/simulate/engine.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/estimate/estimate.h"
#include "common/io/clock.h"
#include "common/simulate/rng.h"

enum ev_kind {
	EV_TASK_END = 0,
	EV_EXT,
	EV_ARRIVAL,
	EV_BEGIN,
	EV_DEADLINE,
	EV_PLAN,
	EV_REPLAN,
	EV_DISPATCH,
};

struct sim_event {
	double t;
	uint64_t seq;
	uint8_t kind;
	uint8_t phase;
	uint32_t job;
	uint32_t task;
};

#define EPS            1e-9
#define STALL_AFTER    86400.0 /* s of plans starting nothing: a stall */
#define REDUCE_ID_BASE (UINT64_C(1) << 32)

static int build_forecast(struct sim_engine *e);

/* ----------------------------------------------------------------- events */

static bool ev_before(const struct sim_event *a, const struct sim_event *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->seq < b->seq;
}

static int ev_push(struct sim_engine *e, double t, uint8_t kind, uint32_t job,
		   uint8_t phase, uint32_t task)
{
	struct sim_event x = {t, e->seq++, kind, phase, job, task};
	uint32_t i;

	if (e->nev == e->capev) {
		uint32_t n = e->capev ? e->capev * 2 : 1024;
		void *p = realloc(e->ev, n * sizeof(*e->ev));

		if (!p)
			return ENOMEM;
		e->ev = p;
		e->capev = n;
	}
	i = e->nev++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!ev_before(&x, &e->ev[parent]))
			break;
		e->ev[i] = e->ev[parent];
		i = parent;
	}
	e->ev[i] = x;
	if (kind == EV_TASK_END || kind == EV_ARRIVAL || kind == EV_BEGIN)
		e->progress_events++;
	return 0;
}

static struct sim_event ev_pop(struct sim_engine *e)
{
	struct sim_event top = e->ev[0], last = e->ev[--e->nev];
	uint32_t i = 0;

	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		const struct sim_event *best = &last;

		if (l < e->nev && ev_before(&e->ev[l], best)) {
			m = l;
			best = &e->ev[l];
		}
		if (r < e->nev && ev_before(&e->ev[r], best))
			m = r;
		if (m == i)
			break;
		e->ev[i] = e->ev[m];
		i = m;
	}
	if (e->nev)
		e->ev[i] = last;
	if (top.kind == EV_TASK_END || top.kind == EV_ARRIVAL ||
	    top.kind == EV_BEGIN)
		e->progress_events--;
	return top;
}

/* ------------------------------------------------------------ task model */

/* A job's own identity for its random draws: its name, user and arrival.
 * Keying the draws by it (not by the job's position in the workload) means
 * removing or adding a job changes no other job's task lengths. */
static uint64_t job_key(const struct sim_job_spec *s)
{
	uint64_t h = UINT64_C(14695981039346656037);
	const char *parts[2] = {s->name ? s->name : "", s->user ? s->user : ""};
	uint64_t t;

	for (int k = 0; k < 2; k++) {
		for (const unsigned char *c = (const unsigned char *) parts[k];
		     *c; c++)
			h = (h ^ *c) * UINT64_C(1099511628211);
		h = (h ^ 0xff) * UINT64_C(1099511628211);
	}
	memcpy(&t, &s->arrival, sizeof(t));
	for (int b = 0; b < 8; b++)
		h = (h ^ ((t >> (8 * b)) & 0xff)) * UINT64_C(1099511628211);
	return h;
}

static uint32_t phase_cpus(const struct sim_engine *e, const struct sim_job *j,
			   int p)
{
	return e->cs->mode == SIM_SLOTS_TYPED ? 1 : j->spec->phase[p].cpus;
}

double sim_task_units(const struct sim_engine *e, uint32_t j, int p)
{
	return (double) phase_cpus(e, &e->jobs[j], p);
}

/* Slurm's launch and completion time of task i of phase p: the cluster's
 * constant, or the task's own draw (draw_lengths). */
static double task_overhead(const struct sim_engine *e, const struct sim_job *j,
			    int p, uint32_t i)
{
	return j->overhead[p] ? j->overhead[p][i] : e->cs->task_overhead;
}

double sim_task_length(const struct sim_engine *e, uint32_t j, int p,
		       uint32_t i, uint32_t n)
{
	const struct sim_job *job = &e->jobs[j];
	const struct sim_node_spec *nd = &e->cs->nodes[n];
	double len = job->base[p][i] / nd->speed;

	if (p == DL_MAP && job->spec->remote_prob > 0 &&
	    sim_hash_unit(e->opt.seed, job_key(job->spec), (uint64_t) p, i, n) <
		    job->spec->remote_prob)
		len *= job->spec->remote_factor;
	if (p == DL_MAP && job->spec->accel_speedup > 0 &&
	    nd->pool == DL_POOL_ACCEL)
		len /= job->spec->accel_speedup;
	return len + task_overhead(e, job, p, i);
}

bool sim_job_met(const struct sim_job *job)
{
	return job->state == SIM_JOB_DONE && job->deadline > 0 &&
	       !job->cancelled && !job->unfinished &&
	       job->dj->phase[0].failed + job->dj->phase[1].failed == 0 &&
	       job->finish <= job->deadline + 1e-6;
}

/* --------------------------------------------------------- node capacity */

static double cap_of(double avail, double total)
{
	return floor(avail * total + 1e-6);
}

/* free whole units of the kind counted in free_units */
static int64_t node_free(const struct sim_engine *e, uint32_t n, int kind)
{
	const struct sim_node *nd = &e->nodes[n];
	double c;

	if (e->cs->mode == SIM_SLOTS_TYPED) {
		c = kind ? cap_of(nd->avail, nd->spec->reduce_slots) -
				    nd->used_red
			 : cap_of(nd->avail, nd->spec->map_slots) -
				    nd->used_map;
	} else {
		c = cap_of(nd->avail, nd->spec->cpus) - nd->used_cpus;
	}
	return c > 0 ? (int64_t) c : 0;
}

/* free_bits: bit n set while node n has a free unit of kind 0, so the
 * first-fit scan's start moves past full nodes a word at a time */
static void set_free_bit(struct sim_engine *e, uint32_t n, bool has_free)
{
	uint64_t bit = UINT64_C(1) << (n % 64);

	if (has_free)
		e->free_bits[n / 64] |= bit;
	else
		e->free_bits[n / 64] &= ~bit;
}

/* The first node from `from` on with a free unit of kind 0, or nnodes. */
static uint32_t next_free_node(const struct sim_engine *e, uint32_t from)
{
	uint32_t w = from / 64, nw = (e->nnodes + 63) / 64;
	uint64_t bits;

	if (from >= e->nnodes)
		return e->nnodes;
	bits = e->free_bits[w] & (~UINT64_C(0) << (from % 64));
	while (!bits) {
		if (++w >= nw)
			return e->nnodes;
		bits = e->free_bits[w];
	}
	return w * 64 + (uint32_t) __builtin_ctzll(bits);
}

static void recount_free(struct sim_engine *e)
{
	e->free_units[0] = e->free_units[1] = 0;
	e->first_free = e->nnodes;
	for (uint32_t n = 0; n < e->nnodes; n++) {
		int64_t f = node_free(e, n, 0);

		e->free_units[0] += f;
		set_free_bit(e, n, f > 0);
		if (f > 0 && e->first_free == e->nnodes)
			e->first_free = n;
		if (e->cs->mode == SIM_SLOTS_TYPED)
			e->free_units[1] += node_free(e, n, 1);
	}
}

/* Does a task of job j, phase p fit on node n now? */
static bool fits(const struct sim_engine *e, uint32_t n,
		 const struct sim_job *j, int p)
{
	const struct sim_node *nd = &e->nodes[n];
	const struct sim_phase_spec *ph = &j->spec->phase[p];

	if (e->cs->mode == SIM_SLOTS_TYPED)
		return p ? nd->used_red + 1 <=
				       cap_of(nd->avail, nd->spec->reduce_slots)
			 : nd->used_map + 1 <=
				       cap_of(nd->avail, nd->spec->map_slots);
	if (!(nd->spec->partitions & (UINT64_C(1) << j->spec->partition)))
		return false;
	if (nd->used_cpus + ph->cpus > cap_of(nd->avail, nd->spec->cpus))
		return false;
	if (nd->spec->mem && ph->mem &&
	    (double) (nd->used_mem + ph->mem) >
		    nd->avail * (double) nd->spec->mem + 1e-6)
		return false;
	if (nd->spec->io > 0 && ph->io > 0 &&
	    nd->used_io + ph->io > nd->avail * nd->spec->io + 1e-6)
		return false;
	return true;
}

/* Could a task of job j, phase p ever run on node n (empty, present
 * availability)? */
static bool could_fit(const struct sim_engine *e, uint32_t n,
		      const struct sim_job *j, int p)
{
	const struct sim_node *nd = &e->nodes[n];
	const struct sim_phase_spec *ph = &j->spec->phase[p];

	if (e->cs->mode == SIM_SLOTS_TYPED)
		return (p ? cap_of(nd->avail, nd->spec->reduce_slots)
			  : cap_of(nd->avail, nd->spec->map_slots)) >= 1;
	if (!(nd->spec->partitions & (UINT64_C(1) << j->spec->partition)))
		return false;
	return ph->cpus <= cap_of(nd->avail, nd->spec->cpus) &&
	       (!nd->spec->mem || !ph->mem ||
		(double) ph->mem <=
			nd->avail * (double) nd->spec->mem + 1e-6) &&
	       (!(nd->spec->io > 0) || !(ph->io > 0) ||
		ph->io <= nd->avail * nd->spec->io + 1e-6);
}

static uint32_t view_node(const struct sim_engine *e, uint32_t n, int p)
{
	return e->cs->mode == SIM_SLOTS_TYPED ? 2 * n + (uint32_t) p : n;
}

/* External load: the share f(t) of the nodes, taken whole from the end
 * of the node list (one node partly). */
static void apply_ext(struct sim_engine *e)
{
	double share = sim_series_at(&e->cs->ext, e->now);
	double held = share * e->nnodes;

	for (uint32_t n = 0; n < e->nnodes; n++) {
		double from_end = (double) (e->nnodes - 1 - n);
		double h = held - from_end;

		h = h < 0 ? 0 : (h > 1 ? 1 : h);
		e->nodes[n].avail = 1 - h;
	}
	recount_free(e);
}

static int startable_phase(const struct sim_job *j);

/* Keep the policies' view of what the plan does not manage current, as
 * the sched plugin's snapshot sees it: the external load's share and the
 * running tasks of jobs without deadlines in each node's cpus_other and
 * mem_other, the latter also as held capacity that Slurm expects back at
 * start + time limit; the partitions where such a job waits to start
 * (and those the cluster says stay so, sim_cluster_spec.other_waiting). */
static int update_view(struct sim_engine *e)
{
	bool typed = e->cs->mode == SIM_SLOTS_TYPED;
	int rc;

	e->view.nheld = 0;
	dl_partset_free(&e->view.other_waiting);
	if (e->cs->other_waiting &&
	    (rc = dl_partset_from_mask(&e->view.other_waiting,
				       e->cs->other_waiting)))
		return rc;
	for (uint32_t k = 0; k < e->nactive; k++) {
		const struct sim_job *j = &e->jobs[e->active[k]];
		int p = startable_phase(j);

		if (j->deadline > 0 || p < 0 || j->mode[p] == DL_PRIO_HELD)
			continue;
		if ((rc = dl_partset_add(&e->view.other_waiting,
					 typed && p == DL_REDUCE
						 ? e->part_reduce
						 : j->dj->partition)))
			return rc;
	}
	for (uint32_t n = 0; n < e->nnodes; n++) {
		const struct sim_node *nd = &e->nodes[n];
		double h = 1 - nd->avail;

		if (typed) {
			e->view.nodes[2 * n].cpus_other =
				(uint32_t) ceil(h * nd->spec->map_slots - 1e-6);
			e->view.nodes[2 * n + 1].cpus_other = (uint32_t) ceil(
				h * nd->spec->reduce_slots - 1e-6);
		} else {
			e->view.nodes[n].cpus_other =
				(uint32_t) ceil(h * nd->spec->cpus - 1e-6);
			e->view.nodes[n].mem_other = (uint64_t) ceil(
				h * (double) e->view.nodes[n].mem - 1e-6);
		}
		for (uint32_t k = 0; k < nd->nrun; k++) {
			const struct sim_ref *r = &nd->run[k];
			const struct sim_job *o = &e->jobs[r->job];
			const struct sim_task *t = &o->task[r->phase][r->task];
			uint32_t v = view_node(e, n, r->phase);
			uint32_t cpus = phase_cpus(e, o, r->phase);
			uint64_t mem = typed ? 0 : o->spec->phase[r->phase].mem;

			if (o->deadline > 0)
				continue;
			e->view.nodes[v].cpus_other += cpus;
			e->view.nodes[v].mem_other += mem;
			if ((rc = dl_cluster_add_held(
				     &e->view, v, cpus, mem,
				     t->start + o->time_limit[r->phase])))
				return rc;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ job setup */

/* ceil to whole minutes, at least one (Slurm's time limit granularity) */
static double minutes_up(double s)
{
	double m = ceil(s / 60 - 1e-9);

	return (m < 1 ? 1 : m) * 60;
}

static int draw_lengths(struct sim_engine *e, struct sim_job *j)
{
	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->spec->phase[p];
		struct sim_rng r;

		j->base[p] = malloc((ph->tasks ? ph->tasks : 1) *
				    sizeof(*j->base[p]));
		j->task[p] =
			calloc(ph->tasks ? ph->tasks : 1, sizeof(*j->task[p]));
		if (!j->base[p] || !j->task[p])
			return ENOMEM;
		sim_rng_init(&r, e->opt.seed, job_key(j->spec), (uint64_t) p,
			     1);
		for (uint32_t i = 0; i < ph->tasks; i++) {
			j->base[p][i] = ph->lengths
						? ph->lengths[i]
						: sim_dist_sample(&ph->len, &r);
			j->task[p][i].start = -1;
		}
		if (!e->cs->task_overhead_dist)
			continue;
		/* a stream of its own: the lengths above are the same with
		 * or without drawn overheads */
		j->overhead[p] = malloc((ph->tasks ? ph->tasks : 1) *
					sizeof(*j->overhead[p]));
		if (!j->overhead[p])
			return ENOMEM;
		sim_rng_init(&r, e->opt.seed, job_key(j->spec), (uint64_t) p,
			     2);
		for (uint32_t i = 0; i < ph->tasks; i++)
			j->overhead[p][i] =
				sim_dist_sample(e->cs->task_overhead_dist, &r);
	}
	return 0;
}

/* The time limit a user who knows the job would set: its longest task on
 * the slowest node reading remotely, rounded up to minutes. */
static void time_limits(struct sim_engine *e, struct sim_job *j)
{
	double slowest = INFINITY;

	for (uint32_t n = 0; n < e->nnodes; n++)
		if (e->cs->nodes[n].speed < slowest)
			slowest = e->cs->nodes[n].speed;
	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->spec->phase[p];
		double longest = 0;

		if (ph->time_limit > 0) {
			j->time_limit[p] = ph->time_limit;
			continue;
		}
		for (uint32_t i = 0; i < ph->tasks; i++)
			if (j->base[p][i] > longest)
				longest = j->base[p][i];
		longest /= slowest;
		if (p == DL_MAP && j->spec->remote_prob > 0)
			longest *= j->spec->remote_factor;
		j->time_limit[p] = minutes_up(longest);
	}
}

struct iso_slot {
	double free_at;
	uint32_t node;
};

static bool iso_before(const struct iso_slot *a, const struct iso_slot *b)
{
	if (a->free_at != b->free_at)
		return a->free_at < b->free_at;
	return a->node < b->node;
}

static void iso_sift(struct iso_slot *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && iso_before(&h[l], &h[m]))
			m = l;
		if (r < n && iso_before(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		struct iso_slot t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Tasks of phase p of job j that node nd runs at once on the empty
 * cluster (0 outside the job's partition). */
static uint64_t iso_node_slots(const struct sim_engine *e,
			       const struct sim_node_spec *nd,
			       const struct sim_job *j, int p)
{
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	uint64_t s;

	if (e->cs->mode == SIM_SLOTS_TYPED)
		return p ? nd->reduce_slots : nd->map_slots;
	if (!(nd->partitions & (UINT64_C(1) << j->spec->partition)))
		return 0;
	s = nd->cpus / ph->cpus;
	if (nd->mem && ph->mem && nd->mem / ph->mem < s)
		s = nd->mem / ph->mem;
	if (nd->io > 0 && ph->io > 0 && (uint64_t) (nd->io / ph->io) < s)
		s = (uint64_t) (nd->io / ph->io);
	return s;
}

/* Completion time of the job alone on the empty cluster: each task (in
 * order) on the slot that frees first, lowest node first; reduces after
 * the last map.  Returns a negative value when out of memory. */
static double isolated_time(struct sim_engine *e, struct sim_job *j)
{
	double t0 = 0, end = 0;

	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->spec->phase[p];
		struct iso_slot *h;
		uint64_t nslots = 0;
		uint32_t k = 0;

		if (!ph->tasks)
			continue;
		for (uint32_t n = 0; n < e->nnodes; n++) {
			uint64_t s = iso_node_slots(e, &e->cs->nodes[n], j, p);
			nslots += s < ph->tasks ? s : ph->tasks;
		}
		if (nslots > ph->tasks)
			nslots = ph->tasks;
		h = malloc((nslots ? nslots : 1) * sizeof(*h));
		if (!h)
			return -1;
		for (uint32_t n = 0; n < e->nnodes && k < nslots; n++) {
			uint64_t s = iso_node_slots(e, &e->cs->nodes[n], j, p);
			for (uint64_t x = 0; x < s && k < nslots; x++) {
				h[k].free_at = t0;
				h[k].node = n;
				k++;
			}
		}
		/* already a heap: equal times, increasing nodes */
		for (uint32_t i = 0; i < ph->tasks; i++) {
			double f = h[0].free_at +
				   sim_task_length(e, j->idx, p, i, h[0].node);

			if (f > end)
				end = f;
			h[0].free_at = f;
			iso_sift(h, k, 0);
		}
		free(h);
		t0 = end;
	}
	return end;
}

static void note(struct sim_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int sim_lengths_parse(const char *s)
{
	static const char *const names[] = {"spec", "perfect", "estimator",
					    "own", "limit"};

	for (int i = 0; s && i < (int) (sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

const char *sim_lengths_name(enum sim_lengths m)
{
	static const char *const names[] = {"spec", "perfect", "estimator",
					    "own", "limit"};

	return (unsigned) m < sizeof(names) / sizeof(names[0]) ? names[m]
							       : "unknown";
}

static int cmp_len(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The prior a --task-lengths mode gives a phase when the job is built
 * (the estimator's comes at arrival: on_arrival). */
static void lengths_prior(struct sim_engine *e, struct sim_job *j, int p,
			  struct dl_phase *dp)
{
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	double sum = 0, *v;

	if (!ph->tasks)
		return;
	switch (e->opt.lengths) {
	case SIM_LENGTHS_PERFECT:
		/* the tasks' true lengths as they run on a nominal node
		 * (overhead included, like the completions the policy sees) */
		v = malloc(ph->tasks * sizeof(*v));
		if (!v)
			return;
		for (uint32_t i = 0; i < ph->tasks; i++) {
			v[i] = j->base[p][i] + task_overhead(e, j, p, i);
			sum += v[i];
		}
		qsort(v, ph->tasks, sizeof(*v), cmp_len);
		dp->prior_mean = sum / ph->tasks;
		dp->prior_p90 = v[(size_t) floor(0.9 * (ph->tasks - 1))];
		if (dp->prior_p90 < dp->prior_mean)
			dp->prior_p90 = dp->prior_mean;
		dp->prior_exact = true;
		snprintf(dp->prior_source, sizeof(dp->prior_source), "perfect");
		free(v);
		break;
	case SIM_LENGTHS_LIMIT:
		dp->prior_mean = dp->prior_p90 = j->time_limit[p];
		snprintf(dp->prior_source, sizeof(dp->prior_source), "limit");
		break;
	default: /* own: nothing; estimator: at arrival */
		break;
	}
}

static const char *sim_user(const struct sim_job_spec *s)
{
	return s->user && s->user[0] ? s->user : "sim";
}

/* SIM_LENGTHS_ESTIMATOR: at submission, ask the history what the
 * sched plugin asks the daemon (dl_phase_use_prediction decides the same
 * way). */
static int estimator_prior(struct sim_engine *e, struct sim_job *j)
{
	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &j->spec->phase[p];
		struct dl_pred_query q = {
			.user = sim_user(j->spec),
			.name = j->spec->name ? j->spec->name : "",
			.phase = p,
			.tasks = ph->tasks,
			.input_bytes =
				ph->input_mb > 0 ? ph->input_mb * 1e6 : NAN,
		};
		struct dl_prediction out;
		int rc;

		if (!ph->tasks)
			continue;
		if (strlen(q.name) > DL_HIST_MAX_STR)
			q.name = "";
		rc = e->opt.est.predict(e->opt.est.ctx, &q, e->now, &out);
		if (rc == ENOMEM)
			return rc;
		if (!rc && dl_phase_use_prediction(&j->dj->phase[p], &out))
			note(e, "job %u %s: %s prior %.1fs (p90 %.1fs) from %s",
			     j->idx + 1, j->spec->name, p ? "reduce" : "map",
			     out.mean, out.p90,
			     dl_pred_source_name(out.source));
	}
	return 0;
}

/* SIM_LENGTHS_ESTIMATOR: a finished task into the history. */
static int estimator_observe(struct sim_engine *e, struct sim_job *j, int p,
			     const struct sim_task *t)
{
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	struct dl_task_rec r = {
		.job_id = j->idx + 1,
		.user = sim_user(j->spec),
		.name = j->spec->name ? j->spec->name : "",
		.phase = p,
		.start = t->start,
		.end = t->end,
		.input_bytes = ph->input_mb > 0 ? ph->input_mb * 1e6 : NAN,
		.cpu = NAN,
		.mem = NAN,
		.io = NAN,
		.task = -1,
	};

	if (strlen(r.name) > DL_HIST_MAX_STR)
		r.name = "";
	return e->opt.est.observe(e->opt.est.ctx, &r, e->now) == ENOMEM ? ENOMEM
									: 0;
}

static int make_dl_job(struct sim_engine *e, struct sim_job *j)
{
	const struct sim_job_spec *s = j->spec;
	struct dl_job *dj =
		dl_job_new(j->idx + 1, s->user, s->name, s->account);

	if (!dj)
		return ENOMEM;
	j->dj = dj;
	dj->reduce_id = s->phase[1].tasks ? REDUCE_ID_BASE + j->idx + 1 : 0;
	dj->submit = s->arrival;
	dj->reduce_cost = s->reduce_cost;
	dj->partition =
		e->cs->mode == SIM_SLOTS_TYPED ? e->part_map : s->partition;
	if (j->deadline > 0 && !j->hard)
		dj->soft_deadline = j->deadline;
	for (int p = 0; p < 2; p++) {
		const struct sim_phase_spec *ph = &s->phase[p];
		struct dl_phase *dp = &dj->phase[p];
		bool typed = e->cs->mode == SIM_SLOTS_TYPED;

		dl_phase_init(dj, (enum dl_phase_kind) p, ph->tasks,
			      typed ? 1 : ph->cpus, typed ? 0 : ph->mem);
		dp->time_limit = j->time_limit[p];
		dp->max_running = ph->max_running;
		/* tasks Slurm starts no earlier than their begin time, as
		 * sched/deadline's snapshot shows them (model.h) until
		 * on_begin */
		if (ph->deferred && ph->begin > s->arrival &&
		    ph->tasks > ph->nrunning) {
			dp->deferred = ph->deferred < ph->tasks - ph->nrunning
					       ? ph->deferred
					       : ph->tasks - ph->nrunning;
			dp->deferred_until = ph->begin;
		}
		if (j->hard && j->deadline > 0)
			dp->hard_deadline = j->deadline;
		if (e->opt.lengths != SIM_LENGTHS_SPEC) {
			lengths_prior(e, j, p, dp);
		} else if (ph->prior_mean > 0) {
			dp->prior_mean = ph->prior_mean;
			dp->prior_p90 = ph->prior_p90;
			snprintf(dp->prior_source, sizeof(dp->prior_source),
				 "history");
		} else if (e->opt.priors_from_dist && ph->tasks) {
			dp->prior_mean = sim_dist_mean(&ph->len);
			dp->prior_p90 = sim_dist_quantile(&ph->len, 0.9);
			snprintf(dp->prior_source, sizeof(dp->prior_source),
				 "profile");
		}
	}
	dj->profile.map.cpu = phase_cpus(e, j, 0);
	dj->profile.map.mem = (double) s->phase[0].mem;
	dj->profile.map.io = s->phase[0].io;
	dj->profile.reduce.cpu = phase_cpus(e, j, 1);
	dj->profile.reduce.mem = (double) s->phase[1].mem;
	dj->profile.reduce.io = s->phase[1].io;
	dj->profile.shuffle = dj->profile.reduce;
	dj->profile.given = true;
	return 0;
}

/* --------------------------------------------------------- run records */

static void mark_dirty(struct sim_engine *e, struct sim_job *j)
{
	if (!e->opt.timeline || j->dirty)
		return;
	j->dirty = true;
	e->dirty[e->ndirty++] = j->idx;
}

static void flush_timeline(struct sim_engine *e)
{
	for (uint32_t k = 0; k < e->ndirty; k++) {
		struct sim_job *j = &e->jobs[e->dirty[k]];

		fprintf(e->opt.timeline, "%.3f\t%u\t%s\t%u\t%u\n", e->now,
			j->idx + 1, j->spec->name, j->started[0] - j->ended[0],
			j->started[1] - j->ended[1]);
		j->dirty = false;
	}
	e->ndirty = 0;
}

static void note(struct sim_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct sim_engine *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->opt.log)
		return;
	fprintf(e->opt.log, "%12.3f ", e->now);
	va_start(ap, fmt);
	vfprintf(e->opt.log, fmt, ap);
	va_end(ap);
	fputc('\n', e->opt.log);
}

/* Why an unfinished job never started a task in a stall, in j->stall
 * (the log, stderr and the jobs CSV name it): a hold by the policy, the
 * policy's dispatcher rule, or the plan giving it nothing (a task no node
 * can hold is refused when the workload is read). */
static void stall_cause(struct sim_engine *e, struct sim_job *j)
{
	const int p = j->started[DL_MAP] < j->spec->phase[DL_MAP].tasks
			      ? DL_MAP
			      : DL_REDUCE;
	const char *phase = p == DL_MAP ? "map" : "reduce";

	if (j->in_plan && j->dec[p].manage && j->dec[p].hold)
		snprintf(j->stall, sizeof(j->stall), "held by policy %s (%s)",
			 e->policy->name,
			 j->dec[p].hold_reason[0] ? j->dec[p].hold_reason
						  : "no reason given");
	else if (e->policy->may_start &&
		 !e->policy->may_start(e->pstate, e, j->idx, p))
		snprintf(j->stall, sizeof(j->stall),
			 "policy %s's dispatcher never lets a %s task "
			 "start%s%.80s",
			 e->policy->name, phase, j->why[0] ? ": " : "", j->why);
	else
		snprintf(j->stall, sizeof(j->stall),
			 "policy %s gives its %s phase no task to start",
			 e->policy->name, phase);
}

static void name_stalls(struct sim_engine *e)
{
	for (uint32_t k = 0; k < e->nactive; k++) {
		struct sim_job *j = &e->jobs[e->active[k]];

		stall_cause(e, j);
		note(e, "stalled: job %u %s: %s", j->idx + 1, j->spec->name,
		     j->stall);
	}
}

static uint32_t pending(const struct sim_job *j, int p)
{
	return dl_phase_pending(&j->dj->phase[p]);
}

/* Pending tasks Slurm may start now: not those before their begin time */
static uint32_t startable_now(const struct sim_job *j, int p)
{
	const struct dl_phase *dp = &j->dj->phase[p];
	uint32_t n = dl_phase_pending(dp);

	return n > dp->deferred ? n - dp->deferred : 0;
}

/* Whether the plan manages the array of phase p (else it is Slurm's). */
static bool managed(const struct sim_job *j, int p)
{
	return j->in_plan && j->dec[p].manage;
}

static bool phase_over(const struct sim_job *j, int p)
{
	return dl_phase_finished(&j->dj->phase[p]);
}

/* The phase whose tasks may start now: maps, then reduces once every map
 * has ended successfully; -1 when nothing may start. */
static int startable_phase(const struct sim_job *j)
{
	if (!phase_over(j, DL_MAP))
		return pending(j, DL_MAP) ? DL_MAP : -1;
	if (j->dj->phase[DL_MAP].failed)
		return -1;
	return pending(j, DL_REDUCE) ? DL_REDUCE : -1;
}

static void fail_rest(struct sim_job *j, int p)
{
	struct dl_phase *dp = &j->dj->phase[p];

	while (dl_phase_pending(dp))
		if (dl_phase_add_failed(dp))
			break;
	dp->deferred = 0; /* at most the pending tasks (model.h) */
}

static void remove_active(struct sim_engine *e, struct sim_job *j)
{
	uint32_t pos = j->active_pos, last = e->active[--e->nactive];

	e->active[pos] = last;
	e->jobs[last].active_pos = pos;
}

/* The job is over when neither phase has tasks running or startable. */
static void maybe_complete(struct sim_engine *e, struct sim_job *j)
{
	const struct dl_phase *m = &j->dj->phase[DL_MAP];
	const struct dl_phase *r = &j->dj->phase[DL_REDUCE];

	if (j->state != SIM_JOB_ACTIVE)
		return;
	if (dl_phase_finished(m) && m->failed && r->tasks &&
	    !dl_phase_finished(r))
		fail_rest(j, DL_REDUCE); /* afterok never satisfied */
	if (!dl_phase_finished(m) || !dl_phase_finished(r))
		return;
	j->state = SIM_JOB_DONE;
	j->finish = e->now;
	remove_active(e, j);
	if (j->deadline > 0)
		note(e, "job %u %s finished %s its deadline (%+.1fs)",
		     j->idx + 1, j->spec->name,
		     sim_job_met(j) ? "within" : "after",
		     j->finish - j->deadline);
	if (e->policy->job_end)
		e->policy->job_end(e->pstate, e, j->idx);
}

static void cancel_phase(struct sim_engine *e, struct sim_job *j, int p)
{
	note(e,
	     "job %u %s: %u unstarted %s tasks cancelled (deadline %.1f, time "
	     "limit %.0fs)",
	     j->idx + 1, j->spec->name, pending(j, p), p ? "reduce" : "map",
	     j->deadline, j->time_limit[p]);
	j->cancelled = true;
	j->cancel_time = e->now;
	fail_rest(j, p);
	if (p == DL_MAP)
		fail_rest(j, DL_REDUCE);
	maybe_complete(e, j);
}

/* Slurm's deadline_ok(): cancel what can no longer start in time. */
static void check_hard(struct sim_engine *e, struct sim_job *j)
{
	int p;
	double tl;

	if (!j->hard || !(j->deadline > 0) || j->state != SIM_JOB_ACTIVE)
		return;
	p = startable_phase(j);
	if (p < 0)
		return;
	tl = j->time_limit[p] < 60 ? 60 : j->time_limit[p];
	if (e->now + tl > j->deadline + EPS)
		cancel_phase(e, j, p);
}

static void node_usage(struct sim_engine *e, uint32_t n,
		       const struct sim_job *j, int p, int sign)
{
	struct sim_node *nd = &e->nodes[n];
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	int64_t before0 = node_free(e, n, 0), before1 = node_free(e, n, 1);
	int64_t after0;

	if (e->cs->mode == SIM_SLOTS_TYPED) {
		if (p)
			nd->used_red += sign;
		else
			nd->used_map += sign;
	} else {
		nd->used_cpus += sign * (int32_t) ph->cpus;
		nd->used_mem += (uint64_t) ((int64_t) sign * (int64_t) ph->mem);
		nd->used_io += sign * ph->io;
		if (nd->used_io < 1e-9)
			nd->used_io = 0;
	}
	after0 = node_free(e, n, 0);
	e->free_units[0] += after0 - before0;
	if (e->cs->mode == SIM_SLOTS_TYPED)
		e->free_units[1] += node_free(e, n, 1) - before1;
	set_free_bit(e, n, after0 > 0);
	if (sign < 0 && n < e->first_free && after0 > 0)
		e->first_free = n;
	if (sign > 0 && n == e->first_free)
		e->first_free = next_free_node(e, n);
}

/* backfill reservation of the first job blocked by resources.  It is
 * worked out lazily (resv_resolve): only a later start can be refused by
 * it, and until one is tried nothing has changed since the job was
 * blocked, so the reservation is the one found at that moment.  When the
 * cluster is full, as it mostly is, no later start is tried at all. */
struct resv {
	bool active;
	bool wanted; /* asked for by job/phase, not yet worked out */
	struct sim_job *job;
	int want_phase;
	uint32_t node;
	int phase;
	double shadow;
	double spare_cpu, spare_mem, spare_io; /* beside it at shadow time */
};

static void resv_resolve(struct sim_engine *e, struct resv *rv);

/* The time left of task i of phase p of job j, drawn `len` long, that has
 * run `elapsed` seconds when the run starts: a draw of its length given
 * that it has not ended -- len - elapsed when the draw exceeds elapsed
 * (accepted), else the conditional log-normal at a level hashed from the
 * task (dl_remaining_at). */
static double remaining_of(const struct sim_engine *e, const struct sim_job *j,
			   int p, uint32_t i, double len, double elapsed)
{
	const struct sim_dist *d = &j->spec->phase[p].len;
	double u, mean;

	if (len > elapsed)
		return len - elapsed;
	u = sim_hash_unit(e->opt.seed, job_key(j->spec), (uint64_t) p, i,
			  0x72656d61ull /* "rema" */);
	if (u <= 0)
		u = 0.5;
	mean = sim_dist_mean(d);
	return dl_remaining_at(mean > 0 ? mean : len,
			       d->kind == SIM_DIST_CONST ? 0 : d->b, elapsed, u,
			       e->cfg.overdue_floor);
}

/* Start the next task of phase p of job j on node n.  elapsed > 0: a task
 * of a snapshot that has already run that long (it keeps its start). */
static int start_task(struct sim_engine *e, struct sim_job *j, int p,
		      uint32_t n, struct resv *rv, double elapsed)
{
	uint32_t i = j->started[p], running;
	struct sim_task *t = &j->task[p][i];
	struct sim_node *nd = &e->nodes[n];
	double len = sim_task_length(e, j->idx, p, i, n);
	int rc;

	if (elapsed > 0) {
		len = elapsed + remaining_of(e, j, p, i, len, elapsed);
		if (len > j->time_limit[p] + EPS)
			len = elapsed + EPS > j->time_limit[p]
				      ? elapsed + EPS
				      : j->time_limit[p];
	}
	rc = dl_phase_add_running(&j->dj->phase[p], e->now - elapsed,
				  view_node(e, n, p),
				  (enum dl_pool) nd->spec->pool);
	if (rc)
		return rc;
	if (nd->nrun == nd->caprun) {
		uint32_t c = nd->caprun ? nd->caprun * 2 : 16;
		void *q = realloc(nd->run, c * sizeof(*nd->run));

		if (!q)
			return ENOMEM;
		nd->run = q;
		nd->caprun = c;
	}
	j->started[p]++;
	if (len > j->time_limit[p] + EPS)
		len = j->time_limit[p]; /* killed at the limit: TIMEOUT */
	t->start = e->now - elapsed;
	t->end = t->start + len;
	t->node = n;
	t->slot = nd->nrun;
	nd->run[nd->nrun].job = j->idx;
	nd->run[nd->nrun].phase = (uint8_t) p;
	nd->run[nd->nrun].task = i;
	nd->nrun++;
	node_usage(e, n, j, p, +1);
	if (j->first_start < 0)
		j->first_start = t->start;
	running = j->started[0] - j->ended[0] + j->started[1] - j->ended[1];
	if (running > j->max_running)
		j->max_running = running;
	if (rv)
		resv_resolve(e, rv);
	if (rv && rv->active && n == rv->node &&
	    e->now + j->time_limit[p] > rv->shadow + EPS &&
	    (e->cs->mode != SIM_SLOTS_TYPED || p == rv->phase)) {
		rv->spare_cpu -= phase_cpus(e, j, p);
		rv->spare_mem -= (double) j->spec->phase[p].mem;
		rv->spare_io -= j->spec->phase[p].io;
	}
	mark_dirty(e, j);
	e->stats.task_starts++;
	return ev_push(e, t->end, EV_TASK_END, j->idx, (uint8_t) p, i);
}

/* Slurm without the plugin, its passes modelled: nothing calls Slurm's
 * scheduler but Slurm itself.  Slurm 22.05 starts the tasks of a busy
 * cluster in its background pass, which runs at most once per
 * batch_sched_delay (bench/results/replay-swim.md: the starts of the
 * sched/backfill replay fall on a 3 s grid). */
static bool slurm_passes(const struct sim_engine *e)
{
	return e->policy->slurm_only && e->cs->batch_sched_delay > 0;
}

static int schedule_dispatch(struct sim_engine *e)
{
	double at = e->now + e->cs->dispatch_latency;

	if (slurm_passes(e) && e->last_pass + e->cs->batch_sched_delay > at)
		at = e->last_pass + e->cs->batch_sched_delay;

	if (e->dispatch_at <= at)
		return 0;
	e->dispatch_at = at;
	return ev_push(e, at, EV_DISPATCH, 0, 0, 0);
}

static int schedule_replan(struct sim_engine *e)
{
	if (e->replan_pending)
		return 0;
	e->replan_pending = true;
	return ev_push(e, e->now + e->cfg.replan_delay, EV_REPLAN, 0, 0, 0);
}

static int end_task(struct sim_engine *e, uint32_t jx, int p, uint32_t i)
{
	struct sim_job *j = &e->jobs[jx];
	struct sim_task *t = &j->task[p][i];
	struct sim_node *nd = &e->nodes[t->node];
	struct dl_phase *dp = &j->dj->phase[p];
	uint32_t vn = view_node(e, t->node, p), last;
	double len = t->end - t->start;
	bool timed_out =
		sim_task_length(e, jx, p, i, t->node) > j->time_limit[p] + EPS;
	int rc;

	/* the node's running list */
	last = --nd->nrun;
	if (t->slot != last) {
		nd->run[t->slot] = nd->run[last];
		e->jobs[nd->run[t->slot].job]
			.task[nd->run[t->slot].phase][nd->run[t->slot].task]
			.slot = t->slot;
	}
	node_usage(e, t->node, j, p, -1);
	/* the core's running set: any entry with this start and node */
	for (uint32_t k = 0; k < dp->nrunning; k++)
		if (dp->running[k].start == t->start &&
		    dp->running[k].node == vn) {
			dp->running[k] = dp->running[--dp->nrunning];
			break;
		}
	rc = timed_out ? dl_phase_add_failed(dp)
		       : dl_phase_add_completed(dp, len,
						(enum dl_pool) nd->spec->pool);
	if (rc)
		return rc;
	if (e->use_estimator && !timed_out &&
	    (rc = estimator_observe(e, j, p, t)))
		return rc;
	if (timed_out)
		note(e, "job %u %s: %s task %u killed at its time limit %.0fs",
		     jx + 1, j->spec->name, p ? "reduce" : "map", i,
		     j->time_limit[p]);
	j->ended[p]++;
	j->unit_seconds += sim_task_units(e, jx, p) * len;
	if (p == DL_MAP && phase_over(j, DL_MAP) && j->map_end < 0)
		j->map_end = e->now;
	if (e->policy->task_end)
		e->policy->task_end(e->pstate, e, jx, p, i);
	mark_dirty(e, j);
	maybe_complete(e, j);
	if ((rc = schedule_dispatch(e)))
		return rc;
	return e->nactive && !slurm_passes(e) ? schedule_replan(e) : 0;
}

/* ------------------------------------------------------------- the plan */

/* Order of the arrays in a dispatch: urgent ones by rank, kept ones by
 * rank, Slurm's own by submission (priority/basic: oldest first), idle
 * ones by rank (the plugin's priorities, sched/deadline/apply.c). */
static int mode_group(int mode)
{
	switch (mode) {
	case DL_PRIO_URGENT:
		return 0;
	case DL_PRIO_KEEP:
		return 1;
	case DL_PRIO_IDLE:
		return 3;
	default:
		return 2;
	}
}

static int array_cmp(const void *pa, const void *pb, void *vctx)
{
	const struct sim_engine *e = vctx;
	uint32_t a = *(const uint32_t *) pa, b = *(const uint32_t *) pb;
	const struct sim_job *x = &e->jobs[a / 2], *y = &e->jobs[b / 2];
	int gx = x->mode[a % 2], gy = y->mode[b % 2];
	int kx = mode_group(gx), ky = mode_group(gy);

	if (kx != ky)
		return kx - ky;
	if (kx != 2 && x->dec[a % 2].rank != y->dec[b % 2].rank)
		return x->dec[a % 2].rank < y->dec[b % 2].rank ? -1 : 1;
	if (x->spec->arrival != y->spec->arrival)
		return x->spec->arrival < y->spec->arrival ? -1 : 1;
	return (a > b) - (a < b);
}

/* An array that can take part in dispatches: an admission policy's jobs
 * wait for the plan that has judged them (job_submit/deadline holds them
 * until the sched plugin's next cycle), held arrays wait. */
static bool dispatchable(const struct sim_engine *e, const struct sim_job *j,
			 int p)
{
	if (!j->spec->phase[p].tasks || j->state != SIM_JOB_ACTIVE)
		return false;
	if (e->policy->admission && j->deadline > 0 && !j->in_plan)
		return false;
	return j->mode[p] != DL_PRIO_HELD;
}

static void build_order(struct sim_engine *e)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < e->nactive; k++) {
		const struct sim_job *j = &e->jobs[e->active[k]];

		for (int p = 0; p < 2; p++)
			if (dispatchable(e, j, p))
				e->order[n++] = j->idx * 2 + (uint32_t) p;
	}
	qsort_r(e->order, n, sizeof(*e->order), array_cmp, e);
	e->norder = n;
	e->slurm_end = 0;
	while (e->slurm_end < n &&
	       e->jobs[e->order[e->slurm_end] / 2]
			       .mode[e->order[e->slurm_end] % 2] !=
		       DL_PRIO_IDLE)
		e->slurm_end++;
}

/* A job that arrives between plans is Slurm's until the next plan: its
 * arrays go after Slurm's others (the newest submission). */
static void order_arrival(struct sim_engine *e, const struct sim_job *j)
{
	for (int p = 0; p < 2; p++) {
		if (!dispatchable(e, j, p))
			continue;
		memmove(e->order + e->slurm_end + 1, e->order + e->slurm_end,
			(e->norder - e->slurm_end) * sizeof(*e->order));
		e->order[e->slurm_end++] = j->idx * 2 + (uint32_t) p;
		e->norder++;
	}
}

static int apply_plan(struct sim_engine *e, const struct dl_plan *plan)
{
	for (uint32_t k = 0; k < e->nactive; k++) {
		struct sim_job *j = &e->jobs[e->active[k]];

		j->in_plan = false;
		memset(j->dec, 0, sizeof(j->dec));
		j->mode[0] = j->mode[1] = DL_PRIO_NONE;
	}
	for (uint32_t k = 0; k < plan->njobs; k++) {
		const struct dl_plan_job *pj = &plan->jobs[k];
		struct dl_decision d[2];
		struct sim_job *j;
		uint32_t nd;

		if (!pj->job_id || pj->job_id > e->njobs)
			continue;
		j = &e->jobs[pj->job_id - 1];
		if (j->state != SIM_JOB_ACTIVE)
			continue;
		j->in_plan = true;
		j->plan_idx = k;
		nd = dl_decide(pj, d);
		for (uint32_t i = 0; i < nd; i++) {
			int p = d[i].phase;

			j->dec[p] = d[i];
			j->mode[p] = (uint8_t) dl_decide_prio(
				&d[i], j->started[p] - j->ended[p]);
		}
	}
	/* placement: enforced on the plan itself, with select/deadline's
	 * rule (pick_node) */
	e->plan_has_place = plan->nplace > 0;
	build_order(e);
	return 0;
}

static int plan_cycle(struct sim_engine *e, char *err, size_t errlen)
{
	struct dl_policy_input in;
	struct dl_plan *plan;
	struct timespec a, b;
	uint32_t n = 0;
	int rc;

	if (!e->nactive)
		return 0;
	if ((rc = update_view(e))) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	/* the plan sees the jobs with a deadline, as the sched plugin does;
	 * the others only hold capacity (update_view) */
	for (uint32_t k = 0; k < e->nactive; k++) {
		struct sim_job *j = &e->jobs[e->active[k]];

		if (!(j->deadline > 0))
			continue;
		if (e->cs->mode == SIM_SLOTS_TYPED)
			j->dj->partition = phase_over(j, DL_MAP)
						   ? e->part_reduce
						   : e->part_map;
		e->in_jobs[n++] = j->dj;
	}
	memset(&in, 0, sizeof(in));
	in.cluster = &e->view;
	in.jobs = e->in_jobs;
	in.njobs = n;
	in.cfg = &e->cfg;
	in.now = e->now;
	in.prev = e->plan ? e->plan : e->opt.prev;
	if (e->policy->forecast) {
		if ((rc = build_forecast(e))) {
			snprintf(err, errlen, "external load as a forecast: %s",
				 rc == ENOMEM
					 ? "out of memory"
					 : "node names not usable in a class");
			return rc;
		}
		in.forecast = e->forecast;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	plan = e->policy->plan(e->pstate, e->policy, e, &in, err, errlen);
	clock_gettime(CLOCK_MONOTONIC, &b);
	e->stats.plans++;
	e->stats.plan_us += (uint64_t) ((b.tv_sec - a.tv_sec) * 1000000 +
					(b.tv_nsec - a.tv_nsec) / 1000);
	if (!plan)
		return EINVAL;
	rc = apply_plan(e, plan);
	/* keep the plan: placement is enforced with the core's rule on it,
	 * as select/deadline does with the published plan */
	dl_place_index_free(&e->pidx);
	dl_plan_free(e->plan);
	e->plan = plan;
	if (!rc && plan->nplace)
		rc = dl_place_index_build(&e->pidx, plan);
	if (rc) {
		e->plan_has_place = false;
		snprintf(err, errlen, "%s",
			 rc == ENOMEM
				 ? "out of memory"
				 : "the plan's placement rows are invalid");
	}
	return rc;
}

/* ------------------------------------------------------------- dispatch */

/* A running task's end as Slurm expects it (start + time limit, not
 * before now) and what it gives back; pos keeps equal ends in the node's
 * running order, so the order (and the spare beside a reservation) does
 * not depend on the sort. */
struct shadow_end {
	double end, cpu, mem, io;
	uint32_t pos;
};

static int cmp_end(const void *a, const void *b)
{
	const struct shadow_end *x = a, *y = b;

	if (x->end != y->end)
		return (x->end > y->end) - (x->end < y->end);
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Earliest time a task of j/p fits on node n, from the running tasks'
 * time limits (what Slurm knows); +inf if never at this availability, or
 * when it cannot be earlier than `bound` (the caller's best so far).
 * spare_* receive what is left beside it then. */
static double shadow_on(struct sim_engine *e, uint32_t n,
			const struct sim_job *j, int p, double bound,
			double *spare)
{
	const struct sim_node *nd = &e->nodes[n];
	const struct sim_phase_spec *ph = &j->spec->phase[p];
	bool typed = e->cs->mode == SIM_SLOTS_TYPED;
	double cpu, mem, io, need_cpu = typed ? 1 : ph->cpus;
	double first = INFINITY;
	struct shadow_end *ends;
	uint32_t m = 0;
	double t = INFINITY;

	if (!could_fit(e, n, j, p))
		return INFINITY;
	if (typed) {
		cpu = cap_of(nd->avail,
			     p ? nd->spec->reduce_slots : nd->spec->map_slots) -
		      (p ? nd->used_red : nd->used_map);
		mem = io = INFINITY;
	} else {
		cpu = cap_of(nd->avail, nd->spec->cpus) - nd->used_cpus;
		mem = nd->spec->mem && ph->mem
			      ? nd->avail * (double) nd->spec->mem -
					(double) nd->used_mem
			      : INFINITY;
		io = nd->spec->io > 0 && ph->io > 0
			     ? nd->avail * nd->spec->io - nd->used_io
			     : INFINITY;
	}
	if (cpu >= need_cpu && mem >= (double) ph->mem && io >= ph->io) {
		spare[0] = cpu - need_cpu;
		spare[1] = mem - (double) ph->mem;
		spare[2] = io - ph->io;
		return e->now;
	}
	if (nd->nrun > e->capshadow) {
		void *q = realloc(e->shadow, nd->nrun * sizeof(*ends));

		if (!q)
			return INFINITY;
		e->shadow = q;
		e->capshadow = nd->nrun;
	}
	ends = e->shadow;
	for (uint32_t k = 0; k < nd->nrun; k++) {
		const struct sim_ref *r = &nd->run[k];
		const struct sim_job *o = &e->jobs[r->job];
		const struct sim_phase_spec *oph = &o->spec->phase[r->phase];
		double end = o->task[r->phase][r->task].start +
			     o->time_limit[r->phase];

		if (typed && r->phase != p)
			continue;
		ends[m].end = end > e->now ? end : e->now;
		ends[m].cpu = typed ? 1 : oph->cpus;
		ends[m].mem = (double) oph->mem;
		ends[m].io = oph->io;
		ends[m].pos = k;
		if (ends[m].end < first)
			first = ends[m].end;
		m++;
	}
	/* it fits no earlier than the first end: not better than bound */
	if (!(first < bound))
		return INFINITY;
	qsort(ends, m, sizeof(*ends), cmp_end);
	for (uint32_t k = 0; k < m && !isfinite(t); k++) {
		cpu += ends[k].cpu;
		mem += ends[k].mem;
		io += ends[k].io;
		if (cpu >= need_cpu - EPS && mem >= (double) ph->mem - EPS &&
		    io >= ph->io - EPS)
			t = ends[k].end;
	}
	if (isfinite(t)) {
		spare[0] = cpu - need_cpu;
		spare[1] = mem - (double) ph->mem;
		spare[2] = io - ph->io;
	}
	return t;
}

/* The reservation: the node where the task fits first (the lowest of
 * equal ones).  No node can be earlier than now, so the scan stops at a
 * node where it fits now. */
static void reserve(struct sim_engine *e, struct sim_job *j, int p,
		    struct resv *rv)
{
	double best = INFINITY, spare[3] = {0, 0, 0}, s[3] = {0, 0, 0};

	e->stats.reservations++;
	for (uint32_t n = 0; n < e->nnodes && best > e->now; n++) {
		double t;

		t = shadow_on(e, n, j, p, best, s);
		if (t < best) {
			best = t;
			rv->node = n;
			memcpy(spare, s, sizeof(spare));
		}
	}
	if (!isfinite(best))
		return;
	rv->active = true;
	rv->phase = p;
	rv->shadow = best;
	rv->spare_cpu = spare[0];
	rv->spare_mem = spare[1];
	rv->spare_io = spare[2];
}

static void resv_resolve(struct sim_engine *e, struct resv *rv)
{
	if (!rv->wanted)
		return;
	rv->wanted = false;
	reserve(e, rv->job, rv->want_phase, rv);
}

static bool respects(struct sim_engine *e, struct resv *rv,
		     const struct sim_job *j, int p, uint32_t n)
{
	resv_resolve(e, rv);
	if (!rv->active || n != rv->node)
		return true;
	if (e->cs->mode == SIM_SLOTS_TYPED && p != rv->phase)
		return true;
	if (e->now + j->time_limit[p] <= rv->shadow + EPS)
		return true; /* ends before the reserved start */
	return phase_cpus(e, j, p) <= rv->spare_cpu + EPS &&
	       (double) j->spec->phase[p].mem <= rv->spare_mem + EPS &&
	       j->spec->phase[p].io <= rv->spare_io + EPS;
}

enum pick { PICKED, NO_ROOM, PLAN_LIMIT };

/* What the plan's deadline tasks running on node n (the view node of
 * phase p in typed mode) use, in the plan's demands: select/deadline's
 * `used` for the capacity part of its rule. */
static void deadline_use(const struct sim_engine *e, uint32_t n, int p,
			 double used[3])
{
	const struct sim_node *nd = &e->nodes[n];

	used[0] = used[1] = used[2] = 0;
	for (uint32_t k = 0; k < nd->nrun; k++) {
		const struct sim_ref *r = &nd->run[k];
		const struct sim_job *o = &e->jobs[r->job];

		if (e->cs->mode == SIM_SLOTS_TYPED && r->phase != p)
			continue; /* the other view node */
		if (o->state != SIM_JOB_ACTIVE || !managed(o, r->phase))
			continue;
		dl_place_add_use(e->plan, o->plan_idx, r->phase, used);
	}
}

/* The simulated job of a plan job, or NULL. */
static const struct sim_job *plan_job_sim(const struct sim_engine *e,
					  uint32_t k)
{
	uint64_t id;

	if (!e->plan || k >= e->plan->njobs)
		return NULL;
	id = e->plan->jobs[k].job_id;
	return id && id <= e->njobs ? &e->jobs[id - 1] : NULL;
}

/* select/deadline's view of what runs now (dl_place_now), from the model:
 * tasks of plan job k, phase q, on plan node v ... */
static uint32_t now_here(void *ctx, uint32_t k, int q, uint32_t v)
{
	const struct sim_engine *e = ctx;
	const struct sim_job *o = plan_job_sim(e, k);
	bool typed = e->cs->mode == SIM_SLOTS_TYPED;
	uint32_t n = typed ? v / 2 : v, c = 0;

	if (!o || n >= e->nnodes || (typed && v % 2 != (uint32_t) q))
		return 0;
	for (uint32_t i = 0; i < e->nodes[n].nrun; i++)
		c += e->nodes[n].run[i].job == o->idx &&
		     e->nodes[n].run[i].phase == q;
	return c;
}

/* ... and anywhere, with whether a task waits (Slurm: the array still
 * has pending tasks, whatever its dependency) */
static uint32_t now_running(void *ctx, uint32_t k, int q, bool *waiting)
{
	const struct sim_engine *e = ctx;
	const struct sim_job *o = plan_job_sim(e, k);

	*waiting = o && o->state == SIM_JOB_ACTIVE && pending(o, q) > 0;
	return o ? o->started[q] - o->ended[q] : 0;
}

/* May a task of j/p start on node n: it fits there now, the plan's rule
 * allows it (managed arrays under a placement plan), and it respects the
 * backfill reservation.  *plan_limited: the rule refused a node with
 * room. */
static bool can_start_on(struct sim_engine *e, struct sim_job *j, int p,
			 struct resv *rv, uint32_t n, bool *plan_limited)
{
	if (!fits(e, n, j, p))
		return false;
	if (e->plan_has_place && managed(j, p)) {
		struct dl_place_now now = {now_here, now_running, e};
		double used[3];

		deadline_use(e, n, p, used);
		if (!dl_place_may_start(&e->pidx, j->plan_idx, p,
					view_node(e, n, p), &now, used)) {
			*plan_limited = true;
			return false;
		}
	}
	return respects(e, rv, j, p, n);
}

/* Nodes in Slurm's (or the TaskTracker heartbeats') order; a managed
 * array under a placement plan also passes select/deadline's rule (the
 * core's place_index: its planned concurrency, the node's capacity for
 * deadline tasks this cycle, the room owed to jobs of lower utility). */
static enum pick pick_node(struct sim_engine *e, struct sim_job *j, int p,
			   struct resv *rv, uint32_t *out)
{
	bool plan_limited = false;

	if (e->cs->order == SIM_ORDER_ROUND_ROBIN) {
		for (uint32_t k = 1; k <= e->nnodes; k++) {
			uint32_t n = (e->rr_cursor + k) % e->nnodes;

			if (can_start_on(e, j, p, rv, n, &plan_limited)) {
				e->rr_cursor = n;
				*out = n;
				return PICKED;
			}
		}
	} else {
		for (uint32_t n =
			     e->cs->mode == SIM_SLOTS_TYPED ? 0 : e->first_free;
		     n < e->nnodes; n++)
			if (can_start_on(e, j, p, rv, n, &plan_limited)) {
				*out = n;
				return PICKED;
			}
	}
	return plan_limited ? PLAN_LIMIT : NO_ROOM;
}

static int dispatch(struct sim_engine *e)
{
	struct resv rv = {0};
	bool typed = e->cs->mode == SIM_SLOTS_TYPED;
	int rc;

	e->stats.dispatches++;
	for (uint32_t k = 0; k < e->nactive;) {
		struct sim_job *j = &e->jobs[e->active[k]];
		uint32_t before = e->nactive;

		check_hard(e, j);
		if (e->nactive == before)
			k++; /* else the slot now holds another job */
	}
	for (uint32_t k = 0; k < e->norder; k++) {
		struct sim_job *j = &e->jobs[e->order[k] / 2];
		int p = (int) (e->order[k] % 2);
		uint32_t limit, running;

		if (!(typed ? e->free_units[0] || e->free_units[1]
			    : e->free_units[0] > 0))
			break; /* no task of any job can start */
		if (j->state != SIM_JOB_ACTIVE || startable_phase(j) != p)
			continue;
		limit = managed(j, p) ? j->dec[p].throttle : UINT32_MAX;
		/* Slurm holds every array to its own %N, whatever the plan */
		if (j->spec->phase[p].max_running &&
		    limit > j->spec->phase[p].max_running)
			limit = j->spec->phase[p].max_running;
		running = j->started[p] - j->ended[p];
		while (running < limit && startable_now(j, p)) {
			uint32_t n;
			enum pick got;

			if (typed && !e->free_units[p])
				break;
			if (e->policy->may_start &&
			    !e->policy->may_start(e->pstate, e, j->idx, p))
				break;
			got = pick_node(e, j, p, &rv, &n);
			if (got != PICKED) {
				/* an earlier job's reservation first (nothing
				 * started since it was asked for) */
				if (got == NO_ROOM)
					resv_resolve(e, &rv);
				if (got == NO_ROOM && !rv.active) {
					rv.wanted = true;
					rv.job = j;
					rv.want_phase = p;
				}
				break;
			}
			if ((rc = start_task(e, j, p, n, &rv, 0)))
				return rc;
			running++;
		}
	}
	return 0;
}

/* --------------------------------------------------------------- events */

static int ensure_ticking(struct sim_engine *e)
{
	double pi = e->cfg.plan_interval, next;

	if (e->ticking)
		return 0;
	e->ticking = true;
	next = (floor(e->now / pi) + 1) * pi;
	/* k x pi / pi may round below k (125 x 16.964294946164593 does):
	 * the next tick would be now again, and the run would plan at the
	 * same instant for ever */
	if (!(next > e->now))
		next = (floor(e->now / pi) + 2) * pi;
	return ev_push(e, next, EV_PLAN, 0, 0, 0);
}

static int on_arrival(struct sim_engine *e, uint32_t jx)
{
	struct sim_job *j = &e->jobs[jx];
	int rc;

	if (e->policy->admit &&
	    !e->policy->admit(e->pstate, e, jx, j->why, sizeof(j->why))) {
		j->state = SIM_JOB_REJECTED;
		note(e, "job %u %s rejected: %s", jx + 1, j->spec->name,
		     j->why);
		return 0;
	}
	if (e->use_estimator && (rc = estimator_prior(e, j)))
		return rc;
	j->state = SIM_JOB_ACTIVE;
	j->active_pos = e->nactive;
	e->active[e->nactive++] = jx;
	order_arrival(e, j);
	/* a snapshot's running tasks hold their nodes from the start */
	for (int p = 0; p < 2; p++)
		for (uint32_t k = 0; k < j->spec->phase[p].nrunning; k++)
			if ((rc = start_task(
				     e, j, p, j->spec->phase[p].running_node[k],
				     NULL,
				     j->spec->phase[p].running_elapsed[k])))
				return rc;
	if (j->hard && j->deadline > 0)
		for (int p = 0; p < 2; p++) {
			double tl =
				j->time_limit[p] < 60 ? 60 : j->time_limit[p];
			double at = j->deadline - tl;

			if (j->spec->phase[p].tasks &&
			    (rc = ev_push(e, at > e->now ? at + 1e-6 : e->now,
					  EV_DEADLINE, jx, (uint8_t) p, 0)))
				return rc;
		}
	for (int p = 0; p < 2; p++)
		if (j->dj->phase[p].deferred &&
		    (rc = ev_push(e, j->dj->phase[p].deferred_until, EV_BEGIN,
				  jx, (uint8_t) p, 0)))
			return rc;
	/* with the plugin, the plan that sees the job kicks Slurm's
	 * scheduler; without it, Slurm's own pass starts the job */
	if ((rc = slurm_passes(e) ? schedule_dispatch(e) : schedule_replan(e)))
		return rc;
	return ensure_ticking(e);
}

/* A phase's begin time has come: its tasks may start, and the plan, which
 * planned them from then, sees them pending as Slurm's snapshot would.
 * Slurm's own pass or the next plan starts them, as at an arrival. */
static int on_begin(struct sim_engine *e, uint32_t jx, int p)
{
	struct sim_job *j = &e->jobs[jx];
	struct dl_phase *dp = &j->dj->phase[p];

	if (j->state != SIM_JOB_ACTIVE || !dp->deferred)
		return 0;
	dp->deferred = 0;
	dp->deferred_until = 0;
	mark_dirty(e, j);
	return slurm_passes(e) ? schedule_dispatch(e) : schedule_replan(e);
}

static int on_ext(struct sim_engine *e)
{
	double next = sim_series_next_change(&e->cs->ext, e->now);

	apply_ext(e);
	if (isfinite(next) && next > e->now) {
		int rc = ev_push(e, next, EV_EXT, 0, 0, 0);

		if (rc)
			return rc;
	}
	return schedule_dispatch(e);
}

static double auto_horizon(const struct sim_engine *e)
{
	double last = 0, work = 0;

	for (uint32_t k = 0; k < e->njobs; k++) {
		const struct sim_job *j = &e->jobs[k];

		if (j->spec->arrival > last)
			last = j->spec->arrival;
		if (j->deadline > last)
			last = j->deadline;
		for (int p = 0; p < 2; p++)
			for (uint32_t i = 0; i < j->spec->phase[p].tasks; i++)
				work += j->base[p][i] *
					sim_task_units(e, k, p) *
					(p ? 1 : j->spec->remote_factor);
	}
	/* ten times the time the whole cluster needs for all the work,
	 * plus a month */
	return last +
	       10 * work / (double) (e->total_units ? e->total_units : 1) +
	       30 * 86400.0;
}

int sim_engine_run(struct sim_engine *e, char *err, size_t errlen)
{
	struct timespec a, b;
	double horizon = e->opt.horizon > 0 ? e->opt.horizon : auto_horizon(e);
	uint64_t starts_at_plan = 0;
	double idle_since = -1;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	while (e->nev) {
		struct sim_event ev;

		if (e->ev[0].t > horizon) {
			/* the run lasted to the horizon, whatever the time
			 * of its last event */
			e->now = horizon;
			break;
		}
		ev = ev_pop(e);
		e->now = ev.t;
		e->stats.events++;
		/* the budget is checked before every plan cycle (one may cost
		 * milliseconds) and every 256 events (reading the clock costs
		 * about as much as an event) */
		if (e->opt.stop_at > 0 &&
		    (ev.kind == EV_PLAN || ev.kind == EV_REPLAN ||
		     !(e->stats.events & 255)) &&
		    dl_monotonic_s() > e->opt.stop_at) {
			snprintf(err, errlen, "over the time budget");
			return ETIME;
		}
		switch (ev.kind) {
		case EV_TASK_END:
			rc = end_task(e, ev.job, ev.phase, ev.task);
			break;
		case EV_EXT:
			rc = on_ext(e);
			break;
		case EV_ARRIVAL:
			rc = on_arrival(e, ev.job);
			break;
		case EV_BEGIN:
			rc = on_begin(e, ev.job, ev.phase);
			break;
		case EV_DEADLINE:
			rc = schedule_dispatch(e);
			break;
		case EV_PLAN:
		case EV_REPLAN:
			if (ev.kind == EV_REPLAN)
				e->replan_pending = false;
			else
				e->ticking = false;
			rc = plan_cycle(e, err, errlen);
			if (!rc && !slurm_passes(e))
				rc = dispatch(e);
			if (!rc && ev.kind == EV_PLAN && e->nactive)
				rc = ensure_ticking(e);
			/* stall: nothing runs, nothing will arrive or end,
			 * and a simulated day of plans starts nothing (a
			 * policy may wait on purpose, but not for ever) */
			if (!rc && e->nactive && !e->progress_events &&
			    !e->cs->ext.n &&
			    e->stats.task_starts == starts_at_plan) {
				if (idle_since < 0)
					idle_since = e->now;
				if (e->now - idle_since >= STALL_AFTER) {
					e->stats.stalled = true;
					note(e,
					     "stalled: %u jobs can never start",
					     e->nactive);
					name_stalls(e);
					e->nev = 0;
				}
			} else {
				idle_since = -1;
			}
			starts_at_plan = e->stats.task_starts;
			break;
		case EV_DISPATCH:
			e->dispatch_at = INFINITY;
			e->last_pass = e->now;
			rc = dispatch(e);
			break;
		}
		if (rc) {
			if (!err[0])
				snprintf(err, errlen, "%s",
					 rc == ENOMEM ? "out of memory"
						      : strerror(rc));
			return rc;
		}
		if (e->opt.timeline && e->ndirty &&
		    (!e->nev || e->ev[0].t > e->now))
			flush_timeline(e);
	}
	for (uint32_t k = 0; k < e->nactive; k++) {
		struct sim_job *j = &e->jobs[e->active[k]];

		j->unfinished = true;
		j->state = SIM_JOB_DONE;
		j->finish = INFINITY;
	}
	e->nactive = 0;
	e->stats.end_time = e->now;
	clock_gettime(CLOCK_MONOTONIC, &b);
	e->stats.wall_s = (double) (b.tv_sec - a.tv_sec) +
			  (double) (b.tv_nsec - a.tv_nsec) / 1e9;
	return 0;
}

int sim_engine_fix_workload(const struct sim_engine *e,
			    struct sim_workload_spec *w)
{
	if (!e || !w || w->njobs != e->njobs)
		return EINVAL;
	for (uint32_t k = 0; k < w->njobs; k++) {
		struct sim_job_spec *js = &w->jobs[k];
		const struct sim_job *j = &e->jobs[k];

		for (int p = 0; p < 2; p++) {
			struct sim_phase_spec *ph = &js->phase[p];

			if (ph->tasks != j->spec->phase[p].tasks)
				return EINVAL;
			if (!ph->tasks)
				continue;
			if (!ph->lengths &&
			    !(ph->lengths =
				      malloc(ph->tasks * sizeof(*ph->lengths))))
				return ENOMEM;
			memcpy(ph->lengths, j->base[p],
			       ph->tasks * sizeof(*ph->lengths));
			ph->time_limit = j->time_limit[p];
		}
		js->deadline = j->deadline;
		js->deadline_factor = 0;
	}
	return 0;
}

/* ------------------------------------------------------------ lifecycle */

/* The forecast of the window a plan at `now` can look at: from now to the
 * latest goal of the active jobs plus a plan interval (reverse fitting
 * stops at the last deadline, placement looks one cycle ahead).  It is the
 * engine's own f(t), known in advance as the thesis assumes: one class of
 * every node with Share=nodes, the share of the nodes held whole from the
 * end of the list -- exactly what the engine applies.  Outside its samples
 * a non-periodic forecast holds its ends, so the plan is the one a forecast
 * of the whole series would give, at a fraction of the cost (the core
 * rebuilds A_r(t) over every sample on each cycle). */
static int build_forecast(struct sim_engine *e)
{
	const struct sim_series *x = &e->cs->ext;
	double step = x->step, t0, t1 = e->now + e->cfg.plan_interval;
	uint32_t ns;
	int rc;

	dl_forecast_free(e->forecast);
	e->forecast = NULL;
	if (!x->n)
		return 0;
	for (uint32_t k = 0; k < e->nactive; k++) {
		double d = e->jobs[e->active[k]].deadline;

		if (d + e->cfg.plan_interval > t1)
			t1 = d + e->cfg.plan_interval;
	}
	t0 = x->start + floor((e->now - x->start) / step) * step;
	ns = (uint32_t) fmin(ceil((t1 - t0) / step) + 1,
			     DL_FORECAST_MAX_SAMPLES);
	if (ns > e->fc_cap) {
		double *q = realloc(e->fc_load, ns * sizeof(*q));

		if (!q)
			return ENOMEM;
		e->fc_load = q;
		e->fc_cap = ns;
	}
	for (uint32_t i = 0; i < ns; i++)
		e->fc_load[i] = sim_series_at(x, t0 + (i + 0.5) * step);
	e->forecast = dl_forecast_new(t0, step, 0, ns);
	if (!e->forecast)
		return ENOMEM;
	rc = dl_forecast_add_class(e->forecast, "external", "*", 0, e->fc_load);
	if (!rc)
		rc = dl_forecast_set_whole_nodes(e->forecast, 0, true);
	if (rc) {
		dl_forecast_free(e->forecast);
		e->forecast = NULL;
	}
	return rc;
}

static int build_view(struct sim_engine *e, char *err, size_t errlen)
{
	const struct sim_cluster_spec *cs = e->cs;
	bool typed = cs->mode == SIM_SLOTS_TYPED;
	uint32_t nv = typed ? 2 * cs->nnodes : cs->nnodes;

	if (dl_cluster_init(&e->view, nv)) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	e->view.typed_slots = typed;
	if (typed) {
		e->part_map =
			(uint32_t) dl_cluster_add_partition(&e->view, "map");
		e->part_reduce =
			(uint32_t) dl_cluster_add_partition(&e->view, "reduce");
	} else {
		for (uint32_t k = 0; k < cs->npartitions; k++)
			if (dl_cluster_add_partition(&e->view,
						     cs->partitions[k]) < 0) {
				snprintf(err, errlen, "out of memory");
				return ENOMEM;
			}
	}
	for (uint32_t n = 0; n < cs->nnodes; n++) {
		const struct sim_node_spec *s = &cs->nodes[n];
		char name[300];

		if (typed) {
			snprintf(name, sizeof(name), "%s:map", s->name);
			if (dl_node_set(&e->view.nodes[2 * n], name,
					s->map_slots, 0, s->pool) ||
			    dl_partset_add(&e->view.nodes[2 * n].partitions,
					   (uint32_t) e->part_map))
				return ENOMEM;
			snprintf(name, sizeof(name), "%s:reduce", s->name);
			if (dl_node_set(&e->view.nodes[2 * n + 1], name,
					s->reduce_slots, 0, s->pool) ||
			    dl_partset_add(&e->view.nodes[2 * n + 1].partitions,
					   (uint32_t) e->part_reduce))
				return ENOMEM;
			e->total_units += s->map_slots + s->reduce_slots;
		} else {
			/* unconstrained memory: more than any task asks */
			if (dl_node_set(&e->view.nodes[n], s->name, s->cpus,
					s->mem ? s->mem : UINT64_C(1) << 40,
					s->pool) ||
			    dl_partset_from_mask(&e->view.nodes[n].partitions,
						 s->partitions))
				return ENOMEM;
			e->view.nodes[n].io = s->io;
			e->total_units += s->cpus;
		}
	}
	for (uint32_t v = 0; v < nv; v++)
		e->view.nodes[v].up = true;
	return 0;
}

struct sim_engine *sim_engine_new(const struct sim_cluster_spec *cs,
				  const struct sim_workload_spec *ws,
				  const struct sim_policy *policy,
				  const struct dl_config *cfg,
				  const struct sim_options *opt, char *err,
				  size_t errlen)
{
	struct sim_engine *e;

	if (!cs || !ws || !policy || !policy->plan || !cfg || !opt ||
	    !cs->nnodes) {
		snprintf(err, errlen,
			 "simulator needs a cluster, a workload and a policy");
		return NULL;
	}
	for (uint32_t j = 0; j < ws->njobs; j++) {
		const struct sim_job_spec *js = &ws->jobs[j];

		for (int p = 0; p < 2; p++) {
			const struct sim_phase_spec *ph = &js->phase[p];
			bool ok =
				ph->nrunning <= ph->tasks &&
				(!ph->nrunning || (p == 0 && ph->running_node &&
						   ph->running_elapsed));

			for (uint32_t k = 0; ok && k < ph->nrunning; k++)
				ok = ph->running_node[k] < cs->nnodes &&
				     isfinite(ph->running_elapsed[k]) &&
				     ph->running_elapsed[k] >= 0;
			if (!ok) {
				snprintf(err, errlen,
					 "job %u: running tasks of phase %d "
					 "not on a node, or more than its "
					 "tasks, or in a reduce phase",
					 j + 1, p);
				return NULL;
			}
		}
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	e->cs = cs;
	e->ws = ws;
	e->policy = policy;
	e->opt = *opt;
	e->dispatch_at = INFINITY;
	e->last_pass = -INFINITY;
	if (dl_config_copy(&e->cfg, cfg))
		goto oom;
	if (opt->lengths == SIM_LENGTHS_ESTIMATOR) {
		if (!opt->est.predict || !opt->est.observe) {
			snprintf(err, errlen,
				 "--task-lengths estimator needs an "
				 "estimator");
			sim_engine_free(e);
			return NULL;
		}
		e->use_estimator = true;
	}
	e->nnodes = cs->nnodes;
	e->nodes = calloc(cs->nnodes, sizeof(*e->nodes));
	e->njobs = ws->njobs;
	e->jobs = calloc(ws->njobs ? ws->njobs : 1, sizeof(*e->jobs));
	e->active = malloc((ws->njobs ? ws->njobs : 1) * sizeof(*e->active));
	e->order = malloc((ws->njobs ? 2 * ws->njobs : 1) * sizeof(*e->order));
	e->in_jobs = malloc((ws->njobs ? ws->njobs : 1) * sizeof(*e->in_jobs));
	e->dirty = malloc((ws->njobs ? ws->njobs : 1) * sizeof(*e->dirty));
	e->free_bits = calloc((cs->nnodes + 63) / 64, sizeof(*e->free_bits));
	if (!e->nodes || !e->jobs || !e->active || !e->order || !e->in_jobs ||
	    !e->dirty || !e->free_bits)
		goto oom;
	for (uint32_t n = 0; n < cs->nnodes; n++) {
		e->nodes[n].spec = &cs->nodes[n];
		e->nodes[n].avail = 1;
	}
	if (build_view(e, err, errlen)) {
		sim_engine_free(e);
		return NULL;
	}
	apply_ext(e);
	for (uint32_t k = 0; k < ws->njobs; k++) {
		struct sim_job *j = &e->jobs[k];

		j->spec = &ws->jobs[k];
		j->idx = k;
		j->first_start = j->map_end = j->held_since = -1;
		j->finish = -1;
		j->hard = j->spec->hard || policy->hard_deadlines;
		if (draw_lengths(e, j))
			goto oom;
		time_limits(e, j);
		j->isolated = isolated_time(e, j);
		if (j->isolated < 0)
			goto oom;
		/* a factor counts from when the job may start */
		j->deadline =
			j->spec->deadline_factor > 0
				? sim_job_release(j->spec) +
					  j->spec->deadline_factor * j->isolated
				: j->spec->deadline;
		if (make_dl_job(e, j))
			goto oom;
		if (ev_push(e, j->spec->arrival, EV_ARRIVAL, k, 0, 0))
			goto oom;
	}
	if (cs->ext.n) {
		double next = sim_series_next_change(&cs->ext, 0);

		if (isfinite(next) && ev_push(e, next, EV_EXT, 0, 0, 0))
			goto oom;
	}
	if (policy->typed_only && cs->mode != SIM_SLOTS_TYPED) {
		snprintf(err, errlen,
			 "the policy models Hadoop's map and reduce slots: "
			 "it needs a cluster with \"slots\": \"typed\"");
		sim_engine_free(e);
		return NULL;
	}
	if (policy->init && policy->init(policy, e, &e->pstate, err, errlen)) {
		sim_engine_free(e);
		return NULL;
	}
	return e;
oom:
	snprintf(err, errlen, "out of memory");
	sim_engine_free(e);
	return NULL;
}

void sim_engine_free(struct sim_engine *e)
{
	if (!e)
		return;
	if (e->policy && e->policy->fini && e->pstate)
		e->policy->fini(e->pstate);
	for (uint32_t k = 0; e->jobs && k < e->njobs; k++) {
		dl_job_free(e->jobs[k].dj);
		for (int p = 0; p < 2; p++) {
			free(e->jobs[k].base[p]);
			free(e->jobs[k].overhead[p]);
			free(e->jobs[k].task[p]);
		}
	}
	for (uint32_t n = 0; e->nodes && n < e->nnodes; n++)
		free(e->nodes[n].run);
	free(e->nodes);
	free(e->jobs);
	free(e->active);
	free(e->order);
	free(e->in_jobs);
	free(e->dirty);
	free(e->ev);
	free(e->shadow);
	free(e->free_bits);
	dl_place_index_free(&e->pidx);
	dl_plan_free(e->plan);
	dl_cluster_free(&e->view);
	dl_forecast_free(e->forecast);
	free(e->fc_load);
	dl_config_free(&e->cfg);
	free(e);
}
