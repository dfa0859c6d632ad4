/*
 * main.c - deadline-sim: run, compare and generate (doc/deadline-sim.1).
 *
 *   deadline-sim run --cluster C.json --workload W.json --policy P [...]
 *   deadline-sim compare --cluster C --workload W --policies a,b,c [...]
 *   deadline-sim gen KIND [--seed N] [--cluster-out FILE] [options]
 *   deadline-sim draw --cluster C --workload W [--seed N]
 *   deadline-sim policies
 *   deadline-sim table SUMMARY.json...
 *
 * Exit status: 0 success, 1 a run or generator failed, 2 usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dl_autoconf.h"

#include "common/config/config.h"
#include "common/io/log.h"
#include "common/simulate/engine.h"
#include "sim/gen.h"
#include "sim/gen_kinds.h"
#include "common/io/json.h"
#include "sim/oracle_input.h"
#include "sim/output.h"
#include "sim/policy.h"
#include "sim/seeds.h"

#define EXIT_USAGE 2

static const char *prog = "deadline-sim";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s run --cluster C.json --workload W.json --policy P "
		"[--seed N]\n"
		"              [--summary-json OUT] [--jobs-csv OUT] "
		"[--timeline OUT]\n"
		"              [--config deadline.conf] [--param "
		"Name=Value]... [--priors]\n"
		"              [--task-lengths "
		"spec|perfect|estimator|own|limit]\n"
		"              [--oracle] [--horizon S] [--log FILE] "
		"[--no-feedback]\n"
		"              [--seeds N|a,b,c]\n"
		"       %s compare --cluster C.json --workload W.json "
		"[--policies a,b,c]\n"
		"              [--seed N] [--out-dir DIR] [--tsv] "
		"[--no-oracle] [run options]\n"
		"       %s gen KIND [--seed N] [--cluster-out FILE] [options]\n"
		"       %s draw --cluster C.json --workload W.json [--seed N]\n"
		"       %s policies\n"
		"       %s table [--tsv] SUMMARY.json...\n"
		"Generators:",
		prog, prog, prog, prog, prog, prog);
	for (size_t i = 0; i < gen_count(); i++)
		fprintf(f, " %s", gen_at(i)->name);
	fprintf(f, "\nSee deadline-sim(1).\n");
}

static int parse_seed(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return EINVAL;
	*out = v;
	return 0;
}

struct run_opts {
	const char *cluster, *workload, *policy, *policies;
	const char *summary, *csv, *timeline, *config, *log, *out_dir;
	uint64_t seed;
	double horizon;
	bool priors, oracle, tsv, no_feedback;
	int lengths;           /* enum sim_lengths */
	const char *seeds_arg; /* --seeds */
	uint64_t *seeds;       /* resolved by resolve_seeds */
	size_t nseeds;
	struct dl_config cfg;
};

enum {
	OPT_CLUSTER = 256,
	OPT_WORKLOAD,
	OPT_POLICY,
	OPT_POLICIES,
	OPT_SEED,
	OPT_SUMMARY,
	OPT_CSV,
	OPT_TIMELINE,
	OPT_CONFIG,
	OPT_PARAM,
	OPT_PRIORS,
	OPT_TASK_LENGTHS,
	OPT_ORACLE,
	OPT_NO_ORACLE,
	OPT_HORIZON,
	OPT_LOG,
	OPT_OUT_DIR,
	OPT_TSV,
	OPT_NO_FEEDBACK,
	OPT_SEEDS,
	OPT_HELP,
};

