/*
 * forecast.h - the external load f(t) of the reverse policy (doc/design.md §5):
 * per node class, the fraction of each node's capacity that all the work
 * outside the plan (a co-located service, jobs without deadlines) is
 * expected to use, over time.
 *
 * A series is piecewise constant: sample i holds on
 * [start + i*step, start + (i+1)*step).  A periodic series (period > 0)
 * repeats every period seconds; otherwise the first sample holds before
 * start and the last one after the end.
 *
 * File format (doc/ras-reverse.md, "Forecast files"):
 *
 *   # comment
 *   Version=1
 *   Start=0            epoch seconds of sample 0
 *   Step=60            seconds per sample (> 0)
 *   Period=86400       0 = not periodic; else a multiple of Step
 *   Class=web Nodes=n[1-50] Resources=cpu,io
 *   Class=rest Nodes=* Share=nodes
 *   0.20 0.05          one line per sample, one fraction in [0,1] per class
 *   ...
 *
 * A node belongs to the first class whose Nodes= matches it; a node in no
 * class has no external load.  Resources= limits the load to some of cpu,
 * mem and io (default all three).  A value is a fraction of every node of
 * the class, or with Share=nodes the share of the class's nodes held whole
 * (the last in node order first, one partly).
 *
 * The same content may also be written with keywords and one block of
 * values per class (the estimator's demo series uses it):
 *
 *   step 60
 *   epoch 0                      Start
 *   period 86400
 *   class web nodes=n[1-50] resources=cpu,io
 *   0.20 0.22 0.25 ...           values of that class, any number per line
 *   class rest                   no nodes=: every node (first match wins)
 *   ...
 *
 * No Version line is needed there; a class with fewer values than another
 * holds its last one (a periodic file needs equal lengths).
 */
#ifndef DL_FORECAST_H
#define DL_FORECAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dl_resource {
	DL_RES_CPU = 0,
	DL_RES_MEM = 1,
	DL_RES_IO = 2,
};
#define DL_RESOURCES 3

#define DL_FORECAST_MAX_CLASSES 64
#define DL_FORECAST_MAX_SAMPLES 1000000u
#define DL_FORECAST_MAX_FILE    (64u << 20)
#define DL_FORECAST_MAX_TIME    1e11 /* seconds: bound on Start= */

/* A piecewise-constant series with its running integral. */
struct dl_series {
	double start, step, period;
	uint32_t n;
	double *v;      /* n samples */
	double *prefix; /* n + 1: prefix[i] = integral of samples 0..i-1 */
};

/* Value at t. */
double dl_series_at(const struct dl_series *s, double t);
/* Integral over [a, b] (0 when b <= a). */
double dl_series_integral(const struct dl_series *s, double a, double b);
/* Largest value taken on [a, b] (the value at a when b <= a). */
double dl_series_max(const struct dl_series *s, double a, double b);
/* Copy v and build the prefix.  Returns 0, EINVAL or ENOMEM. */
int dl_series_init(struct dl_series *s, double start, double step,
		   double period, const double *v, uint32_t n);
void dl_series_free(struct dl_series *s);

struct dl_forecast;

/* An empty forecast on a grid; classes are added with
 * dl_forecast_add_class.  NULL on bad grid (step <= 0, period not a
 * multiple of step, n = 0 or too large, non-finite start) or no memory. */
struct dl_forecast *dl_forecast_new(double start, double step, double period,
				    uint32_t nsamples);
/* Add a class: its node expression (see nodeset.h), a mask of resources
 * (bit DL_RES_*; 0 = all) and nsamples fractions in [0,1].  Returns 0,
 * EINVAL (bad input, duplicate name, too many classes) or ENOMEM. */
int dl_forecast_add_class(struct dl_forecast *f, const char *name,
			  const char *nodes, unsigned resources,
			  const double *load);
void dl_forecast_free(struct dl_forecast *f);

/* Parse the text format; *out is set on success.  Errors name the origin
 * and the line.  Returns 0, EINVAL or ENOMEM. */
int dl_forecast_parse(const char *text, size_t len, const char *origin,
		      struct dl_forecast **out, char *err, size_t errlen);
/* Read and parse a file (bounded size).  ENOENT etc. from the file. */
int dl_forecast_load(const char *path, struct dl_forecast **out, char *err,
		     size_t errlen);

uint32_t dl_forecast_nclasses(const struct dl_forecast *f);
const char *dl_forecast_class_name(const struct dl_forecast *f, uint32_t c);
/* The class of a node, or -1 when it is in none. */
int dl_forecast_class_of(const struct dl_forecast *f, const char *node);
/* The class's load series (NULL for a bad index). */
const struct dl_series *dl_forecast_series(const struct dl_forecast *f,
					   uint32_t c);
/* Whether the class's load applies to resource r. */
bool dl_forecast_applies(const struct dl_forecast *f, uint32_t c, int r);
/* The grid of the forecast. */
void dl_forecast_grid(const struct dl_forecast *f, double *start, double *step,
		      double *period, uint32_t *n);

/* Share=nodes: the class's value is the share of its nodes held whole
 * (the last ones in the cluster's node order, one of them partly), as the
 * thesis's "available number of nodes over time"; the default
 * (Share=fraction) is a fraction of every node of the class. */
int dl_forecast_set_whole_nodes(struct dl_forecast *f, uint32_t c, bool whole);
bool dl_forecast_whole_nodes(const struct dl_forecast *f, uint32_t c);

/* Index of the class called name, or -1. */
int dl_forecast_class_index(const struct dl_forecast *f, const char *name);
/* The class's load at t (all resources alike); NAN for a bad class or a
 * non-finite t. */
double dl_forecast_at(const struct dl_forecast *f, size_t c, double t);
/* Time-weighted mean of the class's load over [a, b) (its value at a when
 * a == b); NAN for a bad class, non-finite times or b < a. */
double dl_forecast_mean(const struct dl_forecast *f, size_t c, double a,
			double b);

/* External load fraction of class c on resource r at t / its largest value
 * over [a, b]; 0 for a node in no class (c < 0) or a resource the class
 * does not load. */
double dl_forecast_load_at(const struct dl_forecast *f, int c, int r, double t);
double dl_forecast_load_max(const struct dl_forecast *f, int c, int r, double a,
			    double b);

#endif
