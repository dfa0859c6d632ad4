/*
 * heap.h - a binary max-heap of item indexes ordered by a caller's
 * comparison, for the one-slot-at-a-time hand-outs of the policies.
 */
#ifndef DL_HEAP_H
#define DL_HEAP_H

#include <stdbool.h>
#include <stdint.h>

/* > 0 when item a should come out before item b */
typedef int (*dl_heap_before)(uint32_t a, uint32_t b, void *ctx);

struct dl_heap {
	uint32_t *items;
	uint32_t n, cap;
	dl_heap_before before;
	void *ctx;
};

int dl_heap_init(struct dl_heap *h, uint32_t cap, dl_heap_before before,
		 void *ctx);
void dl_heap_free(struct dl_heap *h);
/* Returns ENOMEM when full beyond the initial capacity and growth fails. */
int dl_heap_push(struct dl_heap *h, uint32_t item);
bool dl_heap_pop(struct dl_heap *h, uint32_t *item);
bool dl_heap_peek(const struct dl_heap *h, uint32_t *item);
/* The top item now comes out later than it did (its key fell): restore the
 * order in place, cheaper than a pop and a push. */
void dl_heap_update_top(struct dl_heap *h);

#endif
