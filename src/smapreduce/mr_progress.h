/*
 * mr_progress.h - what `smapreduce --wait` knows about a MapReduce job: the
 * last seen state of every task of both arrays, the counts per phase, the
 * progress line and the final verdict.
 *
 * Plain C (no Slurm headers) so that the unit tests drive it directly;
 * smapreduce.c fills it from slurm_load_job() and sdeadline.
 */
#ifndef MR_PROGRESS_H
#define MR_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mr_task_state {
	MR_TASK_PENDING = 0,
	MR_TASK_RUNNING,
	MR_TASK_DONE,
	MR_TASK_FAILED,    /* failed, timed out, node failure, out of memory */
	MR_TASK_CANCELLED, /* scancel, or a dependency that can never be met */
	MR_TASK_DEADLINE,  /* cancelled by Slurm at the hard --deadline */
	MR_TASK_STATES
};

/* One array (phase) of a MapReduce job. */
struct mr_phase {
	uint64_t job_id; /* the array's job id; 0 = no such phase */
	uint32_t tasks;
	uint8_t *state;  /* per task index, enum mr_task_state */
	double last_end; /* latest end time of a finished task */
	double first_start;
};

struct mr_counts {
	uint32_t n[MR_TASK_STATES];
};

int mr_phase_init(struct mr_phase *p, uint64_t job_id, uint32_t tasks);
void mr_phase_free(struct mr_phase *p);
/* Record what Slurm reports for task index `task` (out-of-range indexes
 * are ignored and return EINVAL).  start/end: 0 when unknown. */
int mr_phase_set(struct mr_phase *p, uint32_t task, enum mr_task_state s,
		 double start, double end);
void mr_phase_count(const struct mr_phase *p, struct mr_counts *c);
/* No task pending or running. */
bool mr_phase_final(const struct mr_phase *p);

/* The deadline scheduler's view of the job (from sdeadline --json). */
struct mr_prediction {
	bool valid;
	double finish;    /* predicted finish, epoch seconds */
	double err;       /* its uncertainty (seconds) */
	char verdict[24]; /* on_track, at_risk, late, ... */
};

/* One progress line (no newline), e.g.
 *   map 120/200 [######----] 40 run  reduce 0/10 [----------]  finish
 *   ~15:42:10 +/-3m00s  deadline 16:00:00 (on_track)
 * Returns the length written (truncated to len - 1). */
size_t mr_render_progress(char *buf, size_t len, const struct mr_phase *map,
			  const struct mr_phase *reduce,
			  const struct mr_prediction *pred, double deadline,
			  double now, int bar_width);

enum mr_outcome {
	MR_OUTCOME_RUNNING = -1,   /* not final yet */
	MR_OUTCOME_MET = 0,        /* completed by its deadline */
	MR_OUTCOME_LATE = 2,       /* completed after its (soft) deadline */
	MR_OUTCOME_INCOMPLETE = 3, /* a task failed or was cancelled */
};

/* The verdict once every task is final: the outcome (also the exit status
 * of smapreduce --wait) and one line for the user.  soft/hard: the job's
 * soft and hard deadlines (0 = none); the soft one is the goal when both are
 * given. */
enum mr_outcome mr_verdict(const struct mr_phase *map,
			   const struct mr_phase *reduce, double soft,
			   double hard, double now, char *line, size_t len);

#endif
