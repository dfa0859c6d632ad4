/*
 * rt_admit.c - realtime admission and plan-cycle costs on a synthetic
 * cluster: JOBS admitted MapReduce jobs in one partition of UNITS CPUs
 * (tasks of 1 CPU, maps 1-400 of 1-10 minutes, reduces 0-50, deadlines two
 * to eight hours away, a tenth of them started), then:
 *   - submit: dl_rt_admit (judge only, as job_submit/deadline does) for
 *     new jobs at random deadlines, and at the head and the tail of the
 *     queue;
 *   - commit: dl_rt_admit for real (the set grows by these jobs);
 *   - plan: one realtime plan cycle (dl_policy_plan) without and with a
 *     rebuild of the vectors from the live state;
 *   - save/restore of the admitted set as JSON.
 *
 *   rt_admit [--jobs N] [--units U] [--probes P] [--seed S]
 *
 * Prints median, p95 and max per operation and the peak RSS.  A benchmark,
 * not a test: results go to bench/results/ with the machine and command.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/policy/policy.h"
#include "common/realtime/realtime.h"
#include "common/estimate/stats.h"
#include "bench_util.h"

/* CPU time of this thread: the wall-clock outliers on a shared machine are
 * the scheduler's, not ours */
static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void report(const char *what, double *us, uint32_t n)
{
	if (!n)
		return;
	dl_sort_doubles(us, n);
	printf("%-34s n=%-5u median %8.1f us  p95 %8.1f us  p99 %8.1f us  max "
	       "%8.1f us\n",
	       what, n, us[n / 2], us[(uint32_t) (n * 0.95)],
	       us[(uint32_t) (n * 0.99)], us[n - 1]);
}

static struct dl_rt_request random_job(uint64_t id, double now)
{
	struct dl_rt_request q;

	memset(&q, 0, sizeof(q));
	q.id = id;
	q.user = "bench";
	q.name = "mr";
	q.pool = "batch";
	q.arrival = now;
	q.deadline = now + 7200 + bench_urand() * 6 * 3600;
	q.tasks[0] = 1 + (uint32_t) (bench_urand() * 400);
	q.tasks[1] = bench_urand() < 0.3 ? 0 : (uint32_t) (bench_urand() * 51);
	q.cpus[0] = q.cpus[1] = 1;
	q.wc[0] = 60 + floor(bench_urand() * 540);
	q.wc[1] = 60 + floor(bench_urand() * 240);
	return q;
}

