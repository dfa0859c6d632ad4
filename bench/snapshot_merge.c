/*
 * snapshot_merge.c - the cost of sched/deadline's snapshot of Slurm's
 * records, its merge into the plugin's memory and the core's jobs built
 * from them (snapshot.c, the code slurmctld runs), as the number of deadline
 * arrays, running tasks and finished task records grows.
 *
 * No slurmctld: Slurm's own node table, lists and bitmaps (libslurmfull)
 * hold synthetic records, and this program stands in for slurmctld's
 * job_list, part_list and last_job_update.  Every array has a head record
 * with its pending tasks, RUNNING running task records and FINISHED
 * completed task records (the records Slurm keeps until MinJobAge), on
 * NODES nodes of one partition; half of the arrays are the reduce arrays
 * of the other half (afterok).  No estimator is configured, so finished
 * tasks are counted but not queued for it.
 *
 *   snapshot_merge [--arrays N] [--running R] [--finished F]
 *                  [--nodes M] [--runs K]
 *
 * Prints one line: arrays, task records, the median over K cycles (after
 * one that counts the finished tasks) of the snapshot (what runs under
 * slurmctld's read locks), the merge and the job build (no lock), and
 * nanoseconds per task record.  A benchmark, not a test: results go to
 * bench/results/ with the machine and command (bench/run-snapshot.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "common/estimate/stats.h"
#include "bench_util.h"
#include "plugins/sched/deadline/sched_deadline.h"

/* slurmctld's globals that snapshot.c reads */
List job_list;
List part_list;
time_t last_job_update;
slurmctld_config_t slurmctld_config; /* its boot time, for restarts */

static uint32_t next_job_id = 1000;

static job_record_t *new_record(uint32_t array_id, uint32_t task_id,
				uint32_t state, part_record_t *part, int node,
				time_t now)
{
	job_record_t *j = xmalloc(sizeof(*j));

	j->magic = JOB_MAGIC;
	j->job_id = task_id == NO_VAL ? array_id : next_job_id++;
	j->array_job_id = array_id;
	j->array_task_id = task_id;
	j->job_state = state;
	j->user_id = getuid();
	j->name = xstrdup_printf("bench%u", array_id);
	j->account = xstrdup("bench");
	j->partition = xstrdup(part->name);
	j->part_ptr = part;
	j->priority = 1000;
	j->time_limit = 60;
	j->deadline = now + 3600;
	j->total_cpus = 1;
	j->node_cnt = 1;
	j->details = xmalloc(sizeof(*j->details));
	j->details->submit_time = now - 600;
	j->details->min_cpus = 1;
	j->details->pn_min_memory = 1000;
	if (state != JOB_PENDING) {
		j->start_time = now - 300;
		j->end_time = state == JOB_RUNNING ? 0 : now - 30;
		j->node_bitmap = bit_alloc(node_record_count);
		bit_set(j->node_bitmap, node);
	}
	return j;
}

static void free_record(void *x)
{
	job_record_t *j = x;

	xfree(j->name);
	xfree(j->account);
	xfree(j->partition);
	xfree(j->details);
	FREE_NULL_BITMAP(j->node_bitmap);
	if (j->array_recs) {
		FREE_NULL_BITMAP(j->array_recs->task_id_bitmap);
		xfree(j->array_recs);
	}
	xfree(j);
}

/* A map array and, for every second array, the reduce array after it. */
static void add_array(uint32_t id, uint32_t running, uint32_t finished,
		      uint32_t pending, part_record_t *part, uint32_t nodes,
		      time_t now, bool reduce_of_previous)
{
	job_record_t *head = new_record(id, NO_VAL, JOB_PENDING, part, 0, now);
	uint32_t task = 0;

	head->array_recs = xmalloc(sizeof(*head->array_recs));
	head->array_recs->task_cnt = pending;
	head->array_recs->task_id_bitmap =
		bit_alloc(running + finished + pending + 1);
	if (reduce_of_previous) {
		depend_spec_t *dep = xmalloc(sizeof(*dep));

		dep->depend_type = SLURM_DEPEND_AFTER_OK;
		dep->array_task_id = INFINITE;
		dep->job_id = id - 2; /* the map array; its record: below */
		head->details->depend_list = list_create(xfree_ptr);
		list_append(head->details->depend_list, dep);
	}
	list_append(job_list, head);
	for (uint32_t k = 0; k < finished; k++, task++)
		list_append(job_list,
			    new_record(id, task, JOB_COMPLETE, part,
				       (int) ((id + task) % nodes), now));
	for (uint32_t k = 0; k < running; k++, task++)
		list_append(job_list,
			    new_record(id, task, JOB_RUNNING, part,
				       (int) ((id + task) % nodes), now));
}

/* A fingerprint of the jobs the plan would get: every count and running task
 * in order, so that a faster snapshot.c can be shown to build the same. */
static uint64_t jobs_fingerprint(struct dl_job **jobs, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;

#define MIX(v) (h = (h ^ (uint64_t) (v)) * 1099511628211ull)
	for (uint32_t i = 0; i < n; i++) {
		MIX(jobs[i]->id);
		MIX(jobs[i]->reduce_id);
		MIX(jobs[i]->partition);
		for (int p = 0; p < DL_PHASES; p++) {
			const struct dl_phase *ph = &jobs[i]->phase[p];

			MIX(ph->tasks);
			MIX(ph->completed);
			MIX(ph->failed);
			MIX(ph->nrunning);
			for (uint32_t k = 0; k < ph->nrunning; k++) {
				MIX(ph->running[k].start);
				MIX(ph->running[k].node);
				MIX(ph->running[k].pool);
			}
		}
	}
#undef MIX
	return h;
}

