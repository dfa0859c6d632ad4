/*
 * dist.h - task-length distributions of the simulator's workloads: a
 * constant, uniform, exponential, normal, lognormal or empirical (sampled
 * from given values) length, clamped to [min, max], optionally with a
 * straggler mixture (a share of tasks takes `factor` times longer).
 */
#ifndef DL_SIMULATE_DIST_H
#define DL_SIMULATE_DIST_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "common/simulate/rng.h"

enum sim_dist_kind {
	SIM_DIST_CONST = 0,
	SIM_DIST_UNIFORM,
	SIM_DIST_EXP,
	SIM_DIST_NORMAL,
	SIM_DIST_LOGNORMAL,
	SIM_DIST_EMPIRICAL,
};

struct sim_dist {
	enum sim_dist_kind kind;
	double a, b;     /* const: a; uniform: [a, b); exp: mean a;
			  * normal, lognormal: mean a, sd b */
	double min, max; /* clamp of every sample */
	double *values;  /* empirical */
	uint32_t nvalues;
	double straggler_prob;
	double straggler_factor;
};

/* Smallest length a task may have (seconds): a task takes some time. */
#define SIM_MIN_LENGTH 0.001

void sim_dist_const(struct sim_dist *d, double value);
double sim_dist_sample(const struct sim_dist *d, struct sim_rng *r);
/* Mean of the (unclamped) distribution including stragglers. */
double sim_dist_mean(const struct sim_dist *d);
/* Quantile q in (0, 1) of the distribution without stragglers, clamped. */
double sim_dist_quantile(const struct sim_dist *d, double q);
/* Deep copy; 0 or ENOMEM. */
int sim_dist_copy(struct sim_dist *dst, const struct sim_dist *src);
void sim_dist_free(struct sim_dist *d);

/* Parse a distribution: a number (constant) or an object
 * {"dist": "const|uniform|exponential|normal|lognormal|empirical",
 *  "value"|"mean"|"sd"|"min"|"max"|"values", "straggler": {"prob", "factor"}}.
 * `path` names the value in messages.  Returns 0 or EINVAL with err set. */
int sim_dist_parse(json_object *o, const char *path, struct sim_dist *d,
		   char *err, size_t errlen);
/* The same as JSON (new reference), or NULL when out of memory. */
json_object *sim_dist_to_json(const struct sim_dist *d);

/* Standard normal quantile (Acklam's rational approximation, |error| <
 * 1.2e-9); q outside (0, 1) gives -inf/+inf. */
double sim_normal_quantile(double q);

#endif
