/*
 * compare/dc.c - the Deadline Constraint schedulability test with interval
 * reservations of map and reduce slots.
 */
#include "common/compare/dc.h"
#include "common/io/grow.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct resv {
	uint64_t id;
	int phase;
	double from, to; /* [from, to) */
	uint32_t slots;
};

struct dl_dc_state {
	uint32_t slots[2];
	struct resv *r;
	uint32_t n, cap;
};

struct dl_dc_state *dl_dc_new(uint32_t map_slots, uint32_t reduce_slots)
{
	struct dl_dc_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->slots[0] = map_slots;
	st->slots[1] = reduce_slots;
	return st;
}

void dl_dc_free(struct dl_dc_state *st)
{
	if (!st)
		return;
	free(st->r);
	free(st);
}

uint32_t dl_dc_free_at(const struct dl_dc_state *st, int phase, double t)
{
	uint64_t used = 0;

	if (!st || phase < 0 || phase > 1)
		return 0;
	for (uint32_t i = 0; i < st->n; i++)
		if (st->r[i].phase == phase && st->r[i].from <= t &&
		    t < st->r[i].to)
			used += st->r[i].slots;
	return used >= st->slots[phase] ? 0
					: st->slots[phase] - (uint32_t) used;
}

static int add(struct dl_dc_state *st, uint64_t id, int phase, double from,
	       double to, uint32_t slots)
{
	if (!slots || !(to > from))
		return 0;
	if (dl_grow(&st->r, st->n, &st->cap, sizeof(*st->r), 32))
		return ENOMEM;
	st->r[st->n++] = (struct resv){id, phase, from, to, slots};
	return 0;
}

static bool bad(double x)
{
	return !isfinite(x) || x < 0;
}

int dl_dc_admit(struct dl_dc_state *st, const struct dl_dc_request *q,
		bool commit, struct dl_dc_verdict *v)
{
	double window;

	if (!v)
		return EINVAL;
	memset(v, 0, sizeof(*v));
	if (!st || !q || !q->id || bad(q->arrival) || bad(q->deadline) ||
	    (q->maps && bad(q->wc_map)) || (q->reduces && bad(q->wc_reduce)) ||
	    (!q->maps && !q->reduces)) {
		snprintf(v->msg, sizeof(v->msg), "invalid request");
		return EINVAL;
	}
	{
		/* reservations over before this arrival matter no more
		 * (arrivals come in time order) */
		uint32_t k = 0;

		for (uint32_t i = 0; i < st->n; i++)
			if (st->r[i].to > q->arrival)
				st->r[k++] = st->r[i];
		st->n = k;
	}
	for (uint32_t i = 0; i < st->n; i++)
		if (st->r[i].id == q->id) {
			snprintf(v->msg, sizeof(v->msg), "already admitted");
			return EEXIST;
		}
	/* reduces start together and run ε_r: the map stage's deadline */
	v->sr_max = q->deadline - (q->reduces ? q->wc_reduce : 0);
	window = v->sr_max - q->arrival;
	v->free_map = dl_dc_free_at(st, 0, q->arrival);
	v->free_reduce = dl_dc_free_at(st, 1, v->sr_max);
	if (q->maps && !(window > 0)) {
		snprintf(v->msg, sizeof(v->msg),
			 "the reduce stage would have to start before the job "
			 "arrives");
		return 0;
	}
	if (q->maps) {
		double need = ceil(q->maps * q->wc_map / window - 1e-12);

		v->nm_min = need < 1 ? 1 : (uint32_t) fmin(need, UINT32_MAX);
	}
	if (v->nm_min > v->free_map) {
		snprintf(v->msg, sizeof(v->msg),
			 "needs %u map slots at its arrival, %u free",
			 v->nm_min, v->free_map);
		return 0;
	}
	if (q->reduces > v->free_reduce) {
		snprintf(v->msg, sizeof(v->msg),
			 "needs %u reduce slots at %.0f, %u free", q->reduces,
			 v->sr_max, v->free_reduce);
		return 0;
	}
	v->admitted = true;
	snprintf(v->msg, sizeof(v->msg),
		 "admitted: %u map slots until %.0f, %u reduce slots after",
		 v->nm_min, v->sr_max, q->reduces);
	if (!commit)
		return 0;
	if (add(st, q->id, 0, q->arrival, v->sr_max, v->nm_min) ||
	    add(st, q->id, 1, v->sr_max, q->deadline, q->reduces)) {
		dl_dc_release(st, q->id, 0);
		v->admitted = false;
		return ENOMEM;
	}
	return 0;
}

int dl_dc_release(struct dl_dc_state *st, uint64_t id, double now)
{
	bool found = false;
	uint32_t k = 0;

	if (!st)
		return EINVAL;
	for (uint32_t i = 0; i < st->n; i++) {
		struct resv r = st->r[i];

		if (r.id == id) {
			found = true;
			if (r.to > now)
				r.to = now;
			if (!(r.to > r.from))
				continue; /* nothing of it is left */
		}
		st->r[k++] = r;
	}
	st->n = k;
	return found ? 0 : ENOENT;
}
