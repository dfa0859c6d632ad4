/*
 * utf8.c - validation and character-boundary copies (RFC 3629).
 */
#include "common/io/utf8.h"

#include <stdint.h>

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
