/*
 * output.c - summary metrics, the per-job CSV and comparison tables.
 */
#include "sim/output.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/stats.h"
#include "common/portfolio/score.h"

bool sim_job_counted(const struct sim_engine *e, const struct sim_job *j)
{
	const struct sim_workload_spec *w = e->ws;
	double a = w->window[0], b = w->window[1];

	if (!w->has_window)
		return true;
	if (j->first_start >= 0)
		return (j->first_start >= a && j->first_start <= b) ||
		       (isfinite(j->finish) && j->finish >= a &&
			j->finish <= b);
	/* never started (rejected, cancelled unstarted): by arrival */
	return j->spec->arrival >= a && j->spec->arrival <= b;
}

static double ratio(double x, double y)
{
	return y > 0 ? x / y : 0;
}

/* p95 of n values (sorted in place); 0 without values */
static double p95(double *x, uint32_t n)
{
	if (!n)
		return 0;
	dl_sort_doubles(x, n);
	return dl_quantile_sorted(x, n, 0.95);
}

int sim_summarize(const struct sim_engine *e, struct sim_summary *s)
{
	double t0 = INFINITY, t1 = -INFINITY, used_all = 0, used_met = 0;
	double late_sum = 0, tard_sum = 0, slack_sum = 0, bsld_sum = 0;
	uint32_t late_n = 0, adm_dl = 0;
	/* lateness of the late jobs, bounded slowdowns of the others */
	double *tard = malloc((e->njobs ? e->njobs : 1) * sizeof(*tard));
	double *bsld = malloc((e->njobs ? e->njobs : 1) * sizeof(*bsld));

	memset(s, 0, sizeof(*s));
	snprintf(s->policy, sizeof(s->policy), "%s", e->policy->name);
	if (!tard || !bsld) {
		free(tard);
		free(bsld);
		return ENOMEM;
	}
	s->seed = e->opt.seed;
	s->has_window = e->ws->has_window;
	s->window[0] = e->ws->window[0];
	s->window[1] = e->ws->window[1];
	for (uint32_t k = 0; k < e->njobs; k++) {
		const struct sim_job *j = &e->jobs[k];
		bool met;

		if (!sim_job_counted(e, j))
			continue;
		s->jobs++;
		s->tasks += j->spec->phase[0].tasks + j->spec->phase[1].tasks;
		s->deadline_jobs += j->deadline > 0;
		if (j->spec->arrival < t0)
			t0 = j->spec->arrival;
		if (j->state == SIM_JOB_REJECTED) {
			s->rejected++;
			continue;
		}
		s->admitted++;
		s->held += j->holds > 0;
		s->held_at_end +=
			j->held_since >= 0 && j->state != SIM_JOB_DONE;
		s->cancelled += j->cancelled;
		s->unfinished += j->unfinished;
		if (isfinite(j->finish) && j->finish > t1)
			t1 = j->finish;
		used_all += j->unit_seconds;
		if (!(j->deadline > 0)) {
			/* a job still running at the end counts with the
			 * run's end: a lower bound on its slowdown; one that
			 * had not arrived yet does not count */
			double fin = isfinite(j->finish) && j->finish >= 0
					     ? j->finish
					     : e->stats.end_time;

			if (j->state == SIM_JOB_FUTURE)
				continue;
			/* the wait for its own begin time is not the
			 * scheduler's */
			bsld[s->nodl_jobs] = dl_bounded_slowdown(
				sim_job_release(j->spec), fin, j->isolated);
			bsld_sum += bsld[s->nodl_jobs++];
			continue;
		}
		adm_dl++;
		met = sim_job_met(j);
		if (met) {
			s->met++;
			used_met += j->unit_seconds;
			slack_sum += j->deadline - j->finish;
		} else {
			s->missed++;
		}
		if (!j->cancelled && !j->unfinished && isfinite(j->finish)) {
			late_sum += j->finish - j->deadline;
			late_n++;
			/* late = finished after the deadline (a job that
			 * failed early missed but was not late) */
			if (j->finish > j->deadline + 1e-6) {
				tard[s->late_jobs] = j->finish - j->deadline;
				tard_sum += tard[s->late_jobs++];
			}
		}
	}
	for (uint32_t k = 0; k < e->njobs; k++) {
		const struct sim_job *j = &e->jobs[k];
		double release = sim_job_release(j->spec);

		/* the oracle's set (oracle_input.c): released in the window */
		if (!(j->deadline > 0) ||
		    (s->has_window &&
		     (release < s->window[0] || release > s->window[1])))
			continue;
		s->arrived_deadline_jobs++;
		if (j->state == SIM_JOB_REJECTED || sim_job_met(j))
			continue;
		s->arrived_missed++;
		if (!j->cancelled && !j->unfinished && isfinite(j->finish) &&
		    j->finish > j->deadline + 1e-6) {
			s->arrived_late_jobs++;
			s->arrived_lateness_s += j->finish - j->deadline;
		}
	}
	s->accept_ratio = ratio(s->admitted, s->jobs);
	s->success_ratio = ratio(s->met, adm_dl);
	s->met_pct = 100 * ratio(s->met, s->deadline_jobs);
	s->missed_pct = 100 * ratio(s->missed, adm_dl);
	if (isfinite(t0) && t1 > t0) {
		double avail = (double) e->total_units * (t1 - t0);

		s->makespan_s = t1 - t0;
		s->utilization_all = ratio(used_all, avail);
		s->utilization_successful = ratio(used_met, avail);
	}
	s->utilization = e->policy->admission ? s->utilization_successful
					      : s->utilization_all;
	s->mean_lateness_s = ratio(late_sum, late_n);
	s->mean_tardiness_s = ratio(tard_sum, s->late_jobs);
	s->p95_tardiness_s = p95(tard, s->late_jobs);
	s->mean_slack_s = ratio(slack_sum, s->met);
	s->bsld_mean = ratio(bsld_sum, s->nodl_jobs);
	s->bsld_p95 = p95(bsld, s->nodl_jobs);
	s->events = e->stats.events;
	s->plans = e->stats.plans;
	s->wall_s = e->stats.wall_s;
	s->events_per_s = ratio((double) e->stats.events, e->stats.wall_s);
	s->mean_plan_us =
		ratio((double) e->stats.plan_us, (double) e->stats.plans);
	s->stalled = e->stats.stalled;
	free(tard);
	free(bsld);
	return 0;
}

