/*
 * sdeadline - show the decisions of sched/deadline: one row per deadline
 * job (a MapReduce pair or a lone array) with its user, phase, policy,
 * deadline, predicted finish and its uncertainty, tasks done/running/
 * pending, allocation, need, where the task-length estimate came from, the
 * verdict and the plan's one-sentence explanation.  --json for scripts,
 * --job/--user to select rows, --watch to follow the plan.
 *
 * The plan file is the one sched/deadline publishes each cycle: --plan FILE,
 * else $SDEADLINE_PLAN, else PlanFile= in deadline.conf next to slurm.conf,
 * else StateSaveLocation/deadline_plan.json as slurmctld reports it.  Who may
 * see which rows: plan_access.h.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "dl_autoconf.h"

#include "common/plan/plan.h"
#include "plan_access.h"
#include "sdl_view.h"

#define PROG "sdeadline"

struct options {
	bool json;
	bool long_view;
	bool no_header;
	char *format; /* --format */
	char *plan;   /* --plan or $SDEADLINE_PLAN */
	double watch; /* seconds; 0 = once */
	struct sdl_filter filter;
};

static volatile sig_atomic_t stop;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [OPTIONS]\n"
		"Show the deadline jobs of the current sched/deadline plan.\n"
		"\n"
		"  -j, --job=ID[,ID...]    only these jobs (map or reduce "
		"array ids)\n"
		"  -u, --user=NAME[,NAME]  only jobs of these users\n"
		"  -l, --long              more fields, the whole explanation "
		"wrapped\n"
		"                          below each row\n"
		"  -o, --format=FORMAT     fields to show: \"%%i %%u %%.8v "
		"%%x\" (squeue -o\n"
		"                          style) or \"jobid,user,verdict:8\";"
		" see sdeadline(1)\n"
		"      --noheader          rows only\n"
		"      --json              the rows as JSON\n"
		"      --watch[=SECONDS]   redraw every SECONDS (default 2) "
		"until\n"
		"                          interrupted; with --json one line "
		"per plan\n"
		"      --plan=FILE         read this plan file instead of the "
		"published one\n"
		"  -h, --help              this help\n"
		"  -V, --version           version\n"
		"\n"
		"Exit status: 0 shown, 1 no plan or Slurm not reachable, 2 "
		"usage error.\n"
		"See sdeadline(1).\n");
}

