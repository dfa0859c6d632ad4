/*
 * io/timefmt.h - times and durations for people, as the commands print them
 * (sdeadline, smapreduce): Slurm's own ISO style for times, short
 * durations like "17m50s".
 */
#ifndef DL_TIMEFMT_H
#define DL_TIMEFMT_H

#include <stddef.h>

/* "15:42:10" when t falls on the same local day as now, else
 * "2026-11-23T15:42:10"; "-" for an unknown time (0, negative, NaN). */
void dl_format_time(double t, double now, char *buf, size_t len);
/* A time in a message (admission verdicts, holds, logs): the local
 * date-time "2026-11-23T15:42:10" for an epoch time, "t=40s" for a
 * simulated clock (below 1e9 s), "never" for an infinite or NaN one, the
 * number of seconds past the year 9999. */
void dl_format_instant(double t, char *buf, size_t len);
/* "45s", "17m50s", "2h03m", "3d04h"; "?" for a negative, NaN or absurd
 * value. */
void dl_format_duration(double seconds, char *buf, size_t len);
/* The rounded span of the plan's explanations: "45s" (under 2 minutes),
 * "17m" (under 2 hours), "2.5h"; negative spans keep their sign, an
 * infinite or NaN one is "never". */
void dl_format_span(double seconds, char *buf, size_t len);

#endif
