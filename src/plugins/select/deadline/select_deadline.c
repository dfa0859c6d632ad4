/*****************************************************************************\
 *  select_deadline.c - SelectType=select/deadline: select/cons_tres with the
 *  ras/reverse placement of slurm-deadline enforced on top.
 *
 *  Every select operation (36 in Slurm 22.05, 31 in 24.11; the table is in
 *  select_compat.h) is delegated to select/cons_tres (loaded with
 *  slurm_plugin_load_and_link, as select/other does).  In job_test,
 *  when the current plan is a placement plan (Policy=ras or reverse) and the
 *  job is a task of an array the plan manages, the candidate nodes are cut
 *  down to those where one more task of that array may start (the core's
 *  dl_place_may_start): the array runs fewer tasks than the plan gives it,
 *  and the node's profile capacity (CPU, memory, I/O; for reverse minus
 *  the forecast external load) holds with the deadline tasks already
 *  running there, this one and the room the plan's rows keep there for
 *  arrays of lower utility.  Everything else passes straight through.  See
 *  doc/select-deadline.md.
 *
 *  Data affinity (any policy, select_affinity.c, doc/data-affinity.md): a
 *  task of a deadline array with an --input-nodes hint is first tried on
 *  its preferred nodes alone; when none has room it is deferred (the
 *  attempt fails) while the plan says its array needs no more slots
 *  (s_req <= 0) and it has deferrals left, else it is tried on every node.
 *
 *  Under slurmctld's locks we only read the published plan (refcounted,
 *  immutable) and in-memory tables: no I/O, no blocking.
\*****************************************************************************/

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/plugin.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

/*
 * Client commands load every select plugin, and tools built on the public
 * libslurm.so (not libslurmfull) lack slurmctld's symbols: a data
 * reference would fail the dlopen() and a call the process.  So define
 * node_record_count here (slurmctld's own definition interposes, as for
 * select/cray_aries) and reference running_in_slurmctld() weakly.
 */
int node_record_count;
#pragma weak running_in_slurmctld
/* error() under the name both libslurm.so and libslurmfull export
 * (log.c aliases it; only slurm_xlator.h declares the name) */
extern int slurm_error(const char *, ...) __attribute__((format(printf, 1, 2)));

#include "common/io/clock.h"
#include "common/policy/place_index.h"
#include "common/plan/plan.h"

#include "select_affinity.h"
#include "select_compat.h"

const char plugin_name[] =
	"slurm-deadline placement enforcement (select/cons_tres underneath)";
const char plugin_type[] = "select/deadline";
/* unique among select plugins (Slurm's own: 101-110) and >= 100 */
const uint32_t plugin_id = 4201;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define SD_PREFIX  "select/deadline"
#define SD_SLOW_US 2000 /* log index rebuilds slower than this */

sd_select_ops_t sd_ops;
static plugin_handle_t g_plugin = PLUGIN_INVALID_HANDLE;
static pthread_mutex_t g_context_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- running array tasks per node (slurmctld only) ---- */

struct sd_task {
	uint32_t job_id;
	uint32_t array_id;
};

struct sd_node {
	struct sd_task *t;
	uint32_t n, cap;
};

static pthread_mutex_t track_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_node *track = NULL;
static uint32_t ntrack = 0;
static bool in_ctld = false;

/* ---- the current plan, indexed ---- */

static struct dl_plan *cur_plan = NULL; /* held reference */
static struct dl_place_index cur_index; /* of cur_plan */
static int32_t *plan_to_slurm = NULL;   /* plan node -> Slurm node */
static int32_t *slurm_to_plan = NULL;   /* Slurm node -> plan node */
static uint32_t slurm_map_len = 0;

static uint64_t n_tests, n_restricted, n_refused;

