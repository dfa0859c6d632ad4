/*
 * conf.c - deadline.conf through Slurm's s_p_hashtbl.  The option names come
 * from the core's table (dl_options[]) and every value goes through
 * dl_config_set(), so names, defaults and validation exist once.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/parse_config.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "sched_deadline.h"

extern int sdl_conf_read(struct dl_config *cfg, char **path, char *err,
			 size_t errlen)
{
	s_p_options_t *opts;
	s_p_hashtbl_t *tbl;
	struct dl_config tmp;
	struct stat sb;
	char *file, sub[256];
	int n = 0, rc = SLURM_SUCCESS;

	file = get_extra_conf_path("deadline.conf");
	if (path) {
		xfree(*path);
		*path = xstrdup(file);
	}
	if (stat(file, &sb) && errno == ENOENT) {
		/* no file: every option at its documented default */
		if (dl_config_defaults(&tmp)) {
			snprintf(err, errlen, "out of memory");
			xfree(file);
			return SLURM_ERROR;
		}
		dl_config_free(cfg);
		*cfg = tmp;
		xfree(file);
		return SLURM_SUCCESS;
	}

	for (const struct dl_option *o = dl_options; o->name; o++)
		n++;
	opts = xcalloc(n + 1, sizeof(*opts));
	for (int i = 0; i < n; i++) {
		opts[i].key = (char *) dl_options[i].name;
		opts[i].type = S_P_STRING;
	}
	tbl = s_p_hashtbl_create(opts);
	if (s_p_parse_file(tbl, NULL, file, false, NULL) != SLURM_SUCCESS) {
		/* s_p_parse_file has logged the offending line */
		snprintf(err, errlen,
			 "%s cannot be parsed (unknown option or malformed "
			 "line; see the error above)",
			 file);
		rc = SLURM_ERROR;
		goto out;
	}
	if (dl_config_defaults(&tmp)) {
		snprintf(err, errlen, "out of memory");
		rc = SLURM_ERROR;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		char *val = NULL;

		if (!s_p_get_string(&val, dl_options[i].name, tbl))
			continue;
		if (dl_config_set(&tmp, dl_options[i].name, val, sub,
				  sizeof(sub))) {
			snprintf(err, errlen, "%s: %s", file, sub);
			xfree(val);
			dl_config_free(&tmp);
			rc = SLURM_ERROR;
			goto out;
		}
		xfree(val);
	}
	dl_config_free(cfg);
	*cfg = tmp;
out:
	s_p_hashtbl_destroy(tbl);
	xfree(opts);
	xfree(file);
	return rc;
}
