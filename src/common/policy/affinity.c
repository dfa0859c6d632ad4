/*
 * affinity.c - data affinity: Polo's decision and the deferral table
 * (affinity.h).
 */
#include "common/policy/affinity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *dl_affinity_name(enum dl_affinity a)
{
	switch (a) {
	case DL_AFFINITY_LOCAL:
		return "local";
	case DL_AFFINITY_DEFER:
		return "defer";
	case DL_AFFINITY_ANYWHERE:
		return "anywhere";
	}
	return "?";
}

double dl_affinity_sreq(double need, uint32_t running)
{
	if (isnan(need) || need < 0)
		return NAN;
	return need - (double) running;
}

enum dl_affinity dl_affinity_decide(bool local_free, double sreq,
				    uint32_t delays, int32_t max_delays)
{
	if (local_free)
		return DL_AFFINITY_LOCAL;
	/* !(sreq <= 0) also holds for NaN: no estimate, no deferral */
	if (!(sreq <= 0) || max_delays <= 0 || delays >= (uint32_t) max_delays)
		return DL_AFFINITY_ANYWHERE;
	return DL_AFFINITY_DEFER;
}

void dl_deferrals_init(struct dl_deferrals *t, uint32_t max)
{
	if (!t)
		return;
	memset(t, 0, sizeof(*t));
	t->max = max;
}

void dl_deferrals_free(struct dl_deferrals *t)
{
	if (!t)
		return;
	free(t->e);
	dl_deferrals_init(t, t->max);
}

static int key_cmp(const struct dl_deferral *e, uint64_t array_id,
		   uint32_t task)
{
	if (e->array_id != array_id)
		return e->array_id < array_id ? -1 : 1;
	return (e->task > task) - (e->task < task);
}

/* Index of the entry, or of where it would go (*found false). */
static uint32_t find(const struct dl_deferrals *t, uint64_t array_id,
		     uint32_t task, bool *found)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(&t->e[mid], array_id, task);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

uint32_t dl_deferrals_get(const struct dl_deferrals *t, uint64_t array_id,
			  uint32_t task)
{
	bool found;
	uint32_t i;

	if (!t || !t->n)
		return 0;
	i = find(t, array_id, task, &found);
	return found ? t->e[i].delays : 0;
}

/* A new zeroed entry at i, or NULL (full or out of memory). */
static struct dl_deferral *insert(struct dl_deferrals *t, uint32_t i,
				  uint64_t array_id, uint32_t task)
{
	if (t->n >= t->max)
		return NULL;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 16;
		struct dl_deferral *e;

		if (cap > t->max)
			cap = t->max;
		e = realloc(t->e, (size_t) cap * sizeof(*e));
		if (!e)
			return NULL;
		t->e = e;
		t->cap = cap;
	}
	memmove(&t->e[i + 1], &t->e[i], (t->n - i) * sizeof(*t->e));
	t->n++;
	memset(&t->e[i], 0, sizeof(t->e[i]));
	t->e[i].array_id = array_id;
	t->e[i].task = task;
	return &t->e[i];
}

enum dl_affinity dl_affinity_attempt(struct dl_deferrals *t, uint64_t array_id,
				     uint32_t task, int64_t stamp,
				     bool local_free, double sreq,
				     int32_t max_delays, bool *counted)
{
	struct dl_deferral *e = NULL;
	enum dl_affinity d;
	bool found = false;
	uint32_t i = 0;

	if (counted)
		*counted = false;
	if (local_free)
		return DL_AFFINITY_LOCAL;
	if (!t)
		return dl_affinity_decide(false, sreq, 0, 0);
	if (t->n)
		i = find(t, array_id, task, &found);
	if (found) {
		e = &t->e[i];
		if (e->stamp == stamp && e->deferring)
			return DL_AFFINITY_DEFER; /* the same attempt */
	}
	d = dl_affinity_decide(false, sreq, e ? e->delays : 0, max_delays);
	if (d == DL_AFFINITY_DEFER) {
		if (!e && !(e = insert(t, i, array_id, task))) {
			t->full++;
			return DL_AFFINITY_ANYWHERE;
		}
		e->delays++;
		e->stamp = stamp;
		e->deferring = true;
		if (counted)
			*counted = true;
	} else if (e) {
		e->stamp = stamp;
		e->deferring = false;
	}
	return d;
}

uint32_t dl_deferrals_forget(struct dl_deferrals *t, uint64_t array_id,
			     uint32_t task)
{
	uint32_t i, delays;
	bool found;

	if (!t || !t->n)
		return 0;
	i = find(t, array_id, task, &found);
	if (!found)
		return 0;
	delays = t->e[i].delays;
	memmove(&t->e[i], &t->e[i + 1], (t->n - i - 1) * sizeof(*t->e));
	t->n--;
	return delays;
}

void dl_deferrals_retain(struct dl_deferrals *t,
			 bool (*keep)(uint64_t array_id, void *ctx), void *ctx)
{
	uint32_t m = 0;

	if (!t || !keep)
		return;
	for (uint32_t i = 0; i < t->n; i++) {
		/* entries of one array are adjacent: ask once per array */
		if (i && t->e[i].array_id == t->e[i - 1].array_id) {
			if (m && t->e[m - 1].array_id == t->e[i].array_id)
				t->e[m++] = t->e[i];
			continue;
		}
		if (keep(t->e[i].array_id, ctx))
			t->e[m++] = t->e[i];
	}
	t->n = m;
}
