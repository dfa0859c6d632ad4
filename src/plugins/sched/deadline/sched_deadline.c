/*
 * sched_deadline.c - SchedulerType=sched/deadline for Slurm 22.05.
 *
 * Loads sched/backfill inside itself, so jobs without deadlines keep
 * backfilling, and runs one plan thread: every PlanInterval, and within
 * ReplanDelay after job records change (a deadline job submitted, a task
 * ended), it takes a snapshot under the read locks, plans with no lock held
 * (the core's dl_policy_plan(); estimator calls belong there too), applies
 * the plan under the job write lock, then publishes the plan and saves its
 * state with no lock held.  Between cycles the same thread asks for a
 * main-scheduler pass when a finished job's CPUs are released
 * (release_watch.c).  See doc/sched-deadline.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/plugin.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "common/io/atomic_file.h"
#include "common/io/clock.h"
#include "common/io/log.h"
#include "common/model/forecast.h"
#include "common/plan/plan_json.h"
#include "common/policy/policy.h"
#include "common/portfolio/portfolio.h"
#include "common/realtime/realtime.h"
#include "sched_deadline.h"

const char plugin_name[] =
	"Deadline scheduler for MapReduce job arrays (wraps sched/backfill)";
const char plugin_type[] = "sched/deadline";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* forget finished arrays this long after slurmctld dropped their records */
#define SDL_RETENTION 3600.0

static plugin_context_t *bf_context = NULL;
static int (*bf_reconfig)(void) = NULL;
static const char *bf_syms[] = {"sched_p_reconfig"};

static pthread_t plan_thread = 0;
static pthread_mutex_t thread_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t thread_cond = PTHREAD_COND_INITIALIZER;
static bool stop_thread = false;
static bool reconfig_pending = false;

/* owned by the plan thread once it runs */
static struct dl_config cfg;
static struct dl_sstate tracker;
/* Policy=portfolio: the active policy and the last round (plan thread
 * only) */
static struct dl_pf_state portfolio;
static bool portfolio_ready = false;
static uint64_t last_sig = 0;
static uint64_t last_finished = 0;
static time_t next_plan = 0;
/* how late due cycles applied their plan after next_plan, in seconds:
 * the latest lateness seen, halving each due cycle after it */
static double cycle_late = 0;
/* the last snapshot had deadline tasks waiting to start (true until the
 * first one: the release watch asks for passes until it knows), and
 * sdl_jobs_submitted() when it was taken: a job submitted since may have
 * a deadline the next look will see */
static bool deadline_waits = true;
static uint64_t submitted_seen = 0;
static time_t seen_job_update = 0;
static time_t seen_at = 0;              /* when seen_job_update was read */
static uint64_t seen_events = 0;        /* sdl_job_events() before it */
static char *state_text = NULL;         /* last saved state, to skip rewrites */
static char *rt_text = NULL;            /* last saved realtime admitted set */
static uint32_t rt_logged = UINT32_MAX; /* admitted-set size last logged */
static struct dl_forecast *forecast = NULL; /* AvailabilityForecast= */
static struct dl_partset waiting_logged;    /* other_waiting last logged */

static double _realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* how often the plan thread looks for a due cycle or changed jobs */
static double _poll_interval(void)
{
	return cfg.replan_delay >= 0.5 ? cfg.replan_delay / 2 : 0.25;
}

/* How much later than now + PlanInterval the next cycle may apply its
 * plan (dl_policy_input.cycle_slack): now, task starts and next_plan have
 * whole seconds (1 s), the thread polls, and the cycle waits for locks and
 * the estimator (as late as recent due cycles were).  Tasks that end in
 * that gap while their array is idle-only lose their CPUs to work without
 * deadlines (a CI run of sched_claim.bats lost 2 such ends). */
static double _cycle_slack(void)
{
	return 1.0 + fmax(_poll_interval(), cycle_late);
}

