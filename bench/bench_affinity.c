/*
 * bench_affinity.c - what data affinity costs inside slurmctld's locks
 * (select/deadline's job_test; doc/data-affinity.md):
 *   1. parsing the largest --input-nodes values a job can carry: (a)
 *      stepped ranges covering 4,000,000 tasks, (b) a distinct host list
 *      per task up to the 16 KiB limit, (c) 65,536 host names; in sbatch
 *      (canonical, every index) and in slurmctld, once per array
 *      (dl_locality_parse_opt: normal form kept, indexes cut to the
 *      array's: 1,001 as Slurm's default MaxArraySize, and 4,000,001);
 *   2. the lookup of a task's preferred hosts (every start attempt);
 *   3. expanding one host list into names (building a node bitmap);
 *   4. the deferral table: an attempt (find + count) and a forget with
 *      the table at its bound (65,536 waiting tasks).
 * Prints a Markdown report (machine, command, min/median/max of N runs).
 *
 *   bench/bench_affinity [runs]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/policy/affinity.h"
#include "common/model/locality.h"
#include "common/model/nodeset.h"
#include "common/estimate/stats.h"
#include "bench_util.h"

struct stat3 {
	double min, med, max;
};

static struct stat3 summarise(double *v, int n)
{
	dl_sort_doubles(v, n);
	return (struct stat3){v[0], v[n / 2], v[n - 1]};
}

/* 700 nodes, node k reading tasks k, k+700, ... of 0..3999999: every
 * task index Slurm allows, one stepped range per node */
static char *spec_stepped(void)
{
	size_t cap = 64 * 1024, used = 0;
	char *s = malloc(cap);

	for (int k = 0; k < 700; k++)
		used += (size_t) snprintf(
			s + used, cap - used, "%s%d-%d:700=n%d", k ? ";" : "",
			k, k + 700 * ((3999999 - k) / 700), k + 1);
	return s;
}

static char *spec_per_task(void)
{
	size_t cap = 64 * 1024, used = 0;
	char *s = malloc(cap);

	/* distinct 3-node lists per task until the normal form is ~16 KiB */
	for (int t = 0; used < 16300; t++)
		used += (size_t) snprintf(s + used, cap - used, "%s%d=n[%d-%d]",
					  t ? ";" : "", t, 3 * t + 1,
					  3 * t + 3);
	return s;
}