static void put_d(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k,
			       json_object_new_double(isfinite(v) ? v : 0));
}

static void put_i(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

json_object *sim_summary_to_json(const struct sim_summary *s)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "policy", json_object_new_string(s->policy));
	put_i(o, "seed", (int64_t) s->seed);
	put_i(o, "jobs", s->jobs);
	put_i(o, "deadline_jobs", s->deadline_jobs);
	put_i(o, "admitted", s->admitted);
	put_i(o, "rejected", s->rejected);
	put_i(o, "met", s->met);
	put_i(o, "missed", s->missed);
	put_i(o, "cancelled", s->cancelled);
	put_i(o, "unfinished", s->unfinished);
	put_i(o, "held", s->held);
	put_i(o, "held_at_end", s->held_at_end);
	put_i(o, "tasks", (int64_t) s->tasks);
	put_d(o, "accept_ratio", s->accept_ratio);
	put_d(o, "success_ratio", s->success_ratio);
	put_d(o, "met_pct", s->met_pct);
	put_d(o, "missed_pct", s->missed_pct);
	put_d(o, "utilization", s->utilization);
	put_d(o, "utilization_all", s->utilization_all);
	put_d(o, "utilization_successful", s->utilization_successful);
	put_d(o, "makespan_s", s->makespan_s);
	put_d(o, "mean_lateness_s", s->mean_lateness_s);
	put_d(o, "mean_tardiness_s", s->mean_tardiness_s);
	put_i(o, "late_jobs", s->late_jobs);
	put_d(o, "p95_tardiness_s", s->p95_tardiness_s);
	put_d(o, "mean_slack_s", s->mean_slack_s);
	put_i(o, "nodl_jobs", s->nodl_jobs);
	put_d(o, "bsld_mean", s->bsld_mean);
	put_d(o, "bsld_p95", s->bsld_p95);
	put_i(o, "arrived_deadline_jobs", s->arrived_deadline_jobs);
	put_i(o, "arrived_missed", s->arrived_missed);
	put_i(o, "arrived_late_jobs", s->arrived_late_jobs);
	put_d(o, "arrived_lateness_s", s->arrived_lateness_s);
	if (s->has_window) {
		json_object *a = json_object_new_array();

		json_object_array_add(a, json_object_new_double(s->window[0]));
		json_object_array_add(a, json_object_new_double(s->window[1]));
		json_object_object_add(o, "window", a);
	}
	if (s->has_oracle) {
		put_i(o, "oracle_met_bound", s->oracle_met);
		put_d(o, "oracle_missed_pct", s->oracle_missed_pct);
		put_i(o, "oracle_impossible", s->oracle_impossible);
		put_i(o, "oracle_impossible_alone", s->oracle_impossible_alone);
		put_i(o, "oracle_fluid_met_bound", s->oracle_fluid_met);
		put_i(o, "oracle_task_met_bound", s->oracle_task_met);
		put_d(o, "oracle_tardiness_lb_s", s->oracle_tardiness_lb);
	}
	put_i(o, "events", (int64_t) s->events);
	put_i(o, "plans", (int64_t) s->plans);
	put_d(o, "mean_plan_us", s->mean_plan_us);
	put_d(o, "wall_s", s->wall_s);
	put_d(o, "events_per_s", s->events_per_s);
	json_object_object_add(o, "stalled",
			       json_object_new_boolean(s->stalled));
	return o;
}

