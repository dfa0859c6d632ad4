/*
 * release_watch.c - ask slurmctld's main scheduler for a pass as soon as a
 * finished job's CPUs are free again.
 *
 * slurmctld frees a finished job's CPUs only when each of its nodes confirms
 * the job is gone.  Without an Epilog the confirmation is the node's answer
 * to the terminate request ("already complete"), and on that path slurmctld
 * only queues a pass for its background thread, which runs it up to
 * batch_sched_delay (3 s by default) later.  The plan thread's own pass at
 * a task end often comes while the node is still completing, and it looks
 * for changed jobs only every ReplanDelay/2.  So between those looks the
 * watch runs every SDL_RELEASE_TICK: it reads slurmctld's job-end counters
 * (no lock; a torn read only asks for one pass too many) and, while nodes
 * are completing, compares the completing-node bitmap with its last look
 * under the node read lock.  A job ended, or a node released, requests a
 * pass while deadline tasks wait to start (or a job was submitted since the
 * last look: it may have a deadline); slurmctld's scheduler thread
 * coalesces the requests.  With no deadline work waiting, Slurm schedules
 * as it ships: its own passes, no extra ones.
 */
#include <inttypes.h>

#include "slurm/slurm.h"
#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/xstring.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "common/io/clock.h"
#include "sched_deadline.h"

static bool enabled = true;
static bool configured = false;
static uint64_t ended_seen = 0;
static bitstr_t *completing_seen = NULL; /* cg_node_bitmap at the last look */
static bitstr_t *scratch = NULL;
static bool completing = false; /* nodes were completing at the last look */
static struct sdl_release_stats stats;

/* jobs (array tasks included) that ended: completed, cancelled or failed */
static uint64_t _ended(void)
{
	return (uint64_t) __atomic_load_n(&slurmctld_diag_stats.jobs_completed,
					  __ATOMIC_RELAXED) +
	       __atomic_load_n(&slurmctld_diag_stats.jobs_canceled,
			       __ATOMIC_RELAXED) +
	       __atomic_load_n(&slurmctld_diag_stats.jobs_failed,
			       __ATOMIC_RELAXED);
}

extern uint64_t sdl_jobs_submitted(void)
{
	return __atomic_load_n(&slurmctld_diag_stats.jobs_submitted,
			       __ATOMIC_RELAXED);
}

extern uint64_t sdl_job_events(void)
{
	return _ended() + sdl_jobs_submitted() +
	       __atomic_load_n(&slurmctld_diag_stats.jobs_started,
			       __ATOMIC_RELAXED);
}

extern bool sdl_release_watch_configure(void)
{
	/* conf READ: slurm_conf.sched_params */
	slurmctld_lock_t conf_lock = {READ_LOCK, NO_LOCK, NO_LOCK, NO_LOCK,
				      NO_LOCK};
	bool defer;

	lock_slurmctld(conf_lock);
	defer = xstrcasestr(slurm_conf.sched_params, "defer") != NULL;
	unlock_slurmctld(conf_lock);
	/* a site that set SchedulerParameters=defer asked for fewer passes,
	 * not one per job end */
	if (!configured || enabled == defer)
		info("%s: release watch %s", SDL_PREFIX,
		     defer ? "off: SchedulerParameters has defer"
			   : "on: a scheduling pass when CPUs are released");
	enabled = !defer;
	configured = true;
	ended_seen = _ended();
	return enabled;
}

extern void sdl_release_watch_tick(bool deadline_waits)
{
	/* node READ: cg_node_bitmap */
	slurmctld_lock_t node_lock = {NO_LOCK, NO_LOCK, READ_LOCK, NO_LOCK,
				      NO_LOCK};
	uint64_t ended, t0, hold;
	bool job_ended, released = false;

	if (!enabled)
		return;
	ended = _ended();
	job_ended = ended != ended_seen;
	ended_seen = ended;
	if (job_ended || completing) {
		lock_slurmctld(node_lock);
		t0 = dl_monotonic_us();
		if (cg_node_bitmap &&
		    (!completing_seen ||
		     bit_size(completing_seen) != bit_size(cg_node_bitmap))) {
			/* first look, or the node table changed size: a node
			 * completing before may be free now */
			released = completing;
			FREE_NULL_BITMAP(completing_seen);
			FREE_NULL_BITMAP(scratch);
			completing_seen = bit_copy(cg_node_bitmap);
			scratch = bit_copy(cg_node_bitmap);
		} else if (cg_node_bitmap) {
			/* released: completing at the last look, not now */
			bit_copybits(scratch, completing_seen);
			bit_and_not(scratch, cg_node_bitmap);
			released = bit_ffs(scratch) >= 0;
			bit_copybits(completing_seen, cg_node_bitmap);
		}
		completing = cg_node_bitmap && bit_ffs(cg_node_bitmap) >= 0;
		hold = dl_monotonic_us() - t0;
		unlock_slurmctld(node_lock);
		stats.looks++;
		if (hold > stats.max_hold_us)
			stats.max_hold_us = hold;
	}
	if (!job_ended && !released)
		return;
	if (!deadline_waits) {
		stats.idle++;
		return;
	}
	/* a job that just ended may still hold its node: the look after its
	 * release asks again */
	schedule(false);
	stats.passes++;
}

extern void sdl_release_watch_take_stats(struct sdl_release_stats *out)
{
	*out = stats;
	stats = (struct sdl_release_stats){0};
}

extern void sdl_release_watch_fini(void)
{
	FREE_NULL_BITMAP(completing_seen);
	FREE_NULL_BITMAP(scratch);
	completing = false;
}
