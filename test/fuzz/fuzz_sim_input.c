/*
 * fuzz_sim_input.c - the simulator's input parsers: the first byte picks
 * the parser ('0' cluster, '1' workload against a fixed cluster, '2'
 * task-length distribution, '3' external-load series, '4' RTMR bins
 * document; any other byte by its distance from '0', modulo 5), the rest
 * is its text.  Any bytes give a result or an error message, never a
 * crash; an accepted document written back parses to the same shape
 * (jobs, their own limits and begin times).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/simulate/dist.h"
#include "sim/gen_kinds.h"
#include "common/io/json.h"
#include "sim/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fixed_cluster =
	"{\"partitions\":[\"batch\",\"gpu\"],\"nodes\":["
	"{\"name\":\"n\",\"count\":3,\"cpus\":8,\"mem\":16000,\"io\":100},"
	"{\"name\":\"g\",\"cpus\":4,\"pool\":\"accel\",\"partitions\":[\"gpu\"]"
	"}]}";

static void cluster(const char *t, size_t n)
{
	struct sim_cluster_spec c, d;
	char err[512] = "";

	if (sim_cluster_parse(t, n, "fuzz", NULL, &c, err, sizeof(err))) {
		if (!err[0])
			__builtin_trap();
	} else {
		json_object *j = sim_cluster_to_json(&c);
		const char *s = j ? json_object_to_json_string(j) : NULL;

		if (s) {
			if (sim_cluster_parse(s, strlen(s), "again", NULL, &d,
					      err, sizeof(err)) ||
			    d.nnodes != c.nnodes)
				__builtin_trap();
			sim_cluster_spec_free(&d);
		}
		json_object_put(j);
	}
	sim_cluster_spec_free(&c);
}

static void workload(const char *t, size_t n)
{
	struct sim_cluster_spec c;
	struct sim_workload_spec w, v;
	char err[512] = "";

	if (sim_cluster_parse(fixed_cluster, strlen(fixed_cluster), "fixed",
			      NULL, &c, err, sizeof(err)))
		__builtin_trap();
	if (sim_workload_parse(t, n, "fuzz", &c, &w, err, sizeof(err))) {
		if (!err[0])
			__builtin_trap();
	} else {
		json_object *j = sim_workload_to_json(&w, &c);
		const char *s = j ? json_object_to_json_string(j) : NULL;

		if (s) {
			if (sim_workload_parse(s, strlen(s), "again", &c, &v,
					       err, sizeof(err)) ||
			    v.njobs != w.njobs)
				__builtin_trap();
			for (uint32_t i = 0; i < w.njobs; i++)
				for (int p = 0; p < 2; p++)
					if (v.jobs[i].phase[p].max_running !=
						    w.jobs[i]
							    .phase[p]
							    .max_running ||
					    v.jobs[i].phase[p].deferred !=
						    w.jobs[i]
							    .phase[p]
							    .deferred ||
					    v.jobs[i].phase[p].begin !=
						    w.jobs[i].phase[p].begin)
						__builtin_trap();
			sim_workload_spec_free(&v);
		}
		json_object_put(j);
	}
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
}

static void dist(const char *t, size_t n)
{
	char err[512] = "";
	json_object *o =
		dl_json_parse(t, n, SIZE_MAX, "fuzz", err, sizeof(err));
	struct sim_dist d;
	struct sim_rng r;

	if (!o)
		return;
	if (!sim_dist_parse(o, "len", &d, err, sizeof(err))) {
		sim_rng_init(&r, 1, 2, 3, 4);
		for (int i = 0; i < 16; i++) {
			double x = sim_dist_sample(&d, &r);

			if (!(x >= d.min) || x > d.max)
				__builtin_trap();
		}
		(void) sim_dist_quantile(&d, 0.9);
		sim_dist_free(&d);
	} else if (!err[0]) {
		__builtin_trap();
	}
	json_object_put(o);
}

static void series(const char *t, size_t n)
{
	struct sim_series s;
	char err[512] = "";

	if (!sim_series_parse_text(t, n, "fuzz", 60, &s, err, sizeof(err))) {
		for (int i = 0; i < 8; i++) {
			double v = sim_series_at(&s, i * 97.0);

			if (!isfinite(v))
				__builtin_trap();
		}
		sim_series_free(&s);
	} else if (!err[0]) {
		__builtin_trap();
	}
}

static void bins(const char *t, size_t n)
{
	struct sim_cluster_spec c;
	struct sim_workload_spec w;
	char err[512] = "";

	if (gen_binned_parse(t, n, "fuzz", NULL, 1, &c, &w, err, sizeof(err)) &&
	    !err[0])
		__builtin_trap();
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	/* the seeds name their parser by a digit ('1' = 49 picked the bins
	 * parser by data[0] % 5, so no seed reached the one it was for) */
	switch ((uint8_t) (data[0] - '0') % 5) {
	case 0:
		cluster(text, size - 1);
		break;
	case 1:
		workload(text, size - 1);
		break;
	case 2:
		dist(text, size - 1);
		break;
	case 3:
		series(text, size - 1);
		break;
	default:
		bins(text, size - 1);
		break;
	}
	free(text);
	return 0;
}
