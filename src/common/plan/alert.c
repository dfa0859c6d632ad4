/*
 * plan/alert.c - alerts on verdict changes and outcomes (rules: alert.h).
 */
#include "common/plan/alert.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/grow.h"
#include "common/io/timefmt.h"
#include "common/io/utf8.h"

void dl_alert_tracker_init(struct dl_alert_tracker *t)
{
	if (t)
		memset(t, 0, sizeof(*t));
}

void dl_alert_tracker_free(struct dl_alert_tracker *t)
{
	if (!t)
		return;
	free(t->jobs);
	memset(t, 0, sizeof(*t));
}

const char *dl_alert_kind_name(enum dl_alert_kind k)
{
	switch (k) {
	case DL_ALERT_AT_RISK:
		return "at_risk";
	case DL_ALERT_HOPELESS:
		return "hopeless";
	case DL_ALERT_MET:
		return "met";
	case DL_ALERT_MISSED:
		return "missed";
	default:
		return "none";
	}
}

static uint8_t level_of(const struct dl_plan_job *j)
{
	switch (j->verdict) {
	case DL_VERDICT_AT_RISK:
		return 1;
	case DL_VERDICT_LATE:
	case DL_VERDICT_HOPELESS:
		return 2;
	default:
		return 0;
	}
}

/* met, missed, or NONE while it runs (or without a deadline) */
static enum dl_alert_kind outcome_of(const struct dl_plan_job *j)
{
	const char *o = dl_plan_outcome(j);

	if (!o)
		return DL_ALERT_NONE;
	if (!strcmp(o, "met"))
		return DL_ALERT_MET;
	if (!strcmp(o, "missed"))
		return DL_ALERT_MISSED;
	return DL_ALERT_NONE;
}

static struct dl_alert_job *find(struct dl_alert_tracker *t, uint64_t id,
				 uint32_t *pos)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->jobs[mid].job_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return lo < t->n && t->jobs[lo].job_id == id ? &t->jobs[lo] : NULL;
}

static struct dl_alert_job *find_or_add(struct dl_alert_tracker *t, uint64_t id)
{
	uint32_t pos;
	struct dl_alert_job *e = find(t, id, &pos);

	if (e)
		return e;
	if (dl_grow(&t->jobs, t->n, &t->cap, sizeof(*t->jobs), 16))
		return NULL;
	memmove(&t->jobs[pos + 1], &t->jobs[pos],
		(t->n - pos) * sizeof(*t->jobs));
	t->n++;
	memset(&t->jobs[pos], 0, sizeof(*t->jobs));
	t->jobs[pos].job_id = id;
	t->jobs[pos].last_sent = -INFINITY;
	return &t->jobs[pos];
}

int dl_alert_prime(struct dl_alert_tracker *t, const struct dl_plan *plan)
{
	if (!t)
		return EINVAL;
	for (uint32_t i = 0; plan && i < plan->njobs; i++) {
		const struct dl_plan_job *j = &plan->jobs[i];
		struct dl_alert_job *e = find_or_add(t, j->job_id);

		if (!e)
			return ENOMEM;
		e->level = level_of(j);
		e->final_sent = outcome_of(j) != DL_ALERT_NONE;
		if (e->level)
			e->last_sent = plan->now;
	}
	return 0;
}

static void fill(struct dl_alert *a, enum dl_alert_kind k,
		 const struct dl_plan_job *j, double now)
{
	memset(a, 0, sizeof(*a));
	a->kind = k;
	a->job_id = j->job_id;
	a->reduce_id = j->reduce_id;
	dl_plan_copy_str(a->user, sizeof(a->user), j->user);
	dl_plan_copy_str(a->name, sizeof(a->name), j->name);
	dl_plan_copy_str(a->verdict, sizeof(a->verdict),
			 k == DL_ALERT_MET || k == DL_ALERT_MISSED
				 ? dl_alert_kind_name(k)
				 : dl_verdict_name(j->verdict));
	a->deadline = j->deadline;
	a->predicted_finish = j->predicted_finish;
	a->finish_err = j->finish_err;
	a->when = now;
	dl_plan_copy_str(a->explain, sizeof(a->explain), j->explain);
}

