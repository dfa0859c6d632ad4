/*
 * output.h - the results of a run: the summary (the papers' metrics), the
 * per-job CSV and the table printed by `compare`.
 *
 * Definitions (doc/simulator.md):
 *  accept_ratio   admitted / jobs                          (RTMR AcceptR)
 *  success_ratio  met / admitted jobs with a deadline      (RTMR SuccessR)
 *  utilization    slot-time (CPU-time) of the jobs that met their deadline
 *                 for admission policies, of all jobs otherwise, over
 *                 total slots x (last finish - first arrival)  (RTMR Util)
 *  missed_pct     100 x missed / admitted jobs with a deadline
 *  lateness       finish - deadline (negative: early), over finished jobs
 *  tardiness      lateness of the jobs that finished late: mean and p95
 *  bounded slowdown of a job without a deadline: max(1, (finish - arrival)
 *                 / max(isolated time, 10 s)), mean and p95 (POSUM's)
 *  held           admitted jobs the realtime resync held at least once;
 *  held_at_end    of them, those still held with tasks left at the end
 * With a statistics window only jobs that start or finish inside count.
 */
#ifndef SIM_OUTPUT_H
#define SIM_OUTPUT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/simulate/engine.h"

struct sim_summary {
	char policy[32];
	uint64_t seed;
	uint32_t jobs;          /* counted */
	uint32_t deadline_jobs; /* counted with a deadline */
	uint32_t admitted, rejected, met, missed, cancelled, unfinished;
	uint32_t held, held_at_end; /* realtime holds: ever, when it ended */
	uint64_t tasks;
	double accept_ratio, success_ratio, met_pct, missed_pct;
	double utilization, utilization_all, utilization_successful;
	double makespan_s, mean_lateness_s, mean_tardiness_s, mean_slack_s;
	uint32_t late_jobs;     /* finished after their deadline */
	double p95_tardiness_s; /* p95 of their lateness */
	uint32_t nodl_jobs;     /* arrived counted jobs without a deadline */
	double bsld_mean, bsld_p95;
	bool has_window;
	double window[2];
	/* The oracle's set (oracle_input.h): the jobs with a deadline that
	 * arrive in the window, whatever their start; the lateness bound is
	 * over them.  Missed, late and the late ones' total lateness. */
	uint32_t arrived_deadline_jobs, arrived_missed, arrived_late_jobs;
	double arrived_lateness_s;
	uint64_t events, plans;
	double wall_s, events_per_s, mean_plan_us;
	bool stalled;
	/* oracle, when computed */
	bool bound_only; /* the oracle's own row: no run behind it */
	bool has_oracle;
	uint32_t oracle_met;
	double oracle_missed_pct;
	uint32_t oracle_impossible;       /* counted jobs that cannot make it */
	uint32_t oracle_impossible_alone; /* of which even alone */
	uint32_t oracle_fluid_met;        /* the fluid relaxation's bound */
	int64_t oracle_task_met;    /* the task-count relaxation's, -1: n/a */
	double oracle_tardiness_lb; /* late jobs' total lateness, at least (s)
				     */
};

/* Whether job j counts in the statistics (window). */
bool sim_job_counted(const struct sim_engine *e, const struct sim_job *j);
/* Fill s from a finished run.  0, or ENOMEM (s then holds no
 * percentiles). */
int sim_summarize(const struct sim_engine *e, struct sim_summary *s);
json_object *sim_summary_to_json(const struct sim_summary *s);
/* 0 or errno */
int sim_write_jobs_csv(const struct sim_engine *e, FILE *f);
/* Write obj to a file ("-" = stdout), pretty or compact, with a newline;
 * 0 or errno. */
int sim_write_json(json_object *obj, const char *path, bool pretty);

/* A comparison table (text, or tab-separated with tsv). */
void sim_print_table(FILE *f, const struct sim_summary *rows, size_t n,
		     bool tsv);

#endif
