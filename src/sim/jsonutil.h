/*
 * jsonutil.h - typed, range-checked access to json-c objects with messages
 * that name the offending field ("workload.jobs[3].maps: ..."), so every
 * bad input file gets a precise error.
 */
#ifndef SIM_JSONUTIL_H
#define SIM_JSONUTIL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool sj_is_number(json_object *o);

/* Reject keys of obj that are not in the NULL-terminated list. */
int sj_check_keys(json_object *obj, const char *path, const char *const *keys,
		  char *err, size_t errlen);

/* A number in [min, max]; def when absent and not required. */
int sj_num(json_object *obj, const char *key, const char *path, double min,
	   double max, double def, bool required, double *out, char *err,
	   size_t errlen);
/* A whole number in [min, max]. */
int sj_uint(json_object *obj, const char *key, const char *path, uint64_t min,
	    uint64_t max, uint64_t def, bool required, uint64_t *out, char *err,
	    size_t errlen);
int sj_bool(json_object *obj, const char *key, const char *path, bool def,
	    bool *out, char *err, size_t errlen);
/* A string owned by obj (not copied); def when absent. */
int sj_str_ref(json_object *obj, const char *key, const char *path,
	       const char *def, const char **out, char *err, size_t errlen);
/* A copied string (caller frees); NULL def leaves NULL when absent. */
int sj_str(json_object *obj, const char *key, const char *path, const char *def,
	   char **out, char *err, size_t errlen);

/* Parse text into an object; NULL with a message (line/offset) on error.
 * Nesting deeper than 64 levels is refused. */
json_object *sj_parse(const char *text, size_t len, const char *origin,
		      char *err, size_t errlen);

/* Write obj to a file ("-" = stdout), pretty or compact; 0 or errno. */
int sj_write(json_object *obj, const char *path, bool pretty);

#endif
