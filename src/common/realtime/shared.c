/*
 * realtime/shared.c - the one admitted set of a process (slurmctld),
 * shared by job_submit/deadline and sched/deadline, restored once from
 * StateSaveLocation.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/io/atomic_file.h"
#include "common/realtime/realtime.h"

static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

static struct dl_rt_state *shared_state;

static void shared_init(void)
{
	shared_state = dl_rt_state_new();
}

struct dl_rt_state *dl_rt_shared(void)
{
	pthread_once(&shared_once, shared_init);
	return shared_state;
}

/* Tickets above the microseconds since the epoch: above every ticket an
 * earlier slurmctld handed out after its last save (it could not have
 * handed out one per microsecond), whatever state was restored. */
static void ticket_floor_from_clock(struct dl_rt_state *st)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) || ts.tv_sec < 0)
		return;
	dl_rt_ticket_floor(st, (uint64_t) ts.tv_sec * 1000000u +
				       (uint64_t) ts.tv_nsec / 1000u);
}

static pthread_mutex_t shared_load_lock = PTHREAD_MUTEX_INITIALIZER;

static bool shared_loaded;

static int shared_load_rc;

static char shared_load_err[256];

int dl_rt_shared_load(const char *path, char *err, size_t errlen)
{
	struct dl_rt_state *st = dl_rt_shared();
	int rc;

	if (!st || !path)
		return EINVAL;
	pthread_mutex_lock(&shared_load_lock);
	if (!shared_loaded) {
		shared_load_err[0] = '\0';
		shared_load_rc = dl_rt_state_load(st, path, shared_load_err,
						  sizeof(shared_load_err));
		shared_loaded = true;
		ticket_floor_from_clock(st);
		/* damaged: kept for the admin, not overwritten by the next
		 * save of the (empty) admitted set */
		if (shared_load_rc == EINVAL || shared_load_rc == EFBIG) {
			size_t l = strlen(shared_load_err);

			if (!dl_file_set_aside(path))
				snprintf(shared_load_err + l,
					 sizeof(shared_load_err) - l,
					 " (the file is kept as %s.bad)", path);
		}
	}
	rc = shared_load_rc;
	if (err && errlen)
		snprintf(err, errlen, "%s", shared_load_err);
	pthread_mutex_unlock(&shared_load_lock);
	return rc;
}
