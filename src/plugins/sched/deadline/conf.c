/*
 * conf.c - deadline.conf (next to slurm.conf) through the core's reader,
 * dl_config_load(): names, defaults and validation exist once (the option
 * table), the file is opened without ever waiting (a FIFO is refused), and
 * what Slurm's s_p_hashtbl let through is refused with the line: an
 * unterminated quote (it took it literally), a NUL byte (it silently
 * dropped the rest of the file), an empty file (it switched e.g.
 * Policy=realtime to the default policy without a word).
 */
#include <errno.h>
#include <stdio.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/policy/policy.h"
#include "sched_deadline.h"

extern int sdl_conf_read(struct dl_config *cfg, char **path, char *err,
			 size_t errlen)
{
	struct dl_config tmp;
	char *file, sub[448];
	int rc;

	file = get_extra_conf_path("deadline.conf");
	if (path) {
		xfree(*path);
		*path = xstrdup(file);
	}
	if (dl_config_defaults(&tmp)) {
		snprintf(err, errlen, "out of memory");
		xfree(file);
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
	xfree(file);
	if (rc) {
		dl_config_free(&tmp);
		return SLURM_ERROR;
	}
	dl_config_free(cfg);
	*cfg = tmp;
	return SLURM_SUCCESS;
}
