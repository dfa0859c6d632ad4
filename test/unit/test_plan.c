/*
 * test_plan.c - plan objects, the shared current plan, JSON round trips and
 * atomic plan files.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/estimate/estimate.h"
#include "common/io/atomic_file.h"
#include "common/plan/plan.h"
#include "common/plan/plan_json.h"
#include "common/policy/reserve.h"
#include "fixtures.h"

static struct dl_plan *sample_plan(void)
{
	struct dl_plan *p = dl_plan_new(3);

	ck_assert_ptr_nonnull(p);
	p->now = 1700000000.5;
	p->policy = DL_POLICY_RAS;
	p->cycle = 42;
	for (uint32_t i = 0; i < 3; i++) {
		struct dl_plan_job *j = &p->jobs[i];

		j->job_id = 100 + i;
		j->reduce_id = i == 1 ? 200 : 0;
		snprintf(j->user, sizeof(j->user), "user%u", i);
		snprintf(j->name, sizeof(j->name), "job \"%u\"", i);
		j->phase = i == 2 ? -1 : (int) i;
		j->cls = (enum dl_class) i;
		j->verdict = (enum dl_verdict)(i + 1);
		j->rank = 3 - i;
		j->alloc = 10 * i;
		j->alloc_pool[1] = i;
		j->urgent = i == 0;
		j->managed = true;
		j->need = i == 0 ? NAN : 2.5 * i;
		j->sreq = i == 0 ? INFINITY : 1.5;
		j->mu = 12.25;
		j->deadline = 1700000600;
		j->predicted_finish = 1700000500 + i;
		j->tasks[0] = 100;
		j->pending[1] = 7;
		j->hopeless_since = i == 1 ? 1699999000.25 : 0;
		j->ahead_of = i == 2 ? 101 : 0;
		j->promise = i == 1 ? 1700003600.5 : 0;
		j->given_up_late = i == 1;
		snprintf(j->explain, sizeof(j->explain), "why %u", i);
	}
	p->nplace = 2;
	p->place = calloc(2, sizeof(*p->place));
	p->place[0] = (struct dl_place){0, 5, 3, 1};
	p->place[1] = (struct dl_place){2, 7, 1, 0};
	snprintf(p->stats.estimator, sizeof(p->stats.estimator), "ok");
	p->stats.compute_us = 321;
	return p;
}

START_TEST(test_finalize_sorts_and_renumbers)
{
	struct dl_plan *p = sample_plan();

	dl_plan_finalize(p);
	ck_assert_uint_eq(p->jobs[0].rank, 1);
	ck_assert_uint_eq(p->jobs[0].job_id, 102);
	ck_assert_uint_eq(p->jobs[2].job_id, 100);
	/* placement rows still point at the same jobs */
	ck_assert_uint_eq(p->jobs[p->place[0].job].job_id, 100);
	ck_assert_uint_eq(p->jobs[p->place[1].job].job_id, 102);
	ck_assert_uint_eq(p->stats.jobs, 3);
	ck_assert_uint_eq(p->stats.per_class[DL_CLASS_LATE], 1);
	ck_assert_ptr_eq(dl_plan_find(p, 200), &p->jobs[1]);
	ck_assert_ptr_null(dl_plan_find(p, 999));
	ck_assert_ptr_null(dl_plan_find(p, 0));
	dl_plan_free(p);
}
END_TEST