static int count_name(const char *name, void *ctx)
{
	(void) name;
	(*(unsigned *) ctx)++;
	return 0;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 11;
	static const char *names[] = {
		"parse 700 stepped ranges covering 4,000,000 tasks",
		"parse a 3-host list per task, distinct, up to the limit",
		"parse '*=n[1-65536]' (65,536 host names)",
	};
	char *specs[3], err[256], host[64], load[128] = "";
	double *t = calloc((size_t) (runs > 0 ? runs : 1), sizeof(double));
	struct dl_locality loc;
	struct dl_deferrals tab;
	FILE *f;

	if (runs < 1 || !t)
		return 2;
	specs[0] = spec_stepped();
	specs[1] = spec_per_task();
	specs[2] = strdup("*=n[1-65536]");
	if ((f = fopen("/proc/loadavg", "r"))) {
		if (!fgets(load, sizeof(load), f))
			load[0] = '\0';
		fclose(f);
		load[strcspn(load, "\n")] = '\0';
	}
	gethostname(host, sizeof(host));
	printf("# data affinity benchmark\n\n");
	printf("- machine: %ld CPUs (nproc); see the results file for the "
	       "CPU model\n",
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("- command: `./bench/bench_affinity %d` (`make "
	       "bench-affinity`)\n",
	       runs);
	printf("- load average at start (shared machine): %s\n", load);
	printf("- %d runs each; times in microseconds\n\n", runs);
	printf("| what | min | median | max |\n|---|---|---|---|\n");
	for (int k = 0; k < 3; k++) {
		static char norm[DL_LOCALITY_MAX_TEXT + 1];
		static const struct {
			const char *where;
			struct dl_locality_opts o;
		} modes[] = {
			{"sbatch", {DL_LOCALITY_MAX_TASK, true, true}},
			{"slurmctld, MaxArraySize=1001", {1000, false, false}},
			{"slurmctld, MaxArraySize=4000001",
			 {DL_LOCALITY_MAX_TASK, false, false}},
		};
		size_t len;

		/* what a job carries: the normal form, within the limit */
		if (dl_locality_normalise(specs[k], norm, sizeof(norm), err,
					  sizeof(err))) {
			fprintf(stderr, "%s: %s\n", names[k], err);
			return 1;
		}
		free(specs[k]);
		specs[k] = strdup(norm);
		len = strlen(specs[k]);
		for (int m = 0; m < 3; m++) {
			struct stat3 st;

			for (int r = 0; r < runs; r++) {
				double t0 = bench_now_us();

				if (dl_locality_parse_opt(specs[k], &modes[m].o,
							  &loc, err,
							  sizeof(err))) {
					fprintf(stderr, "%s: %s\n", names[k],
						err);
					return 1;
				}
				t[r] = bench_now_us() - t0;
				dl_locality_free(&loc);
			}
			st = summarise(t, runs);
			printf("| %s, %zu bytes, in %s | %.0f | %.0f | %.0f "
			       "|\n",
			       names[k], len, modes[m].where, st.min, st.med,
			       st.max);
		}
	}
	/* lookups in the stepped spec (the slowest: ranges interleave) */
	if (dl_locality_parse(specs[0], &loc, err, sizeof(err)))
		return 1;
	for (int r = 0; r < runs; r++) {
		volatile int32_t sink = 0;
		double t0 = bench_now_us();

		for (uint32_t task = 0; task < 4000000; task += 97)
			sink += dl_locality_set_of(&loc, task);
		t[r] = (bench_now_us() - t0) / (4000000 / 97 + 1);
		(void) sink;
	}
	{
		struct stat3 s = summarise(t, runs);

		printf("| lookup of a task's hosts, 700 interleaved stepped "
		       "ranges (per lookup) | %.3f | %.3f | %.3f |\n",
		       s.min, s.med, s.max);
	}
	dl_locality_free(&loc);
	for (int r = 0; r < runs; r++) {
		unsigned n = 0;
		double t0 = bench_now_us();

		dl_nodeset_foreach("n[1-65536]", 65536, count_name, &n, err,
				   sizeof(err));
		t[r] = bench_now_us() - t0;
		if (n != 65536)
			return 1;
	}
	{
		struct stat3 s = summarise(t, runs);

		printf("| expand a host list of 65,536 names | %.0f | %.0f | "
		       "%.0f |\n",
		       s.min, s.med, s.max);
	}
	/* the other way to build a node bitmap (a host list longer than the
	 * cluster): match each of 10,000 node names */
	for (int r = 0; r < runs; r++) {
		unsigned n = 0;
		char name[32];
		double t0 = bench_now_us();

		for (int i = 1; i <= 10000; i++) {
			snprintf(name, sizeof(name), "n%d", i);
			n += dl_nodeset_match("n[1-65536]", name);
		}
		t[r] = bench_now_us() - t0;
		if (n != 10000)
			return 1;
	}
	{
		struct stat3 s = summarise(t, runs);

		printf("| match 10,000 node names against 'n[1-65536]' | %.0f "
		       "| %.0f | %.0f |\n",
		       s.min, s.med, s.max);
	}
	/* the deferral table at its bound */
	dl_deferrals_init(&tab, DL_DEFERRALS_MAX);
	for (uint32_t a = 0; a < DL_DEFERRALS_MAX; a++)
		dl_affinity_attempt(&tab, 1000 + a, 0, 1, false, -1, 5, NULL);
	for (int r = 0; r < runs; r++) {
		double t0 = bench_now_us();

		for (uint32_t a = 0; a < 10000; a++)
			dl_affinity_attempt(&tab,
					    1000 + (a * 7) % DL_DEFERRALS_MAX,
					    0, 2 + r, false, -1, 1000, NULL);
		t[r] = (bench_now_us() - t0) / 10000;
	}
	{
		struct stat3 s = summarise(t, runs);

		printf("| deferral attempt, table full (65,536 tasks), per "
		       "attempt | %.3f | %.3f | %.3f |\n",
		       s.min, s.med, s.max);
	}
	for (int r = 0; r < runs; r++) {
		uint32_t a = 1000 + (uint32_t) r * 997 % DL_DEFERRALS_MAX;
		double t0 = bench_now_us();

		/* forget and re-insert: the memmove of a sorted table */
		dl_deferrals_forget(&tab, a, 0);
		dl_affinity_attempt(&tab, a, 0, 1, false, -1, 5, NULL);
		t[r] = bench_now_us() - t0;
	}
	{
		struct stat3 s = summarise(t, runs);

		printf("| a task starts (forget) and another is deferred "
		       "(insert), table full | %.1f | %.1f | %.1f |\n",
		       s.min, s.med, s.max);
	}
	dl_deferrals_free(&tab);
	for (int k = 0; k < 3; k++)
		free(specs[k]);
	free(t);
	return 0;
}
