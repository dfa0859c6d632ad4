/*
 * config/config.c - the deadline.conf option table, defaults and validation.
 */
#include "common/config/config.h"

#include "common/io/atomic_file.h"
#include "common/config/kv_file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OFF(f) offsetof(struct dl_config, f)

static const char *const policy_names[DL_POLICY_COUNT + 1] = {
	"adaptive", "ras", "reverse",   "realtime",
	"triage",   "edf", "portfolio", NULL};
static const char *const hopeless_rank_names[] = {"below", "above", NULL};
static const char *const yes_no_names[] = {"no", "yes", NULL};
static const char *const passed_ahead_names[] = {"none", "one", "all", NULL};

_Static_assert(sizeof(enum dl_policy) == sizeof(int) &&
		       sizeof(enum dl_hopeless_rank) == sizeof(int) &&
		       sizeof(enum dl_yes_no) == sizeof(int),
	       "DL_OPT_CHOICE fields are written as int");

const struct dl_option dl_options[] = {
	{"Policy", DL_OPT_CHOICE, OFF(policy), 0, 0, "triage",
	 "scheduling policy: triage, edf, adaptive, ras, reverse, realtime or "
	 "portfolio",
	 policy_names},
	{"PlanInterval", DL_OPT_DURATION, OFF(plan_interval), 1, 3600, "10",
	 "seconds between two plan cycles", NULL},
	{"ReplanDelay", DL_OPT_DURATION, OFF(replan_delay), 0, 60, "1",
	 "seconds from a deadline job's submission or task end to a new plan",
	 NULL},
	{"EstimatorSocket", DL_OPT_STRING, OFF(estimator_socket), 0, 0,
	 "/run/slurm-deadline/estimator.sock",
	 "Unix socket of deadline-estimatord; empty disables it", NULL},
	{"EstimatorTimeout", DL_OPT_DURATION, OFF(estimator_timeout), 0.001, 10,
	 "0.2", "seconds one estimator request may take", NULL},
	{"MaxDeadlineShare", DL_OPT_DOUBLE, OFF(max_deadline_share), 0.01, 1,
	 "1", "share of a partition one account may claim through deadlines",
	 NULL},
	{"ReduceCost", DL_OPT_DOUBLE, OFF(reduce_cost), 0.001, 1000, "1",
	 "default cost of a reduce task relative to a map task", NULL},
	{"OverdueFloor", DL_OPT_DOUBLE, OFF(overdue_floor), 0.001, 1, "0.1",
	 "least remaining time assumed for a running task, as a fraction of "
	 "its mean length",
	 NULL},
	{"AcceleratorFeature", DL_OPT_STRING, OFF(accel_feature), 0, 0, "",
	 "node feature marking the accelerated pool (hardware affinity); empty "
	 "disables it",
	 NULL},
	{"AcceleratorThreshold", DL_OPT_DOUBLE, OFF(accel_threshold), 1, 1000,
	 "1.5", "speedup above which a job is accelerable", NULL},
	/* default: the highest priority sched/deadline hands out
	 * (0xfffffff0), above priority/basic's series from 0xffff0000, which
	 * a job submitted between two plan cycles would otherwise outrank */
	{"PriorityBase", DL_OPT_DOUBLE, OFF(priority_base), 1000, 4294967280.0,
	 "4294967280", "Slurm priority given to the most urgent deadline job",
	 NULL},
	{"PlanFile", DL_OPT_STRING, OFF(plan_file), 0, 0, "",
	 "where the current plan is published as JSON; empty = "
	 "StateSaveLocation/deadline_plan.json",
	 NULL},
	{"RasRounds", DL_OPT_UINT, OFF(ras_rounds), 0, 1000, "10",
	 "max-min rounds of the ras/reverse placement", NULL},
	{"NodeIO", DL_OPT_STRING, OFF(node_io), 0, 0, "",
	 "I/O capacity per node, e.g. n[1-8]=200,n9=400 (MB/s)", NULL},
	{"DefaultIO", DL_OPT_DOUBLE, OFF(default_io), 0, 1e9, "0",
	 "I/O capacity of nodes not listed in NodeIO; 0 = I/O not constrained",
	 NULL},
	{"AvailabilityForecast", DL_OPT_STRING, OFF(availability_forecast), 0,
	 0, "", "external-load forecast f(t) for the reverse policy", NULL},
	{"RealtimeShare", DL_OPT_DOUBLE, OFF(realtime_share), 0.01, 1, "1",
	 "share of a partition that realtime admission may promise", NULL},
	{"RealtimeMargin", DL_OPT_DOUBLE, OFF(realtime_margin), 0, 10, "0.2",
	 "safety margin added to worst-case task lengths (fraction)", NULL},
	{"RealtimeQuantile", DL_OPT_DOUBLE, OFF(realtime_quantile), 0.5, 1,
	 "0.99", "task-length quantile taken as the worst case", NULL},
	{"RealtimeTaskOverhead", DL_OPT_DURATION, OFF(realtime_overhead), 0,
	 3600, "5",
	 "seconds added to every worst-case task length: from a CPU freeing to "
	 "the next task running on it",
	 NULL},
	{"FeedbackThreshold", DL_OPT_DURATION, OFF(feedback_threshold), 0,
	 86400, "0",
	 "realtime feedback trigger in seconds; 0 = the typical map task "
	 "length",
	 NULL},
	{"TriageQuantile", DL_OPT_DOUBLE, OFF(triage_quantile), 0.05, 0.95,
	 "0.5",
	 "task-length quantile with which triage tests whether a job can still "
	 "meet its deadline",
	 NULL},
	{"HopelessRank", DL_OPT_CHOICE, OFF(hopeless_rank), 0, 0, "above",
	 "where jobs that triage gave up on rank against jobs without "
	 "deadlines",
	 hopeless_rank_names},
	{"HopelessAging", DL_OPT_DURATION, OFF(hopeless_aging), 0, 604800,
	 "30m",
	 "how long a job triage gave up on waits before it goes first among "
	 "the jobs given up",
	 NULL},
	{"HopelessSlack", DL_OPT_DOUBLE, OFF(hopeless_slack), 0, 1, "1",
	 "share of a feasible job's spare slack that hopeless jobs may take "
	 "by running before it",
	 NULL},
	{"HopelessSlackWaiting", DL_OPT_DOUBLE, OFF(hopeless_slack_waiting), 0,
	 1, "1",
	 "share of a feasible job's spare slack that hopeless jobs may take "
	 "by running before it where a job without a deadline waits to start "
	 "on the same nodes",
	 NULL},
	{"HopelessSlackLoad", DL_OPT_DOUBLE, OFF(hopeless_slack_load), 0, 10,
	 "0",
	 "the load (the share of the CPUs that deadline work arriving or "
	 "due needs) below which hopeless jobs may run in the spare slack "
	 "of feasible jobs",
	 NULL},
	{"HopelessSlackBacklog", DL_OPT_DURATION, OFF(hopeless_slack_backlog),
	 0, 31536000, "5m",
	 "HopelessSlack lends only while the pending work of the jobs given "
	 "up would take every CPU at most this long",
	 NULL},
	{"HopelessSlackMaxArrivals", DL_OPT_DOUBLE,
	 OFF(hopeless_slack_max_arrivals), 0, 10, "0.8",
	 "HopelessSlack lends only while deadline work arrives at less than "
	 "this share of the CPUs",
	 NULL},
	{"HopelessPromise", DL_OPT_CHOICE, OFF(hopeless_promise), 0, 0, "no",
	 "whether a job triage gives up on is promised a finish and kept to "
	 "it",
	 yes_no_names},
	{"HopelessPromiseMargin", DL_OPT_DOUBLE, OFF(hopeless_promise_margin),
	 0, 100, "0",
	 "with HopelessPromise=yes the promise adds this multiple of the "
	 "predicted lateness to the predicted finish",
	 NULL},
	{"LateAhead", DL_OPT_CHOICE, OFF(late_ahead), 0, 0, "yes",
	 "triage: whether a job late at its place even with short tasks, "
	 "whose demotion would let no other job meet its deadline, keeps its "
	 "place in deadline order",
	 yes_no_names},
	{"LateAheadMaxArrivals", DL_OPT_DOUBLE, OFF(late_ahead_max_arrivals), 0,
	 10, "10",
	 "triage with LateAhead=yes: a job late at its place that already "
	 "runs tasks keeps its place only while deadline work arrives at "
	 "less than this share of the CPUs",
	 NULL},
	{"PassedAhead", DL_OPT_CHOICE, OFF(passed_ahead), 0, 0, "one",
	 "triage: which jobs whose deadline has passed keep their place in "
	 "deadline order while they make no other job late",
	 passed_ahead_names},
	{"PassedAheadReduce", DL_OPT_UINT, OFF(passed_ahead_reduce), 0, 100000,
	 "0",
	 "a job whose deadline has passed, whose maps have all started and "
	 "which has at most this many reduce tasks left to start also keeps "
	 "its place in deadline order",
	 NULL},
	{"BlockingReserve", DL_OPT_DOUBLE, OFF(blocking_reserve), 0, 1, "0.15",
	 "triage: share of each partition that tasks long against recent "
	 "jobs' slack leave free unless their job needs it for its deadline; "
	 "0 disables it",
	 NULL},
	{"BlockingHorizon", DL_OPT_DOUBLE, OFF(blocking_horizon), 0, 1, "0.1",
	 "triage: share of recent jobs a task must have blocked (slack and "
	 "own tasks shorter than it) to count as long for BlockingReserve",
	 NULL},
	{"BlockingMargin", DL_OPT_DOUBLE, OFF(blocking_margin), 0, 4, "0.1",
	 "triage: safety margin on the concurrency a job with long tasks "
	 "needs for its deadline, which BlockingReserve never takes from it",
	 NULL},
	{"BlockingUnknown", DL_OPT_CHOICE, OFF(blocking_unknown), 0, 0, "yes",
	 "triage: whether a phase whose task length nobody knows yet counts "
	 "as long for BlockingReserve when the typical (median) task of "
	 "recent jobs is long",
	 yes_no_names},
	{"BlockingUnknownWide", DL_OPT_DOUBLE, OFF(blocking_unknown_wide), 0, 1,
	 "0.25",
	 "triage: with BlockingUnknown, a phase of unknown task length whose "
	 "tasks left would take this share of its partition's CPUs or more "
	 "is presumed to run recent jobs' typical task even when that task is "
	 "short; 0 disables it",
	 NULL},
	{"BlockingUnderLoad", DL_OPT_CHOICE, OFF(blocking_under_load), 0, 0,
	 "yes",
	 "triage: while a job competing for a partition is given up or late, "
	 "yes frees only the feasible jobs with known task lengths from "
	 "BlockingReserve (given-up jobs, unless work without deadlines "
	 "waits for their nodes, and phases of unknown length keep leaving "
	 "it), no turns the partition's reserve off",
	 yes_no_names},
	{"LookaheadStep", DL_OPT_DURATION, OFF(lookahead_step), 0.01, 60, "1",
	 "time grid of the dispatcher simulation of triage and edf", NULL},
	{"AlertProgram", DL_OPT_STRING, OFF(alert_program), 0, 0, "",
	 "command run when a job's verdict turns at_risk or hopeless and when "
	 "it ends met or missed; empty disables it",
	 NULL},
	{"AlertMail", DL_OPT_CHOICE, OFF(alert_mail), 0, 0, "no",
	 "yes: the same alerts by mail through slurm.conf's MailProg, to jobs "
	 "whose --mail-type asks for them",
	 yes_no_names},
	{"AlertInterval", DL_OPT_DURATION, OFF(alert_interval), 0, 86400, "5m",
	 "least time between two verdict alerts of one job", NULL},
	{"AlertTimeout", DL_OPT_DURATION, OFF(alert_timeout), 1, 600, "30",
	 "seconds an AlertProgram or MailProg run may take before it is "
	 "killed",
	 NULL},
	{"Debug", DL_OPT_UINT, OFF(debug), 0, 3, "0",
	 "0 = decisions only, 1..3 = more detail in slurmctld's log", NULL},
	{"PortfolioPolicies", DL_OPT_STRING, OFF(portfolio_policies), 0, 0,
	 "triage,edf,adaptive",
	 "the policies Policy=portfolio chooses from: triage, edf, adaptive, "
	 "ras, reverse, comma-separated",
	 NULL},
	{"PortfolioInterval", DL_OPT_DURATION, OFF(portfolio_interval), 10,
	 86400, "60", "least time between two portfolio rounds", NULL},
	{"PortfolioSamples", DL_OPT_UINT, OFF(portfolio_samples), 1, 64, "3",
	 "simulations of each candidate per round, task lengths drawn from the "
	 "estimates' spread",
	 NULL},
	{"PortfolioHorizon", DL_OPT_DURATION, OFF(portfolio_horizon), 0, 604800,
	 "1h",
	 "how far ahead a portfolio round simulates; 0 = until every job ends",
	 NULL},
	{"PortfolioSampleTasks", DL_OPT_UINT, OFF(portfolio_sample_tasks), 0,
	 10000000, "20000",
	 "above this many queued tasks, a portfolio round simulates a random "
	 "sample of the arrays holding about as many on the same share of the "
	 "cluster; 0 = always the whole queue",
	 NULL},
	{"PortfolioPlanGrid", DL_OPT_DURATION, OFF(portfolio_plan_grid), 0,
	 3600, "60",
	 "a portfolio round simulates plan cycles at most this often and this "
	 "long after task ends; 0 = as PlanInterval and ReplanDelay",
	 NULL},
	{"PortfolioBudget", DL_OPT_DURATION, OFF(portfolio_budget), 0.01, 600,
	 "1",
	 "wall time a portfolio round may take; over it the policy is kept",
	 NULL},
	{"PortfolioMargin", DL_OPT_DOUBLE, OFF(portfolio_margin), 0, 1000, "1",
	 "score points by which a candidate must beat the current policy",
	 NULL},
	{"PortfolioMinDwell", DL_OPT_DURATION, OFF(portfolio_min_dwell), 0,
	 604800, "5m", "least time a policy runs before the portfolio switches",
	 NULL},
	{"PortfolioConfirm", DL_OPT_UINT, OFF(portfolio_confirm), 1, 100, "2",
	 "rounds in a row a switch must win before it is made", NULL},
	{"PortfolioForecast", DL_OPT_DURATION, OFF(portfolio_forecast), 0,
	 604800, "0",
	 "arrivals of this last stretch replayed as a round's future ones; "
	 "0 = none",
	 NULL},
	{"PortfolioHindsight", DL_OPT_DURATION, OFF(portfolio_hindsight), 0,
	 604800, "0",
	 "rounds also judge the candidates on this last stretch of the "
	 "actual workload; 0 = none",
	 NULL},
	{"PortfolioMissedWeight", DL_OPT_DOUBLE, OFF(portfolio_missed_weight),
	 0, 1000, "1", "score points per percent of deadlines missed", NULL},
	{"PortfolioLatenessWeight", DL_OPT_DOUBLE,
	 OFF(portfolio_lateness_weight), 0, 1000, "0.1",
	 "score points per minute of mean tardiness of jobs with deadlines",
	 NULL},
	{"PortfolioSlowdownWeight", DL_OPT_DOUBLE,
	 OFF(portfolio_slowdown_weight), 0, 1000, "0.1",
	 "score points per unit of mean bounded slowdown above 1 of jobs "
	 "without deadlines",
	 NULL},
	{NULL, 0, 0, 0, 0, NULL, NULL, NULL},
};