static void on_signal(int sig)
{
	(void) sig;
	stop = 1;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_JSON = 256, OPT_WATCH, OPT_PLAN, OPT_NOHEADER };
	static const struct option longopts[] = {
		{"job", required_argument, NULL, 'j'},
		{"jobs", required_argument, NULL, 'j'},
		{"user", required_argument, NULL, 'u'},
		{"json", no_argument, NULL, OPT_JSON},
		{"long", no_argument, NULL, 'l'},
		{"format", required_argument, NULL, 'o'},
		{"noheader", no_argument, NULL, OPT_NOHEADER},
		{"watch", optional_argument, NULL, OPT_WATCH},
		{"plan", required_argument, NULL, OPT_PLAN},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	char err[256], *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:u:lo:hV", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'j':
			if (sdl_filter_add_jobs(&o->filter, optarg, err,
						sizeof(err))) {
				fprintf(stderr, PROG ": --job=%s: %s\n", optarg,
					err);
				return 2;
			}
			break;
		case 'u':
			if (sdl_filter_add_users(&o->filter, optarg, err,
						 sizeof(err))) {
				fprintf(stderr, PROG ": --user=%s: %s\n",
					optarg, err);
				return 2;
			}
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'l':
			o->long_view = true;
			break;
		case OPT_NOHEADER:
			o->no_header = true;
			break;
		case 'o':
			if (sdl_check_format(optarg, err, sizeof(err))) {
				fprintf(stderr, PROG ": --format=%s: %s\n",
					optarg, err);
				return 2;
			}
			free(o->format);
			o->format = strdup(optarg);
			break;
		case OPT_WATCH:
			o->watch = 2;
			if (optarg) {
				errno = 0;
				o->watch = strtod(optarg, &end);
				if (errno || end == optarg || *end ||
				    !(o->watch >= 1 && o->watch <= 3600)) {
					fprintf(stderr,
						PROG ": --watch=%s: expected "
						     "seconds from 1 to 3600\n",
						optarg);
					return 2;
				}
			}
			break;
		case OPT_PLAN:
			if (!*optarg) {
				fprintf(stderr, PROG ": --plan needs a file\n");
				return 2;
			}
			free(o->plan);
			o->plan = strdup(optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf(PROG " %s\n", PACKAGE_VERSION);
			exit(0);
		case ':':
			fprintf(stderr, PROG ": option %s needs a value\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, PROG ": unknown option %s\n",
				argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!o->plan && getenv("SDEADLINE_PLAN") && *getenv("SDEADLINE_PLAN"))
		o->plan = strdup(getenv("SDEADLINE_PLAN"));
	return 0;
}

static bool utf8_terminal(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

/* The terminal's width: the window, else $COLUMNS, else 80. */
static size_t terminal_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	long c;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	c = env ? strtol(env, NULL, 10) : 0;
	return c > 0 && c < 10000 ? (size_t) c : 80;
}

/* One look at the plan: read it, restrict it, print it.  Returns the exit
 * status. */
static int show(struct options *o, struct sdl_access *a, const char *path,
		bool configured, bool utf8, bool tty)
{
	struct dl_plan *plan;
	struct sdl_view view = {0};
	bool filtered;
	char err[512];
	double now = (double) time(NULL), stale;
	int rc = 0;

	plan = sdl_read_plan(a, path, configured, &filtered, err, sizeof(err));
	if (!plan) {
		fprintf(stderr,
			PROG
			": no plan to show: %s\n" PROG
			": (is slurmctld running SchedulerType=sched/deadline? "
			"see \"Access to the plan\" in sdeadline(1))\n",
			err);
		return 1;
	}
	if (filtered) {
		uint64_t *ids;
		size_t n;

		/* PrivateData: rows of the jobs slurmctld shows the caller */
		if (sdl_visible_jobs(&ids, &n, err, sizeof(err))) {
			fprintf(stderr, PROG ": %s\n", err);
			dl_plan_free(plan);
			return 1;
		}
		sdl_filter_set_visible(&o->filter, ids, n);
	} else {
		o->filter.restrict_visible = false;
	}
	if (o->json) {
		struct json_object *j = sdl_json(plan, &o->filter);

		if (!j) {
			fprintf(stderr, PROG ": out of memory\n");
			rc = 1;
		} else {
			puts(json_object_to_json_string_ext(
				j, (o->watch ? JSON_C_TO_STRING_PLAIN
					     : JSON_C_TO_STRING_PRETTY) |
					   JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(j);
		}
	} else {
		if (o->watch && tty)
			fputs("\033[H\033[2J", stdout);
		else if (o->watch)
			putchar('\n');
		/* stale: well past the plan interval */
		stale = 5 * a->cfg.plan_interval;
		if (stale < 60)
			stale = 60;
		view.format = o->format;
		view.long_view = o->long_view;
		view.no_header = o->no_header;
		view.utf8 = utf8;
		view.columns = tty ? terminal_columns() : 0;
		view.stale_after = stale;
		sdl_print(stdout, plan, &o->filter, now, &view);
		if (o->filter.njobs && !sdl_count_selected(plan, &o->filter))
			fprintf(stderr, PROG
				": no such job in the plan (not a deadline "
				"job, not yet planned, or not yours)\n");
	}
	fflush(stdout);
	dl_plan_free(plan);
	return rc;
}

static void sleep_interruptible(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t) seconds;
	ts.tv_nsec = (long) ((seconds - (double) ts.tv_sec) * 1e9);
	while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct options o = {0};
	struct sdl_access a;
	char *path = NULL, err[512];
	bool configured = false, utf8, tty;
	int rc;

	/* before anything else: give up the setgid group until needed */
	sdl_access_init(&a);
	sdl_filter_init(&o.filter);
	rc = parse_args(argc, argv, &o);
	if (rc)
		goto out;
	utf8 = utf8_terminal();
	tty = isatty(STDOUT_FILENO);
	if (o.plan) {
		path = o.plan;
		o.plan = NULL;
	} else {
		path = sdl_plan_path(&a, err, sizeof(err));
		configured = true;
		if (!path) {
			fprintf(stderr, PROG ": %s\n", err);
			rc = 1;
			goto out;
		}
	}
	if (!o.watch) {
		rc = show(&o, &a, path, configured, utf8, tty);
		sdl_access_drop(&a);
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop) {
		show(&o, &a, path, configured, utf8, tty);
		sleep_interruptible(o.watch);
	}
	rc = 0;
out:
	free(path);
	free(o.plan);
	free(o.format);
	sdl_filter_free(&o.filter);
	sdl_access_fini(&a);
	return rc;
}
