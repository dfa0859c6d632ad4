/*
 * test_locality.c - host list expansion and canonical compression
 * (nodeset.h) and the --input-nodes locality: parsing, errors, limits,
 * normal form, lookup of a task's preferred hosts.
 */
#include <string.h>

#include "common/model/locality.h"
#include "common/model/nodeset.h"
#include "fixtures.h"

struct names {
	char buf[64][32];
	uint32_t n;
};

static int add_name(const char *name, void *ctx)
{
	struct names *l = ctx;

	if (l->n >= 64)
		return E2BIG;
	snprintf(l->buf[l->n++], sizeof(l->buf[0]), "%s", name);
	return 0;
}

START_TEST(test_nodeset_count)
{
	char err[160];
	uint32_t n = 0;

	ck_assert_int_eq(
		dl_nodeset_count("n[1-4,7]", 100, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(dl_nodeset_count("r[1-2]n[1-3],login", 100, &n, err,
					  sizeof(err)),
			 0);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(
		dl_nodeset_count("n[1-100000]", 1000, &n, err, sizeof(err)),
		ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "more than 1000"));
	/* a product of groups beyond 32 bits is caught, not wrapped */
	ck_assert_int_eq(dl_nodeset_count("a[0-99999]b[0-99999]c[0-99999]",
					  UINT32_MAX, &n, err, sizeof(err)),
			 ERANGE);
	ck_assert_int_eq(dl_nodeset_count("*", 10, &n, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_nodeset_count("n[1-", 10, &n, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_nodeset_count(NULL, 10, &n, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_nodeset_count("n1", 10, NULL, err, sizeof(err)),
			 EINVAL);
}
END_TEST

START_TEST(test_nodeset_foreach)
{
	struct names l = {.n = 0};
	char err[160], longname[300];

	ck_assert_int_eq(dl_nodeset_foreach("n[1-3],login,gpu[08-10]", 100,
					    add_name, &l, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(l.n, 7);
	ck_assert_str_eq(l.buf[0], "n1");
	ck_assert_str_eq(l.buf[2], "n3");
	ck_assert_str_eq(l.buf[3], "login");
	ck_assert_str_eq(l.buf[4], "gpu08");
	ck_assert_str_eq(l.buf[6], "gpu10");
	l.n = 0;
	ck_assert_int_eq(dl_nodeset_foreach("r[1-2]n[1-2]", 100, add_name, &l,
					    err, sizeof(err)),
			 0);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(l.buf[1], "r1n2");
	ck_assert_str_eq(l.buf[2], "r2n1");
	/* the callback's error stops the walk and is returned */
	l.n = 0;
	ck_assert_int_eq(dl_nodeset_foreach("n[1-100]", 100, add_name, &l, err,
					    sizeof(err)),
			 E2BIG);
	ck_assert_uint_eq(l.n, 64);
	ck_assert_int_eq(dl_nodeset_foreach("n[1-100]", 99, NULL, NULL, err,
					    sizeof(err)),
			 ERANGE);
	memset(longname, 'x', 280);
	longname[280] = '\0';
	ck_assert_int_eq(
		dl_nodeset_foreach(longname, 10, NULL, NULL, err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "longer than 255"));
}
END_TEST

static char *compress_list(const char *const *in, uint32_t n)
{
	char *names[256], *out = NULL;

	ck_assert_uint_le(n, 256);
	for (uint32_t i = 0; i < n; i++)
		names[i] = (char *) in[i];
	ck_assert_int_eq(dl_nodeset_compress(names, n, &out), 0);
	return out;
}

START_TEST(test_nodeset_compress)
{
	static const char *a[] = {"n3", "n1", "n2", "n7", "login", "n2"};
	static const char *b[] = {"node098", "node099", "node100", "node9"};
	static const char *c[] = {"n5"};
	static const char *d[] = {"10", "9", "11"};
	static const char *e[] = {"n01", "n1", "n001"};
	char *out, *bad[] = {"a[1]", "", "a,b", "a b"};

	out = compress_list(a, 6);
	ck_assert_str_eq(out, "login,n[1-3,7]");
	free(out);
	/* an unpadded number of a padded run's width joins it */
	out = compress_list(b, 4);
	ck_assert_str_eq(out, "node9,node[098-100]");
	ck_assert(dl_nodeset_match(out, "node100"));
	ck_assert(dl_nodeset_match(out, "node098"));
	ck_assert(!dl_nodeset_match(out, "node98"));
	free(out);
	out = compress_list(c, 1);
	ck_assert_str_eq(out, "n5");
	free(out);
	out = compress_list(d, 3);
	ck_assert_str_eq(out, "[9-11]");
	ck_assert(dl_nodeset_match(out, "10"));
	free(out);
	/* different names that share a number stay apart */
	out = compress_list(e, 3);
	ck_assert_str_eq(out, "n1,n01,n001");
	free(out);
	for (int i = 0; i < 4; i++) {
		char *one[1] = {bad[i]};

		ck_assert_int_eq(dl_nodeset_compress(one, 1, &out), EINVAL);
	}
	ck_assert_int_eq(dl_nodeset_compress(bad, 0, &out), EINVAL);
	ck_assert_int_eq(dl_nodeset_compress(NULL, 1, &out), EINVAL);
}
END_TEST

struct collect {
	char **names;
	uint32_t n, cap;
};

static int collect(const char *name, void *ctx)
{
	struct collect *c = ctx;

	ck_assert_uint_lt(c->n, c->cap);
	c->names[c->n++] = strdup(name);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* expand, compress, expand again: the same set of names */
static void roundtrip(const char *expr, const char *expect)
{
	struct collect a = {calloc(512, sizeof(char *)), 0, 512};
	struct collect b = {calloc(512, sizeof(char *)), 0, 512};
	char err[160], *out = NULL;
	uint32_t m = 0;

	ck_assert_int_eq(
		dl_nodeset_foreach(expr, 512, collect, &a, err, sizeof(err)),
		0);
	ck_assert_int_eq(dl_nodeset_compress(a.names, a.n, &out), 0);
	if (expect)
		ck_assert_str_eq(out, expect);
	ck_assert_int_eq(dl_nodeset_check(out, err, sizeof(err)), 0);
	ck_assert_int_eq(
		dl_nodeset_foreach(out, 512, collect, &b, err, sizeof(err)), 0);
	qsort(a.names, a.n, sizeof(char *), cmp_str);
	for (uint32_t i = 0; i < a.n; i++)
		if (!m || strcmp(a.names[m - 1], a.names[i]))
			a.names[m++] = a.names[i];
		else
			free(a.names[i]);
	qsort(b.names, b.n, sizeof(char *), cmp_str);
	ck_assert_uint_eq(b.n, m); /* no duplicates in the canonical form */
	for (uint32_t i = 0; i < m; i++) {
		ck_assert_str_eq(a.names[i], b.names[i]);
		ck_assert(dl_nodeset_match(out, a.names[i]));
		free(a.names[i]);
		free(b.names[i]);
	}
	free(a.names);
	free(b.names);
	free(out);
}

START_TEST(test_nodeset_roundtrip)
{
	char odd[1024];
	size_t used = 0;

	roundtrip("n[7,1-3],n2,login", "login,n[1-3,7]");
	roundtrip("r[1-2]n[1-3]", "r1n[1-3],r2n[1-3]");
	roundtrip("gpu[08-12],gpu[1-3]", "gpu[1-3],gpu[08-12]");
	/* 101 separate numbers: more ranges than one group may hold */
	used = (size_t) snprintf(odd, sizeof(odd), "n[");
	for (int i = 1; i <= 201; i += 2)
		used += (size_t) snprintf(odd + used, sizeof(odd) - used,
					  "%s%d", i > 1 ? "," : "", i);
	snprintf(odd + used, sizeof(odd) - used, "]");
	/* more than 64 ranges in one group is malformed for the matcher, so
	 * build it from two groups and let compress split it again */
	roundtrip("n[1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39,"
		  "41,43,45,47,49,51,53,55,57,59,61,63,65,67,69,71,73,75,77,"
		  "79],n[81,83,85,87,89,91,93,95,97,99,101,103,105,107,109,"
		  "111,113,115,117,119,121,123,125,127,129,131,133,135,137,"
		  "139,141,143,145,147,149,151,153,155,157,159]",
		  NULL);
	ck_assert_int_eq(dl_nodeset_check(odd, NULL, 0), EINVAL);
}
END_TEST

static void parse_ok(const char *text, const char *normal)
{
	char buf[DL_LOCALITY_MAX_TEXT + 1], again[DL_LOCALITY_MAX_TEXT + 1];
	char err[256] = "";

	if (dl_locality_normalise(text, buf, sizeof(buf), err, sizeof(err)))
		ck_abort_msg("'%s' refused: %s", text, err);
	ck_assert_str_eq(buf, normal);
	/* the normal form is a fixed point */
	ck_assert_int_eq(dl_locality_normalise(buf, again, sizeof(again), err,
					       sizeof(err)),
			 0);
	ck_assert_str_eq(again, normal);
}

START_TEST(test_locality_normal_form)
{
	parse_ok("0-3=n[1-2];4-7=n3;*=n[5-6]", "0-3=n[1-2];4-7=n3;*=n[5-6]");
	/* one entry per host list, in the order of its first task; lists
	 * written differently are the same set; touching ranges merge */
	parse_ok("4-7=n3;0-3=n[2,1];8,9,10=n1,n2", "0-3,8-10=n[1-2];4-7=n3");
	parse_ok("0-3=n1;4-7=n1", "0-7=n1");
	/* steps: the last index is the last task of the progression */
	parse_ok("0-9:3=n1;1-9:3=n2;2-9:3=n3", "0-9:3=n1;1-7:3=n2;2-8:3=n3");
	parse_ok("5-6:3=n1", "5=n1");
	parse_ok("n[1-4]", "*=n[1-4]");
	parse_ok("*=n1;0=n2", "0=n2;*=n1");
	parse_ok("0=n1;*=n1", "0=n1;*=n1");
	/* spaces, blank entries, comments, one entry per line */
	parse_ok("# input blocks\n0-1 = n1\n\n 2 - 3=n2   # rack 2\r\n;",
		 "0-1=n1;2-3=n2");
	parse_ok(" 0 , 2 = n1 ; 1 = n2 ", "0,2=n1;1=n2");
	parse_ok("4000000=n1", "4000000=n1");
}
END_TEST

static void parse_bad(const char *text, int rc, const char *msg)
{
	char buf[256], err[256] = "";

	ck_assert_int_eq(
		dl_locality_normalise(text, buf, sizeof(buf), err, sizeof(err)),
		rc);
	ck_assert_str_eq(buf, "");
	if (!strstr(err, msg))
		ck_abort_msg("'%s': message '%s' lacks '%s'", text, err, msg);
}

START_TEST(test_locality_errors)
{
	parse_bad("", EINVAL, "no preferred nodes");
	parse_bad(" ; ;\n# nothing\n", EINVAL, "no preferred nodes");
	parse_bad("0-3=", EINVAL, "no host list");
	parse_bad("=n1", EINVAL, "no task indexes");
	parse_bad("a-b=n1", EINVAL, "'a' is not a task index");
	parse_bad("-1=n1", EINVAL, "missing task index");
	parse_bad("3-1=n1", EINVAL, "runs backwards");
	parse_bad("0-3:0=n1", EINVAL, "step must be at least 1");
	parse_bad("5:2=n1", EINVAL, "a step needs a range");
	parse_bad("0-3=n1;2=n2", EINVAL, "task 2 is already listed");
	parse_bad("0-3=n1;3=n1", EINVAL, "task 3 is already listed");
	parse_bad("0-9:3=n1;6=n2", EINVAL, "task 6 is already listed");
	parse_bad("0-3", EINVAL, "task indexes without hosts");
	parse_bad("n1;n2", EINVAL, "a second entry for the tasks not listed");
	parse_bad("0=n[1-", EINVAL, "is not a host list");
	parse_bad("0=*", EINVAL, "'*' (every node) is no preference");
	/* in a list too: "*,*" compresses to "*" (the fuzzer's find) */
	parse_bad("*,*", EINVAL, "'*' (every node) is no preference");
	parse_bad("0=n1,*", EINVAL, "'*' (every node) is no preference");
	parse_bad("0=n 1", EINVAL, "unexpected ' '");
	parse_bad("0=n1=n2", EINVAL, "unexpected '='");
	parse_bad("4000001=n1", ERANGE, "above 4000000");
	parse_bad("99999999999999999999=n1", ERANGE, "above 4000000");
	parse_bad("0=n[1-70000]", ERANGE, "more than 65536 host names");
	parse_bad("0=n[1-40000];1=m[1-40000]", ERANGE,
		  "more than 65536 host names");
	/* messages name the entry, or its line in a multi-line spec */
	parse_bad("0-3=n1;2=n2", EINVAL, "entry '2=n2'");
	parse_bad("0-3=n1\n# c\n2=n2\n", EINVAL, "line 3: task 2");
	parse_bad(NULL, EINVAL, "no preferred nodes");
}
END_TEST

START_TEST(test_locality_limits)
{
	size_t cap = 64 * 1024, used = 0;
	char *text = malloc(cap), *buf = malloc(DL_LOCALITY_MAX_TEXT + 1);
	char err[256];
	struct dl_locality loc;
	uint32_t i;

	/* one host per task, none shared: too long once normalised */
	for (i = 0; i < 3000; i++)
		used += (size_t) snprintf(text + used, cap - used, "%u=h%u;", i,
					  3 * i);
	ck_assert_int_eq(dl_locality_normalise(text, buf,
					       DL_LOCALITY_MAX_TEXT + 1, err,
					       sizeof(err)),
			 ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "bytes once normalised"));
	ck_assert_ptr_nonnull(strstr(err, "16384"));
	/* the same tasks grouped by node fit */
	snprintf(text, cap, "0-2999:3=h0;1-2999:3=h1;2-2999:3=h2");
	ck_assert_int_eq(dl_locality_normalise(text, buf,
					       DL_LOCALITY_MAX_TEXT + 1, err,
					       sizeof(err)),
			 0);
	ck_assert_str_eq(buf, "0-2997:3=h0;1-2998:3=h1;2-2999:3=h2");
	/* a buffer too small for the result */
	ck_assert_int_eq(dl_locality_normalise(text, buf, 10, err, sizeof(err)),
			 ERANGE);
	ck_assert_int_eq(dl_locality_parse(text, &loc, err, sizeof(err)), 0);
	ck_assert_int_eq(dl_locality_format(&loc, buf, 10), ERANGE);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(dl_locality_format(&loc, buf, DL_LOCALITY_MAX_TEXT),
			 0);
	ck_assert_uint_eq(loc.hosts, 3);
	dl_locality_free(&loc);
	/* input larger than what a user may write */
	free(text);
	text = malloc(DL_LOCALITY_MAX_INPUT + 2);
	memset(text, ' ', DL_LOCALITY_MAX_INPUT + 1);
	text[DL_LOCALITY_MAX_INPUT + 1] = '\0';
	ck_assert_int_eq(dl_locality_parse(text, &loc, err, sizeof(err)),
			 ERANGE);
	ck_assert_uint_eq(loc.nsets, 0);
	ck_assert_int_eq(dl_locality_parse(NULL, &loc, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_locality_parse("n1", NULL, err, sizeof(err)),
			 EINVAL);
	ck_assert_int_eq(dl_locality_format(NULL, buf, 10), EINVAL);
	ck_assert_int_eq(dl_locality_set_of(NULL, 0), -1);
	ck_assert_int_eq(dl_locality_normalise("n1", NULL, 0, err, sizeof(err)),
			 EINVAL);
	free(text);
	free(buf);
}
END_TEST

START_TEST(test_locality_lookup)
{
	struct dl_locality loc;
	char err[256];

	ck_assert_int_eq(dl_locality_parse("0-3=n[1-2];4-7=n3;*=n[5-6]", &loc,
					   err, sizeof(err)),
			 0);
	ck_assert_uint_eq(loc.nsets, 3);
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 0)], "n[1-2]");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 3)], "n[1-2]");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 5)], "n3");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 8)], "n[5-6]");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 4000000)], "n[5-6]");
	dl_locality_free(&loc);
	/* interleaved progressions, no default */
	ck_assert_int_eq(dl_locality_parse("0-9:3=n1;1-9:3=n2;2-9:3=n3;20=n4",
					   &loc, err, sizeof(err)),
			 0);
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 9)], "n1");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 7)], "n2");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 8)], "n3");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 20)], "n4");
	ck_assert_int_eq(dl_locality_set_of(&loc, 10), -1);
	ck_assert_int_eq(dl_locality_set_of(&loc, 19), -1);
	ck_assert_int_eq(dl_locality_set_of(&loc, 21), -1);
	dl_locality_free(&loc);
}
END_TEST