const char *dl_policy_name(enum dl_policy p)
{
	return (unsigned) p < DL_POLICY_COUNT ? policy_names[p] : "unknown";
}

const char *dl_hopeless_rank_name(enum dl_hopeless_rank r)
{
	return (unsigned) r <= DL_HOPELESS_ABOVE ? hopeless_rank_names[r]
						 : "unknown";
}

static int choice_index(const char *const *choices, const char *name)
{
	for (int i = 0; choices && choices[i]; i++)
		if (!strcasecmp(name, choices[i]))
			return i;
	return -1;
}

int dl_policy_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < DL_POLICY_COUNT; i++)
		if (!strcasecmp(name, policy_names[i]))
			return i;
	return -1;
}

int dl_policy_list_parse(const char *s, enum dl_policy *out, uint32_t max,
			 uint32_t *n, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	if (!s || !out || !n) {
		snprintf(err, err ? errlen : 0, "missing policy list");
		return EINVAL;
	}
	*n = 0;
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, err ? errlen : 0, "PortfolioPolicies too long");
		return EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ", ", &save); t;
	     t = strtok_r(NULL, ", ", &save)) {
		int p = dl_policy_from_name(t);

		if (p < 0 || p == DL_POLICY_REALTIME ||
		    p == DL_POLICY_PORTFOLIO) {
			snprintf(err, err ? errlen : 0,
				 "PortfolioPolicies=%s: '%s' is not one of "
				 "triage, edf, adaptive, ras, reverse",
				 s, t);
			return EINVAL;
		}
		for (uint32_t k = 0; k < *n; k++)
			if (out[k] == (enum dl_policy) p) {
				snprintf(err, err ? errlen : 0,
					 "PortfolioPolicies=%s: %s listed "
					 "twice",
					 s, t);
				return EINVAL;
			}
		if (*n >= max) {
			snprintf(err, err ? errlen : 0,
				 "PortfolioPolicies=%s: too many", s);
			return EINVAL;
		}
		out[(*n)++] = (enum dl_policy) p;
	}
	if (!*n) {
		snprintf(err, err ? errlen : 0,
			 "PortfolioPolicies: no policy given");
		return EINVAL;
	}
	return 0;
}

