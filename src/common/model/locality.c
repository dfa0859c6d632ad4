/*
 * locality.c - the --input-nodes hint: parse, check, normalise, look up
 * (locality.h).
 */
#include "common/model/locality.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/nodeset.h"
#include "common/io/grow.h"

/* One entry as written, while parsing. */
struct entry {
	char *hosts;    /* canonical */
	uint32_t count; /* host names it lists */
	bool dflt;
	uint32_t set;
};

struct parser {
	struct entry *e;
	uint32_t ne, cap_e;
	struct dl_locality_range *r;
	uint32_t nr, cap_r;
	uint8_t *seen; /* task indexes already listed */
	size_t seen_bytes;
	uint32_t hosts; /* names so far */
	bool lines;     /* the text has several lines: name them */
	struct dl_locality_opts opts;
	char *err;
	size_t errlen;
	/* the entry being parsed, for messages */
	char etext[64];
	uint32_t eline;
};

static void perr(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void perr(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!p->err || !p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->lines)
		snprintf(p->err, p->errlen, "line %u: %s", p->eline, msg);
	else
		snprintf(p->err, p->errlen, "entry '%s%s': %s", p->etext,
			 strlen(p->etext) >= sizeof(p->etext) - 1 ? "..." : "",
			 msg);
}

void dl_locality_free(struct dl_locality *loc)
{
	if (!loc)
		return;
	for (uint32_t i = 0; i < loc->nsets; i++)
		free(loc->sets[i]);
	free(loc->sets);
	free(loc->ranges);
	free(loc->max_hi);
	memset(loc, 0, sizeof(*loc));
	loc->dflt = -1;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s &&
	       (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* A task index: decimal digits only, at most DL_LOCALITY_MAX_TASK. */
static int parse_index(struct parser *p, const char *s, uint32_t *out)
{
	uint64_t v = 0;
	const char *q = s;

	if (!*q) {
		perr(p, "missing task index");
		return EINVAL;
	}
	for (; *q; q++) {
		if (!isdigit((unsigned char) *q)) {
			perr(p, "'%.20s' is not a task index (0 to %u)", s,
			     DL_LOCALITY_MAX_TASK);
			return EINVAL;
		}
		v = v * 10 + (uint64_t) (*q - '0');
		if (v > DL_LOCALITY_MAX_TASK) {
			perr(p,
			     "task index %.20s is above %u (Slurm's largest "
			     "array index)",
			     s, DL_LOCALITY_MAX_TASK);
			return ERANGE;
		}
	}
	*out = (uint32_t) v;
	return 0;
}

/* Mark tasks lo..hi:step as listed; the first one listed before, or -1. */
static int64_t mark(struct parser *p, uint32_t lo, uint32_t hi, uint32_t step)
{
	size_t need = (size_t) hi / 8 + 1;

	if (need > p->seen_bytes) {
		size_t cap = p->seen_bytes ? p->seen_bytes : 64;
		uint8_t *s;

		while (cap < need)
			cap *= 2;
		s = realloc(p->seen, cap);
		if (!s)
			return -2;
		memset(s + p->seen_bytes, 0, cap - p->seen_bytes);
		p->seen = s;
		p->seen_bytes = cap;
	}
	for (uint64_t t = lo; t <= hi; t += step) {
		/* whole bytes at once for plain ranges */
		if (step == 1 && !(t % 8) && t + 7 <= hi) {
			if (p->seen[t / 8])
				for (int b = 0; b < 8; b++)
					if (p->seen[t / 8] & (1u << b))
						return (int64_t) t + b;
			p->seen[t / 8] = 0xff;
			t += 7;
			continue;
		}
		if (p->seen[t / 8] & (1u << (t % 8)))
			return (int64_t) t;
		p->seen[t / 8] |= (uint8_t) (1u << (t % 8));
	}
	return -1;
}

static int add_range(struct parser *p, uint32_t lo, uint32_t hi, uint32_t step)
{
	int64_t dup;

	if (hi < lo) {
		perr(p, "range %u-%u runs backwards", lo, hi);
		return EINVAL;
	}
	hi = lo + (hi - lo) / step * step; /* the last task it names */
	if (lo > p->opts.max_task)
		return 0; /* beyond the array: nothing to remember */
	if (hi > p->opts.max_task)
		hi = lo + (p->opts.max_task - lo) / step * step;
	if (hi == lo)
		step = 1;
	dup = p->opts.unique ? mark(p, lo, hi, step) : -1;
	if (dup == -2) {
		perr(p, "out of memory");
		return ENOMEM;
	}
	if (dup >= 0) {
		perr(p, "task %lld is already listed in another entry",
		     (long long) dup);
		return EINVAL;
	}
	if (dl_grow(&p->r, p->nr, &p->cap_r, sizeof(*p->r), 16)) {
		perr(p, "out of memory");
		return ENOMEM;
	}
	p->r[p->nr++] = (struct dl_locality_range){lo, hi, step, p->ne};
	return 0;
}

/* "0-3,8,10-20:5" */
static int parse_indexes(struct parser *p, char *text)
{
	char *item;
	int rc = 0;

	while (!rc && (item = strsep(&text, ","))) {
		char *dash, *colon;
		uint32_t lo, hi, step = 1;

		item = trim(item);
		colon = strchr(item, ':');
		if (colon) {
			*colon = '\0';
			rc = parse_index(p, trim(colon + 1), &step);
			if (!rc && !step) {
				perr(p, "a step must be at least 1");
				rc = EINVAL;
			}
			if (rc)
				break;
		}
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		else if (colon) {
			perr(p, "a step needs a range (N-M:STEP)");
			return EINVAL;
		}
		rc = parse_index(p, trim(item), &lo);
		hi = lo;
		if (!rc && dash)
			rc = parse_index(p, trim(dash + 1), &hi);
		if (!rc)
			rc = add_range(p, lo, hi, step);
	}
	return rc;
}

struct name_list {
	char **names;
	uint32_t n;
};

static int collect_name(const char *name, void *ctx)
{
	struct name_list *l = ctx;

	if (!(l->names[l->n] = strdup(name)))
		return ENOMEM;
	l->n++;
	return 0;
}

static const char every_node_msg[] =
	"'*' (every node) is no preference: leave these tasks out";

/* Whether a host list names "*", every node.  Checked name by name as well
 * as on the text: "*,*" compresses to "*", and its normal form "*=*" would
 * be refused when read back. */
static bool names_every_node(const struct name_list *l)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], "*"))
			return true;
	return false;
}

