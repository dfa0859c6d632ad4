/*
 * sdl_view.c - row selection, table and JSON of sdeadline.
 */
#include "sdl_view.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/io/timefmt.h"
#include "common/io/utf8.h"
#include "common/plan/plan_json.h"
#include "common/io/json.h"

void sdl_filter_init(struct sdl_filter *f)
{
	if (f)
		memset(f, 0, sizeof(*f));
}

void sdl_filter_free(struct sdl_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nusers; i++)
		free(f->users[i]);
	free(f->users);
	free(f->jobs);
	free(f->visible);
	memset(f, 0, sizeof(*f));
}

/* Split csv at commas outside brackets ("12_[1,3]" stays one item). */
static int for_each_item(const char *csv,
			 int (*fn)(void *, const char *, char *, size_t),
			 void *arg, char *err, size_t errlen)
{
	char item[256];
	size_t n = 0;
	int depth = 0, rc;

	if (!csv || !*csv) {
		snprintf(err, errlen, "empty list");
		return EINVAL;
	}
	for (const char *p = csv;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth)
			depth--;
		if (!*p || (*p == ',' && !depth)) {
			item[n] = '\0';
			if (!n) {
				snprintf(err, errlen, "empty item in '%s'",
					 csv);
				return EINVAL;
			}
			if ((rc = fn(arg, item, err, errlen)))
				return rc;
			n = 0;
			if (!*p)
				return 0;
			continue;
		}
		if (n + 1 >= sizeof(item)) {
			snprintf(err, errlen, "item too long in '%.40s...'",
				 csv);
			return EINVAL;
		}
		item[n++] = *p;
	}
}

static int add_user(void *arg, const char *name, char *err, size_t errlen)
{
	struct sdl_filter *f = arg;
	char **u;

	for (const char *c = name; *c; c++)
		if (isspace((unsigned char) *c) || *c == ':' || *c == '/') {
			snprintf(err, errlen, "'%s' is not a user name", name);
			return EINVAL;
		}
	u = realloc(f->users, sizeof(*u) * (f->nusers + 1));
	if (!u) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	f->users = u;
	if (!(u[f->nusers] = strdup(name))) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	f->nusers++;
	return 0;
}

int sdl_filter_add_users(struct sdl_filter *f, const char *csv, char *err,
			 size_t errlen)
{
	if (!f) {
		snprintf(err, errlen, "no filter");
		return EINVAL;
	}
	return for_each_item(csv, add_user, f, err, errlen);
}

static int add_job(void *arg, const char *text, char *err, size_t errlen)
{
	struct sdl_filter *f = arg;
	unsigned long long v;
	uint64_t *j;
	char *end;

	errno = 0;
	v = isdigit((unsigned char) text[0]) ? strtoull(text, &end, 10) : 0;
	if (errno || !v || v > UINT32_MAX ||
	    (*end && (*end != '_' || !end[1]))) {
		snprintf(err, errlen,
			 "'%s' is not a job id (expected 123 or 123_4)", text);
		return EINVAL;
	}
	j = realloc(f->jobs, sizeof(*j) * (f->njobs + 1));
	if (!j) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	f->jobs = j;
	j[f->njobs++] = v;
	return 0;
}

