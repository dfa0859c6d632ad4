/*
 * snapshot.c - Slurm records -> the core's model.
 *
 * sdl_snapshot_take() runs under the slurmctld read locks and only copies:
 * two passes over job_list (which arrays are deadline arrays, then their
 * records and everybody else's resource use), the nodes and partitions.
 * Everything else here runs with no lock held.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "plugins/slurm_compat.h"

#include "common/realtime/realtime.h"
#include "common/io/utf8.h"
#include "sched_deadline.h"
#include "submit_hold.h"

/* ---- helpers on Slurm records (lock held) ---- */

static bool _has_soft_deadline(const job_record_t *job_ptr)
{
	/* slurmctld keeps the entries as sbatch set them ("DEADLINE_SOFT=");
	 * Slurm adds the "SPANK_" prefix only for prolog/epilog scripts */
	static const char key[] = DL_ENV_SOFT_DEADLINE "=";
	static const char prefix[] = DL_ENV_PREFIX;

	if (!job_ptr->spank_job_env)
		return false;
	for (uint32_t i = 0; i < job_ptr->spank_job_env_size; i++) {
		const char *e = job_ptr->spank_job_env[i];

		if (!e)
			continue;
		if (!strncmp(e, prefix, sizeof(prefix) - 1))
			e += sizeof(prefix) - 1;
		if (!strncmp(e, key, sizeof(key) - 1))
			return true;
	}
	return false;
}

static bool _has_deadline(const job_record_t *job_ptr)
{
	return (job_ptr->deadline && (job_ptr->deadline != NO_VAL)) ||
	       _has_soft_deadline(job_ptr);
}

/* afterok dependencies: on an array (a map array) or on a plain job */
static void _dependency(const job_record_t *job_ptr, uint32_t *dep_array,
			uint32_t *dep_other)
{
	list_itr_t *it;
	depend_spec_t *dep;

	*dep_array = *dep_other = 0;
	if (!job_ptr->details || !job_ptr->details->depend_list)
		return;
	it = list_iterator_create(job_ptr->details->depend_list);
	while ((dep = list_next(it))) {
		if (dep->depend_type != SLURM_DEPEND_AFTER_OK)
			continue;
		/* another user's array is a plain dependency, never the map
		 * phase of this one */
		if (dep->job_ptr && dep->job_ptr->array_job_id &&
		    (dep->array_task_id == INFINITE ||
		     dep->array_task_id == NO_VAL) &&
		    dl_mr_pair_allowed(dep->job_ptr->user_id,
				       job_ptr->user_id)) {
			if (!*dep_array)
				*dep_array = dep->job_ptr->array_job_id;
		} else if (dep->job_ptr && !dep->job_ptr->array_job_id) {
			if (!*dep_other)
				*dep_other = dep->job_id;
		}
	}
	list_iterator_destroy(it);
}

/* The array ids pass 1 collects, each once: every task record of an array
 * names it, and sorting a copy per record made the snapshot n log n in the
 * task records under the read locks.  Open addressing, grown at half
 * full; 0 is never an array id. */
struct _id_set {
	uint32_t *slot;
	uint32_t size, n;
};

static bool _id_set_add(struct _id_set *set, uint32_t id)
{
	uint32_t h;

	if (2 * (set->n + 1) > set->size) {
		struct _id_set big = {NULL, set->size ? 2 * set->size : 1024,
				      0};

		big.slot = xcalloc(big.size, sizeof(*big.slot));
		for (uint32_t i = 0; i < set->size; i++)
			if (set->slot[i])
				_id_set_add(&big, set->slot[i]);
		xfree(set->slot);
		*set = big;
	}
	for (h = (id * 2654435761u) & (set->size - 1); set->slot[h];
	     h = (h + 1) & (set->size - 1))
		if (set->slot[h] == id)
			return false;
	set->slot[h] = id;
	set->n++;
	return true;
}

static int _cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

