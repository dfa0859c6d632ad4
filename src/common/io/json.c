/*
 * io/json.c - checked reading and plain writing of json-c values.
 */
#include "common/io/json.h"
#include "common/io/utf8.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXACT 9007199254740992.0 /* 2^53: exact in a double */
#define MAX_DEPTH 64
#define LABEL_LEN 256

bool dl_json_fail(struct dl_json_rd *r, const char *label, const char *fmt, ...)
{
	va_list ap;
	size_t n = 0;

	if (r->failed)
		return false;
	r->failed = true;
	if (!r->err || !r->errlen)
		return false;
	if (label && *label) {
		snprintf(r->err, r->errlen, "%s", label);
		n = strlen(r->err);
	}
	if (n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	return false;
}

void dl_json_label(char *buf, size_t len, const char *path, const char *key,
		   long index)
{
	bool root = !path || !*path;

	if (!key && index >= 0)
		snprintf(buf, len, "%s[%ld]", root ? "" : path, index);
	else if (root)
		snprintf(buf, len, "%s", key ? key : "");
	else
		snprintf(buf, len, "%s.%s", path, key ? key : "");
}

static const char *type_text(enum json_type t)
{
	switch (t) {
	case json_type_boolean:
		return "true or false";
	case json_type_double:
	case json_type_int:
		return "a number";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	default:
		return "null";
	}
}

/* The member (NULL when absent or null); *present says whether the key
 * was there with a value other than null. */
static struct json_object *member(struct dl_json_rd *r,
				  const struct json_object *o,
				  const char *label, const char *key,
				  unsigned flags)
{
	struct json_object *v = NULL;
	bool there;

	if (r->failed || !o || !json_object_is_type(o, json_type_object))
		return NULL;
	there = json_object_object_get_ex(o, key, &v);
	if (v)
		return v;
	if (flags & DL_JSON_REQUIRED) {
		if (!there)
			dl_json_fail(r, label, " is missing");
		else if (!(flags & DL_JSON_NULL))
			dl_json_fail(r, label, " is null");
	}
	return NULL;
}

struct json_object *dl_json_get(struct dl_json_rd *r,
				const struct json_object *o, const char *path,
				const char *key, enum json_type t,
				unsigned flags)
{
	char label[LABEL_LEN];
	struct json_object *v;

	dl_json_label(label, sizeof(label), path, key, -1);
	v = member(r, o, label, key, flags);
	if (!v)
		return NULL;
	if (json_object_get_type(v) != t &&
	    !(t == json_type_double && json_object_is_type(v, json_type_int))) {
		dl_json_fail(r, label, " must be %s", type_text(t));
		return NULL;
	}
	return v;
}

bool dl_json_is_number(const struct json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

double dl_json_num_of(struct dl_json_rd *r, const struct json_object *v,
		      const char *label, double min, double max, double dflt)
{
	double d;

	if (r->failed || !v)
		return dflt;
	d = dl_json_is_number(v) ? json_object_get_double(v) : NAN;
	if (!isfinite(d) || d < min || d > max) {
		if (isinf(min) && isinf(max))
			dl_json_fail(r, label, " must be a number");
		else
			dl_json_fail(r, label, " must be a number in [%g, %g]",
				     min, max);
		return dflt;
	}
	return d;
}

uint64_t dl_json_uint_of(struct dl_json_rd *r, const struct json_object *v,
			 const char *label, uint64_t min, uint64_t max,
			 uint64_t dflt)
{
	uint64_t x = 0;
	bool ok = false;

	if (r->failed || !v)
		return dflt;
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);

		/* json-c keeps integers above INT64_MAX as uint64 */
		if (i == INT64_MAX) {
			x = json_object_get_uint64(v);
			ok = true;
		} else if (i >= 0) {
			x = (uint64_t) i;
			ok = true;
		}
	} else if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);

		if (isfinite(d) && d >= 0 && d <= MAX_EXACT && d == floor(d)) {
			x = (uint64_t) d;
			ok = true;
		}
	}
	if (!ok || x < min || x > max) {
		dl_json_fail(
			r, label, " must be a whole number in [%llu, %llu]",
			(unsigned long long) min, (unsigned long long) max);
		return dflt;
	}
	return x;
}

double dl_json_num(struct dl_json_rd *r, const struct json_object *o,
		   const char *path, const char *key, unsigned flags,
		   double min, double max, double dflt)
{
	char label[LABEL_LEN];

	dl_json_label(label, sizeof(label), path, key, -1);
	return dl_json_num_of(r, member(r, o, label, key, flags), label, min,
			      max, dflt);
}

uint64_t dl_json_uint(struct dl_json_rd *r, const struct json_object *o,
		      const char *path, const char *key, unsigned flags,
		      uint64_t min, uint64_t max, uint64_t dflt)
{
	char label[LABEL_LEN];

	dl_json_label(label, sizeof(label), path, key, -1);
	return dl_json_uint_of(r, member(r, o, label, key, flags), label, min,
			       max, dflt);
}

bool dl_json_bool(struct dl_json_rd *r, const struct json_object *o,
		  const char *path, const char *key, unsigned flags, bool dflt)
{
	struct json_object *v =
		dl_json_get(r, o, path, key, json_type_boolean, flags);

	return v ? json_object_get_boolean(v) : dflt;
}

