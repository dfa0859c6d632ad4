/*
 * job_submit_deadline.c - JobSubmitPlugins=deadline for Slurm 22.05.
 *
 * Every policy: the deadline input of a submission is checked (a hard
 * --deadline in the past, the SPANK hints: a soft deadline in the past or
 * after the hard one, malformed values) and refused with a clear message.
 *
 * Policy=realtime: a job with a deadline gets its verdict now.  The request
 * is built from the job description (tasks of the array, CPUs per task,
 * time limit, deadline, Slurm's start window) and the worst-case task
 * lengths the sched plugin cached from the estimator, and judged by the
 * core's admission control on the process-wide admitted set (realtime.h):
 * only the set's memory is used, no I/O.  Admitted: the job carries a
 * ticket in its control environment (the sched plugin binds it to the job
 * id Slurm assigns after this plugin) and is created held (priority 0,
 * which Slurm shows as JobHeldUser), so that nothing of it starts before the
 * plan has its place in the queue: the sched plugin's next cycle releases it or
 * keeps it waiting.  Rejected: the submission fails with the core's
 * message (earliest guaranteed finish against the deadline, and a deadline
 * that would be admitted).  A map array submitted with --mr-reduces is
 * judged with its reduce tasks; the reduce array, which depends (afterok)
 * on it, is then attached to it (or judged again if it asks for more).
 *
 * Runs in the submit RPC under slurmctld's job read lock; see
 * doc/job-submit-deadline.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/uid.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "plugins/slurm_compat.h"

#include "common/io/clock.h"
#include "common/io/log.h"
#include "common/model/job_hints.h"
#include "common/plan/plan.h"
#include "common/realtime/realtime.h"
#include "sched_deadline.h"

const char plugin_name[] = "Deadline admission control at submit";
const char plugin_type[] = "job_submit/deadline";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define JSD_PREFIX "job_submit/deadline"

static struct dl_config cfg;
static bool cfg_loaded = false;

/* Whether sched/deadline plans this cluster (a new SchedulerType needs a
 * slurmctld restart, so slurm_conf's value stays true for our lifetime). */
static bool _sched_is_ours(void)
{
	return !xstrcmp(slurm_conf.schedtype, "sched/deadline");
}

extern int init(void)
{
	char err[512] = "", *path = NULL, *state = NULL;
	bool from_copy;
	int rc;

	if (dl_config_defaults(&cfg)) {
		error("%s: out of memory", JSD_PREFIX);
		return SLURM_ERROR;
	}
	/* as the sched plugin: a broken file refuses a cold start, and a
	 * reconfigure keeps the last good configuration */
	if (sdl_conf_start(JSD_PREFIX, &cfg, &path, &from_copy) !=
	    SLURM_SUCCESS) {
		xfree(path);
		return SLURM_ERROR;
	}
	cfg_loaded = true;
	xfree(path);
	/* the sched plugin installs its own sink when it starts; until then
	 * (or without it) the core logs here */
	sdl_log_to_slurm(JSD_PREFIX, DL_LOG_INFO);
	if (!dl_rt_shared() || dl_rt_configure(dl_rt_shared(), &cfg)) {
		error("%s: out of memory", JSD_PREFIX);
		return SLURM_ERROR;
	}
	if (slurm_conf.state_save_location) {
		state = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
				       DL_RT_STATE_FILE);
		rc = dl_rt_shared_load(state, err, sizeof(err));
		if (rc && rc != ENOENT)
			error("%s: realtime admitted set not restored: %s",
			      JSD_PREFIX, err);
		else if (!rc)
			info("%s: realtime admitted set restored from %s: %u "
			     "jobs",
			     JSD_PREFIX, state, dl_rt_count(dl_rt_shared()));
		xfree(state);
	}
	info("%s: loaded; Policy=%s", JSD_PREFIX, dl_policy_name(cfg.policy));
	if (cfg.policy == DL_POLICY_REALTIME && !_sched_is_ours())
		error("%s: Policy=realtime without "
		      "SchedulerType=sched/deadline "
		      "(this cluster runs %s): nothing would release an "
		      "admitted job's hold, so no submission is judged",
		      JSD_PREFIX,
		      slurm_conf.schedtype ? slurm_conf.schedtype : "none");
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	if (cfg_loaded)
		dl_config_free(&cfg);
	cfg_loaded = false;
	return SLURM_SUCCESS;
}

