/*
 * bench_ras.c - speed of the placement policies (doc/design.md §11):
 *   1. a ras plan cycle (Algorithm 1, 10 rounds), 1,000 jobs x 1,000 nodes;
 *   2. the same cycle with the reverse policy and a 24 h forecast;
 *   3. reverse fitting alone: 1,000 jobs over a 24 h f(t) at 1-minute
 *      resolution (availability series + Algorithm 2);
 *   4. the placement's worst case: every job with its own task profile.
 * Prints a Markdown report (machine, command, min/median/max of N runs).
 *
 *   bench/bench_ras [runs]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/model/forecast.h"
#include "common/policy/policy.h"
#include "common/policy/reverse.h"
#include "common/estimate/stats.h"
#include "bench_util.h"

#define NJOBS  1000
#define NNODES 1000
#define DAY    86400

static uint64_t rng = 12345;

static double urand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double) (rng >> 11) / 9007199254740992.0;
}

static void report(const char *what, double *t, int n, double target)
{
	dl_sort_doubles(t, n);
	printf("| %s | %.2f | %.2f | %.2f | %s |\n", what, t[0], t[n / 2],
	       t[n - 1],
	       target > 0 ? (t[n / 2] <= target ? "yes" : "**no**") : "-");
}

static void build_cluster(struct dl_cluster *cl)
{
	dl_cluster_init(cl, NNODES);
	dl_cluster_add_partition(cl, "batch");
	for (uint32_t i = 0; i < NNODES; i++) {
		char name[32];

		snprintf(name, sizeof(name), "n%u", i + 1);
		dl_node_set(&cl->nodes[i], name, 32, 128000, DL_POOL_REGULAR);
		dl_partset_add(&cl->nodes[i].partitions, 0);
		cl->nodes[i].io = 500;
	}
}

/* 1,000 map arrays: lognormal-ish sizes, 8 task profiles (or one per job),
 * some tasks running, deadlines spread over the next day. */
static void build_jobs(struct dl_job **jobs, bool distinct, double now)
{
	static const struct dl_demand prof[8] = {
		{1, 2000, 10}, {1, 4000, 60},  {2, 4000, 20},  {4, 8000, 5},
		{1, 1000, 30}, {2, 16000, 10}, {1, 2000, 100}, {3, 6000, 40},
	};

	rng = 777;
	for (uint32_t j = 0; j < NJOBS; j++) {
		struct dl_job *x = dl_job_new(j + 1, "u", "job", "acct");
		uint32_t tasks = 20 + (uint32_t) exp(3 + 2 * urand());
		uint32_t done = (uint32_t) (tasks * 0.3 * urand());
		uint32_t run = (uint32_t) fmin(tasks - done, 5 * urand());

		dl_phase_init(x, DL_MAP, tasks, 1, 1000);
		x->submit = now - 3600 * urand();
		x->soft_deadline = now + 1800 + DAY * urand();
		x->profile.map = prof[j % 8];
		if (distinct)
			x->profile.map.io += j * 0.001;
		x->profile.given = true;
		for (uint32_t k = 0; k < done; k++)
			dl_phase_add_completed(&x->phase[DL_MAP],
					       60 + 600 * urand(),
					       DL_POOL_REGULAR);
		for (uint32_t k = 0; k < run; k++)
			dl_phase_add_running(
				&x->phase[DL_MAP], now - 100 * urand(),
				(uint32_t) (NNODES * urand()), DL_POOL_REGULAR);
		jobs[j] = x;
	}
}

/* A diurnal external load: peak around hour 18, noise. */
static struct dl_forecast *build_forecast(void)
{
	struct dl_forecast *f = dl_forecast_new(0, 60, DAY, 1440);
	double *v = malloc(1440 * sizeof(*v));

	for (int i = 0; i < 1440; i++) {
		double h = i / 60.0;

		v[i] = 0.35 + 0.3 * cos((h - 18) * M_PI / 12) +
		       0.05 * (urand() - 0.5);
		v[i] = fmin(1, fmax(0, v[i]));
	}
	dl_forecast_add_class(f, "front", "n[1-600]", 0, v);
	for (int i = 0; i < 1440; i++)
		v[i] *= 0.3;
	dl_forecast_add_class(f, "rest", "*", 0, v);
	free(v);
	return f;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');

			if (c) {
				snprintf(buf, len, "%s", c + 2);
				buf[strcspn(buf, "\n")] = '\0';
			}
			break;
		}
	fclose(f);
}