extern int sd_other_init(void)
{
	int rc = SLURM_SUCCESS;

	slurm_mutex_lock(&g_context_lock);
	if (g_plugin == PLUGIN_INVALID_HANDLE) {
		/* the slurm_ names: what every Slurm library exports
		 * (select_compat.h) */
		g_plugin = slurm_plugin_load_and_link(
			"select/cons_tres", (int) sd_select_nsyms,
			sd_select_syms, (void **) &sd_ops);
		if (g_plugin == PLUGIN_INVALID_HANDLE) {
			slurm_error("%s: cannot load select/cons_tres: %s",
				    SD_PREFIX, slurm_strerror(errno));
			rc = SLURM_ERROR;
		}
	}
	slurm_mutex_unlock(&g_context_lock);
	return rc;
}

/* Forward to select/cons_tres; err when it cannot be loaded. */
#define FWD(err, fn, ...)                                                      \
	do {                                                                   \
		if (sd_other_init() != SLURM_SUCCESS)                          \
			return err;                                            \
		return (*(sd_ops.fn))(__VA_ARGS__);                            \
	} while (0)

/* ---- tracking ---- */

static void _track_clear_locked(void)
{
	for (uint32_t i = 0; i < ntrack; i++)
		xfree(track[i].t);
	xfree(track);
	ntrack = 0;
}

static struct sd_node *_track_node_locked(uint32_t idx)
{
	if (idx >= ntrack) {
		uint32_t n = idx + 1;

		if (node_record_count > 0 && (uint32_t) node_record_count > n)
			n = (uint32_t) node_record_count;
		xrecalloc(track, n, sizeof(*track));
		ntrack = n;
	}
	return &track[idx];
}

static void _track_add_locked(uint32_t node, uint32_t job_id, uint32_t array_id)
{
	struct sd_node *n = _track_node_locked(node);

	for (uint32_t i = 0; i < n->n; i++)
		if (n->t[i].job_id == job_id)
			return; /* job_begin after job_init saw it */
	if (n->n == n->cap) {
		n->cap = n->cap ? n->cap * 2 : 8;
		xrecalloc(n->t, n->cap, sizeof(*n->t));
	}
	n->t[n->n].job_id = job_id;
	n->t[n->n].array_id = array_id;
	n->n++;
}

static void _track_remove_locked(uint32_t node, uint32_t job_id)
{
	struct sd_node *n;

	if (node >= ntrack)
		return;
	n = &track[node];
	for (uint32_t i = 0; i < n->n; i++)
		if (n->t[i].job_id == job_id) {
			n->t[i] = n->t[--n->n];
			return;
		}
}

/* An array task (the only jobs a plan places); 0 for anything else. */
static uint32_t _array_of(job_record_t *job_ptr)
{
	if (!job_ptr || !job_ptr->array_job_id)
		return 0;
	return job_ptr->array_job_id;
}

static void _track_job(job_record_t *job_ptr, bool add)
{
	uint32_t array_id = _array_of(job_ptr);

	if (!in_ctld || !array_id || !job_ptr->node_bitmap)
		return;
	slurm_mutex_lock(&track_lock);
	for (int64_t i = bit_ffs(job_ptr->node_bitmap),
		     last = bit_fls(job_ptr->node_bitmap);
	     i >= 0 && i <= last; i++) {
		if (!bit_test(job_ptr->node_bitmap, i))
			continue;
		if (add)
			_track_add_locked((uint32_t) i, job_ptr->job_id,
					  array_id);
		else
			_track_remove_locked((uint32_t) i, job_ptr->job_id);
	}
	slurm_mutex_unlock(&track_lock);
}

static int _track_rebuild(void *x, void *arg)
{
	job_record_t *job_ptr = x;

	(void) arg;
	if (job_ptr && (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)))
		_track_job(job_ptr, true);
	return 0;
}

/* ---- plan index (called with track_lock held) ---- */

static void _index_drop_locked(void)
{
	dl_place_index_free(&cur_index);
	xfree(plan_to_slurm);
	xfree(slurm_to_plan);
	slurm_map_len = 0;
	if (cur_plan)
		dl_plan_release(cur_plan);
	cur_plan = NULL;
}

enum sd_mode {
	SD_PASS,    /* no placement plan: cons_tres decides */
	SD_ENFORCE, /* a placement plan: P[j][n] and capacity */
	SD_WAIT,    /* a placement plan restored from a file written before
		       plans carried their nodes: its arrays wait for the
		       first cycle */
};
static enum sd_mode cur_mode = SD_PASS;

