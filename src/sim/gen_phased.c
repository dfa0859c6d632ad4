/*
 * gen_phased.c - a day whose phases favour different policies (issue 16):
 * the workload Policy=portfolio is built for (doc/simulator.md).
 *
 * Phases of --phase-hours alternate, starting with a blocking phase:
 *
 *   blocking  at its start a bulk job of long tasks (2 waves of the
 *             cluster, tasks of --long-length s, deadline factor 3) and a
 *             filler job of short tasks (40 waves of --short-length / 2 s,
 *             factor 5), then small urgent jobs (a fifth of the cluster's
 *             CPUs, tasks of --short-length s, deadline factor 3)
 *             arriving every --urgent-gap s on average (exponential gaps),
 *             as on Polo's scenario A.  Deadline order runs the filler
 *             flat out first, then the bulk job holds every CPU with long
 *             tasks and an urgent job waits for them to end; pacing both
 *             to their deadlines (adaptive) keeps short tasks turning over
 *             and CPUs coming free for the urgent ones.
 *   overload  --overload-jobs jobs arriving within the phase's first 20
 *             minutes, 0.5-2x the cluster's CPUs in tasks of
 *             --short-length x 2 s, deadline factors 1.5-4: more work than
 *             fits by the deadlines.  Deadline order alone makes a domino
 *             of misses; triage gives up the jobs that cost others theirs.
 *
 * Lengths are log-normal with a coefficient of variation of 0.1; arrivals,
 * sizes and factors come from --seed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/simulate/rng.h"
#include "sim/gen.h"
#include "sim/gen_kinds.h"

static struct sim_job_spec *add(struct sim_workload_spec *w, uint32_t *cap,
				const char *kind, uint32_t n, double arrival,
				uint32_t tasks, double len, double factor)
{
	char name[64];
	struct sim_job_spec *j;

	snprintf(name, sizeof(name), "%s-%u", kind, n);
	j = gen_add_job(w, cap, name);
	if (!j)
		return NULL;
	j->arrival = arrival;
	j->deadline_factor = factor;
	j->phase[0].tasks = tasks ? tasks : 1;
	j->phase[0].len.kind = SIM_DIST_LOGNORMAL;
	j->phase[0].len.a = len;
	j->phase[0].len.b = 0.1 * len;
	j->phase[0].len.min = 1;
	return j;
}

int gen_phased(const struct gen_args *a, struct sim_cluster_spec *c,
	       struct sim_workload_spec *w, char *err, size_t errlen)
{
	struct gen_opt o[] = {
		{"--hours", NULL},       {"--phase-hours", NULL},
		{"--nodes", NULL},       {"--cpus", NULL},
		{"--long-length", NULL}, {"--short-length", NULL},
		{"--urgent-gap", NULL},  {"--overload-jobs", NULL},
	};
	double hours, phase, nodes, cpus, llen, slen, gap, nover, slots;
	struct sim_rng rng;
	uint32_t cap = 0, n = 0;
	int rc;

	if ((rc = gen_parse(a, o, sizeof(o) / sizeof(*o), err, errlen)))
		return rc;
	if (gen_num(&o[0], 0.1, 24 * 365, 8, &hours, err, errlen) ||
	    gen_num(&o[1], 0.1, 24 * 365, 2, &phase, err, errlen) ||
	    gen_num(&o[2], 1, SIM_MAX_NODES, 40, &nodes, err, errlen) ||
	    gen_num(&o[3], 1, 1024, 2, &cpus, err, errlen) ||
	    gen_num(&o[4], 1, 1e6, 1200, &llen, err, errlen) ||
	    gen_num(&o[5], 1, 1e6, 60, &slen, err, errlen) ||
	    gen_num(&o[6], 1, 1e6, 600, &gap, err, errlen) ||
	    gen_num(&o[7], 1, 10000, 12, &nover, err, errlen))
		return GEN_USAGE_ERROR;
	nodes = floor(nodes);
	cpus = floor(cpus);
	slots = nodes * cpus;
	if ((rc = gen_cluster_uniform(c, (uint32_t) nodes, (uint32_t) cpus, err,
				      errlen)))
		return rc;
	w->description = strdup("phased: blocking and overload phases "
				"alternating (deadline-sim gen phased)");
	if (!w->description)
		goto oom;
	sim_rng_init(&rng, a->seed, 0x7068617365ull /* "phase" */, 0, 0);
	for (uint32_t p = 0; p * phase < hours; p++) {
		double t0 = p * phase * 3600, t1 = t0 + phase * 3600;

		if (t1 > hours * 3600)
			t1 = hours * 3600;
		if (p % 2 == 0) {
			/* the bulk job, then the urgent ones after the
			 * first gap */
			if (!add(w, &cap, "bulk", ++n, t0,
				 (uint32_t) (2 * slots), llen, 3) ||
			    !add(w, &cap, "filler", ++n, t0,
				 (uint32_t) (40 * slots), slen / 2, 5))
				goto oom;
			for (double t = t0 + sim_rng_exp(&rng, gap); t < t1;
			     t += sim_rng_exp(&rng, gap))
				if (!add(w, &cap, "urgent", ++n, t,
					 (uint32_t) ceil(slots / 5), slen, 3))
					goto oom;
		} else {
			for (uint32_t k = 0; k < (uint32_t) nover; k++) {
				double t = t0 + sim_rng_uniform(&rng, 0, 1200);
				uint32_t tasks = (uint32_t) ceil(
					slots * sim_rng_uniform(&rng, 0.5, 2));

				if (t >= t1)
					continue;
				if (!add(w, &cap, "wave", ++n, t, tasks,
					 2 * slen,
					 sim_rng_uniform(&rng, 1.5, 4)))
					goto oom;
			}
		}
	}
	/* the engine wants arrivals in order */
	for (uint32_t i = 1; i < w->njobs; i++)
		for (uint32_t k = i;
		     k > 0 && w->jobs[k].arrival < w->jobs[k - 1].arrival;
		     k--) {
			struct sim_job_spec tmp = w->jobs[k];

			w->jobs[k] = w->jobs[k - 1];
			w->jobs[k - 1] = tmp;
		}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return ENOMEM;
}
