/*
 * rng.h - deterministic random numbers for the simulator and its
 * generators: xoshiro256** seeded through splitmix64, plus independent
 * streams derived from (seed, stream ids) so that a job's task lengths do
 * not depend on the order in which a policy happens to look at jobs.
 */
#ifndef DL_SIMULATE_RNG_H
#define DL_SIMULATE_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
};

/* A generator for the stream (seed, a, b, c): equal arguments give equal
 * sequences on every platform. */
void sim_rng_init(struct sim_rng *r, uint64_t seed, uint64_t a, uint64_t b,
		  uint64_t c);
uint64_t sim_rng_next(struct sim_rng *r);
/* Uniform in [0, 1). */
double sim_rng_unit(struct sim_rng *r);
/* Uniform in [lo, hi). */
double sim_rng_uniform(struct sim_rng *r, double lo, double hi);
/* Uniform integer in [lo, hi] (inclusive). */
int64_t sim_rng_int(struct sim_rng *r, int64_t lo, int64_t hi);
/* Exponential with the given mean. */
double sim_rng_exp(struct sim_rng *r, double mean);
/* Standard normal (Box-Muller, one value per call). */
double sim_rng_normal(struct sim_rng *r);
/* Lognormal with the given mean and standard deviation of the variable
 * itself (not of its logarithm). */
double sim_rng_lognormal(struct sim_rng *r, double mean, double sd);
/* A hash of (seed, a, b, c, d) mapped to [0, 1): one-off decisions that must
 * not consume a stream (e.g. whether a task reads remotely on a node). */
double sim_hash_unit(uint64_t seed, uint64_t a, uint64_t b, uint64_t c,
		     uint64_t d);

#endif
