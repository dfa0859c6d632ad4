/*
 * hindsight.c - the checkpoints of the recent past and its workload.
 */
#include "common/portfolio/hindsight.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void drop(struct dl_pf_checkpoint *c)
{
	if (c->set) {
		sim_cluster_spec_free(&c->cs);
		sim_workload_spec_free(&c->ws);
	}
	memset(c, 0, sizeof(*c));
}

void dl_pf_hindsight_clear(struct dl_pf_hindsight *h)
{
	if (!h)
		return;
	drop(&h->cp[0]);
	drop(&h->cp[1]);
}

bool dl_pf_hindsight_keep(struct dl_pf_hindsight *h, double now, double origin,
			  double window, struct sim_cluster_spec *cs,
			  struct sim_workload_spec *ws)
{
	struct dl_pf_checkpoint *c, *newest;

	if (!h || !cs || !ws || !isfinite(now) || !isfinite(origin))
		return false;
	if (!(window > 0)) {
		dl_pf_hindsight_clear(h);
		return false;
	}
	newest = h->cp[1].set ? &h->cp[1] : &h->cp[0];
	if (newest->set && now - newest->now < window / 2)
		return false;
	if (h->cp[1].set) {
		drop(&h->cp[0]);
		h->cp[0] = h->cp[1];
		memset(&h->cp[1], 0, sizeof(h->cp[1]));
	}
	c = h->cp[0].set ? &h->cp[1] : &h->cp[0];
	c->set = true;
	c->now = now;
	c->origin = origin;
	c->cs = *cs;
	c->ws = *ws;
	memset(cs, 0, sizeof(*cs));
	memset(ws, 0, sizeof(*ws));
	return true;
}

int dl_pf_hindsight_past(const struct dl_pf_hindsight *h,
			 const struct dl_pf_recent *r, double now,
			 const struct sim_cluster_spec **cs,
			 struct sim_workload_spec *out, uint32_t *nbase)
{
	const struct dl_pf_checkpoint *c = NULL;
	int rc;

	if (!h || !cs || !out || !nbase || !isfinite(now))
		return EINVAL;
	memset(out, 0, sizeof(*out));
	*cs = NULL;
	*nbase = 0;
	for (int i = 0; i < 2 && !c; i++)
		if (h->cp[i].set && h->cp[i].now < now)
			c = &h->cp[i];
	if (!c)
		return 0;
	/* arrivals after the checkpoint, on its clock */
	rc = dl_pf_replay(&c->ws, r, c->now, now, c->origin - c->now, out);
	if (rc)
		return rc;
	*cs = &c->cs;
	*nbase = c->ws.njobs;
	return 0;
}