START_TEST(test_json_roundtrip)
{
	struct dl_plan *p = sample_plan(), *q;
	char *text, err[256];

	dl_plan_finalize(p);
	text = dl_plan_to_string(p);
	ck_assert_ptr_nonnull(text);
	q = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->njobs, 3);
	ck_assert_int_eq(q->policy, DL_POLICY_RAS);
	ck_assert_uint_eq(q->cycle, 42);
	ck_assert_double_eq_tol(q->now, p->now, 1e-6);
	for (uint32_t i = 0; i < 3; i++) {
		const struct dl_plan_job *a = &p->jobs[i], *b = &q->jobs[i];

		ck_assert_uint_eq(a->job_id, b->job_id);
		ck_assert_uint_eq(a->reduce_id, b->reduce_id);
		ck_assert_str_eq(a->name, b->name);
		ck_assert_int_eq(a->phase, b->phase);
		ck_assert_int_eq(a->cls, b->cls);
		ck_assert_int_eq(a->verdict, b->verdict);
		ck_assert_uint_eq(a->alloc, b->alloc);
		ck_assert_uint_eq(a->alloc_pool[1], b->alloc_pool[1]);
		ck_assert_int_eq(a->urgent, b->urgent);
		ck_assert_str_eq(a->explain, b->explain);
		ck_assert_uint_eq(a->tasks[0], b->tasks[0]);
		ck_assert_uint_eq(a->pending[1], b->pending[1]);
		/* triage's memory survives a restart */
		ck_assert_double_eq_tol(a->hopeless_since, b->hopeless_since,
					1e-6);
		ck_assert_uint_eq(a->ahead_of, b->ahead_of);
		ck_assert_double_eq_tol(a->promise, b->promise, 1e-6);
		ck_assert_int_eq(a->given_up_late, b->given_up_late);
		/* non-finite numbers travel as null and come back as NaN */
		if (isfinite(a->need))
			ck_assert_double_eq_tol(a->need, b->need, 1e-9);
		else
			ck_assert(isnan(b->need));
	}
	ck_assert_uint_eq(q->nplace, 2);
	ck_assert_uint_eq(q->jobs[q->place[0].job].job_id, 100);
	ck_assert_str_eq(q->stats.estimator, "ok");
	ck_assert_uint_eq(q->stats.compute_us, 321);
	free(text);
	dl_plan_free(p);
	dl_plan_free(q);
}
END_TEST

/* A plan file written before triage's memory was saved reads as "never
 * given up, ahead of nobody, promised nothing". */
START_TEST(test_json_without_triage_memory)
{
	struct dl_plan *p = sample_plan(), *q;
	struct json_object *o, *jobs;
	char err[256];

	dl_plan_finalize(p);
	o = dl_plan_to_json(p);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_object_get_ex(o, "jobs", &jobs));
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object_object_del(json_object_array_get_idx(jobs, i),
				       "hopeless_since");
		json_object_object_del(json_object_array_get_idx(jobs, i),
				       "ahead_of");
		json_object_object_del(json_object_array_get_idx(jobs, i),
				       "given_up_late");
		json_object_object_del(json_object_array_get_idx(jobs, i),
				       "promise");
	}
	q = dl_plan_from_json(o, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	for (uint32_t i = 0; i < q->njobs; i++) {
		ck_assert_double_eq(q->jobs[i].hopeless_since, 0);
		ck_assert_uint_eq(q->jobs[i].ahead_of, 0);
		ck_assert_double_eq(q->jobs[i].promise, 0);
		ck_assert(!q->jobs[i].given_up_late);
	}
	json_object_put(o);
	dl_plan_free(p);
	dl_plan_free(q);
}
END_TEST

/* Triage's reserve history and arrival rate survive a restart: a wrapped
 * ring comes back as the same set (oldest first), an infinite slack as
 * infinite, a longer list keeps its newest entries, a bad pair fails the
 * plan with a message, an older file reads as "nothing learnt yet". */