/* The policy in force: the published plan's (the sched plugin re-reads
 * deadline.conf on reconfigure), else deadline.conf's at our start. */
static enum dl_policy _policy(void)
{
	struct dl_plan *plan = dl_plan_acquire();
	enum dl_policy p = plan ? plan->policy : cfg.policy;

	dl_plan_release(plan);
	return p;
}

/* The message Slurm hands the submitting user: with an error, why the job
 * was refused; with SLURM_SUCCESS, sbatch prints it too ("sbatch: ...").
 * Every job_submit plugin writes into the same message: one line more, so
 * that an earlier plugin's line is kept. */
static int _answer(char **err_msg, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int _answer(char **err_msg, int rc, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (err_msg)
		xstrfmtcat(*err_msg, "%s%s", *err_msg && **err_msg ? "\n" : "",
			   msg);
	return rc;
}

/* ---- reading the job description ---- */

static time_t _hard_deadline(const job_desc_msg_t *d)
{
	return (d->deadline && d->deadline != NO_VAL) ? d->deadline : 0;
}

/* Tasks of the array ("0-99%4", "1,3,5-7"), 1 for a plain job, 0 when the
 * index list cannot be read (Slurm refuses it after us). */
static uint32_t _array_tasks(const job_desc_msg_t *d)
{
	bitstr_t *b;
	char *spec, *pct;
	uint32_t n = 0, max = slurm_conf.max_array_sz;

	if (!d->array_inx || !d->array_inx[0])
		return 1;
	if (!max || max == NO_VAL)
		max = 1001;
	spec = xstrdup(d->array_inx);
	if ((pct = strchr(spec, '%')))
		*pct = '\0';
	b = bit_alloc(max);
	if (bit_unfmt(b, spec) == 0)
		n = (uint32_t) bit_set_count(b);
	FREE_NULL_BITMAP(b);
	xfree(spec);
	return n;
}

/* The array's own limit on running tasks ("0-99%4": 4); 0 = none.  Read
 * as slurmctld reads it (the int atoi() gives after the first '%', kept
 * when above 0), whatever follows: it accepts "%x" as no limit. */
static uint32_t _own_limit(const job_desc_msg_t *d)
{
	const char *pct;
	int n;

	if (!d->array_inx || !(pct = strchr(d->array_inx, '%')))
		return 0;
	n = (int) strtol(pct + 1, NULL, 10);
	return n > 0 ? (uint32_t) n : 0;
}

static uint32_t _cpus_per_task(const job_desc_msg_t *d)
{
	uint32_t c = (d->cpus_per_task && d->cpus_per_task != NO_VAL16)
			     ? d->cpus_per_task
			     : 1;

	if (d->num_tasks && d->num_tasks != NO_VAL && d->num_tasks > 1)
		c *= d->num_tasks;
	if (d->min_cpus && d->min_cpus != NO_VAL && d->min_cpus > c)
		c = d->min_cpus;
	return c;
}

/* The partition the job will run in (the first one listed, else the
 * default). */
static part_record_t *_partition(const job_desc_msg_t *d)
{
	part_record_t *p = NULL;

	if (d->partition && d->partition[0]) {
		char *first = xstrdup(d->partition), *comma;

		if ((comma = strchr(first, ',')))
			*comma = '\0';
		p = find_part_record(first);
		xfree(first);
		return p;
	}
	return default_part_loc;
}

/* The time limit Slurm will give each task, in seconds; 0 = none. */
static double _time_limit(const job_desc_msg_t *d, const part_record_t *p)
{
	uint32_t m = d->time_limit;

	if (m == NO_VAL && p)
		m = p->default_time != NO_VAL ? p->default_time : p->max_time;
	if (m == NO_VAL || m == INFINITE || !m)
		return 0;
	return m * 60.0;
}

/* Slurm cancels what has not started once now + this passes a hard
 * deadline: time_min if set (Slurm sets 1 minute for a --deadline job
 * without a limit), else the time limit. */
static double _start_window(const job_desc_msg_t *d, double limit)
{
	if (d->time_min && d->time_min != NO_VAL)
		return d->time_min * 60.0;
	if (d->time_limit == NO_VAL)
		return 60;
	return limit;
}

/* CPUs of the partition's up nodes (the same test as sched/deadline's
 * snapshot). */
static double _partition_cpus(const part_record_t *p)
{
	double cpus = 0;

	if (!p || !p->node_bitmap)
		return 0;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *n = node_record_table_ptr[i];

		if (!n || !bit_test(p->node_bitmap, i))
			continue;
		if (IS_NODE_DOWN(n) || IS_NODE_DRAIN(n) || IS_NODE_FAIL(n) ||
		    IS_NODE_FUTURE(n) || IS_NODE_NO_RESPOND(n) ||
		    IS_NODE_POWERED_DOWN(n))
			continue;
		cpus += n->cpus;
	}
	return cpus;
}

