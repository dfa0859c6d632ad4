/*
 * id_index.h - job id -> position lookups for a plan cycle's jobs: a sorted
 * array of (id, index) pairs, built once per cycle, searched in O(log n).
 * Map and reduce ids both point at the job.
 */
#ifndef DL_ID_INDEX_H
#define DL_ID_INDEX_H

#include <stdint.h>

#include "common/model/model.h"

struct dl_id_index {
	uint64_t *pairs; /* id, index, id, index, ... sorted by id */
	uint32_t n;
};

/* Index the map and reduce ids of jobs[0..n-1] (NULL entries skipped).
 * 0 or ENOMEM. */
int dl_id_index_build(struct dl_id_index *x, struct dl_job *const *jobs,
		      uint32_t n);
/* Index of the job with this map or reduce id; -1 if none (or id 0). */
int64_t dl_id_index_find(const struct dl_id_index *x, uint64_t id);
void dl_id_index_free(struct dl_id_index *x);

#endif