static void _use_config(void)
{
	sdl_log_to_slurm(SDL_PREFIX, cfg.debug >= 2   ? DL_LOG_DEBUG
				     : cfg.debug == 1 ? DL_LOG_VERBOSE
						      : DL_LOG_INFO);
	info("%s: Policy=%s PlanInterval=%.0fs ReplanDelay=%.1fs "
	     "MaxDeadlineShare=%.2f EstimatorSocket=%s",
	     SDL_PREFIX, dl_policy_name(cfg.policy), cfg.plan_interval,
	     cfg.replan_delay, cfg.max_deadline_share,
	     cfg.estimator_socket && cfg.estimator_socket[0]
		     ? cfg.estimator_socket
		     : "(none)");
}

/* AvailabilityForecast= (reverse policy): read with no slurmctld lock held
 * (init, or the plan thread on reconfigure).  A relative path is taken from
 * deadline.conf's directory.  A file that cannot be used keeps the forecast
 * in force and says why: the one in memory, or at a start that is a
 * reconfigure (Slurm >= 23.11) its last good copy; none at a cold start. */
static void _load_forecast(const char *conf_path)
{
	struct dl_forecast *f = NULL;
	char err[512] = "", why[512] = "", *path = NULL, *copy;
	const char *name = cfg.availability_forecast;

	if (!name || !name[0]) {
		dl_forecast_free(forecast);
		forecast = NULL;
		return;
	}
	if (name[0] != '/' && conf_path && strrchr(conf_path, '/'))
		xstrfmtcat(path, "%.*s/%s",
			   (int) (strrchr(conf_path, '/') - conf_path),
			   conf_path, name);
	else
		path = xstrdup(name);
	if (dl_forecast_load(path, &f, err, sizeof(err))) {
		char err2[512] = "";

		if (!forecast &&
		    (copy = sdl_last_good_usable(SDL_FORECAST_NAME, why,
						 sizeof(why)))) {
			if (dl_forecast_load(copy, &forecast, err2,
					     sizeof(err2)))
				forecast = NULL;
			xfree(copy);
		}
		if (forecast && why[0])
			error("%s: AvailabilityForecast: %s; keeping the "
			      "previous forecast (the %s)",
			      SDL_PREFIX, err, why);
		else
			error("%s: AvailabilityForecast: %s; %s", SDL_PREFIX,
			      err,
			      forecast ? "keeping the previous forecast"
				       : "planning without external load");
	} else {
		sdl_last_good_save(SDL_FORECAST_NAME, path);
		info("%s: external load forecast from %s: %u node class%s",
		     SDL_PREFIX, path, dl_forecast_nclasses(f),
		     dl_forecast_nclasses(f) == 1 ? "" : "es");
		dl_forecast_free(forecast);
		forecast = f;
	}
	xfree(path);
}

/* deadline.conf again (scontrol reconfigure): a broken file keeps the
 * configuration in force. */
static void _reload_config(void)
{
	char err[512] = "", *path = NULL;

	if (sdl_conf_read(&cfg, &path, err, sizeof(err)) != SLURM_SUCCESS) {
		error("%s: %s; keeping the previous configuration", SDL_PREFIX,
		      err);
	} else {
		info("%s: configuration re-read (%s%s)", SDL_PREFIX,
		     access(path, F_OK) ? "defaults: no " : "", path);
		sdl_last_good_save(SDL_CONF_NAME, path);
		_use_config();
		_load_forecast(path);
		sdl_est_configure(&cfg);
		next_plan = 0; /* plan now with the new settings */
	}
	xfree(path);
}

/* The realtime admitted set (doc/realtime.md), next to the tracker's
 * state; written only when it changed. */
static void _save_realtime(void)
{
	char *path, *text;
	int rc;

	if (cfg.policy != DL_POLICY_REALTIME && !dl_rt_count(dl_rt_shared()))
		return;
	text = dl_rt_state_to_json(dl_rt_shared());
	if (!text) {
		error("%s: out of memory saving the realtime admitted set",
		      SDL_PREFIX);
		return;
	}
	if (rt_text && !strcmp(text, rt_text)) {
		free(text);
		return;
	}
	path = sdl_rt_state_path();
	rc = dl_atomic_write(path, text, strlen(text), 0600);
	if (rc)
		error("%s: cannot write %s: %s", SDL_PREFIX, path,
		      strerror(rc));
	xfree(path);
	free(rt_text);
	rt_text = rc ? NULL : text;
	if (rc)
		free(text);
}

