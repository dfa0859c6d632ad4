/*
 * seeds.h - one policy run over several seeds (deadline-sim --seeds): the
 * mean and sample standard deviation of each summary figure, as a table
 * and as JSON.
 */
#ifndef SIM_SEEDS_H
#define SIM_SEEDS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/output.h"

enum sim_seed_fig {
	SIM_FIG_MET,
	SIM_FIG_MISSED,
	SIM_FIG_MISSED_PCT,
	SIM_FIG_SUCCESS,
	SIM_FIG_ACCEPT,
	SIM_FIG_UTIL,
	SIM_FIG_MAKESPAN,
	SIM_FIG_LATENESS,
	SIM_FIG_UNFINISHED,
	SIM_FIG_COUNT
};

/* The figures' names in the table and the JSON (summary JSON's names). */
extern const char *const sim_seed_fig_names[SIM_FIG_COUNT];

struct sim_seed_stats {
	char policy[32];
	uint32_t runs; /* seeds added */
	/* per figure (Welford): values that were defined, mean, sum of
	 * squared deviations */
	uint32_t n[SIM_FIG_COUNT];
	double mean[SIM_FIG_COUNT], m2[SIM_FIG_COUNT];
};

void sim_seed_stats_init(struct sim_seed_stats *s, const char *policy);
/* Add one seed's summary; a figure that is NaN in it (undefined) is left
 * out of that figure's mean. */
void sim_seed_stats_add(struct sim_seed_stats *s, const struct sim_summary *r);
/* Add one value of one figure (the oracle row has only some). */
void sim_seed_stats_add_fig(struct sim_seed_stats *s, enum sim_seed_fig f,
			    double v);
/* NaN when no value was defined */
double sim_seed_stats_mean(const struct sim_seed_stats *s, enum sim_seed_fig f);
/* Sample standard deviation (n - 1); 0 for one value, NaN for none. */
double sim_seed_stats_sd(const struct sim_seed_stats *s, enum sim_seed_fig f);

/* policy, seeds, then "mean±sd" per figure ("-" where undefined); tsv:
 * tab-separated columns FIG_mean, FIG_sd. */
void sim_seed_stats_print(FILE *f, const struct sim_seed_stats *rows, size_t n,
			  bool tsv);
/* {"policy":..,"seeds":[..],"mean":{fig:..},"sd":{fig:..}} (null where
 * undefined); NULL when out of memory. */
json_object *sim_seed_stats_to_json(const struct sim_seed_stats *s,
				    const uint64_t *seeds, size_t nseeds);

/* --seeds: "N" (N seeds from first: first, first+1, ...) or a list
 * "3,7,11".  At most 10000.  *seeds is malloc'd.  0 or EINVAL with a
 * message. */
int sim_parse_seeds(const char *arg, uint64_t first, uint64_t **seeds,
		    size_t *n, char *err, size_t errlen);

#endif
