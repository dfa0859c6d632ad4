/*
 * estimate/prior_cache.h - the estimator's last answer for each phase the
 * plan asks about, kept across plan cycles.  A cycle in which the estimator
 * does not answer (slow, down, busy, a bad reply) plans every phase that
 * had a prior with that prior, not with nothing: a job planned for one
 * cycle without its task length can look hopeless and lose the CPUs it was
 * given (doc/estimator.md).
 */
#ifndef DL_PRIOR_CACHE_H
#define DL_PRIOR_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/estimate/predictor.h"

struct dl_prior_cache;

/* One phase the cycle asks about: the plan's job id and the phase. */
struct dl_prior_key {
	uint64_t job_id;
	int phase;
};

struct dl_prior_cache *dl_prior_cache_new(void);
void dl_prior_cache_free(struct dl_prior_cache *c);

/* One cycle's n queries.  For each i, answered[i] says whether pred[i] is
 * the estimator's answer of this cycle; it is then remembered.  Otherwise
 * the answer of an earlier cycle, when there is one, is written to pred[i]
 * and answered[i] set.  Only the phases of this call are kept, so the cache
 * never holds more than the phases still asked about (a phase that has
 * completed tasks, or a job that ended, is dropped).  A key given twice
 * keeps its first answer.  Returns how many answers came from the cache,
 * or -1 when memory ran out (then the cache is emptied and nothing is
 * filled in). */
int64_t dl_prior_cache_cycle(struct dl_prior_cache *c,
			     const struct dl_prior_key *keys,
			     struct dl_prediction *pred, bool *answered,
			     uint32_t n);

/* How many phases the cache holds. */
uint32_t dl_prior_cache_size(const struct dl_prior_cache *c);

#endif
