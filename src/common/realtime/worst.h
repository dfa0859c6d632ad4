/*
 * realtime/worst.h - worst-case task lengths for realtime admission.
 *
 * Ours (doc/design.md §6): a high quantile of the task length of the same
 * (user, job name, phase) from the estimator, times (1 + RealtimeMargin),
 * never above the task's time limit (Slurm kills a task at its limit, so
 * the limit is a true worst case).  With fewer than DL_RT_MIN_SAMPLES
 * samples, or no history at all, the time limit itself is the worst case.
 * RealtimeTaskOverhead is added: the time from a slot freeing to the next
 * task running on it (Slurm's dispatch latency), which the measured
 * start-to-end lengths do not contain.
 *
 * The paper's (RTMR as published, doc/design.md §6): c^max, the largest
 * per-unit-of-data cost ever seen per phase, which only grows;
 * ε = c^max · size.  Kept for the simulator's side-by-side comparison.
 */
#ifndef DL_RT_WORST_H
#define DL_RT_WORST_H

#include <stdint.h>

/* Fewer samples than this: fall back to the time limit. */
#define DL_RT_MIN_SAMPLES 3

/* What the estimator's predict answers (seconds). */
struct dl_rt_quantiles {
	double p50, p90, p99, max;
	uint32_t n; /* samples behind the numbers */
};

/* Quantile q in [0.5, 1] by linear interpolation between p50 (0.5), p90
 * (0.9), p99 (0.99) and max (1.0), after making the points nondecreasing.
 * NAN for bad input (NULL, q outside [0.5, 1], a negative or non-finite
 * point). */
double dl_rt_quantile(const struct dl_rt_quantiles *qs, double q);

enum dl_rt_wc_source {
	DL_RT_WC_NONE = 0,   /* no history and no time limit: unknown */
	DL_RT_WC_QUANTILE,   /* quantile x (1 + margin) */
	DL_RT_WC_TIME_LIMIT, /* the task's time limit */
};

struct dl_rt_worst {
	double len;     /* worst-case length incl. overhead; NAN when unknown */
	double typical; /* p50 (for the feedback threshold); NAN if unknown */
	enum dl_rt_wc_source source;
};

/* Worst-case length of one task: min(quantile(q) * (1 + margin),
 * time_limit) + overhead, or time_limit + overhead without enough history
 * (qs may be NULL).  time_limit 0 = none.  Returns EINVAL for bad
 * parameters (q outside [0.5, 1], negative/NaN margin, limit or
 * overhead), else 0 (len NAN with source NONE when nothing bounds it). */
int dl_rt_worst_case(const struct dl_rt_quantiles *qs, double q, double margin,
		     double time_limit, double overhead,
		     struct dl_rt_worst *out);

const char *dl_rt_wc_source_name(enum dl_rt_wc_source s);

/* ---- RTMR as published: c^max per phase, only ever growing ---- */

struct dl_rt_cmax {
	double c[2]; /* per phase (DL_MAP, DL_REDUCE): seconds per unit */
};

/* Start with initial costs (the paper gives none; the caller chooses). */
int dl_rt_cmax_init(struct dl_rt_cmax *cm, double map_cost, double reduce_cost);
/* c = max(c, length / size) for a finished task of `size` data units. */
int dl_rt_cmax_observe(struct dl_rt_cmax *cm, int phase, double length,
		       double size);
/* ε = c^max * size (NAN for bad input). */
double dl_rt_cmax_worst(const struct dl_rt_cmax *cm, int phase, double size);

#endif
