/*
 * estimator.c - sched/deadline and deadline-estimatord (doc/estimator.md):
 *
 *  - priors: a phase that has no completed task yet gets the estimator's
 *    history-based length (prior_mean/prior_p90/prior_source of the core's
 *    dl_phase), so the policy can rank and size it before it has samples;
 *    the estimator's "default" answer is not used (it knows nothing); a
 *    cycle it does not answer in gives each phase its last answer
 *    (estimate/prior_cache.h), so one slow reply does not leave a job
 *    without its task length;
 *  - observe: every task the plugin counts as completed is queued once
 *    (snapshot.c calls sdl_est_queue when the tracker counts it) and sent in
 *    batches, once the estimator is in use: it answered since slurmctld
 *    started, or the queue file (empty when all was sent) says it was in
 *    use before, so tasks that finish while it is down across a slurmctld
 *    restart are kept too (a site that never ran it accumulates nothing);
 *    a task the estimator rejects is dropped alone; what is not yet
 *    acknowledged is kept in StateSaveLocation, written before the
 *    tracker's state (at once when it empties, at most once a minute while
 *    it grows, and at shutdown), so across a restart a counted task is
 *    acknowledged or queued — after a crash at most the last minute's
 *    tasks are lost for the estimator; a resend is recognised by the
 *    estimator as a duplicate; each record carries the task's usage
 *    profile and its source (common/usage.h: declared --task-profile,
 *    else the Slurm request), which the estimator learns profiles from;
 *  - the estimator's state for the cycle's log line and sdeadline ("ok",
 *    "down since 12:01:03: using job mu", ...).
 *
 * Only the plan thread calls these, with no slurmctld lock held; every
 * estimator call is bounded by EstimatorTimeout, and after a failure the
 * client backs off (no call at all for 1 s doubling to 60 s), so a dead or
 * slow estimator costs a cycle at most one timeout.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/io/atomic_file.h"
#include "common/io/utf8.h"
#include "common/policy/ras.h"
#include "common/estimate/est_proto.h"
#include "common/estimate/estimate.h"
#include "common/estimate/estimator_client.h"
#include "common/estimate/prior_cache.h"
#include "common/realtime/realtime.h"
#include "sched_deadline.h"

#define SDL_EST_QUEUE_FILE "deadline_estimator_queue"
#define SDL_EST_QUEUE_MAX  100000 /* tasks kept while the estimator is away */
#define SDL_EST_CHUNK      1000   /* tasks per line of the queue file */
#define SDL_EST_SAVE_EVERY 60     /* s between rewrites of a changing queue */

struct est_task {
	uint64_t array;
	uint32_t task;
	int phase;
	double start, end;
	double cpu, mem, io; /* usage, NaN = unknown */
	enum dl_usage_source usage;
	char user[32], name[64], node[64];
};

static struct dl_est_client *client = NULL;
/* the estimator's last answer for each phase asked about: a cycle it does
 * not answer in plans with those (estimate/prior_cache.h) */
static struct dl_prior_cache *prior_cache = NULL;
static char *client_path = NULL;
static struct est_task *queue = NULL;
static uint32_t nqueue = 0, capqueue = 0;
static bool queue_dirty = false;
static uint64_t dropped = 0;
static enum dl_est_state last_state = DL_EST_STATE_NEW;
/* tasks are queued only for an estimator that is in use: one that answered
 * since slurmctld started, or left a queue from before */
static bool in_use = false;
/* Policy=ras/reverse: ask for the learned task profile of every active
 * phase too, not only for the priors of phases without completions */
static bool want_profiles = false;
/* Policy=realtime: the quantiles of every active phase's (user, name,
 * phase) go to the admitted set's worst-case cache, which
 * job_submit/deadline judges new submissions with (doc/realtime.md) */
static bool want_worst = false;
static time_t saved_at = 0;

static char *_queue_path(void)
{
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      SDL_EST_QUEUE_FILE);
}

