/*
 * utf8.c - validation and character-boundary copies (RFC 3629).
 */
#include "common/io/utf8.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

size_t dl_utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c;
	size_t len;
	uint32_t cp;

	if (!s || !n)
		return 0;
	c = s[0];
	if (c < 0x80)
		return c ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0; /* continuation byte, 0xc0/0xc1, 0xf5.. */
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

bool dl_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *) s;
	size_t i = 0;

	if (!s)
		return n == 0;
	while (i < n) {
		size_t l = dl_utf8_seq_len(p + i, n - i);

		if (!l)
			return false;
		i += l;
	}
	return true;
}

size_t dl_utf8_copy(char *dst, size_t size, const char *src)
{
	const unsigned char *p = (const unsigned char *) (src ? src : "");
	size_t o = 0;

	if (!dst || !size)
		return 0;
	while (*p) {
		size_t n = 0, l;

		while (n < 4 && p[n])
			n++;
		l = dl_utf8_seq_len(p, n);
		if (o + (l ? l : 1) >= size)
			break;
		if (!l) {
			dst[o++] = '?';
			p++;
			continue;
		}
		for (size_t i = 0; i < l; i++)
			dst[o++] = (char) p[i];
		p += l;
	}
	dst[o] = '\0';
	return o;
}

/* The code point of the valid sequence of l bytes at s. */
static uint32_t code_point(const unsigned char *s, size_t l)
{
	static const unsigned char lead_mask[5] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	uint32_t cp = s[0] & lead_mask[l];

	for (size_t i = 1; i < l; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

int dl_utf8_json_escape(const char *text, size_t len, char **out,
			size_t *out_len)
{
	const unsigned char *s = (const unsigned char *) text;
	size_t extra = 0, i, o, l;
	char *buf;

	if (!text || !out || !out_len)
		return EINVAL;
	*out = NULL;
	*out_len = len;
	/* what the escapes add: "\uXXXX" (6 bytes) for 2 or 3, a pair (12)
	 * for 4 */
	for (i = 0; i < len; i += l ? l : 1) {
		l = s[i] < 0x80 ? 1 : dl_utf8_seq_len(s + i, len - i);
		if (l > 1)
			extra += (l == 4 ? 12 : 6) - l;
	}
	if (!extra)
		return 0;
	if (len > SIZE_MAX - extra - 1)
		return ENOMEM;
	buf = malloc(len + extra + 1);
	if (!buf)
		return ENOMEM;
	for (i = 0, o = 0; i < len; i += l ? l : 1) {
		uint32_t cp;

		l = s[i] < 0x80 ? 1 : dl_utf8_seq_len(s + i, len - i);
		if (l <= 1) { /* ASCII (NUL included), or an invalid byte */
			buf[o++] = (char) s[i];
			continue;
		}
		cp = code_point(s + i, l);
		if (cp <= 0xffff) {
			o += (size_t) snprintf(buf + o, 7, "\\u%04x", cp);
		} else {
			cp -= 0x10000;
			o += (size_t) snprintf(buf + o, 13, "\\u%04x\\u%04x",
					       0xd800 + (cp >> 10),
					       0xdc00 + (cp & 0x3ff));
		}
	}
	buf[o] = '\0';
	*out = buf;
	*out_len = o;
	return 0;
}
