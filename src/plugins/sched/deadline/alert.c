/*
 * alert.c - verdict alerts of sched/deadline: AlertProgram and mail through
 * MailProg (doc/sched-deadline.md, "Alerts").
 *
 * Which alerts are due is the core's decision (common/plan/alert.h); here
 * the plan thread, with no slurmctld lock held, turns each into commands
 * (program path, argv, environment, all built before anything runs) and
 * puts them on a bounded queue.  One worker thread runs them one at a
 * time with posix_spawn and polls for their end, killing a command (its
 * whole process group) that outlives AlertTimeout and reaping every child
 * it started.  The plan thread never waits for a command, and a full queue
 * drops alerts with an error rather than grow.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "src/common/log.h"
#include "src/common/macros.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/io/clock.h"
#include "common/plan/alert.h"
#include "sched_deadline.h"

#define SDL_ALERT_QUEUE   256       /* commands waiting to run */
#define SDL_ALERT_POLL_NS 20000000L /* 20 ms between two looks */

struct alert_cmd {
	char *argv[5];               /* argv[0] is the program's path */
	char *env[DL_ALERT_ENV_MAX]; /* NULL-terminated, malloc'd */
	char what[96];               /* for the log */
	double timeout;              /* seconds */
};

static struct dl_alert_tracker tracker; /* plan thread only */

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static struct alert_cmd *queue[SDL_ALERT_QUEUE];
static uint32_t q_head = 0, q_len = 0;
static bool q_stop = false;
static pthread_t worker = 0;
static uint64_t dropped = 0;

static void _cmd_free(struct alert_cmd *c)
{
	if (!c)
		return;
	for (int i = 0; i < 5; i++)
		xfree(c->argv[i]);
	for (int i = 0; i < DL_ALERT_ENV_MAX && c->env[i]; i++)
		free(c->env[i]);
	xfree(c);
}

/* The command's exit, or kill it when it outlives its time or slurmctld
 * stops; the child is reaped either way. */
static void _wait_child(struct alert_cmd *c, pid_t pid)
{
	uint64_t t0 = dl_monotonic_us();
	struct timespec nap = {0, SDL_ALERT_POLL_NS};
	bool killed = false;
	int status = 0;

	while (true) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		bool stop;

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			error("%s: alert %s: waitpid: %m", SDL_PREFIX, c->what);
			return;
		}
		slurm_mutex_lock(&q_lock);
		stop = q_stop;
		slurm_mutex_unlock(&q_lock);
		if (!killed &&
		    (stop ||
		     (double) (dl_monotonic_us() - t0) / 1e6 > c->timeout)) {
			/* its process group: what it started goes too */
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = true;
		}
		nanosleep(&nap, NULL);
	}
	if (killed)
		error("%s: alert %s: killed after %.0fs (AlertTimeout)",
		      SDL_PREFIX, c->what, c->timeout);
	else if (WIFEXITED(status) && WEXITSTATUS(status))
		error("%s: alert %s: %s exited with status %d", SDL_PREFIX,
		      c->what, c->argv[0], WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		error("%s: alert %s: %s killed by signal %d", SDL_PREFIX,
		      c->what, c->argv[0], WTERMSIG(status));
	else
		verbose("%s: alert %s: done in %.2fs", SDL_PREFIX, c->what,
			(double) (dl_monotonic_us() - t0) / 1e6);
}

static void _run(struct alert_cmd *c)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, deflt;
	pid_t pid;
	int rc;

	sigemptyset(&none);
	sigfillset(&deflt);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	/* stdin, stdout, stderr on /dev/null; none of slurmctld's files */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	/* a process group of its own (killed whole on timeout), default
	 * signal dispositions, nothing blocked */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &deflt);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
						POSIX_SPAWN_SETSIGMASK |
						POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, c->argv[0], &fa, &attr, c->argv, c->env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		error("%s: alert %s: cannot run %s: %s", SDL_PREFIX, c->what,
		      c->argv[0], strerror(rc));
		return;
	}
	_wait_child(c, pid);
}

static void *_worker(void *arg)
{
	(void) arg;
	while (true) {
		struct alert_cmd *c = NULL;

		slurm_mutex_lock(&q_lock);
		while (!q_stop && !q_len)
			slurm_cond_wait(&q_cond, &q_lock);
		if (q_len) {
			c = queue[q_head];
			q_head = (q_head + 1) % SDL_ALERT_QUEUE;
			q_len--;
		}
		slurm_mutex_unlock(&q_lock);
		if (!c)
			break; /* stopping with nothing left */
		_run(c);
		_cmd_free(c);
	}
	return NULL;
}

extern void sdl_alert_start(void)
{
	dl_alert_tracker_init(&tracker);
	slurm_mutex_lock(&q_lock);
	q_stop = false;
	slurm_mutex_unlock(&q_lock);
	slurm_thread_create(&worker, _worker, NULL);
}

extern void sdl_alert_stop(void)
{
	slurm_mutex_lock(&q_lock);
	q_stop = true;
	/* what has not started will not: slurmctld is going down */
	while (q_len) {
		_cmd_free(queue[q_head]);
		q_head = (q_head + 1) % SDL_ALERT_QUEUE;
		q_len--;
	}
	slurm_cond_signal(&q_cond);
	slurm_mutex_unlock(&q_lock);
	if (worker) {
		pthread_join(worker, NULL);
		worker = 0;
	}
	dl_alert_tracker_free(&tracker);
}