static const struct option run_long[] = {
	{"cluster", required_argument, NULL, OPT_CLUSTER},
	{"workload", required_argument, NULL, OPT_WORKLOAD},
	{"policy", required_argument, NULL, OPT_POLICY},
	{"policies", required_argument, NULL, OPT_POLICIES},
	{"seed", required_argument, NULL, OPT_SEED},
	{"summary-json", required_argument, NULL, OPT_SUMMARY},
	{"jobs-csv", required_argument, NULL, OPT_CSV},
	{"timeline", required_argument, NULL, OPT_TIMELINE},
	{"config", required_argument, NULL, OPT_CONFIG},
	{"param", required_argument, NULL, OPT_PARAM},
	{"priors", no_argument, NULL, OPT_PRIORS},
	{"task-lengths", required_argument, NULL, OPT_TASK_LENGTHS},
	{"oracle", no_argument, NULL, OPT_ORACLE},
	{"no-oracle", no_argument, NULL, OPT_NO_ORACLE},
	{"horizon", required_argument, NULL, OPT_HORIZON},
	{"log", required_argument, NULL, OPT_LOG},
	{"out-dir", required_argument, NULL, OPT_OUT_DIR},
	{"tsv", no_argument, NULL, OPT_TSV},
	{"no-feedback", no_argument, NULL, OPT_NO_FEEDBACK},
	{"seeds", required_argument, NULL, OPT_SEEDS},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

/* Options shared by run and compare.  Returns 0, or EXIT_USAGE. */
static int parse_run_opts(int argc, char **argv, bool compare,
			  struct run_opts *o)
{
	char err[512];
	int c;
	/* --param values are applied after --config, whatever the order */
	char **params = calloc((size_t) argc + 1, sizeof(*params));
	int nparams = 0;

	if (!params)
		return 1;
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->policy = "adaptive";
	o->oracle = compare;
	if (dl_config_defaults(&o->cfg)) {
		free(params);
		return 1;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "", run_long, NULL)) != -1) {
		switch (c) {
		case OPT_CLUSTER:
			o->cluster = optarg;
			break;
		case OPT_WORKLOAD:
			o->workload = optarg;
			break;
		case OPT_POLICY:
			o->policy = optarg;
			break;
		case OPT_POLICIES:
			o->policies = optarg;
			break;
		case OPT_SEED:
			if (parse_seed(optarg, &o->seed)) {
				fprintf(stderr,
					"%s: --seed: '%s' is not a "
					"non-negative integer\n",
					prog, optarg);
				goto usage;
			}
			break;
		case OPT_SUMMARY:
			o->summary = optarg;
			break;
		case OPT_CSV:
			o->csv = optarg;
			break;
		case OPT_TIMELINE:
			o->timeline = optarg;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_PARAM:
			params[nparams++] = optarg;
			break;
		case OPT_PRIORS:
			o->priors = true;
			break;
		case OPT_TASK_LENGTHS:
			o->lengths = sim_lengths_parse(optarg);
			if (o->lengths < 0) {
				fprintf(stderr,
					"%s: --task-lengths must be spec, "
					"perfect, estimator, own or limit\n",
					prog);
				return EXIT_USAGE;
			}
			break;
		case OPT_ORACLE:
			o->oracle = true;
			break;
		case OPT_NO_ORACLE:
			o->oracle = false;
			break;
		case OPT_HORIZON: {
			char *end;

			o->horizon = strtod(optarg, &end);
			if (*end || !(o->horizon > 0) ||
			    !isfinite(o->horizon)) {
				fprintf(stderr,
					"%s: --horizon: expected seconds > 0\n",
					prog);
				goto usage;
			}
			break;
		}
		case OPT_LOG:
			o->log = optarg;
			break;
		case OPT_OUT_DIR:
			o->out_dir = optarg;
			break;
		case OPT_TSV:
			o->tsv = true;
			break;
		case OPT_NO_FEEDBACK:
			o->no_feedback = true;
			break;
		case OPT_SEEDS:
			o->seeds_arg = optarg;
			break;
		case OPT_HELP:
			usage(stdout);
			free(params);
			exit(0);
		default:
			goto usage;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
			argv[optind]);
		goto usage;
	}
	if (!o->cluster || !o->workload) {
		fprintf(stderr, "%s: --cluster and --workload are required\n",
			prog);
		goto usage;
	}
	if (o->config) {
		int rc = dl_config_load(&o->cfg, o->config, err, sizeof(err));

		if (rc) {
			fprintf(stderr, "%s: %s\n", prog,
				rc == ENOENT ? "config file not found" : err);
			goto usage;
		}
	}
	for (int i = 0; i < nparams; i++) {
		char *eq = strchr(params[i], '='), name[128];

		if (!eq || eq == params[i] ||
		    (size_t) (eq - params[i]) >= sizeof(name)) {
			fprintf(stderr,
				"%s: --param expects Name=Value, got '%s'\n",
				prog, params[i]);
			goto usage;
		}
		memcpy(name, params[i], (size_t) (eq - params[i]));
		name[eq - params[i]] = '\0';
		if (dl_config_set(&o->cfg, name, eq + 1, err, sizeof(err))) {
			fprintf(stderr, "%s: --param: %s\n", prog, err);
			goto usage;
		}
	}
	free(params);
	return 0;
usage:
	free(params);
	dl_config_free(&o->cfg);
	fprintf(stderr, "Try '%s --help'.\n", prog);
	return EXIT_USAGE;
}

