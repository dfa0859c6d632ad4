/*
 * rng.c - xoshiro256** (Blackman and Vigna) with splitmix64 seeding.
 */
#include "common/simulate/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void sim_rng_init(struct sim_rng *r, uint64_t seed, uint64_t a, uint64_t b,
		  uint64_t c)
{
	uint64_t x = seed;

	/* fold the stream ids in, each through a full mixing round */
	x = splitmix64(&x) ^ a;
	x = splitmix64(&x) ^ b;
	x = splitmix64(&x) ^ c;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1; /* the all-zero state is a fixed point */
}

uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double sim_rng_unit(struct sim_rng *r)
{
	return (double) (sim_rng_next(r) >> 11) * 0x1.0p-53;
}

double sim_rng_uniform(struct sim_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * sim_rng_unit(r);
}

int64_t sim_rng_int(struct sim_rng *r, int64_t lo, int64_t hi)
{
	uint64_t span;

	if (hi <= lo)
		return lo;
	span = (uint64_t) (hi - lo) + 1;
	if (!span) /* the whole 64-bit range */
		return (int64_t) sim_rng_next(r);
	/* rejection sampling: no modulo bias */
	uint64_t limit = UINT64_MAX - UINT64_MAX % span, x;

	do
		x = sim_rng_next(r);
	while (x >= limit);
	return lo + (int64_t) (x % span);
}

double sim_rng_exp(struct sim_rng *r, double mean)
{
	/* 1 - u lies in (0, 1]: log never sees 0 */
	return -mean * log(1.0 - sim_rng_unit(r));
}

double sim_rng_normal(struct sim_rng *r)
{
	double u1 = 1.0 - sim_rng_unit(r), u2 = sim_rng_unit(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double sim_rng_lognormal(struct sim_rng *r, double mean, double sd)
{
	double s2, mu;

	if (!(mean > 0))
		return 0;
	if (!(sd > 0))
		return mean;
	s2 = log(1.0 + (sd * sd) / (mean * mean));
	mu = log(mean) - s2 / 2;
	return exp(mu + sqrt(s2) * sim_rng_normal(r));
}

double sim_hash_unit(uint64_t seed, uint64_t a, uint64_t b, uint64_t c,
		     uint64_t d)
{
	uint64_t x = seed;

	x = splitmix64(&x) ^ a;
	x = splitmix64(&x) ^ b;
	x = splitmix64(&x) ^ c;
	x = splitmix64(&x) ^ d;
	return (double) (splitmix64(&x) >> 11) * 0x1.0p-53;
}
