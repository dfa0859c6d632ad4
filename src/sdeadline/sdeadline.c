/*
 * sdeadline - show the current deadline plan of sched/deadline: one row per
 * deadline job (a MapReduce pair or a lone array) with its phase, policy,
 * deadline, predicted finish, tasks done/running/pending, allocation, need
 * and verdict with the plan's explanation; --json for scripts.
 *
 * It reads the plan file the plugin publishes (atomically replaced each
 * cycle): --plan FILE, else $SDEADLINE_PLAN, else PlanFile= in deadline.conf
 * next to slurm.conf, else StateSaveLocation/deadline_plan.json as
 * slurmctld reports it.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/slurm.h>

#include "common/dl_config.h"
#include "common/plan.h"
#include "common/plan_json.h"

#define DEFAULT_SLURM_CONF "/etc/slurm/slurm.conf"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: sdeadline [--json] [--plan FILE]\n"
		"Show every deadline job of the current sched/deadline plan.\n"
		"  --json        the rows as JSON\n"
		"  --plan FILE   read this plan file instead of the published "
		"one\n"
		"  -h, --help    this help\n");
}

/* The plan file: deadline.conf's PlanFile, else slurmctld's
 * StateSaveLocation. */
static char *find_plan(void)
{
	const char *conf = getenv("SLURM_CONF");
	char *copy, *dir, path[4096], err[256];
	struct dl_config cfg;
	slurm_conf_t *sc = NULL;
	char *out = NULL;

	if (!conf || !*conf)
		conf = DEFAULT_SLURM_CONF;
	copy = strdup(conf);
	if (!copy)
		return NULL;
	dir = dirname(copy);
	snprintf(path, sizeof(path), "%s/deadline.conf", dir);
	free(copy);
	if (dl_config_defaults(&cfg) == 0) {
		int rc = dl_config_load(&cfg, path, err, sizeof(err));

		if (rc && rc != ENOENT)
			fprintf(stderr,
				"sdeadline: %s (using the default plan "
				"location)\n",
				err);
		if (!rc && cfg.plan_file && cfg.plan_file[0])
			out = strdup(cfg.plan_file);
		dl_config_free(&cfg);
	}
	if (out)
		return out;
	slurm_init(NULL);
	if (slurm_load_ctl_conf((time_t) 0, &sc) != SLURM_SUCCESS || !sc) {
		fprintf(stderr,
			"sdeadline: cannot get StateSaveLocation from "
			"slurmctld: %s\n",
			slurm_strerror(slurm_get_errno()));
		return NULL;
	}
	if (sc->state_save_location) {
		snprintf(path, sizeof(path), "%s/deadline_plan.json",
			 sc->state_save_location);
		out = strdup(path);
	}
	slurm_free_ctl_conf(sc);
	slurm_fini();
	return out;
}

static void fmt_time(char *buf, size_t len, double t, double now)
{
	time_t tt = (time_t) t;
	struct tm tm;

	if (!(t > 0) || !isfinite(t) || !localtime_r(&tt, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	if (fabs(t - now) < 20 * 3600)
		strftime(buf, len, "%H:%M:%S", &tm);
	else
		strftime(buf, len, "%Y-%m-%dT%H:%M", &tm);
}

static uint32_t sum(const uint32_t *v)
{
	return v[DL_MAP] + v[DL_REDUCE];
}

/* Finished jobs: met when every task completed by the deadline. */
static const char *outcome(const struct dl_plan_job *j)
{
	if (j->phase >= 0)
		return NULL;
	if (sum(j->done) < sum(j->tasks))
		return "missed";
	if (j->deadline > 0 && j->predicted_finish > j->deadline)
		return "missed";
	return j->deadline > 0 ? "met" : "done";
}

static const char *phase_name(int phase)
{
	return phase == DL_MAP ? "map" : phase == DL_REDUCE ? "reduce" : "done";
}

static void print_table(const struct dl_plan *p)
{
	time_t now = time(NULL);
	char when[32];

	fmt_time(when, sizeof(when), p->now, (double) now);
	printf("plan cycle %llu at %s (%.0fs ago), policy %s, estimator %s, %u "
	       "job%s\n",
	       (unsigned long long) p->cycle, when, (double) now - p->now,
	       dl_policy_name(p->policy),
	       p->stats.estimator[0] ? p->stats.estimator : "-", p->njobs,
	       p->njobs == 1 ? "" : "s");
	printf("%-15s %-6s %-8s %-9s %-13s %-14s %5s %6s %-8s %s\n", "JOBID",
	       "PHASE", "POLICY", "DEADLINE", "PREDICTED", "DONE/RUN/PEND",
	       "ALLOC", "NEED", "VERDICT", "EXPLANATION");
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct dl_plan_job *j = &p->jobs[i];
		char id[40], dl[32], pf[48], tasks[40], need[16];
		const char *v = outcome(j);

		if (j->reduce_id)
			snprintf(id, sizeof(id), "%llu+%llu",
				 (unsigned long long) j->job_id,
				 (unsigned long long) j->reduce_id);
		else
			snprintf(id, sizeof(id), "%llu",
				 (unsigned long long) j->job_id);
		fmt_time(dl, sizeof(dl), j->deadline, p->now);
		fmt_time(pf, sizeof(pf), j->predicted_finish, p->now);
		if (j->phase >= 0 && j->finish_err >= 1 &&
		    isfinite(j->finish_err) && strcmp(pf, "-")) {
			size_t l = strlen(pf);

			snprintf(pf + l, sizeof(pf) - l, "~%.0fs",
				 j->finish_err);
		}
		snprintf(tasks, sizeof(tasks), "%u/%u/%u", sum(j->done),
			 sum(j->running), sum(j->pending));
		if (isnan(j->need) || j->phase < 0)
			snprintf(need, sizeof(need), "-");
		else if (isinf(j->need))
			snprintf(need, sizeof(need), "inf");
		else
			snprintf(need, sizeof(need), "%.1f", j->need);
		printf("%-15s %-6s %-8s %-9s %-13s %-14s %5u %6s %-8s %s\n", id,
		       phase_name(j->phase), dl_policy_name(p->policy), dl, pf,
		       tasks, j->alloc, need,
		       v ? v : dl_verdict_name(j->verdict), j->explain);
	}
}

static void put_num(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k,
			       isfinite(v) ? json_object_new_double(v) : NULL);
}