static void _save_state(void)
{
	char *text;

	/* the estimator's unsent queue first: a task counted in the saved
	 * state is then either acknowledged or in the queue file */
	sdl_est_save();
	text = dl_sstate_to_string(&tracker);

	if (!text) {
		error("%s: out of memory saving state", SDL_PREFIX);
		return;
	}
	if (state_text && !strcmp(text, state_text)) {
		free(text);
	} else {
		sdl_state_save(&tracker);
		free(state_text);
		state_text = text;
	}
	_save_realtime();
}

/* Log where work without a deadline waits to start, when that changes: the
 * plans hand it the CPUs they leave idle there, so triage's reserve holds no
 * given-up job back for nothing (policy/reserve.h). */
static void _log_other_waiting(const struct dl_cluster *cl)
{
	char *names = NULL;

	if (dl_partset_equal(&cl->other_waiting, &waiting_logged) ||
	    dl_partset_copy(&waiting_logged, &cl->other_waiting))
		return; /* unchanged, or no memory: tried again next cycle */
	for (uint32_t p = 0; p < cl->npartitions; p++)
		if (dl_partset_has(&cl->other_waiting, p))
			xstrfmtcat(names, "%s%s", names ? "," : "",
				   cl->partitions[p] ? cl->partitions[p] : "?");
	if (names)
		info("%s: work without a deadline waits to start in "
		     "partition(s) %s",
		     SDL_PREFIX, names);
	else
		info("%s: no work without a deadline waits to start",
		     SDL_PREFIX);
	xfree(names);
}

/* Debug>=1: what the release watch did since the last look that found
 * jobs changed, and what it cost slurmctld (node read lock) */
static void _log_release_watch(void)
{
	struct sdl_release_stats st;

	sdl_release_watch_take_stats(&st);
	if (st.looks || st.passes || st.idle)
		info("%s: release watch since the last look: %" PRIu64
		     " scheduling passes requested, %" PRIu64
		     " ends or releases with no deadline work waiting, %" PRIu64
		     " looks under the node read lock (max hold %" PRIu64
		     " us)",
		     SDL_PREFIX, st.passes, st.idle, st.looks, st.max_hold_us);
}