/* The canonical form of one entry's host list. */
static int canonical_hosts(struct parser *p, const char *hosts, char **out,
			   uint32_t *names)
{
	char msg[160] = "";
	struct name_list l = {NULL, 0};
	uint32_t count = 0;
	int rc;

	if (!*hosts) {
		perr(p, "no host list");
		return EINVAL;
	}
	if (!strcmp(hosts, "*")) { /* dl_nodeset_count's message is vaguer */
		perr(p, "%s", every_node_msg);
		return EINVAL;
	}
	rc = dl_nodeset_count(hosts, DL_LOCALITY_MAX_HOSTS - p->hosts, &count,
			      msg, sizeof(msg));
	if (rc == ERANGE) {
		perr(p, "more than %u host names in all",
		     DL_LOCALITY_MAX_HOSTS);
		return ERANGE;
	}
	if (rc) {
		perr(p, "'%.40s' is not a host list: %s", hosts, msg);
		return EINVAL;
	}
	l.names = calloc(count ? count : 1, sizeof(*l.names));
	if (!l.names) {
		perr(p, "out of memory");
		return ENOMEM;
	}
	rc = dl_nodeset_foreach(hosts, count, collect_name, &l, msg,
				sizeof(msg));
	if (!rc && names_every_node(&l)) {
		perr(p, "%s", every_node_msg);
		rc = EINVAL;
	} else {
		if (!rc)
			rc = dl_nodeset_compress(l.names, l.n, out);
		if (rc == EINVAL)
			perr(p, "'%.40s' is not a host list: %s", hosts, msg);
		else if (rc)
			perr(p, "out of memory");
	}
	for (uint32_t i = 0; i < l.n; i++)
		free(l.names[i]);
	free(l.names);
	if (!rc) {
		p->hosts += count;
		/* distinct names: the canonical form dropped duplicates */
		if (dl_nodeset_count(*out, count, names, NULL, 0))
			*names = count;
	}
	return rc;
}

/* A host list kept as written (already normal): checked and counted, not
 * expanded. */
