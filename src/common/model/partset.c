/*
 * model/partset.c - a growing bitset of partition indices.
 */
#include "common/model/partset.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dl_partset_free(struct dl_partset *s)
{
	if (!s)
		return;
	free(s->w);
	s->w = NULL;
	s->nw = 0;
}

int dl_partset_add(struct dl_partset *s, uint32_t p)
{
	uint32_t word = p / 64;

	if (!s)
		return EINVAL;
	if (word >= s->nw) {
		uint64_t *w = realloc(s->w, ((size_t) word + 1) * sizeof(*w));

		if (!w)
			return ENOMEM;
		memset(w + s->nw, 0, (word + 1 - s->nw) * sizeof(*w));
		s->w = w;
		s->nw = word + 1;
	}
	s->w[word] |= UINT64_C(1) << (p % 64);
	return 0;
}

bool dl_partset_has(const struct dl_partset *s, uint32_t p)
{
	return s && p / 64 < s->nw && (s->w[p / 64] >> (p % 64)) & 1;
}

/* Words up to the last one with a partition in it. */
static uint32_t used_words(const struct dl_partset *s)
{
	uint32_t n = s ? s->nw : 0;

	while (n && !s->w[n - 1])
		n--;
	return n;
}

bool dl_partset_empty(const struct dl_partset *s)
{
	return !used_words(s);
}

uint32_t dl_partset_count(const struct dl_partset *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < used_words(s); i++)
		n += (uint32_t) __builtin_popcountll(s->w[i]);
	return n;
}

int dl_partset_cmp(const struct dl_partset *a, const struct dl_partset *b)
{
	uint32_t na = used_words(a), nb = used_words(b);

	if (na != nb)
		return na < nb ? -1 : 1;
	for (uint32_t i = na; i-- > 0;)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* Word by word, a missing word counting as empty (no scan for the used
 * length first: node classes compare every node's set each cycle). */
bool dl_partset_equal(const struct dl_partset *a, const struct dl_partset *b)
{
	uint32_t na = a ? a->nw : 0, nb = b ? b->nw : 0;
	uint32_t n = na > nb ? na : nb;

	for (uint32_t i = 0; i < n; i++)
		if ((i < na ? a->w[i] : 0) != (i < nb ? b->w[i] : 0))
			return false;
	return true;
}

int dl_partset_copy(struct dl_partset *dst, const struct dl_partset *src)
{
	uint32_t n = used_words(src);
	uint64_t *w = NULL;

	if (!dst)
		return EINVAL;
	if (n) {
		w = malloc(n * sizeof(*w));
		if (!w)
			return ENOMEM;
		memcpy(w, src->w, n * sizeof(*w));
	}
	free(dst->w);
	dst->w = w;
	dst->nw = n;
	return 0;
}

int dl_partset_from_mask(struct dl_partset *s, uint64_t mask)
{
	struct dl_partset m = {&mask, 1};

	return dl_partset_copy(s, &m);
}
