/*
 * deadline_spank.c - SPANK plugin "deadline": the sbatch/salloc/srun options
 * --soft-deadline, --task-profile, --reduce-cost, --max-delays,
 * --mr-reduces and --input-nodes.
 *
 * Each option is validated when sbatch parses it (deadline_opts.c, with the
 * core's parsers and Slurm's own time parser, so every --deadline format
 * works).  After all options are known, the soft deadline is checked against
 * the submission time, --begin and the hard --deadline, and the normalised
 * values go into the job control environment with spank_job_control_setenv():
 * slurmctld keeps them in job_ptr->spank_job_env as SPANK_DEADLINE_*, where
 * sched/deadline reads them with dl_hints_from_env().
 *
 * Loaded from plugstack.conf:  optional spank_deadline.so
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/spank.h>

#include "src/common/read_config.h"
#include "src/common/slurm_opt.h"

#include "deadline_opts.h"

SPANK_PLUGIN(deadline, 1);

/* Exported by libslurm and libslurmfull (src/common/parse_time.c), the
 * parser sbatch uses for --deadline and --begin. */
extern time_t slurm_parse_time(const char *time_str, int past);

/* SPANK entry points (called by plugstack.c through dlsym). */
extern int slurm_spank_init(spank_t sp, int ac, char **av);
extern int slurm_spank_init_post_opt(spank_t sp, int ac, char **av);

static struct dl_spank_opts opts;
static int opts_ready;

static time_t parse_future_time(const char *text)
{
	return slurm_parse_time(text, 0);
}

static int opt_cb(int val, const char *optarg, int remote)
{
	char err[512];

	/* slurmstepd sees the options again; sbatch/srun validated them */
	if (remote)
		return 0;
	if (!opts_ready) {
		dl_spank_opts_init(&opts);
		opts_ready = 1;
	}
	if (dl_spank_opt_set(&opts, (enum dl_spank_opt) val, optarg,
			     parse_future_time, err, sizeof(err))) {
		slurm_error("%s", err);
		return -1;
	}
	return 0;
}

/* Registered from slurm_spank_init(): plugstack.c ignores a static
 * spank_options table in sbatch/salloc (the allocator context). */
static struct spank_option deadline_options[] = {
	{"soft-deadline", "time",
	 "Completion goal (deadline scheduler): finish the job by this "
	 "time; unlike --deadline the job keeps running when late. Same "
	 "formats as --deadline.",
	 1, DL_SPANK_SOFT_DEADLINE, opt_cb},
	{"task-profile", "cpu=N,mem=M,io=R",
	 "Resources one task uses (deadline scheduler): cpu count, mem "
	 "(e.g. 512M, 4G), io in MB/s; shuffle_cpu/shuffle_mem/shuffle_io "
	 "for a reduce array's shuffle.",
	 1, DL_SPANK_TASK_PROFILE, opt_cb},
	{"reduce-cost", "ratio",
	 "Expected reduce task length relative to a map task (0 < ratio "
	 "<= 1000; deadline scheduler).",
	 1, DL_SPANK_REDUCE_COST, opt_cb},
	{"max-delays", "n",
	 "Times a task may be deferred to wait for a preferred node "
	 "(0-1000; deadline scheduler).",
	 1, DL_SPANK_MAX_DELAYS, opt_cb},
	{"mr-reduces", "n",
	 "Reduce tasks that will follow this map array (set by "
	 "smapreduce; deadline scheduler).",
	 1, DL_SPANK_MR_REDUCES, opt_cb},
	{"input-nodes", "spec",
	 "Nodes holding each task's input, e.g. 0-3=n[1-2];4-7=n3 or a "
	 "file (a path with '/'); tasks prefer them (select/deadline).",
	 1, DL_SPANK_INPUT_NODES, opt_cb},
	SPANK_OPTIONS_TABLE_END};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();

	(void) ac;
	(void) av;
	if (!opts_ready) {
		dl_spank_opts_init(&opts);
		opts_ready = 1;
	}
	if (ctx != S_CTX_ALLOCATOR && ctx != S_CTX_LOCAL && ctx != S_CTX_REMOTE)
		return 0;
	for (struct spank_option *so = deadline_options; so->name; so++) {
		spank_err_t rc = spank_option_register(sp, so);

		if (rc != ESPANK_SUCCESS) {
			slurm_error("deadline: cannot register --%s: %s",
				    so->name, spank_strerror(rc));
			return -1;
		}
	}
	return 0;
}

/*
 * The submitting command's parsed options.  SPANK in 22.05 offers no item
 * for --deadline or --begin, but sbatch, salloc and srun each export their
 * global slurm_opt_t "opt" (the plugin is built against this exact Slurm,
 * so the layout matches).  The program is checked through its sub-option
 * pointer; anywhere else the cross checks are left to slurmctld
 * (job_submit/deadline).
 */
static const slurm_opt_t *submit_opts(spank_context_t ctx)
{
	const slurm_opt_t *o = dlsym(RTLD_DEFAULT, "opt");

	if (!o)
		return NULL;
	if (ctx == S_CTX_ALLOCATOR && (o->sbatch_opt || o->salloc_opt))
		return o;
	if (ctx == S_CTX_LOCAL && o->srun_opt)
		return o;
	return NULL;
}

static void warn_if_not_scheduled(void)
{
	slurm_conf_t *conf = slurm_conf_lock();
	const char *sched = conf ? conf->schedtype : NULL;

	if (sched && strcmp(sched, "sched/deadline"))
		slurm_info("deadline: SchedulerType is %s, not sched/deadline: "
			   "the deadline options are recorded but nothing acts "
			   "on them",
			   sched);
	slurm_conf_unlock();
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	spank_context_t ctx = spank_context();
	struct dl_spank_env env[DL_SPANK_OPT_COUNT];
	const slurm_opt_t *o;
	double hard = 0, begin = 0;
	char err[512], warn[256];
	int n, given = 0;

	(void) ac;
	(void) av;
	if ((ctx != S_CTX_ALLOCATOR && ctx != S_CTX_LOCAL) || !opts_ready)
		return 0;
	for (int i = 0; i < DL_SPANK_OPT_COUNT; i++)
		given += opts.given[i];
	if (!given)
		return 0;
	if (ctx == S_CTX_LOCAL && getenv("SLURM_JOB_ID")) {
		/* a step inside an existing job: the job's own values hold */
		slurm_verbose("deadline: options ignored for a job step");
		return 0;
	}
	if ((o = submit_opts(ctx))) {
		hard = (double) o->deadline;
		begin = (double) o->begin;
	} else {
		slurm_verbose("deadline: --deadline/--begin not visible here; "
			      "slurmctld checks them");
	}
	if (dl_spank_opts_check(&opts, (double) time(NULL), hard, begin, err,
				sizeof(err))) {
		slurm_error("%s", err);
		return -1;
	}
	if (dl_spank_opts_warning(&opts, o ? hard : -1, warn, sizeof(warn)))
		slurm_info("%s", warn);
	n = dl_spank_opts_env(&opts, env);
	if (n < 0) {
		slurm_error("deadline: option value too long");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (spank_job_control_setenv(sp, env[i].name, env[i].value,
					     1) != ESPANK_SUCCESS) {
			slurm_error("deadline: cannot pass %s to slurmctld",
				    env[i].name);
			return -1;
		}
		slurm_verbose("deadline: %s%s=%s", DL_ENV_PREFIX, env[i].name,
			      env[i].value);
	}
	warn_if_not_scheduled();
	return 0;
}
