/*
 * compare/baseline.h - comparison policies of the simulator that throttle
 * deadline jobs: Fair (equal share) and ARIA-style minimum slots with EDF.
 * They produce the same plan as the project's policies (rank + target
 * concurrency per job), so the simulator applies them through the same
 * decisions as every policy.  (FIFO and Slurm as shipped are the
 * simulator's model of Slurm without a plan; EDF is Policy=edf.)
 *
 * Neither is selectable in deadline.conf: they exist to be measured
 * against.
 */
#ifndef DL_POLICY_BASELINE_H
#define DL_POLICY_BASELINE_H

#include <stdbool.h>

#include "common/policy/input.h"

enum dl_baseline {
	DL_BASE_FAIR = 0, /* max-min equal share per partition (Fair) */
	DL_BASE_ARIA,     /* ARIA minimum slots, EDF order, leftover shared */
	DL_BASE_COUNT
};

const char *dl_baseline_name(enum dl_baseline b);
/* -1 if unknown (case-insensitive) */
int dl_baseline_from_name(const char *name);

/* The plan of baseline b for the input (same contract as
 * dl_policy_plan()).  Every job with tasks left is managed and ranked;
 * `alloc` is the throttle: its share for Fair, its minimum slots plus
 * leftover for ARIA. */
struct dl_plan *dl_baseline_plan(enum dl_baseline b,
				 const struct dl_policy_input *in, char *err,
				 size_t errlen);

/* ARIA's minimum slots (Verma et al., ICAC 2011) with the bounds-average
 * completion model: for remaining map work A (task-seconds, mean task mu_m,
 * longest lam_m) and reduce work B (mu_r, lam_r), the phase times are
 * (A - mu_m/2)/S_M + (B - mu_r/2)/S_R + (lam_m + lam_r)/2; the smallest
 * S_M + S_R that fits the time `avail` is
 *   S_M = (a + sqrt(a b)) / D,  S_R = (b + sqrt(a b)) / D
 * with a = A - mu_m/2, b = B - mu_r/2, D = avail - (lam_m + lam_r)/2.
 * Returns 0 and the two slot counts (not rounded); ERANGE when D <= 0
 * (no allocation meets the deadline); EINVAL for NaN/negative inputs.
 * Pass B = 0 for a map-only job or a job in its reduce phase (then the
 * reduce work goes in A). */
int dl_aria_min_slots(double A, double mu_m, double lam_m, double B,
		      double mu_r, double lam_r, double avail, double *s_map,
		      double *s_red);

#endif
