/*
 * smapreduce - submit a MapReduce job to Slurm: a map array and a reduce
 * array that depends on it (afterok), with one deadline, and optionally wait
 * for it with a progress line and a verdict.
 *
 * Both arrays are submitted by running sbatch, so every sbatch option,
 * #SBATCH line, cli_filter and SPANK plugin applies exactly as for a plain
 * submission.  Relative times ("now+1hour") are resolved once, here, so that
 * both arrays get the same deadline.  --wait reads task states with
 * libslurm (slurm_load_job) and the scheduler's prediction from
 * `sdeadline --json`, so it sees exactly what the user may see.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "dl_autoconf.h"

#include "common/model/job_hints.h"
#include "common/model/locality.h"
#include "common/model/model.h"
#include "mr_progress.h"

/* libslurm exports these (src/common/parse_time.c, bitstring.c) without a
 * public prototype. */
extern time_t slurm_parse_time(const char *time_str, int past);
extern int slurm_bit_test(bitstr_t *b, bitoff_t bit);
extern bitoff_t slurm_bit_size(bitstr_t *b);

#define PROG             "smapreduce"
#define EXIT_ERROR       1
#define EXIT_INTERRUPTED 130

struct options {
	long maps, reduces;
	const char *deadline_text, *soft_text;
	double deadline, soft; /* resolved, epoch seconds; 0 = none */
	const char *partition, *name;
	const char *map_profile, *reduce_profile;
	const char *reduce_cost, *max_delays, *map_input_nodes;
	const char **map_args, **reduce_args, **common_args;
	int n_map_args, n_reduce_args, n_common_args;
	const char *map_script, *reduce_script;
	bool parsable, wait, quiet, verbose;
	double interval;
};

static volatile sig_atomic_t interrupted;

static void error_msg(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void error_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG
		" [OPTIONS] MAP_SCRIPT [REDUCE_SCRIPT] [-- SBATCH_ARGS...]\n"
		"Submit a MapReduce job: a map array and a reduce array that "
		"starts\n"
		"after every map task succeeded (afterok), with one deadline.\n"
		"\n"
		"  -m, --maps=N              map tasks (array indexes 0..N-1)\n"
		"  -r, --reduces=N           reduce tasks; 0 submits a "
		"map-only job\n"
		"      --deadline=TIME       hard deadline (sbatch --deadline) "
		"of both arrays\n"
		"      --soft-deadline=TIME  completion goal; the job keeps "
		"running when late\n"
		"                            (TIME: any --deadline format, "
		"e.g. 16:00,\n"
		"                            now+2hours, 2025-06-01T08:00)\n"
		"  -p, --partition=NAME      partition of both arrays\n"
		"  -J, --job-name=NAME       job name of both arrays\n"
		"      --map-profile=P       --task-profile of the map tasks "
		"(cpu=..,mem=..,io=..)\n"
		"      --reduce-profile=P    --task-profile of the reduce "
		"tasks\n"
		"      --reduce-cost=X       reduce task length / map task "
		"length\n"
		"      --max-delays=N        deferrals of a map task for a "
		"preferred node\n"
		"      --map-input-nodes=SPEC  nodes holding each map task's "
		"input\n"
		"                            (0-3=n[1-2];4-7=n3, or a file: "
		"a path with '/')\n"
		"      --map-arg=ARG         one more sbatch argument for the "
		"map array\n"
		"      --reduce-arg=ARG      one more sbatch argument for the "
		"reduce array\n"
		"      --parsable            print only MAP_ID:REDUCE_ID\n"
		"  -W, --wait                wait for the job, show progress, "
		"end with a verdict\n"
		"      --interval=SECONDS    progress refresh with --wait "
		"(default 2)\n"
		"  -Q, --quiet               no messages but errors (and the "
		"verdict)\n"
		"  -v, --verbose             show the sbatch commands\n"
		"  -h, --help                this help\n"
		"  -V, --version             version\n"
		"\n"
		"Arguments after \"--\" go to sbatch for both arrays.\n"
		"Exit status: 0 submitted (with --wait: completed by its "
		"deadline),\n"
		"1 error, 2 completed after its deadline, 3 did not complete\n"
		"(a task failed or was cancelled), 130 interrupted.\n"
		"See smapreduce(1).\n");
}

