/*
 * heap.c - binary heap of indexes.
 */
#include "common/policy/heap.h"

#include <errno.h>
#include <stdlib.h>

int dl_heap_init(struct dl_heap *h, uint32_t cap, dl_heap_before before,
		 void *ctx)
{
	if (!h || !before)
		return EINVAL;
	h->n = 0;
	h->cap = cap ? cap : 16;
	h->before = before;
	h->ctx = ctx;
	h->items = malloc(h->cap * sizeof(*h->items));
	return h->items ? 0 : ENOMEM;
}

void dl_heap_free(struct dl_heap *h)
{
	if (!h)
		return;
	free(h->items);
	h->items = NULL;
	h->n = h->cap = 0;
}

static void swap(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;

	*a = *b;
	*b = t;
}

int dl_heap_push(struct dl_heap *h, uint32_t item)
{
	uint32_t i;

	if (h->n == h->cap) {
		uint32_t cap = h->cap * 2;
		uint32_t *p = realloc(h->items, cap * sizeof(*p));

		if (!p)
			return ENOMEM;
		h->items = p;
		h->cap = cap;
	}
	i = h->n++;
	h->items[i] = item;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (h->before(h->items[i], h->items[parent], h->ctx) <= 0)
			break;
		swap(&h->items[i], &h->items[parent]);
		i = parent;
	}
	return 0;
}

bool dl_heap_peek(const struct dl_heap *h, uint32_t *item)
{
	if (!h || !h->n)
		return false;
	*item = h->items[0];
	return true;
}

/* Moves item i down until no child comes out before it. */
static void sift_down(struct dl_heap *h, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, best = i;

		if (l < h->n &&
		    h->before(h->items[l], h->items[best], h->ctx) > 0)
			best = l;
		if (r < h->n &&
		    h->before(h->items[r], h->items[best], h->ctx) > 0)
			best = r;
		if (best == i)
			break;
		swap(&h->items[i], &h->items[best]);
		i = best;
	}
}

bool dl_heap_pop(struct dl_heap *h, uint32_t *item)
{
	if (!h || !h->n)
		return false;
	*item = h->items[0];
	h->items[0] = h->items[--h->n];
	sift_down(h, 0);
	return true;
}

void dl_heap_update_top(struct dl_heap *h)
{
	if (h && h->n > 1)
		sift_down(h, 0);
}