extern void sdl_est_configure(const struct dl_config *cfg)
{
	const char *path = cfg->estimator_socket;

	want_profiles = cfg->policy == DL_POLICY_RAS ||
			cfg->policy == DL_POLICY_REVERSE;
	if (cfg->policy == DL_POLICY_PORTFOLIO) {
		enum dl_policy list[DL_POLICY_COUNT];
		uint32_t n = 0;

		if (!dl_policy_list_parse(cfg->portfolio_policies, list,
					  DL_POLICY_COUNT, &n, NULL, 0))
			for (uint32_t i = 0; i < n; i++)
				want_profiles |= list[i] == DL_POLICY_RAS ||
						 list[i] == DL_POLICY_REVERSE;
	}
	want_worst = cfg->policy == DL_POLICY_REALTIME;
	if (!path || !path[0]) {
		if (client)
			info("%s: EstimatorSocket unset: planning with the "
			     "jobs' "
			     "own task lengths only",
			     SDL_PREFIX);
		dl_est_client_free(client);
		client = NULL;
		xfree(client_path);
		dl_prior_cache_free(prior_cache);
		prior_cache = NULL;
		return;
	}
	if (client && client_path && !strcmp(client_path, path)) {
		dl_est_client_set_timeout(client, cfg->estimator_timeout);
		return;
	}
	dl_est_client_free(client);
	xfree(client_path);
	client = dl_est_client_new(path, cfg->estimator_timeout);
	if (!client) {
		error("%s: EstimatorSocket=%s cannot be used (path too long?); "
		      "planning without the estimator",
		      SDL_PREFIX, path);
		return;
	}
	client_path = xstrdup(path);
	/* another estimator's answers are not this one's */
	dl_prior_cache_free(prior_cache);
	prior_cache = dl_prior_cache_new();
	last_state = DL_EST_STATE_NEW;
	in_use = false;
}

extern void sdl_est_queue(const struct dl_sstate *st,
			  const struct dl_array_rec *r, uint32_t task_id,
			  double start, double end, const char *node,
			  const struct dl_demand *usage,
			  enum dl_usage_source src)
{
	const struct dl_array_rec *m = NULL;
	struct est_task *t;

	if (!client || !in_use || !r || !r->user[0] || !(end >= start) ||
	    !(start > 0))
		return;
	if (nqueue == SDL_EST_QUEUE_MAX) {
		/* the estimator has been away for very long: keep the
		 * newest tasks */
		memmove(queue, queue + 1, (nqueue - 1) * sizeof(*queue));
		nqueue--;
		if (!dropped++)
			error("%s: estimator queue full (%d tasks): dropping "
			      "the oldest",
			      SDL_PREFIX, SDL_EST_QUEUE_MAX);
	}
	if (nqueue == capqueue) {
		capqueue = capqueue ? capqueue * 2 : 256;
		xrecalloc(queue, capqueue, sizeof(*queue));
	}
	t = &queue[nqueue++];
	memset(t, 0, sizeof(*t));
	t->array = r->id;
	t->task = task_id;
	t->phase = r->map_id ? DL_REDUCE : DL_MAP;
	t->start = start;
	t->end = end;
	t->usage = usage ? src : DL_USAGE_NONE;
	t->cpu = t->usage ? usage->cpu : NAN;
	t->mem = t->usage ? usage->mem : NAN;
	t->io = t->usage ? usage->io : NAN;
	/* valid UTF-8 however the names were cut (common/io/utf8.h) */
	dl_utf8_copy(t->user, sizeof(t->user), r->user);
	/* a MapReduce job's history is keyed by its map array's name, the
	 * name the prediction asks with (the core's job carries one name) */
	if (r->map_id)
		m = dl_sstate_find(st, r->map_id);
	dl_utf8_copy(t->name, sizeof(t->name), m ? m->name : r->name);
	if (node)
		dl_utf8_copy(t->node, sizeof(t->node), node);
	queue_dirty = true;
}

static void _to_rec(const struct est_task *t, struct dl_task_rec *r)
{
	*r = (struct dl_task_rec){
		.job_id = t->array,
		.task = t->task,
		.user = t->user,
		.name = t->name,
		.phase = t->phase,
		.start = t->start,
		.end = t->end,
		.input_bytes = NAN,
		.cpu = t->cpu,
		.mem = t->mem,
		.io = t->io,
		.usage = t->usage,
		.node = t->node[0] ? t->node : NULL,
	};
}

/* Send the queue; drop what was acknowledged or rejected.  The estimator
 * rejects a bad task alone (the client isolates it even from an estimator
 * that refuses whole requests), so a bad record never costs the others. */
