/*
 * model.c - construction and invariants of jobs, phases and the cluster.
 */
#include "common/model/model.h"
#include "common/io/grow.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

struct dl_job *dl_job_new(uint64_t id, const char *user, const char *name,
			  const char *account)
{
	struct dl_job *job = calloc(1, sizeof(*job));

	if (!job)
		return NULL;
	job->id = id;
	job->user = dup_or_null(user);
	job->name = dup_or_null(name);
	job->account = dup_or_null(account);
	if ((user && !job->user) || (name && !job->name) ||
	    (account && !job->account)) {
		dl_job_free(job);
		return NULL;
	}
	return job;
}

void dl_job_free(struct dl_job *job)
{
	if (!job)
		return;
	for (int p = 0; p < DL_PHASES; p++)
		free(job->phase[p].running);
	free(job->user);
	free(job->name);
	free(job->account);
	free(job);
}

struct dl_job *dl_job_clone(const struct dl_job *job)
{
	struct dl_job *c;

	if (!job)
		return NULL;
	c = dl_job_new(job->id, job->user, job->name, job->account);
	if (!c)
		return NULL;
	char *user = c->user, *name = c->name, *account = c->account;
	*c = *job;
	c->user = user;
	c->name = name;
	c->account = account;
	for (int p = 0; p < DL_PHASES; p++) {
		struct dl_phase *ph = &c->phase[p];

		ph->running = NULL;
		ph->cap_running = 0;
		if (!job->phase[p].nrunning)
			continue;
		ph->running =
			malloc(job->phase[p].nrunning * sizeof(*ph->running));
		if (!ph->running) {
			ph->nrunning = 0;
			dl_job_free(c);
			return NULL;
		}
		memcpy(ph->running, job->phase[p].running,
		       job->phase[p].nrunning * sizeof(*ph->running));
		ph->cap_running = job->phase[p].nrunning;
	}
	return c;
}

int dl_phase_init(struct dl_job *job, enum dl_phase_kind kind, uint32_t tasks,
		  uint32_t cpus_per_task, uint64_t mem_per_task)
{
	if (!job || (kind != DL_MAP && kind != DL_REDUCE) ||
	    tasks > DL_MAX_TASKS)
		return EINVAL;
	struct dl_phase *ph = &job->phase[kind];

	free(ph->running);
	memset(ph, 0, sizeof(*ph));
	ph->tasks = tasks;
	ph->cpus_per_task = cpus_per_task ? cpus_per_task : 1;
	ph->mem_per_task = mem_per_task;
	return 0;
}

uint32_t dl_phase_done(const struct dl_phase *ph)
{
	return ph ? ph->completed : 0;
}

uint32_t dl_phase_pending(const struct dl_phase *ph)
{
	if (!ph)
		return 0;
	uint64_t started = (uint64_t) ph->completed + ph->failed + ph->nrunning;

	return started >= ph->tasks ? 0 : (uint32_t) (ph->tasks - started);
}

uint32_t dl_phase_width(const struct dl_phase *ph)
{
	uint64_t left;

	if (!ph)
		return 0;
	left = (uint64_t) dl_phase_pending(ph) + ph->nrunning;
	if (ph->max_running && left > ph->max_running)
		left = ph->max_running;
	return left > UINT32_MAX ? UINT32_MAX : (uint32_t) left;
}

uint32_t dl_phase_ending_by(const struct dl_phase *ph, double mu, double t)
{
	uint32_t n = 0;

	if (!ph || !(mu > 0) || !isfinite(mu) || !ph->running)
		return 0;
	for (uint32_t i = 0; i < ph->nrunning; i++)
		n += ph->running[i].start + mu <= t;
	return n;
}

bool dl_phase_finished(const struct dl_phase *ph)
{
	return !ph || (uint64_t) ph->completed + ph->failed >= ph->tasks;
}

