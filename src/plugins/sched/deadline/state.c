/*
 * state.c - files of sched/deadline, always written with no slurmctld lock
 * held: the saved state (StateSaveLocation/deadline_state.json, 0600) and
 * the published plan (PlanFile, default StateSaveLocation/
 * deadline_plan.json, 0640), both replaced atomically.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/io/atomic_file.h"
#include "common/plan/plan_json.h"
#include "common/realtime/realtime.h"
#include "sched_deadline.h"

#define SDL_STATE_FILE "deadline_state.json"
#define SDL_PLAN_FILE  "deadline_plan.json"

extern char *sdl_state_path(void)
{
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      SDL_STATE_FILE);
}

/* the realtime admitted set; job_submit/deadline reads the same file */
extern char *sdl_rt_state_path(void)
{
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      DL_RT_STATE_FILE);
}

extern char *sdl_plan_path(const struct dl_config *cfg)
{
	if (cfg && cfg->plan_file && cfg->plan_file[0])
		return xstrdup(cfg->plan_file);
	return xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      SDL_PLAN_FILE);
}

extern void sdl_state_load(struct dl_sstate *st)
{
	char *path = sdl_state_path(), err[256];
	int rc = dl_sstate_load(st, path, err, sizeof(err));

	if (!rc)
		info("%s: restored the state of %u arrays from %s", SDL_PREFIX,
		     st->n, path);
	if (!rc && st->skipped)
		error("%s: %u unreadable array records in %s skipped, the "
		      "other %u kept (first: %s)",
		      SDL_PREFIX, st->skipped, path, st->n, err);
	else if (rc == ENOENT)
		info("%s: no saved state in %s: starting afresh", SDL_PREFIX,
		     path);
	else if (rc)
		error("%s: cannot restore saved state: %s; starting afresh "
		      "(the file is kept as %s.bad)",
		      SDL_PREFIX, err, path);
	if (rc && rc != ENOENT && (rc = dl_file_set_aside(path)))
		error("%s: cannot keep %s as .bad: %s", SDL_PREFIX, path,
		      strerror(rc));
	xfree(path);
}

extern void sdl_state_save(const struct dl_sstate *st)
{
	char *path = sdl_state_path();
	int rc = dl_sstate_save(st, path, 0600);

	if (rc)
		error("%s: cannot save state to %s: %s", SDL_PREFIX, path,
		      strerror(rc));
	xfree(path);
}

extern void sdl_plan_write(const struct dl_plan *plan,
			   const struct dl_config *cfg)
{
	char *path = sdl_plan_path(cfg);
	int rc = dl_plan_write_file(plan, path, 0640);

	if (rc)
		error("%s: cannot write the plan to %s: %s", SDL_PREFIX, path,
		      strerror(rc));
	xfree(path);
}
