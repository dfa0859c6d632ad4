/*
 * plan.c - plan objects and the process-wide current plan.
 */
#include "common/estimate/estimate.h"
#include "common/io/utf8.h"
#include "common/plan/plan.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *verdict_names[DL_VERDICT_COUNT] = {
	"on_track", "at_risk", "late",     "no_data", "capped",  "held",
	"rejected", "done",    "hopeless", "on_hold", "waiting",
};

static const char *class_names[] = {"late", "no_data",  "need",
				    "met",  "hopeless", "unmanaged"};

void dl_plan_copy_str(char *dst, size_t len, const char *src)
{
	/* at a character boundary: the plan is JSON that sdeadline reads */
	dl_utf8_copy(dst, len, src);
}

static uint32_t both_phases(const uint32_t *v)
{
	return v[DL_MAP] + v[DL_REDUCE];
}

const char *dl_plan_outcome(const struct dl_plan_job *j)
{
	if (!j || j->phase >= 0)
		return NULL;
	if (both_phases(j->done) < both_phases(j->tasks))
		return "missed";
	/* an unknown end is no evidence of a met deadline */
	if (j->deadline > 0 &&
	    !(j->predicted_finish > 0 && j->predicted_finish <= j->deadline))
		return "missed";
	return j->deadline > 0 ? "met" : "done";
}

double dl_plan_finish_p90(const struct dl_plan_job *j)
{
	if (!j || j->phase < 0)
		return NAN;
	return dl_finish_quantile(j->predicted_finish, j->finish_err, 0.9);
}

void dl_plan_explain_outcome(struct dl_plan_job *j, uint32_t failed)
{
	uint32_t done, tasks;
	char when[16] = "";
	const char *outcome = dl_plan_outcome(j);

	if (!outcome)
		return;
	done = both_phases(j->done);
	tasks = both_phases(j->tasks);
	if (j->predicted_finish > 0) {
		time_t t = (time_t) j->predicted_finish;
		struct tm tm;

		if (localtime_r(&t, &tm))
			strftime(when, sizeof(when), " at %H:%M:%S", &tm);
	}
	if (failed)
		snprintf(j->explain, sizeof(j->explain),
			 "ended%s with %u of %u tasks not completed (failed "
			 "or cancelled): deadline missed",
			 when, failed, tasks);
	else if (done < tasks)
		/* e.g. a job Slurm lost after it was admitted or planned */
		snprintf(j->explain, sizeof(j->explain),
			 "left Slurm%s with %u of %u tasks completed: deadline "
			 "missed",
			 when, done, tasks);
	else if (!when[0])
		snprintf(j->explain, sizeof(j->explain),
			 "finished (end time unknown)%s",
			 j->deadline > 0 ? ": deadline missed" : "");
	else if (j->deadline > 0 && j->predicted_finish > j->deadline)
		snprintf(j->explain, sizeof(j->explain),
			 "finished%s, %.0fs after its deadline: missed", when,
			 j->predicted_finish - j->deadline);
	else if (j->deadline > 0)
		snprintf(j->explain, sizeof(j->explain),
			 "finished%s, %.0fs before its deadline: met", when,
			 j->deadline - j->predicted_finish);
	else
		snprintf(j->explain, sizeof(j->explain), "finished%s", when);
}

void dl_plan_job_describe(struct dl_plan_job *o, const struct dl_job *job)
{
	if (!o || !job)
		return;
	o->job_id = job->id;
	o->reduce_id = job->reduce_id;
	dl_plan_copy_str(o->user, sizeof(o->user), job->user);
	dl_plan_copy_str(o->account, sizeof(o->account), job->account);
	dl_plan_copy_str(o->name, sizeof(o->name), job->name);
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];

		o->tasks[p] = ph->tasks;
		o->done[p] = ph->completed;
		o->running[p] = ph->nrunning;
		o->pending[p] = dl_phase_pending(ph);
	}
}

void dl_plan_explain(struct dl_plan_job *o, const char *fmt, ...)
{
	const size_t len = sizeof(o->explain);
	va_list ap;
	int n;

	if (!o || !fmt)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->explain, len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->explain[0] = '\0';
		return;
	}
	if ((size_t) n < len)
		return;
	/* too long: end at a word boundary with room for "..." */
	size_t cut = len - 4;

	while (cut > 0 && o->explain[cut] != ' ')
		cut--;
	if (!cut)
		cut = len - 4;
	memcpy(o->explain + cut, "...", 4);
}

const char *dl_verdict_name(enum dl_verdict v)
{
	return (unsigned) v < DL_VERDICT_COUNT ? verdict_names[v] : "unknown";
}

const char *dl_class_name(enum dl_class c)
{
	return (unsigned) c <= DL_CLASS_UNMANAGED ? class_names[c] : "unknown";
}

struct dl_plan *dl_plan_new(uint32_t njobs)
{
	struct dl_plan *plan = calloc(1, sizeof(*plan));

	if (!plan)
		return NULL;
	if (njobs) {
		plan->jobs = calloc(njobs, sizeof(*plan->jobs));
		if (!plan->jobs) {
			free(plan);
			return NULL;
		}
	}
	plan->njobs = njobs;
	return plan;
}

