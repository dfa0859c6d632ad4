/*
 * nodeset.c - host list expression matching (see nodeset.h).
 */
#include "common/model/nodeset.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
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

/* ---- expansion ---- */

/* Names of one bracket group's ranges: sum of (hi - lo + 1), capped. */
static uint64_t group_size(const struct range *r, int n)
{
	uint64_t total = 0;

	for (int k = 0; k < n; k++) {
		total += r[k].hi - r[k].lo + 1;
		if (total > UINT32_MAX)
			return (uint64_t) UINT32_MAX + 1;
	}
	return total;
}

int dl_nodeset_count(const char *expr, uint32_t max, uint32_t *count, char *err,
		     size_t errlen)
{
	uint64_t total = 0;

	if (!count || dl_nodeset_check(expr, err, errlen))
		return EINVAL;
	if (!strcmp(expr, "*")) {
		snprintf(err, err ? errlen : 0,
			 "'*' (every node) is not a list of hosts here");
		return EINVAL;
	}
	while (*expr) {
		const char *end = item_end(expr), *p = expr;
		uint64_t names = 1;

		while (p < end) {
			struct range r[MAX_RANGES];
			const char *after;
			int n;

			if (*p != '[') {
				p++;
				continue;
			}
			n = parse_group(p + 1, &after, r, MAX_RANGES);
			if (n < 0)
				return EINVAL; /* dl_nodeset_check passed */
			names *= group_size(r, n);
			if (names > max)
				break;
			p = after;
		}
		total += names;
		if (total > max) {
			snprintf(err, err ? errlen : 0,
				 "host list names more than %u hosts", max);
			return ERANGE;
		}
		expr = *end ? end + 1 : end;
	}
	*count = (uint32_t) total;
	return 0;
}

struct expand {
	int (*fn)(const char *name, void *ctx);
	void *ctx;
	char name[DL_NODESET_NAME_MAX + 1];
	uint32_t left; /* names still allowed */
	int rc;
	char *err;
	size_t errlen;
};

/* Expand the item [p, pend) onto name[0..len) (recursing per group). */
static int expand_item(struct expand *x, const char *p, const char *pend,
		       size_t len)
{
	while (p < pend && *p != '[') {
		if (len >= DL_NODESET_NAME_MAX) {
			snprintf(x->err, x->err ? x->errlen : 0,
				 "host name longer than %d characters",
				 DL_NODESET_NAME_MAX);
			return EINVAL;
		}
		x->name[len++] = *p++;
	}
	if (p == pend) {
		x->name[len] = '\0';
		if (!x->left) {
			snprintf(x->err, x->err ? x->errlen : 0,
				 "host list names too many hosts");
			return ERANGE;
		}
		x->left--;
		return x->fn ? x->fn(x->name, x->ctx) : 0;
	}
	{
		struct range r[MAX_RANGES];
		const char *after;
		int n = parse_group(p + 1, &after, r, MAX_RANGES);

		if (n < 0)
			return EINVAL;
		for (int k = 0; k < n; k++)
			for (unsigned long long v = r[k].lo;; v++) {
				int w = snprintf(x->name + len,
						 sizeof(x->name) - len,
						 "%0*llu", r[k].width, v);
				int rc;

				if (w < 0 ||
				    len + (size_t) w > DL_NODESET_NAME_MAX) {
					snprintf(x->err, x->err ? x->errlen : 0,
						 "host name longer than %d "
						 "characters",
						 DL_NODESET_NAME_MAX);
					return EINVAL;
				}
				rc = expand_item(x, after, pend,
						 len + (size_t) w);
				if (rc)
					return rc;
				if (v == r[k].hi)
					break;
			}
	}
	return 0;
}

int dl_nodeset_foreach(const char *expr, uint32_t max,
		       int (*fn)(const char *name, void *ctx), void *ctx,
		       char *err, size_t errlen)
{
	struct expand *x;
	uint32_t count;
	int rc;

	rc = dl_nodeset_count(expr, max, &count, err, errlen);
	if (rc)
		return rc;
	x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return ENOMEM;
	}
	x->fn = fn;
	x->ctx = ctx;
	x->left = count;
	x->err = err;
	x->errlen = errlen;
	while (*expr && !rc) {
		const char *end = item_end(expr);

		rc = expand_item(x, expr, end, 0);
		expr = *end ? end + 1 : end;
	}
	free(x);
	return rc;
}

/* ---- compression ---- */

struct hkey {
	const char *name;
	size_t plen; /* prefix length: the name without its number */
	int digits;  /* of the trailing number; 0 = none */
	bool padded; /* a leading zero */
	int width;   /* printed width: -1 no number, 0 natural, else fixed */
	unsigned long long num;
};

