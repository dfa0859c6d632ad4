/*
 * plan_access.c - locate and read the published plan; the setgid mode of
 * sdeadline (see plan_access.h and doc/sdeadline.md).
 */
#include "plan_access.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "common/plan/plan_json.h"

/* Debian's Slurm reads this when SLURM_CONF is not set. */
#define SDL_DEFAULT_SLURM_CONF "/etc/slurm/slurm.conf"
#define SDL_PLAN_NAME          "deadline_plan.json"

/* A file that may steer a privileged read: root's, and neither it nor its
 * directory writable by anyone else. */
static int trusted_file(const char *path, bool must_exist, char *why,
			size_t len)
{
	char real[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	if (!realpath(path, real)) {
		if (errno == ENOENT && !must_exist)
			return 0;
		snprintf(why, len, "%.300s: %s", path, strerror(errno));
		return -1;
	}
	if (stat(real, &st)) {
		snprintf(why, len, "%.300s: %s", real, strerror(errno));
		return -1;
	}
	if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, len,
			 "%.300s is not owned by root or is writable by others",
			 real);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	if (stat(dirname(dir), &st) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(dir, sizeof(dir), "%s", real);
		snprintf(why, len,
			 "directory %.300s is not root's or is writable by "
			 "others",
			 dirname(dir));
		return -1;
	}
	return 0;
}

/* libslurm only when slurmctld must be asked: --plan and PlanFile= work
 * without any Slurm configuration. */
static void need_slurm(void)
{
	static bool done;

	if (!done) {
		slurm_init(NULL);
		done = true;
	}
}

void sdl_access_init(struct sdl_access *a)
{
	const char *env = getenv("SLURM_CONF");
	char path[4096 + 32], copy[4096], err[512];
	int rc;

	memset(a, 0, sizeof(*a));
	a->plan_gid = getegid();
	a->setgid = getegid() != getgid();
	/* run as the caller; the group comes back only to read the plan */
	if (a->setgid && setegid(getgid())) {
		perror("sdeadline: setegid");
		exit(1);
	}
	snprintf(a->conf, sizeof(a->conf), "%s",
		 env && *env ? env : SDL_DEFAULT_SLURM_CONF);
	snprintf(copy, sizeof(copy), "%s", a->conf);
	snprintf(path, sizeof(path), "%s/deadline.conf", dirname(copy));
	if (dl_config_defaults(&a->cfg)) {
		fprintf(stderr, "sdeadline: out of memory\n");
		exit(1);
	}
	rc = dl_config_load(&a->cfg, path, err, sizeof(err));
	if (rc && rc != ENOENT)
		fprintf(stderr,
			"sdeadline: %s (using the default plan location)\n",
			err);
	if (a->setgid)
		a->trusted = !trusted_file(a->conf, true, a->why_untrusted,
					   sizeof(a->why_untrusted)) &&
			     !trusted_file(path, false, a->why_untrusted,
					   sizeof(a->why_untrusted));
}

void sdl_access_fini(struct sdl_access *a)
{
	dl_config_free(&a->cfg);
}

void sdl_access_drop(struct sdl_access *a)
{
	gid_t g = getgid();

	if (a->setgid && setresgid(g, g, g)) {
		perror("sdeadline: setresgid");
		exit(1);
	}
	a->setgid = false;
}

char *sdl_plan_path(struct sdl_access *a, char *err, size_t errlen)
{
	slurm_conf_t *sc = NULL;
	char *out = NULL;

	if (a->cfg.plan_file && a->cfg.plan_file[0]) {
		out = strdup(a->cfg.plan_file);
		if (!out)
			snprintf(err, errlen, "out of memory");
		return out;
	}
	need_slurm();
	if (slurm_load_ctl_conf((time_t) 0, &sc) != SLURM_SUCCESS || !sc) {
		snprintf(err, errlen,
			 "cannot ask slurmctld for StateSaveLocation: %s (set "
			 "PlanFile= in deadline.conf or use --plan)",
			 slurm_strerror(errno));
		return NULL;
	}
	if (sc->state_save_location &&
	    asprintf(&out, "%s/%s", sc->state_save_location, SDL_PLAN_NAME) < 0)
		out = NULL;
	if (!out)
		snprintf(err, errlen, "slurmctld reports no StateSaveLocation");
	slurm_free_ctl_conf(sc);
	return out;
}

struct dl_plan *sdl_read_plan(struct sdl_access *a, const char *path,
			      bool configured, bool *filtered, char *err,
			      size_t errlen)
{
	struct dl_plan *plan;
	int saved;

	*filtered = false;
	/* access() checks the caller's real ids: can they read it anyway? */
	if (!access(path, R_OK) || errno != EACCES || !a->setgid || !configured)
		return dl_plan_read_file(path, err, errlen);
	if (!a->trusted) {
		snprintf(err, errlen,
			 "%s: Permission denied (not using sdeadline's group: "
			 "%s)",
			 path, a->why_untrusted);
		return NULL;
	}
	if (setegid(a->plan_gid)) {
		snprintf(err, errlen, "setegid: %s", strerror(errno));
		return NULL;
	}
	plan = dl_plan_read_file(path, err, errlen);
	saved = errno;
	if (setegid(getgid())) {
		perror("sdeadline: setegid");
		exit(1);
	}
	errno = saved;
	*filtered = plan != NULL;
	return plan;
}

int sdl_visible_jobs(uint64_t **ids, size_t *n, char *err, size_t errlen)
{
	job_info_msg_t *msg = NULL;
	uint64_t *v;
	size_t k = 0;

	*ids = NULL;
	*n = 0;
	need_slurm();
	if (slurm_load_jobs((time_t) 0, &msg, SHOW_ALL) != SLURM_SUCCESS) {
		snprintf(err, errlen, "cannot list your jobs: %s",
			 slurm_strerror(errno));
		return -1;
	}
	v = calloc(2 * (size_t) msg->record_count + 1, sizeof(*v));
	if (!v) {
		slurm_free_job_info_msg(msg);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];

		v[k++] = j->job_id;
		if (j->array_job_id && j->array_job_id != j->job_id)
			v[k++] = j->array_job_id;
	}
	slurm_free_job_info_msg(msg);
	*ids = v;
	*n = k;
	return 0;
}