static struct sdl_array *_find_array(const struct sdl_snapshot *s, uint32_t id)
{
	uint32_t lo = 0, hi = s->narrays;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (s->arrays[mid].id == id)
			return &s->arrays[mid];
		if (s->arrays[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

extern const struct sdl_array *sdl_snapshot_array(const struct sdl_snapshot *s,
						  uint32_t id)
{
	return s ? _find_array(s, id) : NULL;
}

static struct sdl_task *_add_task(struct sdl_snapshot *s, struct sdl_array *a,
				  uint32_t task_id, uint8_t kind, time_t start,
				  time_t end, uint32_t node)
{
	struct sdl_task *t;
	uint32_t k;

	if (s->ntasks == s->cap_tasks) {
		s->cap_tasks = s->cap_tasks ? s->cap_tasks * 2 : 256;
		xrecalloc(s->tasks, s->cap_tasks, sizeof(*s->tasks));
	}
	k = s->ntasks++;
	t = &s->tasks[k];
	t->array_id = a->id;
	t->task_id = task_id;
	t->kind = kind;
	t->start = start;
	t->end = end;
	t->node = node;
	t->next_running = SDL_NO_TASK;
	if (kind == SDL_TASK_RUNNING) {
		if (a->last_running == SDL_NO_TASK)
			a->first_running = k;
		else
			s->tasks[a->last_running].next_running = k;
		a->last_running = k;
	}
	return t;
}

/* What the task was given, for its usage record: the batch step's
 * measured usage does not outlive the step record in 22.05 (see
 * doc/ras-reverse.md), so requested CPUs and memory are what is left. */
static void _take_request(struct sdl_task *t, const job_record_t *job_ptr)
{
	const job_details_t *d = job_ptr->details;

	t->alloc_cpus = job_ptr->total_cpus != NO_VAL ? job_ptr->total_cpus : 0;
	t->nodes = job_ptr->node_cnt != NO_VAL ? job_ptr->node_cnt : 0;
	if (d && d->pn_min_memory && d->pn_min_memory != NO_VAL64) {
		t->mem_per_cpu = d->pn_min_memory & MEM_PER_CPU;
		t->mem = d->pn_min_memory & ~MEM_PER_CPU;
	}
}

static void _describe(struct sdl_array *a, const job_record_t *job_ptr)
{
	job_details_t *d = job_ptr->details;
	char err[256] = "";

	a->described = true;
	a->deadline = (job_ptr->deadline && job_ptr->deadline != NO_VAL)
			      ? job_ptr->deadline
			      : 0;
	a->submit = d ? d->submit_time : 0;
	a->uid = job_ptr->user_id;
	xfree(a->account);
	xfree(a->name);
	xfree(a->partition);
	a->account = xstrdup(job_ptr->account);
	a->name = xstrdup(job_ptr->name);
	a->partition = xstrdup(job_ptr->part_ptr ? job_ptr->part_ptr->name
						 : job_ptr->partition);
	/* alerts by mail (alert.c): what the job asked for */
	a->mail_type = job_ptr->mail_type;
	xfree(a->mail_user);
	a->mail_user = xstrdup(job_ptr->mail_user);
	a->cpus = (d && d->min_cpus && d->min_cpus != NO_VAL) ? d->min_cpus : 1;
	a->mem = 0;
	if (d && d->pn_min_memory && d->pn_min_memory != NO_VAL64) {
		if (d->pn_min_memory & MEM_PER_CPU)
			a->mem = (d->pn_min_memory & ~MEM_PER_CPU) * a->cpus;
		else
			a->mem = d->pn_min_memory;
	}
	/* the limit Slurm's deadline_ok() tests */
	if (job_ptr->time_min && job_ptr->time_min != NO_VAL)
		a->limit_min = job_ptr->time_min;
	else if (job_ptr->time_limit != NO_VAL &&
		 job_ptr->time_limit != INFINITE)
		a->limit_min = job_ptr->time_limit;
	else
		a->limit_min = 0;
	dl_hints_init(&a->hints);
	if (job_ptr->spank_job_env_size &&
	    dl_hints_from_env(job_ptr->spank_job_env,
			      job_ptr->spank_job_env_size, &a->hints, err,
			      sizeof(err))) {
		xfree(a->hints_err);
		a->hints_err = xstrdup(err);
	}
	/* the realtime admission ticket job_submit/deadline gave it */
	a->rt_ticket = dl_rt_ticket_from_env(job_ptr->spank_job_env,
					     job_ptr->spank_job_env_size);
	_dependency(job_ptr, &a->dep_array, &a->dep_other);
}

static void _other_use(struct sdl_snapshot *s, job_record_t *job_ptr);

/* A task record of array `a` that the plan counted completed. */
static bool _rerun_of_completed(const struct sdl_snapshot *s,
				const struct sdl_array *a,
				const job_record_t *job_ptr)
{
	return s->counted &&
	       dl_sstate_counted_completed(s->counted[a - s->arrays],
					   job_ptr->array_task_id);
}

/* A pending record of array `a` held by a user or an admin (scontrol hold
 * or uhold, sbatch --hold, a requeue hold): priority 0 that neither
 * job_submit/deadline's hold at submit nor the plan's own hold set, or
 * that someone asked to hold while one of those held it. */
static bool _held_outside(const struct sdl_snapshot *s,
			  const struct sdl_array *a,
			  const job_record_t *job_ptr)
{
	const struct dl_array_rec *r =
		s->counted ? s->counted[a - s->arrays] : NULL;

	if (!IS_JOB_PENDING(job_ptr) || job_ptr->priority)
		return false;
	if (sdl_hold_requested(job_ptr))
		return true;
	if (sdl_held_at_submit(job_ptr))
		return false;
	return !(r && r->prio_mode == DL_PRIO_HELD &&
		 job_ptr->state_reason == WAIT_HELD);
}

/* A pending record of array a standing for n unstarted tasks: counted held
 * or deferred when they cannot start now (a hold wins: the task waits for
 * its release, whatever its begin time). */
static void _count_waiting(struct sdl_snapshot *s, const struct sdl_array *a,
			   const job_record_t *job_ptr, uint32_t n)
{
	struct sdl_waiting *w;
	bool held = _held_outside(s, a, job_ptr);
	time_t begin = job_ptr->details ? job_ptr->details->begin_time : 0;

	if (!held && begin <= s->taken)
		return;
	if (!s->waiting)
		s->waiting = xcalloc(s->narrays, sizeof(*s->waiting));
	w = &s->waiting[a - s->arrays];
	if (held) {
		w->held += n;
		return;
	}
	w->deferred += n;
	if (begin > w->deferred_until)
		w->deferred_until = begin;
}

/* The record of one deadline array: head, pending rest or a task.  A task
 * counted completed that runs or waits again (scontrol requeue) is none of
 * the array's work (dl_sstate_rerun), but its CPUs are nobody's to plan
 * with: they count as another job's use. */
static void _take_record(struct sdl_snapshot *s, struct sdl_array *a,
			 job_record_t *job_ptr)
{
	job_array_struct_t *ar = job_ptr->array_recs;
	bool head = job_ptr->job_id == job_ptr->array_job_id;
	uint32_t node = DL_NO_NODE;

	if (head || !a->described) {
		_describe(a, job_ptr);
		a->head_seen |= head;
	}
	if (ar) {
		a->throttle = ar->max_run_tasks;
		a->throttle_seen = true;
		a->priority = job_ptr->priority;
		a->held = IS_JOB_PENDING(job_ptr) && !job_ptr->priority;
		/* job_submit/deadline's hold, not released yet */
		a->rt_held = sdl_held_at_submit(job_ptr);
	}
	if (ar && ar->task_cnt && job_ptr->array_task_id == NO_VAL) {
		/* the record holding the unstarted tasks */
		if (IS_JOB_PENDING(job_ptr)) {
			a->pending += ar->task_cnt;
			_count_waiting(s, a, job_ptr, ar->task_cnt);
		} else if (IS_JOB_FINISHED(job_ptr) && ar->task_id_bitmap) {
			/* the unstarted rest ended (Slurm's deadline
			 * cancellation, scancel): each task failed */
			int64_t n = bit_size(ar->task_id_bitmap);

			for (int64_t i = 0; i < n; i++)
				if (bit_test(ar->task_id_bitmap, i))
					_add_task(s, a, (uint32_t) i,
						  SDL_TASK_DONE_FAIL,
						  job_ptr->end_time,
						  job_ptr->end_time,
						  DL_NO_NODE);
		}
		return;
	}
	if (job_ptr->array_task_id == NO_VAL)
		return;
	if (IS_JOB_PENDING(job_ptr)) {
		if (_rerun_of_completed(s, a, job_ptr))
			_other_use(s, job_ptr);
		else
			_count_waiting(s, a, job_ptr, 1);
		a->pending++; /* requeued, or split off the pending record */
		_add_task(s, a, job_ptr->array_task_id, SDL_TASK_PENDING, 0, 0,
			  DL_NO_NODE);
		return;
	}
	a->ntasks_rec++;
	if (job_ptr->node_bitmap) {
		bitoff_t first = bit_ffs(job_ptr->node_bitmap);

		if (first >= 0)
			node = (uint32_t) first;
	}
	if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) {
		if (_rerun_of_completed(s, a, job_ptr))
			_other_use(s, job_ptr);
		_add_task(s, a, job_ptr->array_task_id, SDL_TASK_RUNNING,
			  job_ptr->start_time, 0, node);
	} else if (IS_JOB_COMPLETE(job_ptr))
		_take_request(_add_task(s, a, job_ptr->array_task_id,
					SDL_TASK_DONE_OK, job_ptr->start_time,
					job_ptr->end_time, node),
			      job_ptr);
	else
		_add_task(s, a, job_ptr->array_task_id, SDL_TASK_DONE_FAIL,
			  job_ptr->start_time, job_ptr->end_time, node);
}

/* Partition `part_ptr` has a job without a deadline waiting to start.
 * Found by pointer among the partitions taken, the last one first: most
 * pending jobs share a few partitions, and this runs under the lock once
 * per pending job. */
static void _other_waits_in(struct sdl_snapshot *s, part_record_t *part_ptr)
{
	int idx = -1;

	/* a partition that starts no job (State=DOWN or INACTIVE) keeps its
	 * pending jobs from the CPUs whatever frees */
	if (!part_ptr || !s->part_ptrs ||
	    !(part_ptr->state_up & PARTITION_SCHED))
		return;
	if (part_ptr == s->last_part) {
		idx = s->last_idx;
	} else {
		for (uint32_t p = 0; p < s->cl.npartitions && idx < 0; p++)
			if (s->part_ptrs[p] == part_ptr)
				idx = (int) p;
		s->last_part = part_ptr;
		s->last_idx = idx;
	}
	if (idx >= 0 && dl_partset_add(&s->cl.other_waiting, (uint32_t) idx))
		error("%s: out of memory noting a job waiting in partition %s",
		      SDL_PREFIX, part_ptr->name ? part_ptr->name : "?");
}

/* A pending job without a deadline that Slurm may start as soon as CPUs
 * are free: not held, not waiting for a dependency or its begin time. */
static bool _other_may_start(const struct sdl_snapshot *s,
			     const job_record_t *job_ptr)
{
	if (!job_ptr->priority || job_ptr->state_reason == WAIT_HELD ||
	    job_ptr->state_reason == WAIT_HELD_USER ||
	    job_ptr->state_reason == WAIT_DEPENDENCY ||
	    job_ptr->state_reason == WAIT_DEP_INVALID)
		return false;
	return !job_ptr->details || !job_ptr->details->begin_time ||
	       job_ptr->details->begin_time <= s->taken;
}

/* Work the plan does not manage: its CPUs and memory are not ours; if it
 * waits to start, the partitions it waits in (dl_cluster.other_waiting). */
static void _other_use(struct sdl_snapshot *s, job_record_t *job_ptr)
{
	job_resources_t *jr = job_ptr->job_resrcs;
	int k = 0;

	if (IS_JOB_PENDING(job_ptr)) {
		if (!_other_may_start(s, job_ptr))
			return;
		if (job_ptr->part_ptr_list) {
			list_itr_t *it =
				list_iterator_create(job_ptr->part_ptr_list);
			part_record_t *part_ptr;

			while ((part_ptr = list_next(it)))
				_other_waits_in(s, part_ptr);
			list_iterator_destroy(it);
		} else {
			_other_waits_in(s, job_ptr->part_ptr);
		}
		return;
	}
	if (!(IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr) ||
	      IS_JOB_COMPLETING(job_ptr)) ||
	    !jr || !jr->node_bitmap)
		return;
	for (int64_t i = 0; i < bit_size(jr->node_bitmap); i++) {
		if (!bit_test(jr->node_bitmap, i))
			continue;
		if ((uint32_t) i < s->cl.nnodes) {
			struct dl_node *n = &s->cl.nodes[i];
			uint32_t cpus = jr->cpus ? jr->cpus[k] : 0;
			uint64_t mem = jr->memory_allocated
					       ? jr->memory_allocated[k]
					       : 0;

			n->cpus_other += cpus;
			n->mem_other += mem;
			/* back when Slurm expects the job to end (start +
			 * time limit); none known: held for good */
			if (job_ptr->end_time > job_ptr->start_time &&
			    job_ptr->end_time != (time_t) INFINITE)
				dl_cluster_add_held(&s->cl, (uint32_t) i, cpus,
						    mem,
						    (double) job_ptr->end_time);
		}
		k++;
	}
}

static bool _has_feature(const char *features, const char *want)
{
	char *copy, *tok, *save = NULL;
	bool found = false;

	if (!features || !want || !*want)
		return false;
	copy = xstrdup(features);
	for (tok = strtok_r(copy, ",", &save); tok && !found;
	     tok = strtok_r(NULL, ",", &save))
		found = !xstrcmp(tok, want);
	xfree(copy);
	return found;
}

static void _take_cluster(struct sdl_snapshot *s, const struct dl_config *cfg)
{
	list_itr_t *it;
	part_record_t *part_ptr;
	node_record_t *node_ptr;
	int i, nparts;

	dl_cluster_init(&s->cl, node_record_count);
	for (i = 0; (node_ptr = next_node(&i)); i++) {
		bool accel = _has_feature(node_ptr->features_act
						  ? node_ptr->features_act
						  : node_ptr->features,
					  cfg->accel_feature);

		if (node_ptr->index >= (uint32_t) node_record_count)
			continue;
		dl_node_set(&s->cl.nodes[node_ptr->index], node_ptr->name,
			    node_ptr->cpus, node_ptr->real_memory,
			    accel ? DL_POOL_ACCEL : DL_POOL_REGULAR);
		/* a node slurmctld has not heard from since its start counts
		 * as up, so a restart does not zero the capacity */
		s->cl.nodes[node_ptr->index].up =
			!IS_NODE_DOWN(node_ptr) && !IS_NODE_DRAIN(node_ptr) &&
			!IS_NODE_FAIL(node_ptr) && !IS_NODE_FUTURE(node_ptr) &&
			!IS_NODE_NO_RESPOND(node_ptr) &&
			!IS_NODE_POWERED_DOWN(node_ptr);
	}
	/* every partition, however many (model/partset.h) */
	nparts = list_count(part_list);
	s->part_ptrs = xcalloc(nparts > 0 ? nparts : 1, sizeof(*s->part_ptrs));
	s->last_idx = -1;
	it = list_iterator_create(part_list);
	while ((part_ptr = list_next(it))) {
		int idx = dl_cluster_add_partition(&s->cl, part_ptr->name);

		if (idx >= 0 && idx < nparts)
			s->part_ptrs[idx] = part_ptr;
		if (idx < 0) {
			error("%s: out of memory describing partition %s: its "
			      "jobs are not planned this cycle",
			      SDL_PREFIX, part_ptr->name);
			continue;
		}
		if (!part_ptr->node_bitmap)
			continue;
		for (i = 0; i < node_record_count; i++)
			if (bit_test(part_ptr->node_bitmap, i) &&
			    dl_partset_add(&s->cl.nodes[i].partitions,
					   (uint32_t) idx))
				error("%s: out of memory describing partition "
				      "%s",
				      SDL_PREFIX, part_ptr->name);
	}
	list_iterator_destroy(it);
}

/* Whether JobSubmitPlugins ("lua,deadline", "job_submit/deadline") names
 * job_submit/deadline. */
static bool _job_submit_marks(const char *plugins)
{
	char *list = xstrdup(plugins), *save = NULL, *tok;
	bool ours = false;

	for (tok = list ? strtok_r(list, ",", &save) : NULL; tok && !ours;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		if (!xstrncmp(tok, "job_submit/", strlen("job_submit/")))
			tok += strlen("job_submit/");
		ours = !xstrcmp(tok, "deadline");
	}
	xfree(list);
	return ours;
}

extern int sdl_snapshot_take(struct sdl_snapshot *s, const struct dl_sstate *st,
			     const struct dl_config *cfg)
{
	uint32_t *ids = NULL, nids = 0, cap = 0, *maps = NULL, nmaps = 0,
		 capm = 0;
	struct _id_set seen = {NULL, 0, 0};
	list_itr_t *it;
	job_record_t *job_ptr;

	memset(s, 0, sizeof(*s));
	s->taken = time(NULL);
	s->ctld_boot = slurmctld_config.boot_time;
	s->job_update = last_job_update;
	s->mail_prog = xstrdup(slurm_conf.mail_prog); /* conf read lock */
	s->marks_only = _job_submit_marks(slurm_conf.job_submit_plugins);
	_take_cluster(s, cfg);
	if (!job_list) {
		xfree(s->part_ptrs);
		return SLURM_SUCCESS;
	}

	/* pass 1: the deadline arrays, and the map arrays they wait for */
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		uint32_t aid = job_ptr->array_job_id;
		uint32_t dep_a, dep_o;

		if (!aid)
			continue;
		if (!_has_deadline(job_ptr) && !dl_sstate_find(st, aid))
			continue;
		if (_id_set_add(&seen, aid)) {
			if (nids == cap) {
				cap = cap ? cap * 2 : 64;
				xrecalloc(ids, cap, sizeof(*ids));
			}
			ids[nids++] = aid;
		}
		if (job_ptr->job_id != aid)
			continue;
		_dependency(job_ptr, &dep_a, &dep_o);
		if (dep_a) {
			if (nmaps == capm) {
				capm = capm ? capm * 2 : 16;
				xrecalloc(maps, capm, sizeof(*maps));
			}
			maps[nmaps++] = dep_a;
		}
	}
	list_iterator_destroy(it);
	xfree(seen.slot);
	if (nmaps) {
		xrecalloc(ids, nids + nmaps, sizeof(*ids));
		memcpy(ids + nids, maps, nmaps * sizeof(*maps));
		nids += nmaps;
	}
	xfree(maps);
	if (nids) {
		uint32_t u = 0;

		qsort(ids, nids, sizeof(*ids), _cmp_u32);
		for (uint32_t k = 0; k < nids; k++)
			if (!u || ids[u - 1] != ids[k])
				ids[u++] = ids[k];
		nids = u;
		s->arrays = xcalloc(nids, sizeof(*s->arrays));
		for (uint32_t k = 0; k < nids; k++) {
			s->arrays[k].id = ids[k];
			s->arrays[k].first_running = SDL_NO_TASK;
			s->arrays[k].last_running = SDL_NO_TASK;
		}
		s->narrays = nids;
		s->counted = xcalloc(nids, sizeof(*s->counted));
		for (uint32_t k = 0; k < nids; k++)
			s->counted[k] = dl_sstate_find(st, ids[k]);
	}
	xfree(ids);

