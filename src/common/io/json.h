/*
 * io/json.h - one way to read JSON (json-c) for every file and message the
 * project takes in: the published plan, the sched plugin's and realtime's
 * saved state, the estimator protocol, the simulator's inputs.
 *
 * A reader keeps the first failure: every accessor checks presence, type
 * and range, and once one fails the rest return their defaults and leave
 * the message alone, so a parser reads a whole record and checks
 * r.failed once.  Messages name the field by its path:
 *   "jobs[3].user is missing", "tasks[0].end must be a number in [0, 1e+15]",
 *   "cluster.nodes[2]: unknown field 'cpu'".
 * Absent and null fields are the same to an optional accessor (its default
 * is returned); DL_JSON_NULL lets a required field be null (a number then
 * reads as its default, e.g. NAN).
 */
#ifndef DL_JSON_H
#define DL_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dl_json_rd {
	char *err; /* the first failure's message; may be NULL */
	size_t errlen;
	bool failed;
};

#define DL_JSON_RD(err, errlen)                                                \
	{                                                                      \
		(err), (errlen), false                                         \
	}

#define DL_JSON_REQUIRED 0x1u /* absent is an error */
#define DL_JSON_NULL     0x2u /* null allowed (default returned) */
#define DL_JSON_ANY_LEN  SIZE_MAX

/* Record a failure (nothing once r has failed): the message is label (a
 * path, may be NULL) then fmt.  Returns false. */
__attribute__((format(printf, 3, 4))) bool
dl_json_fail(struct dl_json_rd *r, const char *label, const char *fmt, ...);

/* The label of member key of the object at path: "path.key", or "key"
 * for an empty or NULL path, or "path[i]" for key NULL and index i >= 0. */
void dl_json_label(char *buf, size_t len, const char *path, const char *key,
		   long index);

/* Member key of o when present and of type t (a double also accepts an
 * integer); NULL when absent, null, of the wrong type (a failure) or o
 * is not an object. */
struct json_object *dl_json_get(struct dl_json_rd *r,
				const struct json_object *o, const char *path,
				const char *key, enum json_type t,
				unsigned flags);

/* Typed members: the value, or dflt when absent (or null) and allowed, or
 * after a failure. */
double dl_json_num(struct dl_json_rd *r, const struct json_object *o,
		   const char *path, const char *key, unsigned flags,
		   double min, double max, double dflt);
/* A whole number (a JSON integer, or a number with no fraction up to 2^53)
 * in [min, max]. */
uint64_t dl_json_uint(struct dl_json_rd *r, const struct json_object *o,
		      const char *path, const char *key, unsigned flags,
		      uint64_t min, uint64_t max, uint64_t dflt);
bool dl_json_bool(struct dl_json_rd *r, const struct json_object *o,
		  const char *path, const char *key, unsigned flags, bool dflt);
/* A string of minlen..maxlen bytes without a NUL byte, owned by o. */
const char *dl_json_str(struct dl_json_rd *r, const struct json_object *o,
			const char *path, const char *key, unsigned flags,
			size_t minlen, size_t maxlen, const char *dflt);
/* The same, copied (caller frees): a copy of dflt when absent (NULL for
 * NULL), NULL after a failure or when out of memory (a failure too). */
char *dl_json_strdup(struct dl_json_rd *r, const struct json_object *o,
		     const char *path, const char *key, unsigned flags,
		     size_t maxlen, const char *dflt);
/* An array of exactly len entries (DL_JSON_ANY_LEN: any). */
struct json_object *dl_json_array(struct dl_json_rd *r,
				  const struct json_object *o, const char *path,
				  const char *key, unsigned flags, size_t len);

/* The same checks on a value that is not a member (an array entry, a
 * document's root); label names it in messages.  NULL v is absent. */
double dl_json_num_of(struct dl_json_rd *r, const struct json_object *v,
		      const char *label, double min, double max, double dflt);
uint64_t dl_json_uint_of(struct dl_json_rd *r, const struct json_object *v,
			 const char *label, uint64_t min, uint64_t max,
			 uint64_t dflt);
/* An integer or a floating-point JSON number. */
bool dl_json_is_number(const struct json_object *v);
/* v must be an object (false and a failure otherwise). */
bool dl_json_is_object(struct dl_json_rd *r, const struct json_object *v,
		       const char *label);

/* o has no member outside the NULL-terminated keys. */
bool dl_json_known_keys(struct dl_json_rd *r, const struct json_object *o,
			const char *label, const char *const *keys);

/* Parse exactly one JSON value from text[0..len) (white space may follow;
 * nesting at most 64 deep).  NULL with "<origin>: line N: <why>" in err
 * when it is not, or when len exceeds max_len. */
struct json_object *dl_json_parse(const char *text, size_t len, size_t max_len,
				  const char *origin, char *err, size_t errlen);

/* ---- writing ---- */

/* A number, or JSON null for NaN and infinities (NULL). */
struct json_object *dl_json_new_num(double v);
void dl_json_put_num(struct json_object *o, const char *key, double v);
void dl_json_put_u64(struct json_object *o, const char *key, uint64_t v);
/* A JSON string of s (NULL = ""), made valid UTF-8 (dl_utf8_copy: an
 * invalid byte becomes '?'): every string the core writes to a file or
 * a socket goes through it, so nothing it writes can be refused by a
 * strict reader. */
struct json_object *dl_json_string(const char *s);
/* JSON null for NULL (a value that does not exist yet, e.g. the outcome
 * of a job still running). */
void dl_json_put_str(struct json_object *o, const char *key, const char *v);

#endif