static int checked_hosts(struct parser *p, const char *hosts, char **out,
			 uint32_t *names)
{
	char msg[160] = "";
	uint32_t count = 0;
	int rc;

	if (!*hosts) {
		perr(p, "no host list");
		return EINVAL;
	}
	rc = dl_nodeset_count(hosts, DL_LOCALITY_MAX_HOSTS - p->hosts, &count,
			      msg, sizeof(msg));
	if (rc == ERANGE) {
		perr(p, "more than %u host names in all",
		     DL_LOCALITY_MAX_HOSTS);
		return ERANGE;
	}
	if (rc) {
		perr(p, "'%.40s' is not a host list: %s", hosts, msg);
		return EINVAL;
	}
	if (!(*out = strdup(hosts))) {
		perr(p, "out of memory");
		return ENOMEM;
	}
	p->hosts += count;
	*names = count;
	return 0;
}

static int parse_entry(struct parser *p, char *text)
{
	char *eq = strchr(text, '='), *hosts = text, *idx = NULL;
	struct entry *e;
	int rc;

	if (dl_grow(&p->e, p->ne, &p->cap_e, sizeof(*p->e), 8)) {
		perr(p, "out of memory");
		return ENOMEM;
	}
	e = &p->e[p->ne];
	memset(e, 0, sizeof(*e));
	if (eq) {
		*eq = '\0';
		idx = trim(text);
		hosts = trim(eq + 1);
	}
	e->dflt = !idx || !strcmp(idx, "*");
	if (!idx && strspn(hosts, "0123456789,-:") == strlen(hosts)) {
		/* a host list of numbers only is a missing "=HOSTS" */
		perr(p, "task indexes without hosts (write %.20s=HOSTS)",
		     hosts);
		return EINVAL;
	}
	if (e->dflt) {
		for (uint32_t i = 0; i < p->ne; i++)
			if (p->e[i].dflt) {
				perr(p,
				     "a second entry for the tasks not listed "
				     "(give one list of hosts without "
				     "indexes)");
				return EINVAL;
			}
	} else if (!*idx) {
		perr(p, "no task indexes before '='");
		return EINVAL;
	} else if ((rc = parse_indexes(p, idx))) {
		return rc;
	}
	if (p->opts.canonical)
		rc = canonical_hosts(p, hosts, &e->hosts, &e->count);
	else
		rc = checked_hosts(p, hosts, &e->hosts, &e->count);
	if (rc)
		return rc;
	p->ne++;
	return 0;
}

static int cmp_entry_hosts(const void *a, const void *b)
{
	const struct entry *const *x = a, *const *y = b;

	return strcmp((*x)->hosts, (*y)->hosts);
}