int dl_phase_add_running(struct dl_phase *ph, double start, uint32_t node,
			 enum dl_pool pool)
{
	if (!ph || !isfinite(start) || start < 0 || (unsigned) pool >= DL_POOLS)
		return EINVAL;
	if ((uint64_t) ph->nrunning + ph->completed + ph->failed >= ph->tasks)
		return ERANGE;
	if (dl_grow(&ph->running, ph->nrunning, &ph->cap_running,
		    sizeof(*ph->running), 8))
		return ENOMEM;
	ph->running[ph->nrunning].start = start;
	ph->running[ph->nrunning].node = node;
	ph->running[ph->nrunning].pool = (uint8_t) pool;
	ph->nrunning++;
	return 0;
}

int dl_phase_add_completed(struct dl_phase *ph, double length,
			   enum dl_pool pool)
{
	if (!ph || !isfinite(length) || length < 0 ||
	    (unsigned) pool >= DL_POOLS)
		return EINVAL;
	if ((uint64_t) ph->completed + ph->failed + ph->nrunning >= ph->tasks)
		return ERANGE;
	ph->completed++;
	ph->done_pool[pool]++;
	ph->sum_len[pool] += length;
	ph->sumsq_len[pool] += length * length;
	return 0;
}

int dl_phase_add_failed(struct dl_phase *ph)
{
	if (!ph)
		return EINVAL;
	if ((uint64_t) ph->completed + ph->failed + ph->nrunning >= ph->tasks)
		return ERANGE;
	ph->failed++;
	return 0;
}

int dl_job_active_phase(const struct dl_job *job)
{
	if (!job)
		return -1;
	if (job->phase[DL_MAP].tasks && !dl_phase_finished(&job->phase[DL_MAP]))
		return DL_MAP;
	if (job->phase[DL_REDUCE].tasks &&
	    !dl_phase_finished(&job->phase[DL_REDUCE]))
		return DL_REDUCE;
	return -1;
}

uint32_t dl_job_held(const struct dl_job *job)
{
	return job ? job->phase[DL_MAP].held + job->phase[DL_REDUCE].held : 0;
}

/* Every unstarted task of the phase deferred past now: its begin time,
 * else 0. */
static double phase_begin_ahead(const struct dl_phase *ph, double now)
{
	uint32_t pending = dl_phase_pending(ph);

	if (!pending || ph->deferred < pending || !(ph->deferred_until > now))
		return 0;
	return ph->deferred_until;
}

double dl_job_begin_ahead(const struct dl_job *job, double now)
{
	double begin, other;
	int active = dl_job_active_phase(job);

	if (active < 0)
		return 0;
	for (int p = 0; p < DL_PHASES; p++)
		if (job->phase[p].nrunning || job->phase[p].completed ||
		    job->phase[p].failed)
			return 0;
	begin = phase_begin_ahead(&job->phase[active], now);
	if (begin > 0 && active == DL_MAP && job->reduce_overlap &&
	    job->phase[DL_REDUCE].tasks) {
		/* reduces that shuffle beside the maps start on their own */
		other = phase_begin_ahead(&job->phase[DL_REDUCE], now);
		begin = other > 0 ? fmin(begin, other) : 0;
	}
	return begin;
}

double dl_job_deadline(const struct dl_job *job)
{
	if (!job)
		return 0;
	if (job->soft_deadline > 0)
		return job->soft_deadline;
	if (job->phase[DL_REDUCE].tasks &&
	    job->phase[DL_REDUCE].hard_deadline > 0)
		return job->phase[DL_REDUCE].hard_deadline;
	return job->phase[DL_MAP].hard_deadline > 0
		       ? job->phase[DL_MAP].hard_deadline
		       : 0;
}

static bool bad_time(double t)
{
	return !isfinite(t) || t < 0;
}

