/*
 * test_sim_input.c - the simulator's inputs and generators: random
 * streams, task-length distributions, the cluster and workload parsers
 * (valid documents, every kind of error, JSON round trips), external load
 * series, and the papers' generators (Polo Ch. 3, RTMR's binned workload,
 * the reverse family).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "common/simulate/dist.h"
#include "sim/gen.h"
#include "sim/gen_kinds.h"
#include "common/io/json.h"
#include "common/simulate/rng.h"
#include "sim/spec.h"

#ifndef SRCDIR
#define SRCDIR "."
#endif

START_TEST(rng_streams)
{
	struct sim_rng a, b, c;
	double sum = 0, sumsq = 0;
	const int n = 200000;

	sim_rng_init(&a, 7, 1, 2, 3);
	sim_rng_init(&b, 7, 1, 2, 3);
	sim_rng_init(&c, 7, 1, 2, 4);
	for (int i = 0; i < 100; i++) {
		uint64_t x = sim_rng_next(&a);

		ck_assert_uint_eq(x, sim_rng_next(&b));
		ck_assert_uint_ne(x, sim_rng_next(&c));
	}
	for (int i = 0; i < n; i++) {
		double u = sim_rng_unit(&a);

		ck_assert(u >= 0 && u < 1);
		sum += sim_rng_exp(&a, 14);
		ck_assert(sim_rng_int(&a, 3, 5) >= 3);
	}
	ck_assert_double_eq_tol(sum / n, 14, 0.2);
	sum = 0;
	for (int i = 0; i < n; i++) {
		double x = sim_rng_lognormal(&a, 62, 15.5);

		sum += x;
		sumsq += x * x;
	}
	ck_assert_double_eq_tol(sum / n, 62, 0.3);
	ck_assert_double_eq_tol(sqrt(sumsq / n - (sum / n) * (sum / n)), 15.5,
				0.3);
	ck_assert_double_eq(sim_hash_unit(1, 2, 3, 4, 5),
			    sim_hash_unit(1, 2, 3, 4, 5));
	ck_assert(sim_hash_unit(1, 2, 3, 4, 5) != sim_hash_unit(1, 2, 3, 4, 6));
}
END_TEST

static struct sim_dist parse_dist(const char *text)
{
	char err[256] = "";
	json_object *o = dl_json_parse(text, strlen(text), SIZE_MAX, "t", err,
				       sizeof(err));
	struct sim_dist d;

	ck_assert_msg(o != NULL, "%s", err);
	ck_assert_msg(sim_dist_parse(o, "len", &d, err, sizeof(err)) == 0, "%s",
		      err);
	json_object_put(o);
	return d;
}

static int dist_error(const char *text, const char *expect)
{
	char err[256] = "";
	json_object *o = dl_json_parse(text, strlen(text), SIZE_MAX, "t", err,
				       sizeof(err));
	struct sim_dist d;
	int rc;

	ck_assert_ptr_nonnull(o);
	rc = sim_dist_parse(o, "len", &d, err, sizeof(err));
	json_object_put(o);
	sim_dist_free(&d);
	ck_assert_msg(rc && strstr(err, expect), "error '%s' lacks '%s'", err,
		      expect);
	return rc;
}

START_TEST(distributions)
{
	struct sim_dist d;
	struct sim_rng r;
	double sum = 0;

	sim_rng_init(&r, 1, 0, 0, 0);
	d = parse_dist("12.5");
	ck_assert_double_eq(sim_dist_sample(&d, &r), 12.5);
	ck_assert_double_eq(sim_dist_mean(&d), 12.5);
	d = parse_dist("{\"dist\":\"uniform\",\"min\":2,\"max\":4}");
	for (int i = 0; i < 1000; i++) {
		double x = sim_dist_sample(&d, &r);

		ck_assert(x >= 2 && x <= 4);
	}
	ck_assert_double_eq(sim_dist_mean(&d), 3);
	ck_assert_double_eq_tol(sim_dist_quantile(&d, 0.9), 3.8, 1e-12);
	d = parse_dist("{\"dist\":\"normal\",\"mean\":10,\"sd\":2,\"min\":9}");
	ck_assert_double_eq_tol(sim_dist_quantile(&d, 0.9), 10 + 2 * 1.2815516,
				1e-5);
	for (int i = 0; i < 1000; i++)
		ck_assert(sim_dist_sample(&d, &r) >= 9);
	d = parse_dist("{\"dist\":\"exponential\",\"mean\":5}");
	ck_assert_double_eq_tol(sim_dist_quantile(&d, 0.5), 5 * log(2), 1e-12);
	d = parse_dist("{\"dist\":\"lognormal\",\"mean\":20,\"sd\":5,"
		       "\"straggler\":{\"prob\":0.1,\"factor\":3}}");
	ck_assert_double_eq_tol(sim_dist_mean(&d), 20 * 1.2, 1e-12);
	for (int i = 0; i < 100000; i++)
		sum += sim_dist_sample(&d, &r);
	ck_assert_double_eq_tol(sum / 100000, 24, 0.3);
	d = parse_dist("{\"dist\":\"empirical\",\"values\":[1,2,3,4]}");
	ck_assert_double_eq(sim_dist_mean(&d), 2.5);
	ck_assert_double_eq(sim_dist_quantile(&d, 0.5), 2);
	ck_assert_double_eq(sim_dist_quantile(&d, 0.9), 4);
	{
		/* JSON round trip */
		json_object *j = sim_dist_to_json(&d);
		char err[256];
		struct sim_dist e;

		ck_assert_int_eq(sim_dist_parse(j, "rt", &e, err, sizeof(err)),
				 0);
		ck_assert_uint_eq(e.nvalues, 4);
		ck_assert_double_eq(e.values[3], 4);
		sim_dist_free(&e);
		json_object_put(j);
	}
	sim_dist_free(&d);
	ck_assert_double_eq_tol(sim_normal_quantile(0.975), 1.959964, 1e-6);
	ck_assert_double_eq_tol(sim_normal_quantile(0.01), -2.326348, 1e-6);
	ck_assert(isinf(sim_normal_quantile(0)));
	dist_error("-3", "(0,");
	dist_error("\"x\"", "expected");
	dist_error("{\"dist\":\"zipf\"}", "is not one of");
	dist_error("{\"dist\":\"normal\",\"mean\":1}", "sd is missing");
	dist_error("{\"dist\":\"uniform\",\"min\":5,\"max\":2}", "below");
	dist_error("{\"dist\":\"empirical\",\"values\":[]}", "non-empty");
	dist_error("{\"dist\":\"empirical\",\"values\":[1,\"a\"]}",
		   "values[1]");
	dist_error("{\"dist\":\"const\",\"value\":1,\"extra\":2}",
		   "unknown field 'extra'");
	dist_error("{\"dist\":\"const\",\"value\":1,\"straggler\":{\"prob\":2,"
		   "\"factor\":2}}",
		   "prob");
}
END_TEST