/* CSV field: quoted when it holds a comma, quote or line break */
static void csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v, bool present)
{
	if (present && isfinite(v))
		fprintf(f, "%.3f", v);
}

int sim_write_jobs_csv(const struct sim_engine *e, FILE *f)
{
	fputs("id,name,user,arrival,deadline,hard,admitted,first_start,map_end,"
	      "finish,met,lateness_s,cancelled,unfinished,maps,reduces,"
	      "isolated_s,unit_seconds,max_running,counted,verdict,stall,"
	      "holds,held_s,hold_cause\n",
	      f);
	for (uint32_t k = 0; k < e->njobs; k++) {
		const struct sim_job *j = &e->jobs[k];
		bool adm = j->state != SIM_JOB_REJECTED;
		bool fin = adm && isfinite(j->finish) && j->finish >= 0;

		fprintf(f, "%u,", k + 1);
		csv_str(f, j->spec->name);
		fputc(',', f);
		csv_str(f, j->spec->user);
		fprintf(f, ",%.3f,", j->spec->arrival);
		csv_num(f, j->deadline, j->deadline > 0);
		fprintf(f, ",%d,%d,", j->hard, adm);
		csv_num(f, j->first_start, j->first_start >= 0);
		fputc(',', f);
		csv_num(f, j->map_end, j->map_end >= 0);
		fputc(',', f);
		csv_num(f, j->finish, fin);
		fprintf(f, ",%d,", sim_job_met(j));
		csv_num(f, j->finish - j->deadline,
			fin && j->deadline > 0 && !j->cancelled);
		fprintf(f, ",%d,%d,%u,%u,%.3f,%.3f,%u,%d,", j->cancelled,
			j->unfinished, j->spec->phase[0].tasks,
			j->spec->phase[1].tasks, j->isolated, j->unit_seconds,
			j->max_running, sim_job_counted(e, j));
		csv_str(f, adm ? (j->why[0] ? j->why : "admitted") : j->why);
		fputc(',', f);
		csv_str(f, j->stall);
		fprintf(f, ",%u,", j->holds);
		csv_num(f,
			j->held_s + (j->held_since >= 0 ? e->now - j->held_since
							: 0),
			j->holds > 0);
		fputc(',', f);
		csv_str(f, j->hold_why);
		fputc('\n', f);
	}
	return ferror(f) ? EIO : 0;
}

/* one number of a table row, "-" when it is not defined (no late job, no
 * job without a deadline, or the oracle's row for what it does not have) */