void dl_plan_free(struct dl_plan *plan)
{
	if (!plan)
		return;
	free(plan->jobs);
	free(plan->place);
	free(plan->nodes);
	free(plan->ids);
	free(plan);
}

const struct dl_plan_job *dl_plan_find(const struct dl_plan *plan,
				       uint64_t job_id)
{
	if (!plan || !job_id)
		return NULL;
	if (plan->ids) {
		uint32_t lo = 0, hi = plan->nids;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (plan->ids[2 * mid] < job_id)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < plan->nids && plan->ids[2 * lo] == job_id
			       ? &plan->jobs[plan->ids[2 * lo + 1]]
			       : NULL;
	}
	for (uint32_t i = 0; i < plan->njobs; i++)
		if (plan->jobs[i].job_id == job_id ||
		    plan->jobs[i].reduce_id == job_id)
			return &plan->jobs[i];
	return NULL;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct dl_plan_job *x = a, *y = b;
	uint32_t rx = x->rank ? x->rank : UINT32_MAX;
	uint32_t ry = y->rank ? y->rank : UINT32_MAX;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return (x->job_id > y->job_id) - (x->job_id < y->job_id);
}

static int cmp_index(const void *a, const void *b, void *jobs)
{
	const struct dl_plan_job *j = jobs;

	return cmp_rank(&j[*(const uint32_t *) a], &j[*(const uint32_t *) b]);
}

/* Sort jobs by rank and renumber the placement rows that point at them. */
static void sort_by_rank(struct dl_plan *plan)
{
	uint32_t *order, *new_index;
	struct dl_plan_job *sorted;

	if (!plan->nplace) {
		qsort(plan->jobs, plan->njobs, sizeof(*plan->jobs), cmp_rank);
		return;
	}
	order = malloc(plan->njobs * sizeof(*order));
	new_index = malloc(plan->njobs * sizeof(*new_index));
	sorted = malloc(plan->njobs * sizeof(*sorted));
	if (!order || !new_index || !sorted) {
		/* out of memory: keep the order, rows stay valid */
		free(order);
		free(new_index);
		free(sorted);
		return;
	}
	for (uint32_t i = 0; i < plan->njobs; i++)
		order[i] = i;
	qsort_r(order, plan->njobs, sizeof(*order), cmp_index, plan->jobs);
	for (uint32_t k = 0; k < plan->njobs; k++) {
		sorted[k] = plan->jobs[order[k]];
		new_index[order[k]] = k;
	}
	for (uint32_t p = 0; p < plan->nplace; p++)
		if (plan->place[p].job < plan->njobs)
			plan->place[p].job = new_index[plan->place[p].job];
	free(plan->jobs);
	plan->jobs = sorted;
	free(order);
	free(new_index);
}

static int cmp_pair(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* The id index; without memory dl_plan_find stays a linear search. */
static void index_ids(struct dl_plan *plan)
{
	uint32_t n = 0;

	free(plan->ids);
	plan->nids = 0;
	plan->ids = malloc((4 * (size_t) plan->njobs + 1) * sizeof(*plan->ids));
	if (!plan->ids)
		return;
	for (uint32_t i = 0; i < plan->njobs; i++) {
		uint64_t id[2] = {plan->jobs[i].job_id,
				  plan->jobs[i].reduce_id};

		for (int k = 0; k < 2; k++)
			if (id[k]) {
				plan->ids[2 * n] = id[k];
				plan->ids[2 * n + 1] = i;
				n++;
			}
	}
	qsort(plan->ids, n, 2 * sizeof(*plan->ids), cmp_pair);
	plan->nids = n;
}

void dl_plan_finalize(struct dl_plan *plan)
{
	if (!plan)
		return;
	if (plan->njobs)
		sort_by_rank(plan);
	index_ids(plan);
	memset(plan->stats.per_class, 0, sizeof(plan->stats.per_class));
	memset(plan->stats.per_verdict, 0, sizeof(plan->stats.per_verdict));
	plan->stats.jobs = plan->njobs;
	for (uint32_t i = 0; i < plan->njobs; i++) {
		if ((unsigned) plan->jobs[i].cls <= DL_CLASS_UNMANAGED)
			plan->stats.per_class[plan->jobs[i].cls]++;
		if ((unsigned) plan->jobs[i].verdict < DL_VERDICT_COUNT)
			plan->stats.per_verdict[plan->jobs[i].verdict]++;
	}
}

/* ---- current plan ---- */

static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dl_plan *current;

static void unref_locked(struct dl_plan *plan)
{
	if (plan && --plan->refs == 0)
		dl_plan_free(plan);
}

void dl_plan_publish(struct dl_plan *plan)
{
	pthread_mutex_lock(&current_lock);
	if (plan)
		plan->refs = 1; /* the "current" reference */
	unref_locked(current);
	current = plan;
	pthread_mutex_unlock(&current_lock);
}

struct dl_plan *dl_plan_acquire(void)
{
	struct dl_plan *plan;

	pthread_mutex_lock(&current_lock);
	plan = current;
	if (plan)
		plan->refs++;
	pthread_mutex_unlock(&current_lock);
	return plan;
}

void dl_plan_release(struct dl_plan *plan)
{
	if (!plan)
		return;
	pthread_mutex_lock(&current_lock);
	unref_locked(plan);
	pthread_mutex_unlock(&current_lock);
}
