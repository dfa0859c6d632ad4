/*
 * test_usage.c - a finished task's usage profile (common/usage.h): the
 * order of the sources, units, NaN rules and degenerate inputs, and the
 * "usage" field of observe records.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/est_proto.h"
#include "common/estimate/usage.h"
#include "fixtures.h"

#define TOL 1e-9

/* a task that ran 100 s with 2 CPUs and --mem=3000 */
static struct dl_usage_in base(void)
{
	return (struct dl_usage_in){
		.elapsed = 100,
		.cpu_seconds = NAN,
		.max_rss = NAN,
		.io_bytes = NAN,
		.declared = {NAN, NAN, NAN},
		.alloc_cpus = 2,
		.nodes = 1,
		.mem = 3000,
	};
}

START_TEST(test_measured)
{
	struct dl_usage_in in = base();
	struct dl_demand d;
	enum dl_usage_source src;

	/* 150 CPU-seconds in 100 s, 512 MiB peak, 250 MB moved */
	in.has_measured = true;
	in.cpu_seconds = 150;
	in.max_rss = 512.0 * 1048576;
	in.io_bytes = 250e6;
	in.has_declared = true;
	in.declared = (struct dl_demand){4, 8000, 90};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_MEASURED);
	ck_assert_double_eq_tol(d.cpu, 1.5, TOL);
	ck_assert_double_eq_tol(d.mem, 512, TOL);
	ck_assert_double_eq_tol(d.io, 2.5, TOL);
	/* a field accounting did not gather stays unknown */
	in.io_bytes = NAN;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_MEASURED);
	ck_assert(isnan(d.io));
	ck_assert_double_eq_tol(d.cpu, 1.5, TOL);
}
END_TEST

START_TEST(test_measured_degenerate)
{
	struct dl_usage_in in = base();
	struct dl_demand d;
	enum dl_usage_source src;

	in.has_measured = true;
	in.cpu_seconds = 150;
	in.max_rss = 1048576;
	in.io_bytes = 1e6;
	/* zero elapsed: no rates, the peak RSS is still a measurement */
	in.elapsed = 0;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_MEASURED);
	ck_assert(isnan(d.cpu) && isnan(d.io));
	ck_assert_double_eq(d.mem, 1);
	in.elapsed = NAN;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert(isnan(d.cpu) && d.mem == 1);
	/* a rate beyond any machine (a unit error) is dropped */
	in.elapsed = 1e-9;
	in.max_rss = NAN;
	in.io_bytes = NAN;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	ck_assert_double_eq(d.cpu, 2);
	/* overflowing and negative counters */
	in.elapsed = 100;
	in.cpu_seconds = -1;
	in.max_rss = 1e300;
	in.io_bytes = INFINITY;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	/* an accounting record that gathered nothing reads as zeros */
	in.cpu_seconds = 0;
	in.max_rss = 0;
	in.io_bytes = 0;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	in.io_bytes = NAN;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	/* an idle task that still used memory is measured */
	in.max_rss = 4 * 1048576.0;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_MEASURED);
	ck_assert_double_eq(d.cpu, 0);
	ck_assert_double_eq(d.mem, 4);
}
END_TEST

START_TEST(test_declared)
{
	struct dl_usage_in in = base();
	struct dl_demand d;
	enum dl_usage_source src;

	/* --task-profile=cpu=1,io=60: no mem= means "the request" */
	in.has_declared = true;
	in.declared = (struct dl_demand){1, 0, 60};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_DECLARED);
	ck_assert_double_eq(d.cpu, 1);
	ck_assert(isnan(d.mem));
	ck_assert_double_eq(d.io, 60);
	/* no io= declares no I/O, as the plan used it */
	in.declared = (struct dl_demand){2, 4096, 0};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_double_eq(d.mem, 4096);
	ck_assert_double_eq(d.io, 0);
	/* a hint the option could not have given: the request instead */
	in.declared = (struct dl_demand){0, 4096, 10};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	in.declared = (struct dl_demand){NAN, 4096, 10};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	/* out-of-range parts are unknown, the rest stands */
	in.declared = (struct dl_demand){1, -5, 1e13};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_DECLARED);
	ck_assert(isnan(d.mem) && isnan(d.io));
	/* has_declared false: the values are not looked at */
	in.has_declared = false;
	in.declared = (struct dl_demand){3, 3, 3};
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
}
END_TEST