static int parse_count(const char *opt, const char *text, long min, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min ||
	    v > (long) DL_MAX_TASKS) {
		error_msg("--%s=%s: expected a whole number from %ld to %u",
			  opt, text, min, DL_MAX_TASKS);
		return -1;
	}
	*out = v;
	return 0;
}

static int resolve_time(const char *opt, const char *text, double *out)
{
	time_t t = text[0] ? slurm_parse_time(text, 0) : 0;

	if (t <= 0) {
		error_msg("--%s=%s: not a time; use a --deadline format "
			  "(HH:MM[:SS], YYYY-MM-DD[THH:MM[:SS]], "
			  "now+N[minutes|hours|days], midnight, noon, ...)",
			  opt, text);
		return -1;
	}
	*out = (double) t;
	return 0;
}

static int check_script(const char *what, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		error_msg("%s script %s: %s", what, path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || access(path, R_OK)) {
		error_msg("%s script %s: not a readable file", what, path);
		return -1;
	}
	return 0;
}

/* sbatch options smapreduce sets itself; with getopt_long's unambiguous
 * prefixes (at least 3 characters) and the short forms. */
static const char *reserved_option(const char *arg)
{
	static const char *const longs[] = {
		"array",    "dependency",    "parsable",   "wait",      "wrap",
		"deadline", "soft-deadline", "mr-reduces", "test-only", NULL,
	};
	size_t n;

	if (arg[0] != '-')
		return NULL;
	if (arg[1] != '-') {
		if (arg[1] == 'a')
			return "array";
		if (arg[1] == 'd')
			return "dependency";
		if (arg[1] == 'W')
			return "wait";
		return NULL;
	}
	n = strcspn(arg + 2, "=");
	if (n < 3)
		return NULL;
	for (int i = 0; longs[i]; i++)
		if (n <= strlen(longs[i]) && !strncmp(arg + 2, longs[i], n))
			return longs[i];
	return NULL;
}

static int check_extra_args(const char *where, const char **args, int n)
{
	for (int i = 0; i < n; i++) {
		const char *r = reserved_option(args[i]);

		if (r) {
			error_msg("%s %s: smapreduce sets --%s itself%s", where,
				  args[i], r,
				  !strcmp(r, "deadline") ||
						  !strcmp(r, "soft-deadline")
					  ? " (use smapreduce's own option)"
					  : "");
			return -1;
		}
	}
	return 0;
}

static int push_arg(const char ***list, int *n, const char *arg)
{
	const char **l = realloc(*list, sizeof(*l) * (size_t) (*n + 1));

	if (!l) {
		error_msg("out of memory");
		return -1;
	}
	l[(*n)++] = arg;
	*list = l;
	return 0;
}

