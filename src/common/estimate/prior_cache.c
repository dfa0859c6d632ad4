/*
 * estimate/prior_cache.c - the estimator's last answers, kept for the
 * cycles it does not answer in.  A sorted array: one cycle replaces it
 * whole with the entries of its own queries, found by binary search.
 */
#include <stdlib.h>

#include "common/estimate/prior_cache.h"

struct prior_entry {
	struct dl_prior_key key;
	struct dl_prediction pred;
	uint32_t order; /* position in the cycle's queries: the first wins */
};

struct dl_prior_cache {
	struct prior_entry *entries; /* sorted by key, no key twice */
	uint32_t n;
};

static int key_cmp(const struct dl_prior_key *a, const struct dl_prior_key *b)
{
	if (a->job_id != b->job_id)
		return a->job_id < b->job_id ? -1 : 1;
	return (a->phase > b->phase) - (a->phase < b->phase);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct prior_entry *x = a, *y = b;

	return key_cmp(&x->key, &y->key);
}

/* for the sort of a new cycle: a key given twice, the first given first */
static int entry_order_cmp(const void *a, const void *b)
{
	const struct prior_entry *x = a, *y = b;
	int k = key_cmp(&x->key, &y->key);

	if (k)
		return k;
	return (x->order > y->order) - (x->order < y->order);
}

static const struct prior_entry *find(const struct dl_prior_cache *c,
				      const struct dl_prior_key *k)
{
	struct prior_entry probe = {.key = *k};

	if (!c->n)
		return NULL;
	return bsearch(&probe, c->entries, c->n, sizeof(*c->entries),
		       entry_cmp);
}

struct dl_prior_cache *dl_prior_cache_new(void)
{
	return calloc(1, sizeof(struct dl_prior_cache));
}

void dl_prior_cache_free(struct dl_prior_cache *c)
{
	if (!c)
		return;
	free(c->entries);
	free(c);
}

int64_t dl_prior_cache_cycle(struct dl_prior_cache *c,
			     const struct dl_prior_key *keys,
			     struct dl_prediction *pred, bool *answered,
			     uint32_t n)
{
	struct prior_entry *next;
	uint32_t kept = 0, out = 0;
	int64_t filled = 0;
	bool asked;

	if (!c)
		return 0;
	asked = n && keys && pred && answered;
	next = asked ? calloc(n, sizeof(*next)) : NULL;
	if (!next) {
		/* nothing asked, or no memory: nothing kept */
		free(c->entries);
		c->entries = NULL;
		c->n = 0;
		return asked ? -1 : 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct prior_entry *old;

		if (answered[i]) {
			next[kept++] =
				(struct prior_entry){keys[i], pred[i], i};
			continue;
		}
		old = find(c, &keys[i]);
		if (!old)
			continue;
		pred[i] = old->pred;
		answered[i] = true;
		filled++;
		next[kept] = *old;
		next[kept++].order = i;
	}
	qsort(next, kept, sizeof(*next), entry_order_cmp);
	for (uint32_t i = 0; i < kept; i++)
		if (!out || key_cmp(&next[out - 1].key, &next[i].key))
			next[out++] = next[i];
	free(c->entries);
	c->entries = next;
	c->n = out;
	return filled;
}

uint32_t dl_prior_cache_size(const struct dl_prior_cache *c)
{
	return c ? c->n : 0;
}