static int find_by_id(void *x, void *key)
{
	return ((job_record_t *) x)->job_id == *(uint32_t *) key;
}

int main(int argc, char **argv)
{
	uint32_t arrays = 1000, running = 10, finished = 0, nodes = 1000,
		 runs = 9, pending = 20;
	log_options_t lopts = LOG_OPTS_STDERR_ONLY;
	part_record_t *part;
	struct dl_config cfg;
	struct dl_sstate st;
	double *t_take, *t_merge, *t_build, records;
	time_t now = 1700000000; /* fixed: the fingerprint is comparable */
	uint64_t sig = 0, fingerprint = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		uint32_t v = (uint32_t) strtoul(argv[i + 1], NULL, 10);

		if (!strcmp(argv[i], "--arrays"))
			arrays = v;
		else if (!strcmp(argv[i], "--running"))
			running = v;
		else if (!strcmp(argv[i], "--finished"))
			finished = v;
		else if (!strcmp(argv[i], "--nodes"))
			nodes = v;
		else if (!strcmp(argv[i], "--runs"))
			runs = v;
		else {
			fprintf(stderr,
				"usage: %s [--arrays N] [--running R] "
				"[--finished F] [--nodes M] [--runs K]\n",
				argv[0]);
			return 2;
		}
	}
	if (!arrays || !nodes || !runs) {
		fprintf(stderr, "snapshot_merge: arrays, nodes and runs must "
				"be > 0\n");
		return 2;
	}
	log_init(argv[0], lopts, 0, NULL);
	/* the node table as slurmctld holds it (create_node_record would
	 * load a select plugin) */
	node_record_table_ptr = xcalloc(nodes, sizeof(*node_record_table_ptr));
	for (uint32_t n = 0; n < nodes; n++) {
		node_record_t *nd = xmalloc(sizeof(*nd));

		nd->magic = NODE_MAGIC;
		nd->index = (int) n;
		nd->name = xstrdup_printf("n%u", n);
		nd->cpus = 64;
		nd->real_memory = 256000;
		nd->node_state = NODE_STATE_IDLE;
		node_record_table_ptr[n] = nd;
	}
	node_record_count = (int) nodes;
	part_list = list_create(NULL);
	part = xmalloc(sizeof(*part));
	part->name = xstrdup("batch");
	part->node_bitmap = bit_alloc(node_record_count);
	bit_set_all(part->node_bitmap);
	list_append(part_list, part);
	job_list = list_create(free_record);
	for (uint32_t a = 0; a < arrays; a++) {
		uint32_t id = 1 + 2 * a;

		add_array(id, running, finished, pending, part, nodes, now,
			  a % 2 == 1);
	}
	/* the reduce arrays' dependencies point at their map arrays */
	{
		ListIterator it = list_iterator_create(job_list);
		job_record_t *j;

		while ((j = list_next(it))) {
			depend_spec_t *dep;
			uint32_t map_id;

			if (!j->details || !j->details->depend_list)
				continue;
			dep = list_peek(j->details->depend_list);
			map_id = (uint32_t) dep->job_id;
			dep->job_ptr =
				list_find_first(job_list, find_by_id, &map_id);
		}
		list_iterator_destroy(it);
	}
	last_job_update = now;
	dl_config_defaults(&cfg);
	dl_sstate_init(&st);
	t_take = calloc(runs, sizeof(*t_take));
	t_merge = calloc(runs, sizeof(*t_merge));
	t_build = calloc(runs, sizeof(*t_build));
	if (!t_take || !t_merge || !t_build)
		return 1;
	for (uint32_t r = 0; r <= runs; r++) {
		struct sdl_snapshot s;
		struct dl_job **jobs = NULL;
		uint32_t njobs = 0;
		double t0, t1, t2, t3;

		t0 = bench_now_us();
		sdl_snapshot_take(&s, &st, &cfg);
		t1 = bench_now_us();
		sig = sdl_snapshot_merge(&s, &st, (double) now);
		t2 = bench_now_us();
		if (sdl_build_jobs(&s, &st, &jobs, &njobs)) {
			fprintf(stderr, "snapshot_merge: build failed\n");
			return 1;
		}
		t3 = bench_now_us();
		if (r) { /* the first cycle counts the finished tasks */
			t_take[r - 1] = t1 - t0;
			t_merge[r - 1] = t2 - t1;
			t_build[r - 1] = t3 - t2;
		}
		if (r == runs) {
			printf("jobs %u ", njobs);
			fingerprint = jobs_fingerprint(jobs, njobs);
		}
		sdl_free_jobs(jobs, njobs);
		sdl_snapshot_free(&s);
	}
	dl_sort_doubles(t_take, runs);
	dl_sort_doubles(t_merge, runs);
	dl_sort_doubles(t_build, runs);
	records = (double) arrays * (1 + running + finished);
	printf("arrays %u records %.0f running %u take_us %.0f merge_us %.0f "
	       "build_us %.0f total_ns_per_record %.0f sig %016llx "
	       "fingerprint %016llx\n",
	       arrays, records, arrays * running, t_take[runs / 2],
	       t_merge[runs / 2], t_build[runs / 2],
	       (t_take[runs / 2] + t_merge[runs / 2] + t_build[runs / 2]) *
		       1000 / records,
	       (unsigned long long) sig, (unsigned long long) fingerprint);
	dl_sstate_free(&st);
	dl_config_free(&cfg);
	list_destroy(job_list);
	free(t_take);
	free(t_merge);
	free(t_build);
	return 0;
}
