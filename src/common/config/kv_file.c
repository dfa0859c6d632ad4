/*
 * kv_file.c - Name=Value configuration files (kv_file.h).
 */
#include "common/config/kv_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char) *s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char) e[-1]))
		*--e = '\0';
	return s;
}

static int unquote(char *v, char **out)
{
	size_t n = strlen(v);

	if (!n)
		return EINVAL;
	if (v[0] == '"') {
		if (n < 2 || v[n - 1] != '"')
			return EINVAL;
		v[n - 1] = '\0';
		v++;
		if (strchr(v, '"'))
			return EINVAL;
	}
	*out = v;
	return 0;
}

int dl_kv_parse(const char *text, size_t len, const char *origin,
		dl_kv_setter set, void *ctx, char *err, size_t errlen)
{
	unsigned lineno = 0;
	size_t pos = 0;
	int rc = 0;

	if (!set || (!text && len))
		return EINVAL;
	if (!origin)
		origin = "configuration";
	while (pos < len && !rc) {
		char line[4096], *s, *eq, *name, *value, msg[256] = "";
		size_t end = pos, n;

		while (end < len && text[end] != '\n')
			end++;
		lineno++;
		n = end - pos;
		if (n >= sizeof(line)) {
			snprintf(err, err ? errlen : 0, "%s:%u: line too long",
				 origin, lineno);
			return EINVAL;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = end + 1;
		if (strlen(line) != n) {
			snprintf(err, err ? errlen : 0,
				 "%s:%u: NUL byte in line", origin, lineno);
			return EINVAL;
		}
		s = strchr(line, '#');
		if (s)
			*s = '\0';
		s = trim(line);
		if (!*s)
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, err ? errlen : 0,
				 "%s:%u: expected Name=Value, got '%s'", origin,
				 lineno, s);
			return EINVAL;
		}
		*eq = '\0';
		name = trim(s);
		if (unquote(trim(eq + 1), &value)) {
			snprintf(err, err ? errlen : 0,
				 "%s:%u: %s: empty or badly quoted value "
				 "(write %s=\"\" for an empty one)",
				 origin, lineno, name, name);
			return EINVAL;
		}
		rc = set(ctx, name, value, msg, sizeof(msg));
		if (rc)
			snprintf(err, err ? errlen : 0, "%s:%u: %s", origin,
				 lineno, msg[0] ? msg : "invalid setting");
	}
	return rc;
}