static int cmp_range_lo(const void *a, const void *b)
{
	const struct dl_locality_range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

static int cmp_range_set(const void *a, const void *b)
{
	const struct dl_locality_range *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

struct set_rank {
	uint32_t first; /* first task; UINT32_MAX: the default entry only */
	uint32_t set;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct set_rank *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->set > y->set) - (x->set < y->set);
}

/* Distinct host lists become sets, numbered by their first task; ranges
 * of one set that touch are merged. */
static int build(struct parser *p, struct dl_locality *loc)
{
	struct entry **order = NULL;
	struct set_rank *rank = NULL;
	uint32_t *first = NULL, nsets = 0, m = 0;
	int rc = ENOMEM;

	order = calloc(p->ne ? p->ne : 1, sizeof(*order));
	first = calloc(p->ne ? p->ne : 1, sizeof(*first));
	rank = calloc(p->ne ? p->ne : 1, sizeof(*rank));
	if (!order || !first || !rank)
		goto out;
	for (uint32_t i = 0; i < p->ne; i++)
		order[i] = &p->e[i];
	qsort(order, p->ne, sizeof(*order), cmp_entry_hosts);
	for (uint32_t i = 0; i < p->ne; i++) {
		if (i && strcmp(order[i - 1]->hosts, order[i]->hosts))
			nsets++;
		order[i]->set = nsets;
	}
	if (p->ne)
		nsets++;
	/* a set's first task; sets of the default entry only go last */
	for (uint32_t s = 0; s < nsets; s++)
		first[s] = UINT32_MAX;
	for (uint32_t k = 0; k < p->nr; k++) {
		uint32_t s = p->e[p->r[k].set].set;

		p->r[k].set = s;
		if (p->r[k].lo < first[s])
			first[s] = p->r[k].lo;
	}
	/* renumber the sets in the order of their first task */
	for (uint32_t s = 0; s < nsets; s++)
		rank[s] = (struct set_rank){first[s], s};
	qsort(rank, nsets, sizeof(*rank), cmp_rank);
	for (uint32_t r = 0; r < nsets; r++)
		first[rank[r].set] = r;
	loc->sets = calloc(nsets ? nsets : 1, sizeof(*loc->sets));
	if (!loc->sets)
		goto out;
	loc->nsets = nsets;
	for (uint32_t i = 0; i < p->ne; i++) {
		uint32_t s = first[p->e[i].set];

		if (p->e[i].dflt)
			loc->dflt = (int32_t) s;
		if (!loc->sets[s]) {
			loc->sets[s] = p->e[i].hosts;
			p->e[i].hosts = NULL;
			loc->hosts += p->e[i].count;
		}
	}
	for (uint32_t k = 0; k < p->nr; k++)
		p->r[k].set = first[p->r[k].set];
	/* merge touching plain ranges of one set */
	if (p->nr) /* none: only a default entry (and p->r is NULL) */
		qsort(p->r, p->nr, sizeof(*p->r), cmp_range_set);
	for (uint32_t k = 0; k < p->nr; k++) {
		struct dl_locality_range *prev = m ? &p->r[m - 1] : NULL;

		if (prev && prev->set == p->r[k].set && prev->step == 1 &&
		    p->r[k].step == 1 &&
		    (uint64_t) prev->hi + 1 == p->r[k].lo) {
			prev->hi = p->r[k].hi;
			continue;
		}
		p->r[m++] = p->r[k];
	}
	if (m)
		qsort(p->r, m, sizeof(*p->r), cmp_range_lo);
	loc->ranges = p->r;
	loc->nranges = m;
	p->r = NULL;
	loc->max_hi = calloc(m ? m : 1, sizeof(*loc->max_hi));
	if (!loc->max_hi)
		goto out;
	for (uint32_t k = 0; k < m; k++)
		loc->max_hi[k] = (k && loc->max_hi[k - 1] > loc->ranges[k].hi)
					 ? loc->max_hi[k - 1]
					 : loc->ranges[k].hi;
	rc = 0;
out:
	free(order);
	free(first);
	free(rank);
	return rc;
}

int dl_locality_parse(const char *text, struct dl_locality *loc, char *err,
		      size_t errlen)
{
	struct dl_locality_opts o = {DL_LOCALITY_MAX_TASK, true, true};

	return dl_locality_parse_opt(text, &o, loc, err, errlen);
}

int dl_locality_parse_opt(const char *text, const struct dl_locality_opts *o,
			  struct dl_locality *loc, char *err, size_t errlen)
{
	struct parser p = {0};
	char *copy, *s;
	uint32_t line = 1;
	int rc = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!loc) {
		snprintf(err, err ? errlen : 0, "no locality to fill");
		return EINVAL;
	}
	memset(loc, 0, sizeof(*loc));
	loc->dflt = -1;
	if (!text) {
		snprintf(err, err ? errlen : 0, "no preferred nodes given");
		return EINVAL;
	}
	if (strlen(text) > DL_LOCALITY_MAX_INPUT) {
		snprintf(err, err ? errlen : 0,
			 "more than %u bytes of preferred nodes",
			 DL_LOCALITY_MAX_INPUT);
		return ERANGE;
	}
	copy = strdup(text);
	if (!copy) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return ENOMEM;
	}
	p.err = err;
	p.errlen = errlen;
	p.opts =
		o ? *o
		  : (struct dl_locality_opts){DL_LOCALITY_MAX_TASK, true, true};
	if (p.opts.max_task > DL_LOCALITY_MAX_TASK)
		p.opts.max_task = DL_LOCALITY_MAX_TASK;
	p.lines = strchr(text, '\n') != NULL;
	s = copy;
	while (!rc && *s) {
		char *end = s, *next, *entry;
		bool newline = false;

		while (*end && *end != ';' && *end != '\n' && *end != '#')
			end++;
		if (*end == '#') { /* a comment runs to the end of the line */
			char *nl = strchr(end + 1, '\n');

			next = nl ? nl + 1 : end + 1 + strlen(end + 1);
			newline = nl != NULL;
		} else {
			newline = *end == '\n';
			next = *end ? end + 1 : end;
		}
		*end = '\0';
		entry = trim(s);
		snprintf(p.etext, sizeof(p.etext), "%s", entry);
		p.eline = line;
		if (*entry)
			rc = parse_entry(&p, entry);
		if (newline)
			line++;
		s = next;
	}
	if (!rc && !p.ne) {
		snprintf(err, err ? errlen : 0, "no preferred nodes given");
		rc = EINVAL;
	}
	if (!rc)
		rc = build(&p, loc);
	if (rc == ENOMEM && err && errlen && !err[0])
		snprintf(err, errlen, "out of memory");
	for (uint32_t i = 0; i < p.ne; i++)
		free(p.e[i].hosts);
	free(p.e);
	free(p.r);
	free(p.seen);
	free(copy);
	if (rc)
		dl_locality_free(loc);
	return rc;
}

