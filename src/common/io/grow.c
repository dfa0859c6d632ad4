/*
 * io/grow.c - room for one more element in a growable array.
 */
#include "common/io/grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int dl_grow(void *pitems, uint32_t n, uint32_t *cap, size_t size,
	    uint32_t first)
{
	void *items, *p;
	uint32_t nc;

	if (n < *cap)
		return 0;
	if (*cap > UINT32_MAX / 2 || !size)
		return ENOMEM;
	nc = *cap ? *cap * 2 : (first ? first : 1);
	if ((size_t) nc > SIZE_MAX / size)
		return ENOMEM;
	/* the caller's pointer is a T *: read and write it as bytes */
	memcpy(&items, pitems, sizeof(items));
	p = realloc(items, (size_t) nc * size);
	if (!p)
		return ENOMEM;
	memcpy(pitems, &p, sizeof(p));
	*cap = nc;
	return 0;
}