int dl_job_validate(const struct dl_job *job, const struct dl_cluster *cl,
		    char *err, size_t errlen)
{
#define FAIL(...)                                                              \
	do {                                                                   \
		if (err && errlen)                                             \
			snprintf(err, errlen, __VA_ARGS__);                    \
		return EINVAL;                                                 \
	} while (0)

	if (!job)
		FAIL("no job");
	if (!job->phase[DL_MAP].tasks && !job->phase[DL_REDUCE].tasks)
		FAIL("job %llu has no tasks", (unsigned long long) job->id);
	if (bad_time(job->submit) || bad_time(job->soft_deadline))
		FAIL("job %llu has a negative or invalid time",
		     (unsigned long long) job->id);
	if (!isfinite(job->reduce_cost) || job->reduce_cost < 0)
		FAIL("job %llu: reduce cost ratio must be >= 0",
		     (unsigned long long) job->id);
	if (cl && cl->npartitions && job->partition >= cl->npartitions)
		FAIL("job %llu: unknown partition index %u",
		     (unsigned long long) job->id, job->partition);
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];
		uint64_t used =
			(uint64_t) ph->completed + ph->failed + ph->nrunning;

		if (ph->tasks > DL_MAX_TASKS || used > ph->tasks)
			FAIL("job %llu %s phase: %llu tasks accounted for but "
			     "only %u exist",
			     (unsigned long long) job->id,
			     p == DL_MAP ? "map" : "reduce",
			     (unsigned long long) used, ph->tasks);
		if (ph->held > dl_phase_pending(ph))
			FAIL("job %llu %s phase: %u tasks held but only %u "
			     "pending",
			     (unsigned long long) job->id,
			     p == DL_MAP ? "map" : "reduce", ph->held,
			     dl_phase_pending(ph));
		if (ph->deferred > dl_phase_pending(ph) ||
		    bad_time(ph->deferred_until))
			FAIL("job %llu %s phase: %u tasks deferred (only %u "
			     "pending) or an invalid begin time",
			     (unsigned long long) job->id,
			     p == DL_MAP ? "map" : "reduce", ph->deferred,
			     dl_phase_pending(ph));
		if (bad_time(ph->time_limit) || bad_time(ph->hard_deadline) ||
		    bad_time(ph->prior_mean) || bad_time(ph->prior_p90))
			FAIL("job %llu: negative or invalid phase time",
			     (unsigned long long) job->id);
		for (uint32_t i = 0; i < ph->nrunning; i++)
			if (bad_time(ph->running[i].start))
				FAIL("job %llu: running task with invalid "
				     "start",
				     (unsigned long long) job->id);
		for (int k = 0; k < DL_POOLS; k++)
			if (!isfinite(ph->sum_len[k]) || ph->sum_len[k] < 0)
				FAIL("job %llu: invalid task length sum",
				     (unsigned long long) job->id);
	}
	return 0;
#undef FAIL
}

int dl_cluster_init(struct dl_cluster *cl, uint32_t nnodes)
{
	if (!cl)
		return EINVAL;
	memset(cl, 0, sizeof(*cl));
	if (nnodes) {
		cl->nodes = calloc(nnodes, sizeof(*cl->nodes));
		if (!cl->nodes)
			return ENOMEM;
	}
	cl->nnodes = nnodes;
	return 0;
}

int dl_cluster_add_held(struct dl_cluster *cl, uint32_t node, uint32_t cpus,
			uint64_t mem, double end)
{
	if (!cl || node >= cl->nnodes || isnan(end))
		return EINVAL;
	if (cl->nheld == cl->capheld) {
		uint32_t n = cl->capheld ? cl->capheld * 2 : 64;
		struct dl_held *h = realloc(cl->held, n * sizeof(*h));

		if (!h)
			return ENOMEM;
		cl->held = h;
		cl->capheld = n;
	}
	cl->held[cl->nheld].node = node;
	cl->held[cl->nheld].cpus = cpus;
	cl->held[cl->nheld].mem = mem;
	cl->held[cl->nheld].end = end;
	cl->nheld++;
	return 0;
}

void dl_cluster_free(struct dl_cluster *cl)
{
	if (!cl)
		return;
	free(cl->held);
	for (uint32_t i = 0; i < cl->nnodes; i++) {
		free(cl->nodes[i].name);
		dl_partset_free(&cl->nodes[i].partitions);
	}
	free(cl->nodes);
	for (uint32_t i = 0; i < cl->npartitions; i++)
		free(cl->partitions[i]);
	free(cl->partitions);
	dl_partset_free(&cl->other_waiting);
	memset(cl, 0, sizeof(*cl));
}