const char *dl_json_str(struct dl_json_rd *r, const struct json_object *o,
			const char *path, const char *key, unsigned flags,
			size_t minlen, size_t maxlen, const char *dflt)
{
	struct json_object *v =
		dl_json_get(r, o, path, key, json_type_string, flags);
	char label[LABEL_LEN];
	const char *s;
	int len;

	if (!v)
		return dflt;
	s = json_object_get_string(v);
	len = json_object_get_string_len(v);
	dl_json_label(label, sizeof(label), path, key, -1);
	if (len < 0 || (size_t) len < minlen || (size_t) len > maxlen) {
		dl_json_fail(r, label, " must be %zu..%zu bytes", minlen,
			     maxlen);
		return dflt;
	}
	if (strlen(s) != (size_t) len) {
		dl_json_fail(r, label, " contains a NUL byte");
		return dflt;
	}
	/* checked per string, not per text, so that one record with a bad
	 * name costs that record only */
	if (!dl_utf8_valid(s, (size_t) len)) {
		dl_json_fail(r, label, " is not valid UTF-8");
		return dflt;
	}
	return s;
}

char *dl_json_strdup(struct dl_json_rd *r, const struct json_object *o,
		     const char *path, const char *key, unsigned flags,
		     size_t maxlen, const char *dflt)
{
	const char *v = dl_json_str(r, o, path, key, flags, 0, maxlen, dflt);
	char *s;

	if (!v || r->failed)
		return NULL;
	s = strdup(v);
	if (!s)
		dl_json_fail(r, NULL, "out of memory");
	return s;
}

struct json_object *dl_json_array(struct dl_json_rd *r,
				  const struct json_object *o, const char *path,
				  const char *key, unsigned flags, size_t len)
{
	struct json_object *v =
		dl_json_get(r, o, path, key, json_type_array, flags);
	char label[LABEL_LEN];

	if (!v || len == DL_JSON_ANY_LEN || json_object_array_length(v) == len)
		return v;
	dl_json_label(label, sizeof(label), path, key, -1);
	dl_json_fail(r, label, " must have %zu entries", len);
	return NULL;
}

bool dl_json_is_object(struct dl_json_rd *r, const struct json_object *v,
		       const char *label)
{
	if (r->failed)
		return false;
	if (!v || !json_object_is_type(v, json_type_object))
		return dl_json_fail(r, label, " must be an object");
	return true;
}

bool dl_json_known_keys(struct dl_json_rd *r, const struct json_object *o,
			const char *label, const char *const *keys)
{
	if (!dl_json_is_object(r, o, label))
		return false;
	json_object_object_foreach((struct json_object *) o, key, val)
	{
		bool known = false;

		(void) val;
		for (const char *const *k = keys; *k && !known; k++)
			known = !strcmp(*k, key);
		if (!known)
			return dl_json_fail(r, label, "%sunknown field '%s'",
					    label && *label ? ": " : "", key);
	}
	return true;
}

static bool all_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\n' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

struct json_object *dl_json_parse(const char *text, size_t len, size_t max_len,
				  const char *origin, char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error jerr;
	char *escaped = NULL;
	size_t used, line = 1;

	if (!text || all_space(text, len)) {
		snprintf(err, err ? errlen : 0, "%s: empty (no JSON value)",
			 origin);
		return NULL;
	}
	if (len > max_len) {
		snprintf(err, err ? errlen : 0, "%s: too large", origin);
		return NULL;
	}
	/* json-c 0.18's strict mode takes non-ASCII only as \u escapes (line
	 * numbers stay: escapes add no newline) */
	if (dl_utf8_json_escape(text, len, &escaped, &len)) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return NULL;
	}
	if (escaped)
		text = escaped;
	if (len > (size_t) INT32_MAX) {
		snprintf(err, err ? errlen : 0, "%s: too large", origin);
		free(escaped);
		return NULL;
	}
	tok = json_tokener_new_ex(MAX_DEPTH);
	if (!tok) {
		snprintf(err, err ? errlen : 0, "out of memory");
		free(escaped);
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, text, (int) len);
	jerr = json_tokener_get_error(tok);
	used = json_tokener_get_parse_end(tok);
	if (!o && jerr == json_tokener_continue) {
		/* a bare number needs a delimiter to end */
		o = json_tokener_parse_ex(tok, " ", 1);
		jerr = json_tokener_get_error(tok);
		used = len;
	}
	json_tokener_free(tok);
	if (o && jerr == json_tokener_success &&
	    (used >= len || all_space(text + used, len - used))) {
		free(escaped);
		return o;
	}
	json_object_put(o);
	for (size_t i = 0; i < used && i < len; i++)
		line += text[i] == '\n';
	free(escaped);
	/* json-c's own words would be "continue" for a cut text and
	 * "success" for trailing data */
	if (jerr == json_tokener_continue)
		snprintf(err, err ? errlen : 0,
			 "%s: line %zu: truncated JSON (the text ends inside a "
			 "value)",
			 origin, line);
	else if (jerr == json_tokener_success)
		snprintf(err, err ? errlen : 0,
			 "%s: trailing data after the JSON value (line %zu, "
			 "byte %zu)",
			 origin, line, used);
	else
		snprintf(err, err ? errlen : 0,
			 "%s: malformed JSON at line %zu (byte %zu): %s",
			 origin, line, used, json_tokener_error_desc(jerr));
	return NULL;
}

struct json_object *dl_json_new_num(double v)
{
	/* JSON has no NaN or infinity: an unknown value is null */
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

void dl_json_put_num(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, dl_json_new_num(v));
}

void dl_json_put_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

void dl_json_put_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? dl_json_string(v) : NULL);
}

struct json_object *dl_json_string(const char *s)
{
	struct json_object *o;
	size_t n;
	char *copy;

	if (!s)
		return json_object_new_string("");
	n = strlen(s);
	if (dl_utf8_valid(s, n))
		return json_object_new_string_len(
			s, (int) (n > INT_MAX ? INT_MAX : n));
	copy = malloc(n + 1);
	if (!copy)
		return NULL;
	dl_utf8_copy(copy, n + 1, s);
	o = json_object_new_string(copy);
	free(copy);
	return o;
}