static void cell(FILE *f, bool tsv, int width, int prec, double v, bool defined,
		 bool last)
{
	/* an undefined figure (the oracle's utilisation, the lateness of a
	 * run without late jobs) is "-", never a 0 that reads as measured */
	if (tsv && defined)
		fprintf(f, "%.*f", prec, v);
	else if (tsv)
		fputs("-", f);
	else if (defined)
		fprintf(f, "%-*.*f", width, prec, v);
	else
		fprintf(f, "%-*s", width, "-");
	fputs(last ? "\n" : (tsv ? "\t" : " "), f);
}

void sim_print_table(FILE *f, const struct sim_summary *rows, size_t n,
		     bool tsv)
{
	/* the text table keeps what a reader compares; the TSV has also the
	 * makespan and the lateness of all finished jobs */
	static const struct {
		const char *name;
		int width; /* text */
		bool tsv_only;
	} col[] = {
		{"policy", 9, false},      {"jobs", 6, false},
		{"admitted", 8, false},    {"met", 6, false},
		{"missed", 6, false},      {"missed%", 7, false},
		{"accept", 6, false},      {"success", 7, false},
		{"util", 5, false},        {"late_mean_s", 11, false},
		{"late_p95_s", 10, false}, {"bsld", 6, false},
		{"bsld_p95", 8, false},    {"late_jobs", 0, true},
		{"nodl_jobs", 0, true},    {"makespan_s", 0, true},
		{"lateness_s", 0, true},
	};
	size_t nc = sizeof(col) / sizeof(*col), last = 0;

	for (size_t i = 0; i < nc; i++)
		if (tsv || !col[i].tsv_only)
			last = i;
	for (size_t i = 0; i < nc; i++) {
		if (!tsv && col[i].tsv_only)
			continue;
		if (tsv)
			fputs(col[i].name, f);
		else
			fprintf(f, "%-*s", col[i].width, col[i].name);
		fputs(i == last ? "\n" : (tsv ? "\t" : " "), f);
	}
	for (size_t r = 0; r < n; r++) {
		const struct sim_summary *s = &rows[r];
		bool run = !s->bound_only;

		fprintf(f, tsv ? "%s\t" : "%-9s ", s->policy);
		fprintf(f, tsv ? "%u\t%u\t%u\t%u\t" : "%-6u %-8u %-6u %-6u ",
			s->jobs, s->admitted, s->met, s->missed);
		cell(f, tsv, 7, 2, s->missed_pct, true, false);
		cell(f, tsv, 6, 3, s->accept_ratio, true, false);
		cell(f, tsv, 7, 3, s->success_ratio, true, false);
		cell(f, tsv, 5, 3, s->utilization, run, false);
		cell(f, tsv, 11, 1, s->mean_tardiness_s, run && s->late_jobs,
		     false);
		cell(f, tsv, 10, 1, s->p95_tardiness_s, run && s->late_jobs,
		     false);
		cell(f, tsv, 6, 2, s->bsld_mean, run && s->nodl_jobs, false);
		cell(f, tsv, 8, 2, s->bsld_p95, run && s->nodl_jobs, !tsv);
		if (tsv && run)
			fprintf(f, "%u\t%u\t%.1f\t%.1f\n", s->late_jobs,
				s->nodl_jobs, s->makespan_s,
				s->mean_lateness_s);
		else if (tsv)
			fprintf(f, "-\t%u\t-\t-\n", s->nodl_jobs);
	}
}

int sim_write_json(json_object *obj, const char *path, bool pretty)
{
	int flags = pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			   : JSON_C_TO_STRING_PLAIN;
	const char *s = json_object_to_json_string_ext(
		obj, flags | JSON_C_TO_STRING_NOSLASHESCAPE);
	FILE *f;
	int rc = 0;

	if (!s)
		return ENOMEM;
	f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return errno;
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
		rc = errno ? errno : EIO;
	if (f != stdout) {
		if (fclose(f) && !rc)
			rc = errno ? errno : EIO;
	} else if (fflush(f) && !rc) {
		rc = errno ? errno : EIO;
	}
	return rc;
}
