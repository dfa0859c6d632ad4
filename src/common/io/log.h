/*
 * io/log.h - logging from the core through a sink the host installs:
 * the plugins route it to Slurm's log (info/verbose/debug), the daemons and
 * tools to stderr or syslog.  Without a sink nothing is printed.
 */
#ifndef DL_LOG_H
#define DL_LOG_H

enum dl_log_level {
	DL_LOG_ERROR = 0,
	DL_LOG_INFO = 1,
	DL_LOG_VERBOSE = 2,
	DL_LOG_DEBUG = 3,
};

typedef void (*dl_log_sink)(enum dl_log_level level, const char *msg);

void dl_log_set_sink(dl_log_sink sink, enum dl_log_level max_level);
void dl_log(enum dl_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