enum {
	OPT_DEADLINE = 256,
	OPT_SOFT,
	OPT_MAP_PROFILE,
	OPT_REDUCE_PROFILE,
	OPT_REDUCE_COST,
	OPT_MAX_DELAYS,
	OPT_MAP_INPUT_NODES,
	OPT_MAP_ARG,
	OPT_REDUCE_ARG,
	OPT_PARSABLE,
	OPT_INTERVAL,
};

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"maps", required_argument, NULL, 'm'},
		{"reduces", required_argument, NULL, 'r'},
		{"deadline", required_argument, NULL, OPT_DEADLINE},
		{"soft-deadline", required_argument, NULL, OPT_SOFT},
		{"partition", required_argument, NULL, 'p'},
		{"job-name", required_argument, NULL, 'J'},
		{"map-profile", required_argument, NULL, OPT_MAP_PROFILE},
		{"reduce-profile", required_argument, NULL, OPT_REDUCE_PROFILE},
		{"reduce-cost", required_argument, NULL, OPT_REDUCE_COST},
		{"max-delays", required_argument, NULL, OPT_MAX_DELAYS},
		{"map-input-nodes", required_argument, NULL,
		 OPT_MAP_INPUT_NODES},
		{"map-arg", required_argument, NULL, OPT_MAP_ARG},
		{"reduce-arg", required_argument, NULL, OPT_REDUCE_ARG},
		{"parsable", no_argument, NULL, OPT_PARSABLE},
		{"wait", no_argument, NULL, 'W'},
		{"interval", required_argument, NULL, OPT_INTERVAL},
		{"quiet", no_argument, NULL, 'Q'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	bool have_maps = false, have_reduces = false;
	char err[256];
	int c, npos;

	memset(o, 0, sizeof(*o));
	o->interval = 2;
	opterr = 0;
	/* '+': stop at the first script, like sbatch */
	while ((c = getopt_long(argc, argv, "+:m:r:p:J:WQvhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			if (parse_count("maps", optarg, 1, &o->maps))
				return -1;
			have_maps = true;
			break;
		case 'r':
			if (parse_count("reduces", optarg, 0, &o->reduces))
				return -1;
			have_reduces = true;
			break;
		case OPT_DEADLINE:
			o->deadline_text = optarg;
			break;
		case OPT_SOFT:
			o->soft_text = optarg;
			break;
		case 'p':
			o->partition = optarg;
			break;
		case 'J':
			o->name = optarg;
			break;
		case OPT_MAP_PROFILE:
		case OPT_REDUCE_PROFILE: {
			struct dl_job_hints h;

			dl_hints_init(&h);
			if (dl_hints_parse_profile(optarg, &h, err,
						   sizeof(err))) {
				error_msg("--%s=%s: %s",
					  c == OPT_MAP_PROFILE
						  ? "map-profile"
						  : "reduce-profile",
					  optarg, err);
				return -1;
			}
			if (c == OPT_MAP_PROFILE)
				o->map_profile = optarg;
			else
				o->reduce_profile = optarg;
			break;
		}
		case OPT_REDUCE_COST: {
			double v;

			if (dl_hints_parse_reduce_cost(optarg, &v, err,
						       sizeof(err))) {
				error_msg("--reduce-cost=%s: %s", optarg, err);
				return -1;
			}
			o->reduce_cost = optarg;
			break;
		}
		case OPT_MAX_DELAYS: {
			int32_t v;

			if (dl_hints_parse_max_delays(optarg, &v, err,
						      sizeof(err))) {
				error_msg("--max-delays=%s: %s", optarg, err);
				return -1;
			}
			o->max_delays = optarg;
			break;
		}
		case OPT_MAP_INPUT_NODES:
			/* a file (a path with '/') is read by sbatch's
			 * --input-nodes; a spec is checked here, before
			 * anything is submitted */
			if (!strchr(optarg, '/')) {
				char *norm = malloc(DL_LOCALITY_MAX_TEXT + 1);
				int rc;

				if (!norm) {
					error_msg("out of memory");
					return -1;
				}
				rc = dl_locality_normalise(
					optarg, norm, DL_LOCALITY_MAX_TEXT + 1,
					err, sizeof(err));
				free(norm);
				if (rc) {
					error_msg("--map-input-nodes=%.80s: %s",
						  optarg, err);
					return -1;
				}
			}
			o->map_input_nodes = optarg;
			break;
		case OPT_MAP_ARG:
			if (push_arg(&o->map_args, &o->n_map_args, optarg))
				return -1;
			break;
		case OPT_REDUCE_ARG:
			if (push_arg(&o->reduce_args, &o->n_reduce_args,
				     optarg))
				return -1;
			break;
		case OPT_PARSABLE:
			o->parsable = true;
			break;
		case 'W':
			o->wait = true;
			break;
		case OPT_INTERVAL: {
			char *end;

			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(o->interval >= 0.5 && o->interval <= 3600)) {
				error_msg("--interval=%s: expected seconds "
					  "from 0.5 to 3600",
					  optarg);
				return -1;
			}
			break;
		}
		case 'Q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf(PROG " %s (built for Slurm %d.%02d.%d)\n",
			       PACKAGE_VERSION,
			       SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			       SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			       SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
			exit(0);
		case ':':
			error_msg("option %s needs a value", argv[optind - 1]);
			return -1;
		default:
			if (optopt && optopt < 256)
				error_msg("unknown option -%c", optopt);
			else
				error_msg("unknown option %s",
					  argv[optind - 1]);
			fprintf(stderr, "Try \"" PROG " --help\".\n");
			return -1;
		}
	}
	/* scripts, then "--" and the sbatch arguments for both arrays */
	npos = 0;
	while (optind < argc && strcmp(argv[optind], "--")) {
		if (npos == 0)
			o->map_script = argv[optind];
		else if (npos == 1)
			o->reduce_script = argv[optind];
		npos++;
		optind++;
	}
	if (optind < argc) {
		optind++; /* "--" */
		o->common_args = (const char **) argv + optind;
		o->n_common_args = argc - optind;
	}
	if (!have_maps) {
		error_msg("give the number of map tasks with --maps=N");
		return -1;
	}
	if (!have_reduces) {
		error_msg("give the number of reduce tasks with --reduces=N (0 "
			  "for a map-only job)");
		return -1;
	}
	if (npos != (o->reduces ? 2 : 1)) {
		error_msg(o->reduces ? "give a map script and a reduce script"
				     : "a map-only job (--reduces=0) takes one "
				       "script");
		return -1;
	}
	if (!o->deadline_text && !o->soft_text) {
		error_msg("give --deadline=TIME or --soft-deadline=TIME "
			  "(without a deadline, use sbatch --array)");
		return -1;
	}
	if (!o->reduces && (o->reduce_profile || o->n_reduce_args)) {
		error_msg(
			"--reduce-profile and --reduce-arg need --reduces > 0");
		return -1;
	}
	return 0;
}