/* keep() of sd_affinity_retain: arrays the current plan manages, and
 * arrays with tasks still waiting (not planned yet, or capped).  Called
 * from job_test, under slurmctld's job lock. */
static bool _array_current(uint64_t array_id, void *ctx)
{
	job_record_t *meta;
	uint32_t job;
	int phase;

	(void) ctx;
	if (dl_place_index_find(&cur_index, array_id, &job, &phase))
		return true;
	meta = array_id <= UINT32_MAX ? find_job_record((uint32_t) array_id)
				      : NULL;
	return meta && IS_JOB_PENDING(meta);
}

/* Make the index follow the current plan (every policy: data affinity
 * looks arrays up too; only ras/reverse plans are enforced per node). */
static enum sd_mode _index_refresh_locked(void)
{
	struct dl_plan *plan = dl_plan_acquire();
	uint64_t t0;
	int rc;

	if (plan == cur_plan) {
		dl_plan_release(plan); /* we hold one already */
		return cur_plan ? cur_mode : SD_PASS;
	}
	_index_drop_locked();
	cur_plan = plan;
	cur_mode = SD_PASS;
	t0 = dl_monotonic_us();
	rc = dl_place_index_build(&cur_index, plan);
	if (rc) {
		error("%s: cannot index plan cycle %" PRIu64
		      ": %s; not enforcing it",
		      SD_PREFIX, plan ? plan->cycle : 0, slurm_strerror(rc));
		_index_drop_locked();
	}
	/* forget data-affinity state of arrays no longer managed */
	sd_affinity_retain(_array_current, NULL);
	if (rc || !plan ||
	    (plan->policy != DL_POLICY_RAS &&
	     plan->policy != DL_POLICY_REVERSE))
		return SD_PASS;
	if (!plan->nnodes || !plan->nodes) {
		info("%s: plan cycle %" PRIu64
		     " carries no nodes (restored from an older plan file): "
		     "its arrays wait for the next plan",
		     SD_PREFIX, plan->cycle);
		cur_mode = SD_WAIT;
		return cur_mode;
	}
	slurm_map_len =
		node_record_count > 0 ? (uint32_t) node_record_count : 0;
	plan_to_slurm = xcalloc(plan->nnodes, sizeof(*plan_to_slurm));
	slurm_to_plan = xcalloc(slurm_map_len ? slurm_map_len : 1,
				sizeof(*slurm_to_plan));
	for (uint32_t i = 0; i < slurm_map_len; i++)
		slurm_to_plan[i] = -1;
	for (uint32_t p = 0; p < plan->nnodes; p++) {
		node_record_t *node_ptr = find_node_record(plan->nodes[p].name);

		plan_to_slurm[p] = -1;
		if (!node_ptr || node_ptr->index >= slurm_map_len)
			continue;
		plan_to_slurm[p] = (int32_t) node_ptr->index;
		slurm_to_plan[node_ptr->index] = (int32_t) p;
	}
	if (dl_monotonic_us() - t0 > SD_SLOW_US)
		info("%s: indexing plan cycle %" PRIu64
		     " (%u jobs, %u rows) took %" PRIu64 " us",
		     SD_PREFIX, plan->cycle, plan->njobs, plan->nplace,
		     dl_monotonic_us() - t0);
	cur_mode = SD_ENFORCE;
	return cur_mode;
}

/* What the plan says about an array's active phase (data affinity). */
static void _plan_facts_locked(uint32_t job, int phase, struct sd_aff_plan *ap)
{
	const struct dl_plan_job *pj = &cur_plan->jobs[job];

	ap->managed = pj->managed;
	ap->cycle = cur_plan->cycle;
	ap->need = pj->managed && pj->phase == phase ? pj->need : NAN;
	ap->running = (phase == DL_MAP || phase == DL_REDUCE)
			      ? pj->running[phase]
			      : 0;
}

/* The array of plan job k's phase q (0: none). */
static uint64_t _plan_array(uint32_t k, int q)
{
	if (!cur_plan || k >= cur_plan->njobs)
		return 0;
	return q == DL_MAP ? cur_plan->jobs[k].job_id
			   : cur_plan->jobs[k].reduce_id;
}