int sdl_filter_add_jobs(struct sdl_filter *f, const char *csv, char *err,
			size_t errlen)
{
	if (!f) {
		snprintf(err, errlen, "no filter");
		return EINVAL;
	}
	return for_each_item(csv, add_job, f, err, errlen);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

void sdl_filter_set_visible(struct sdl_filter *f, uint64_t *ids, size_t n)
{
	if (!f) {
		free(ids);
		return;
	}
	free(f->visible);
	if (ids && n)
		qsort(ids, n, sizeof(*ids), cmp_u64);
	f->visible = ids;
	f->nvisible = ids ? n : 0;
	f->restrict_visible = true;
}

static bool visible(const struct sdl_filter *f, uint64_t id)
{
	return id && f->nvisible &&
	       bsearch(&id, f->visible, f->nvisible, sizeof(id), cmp_u64);
}

bool sdl_selected(const struct sdl_filter *f, const struct dl_plan_job *j)
{
	bool ok;

	if (!j)
		return false;
	if (!f)
		return true;
	if (f->restrict_visible && !visible(f, j->job_id) &&
	    !visible(f, j->reduce_id))
		return false;
	if (f->nusers) {
		ok = false;
		for (size_t i = 0; i < f->nusers && !ok; i++)
			ok = !strcmp(f->users[i], j->user);
		if (!ok)
			return false;
	}
	if (f->njobs) {
		ok = false;
		for (size_t i = 0; i < f->njobs && !ok; i++)
			ok = f->jobs[i] == j->job_id ||
			     (j->reduce_id && f->jobs[i] == j->reduce_id);
		if (!ok)
			return false;
	}
	return true;
}

size_t sdl_count_selected(const struct dl_plan *p, const struct sdl_filter *f)
{
	size_t n = 0;

	for (uint32_t i = 0; p && i < p->njobs; i++)
		n += sdl_selected(f, &p->jobs[i]);
	return n;
}

static uint32_t both(const uint32_t *v)
{
	return v[DL_MAP] + v[DL_REDUCE];
}

const char *sdl_outcome(const struct dl_plan_job *j)
{
	return dl_plan_outcome(j);
}

static const char *phase_name(int phase)
{
	return phase == DL_MAP ? "map" : phase == DL_REDUCE ? "reduce" : "done";
}

/* ---- fields: the default table, --long and --format ---- */

struct field {
	char letter;      /* --format %letter */
	const char *name; /* --format name */
	const char *header;
	bool right; /* right-aligned numbers */
};

enum fid {
	F_JOB,
	F_USER,
	F_ACCOUNT,
	F_NAME,
	F_PHASE,
	F_POLICY,
	F_DEADLINE,
	F_PREDICTED,
	F_P90,
	F_SOURCE,
	F_TASKS,
	F_ALLOC,
	F_NEED,
	F_RANK,
	F_MU,
	F_VERDICT,
	F_EXPLAIN,
	F_COUNT
};

static const struct field fields[F_COUNT] = {
	{'i', "jobid", "JOBID", false},
	{'u', "user", "USER", false},
	{'a', "account", "ACCOUNT", false},
	{'j', "name", "NAME", false},
	{'P', "phase", "PHASE", false},
	{'p', "policy", "POLICY", false},
	{'d', "deadline", "DEADLINE", false},
	{'e', "predicted", "PREDICTED", false},
	{'E', "p90", "P90", false},
	{'s', "source", "SOURCE", false},
	{'t', "tasks", "DONE/RUN/PEND", false},
	{'A', "alloc", "ALLOC", true},
	{'n', "need", "NEED", true},
	{'r', "rank", "RANK", true},
	{'m', "mu", "TASKLEN", true},
	{'v', "verdict", "VERDICT", false},
	{'x', "explanation", "EXPLANATION", false},
};

#define SDL_DEFAULT_FORMAT "%i %u %P %p %d %e %E %s %t %A %n %v %x"
#define SDL_LONG_FORMAT    "%i %u %a %j %P %p %d %e %E %s %t %A %n %r %m %v"
#define CELL               224 /* fits the plan's 200-byte explanation */
#define MAX_ITEMS          64

/* one item of a format: a field with its width, or literal text */
struct item {
	int field; /* enum fid, or -1 for literal text */
	int width; /* 0 = as wide as the widest cell */
	bool right;
	char text[64]; /* literal */
};

struct layout {
	struct item items[MAX_ITEMS];
	int n;
};

static int field_by_name(const char *name, size_t len)
{
	for (int f = 0; f < F_COUNT; f++)
		if (strlen(fields[f].name) == len &&
		    !strncasecmp(fields[f].name, name, len))
			return f;
	return -1;
}

static int add_item(struct layout *l, int field, int width, bool right,
		    const char *text, size_t len, char *err, size_t errlen)
{
	struct item *it;

	if (l->n == MAX_ITEMS) {
		snprintf(err, errlen, "more than %d items", MAX_ITEMS);
		return EINVAL;
	}
	it = &l->items[l->n++];
	it->field = field;
	it->width = width;
	it->right = field >= 0 && (right || (!width && fields[field].right));
	snprintf(it->text, sizeof(it->text), "%.*s", (int) len,
		 text ? text : "");
	return 0;
}

/* "%i %.8u ..." (squeue -o style: %[.][width]letter, "." right-aligns,
 * %% a percent sign, other text kept) or "jobid,user:8,verdict" (names,
 * optional :width, separated by one blank). */
static int parse_format(const char *fmt, struct layout *l, char *err,
			size_t errlen)
{
	memset(l, 0, sizeof(*l));
	if (!fmt || !*fmt) {
		snprintf(err, errlen, "empty format");
		return EINVAL;
	}
	if (!strchr(fmt, '%')) {
		for (const char *p = fmt; *p;) {
			size_t n = strcspn(p, ",:");
			int f = field_by_name(p, n), width = 0;

			if (f < 0) {
				snprintf(err, errlen, "unknown field '%.*s'",
					 (int) n, p);
				return EINVAL;
			}
			p += n;
			if (*p == ':') {
				char *end;
				long w = strtol(p + 1, &end, 10);

				if (end == p + 1 || w < 1 || w > CELL - 1 ||
				    (*end && *end != ',')) {
					snprintf(err, errlen,
						 "bad width after '%s'",
						 fields[f].name);
					return EINVAL;
				}
				width = (int) w;
				p = end;
			}
			if (l->n &&
			    add_item(l, -1, 0, false, " ", 1, err, errlen))
				return EINVAL;
			if (add_item(l, f, width, false, NULL, 0, err, errlen))
				return EINVAL;
			if (*p == ',' && !*++p) {
				snprintf(err, errlen, "a ',' ends the list");
				return EINVAL;
			}
		}
		return 0;
	}
	for (const char *p = fmt; *p;) {
		const char *lit = p;
		bool right = false;
		long width = 0;
		int f = -1;

		if (*p != '%') {
			size_t n = strcspn(p, "%");

			while (n) { /* long literals in pieces */
				size_t k = n < 63 ? n : 63;

				if (add_item(l, -1, 0, false, lit, k, err,
					     errlen))
					return EINVAL;
				lit += k;
				n -= k;
			}
			p = lit;
			continue;
		}
		p++;
		if (*p == '%') {
			if (add_item(l, -1, 0, false, "%", 1, err, errlen))
				return EINVAL;
			p++;
			continue;
		}
		if (*p == '.') {
			right = true;
			p++;
		}
		while (*p >= '0' && *p <= '9') {
			width = width * 10 + (*p - '0');
			if (width > CELL - 1) {
				snprintf(err, errlen, "width above %d",
					 CELL - 1);
				return EINVAL;
			}
			p++;
		}
		for (int k = 0; k < F_COUNT && *p; k++)
			if (fields[k].letter == *p)
				f = k;
		if (f < 0) {
			snprintf(err, errlen, "unknown field %%%c%s",
				 *p ? *p : ' ', *p ? "" : "(end of format)");
			return EINVAL;
		}
		p++;
		if (add_item(l, f, (int) width, right, NULL, 0, err, errlen))
			return EINVAL;
	}
	return 0;
}

int sdl_check_format(const char *fmt, char *err, size_t errlen)
{
	struct layout l;

	return parse_format(fmt, &l, err, errlen);
}

static void fill_cell(char *cell, int f, const struct dl_plan *p,
		      const struct dl_plan_job *j, bool utf8)
{
	const char *v;
	char err[32];

	switch (f) {
	case F_JOB:
		if (j->reduce_id)
			snprintf(cell, CELL, "%llu+%llu",
				 (unsigned long long) j->job_id,
				 (unsigned long long) j->reduce_id);
		else
			snprintf(cell, CELL, "%llu",
				 (unsigned long long) j->job_id);
		break;
	case F_USER:
		snprintf(cell, CELL, "%s", j->user[0] ? j->user : "-");
		break;
	case F_ACCOUNT:
		snprintf(cell, CELL, "%s", j->account[0] ? j->account : "-");
		break;
	case F_NAME:
		snprintf(cell, CELL, "%s", j->name[0] ? j->name : "-");
		break;
	case F_PHASE:
		snprintf(cell, CELL, "%s", phase_name(j->phase));
		break;
	case F_POLICY:
		snprintf(cell, CELL, "%s", dl_policy_name(p->policy));
		break;
	case F_DEADLINE:
		dl_format_time(j->deadline, p->now, cell, CELL);
		break;
	case F_PREDICTED:
		dl_format_time(j->predicted_finish, p->now, cell, CELL);
		if (j->phase >= 0 && isfinite(j->finish_err) &&
		    j->finish_err >= 1 && strcmp(cell, "-")) {
			size_t l = strlen(cell);

			dl_format_duration(j->finish_err, err, sizeof(err));
			snprintf(cell + l, CELL - l, "%s%s",
				 utf8 ? "\u00b1" : "+/-", err);
		}
		break;
	case F_P90:
		dl_format_time(dl_plan_finish_p90(j), p->now, cell, CELL);
		break;
	case F_SOURCE:
		snprintf(cell, CELL, "%s",
			 j->mu_source[0] ? j->mu_source : "-");
		break;
	case F_TASKS:
		snprintf(cell, CELL, "%u/%u/%u", both(j->done),
			 both(j->running), both(j->pending));
		break;
	case F_ALLOC:
		snprintf(cell, CELL, "%u", j->alloc);
		break;
	case F_NEED:
		if (isnan(j->need) || j->phase < 0)
			snprintf(cell, CELL, "-");
		else if (isinf(j->need))
			snprintf(cell, CELL, "inf");
		else
			snprintf(cell, CELL, "%.1f", j->need);
		break;
	case F_RANK:
		if (j->rank)
			snprintf(cell, CELL, "%u", j->rank);
		else
			snprintf(cell, CELL, "-");
		break;
	case F_MU:
		if (j->mu > 0 && isfinite(j->mu))
			dl_format_duration(j->mu, cell, CELL);
		else
			snprintf(cell, CELL, "-");
		break;
	case F_VERDICT:
		v = sdl_outcome(j);
		snprintf(cell, CELL, "%s", v ? v : dl_verdict_name(j->verdict));
		break;
	case F_EXPLAIN:
		dl_utf8_copy(cell, CELL, j->explain[0] ? j->explain : "-");
		break;
	default:
		cell[0] = '\0';
	}
}

/* display width of UTF-8 text (continuation bytes take no column) */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char) *s & 0xc0) != 0x80;
	return w;
}