/* The first array of the same user this job waits for with afterok
 * ("afterok:12:13,..."): its map phase. */
static job_record_t *_afterok_array(const job_desc_msg_t *d, uint32_t uid)
{
	const char *s = d->dependency, *p;

	if (!s)
		return NULL;
	for (p = strstr(s, "afterok:"); p; p = strstr(p + 1, "afterok:")) {
		const char *q = p + 8;

		while (*q >= '0' && *q <= '9') {
			char *end;
			unsigned long id = strtoul(q, &end, 10);
			job_record_t *j = find_job_record((uint32_t) id);

			if (j && j->array_job_id == (uint32_t) id &&
			    dl_mr_pair_allowed(j->user_id, uid))
				return j;
			/* "12_*", "12_3", "12(...)" then ':' or ',' */
			while (*end && *end != ':' && *end != ',')
				end++;
			if (*end != ':')
				break;
			q = end + 1;
		}
	}
	return NULL;
}

static bool _is_entry(const char *e, const char *name)
{
	size_t n = strlen(name);

	if (!e)
		return false;
	if (!strncmp(e, DL_ENV_PREFIX, strlen(DL_ENV_PREFIX)))
		e += strlen(DL_ENV_PREFIX);
	return !strncmp(e, name, n) && e[n] == '=';
}

/* Append an entry (xmalloc'd NAME=value) to a job control environment:
 * a job description's or, in job_modify, the job record's (under the job
 * write lock). */
static void _env_add(char ***env, uint32_t *size, char *entry)
{
	xrecalloc(*env, *size + 2, sizeof(**env));
	(*env)[(*size)++] = entry;
	(*env)[*size] = NULL;
}

/* Drop any ticket, hold, array limit and hold request entry from a
 * submission: only this plugin sets them. */
static void _strip_marks(job_desc_msg_t *d)
{
	uint32_t k = 0;

	for (uint32_t i = 0; d->spank_job_env && i < d->spank_job_env_size;
	     i++) {
		char *e = d->spank_job_env[i];

		if (_is_entry(e, DL_ENV_RT_TICKET) ||
		    _is_entry(e, DL_ENV_RT_HOLD) ||
		    _is_entry(e, DL_ENV_ARRAY_LIMIT) ||
		    _is_entry(e, DL_ENV_HOLD_REQUEST)) {
			xfree(e);
			continue;
		}
		d->spank_job_env[k++] = e;
	}
	if (k < d->spank_job_env_size) /* in bounds: one was dropped */
		d->spank_job_env[k] = NULL;
	d->spank_job_env_size = k;
}