static int print_json(const struct dl_plan *p)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rows = json_object_new_array();

	if (!o || !rows)
		return 1;
	json_object_object_add(o, "cycle", json_object_new_uint64(p->cycle));
	put_num(o, "plan_time", p->now);
	json_object_object_add(
		o, "policy", json_object_new_string(dl_policy_name(p->policy)));
	json_object_object_add(o, "estimator",
			       json_object_new_string(p->stats.estimator));
	for (uint32_t i = 0; i < p->njobs; i++) {
		const struct dl_plan_job *j = &p->jobs[i];
		struct json_object *r = json_object_new_object();
		const char *v = outcome(j);

		json_object_object_add(r, "job_id",
				       json_object_new_uint64(j->job_id));
		json_object_object_add(r, "reduce_id",
				       json_object_new_uint64(j->reduce_id));
		json_object_object_add(r, "user",
				       json_object_new_string(j->user));
		json_object_object_add(r, "name",
				       json_object_new_string(j->name));
		json_object_object_add(
			r, "phase",
			json_object_new_string(phase_name(j->phase)));
		json_object_object_add(
			r, "policy",
			json_object_new_string(dl_policy_name(p->policy)));
		put_num(r, "deadline", j->deadline);
		put_num(r, "predicted_finish", j->predicted_finish);
		put_num(r, "finish_err", j->finish_err);
		json_object_object_add(r, "done",
				       json_object_new_uint64(sum(j->done)));
		json_object_object_add(r, "running",
				       json_object_new_uint64(sum(j->running)));
		json_object_object_add(r, "pending",
				       json_object_new_uint64(sum(j->pending)));
		json_object_object_add(r, "tasks",
				       json_object_new_uint64(sum(j->tasks)));
		json_object_object_add(r, "alloc",
				       json_object_new_uint64(j->alloc));
		put_num(r, "need", j->need);
		json_object_object_add(r, "rank",
				       json_object_new_uint64(j->rank));
		json_object_object_add(r, "managed",
				       json_object_new_boolean(j->managed));
		json_object_object_add(
			r, "verdict",
			json_object_new_string(dl_verdict_name(j->verdict)));
		json_object_object_add(r, "outcome",
				       v ? json_object_new_string(v) : NULL);
		json_object_object_add(r, "explain",
				       json_object_new_string(j->explain));
		json_object_array_add(rows, r);
	}
	json_object_object_add(o, "jobs", rows);
	puts(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"plan", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *path = NULL, err[256];
	struct dl_plan *plan;
	int json = 0, c, rc;

	while ((c = getopt_long(argc, argv, "jp:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'p':
			free(path);
			path = strdup(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sdeadline: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!path && getenv("SDEADLINE_PLAN") && *getenv("SDEADLINE_PLAN"))
		path = strdup(getenv("SDEADLINE_PLAN"));
	if (!path)
		path = find_plan();
	if (!path)
		return 1;
	plan = dl_plan_read_file(path, err, sizeof(err));
	if (!plan) {
		fprintf(stderr,
			"sdeadline: no plan to show (%s); is "
			"SchedulerType=sched/deadline running?\n",
			err);
		free(path);
		return 1;
	}
	if (json) {
		rc = print_json(plan);
	} else {
		print_table(plan);
		rc = 0;
	}
	dl_plan_free(plan);
	free(path);
	return rc;
}