/* byte offset of the first character past `cols` columns */
static size_t bytes_for(const char *s, size_t cols)
{
	size_t i = 0, w = 0;

	while (s[i]) {
		if (((unsigned char) s[i] & 0xc0) != 0x80) {
			if (w == cols)
				break;
			w++;
		}
		i++;
	}
	return i;
}

size_t sdl_fit_words(char *s, size_t size, size_t cols, bool utf8)
{
	const char *dots = utf8 ? "\u2026" : "...";
	size_t dw = utf8 ? 1 : 3, cut, sp;

	if (!s || width(s) <= cols)
		return s ? strlen(s) : 0;
	if (cols <= dw) {
		s[bytes_for(s, cols)] = '\0';
		return strlen(s);
	}
	/* the last blank that leaves room for the dots: never inside a
	 * word; a single word longer than the room is cut */
	cut = bytes_for(s, cols - dw);
	sp = cut;
	while (sp > 0 && s[sp] != ' ')
		sp--;
	while (sp > 0 && s[sp - 1] == ' ')
		sp--;
	if (sp > 0)
		cut = sp;
	/* the dots need their bytes: back off whole characters */
	while (cut > 0 && cut + strlen(dots) + 1 > size)
		do
			cut--;
		while (cut > 0 && ((unsigned char) s[cut] & 0xc0) == 0x80);
	if (cut + strlen(dots) + 1 > size) {
		s[0] = '\0';
		return 0;
	}
	memcpy(s + cut, dots, strlen(dots) + 1);
	return strlen(s);
}

