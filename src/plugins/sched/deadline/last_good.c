/*
 * last_good.c - the last good copy of a file the plugins read at start
 * (deadline.conf, the AvailabilityForecast file), kept in
 * StateSaveLocation as NAME.last-good.
 *
 * Why: from Slurm 23.11 `scontrol reconfigure` starts a new slurmctld that
 * loads every plugin afresh (slurm_compat.h, DL_RECONFIGURE_REEXECS).  A
 * plugin whose init() fails on a broken file then stops that slurmctld,
 * and the old one, which waits for it, re-initialises its sched plugin
 * from the same broken file and stops too.  With the copy, a reconfigure
 * keeps the settings in force and says why, as 22.05's in-process
 * reconfigure does.  A cold start still refuses a broken file, as Slurm
 * does with slurm.conf.
 *
 * The copy is the file's bytes after one comment line naming the source,
 * the slurmctld that wrote it and when (both file formats skip '#' lines);
 * an absent source is saved as that line alone (every default).  Written
 * by sched/deadline only, with no slurmctld lock held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/io/atomic_file.h"
#include "sched_deadline.h"

#define SDL_LAST_GOOD_MAX (16u << 20) /* larger files are not copied */
#define SDL_LAST_GOOD_TAG "# slurm-deadline: last good copy of "

extern char *sdl_last_good_path(const char *name)
{
	if (!slurm_conf.state_save_location || !name)
		return NULL;
	return xstrdup_printf("%s/%s.last-good", slurm_conf.state_save_location,
			      name);
}

extern void sdl_last_good_save(const char *name, const char *src)
{
	char *dst = sdl_last_good_path(name), *data = NULL, *text = NULL;
	char when[32];
	struct tm tm;
	time_t now = time(NULL);
	size_t len = 0;
	int rc = 0;

	if (!dst)
		return;
	if (src && src[0]) {
		rc = dl_read_file(src, SDL_LAST_GOOD_MAX, &data, &len);
		if (rc == ENOENT)
			rc = 0; /* absent: every default */
	}
	if (rc) {
		error("%s: cannot keep a copy of %s in %s: %s", SDL_PREFIX, src,
		      dst, strerror(rc));
		goto out;
	}
	if (!localtime_r(&now, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(when, sizeof(when), "%lld", (long long) now);
	xstrfmtcat(text, "%s%s (slurmctld pid %ld, %s)\n", SDL_LAST_GOOD_TAG,
		   src && src[0] ? src : "(none)", (long) getpid(), when);
	if (data && len)
		xstrcat(text, data);
	rc = dl_atomic_write(dst, text, strlen(text), 0600);
	if (rc)
		error("%s: cannot write %s: %s", SDL_PREFIX, dst, strerror(rc));
out:
	free(data);
	xfree(text);
	xfree(dst);
}

extern char *sdl_last_good_usable(const char *name, char *why, size_t len)
{
	char *path = sdl_last_good_path(name), line[1024] = "", *p;
	const char *reconf = getenv("SLURMCTLD_RECONF");
	long pid = -1;
	FILE *f;

	if (why && len)
		why[0] = '\0';
	if (!path)
		return NULL;
	/* only its first line matters here */
	f = fopen(path, "re");
	if (!f || !fgets(line, sizeof(line), f) ||
	    strncmp(line, SDL_LAST_GOOD_TAG, strlen(SDL_LAST_GOOD_TAG))) {
		if (why)
			snprintf(why, len, "no last good copy in %s", path);
		goto fail;
	}
	fclose(f);
	f = NULL;
	if ((p = strstr(line, "(slurmctld pid ")))
		pid = strtol(p + strlen("(slurmctld pid "), NULL, 10);
	/* a slurmctld started by a reconfigure, or the one that wrote the
	 * copy initialising its plugins again (its reconfigure failed) */
	if (!(reconf && reconf[0]) && pid != (long) getpid()) {
		if (why)
			snprintf(why, len,
				 "slurmctld is starting, not reconfiguring");
		goto fail;
	}
	line[strcspn(line, "\n")] = '\0';
	if (why) /* "last good copy of SRC (slurmctld pid N, TIME) in PATH" */
		snprintf(why, len, "%s in %s",
			 line + strlen("# slurm-deadline: "), path);
	return path;
fail:
	if (f)
		fclose(f);
	xfree(path);
	return NULL;
}