/* Add the ticket, and the mark of a hold this plugin put on the job. */
static void _add_ticket(job_desc_msg_t *d, uint64_t ticket, bool held)
{
	_env_add(&d->spank_job_env, &d->spank_job_env_size,
		 xstrdup_printf("%s=%" PRIu64, DL_ENV_RT_TICKET, ticket));
	if (held)
		_env_add(&d->spank_job_env, &d->spank_job_env_size,
			 xstrdup_printf("%s=1", DL_ENV_RT_HOLD));
}

/* An array's limit at submit (%N, 0 = none), marked as job_modify marks an
 * update: sched/deadline then reads the array's limit from the mark from
 * its first sight on.  Before 23.11 another user's refused update is
 * stored too, and one made before the plan first saw the array was read as
 * the submitted %N. */
static void _mark_submit_limit(job_desc_msg_t *d)
{
	if (!d->array_inx || !d->array_inx[0])
		return;
	_env_add(&d->spank_job_env, &d->spank_job_env_size,
		 xstrdup_printf("%s=%u", DL_ENV_ARRAY_LIMIT, _own_limit(d)));
}

/* Whether uid may update the job, as _update_job() decides after calling
 * job_submit plugins: its owner, an operator or a coordinator of its
 * account.  Slurm 23.11 and later refuse anyone else before job_modify. */
static bool _may_update(const job_record_t *job_ptr, uint32_t uid)
{
#if DL_SLURM_AT_LEAST(23, 11, 0)
	(void) job_ptr;
	(void) uid;
	return true;
#else
	return job_ptr->user_id == uid || validate_operator((uid_t) uid) ||
	       assoc_mgr_is_user_acct_coord(acct_db_conn, uid,
					    job_ptr->account);
#endif
}

/* Set job_ptr's entry `name` to `value` (added when missing), saved with
 * the job's state. */
static void _set_mark(job_record_t *job_ptr, const char *name,
		      const char *value)
{
	char *entry = xstrdup_printf("%s=%s", name, value);
	uint32_t i;

	for (i = 0; job_ptr->spank_job_env && i < job_ptr->spank_job_env_size;
	     i++)
		if (_is_entry(job_ptr->spank_job_env[i], name))
			break;
	if (job_ptr->spank_job_env && i < job_ptr->spank_job_env_size) {
		xfree(job_ptr->spank_job_env[i]);
		job_ptr->spank_job_env[i] = entry;
	} else {
		_env_add(&job_ptr->spank_job_env, &job_ptr->spank_job_env_size,
			 entry);
	}
	last_job_update = time(NULL);
}

/* An ArrayTaskThrottle update: slurmctld stored it before calling
 * job_submit plugins (_update_job(), 22.05 to 24.11), parsing it as below
 * and ignoring a negative one.  Mark the stored value on the array's
 * record, saved with it, so that sched/deadline takes it as the array's
 * own limit even where it equals the plan's throttle.  Before 23.11 Slurm
 * stores it even for a requester it then refuses: not marked, and
 * sched/deadline puts the plan's throttle back. */