static int cluster_error(const char *text, const char *expect)
{
	struct sim_cluster_spec c;
	char err[512] = "";
	int rc = sim_cluster_parse(text, strlen(text), "c", NULL, &c, err,
				   sizeof(err));

	sim_cluster_spec_free(&c);
	ck_assert_msg(rc && strstr(err, expect), "error '%s' lacks '%s'", err,
		      expect);
	return rc;
}

START_TEST(cluster_documents)
{
	const char *ok = "{\"slots\":\"cpu\",\"partitions\":[\"batch\",\"gpu\"]"
			 ",\"dispatch_latency\":0.25,\"task_overhead\":0.75"
			 ",\"batch_sched_delay\":3"
			 ",\"nodes\":["
			 "{\"name\":\"a\",\"count\":3,\"cpus\":8,\"mem\":16000,"
			 "\"io\":200},"
			 "{\"name\":\"acc\",\"cpus\":4,\"pool\":\"accel\","
			 "\"speed\":2,\"partitions\":[\"gpu\"]}],"
			 "\"external_load\":{\"step\":60,\"values\":[0,0.5,1],"
			 "\"repeat\":true}}";
	struct sim_cluster_spec c, d;
	char err[512] = "";
	json_object *j;
	const char *text;

	ck_assert_msg(sim_cluster_parse(ok, strlen(ok), "c", NULL, &c, err,
					sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(c.nnodes, 4);
	ck_assert_str_eq(c.nodes[2].name, "a3");
	ck_assert_str_eq(c.nodes[3].name, "acc");
	ck_assert_uint_eq(c.nodes[0].partitions, 1);
	ck_assert_uint_eq(c.nodes[3].partitions, 2);
	ck_assert_uint_eq(c.nodes[3].pool, DL_POOL_ACCEL);
	ck_assert_double_eq(sim_series_at(&c.ext, 61), 0.5);
	ck_assert_double_eq(sim_series_at(&c.ext, 180 + 61), 0.5);
	ck_assert_double_eq(sim_series_next_change(&c.ext, 61), 120);
	ck_assert_double_eq(c.dispatch_latency, 0.25);
	ck_assert_double_eq(c.task_overhead, 0.75);
	ck_assert_double_eq(c.batch_sched_delay, 3);
	/* round trip */
	j = sim_cluster_to_json(&c);
	text = json_object_to_json_string(j);
	ck_assert_msg(sim_cluster_parse(text, strlen(text), "rt", NULL, &d, err,
					sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(d.nnodes, 4);
	ck_assert_str_eq(d.nodes[3].name, "acc");
	ck_assert_double_eq(d.nodes[3].speed, 2);
	ck_assert_uint_eq(d.nodes[1].mem, 16000);
	ck_assert_uint_eq(d.ext.n, 3);
	ck_assert_double_eq(d.dispatch_latency, 0.25);
	ck_assert_double_eq(d.task_overhead, 0.75);
	ck_assert_double_eq(d.batch_sched_delay, 3);
	json_object_put(j);
	sim_cluster_spec_free(&d);
	sim_cluster_spec_free(&c);

	cluster_error("{", "line 1");
	cluster_error("[]", "cluster must be an object");
	cluster_error("{\"nodes\":[]}", "non-empty");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"bogus\":1}",
		      "unknown field 'bogus'");
	cluster_error("{\"nodes\":[{\"count\":2}]}", "cpus is missing");
	cluster_error("{\"nodes\":[{\"cpus\":0}]}",
		      "cpus must be a whole number");
	cluster_error("{\"slots\":\"typed\",\"nodes\":[{\"map_slots\":0,"
		      "\"reduce_slots\":0}]}",
		      "needs map or reduce slots");
	cluster_error("{\"nodes\":[{\"cpus\":1,\"map_slots\":2}]}", "typed");
	cluster_error("{\"nodes\":[{\"name\":\"x\",\"cpus\":1},{\"name\":\"x\","
		      "\"cpus\":1}]}",
		      "used twice");
	cluster_error("{\"nodes\":[{\"cpus\":1,\"pool\":\"gpu\"}]}", "pool");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"external_load\":{\"values\":"
		      "[0.5,2]}}",
		      "outside [0, 1]");
	cluster_error(
		"{\"nodes\":[{\"cpus\":1}],\"external_load\":{\"file\":\"x\"}}",
		"files are read only");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"slots\":\"gpu\"}",
		      "cpu or typed");
	cluster_error("{\"nodes\":[{\"cpus\":1}]} x", "unexpected");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"task_overhead\":-1}",
		      "task_overhead");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"task_overhead\":"
		      "{\"dist\":\"gamma\",\"mean\":1}}",
		      "cluster.task_overhead.dist");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"task_overhead\":"
		      "{\"dist\":\"empirical\",\"values\":[0.5,-1]}}",
		      "cluster.task_overhead.values[1]");
	cluster_error("{\"nodes\":[{\"cpus\":1}],\"task_overhead\":"
		      "{\"dist\":\"exponential\",\"mean\":1}}",
		      "within [0, 3600]");
}
END_TEST