static void _cycle(bool due)
{
	/* conf READ, job READ, node READ, part READ */
	slurmctld_lock_t read_lock = {READ_LOCK, READ_LOCK, READ_LOCK,
				      READ_LOCK, NO_LOCK};
	/* conf READ, job WRITE, part READ (priority_array) */
	slurmctld_lock_t write_lock = {READ_LOCK, WRITE_LOCK, NO_LOCK,
				       READ_LOCK, NO_LOCK};
	struct sdl_snapshot snap;
	struct dl_policy_input in = {0};
	struct dl_job **jobs = NULL;
	struct sdl_decision *dec = NULL;
	struct dl_plan *plan, *prev;
	uint32_t njobs = 0, ndec = 0, managed = 0, urgent = 0, kept = 0;
	uint64_t t0, snap_us, apply_us, sig, finished;
	char err[256], est[48], late[40] = "";
	int changes;
	bool placed;
	time_t now, due_at = next_plan;

	seen_events = sdl_job_events(); /* before: a later change is seen */
	submitted_seen = sdl_jobs_submitted();
	t0 = dl_monotonic_us();
	lock_slurmctld(read_lock);
	sdl_snapshot_take(&snap, &tracker, &cfg);
	unlock_slurmctld(read_lock);
	snap_us = dl_monotonic_us() - t0;
	seen_job_update = snap.job_update;
	seen_at = snap.taken;
	now = snap.taken;
	/* tasks a pass could start: a held array's cannot */
	deadline_waits = false;
	for (uint32_t i = 0; i < snap.narrays && !deadline_waits; i++)
		deadline_waits =
			snap.arrays[i].pending > 0 && !snap.arrays[i].held;
	if (cfg.debug >= 1)
		_log_release_watch();

	sig = sdl_snapshot_merge(&snap, &tracker, (double) now);
	finished = 0;
	for (uint32_t i = 0; i < tracker.n; i++)
		finished += tracker.recs[i].finished.count;
	if (finished > last_finished) {
		/* deadline tasks ended since the last look: ask for a
		 * main-scheduler pass now, in case the one slurmctld ran at
		 * the end found the node still completing (it would wait
		 * for the next event or batch_sched_delay) */
		schedule(false);
	}
	last_finished = finished;
	if (!due && sig == last_sig) {
		sdl_snapshot_free(&snap);
		return; /* nothing the plan depends on changed */
	}
	last_sig = sig;
	if (sdl_build_jobs(&snap, &tracker, &jobs, &njobs) != SLURM_SUCCESS) {
		error("%s: out of memory building the plan input", SDL_PREFIX);
		sdl_snapshot_free(&snap);
		return;
	}

	/* no lock held: finished tasks to the estimator, priors back */
	sdl_est_cycle(jobs, njobs, est, sizeof(est));

	/* the published plan is what the policy remembers (triage's
	 * give-ups and their hysteresis), as deadline-sim's engine passes
	 * its last plan: both must decide alike */
	prev = dl_plan_acquire();
	in.prev = prev;
	in.cluster = &snap.cl;
	in.jobs = jobs;
	in.njobs = njobs;
	in.cfg = &cfg;
	in.now = (double) now;
	in.cycle_slack = _cycle_slack();
	in.forecast = forecast;
	if (cfg.policy == DL_POLICY_REALTIME) {
		/* jobs admitted at submit carry a ticket: bind it to the id
		 * Slurm gave them; one still held whose ticket the set lost
		 * with a slurmctld that died before saving it takes it back
		 * once the plan has admitted it again */
		for (uint32_t i = 0; i < snap.narrays; i++) {
			const struct sdl_array *a = &snap.arrays[i];

			if (a->rt_ticket &&
			    dl_rt_bind(dl_rt_shared(), a->rt_ticket, a->id) ==
				    ENOENT &&
			    a->rt_held &&
			    !dl_rt_adopt_ticket(dl_rt_shared(), a->rt_ticket,
						a->id))
				info("%s: JobId=%u: realtime ticket %" PRIu64
				     " restored (lost with a slurmctld that "
				     "stopped before saving it)",
				     SDL_PREFIX, a->id, a->rt_ticket);
		}
		in.rt = dl_rt_shared();
	}
	if (cfg.policy == DL_POLICY_PORTFOLIO) {
		if (!portfolio_ready) {
			dl_pf_state_init(&portfolio);
			portfolio_ready = true;
		}
		/* its rounds run here, with no lock held, within
		 * PortfolioBudget */
		plan = dl_pf_plan(&portfolio, &in, err, sizeof(err));
	} else {
		plan = dl_policy_plan(&in, err, sizeof(err));
	}
	dl_plan_release(prev);
	in.prev = NULL;
	if (!plan) {
		error("%s: no plan this cycle: %s", SDL_PREFIX, err);
		sdl_free_jobs(jobs, njobs);
		sdl_snapshot_free(&snap);
		return;
	}
	plan->cycle = ++tracker.cycle;
	snprintf(plan->stats.estimator, sizeof(plan->stats.estimator), "%s",
		 est);
	sdl_annotate_plan(plan, &tracker);

	dec = sdl_decide(plan, &tracker, &snap, &ndec);
	t0 = dl_monotonic_us();
	lock_slurmctld(write_lock);
	changes = sdl_apply(dec, ndec, &cfg, snap.max_other_prio, time(NULL));
	seen_job_update = last_job_update;
	seen_at = time(NULL);
	unlock_slurmctld(write_lock);
	apply_us = dl_monotonic_us() - t0;
	if (due && due_at) {
		double l = fmax(_realtime() - (double) due_at, 0);

		snprintf(late, sizeof(late), ", applied %.2f s after due", l);
		cycle_late = fmax(fmin(l, cfg.plan_interval), cycle_late / 2);
	}

	plan->stats.snapshot_us = snap_us;
	plan->stats.apply_us = apply_us;
	sdl_record(dec, ndec, plan, &tracker);
	for (uint32_t i = 0; i < ndec; i++) {
		managed += dec[i].a.d.manage && !dec[i].gone;
		urgent += dec[i].prio_mode == DL_PRIO_URGENT;
		kept += dec[i].prio_mode == DL_PRIO_KEEP;
	}
	if (njobs || cfg.debug)
		info("%s: cycle %" PRIu64
		     ": %u jobs, %u arrays managed (%u urgent, %u kept), "
		     "%d changes; "
		     "compute %" PRIu64 " us, lock hold %" PRIu64
		     " us (snapshot %" PRIu64 " + apply %" PRIu64
		     ")%s; estimator %s",
		     SDL_PREFIX, plan->cycle, njobs, managed, urgent, kept,
		     changes, plan->stats.compute_us, snap_us + apply_us,
		     snap_us, apply_us, late, plan->stats.estimator);
	if (njobs || cfg.debug)
		_log_other_waiting(&snap.cl);
	if (in.rt && dl_rt_count(in.rt) != rt_logged) {
		rt_logged = dl_rt_count(in.rt);
		info("%s: realtime admitted set: %u jobs", SDL_PREFIX,
		     rt_logged);
	}

	placed = plan->nplace > 0;
	dl_plan_publish(plan); /* the plan is shared and read-only now */
	sdl_alert_cycle(plan, &snap, &cfg); /* queued: a worker runs them */
	/* start the allotted tasks now, once select/deadline can see the
	 * placement that allows them (ras/reverse: every new placement) */
	if (changes || placed)
		schedule(false);
	sdl_plan_write(plan, &cfg);
	dl_sstate_gc(&tracker, (double) now, SDL_RETENTION);
	_save_state();

	xfree(dec);
	sdl_free_jobs(jobs, njobs);
	sdl_snapshot_free(&snap);
	next_plan = now + (time_t) cfg.plan_interval;
}