START_TEST(test_requested)
{
	struct dl_usage_in in = base();
	struct dl_demand d;
	enum dl_usage_source src;

	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	ck_assert_double_eq(d.cpu, 2);
	ck_assert_double_eq(d.mem, 3000);
	ck_assert(isnan(d.io)); /* never invented */
	/* --mem-per-cpu=1000 on 2 CPUs */
	in.mem = 1000;
	in.mem_per_cpu = true;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_double_eq(d.mem, 2000);
	/* two nodes: per node */
	in.alloc_cpus = 8;
	in.nodes = 2;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_double_eq(d.cpu, 4);
	ck_assert_double_eq(d.mem, 4000);
	/* node count unknown: one node */
	in.nodes = 0;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_double_eq(d.cpu, 8);
	/* no memory request: unknown, not zero */
	in.mem = 0;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert(isnan(d.mem));
	/* per-CPU memory without a CPU count, and an overflowing product */
	in.alloc_cpus = 0;
	in.mem = 1000;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), ENODATA);
	ck_assert_int_eq(src, DL_USAGE_NONE);
	ck_assert(isnan(d.cpu) && isnan(d.mem) && isnan(d.io));
	in.alloc_cpus = UINT32_MAX;
	in.mem = UINT64_MAX >> 1;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), ENODATA);
	ck_assert(isnan(d.cpu) && isnan(d.mem));
	ck_assert_int_eq(src, DL_USAGE_NONE);
	/* the per-node memory alone still stands */
	in.mem_per_cpu = false;
	in.mem = 2048;
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	ck_assert(isnan(d.cpu));
	ck_assert_double_eq(d.mem, 2048);
}
END_TEST

START_TEST(test_bad_input)
{
	struct dl_usage_in in = base();
	struct dl_demand d;
	enum dl_usage_source src;

	ck_assert_int_eq(dl_usage_profile(NULL, &d, &src), EINVAL);
	ck_assert_int_eq(dl_usage_profile(&in, NULL, &src), EINVAL);
	ck_assert_int_eq(dl_usage_profile(&in, &d, NULL), EINVAL);
	memset(&in, 0, sizeof(in));
	ck_assert_int_eq(dl_usage_profile(&in, &d, &src), ENODATA);
	ck_assert_str_eq(dl_usage_source_name(DL_USAGE_DECLARED), "declared");
	ck_assert_str_eq(dl_usage_source_name((enum dl_usage_source) 99),
			 "none");
	ck_assert_int_eq(dl_usage_source_parse("requested", &src), 0);
	ck_assert_int_eq(src, DL_USAGE_REQUESTED);
	ck_assert_int_eq(dl_usage_source_parse("none", &src), EINVAL);
	ck_assert_int_eq(dl_usage_source_parse("Measured", &src), EINVAL);
	ck_assert_int_eq(dl_usage_source_parse(NULL, &src), EINVAL);
}
END_TEST

/* the observe record says where its usage came from, and reads back */
START_TEST(test_observe_field)
{
	struct dl_task_rec t = {
		.job_id = 7,
		.task = 3,
		.user = "u",
		.name = "n",
		.phase = 0,
		.start = 100,
		.end = 130,
		.input_bytes = NAN,
		.cpu = 1,
		.mem = NAN,
		.io = 60,
		.usage = DL_USAGE_DECLARED,
	};
	struct dl_est_request req;
	struct dl_est_error err;
	size_t len = 0;
	char *line = dl_est_build_observe(1, &t, 1, &len);

	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "\"usage\":\"declared\""));
	ck_assert_ptr_null(strstr(line, "\"mem\""));
	ck_assert_int_eq(
		dl_est_parse_request(line, strlen(line) - 1, &req, &err), 0);
	ck_assert_uint_eq(req.ntasks, 1);
	ck_assert_int_eq(req.tasks[0].usage, DL_USAGE_DECLARED);
	ck_assert_double_eq(req.tasks[0].io, 60);
	ck_assert(isnan(req.tasks[0].mem));
	dl_est_request_free(&req);
	free(line);
	/* no usage: no field, and none read back */
	t.usage = DL_USAGE_NONE;
	line = dl_est_build_observe(2, &t, 1, &len);
	ck_assert_ptr_null(strstr(line, "usage"));
	ck_assert_int_eq(
		dl_est_parse_request(line, strlen(line) - 1, &req, &err), 0);
	ck_assert_int_eq(req.tasks[0].usage, DL_USAGE_NONE);
	dl_est_request_free(&req);
	free(line);
	/* an unknown source is refused with a message: that task alone */
	line = "{\"v\":1,\"id\":3,\"op\":\"observe\",\"tasks\":[{\"job_id\":1,"
	       "\"user\":\"u\",\"name\":\"n\",\"phase\":\"map\",\"start\":1,"
	       "\"end\":2,\"usage\":\"guessed\"}]}";
	ck_assert_int_eq(dl_est_parse_request(line, strlen(line), &req, &err),
			 0);
	ck_assert_uint_eq(req.nrejected, 1);
	ck_assert_ptr_nonnull(strstr(req.rejected[0].message, "usage must be"));
	dl_est_request_free(&req);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("usage");
	TCase *c = tcase_create("usage");

	tcase_add_test(c, test_measured);
	tcase_add_test(c, test_measured_degenerate);
	tcase_add_test(c, test_declared);
	tcase_add_test(c, test_requested);
	tcase_add_test(c, test_bad_input);
	tcase_add_test(c, test_observe_field);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