extern void sdl_alert_prime(const struct dl_plan *plan)
{
	if (dl_alert_prime(&tracker, plan))
		error("%s: out of memory restoring alert state", SDL_PREFIX);
}

static void _queue(struct alert_cmd *c)
{
	bool full;

	slurm_mutex_lock(&q_lock);
	full = q_len == SDL_ALERT_QUEUE || q_stop;
	if (!full) {
		queue[(q_head + q_len) % SDL_ALERT_QUEUE] = c;
		q_len++;
		slurm_cond_signal(&q_cond);
	}
	slurm_mutex_unlock(&q_lock);
	if (full) {
		dropped++;
		error("%s: alert %s dropped: %u commands already waiting "
		      "(%" PRIu64 " dropped so far)",
		      SDL_PREFIX, c->what, SDL_ALERT_QUEUE, dropped);
		_cmd_free(c);
	}
}

static struct alert_cmd *_cmd_new(const struct dl_alert *a, const char *via,
				  const struct dl_config *cfg)
{
	struct alert_cmd *c = xmalloc(sizeof(*c));

	if (dl_alert_env(a, c->env, DL_ALERT_ENV_MAX) < 0) {
		error("%s: out of memory building an alert", SDL_PREFIX);
		xfree(c);
		return NULL;
	}
	snprintf(c->what, sizeof(c->what), "%s of JobId=%" PRIu64 " (%s)",
		 dl_alert_kind_name(a->kind), a->job_id, via);
	c->timeout = cfg->alert_timeout;
	return c;
}

/* Slurm's --mail-type as the core's wants (alert.h) */
static unsigned _mail_wants(uint16_t mail_type)
{
	unsigned w = 0;

	if (mail_type & (MAIL_JOB_FAIL | MAIL_JOB_TIME100 | MAIL_JOB_TIME90 |
			 MAIL_JOB_TIME80 | MAIL_JOB_TIME50))
		w |= DL_MAIL_WANT_TROUBLE;
	if (mail_type & MAIL_JOB_END)
		w |= DL_MAIL_WANT_END;
	return w;
}

static void _mail(const struct dl_alert *a, const struct sdl_snapshot *snap,
		  const struct dl_config *cfg)
{
	const struct sdl_array *arr =
		a->job_id <= UINT32_MAX
			? sdl_snapshot_array(snap, (uint32_t) a->job_id)
			: NULL;
	struct alert_cmd *c;
	char subject[256];

	if (!arr || !snap->mail_prog || !snap->mail_prog[0])
		return; /* the record is gone, or no MailProg */
	if (!dl_alert_mail_wanted(a->kind, _mail_wants(arr->mail_type)))
		return;
	if (!dl_alert_mail_user_ok(arr->mail_user)) {
		error("%s: alert %s of JobId=%" PRIu64
		      ": --mail-user not usable as an address, no mail",
		      SDL_PREFIX, dl_alert_kind_name(a->kind), a->job_id);
		return;
	}
	if (!(c = _cmd_new(a, "mail", cfg)))
		return;
	dl_alert_subject(a, subject, sizeof(subject));
	c->argv[0] = xstrdup(snap->mail_prog);
	c->argv[1] = xstrdup("-s");
	c->argv[2] = xstrdup(subject);
	c->argv[3] = xstrdup(arr->mail_user);
	_queue(c);
}

static void _program(const struct dl_alert *a, const struct dl_config *cfg)
{
	struct alert_cmd *c;

	if (!cfg->alert_program || !cfg->alert_program[0])
		return;
	if (cfg->alert_program[0] != '/') {
		error("%s: AlertProgram=%s is not an absolute path: not run",
		      SDL_PREFIX, cfg->alert_program);
		return;
	}
	if (!(c = _cmd_new(a, "AlertProgram", cfg)))
		return;
	c->argv[0] = xstrdup(cfg->alert_program);
	_queue(c);
}

extern void sdl_alert_cycle(const struct dl_plan *plan,
			    const struct sdl_snapshot *snap,
			    const struct dl_config *cfg)
{
	struct dl_alert *due = NULL;
	uint32_t n = 0;
	bool program = cfg->alert_program && cfg->alert_program[0];
	bool mail = cfg->alert_mail == DL_YES;
	int rc;

	/* the tracker follows every plan, so that switching alerts on does
	 * not replay the verdicts of jobs that were already at risk */
	rc = dl_alert_scan(&tracker, plan, plan->now, cfg->alert_interval, &due,
			   &n);
	if (rc) {
		error("%s: alerts of cycle %" PRIu64 " not sent: %s",
		      SDL_PREFIX, plan->cycle, strerror(rc));
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (program || mail)
			info("%s: alert %s: JobId=%" PRIu64 " user %s: %s",
			     SDL_PREFIX, dl_alert_kind_name(due[i].kind),
			     due[i].job_id, due[i].user, due[i].explain);
		if (program)
			_program(&due[i], cfg);
		if (mail)
			_mail(&due[i], snap, cfg);
	}
	free(due);
}
