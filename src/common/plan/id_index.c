/*
 * id_index.c - sorted (id, index) pairs.
 */
#include "common/plan/id_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_pair(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

int dl_id_index_build(struct dl_id_index *x, struct dl_job *const *jobs,
		      uint32_t n)
{
	if (!x)
		return EINVAL;
	x->n = 0;
	x->pairs = malloc(((size_t) n * 4 + 2) * sizeof(uint64_t));
	if (!x->pairs)
		return ENOMEM;
	for (uint32_t i = 0; jobs && i < n; i++) {
		if (!jobs[i])
			continue;
		if (jobs[i]->id) {
			x->pairs[2 * x->n] = jobs[i]->id;
			x->pairs[2 * x->n++ + 1] = i;
		}
		if (jobs[i]->reduce_id && jobs[i]->reduce_id != jobs[i]->id) {
			x->pairs[2 * x->n] = jobs[i]->reduce_id;
			x->pairs[2 * x->n++ + 1] = i;
		}
	}
	qsort(x->pairs, x->n, 2 * sizeof(uint64_t), cmp_pair);
	return 0;
}

int64_t dl_id_index_find(const struct dl_id_index *x, uint64_t id)
{
	uint64_t key[2] = {id, 0};
	const uint64_t *hit;

	if (!x || !x->pairs || !id)
		return -1;
	hit = bsearch(key, x->pairs, x->n, 2 * sizeof(uint64_t), cmp_pair);
	return hit ? (int64_t) hit[1] : -1;
}

void dl_id_index_free(struct dl_id_index *x)
{
	if (!x)
		return;
	free(x->pairs);
	x->pairs = NULL;
	x->n = 0;
}
