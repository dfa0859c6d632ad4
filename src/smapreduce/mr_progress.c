/*
 * mr_progress.c - task states, progress line and verdict of smapreduce
 * --wait.
 */
#include "mr_progress.h"

#include "common/io/timefmt.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int mr_phase_init(struct mr_phase *p, uint64_t job_id, uint32_t tasks)
{
	if (!p)
		return EINVAL;
	memset(p, 0, sizeof(*p));
	if (!job_id || !tasks)
		return 0; /* no such phase */
	p->state = calloc(tasks, 1);
	if (!p->state)
		return ENOMEM;
	p->job_id = job_id;
	p->tasks = tasks;
	return 0;
}

void mr_phase_free(struct mr_phase *p)
{
	if (!p)
		return;
	free(p->state);
	memset(p, 0, sizeof(*p));
}

int mr_phase_set(struct mr_phase *p, uint32_t task, enum mr_task_state s,
		 double start, double end)
{
	if (!p || !p->state || task >= p->tasks ||
	    (unsigned) s >= MR_TASK_STATES)
		return EINVAL;
	p->state[task] = (uint8_t) s;
	if (start > 0 && (!p->first_start || start < p->first_start))
		p->first_start = start;
	if (s >= MR_TASK_DONE && end > p->last_end)
		p->last_end = end;
	return 0;
}

void mr_phase_count(const struct mr_phase *p, struct mr_counts *c)
{
	if (!c)
		return;
	memset(c, 0, sizeof(*c));
	if (!p || !p->state)
		return;
	for (uint32_t i = 0; i < p->tasks; i++)
		c->n[p->state[i] < MR_TASK_STATES ? p->state[i] : 0]++;
}

bool mr_phase_final(const struct mr_phase *p)
{
	struct mr_counts c;

	if (!p || !p->state)
		return true;
	mr_phase_count(p, &c);
	return !c.n[MR_TASK_PENDING] && !c.n[MR_TASK_RUNNING];
}

/* Append to buf at *used, never past len - 1. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*used += (size_t) n < len - *used ? (size_t) n : len - *used - 1;
}

static void render_phase(char *buf, size_t len, size_t *used, const char *name,
			 const struct mr_phase *p, int width)
{
	struct mr_counts c;
	uint32_t bad;
	int fill;

	mr_phase_count(p, &c);
	fill = p->tasks
		       ? (int) ((uint64_t) c.n[MR_TASK_DONE] * width / p->tasks)
		       : 0;
	append(buf, len, used, "%s %u/%u [", name, c.n[MR_TASK_DONE], p->tasks);
	for (int i = 0; i < width; i++)
		append(buf, len, used, "%c", i < fill ? '#' : '-');
	append(buf, len, used, "]");
	if (c.n[MR_TASK_RUNNING])
		append(buf, len, used, " %u run", c.n[MR_TASK_RUNNING]);
	bad = c.n[MR_TASK_FAILED];
	if (bad)
		append(buf, len, used, " %u failed", bad);
	bad = c.n[MR_TASK_CANCELLED] + c.n[MR_TASK_DEADLINE];
	if (bad)
		append(buf, len, used, " %u cancelled", bad);
}

size_t mr_render_progress(char *buf, size_t len, const struct mr_phase *map,
			  const struct mr_phase *reduce,
			  const struct mr_prediction *pred, double deadline,
			  double now, int bar_width)
{
	char t[32], d[32];
	size_t used = 0;

	if (!buf || !len)
		return 0;
	buf[0] = '\0';
	if (bar_width < 0 || bar_width > 100)
		bar_width = 10;
	if (map && map->state)
		render_phase(buf, len, &used, "map", map, bar_width);
	if (reduce && reduce->state) {
		append(buf, len, &used, "  ");
		render_phase(buf, len, &used, "reduce", reduce, bar_width);
	}
	if (pred && pred->valid && pred->finish > 0) {
		dl_format_time(pred->finish, now, t, sizeof(t));
		append(buf, len, &used, "  finish ~%s", t);
		if (pred->err > 0) {
			dl_format_duration(pred->err, d, sizeof(d));
			append(buf, len, &used, " +/-%s", d);
		}
	}
	if (deadline > 0) {
		dl_format_time(deadline, now, t, sizeof(t));
		append(buf, len, &used, "  deadline %s", t);
	}
	if (pred && pred->valid && pred->verdict[0])
		append(buf, len, &used, " (%s)", pred->verdict);
	return used;
}

static void job_name(const struct mr_phase *map, const struct mr_phase *red,
		     char *buf, size_t len)
{
	if (red && red->job_id)
		snprintf(buf, len, "%llu:%llu",
			 (unsigned long long) (map ? map->job_id : 0),
			 (unsigned long long) red->job_id);
	else
		snprintf(buf, len, "%llu",
			 (unsigned long long) (map ? map->job_id : 0));
}

/* "3 map tasks failed" style fragments for the incomplete verdict. */
static void describe_losses(char *buf, size_t len, size_t *used,
			    const char *phase, const struct mr_phase *p,
			    double hard, double now, int *parts)
{
	static const struct {
		enum mr_task_state s;
		const char *what;
	} kinds[] = {
		{MR_TASK_FAILED, "failed"},
		{MR_TASK_CANCELLED, "cancelled"},
		{MR_TASK_DEADLINE, "cancelled by Slurm at the hard deadline"},
	};
	struct mr_counts c;
	char t[32];

	if (!p || !p->state)
		return;
	mr_phase_count(p, &c);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		uint32_t n = c.n[kinds[k].s];

		if (!n)
			continue;
		append(buf, len, used, "%s%u %s task%s %s", *parts ? "; " : "",
		       n, phase, n == 1 ? "" : "s", kinds[k].what);
		if (kinds[k].s == MR_TASK_DEADLINE && hard > 0) {
			dl_format_time(hard, now, t, sizeof(t));
			append(buf, len, used, " (%s)", t);
		}
		(*parts)++;
	}
}