/* Resolve both times once and check them like the SPANK plugin will. */
static int resolve_deadlines(struct options *o)
{
	char err[256];

	if (o->deadline_text &&
	    resolve_time("deadline", o->deadline_text, &o->deadline))
		return -1;
	if (o->soft_text &&
	    resolve_time("soft-deadline", o->soft_text, &o->soft))
		return -1;
	if (o->deadline && o->deadline <= (double) time(NULL)) {
		error_msg("--deadline=%s is in the past", o->deadline_text);
		return -1;
	}
	if (o->soft &&
	    dl_hints_check_soft(o->soft, o->deadline, (double) time(NULL), err,
				sizeof(err))) {
		error_msg("--soft-deadline=%s: %s", o->soft_text, err);
		return -1;
	}
	return 0;
}

/* Compare with MaxArraySize before anything is submitted. */
static int check_array_size(const struct options *o)
{
	slurm_conf_t *conf = NULL;
	long max;

	if (slurm_load_ctl_conf((time_t) 0, &conf) || !conf)
		return 0; /* sbatch will report what is wrong */
	max = (long) conf->max_array_sz;
	slurm_free_ctl_conf(conf);
	if (o->maps > max || o->reduces > max) {
		error_msg("--%s=%ld: above this cluster's MaxArraySize=%ld",
			  o->maps > max ? "maps" : "reduces",
			  o->maps > max ? o->maps : o->reduces, max);
		return -1;
	}
	return 0;
}

struct argv_buf {
	char **v;
	int n, cap;
};

