/*
 * io/timefmt.c - times and durations for people.
 */
#include "common/io/timefmt.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

void dl_format_time(double t, double now, char *buf, size_t len)
{
	time_t tt, tn;
	struct tm tm, tmn;

	if (!buf || !len)
		return;
	if (!isfinite(t) || t <= 0 || t > 253402300799.0) {
		snprintf(buf, len, "-");
		return;
	}
	tt = (time_t) t;
	if (!localtime_r(&tt, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	tn = isfinite(now) && now > 0 && now < 253402300799.0 ? (time_t) now
							      : 0;
	if (tn && localtime_r(&tn, &tmn) && tm.tm_year == tmn.tm_year &&
	    tm.tm_yday == tmn.tm_yday)
		strftime(buf, len, "%H:%M:%S", &tm);
	else
		strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

void dl_format_instant(double t, char *buf, size_t len)
{
	struct tm tm;
	time_t tt;

	if (!buf || !len)
		return;
	if (!isfinite(t)) {
		snprintf(buf, len, "never");
		return;
	}
	if (t < 1e9) {
		snprintf(buf, len, "t=%.0fs", t);
		return;
	}
	if (t > 253402300799.0) { /* past 9999: no calendar date */
		snprintf(buf, len, "%.0f", t);
		return;
	}
	tt = (time_t) t;
	if (!localtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "%.0f", t);
}

void dl_format_duration(double seconds, char *buf, size_t len)
{
	long s;

	if (!buf || !len)
		return;
	if (!isfinite(seconds) || seconds < 0 || seconds > 1e12) {
		snprintf(buf, len, "?");
		return;
	}
	s = lround(seconds);
	if (s < 60)
		snprintf(buf, len, "%lds", s);
	else if (s < 3600)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
	else
		snprintf(buf, len, "%ldd%02ldh", s / 86400, (s % 86400) / 3600);
}

/* What snprintf "%.0f<unit>" writes for |v| < 1000 (rint rounds as printf
 * does, ties to even, and keeps the sign of -0): every plan formats two
 * spans per job, and snprintf's floating-point path was a twentieth of a
 * plan cycle at 1,000 arrays. */
static void format_small(double v, char unit, char *buf, size_t len)
{
	char tmp[8];
	size_t n = 0, i = 0;
	double r = rint(v);
	unsigned u = (unsigned) fabs(r);

	if (signbit(r))
		tmp[n++] = '-';
	if (u >= 100)
		tmp[n++] = (char) ('0' + u / 100);
	if (u >= 10)
		tmp[n++] = (char) ('0' + u / 10 % 10);
	tmp[n++] = (char) ('0' + u % 10);
	tmp[n++] = unit;
	for (; i < n && i + 1 < len; i++)
		buf[i] = tmp[i];
	buf[i] = '\0';
}

void dl_format_span(double seconds, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	if (!isfinite(seconds))
		snprintf(buf, len, "never");
	else if (fabs(seconds) < 120)
		format_small(seconds, 's', buf, len);
	else if (fabs(seconds) < 7200)
		format_small(seconds / 60, 'm', buf, len);
	else
		snprintf(buf, len, "%.1fh", seconds / 3600);
}
