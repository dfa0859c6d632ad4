/*
 * nodeset.c - host list expression matching (see nodeset.h).
 */
#include "common/nodeset.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIGITS 18

/* One range of a bracket group: lo-hi, width > 0 when zero-padded. */
struct range {
	unsigned long long lo, hi;
	int width;
};

/* Parse the group starting after '['; sets *end past ']'.  Returns the
 * number of ranges (up to max) or -1 when malformed. */
static int parse_group(const char *p, const char **end, struct range *r,
		       int max)
{
	int n = 0;

	for (;;) {
		const char *s = p;
		unsigned long long lo = 0, hi;
		int digits = 0;

		while (isdigit((unsigned char) *p) && digits < MAX_DIGITS)
			lo = lo * 10 + (unsigned long long) (*p++ - '0'),
			digits++;
		if (!digits || isdigit((unsigned char) *p))
			return -1;
		hi = lo;
		if (*p == '-') {
			int d2 = 0;

			p++;
			hi = 0;
			while (isdigit((unsigned char) *p) && d2 < MAX_DIGITS)
				hi = hi * 10 +
				     (unsigned long long) (*p++ - '0'),
				d2++;
			if (!d2 || isdigit((unsigned char) *p) || hi < lo)
				return -1;
		}
		if (n < max) {
			r[n].lo = lo;
			r[n].hi = hi;
			r[n].width = (s[0] == '0' && digits > 1) ? digits : 0;
		}
		n++;
		if (*p == ']') {
			*end = p + 1;
			return n <= max ? n : -1;
		}
		if (*p != ',')
			return -1;
		p++;
	}
}

#define MAX_RANGES 64

/* Match one item (no top-level commas) of length len against name. */
static bool match_item(const char *p, const char *pend, const char *name)
{
	while (p < pend && *p != '[') {
		if (*p != *name)
			return false;
		p++;
		name++;
	}
	if (p == pend)
		return *name == '\0';
	{
		struct range r[MAX_RANGES];
		const char *after;
		int n = parse_group(p + 1, &after, r, MAX_RANGES);
		int avail = 0;

		if (n < 0 || after > pend)
			return false;
		while (isdigit((unsigned char) name[avail]) &&
		       avail < MAX_DIGITS)
			avail++;
		for (int len = 1; len <= avail; len++) {
			unsigned long long v = 0;

			for (int i = 0; i < len; i++)
				v = v * 10 +
				    (unsigned long long) (name[i] - '0');
			for (int k = 0; k < n; k++) {
				if (v < r[k].lo || v > r[k].hi)
					continue;
				if (r[k].width ? len != r[k].width
					       : (len > 1 && name[0] == '0'))
					continue;
				if (match_item(after, pend, name + len))
					return true;
			}
		}
		return false;
	}
}

/* End of the item starting at p: the next comma outside brackets. */
static const char *item_end(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		else if (*p == ',' && !depth)
			break;
	}
	return p;
}

bool dl_nodeset_match(const char *expr, const char *name)
{
	if (!expr || !name || !name[0])
		return false;
	if (!strcmp(expr, "*"))
		return true;
	if (dl_nodeset_check(expr, NULL, 0))
		return false;
	while (*expr) {
		const char *end = item_end(expr);

		if (match_item(expr, end, name))
			return true;
		expr = *end ? end + 1 : end;
	}
	return false;
}

static int check_item(const char *p, const char *pend, char *err, size_t errlen)
{
	if (p == pend) {
		snprintf(err, err ? errlen : 0, "empty host name in list");
		return EINVAL;
	}
	while (p < pend) {
		if (*p == '[') {
			struct range r[MAX_RANGES];
			const char *after;

			if (parse_group(p + 1, &after, r, MAX_RANGES) < 0 ||
			    after > pend) {
				snprintf(err, err ? errlen : 0,
					 "malformed range group at '%.*s'",
					 (int) (pend - p), p);
				return EINVAL;
			}
			p = after;
			continue;
		}
		if (*p == ']' || isspace((unsigned char) *p) || *p == '=') {
			snprintf(err, err ? errlen : 0,
				 "unexpected '%c' in host list", *p);
			return EINVAL;
		}
		p++;
	}
	return 0;
}