START_TEST(test_json_reserve_memory_survives)
{
	struct dl_plan *p = sample_plan(), *q;
	struct json_object *o, *a;
	char *text, err[256];
	double sum_in = 0, sum_out = 0;

	dl_plan_finalize(p);
	for (uint32_t i = 0; i < DL_PLAN_SLACKS + 5; i++)
		dl_reserve_note(p, i == 7 ? INFINITY : 10.0 + i, 3.0 + i);
	p->arrivals.rate = 1.75;
	p->arrivals.at = 1700000000;
	p->arrivals.since = 1699990000;
	for (uint32_t i = 0; i < DL_PLAN_SLACKS; i++)
		sum_in += p->slacks.grain[i];
	text = dl_plan_to_string(p);
	ck_assert_ptr_nonnull(text);
	q = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->slacks.n, DL_PLAN_SLACKS);
	ck_assert_uint_eq(q->slacks.next, 0);
	for (uint32_t i = 0; i < DL_PLAN_SLACKS; i++) {
		sum_out += q->slacks.grain[i];
		/* oldest first: the 6th note (i = 5) survived the wrap;
		 * the 8th was infinite (null in the file) */
		if (i == 2)
			ck_assert(isinf(q->slacks.v[i]));
		else
			ck_assert_double_eq(q->slacks.v[i], 15.0 + i);
	}
	ck_assert_double_eq(sum_in, sum_out);
	ck_assert_double_eq(q->arrivals.rate, 1.75);
	ck_assert_double_eq(q->arrivals.at, 1700000000);
	ck_assert_double_eq(q->arrivals.since, 1699990000);
	/* the same answers from the restored history */
	ck_assert_int_eq(dl_reserve_is_long(&p->slacks, 0.15, 40),
			 dl_reserve_is_long(&q->slacks, 0.15, 40));
	dl_plan_free(q);
	free(text);

	/* an infinite slack noted before the wrap */
	dl_plan_free(p);
	p = sample_plan();
	dl_plan_finalize(p);
	dl_reserve_note(p, INFINITY, 5);
	dl_reserve_note(p, 2, 5);
	text = dl_plan_to_string(p);
	q = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->slacks.n, 2);
	ck_assert_uint_eq(q->slacks.next, 2);
	ck_assert(isinf(q->slacks.v[0]));
	ck_assert_double_eq(q->slacks.v[1], 2);
	ck_assert_double_eq(q->arrivals.at, 0);
	dl_plan_free(q);
	free(text);

	/* 70 entries written by hand: the newest 64 kept */
	o = dl_plan_to_json(p);
	a = json_object_new_array();
	for (int i = 0; i < 70; i++) {
		struct json_object *e = json_object_new_array();

		json_object_array_add(e, json_object_new_double(i));
		json_object_array_add(e, json_object_new_double(1));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "reserve_history", a);
	q = dl_plan_from_json(o, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->slacks.n, DL_PLAN_SLACKS);
	ck_assert_double_eq(q->slacks.v[0], 70 - DL_PLAN_SLACKS);
	ck_assert_double_eq(q->slacks.v[DL_PLAN_SLACKS - 1], 69);
	dl_plan_free(q);

	/* bad pairs and a bad rate: refused, with the entry named */
	{
		static const char *const bad[] = {
			"[[1,2,3]]", "[[-1,2]]", "[[1,\"x\"]]", "[5]", "{}",
		};

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			json_object_object_add(o, "reserve_history",
					       json_tokener_parse(bad[k]));
			err[0] = '\0';
			ck_assert_msg(dl_plan_from_json(o, err, sizeof(err)) ==
					      NULL,
				      "accepted %s", bad[k]);
			ck_assert_ptr_nonnull(strstr(err, "reserve_history"));
		}
		json_object_object_del(o, "reserve_history");
		json_object_object_add(o, "arrivals",
				       json_tokener_parse("{\"rate\":-2,"
							  "\"at\":5}"));
		ck_assert_ptr_null(dl_plan_from_json(o, err, sizeof(err)));
		ck_assert_ptr_nonnull(strstr(err, "arrivals"));
		json_object_object_add(o, "arrivals",
				       json_tokener_parse("{\"rate\":2,"
							  "\"at\":5,"
							  "\"since\":\"x\"}"));
		ck_assert_ptr_null(dl_plan_from_json(o, err, sizeof(err)));
		ck_assert_ptr_nonnull(strstr(err, "since"));
		/* saved before "since" was kept: learnt from time 0 */
		json_object_object_add(o, "arrivals",
				       json_tokener_parse("{\"rate\":2,"
							  "\"at\":5}"));
		q = dl_plan_from_json(o, err, sizeof(err));
		ck_assert_msg(q != NULL, "%s", err);
		ck_assert_double_eq(q->arrivals.rate, 2);
		ck_assert_double_eq(q->arrivals.since, 0);
		dl_plan_free(q);
	}
	/* a file from before: nothing learnt */
	json_object_object_del(o, "arrivals");
	q = dl_plan_from_json(o, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->slacks.n, 0);
	ck_assert_double_eq(q->arrivals.rate, 0);
	dl_plan_free(q);
	json_object_put(o);
	dl_plan_free(p);
}
END_TEST