	/* pass 2: their records; everybody else's resource use */
	it = list_iterator_create(job_list);
	while ((job_ptr = list_next(it))) {
		struct sdl_array *a =
			job_ptr->array_job_id
				? _find_array(s, job_ptr->array_job_id)
				: NULL;

		if (a) {
			_take_record(s, a, job_ptr);
			continue;
		}
		/* a job urgent arrays are set above (not a rerun of a
		 * task: its priority may be one the plan set, which would
		 * raise the bar at every cycle) */
		if (IS_JOB_PENDING(job_ptr) &&
		    job_ptr->priority > s->max_other_prio &&
		    job_ptr->priority != INFINITE)
			s->max_other_prio = job_ptr->priority;
		_other_use(s, job_ptr);
	}
	list_iterator_destroy(it);
	xfree(s->counted);
	/* Slurm's records: not to be followed once the lock is gone */
	xfree(s->part_ptrs);
	s->last_part = NULL;
	return SLURM_SUCCESS;
}

extern void sdl_snapshot_free(struct sdl_snapshot *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->narrays; i++) {
		xfree(s->arrays[i].account);
		xfree(s->arrays[i].name);
		xfree(s->arrays[i].partition);
		xfree(s->arrays[i].hints_err);
		xfree(s->arrays[i].mail_user);
	}
	xfree(s->arrays);
	xfree(s->tasks);
	xfree(s->mail_prog);
	xfree(s->part_ptrs);
	xfree(s->counted);
	xfree(s->waiting);
	dl_cluster_free(&s->cl);
	memset(s, 0, sizeof(*s));
}

