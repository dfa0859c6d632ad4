/*
 * log_sink.c - the core's log lines (dl_log) through Slurm's own log
 * functions, prefixed with the plugin's name.  Compiled into each plugin
 * that installs it; the core's sink is one per process, the last plugin to
 * install it names the lines.
 */
#include "slurm/slurm.h"
#include "src/common/log.h"

#include "sched_deadline.h"

static const char *sink_prefix = "slurm-deadline";

static void _sink(enum dl_log_level level, const char *msg)
{
	switch (level) {
	case DL_LOG_ERROR:
		error("%s: %s", sink_prefix, msg);
		break;
	case DL_LOG_INFO:
		info("%s: %s", sink_prefix, msg);
		break;
	case DL_LOG_VERBOSE:
		verbose("%s: %s", sink_prefix, msg);
		break;
	default:
		debug("%s: %s", sink_prefix, msg);
	}
}

extern void sdl_log_to_slurm(const char *prefix, enum dl_log_level min)
{
	sink_prefix = prefix ? prefix : "slurm-deadline";
	dl_log_set_sink(_sink, min);
}
