/*
 * conf.c - deadline.conf (next to slurm.conf) through the core's reader,
 * dl_config_load(): names, defaults and validation exist once (the option
 * table), the file is opened without ever waiting (a FIFO is refused), and
 * what Slurm's s_p_hashtbl let through is refused with the line: an
 * unterminated quote (it took it literally), a NUL byte (it silently
 * dropped the rest of the file), an empty file (it switched e.g.
 * Policy=realtime to the default policy without a word).  At plugin start
 * during a reconfigure a broken file gives way to its last good copy
 * (last_good.c).
 */
#include <errno.h>
#include <stdio.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/policy/policy.h"
#include "sched_deadline.h"

/* Read file into cfg; a missing file means every default.  cfg is
 * unchanged on error. */
static int _read_file(struct dl_config *cfg, const char *file, char *err,
		      size_t errlen)
{
	struct dl_config tmp;
	char sub[448];
	int rc;

	if (dl_config_defaults(&tmp)) {
		snprintf(err, errlen, "out of memory");
		return SLURM_ERROR;
	}
	rc = dl_config_load(&tmp, file, sub, sizeof(sub));
	if (rc == ENOENT) {
		/* no file: every option at its documented default */
		rc = 0;
	} else if (rc) {
		snprintf(err, errlen, "%s", sub);
	} else if (dl_policy_check_config(&tmp, sub, sizeof(sub))) {
		snprintf(err, errlen, "%s: %s", file, sub);
		rc = EINVAL;
	}
	if (rc) {
		dl_config_free(&tmp);
		return SLURM_ERROR;
	}
	dl_config_free(cfg);
	*cfg = tmp;
	return SLURM_SUCCESS;
}

extern int sdl_conf_read(struct dl_config *cfg, char **path, char *err,
			 size_t errlen)
{
	char *file = get_extra_conf_path("deadline.conf");
	int rc;

	if (path) {
		xfree(*path);
		*path = xstrdup(file);
	}
	rc = _read_file(cfg, file, err, errlen);
	xfree(file);
	return rc;
}

extern int sdl_conf_start(const char *prefix, struct dl_config *cfg,
			  char **path, bool *from_copy)
{
	char err[512] = "", err2[512] = "", why[512] = "", *copy;

	*from_copy = false;
	if (sdl_conf_read(cfg, path, err, sizeof(err)) == SLURM_SUCCESS)
		return SLURM_SUCCESS;
	copy = sdl_last_good_usable(SDL_CONF_NAME, why, sizeof(why));
	if (!copy) {
		/* a cold start, as with slurm.conf: refuse rather than run
		 * with settings the admin did not write */
		error("%s: %s", prefix, err);
		return SLURM_ERROR;
	}
	if (_read_file(cfg, copy, err2, sizeof(err2)) != SLURM_SUCCESS) {
		error("%s: %s; its last good copy cannot be used either: %s",
		      prefix, err, err2);
		xfree(copy);
		return SLURM_ERROR;
	}
	error("%s: %s; keeping the previous configuration (the %s): fix the "
	      "file and reconfigure again",
	      prefix, err, why);
	xfree(copy);
	*from_copy = true;
	return SLURM_SUCCESS;
}
