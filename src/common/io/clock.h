/*
 * io/clock.h - the monotonic clock of every duration the core, the
 * estimator daemon and the benchmarks measure (plan compute time, client
 * timeouts and back-off, idle connections).  Not wall time: it never jumps
 * with the system clock.
 */
#ifndef DL_CLOCK_H
#define DL_CLOCK_H

#include <stdint.h>

/* Microseconds of CLOCK_MONOTONIC. */
uint64_t dl_monotonic_us(void);
/* The same clock in seconds. */
double dl_monotonic_s(void);

#endif