static void _mark_array_limit(const job_desc_msg_t *d, job_record_t *job_ptr,
			      uint32_t uid)
{
	char limit[16];

	/* into an int, as slurmctld reads it: it stored nothing below 0 */
	if (!d || !d->array_inx || !job_ptr || !job_ptr->array_recs ||
	    (int) strtoll(d->array_inx, NULL, 10) < 0)
		return;
	if (!_may_update(job_ptr, uid)) {
		info("%s: JobId=%u: ArrayTaskThrottle=%u set by uid %u, whom "
		     "slurmctld refuses the update: not the array's limit",
		     JSD_PREFIX, job_ptr->job_id,
		     job_ptr->array_recs->max_run_tasks, uid);
		return;
	}
	snprintf(limit, sizeof(limit), "%u",
		 job_ptr->array_recs->max_run_tasks);
	_set_mark(job_ptr, DL_ENV_ARRAY_LIMIT, limit);
	info("%s: JobId=%u: ArrayTaskThrottle=%u set by an update, marked "
	     "for sched/deadline as the array's own limit",
	     JSD_PREFIX, job_ptr->job_id, job_ptr->array_recs->max_run_tasks);
}

/* A hold asked for (scontrol hold or uhold: priority 0) on a pending record
 * already at priority 0, held by the plan or by this plugin at submit:
 * Slurm changes nothing an owner's request would show (an operator's only
 * the Reason), so sched/deadline, dropping its own hold later, would
 * release it.  Marked for sched/deadline, which keeps the record held until
 * a release.  An owner's release request takes an owner's mark back (Slurm
 * may refuse it: the plan's hold stays, the owner's is gone); any other
 * release that Slurm grants shows as a priority above 0, where
 * sched/deadline drops the mark. */
static void _mark_hold_request(const job_desc_msg_t *d, job_record_t *job_ptr,
			       uint32_t uid)
{
	enum dl_hold_request was, asked;

	if (!d || d->priority == NO_VAL || !job_ptr ||
	    !IS_JOB_PENDING(job_ptr) || !_may_update(job_ptr, uid))
		return;
	was = dl_hints_hold_request_from_env(job_ptr->spank_job_env,
					     job_ptr->spank_job_env_size);
	if (d->priority == INFINITE) {
		if (was == DL_HOLD_REQUEST_USER && uid == job_ptr->user_id) {
			_set_mark(job_ptr, DL_ENV_HOLD_REQUEST, "none");
			info("%s: JobId=%u: its owner's hold request taken "
			     "back (release by uid %u)",
			     JSD_PREFIX, job_ptr->job_id, uid);
		}
		return;
	}
	if (d->priority != 0 || job_ptr->priority)
		return; /* Slurm's own hold shows in the record */
	asked = uid == job_ptr->user_id ? DL_HOLD_REQUEST_USER
					: DL_HOLD_REQUEST_ADMIN;
	if (was == DL_HOLD_REQUEST_ADMIN)
		return; /* an owner's request adds nothing to an admin's */
	_set_mark(job_ptr, DL_ENV_HOLD_REQUEST, dl_hold_request_name(asked));
	info("%s: JobId=%u: hold asked for by uid %u while already held, "
	     "marked for sched/deadline as a %s hold",
	     JSD_PREFIX, job_ptr->job_id, uid, dl_hold_request_name(asked));
}

/* ---- realtime admission ---- */

static double _worst(struct dl_rt_state *st, const char *user, const char *name,
		     int phase, double limit, const char **source)
{
	struct dl_rt_worst w;

	if (dl_rt_wc_get(st, user, name, phase, limit, &w)) {
		*source = "none";
		return NAN;
	}
	*source = dl_rt_wc_source_name(w.source);
	return w.len;
}

static int _has_ticket(void *x, void *key)
{
	job_record_t *job_ptr = x;

	return job_ptr && job_ptr->spank_job_env_size &&
	       dl_rt_ticket_from_env(job_ptr->spank_job_env,
				     job_ptr->spank_job_env_size) ==
		       *(const uint64_t *) key;
}

/* A rejection names the admitted job it would make miss.  One admitted
 * since the sched plugin's last cycle is known only by its ticket: find
 * its record (one pass over job_list, under the job read lock, and only
 * on such a rejection) and bind it, so that judging again names its id.
 * True when bound. */
