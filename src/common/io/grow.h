/*
 * io/grow.h - room for one more element in a growable array, the idiom
 * every list of the core used to write out (capacity doubling from a first
 * size, realloc, the old array kept on failure).
 */
#ifndef DL_GROW_H
#define DL_GROW_H

#include <stddef.h>
#include <stdint.h>

/* pitems is the address of the array pointer (T **), n its count and *cap
 * its capacity in elements of size bytes.  When n has reached *cap the
 * capacity doubles (first when it was 0) and the array is reallocated.
 * Returns 0, or ENOMEM with the array and *cap unchanged (also when the
 * new size would not fit). */
int dl_grow(void *pitems, uint32_t n, uint32_t *cap, size_t size,
	    uint32_t first);

#endif
