/*****************************************************************************\
 *  select_affinity.c - data affinity in select/deadline (select_affinity.h,
 *  doc/data-affinity.md).
 *
 *  Per array the plan manages, the --input-nodes hint is parsed once from
 *  the job control environment (common/locality.h, the parser the SPANK
 *  plugin normalised it with) and the preferred nodes of the set the
 *  current task needs are kept as one Slurm node bitmap: an array starts
 *  its tasks in index order, so consecutive tasks mostly share it.  The
 *  deferral counts live in the core's bounded table (common/affinity.h).
 *  Arrays are forgotten when a plan no longer manages them.
\*****************************************************************************/

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "slurm/slurm.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/slurmctld/slurmctld.h"

#include "common/io/clock.h"
#include "common/model/job_hints.h"
#include "common/model/locality.h"
#include "common/model/nodeset.h"

#include "select_affinity.h"

/* Defined here as node_record_count is in select_deadline.c: tools built
 * on the public libslurm.so load every select plugin and lack slurmctld's
 * data symbols; in slurmctld its own definition (libslurmfull) takes
 * precedence.  Read only in slurmctld. */
node_record_t **node_record_table_ptr;

#define SD_PREFIX  "select/deadline"
#define SD_SLOW_US 2000

/* Per-decision lines: info with DebugFlags=SelectType, else debug. */
#define SD_AFF_LOG(fmt, ...)                                                   \
	do {                                                                   \
		if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)           \
			info(SD_PREFIX ": " fmt, ##__VA_ARGS__);               \
		else                                                           \
			debug(SD_PREFIX ": " fmt, ##__VA_ARGS__);              \
	} while (0)

struct sd_aff_array {
	uint32_t array_id;
	bool has_hint; /* a usable --input-nodes */
	struct dl_locality loc;
	int32_t max_delays; /* -1: not given */
	int32_t set;        /* the set `nodes` holds; -1 none */
	bitstr_t *nodes;    /* preferred nodes of `set` */
	bool warned_unknown;
	bool summarised; /* the summary line was logged */
	/* since the plan first managed the array */
	uint32_t started_local, started_elsewhere, deferrals;
};

static pthread_mutex_t aff_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_aff_array *arrays = NULL; /* sorted by array_id */
static uint32_t narrays = 0, cap_arrays = 0;
static struct dl_deferrals deferrals = {.max = DL_DEFERRALS_MAX};
static uint64_t n_local, n_deferred, n_elsewhere;

/* The index of the task a start attempt is about: the meta record of a
 * pending array carries it after job_array_pre_sched(). */
static bool _task_of(job_record_t *job_ptr, uint32_t *task)
{
	if (!job_ptr || !job_ptr->array_job_id)
		return false;
	if (job_ptr->array_task_id != NO_VAL) {
		*task = job_ptr->array_task_id;
		return true;
	}
	if (job_ptr->array_recs && job_ptr->array_recs->task_id_bitmap) {
		int64_t first = bit_ffs(job_ptr->array_recs->task_id_bitmap);

		if (first >= 0) {
			*task = (uint32_t) first;
			return true;
		}
	}
	return false;
}

static void _array_free(struct sd_aff_array *a)
{
	dl_locality_free(&a->loc);
	FREE_NULL_BITMAP(a->nodes);
}

static struct sd_aff_array *_find_locked(uint32_t array_id, uint32_t *pos)
{
	uint32_t lo = 0, hi = narrays;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (arrays[mid].array_id == array_id)
			return &arrays[mid];
		if (arrays[mid].array_id < array_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos)
		*pos = lo;
	return NULL;
}

/* The largest task index the array can have: indexes stay below
 * MaxArraySize (the size of the array's task bitmap, or of the setting). */
static uint32_t _max_task(job_record_t *job_ptr)
{
	job_record_t *meta = job_ptr->array_recs
				     ? job_ptr
				     : find_job_record(job_ptr->array_job_id);
	uint64_t size = slurm_conf.max_array_sz;

	if (meta && meta->array_recs && meta->array_recs->task_id_bitmap &&
	    (uint64_t) bit_size(meta->array_recs->task_id_bitmap) > size)
		size = (uint64_t) bit_size(meta->array_recs->task_id_bitmap);
	if (job_ptr->array_task_id != NO_VAL && job_ptr->array_task_id >= size)
		size = (uint64_t) job_ptr->array_task_id + 1;
	if (!size || size - 1 > DL_LOCALITY_MAX_TASK)
		return DL_LOCALITY_MAX_TASK;
	return (uint32_t) (size - 1);
}

/* Read the hint of an array from its job control environment: the
 * normal form the SPANK plugin wrote, so host lists are checked and
 * counted but not expanded, and only the array's possible indexes are
 * kept. */
static void _load_hint(struct sd_aff_array *a, job_record_t *job_ptr)
{
	struct dl_locality_opts opts = {_max_task(job_ptr), false, false};
	const char *text, *md;
	char err[256];
	uint64_t t0 = dl_monotonic_us();

	a->max_delays = -1;
	a->set = -1;
	text = dl_hints_env_get(job_ptr->spank_job_env,
				job_ptr->spank_job_env_size,
				DL_ENV_INPUT_NODES);
	if (!text)
		return;
	if (!job_ptr->deadline && !dl_hints_env_get(job_ptr->spank_job_env,
						    job_ptr->spank_job_env_size,
						    DL_ENV_SOFT_DEADLINE)) {
		info("%s: array %u: --input-nodes ignored: the array has no "
		     "deadline (--deadline or --soft-deadline)",
		     SD_PREFIX, a->array_id);
		return;
	}
	if (dl_locality_parse_opt(text, &opts, &a->loc, err, sizeof(err))) {
		error("%s: array %u: --input-nodes ignored: %s", SD_PREFIX,
		      a->array_id, err);
		return;
	}
	md = dl_hints_env_get(job_ptr->spank_job_env,
			      job_ptr->spank_job_env_size, DL_ENV_MAX_DELAYS);
	if (md &&
	    dl_hints_parse_max_delays(md, &a->max_delays, err, sizeof(err))) {
		error("%s: array %u: %s; no deferrals", SD_PREFIX, a->array_id,
		      err);
		a->max_delays = -1;
	}
	a->has_hint = true;
	if (dl_monotonic_us() - t0 > SD_SLOW_US)
		info("%s: array %u: reading --input-nodes (%u host lists) took "
		     "%" PRIu64 " us",
		     SD_PREFIX, a->array_id, a->loc.nsets,
		     dl_monotonic_us() - t0);
}

static struct sd_aff_array *_get_locked(job_record_t *job_ptr)
{
	uint32_t pos = 0;
	struct sd_aff_array *a = _find_locked(job_ptr->array_job_id, &pos);

	if (a)
		return a;
	if (narrays == cap_arrays) {
		cap_arrays = cap_arrays ? cap_arrays * 2 : 16;
		xrecalloc(arrays, cap_arrays, sizeof(*arrays));
	}
	memmove(&arrays[pos + 1], &arrays[pos],
		(narrays - pos) * sizeof(*arrays));
	narrays++;
	a = &arrays[pos];
	memset(a, 0, sizeof(*a));
	a->array_id = job_ptr->array_job_id;
	_load_hint(a, job_ptr);
	return a;
}

struct set_fill {
	bitstr_t *nodes;
	uint32_t unknown;
	char first_unknown[64];
};

static int _add_node(const char *name, void *ctx)
{
	struct set_fill *f = ctx;
	node_record_t *node_ptr = find_node_record2((char *) name);

	if (node_ptr && node_ptr->index < bit_size(f->nodes)) {
		bit_set(f->nodes, node_ptr->index);
	} else if (!f->unknown++) {
		snprintf(f->first_unknown, sizeof(f->first_unknown), "%s",
			 name);
	}
	return 0;
}

/* The Slurm bitmap of a set of preferred hosts (cached per array). */
static bitstr_t *_set_nodes_locked(struct sd_aff_array *a, int32_t set,
				   bitoff_t size)
{
	struct set_fill f = {NULL, 0, ""};
	const char *hosts = a->loc.sets[set];
	uint32_t count = 0;
	char err[160];

	if (a->nodes && a->set == set && bit_size(a->nodes) == size)
		return a->nodes;
	FREE_NULL_BITMAP(a->nodes);
	a->set = -1;
	f.nodes = bit_alloc(size);
	if (dl_nodeset_count(hosts, a->loc.hosts, &count, err, sizeof(err))) {
		/* checked when the hint was read: not expected */
		error("%s: array %u: host list '%s': %s", SD_PREFIX,
		      a->array_id, hosts, err);
	} else if (count > (uint32_t) node_record_count) {
		/* more names than nodes: match each node instead, the cost
		 * follows the smaller of the two */
		uint32_t found = 0;

		for (int i = 0; i < node_record_count && i < size; i++) {
			node_record_t *node_ptr = node_record_table_ptr[i];

			if (node_ptr && node_ptr->name &&
			    dl_nodeset_match(hosts, node_ptr->name)) {
				bit_set(f.nodes, i);
				found++;
			}
		}
		f.unknown = count - found;
	} else {
		dl_nodeset_foreach(hosts, count, _add_node, &f, err,
				   sizeof(err));
	}
	if (f.unknown && !a->warned_unknown) {
		a->warned_unknown = true;
		info("%s: array %u: --input-nodes names %u host%s that %s not "
		     "a node of this cluster%s%s%s: ignored",
		     SD_PREFIX, a->array_id, f.unknown,
		     f.unknown == 1 ? "" : "s", f.unknown == 1 ? "is" : "are",
		     f.first_unknown[0] ? " (e.g. " : "", f.first_unknown,
		     f.first_unknown[0] ? ")" : "");
	}
	a->nodes = f.nodes;
	a->set = set;
	return a->nodes;
}

/* Some preferred node could ever take the task: in its partition and
 * neither down, drained nor failed.  Waiting for the others is pointless. */
static bool _any_usable(job_record_t *job_ptr, bitstr_t *nodes)
{
	bitstr_t *part =
		job_ptr->part_ptr ? job_ptr->part_ptr->node_bitmap : NULL;

	for (int64_t i = bit_ffs(nodes), last = bit_fls(nodes);
	     i >= 0 && i <= last; i++) {
		node_record_t *node_ptr;

		if (!bit_test(nodes, i) ||
		    (part && (i >= bit_size(part) || !bit_test(part, i))))
			continue;
		node_ptr =
			i < node_record_count ? node_record_table_ptr[i] : NULL;
		if (node_ptr && !IS_NODE_DOWN(node_ptr) &&
		    !IS_NODE_DRAIN(node_ptr) && !IS_NODE_FAIL(node_ptr))
			return true;
	}
	return false;
}

bitstr_t *sd_affinity_local(job_record_t *job_ptr, bitstr_t *avail,
			    bool *usable)
{
	struct sd_aff_array *a;
	bitstr_t *local = NULL;
	uint32_t task;
	int32_t set;

	*usable = false;
	if (!avail || !_task_of(job_ptr, &task))
		return NULL;
	/* the user's own node list wins over a preference */
	if (job_ptr->details && job_ptr->details->req_node_bitmap)
		return NULL;
	/* arrays without the hint make no entry */
	if (!dl_hints_env_get(job_ptr->spank_job_env,
			      job_ptr->spank_job_env_size, DL_ENV_INPUT_NODES))
		return NULL;
	slurm_mutex_lock(&aff_lock);
	a = _get_locked(job_ptr);
	if (a->has_hint && (set = dl_locality_set_of(&a->loc, task)) >= 0) {
		bitstr_t *nodes = _set_nodes_locked(a, set, bit_size(avail));

		local = bit_copy(avail);
		bit_and(local, nodes);
		*usable = _any_usable(job_ptr, nodes);
	}
	slurm_mutex_unlock(&aff_lock);
	return local;
}

void sd_affinity_local_start(job_record_t *job_ptr)
{
	SD_AFF_LOG("%pJ: a node holding its input has room: starting there",
		   job_ptr);
}

/* Tasks of the array running now (Slurm's own count on the meta record);
 * the plan's count when the record is gone. */
static uint32_t _running_now(job_record_t *job_ptr, uint32_t planned)
{
	job_record_t *meta = job_ptr;

	if (!meta->array_recs)
		meta = find_job_record(job_ptr->array_job_id);
	if (meta && meta->array_recs)
		return meta->array_recs->tot_run_tasks;
	return planned;
}

enum dl_affinity sd_affinity_no_local(job_record_t *job_ptr,
				      const struct sd_aff_plan *plan)
{
	struct sd_aff_array *a;
	enum dl_affinity d;
	uint32_t task, running, delays;
	int32_t max_delays;
	bool counted = false;
	double sreq;

	if (!plan || !_task_of(job_ptr, &task))
		return DL_AFFINITY_ANYWHERE;
	running = _running_now(job_ptr, plan->running);
	/* an array the plan does not manage yet has no known need */
	sreq = plan->managed ? dl_affinity_sreq(plan->need, running) : NAN;
	slurm_mutex_lock(&aff_lock);
	a = _find_locked(job_ptr->array_job_id, NULL);
	max_delays = a ? a->max_delays : -1;
	d = dl_affinity_attempt(&deferrals, job_ptr->array_job_id, task,
				(int64_t) time(NULL), false, sreq, max_delays,
				&counted);
	delays = dl_deferrals_get(&deferrals, job_ptr->array_job_id, task);
	if (counted) {
		n_deferred++;
		if (a)
			a->deferrals++;
	}
	slurm_mutex_unlock(&aff_lock);
	if (d == DL_AFFINITY_DEFER && counted)
		SD_AFF_LOG("%pJ: no node holding its input has room; s_req "
			   "%.2f <= 0 (plan cycle %" PRIu64
			   "): deferred (%u of %d)",
			   job_ptr, sreq, plan->cycle, delays, max_delays);
	else if (d == DL_AFFINITY_ANYWHERE)
		SD_AFF_LOG("%pJ: no node holding its input has room; %s: "
			   "trying every node",
			   job_ptr,
			   !plan->managed ? "not in the plan yet"
			   : isnan(sreq)  ? "no estimate of its need yet"
			   : sreq > 0 ? "the job needs more slots (s_req > 0)"
			   : max_delays <= 0 ? "--max-delays is 0"
					     : "deferred --max-delays times");
	return d;
}

static void _summary(struct sd_aff_array *a);

/* Every task of the array has started: the array's own record (which
 * the pending remainder keeps, and the last task takes over) no longer
 * waits. */
static bool _all_started(job_record_t *job_ptr)
{
	job_record_t *meta = find_job_record(job_ptr->array_job_id);

	return !meta || meta == job_ptr || !IS_JOB_PENDING(meta);
}

void sd_affinity_started(job_record_t *job_ptr)
{
	struct sd_aff_array *a;
	uint32_t task;
	int32_t set;

	if (!job_ptr || !job_ptr->node_bitmap || !_task_of(job_ptr, &task))
		return;
	slurm_mutex_lock(&aff_lock);
	dl_deferrals_forget(&deferrals, job_ptr->array_job_id, task);
	a = _find_locked(job_ptr->array_job_id, NULL);
	if (a && a->has_hint &&
	    (set = dl_locality_set_of(&a->loc, task)) >= 0) {
		bitstr_t *nodes = _set_nodes_locked(
			a, set, bit_size(job_ptr->node_bitmap));

		if (bit_super_set(job_ptr->node_bitmap, nodes)) {
			a->started_local++;
			n_local++;
		} else {
			a->started_elsewhere++;
			n_elsewhere++;
		}
		if (_all_started(job_ptr))
			_summary(a);
	}
	slurm_mutex_unlock(&aff_lock);
}

static void _summary(struct sd_aff_array *a)
{
	if (a->summarised || !a->has_hint ||
	    !(a->started_local + a->started_elsewhere))
		return;
	a->summarised = true;
	info("%s: array %u data affinity: %u task%s started on nodes "
	     "holding their input, %u elsewhere, %u deferral%s "
	     "(--max-delays=%d)",
	     SD_PREFIX, a->array_id, a->started_local,
	     a->started_local == 1 ? "" : "s", a->started_elsewhere,
	     a->deferrals, a->deferrals == 1 ? "" : "s",
	     a->max_delays < 0 ? 0 : a->max_delays);
}

void sd_affinity_retain(bool (*keep)(uint64_t array_id, void *ctx), void *ctx)
{
	uint32_t m = 0;

	if (!keep)
		return;
	slurm_mutex_lock(&aff_lock);
	for (uint32_t i = 0; i < narrays; i++) {
		if (keep(arrays[i].array_id, ctx)) {
			arrays[m++] = arrays[i];
			continue;
		}
		_summary(&arrays[i]);
		_array_free(&arrays[i]);
	}
	narrays = m;
	dl_deferrals_retain(&deferrals, keep, ctx);
	slurm_mutex_unlock(&aff_lock);
}

void sd_affinity_nodes_changed(void)
{
	slurm_mutex_lock(&aff_lock);
	for (uint32_t i = 0; i < narrays; i++) {
		FREE_NULL_BITMAP(arrays[i].nodes);
		arrays[i].set = -1;
	}
	slurm_mutex_unlock(&aff_lock);
}

void sd_affinity_fini(void)
{
	slurm_mutex_lock(&aff_lock);
	if (n_local || n_elsewhere || n_deferred || deferrals.full)
		info("%s: data affinity: %" PRIu64
		     " tasks started on nodes holding their input, %" PRIu64
		     " elsewhere, %" PRIu64 " deferrals, %" PRIu64
		     " not deferred because %u tasks were waiting already",
		     SD_PREFIX, n_local, n_elsewhere, n_deferred,
		     deferrals.full, deferrals.max);
	for (uint32_t i = 0; i < narrays; i++)
		_array_free(&arrays[i]);
	xfree(arrays);
	narrays = cap_arrays = 0;
	dl_deferrals_free(&deferrals);
	slurm_mutex_unlock(&aff_lock);
}