static int plan_runs(const char *policy, struct dl_cluster *cl,
		     struct dl_job **jobs, const struct dl_forecast *f,
		     double now, int runs, double *t, uint64_t *place)
{
	struct dl_config cfg;
	char err[256];

	dl_config_defaults(&cfg);
	dl_config_set(&cfg, "Policy", policy, err, sizeof(err));
	dl_config_set(&cfg, "RasRounds", "10", err, sizeof(err));
	for (int r = 0; r < runs; r++) {
		struct dl_policy_input in = {.cluster = cl,
					     .jobs = jobs,
					     .njobs = NJOBS,
					     .cfg = &cfg,
					     .now = now,
					     .forecast = f,
					     .rt = NULL};
		double t0 = bench_now_us() / 1e3;
		struct dl_plan *p = dl_policy_plan(&in, err, sizeof(err));

		t[r] = bench_now_us() / 1e3 - t0;
		if (!p) {
			fprintf(stderr, "plan failed: %s\n", err);
			return 1;
		}
		*place = 0;
		for (uint32_t k = 0; k < p->nplace; k++)
			*place += p->place[k].maps;
		dl_plan_free(p);
	}
	dl_config_free(&cfg);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 11;
	struct dl_cluster cl;
	struct dl_job **jobs = calloc(NJOBS, sizeof(*jobs));
	struct dl_forecast *f;
	double *t = calloc(runs > 0 ? runs : 1, sizeof(*t));
	double now = 50000;
	uint64_t placed = 0, placed_rev = 0, placed_worst = 0;
	char cpu[128], date[64];
	time_t wall = time(NULL);
	int rc = 0;

	if (runs < 1 || runs > 1000 || !jobs || !t)
		return 2;
	build_cluster(&cl);
	f = build_forecast();
	cpu_model(cpu, sizeof(cpu));
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&wall));
	printf("# ras / reverse benchmark\n\n");
	printf("- date: %s\n- machine: %ld CPUs (nproc), %s\n", date,
	       sysconf(_SC_NPROCESSORS_ONLN), cpu);
	printf("- command: `%s %d` (`make bench-ras`; default CFLAGS -g -O2)\n",
	       argv[0], runs);
	printf("- workload: %d map arrays (20-420 tasks, 30%% done at most, up "
	       "to 5 running), %d nodes of 32 CPUs / 128 GB / 500 MB/s, 8 task "
	       "profiles, deadlines over the next 24 h; forecast: 2 classes, "
	       "24 h at 1-minute steps\n",
	       NJOBS, NNODES);
	{
		FILE *la = fopen("/proc/loadavg", "r");
		char buf[64] = "unknown";

		if (la) {
			if (fgets(buf, sizeof(buf), la))
				buf[strcspn(buf, "\n")] = '\0';
			fclose(la);
		}
		printf("- load average at start (shared machine): %s\n", buf);
	}
	printf("- %d runs each; times in ms\n\n", runs);
	printf("| what | min | median | max | median within target "
	       "|\n|---|---|---|---|---|\n");

	build_jobs(jobs, false, now);
	rc |= plan_runs("ras", &cl, jobs, NULL, now, runs, t, &placed);
	report("ras plan cycle, 1,000 jobs x 1,000 nodes, 10 rounds (target "
	       "100 ms)",
	       t, runs, 100);
	rc |= plan_runs("reverse", &cl, jobs, f, now, runs, t, &placed_rev);
	report("reverse plan cycle (fitting + placement), same, 24 h f(t) "
	       "(target 100 ms)",
	       t, runs, 100);

	/* reverse fitting alone */
	{
		struct dl_avail_node *an = calloc(NNODES, sizeof(*an));
		struct dl_fit_job *fj = calloc(NJOBS, sizeof(*fj));

		for (uint32_t i = 0; i < NNODES; i++) {
			an[i].cap[0] = 32;
			an[i].cap[1] = 128000;
			an[i].cap[2] = 500;
			an[i].cls = dl_forecast_class_of(f, cl.nodes[i].name);
			an[i].usable = true;
		}
		for (int r = 0; r < runs; r++) {
			struct dl_avail av;
			double t0;

			rng = 99;
			for (uint32_t j = 0; j < NJOBS; j++) {
				fj[j].deadline = now + 600 + DAY * urand();
				fj[j].work = 20 + 400 * urand();
				fj[j].mu = 60 + 600 * urand();
				fj[j].demand[0] = 1 + (j % 4);
				fj[j].demand[1] = 2000;
				fj[j].demand[2] = 10 * (j % 7);
			}
			t0 = bench_now_us() / 1e3;
			if (dl_avail_build(&av, an, NNODES, f) ||
			    dl_reverse_fit(fj, NJOBS, &av, now, NULL, 0, NULL))
				rc = 1;
			t[r] = bench_now_us() / 1e3 - t0;
			dl_avail_free(&av);
		}
		report("reverse fitting alone, 1,000 jobs, 24 h f(t) at 1 min "
		       "(target 100 ms)",
		       t, runs, 100);
		free(an);
		free(fj);
	}

	for (uint32_t j = 0; j < NJOBS; j++)
		dl_job_free(jobs[j]);
	build_jobs(jobs, true, now);
	rc |= plan_runs("ras", &cl, jobs, NULL, now, runs, t, &placed_worst);
	report("ras plan cycle, worst case: 1,000 distinct task profiles "
	       "(target 100 ms)",
	       t, runs, 100);
	printf("\nMap tasks placed per cycle: ras %llu, reverse %llu, distinct "
	       "profiles %llu.\n",
	       (unsigned long long) placed, (unsigned long long) placed_rev,
	       (unsigned long long) placed_worst);
	for (uint32_t j = 0; j < NJOBS; j++)
		dl_job_free(jobs[j]);
	free(jobs);
	free(t);
	dl_forecast_free(f);
	dl_cluster_free(&cl);
	return rc;
}