/* ---- no lock held from here ---- */

static uint64_t _mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

/* Names from Slurm are the user's bytes: cut at a character boundary and
 * made valid UTF-8, as everything the plugin saves and sends must be. */
static void _copy(char *dst, size_t len, const char *src)
{
	dl_utf8_copy(dst, len, src);
}

/* The usage record of a finished task: the core picks the source. */
static void _task_usage(const struct sdl_task *t, const struct dl_array_rec *r,
			struct dl_demand *use, enum dl_usage_source *src)
{
	struct dl_usage_in in = {
		.elapsed = difftime(t->end, t->start),
		.has_measured = false,
		.cpu_seconds = NAN,
		.max_rss = NAN,
		.io_bytes = NAN,
		.has_declared = r->has_profile,
		.declared = r->profile,
		.alloc_cpus = t->alloc_cpus,
		.nodes = t->nodes,
		.mem = t->mem,
		.mem_per_cpu = t->mem_per_cpu,
	};

	dl_usage_profile(&in, use, src);
}

/* A completed task that started before this slurmctld did and whose end
 * it recorded within SDL_RESTART_REPORT_WINDOW of starting: the task may
 * have ended while no slurmctld was up, up to the window earlier.  (An end
 * before the start was recorded live by the previous slurmctld.) */
