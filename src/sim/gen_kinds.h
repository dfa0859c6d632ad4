/*
 * gen_kinds.h - the generators (gen_papers.c, gen_traces.c) and the option
 * helpers they share.
 */
#ifndef SIM_GEN_KINDS_H
#define SIM_GEN_KINDS_H

#include <stdbool.h>

#include "sim/gen.h"

#define GEN_USAGE_ERROR 1000 /* not an errno: the arguments are wrong */

#define GEN_REVERSE_USAGE                                                      \
	"--load L --max-factor F [--min-factor 1.5] [--days 7] [--nodes 100]"  \
	" [--task-length 390] [--size-mean 62] [--size-sd 15.5]"               \
	" [--forecast FILE] [--ext-peak 0.7] [--margin-days 1]"
#define GEN_SWIM_USAGE                                                         \
	"--trace FILE [--k K | --k-min A --k-max B] [--from S] [--to S]"       \
	" [--nodes 100] [--cpus 2] [--block-mb 128] [--reduce-mb 1024]"        \
	" [--max-reduces 100]"
#define GEN_GOOGLE_USAGE                                                       \
	"--task-events FILE[,FILE...] [--k K | --k-min A --k-max B]"           \
	" [--nodes 100] [--cpus 4] [--max-tasks 5000]"
#define GEN_ALIBABA_USAGE                                                      \
	"--trace FILE [--k K | --k-min A --k-max B] [--from S] [--to S]"       \
	" [--nodes 1300] [--cpus 16] [--max-tasks 2000]"
#define GEN_RUMEN_USAGE                                                        \
	"--trace FILE [--k K | --k-min A --k-max B] [--nodes 20]"              \
	" [--map-slots 2] [--reduce-slots 1]"

int gen_polo_a(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen);
int gen_polo_b(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen);
int gen_binned(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen);
/* The binned generator from a bins document in memory (dir resolves an
 * external load file of its cluster; NULL forbids files). */
int gen_binned_parse(const char *text, size_t len, const char *origin,
		     const char *dir, uint64_t seed, struct sim_cluster_spec *c,
		     struct sim_workload_spec *w, char *err, size_t errlen);
int gen_reverse(const struct gen_args *a, struct sim_cluster_spec *c,
		struct sim_workload_spec *w, char *err, size_t errlen);
int gen_swim(const struct gen_args *a, struct sim_cluster_spec *c,
	     struct sim_workload_spec *w, char *err, size_t errlen);
int gen_google2011(const struct gen_args *a, struct sim_cluster_spec *c,
		   struct sim_workload_spec *w, char *err, size_t errlen);
int gen_alibaba2017(const struct gen_args *a, struct sim_cluster_spec *c,
		    struct sim_workload_spec *w, char *err, size_t errlen);
int gen_rumen(const struct gen_args *a, struct sim_cluster_spec *c,
	      struct sim_workload_spec *w, char *err, size_t errlen);
#define GEN_SWF_USAGE                                                          \
	"--trace FILE [--k K | --k-min A --k-max B] [--from S] [--to S]"       \
	" [--nodes MaxNodes] [--cpus MaxProcs/MaxNodes] [--max-tasks 5000]"    \
	" [--time-limit requested|exact]"
int gen_swf(const struct gen_args *a, struct sim_cluster_spec *c,
	    struct sim_workload_spec *w, char *err, size_t errlen);
/* The SWF adapter on a log in memory (modified in place); nodes and cpus
 * 0 take the machine's size from the log's MaxNodes/MaxProcs header. */
struct gen_swf_opts {
	double from, to, klo, khi, max_tasks, nodes, cpus;
	bool exact_limits;  /* each job's run time as its limit, not the
			     * user's requested time */
	const char *origin; /* named in the description */
};
int gen_swf_parse(char *text, size_t len, const struct gen_swf_opts *o,
		  uint64_t seed, struct sim_cluster_spec *c,
		  struct sim_workload_spec *w, char *err, size_t errlen);
#define GEN_PHASED_USAGE                                                       \
	"[--hours 8] [--phase-hours 2] [--nodes 40] [--cpus 2]"                \
	" [--long-length 1200] [--short-length 60] [--urgent-gap 600]"         \
	" [--overload-jobs 12]"
int gen_phased(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen);

/* Option table of one generator: names with their value (NULL when the
 * option was not given).  Returns 0 or GEN_USAGE_ERROR with err set. */
struct gen_opt {
	const char *name;
	const char *value;
};
int gen_parse(const struct gen_args *a, struct gen_opt *opts, size_t n,
	      char *err, size_t errlen);
/* A number option in [lo, hi], def when absent. */
int gen_num(const struct gen_opt *o, double lo, double hi, double def,
	    double *out, char *err, size_t errlen);
/* Deadline factors: --k K, or --k-min/--k-max (uniform), default k. */
int gen_factors(const struct gen_opt *k, const struct gen_opt *kmin,
		const struct gen_opt *kmax, double def, double *lo, double *hi,
		char *err, size_t errlen);

/* Read a whole file, gunzipping it (through gzip -dc) when it ends in
 * .gz.  0 or errno with err set. */
int gen_read_input(const char *path, char **text, size_t *len, char *err,
		   size_t errlen);

#endif