/* slurmctld's parse: host lists of the normal form kept as written,
 * ranges cut to the array's indexes */
START_TEST(test_locality_parse_opt)
{
	struct dl_locality_opts kept = {149, false, true};
	struct dl_locality_opts canon = {149, true, true};
	struct dl_locality_opts ctld = {DL_LOCALITY_MAX_TASK, false, false};
	struct dl_locality loc;
	char err[256], buf[256];

	ck_assert_int_eq(dl_locality_parse_opt("0-99=n1;100-199=n[3,2];"
					       "200-299=n9;0-3000:7000=x",
					       &kept, &loc, err, sizeof(err)),
			 EINVAL); /* task 0 twice: checked as before */
	ck_assert_int_eq(dl_locality_parse_opt("0-99:7=n1;100-199=n[3,2];"
					       "200-299=n9",
					       &kept, &loc, err, sizeof(err)),
			 0);
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 120)], "n[3,2]");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 98)], "n1");
	ck_assert_int_eq(dl_locality_set_of(&loc, 160), -1);
	ck_assert_int_eq(dl_locality_set_of(&loc, 250), -1);
	ck_assert_int_eq(dl_locality_format(&loc, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0-98:7=n1;100-149=n[3,2]");
	dl_locality_free(&loc);
	ck_assert_int_eq(dl_locality_parse_opt("0-99:7=n1;100-199=n[3,2]",
					       &canon, &loc, err, sizeof(err)),
			 0);
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 120)], "n[2-3]");
	dl_locality_free(&loc);
	/* a normal form parses to itself, unexpanded */
	ck_assert_int_eq(dl_locality_parse_opt("0-3=n[1-2];*=n[1-65534]", &ctld,
					       &loc, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(loc.hosts, 65536);
	ck_assert_int_eq(dl_locality_format(&loc, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0-3=n[1-2];*=n[1-65534]");
	dl_locality_free(&loc);
	/* the checks still hold */
	ck_assert_int_eq(
		dl_locality_parse_opt("0=n[1-", &kept, &loc, err, sizeof(err)),
		EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "is not a host list"));
	ck_assert_int_eq(dl_locality_parse_opt("0=n[1-70000]", &kept, &loc, err,
					       sizeof(err)),
			 ERANGE);
	ck_assert_int_eq(dl_locality_parse_opt("0=a[1-40000];1=b[1-40000]",
					       &kept, &loc, err, sizeof(err)),
			 ERANGE);
	/* without the uniqueness check a task listed twice takes the range
	 * that starts later */
	ck_assert_int_eq(dl_locality_parse_opt("0-9=a;5=b", &ctld, &loc, err,
					       sizeof(err)),
			 0);
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 5)], "b");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 4)], "a");
	ck_assert_str_eq(loc.sets[dl_locality_set_of(&loc, 6)], "a");
	dl_locality_free(&loc);
	/* NULL options: as dl_locality_parse */
	ck_assert_int_eq(
		dl_locality_parse_opt("0=n[2,1]", NULL, &loc, err, sizeof(err)),
		0);
	ck_assert_str_eq(loc.sets[0], "n[1-2]");
	dl_locality_free(&loc);
}
END_TEST