static bool _end_heard_late(const struct sdl_snapshot *s,
			    const struct sdl_task *t)
{
	return s->ctld_boot > 0 && t->start < s->ctld_boot &&
	       t->end >= s->ctld_boot &&
	       t->end <= s->ctld_boot + SDL_RESTART_REPORT_WINDOW;
}

extern void sdl_user_throttle_set(struct dl_array_rec *r, uint32_t id,
				  uint32_t throttle)
{
	if (!r || throttle == r->user_throttle)
		return;
	info("%s: JobId=%u: ArrayTaskThrottle set to %u outside the plan: "
	     "taken as the array's own limit (was %u; 0 = none)",
	     SDL_PREFIX, id, throttle, r->user_throttle);
	r->user_throttle = throttle;
}

/* The user's own ArrayTaskThrottle, the array's limit: the one it was
 * submitted with, then any value the plan did not set (it sets r->alloc
 * while it manages the array and leaves the user's value otherwise).  Only
 * while tasks wait to start: a throttle limits nothing else, and an array
 * whose last task started keeps the plan's last value without being
 * managed (it was read as the user's before).  With job_submit/deadline,
 * its mark of the last update decides, so that a limit equal to the plan's
 * throttle is the user's too (a = the head's record, hints read from it);
 * with it a change it did not mark is no user's (marks_only). */
