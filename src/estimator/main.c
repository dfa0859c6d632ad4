/*
 * main.c - deadline-estimatord: task-length predictions for slurm-deadline
 * over newline-delimited JSON on a Unix socket (doc/protocol.md,
 * deadline-estimatord(8)).
 *
 *   deadline-estimatord [--foreground] [--config FILE] [--socket PATH]
 *                       [--db PATH]
 */
#include "dl_autoconf.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "common/io/atomic_file.h"
#include "common/io/log.h"
#include "estimator/est_config.h"
#include "estimator/handlers.h"
#include "estimator/server.h"
#include "estimator/store.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: deadline-estimatord [--foreground] [--config FILE] "
		"[--socket PATH] [--db PATH]\n"
		"  -D, --foreground   stay in the foreground, log to stderr\n"
		"  -f, --config FILE  configuration (default %s)\n"
		"  -s, --socket PATH  Unix socket (overrides Socket=)\n"
		"  -d, --db PATH      SQLite history (overrides Database=)\n"
		"  -h, --help         this text;  -V, --version\n"
		"Stops cleanly on SIGTERM; SIGHUP reloads ForecastFile.\n",
		EST_DEFAULT_CONFIG);
}

static void log_stderr(enum dl_log_level level, const char *msg)
{
	static const char *names[] = {"error", "info", "verbose", "debug"};
	struct timeval tv;
	struct tm tm;
	char ts[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(stderr, "[%s.%03ld] deadline-estimatord: %s: %s\n", ts,
		(long) (tv.tv_usec / 1000),
		(unsigned) level <= DL_LOG_DEBUG ? names[level] : "log", msg);
}

static void log_syslog(enum dl_log_level level, const char *msg)
{
	static const int prio[] = {LOG_ERR, LOG_INFO, LOG_INFO, LOG_DEBUG};

	syslog((unsigned) level <= DL_LOG_DEBUG ? prio[level] : LOG_INFO, "%s",
	       msg);
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Close every descriptor above stderr but keep. */
static void close_inherited(int keep)
{
	if ((keep <= 3 || !close_range(3, (unsigned) keep - 1, 0)) &&
	    !close_range((unsigned) (keep >= 3 ? keep + 1 : 3), ~0U, 0))
		return;
	/* a kernel without close_range (before 5.9): the usual range */
	for (int fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

/* Detach; the parent exits once the child reports through the pipe that
 * it is ready (0) or why it failed, so startup errors reach the caller. */
static int daemonize(int *report_fd)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		char buf[512];
		ssize_t n;
		size_t len = 0;

		close(p[1]);
		while (len < sizeof(buf) - 1 &&
		       (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
			len += (size_t) n;
		buf[len] = '\0';
		if (len == 2 && !strcmp(buf, "OK"))
			_exit(0);
		fprintf(stderr, "deadline-estimatord: %s\n",
			len ? buf : "failed to start");
		_exit(1);
	}
	close(p[0]);
	/* descriptors inherited from the caller (a shell pipeline, a test
	 * runner's output) would stay open as long as the daemon runs and
	 * keep the caller waiting for their end; nothing of ours is open yet
	 * but stdio and the report pipe */
	close_inherited(p[1]);
	if (setsid() < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0)
		_exit(0);
	/* the history (job names of every user) is the daemon's alone: the
	 * database and its WAL files are born 0600; the socket's mode is set
	 * explicitly (SocketMode) */
	umask(077);
	if (chdir("/") < 0)
		return -1;
	*report_fd = p[1];
	return 0;
}

static void report(int fd, const char *msg)
{
	if (fd < 0)
		return;
	if (write(fd, msg, strlen(msg)) < 0) {
		/* the parent is gone: nothing to tell */
	}
	close(fd);
}

static void detach_stdio(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{"foreground", no_argument, NULL, 'D'},
		{"config", required_argument, NULL, 'f'},
		{"socket", required_argument, NULL, 's'},
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *config = EST_DEFAULT_CONFIG, *sock = NULL, *db = NULL;
	bool foreground = false, config_given = false;
	struct est_config cfg;
	struct est_ctx ctx;
	struct store *store = NULL;
	struct dl_hist *hist = NULL;
	struct dl_forecast *fc = NULL;
	char err[512];
	int opt, unix_fd = -1, tcp_fd = -1, report_fd = -1, rc = 1;
	uint64_t loaded = 0;
	double t0;

	memset(&ctx, 0, sizeof(ctx));
	while ((opt = getopt_long(argc, argv, "Df:s:d:hV", lopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'D':
			foreground = true;
			break;
		case 'f':
			config = optarg;
			config_given = true;
			break;
		case 's':
			sock = optarg;
			break;
		case 'd':
			db = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("deadline-estimatord %s\n", VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"deadline-estimatord: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	est_config_defaults(&cfg);
	if (est_config_load(&cfg, config, config_given, err, sizeof(err))) {
		fprintf(stderr, "deadline-estimatord: %s\n", err);
		est_config_free(&cfg);
		return 1;
	}
	if (sock) {
		free(cfg.socket);
		cfg.socket = strdup(sock);
	}
	if (db) {
		free(cfg.database);
		cfg.database = strdup(db);
	}
	if (!cfg.socket || !cfg.database ||
	    est_config_finish(&cfg, err, sizeof(err))) {
		fprintf(stderr, "deadline-estimatord: %s\n",
			cfg.socket && cfg.database ? err : "out of memory");
		est_config_free(&cfg);
		return 1;
	}
	if (foreground) {
		dl_log_set_sink(log_stderr, cfg.log_level);
	} else {
		if (daemonize(&report_fd)) {
			fprintf(stderr,
				"deadline-estimatord: cannot detach: %s\n",
				strerror(errno));
			est_config_free(&cfg);
			return 1;
		}
		openlog("deadline-estimatord", LOG_PID, LOG_DAEMON);
		dl_log_set_sink(log_syslog, cfg.log_level);
	}
	if (server_block_signals()) {
		snprintf(err, sizeof(err), "signals: %s", strerror(errno));
		goto out;
	}

	t0 = wall_now();
	hist = dl_hist_new(&cfg.hist, err, sizeof(err));
	if (!hist)
		goto out;
	ctx.cfg = &cfg;
	ctx.hist = hist;
	ctx.now = wall_now;
	ctx.started = time(NULL);
	if (store_open(cfg.database, cfg.sync_full, cfg.hist.window, &store,
		       err, sizeof(err)))
		goto out;
	ctx.store = store;
	/* the calibration windows can only hold errors of the newest
	 * records: replaying 10 windows' worth of them is plenty */
	ctx.load_calibrate_from =
		store_count(store) > 10ull * cfg.hist.pred.calib_window
			? store_count(store) -
				  10ull * cfg.hist.pred.calib_window
			: 0;
	if (store_load(store, est_load_record, &ctx, &loaded, err, sizeof(err)))
		goto out;
	if (cfg.forecast_file[0] &&
	    dl_forecast_load(cfg.forecast_file, &fc, err, sizeof(err)))
		goto out;
	ctx.forecast = fc;
	unix_fd = server_listen_unix(cfg.socket, cfg.socket_mode,
				     cfg.socket_group, err, sizeof(err));
	if (unix_fd < 0)
		goto out;
	if (cfg.tcp_port) {
		tcp_fd = server_listen_tcp(cfg.tcp_port, err, sizeof(err));
		if (tcp_fd < 0)
			goto out;
	}
	if (cfg.pid_file[0]) {
		char pid[32];
		int n = snprintf(pid, sizeof(pid), "%ld\n", (long) getpid());
		int e = dl_atomic_write(cfg.pid_file, pid, (size_t) n, 0644);

		if (e) {
			snprintf(err, sizeof(err), "PidFile %s: %s",
				 cfg.pid_file, strerror(e));
			goto out;
		}
	}
	dl_log(DL_LOG_INFO,
	       "%s started: socket %s%s, database %s (%llu records loaded in "
	       "%.2f s), forecast %s",
	       VERSION, cfg.socket, tcp_fd >= 0 ? " + 127.0.0.1 TCP" : "",
	       cfg.database, (unsigned long long) loaded, wall_now() - t0,
	       fc ? cfg.forecast_file : "none");
	if (!foreground) {
		report(report_fd, "OK");
		report_fd = -1;
		detach_stdio();
	}
	rc = server_run(&ctx, unix_fd, tcp_fd) ? 1 : 0;
	dl_log(DL_LOG_INFO, "stopping");
	err[0] = '\0';
out:
	if (rc && err[0]) {
		if (report_fd >= 0)
			report(report_fd, err);
		else
			dl_log(DL_LOG_ERROR, "%s", err);
	}
	if (unix_fd >= 0) {
		close(unix_fd);
		server_unlink_unix(cfg.socket);
	}
	if (tcp_fd >= 0)
		close(tcp_fd);
	if (cfg.pid_file[0] && unix_fd >= 0)
		unlink(cfg.pid_file);
	store_close(store);
	dl_hist_free(hist);
	/* SIGHUP may have replaced the forecast the context points to */
	dl_forecast_free(ctx.forecast ? ctx.forecast : fc);
	est_config_free(&cfg);
	return rc;
}
