/*
 * test_text.c - UTF-8 validation and character-boundary copies
 * (common/io/utf8.h), whole-text JSON parsing errors and UTF-8 strings
 * (common/io/json.h).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/json.h"
#include "common/io/utf8.h"
#include "fixtures.h"

START_TEST(test_utf8_valid)
{
	const char *good[] = {"",
			      "abc",
			      "\xc3\xa9",
			      "\xe2\x82\xac",
			      "\xf0\x9f\x98\x80",
			      "a\xef\xbf\xbd"};
	const char *bad[] = {"\xc3",
			     "\xe2\x82",
			     "\x80",
			     "\xc0\xaf",
			     "\xe0\x80\xaf",
			     "\xed\xa0\x80",
			     "\xf4\x90\x80\x80",
			     "\xff",
			     "a\xc3(b"};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(dl_utf8_valid(good[i], strlen(good[i])),
			      "good %zu", i);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!dl_utf8_valid(bad[i], strlen(bad[i])), "bad %zu",
			      i);
	ck_assert(!dl_utf8_valid("a\0b", 3)); /* NUL inside */
	ck_assert(dl_utf8_valid(NULL, 0));
}
END_TEST

/* Issue D1: a job name of 62 'a' and an 'é' cut at 63 bytes left half a
 * character, and the estimator refused the plugin's whole batch. */
START_TEST(test_utf8_copy_cuts_at_boundaries)
{
	char name[80], dst[64];
	size_t n;

	memset(name, 'a', 62);
	strcpy(name + 62, "\xc3\xa9");
	n = dl_utf8_copy(dst, sizeof(dst), name);
	ck_assert_uint_eq(n, 62);
	ck_assert(dl_utf8_valid(dst, n));
	/* it fits whole with one byte more */
	{
		char big[65];

		ck_assert_uint_eq(dl_utf8_copy(big, sizeof(big), name), 64);
		ck_assert_str_eq(big + 62, "\xc3\xa9");
	}
	/* 4-byte characters cut at every size */
	for (size_t size = 1; size < 12; size++) {
		char out[16];

		n = dl_utf8_copy(out, size,
				 "\xf0\x9f\x98\x80\xf0\x9f\x98\x80x");
		ck_assert_uint_eq(n, size > 9   ? 9
				     : size > 8 ? 8
				     : size > 4 ? 4
						: 0);
		ck_assert(dl_utf8_valid(out, n));
	}
	/* invalid bytes from the user become '?' */
	ck_assert_uint_eq(
		dl_utf8_copy(dst, sizeof(dst), "a\xff\xc3(b\xed\xa0\x80"), 8);
	ck_assert_str_eq(dst, "a?"
			      "?(b?"
			      "?"
			      "?");
	ck_assert_uint_eq(dl_utf8_copy(dst, sizeof(dst), NULL), 0);
	ck_assert_str_eq(dst, "");
	ck_assert_uint_eq(dl_utf8_copy(dst, 0, "abc"), 0);
}
END_TEST

static void expect_parse_error(const char *text, const char *part)
{
	char err[160] = "";
	struct json_object *o =
		dl_json_parse(text, strlen(text), 1024, "t", err, sizeof(err));

	ck_assert_msg(!o, "accepted: %s", text);
	ck_assert_msg(strstr(err, part), "%s: '%s' lacks '%s'", text, err,
		      part);
}

/* Issue D13: "not valid JSON: success" and "continue". */
START_TEST(test_json_text_errors)
{
	char err[160];
	struct json_object *o;

	expect_parse_error("", "empty");
	expect_parse_error("  \n", "empty");
	expect_parse_error("{\"a\":1", "truncated");
	/* json-c's strict mode stops at the first byte after the value */
	expect_parse_error("{\"a\":1} {", "byte 8");
	expect_parse_error("{\"a\":}", "malformed JSON at line 1 (byte 5)");
	expect_parse_error("{\"a\":1}\n\n{", "line 3");
	o = dl_json_parse("{\"a\":1}\n", 8, 1024, "t", err, sizeof(err));
	ck_assert_ptr_nonnull(o);
	json_object_put(o);
	/* a text over the caller's limit is refused before parsing */
	ck_assert_ptr_null(dl_json_parse("[1,2]", 5, 4, "t", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "too large"));
}
END_TEST

