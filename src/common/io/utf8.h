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

#endif