/* task_overhead as a distribution: kept (mean as the constant), written
 * back as it was read; a constant one is the plain number. */
START_TEST(cluster_overhead_distribution)
{
	const char *emp = "{\"task_overhead\":{\"dist\":\"empirical\","
			  "\"values\":[0.25,0.5,2.25]},"
			  "\"nodes\":[{\"name\":\"n\",\"cpus\":1}]}";
	const char *cst = "{\"task_overhead\":{\"dist\":\"const\","
			  "\"value\":0.8},"
			  "\"nodes\":[{\"name\":\"n\",\"cpus\":1}]}";
	struct sim_cluster_spec c, d;
	char err[512] = "";
	json_object *j;
	const char *text;

	ck_assert_msg(sim_cluster_parse(emp, strlen(emp), "c", NULL, &c, err,
					sizeof(err)) == 0,
		      "%s", err);
	ck_assert_ptr_nonnull(c.task_overhead_dist);
	ck_assert_int_eq(c.task_overhead_dist->kind, SIM_DIST_EMPIRICAL);
	ck_assert_uint_eq(c.task_overhead_dist->nvalues, 3);
	ck_assert_double_eq_tol(c.task_overhead, 1.0, 1e-12);
	j = sim_cluster_to_json(&c);
	text = json_object_to_json_string(j);
	ck_assert_msg(sim_cluster_parse(text, strlen(text), "rt", NULL, &d, err,
					sizeof(err)) == 0,
		      "%s", err);
	ck_assert_ptr_nonnull(d.task_overhead_dist);
	ck_assert_uint_eq(d.task_overhead_dist->nvalues, 3);
	ck_assert_double_eq(d.task_overhead_dist->values[2], 2.25);
	json_object_put(j);
	sim_cluster_spec_free(&d);
	sim_cluster_spec_free(&c);

	ck_assert_msg(sim_cluster_parse(cst, strlen(cst), "c", NULL, &c, err,
					sizeof(err)) == 0,
		      "%s", err);
	ck_assert_ptr_null(c.task_overhead_dist);
	ck_assert_double_eq(c.task_overhead, 0.8);
	sim_cluster_spec_free(&c);
}
END_TEST

static const char *small_cluster =
	"{\"nodes\":[{\"name\":\"n\",\"count\":2,\"cpus\":4,\"mem\":8000}]}";

static int workload_error(const char *text, const char *expect)
{
	struct sim_cluster_spec c;
	struct sim_workload_spec w;
	char err[512] = "";
	int rc;

	ck_assert_int_eq(sim_cluster_parse(small_cluster, strlen(small_cluster),
					   "c", NULL, &c, err, sizeof(err)),
			 0);
	rc = sim_workload_parse(text, strlen(text), "w", &c, &w, err,
				sizeof(err));
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	ck_assert_msg(rc && strstr(err, expect), "error '%s' lacks '%s'", err,
		      expect);
	return rc;
}

