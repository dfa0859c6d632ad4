/*
 * json_text.c - whole-text JSON parsing with readable errors.
 */
#include "common/io/json_text.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/utf8.h"

static int all_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

struct json_object *dl_json_parse_text(const char *text, size_t len, int strict,
				       char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *o;
	enum json_tokener_error e;
	size_t end;

	if (!text || all_space(text, len)) {
		snprintf(err, err ? errlen : 0, "empty (no JSON value)");
		return NULL;
	}
	if (len > INT_MAX) {
		snprintf(err, err ? errlen : 0, "too large");
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return NULL;
	}
	if (strict)
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
						    JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, text, (int) len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (o && e == json_tokener_success &&
	    (end >= len || all_space(text + end, len - end)))
		return o;
	json_object_put(o);
	if (e == json_tokener_continue)
		snprintf(err, err ? errlen : 0,
			 "truncated JSON (the text ends inside a value)");
	else if (e == json_tokener_success)
		snprintf(err, err ? errlen : 0,
			 "trailing data after the JSON value (byte %zu)", end);
	else
		snprintf(err, err ? errlen : 0,
			 "malformed JSON at byte %zu: %s", end,
			 json_tokener_error_desc(e));
	return NULL;
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