int dl_cluster_view(struct dl_cluster *view, const struct dl_cluster *src)
{
	if (!view || !src || (src->nnodes && !src->nodes))
		return EINVAL;
	*view = *src;
	view->nodes = NULL;
	view->held = NULL;
	view->capheld = src->nheld;
	if (src->nnodes) {
		view->nodes = malloc(src->nnodes * sizeof(*view->nodes));
		if (!view->nodes)
			goto nomem;
		memcpy(view->nodes, src->nodes,
		       src->nnodes * sizeof(*view->nodes));
	}
	if (src->nheld) {
		view->held = malloc(src->nheld * sizeof(*view->held));
		if (!view->held)
			goto nomem;
		memcpy(view->held, src->held, src->nheld * sizeof(*view->held));
	}
	return 0;
nomem:
	dl_cluster_view_free(view);
	return ENOMEM;
}

void dl_cluster_view_free(struct dl_cluster *view)
{
	if (!view)
		return;
	free(view->nodes);
	free(view->held);
	memset(view, 0, sizeof(*view));
}

int dl_cluster_hold_running(struct dl_cluster *cl, const struct dl_job *job)
{
	if (!cl || !job || (cl->nnodes && !cl->nodes))
		return EINVAL;
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];
		uint32_t cpus = ph->cpus_per_task ? ph->cpus_per_task : 1;

		for (uint32_t i = 0; i < ph->nrunning; i++) {
			uint32_t node = ph->running[i].node;
			struct dl_node *n;

			if (node >= cl->nnodes)
				continue; /* not placed: nothing to hold */
			n = &cl->nodes[node];
			n->cpus_other = n->cpus_other > UINT32_MAX - cpus
						? UINT32_MAX
						: n->cpus_other + cpus;
			n->mem_other =
				n->mem_other > UINT64_MAX - ph->mem_per_task
					? UINT64_MAX
					: n->mem_other + ph->mem_per_task;
			if (ph->time_limit > 0) {
				int rc = dl_cluster_add_held(
					cl, node, cpus, ph->mem_per_task,
					ph->running[i].start + ph->time_limit);

				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

int dl_cluster_find_partition(const struct dl_cluster *cl, const char *name)
{
	if (!cl || !name)
		return -1;
	for (uint32_t i = 0; i < cl->npartitions; i++)
		if (!strcmp(cl->partitions[i], name))
			return (int) i;
	return -1;
}

int dl_cluster_add_partition(struct dl_cluster *cl, const char *name)
{
	int idx = dl_cluster_find_partition(cl, name);

	if (idx >= 0)
		return idx;
	if (!cl || !name || cl->npartitions == INT32_MAX)
		return -1;
	if (cl->npartitions == cl->cappartitions) {
		uint32_t cap = cl->cappartitions ? 2 * cl->cappartitions : 8;
		char **p = realloc(cl->partitions, cap * sizeof(*p));

		if (!p)
			return -1;
		cl->partitions = p;
		cl->cappartitions = cap;
	}
	cl->partitions[cl->npartitions] = strdup(name);
	if (!cl->partitions[cl->npartitions])
		return -1;
	return (int) cl->npartitions++;
}

int dl_node_set(struct dl_node *node, const char *name, uint32_t cpus,
		uint64_t mem, uint8_t pool)
{
	if (!node || pool >= DL_POOLS)
		return EINVAL;
	free(node->name);
	dl_partset_free(&node->partitions);
	memset(node, 0, sizeof(*node));
	node->name = dup_or_null(name);
	if (name && !node->name)
		return ENOMEM;
	node->cpus = cpus;
	node->mem = mem;
	node->pool = pool;
	node->up = true;
	return 0;
}

bool dl_mr_pair_allowed(uint32_t map_uid, uint32_t reduce_uid)
{
	return map_uid == reduce_uid;
}