int main(int argc, char **argv)
{
	uint32_t njobs = 1000, units = 10000, probes = 1000, admitted = 0;
	uint64_t seed = 42, id = 1;
	double t0 = 1.7e9, *us;
	struct dl_rt_state *st;
	struct dl_rt_params p;
	struct dl_rt_verdict v;
	struct rusage ru;
	uint64_t runs = 0;

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--jobs"))
			njobs = (uint32_t) atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--units"))
			units = (uint32_t) atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--probes"))
			probes = (uint32_t) atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--seed"))
			seed = strtoull(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: rt_admit [--jobs N] [--units "
					"U] [--probes P] [--seed S]\n");
			return 2;
		}
	}
	bench_seed(seed);
	us = malloc(sizeof(*us) * (probes + 16));
	st = dl_rt_state_new();
	if (!us || !st || dl_rt_set_pool(st, "batch", units, 0, t0 - 3600))
		return 1;
	dl_rt_get_params(st, &p);
	p.overhead = 5;
	dl_rt_set_params(st, &p);

	/* the admitted set: arrivals over the last hour */
	for (uint32_t tries = 0; admitted < njobs && tries < njobs * 20;
	     tries++) {
		double at = t0 - 3600 + 3600.0 * admitted / njobs;
		struct dl_rt_request q = random_job(id++, at);

		if (dl_rt_admit(st, &q, at, true, &v) == 0 && v.admitted) {
			admitted++;
			if (admitted <= njobs / 10)
				dl_rt_mark_started(st, q.id);
		}
	}
	for (uint32_t i = 0; i < dl_rt_count(st); i++) {
		struct dl_rt_vec vec[2] = {{0}, {0}};
		struct dl_rt_job_info info;

		if (dl_rt_job_at(st, i, &info) ||
		    dl_rt_job_vectors(st, info.id, vec))
			continue;
		runs += vec[0].nruns;
		dl_rt_vec_free(&vec[0]);
		dl_rt_vec_free(&vec[1]);
	}
	printf("admitted set: %u jobs in %u CPUs, %.1f runs per vector (of %u "
	       "units)\n",
	       dl_rt_count(st), units,
	       (double) runs / (dl_rt_count(st) ? dl_rt_count(st) : 1), units);

	/* submit: judge random new jobs */
	{
		uint32_t yes = 0;
		double *cpu = malloc(sizeof(*cpu) * (probes + 1));

		if (!cpu)
			return 1;
		for (uint32_t k = 0; k < probes; k++) {
			struct dl_rt_request q = random_job(1000000 + k, t0);
			double a = bench_now_us(), c = cpu_us();

			dl_rt_admit(st, &q, t0, false, &v);
			us[k] = bench_now_us() - a;
			cpu[k] = cpu_us() - c;
			yes += v.admitted;
		}
		report("submit, random deadline (judge)", us, probes);
		report("  the same in thread CPU time", cpu, probes);
		printf("%-34s %u of %u admissible\n", "", yes, probes);
		free(cpu);
	}
	/* tight deadlines: many rejections, the search over earlier
	 * positions and the successor checks at their longest */
	{
		uint32_t yes = 0;

		for (uint32_t k = 0; k < probes; k++) {
			struct dl_rt_request q = random_job(1500000 + k, t0);
			double a;

			q.deadline = t0 + 60 + bench_urand() * 2 * 3600;
			a = cpu_us();
			dl_rt_admit(st, &q, t0, false, &v);
			us[k] = cpu_us() - a;
			yes += v.admitted;
		}
		report("submit, 1 min-2 h deadline (CPU)", us, probes);
		printf("%-34s %u of %u admissible\n", "", yes, probes);
	}
	/* at the head (ahead of every job that has not started) and tail */
	for (int where = 0; where < 2; where++) {
		for (uint32_t k = 0; k < probes; k++) {
			struct dl_rt_request q = random_job(2000000 + k, t0);
			double a;

			q.deadline = where ? t0 + 30 * 86400 : t0 + 7200;
			q.tasks[0] = 1 + k % 20;
			a = bench_now_us();
			dl_rt_admit(st, &q, t0, false, &v);
			us[k] = bench_now_us() - a;
		}
		report(where ? "submit, end of the queue"
			     : "submit, head of the queue",
		       us, probes);
	}
	/* commit: the set grows */
	{
		uint32_t n = probes < 200 ? probes : 200, yes = 0;

		for (uint32_t k = 0; k < n; k++) {
			struct dl_rt_request q = random_job(3000000 + k, t0);
			double a = bench_now_us();

			dl_rt_admit(st, &q, t0, true, &v);
			us[k] = bench_now_us() - a;
			yes += v.admitted;
		}
		report("admit and commit", us, n);
		printf("%-34s %u of %u admitted, %u jobs now\n", "", yes, n,
		       dl_rt_count(st));
	}
	/* the plan cycle: live jobs as the sched plugin would pass them */
	{
		uint32_t n = dl_rt_count(st), nodes = (units + 31) / 32, m = 0;
		struct dl_job **jobs = calloc(n, sizeof(*jobs));
		struct dl_cluster cl;
		struct dl_config cfg;
		char err[256];
		double running = 0;
		char *text;
		struct dl_rt_state *st2;

		if (!jobs || dl_cluster_init(&cl, nodes) ||
		    dl_cluster_add_partition(&cl, "batch") != 0 ||
		    dl_config_defaults(&cfg))
			return 1;
		for (uint32_t i = 0; i < nodes; i++) {
			char name[32];

			snprintf(name, sizeof(name), "n%u", i);
			dl_node_set(&cl.nodes[i], name, 32, 128000, 0);
			dl_partset_add(&cl.nodes[i].partitions, 0);
			cl.nodes[i].up = true;
		}
		cfg.policy = DL_POLICY_REALTIME;
		cfg.realtime_overhead = 5;
		for (uint32_t i = 0; i < n; i++) {
			struct dl_rt_job_info info;
			struct dl_job *j;

			if (dl_rt_job_at(st, i, &info))
				continue;
			j = dl_job_new(info.id, "bench", "mr", "acct");
			dl_phase_init(j, DL_MAP, info.tasks[0], 1, 0);
			dl_phase_init(j, DL_REDUCE, info.tasks[1], 1, 0);
			j->phase[0].time_limit = j->phase[1].time_limit = 3600;
			j->submit = info.arrival;
			j->soft_deadline = info.deadline;
			if (info.started) {
				uint32_t r =
					info.tasks[0] < 20 ? info.tasks[0] : 20;

				for (uint32_t k = 0; k < r && running < units;
				     k++, running++)
					dl_phase_add_running(&j->phase[0],
							     t0 - 30,
							     DL_NO_NODE, 0);
			}
			jobs[m++] = j;
		}
		{
			struct dl_policy_input in = {.cluster = &cl,
						     .jobs = jobs,
						     .njobs = m,
						     .cfg = &cfg,
						     .now = t0,
						     .forecast = NULL,
						     .rt = st};
			uint32_t runs_n = 20;

			for (uint32_t k = 0; k < runs_n; k++) {
				double a = bench_now_us();
				struct dl_plan *plan =
					dl_policy_plan(&in, err, sizeof(err));

				us[k] = bench_now_us() - a;
				if (!plan) {
					fprintf(stderr, "plan: %s\n", err);
					return 1;
				}
				dl_plan_free(plan);
			}
			report("plan cycle (no rebuild)", us, runs_n);
		}
		/* save / restore, and the plan right after a restore (which
		 * rebuilds every vector from the live state) */
		{
			double a = bench_now_us();

			text = dl_rt_state_to_json(st);
			us[0] = bench_now_us() - a;
			report("save as JSON", us, 1);
			printf("%-34s %zu bytes\n", "", strlen(text));
		}
		for (uint32_t k = 0; k < 5; k++) {
			struct dl_policy_input in = {.cluster = &cl,
						     .jobs = jobs,
						     .njobs = m,
						     .cfg = &cfg,
						     .now = t0,
						     .forecast = NULL,
						     .rt = NULL};
			struct dl_plan *plan;
			double a = bench_now_us();

			st2 = dl_rt_state_new();
			if (dl_rt_state_from_json(st2, text, err,
						  sizeof(err))) {
				fprintf(stderr, "restore: %s\n", err);
				return 1;
			}
			us[k] = bench_now_us() - a;
			in.rt = st2;
			a = bench_now_us();
			plan = dl_policy_plan(&in, err, sizeof(err));
			us[8 + k] = bench_now_us() - a;
			dl_plan_free(plan);
			dl_rt_state_free(st2);
		}
		report("restore from JSON", us, 5);
		report("plan cycle with rebuild", us + 8, 5);
		free(text);
		for (uint32_t i = 0; i < m; i++)
			dl_job_free(jobs[i]);
		free(jobs);
		dl_cluster_free(&cl);
		dl_config_free(&cfg);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %.1f MB\n", ru.ru_maxrss / 1024.0);
	dl_rt_state_free(st);
	free(us);
	return 0;
}
