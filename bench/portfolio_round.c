/*
 * portfolio_round.c - the time of one portfolio round (issue 16's target:
 * <= 1 s at 1,000 active arrays): every candidate policy simulated by the
 * engine, `--samples` times each, on a queue of `--arrays` arrays present
 * at once on `--nodes` nodes until every one ends (or `--horizon`).
 *
 *   portfolio_round [--arrays N] [--nodes N] [--cpus C] [--samples K]
 *                   [--horizon S] [--plan-interval S]
 *                   [--replan-delay S] [--budget S] [--seed S]
 *                   [--policies triage,edf,adaptive]
 *
 * Prints one line of key=value: the round's wall time, engine runs, the
 * candidates' scores.  No time budget unless --budget (then the line says
 * whether the round ran over it).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "common/portfolio/round.h"

static int parse_policies(const char *s, enum dl_policy *out, uint32_t *n)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		int p = -1;

		for (int k = 0; k < DL_POLICY_COUNT; k++)
			if (!strcmp(t, dl_policy_name((enum dl_policy) k)))
				p = k;
		if (p < 0 || *n >= DL_PF_MAX_CANDIDATES)
			return EINVAL;
		out[(*n)++] = (enum dl_policy) p;
	}
	return *n ? 0 : EINVAL;
}

int main(int argc, char **argv)
{
	uint32_t arrays = 1000, nodes = 1000, cpus = 16, ncands = 0;
	struct dl_pf_params p = {.samples = 3,
				 .seed = 1,
				 .budget_s = 1e9,
				 .weights = {1, 0.1, 0.1}};
	enum dl_policy cands[DL_PF_MAX_CANDIDATES];
	const char *pols = "triage,edf,adaptive";
	double plan_interval = 0, replan_delay = -1;
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws;
	struct dl_config cfg;
	struct dl_pf_round r;
	char err[256] = "";
	double t0;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "--arrays"))
			arrays = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--nodes"))
			nodes = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--cpus"))
			cpus = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--samples"))
			p.samples = (uint32_t) strtoul(v, NULL, 10);
		else if (!strcmp(k, "--horizon"))
			p.horizon_s = strtod(v, NULL);
		else if (!strcmp(k, "--plan-interval"))
			plan_interval = strtod(v, NULL);
		else if (!strcmp(k, "--replan-delay"))
			replan_delay = strtod(v, NULL);
		else if (!strcmp(k, "--budget"))
			p.budget_s = strtod(v, NULL);
		else if (!strcmp(k, "--seed"))
			p.seed = strtoull(v, NULL, 10);
		else if (!strcmp(k, "--policies"))
			pols = v;
		else {
			fprintf(stderr, "unknown option %s\n", k);
			return 2;
		}
	}
	if (!arrays || !nodes || !cpus ||
	    parse_policies(pols, cands, &ncands)) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	if (dl_config_defaults(&cfg))
		return 1;
	if (plan_interval > 0)
		cfg.plan_interval = plan_interval;
	if (replan_delay >= 0)
		cfg.replan_delay = replan_delay;

	memset(&cs, 0, sizeof(cs));
	cs.nnodes = nodes;
	cs.nodes = calloc(nodes, sizeof(*cs.nodes));
	cs.partitions[0] = strdup("batch");
	cs.npartitions = 1;
	if (!cs.nodes || !cs.partitions[0])
		return 1;
	for (uint32_t n = 0; n < nodes; n++) {
		char name[32];

		snprintf(name, sizeof(name), "n%u", n + 1);
		cs.nodes[n].name = strdup(name);
		cs.nodes[n].cpus = cpus;
		cs.nodes[n].speed = 1;
		cs.nodes[n].partitions = 1;
	}

	/* the queue: arrays of 10-500 one-CPU tasks of 30-600 s (lognormal,
	 * cv 0.3), all present, deadlines 1.5-4x the work spread over a
	 * share of the cluster, one in five without a deadline */
	bench_seed(p.seed);
	memset(&ws, 0, sizeof(ws));
	ws.njobs = arrays;
	ws.jobs = calloc(arrays, sizeof(*ws.jobs));
	if (!ws.jobs)
		return 1;
	for (uint32_t j = 0; j < arrays; j++) {
		struct sim_job_spec *js = &ws.jobs[j];
		struct sim_phase_spec *ph = &js->phase[0];
		double mean = 30 + 570 * bench_urand();
		double width = (double) nodes * cpus / arrays * 4;

		char name[24];

		snprintf(name, sizeof(name), "b%u", j + 1);
		js->name = strdup(name);
		js->user = strdup("u");
		js->account = strdup("a");
		ph->tasks = 10 + (uint32_t) (490 * bench_urand());
		ph->cpus = 1;
		ph->len.kind = SIM_DIST_LOGNORMAL;
		ph->len.a = mean;
		ph->len.b = 0.3 * mean;
		ph->len.min = SIM_MIN_LENGTH;
		ph->len.max = INFINITY;
		ph->prior_mean = mean;
		ph->prior_p90 = mean * 1.4;
		if (j % 5)
			js->deadline = (1.5 + 2.5 * bench_urand()) *
				       ceil(ph->tasks / fmax(1, width)) * mean;
	}

	t0 = bench_now_us();
	if (dl_pf_run_round(&cs, &ws, &cfg, cands, ncands, &p, &r, err,
			    sizeof(err))) {
		fprintf(stderr, "round: %s\n", err);
		return 1;
	}
	printf("arrays=%u nodes=%u cpus=%u samples=%u candidates=%u runs=%u "
	       "over_budget=%d round_s=%.3f per_run_s=%.3f",
	       arrays, nodes, cpus, p.samples, ncands, r.runs, r.over_budget,
	       (bench_now_us() - t0) / 1e6, r.runs ? r.wall_s / r.runs : 0.0);
	for (uint32_t i = 0; i < r.n; i++)
		printf(" %s=%.2f/missed%.1f%%", dl_policy_name(r.r[i].policy),
		       r.r[i].score.total, r.r[i].score.missed_pct);
	printf("\n");
	sim_workload_spec_free(&ws);
	sim_cluster_spec_free(&cs);
	dl_config_free(&cfg);
	return 0;
}