/* A placement plan restored after a slurmctld restart (from Slurm 23.11:
 * after every reconfigure) is enforced by select/deadline as it was: the
 * nodes the rows index, their capacities (infinite = not constrained) and
 * each job's demand travel in the file; a file written before they did
 * reads with no nodes. */
START_TEST(test_json_placement_survives)
{
	struct dl_plan *p = sample_plan(), *q;
	char *text, *old, *cut, err[256];

	p->nnodes = 8;
	p->nodes = calloc(8, sizeof(*p->nodes));
	for (uint32_t i = 0; i < 8; i++) {
		snprintf(p->nodes[i].name, sizeof(p->nodes[i].name), "n%u",
			 i + 1);
		p->nodes[i].cap[0] = 4;
		p->nodes[i].cap[1] = 1000.5;
		p->nodes[i].cap[2] = i == 5 ? 100 : INFINITY;
	}
	p->jobs[0].demand[DL_MAP] = (struct dl_demand){1, 250, 60};
	p->jobs[0].demand[DL_REDUCE] = (struct dl_demand){2, NAN, 0};
	dl_plan_finalize(p);
	text = dl_plan_to_string(p);
	ck_assert_ptr_nonnull(text);
	q = dl_plan_from_string(text, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->nnodes, 8);
	ck_assert_str_eq(q->nodes[5].name, "n6");
	ck_assert_double_eq(q->nodes[5].cap[0], 4);
	ck_assert_double_eq(q->nodes[5].cap[1], 1000.5);
	ck_assert_double_eq(q->nodes[5].cap[2], 100);
	ck_assert(isinf(q->nodes[7].cap[2]));
	{
		const struct dl_plan_job *j = dl_plan_find(q, 100);

		ck_assert_ptr_nonnull(j);
		ck_assert_double_eq(j->demand[DL_MAP].cpu, 1);
		ck_assert_double_eq(j->demand[DL_MAP].mem, 250);
		ck_assert_double_eq(j->demand[DL_MAP].io, 60);
		ck_assert_double_eq(j->demand[DL_REDUCE].cpu, 2);
		ck_assert(isnan(j->demand[DL_REDUCE].mem));
	}
	ck_assert_uint_eq(q->nplace, 2);
	ck_assert_str_eq(q->nodes[q->place[0].node].name, "n6");
	dl_plan_free(q);

	/* an older file: no "nodes", no "demand" */
	old = strdup(text);
	cut = strstr(old, ",\"nodes\":");
	ck_assert_ptr_nonnull(cut);
	strcpy(cut, "}");
	while ((cut = strstr(old, "\"demand\":"))) {
		char *end = strstr(cut, "]],");

		ck_assert_ptr_nonnull(end);
		memmove(cut, end + 3, strlen(end + 3) + 1);
	}
	q = dl_plan_from_string(old, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->nnodes, 0);
	ck_assert_ptr_null(q->nodes);
	ck_assert_uint_eq(q->nplace, 2);
	ck_assert_double_eq(dl_plan_find(q, 100)->demand[DL_MAP].io, 0);
	dl_plan_free(q);
	free(old);

	/* rows naming a node the plan does not have, bad nodes, bad demand */
	{
		static const char *const swap[][2] = {
			{"\"name\":\"n6\"", "\"name\":\"\""},
			{"\"cap\":[4.0,1000.5,100.0]", "\"cap\":[4,-1,100]"},
			{"\"cap\":[4.0,1000.5,100.0]", "\"cap\":[4,1000]"},
			{"\"demand\":[[1.0,250.0,60.0]",
			 "\"demand\":[[1.0,250.0,\"x\"]"},
		};

		for (size_t k = 0; k < sizeof(swap) / sizeof(swap[0]); k++) {
			char *bad = strdup(text), *at = strstr(bad, swap[k][0]);
			char *b2;

			ck_assert_msg(at != NULL, "no '%s' in %s", swap[k][0],
				      text);
			b2 = calloc(strlen(bad) + strlen(swap[k][1]) + 1, 1);
			memcpy(b2, bad, (size_t) (at - bad));
			strcat(b2, swap[k][1]);
			strcat(b2, at + strlen(swap[k][0]));
			err[0] = '\0';
			ck_assert_msg(dl_plan_from_string(b2, err,
							  sizeof(err)) == NULL,
				      "accepted bad plan %zu", k);
			ck_assert(err[0]);
			free(bad);
			free(b2);
		}
	}
	p->place[0].node = 8; /* out of the 8 nodes */
	free(text);
	text = dl_plan_to_string(p);
	ck_assert_ptr_null(dl_plan_from_string(text, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "names node 8 of 8"));
	free(text);
	dl_plan_free(p);
}
END_TEST