/* Print s wrapped at cols columns, each line after indent blanks;
 * lines break at blanks, a word longer than a line stands alone. */
static void print_wrapped(FILE *out, const char *s, size_t indent, size_t cols)
{
	size_t room = cols > indent + 20 ? cols - indent : 20;

	while (*s == ' ')
		s++;
	while (*s) {
		size_t len = strlen(s), cut;

		if (width(s) <= room) {
			fprintf(out, "%*s%s\n", (int) indent, "", s);
			return;
		}
		cut = bytes_for(s, room);
		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (!cut) /* one long word: up to the next blank */
			cut = strcspn(s, " ");
		fprintf(out, "%*s%.*s\n", (int) indent, "", (int) cut, s);
		s += cut < len ? cut : len;
		while (*s == ' ')
			s++;
	}
}

static void print_cell(FILE *out, const char *s, size_t w, bool right,
		       bool last)
{
	size_t pad = w > width(s) ? w - width(s) : 0;

	if (right)
		fprintf(out, "%*s%s", (int) pad, "", s);
	else if (last)
		fputs(s, out);
	else
		fprintf(out, "%s%*s", s, (int) pad, "");
}

/* Policy=portfolio: the last round's scores per policy and its
 * decision, on one line under the header */
static void print_portfolio_line(FILE *out, const struct dl_plan_portfolio *pf,
				 double now)
{
	char when[32];

	if (!pf->rounds || pf->last_round <= 0) {
		fprintf(out, "portfolio: %s\n", pf->why);
		return;
	}
	dl_format_time(pf->last_round, now, when, sizeof(when));
	fprintf(out, "portfolio round %u at %s (%.2f s%s):", pf->rounds, when,
		pf->round_s, pf->over_budget ? ", over budget" : "");
	for (uint32_t i = 0; i < pf->n && i < DL_PLAN_PF_MAX; i++) {
		const struct dl_plan_pf_score *sc = &pf->score[i];

		if (sc->scored)
			fprintf(out, "%s %s %.2f (%.1f%% missed)", i ? "," : "",
				dl_policy_name(sc->policy), sc->total,
				sc->missed_pct);
		else
			fprintf(out, "%s %s -", i ? "," : "",
				dl_policy_name(sc->policy));
	}
	fprintf(out, "; %s\n", pf->why);
}

