/*
 * plan_json.h - the published plan as JSON: written by the sched plugin
 * (atomically, for sdeadline and admins), read back by sdeadline and tests.
 * Format (version 1):
 *   {"version":1,"now":T,"policy":"adaptive","cycle":N,
 *    "stats":{...},"jobs":[{"job_id":..,"reduce_id":..,...}, ...]}
 */
#ifndef DL_PLAN_JSON_H
#define DL_PLAN_JSON_H

#include <stddef.h>

#include "common/plan/plan.h"

struct json_object;

/* A new JSON object for the plan (caller puts it), NULL when out of
 * memory. */
struct json_object *dl_plan_to_json(const struct dl_plan *plan);
/* Policy=portfolio's record of a plan (rounds, scores, decision) as the
 * plan's "portfolio" object; NULL when out of memory. */
struct json_object *
dl_plan_portfolio_to_json(const struct dl_plan_portfolio *p);
/* Serialised text (caller frees), NULL when out of memory. */
char *dl_plan_to_string(const struct dl_plan *plan);
/* Parse a plan; NULL with a message in err on malformed input. */
struct dl_plan *dl_plan_from_json(const struct json_object *obj, char *err,
				  size_t errlen);
struct dl_plan *dl_plan_from_string(const char *text, char *err, size_t errlen);

/* Write the plan to path atomically (temporary file, fsync, rename) with
 * the given mode.  Returns 0 or an errno value. */
int dl_plan_write_file(const struct dl_plan *plan, const char *path,
		       unsigned mode);
/* Read a plan file; NULL with err set on failure. */
struct dl_plan *dl_plan_read_file(const char *path, char *err, size_t errlen);

#endif
