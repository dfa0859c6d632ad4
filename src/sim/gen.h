/*
 * gen.h - workload generators for the papers' experiments and adapters
 * for the real traces.  Each writes a workload (and, when asked, the
 * cluster the experiment used) as the simulator's JSON inputs.
 */
#ifndef SIM_GEN_H
#define SIM_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "sim/spec.h"

struct gen_args {
	uint64_t seed;
	int argc; /* the generator's own options */
	char **argv;
};

/* A generator fills the cluster and workload specs; returns 0, or an errno
 * with err set (2 = usage: err holds the usage text). */
typedef int (*gen_fn)(const struct gen_args *a, struct sim_cluster_spec *c,
		      struct sim_workload_spec *w, char *err, size_t errlen);

struct gen_kind {
	const char *name;
	const char *usage;
	gen_fn fn;
};

size_t gen_count(void);
const struct gen_kind *gen_at(size_t i);
const struct gen_kind *gen_find(const char *name);

/* Helpers for the generators (gen_util.c). */
int gen_cluster_uniform(struct sim_cluster_spec *c, uint32_t nodes,
			uint32_t cpus, char *err, size_t errlen);
int gen_cluster_typed(struct sim_cluster_spec *c, const uint32_t *count,
		      const uint32_t *map_slots, const uint32_t *reduce_slots,
		      const double *speed, uint32_t groups, char *err,
		      size_t errlen);
struct sim_job_spec *gen_add_job(struct sim_workload_spec *w, uint32_t *cap,
				 const char *name);

#endif