enum mr_outcome mr_verdict(const struct mr_phase *map,
			   const struct mr_phase *reduce, double soft,
			   double hard, double now, char *line, size_t len)
{
	const struct mr_phase *last = reduce && reduce->state ? reduce : map;
	struct mr_counts cm, cr;
	char name[48], t[32], d[32], g[32];
	double goal = soft > 0 ? soft : hard, finish;
	size_t used = 0;
	int parts = 0;

	if (!line || !len) {
		static char dummy[8];

		line = dummy;
		len = sizeof(dummy);
	}
	line[0] = '\0';
	if (!map || !map->state) {
		snprintf(line, len, "no MapReduce job");
		return MR_OUTCOME_INCOMPLETE;
	}
	if (!mr_phase_final(map) || !mr_phase_final(reduce))
		return MR_OUTCOME_RUNNING;
	job_name(map, reduce, name, sizeof(name));
	mr_phase_count(map, &cm);
	mr_phase_count(reduce, &cr);
	if (cm.n[MR_TASK_DONE] != map->tasks ||
	    (reduce && reduce->state && cr.n[MR_TASK_DONE] != reduce->tasks)) {
		append(line, len, &used,
		       "MapReduce job %s did not complete: ", name);
		describe_losses(line, len, &used, "map", map, hard, now,
				&parts);
		describe_losses(line, len, &used, "reduce", reduce, hard, now,
				&parts);
		return MR_OUTCOME_INCOMPLETE;
	}
	finish = last->last_end > 0 ? last->last_end : now;
	dl_format_time(finish, now, t, sizeof(t));
	if (!(goal > 0)) {
		snprintf(line, len, "MapReduce job %s completed at %s", name,
			 t);
		return MR_OUTCOME_MET;
	}
	dl_format_time(goal, now, g, sizeof(g));
	dl_format_duration(fabs(goal - finish), d, sizeof(d));
	snprintf(line, len,
		 "MapReduce job %s completed at %s, %s %s its %s (%s)", name, t,
		 d, finish <= goal ? "before" : "after",
		 soft > 0 ? "soft deadline" : "deadline", g);
	return finish <= goal ? MR_OUTCOME_MET : MR_OUTCOME_LATE;
}