static void _observe(uint32_t *sent_out)
{
	struct dl_task_rec *recs;
	size_t stored = 0, sent = 0, rejected = 0;
	int rc;

	*sent_out = 0;
	if (!nqueue)
		return;
	recs = xcalloc(nqueue, sizeof(*recs));
	for (uint32_t i = 0; i < nqueue; i++)
		_to_rec(&queue[i], &recs[i]);
	rc = dl_est_observe(client, recs, nqueue, &stored, &sent, &rejected);
	xfree(recs);
	if (rc && rc != EAGAIN)
		debug("%s: observe: %s (%zu of %u tasks acknowledged)",
		      SDL_PREFIX, dl_est_client_last_error(client), sent,
		      nqueue);
	if (rc == EACCES)
		/* refused, not lost in transit: kept until the access rules
		 * let slurmctld in */
		error("%s: the estimator refused finished tasks (%s); is "
		      "slurmctld's user its SlurmUser?",
		      SDL_PREFIX, dl_est_client_last_error(client));
	if (rejected)
		error("%s: the estimator rejected %zu of %zu finished tasks "
		      "(%s); the others were stored",
		      SDL_PREFIX, rejected, sent,
		      dl_est_client_last_error(client));
	if (sent) {
		memmove(queue, queue + sent, (nqueue - sent) * sizeof(*queue));
		nqueue -= (uint32_t) sent;
		queue_dirty = true;
		*sent_out = (uint32_t) sent;
	}
}

/* Ask for priors of every phase that has no completed task yet and, for
 * ras/reverse, for the learned task profile of every active phase.  A
 * phase the estimator does not answer for this cycle gets its last answer
 * (*kept counts those). */
static uint32_t _priors(struct dl_job **jobs, uint32_t njobs, uint32_t *kept)
{
	struct dl_pred_query *q;
	struct dl_prior_key *keys;
	struct dl_prediction *out;
	struct dl_phase **ph;
	struct dl_job **pj;
	bool *answered, *fresh;
	int *status;
	uint32_t n = 0, used = 0, profiles = 0;
	int rc;

	q = xcalloc(2 * (size_t) njobs + 1, sizeof(*q));
	ph = xcalloc(2 * (size_t) njobs + 1, sizeof(*ph));
	pj = xcalloc(2 * (size_t) njobs + 1, sizeof(*pj));
	keys = xcalloc(2 * (size_t) njobs + 1, sizeof(*keys));
	for (uint32_t j = 0; j < njobs; j++) {
		for (int p = 0; p < DL_PHASES; p++) {
			struct dl_phase *f = &jobs[j]->phase[p];

			if (!f->tasks || !jobs[j]->user || !jobs[j]->user[0] ||
			    dl_phase_finished(f) ||
			    (dl_phase_done(f) && !want_profiles && !want_worst))
				continue;
			pj[n] = jobs[j];
			q[n] = (struct dl_pred_query){
				.user = jobs[j]->user,
				.name = jobs[j]->name ? jobs[j]->name : "",
				.phase = p,
				.tasks = f->tasks,
				.input_bytes = NAN,
			};
			keys[n] = (struct dl_prior_key){jobs[j]->id, p};
			ph[n++] = f;
		}
	}
	*kept = 0;
	if (!n) {
		/* no phase asked about: none of the cached answers is needed
		 * again */
		dl_prior_cache_cycle(prior_cache, NULL, NULL, NULL, 0);
		xfree(q);
		xfree(ph);
		xfree(pj);
		xfree(keys);
		return 0;
	}
	out = xcalloc(n, sizeof(*out));
	status = xcalloc(n, sizeof(*status));
	answered = xcalloc(n, sizeof(*answered));
	fresh = xcalloc(n, sizeof(*fresh));
	rc = dl_est_predict(client, q, n, out, status);
	for (uint32_t i = 0; i < n; i++)
		fresh[i] = answered[i] = !rc && !status[i];
	for (uint32_t i = 0; want_worst && i < n; i++) {
		/* history of the same (user, name, phase) only */
		struct dl_rt_quantiles wq = {out[i].p50, out[i].p90, out[i].p99,
					     out[i].max, out[i].n};

		if (fresh[i] && out[i].source == DL_PRED_NAME && out[i].n)
			dl_rt_wc_store(dl_rt_shared(), q[i].user, q[i].name,
				       q[i].phase, &wq, (double) time(NULL));
	}
	/* the phases it does not answer for now: its last answers */
	if (dl_prior_cache_cycle(prior_cache, keys, out, answered, n) < 0)
		error("%s: out of memory keeping the estimator's answers",
		      SDL_PREFIX);
	for (uint32_t i = 0; i < n; i++) {
		if (answered[i] && out[i].has_profile) {
			/* learned from past runs; a --task-profile hint wins
			 * (doc/ras-reverse.md) */
			struct dl_demand d = {out[i].profile.cpu,
					      out[i].profile.mem,
					      out[i].profile.io};
			bool map = q[i].phase == DL_MAP;

			profiles += dl_profile_use_learned(
				pj[i], map ? &d : NULL, map ? NULL : &d);
		}
		if (answered[i] && dl_phase_use_prediction(ph[i], &out[i])) {
			used++;
			*kept += !fresh[i];
		}
	}
	if (rc && rc != EAGAIN)
		debug("%s: predict: %s", SDL_PREFIX,
		      dl_est_client_last_error(client));
	if (profiles)
		debug("%s: %u learned task profiles in use", SDL_PREFIX,
		      profiles);
	xfree(q);
	xfree(ph);
	xfree(pj);
	xfree(keys);
	xfree(out);
	xfree(status);
	xfree(answered);
	xfree(fresh);
	return used;
}