static int av_add(struct argv_buf *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int av_add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (a->n + 2 > a->cap) {
		int cap = a->cap ? a->cap * 2 : 32;
		char **v = realloc(a->v, sizeof(*v) * (size_t) cap);

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return -1;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

static void av_free(struct argv_buf *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static int build_sbatch(const struct options *o, bool map, uint64_t map_id,
			struct argv_buf *a)
{
	long tasks = map ? o->maps : o->reduces;
	const char *profile = map ? o->map_profile : o->reduce_profile;
	const char **extra = map ? o->map_args : o->reduce_args;
	int n_extra = map ? o->n_map_args : o->n_reduce_args;
	int rc = 0;

	rc |= av_add(a, "sbatch");
	rc |= av_add(a, "--parsable");
	rc |= av_add(a, "--array=0-%ld", tasks - 1);
	if (!map) {
		rc |= av_add(a, "--dependency=afterok:%llu",
			     (unsigned long long) map_id);
		/* a failed map makes the reduce array impossible: end it */
		rc |= av_add(a, "--kill-on-invalid-dep=yes");
	}
	if (o->name)
		rc |= av_add(a, "--job-name=%s", o->name);
	if (o->partition)
		rc |= av_add(a, "--partition=%s", o->partition);
	if (o->deadline)
		rc |= av_add(a, "--deadline=uts%.0f", o->deadline);
	if (o->soft)
		rc |= av_add(a, "--soft-deadline=uts%.0f", o->soft);
	if (profile)
		rc |= av_add(a, "--task-profile=%s", profile);
	if (o->reduce_cost)
		rc |= av_add(a, "--reduce-cost=%s", o->reduce_cost);
	if (map && o->max_delays)
		rc |= av_add(a, "--max-delays=%s", o->max_delays);
	if (map && o->map_input_nodes)
		rc |= av_add(a, "--input-nodes=%s", o->map_input_nodes);
	if (map && o->reduces)
		rc |= av_add(a, "--mr-reduces=%ld", o->reduces);
	for (int i = 0; i < o->n_common_args; i++)
		rc |= av_add(a, "%s", o->common_args[i]);
	for (int i = 0; i < n_extra; i++)
		rc |= av_add(a, "%s", extra[i]);
	rc |= av_add(a, "%s", map ? o->map_script : o->reduce_script);
	if (rc)
		error_msg("out of memory");
	return rc ? -1 : 0;
}

static void show_command(const struct argv_buf *a)
{
	fprintf(stderr, PROG ":");
	for (int i = 0; i < a->n; i++)
		fprintf(stderr, " %s", a->v[i]);
	fputc('\n', stderr);
}

/* Run argv, collecting its stdout (stderr goes to the user unless
 * mute_stderr).  Returns the exit status (127: could not run it, -1: could
 * not start) and the output in *out. */
static int run_capture(char *const argv[], bool mute_stderr, char **out)
{
	int fd[2], status;
	char buf[4096], *text = NULL;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	*out = NULL;
	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		if (mute_stderr && !freopen("/dev/null", "w", stderr))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, PROG ": error: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) != 0) {
		char *t;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (len > (1 << 20))
			continue; /* drain, keep the first MB */
		t = realloc(text, len + (size_t) n + 1);
		if (!t)
			break;
		text = t;
		memcpy(text + len, buf, (size_t) n);
		len += (size_t) n;
		text[len] = '\0';
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(text);
			return -1;
		}
	*out = text;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* sbatch --parsable prints "jobid" or "jobid;cluster". */
static int parse_job_id(const char *out, uint64_t *id)
{
	unsigned long long v;
	char *end;

	if (!out)
		return -1;
	errno = 0;
	v = strtoull(out, &end, 10);
	if (errno || end == out || !v || (*end && *end != ';' && *end != '\n'))
		return -1;
	*id = v;
	return 0;
}

static int submit(const struct options *o, bool map, uint64_t map_id,
		  uint64_t *id)
{
	struct argv_buf a = {0};
	char *out = NULL;
	int rc;

	if (build_sbatch(o, map, map_id, &a))
		return -1;
	if (o->verbose)
		show_command(&a);
	rc = run_capture(a.v, false, &out);
	if (rc == 0 && parse_job_id(out, id)) {
		error_msg("sbatch printed '%s' instead of a job id",
			  out ? out : "");
		rc = -1;
	}
	free(out);
	av_free(&a);
	return rc;
}

static int cancel_job(uint64_t id)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long) id);
	return slurm_kill_job2(text, SIGKILL, 0, NULL);
}

/* ---- --wait ---- */

static enum mr_task_state task_state(uint32_t job_state)
{
	switch (job_state & JOB_STATE_BASE) {
	case JOB_PENDING:
		return MR_TASK_PENDING;
	case JOB_RUNNING:
	case JOB_SUSPENDED:
		return MR_TASK_RUNNING;
	case JOB_COMPLETE:
		return MR_TASK_DONE;
	case JOB_CANCELLED:
		return MR_TASK_CANCELLED;
	case JOB_DEADLINE:
		return MR_TASK_DEADLINE;
	default:
		return MR_TASK_FAILED;
	}
}

/* Update p from slurmctld.  Returns 0, or the Slurm error number. */
static int poll_phase(struct mr_phase *p)
{
	job_info_msg_t *msg = NULL;

	if (!p->state || mr_phase_final(p))
		return 0;
	if (slurm_load_job(&msg, (uint32_t) p->job_id, SHOW_ALL)) {
		int e = errno;

		return e ? e : SLURM_ERROR;
	}
	for (uint32_t i = 0; msg && i < msg->record_count; i++) {
		slurm_job_info_t *j = &msg->job_array[i];
		enum mr_task_state s = task_state(j->job_state);

		if (j->array_job_id != p->job_id)
			continue;
		if (j->array_task_id != NO_VAL) {
			mr_phase_set(p, j->array_task_id, s,
				     (double) j->start_time,
				     (double) j->end_time);
		} else if (j->array_bitmap) {
			/* the array's not yet started (or never started)
			 * tasks share the meta record */
			bitoff_t n = slurm_bit_size(j->array_bitmap);

			for (bitoff_t b = 0; b < n && b < p->tasks; b++)
				if (slurm_bit_test(j->array_bitmap, b))
					mr_phase_set(p, (uint32_t) b, s, 0,
						     (double) j->end_time);
		}
	}
	slurm_free_job_info_msg(msg);
	return 0;
}