/* dl_place_now for the core's start rule, with track_lock held and under
 * slurmctld's job lock (job_test): tasks of plan job k, phase q, running
 * on plan node v, from the table of running array tasks ... */
static uint32_t _now_here(void *ctx, uint32_t k, int q, uint32_t v)
{
	uint64_t array_id = _plan_array(k, q);
	int32_t i = v < cur_plan->nnodes ? plan_to_slurm[v] : -1;
	uint32_t c = 0;

	(void) ctx;
	if (!array_id || i < 0 || (uint32_t) i >= ntrack)
		return 0;
	for (uint32_t t = 0; t < track[i].n; t++)
		c += track[i].t[t].array_id == array_id;
	return c;
}

/* ... and anywhere, from Slurm's record of the array (the counter its
 * ArrayTaskThrottle uses), with whether a task of it is pending */
static uint32_t _now_running(void *ctx, uint32_t k, int q, bool *waiting)
{
	uint64_t array_id = _plan_array(k, q);
	job_record_t *meta;

	(void) ctx;
	*waiting = false;
	if (!array_id || array_id > UINT32_MAX)
		return 0;
	meta = find_job_record((uint32_t) array_id);
	if (!meta)
		return 0;
	if (!meta->array_recs) {
		/* the array's last task, in its own record */
		*waiting = IS_JOB_PENDING(meta);
		return IS_JOB_RUNNING(meta) ? 1 : 0;
	}
	*waiting = meta->array_recs->task_cnt > 0 || IS_JOB_PENDING(meta);
	return meta->array_recs->tot_run_tasks;
}

/* Clear from bitmap the nodes where one more task of this array may not
 * start.  Returns the number of nodes left, or -1 when the job is not a
 * placed deadline task (nothing to enforce).  *ap tells whether the plan
 * manages the array, whatever the policy. */
static int _restrict(job_record_t *job_ptr, bitstr_t *bitmap,
		     struct sd_aff_plan *ap)
{
	uint32_t array_id = _array_of(job_ptr), job;
	int phase, left = 0;
	bool cut = false;
	enum sd_mode mode;

	/* not in the plan (yet): no estimate of its need */
	*ap = (struct sd_aff_plan){.managed = false, .need = NAN};
	if (!array_id || !bitmap)
		return -1;
	slurm_mutex_lock(&track_lock);
	mode = _index_refresh_locked();
	if (!dl_place_index_find(&cur_index, array_id, &job, &phase)) {
		slurm_mutex_unlock(&track_lock);
		return -1;
	}
	_plan_facts_locked(job, phase, ap);
	if (mode == SD_PASS) {
		slurm_mutex_unlock(&track_lock);
		return -1;
	}
	if (mode == SD_WAIT) {
		slurm_mutex_unlock(&track_lock);
		return 0;
	}
	for (int64_t i = bit_ffs(bitmap), last = bit_fls(bitmap);
	     i >= 0 && i <= last; i++) {
		int32_t p =
			(uint32_t) i < slurm_map_len ? slurm_to_plan[i] : -1;
		double used[3] = {0, 0, 0};
		bool ok = false;

		if (!bit_test(bitmap, i))
			continue;
		if (p >= 0) {
			struct sd_node *n =
				(uint32_t) i < ntrack ? &track[i] : NULL;

			struct dl_place_now now = {_now_here, _now_running,
						   NULL};

			for (uint32_t k = 0; n && k < n->n; k++) {
				uint32_t oj;
				int oph;

				if (dl_place_index_find(&cur_index,
							n->t[k].array_id, &oj,
							&oph))
					dl_place_add_use(cur_plan, oj, oph,
							 used);
			}
			ok = dl_place_may_start(&cur_index, job, phase,
						(uint32_t) p, &now, used);
		}
		if (ok) {
			left++;
		} else {
			bit_clear(bitmap, i);
			cut = true;
		}
	}
	slurm_mutex_unlock(&track_lock);
	if (cut)
		n_restricted++;
	return left;
}

/* ---- plugin entry points ---- */