static void *_plan_agent(void *arg)
{
	struct timespec ts;
	double next_look = 0; /* monotonic: the next look for a due cycle */
	bool watch_ready = false, watch_on = false;

	(void) arg;
	while (true) {
		double wait, now_m = dl_monotonic_s();
		bool reconf, due, changed;
		time_t now, update;

		if (next_look <= 0)
			next_look = now_m + _poll_interval();
		wait = fmax(next_look - now_m, 0);
		/* between looks, the release watch ticks (a job may end
		 * while deadline work waits that no plan has seen yet) */
		if (watch_on)
			wait = fmin(wait, SDL_RELEASE_TICK);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += (time_t) wait;
		ts.tv_nsec += (long) ((wait - (time_t) wait) * 1e9);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		slurm_mutex_lock(&thread_lock);
		if (!stop_thread && !reconfig_pending)
			slurm_cond_timedwait(&thread_cond, &thread_lock, &ts);
		reconf = reconfig_pending;
		reconfig_pending = false;
		slurm_mutex_unlock(&thread_lock);
		if (stop_thread)
			break;
		if (reconf)
			_reload_config();
		if (!job_list)
			continue; /* slurmctld still starting */
		if (reconf || !watch_ready) {
			watch_on = sdl_release_watch_configure();
			watch_ready = true;
		}
		if (watch_on)
			sdl_release_watch_tick(deadline_waits ||
					       sdl_jobs_submitted() !=
						       submitted_seen);
		if (!reconf && dl_monotonic_s() < next_look)
			continue;
		next_look = dl_monotonic_s() + _poll_interval();
		now = time(NULL);
		due = now >= next_plan;
		/* last_job_update has whole seconds: an update in the second
		 * we last looked may have come after the look, so look again
		 * once that second is over; slurmctld's job counters tell of
		 * a job submitted, started or ended at once */
		update = __atomic_load_n(&last_job_update, __ATOMIC_RELAXED);
		changed = update != seen_job_update ||
			  sdl_job_events() != seen_events ||
			  (update >= seen_at && now > seen_at);
		if (due || changed)
			_cycle(due);
	}
	return NULL;
}

/* The realtime admitted set, once per slurmctld (whichever of this plugin
 * and job_submit/deadline starts first restores it). */