static FILE *open_out(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
			strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (f == stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad)
		fprintf(stderr, "%s: writing %s failed\n", prog, path);
	return bad;
}

struct inputs {
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
};

static int load_inputs(const struct run_opts *o, struct inputs *in)
{
	char err[1024];

	if (sim_cluster_load(o->cluster, &in->cs, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	if (sim_workload_load(o->workload, &in->cs, &in->ws, err,
			      sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		sim_cluster_spec_free(&in->cs);
		return 1;
	}
	return 0;
}

/* Run one policy; fills the summary.  Writes the optional outputs. */
/* --task-lengths estimator: the daemon's history code behind the engine's
 * estimator interface */
static int hist_predict(void *ctx, const struct dl_pred_query *q, double now,
			struct dl_prediction *out)
{
	return dl_hist_predict(ctx, q, now, out);
}

static int hist_observe(void *ctx, const struct dl_task_rec *r, double now)
{
	return dl_hist_observe(ctx, r, now);
}

/* --log: the core's own lines (Policy=portfolio's rounds and switches)
 * go to the run's log, at the run's simulated time */
static FILE *core_log;
static const struct sim_engine *core_log_engine;

static void core_log_sink(enum dl_log_level level, const char *msg)
{
	(void) level;
	if (core_log && core_log_engine)
		fprintf(core_log, "%12.3f core: %s\n", core_log_engine->now,
			msg);
}

/* With layers (NULL: none) and the oracle asked for, the lateness bound's
 * layers, which the caller frees. */
static int run_one(const struct run_opts *o, const struct inputs *in,
		   const struct sim_policy *pol, const char *summary_path,
		   const char *csv_path, const char *timeline_path,
		   struct sim_summary *sum, struct dl_tardiness_layers *layers)
{
	struct sim_options so = {0};
	struct sim_engine *e = NULL;
	struct dl_hist *hist = NULL;
	FILE *tl = NULL, *lg = NULL;
	char err[1024] = "";
	int rc = 0;

	so.seed = o->seed;
	so.horizon = o->horizon;
	so.priors_from_dist = o->priors;
	so.lengths = (enum sim_lengths) o->lengths;
	so.no_feedback = o->no_feedback;
	if (timeline_path && !(tl = open_out(timeline_path)))
		return 1;
	if (tl)
		fputs("time\tjob\tname\trunning_maps\trunning_reduces\n", tl);
	if (o->log) {
		lg = strcmp(o->log, "-") ? fopen(o->log, "w") : stderr;
		if (!lg) {
			fprintf(stderr, "%s: cannot write %s: %s\n", prog,
				o->log, strerror(errno));
			if (tl)
				close_out(tl, timeline_path);
			return 1;
		}
	}
	so.timeline = tl;
	so.log = lg;
	if (so.lengths == SIM_LENGTHS_ESTIMATOR) {
		/* a fresh history per run (each policy of a compare learns
		 * from its own run), with the daemon's defaults */
		struct dl_hist_cfg hc;

		dl_hist_cfg_defaults(&hc);
		hist = dl_hist_new(&hc, err, sizeof(err));
		if (!hist) {
			fprintf(stderr, "%s: estimator: %s\n", prog, err);
			rc = 1;
			goto out;
		}
		so.est = (struct sim_estimator){hist, hist_predict,
						hist_observe};
	}
	e = sim_engine_new(&in->cs, &in->ws, pol, &o->cfg, &so, err,
			   sizeof(err));
	if (!e) {
		fprintf(stderr, "%s: %s: %s\n", prog, pol->name, err);
		rc = 1;
		goto out;
	}
	if (lg) {
		core_log = lg;
		core_log_engine = e;
		dl_log_set_sink(core_log_sink, DL_LOG_INFO);
	}
	rc = sim_engine_run(e, err, sizeof(err));
	dl_log_set_sink(NULL, DL_LOG_INFO);
	core_log = NULL;
	core_log_engine = NULL;
	if (rc) {
		fprintf(stderr, "%s: policy %s failed at t=%.1f: %s\n", prog,
			pol->name, e->now, err);
		rc = 1;
		goto out;
	}
	if (sim_summarize(e, sum)) {
		fprintf(stderr, "%s: %s: out of memory\n", prog, pol->name);
		rc = 1;
		goto out;
	}
	if (o->oracle) {
		struct dl_oracle_result res;

		if (sim_oracle_layers(e, &res, &sum->oracle_tardiness_lb,
				      layers, err, sizeof(err))) {
			fprintf(stderr, "%s: oracle: %s\n", prog, err);
			rc = 1;
			goto out;
		}
		sum->has_oracle = true;
		sum->oracle_met = res.bound;
		sum->oracle_impossible = res.impossible;
		sum->oracle_impossible_alone = res.impossible_alone;
		sum->oracle_fluid_met = res.fluid_bound;
		sum->oracle_task_met = res.task_bound == UINT32_MAX
					       ? -1
					       : (int64_t) res.task_bound;
		sum->oracle_missed_pct =
			res.counted ? 100.0 * (res.counted - res.bound) /
					      res.counted
				    : 0;
	}
	if (e->stats.stalled) {
		fprintf(stderr,
			"%s: warning: %s stalled: jobs that can never start "
			"were left unfinished\n",
			prog, pol->name);
		for (uint32_t k = 0; k < e->njobs; k++)
			if (e->jobs[k].stall[0])
				fprintf(stderr, "%s:   job %u %s: %s\n", prog,
					k + 1, e->jobs[k].spec->name,
					e->jobs[k].stall);
	}
	if (csv_path) {
		FILE *f = open_out(csv_path);

		if (!f || sim_write_jobs_csv(e, f) || close_out(f, csv_path))
			rc = 1;
	}
	if (summary_path) {
		json_object *j = sim_summary_to_json(sum);

		if (!j || sim_write_json(j, summary_path, true)) {
			fprintf(stderr, "%s: cannot write %s\n", prog,
				summary_path);
			rc = 1;
		}
		json_object_put(j);
	}
out:
	sim_engine_free(e);
	dl_hist_free(hist);
	if (tl && close_out(tl, timeline_path))
		rc = 1;
	if (lg && lg != stderr)
		fclose(lg);
	return rc;
}

static int check_policy(const char *name, const struct sim_policy **out)
{
	const struct sim_policy *p = sim_policy_find(name);
	char why[256] = "";

	if (!p) {
		fprintf(stderr, "%s: unknown policy '%s' (see '%s policies')\n",
			prog, name, prog);
		return EXIT_USAGE;
	}
	if (!sim_policy_available(p, why, sizeof(why))) {
		fprintf(stderr,
			"%s: policy %s is not available in this build: %s\n",
			prog, name, why);
		return EXIT_USAGE;
	}
	*out = p;
	return 0;
}

/* --seeds into o->seeds (from --seed on); 0 or EXIT_USAGE */
static int resolve_seeds(struct run_opts *o)
{
	char err[256];

	if (!o->seeds_arg)
		return 0;
	if (sim_parse_seeds(o->seeds_arg, o->seed, &o->seeds, &o->nseeds, err,
			    sizeof(err))) {
		fprintf(stderr, "%s: --seeds: %s\n", prog, err);
		return EXIT_USAGE;
	}
	return 0;
}

/* One policy over every seed of --seeds into st (oracle: its bound per
 * seed into ost when not NULL); per-seed outputs are not written. */
static int run_seeds(struct run_opts *o, const struct inputs *in,
		     const struct sim_policy *pol, struct sim_seed_stats *st,
		     struct sim_seed_stats *ost)
{
	uint64_t seed = o->seed;
	bool oracle = o->oracle;
	int rc = 0;

	sim_seed_stats_init(st, pol->name);
	if (ost)
		sim_seed_stats_init(ost, "oracle");
	o->oracle = oracle && ost;
	for (size_t k = 0; k < o->nseeds && !rc; k++) {
		struct sim_summary sum;

		o->seed = o->seeds[k];
		rc = run_one(o, in, pol, NULL, NULL, NULL, &sum, NULL);
		if (rc)
			break;
		sim_seed_stats_add(st, &sum);
		if (ost && sum.has_oracle) {
			ost->runs++;
			sim_seed_stats_add_fig(ost, SIM_FIG_MET,
					       sum.oracle_met);
			sim_seed_stats_add_fig(ost, SIM_FIG_MISSED,
					       sum.deadline_jobs -
						       sum.oracle_met);
			sim_seed_stats_add_fig(ost, SIM_FIG_MISSED_PCT,
					       sum.oracle_missed_pct);
		}
	}
	o->seed = seed;
	o->oracle = oracle;
	return rc;
}

/* the aggregate of one policy as JSON at path ("-" = stdout) */
static int write_seed_json(const struct run_opts *o,
			   const struct sim_seed_stats *st, const char *path)
{
	json_object *j = sim_seed_stats_to_json(st, o->seeds, o->nseeds);
	int rc = !j || sim_write_json(j, path, true);

	if (rc)
		fprintf(stderr, "%s: cannot write %s\n", prog, path);
	json_object_put(j);
	return rc;
}

static bool is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/* run: an output written to stdout, which then carries nothing else */
static bool stdout_taken(const struct run_opts *o)
{
	return is_stdout(o->summary) || is_stdout(o->csv) ||
	       is_stdout(o->timeline);
}

static int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct inputs in;
	const struct sim_policy *pol;
	struct sim_summary sum;
	int rc;

	if ((rc = parse_run_opts(argc, argv, false, &o)))
		return rc;
	if (is_stdout(o.summary) + is_stdout(o.csv) + is_stdout(o.timeline) >
	    1) {
		fprintf(stderr,
			"%s: only one of --summary-json, --jobs-csv and "
			"--timeline may write to stdout ('-')\n",
			prog);
		dl_config_free(&o.cfg);
		return EXIT_USAGE;
	}
	if (o.seeds_arg && (o.csv || o.timeline)) {
		fprintf(stderr,
			"%s: --seeds: --jobs-csv and --timeline are per seed; "
			"run one seed for them\n",
			prog);
		dl_config_free(&o.cfg);
		return EXIT_USAGE;
	}
	if ((rc = resolve_seeds(&o)) || (rc = check_policy(o.policy, &pol)) ||
	    (rc = load_inputs(&o, &in))) {
		dl_config_free(&o.cfg);
		free(o.seeds);
		return rc;
	}
	if (o.nseeds) {
		struct sim_seed_stats st[2];

		rc = run_seeds(&o, &in, pol, &st[0], o.oracle ? &st[1] : NULL);
		if (!rc && o.summary)
			rc = write_seed_json(&o, &st[0], o.summary);
		if (!rc && !stdout_taken(&o))
			sim_seed_stats_print(stdout, st, o.oracle ? 2 : 1,
					     o.tsv);
		sim_workload_spec_free(&in.ws);
		sim_cluster_spec_free(&in.cs);
		dl_config_free(&o.cfg);
		free(o.seeds);
		return rc;
	}
	rc = run_one(&o, &in, pol, o.summary, o.csv, o.timeline, &sum, NULL);
	/* an output on stdout ("-") is the whole stream: no table in it */
	if (!rc && !stdout_taken(&o))
		sim_print_table(stdout, &sum, 1, o.tsv);
	if (!rc && sum.has_oracle && !stdout_taken(&o))
		printf("oracle: at most %u of %u deadlines can be met\n",
		       sum.oracle_met, sum.deadline_jobs);
	sim_workload_spec_free(&in.ws);
	sim_cluster_spec_free(&in.cs);
	dl_config_free(&o.cfg);
	return rc;
}

/* compare --seeds: every policy over every seed; one row of means and
 * standard deviations per policy (and the oracle's bound) */
static int compare_seeds(struct run_opts *o, const struct inputs *in,
			 const struct sim_policy *const *pols, size_t np)
{
	struct sim_seed_stats *st = calloc(np + 1, sizeof(*st));
	size_t nrows = 0;
	int rc;

	if (!st)
		return 1;
	if ((rc = resolve_seeds(o))) {
		free(st);
		return rc;
	}
	for (size_t i = 0; i < np && !rc; i++) {
		/* the bound does not depend on the policy: with the first */
		rc = run_seeds(o, in, pols[i], &st[nrows],
			       o->oracle && i == 0 ? &st[np] : NULL);
		if (!rc && o->out_dir) {
			char sp[4096];

			snprintf(sp, sizeof(sp), "%s/summary-%s.json",
				 o->out_dir, pols[i]->name);
			rc = write_seed_json(o, &st[nrows], sp);
		}
		if (!rc)
			nrows++;
	}
	if (!rc && o->oracle && nrows)
		st[nrows++] = st[np];
	if (!rc)
		sim_seed_stats_print(stdout, st, nrows, o->tsv);
	free(st);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	struct run_opts o;
	struct inputs in;
	const struct sim_policy *pols[64];
	struct sim_summary rows[65];
	struct dl_tardiness_layers layers = {0};
	size_t np = 0, nrows = 0;
	int rc = 0;

	if ((rc = parse_run_opts(argc, argv, true, &o)))
		return rc;
	if (o.policies) {
		char *list = strdup(o.policies), *save = NULL, *tok;

		if (!list) {
			dl_config_free(&o.cfg);
			return 1;
		}
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (np == 64) {
				fprintf(stderr, "%s: at most 64 policies\n",
					prog);
				rc = EXIT_USAGE;
				break;
			}
			if ((rc = check_policy(tok, &pols[np])))
				break;
			np++;
		}
		free(list);
	} else {
		char why[256];

		for (size_t i = 0; i < sim_policy_count() && np < 64; i++)
			if (sim_policy_available(sim_policy_at(i), why,
						 sizeof(why)))
				pols[np++] = sim_policy_at(i);
	}
	if (!rc && !np) {
		fprintf(stderr, "%s: no policy to compare\n", prog);
		rc = EXIT_USAGE;
	}
	if (!rc && o.out_dir && mkdir(o.out_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "%s: cannot create %s: %s\n", prog, o.out_dir,
			strerror(errno));
		rc = 1;
	}
	if (rc || (rc = load_inputs(&o, &in))) {
		dl_config_free(&o.cfg);
		return rc;
	}
	if (!o.policies) {
		/* every policy that can run on this cluster, but those
		 * that run only when named */
		size_t kept = 0;

		for (size_t i = 0; i < np; i++)
			if ((!pols[i]->typed_only ||
			     in.cs.mode == SIM_SLOTS_TYPED) &&
			    !pols[i]->on_request)
				pols[kept++] = pols[i];
		np = kept;
	}
	if (o.seeds_arg) {
		rc = compare_seeds(&o, &in, pols, np);
		sim_workload_spec_free(&in.ws);
		sim_cluster_spec_free(&in.cs);
		dl_config_free(&o.cfg);
		free(o.seeds);
		return rc;
	}
	for (size_t i = 0; i < np && !rc; i++) {
		char sp[4096], cp[4096];
		bool oracle = o.oracle;

		snprintf(sp, sizeof(sp), "%s/summary-%s.json", o.out_dir,
			 pols[i]->name);
		snprintf(cp, sizeof(cp), "%s/jobs-%s.csv", o.out_dir,
			 pols[i]->name);
		/* the bound does not depend on the policy: once is enough */
		o.oracle = oracle && i == 0;
		rc = run_one(&o, &in, pols[i], o.out_dir ? sp : NULL,
			     o.out_dir ? cp : NULL, NULL, &rows[nrows],
			     o.oracle ? &layers : NULL);
		o.oracle = oracle;
		if (!rc)
			nrows++;
	}
	if (!rc && o.oracle && nrows) {
		struct sim_summary *r = &rows[nrows], *first = &rows[0];

		memset(r, 0, sizeof(*r));
		snprintf(r->policy, sizeof(r->policy), "oracle");
		r->bound_only = true;
		r->jobs = first->jobs;
		r->admitted = first->jobs;
		r->met = first->oracle_met;
		r->missed = first->deadline_jobs > first->oracle_met
				    ? first->deadline_jobs - first->oracle_met
				    : 0;
		r->accept_ratio = 1;
		r->success_ratio =
			first->deadline_jobs
				? (double) r->met / first->deadline_jobs
				: 0;
		r->missed_pct = first->oracle_missed_pct;
		nrows++;
		if (o.out_dir) {
			char sp[4096];
			json_object *j = json_object_new_object(), *gaps;

			snprintf(sp, sizeof(sp), "%s/oracle.json", o.out_dir);
			json_object_object_add(j, "met_bound",
					       json_object_new_int64(r->met));
			json_object_object_add(
				j, "missed_pct",
				json_object_new_double(r->missed_pct));
			json_object_object_add(
				j, "deadline_jobs",
				json_object_new_int64(first->deadline_jobs));
			json_object_object_add(
				j, "impossible",
				json_object_new_int64(
					first->oracle_impossible));
			json_object_object_add(
				j, "impossible_alone",
				json_object_new_int64(
					first->oracle_impossible_alone));
			json_object_object_add(
				j, "fluid_met_bound",
				json_object_new_int64(first->oracle_fluid_met));
			json_object_object_add(
				j, "task_met_bound",
				json_object_new_int64(first->oracle_task_met));
			json_object_object_add(
				j, "tardiness_lb_s",
				json_object_new_double(
					first->oracle_tardiness_lb));
			/* its layers: with m late jobs, the bound plus the
			 * segments - m shortest gaps */
			json_object_object_add(
				j, "tardiness_lb_segments",
				json_object_new_int64(layers.segments));
			json_object_object_add(
				j, "tardiness_lb_height",
				json_object_new_int64(layers.height));
			gaps = json_object_new_array();
			for (uint32_t g = 0; gaps && g < layers.ngaps; g++)
				json_object_array_add(
					gaps,
					json_object_new_double(layers.gaps[g]));
			json_object_object_add(j, "tardiness_lb_gaps_s", gaps);
			if (sim_write_json(j, sp, true))
				rc = 1;
			json_object_put(j);
		}
	}
	dl_tardiness_layers_free(&layers);
	if (!rc) {
		sim_print_table(stdout, rows, nrows, o.tsv);
		if (o.oracle && !o.tsv)
			printf("oracle: an upper bound on deadlines met "
			       "(preemptive relaxation, exact max-flow); its "
			       "lateness and utilisation are not defined\n");
	}
	sim_workload_spec_free(&in.ws);
	sim_cluster_spec_free(&in.cs);
	dl_config_free(&o.cfg);
	return rc;
}

static int cmd_policies(void)
{
	for (size_t i = 0; i < sim_policy_count(); i++) {
		const struct sim_policy *p = sim_policy_at(i);
		char why[256] = "";
		bool ok = sim_policy_available(p, why, sizeof(why));

		printf("%-10s %-13s %s%s%s\n", p->name,
		       ok ? "available" : "unavailable", p->summary,
		       ok ? "" : " -- ", ok ? "" : why);
	}
	return 0;
}

static int summary_from_file(const char *path, struct sim_summary *s)
{
	json_object *o = json_object_from_file(path), *v;

	memset(s, 0, sizeof(*s));
	if (!o || !json_object_is_type(o, json_type_object)) {
		fprintf(stderr, "%s: %s: not a summary JSON\n", prog, path);
		json_object_put(o);
		return 1;
	}
#define GETD(k, f)                                                             \
	if (json_object_object_get_ex(o, k, &v))                               \
		s->f = json_object_get_double(v);
#define GETU(k, f)                                                             \
	if (json_object_object_get_ex(o, k, &v))                               \
		s->f = (uint32_t) json_object_get_int64(v);
	if (json_object_object_get_ex(o, "policy", &v))
		snprintf(s->policy, sizeof(s->policy), "%s",
			 json_object_get_string(v));
	GETU("jobs", jobs);
	GETU("admitted", admitted);
	GETU("met", met);
	GETU("missed", missed);
	GETD("accept_ratio", accept_ratio);
	GETD("success_ratio", success_ratio);
	GETD("utilization", utilization);
	GETD("missed_pct", missed_pct);
	GETD("makespan_s", makespan_s);
	GETD("mean_lateness_s", mean_lateness_s);
	GETD("mean_tardiness_s", mean_tardiness_s);
	GETD("p95_tardiness_s", p95_tardiness_s);
	GETU("late_jobs", late_jobs);
	GETU("nodl_jobs", nodl_jobs);
	GETD("bsld_mean", bsld_mean);
	GETD("bsld_p95", bsld_p95);
#undef GETD
#undef GETU
	json_object_put(o);
	return 0;
}

static int cmd_table(int argc, char **argv)
{
	struct sim_summary *rows;
	bool tsv = false;
	int first = 1, n = 0, rc = 0;

	if (argc > 1 && !strcmp(argv[1], "--tsv")) {
		tsv = true;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "%s: table needs summary files\n", prog);
		return EXIT_USAGE;
	}
	rows = calloc((size_t) (argc - first), sizeof(*rows));
	if (!rows)
		return 1;
	for (int i = first; i < argc; i++)
		if (summary_from_file(argv[i], &rows[n++]))
			rc = 1;
	if (!rc)
		sim_print_table(stdout, rows, (size_t) n, tsv);
	free(rows);
	return rc;
}

