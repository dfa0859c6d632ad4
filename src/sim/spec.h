/*
 * spec.h - deadline-sim's cluster and workload documents: parsing (every
 * field checked, the bad one named in the error), loading from files and
 * writing them back (doc/simulator.md).  The structures are the core's
 * (common/simulate/spec.h).
 */
#ifndef SIM_SPEC_H
#define SIM_SPEC_H

#include <json-c/json.h>
#include <stddef.h>

#include "common/simulate/spec.h"

/* Parse from text.  origin names the input in messages; base_dir resolves
 * relative file names (external load files).  Return 0 or EINVAL/ENOMEM
 * with err set; the output is fully initialised either way (free it). */
int sim_cluster_parse(const char *text, size_t len, const char *origin,
		      const char *base_dir, struct sim_cluster_spec *c,
		      char *err, size_t errlen);
int sim_workload_parse(const char *text, size_t len, const char *origin,
		       const struct sim_cluster_spec *c,
		       struct sim_workload_spec *w, char *err, size_t errlen);
/* An external load series: a JSON object {"start", "step", "values",
 * "repeat", "scale"} or a text file with one value per line (then step
 * defaults to 60 s). */
int sim_series_parse_json(json_object *o, const char *path,
			  const char *base_dir, struct sim_series *s, char *err,
			  size_t errlen);
int sim_series_parse_text(const char *text, size_t len, const char *origin,
			  double step, struct sim_series *s, char *err,
			  size_t errlen);

/* Load and parse files (read at most 1 GiB). */
int sim_cluster_load(const char *path, struct sim_cluster_spec *c, char *err,
		     size_t errlen);
int sim_workload_load(const char *path, const struct sim_cluster_spec *c,
		      struct sim_workload_spec *w, char *err, size_t errlen);

/* JSON documents of specs (new references; NULL when out of memory), the
 * exact inverse of the parsers. */
json_object *sim_cluster_to_json(const struct sim_cluster_spec *c);
json_object *sim_workload_to_json(const struct sim_workload_spec *w,
				  const struct sim_cluster_spec *c);

#endif