START_TEST(test_json_rejects_bad_input)
{
	char err[256];
	static const char *bad[] = {
		"",
		"[]",
		"{\"version\":1}",
		"{\"version\":2,\"jobs\":[],\"stats\":{},\"placement\":[]}",
		"{\"version\":1,\"jobs\":{},\"stats\":{},\"placement\":[]}",
		"{\"version\":1,\"now\":1,\"policy\":\"adaptive\",\"cycle\":1,"
		"\"stats\":{\"capacity_cpus\":1,\"grants\":1,\"compute_us\":1,"
		"\"snapshot_us\":1,\"apply_us\":1,\"estimator\":\"\"},"
		"\"jobs\":[5],\"placement\":[]}",
		"{\"version\":1,\"now\":1,\"policy\":\"adaptive\",\"cycle\":1,"
		"\"stats\":{\"capacity_cpus\":1,\"grants\":1,\"compute_us\":1,"
		"\"snapshot_us\":1,\"apply_us\":1,\"estimator\":\"\"},"
		"\"jobs\":[],\"placement\":[[0,1,2,3]]}",
		"{\"version\":1} trailing",
		"{\"version\":-1,\"jobs\":[],\"stats\":{},\"placement\":[]}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(dl_plan_from_string(bad[i], err, sizeof(err)) ==
				      NULL,
			      "accepted bad plan %zu", i);
		ck_assert_msg(err[0], "no message for bad plan %zu", i);
	}
	ck_assert_ptr_null(dl_plan_from_string(NULL, err, sizeof(err)));
	ck_assert_ptr_null(dl_plan_from_json(NULL, err, sizeof(err)));
}
END_TEST

START_TEST(test_file_atomic)
{
	char dir[] = "/tmp/dlplanXXXXXX", path[128], err[256];
	struct dl_plan *p = sample_plan(), *q;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	ck_assert_int_eq(dl_plan_write_file(p, path, 0640), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
	q = dl_plan_read_file(path, err, sizeof(err));
	ck_assert_msg(q != NULL, "%s", err);
	ck_assert_uint_eq(q->njobs, 3);
	dl_plan_free(q);
	/* a write into a missing directory fails and leaves nothing */
	snprintf(path, sizeof(path), "%s/missing/plan.json", dir);
	ck_assert_int_eq(dl_plan_write_file(p, path, 0640), ENOENT);
	ck_assert_ptr_null(dl_plan_read_file(path, err, sizeof(err)));
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	unlink(path);
	rmdir(dir);
	dl_plan_free(p);
}
END_TEST

START_TEST(test_read_file_limits)
{
	char path[] = "/tmp/dlreadXXXXXX", *data;
	size_t len;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "hello", 5), 5);
	close(fd);
	ck_assert_int_eq(dl_read_file(path, 100, &data, &len), 0);
	ck_assert_str_eq(data, "hello");
	ck_assert_uint_eq(len, 5);
	free(data);
	ck_assert_int_eq(dl_read_file(path, 4, &data, &len), EFBIG);
	ck_assert_int_eq(dl_read_file("/tmp", 4, &data, &len),
			 DL_E_NOT_REGULAR);
	ck_assert_str_eq(dl_file_strerror(DL_E_NOT_REGULAR),
			 "not a regular file");
	ck_assert_int_eq(dl_read_file(NULL, 4, &data, &len), EINVAL);
	unlink(path);
	/* a FIFO without a writer: open() would wait for ever (issue D5,
	 * AvailabilityForecast=/tmp/fifo); Check's timeout fails a hang */
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(dl_read_file(path, 100, &data, &len),
			 DL_E_NOT_REGULAR);
	ck_assert_int_eq(dl_open_regular(path, NULL), -DL_E_NOT_REGULAR);
	unlink(path);
	ck_assert_int_eq(dl_open_regular("/dev/null", NULL), -DL_E_NOT_REGULAR);
	ck_assert_int_eq(dl_atomic_write(NULL, "x", 1, 0600), EINVAL);
}
END_TEST