/* The plan's row for this job, through sdeadline (which applies the
 * site's access rules).  Returns 0 and fills pred, or -1 with a reason. */
static int predict(const struct mr_phase *map, const struct mr_phase *red,
		   struct mr_prediction *pred, char *why, size_t whylen)
{
	char id[32], *out = NULL;
	char *argv[] = {"sdeadline", "--json", "--job", id, NULL};
	struct json_object *root = NULL, *jobs;
	int rc;

	memset(pred, 0, sizeof(*pred));
	snprintf(id, sizeof(id), "%llu", (unsigned long long) map->job_id);
	rc = run_capture(argv, true, &out);
	if (rc) {
		if (rc == 127)
			snprintf(why, whylen, "sdeadline not found in PATH");
		else
			snprintf(why, whylen,
				 "sdeadline --job %s failed with status %d; "
				 "run it to see why",
				 id, rc);
		free(out);
		return -1;
	}
	root = out ? json_tokener_parse(out) : NULL;
	free(out);
	if (!root || !json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		snprintf(why, whylen, "sdeadline --json gave no job list");
		json_object_put(root);
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *row = json_object_array_get_idx(jobs, i);
		struct json_object *v;
		uint64_t jid = 0, rid = 0;

		if (json_object_object_get_ex(row, "job_id", &v))
			jid = (uint64_t) json_object_get_int64(v);
		if (json_object_object_get_ex(row, "reduce_id", &v))
			rid = (uint64_t) json_object_get_int64(v);
		if (jid != map->job_id && !(red && rid && rid == red->job_id))
			continue;
		if (json_object_object_get_ex(row, "predicted_finish", &v))
			pred->finish = json_object_get_double(v);
		if (json_object_object_get_ex(row, "finish_err", &v))
			pred->err = json_object_get_double(v);
		if (json_object_object_get_ex(row, "verdict", &v))
			snprintf(pred->verdict, sizeof(pred->verdict), "%s",
				 json_object_get_string(v));
		pred->valid = true;
		break;
	}
	json_object_put(root);
	if (!pred->valid) {
		snprintf(why, whylen,
			 "the deadline scheduler has no plan for job %s yet",
			 id);
		return -1;
	}
	return 0;
}

static void on_signal(int sig)
{
	(void) sig;
	interrupted = 1;
}

