/*
 * json_text.h - one JSON text (a saved state, a plan file) parsed whole,
 * with an error that says what is wrong: json-c's own descriptions read
 * "success" for trailing data and "continue" for a truncated text.
 */
#ifndef DL_JSON_TEXT_H
#define DL_JSON_TEXT_H

#include <stddef.h>

struct json_object;

/* Parse text[0..len) as exactly one JSON value (whitespace may follow).
 * strict: RFC 8259 only and valid UTF-8.  NULL with err filled on any
 * error ("empty", "truncated", "trailing data", "malformed at byte N"). */
struct json_object *dl_json_parse_text(const char *text, size_t len, int strict,
				       char *err, size_t errlen);

/* A JSON string of s (NULL = ""), made valid UTF-8 with dl_utf8_copy:
 * every string the core writes to a file or a socket goes through it, so
 * nothing it writes can be refused by a strict reader. */
struct json_object *dl_json_string(const char *s);

#endif
