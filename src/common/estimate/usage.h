/*
 * usage.h - the resource profile a finished task leaves for the estimator
 * (doc/estimator.md "Profiles (RAS)", doc/ras-reverse.md "Learned
 * profiles"): cpu in CPUs, mem in MB, io in MB/s, each NaN when unknown,
 * and which source it came from.
 *
 * The order of the sources: what job accounting measured, else the
 * --task-profile hint the user declared, else what the job requested from
 * Slurm.  The plugin copies Slurm's fields into dl_usage_in; every unit
 * conversion and every choice is here.
 */
#ifndef DL_USAGE_H
#define DL_USAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/model.h"

enum dl_usage_source {
	DL_USAGE_NONE = 0,      /* the record carries no usage */
	DL_USAGE_MEASURED = 1,  /* job accounting (jobacct_gather) */
	DL_USAGE_DECLARED = 2,  /* the task's --task-profile hint */
	DL_USAGE_REQUESTED = 3, /* allocated CPUs, requested memory */
};
#define DL_USAGE_SOURCES 4

/* Upper bounds of plausible values (those of the observe protocol): a
 * larger value is a unit or overflow error and is dropped (NaN). */
#define DL_USAGE_MAX_CPU 1e6  /* CPUs */
#define DL_USAGE_MAX_MEM 1e12 /* MB */
#define DL_USAGE_MAX_IO  1e12 /* MB/s */

/* What is known about one finished task.  Doubles are NaN when absent. */
struct dl_usage_in {
	double elapsed; /* s (end - start) */
	/* measured: false when accounting gathered nothing for the task */
	bool has_measured;
	double cpu_seconds; /* user + system CPU time */
	double max_rss;     /* bytes, peak resident set */
	double io_bytes;    /* bytes read + written (TRES fs/disk) */
	/* declared: the --task-profile hint for the task's own phase */
	bool has_declared;
	struct dl_demand declared; /* CPUs, MB, MB/s; 0 = not given */
	/* requested */
	uint32_t alloc_cpus; /* CPUs allocated to the task, 0 = unknown */
	uint32_t nodes;      /* nodes of the task, 0 = unknown (1) */
	uint64_t mem;        /* requested memory in MB, 0 = none */
	bool mem_per_cpu;    /* mem is per allocated CPU (--mem-per-cpu) */
};

/* The task's profile: out gets cpu, mem, io (NaN = unknown) and *src the
 * first source that gives at least one number.  Returns 0, ENODATA when no
 * source gives any (out all NaN, *src DL_USAGE_NONE), EINVAL for NULL
 * arguments. */
int dl_usage_profile(const struct dl_usage_in *in, struct dl_demand *out,
		     enum dl_usage_source *src);

/* "measured", "declared", "requested" ("none" for DL_USAGE_NONE). */
const char *dl_usage_source_name(enum dl_usage_source src);
/* The inverse for the three named sources: 0, or EINVAL. */
int dl_usage_source_parse(const char *name, enum dl_usage_source *src);

#endif