static void _user_throttle(struct dl_array_rec *r, const struct sdl_array *a,
			   bool marks_only)
{
	uint32_t ours = r->managed ? r->alloc : r->user_throttle;

	if (a->hints.array_limit >= 0) {
		if (r->user_saved) {
			sdl_user_throttle_set(r, a->id,
					      (uint32_t) a->hints.array_limit);
		} else {
			r->user_throttle = (uint32_t) a->hints.array_limit;
			r->user_saved = true;
		}
		return;
	}
	if (!r->user_saved) {
		r->user_throttle = a->throttle;
		r->user_saved = true;
		return;
	}
	if (!marks_only && a->pending && a->throttle != ours)
		sdl_user_throttle_set(r, a->id, a->throttle);
}

/* A task running or waiting again after it was counted finished (scontrol
 * requeue of an ended task): one counted failed is work again
 * (dl_sstate_rerun); one counted completed stays done, and its rerun is
 * none of the plan's work.  True when the task stays counted (a pending
 * one then leaves its array's pending count). */
static bool _rerun(struct sdl_snapshot *s, struct dl_array_rec *r,
		   const struct sdl_task *t)
{
	struct sdl_array *a;
	int rc = dl_sstate_rerun(r, t->task_id);

	if (rc == ENOENT) /* not counted: an ordinary task */
		return false;
	if (rc == 0) {
		info("%s: JobId=%u_%u runs again: no longer counted failed",
		     SDL_PREFIX, t->array_id, t->task_id);
		return false;
	}
	if (t->kind == SDL_TASK_PENDING && (a = _find_array(s, t->array_id)) &&
	    a->pending)
		a->pending--;
	return true;
}

