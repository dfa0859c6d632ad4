/*
 * usage.c - a finished task's resource profile from what Slurm knows.
 */
#include "common/estimate/usage.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const char *const source_names[DL_USAGE_SOURCES] = {
	"none", "measured", "declared", "requested"};

/* v if it is a finite number in [0, max], else NaN */
static double bounded(double v, double max)
{
	return isfinite(v) && v >= 0 && v <= max ? v : NAN;
}

static bool any_known(const struct dl_demand *d)
{
	return !isnan(d->cpu) || !isnan(d->mem) || !isnan(d->io);
}

/* Rates need a positive elapsed time; a task measured as running 0 s has
 * no rate (and its peak RSS alone is still a measurement). */
static struct dl_demand measured(const struct dl_usage_in *in)
{
	bool rate = isfinite(in->elapsed) && in->elapsed > 0;
	struct dl_demand d = {NAN, NAN, NAN};

	/* Slurm reports an accounting record that gathered nothing as zeros:
	 * all three zero is no measurement, not an idle task */
	if (in->cpu_seconds == 0 && in->max_rss == 0 &&
	    (in->io_bytes == 0 || isnan(in->io_bytes)))
		return d;
	if (rate && isfinite(in->cpu_seconds) && in->cpu_seconds >= 0)
		d.cpu = bounded(in->cpu_seconds / in->elapsed,
				DL_USAGE_MAX_CPU);
	/* Slurm's MB are MiB (--mem=1G is 1024 MB) */
	if (isfinite(in->max_rss) && in->max_rss >= 0)
		d.mem = bounded(in->max_rss / 1048576.0, DL_USAGE_MAX_MEM);
	/* disk throughput in MB/s of 10^6 bytes, as NodeIO */
	if (rate && isfinite(in->io_bytes) && in->io_bytes >= 0)
		d.io = bounded(in->io_bytes / in->elapsed / 1e6,
			       DL_USAGE_MAX_IO);
	return d;
}

/* The hint as the plan used it: a cpu share is required by the option
 * (cpu > 0); mem left out (0) means "the request", so it is unknown here;
 * io left out (0) means no I/O, which the plan assumed. */
static struct dl_demand declared(const struct dl_usage_in *in)
{
	struct dl_demand d = {NAN, NAN, NAN};
	const struct dl_demand *h = &in->declared;

	if (!(isfinite(h->cpu) && h->cpu > 0))
		return d; /* not a hint the option accepts */
	d.cpu = bounded(h->cpu, DL_USAGE_MAX_CPU);
	d.mem = h->mem > 0 ? bounded(h->mem, DL_USAGE_MAX_MEM) : NAN;
	d.io = bounded(h->io, DL_USAGE_MAX_IO);
	return d;
}

/* One task per node in the RAS model: the profile is per node. */
static struct dl_demand requested(const struct dl_usage_in *in)
{
	struct dl_demand d = {NAN, NAN, NAN};
	double nodes = in->nodes ? in->nodes : 1;
	double cpus = in->alloc_cpus ? in->alloc_cpus / nodes : NAN;

	d.cpu = bounded(cpus, DL_USAGE_MAX_CPU);
	if (in->mem && !in->mem_per_cpu)
		d.mem = bounded((double) in->mem, DL_USAGE_MAX_MEM);
	else if (in->mem && !isnan(cpus))
		d.mem = bounded((double) in->mem * cpus, DL_USAGE_MAX_MEM);
	/* a request says nothing about I/O */
	return d;
}

int dl_usage_profile(const struct dl_usage_in *in, struct dl_demand *out,
		     enum dl_usage_source *src)
{
	struct dl_demand d;

	if (!in || !out || !src)
		return EINVAL;
	if (in->has_measured) {
		d = measured(in);
		if (any_known(&d)) {
			*out = d;
			*src = DL_USAGE_MEASURED;
			return 0;
		}
	}
	if (in->has_declared) {
		d = declared(in);
		if (any_known(&d)) {
			*out = d;
			*src = DL_USAGE_DECLARED;
			return 0;
		}
	}
	d = requested(in);
	if (any_known(&d)) {
		*out = d;
		*src = DL_USAGE_REQUESTED;
		return 0;
	}
	*out = (struct dl_demand){NAN, NAN, NAN};
	*src = DL_USAGE_NONE;
	return ENODATA;
}

const char *dl_usage_source_name(enum dl_usage_source src)
{
	return (unsigned) src < DL_USAGE_SOURCES ? source_names[src] : "none";
}

int dl_usage_source_parse(const char *name, enum dl_usage_source *src)
{
	if (!name || !src)
		return EINVAL;
	for (int i = DL_USAGE_MEASURED; i < DL_USAGE_SOURCES; i++)
		if (!strcmp(name, source_names[i])) {
			*src = (enum dl_usage_source) i;
			return 0;
		}
	return EINVAL;
}
