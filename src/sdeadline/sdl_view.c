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

#include "common/io/timefmt.h"
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

enum col {
	C_JOB,
	C_USER,
	C_PHASE,
	C_POLICY,
	C_DEADLINE,
	C_PREDICTED,
	C_TASKS,
	C_ALLOC,
	C_NEED,
	C_SOURCE,
	C_VERDICT,
	C_EXPLAIN,
	C_COUNT
};

static const char *const headers[C_COUNT] = {
	"JOBID",         "USER",  "PHASE", "POLICY", "DEADLINE", "PREDICTED",
	"DONE/RUN/PEND", "ALLOC", "NEED",  "SOURCE", "VERDICT",  "EXPLANATION",
};

/* right-aligned numeric columns */
static bool right_aligned(int c)
{
	return c == C_ALLOC || c == C_NEED;
}

#define CELL 96

static void fill_row(char cells[C_COUNT][CELL], const struct dl_plan *p,
		     const struct dl_plan_job *j, bool utf8)
{
	const char *v = sdl_outcome(j);
	char err[32];

	if (j->reduce_id)
		snprintf(cells[C_JOB], CELL, "%llu+%llu",
			 (unsigned long long) j->job_id,
			 (unsigned long long) j->reduce_id);
	else
		snprintf(cells[C_JOB], CELL, "%llu",
			 (unsigned long long) j->job_id);
	snprintf(cells[C_USER], CELL, "%s", j->user[0] ? j->user : "-");
	snprintf(cells[C_PHASE], CELL, "%s", phase_name(j->phase));
	snprintf(cells[C_POLICY], CELL, "%s", dl_policy_name(p->policy));
	dl_format_time(j->deadline, p->now, cells[C_DEADLINE], CELL);
	dl_format_time(j->predicted_finish, p->now, cells[C_PREDICTED], CELL);
	if (j->phase >= 0 && isfinite(j->finish_err) && j->finish_err >= 1 &&
	    strcmp(cells[C_PREDICTED], "-")) {
		size_t l = strlen(cells[C_PREDICTED]);

		dl_format_duration(j->finish_err, err, sizeof(err));
		snprintf(cells[C_PREDICTED] + l, CELL - l, "%s%s",
			 utf8 ? "\u00b1" : "+/-", err);
	}
	snprintf(cells[C_TASKS], CELL, "%u/%u/%u", both(j->done),
		 both(j->running), both(j->pending));
	snprintf(cells[C_ALLOC], CELL, "%u", j->alloc);
	if (isnan(j->need) || j->phase < 0)
		snprintf(cells[C_NEED], CELL, "-");
	else if (isinf(j->need))
		snprintf(cells[C_NEED], CELL, "inf");
	else
		snprintf(cells[C_NEED], CELL, "%.1f", j->need);
	snprintf(cells[C_SOURCE], CELL, "%s",
		 j->mu_source[0] ? j->mu_source : "-");
	snprintf(cells[C_VERDICT], CELL, "%s",
		 v ? v : dl_verdict_name(j->verdict));
	snprintf(cells[C_EXPLAIN], CELL, "%s", "");
}

/* display width of UTF-8 text (continuation bytes take no column) */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char) *s & 0xc0) != 0x80;
	return w;
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

void sdl_print_table(FILE *out, const struct dl_plan *p,
		     const struct sdl_filter *f, double now, bool utf8,
		     double stale_after)
{
	size_t n = sdl_count_selected(p, f), r = 0, w[C_COUNT];
	char(*cells)[C_COUNT][CELL];
	char when[32], age[32];

	if (!out || !p)
		return;
	dl_format_time(p->now, now, when, sizeof(when));
	dl_format_duration(now > p->now ? now - p->now : 0, age, sizeof(age));
	fprintf(out,
		"plan cycle %llu at %s (%s ago), policy %s, estimator %s, %zu "
		"deadline job%s\n",
		(unsigned long long) p->cycle, when, age,
		dl_policy_name(p->policy),
		p->stats.estimator[0] ? p->stats.estimator : "-", n,
		n == 1 ? "" : "s");
	if (stale_after > 0 && now - p->now > stale_after)
		fprintf(out,
			"warning: the plan is %s old; is slurmctld running "
			"with SchedulerType=sched/deadline?\n",
			age);
	cells = calloc(n ? n : 1, sizeof(*cells));
	if (!cells)
		return;
	for (int c = 0; c < C_COUNT; c++)
		w[c] = width(headers[c]);
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct dl_plan_job *j = &p->jobs[i];

		if (!sdl_selected(f, j))
			continue;
		fill_row(cells[r], p, j, utf8);
		for (int c = 0; c < C_EXPLAIN; c++)
			if (width(cells[r][c]) > w[c])
				w[c] = width(cells[r][c]);
		r++;
	}
	for (int c = 0; c < C_COUNT; c++) {
		print_cell(out, headers[c], w[c], right_aligned(c),
			   c == C_EXPLAIN);
		fputs(c == C_EXPLAIN ? "\n" : " ", out);
	}
	r = 0;
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct dl_plan_job *j = &p->jobs[i];

		if (!sdl_selected(f, j))
			continue;
		for (int c = 0; c < C_EXPLAIN; c++) {
			print_cell(out, cells[r][c], w[c], right_aligned(c),
				   false);
			fputc(' ', out);
		}
		/* the explanation may exceed a cell: print it whole */
		fprintf(out, "%s\n", j->explain[0] ? j->explain : "-");
		r++;
	}
	free(cells);
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