static void _load_realtime(void)
{
	char err[256] = "", *path = sdl_rt_state_path();
	int rc = dl_rt_shared_load(path, err, sizeof(err));

	if (rc && rc != ENOENT)
		error("%s: realtime admitted set not restored: %s", SDL_PREFIX,
		      err);
	else if (!rc)
		info("%s: realtime admitted set: %u jobs from %s", SDL_PREFIX,
		     dl_rt_count(dl_rt_shared()), path);
	xfree(path);
}

/* The plan of the previous slurmctld, until the first cycle replaces it. */
static void _restore_plan(void)
{
	char *path = sdl_plan_path(&cfg), err[256];
	struct dl_plan *plan = dl_plan_read_file(path, err, sizeof(err));

	if (plan) {
		/* a placement plan carries its nodes: select/deadline
		 * enforces it until the first cycle replaces it */
		info("%s: restored the plan of cycle %" PRIu64
		     " (%u jobs, placement on %u nodes) from %s",
		     SDL_PREFIX, plan->cycle, plan->njobs, plan->nnodes, path);
		sdl_alert_prime(plan); /* no alert told twice */
		dl_plan_publish(plan);
	}
	xfree(path);
}

extern int init(void)
{
	char *path = NULL;
	bool from_copy = false;

	if (dl_config_defaults(&cfg)) {
		error("%s: out of memory", SDL_PREFIX);
		return SLURM_ERROR;
	}
	if (sdl_conf_start(SDL_PREFIX, &cfg, &path, &from_copy) !=
	    SLURM_SUCCESS) {
		xfree(path);
		return SLURM_ERROR;
	}
	if (!from_copy)
		sdl_last_good_save(SDL_CONF_NAME, path);
	info("%s: loaded (plugin_version 0x%x), configuration %s%s", SDL_PREFIX,
	     plugin_version,
	     from_copy            ? "from the last good copy of "
	     : access(path, F_OK) ? "defaults: no "
				  : "from ",
	     path);
	_use_config();
	_load_forecast(path);
	xfree(path);
	dl_sstate_init(&tracker);
	sdl_state_load(&tracker);
	_load_realtime();
	sdl_est_configure(&cfg); /* no connection yet: the plan thread's */
	sdl_est_load(&tracker);
	sdl_alert_start();
	_restore_plan();

	bf_context = plugin_context_create("sched", "sched/backfill",
					   (void **) &bf_reconfig, bf_syms,
					   sizeof(bf_syms));
	if (!bf_context) {
		error("%s: cannot load sched/backfill", SDL_PREFIX);
		return SLURM_ERROR;
	}
	stop_thread = false;
	slurm_thread_create(&plan_thread, _plan_agent, NULL);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
	slurm_mutex_lock(&thread_lock);
	stop_thread = true;
	slurm_cond_signal(&thread_cond);
	slurm_mutex_unlock(&thread_lock);
	if (plan_thread) {
		pthread_join(plan_thread, NULL);
		plan_thread = 0;
	}
	sdl_release_watch_fini();
	sdl_alert_stop();
	if (bf_context)
		plugin_context_destroy(bf_context); /* backfill's fini() */
	bf_context = NULL;
	bf_reconfig = NULL;
	sdl_est_fini(); /* its queue file before the tracker's state */
	sdl_state_save(&tracker);
	_save_realtime();
	free(rt_text);
	rt_text = NULL;
	dl_sstate_free(&tracker);
	free(state_text);
	state_text = NULL;
	dl_plan_publish(NULL);
	dl_log_set_sink(NULL, DL_LOG_ERROR);
	dl_config_free(&cfg);
	dl_forecast_free(forecast);
	forecast = NULL;
	dl_partset_free(&waiting_logged);
	if (portfolio_ready)
		dl_pf_state_free(&portfolio);
	portfolio_ready = false;
	info("%s: stopped", SDL_PREFIX);
}

extern int sched_p_reconfig(void)
{
	/* deadline.conf is read by the plan thread, outside every lock */
	slurm_mutex_lock(&thread_lock);
	reconfig_pending = true;
	slurm_cond_signal(&thread_cond);
	slurm_mutex_unlock(&thread_lock);
	if (bf_reconfig)
		return (*bf_reconfig)();
	return SLURM_SUCCESS;
}
