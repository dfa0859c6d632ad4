/*
 * policy/fair.c - max-min fair split (see fair.h).
 */
#include "common/policy/fair.h"

#include <errno.h>
#include <stdlib.h>

static int demand_cmp(const void *a, const void *b)
{
	double x = **(const double *const *) a, y = **(const double *const *) b;

	return (x > y) - (x < y);
}

int dl_fair_split(double *demand, uint32_t n, double total)
{
	double **by, left = total > 0 ? total : 0;

	if (!n)
		return 0;
	if (!demand)
		return EINVAL;
	if (!(by = malloc(n * sizeof(*by))))
		return ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		if (!(demand[k] > 0)) /* NaN or negative: asks for nothing */
			demand[k] = 0;
		by[k] = &demand[k];
	}
	qsort(by, n, sizeof(*by), demand_cmp);
	/* smallest first: a demand within an equal part of what is left is
	 * met whole, and what it leaves raises the part of the others */
	for (uint32_t k = 0; k < n; k++) {
		double part = left / (double) (n - k);

		if (*by[k] > part)
			*by[k] = part;
		left -= *by[k];
	}
	free(by);
	return 0;
}