static void print_header_line(FILE *out, const struct dl_plan *p, size_t n,
			      double now, double stale_after)
{
	char when[32], age[32];

	dl_format_time(p->now, now, when, sizeof(when));
	dl_format_duration(now > p->now ? now - p->now : 0, age, sizeof(age));
	fprintf(out,
		"plan cycle %llu at %s (%s ago), policy %s%s%s, estimator %s, "
		"%zu deadline job%s\n",
		(unsigned long long) p->cycle, when, age,
		p->portfolio.on ? "portfolio, now " : "",
		dl_policy_name(p->policy),
		p->portfolio.on && p->portfolio.switches ? " (switched)" : "",
		p->stats.estimator[0] ? p->stats.estimator : "-", n,
		n == 1 ? "" : "s");
	if (p->portfolio.on)
		print_portfolio_line(out, &p->portfolio, now);
	if (stale_after > 0 && now - p->now > stale_after)
		fprintf(out,
			"warning: the plan is %s old; is slurmctld running "
			"with SchedulerType=sched/deadline?\n",
			age);
}

int sdl_print(FILE *out, const struct dl_plan *p, const struct sdl_filter *f,
	      double now, const struct sdl_view *v)
{
	size_t n = sdl_count_selected(p, f), r = 0, w[MAX_ITEMS], used;
	const char *fmt;
	char(*cells)[MAX_ITEMS][CELL];
	struct layout l;
	char err[128];
	int last;
	bool has_explain = false;

	if (!out || !p || !v)
		return EINVAL;
	fmt = v->format      ? v->format
	      : v->long_view ? SDL_LONG_FORMAT
			     : SDL_DEFAULT_FORMAT;
	if (parse_format(fmt, &l, err, sizeof(err)))
		return EINVAL;
	if (!v->no_header)
		print_header_line(out, p, n, now, v->stale_after);
	cells = calloc(n ? n : 1, sizeof(*cells));
	if (!cells)
		return ENOMEM;
	/* the last field item (its cell is not padded) */
	last = -1;
	for (int i = 0; i < l.n; i++)
		if (l.items[i].field >= 0)
			last = i;
	for (int i = 0; i < l.n; i++) {
		w[i] = l.items[i].field >= 0
			       ? width(fields[l.items[i].field].header)
			       : 0;
		has_explain |= l.items[i].field == F_EXPLAIN;
	}
	for (uint32_t k = 0; k < p->njobs; k++) {
		const struct dl_plan_job *j = &p->jobs[k];

		if (!sdl_selected(f, j))
			continue;
		for (int i = 0; i < l.n; i++) {
			if (l.items[i].field < 0)
				continue;
			fill_cell(cells[r][i], l.items[i].field, p, j, v->utf8);
			if (l.items[i].width)
				sdl_fit_words(cells[r][i], CELL,
					      (size_t) l.items[i].width,
					      v->utf8);
			if (width(cells[r][i]) > w[i])
				w[i] = width(cells[r][i]);
		}
		r++;
	}
	for (int i = 0; i < l.n; i++)
		if (l.items[i].width)
			w[i] = (size_t) l.items[i].width;
	/* the default view on a terminal: the explanation, when it is the
	 * last field, fits the line, cut between words */
	if (v->columns && last >= 0 && l.items[last].field == F_EXPLAIN &&
	    !l.items[last].width) {
		used = 0;
		for (int i = 0; i < last; i++)
			used += l.items[i].field >= 0 ? w[i]
						      : width(l.items[i].text);
		for (size_t k = 0; k < r; k++)
			sdl_fit_words(cells[k][last], CELL,
				      v->columns > used + 12 ? v->columns - used
							     : 12,
				      v->utf8);
	}
	if (!v->no_header) {
		for (int i = 0; i < l.n; i++) {
			if (l.items[i].field < 0)
				fputs(l.items[i].text, out);
			else
				print_cell(out, fields[l.items[i].field].header,
					   w[i], l.items[i].right, i == last);
		}
		fputc('\n', out);
	}
	r = 0;
	for (uint32_t k = 0; k < p->njobs; k++) {
		const struct dl_plan_job *j = &p->jobs[k];

		if (!sdl_selected(f, j))
			continue;
		for (int i = 0; i < l.n; i++) {
			if (l.items[i].field < 0)
				fputs(l.items[i].text, out);
			else
				print_cell(out, cells[r][i], w[i],
					   l.items[i].right, i == last);
		}
		fputc('\n', out);
		/* --long: the whole explanation below the row, wrapped */
		if (v->long_view && !has_explain)
			print_wrapped(out, j->explain[0] ? j->explain : "-", 4,
				      v->columns ? v->columns : 80);
		r++;
	}
	free(cells);
	return 0;
}