extern uint64_t sdl_snapshot_merge(struct sdl_snapshot *s, struct dl_sstate *st,
				   double now)
{
	uint64_t sig = 0;

	for (uint32_t i = 0; i < st->n; i++)
		st->recs[i].present = false;
	for (uint32_t i = 0; i < s->narrays; i++) {
		struct sdl_array *a = &s->arrays[i];
		struct dl_array_rec *r = dl_sstate_add(st, a->id);

		if (!r) {
			error("%s: out of memory tracking JobId=%u", SDL_PREFIX,
			      a->id);
			continue;
		}
		r->present = true;
		r->last_seen = now;
		if (a->described) {
			char *user = uid_to_string_cached(a->uid);
			bool first = !r->submit;

			_copy(r->user, sizeof(r->user), user);
			_copy(r->account, sizeof(r->account), a->account);
			_copy(r->name, sizeof(r->name), a->name);
			_copy(r->partition, sizeof(r->partition), a->partition);
			r->submit = (double) a->submit;
			r->cpus_per_task = a->cpus;
			r->mem_per_task = a->mem;
			r->time_limit = a->limit_min * 60.0;
			r->hard_deadline = (double) a->deadline;
			r->soft_deadline = a->hints.soft_deadline;
			r->reduce_cost = a->hints.reduce_cost;
			r->max_delays = a->hints.max_delays;
			r->has_profile = a->hints.has_profile;
			r->profile = a->hints.task;
			r->has_shuffle = a->hints.has_shuffle;
			r->shuffle = a->hints.shuffle;
			if (a->hints_err && first)
				error("%s: JobId=%u: ignoring bad hints: %s",
				      SDL_PREFIX, a->id, a->hints_err);
			if (first &&
			    dl_cluster_find_partition(&s->cl, r->partition) < 0)
				error("%s: JobId=%u: partition '%s' is not one "
				      "slurmctld has (or its name is longer "
				      "than %zu characters): the array is left "
				      "to Slurm",
				      SDL_PREFIX, a->id, r->partition,
				      sizeof(r->partition) - 1);
			if (a->dep_array && a->dep_array != a->id) {
				struct dl_array_rec *m;

				r->map_id = a->dep_array;
				m = dl_sstate_add(st, a->dep_array);
				r = dl_sstate_find(st, a->id); /* may move */
				if (m)
					m->reduce_id = a->id;
			}
			if (r)
				r->dep_other = a->dep_other;
		}
		if (r && a->head_seen && a->throttle_seen)
			_user_throttle(r, a, s->marks_only);
	}
	/* finished tasks, counted once each */
	for (uint32_t k = 0; k < s->ntasks; k++) {
		struct sdl_task *t = &s->tasks[k];
		struct dl_array_rec *r;
		int pool = DL_POOL_REGULAR;

		if (t->kind == SDL_TASK_RUNNING)
			continue;
		r = dl_sstate_find(st, t->array_id);
		if (!r)
			continue;
		if (t->kind == SDL_TASK_PENDING) {
			_rerun(s, r, t);
			continue;
		}
		if (t->node < s->cl.nnodes)
			pool = s->cl.nodes[t->node].pool;
		if (t->kind == SDL_TASK_DONE_OK &&
		    (t->start <= 0 || t->end < t->start))
			t->kind = SDL_TASK_DONE_FAIL; /* no usable length */
		if (t->kind == SDL_TASK_DONE_OK && _end_heard_late(s, t)) {
			/* done; its recorded length is up to the outage
			 * plus a retry too long: neither the plan's mean
			 * nor the estimator's history learns it */
			(void) dl_sstate_observe_unmeasured(r, t->task_id,
							    (double) t->end);
			continue;
		}
		if (!dl_sstate_observe(
			    r, t->task_id, t->kind == SDL_TASK_DONE_OK,
			    (double) t->start, (double) t->end, pool) &&
		    t->kind == SDL_TASK_DONE_OK) {
			struct dl_demand use;
			enum dl_usage_source src;

			_task_usage(t, r, &use, &src);
			sdl_est_queue(st, r, t->task_id, (double) t->start,
				      (double) t->end,
				      t->node < s->cl.nnodes
					      ? s->cl.nodes[t->node].name
					      : NULL,
				      &use, src);
		}
	}
	/* tasks: those counted, those running, those not started */
	for (uint32_t i = 0; i < s->narrays; i++) {
		struct sdl_array *a = &s->arrays[i];
		struct dl_array_rec *r = dl_sstate_find(st, a->id);
		uint32_t running = 0;

		if (!r)
			continue;
		for (uint32_t k = a->first_running; k != SDL_NO_TASK;
		     k = s->tasks[k].next_running)
			if (!_rerun(s, r, &s->tasks[k]))
				running++;
		dl_sstate_reconcile(r, running, a->pending);
		sig = _mix(sig, a->id);
		sig = _mix(sig, a->pending);
		sig = _mix(sig, running);
		sig = _mix(sig, r->finished.count);
		sig = _mix(sig, (uint64_t) a->deadline);
		sig = _mix(sig, a->held);
		if (s->waiting) {
			sig = _mix(sig, s->waiting[i].held);
			sig = _mix(sig, s->waiting[i].deferred);
			sig = _mix(sig,
				   (uint64_t) s->waiting[i].deferred_until);
		}
	}
	for (uint32_t n = 0; n < s->cl.nnodes; n++)
		sig = _mix(sig, s->cl.nodes[n].up);
	return sig;
}

/* What of the phase's unstarted tasks cannot start now (array a, NULL:
 * none seen): held, or deferred to a begin time; each at most the tasks
 * the phase has not started. */
static void _add_waiting(const struct sdl_snapshot *s,
			 const struct sdl_array *a, struct dl_phase *ph)
{
	const struct sdl_waiting *w =
		a && s->waiting ? &s->waiting[a - s->arrays] : NULL;
	uint32_t pending = dl_phase_pending(ph);

	if (!w)
		return;
	ph->held = w->held < pending ? w->held : pending;
	ph->deferred = w->deferred < pending ? w->deferred : pending;
	ph->deferred_until = ph->deferred ? (double) w->deferred_until : 0;
}

/* The record's array in the snapshot, NULL when it has none. */
static const struct sdl_array *_array_of(const struct sdl_snapshot *s,
					 const struct dl_array_rec *r)
{
	return r->id <= UINT32_MAX ? _find_array(s, (uint32_t) r->id) : NULL;
}

static void _add_running(const struct sdl_snapshot *s,
			 const struct sdl_array *a,
			 const struct dl_array_rec *r, struct dl_phase *ph)
{
	for (uint32_t k = a ? a->first_running : SDL_NO_TASK; k != SDL_NO_TASK;
	     k = s->tasks[k].next_running) {
		const struct sdl_task *t = &s->tasks[k];
		int pool = DL_POOL_REGULAR;

		if (dl_idset_has(&r->finished, t->task_id))
			continue;
		if (t->node < s->cl.nnodes)
			pool = s->cl.nodes[t->node].pool;
		if (dl_phase_add_running(ph,
					 t->start > 0 ? (double) t->start
						      : (double) s->taken,
					 t->node, pool) == ERANGE) {
			ph->tasks++; /* a task more than we knew of */
			dl_phase_add_running(ph, (double) t->start, t->node,
					     pool);
		}
	}
}