int32_t dl_locality_set_of(const struct dl_locality *loc, uint32_t task)
{
	uint32_t lo = 0, hi;

	if (!loc)
		return -1;
	/* the last range starting at or before task */
	hi = loc->nranges;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (loc->ranges[mid].lo <= task)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* earlier ranges may still reach task (stepped ones interleave) */
	for (uint32_t k = lo; k-- > 0 && loc->max_hi[k] >= task;) {
		const struct dl_locality_range *r = &loc->ranges[k];

		if (task <= r->hi && (task - r->lo) % r->step == 0)
			return (int32_t) r->set;
	}
	return loc->dflt;
}

/* snprintf that keeps counting past the end of buf */
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*used < len ? buf + *used : NULL,
		      *used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t) n;
}

/* Bytes of the normalised form (without the NUL); writes what fits. */
static size_t format_into(const struct dl_locality *loc, char *buf, size_t len)
{
	struct dl_locality_range *r;
	size_t used = 0;
	uint32_t k = 0;

	if (len)
		buf[0] = '\0';
	r = malloc((loc->nranges ? loc->nranges : 1) * sizeof(*r));
	if (!r)
		return SIZE_MAX;
	if (loc->nranges)
		memcpy(r, loc->ranges, loc->nranges * sizeof(*r));
	qsort(r, loc->nranges, sizeof(*r), cmp_range_set);
	for (uint32_t s = 0; s < loc->nsets; s++) {
		bool any = false;

		for (; k < loc->nranges && r[k].set == s; k++) {
			put(buf, len, &used, "%s%u",
			    any ? "," : (used ? ";" : ""), r[k].lo);
			if (r[k].hi != r[k].lo)
				put(buf, len, &used, "-%u", r[k].hi);
			if (r[k].step != 1)
				put(buf, len, &used, ":%u", r[k].step);
			any = true;
		}
		if (any)
			put(buf, len, &used, "=%s", loc->sets[s]);
	}
	if (loc->dflt >= 0 && (uint32_t) loc->dflt < loc->nsets)
		put(buf, len, &used, "%s*=%s", used ? ";" : "",
		    loc->sets[loc->dflt]);
	free(r);
	return used;
}

int dl_locality_format(const struct dl_locality *loc, char *buf, size_t len)
{
	size_t need;

	if (!loc || !buf || !len || !loc->nsets)
		return EINVAL;
	need = format_into(loc, buf, len);
	if (need == SIZE_MAX)
		return ENOMEM;
	if (need >= len) {
		buf[0] = '\0';
		return ERANGE;
	}
	return 0;
}

int dl_locality_normalise(const char *text, char *buf, size_t len, char *err,
			  size_t errlen)
{
	struct dl_locality loc;
	size_t need;
	int rc;

	if (!buf || !len) {
		snprintf(err, err ? errlen : 0, "no room for the result");
		return EINVAL;
	}
	buf[0] = '\0';
	rc = dl_locality_parse(text, &loc, err, errlen);
	if (rc)
		return rc;
	need = format_into(&loc, buf, len);
	dl_locality_free(&loc);
	if (need == SIZE_MAX) {
		snprintf(err, err ? errlen : 0, "out of memory");
		return ENOMEM;
	}
	if (need > DL_LOCALITY_MAX_TEXT || need >= len) {
		buf[0] = '\0';
		snprintf(err, err ? errlen : 0,
			 "%zu bytes once normalised, more than the %u a job "
			 "can carry: give tasks that read the same nodes one "
			 "entry (0-99=n[1-3]) or a step (0-999:4=n1)",
			 need, DL_LOCALITY_MAX_TEXT);
		return ERANGE;
	}
	return 0;
}
