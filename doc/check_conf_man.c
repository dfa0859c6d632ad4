/*
 * check_conf_man.c - deadline.conf(5) documents exactly the options of the
 * core's table (dl_options[]): every option has an entry
 *   .TP
 *   \fBName\fR=...
 * whose paragraph contains the table's one-line doc, "Default: <default>."
 * ("Default: empty." for an empty string) and, for numbers and durations,
 * "Range: <min> to <max>."; and the page has no entry for an unknown option.
 * Run by make check so the page cannot drift from the code.  Further
 * arguments are deadline.conf files (the shipped example) that must load,
 * and guides (*.md) that must name every option as `Name`.
 *
 *   check_conf_man doc/deadline.conf.5 [deadline.conf...] [guide.md...]
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/config/config.h"

#define MAX_ENTRIES 256

struct entry {
	char name[64];
	char *text; /* the paragraph as plain text, one line */
};

/* roff to plain text: drop font escapes, \- -> -, \(em -> -, \e -> \ */
static void plain(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 1 < len; p++) {
		if (p[0] == '\\' && p[1] == 'f' && p[2]) {
			p += 2;
			continue;
		}
		if (p[0] == '\\' && p[1] == '-') {
			out[n++] = '-';
			p++;
			continue;
		}
		if (p[0] == '\\' && p[1] == 'e') {
			out[n++] = '\\';
			p++;
			continue;
		}
		if (p[0] == '\\' && p[1] == '(' && p[2] && p[3]) {
			out[n++] = '-';
			p += 3;
			continue;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
}

static char *append(char *text, const char *line)
{
	size_t a = text ? strlen(text) : 0, b = strlen(line);
	char *t = realloc(text, a + b + 2);

	if (!t) {
		perror("realloc");
		exit(2);
	}
	if (a)
		t[a++] = ' ';
	memcpy(t + a, line, b + 1);
	return t;
}

static int read_entries(const char *path, struct entry *e, int *n)
{
	FILE *f = fopen(path, "r");
	char line[4096], txt[4096];
	bool in_options = false, after_tp = false;
	struct entry *cur = NULL;

	if (!f) {
		perror(path);
		return -1;
	}
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, ".SH", 3)) {
			in_options = strstr(line, "OPTIONS") != NULL;
			cur = NULL;
			continue;
		}
		if (!in_options)
			continue;
		if (!strncmp(line, ".TP", 3)) {
			after_tp = true;
			cur = NULL;
			continue;
		}
		if (after_tp && !strncmp(line, "\\fB", 3)) {
			char *end = strstr(line + 3, "\\fR");

			after_tp = false;
			if (!end || end[3] != '=' || *n >= MAX_ENTRIES)
				continue;
			cur = &e[(*n)++];
			snprintf(cur->name, sizeof(cur->name), "%.*s",
				 (int) (end - line - 3), line + 3);
			cur->text = NULL;
			continue;
		}
		after_tp = false;
		if (cur && line[0] != '.') {
			plain(line, txt, sizeof(txt));
			cur->text = append(cur->text, txt);
		}
	}
	fclose(f);
	return 0;
}

static void number(double v, char *buf, size_t len)
{
	if (v == (double) (long long) v && v < 1e15 && v > -1e15)
		snprintf(buf, len, "%lld", (long long) v);
	else
		snprintf(buf, len, "%g", v);
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; hay && *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

/* A guide names every option as `Name`; returns the number missing. */
static int check_guide(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL, want[128];
	size_t len = 0;
	int missing = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	if (getdelim(&text, &len, '\0', f) < 0) {
		fclose(f);
		free(text);
		printf("%s: empty\n", path);
		return 1;
	}
	fclose(f);
	for (const struct dl_option *o = dl_options; o->name; o++) {
		snprintf(want, sizeof(want), "`%s`", o->name);
		if (!strstr(text, want)) {
			printf("%s: does not mention %s\n", path, want);
			missing++;
		}
	}
	if (!missing)
		printf("%s: mentions every option\n", path);
	free(text);
	return missing;
}

int main(int argc, char **argv)
{
	static struct entry e[MAX_ENTRIES];
	char want[512], lo[64], hi[64];
	int n, bad = 0, options = 0;

	if (argc < 2) {
		fprintf(stderr,
			"usage: %s deadline.conf.5 [deadline.conf...]\n",
			argv[0]);
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		struct dl_config cfg;
		char err[512];
		size_t len = strlen(argv[i]);

		if (len > 3 && !strcmp(argv[i] + len - 3, ".md")) {
			bad += check_guide(argv[i]);
			continue;
		}
		if (dl_config_defaults(&cfg))
			return 2;
		if (dl_config_load(&cfg, argv[i], err, sizeof(err))) {
			printf("%s: %s\n", argv[i], err);
			bad++;
		} else {
			printf("%s: loads\n", argv[i]);
		}
		dl_config_free(&cfg);
	}
	if (read_entries(argv[1], e, &n))
		return 2;
	for (const struct dl_option *o = dl_options; o->name; o++) {
		struct entry *m = NULL;

		options++;
		for (int i = 0; i < n && !m; i++)
			if (!strcmp(e[i].name, o->name))
				m = &e[i];
		if (!m) {
			printf("%s: option %s is not documented\n", argv[1],
			       o->name);
			bad++;
			continue;
		}
		if (!contains_ci(m->text, o->doc)) {
			printf("%s: %s: the table's doc \"%s\" is missing\n",
			       argv[1], o->name, o->doc);
			bad++;
		}
		if (o->def[0])
			snprintf(want, sizeof(want), "Default: %s.", o->def);
		else
			snprintf(want, sizeof(want), "Default: empty.");
		if (!m->text || !strstr(m->text, want)) {
			printf("%s: %s: expected \"%s\"\n", argv[1], o->name,
			       want);
			bad++;
		}
		if (o->type == DL_OPT_DOUBLE || o->type == DL_OPT_UINT ||
		    o->type == DL_OPT_DURATION) {
			number(o->min, lo, sizeof(lo));
			number(o->max, hi, sizeof(hi));
			snprintf(want, sizeof(want), "Range: %s to %s.", lo,
				 hi);
			if (!m->text || !strstr(m->text, want)) {
				printf("%s: %s: expected \"%s\"\n", argv[1],
				       o->name, want);
				bad++;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		bool known = false;

		for (const struct dl_option *o = dl_options; o->name; o++)
			known |= !strcmp(o->name, e[i].name);
		if (!known) {
			printf("%s: documents %s, which deadline.conf does not "
			       "have\n",
			       argv[1], e[i].name);
			bad++;
		}
		free(e[i].text);
	}
	printf("%d options in dl_options[], %d documented entries, %d "
	       "problem%s\n",
	       options, n, bad, bad == 1 ? "" : "s");
	return bad ? 1 : 0;
}