static void *reader(void *arg)
{
	(void) arg;
	for (int i = 0; i < 20000; i++) {
		struct dl_plan *p = dl_plan_acquire();

		if (p) {
			/* the plan must stay whole while held */
			if (p->njobs != 3 || p->jobs[0].job_id < 100)
				return (void *) 1;
			dl_plan_release(p);
		}
	}
	return NULL;
}

START_TEST(test_publish_concurrent)
{
	pthread_t t[3];
	void *rc;

	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, reader, NULL), 0);
	for (int i = 0; i < 2000; i++)
		dl_plan_publish(sample_plan());
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(pthread_join(t[i], &rc), 0);
		ck_assert_ptr_null(rc);
	}
	/* a held plan outlives its replacement */
	{
		struct dl_plan *held = dl_plan_acquire();

		ck_assert_ptr_nonnull(held);
		dl_plan_publish(NULL);
		ck_assert_ptr_null(dl_plan_acquire());
		ck_assert_uint_eq(held->jobs[0].job_id, 100);
		dl_plan_release(held);
	}
	dl_plan_release(NULL);
}
END_TEST

START_TEST(test_copy_and_describe)
{
	char small[4];
	struct dl_plan_job o;
	struct dl_job *j = fx_job(42, 10, 0, 100);
	char longname[300];

	dl_plan_copy_str(small, sizeof(small), "abcdef");
	ck_assert_str_eq(small, "abc");
	dl_plan_copy_str(small, sizeof(small), NULL);
	ck_assert_str_eq(small, "");
	dl_plan_copy_str(small, sizeof(small), "ab");
	ck_assert_str_eq(small, "ab");
	dl_plan_copy_str(NULL, 4, "x"); /* no crash */
	dl_plan_copy_str(small, 0, "x");
	ck_assert_str_eq(small, "ab");

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	free(j->name);
	j->name = strdup(longname);
	ck_assert_ptr_nonnull(j->name);
	j->reduce_id = 43;
	fx_done(j, DL_MAP, 3, 10, DL_POOL_REGULAR);
	fx_run(j, DL_MAP, 2, 50, DL_POOL_REGULAR);
	memset(&o, 0xff, sizeof(o));
	dl_plan_job_describe(&o, j);
	ck_assert_uint_eq(o.job_id, 42);
	ck_assert_uint_eq(o.reduce_id, 43);
	ck_assert_str_eq(o.user, "alice");
	ck_assert_str_eq(o.account, "acct");
	ck_assert_uint_eq(strlen(o.name), sizeof(o.name) - 1);
	ck_assert_uint_eq(o.tasks[DL_MAP], 10);
	ck_assert_uint_eq(o.done[DL_MAP], 3);
	ck_assert_uint_eq(o.running[DL_MAP], 2);
	ck_assert_uint_eq(o.pending[DL_MAP], 5);
	ck_assert_uint_eq(o.tasks[DL_REDUCE], 0);
	dl_job_free(j);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(dl_verdict_name(DL_VERDICT_AT_RISK), "at_risk");
	ck_assert_str_eq(dl_verdict_name((enum dl_verdict) 77), "unknown");
	ck_assert_str_eq(dl_class_name(DL_CLASS_NODATA), "no_data");
	ck_assert_str_eq(dl_class_name((enum dl_class) 77), "unknown");
}
END_TEST

/* Issue 12 D9: a job Slurm lost after its admission read "missed" in
 * sdeadline and "finished at ?, 1795506139s before its deadline: met". */
