/*
 * io/clock.c - the monotonic clock.
 */
#include "common/io/clock.h"

#include <time.h>

uint64_t dl_monotonic_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000;
}

double dl_monotonic_s(void)
{
	return (double) dl_monotonic_us() / 1e6;
}
