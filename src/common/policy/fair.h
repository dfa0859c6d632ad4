/*
 * policy/fair.h - max-min fair split (water-filling): what the Fair
 * baseline gives each job of a partition, and what triage's jobs of
 * unknown length get of the blocking reserve.
 */
#ifndef DL_POLICY_FAIR_H
#define DL_POLICY_FAIR_H

#include <stdint.h>

/* Max-min fair split of `total` (below 0: 0) among n demands, in place:
 * each demand no larger than an equal part of what the smaller ones leave
 * is met whole, the larger ones get that equal part.  A demand NaN or
 * below 0 asks for nothing.  0 (also for n = 0), EINVAL for no demand
 * array, or ENOMEM (demand untouched then). */
int dl_fair_split(double *demand, uint32_t n, double total);

#endif