extern int init(void)
{
	in_ctld = running_in_slurmctld && running_in_slurmctld();
	if (in_ctld)
		info("%s: loaded (plugin_id %u); delegating to "
		     "select/cons_tres. "
		     "Not available with a select plugin not named cons_tres: "
		     "dynamic nodes, MaxNodeCount, CoreCnt reservations, "
		     "per-node heterogeneous GRES counts "
		     "(doc/select-deadline.md)",
		     SD_PREFIX, plugin_id);
	return sd_other_init();
}

extern int fini(void)
{
	int rc = SLURM_SUCCESS;

	slurm_mutex_lock(&track_lock);
	if (in_ctld)
		info("%s: %" PRIu64 " job tests, %" PRIu64
		     " restricted to the plan's nodes, %" PRIu64 " refused",
		     SD_PREFIX, n_tests, n_restricted, n_refused);
	_index_drop_locked();
	_track_clear_locked();
	slurm_mutex_unlock(&track_lock);
	sd_affinity_fini();
	slurm_mutex_lock(&g_context_lock);
	if (g_plugin != PLUGIN_INVALID_HANDLE) {
		slurm_plugin_unload(g_plugin); /* cons_tres's fini() */
		g_plugin = PLUGIN_INVALID_HANDLE;
	}
	slurm_mutex_unlock(&g_context_lock);
	return rc;
}