static bool _bind_blocker(struct dl_rt_state *st, const struct dl_rt_verdict *v)
{
	uint64_t ticket = v->blocker;
	job_record_t *job_ptr;

	if (!v->blocker_ticket || !job_list) /* set only on a rejection */
		return false;
	job_ptr = list_find_first(job_list, _has_ticket, &ticket);
	if (!job_ptr)
		return false;
	return dl_rt_bind(st, ticket,
			  job_ptr->array_job_id ? job_ptr->array_job_id
						: job_ptr->job_id) == 0;
}

static int _realtime(job_desc_msg_t *d, uint32_t uid,
		     const struct dl_job_hints *h, double deadline, time_t now,
		     char **err_msg)
{
	struct dl_rt_state *st = dl_rt_shared();
	part_record_t *part = _partition(d);
	job_record_t *map = _afterok_array(d, uid);
	struct dl_rt_request q;
	struct dl_rt_verdict v;
	struct dl_rt_params prm;
	const char *user, *src_map = "none", *src_red = "none";
	double limit, begin;
	uint32_t units[2];
	uint64_t ticket;
	int rc;

	if (!st || !part)
		return SLURM_SUCCESS; /* Slurm refuses a bad partition */
	if (dl_rt_get_params(st, &prm))
		return SLURM_SUCCESS;
	user = uid_to_string_cached((uid_t) uid);
	limit = _time_limit(d, part);
	if (dl_rt_pool_units(st, part->name, units, NULL) == ENOENT &&
	    dl_rt_set_pool(st, part->name,
			   dl_rt_share_units(_partition_cpus(part), prm.share),
			   0, (double) now))
		return _answer(err_msg, SLURM_ERROR,
			       "deadline: out of memory judging the job");
	ticket = dl_rt_new_ticket(st);

	if (map) {
		/* the reduce array of a pair: attach it to its map array */
		uint64_t t = dl_rt_ticket_from_env(map->spank_job_env,
						   map->spank_job_env_size);
		struct dl_rt_job_info info;
		const char *name = map->name ? map->name : "";
		double wc, latest;

		if (t)
			dl_rt_bind(st, t, map->array_job_id);
		if (dl_rt_job_get(st, map->array_job_id, &info))
			return _answer(
				err_msg, ESLURM_INVALID_TIME_VALUE,
				"deadline cannot be guaranteed: this array "
				"depends on job %u, which was not admitted "
				"by the realtime policy; give that array the "
				"deadline (or submit the pair with "
				"smapreduce --deadline)",
				map->array_job_id);
		wc = _worst(st, user, name, DL_REDUCE, limit, &src_red);
		latest =
			_hard_deadline(d)
				? dl_rt_latest_start((double) _hard_deadline(d),
						     _start_window(d, limit))
				: 0;
		rc = dl_rt_attach_reduce(st, map->array_job_id, 0, ticket,
					 _array_tasks(d), _cpus_per_task(d), wc,
					 latest, (double) now, &v);
		if (_bind_blocker(st, &v)) /* the same verdict, named by id */
			rc = dl_rt_attach_reduce(st, map->array_job_id, 0,
						 ticket, _array_tasks(d),
						 _cpus_per_task(d), wc, latest,
						 (double) now, &v);
		if (rc == 0 && v.admitted) {
			_add_ticket(d, ticket, false);
			info("%s: reduce array of JobId=%u (user %s): %s",
			     JSD_PREFIX, map->array_job_id, user, v.msg);
			return SLURM_SUCCESS;
		}
		info("%s: reduce array of JobId=%u (user %s) rejected: %s",
		     JSD_PREFIX, map->array_job_id, user, v.msg);
		return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
			       "%s (worst-case reduce task from %s)",
			       v.msg[0] ? v.msg : "cannot be judged", src_red);
	}

	/* a map (or only) array; its reduce tasks when announced */
	memset(&q, 0, sizeof(q));
	q.ticket = ticket;
	q.user = user;
	q.name = d->name ? d->name : "";
	q.pool = part->name;
	/* it starts when the plan releases it (or at --begin) */
	begin = (double) now;
	if (d->begin_time && d->begin_time != NO_VAL &&
	    (double) d->begin_time > begin)
		begin = (double) d->begin_time;
	q.arrival = begin;
	q.deadline = deadline;
	q.tasks[DL_MAP] = _array_tasks(d);
	q.cpus[DL_MAP] = _cpus_per_task(d);
	q.wc[DL_MAP] = _worst(st, user, q.name, DL_MAP, limit, &src_map);
	if (_hard_deadline(d))
		q.latest_start[DL_MAP] = dl_rt_latest_start(
			(double) _hard_deadline(d), _start_window(d, limit));
	if (h->mr_reduces > 0) {
		double ratio =
			h->reduce_cost > 0 ? h->reduce_cost : cfg.reduce_cost;

		q.tasks[DL_REDUCE] = (uint32_t) h->mr_reduces;
		q.cpus[DL_REDUCE] = q.cpus[DL_MAP];
		/* no history: the map worst case times the cost ratio, with
		 * the same overhead; the reduce array is checked against
		 * this when it comes */
		q.wc[DL_REDUCE] =
			_worst(st, user, q.name, DL_REDUCE, 0, &src_red);
		if (isnan(q.wc[DL_REDUCE]) && !isnan(q.wc[DL_MAP])) {
			q.wc[DL_REDUCE] =
				(q.wc[DL_MAP] - prm.overhead) * ratio +
				prm.overhead;
			src_red = "map worst case x ReduceCost";
		}
		q.latest_start[DL_REDUCE] = q.latest_start[DL_MAP];
	}
	if (!q.tasks[DL_MAP])
		return SLURM_SUCCESS; /* a bad --array: Slurm refuses it */
	rc = dl_rt_admit(st, &q, (double) now, true, &v);
	if (_bind_blocker(st, &v)) /* the same verdict, named by its id */
		rc = dl_rt_admit(st, &q, (double) now, true, &v);
	if (rc == 0 && v.admitted) {
		/* created held: sched/deadline releases it when the plan lets
		 * it start (a user's own -H stays a user hold) */
		bool hold = d->priority != 0;

		_add_ticket(d, ticket, hold);
		if (hold)
			d->priority = 0;
		info("%s: ticket %" PRIu64 " (user %s, %u+%u tasks): %s",
		     JSD_PREFIX, ticket, user, q.tasks[DL_MAP],
		     q.tasks[DL_REDUCE], v.msg);
		return SLURM_SUCCESS;
	}
	info("%s: rejected (user %s, %u+%u tasks): %s", JSD_PREFIX, user,
	     q.tasks[DL_MAP], q.tasks[DL_REDUCE], v.msg);
	if (rc && rc != ENOENT)
		return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
			       "deadline cannot be judged: %s", v.msg);
	return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
		       "%s (worst-case task from %s%s%s)", v.msg, src_map,
		       q.tasks[DL_REDUCE] ? ", reduce from " : "",
		       q.tasks[DL_REDUCE] ? src_red : "");
}

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid,
		      char **err_msg)
{
	struct dl_job_hints h;
	time_t now = time(NULL), hard;
	char err[256] = "";
	double deadline;
	uint64_t t0 = dl_monotonic_us();
	uint32_t uid, own_limit;
	int rc;

	if (!job_desc)
		return SLURM_SUCCESS;
	/* nobody but this plugin hands out tickets or marks limits */
	_strip_marks(job_desc);
	_mark_submit_limit(job_desc);
	dl_hints_init(&h);
	if (job_desc->spank_job_env_size &&
	    dl_hints_from_env(job_desc->spank_job_env,
			      job_desc->spank_job_env_size, &h, err,
			      sizeof(err)))
		return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
			       "deadline options: %s", err);
	hard = _hard_deadline(job_desc);
	if (hard && hard < now)
		return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
			       "--deadline is in the past");
	if (h.soft_deadline > 0 &&
	    dl_hints_check_soft(h.soft_deadline, (double) hard, (double) now,
				err, sizeof(err)))
		return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
			       "--soft-deadline: %s", err);
	if (_policy() != DL_POLICY_REALTIME)
		return SLURM_SUCCESS;
	deadline = h.soft_deadline > 0 ? h.soft_deadline : (double) hard;
	if (!(deadline > 0))
		return SLURM_SUCCESS; /* no deadline: nothing to guarantee */
	uid = job_desc->user_id != NO_VAL ? job_desc->user_id : submit_uid;
	/* only sched/deadline's plan releases the hold an admission puts on
	 * a job: under another scheduler it read JobHeldUser for ever */
	if (!_sched_is_ours()) {
		info("%s: not judged (user %u): SchedulerType=%s, not "
		     "sched/deadline",
		     JSD_PREFIX, uid,
		     slurm_conf.schedtype ? slurm_conf.schedtype : "(none)");
		return _answer(err_msg, SLURM_SUCCESS,
			       "deadline: not judged: Policy=realtime needs "
			       "SchedulerType=sched/deadline, which this "
			       "cluster does not run; this job runs as Slurm "
			       "schedules it");
	}
	/* sched/deadline plans job arrays only: a plain job admitted here
	 * stayed held at submit for ever (no plan releases it) and held a
	 * place in the admitted set until its ticket expired; it keeps
	 * Slurm's own treatment */
	if (!job_desc->array_inx || !job_desc->array_inx[0]) {
		info("%s: not judged (user %u, not a job array): Slurm's own "
		     "treatment",
		     JSD_PREFIX, uid);
		return _answer(err_msg, SLURM_SUCCESS,
			       "deadline: not a job array, so not judged: "
			       "Policy=realtime guarantees deadlines of job "
			       "arrays only; this job runs as Slurm schedules "
			       "it");
	}
	/* the guarantee rests on the width the plan sets; an array the user
	 * limits (%N) keeps its limit (the plan never runs more), so it is
	 * not judged; sched/deadline leaves it to Slurm as well */
	if ((own_limit = _own_limit(job_desc))) {
		info("%s: not judged (user %u, an array limited to %u tasks at "
		     "once): Slurm's own treatment",
		     JSD_PREFIX, uid, own_limit);
		return _answer(err_msg, SLURM_SUCCESS,
			       "deadline: an array with its own limit (%%%u), "
			       "so not judged: Policy=realtime guarantees a "
			       "deadline only where it sets how many tasks "
			       "run at once; this job runs as Slurm schedules "
			       "it, at most %u tasks at once",
			       own_limit, own_limit);
	}
	rc = _realtime(job_desc, uid, &h, deadline, now, err_msg);
	debug("%s: judged in %" PRIu64 " us", JSD_PREFIX,
	      dl_monotonic_us() - t0);
	return rc;
}

/* err_msg: NULL where Slurm has none (job_modify before 23.02) */
static int _modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,
		   uint32_t uid, char **err_msg)
{
	/* first: slurmctld keeps the throttle whatever this returns */
	_mark_array_limit(job_desc, job_ptr, uid);
	_mark_hold_request(job_desc, job_ptr, uid);
	/* a new deadline of an admitted job is taken over by the next plan:
	 * the job is held if it can no longer be guaranteed */
	if (job_desc && job_desc->deadline && job_desc->deadline != NO_VAL &&
	    job_desc->deadline < time(NULL))
		return _answer(err_msg, ESLURM_INVALID_TIME_VALUE,
			       "--deadline is in the past");
	return SLURM_SUCCESS;
}

extern int job_modify(DL_JOB_MODIFY_ARGS)
{
	return _modify(job_desc, job_ptr, submit_uid, DL_JOB_MODIFY_ERR_MSG);
}