START_TEST(test_outcome_explained)
{
	struct dl_plan_job j;

	memset(&j, 0, sizeof(j));
	j.phase = -1;
	j.deadline = 1795506139;
	j.tasks[DL_MAP] = 4;
	dl_plan_explain_outcome(&j, 0);
	ck_assert_str_eq(dl_plan_outcome(&j), "missed");
	ck_assert_ptr_null(strstr(j.explain, "met"));
	ck_assert_ptr_null(strstr(j.explain, "?"));
	ck_assert_ptr_nonnull(strstr(j.explain, "0 of 4 tasks completed"));
	ck_assert_ptr_nonnull(strstr(j.explain, "deadline missed"));
	/* all done before the deadline */
	j.done[DL_MAP] = 4;
	j.predicted_finish = j.deadline - 30;
	dl_plan_explain_outcome(&j, 0);
	ck_assert_str_eq(dl_plan_outcome(&j), "met");
	ck_assert_ptr_nonnull(
		strstr(j.explain, "30s before its deadline: met"));
	/* after it */
	j.predicted_finish = j.deadline + 5;
	dl_plan_explain_outcome(&j, 0);
	ck_assert_str_eq(dl_plan_outcome(&j), "missed");
	ck_assert_ptr_nonnull(
		strstr(j.explain, "5s after its deadline: missed"));
	/* failed tasks */
	j.done[DL_MAP] = 3;
	dl_plan_explain_outcome(&j, 1);
	ck_assert_ptr_nonnull(strstr(j.explain, "1 of 4 tasks not completed"));
	/* all counted but no end time: never "met" */
	j.done[DL_MAP] = 4;
	j.predicted_finish = 0;
	dl_plan_explain_outcome(&j, 0);
	ck_assert_str_eq(dl_plan_outcome(&j), "missed");
	ck_assert_ptr_nonnull(strstr(j.explain, "deadline missed"));
	/* running: nothing to say */
	j.phase = DL_MAP;
	ck_assert_ptr_null(dl_plan_outcome(&j));
}
END_TEST

/* names are cut at a character boundary */
START_TEST(test_finish_p90)
{
	struct dl_plan_job j;

	/* z_0.9 = 1.281552: 100 s of spread put p90 128 s after the mean */
	ck_assert_double_eq_tol(dl_finish_quantile(1000, 100, 0.9), 1128.1552,
				1e-3);
	ck_assert_double_eq_tol(dl_finish_quantile(1000, 100, 0.5), 1000, 1e-9);
	ck_assert_double_eq_tol(dl_finish_quantile(1000, 100, 0.1), 871.8448,
				1e-3);
	/* no spread known: the finish itself */
	ck_assert_double_eq(dl_finish_quantile(1000, 0, 0.9), 1000);
	ck_assert_double_eq(dl_finish_quantile(1000, NAN, 0.9), 1000);
	ck_assert_double_eq(dl_finish_quantile(1000, INFINITY, 0.9), 1000);
	/* no finish, or a quantile out of range: unknown */
	ck_assert(isnan(dl_finish_quantile(0, 10, 0.9)));
	ck_assert(isnan(dl_finish_quantile(NAN, 10, 0.9)));
	ck_assert(isnan(dl_finish_quantile(INFINITY, 10, 0.9)));
	ck_assert(isnan(dl_finish_quantile(1000, 10, 1)));
	ck_assert(isnan(dl_finish_quantile(1000, 10, 0)));
	memset(&j, 0, sizeof(j));
	j.phase = DL_MAP;
	j.predicted_finish = 5000;
	j.finish_err = 50;
	ck_assert_double_eq_tol(dl_plan_finish_p90(&j), 5064.0776, 1e-3);
	j.phase = -1; /* finished: predicted_finish is the last end */
	ck_assert(isnan(dl_plan_finish_p90(&j)));
	ck_assert(isnan(dl_plan_finish_p90(NULL)));
}
END_TEST

START_TEST(test_copy_str_utf8)
{
	char dst[4];

	dl_plan_copy_str(dst, sizeof(dst), "ab\xc3\xa9");
	ck_assert_str_eq(dst, "ab");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_finalize_sorts_and_renumbers);
	tcase_add_test(tc, test_json_roundtrip);
	tcase_add_test(tc, test_json_reserve_memory_survives);
	tcase_add_test(tc, test_json_without_triage_memory);
	tcase_add_test(tc, test_json_rejects_bad_input);
	tcase_add_test(tc, test_json_placement_survives);
	tcase_add_test(tc, test_file_atomic);
	tcase_add_test(tc, test_read_file_limits);
	tcase_add_test(tc, test_outcome_explained);
	tcase_add_test(tc, test_copy_str_utf8);
	tcase_add_test(tc, test_publish_concurrent);
	tcase_add_test(tc, test_copy_and_describe);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_finish_p90);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