static int cmp_prefix(const struct hkey *a, const struct hkey *b)
{
	size_t n = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	return (a->plen > b->plen) - (a->plen < b->plen);
}

static int cmp_digits(const void *va, const void *vb)
{
	const struct hkey *a = va, *b = vb;
	int c = cmp_prefix(a, b);

	if (c)
		return c;
	if (a->digits != b->digits)
		return a->digits < b->digits ? -1 : 1;
	return (b->padded > a->padded) - (b->padded < a->padded);
}

static int cmp_final(const void *va, const void *vb)
{
	const struct hkey *a = va, *b = vb;
	int c = cmp_prefix(a, b);

	if (c)
		return c;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	return (a->num > b->num) - (a->num < b->num);
}

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	if (!b->s) {
		b->cap = 64;
		if (!(b->s = malloc(b->cap))) {
			b->oom = true;
			return;
		}
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t) n < b->cap - b->len)
			break;
		{
			size_t cap = (b->cap + (size_t) n + 1) * 2;
			char *s = realloc(b->s, cap);

			if (!s) {
				b->oom = true;
				return;
			}
			b->s = s;
			b->cap = cap;
		}
	}
	b->len += (size_t) n;
}

static bool plain_name(const char *s)
{
	size_t n = 0;

	if (!s || !*s)
		return false;
	for (; s[n]; n++)
		if (s[n] == '[' || s[n] == ']' || s[n] == ',' || s[n] == '=' ||
		    isspace((unsigned char) s[n]))
			return false;
	return n <= DL_NODESET_NAME_MAX;
}

/* Emit the names k[i..j) (one prefix and width, sorted, distinct). */
static void emit_group(struct sbuf *b, const struct hkey *k, uint32_t i,
		       uint32_t j)
{
	int w = k[i].width;

	if (w < 0 || j - i == 1) {
		sb_add(b, "%s%s", b->len ? "," : "", k[i].name);
		return;
	}
	while (i < j) {
		int ranges = 0;

		sb_add(b, "%s%.*s[", b->len ? "," : "", (int) k[i].plen,
		       k[i].name);
		while (i < j && ranges < MAX_RANGES) {
			uint32_t r = i;

			while (r + 1 < j && k[r + 1].num == k[r].num + 1)
				r++;
			sb_add(b, "%s%0*llu", ranges ? "," : "", w, k[i].num);
			if (r > i)
				sb_add(b, "-%0*llu", w, k[r].num);
			ranges++;
			i = r + 1;
		}
		sb_add(b, "]");
	}
}

int dl_nodeset_compress(char **names, uint32_t n, char **out)
{
	struct hkey *k;
	struct sbuf b = {0};
	uint32_t m = 0;

	if (!names || !n || !out)
		return EINVAL;
	*out = NULL;
	k = calloc(n, sizeof(*k));
	if (!k)
		return ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		size_t len, d;

		if (!plain_name(names[i])) {
			free(k);
			return EINVAL;
		}
		len = strlen(names[i]);
		d = len;
		while (d > 0 && isdigit((unsigned char) names[i][d - 1]))
			d--;
		k[i].name = names[i];
		if (len - d > MAX_DIGITS || d == len) {
			k[i].plen = len;
			k[i].width = -1;
			continue;
		}
		k[i].plen = d;
		k[i].digits = (int) (len - d);
		k[i].padded = k[i].digits > 1 && names[i][d] == '0';
		k[i].num = strtoull(names[i] + d, NULL, 10);
	}
	/* per prefix and digit count: padded names come first; the unpadded
	 * ones of the same width join them */
	qsort(k, n, sizeof(*k), cmp_digits);
	for (uint32_t i = 0; i < n; i++) {
		if (k[i].width < 0)
			continue;
		if (k[i].padded)
			k[i].width = k[i].digits;
		else if (i > 0 && k[i - 1].width > 0 &&
			 !cmp_prefix(&k[i - 1], &k[i]) &&
			 k[i - 1].digits == k[i].digits)
			k[i].width = k[i].digits;
		else
			k[i].width = 0;
	}
	qsort(k, n, sizeof(*k), cmp_final);
	/* drop duplicates */
	for (uint32_t i = 0; i < n; i++) {
		if (m && !cmp_final(&k[m - 1], &k[i]) &&
		    (k[i].width >= 0 || !strcmp(k[m - 1].name, k[i].name)))
			continue;
		k[m++] = k[i];
	}
	for (uint32_t i = 0; i < m;) {
		uint32_t j = i + 1;

		while (j < m && !cmp_prefix(&k[i], &k[j]) &&
		       k[i].width == k[j].width && k[i].width >= 0)
			j++;
		emit_group(&b, k, i, j);
		i = j;
	}
	free(k);
	if (b.oom || !b.s) {
		free(b.s);
		return ENOMEM;
	}
	*out = b.s;
	return 0;
}