static int cmd_gen(int argc, char **argv)
{
	const struct gen_kind *k;
	struct gen_args a = {1, 0, NULL};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;
	const char *cluster_out = NULL;
	char **rest, err[2048] = "";
	int nrest = 1, rc;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	k = gen_find(argv[1]);
	if (!k) {
		fprintf(stderr, "%s: unknown generator '%s'\n", prog, argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	/* --seed and --cluster-out are common; the rest is the generator's */
	rest = calloc((size_t) argc + 1, sizeof(*rest));
	if (!rest)
		return 1;
	rest[0] = argv[1];
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (parse_seed(argv[++i], &a.seed)) {
				fprintf(stderr,
					"%s: --seed: '%s' is not a "
					"non-negative integer\n",
					prog, argv[i]);
				free(rest);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--cluster-out") && i + 1 < argc) {
			cluster_out = argv[++i];
		} else if (!strcmp(argv[i], "--help")) {
			printf("usage: %s gen %s [--seed N] [--cluster-out "
			       "FILE] %s\n",
			       prog, k->name, k->usage);
			free(rest);
			return 0;
		} else {
			rest[nrest++] = argv[i];
		}
	}
	a.argc = nrest;
	a.argv = rest;
	memset(&c, 0, sizeof(c));
	memset(&w, 0, sizeof(w));
	rc = k->fn(&a, &c, &w, err, sizeof(err));
	free(rest);
	if (rc) {
		if (rc == GEN_USAGE_ERROR)
			fprintf(stderr,
				"%s gen %s: %s\nusage: %s gen %s [--seed N] "
				"[--cluster-out FILE] %s\n",
				prog, k->name, err, prog, k->name, k->usage);
		else
			fprintf(stderr, "%s gen %s: %s\n", prog, k->name, err);
		sim_cluster_spec_free(&c);
		sim_workload_spec_free(&w);
		return rc == GEN_USAGE_ERROR ? EXIT_USAGE : 1;
	}
	{
		json_object *wj = sim_workload_to_json(&w, &c);

		rc = !wj || sim_write_json(wj, "-", true);
		json_object_put(wj);
	}
	if (!rc && cluster_out) {
		json_object *cj = sim_cluster_to_json(&c);

		if (!cj || sim_write_json(cj, cluster_out, true)) {
			fprintf(stderr, "%s: cannot write %s\n", prog,
				cluster_out);
			rc = 1;
		}
		json_object_put(cj);
	}
	sim_cluster_spec_free(&c);
	sim_workload_spec_free(&w);
	return rc ? 1 : 0;
}

/* The workload as a run with this seed sees it: every task's drawn length,
 * every time limit and every deadline resolved (deadline_factor x the
 * isolated time on this cluster).  Running the result gives the same run
 * under any seed; a replay on a real cluster can submit exactly it. */
static int cmd_draw(int argc, char **argv)
{
	static const struct option draw_long[] = {
		{"cluster", required_argument, NULL, OPT_CLUSTER},
		{"workload", required_argument, NULL, OPT_WORKLOAD},
		{"seed", required_argument, NULL, OPT_SEED},
		{"help", no_argument, NULL, OPT_HELP},
		{NULL, 0, NULL, 0},
	};
	struct run_opts o;
	struct inputs in;
	struct sim_options so = {0};
	const struct sim_policy *pol;
	struct sim_engine *e;
	json_object *wj;
	char err[1024] = "";
	int c, rc = 0;

	memset(&o, 0, sizeof(o));
	o.seed = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", draw_long, NULL)) != -1) {
		switch (c) {
		case OPT_CLUSTER:
			o.cluster = optarg;
			break;
		case OPT_WORKLOAD:
			o.workload = optarg;
			break;
		case OPT_SEED:
			if (parse_seed(optarg, &o.seed)) {
				fprintf(stderr,
					"%s: --seed: '%s' is not a "
					"non-negative integer\n",
					prog, optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "Try '%s --help'.\n", prog);
			return EXIT_USAGE;
		}
	}
	if (optind < argc || !o.cluster || !o.workload) {
		fprintf(stderr,
			"%s: draw takes --cluster, --workload and --seed\n",
			prog);
		return EXIT_USAGE;
	}
	if (dl_config_defaults(&o.cfg))
		return 1;
	if ((rc = check_policy("fifo", &pol)) || (rc = load_inputs(&o, &in))) {
		dl_config_free(&o.cfg);
		return rc;
	}
	so.seed = o.seed;
	e = sim_engine_new(&in.cs, &in.ws, pol, &o.cfg, &so, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "%s: %s\n", prog, err);
		rc = 1;
		goto out;
	}
	rc = sim_engine_fix_workload(e, &in.ws);
	sim_engine_free(e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog,
			rc == ENOMEM ? "out of memory" : "internal error");
		rc = 1;
		goto out;
	}
	wj = sim_workload_to_json(&in.ws, &in.cs);
	rc = !wj || sim_write_json(wj, "-", true);
	json_object_put(wj);
out:
	sim_workload_spec_free(&in.ws);
	sim_cluster_spec_free(&in.cs);
	dl_config_free(&o.cfg);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_GLOBAL);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "draw"))
		return cmd_draw(argc - 1, argv + 1);
	if (!strcmp(argv[1], "policies"))
		return cmd_policies();
	if (!strcmp(argv[1], "table"))
		return cmd_table(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("deadline-sim %s\n", PACKAGE_VERSION);
		return 0;
	}
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
