/*
 * affinity.h - data affinity of the adaptive policy (Polo's delay
 * scheduling per job, doc/design.md §3; doc/data-affinity.md): the decision for
 * the next task of a job whose input lives on preferred nodes, and the
 * bounded memory of how often each task has been deferred.
 *
 * The rule: a preferred node has room -> start there.  Otherwise, while
 * the job already runs enough tasks to meet its goal (s_req <= 0 in the
 * current plan) and this task has been deferred fewer than max_delays
 * times -> defer it (the slot stays free for others).  Otherwise -> start
 * it anywhere.
 */
#ifndef DL_AFFINITY_H
#define DL_AFFINITY_H

#include <stdbool.h>
#include <stdint.h>

enum dl_affinity {
	DL_AFFINITY_LOCAL = 0, /* a preferred node has room: start there */
	DL_AFFINITY_DEFER,     /* wait for a preferred node */
	DL_AFFINITY_ANYWHERE,  /* start on any node */
};

const char *dl_affinity_name(enum dl_affinity a);

/* Largest max_delays a user may give (--max-delays). */
#define DL_AFFINITY_MAX_DELAYS 1000

/* s_req now, from the plan: Eq. 1 is the concurrency that meets the goal
 * (need) minus the tasks running, so each start lowers it by one.  need
 * from the plan (NaN: no task length known yet; +inf: the goal has
 * passed), running = the phase's tasks running now.  NaN when need is NaN
 * (or negative). */
double dl_affinity_sreq(double need, uint32_t running);

/* Polo's decision.  sreq NaN (unknown) counts as "not met": no deferral.
 * max_delays < 0 (not given) counts as 0. */
enum dl_affinity dl_affinity_decide(bool local_free, double sreq,
				    uint32_t delays, int32_t max_delays);

/* Deferrals so far per task (array id, task index); bounded. */
struct dl_deferral {
	uint64_t array_id;
	uint32_t task;
	uint32_t delays;
	int64_t stamp;  /* attempt of the last decision */
	bool deferring; /* that decision was to defer */
};

struct dl_deferrals {
	struct dl_deferral *e; /* sorted by (array_id, task) */
	uint32_t n, cap;
	uint32_t max;  /* bound on n */
	uint64_t full; /* deferrals refused because the table was full */
};

/* Default bound: tasks waiting at once (an array defers its next task
 * only, so this is about the number of arrays). */
#define DL_DEFERRALS_MAX 65536u

void dl_deferrals_init(struct dl_deferrals *t, uint32_t max);
void dl_deferrals_free(struct dl_deferrals *t);
/* Deferrals of a task so far (0 when unknown). */
uint32_t dl_deferrals_get(const struct dl_deferrals *t, uint64_t array_id,
			  uint32_t task);

/* One start attempt of a task.  Calls with the same stamp are one attempt
 * (Slurm may test a job several times per scheduling pass, once per group
 * of nodes): the first decides and counts, the others repeat a deferral.
 * A deferral that would need a new entry in a full table is not made
 * (ANYWHERE; t->full counts it).  *counted (may be NULL) says whether this
 * call counted a new deferral. */
enum dl_affinity dl_affinity_attempt(struct dl_deferrals *t, uint64_t array_id,
				     uint32_t task, int64_t stamp,
				     bool local_free, double sreq,
				     int32_t max_delays, bool *counted);

/* The task started (or left): forget it.  Returns its deferrals. */
uint32_t dl_deferrals_forget(struct dl_deferrals *t, uint64_t array_id,
			     uint32_t task);
/* Forget every task of arrays for which keep() returns false. */
void dl_deferrals_retain(struct dl_deferrals *t,
			 bool (*keep)(uint64_t array_id, void *ctx), void *ctx);

#endif
