/*
 * plan_cycle.c - time of one plan cycle (dl_policy_plan) for a synthetic
 * cluster: ARRAYS active deadline arrays on NODES nodes of 32 CPUs, every
 * array with completed, running and pending tasks and a deadline between
 * 10 minutes and 2 hours away (more work than the cluster can do by then).
 *
 *   plan_cycle [--arrays N] [--nodes M] [--runs R] [--seed S]
 *              [--policy NAME] [--unknown F] [--guessed F] [--tight F]
 *
 * --unknown F: that share of the arrays has no task ended yet (no length:
 * triage's jobs of unknown length); --guessed F: that share is a
 * MapReduce pair whose maps have all ended and whose reduces run on a
 * guessed length (no reduce ended).  Both 0 by default; together they are
 * the case where triage matches every job of unknown length against every
 * guess due after it (free_before_guess).  --tight F: that share of the
 * arrays has short tasks (2-10 s) and a deadline 30-120 s away, so the
 * others' tasks are long against recent jobs' slack and triage's
 * blocking reserve holds them back (reserve.h), the lookahead's costliest
 * path; 0 by default.
 *
 * Each cycle gets the previous cycle's plan, as in slurmctld, so a policy
 * that remembers (triage's hysteresis) is measured in its steady state:
 * the first cycle (cold: no previous plan) is reported apart, then
 * R + 10 cycles run and the median, p95 and max of the last R are
 * printed, with the grants (or lookahead batches) and the peak RSS.  A
 * benchmark, not a test: results go to bench/results/ with the machine and
 * command.  The default policy is deadline.conf's default.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/policy/policy.h"
#include "common/estimate/stats.h"
#include "bench_util.h"

int main(int argc, char **argv)
{
	uint32_t arrays = 1000, nodes = 1000, runs = 50;
	uint64_t seed = 42;
	const char *policy = NULL;
	double unknown = 0, guessed = 0, tight = 0;
	struct dl_plan *prev = NULL;
	double cold_ms = 0;
	uint32_t total;
	struct dl_cluster cl;
	struct dl_config cfg;
	struct dl_job **jobs;
	double t0 = 1.7e9, *us, running_cpus = 0;
	char err[256];
	uint64_t grants = 0;
	struct rusage ru;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--arrays"))
			arrays = (uint32_t) strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--nodes"))
			nodes = (uint32_t) strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--runs"))
			runs = (uint32_t) strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--policy"))
			policy = argv[i + 1];
		else if (!strcmp(argv[i], "--unknown"))
			unknown = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--guessed"))
			guessed = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--tight"))
			tight = strtod(argv[i + 1], NULL);
		else {
			fprintf(stderr,
				"usage: %s [--arrays N] [--nodes M] [--runs R] "
				"[--seed S] [--policy NAME] [--unknown F] "
				"[--guessed F] [--tight F]\n",
				argv[0]);
			return 2;
		}
	}
	if (!arrays || !nodes || !runs) {
		fprintf(stderr,
			"plan_cycle: arrays, nodes and runs must be > 0\n");
		return 2;
	}
	if (!(unknown >= 0 && guessed >= 0 && unknown + guessed <= 1)) {
		fprintf(stderr, "plan_cycle: --unknown and --guessed are "
				"shares in [0, 1] with a sum of at most 1\n");
		return 2;
	}
	if (!(tight >= 0 && tight <= 1)) {
		fprintf(stderr, "plan_cycle: --tight is a share in [0, 1]\n");
		return 2;
	}
	bench_seed(seed);
	if (dl_cluster_init(&cl, nodes) ||
	    dl_cluster_add_partition(&cl, "batch") ||
	    dl_config_defaults(&cfg)) {
		fprintf(stderr, "plan_cycle: out of memory\n");
		return 1;
	}
	for (uint32_t n = 0; n < nodes; n++) {
		char name[32];

		snprintf(name, sizeof(name), "n%u", n);
		dl_node_set(&cl.nodes[n], name, 32, 128000, DL_POOL_REGULAR);
		dl_partset_add(&cl.nodes[n].partitions, 0);
	}
	jobs = calloc(arrays, sizeof(*jobs));
	for (uint32_t i = 0; i < arrays; i++) {
		uint32_t tasks = 50 + (uint32_t) (bench_urand() * 1950);
		uint32_t done = (uint32_t) (bench_urand() * tasks * 0.5);
		uint32_t run = (uint32_t) (bench_urand() * 0.9 * 32.0 * nodes /
					   arrays);
		double mu = 20 + bench_urand() * 580;
		struct dl_job *j = dl_job_new(i + 1, "user", "array", "acct");
		/* drawn only when asked: defaults keep the old workload */
		double kind = unknown + guessed > 0 ? bench_urand() : 1;
		bool is_unknown = kind < unknown;
		bool is_guessed = !is_unknown && kind < unknown + guessed;
		bool is_tight = tight > 0 && bench_urand() < tight;
		uint32_t drawn_run = run;
		double due;

		if (is_tight) { /* short tasks, due soon */
			tasks = 10 + tasks % 91;
			done = done < tasks / 2 ? done : tasks / 2;
			mu = 2 + (mu - 20) / 580 * 8;
		}

		if (is_unknown)
			done = 0;
		if (is_guessed)
			done = tasks;
		if (run > tasks - done)
			run = tasks - done;
		dl_phase_init(j, DL_MAP, tasks, 1 + (bench_urand() < 0.2),
			      1000);
		j->submit = t0 - 600 * bench_urand();
		due = bench_urand();
		j->soft_deadline =
			is_tight ? t0 + 30 + due * 90 : t0 + 600 + due * 6600;
		for (uint32_t k = 0; k < done; k++)
			dl_phase_add_completed(&j->phase[DL_MAP],
					       mu * (0.5 + bench_urand()), 0);
		for (uint32_t k = 0; k < run; k++)
			dl_phase_add_running(&j->phase[DL_MAP],
					     t0 - bench_urand() * mu * 1.5,
					     DL_NO_NODE, 0);
		running_cpus += run * j->phase[DL_MAP].cpus_per_task;
		if (is_guessed || bench_urand() < 0.3) { /* a MapReduce pair */
			j->reduce_id = arrays + i + 1;
			dl_phase_init(j, DL_REDUCE,
				      1 + (uint32_t) (bench_urand() * 50), 1,
				      2000);
		}
		if (is_guessed) { /* the reduces run; none has ended */
			struct dl_phase *r = &j->phase[DL_REDUCE];

			run = drawn_run < r->tasks ? drawn_run : r->tasks;
			for (uint32_t k = 0; k < run; k++)
				dl_phase_add_running(
					r, t0 - bench_urand() * mu * 1.5,
					DL_NO_NODE, 0);
			running_cpus += run * r->cpus_per_task;
		}
		jobs[i] = j;
	}

	struct dl_policy_input in = {.cluster = &cl,
				     .jobs = jobs,
				     .njobs = arrays,
				     .cfg = &cfg,
				     .now = t0,
				     .forecast = NULL,
				     .rt = NULL};
	if (policy && dl_config_set(&cfg, "Policy", policy, err, sizeof(err))) {
		fprintf(stderr, "plan_cycle: %s\n", err);
		return 2;
	}
	us = calloc(runs, sizeof(*us));
	total = runs + 10; /* ten cycles to settle */
	for (uint32_t r = 0; r <= total; r++) {
		double start = bench_now_us(), t;
		struct dl_plan *p;

		in.prev = prev;
		p = dl_policy_plan(&in, err, sizeof(err));
		t = bench_now_us() - start;
		if (!p) {
			fprintf(stderr, "plan_cycle: %s\n", err);
			return 1;
		}
		grants = p->stats.grants;
		dl_plan_free(prev);
		prev = p;
		if (!r)
			cold_ms = t / 1e3;
		if (r > total - runs) /* the last `runs` cycles */
			us[r - (total - runs) - 1] = t;
	}
	dl_plan_free(prev);
	dl_sort_doubles(us, runs);
	getrusage(RUSAGE_SELF, &ru);
	printf("policy=%s arrays=%u nodes=%u cpus=%u running_cpus=%.0f "
	       "runs=%u cold_ms=%.3f median_ms=%.3f p95_ms=%.3f max_ms=%.3f "
	       "grants=%llu maxrss_mb=%.1f\n",
	       dl_policy_name(cfg.policy), arrays, nodes, nodes * 32,
	       running_cpus, runs, cold_ms, us[runs / 2] / 1e3,
	       us[(uint32_t) (runs * 0.95) < runs ? (uint32_t) (runs * 0.95)
						  : runs - 1] /
		       1e3,
	       us[runs - 1] / 1e3, (unsigned long long) grants,
	       ru.ru_maxrss / 1024.0);
	for (uint32_t i = 0; i < arrays; i++)
		dl_job_free(jobs[i]);
	free(jobs);
	free(us);
	dl_config_free(&cfg);
	dl_cluster_free(&cl);
	return 0;
}
