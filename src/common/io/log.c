/*
 * io/log.c - core logging through an installable sink.
 */
#include "common/io/log.h"

#include <stdarg.h>
#include <stdio.h>

static dl_log_sink current_sink;
static enum dl_log_level current_max = DL_LOG_INFO;

void dl_log_set_sink(dl_log_sink sink, enum dl_log_level max_level)
{
	current_sink = sink;
	current_max = max_level;
}

void dl_log(enum dl_log_level level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!current_sink || level > current_max)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	current_sink(level, msg);
}