extern void sdl_est_cycle(struct dl_job **jobs, uint32_t njobs, char *state,
			  size_t len)
{
	enum dl_est_state st;
	uint32_t sent = 0, priors = 0, kept = 0;
	char desc[48];

	if (!client) {
		snprintf(state, len, "off: using job mu");
		return;
	}
	_observe(&sent);
	priors = _priors(jobs, njobs, &kept);
	st = dl_est_client_state(client);
	if (!sent && !priors) {
		/* nothing asked this cycle: say whether it answers at all, so
		 * the state is current while idle too (one small round trip
		 * per cycle; the client's back-off keeps it to one try per
		 * period while the estimator is away) */
		dl_est_ping(client);
		st = dl_est_client_state(client);
	}
	if (st == DL_EST_STATE_OK && !in_use) {
		in_use = true;
		queue_dirty = true; /* the (empty) queue file records it */
	}
	dl_est_client_describe(client, kept > 0, desc, sizeof(desc));
	if (st == DL_EST_STATE_OK)
		snprintf(state, len, priors ? "ok (%u priors)" : "ok", priors);
	else
		snprintf(state, len, "%s", desc);
	if (st != last_state) {
		if (st == DL_EST_STATE_OK)
			info("%s: estimator at %s answers%s", SDL_PREFIX,
			     client_path,
			     last_state == DL_EST_STATE_NEW
				     ? ""
				     : " again: history priors in use");
		else if (st != DL_EST_STATE_NEW)
			error("%s: estimator at %s %s (%s): planning with the "
			      "jobs' own task lengths%s",
			      SDL_PREFIX, client_path,
			      st == DL_EST_STATE_SLOW   ? "is slow"
			      : st == DL_EST_STATE_BAD  ? "gives bad replies"
			      : st == DL_EST_STATE_BUSY ? "is busy"
							: "is down",
			      dl_est_client_last_error(client),
			      kept ? " and its last answers for the jobs it "
				     "knew"
				   : "");
		last_state = st;
	}
	if (sent || priors)
		debug("%s: estimator: %u finished tasks sent, %u queued, %u "
		      "priors (%u of them its last answers)",
		      SDL_PREFIX, sent, nqueue, priors, kept);
}

