/*
 * fuzz_swf.c - the SWF adapter of deadline-sim gen (Standard Workload
 * Format logs): any text is refused with a message or becomes a workload
 * whose every job has a width, a finite run time and an arrival from the
 * window's first, on a cluster of at least one node.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/gen_kinds.h"
#include "sim/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gen_swf_opts o = {
		.to = 1e10, .klo = 1.5, .khi = 3, .max_tasks = 64};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;
	char err[512] = "";
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the first byte picks the limits' reading, as --time-limit does */
	o.exact_limits = size && (data[0] & 1);
	memset(&c, 0, sizeof(c));
	memset(&w, 0, sizeof(w));
	if (gen_swf_parse(text, size, &o, 1, &c, &w, err, sizeof(err))) {
		if (!err[0])
			__builtin_trap();
	} else {
		if (!c.nnodes || !w.njobs)
			__builtin_trap();
		for (uint32_t k = 0; k < w.njobs; k++) {
			const struct sim_job_spec *j = &w.jobs[k];

			if (j->phase[0].tasks < 1 || j->phase[0].tasks > 64 ||
			    !(j->phase[0].len.a > 0) ||
			    !isfinite(j->phase[0].len.a) ||
			    !(j->arrival >= 0) || j->deadline_factor < 1.5 ||
			    j->deadline_factor > 3 ||
			    (j->phase[0].time_limit &&
			     j->phase[0].time_limit < j->phase[0].len.a))
				__builtin_trap();
		}
	}
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	free(text);
	return 0;
}
