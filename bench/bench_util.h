/*
 * bench_util.h - what the benchmarks share: a seeded random sequence (the
 * same for a seed on every machine) and the core's monotonic clock in
 * microseconds.  Sorting of samples is the core's dl_sort_doubles().
 */
#ifndef DL_BENCH_UTIL_H
#define DL_BENCH_UTIL_H

#include <stdint.h>

#include "common/io/clock.h"

static uint64_t bench_rng_state = 1;

static inline void bench_seed(uint64_t seed)
{
	bench_rng_state = seed ? seed : 1;
}

/* Uniform in [0, 1): xorshift64*. */
static inline double bench_urand(void)
{
	bench_rng_state ^= bench_rng_state >> 12;
	bench_rng_state ^= bench_rng_state << 25;
	bench_rng_state ^= bench_rng_state >> 27;
	return (double) ((bench_rng_state * 2685821657736338717ull) >> 11) /
	       (double) (1ull << 53);
}

/* Microseconds of CLOCK_MONOTONIC (the core's clock). */
static inline double bench_now_us(void)
{
	return (double) dl_monotonic_us();
}

#endif