int dl_nodeset_check(const char *expr, char *err, size_t errlen)
{
	if (!expr || !expr[0]) {
		snprintf(err, err ? errlen : 0, "empty host list");
		return EINVAL;
	}
	if (!strcmp(expr, "*"))
		return 0;
	while (*expr) {
		const char *end = item_end(expr);

		if (check_item(expr, end, err, errlen))
			return EINVAL;
		if (*end && !end[1]) {
			snprintf(err, err ? errlen : 0,
				 "host list ends with ','");
			return EINVAL;
		}
		expr = *end ? end + 1 : end;
	}
	return 0;
}

/* Walk NodeIO entries; calls fn(expr, value) for each; stops when fn
 * returns nonzero.  Returns EINVAL on a syntax error. */
typedef int (*io_entry_fn)(const char *expr, double value, void *ctx);

static int walk_node_io(const char *spec, io_entry_fn fn, void *ctx, char *err,
			size_t errlen)
{
	char *copy, *p;
	int rc = 0;

	if (!spec)
		return 0;
	copy = strdup(spec);
	if (!copy) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return ENOMEM;
	}
	p = copy;
	while (*p && !rc) {
		char *end = (char *) item_end(p), *eq, *num_end;
		char saved = *end;
		double v;

		/* the value follows '=' after the last bracket group */
		*end = '\0';
		eq = strrchr(p, '=');
		if (!eq || eq == p || !eq[1]) {
			snprintf(err, err ? errlen : 0,
				 "NodeIO entry '%s': expected nodes=value", p);
			rc = EINVAL;
			break;
		}
		*eq = '\0';
		errno = 0;
		v = strtod(eq + 1, &num_end);
		if (errno || *num_end || !isfinite(v) || v < 0) {
			snprintf(err, err ? errlen : 0,
				 "NodeIO entry '%s=%s': value must be a number "
				 ">= 0",
				 p, eq + 1);
			rc = EINVAL;
			break;
		}
		if ((rc = dl_nodeset_check(p, NULL, 0))) {
			snprintf(err, err ? errlen : 0,
				 "NodeIO entry '%s': malformed host list", p);
			break;
		}
		if (fn && fn(p, v, ctx))
			break;
		p = saved ? end + 1 : end;
	}
	free(copy);
	return rc;
}

int dl_node_io_check(const char *spec, char *err, size_t errlen)
{
	return walk_node_io(spec, NULL, NULL, err, errlen);
}

struct io_lookup {
	const char *name;
	double value;
	bool found;
};

static int lookup_fn(const char *expr, double value, void *vctx)
{
	struct io_lookup *l = vctx;

	if (!dl_nodeset_match(expr, l->name))
		return 0;
	l->value = value;
	l->found = true;
	return 1;
}

double dl_node_io_lookup(const char *spec, const char *name, double dflt)
{
	struct io_lookup l = {name, dflt, false};

	if (!spec || !spec[0] || !name)
		return dflt;
	if (walk_node_io(spec, lookup_fn, &l, NULL, 0))
		return dflt;
	return l.found ? l.value : dflt;
}

int dl_cluster_apply_node_io(struct dl_cluster *cl, const char *spec,
			     double dflt, char *err, size_t errlen)
{
	if (!cl || !isfinite(dflt) || dflt < 0) {
		snprintf(err, err ? errlen : 0, "invalid cluster or DefaultIO");
		return EINVAL;
	}
	if (spec && spec[0] && dl_node_io_check(spec, err, errlen))
		return EINVAL;
	for (uint32_t i = 0; i < cl->nnodes; i++)
		if (!(cl->nodes[i].io > 0))
			cl->nodes[i].io = dl_node_io_lookup(
				spec, cl->nodes[i].name, dflt);
	return 0;
}