/* Random specs (non-overlapping by construction): the lookup agrees with
 * a plain scan of what was written. */
START_TEST(test_locality_lookup_random)
{
	unsigned seed = 12345;

	for (int round = 0; round < 200; round++) {
		int32_t owner[400];
		char text[8192], err[256];
		size_t used = 0;
		struct dl_locality loc;
		int entries = 1 + (int) (rand_r(&seed) % 12);

		for (int t = 0; t < 400; t++)
			owner[t] = -1;
		for (int e = 0; e < entries; e++) {
			uint32_t lo = (uint32_t) (rand_r(&seed) % 300);
			uint32_t len = (uint32_t) (rand_r(&seed) % 60);
			uint32_t step = 1 + (uint32_t) (rand_r(&seed) % 5);
			uint32_t host = (uint32_t) (rand_r(&seed) % 6);
			bool clash = false;

			for (uint32_t t = lo; t <= lo + len; t += step)
				clash |= owner[t] >= 0;
			if (clash)
				continue;
			for (uint32_t t = lo; t <= lo + len; t += step)
				owner[t] = (int32_t) host;
			used += (size_t) snprintf(
				text + used, sizeof(text) - used,
				"%u-%u:%u=h%u;", lo, lo + len, step, host);
		}
		if (!used)
			continue;
		ck_assert_int_eq(
			dl_locality_parse(text, &loc, err, sizeof(err)), 0);
		for (uint32_t t = 0; t < 400; t++) {
			int32_t s = dl_locality_set_of(&loc, t);

			if (owner[t] < 0) {
				ck_assert_int_eq(s, -1);
			} else {
				char want[16];

				snprintf(want, sizeof(want), "h%d", owner[t]);
				ck_assert_int_ge(s, 0);
				ck_assert_str_eq(loc.sets[s], want);
			}
		}
		dl_locality_free(&loc);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("locality");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_nodeset_count);
	tcase_add_test(tc, test_nodeset_foreach);
	tcase_add_test(tc, test_nodeset_compress);
	tcase_add_test(tc, test_nodeset_roundtrip);
	tcase_add_test(tc, test_locality_normal_form);
	tcase_add_test(tc, test_locality_errors);
	tcase_add_test(tc, test_locality_limits);
	tcase_add_test(tc, test_locality_lookup);
	tcase_add_test(tc, test_locality_lookup_random);
	tcase_add_test(tc, test_locality_parse_opt);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fx_run_suite(suite());
}