/* A string read must be valid UTF-8 (one bad record costs that record);
 * a string written is made valid, so no strict reader refuses it. */
START_TEST(test_json_strings_utf8)
{
	char err[160] = "";
	struct dl_json_rd r = DL_JSON_RD(err, sizeof(err));
	struct json_object *o = json_object_new_object();
	struct json_object *w = dl_json_string("a\xff\xc3");

	json_object_object_add(o, "s", json_object_new_string("b\xc3("));
	ck_assert_ptr_null(dl_json_str(&r, o, "x", "s", 0, 0, 64, NULL));
	ck_assert_ptr_nonnull(strstr(err, "x.s is not valid UTF-8"));
	ck_assert_str_eq(json_object_get_string(w), "a??");
	json_object_put(w);
	w = dl_json_string(NULL);
	ck_assert_str_eq(json_object_get_string(w), "");
	json_object_put(w);
	json_object_put(o);
}
END_TEST

/* json-c 0.18's strict mode (Debian 13) refused every byte >= 0x80 in a
 * string, valid UTF-8 included; non-ASCII is read through escapes. */
START_TEST(test_utf8_json_escape)
{
	char *out = NULL, err[160];
	size_t n = 0;
	struct json_object *o;
	const char *text = "{\"n\":\"caf\xc3\xa9 \xc2\xa7 \xe2\x82\xac "
			   "\xf0\x9f\x98\x80\"}";

	ck_assert_int_eq(dl_utf8_json_escape("{\"a\":1}", 7, &out, &n), 0);
	ck_assert_ptr_null(out); /* ASCII: nothing to rewrite */
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(dl_utf8_json_escape(text, strlen(text), &out, &n), 0);
	ck_assert_str_eq(out, "{\"n\":\"caf\\u00e9 \\u00a7 \\u20ac "
			      "\\ud83d\\ude00\"}");
	ck_assert_uint_eq(n, strlen(out));
	free(out);
	/* the bytes of invalid sequences are kept, for the parser to refuse;
	 * NUL bytes too */
	ck_assert_int_eq(dl_utf8_json_escape("x\xc3(\xc3\xa9\xed\xa0\x80\0y",
					     10, &out, &n),
			 0);
	ck_assert_uint_eq(n, 14);
	ck_assert_mem_eq(out, "x\xc3(\\u00e9\xed\xa0\x80\0y", 14);
	free(out);
	ck_assert_int_eq(dl_utf8_json_escape(NULL, 0, &out, &n), EINVAL);
	/* a strict parse reads the original bytes, on every json-c */
	o = dl_json_parse(text, strlen(text), 1024, "t", err, sizeof(err));
	ck_assert_msg(o != NULL, "%s", err);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(o, "n")),
			 "caf\xc3\xa9 \xc2\xa7 \xe2\x82\xac \xf0\x9f\x98\x80");
	json_object_put(o);
	/* an invalid sequence is never read as a string: json-c 0.18 refuses
	 * the text, 0.16 leaves it to dl_json_str */
	text = "{\"n\":\"\xc3\xa9\xc3\"}";
	o = dl_json_parse(text, strlen(text), 1024, "t", err, sizeof(err));
	if (o) {
		struct dl_json_rd r = DL_JSON_RD(err, sizeof(err));

		ck_assert_ptr_null(
			dl_json_str(&r, o, "x", "n", 0, 0, 64, NULL));
		ck_assert_ptr_nonnull(strstr(err, "x.n is not valid UTF-8"));
		json_object_put(o);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_utf8_valid);
	tcase_add_test(tc, test_utf8_copy_cuts_at_boundaries);
	tcase_add_test(tc, test_json_text_errors);
	tcase_add_test(tc, test_json_strings_utf8);
	tcase_add_test(tc, test_utf8_json_escape);
	suite_add_tcase(s, tc);
	return fx_run_suite(s);
}