extern void sdl_free_jobs(struct dl_job **jobs, uint32_t njobs)
{
	for (uint32_t i = 0; i < njobs; i++)
		dl_job_free(jobs[i]);
	free(jobs);
}

extern int sdl_build_jobs(const struct sdl_snapshot *s,
			  const struct dl_sstate *st, struct dl_job ***out,
			  uint32_t *nout)
{
	struct dl_job **jobs = calloc(st->n ? st->n : 1, sizeof(*jobs));
	uint32_t n = 0;

	*out = NULL;
	*nout = 0;
	if (!jobs)
		return SLURM_ERROR;
	for (uint32_t i = 0; i < st->n; i++) {
		const struct dl_array_rec *m = &st->recs[i], *r = NULL;
		const struct sdl_array *a;
		struct dl_job *j;
		int part;

		if (m->map_id && dl_sstate_find(st, m->map_id))
			continue; /* a reduce array: part of its map's job */
		if (!m->tasks && !m->submit)
			continue; /* known only as a map id, never seen */
		if (m->reduce_id)
			r = dl_sstate_find(st, m->reduce_id);
		j = dl_job_new(m->id, m->user, m->name, m->account);
		if (!j) {
			sdl_free_jobs(jobs, n);
			return SLURM_ERROR;
		}
		dl_sstate_fill_phase(m, &j->phase[DL_MAP]);
		a = _array_of(s, m);
		_add_running(s, a, m, &j->phase[DL_MAP]);
		_add_waiting(s, a, &j->phase[DL_MAP]);
		if (r && (r->tasks || r->submit)) {
			j->reduce_id = r->id;
			dl_sstate_fill_phase(r, &j->phase[DL_REDUCE]);
			a = _array_of(s, r);
			_add_running(s, a, r, &j->phase[DL_REDUCE]);
			_add_waiting(s, a, &j->phase[DL_REDUCE]);
		}
		/* a partition the cluster does not have: planning the job
		 * in another one would give it nodes it cannot run on (the
		 * merge logged it when the array appeared) */
		part = dl_cluster_find_partition(&s->cl, m->partition);
		if (part < 0 && s->cl.npartitions) {
			dl_job_free(j);
			continue;
		}
		j->partition = part < 0 ? 0 : (uint32_t) part;
		j->submit = m->submit;
		/* the job's goal: the reduce array's, else the map array's */
		j->soft_deadline = (r && r->soft_deadline > 0)
					   ? r->soft_deadline
					   : m->soft_deadline;
		j->reduce_cost = m->reduce_cost > 0 ? m->reduce_cost
				 : r                ? r->reduce_cost
						    : 0;
		j->max_delays =
			m->max_delays >= 0 ? (uint32_t) m->max_delays : 0;
		/* task profiles for ras/reverse: the --task-profile hints
		 * (map array: map tasks; reduce array: reducers, shuffle) */
		if (m->has_profile) {
			j->profile.map = m->profile;
			j->profile.given = true;
		}
		if (r && r->has_profile) {
			j->profile.reduce = r->profile;
			j->profile.given = true;
		}
		if (r && r->has_shuffle)
			j->profile.shuffle = r->shuffle;
		if (!j->phase[DL_MAP].tasks && !j->phase[DL_REDUCE].tasks) {
			dl_job_free(j);
			continue;
		}
		jobs[n++] = j;
	}
	*out = jobs;
	*nout = n;
	return SLURM_SUCCESS;
}

static void _append(char *buf, size_t len, const char *fmt, const char *a,
		    unsigned long long b)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, fmt, a, b);
}

extern void sdl_annotate_plan(struct dl_plan *plan, const struct dl_sstate *st)
{
	for (uint32_t i = 0; i < plan->njobs; i++) {
		struct dl_plan_job *pj = &plan->jobs[i];
		const struct dl_array_rec *m = dl_sstate_find(st, pj->job_id);
		const struct dl_array_rec *r =
			pj->reduce_id ? dl_sstate_find(st, pj->reduce_id)
				      : NULL;
		const struct dl_array_rec *last = r ? r : m;

		if (!m)
			continue;
		if (pj->phase < 0 && last) {
			/* finished: the outcome, from the observed tasks */
			pj->predicted_finish =
				fmax(m->last_end, r ? r->last_end : 0);
			dl_plan_explain_outcome(
				pj, m->failed + m->vanished +
					    (r ? r->failed + r->vanished : 0));
		}
		if (m->dep_other && !m->reduce_id)
			_append(pj->explain, sizeof(pj->explain),
				" [%safterok on JobId=%llu, not an array: "
				"planned as a map-only job]",
				"", (unsigned long long) m->dep_other);
		else if (r && r->dep_other)
			_append(pj->explain, sizeof(pj->explain),
				" [%sreduce array also waits for JobId=%llu]",
				"", (unsigned long long) r->dep_other);
	}
}