START_TEST(workload_documents)
{
	const char *ok =
		"{\"defaults\":{\"map_cpus\":2,\"map_mem\":1000},\"stats_"
		"window\":[10,20],\"jobs\":["
		"{\"name\":\"a\",\"arrival\":1,\"deadline\":100,\"maps\":3,"
		"\"map_lengths\":[1,2,3],"
		"\"reduces\":2,\"reduce_length\":{\"dist\":\"normal\",\"mean\":"
		"5,\"sd\":1},\"reduce_cost\":2,"
		"\"remote\":{\"prob\":0.2,\"factor\":1.5},\"map_prior\":{"
		"\"mean\":2,\"p90\":3}},"
		"{\"arrival\":2,\"deadline_factor\":2,\"maps\":1,\"map_"
		"length\":4,\"map_cpus\":1,\"hard_deadline\":true}]}";
	struct sim_cluster_spec c;
	struct sim_workload_spec w, v;
	char err[512] = "";
	json_object *j;
	const char *text;

	ck_assert_int_eq(sim_cluster_parse(small_cluster, strlen(small_cluster),
					   "c", NULL, &c, err, sizeof(err)),
			 0);
	ck_assert_msg(sim_workload_parse(ok, strlen(ok), "w", &c, &w, err,
					 sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_str_eq(w.jobs[0].name, "a");
	ck_assert_str_eq(w.jobs[1].name, "job2");
	ck_assert_uint_eq(w.jobs[0].phase[0].cpus, 2); /* from defaults */
	ck_assert_uint_eq(w.jobs[1].phase[0].cpus, 1); /* overridden */
	ck_assert_uint_eq(w.jobs[0].phase[0].mem, 1000);
	ck_assert_double_eq(w.jobs[0].phase[0].lengths[2], 3);
	ck_assert_double_eq(w.jobs[0].deadline, 100);
	ck_assert_double_eq(w.jobs[1].deadline_factor, 2);
	ck_assert(w.jobs[1].hard);
	ck_assert_double_eq(w.jobs[0].remote_prob, 0.2);
	ck_assert_double_eq(w.jobs[0].phase[0].prior_p90, 3);
	ck_assert(w.has_window);
	/* round trip */
	j = sim_workload_to_json(&w, &c);
	text = json_object_to_json_string(j);
	ck_assert_msg(sim_workload_parse(text, strlen(text), "rt", &c, &v, err,
					 sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(v.njobs, 2);
	ck_assert_double_eq(v.jobs[0].phase[0].lengths[1], 2);
	ck_assert_double_eq(v.jobs[0].phase[1].len.b, 1);
	ck_assert_double_eq(v.jobs[0].reduce_cost, 2);
	ck_assert_double_eq(v.jobs[1].deadline_factor, 2);
	ck_assert_double_eq(v.window[1], 20);
	json_object_put(j);
	sim_workload_spec_free(&v);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);

	workload_error("{\"jobs\":{}}", "array of jobs");
	workload_error("{\"jobs\":[{\"maps\":1,\"map_length\":1}]}",
		       "arrival is missing");
	workload_error(
		"{\"jobs\":[{\"arrival\":0,\"maps\":0,\"map_length\":1}]}",
		"maps");
	workload_error("{\"jobs\":[{\"arrival\":0,\"maps\":1}]}",
		       "need map_length");
	workload_error(
		"{\"jobs\":[{\"arrival\":0,\"maps\":2,\"map_lengths\":[1]}]}",
		"array of 2 task lengths");
	workload_error("{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":1,"
		       "\"map_lengths\":[1]}]}",
		       "not both");
	workload_error("{\"jobs\":[{\"arrival\":5,\"deadline\":4,\"maps\":1,"
		       "\"map_length\":1}]}",
		       "not after the arrival");
	workload_error("{\"jobs\":[{\"arrival\":0,\"deadline\":4,\"deadline_"
		       "factor\":2,\"maps\":1,\"map_length\":1}]}",
		       "give one of");
	workload_error("{\"jobs\":[{\"arrival\":0,\"hard_deadline\":true,"
		       "\"maps\":1,\"map_length\":1}]}",
		       "without a deadline");
	workload_error("{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":1,"
		       "\"partition\":\"gpu\"}]}",
		       "no partition gpu");
	workload_error("{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":1,"
		       "\"map_cpus\":8}]}",
		       "fits on no node");
	workload_error("{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":1,"
		       "\"map_mem\":9000}]}",
		       "fits on no node");
	workload_error("{\"jobs\":[{\"arrival\":0,\"maps\":1,\"map_length\":1,"
		       "\"mapz\":3}]}",
		       "unknown field 'mapz'");
	workload_error(
		"{\"jobs\":[{\"arrival\":-1,\"maps\":1,\"map_length\":1}]}",
		"arrival");
	workload_error(
		"{\"jobs\":[{\"arrival\":0,\"maps\":1.5,\"map_length\":1}]}",
		"whole number");
	workload_error("{\"jobs\":[1]}", "expected an object");
	workload_error("{\"stats_window\":[5,1],\"jobs\":[]}", "from < to");
}
END_TEST

START_TEST(series_text)
{
	struct sim_series s;
	char err[256] = "";
	const char *t = "# load\n0.1\n\n 0.2 \n0.3\r\n";

	ck_assert_int_eq(sim_series_parse_text(t, strlen(t), "t", 30, &s, err,
					       sizeof(err)),
			 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_double_eq(s.values[2], 0.3);
	ck_assert_double_eq(sim_series_at(&s, 45), 0.2);
	ck_assert_double_eq(sim_series_at(&s, 95), 0); /* after its end */
	ck_assert(isinf(sim_series_next_change(&s, 95)));
	sim_series_free(&s);
	t = "0.1\nx\n";
	ck_assert_int_eq(sim_series_parse_text(t, strlen(t), "t", 30, &s, err,
					       sizeof(err)),
			 EINVAL);
	ck_assert(strstr(err, "line 2"));
	ck_assert_int_eq(
		sim_series_parse_text("", 0, "t", 30, &s, err, sizeof(err)),
		EINVAL);
}
END_TEST

static void run_gen(const char *name, int argc, char **argv, uint64_t seed,
		    struct sim_cluster_spec *c, struct sim_workload_spec *w)
{
	const struct gen_kind *k = gen_find(name);
	struct gen_args a = {seed, argc, argv};
	char err[1024] = "";

	ck_assert_ptr_nonnull(k);
	memset(c, 0, sizeof(*c));
	memset(w, 0, sizeof(*w));
	ck_assert_msg(k->fn(&a, c, w, err, sizeof(err)) == 0, "%s: %s", name,
		      err);
}

START_TEST(polo_generator)
{
	struct sim_cluster_spec c;
	struct sim_workload_spec a, b;
	char *argv[] = {"polo-ch3-a"};
	static const double goals_a[5] = {6000, 3000, 3000, 150, 150};
	static const double goals_b[5] = {6000, 1500, 650, 120, 120};
	static const double iso[5] = {3549, 1264, 602, 101, 101};

	run_gen("polo-ch3-a", 1, argv, 1, &c, &a);
	ck_assert_uint_eq(c.nnodes, 60);
	ck_assert_int_eq(c.mode, SIM_SLOTS_TYPED);
	ck_assert_uint_eq(c.nodes[59].map_slots, 1);
	ck_assert_uint_eq(c.nodes[59].reduce_slots, 1);
	sim_cluster_spec_free(&c);
	run_gen("polo-ch3-b", 1, argv, 1, &c, &b);
	ck_assert_uint_eq(a.njobs, 5);
	for (int i = 0; i < 5; i++) {
		ck_assert_double_eq_tol(a.jobs[i].deadline_factor,
					goals_a[i] / iso[i], 1e-12);
		ck_assert_double_eq_tol(b.jobs[i].deadline_factor,
					goals_b[i] / iso[i], 1e-12);
		if (i)
			ck_assert(a.jobs[i].arrival > a.jobs[i - 1].arrival);
	}
	sim_workload_spec_free(&a);
	sim_workload_spec_free(&b);
	sim_cluster_spec_free(&c);
}
END_TEST

START_TEST(binned_generator_rtmr_w1)
{
	struct sim_cluster_spec c;
	struct sim_workload_spec w, v;
	char *argv[] = {"binned", "--bins",
			SRCDIR "/bench/workloads/rtmr-w1.bins.json"};
	uint32_t per_maps[201] = {0}, maps = 0, reds = 0;
	double last = 0;

	run_gen("binned", 3, argv, 1, &c, &w);
	/* the paper's cluster: 20 x (4, 1) + 10 x (2, 1) */
	ck_assert_uint_eq(c.nnodes, 30);
	for (uint32_t n = 0; n < 30; n++) {
		maps += c.nodes[n].map_slots;
		reds += c.nodes[n].reduce_slots;
	}
	ck_assert_uint_eq(maps, 100);
	ck_assert_uint_eq(reds, 30);
	/* Table III: 38 + 16 + 14 + 8 + 6 + 6 jobs */
	ck_assert_uint_eq(w.njobs, 88);
	for (uint32_t k = 0; k < w.njobs; k++) {
		const struct sim_job_spec *j = &w.jobs[k];
		uint32_t m = j->phase[0].tasks, r = j->phase[1].tasks;
		double rel = j->deadline - j->arrival;

		ck_assert_uint_le(m, 200);
		per_maps[m]++;
		ck_assert(j->arrival >= last);
		last = j->arrival;
		if (m <= 2) {
			ck_assert(r >= 1 && r <= 5);
			ck_assert(rel >= 200 && rel <= 300);
		} else if (m == 200) {
			ck_assert_uint_eq(r, 30);
			ck_assert(rel >= 2000 && rel <= 2500);
		}
		ck_assert_double_eq(j->phase[0].input_mb, 128);
		ck_assert_double_eq(j->remote_prob, 0.3);
	}
	ck_assert_uint_eq(per_maps[1], 38);
	ck_assert_uint_eq(per_maps[2], 16);
	ck_assert_uint_eq(per_maps[10], 14);
	ck_assert_uint_eq(per_maps[50], 8);
	ck_assert_uint_eq(per_maps[100], 6);
	ck_assert_uint_eq(per_maps[200], 6);
	/* 87 exponential gaps of mean 14 s: about 20 minutes */
	ck_assert(last > 600 && last < 2400);
	/* another seed shuffles differently */
	{
		struct sim_cluster_spec c2;

		run_gen("binned", 3, argv, 2, &c2, &v);
		ck_assert(v.jobs[10].arrival != w.jobs[10].arrival ||
			  v.jobs[10].phase[0].tasks !=
				  w.jobs[10].phase[0].tasks);
		sim_cluster_spec_free(&c2);
		sim_workload_spec_free(&v);
	}
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
}
END_TEST

START_TEST(reverse_generator)
{
	struct sim_cluster_spec c;
	struct sim_workload_spec w;
	char *argv[] = {"reverse", "--load", "0.5", "--max-factor",
			"8",       "--days", "2",   "--margin-days",
			"0.5"};
	double expect = 0.5 * 100 * 2 * 86400 / (62 * 390.0), tasks = 0;

	run_gen("reverse", 9, argv, 3, &c, &w);
	ck_assert_uint_eq(c.nnodes, 100);
	ck_assert_uint_eq(c.ext.n, 0);
	/* Poisson count within 15% of its mean (about 3.5 sd) */
	ck_assert_msg(fabs(w.njobs - expect) < 0.15 * expect,
		      "%u jobs, %g expected", w.njobs, expect);
	ck_assert(w.has_window);
	ck_assert_double_eq(w.window[0], 43200);
	ck_assert_double_eq(w.window[1], 2 * 86400 - 43200);
	for (uint32_t k = 0; k < w.njobs; k++) {
		ck_assert(w.jobs[k].deadline_factor >= 1.5 &&
			  w.jobs[k].deadline_factor <= 8);
		ck_assert(w.jobs[k].arrival < 2 * 86400);
		ck_assert_double_eq(w.jobs[k].phase[0].len.a, 390);
		tasks += w.jobs[k].phase[0].tasks;
	}
	ck_assert_double_eq_tol(tasks / w.njobs, 62, 3);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	{
		char *bad[] = {"reverse", "--load", "0.5"};
		const struct gen_kind *k = gen_find("reverse");
		struct gen_args a = {1, 3, bad};
		char err[256] = "";

		ck_assert_int_eq(k->fn(&a, &c, &w, err, sizeof(err)),
				 GEN_USAGE_ERROR);
		ck_assert(strstr(err, "max-factor"));
		sim_workload_spec_free(&w);
		sim_cluster_spec_free(&c);
	}
}
END_TEST

/* Write text to a new temporary file; returns its path (caller frees and
 * removes it). */
static char *temp_file(const char *text, const char *suffix)
{
	char *path = NULL;
	FILE *f;
	int fd;

	ck_assert_int_gt(asprintf(&path, "/tmp/test_sim_inputXXXXXX%s", suffix),
			 0);
	fd = mkstemps(path, (int) strlen(suffix));
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

START_TEST(swim_adapter)
{
	/* id, submit, gap, input, shuffle, output bytes */
	char *path = temp_file("job0\t10\t10\t268435456\t2147483648\t1000\n"
			       "job1\t25\t15\t0\t0\t5\n"
			       "job2\t4000\t3975\t1048576\t0\t0\n",
			       ".tsv");
	char *argv[] = {"swim", "--trace", path, "--k", "3", "--to", "3600"};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;

	run_gen("swim", 7, argv, 1, &c, &w);
	ck_assert_uint_eq(w.njobs, 2); /* job2 is after --to */
	ck_assert_str_eq(w.jobs[0].name, "job0");
	ck_assert_double_eq(w.jobs[0].arrival, 10);
	/* 256 MB: two 128 MB maps of 5 + 0.1 x 128 s; 2 GB: two reduces */
	ck_assert_uint_eq(w.jobs[0].phase[0].tasks, 2);
	ck_assert_double_eq_tol(w.jobs[0].phase[0].len.a, 5 + 12.8, 1e-9);
	ck_assert_uint_eq(w.jobs[0].phase[1].tasks, 2);
	ck_assert_double_eq_tol(w.jobs[0].phase[1].len.a, 10 + 0.2 * 1024,
				1e-9);
	ck_assert_double_eq(w.jobs[0].deadline_factor, 3);
	/* no input: one short map, no reduce */
	ck_assert_uint_eq(w.jobs[1].phase[0].tasks, 1);
	ck_assert_uint_eq(w.jobs[1].phase[1].tasks, 0);
	ck_assert_uint_eq(c.nnodes, 100);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(google_adapter)
{
	/* time us, missing, job, index, machine, type, user, class, prio ...
	 * job 7: task 0 runs 100 s, task 1 runs 50 s after an eviction;
	 * job 8: never finishes; job 9 is submitted later */
	char *path = temp_file("1000000,,7,0,,0,u,0,0,0.1,0.1,0,0\n"
			       "1000000,,7,1,,0,u,0,0,0.1,0.1,0,0\n"
			       "2000000,,7,0,m1,1,u,0,0,0.1,0.1,0,0\n"
			       "2000000,,7,1,m2,1,u,0,0,0.1,0.1,0,0\n"
			       "3000000,,7,1,m2,2,u,0,0,0.1,0.1,0,0\n"
			       "4000000,,7,1,m3,1,u,0,0,0.1,0.1,0,0\n"
			       "54000000,,7,1,m3,4,u,0,0,0.1,0.1,0,0\n"
			       "102000000,,7,0,m1,4,u,0,0,0.1,0.1,0,0\n"
			       "1500000,,8,0,,0,u,0,0,0.1,0.1,0,0\n"
			       "9000000,,9,0,,0,u,0,0,0.1,0.1,0,0\n"
			       "9500000,,9,0,m4,1,u,0,0,0.1,0.1,0,0\n"
			       "19500000,,9,0,m4,4,u,0,0,0.1,0.1,0,0\n",
			       ".csv");
	char *argv[] = {"google2011", "--task-events", path};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;

	run_gen("google2011", 3, argv, 1, &c, &w);
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_str_eq(w.jobs[0].name, "g7");
	ck_assert_double_eq(w.jobs[0].arrival, 0);
	ck_assert_uint_eq(w.jobs[0].phase[0].tasks, 2);
	ck_assert_double_eq_tol(w.jobs[0].phase[0].lengths[0], 100, 1e-9);
	ck_assert_double_eq_tol(w.jobs[0].phase[0].lengths[1], 50, 1e-9);
	ck_assert_str_eq(w.jobs[1].name, "g9");
	ck_assert_double_eq_tol(w.jobs[1].arrival, 8, 1e-9);
	ck_assert_double_eq_tol(w.jobs[1].phase[0].lengths[0], 10, 1e-9);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	{
		/* the shards are published gzipped: the same through gzip */
		char *cmd = NULL, *gz = NULL;

		ck_assert_int_gt(asprintf(&gz, "%s.gz", path), 0);
		ck_assert_int_gt(
			asprintf(&cmd, "gzip -c '%s' > '%s'", path, gz), 0);
		if (system(cmd) == 0) {
			argv[2] = gz;
			run_gen("google2011", 3, argv, 1, &c, &w);
			ck_assert_uint_eq(w.njobs, 2);
			ck_assert_double_eq_tol(w.jobs[0].phase[0].lengths[1],
						50, 1e-9);
			sim_workload_spec_free(&w);
			sim_cluster_spec_free(&c);
		}
		unlink(gz);
		free(gz);
		free(cmd);
	}
	unlink(path);
	free(path);
}
END_TEST

START_TEST(alibaba_adapter)
{
	char *path = temp_file("task_create_time,task_end_time,job_id,task_id,"
			       "number_of_instances,status,cpus,mem\n"
			       "100,160,5,1,20,Terminated,100,0.1\n"
			       "170,200,5,2,3,Terminated,100,0.1\n"
			       "150,180,5,3,7,Terminated,100,0.1\n"
			       "120,125,6,4,4,Terminated,50,0.2\n"
			       "130,100,7,5,1,Failed,,\n",
			       ".csv");
	char *argv[] = {"alibaba2017", "--trace", path, "--k", "2"};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;

	run_gen("alibaba2017", 5, argv, 1, &c, &w);
	ck_assert_uint_eq(w.njobs, 2);
	/* job 5: first stage (20 x 60 s) maps, last stage (3 x 30 s)
	 * reduces; the middle stage is dropped */
	ck_assert_str_eq(w.jobs[0].name, "a5");
	ck_assert_uint_eq(w.jobs[0].phase[0].tasks, 20);
	ck_assert_double_eq(w.jobs[0].phase[0].len.a, 60);
	ck_assert_uint_eq(w.jobs[0].phase[1].tasks, 3);
	ck_assert_double_eq(w.jobs[0].phase[1].len.a, 30);
	ck_assert_double_eq(w.jobs[1].arrival, 20);
	ck_assert_uint_eq(w.jobs[1].phase[1].tasks, 0);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(rumen_adapter)
{
	char *path = temp_file(
		"{\"jobID\":\"job_1\",\"submitTime\":1000000,\"mapTasks\":["
		"{\"attempts\":[{\"result\":\"FAILED\",\"startTime\":1000500,"
		"\"finishTime\":1001000},"
		"{\"result\":\"SUCCESS\",\"startTime\":1001000,\"finishTime\":"
		"1011000}]}],"
		"\"reduceTasks\":[{\"attempts\":[{\"result\":\"SUCCESS\","
		"\"startTime\":1012000,\"finishTime\":1032000}]}]}\n"
		"{\"jobID\":\"job_2\",\"submitTime\":1004000,\"mapTasks\":[]}\n"
		"{\"jobID\":\"job_3\",\"submitTime\":1006000,\"mapTasks\":["
		"{\"attempts\":[{\"result\":\"SUCCESS\",\"startTime\":1007000,"
		"\"finishTime\":1009500}]}]}\n",
		".json");
	char *argv[] = {"rumen", "--trace", path};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;

	run_gen("rumen", 3, argv, 1, &c, &w);
	/* job_2 has no successful map: skipped */
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_str_eq(w.jobs[0].name, "job_1");
	ck_assert_double_eq(w.jobs[0].arrival, 0);
	ck_assert_double_eq_tol(w.jobs[0].phase[0].lengths[0], 10, 1e-9);
	ck_assert_double_eq_tol(w.jobs[0].phase[1].lengths[0], 20, 1e-9);
	ck_assert_double_eq_tol(w.jobs[1].arrival, 6, 1e-9);
	ck_assert_double_eq_tol(w.jobs[1].phase[0].lengths[0], 2.5, 1e-9);
	ck_assert_int_eq(c.mode, SIM_SLOTS_TYPED);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(swf_adapter)
{
	/* 18 fields: id, submit, wait, run, alloc, cpu, mem, req procs, req
	 * time, req mem, status, user, group, exe, queue, part, prev, think */
	char *path = temp_file(
		"; MaxNodes: 4\n"
		";   MaxProcs: 8\n"
		"1 100 5 60 3 -1 -1 4 600 -1 1 7 1 1 1 1 -1 -1\n"
		"  2\t130  0 90 -1 -1 -1 2 60 -1 0 -1 1 -1 1 1 -1 -1\n"
		"3 140 0 0 4 -1 -1 4 60 -1 5 7 1 1 1 1 -1 -1\n"
		"4 150 0 30 -1 -1 -1 -1 60 -1 1 7 1 1 1 1 -1 -1\n"
		"\n"
		"5 5000 0 10 1 -1 -1 1 -1 -1 1 8 1 1 1 1 -1 -1\n",
		".swf");
	char *argv[] = {"swf", "--trace", path, "--k", "2", "--to", "4000"};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;

	run_gen("swf", 7, argv, 1, &c, &w);
	/* 3: no run time; 4: no width; 5: after --to */
	ck_assert_uint_eq(w.njobs, 2);
	ck_assert_uint_eq(c.nnodes, 4);
	ck_assert_uint_eq(c.nodes[0].cpus, 2);    /* MaxProcs / MaxNodes */
	ck_assert_str_eq(w.jobs[0].name, "app1"); /* its application */
	ck_assert_str_eq(w.jobs[0].user, "u7");
	ck_assert_double_eq(w.jobs[0].arrival, 0);      /* from the first one */
	ck_assert_uint_eq(w.jobs[0].phase[0].tasks, 3); /* allocated */
	ck_assert_double_eq(w.jobs[0].phase[0].len.a, 60);
	ck_assert_double_eq(w.jobs[0].phase[0].time_limit, 600);
	ck_assert_uint_eq(w.jobs[0].phase[1].tasks, 0);
	ck_assert_double_eq(w.jobs[0].deadline_factor, 2);
	/* 2: requested processors when the allocation is unknown; ran past
	 * its requested time, so the limit is the run time; no user */
	ck_assert_str_eq(w.jobs[1].user, "user");
	ck_assert_str_eq(w.jobs[1].name, "swf2"); /* application unknown */
	ck_assert_double_eq(w.jobs[1].arrival, 30);
	ck_assert_uint_eq(w.jobs[1].phase[0].tasks, 2);
	ck_assert_double_eq(w.jobs[1].phase[0].time_limit, 90);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	{
		/* exact limits, a cluster of its own, a cap on tasks */
		char *argx[] = {"swf",   "--trace",     path, "--time-limit",
				"exact", "--nodes",     "10", "--cpus",
				"1",     "--max-tasks", "2",  "--from",
				"135"};

		run_gen("swf", 13, argx, 1, &c, &w);
		ck_assert_uint_eq(c.nnodes, 10);
		ck_assert_uint_eq(c.nodes[0].cpus, 1);
		ck_assert_uint_eq(w.njobs, 1); /* job 5 only */
		ck_assert_str_eq(w.jobs[0].name, "app1");
		ck_assert_double_eq(w.jobs[0].arrival, 0);
		ck_assert_double_eq(w.jobs[0].phase[0].time_limit, 0);
		sim_workload_spec_free(&w);
		sim_cluster_spec_free(&c);
		argx[12] = "0";
		run_gen("swf", 13, argx, 1, &c, &w);
		ck_assert_uint_eq(w.jobs[0].phase[0].tasks, 2); /* capped */
		ck_assert_double_eq(w.jobs[0].phase[0].time_limit, 0);
		sim_workload_spec_free(&w);
		sim_cluster_spec_free(&c);
	}
	unlink(path);
	free(path);
}
END_TEST

/* What the SWF adapter refuses, each with its reason. */
START_TEST(swf_adapter_errors)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"; MaxNodes: 2\n1 0 0 10 1 x 0 1 10 0 1 1 1 1 1 1 -1 -1\n",
		 "line 2: field 6"},
		{"; MaxNodes: 2\n1 0 0 10 1 0 0 1 10 0 1\n",
		 "line 2: 11 fields"},
		{"1 0 0 10 1 0 0 1 10 0 1 1 1 1 1 1 -1 -1\n", "no MaxNodes"},
		{"; MaxNodes: 2\n1 0 0 -1 1 0 0 1 10 0 1 1 1 1 1 1 -1 -1\n",
		 "no job"},
		{"; MaxNodes: 1e9\n1 0 0 10 1 0 0 1 10 0 1 1 1 1 1 1 -1 -1\n",
		 "beyond"},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct gen_swf_opts o = {
			.to = 1e10, .klo = 2, .khi = 2, .max_tasks = 10};
		char *text = strdup(bad[i].text);
		struct sim_cluster_spec c;
		struct sim_workload_spec w;
		char err[512] = "";

		memset(&c, 0, sizeof(c));
		memset(&w, 0, sizeof(w));
		ck_assert_ptr_nonnull(text);
		ck_assert_int_eq(gen_swf_parse(text, strlen(text), &o, 1, &c,
					       &w, err, sizeof(err)),
				 EINVAL);
		ck_assert_msg(strstr(err, bad[i].why), "%zu: '%s'", i, err);
		sim_workload_spec_free(&w);
		sim_cluster_spec_free(&c);
		free(text);
	}
}
END_TEST

START_TEST(adapters_report_bad_input)
{
	char *path = temp_file("job0\tnot-a-number\t0\t1\t2\t3\n", ".tsv");
	char *argv[] = {"swim", "--trace", path};
	const struct gen_kind *k = gen_find("swim");
	struct gen_args a = {1, 3, argv};
	struct sim_cluster_spec c;
	struct sim_workload_spec w;
	char err[512] = "";

	memset(&c, 0, sizeof(c));
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(k->fn(&a, &c, &w, err, sizeof(err)), EINVAL);
	ck_assert(strstr(err, "line 1"));
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
	unlink(path);
	free(path);
	argv[2] = "/nonexistent/trace.tsv";
	memset(&c, 0, sizeof(c));
	memset(&w, 0, sizeof(w));
	ck_assert_int_eq(k->fn(&a, &c, &w, err, sizeof(err)), ENOENT);
	sim_workload_spec_free(&w);
	sim_cluster_spec_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_input");
	TCase *tc = tcase_create("input");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, rng_streams);
	tcase_add_test(tc, distributions);
	tcase_add_test(tc, cluster_documents);
	tcase_add_test(tc, cluster_overhead_distribution);
	tcase_add_test(tc, workload_documents);
	tcase_add_test(tc, series_text);
	tcase_add_test(tc, polo_generator);
	tcase_add_test(tc, binned_generator_rtmr_w1);
	tcase_add_test(tc, reverse_generator);
	tcase_add_test(tc, swim_adapter);
	tcase_add_test(tc, google_adapter);
	tcase_add_test(tc, alibaba_adapter);
	tcase_add_test(tc, rumen_adapter);
	tcase_add_test(tc, swf_adapter);
	tcase_add_test(tc, swf_adapter_errors);
	tcase_add_test(tc, adapters_report_bad_input);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
