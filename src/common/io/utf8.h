/*
 * utf8.h - every string the plugins and the estimator send or save is
 * valid UTF-8: json-c writes bytes as they are, and the estimator (strict
 * RFC 8259 parsing) refuses a request with one invalid sequence in it.
 * Job names, accounts and node names come from users through Slurm, which
 * checks no encoding, and fixed-size copies cut them.
 */
#ifndef DL_UTF8_H
#define DL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s[0..n) (1..4), or 0 when s starts
 * an invalid one (overlong forms, surrogates and code points above
 * U+10FFFF are invalid, RFC 3629). */
size_t dl_utf8_seq_len(const unsigned char *s, size_t n);

/* True when s[0..n) is entirely valid UTF-8 without NUL bytes. */
bool dl_utf8_valid(const char *s, size_t n);

/* Copy src into dst (size bytes, always NUL-terminated when size > 0):
 * each byte that does not start a valid sequence becomes '?', and a
 * character that does not fit whole is left out, so the copy is valid
 * UTF-8 however short dst is.  NULL src copies "".  Returns the copy's
 * length. */
size_t dl_utf8_copy(char *dst, size_t size, const char *src);

/* JSON text[0..len) for json-c's strict parser on every json-c version:
 * from 0.18 (Debian 13; 0.16 on Debian 12 took it) JSON_TOKENER_STRICT
 * refuses every byte >= 0x80 inside a string ("invalid string sequence"),
 * valid UTF-8 included, but takes \uXXXX escapes, which both versions read
 * back to the same bytes.  So every valid non-ASCII character is written
 * as an escape (a surrogate pair above U+FFFF); the bytes of invalid
 * sequences are kept as they are, for the parser to refuse as before.
 * Returns 0 with *out a new NUL-terminated buffer of *out_len bytes (free
 * it), 0 with *out NULL when there is nothing to rewrite (parse text),
 * ENOMEM, or EINVAL for NULL arguments.  Escapes add no newline: line
 * numbers stay, byte offsets after a non-ASCII character grow. */
int dl_utf8_json_escape(const char *text, size_t len, char **out,
			size_t *out_len);

#endif