int dl_alert_scan(struct dl_alert_tracker *t, const struct dl_plan *plan,
		  double now, double interval, struct dl_alert **out,
		  uint32_t *nout)
{
	struct dl_alert *due = NULL;
	struct dl_alert_tracker next;
	uint32_t n = 0;

	if (!t || !plan || !out || !nout || isnan(now) || isnan(interval))
		return EINVAL;
	*out = NULL;
	*nout = 0;
	/* work on a copy: on ENOMEM the tracker stays as it was */
	next = *t;
	next.jobs = NULL;
	next.cap = 0;
	if (t->n) {
		next.jobs = malloc(t->n * sizeof(*t->jobs));
		if (!next.jobs)
			return ENOMEM;
		memcpy(next.jobs, t->jobs, t->n * sizeof(*t->jobs));
		next.cap = t->n;
	}
	for (uint32_t i = 0; i < next.n; i++)
		next.jobs[i].seen = false;
	if (plan->njobs) {
		due = malloc(plan->njobs * sizeof(*due));
		if (!due)
			goto oom;
	}
	for (uint32_t i = 0; i < plan->njobs; i++) {
		const struct dl_plan_job *j = &plan->jobs[i];
		struct dl_alert_job *e = find_or_add(&next, j->job_id);
		enum dl_alert_kind fin = outcome_of(j);
		uint8_t level = level_of(j);

		if (!e)
			goto oom;
		e->seen = true;
		if (!(j->deadline > 0))
			continue;
		if (fin != DL_ALERT_NONE) {
			if (!e->final_sent)
				fill(&due[n++], fin, j, now);
			e->final_sent = true;
			continue;
		}
		if (!level) {
			e->level = 0; /* on track again */
			continue;
		}
		if (level <= e->level)
			continue;
		if (now - e->last_sent < interval)
			continue; /* rate limit: sent when it ends */
		fill(&due[n++],
		     level == 1 ? DL_ALERT_AT_RISK : DL_ALERT_HOPELESS, j, now);
		e->level = level;
		e->last_sent = now;
	}
	/* forget jobs the plan no longer has */
	{
		uint32_t kept = 0;

		for (uint32_t i = 0; i < next.n; i++)
			if (next.jobs[i].seen)
				next.jobs[kept++] = next.jobs[i];
		next.n = kept;
	}
	free(t->jobs);
	*t = next;
	if (!n) {
		free(due);
		due = NULL;
	}
	*out = due;
	*nout = n;
	return 0;
oom:
	free(next.jobs);
	free(due);
	return ENOMEM;
}

bool dl_alert_mail_wanted(enum dl_alert_kind k, unsigned wants)
{
	switch (k) {
	case DL_ALERT_AT_RISK:
	case DL_ALERT_HOPELESS:
		return wants & DL_MAIL_WANT_TROUBLE;
	case DL_ALERT_MET:
	case DL_ALERT_MISSED:
		return wants & DL_MAIL_WANT_END;
	default:
		return false;
	}
}

bool dl_alert_mail_user_ok(const char *u)
{
	size_t len;

	if (!u || !u[0] || u[0] == '-')
		return false;
	len = strlen(u);
	if (len > 255)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char) u[i] <= ' ' || u[i] == 0x7f)
			return false;
	return true;
}

static void job_ids(const struct dl_alert *a, char *buf, size_t len)
{
	if (a->reduce_id)
		snprintf(buf, len, "%llu+%llu", (unsigned long long) a->job_id,
			 (unsigned long long) a->reduce_id);
	else
		snprintf(buf, len, "%llu", (unsigned long long) a->job_id);
}

void dl_alert_subject(const struct dl_alert *a, char *buf, size_t len)
{
	char ids[48], whole[400];

	if (!buf || !len)
		return;
	if (!a) {
		buf[0] = '\0';
		return;
	}
	job_ids(a, ids, sizeof(ids));
	snprintf(whole, sizeof(whole),
		 "Slurm Job_id=%s Name=%s Deadline %s: %s", ids, a->name,
		 a->verdict, a->explain);
	dl_utf8_copy(buf, len, whole); /* a short buf ends on a character */
}

static int put(char **env, size_t max, size_t *n, const char *name,
	       const char *value)
{
	size_t len;

	if (*n + 1 >= max)
		return 0; /* room for the NULL: drop the rest */
	len = strlen(name) + strlen(value) + 2;
	env[*n] = malloc(len);
	if (!env[*n])
		return -1;
	snprintf(env[*n], len, "%s=%s", name, value);
	(*n)++;
	return 0;
}

int dl_alert_env(const struct dl_alert *a, char **env, size_t max)
{
	char ids[48], num[32], t[40];
	size_t n = 0;
	int rc = 0;

	if (!a || !env || !max)
		return -1;
	snprintf(ids, sizeof(ids), "%llu", (unsigned long long) a->job_id);
	rc |= put(env, max, &n, "SLURM_JOB_ID", ids);
	rc |= put(env, max, &n, "SLURM_JOB_USER", a->user);
	rc |= put(env, max, &n, "SLURM_JOB_NAME", a->name);
	rc |= put(env, max, &n, "DEADLINE_EVENT", dl_alert_kind_name(a->kind));
	rc |= put(env, max, &n, "DEADLINE_VERDICT", a->verdict);
	snprintf(num, sizeof(num), "%.0f", a->deadline > 0 ? a->deadline : 0);
	rc |= put(env, max, &n, "DEADLINE", num);
	dl_format_instant(a->deadline, t, sizeof(t));
	rc |= put(env, max, &n, "DEADLINE_TIME", t);
	if (a->predicted_finish > 0 && isfinite(a->predicted_finish))
		dl_format_instant(a->predicted_finish, t, sizeof(t));
	else
		snprintf(t, sizeof(t), "unknown");
	rc |= put(env, max, &n, "DEADLINE_PREDICTED_FINISH", t);
	snprintf(ids, sizeof(ids), "%llu", (unsigned long long) a->reduce_id);
	rc |= put(env, max, &n, "DEADLINE_REDUCE_JOB_ID", ids);
	rc |= put(env, max, &n, "DEADLINE_EXPLANATION", a->explain);
	rc |= put(env, max, &n, "PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
	env[n] = NULL;
	if (rc) {
		for (size_t i = 0; i < n; i++)
			free(env[i]);
		env[0] = NULL;
		return -1;
	}
	return (int) n;
}
