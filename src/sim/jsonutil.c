/*
 * jsonutil.c - checked json-c accessors.
 */
#include "sim/jsonutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

bool sj_is_number(json_object *o)
{
	return o && (json_object_is_type(o, json_type_int) ||
		     json_object_is_type(o, json_type_double));
}

int sj_check_keys(json_object *obj, const char *path, const char *const *keys,
		  char *err, size_t errlen)
{
	if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, errlen, "%s: expected an object", path);
		return EINVAL;
	}
	json_object_object_foreach(obj, key, val)
	{
		bool known = false;

		(void) val;
		for (const char *const *k = keys; *k && !known; k++)
			known = !strcmp(*k, key);
		if (!known) {
			snprintf(err, errlen, "%s: unknown field '%s'", path,
				 key);
			return EINVAL;
		}
	}
	return 0;
}

int sj_num(json_object *obj, const char *key, const char *path, double min,
	   double max, double def, bool required, double *out, char *err,
	   size_t errlen)
{
	json_object *v;
	double x;

	if (!json_object_object_get_ex(obj, key, &v) || !v) {
		if (required) {
			snprintf(err, errlen, "%s.%s: missing", path, key);
			return EINVAL;
		}
		*out = def;
		return 0;
	}
	x = sj_is_number(v) ? json_object_get_double(v) : NAN;
	if (!isfinite(x) || x < min || x > max) {
		snprintf(err, errlen, "%s.%s: expected a number in [%g, %g]",
			 path, key, min, max);
		return EINVAL;
	}
	*out = x;
	return 0;
}

int sj_uint(json_object *obj, const char *key, const char *path, uint64_t min,
	    uint64_t max, uint64_t def, bool required, uint64_t *out, char *err,
	    size_t errlen)
{
	json_object *v;
	double x;

	if (!json_object_object_get_ex(obj, key, &v) || !v) {
		if (required) {
			snprintf(err, errlen, "%s.%s: missing", path, key);
			return EINVAL;
		}
		*out = def;
		return 0;
	}
	x = sj_is_number(v) ? json_object_get_double(v) : NAN;
	if (!isfinite(x) || x != floor(x) || x < (double) min ||
	    x > (double) max) {
		snprintf(err, errlen,
			 "%s.%s: expected a whole number in [%llu, %llu]", path,
			 key, (unsigned long long) min,
			 (unsigned long long) max);
		return EINVAL;
	}
	*out = json_object_is_type(v, json_type_int)
		       ? (uint64_t) json_object_get_int64(v)
		       : (uint64_t) x;
	return 0;
}

int sj_bool(json_object *obj, const char *key, const char *path, bool def,
	    bool *out, char *err, size_t errlen)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !v) {
		*out = def;
		return 0;
	}
	if (!json_object_is_type(v, json_type_boolean)) {
		snprintf(err, errlen, "%s.%s: expected true or false", path,
			 key);
		return EINVAL;
	}
	*out = json_object_get_boolean(v);
	return 0;
}

int sj_str_ref(json_object *obj, const char *key, const char *path,
	       const char *def, const char **out, char *err, size_t errlen)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !v) {
		*out = def;
		return 0;
	}
	if (!json_object_is_type(v, json_type_string)) {
		snprintf(err, errlen, "%s.%s: expected a string", path, key);
		return EINVAL;
	}
	*out = json_object_get_string(v);
	return 0;
}

int sj_str(json_object *obj, const char *key, const char *path, const char *def,
	   char **out, char *err, size_t errlen)
{
	const char *s;

	*out = NULL;
	if (sj_str_ref(obj, key, path, def, &s, err, errlen))
		return EINVAL;
	if (!s)
		return 0;
	*out = strdup(s);
	if (!*out) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	return 0;
}

json_object *sj_parse(const char *text, size_t len, const char *origin,
		      char *err, size_t errlen)
{
	json_tokener *tok;
	json_object *o;
	enum json_tokener_error jerr;
	size_t used;

	if (len > (size_t) INT32_MAX) {
		snprintf(err, errlen, "%s: too large", origin);
		return NULL;
	}
	tok = json_tokener_new_ex(64);
	if (!tok) {
		snprintf(err, errlen, "out of memory");
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
	if (!o || jerr != json_tokener_success) {
		size_t line = 1;

		for (size_t i = 0; i < used && i < len; i++)
			line += text[i] == '\n';
		snprintf(err, errlen, "%s: line %zu: %s", origin, line,
			 jerr == json_tokener_continue
				 ? "unexpected end of input"
				 : json_tokener_error_desc(jerr));
		json_object_put(o);
		json_tokener_free(tok);
		return NULL;
	}
	/* only white space may follow the value */
	for (size_t i = used; i < len; i++)
		if (text[i] != ' ' && text[i] != '\n' && text[i] != '\t' &&
		    text[i] != '\r') {
			snprintf(err, errlen,
				 "%s: unexpected text after the JSON value",
				 origin);
			json_object_put(o);
			json_tokener_free(tok);
			return NULL;
		}
	json_tokener_free(tok);
	return o;
}

int sj_write(json_object *obj, const char *path, bool pretty)
{
	int flags = pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			   : JSON_C_TO_STRING_PLAIN;
	const char *s = json_object_to_json_string_ext(
		obj, flags | JSON_C_TO_STRING_NOSLASHESCAPE);
	FILE *f;
	int rc = 0;

	if (!s)
		return ENOMEM;
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return errno;
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
		rc = errno ? errno : EIO;
	if (f != stdout) {
		if (fclose(f) && !rc)
			rc = errno ? errno : EIO;
	} else if (fflush(f) && !rc) {
		rc = errno ? errno : EIO;
	}
	return rc;
}