double dl_parse_duration(const char *s)
{
	char *end;
	double v, mult = 1;

	if (!s)
		return -1;
	while (isspace((unsigned char) *s))
		s++;
	if (!*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (*end == 's')
		end++;
	else if (*end == 'm')
		mult = 60, end++;
	else if (*end == 'h')
		mult = 3600, end++;
	else if (*end == 'd')
		mult = 86400, end++;
	while (isspace((unsigned char) *end))
		end++;
	return *end ? -1 : v * mult;
}

static const struct dl_option *find_option(const char *name)
{
	for (const struct dl_option *o = dl_options; o->name; o++)
		if (!strcasecmp(o->name, name))
			return o;
	return NULL;
}

int dl_config_set(struct dl_config *cfg, const char *name, const char *value,
		  char *err, size_t errlen)
{
	const struct dl_option *o;
	char *field;
	double v;
	char *end;

	if (!cfg || !name || !value) {
		snprintf(err, err ? errlen : 0, "missing option name or value");
		return EINVAL;
	}
	o = find_option(name);
	if (!o) {
		snprintf(err, err ? errlen : 0, "unknown option '%s'", name);
		return EINVAL;
	}
	field = (char *) cfg + o->offset;
	switch (o->type) {
	case DL_OPT_CHOICE: {
		int p = choice_index(o->choices, value);

		if (p < 0) {
			char list[160] = "";
			size_t used = 0;

			for (int i = 0; o->choices && o->choices[i]; i++)
				used += (size_t) snprintf(
					list + used,
					used < sizeof(list)
						? sizeof(list) - used
						: 0,
					"%s%s", i ? ", " : "", o->choices[i]);
			snprintf(err, err ? errlen : 0,
				 "%s=%s: expected one of %s", o->name, value,
				 list);
			return EINVAL;
		}
		/* every choice field is an enum of int size */
		memcpy(field, &p, sizeof(p));
		return 0;
	}
	case DL_OPT_STRING: {
		char *copy;

		if (o->offset == OFF(portfolio_policies)) {
			enum dl_policy list[DL_POLICY_COUNT];
			uint32_t n;
			int rc = dl_policy_list_parse(value, list,
						      DL_POLICY_COUNT, &n, err,
						      err ? errlen : 0);

			if (rc)
				return rc;
		}
		copy = strdup(value);

		if (!copy) {
			snprintf(err, err ? errlen : 0, "out of memory");
			return ENOMEM;
		}
		free(*(char **) field);
		*(char **) field = copy;
		return 0;
	}
	case DL_OPT_DURATION:
		v = dl_parse_duration(value);
		break;
	case DL_OPT_DOUBLE:
	case DL_OPT_UINT:
		errno = 0;
		v = strtod(value, &end);
		if (errno || end == value || !isfinite(v))
			v = NAN;
		else
			while (isspace((unsigned char) *end))
				end++;
		if (!isnan(v) && *end)
			v = NAN;
		if (o->type == DL_OPT_UINT && !isnan(v) && v != floor(v))
			v = NAN;
		break;
	default:
		return EINVAL;
	}
	if (isnan(v) || v < o->min || v > o->max) {
		snprintf(err, err ? errlen : 0,
			 "%s=%s: expected a %s between %g and %g", o->name,
			 value,
			 o->type == DL_OPT_UINT       ? "whole number"
			 : o->type == DL_OPT_DURATION ? "duration (s/m/h)"
						      : "number",
			 o->min, o->max);
		return EINVAL;
	}
	if (o->type == DL_OPT_UINT)
		*(uint32_t *) field = (uint32_t) v;
	else
		*(double *) field = v;
	return 0;
}

void dl_config_free(struct dl_config *cfg)
{
	if (!cfg)
		return;
	for (const struct dl_option *o = dl_options; o->name; o++)
		if (o->type == DL_OPT_STRING) {
			char **f = (char **) ((char *) cfg + o->offset);

			free(*f);
			*f = NULL;
		}
}

int dl_config_defaults(struct dl_config *cfg)
{
	char err[128];

	if (!cfg)
		return EINVAL;
	memset(cfg, 0, sizeof(*cfg));
	for (const struct dl_option *o = dl_options; o->name; o++) {
		int rc = dl_config_set(cfg, o->name, o->def, err, sizeof(err));

		if (rc) {
			dl_config_free(cfg);
			return rc;
		}
	}
	return 0;
}

int dl_config_copy(struct dl_config *dst, const struct dl_config *src)
{
	if (!dst || !src)
		return EINVAL;
	*dst = *src;
	for (const struct dl_option *o = dl_options; o->name; o++)
		if (o->type == DL_OPT_STRING) {
			char **f = (char **) ((char *) dst + o->offset);

			if (*f && !(*f = strdup(*f))) {
				/* leave dst consistent: drop what was copied */
				for (const struct dl_option *p = dl_options;
				     p != o; p++)
					if (p->type == DL_OPT_STRING)
						free(*(char **) ((char *) dst +
								 p->offset));
				memset(dst, 0, sizeof(*dst));
				return ENOMEM;
			}
		}
	return 0;
}

static int set_option(void *ctx, const char *name, const char *value, char *msg,
		      size_t msglen)
{
	return dl_config_set(ctx, name, value, msg, msglen);
}

int dl_config_parse(struct dl_config *cfg, const char *text, size_t len,
		    const char *origin, char *err, size_t errlen)
{
	struct dl_config next;
	int rc;

	if (!cfg || (!text && len))
		return EINVAL;
	rc = dl_config_defaults(&next);
	if (rc)
		return rc;
	rc = dl_kv_parse(text, len, origin ? origin : "deadline.conf",
			 set_option, &next, err, errlen);
	if (rc) {
		dl_config_free(&next);
		return rc;
	}
	dl_config_free(cfg);
	*cfg = next;
	return 0;
}

int dl_config_load(struct dl_config *cfg, const char *path, char *err,
		   size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!cfg || !path)
		return EINVAL;
	rc = dl_read_file(path, 1u << 20, &text, &len);
	if (rc) {
		snprintf(err, err ? errlen : 0, "%s: %s", path,
			 dl_file_strerror(rc));
		return rc;
	}
	if (!len || strspn(text, " \t\r\n") == len) {
		/* a file truncated while being edited would otherwise switch
		 * e.g. Policy=realtime to the default policy without a word */
		snprintf(err, err ? errlen : 0,
			 "%s is empty (remove it to use every default)", path);
		free(text);
		return EINVAL;
	}
	rc = dl_config_parse(cfg, text, len, path, err, errlen);
	free(text);
	return rc;
}
