/*
 * plan_access.h - how sdeadline finds and reads the published plan while
 * Slurm's PrivateData=jobs holds (doc/sdeadline.md):
 *
 *  - slurmctld writes the plan mode 0640; whoever can read it (root,
 *    SlurmUser, admins in its group) sees every row;
 *  - sdeadline may be installed setgid to a group that can read the plan
 *    (and nothing else).  It then runs with the caller's group and uses the
 *    extra group only to read the plan named by a trusted configuration
 *    (slurm.conf and deadline.conf owned by root, in a directory only root
 *    can change), and shows only rows of jobs that slurmctld itself returns
 *    to the caller (slurm_load_jobs, which applies PrivateData).
 */
#ifndef SDL_PLAN_ACCESS_H
#define SDL_PLAN_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/config/config.h"
#include "common/plan/plan.h"

struct sdl_access {
	bool setgid;          /* started with an extra effective group */
	gid_t plan_gid;       /* that group */
	char conf[4096];      /* slurm.conf in use */
	struct dl_config cfg; /* deadline.conf next to it (or defaults) */
	bool trusted;         /* conf and deadline.conf may steer the group */
	char why_untrusted[512];
};

/* Call first: drops the extra group until a plan read needs it, finds
 * slurm.conf and reads deadline.conf.  Never fails; problems end up in
 * why_untrusted or are reported by the read. */
void sdl_access_init(struct sdl_access *a);
void sdl_access_fini(struct sdl_access *a);
/* Give up the extra group for good (after the last read). */
void sdl_access_drop(struct sdl_access *a);

/* The plan file: PlanFile= of deadline.conf, else StateSaveLocation (asked
 * from slurmctld) + "/deadline_plan.json".  NULL with a message. */
char *sdl_plan_path(struct sdl_access *a, char *err, size_t errlen);

/* Read the plan.  With the caller's own rights first; if that is refused
 * and the path is the configured one (`configured`), with the extra group.
 * *filtered says the rows must be limited to the jobs Slurm shows the
 * caller.  NULL with a message. */
struct dl_plan *sdl_read_plan(struct sdl_access *a, const char *path,
			      bool configured, bool *filtered, char *err,
			      size_t errlen);

/* Every job id and array job id slurmctld returns to the caller (sorted by
 * the filter later).  0, or -1 with a message. */
int sdl_visible_jobs(uint64_t **ids, size_t *n, char *err, size_t errlen);

#endif