static void _save(bool now)
{
	char *path, *text = NULL, *pos = NULL;
	int rc;

	if (!queue_dirty)
		return;
	/* a queue that grows while the estimator is away is rewritten once a
	 * minute, not every cycle; emptied at once */
	if (!now && nqueue && time(NULL) - saved_at < SDL_EST_SAVE_EVERY)
		return;
	saved_at = time(NULL);
	path = _queue_path();
	if (!nqueue) {
		/* an empty file, not none: its existence is what tells the
		 * next slurmctld that the estimator is in use, so tasks that
		 * finish before it answers again are queued (and saved) */
		rc = dl_atomic_write(path, "", 0, 0600);
		if (rc)
			error("%s: cannot save the estimator queue to %s: %s",
			      SDL_PREFIX, path, strerror(rc));
		else
			queue_dirty = false;
		xfree(path);
		return;
	}
	/* the queue as observe request lines: read back with the protocol's
	 * own parser */
	for (uint32_t i = 0; i < nqueue; i += SDL_EST_CHUNK) {
		uint32_t k =
			nqueue - i < SDL_EST_CHUNK ? nqueue - i : SDL_EST_CHUNK;
		struct dl_task_rec *recs = xcalloc(k, sizeof(*recs));
		size_t l = 0;
		char *line;

		for (uint32_t j = 0; j < k; j++)
			_to_rec(&queue[i + j], &recs[j]);
		line = dl_est_build_observe(i / SDL_EST_CHUNK, recs, k, &l);
		xfree(recs);
		if (!line) {
			error("%s: out of memory saving the estimator queue",
			      SDL_PREFIX);
			xfree(text);
			xfree(path);
			return;
		}
		xstrcatat(text, &pos, line);
		free(line);
	}
	rc = dl_atomic_write(path, text, strlen(text), 0600);
	if (rc)
		error("%s: cannot save the estimator queue to %s: %s",
		      SDL_PREFIX, path, strerror(rc));
	else
		queue_dirty = false;
	xfree(text);
	xfree(path);
}

extern void sdl_est_save(void)
{
	_save(false);
}

extern void sdl_est_load(const struct dl_sstate *st)
{
	char *path = _queue_path(), *data = NULL, *line, *next;
	size_t len = 0;
	uint32_t n = 0, bad = 0;
	int rc;

	(void) st;
	if (!client) { /* no estimator configured: leave any file alone */
		xfree(path);
		return;
	}
	rc = dl_read_file(path, 256u << 20, &data, &len);
	if (rc) {
		if (rc != ENOENT)
			error("%s: cannot read the estimator queue %s: %s",
			      SDL_PREFIX, path, dl_file_strerror(rc));
		xfree(path);
		return;
	}
	for (line = data; line && *line; line = next) {
		struct dl_est_request req;
		struct dl_est_error err;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (dl_est_parse_request(line, strlen(line), &req, &err) ||
		    req.op != DL_EST_OBSERVE) {
			bad++;
			dl_est_request_free(&req);
			continue;
		}
		for (size_t i = 0; i < req.ntasks; i++) {
			const struct dl_task_rec *r = &req.tasks[i];
			struct est_task *t;

			if (nqueue == SDL_EST_QUEUE_MAX)
				break;
			if (nqueue == capqueue) {
				capqueue = capqueue ? capqueue * 2 : 256;
				xrecalloc(queue, capqueue, sizeof(*queue));
			}
			t = &queue[nqueue++];
			memset(t, 0, sizeof(*t));
			t->array = r->job_id;
			t->task = r->task >= 0 ? (uint32_t) r->task : 0;
			t->phase = r->phase;
			t->start = r->start;
			t->end = r->end;
			t->cpu = r->cpu;
			t->mem = r->mem;
			t->io = r->io;
			t->usage = r->usage;
			dl_utf8_copy(t->user, sizeof(t->user), r->user);
			dl_utf8_copy(t->name, sizeof(t->name), r->name);
			if (r->node)
				dl_utf8_copy(t->node, sizeof(t->node), r->node);
			n++;
		}
		dl_est_request_free(&req);
	}
	free(data);
	/* the file exists: the estimator was in use before this restart */
	in_use = true;
	if (n || bad)
		info("%s: %u finished tasks not yet sent to the estimator "
		     "restored from %s%s",
		     SDL_PREFIX, n, path,
		     bad ? " (some lines unreadable)" : "");
	xfree(path);
}

extern void sdl_est_fini(void)
{
	_save(true);
	dl_est_client_free(client);
	client = NULL;
	xfree(client_path);
	dl_prior_cache_free(prior_cache);
	prior_cache = NULL;
	xfree(queue);
	nqueue = capqueue = 0;
}