void sdl_print_table(FILE *out, const struct dl_plan *p,
		     const struct sdl_filter *f, double now, bool utf8,
		     double stale_after)
{
	struct sdl_view v = {0};

	v.utf8 = utf8;
	v.stale_after = stale_after;
	sdl_print(out, p, f, now, &v);
}

static struct json_object *row_json(const struct dl_plan *p,
				    const struct dl_plan_job *j)
{
	struct json_object *r = json_object_new_object();

	if (!r)
		return NULL;
	dl_json_put_u64(r, "job_id", j->job_id);
	dl_json_put_u64(r, "reduce_id", j->reduce_id);
	dl_json_put_str(r, "user", j->user);
	dl_json_put_str(r, "account", j->account);
	dl_json_put_str(r, "name", j->name);
	dl_json_put_str(r, "phase", phase_name(j->phase));
	dl_json_put_str(r, "policy", dl_policy_name(p->policy));
	dl_json_put_num(r, "deadline", j->deadline);
	dl_json_put_num(r, "goal", j->goal);
	dl_json_put_num(r, "predicted_finish", j->predicted_finish);
	dl_json_put_num(r, "finish_err", j->finish_err);
	dl_json_put_num(r, "finish_p90", dl_plan_finish_p90(j));
	/* HopelessPromise: the finish a given-up job was promised; null =
	 * none */
	dl_json_put_num(r, "promise", j->promise > 0 ? j->promise : NAN);
	dl_json_put_u64(r, "tasks", both(j->tasks));
	dl_json_put_u64(r, "done", both(j->done));
	dl_json_put_u64(r, "running", both(j->running));
	dl_json_put_u64(r, "pending", both(j->pending));
	dl_json_put_u64(r, "alloc", j->alloc);
	dl_json_put_num(r, "need", j->need);
	dl_json_put_u64(r, "rank", j->rank);
	json_object_object_add(r, "managed",
			       json_object_new_boolean(j->managed));
	dl_json_put_num(r, "mu", j->mu);
	dl_json_put_str(r, "source", j->mu_source);
	dl_json_put_str(r, "verdict", dl_verdict_name(j->verdict));
	dl_json_put_str(r, "outcome", sdl_outcome(j));
	dl_json_put_str(r, "explain", j->explain);
	return r;
}

struct json_object *sdl_json(const struct dl_plan *p,
			     const struct sdl_filter *f)
{
	struct json_object *o, *rows;

	if (!p)
		return NULL;
	o = json_object_new_object();
	rows = json_object_new_array();
	if (!o || !rows) {
		json_object_put(o);
		json_object_put(rows);
		return NULL;
	}
	dl_json_put_u64(o, "cycle", p->cycle);
	dl_json_put_num(o, "plan_time", p->now);
	dl_json_put_str(o, "policy", dl_policy_name(p->policy));
	dl_json_put_str(o, "estimator", p->stats.estimator);
	if (p->portfolio.on)
		json_object_object_add(
			o, "portfolio",
			dl_plan_portfolio_to_json(&p->portfolio));
	for (uint32_t i = 0; i < p->njobs; i++) {
		struct json_object *r;

		if (!sdl_selected(f, &p->jobs[i]))
			continue;
		r = row_json(p, &p->jobs[i]);
		if (!r || json_object_array_add(rows, r)) {
			json_object_put(r);
			json_object_put(rows);
			json_object_put(o);
			return NULL;
		}
	}
	json_object_object_add(o, "jobs", rows);
	return o;
}