static void sleep_interruptible(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t) seconds,
		.tv_nsec =
			(long) ((seconds - (double) (time_t) seconds) * 1e9)};

	while (!interrupted && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int wait_for_job(const struct options *o, uint64_t map_id,
			uint64_t reduce_id)
{
	struct mr_phase map, red;
	struct mr_prediction pred = {0};
	bool tty = isatty(STDERR_FILENO), said_no_pred = false;
	char line[512], last[512] = "", why[256];
	int lost[2] = {0, 0}, rc = EXIT_ERROR, comm_errors = 0;
	enum mr_outcome out;
	struct sigaction sa;
	char ids[64];

	if (reduce_id)
		snprintf(ids, sizeof(ids), "%llu %llu",
			 (unsigned long long) map_id,
			 (unsigned long long) reduce_id);
	else
		snprintf(ids, sizeof(ids), "%llu", (unsigned long long) map_id);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (mr_phase_init(&map, map_id, (uint32_t) o->maps) ||
	    mr_phase_init(&red, reduce_id, (uint32_t) o->reduces)) {
		error_msg("out of memory");
		return EXIT_ERROR;
	}
	for (;;) {
		struct mr_phase *phases[2] = {&map, &red};
		double now = (double) time(NULL);
		bool comm_ok = true;

		for (int i = 0; i < 2; i++) {
			int e = poll_phase(phases[i]);

			if (!e) {
				lost[i] = 0;
			} else if (e == ESLURM_INVALID_JOB_ID) {
				if (++lost[i] >= 3) {
					if (tty && !o->quiet)
						fputc('\n', stderr);
					error_msg("job %llu is no longer known "
						  "to Slurm before smapreduce "
						  "saw it end",
						  (unsigned long long) phases[i]
							  ->job_id);
					goto out;
				}
			} else {
				comm_ok = false;
				if (comm_errors++ % 10 == 0)
					error_msg("cannot read job %llu: %s; "
						  "retrying",
						  (unsigned long long) phases[i]
							  ->job_id,
						  slurm_strerror(e));
			}
		}
		if (comm_ok)
			comm_errors = 0;
		out = mr_verdict(&map, &red, o->soft, o->deadline, now, line,
				 sizeof(line));
		if (out != MR_OUTCOME_RUNNING) {
			char final[512];

			/* the final counts, then the verdict */
			mr_render_progress(
				final, sizeof(final), &map, &red, NULL,
				o->soft ? o->soft : o->deadline, now, 10);
			if (!o->quiet && tty)
				fprintf(stderr, "\r%s\033[K\n", final);
			else if (!o->quiet && strcmp(final, last))
				fprintf(stderr, "%s\n", final);
			fflush(stderr);
			printf("%s\n", line);
			rc = (int) out;
			goto out;
		}
		if (!o->quiet) {
			if (predict(&map, &red, &pred, why, sizeof(why)) &&
			    !said_no_pred) {
				fprintf(stderr,
					PROG ": no prediction yet (%s)\n", why);
				said_no_pred = true;
			}
			mr_render_progress(
				line, sizeof(line), &map, &red, &pred,
				o->soft ? o->soft : o->deadline, now, 10);
			if (tty) {
				fprintf(stderr, "\r%s\033[K", line);
				fflush(stderr);
				snprintf(last, sizeof(last), "%s", line);
			} else if (strcmp(line, last)) {
				fprintf(stderr, "%s\n", line);
				snprintf(last, sizeof(last), "%s", line);
			}
		}
		sleep_interruptible(o->interval);
		if (interrupted) {
			if (tty && !o->quiet && last[0])
				fputc('\n', stderr);
			fprintf(stderr,
				PROG ": interrupted; the job keeps running (to "
				     "stop it: scancel %s)\n",
				ids);
			rc = EXIT_INTERRUPTED;
			goto out;
		}
	}
out:
	mr_phase_free(&map);
	mr_phase_free(&red);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	uint64_t map_id = 0, reduce_id = 0;
	int rc = EXIT_ERROR;

	if (parse_args(argc, argv, &o))
		goto done;
	if (check_script("map", o.map_script) ||
	    (o.reduces && check_script("reduce", o.reduce_script)) ||
	    check_extra_args("--map-arg", o.map_args, o.n_map_args) ||
	    check_extra_args("--reduce-arg", o.reduce_args, o.n_reduce_args) ||
	    check_extra_args("sbatch argument", o.common_args, o.n_common_args))
		goto done;
	if (resolve_deadlines(&o))
		goto done;
	slurm_init(NULL);
	if (check_array_size(&o))
		goto done;
	/* SBATCH_WAIT would make the map submission block until it ends */
	unsetenv("SBATCH_WAIT");
	if (submit(&o, true, 0, &map_id)) {
		error_msg("map array not submitted; nothing was submitted");
		goto done;
	}
	if (o.reduces && submit(&o, false, map_id, &reduce_id)) {
		if (cancel_job(map_id))
			error_msg("reduce array not submitted, and cancelling "
				  "map array %llu failed: %s; cancel it with: "
				  "scancel %llu",
				  (unsigned long long) map_id,
				  slurm_strerror(errno),
				  (unsigned long long) map_id);
		else
			error_msg("reduce array not submitted; cancelled map "
				  "array %llu",
				  (unsigned long long) map_id);
		goto done;
	}
	if (o.parsable) {
		if (reduce_id)
			printf("%llu:%llu\n", (unsigned long long) map_id,
			       (unsigned long long) reduce_id);
		else
			printf("%llu\n", (unsigned long long) map_id);
	} else if (!o.quiet) {
		printf("Submitted map array %llu (%ld tasks)\n",
		       (unsigned long long) map_id, o.maps);
		if (reduce_id)
			printf("Submitted reduce array %llu (%ld tasks, after "
			       "map array %llu succeeds)\n",
			       (unsigned long long) reduce_id, o.reduces,
			       (unsigned long long) map_id);
	}
	fflush(stdout);
	rc = o.wait ? wait_for_job(&o, map_id, reduce_id) : 0;
done:
	free(o.map_args);
	free(o.reduce_args);
	return rc;
}
