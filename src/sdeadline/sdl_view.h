/*
 * sdl_view.h - what sdeadline shows of a plan: row selection (--user,
 * --job, and the jobs Slurm lets the caller see) and the table and JSON
 * renderings.  Plain C with json-c, no Slurm headers, so the unit tests
 * drive it with fixture plans.
 */
#ifndef SDL_VIEW_H
#define SDL_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/plan/plan.h"

struct json_object;

struct sdl_filter {
	char **users; /* --user: plan rows of these users only */
	size_t nusers;
	uint64_t *jobs; /* --job: rows whose map or reduce array is one */
	size_t njobs;
	/* PrivateData: the job ids slurmctld showed the caller (sorted);
	 * used only when restrict_visible is set */
	bool restrict_visible;
	uint64_t *visible;
	size_t nvisible;
};

void sdl_filter_init(struct sdl_filter *f);
void sdl_filter_free(struct sdl_filter *f);
/* "alice,bob" (user names as in the plan).  0 or EINVAL/ENOMEM with a
 * message. */
int sdl_filter_add_users(struct sdl_filter *f, const char *csv, char *err,
			 size_t errlen);
/* "123,124_7,125_[1-3]": array job ids; a task suffix selects its array. */
int sdl_filter_add_jobs(struct sdl_filter *f, const char *csv, char *err,
			size_t errlen);
/* Take ownership of ids (sorted here) as the visible set. */
void sdl_filter_set_visible(struct sdl_filter *f, uint64_t *ids, size_t n);
bool sdl_selected(const struct sdl_filter *f, const struct dl_plan_job *j);
size_t sdl_count_selected(const struct dl_plan *p, const struct sdl_filter *f);

/* "met"/"missed"/"done" for a finished job, NULL while it runs. */
const char *sdl_outcome(const struct dl_plan_job *j);

/* The header line and one row per selected job.  utf8: print the
 * uncertainty as "±", else "+/-".  stale_after: warn when the plan is older
 * than this many seconds (0 = never). */
void sdl_print_table(FILE *out, const struct dl_plan *p,
		     const struct sdl_filter *f, double now, bool utf8,
		     double stale_after);

/* How the table looks. */
struct sdl_view {
	const char *format; /* --format; NULL = the default (or --long) */
	bool long_view;     /* --long: more fields, whole explanation wrapped
			       below each row */
	bool no_header;     /* --noheader: rows only */
	bool utf8;          /* "±" and "…", else "+/-" and "..." */
	size_t columns;     /* terminal width; 0 = not a terminal (the
			       explanation whole, --long wraps at 80) */
	double stale_after;
};

/* The table as v says; EINVAL for a bad format (sdl_check_format says
 * why), ENOMEM. */
int sdl_print(FILE *out, const struct dl_plan *p, const struct sdl_filter *f,
	      double now, const struct sdl_view *v);
/* 0, or EINVAL with the reason in err: a --format string (sdeadline(1)). */
int sdl_check_format(const char *fmt, char *err, size_t errlen);
/* Shorten s (UTF-8, in a buffer of size bytes) to at most cols columns,
 * cut at a blank and ended by "..." ("…" with utf8), never inside a word
 * unless the first word alone is longer; returns the new length in
 * bytes. */
size_t sdl_fit_words(char *s, size_t size, size_t cols, bool utf8);

/* {"cycle":..,"plan_time":..,"policy":..,"estimator":..,"jobs":[..]} with
 * the selected rows; NULL when out of memory. */
struct json_object *sdl_json(const struct dl_plan *p,
			     const struct sdl_filter *f);

#endif
