/*
 * fuzz_locality.c - --input-nodes specs: any text is either refused with a
 * message or parsed; the normal form of what is accepted parses back to
 * the same locality (a fixed point, same preferred hosts for every task),
 * and its host lists re-expand to exactly their canonical form.  The
 * slurmctld reading (dl_locality_parse_opt: normal form kept, indexes cut
 * to the array's, no uniqueness walk) gives every task up to the cut the
 * same hosts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/locality.h"
#include "common/model/nodeset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct names {
	char **v;
	uint32_t n, cap;
};

static int keep(const char *name, void *ctx)
{
	struct names *l = ctx;

	if (l->n == l->cap)
		__builtin_trap(); /* more names than dl_nodeset_count said */
	if (!(l->v[l->n] = strdup(name)))
		return 1;
	l->n++;
	return 0;
}

/* A canonical host list compresses to itself. */
static void check_hosts(const char *hosts)
{
	struct names l = {0};
	char *again = NULL;
	uint32_t count;

	if (dl_nodeset_count(hosts, DL_LOCALITY_MAX_HOSTS, &count, NULL, 0))
		__builtin_trap();
	l.v = calloc(count ? count : 1, sizeof(*l.v));
	l.cap = count;
	if (!l.v)
		return;
	if (!dl_nodeset_foreach(hosts, count, keep, &l, NULL, 0)) {
		if (l.n != count)
			__builtin_trap();
		if (!dl_nodeset_compress(l.v, l.n, &again) &&
		    strcmp(again, hosts))
			__builtin_trap();
	}
	free(again);
	for (uint32_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char norm[DL_LOCALITY_MAX_TEXT + 1],
		again[DL_LOCALITY_MAX_TEXT + 1];
	struct dl_locality a, b, c;
	char err[256] = "", *text;
	int rc;

	if (size > 65536)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rc = dl_locality_parse(text, &a, err, sizeof(err));
	if (rc && !err[0])
		__builtin_trap(); /* every refusal says why */
	if (rc) {
		if (a.nsets || a.nranges)
			__builtin_trap();
		free(text);
		return 0;
	}
	if (dl_locality_format(&a, norm, sizeof(norm))) {
		/* too long to normalise: normalise must refuse it too */
		if (!dl_locality_normalise(text, again, sizeof(again), err,
					   sizeof(err)))
			__builtin_trap();
		dl_locality_free(&a);
		free(text);
		return 0;
	}
	if (dl_locality_parse(norm, &b, err, sizeof(err)))
		__builtin_trap(); /* the normal form must parse */
	if (dl_locality_format(&b, again, sizeof(again)) || strcmp(norm, again))
		__builtin_trap(); /* and be a fixed point */
	if (a.nsets != b.nsets || a.dflt != b.dflt || a.hosts != b.hosts)
		__builtin_trap();
	for (uint32_t s = 0; s < a.nsets; s++) {
		if (strcmp(a.sets[s], b.sets[s]))
			__builtin_trap();
		check_hosts(a.sets[s]);
	}
	/* slurmctld's reading of the normal form, cut at some index */
	{
		struct dl_locality_opts ctld = {size ? (uint32_t) data[0] * 37u
						     : DL_LOCALITY_MAX_TASK,
						false, false};

		if (dl_locality_parse_opt(norm, &ctld, &c, err, sizeof(err)))
			__builtin_trap();
		for (uint32_t k = 0; k < a.nranges; k++) {
			uint32_t probe[3] = {a.ranges[k].lo, a.ranges[k].hi,
					     ctld.max_task};

			for (int i = 0; i < 3; i++) {
				int32_t x = dl_locality_set_of(&a, probe[i]);
				int32_t y = dl_locality_set_of(&c, probe[i]);

				if (probe[i] > ctld.max_task)
					continue;
				/* set numbers may differ after the cut:
				 * compare the host lists */
				if ((x < 0) != (y < 0) ||
				    (x >= 0 && strcmp(a.sets[x], c.sets[y])))
					__builtin_trap();
			}
		}
		dl_locality_free(&c);
	}
	/* the same preferred hosts for every task, around every range */
	for (uint32_t k = 0; k < a.nranges; k++) {
		const struct dl_locality_range *r = &a.ranges[k];
		uint32_t probe[4] = {r->lo, r->hi, r->lo + 1,
				     r->hi < DL_LOCALITY_MAX_TASK ? r->hi + 1
								  : r->hi};

		for (int i = 0; i < 4; i++)
			if (dl_locality_set_of(&a, probe[i]) !=
			    dl_locality_set_of(&b, probe[i]))
				__builtin_trap();
		if (dl_locality_set_of(&a, r->lo) != (int32_t) r->set ||
		    dl_locality_set_of(&a, r->hi) != (int32_t) r->set)
			__builtin_trap();
	}
	dl_locality_free(&a);
	dl_locality_free(&b);
	free(text);
	return 0;
}