extern int select_p_state_save(char *dir_name)
{
	FWD(SLURM_ERROR, state_save, dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	FWD(SLURM_ERROR, state_restore, dir_name);
}

extern int select_p_job_init(list_t *job_list)
{
	if (in_ctld) {
		slurm_mutex_lock(&track_lock);
		_track_clear_locked();
		slurm_mutex_unlock(&track_lock);
		if (job_list)
			list_for_each(job_list, _track_rebuild, NULL);
	}
	FWD(SLURM_ERROR, job_init, job_list);
}

extern int select_p_node_init(void)
{
	if (in_ctld) {
		/* the node table may have changed: re-map on next use */
		slurm_mutex_lock(&track_lock);
		_index_drop_locked();
		slurm_mutex_unlock(&track_lock);
		sd_affinity_nodes_changed();
	}
	FWD(SLURM_ERROR, node_init);
}

/* Data affinity for a task of a managed array: its preferred nodes first
 * (without pre-empting anything for locality), then Polo's rule. */
static int _affinity_test(job_record_t *job_ptr, bitstr_t *bitmap,
			  const struct sd_aff_plan *ap, uint32_t min_nodes,
			  uint32_t max_nodes, uint32_t req_nodes, uint16_t mode,
			  list_t *preemptee_candidates,
			  list_t **preemptee_job_list, SD_JOB_TEST_EXC_ARGS)
{
	bool usable = false;
	bitstr_t *local = sd_affinity_local(job_ptr, bitmap, &usable);
	int rc;

	if (local && bit_set_count(local) >= MAX(min_nodes, 1)) {
		rc = (*(sd_ops.job_test))(job_ptr, local, min_nodes, max_nodes,
					  req_nodes, mode, NULL,
					  preemptee_job_list, SD_JOB_TEST_EXC);
		if (rc == SLURM_SUCCESS) {
			bit_copybits(bitmap, local);
			FREE_NULL_BITMAP(local);
			sd_affinity_local_start(job_ptr);
			return rc;
		}
		if (preemptee_job_list)
			FREE_NULL_LIST(*preemptee_job_list);
	}
	/* busy preferred nodes: Polo's rule; none that could ever take the
	 * task: run anywhere at once */
	if (local && usable &&
	    sd_affinity_no_local(job_ptr, ap) == DL_AFFINITY_DEFER) {
		FREE_NULL_BITMAP(local);
		return SLURM_ERROR;
	}
	FREE_NULL_BITMAP(local);
	return (*(sd_ops.job_test))(job_ptr, bitmap, min_nodes, max_nodes,
				    req_nodes, mode, preemptee_candidates,
				    preemptee_job_list, SD_JOB_TEST_EXC);
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list, SD_JOB_TEST_EXC_ARGS)
{
	if (sd_other_init() != SLURM_SUCCESS)
		return SLURM_ERROR;
	/* only actual starts are held to the plan: "can it ever run" and
	 * "when will it run" (backfill, reservations) see cons_tres */
	if (in_ctld && SELECT_IS_MODE_RUN_NOW(mode)) {
		struct sd_aff_plan ap;
		int left;

		n_tests++;
		left = _restrict(job_ptr, bitmap, &ap);
		if (left == 0) {
			n_refused++;
			if (slurm_conf.debug_flags & DEBUG_FLAG_SELECT_TYPE)
				info("%s: %pJ: no node of the plan has room "
				     "for another task now",
				     SD_PREFIX, job_ptr);
			return SLURM_ERROR;
		}
		if (_array_of(job_ptr))
			return _affinity_test(
				job_ptr, bitmap, &ap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list, SD_JOB_TEST_EXC);
	}
	return (*(sd_ops.job_test))(job_ptr, bitmap, min_nodes, max_nodes,
				    req_nodes, mode, preemptee_candidates,
				    preemptee_job_list, SD_JOB_TEST_EXC);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	int rc;

	if (sd_other_init() != SLURM_SUCCESS)
		return SLURM_ERROR;
	rc = (*(sd_ops.job_begin))(job_ptr);
	if (rc == SLURM_SUCCESS) {
		_track_job(job_ptr, true);
		if (in_ctld && _array_of(job_ptr))
			sd_affinity_started(job_ptr);
	}
	return rc;
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	FWD(SLURM_ERROR, job_ready, job_ptr);
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	FWD(SLURM_ERROR, job_expand, from_job_ptr, to_job_ptr);
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	if (in_ctld && node_ptr && _array_of(job_ptr)) {
		slurm_mutex_lock(&track_lock);
		_track_remove_locked(node_ptr->index, job_ptr->job_id);
		slurm_mutex_unlock(&track_lock);
	}
	FWD(SLURM_ERROR, job_resized, job_ptr, node_ptr);
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	_track_job(job_ptr, false);
	FWD(SLURM_ERROR, job_fini, job_ptr);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	FWD(SLURM_ERROR, job_suspend, job_ptr, indf_susp);
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	FWD(SLURM_ERROR, job_resume, job_ptr, indf_susp);
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	FWD(NULL, step_pick_nodes, job_ptr, jobinfo, node_count, avail_nodes);
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	FWD(SLURM_ERROR, step_start, step_ptr);
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	FWD(SLURM_ERROR, step_finish, step_ptr, killing_step);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	FWD(SLURM_ERROR, nodeinfo_pack, nodeinfo, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	FWD(SLURM_ERROR, nodeinfo_unpack, nodeinfo, buffer, protocol_version);
}

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	FWD(NULL, nodeinfo_alloc);
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	FWD(SLURM_ERROR, nodeinfo_free, nodeinfo);
}

extern int select_p_select_nodeinfo_set_all(void)
{
	FWD(SLURM_ERROR, nodeinfo_set_all);
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	FWD(SLURM_ERROR, nodeinfo_set, job_ptr);
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	FWD(SLURM_ERROR, nodeinfo_get, nodeinfo, dinfo, state, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	FWD(NULL, jobinfo_alloc);
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	FWD(SLURM_ERROR, jobinfo_free, jobinfo);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	FWD(SLURM_ERROR, jobinfo_set, jobinfo, data_type, data);
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	FWD(SLURM_ERROR, jobinfo_get, jobinfo, data_type, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *jobinfo)
{
	FWD(NULL, jobinfo_copy, jobinfo);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	FWD(SLURM_ERROR, jobinfo_pack, jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	FWD(SLURM_ERROR, jobinfo_unpack, jobinfo, buffer, protocol_version);
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	FWD(SLURM_ERROR, get_info_from_plugin, dinfo, job_ptr, data);
}

extern int select_p_reconfigure(void)
{
	if (in_ctld) {
		slurm_mutex_lock(&track_lock);
		_index_drop_locked();
		slurm_mutex_unlock(&track_lock);
		sd_affinity_nodes_changed();
	}
	FWD(SLURM_ERROR, reconfigure);
}
