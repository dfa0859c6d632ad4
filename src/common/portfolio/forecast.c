/*
 * forecast.c - the recent arrival process, replayed as a round's future
 * arrivals.
 */
#include "common/portfolio/forecast.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/portfolio/future.h"
#include "common/simulate/rng.h"

void dl_pf_recent_clear(struct dl_pf_recent *r)
{
	if (!r)
		return;
	for (uint32_t i = 0; i < r->n; i++)
		sim_job_spec_free(&r->jobs[i]);
	free(r->jobs);
	memset(r, 0, sizeof(*r));
}

/* forget the arrivals before `since`, keeping the order */
static void forget_before(struct dl_pf_recent *r, double since)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < r->n; i++) {
		if (r->jobs[i].arrival < since)
			sim_job_spec_free(&r->jobs[i]);
		else
			r->jobs[k++] = r->jobs[i];
	}
	r->n = k;
}

int dl_pf_recent_note(struct dl_pf_recent *r, const struct dl_policy_input *in,
		      double window, double fallback_len)
{
	uint64_t top;

	if (!r || !in)
		return EINVAL;
	top = r->last_id;
	for (uint32_t j = 0; j < in->njobs; j++) {
		const struct dl_job *dj = in->jobs ? in->jobs[j] : NULL;
		struct sim_job_spec js;
		int rc;

		if (!dj || dj->id <= r->last_id)
			continue;
		if (dj->id > top)
			top = dj->id;
		if (!(window > 0))
			continue;
		rc = dl_pf_job_shape(in, dj, fallback_len, &js);
		if (rc) {
			sim_job_spec_free(&js);
			if (rc == ENOMEM)
				return ENOMEM;
			continue; /* nothing to replay */
		}
		if (r->n == r->cap) {
			uint32_t c = r->cap ? 2 * r->cap : 16;
			void *p = realloc(r->jobs, c * sizeof(*r->jobs));

			if (!p) {
				sim_job_spec_free(&js);
				return ENOMEM;
			}
			r->jobs = p;
			r->cap = c;
		}
		r->jobs[r->n++] = js;
	}
	r->last_id = top;
	forget_before(r, window > 0 ? in->now - window : INFINITY);
	return 0;
}

/* the rotation of sample k in [0, 1): 0 for sample 0 */
static double phase_of(uint64_t seed, uint32_t k)
{
	struct sim_rng g;

	if (!k)
		return 0;
	sim_rng_init(&g, seed, 0x666f7265636173ull /* "forecas" */, k, 0);
	return (double) (sim_rng_next(&g) >> 11) / 9007199254740992.0;
}

/* out with base's jobs (shallow copies) and room for extra more */
static int start_with(const struct sim_workload_spec *base, uint32_t extra,
		      struct sim_workload_spec *out)
{
	memset(out, 0, sizeof(*out));
	out->jobs = calloc(base->njobs + extra ? base->njobs + extra : 1,
			   sizeof(*out->jobs));
	if (!out->jobs)
		return ENOMEM;
	if (base->njobs)
		memcpy(out->jobs, base->jobs, base->njobs * sizeof(*out->jobs));
	out->njobs = base->njobs;
	return 0;
}

/* Append recorded arrival g as arriving at `arrival`, its deadline as far
 * from it as g's from g's arrival, named "+<name>" (owned by out). */
static int append(struct sim_workload_spec *out, const struct sim_job_spec *g,
		  double arrival)
{
	struct sim_job_spec *js = &out->jobs[out->njobs];
	size_t len = strlen(g->name ? g->name : "") + 2;

	*js = *g;
	js->name = malloc(len);
	if (!js->name)
		return ENOMEM;
	snprintf(js->name, len, "+%s", g->name ? g->name : "");
	js->arrival = arrival;
	js->deadline =
		g->deadline > 0 ? arrival + (g->deadline - g->arrival) : 0;
	out->njobs++;
	return 0;
}

int dl_pf_forecast(const struct sim_workload_spec *base,
		   const struct dl_pf_recent *r, double now, double origin,
		   double window, uint64_t seed, uint32_t k,
		   struct sim_workload_spec *out)
{
	uint32_t nrec = r && window > 0 ? r->n : 0;
	double u = phase_of(seed, k);

	if (!base || !out || !isfinite(now) || !isfinite(origin))
		return EINVAL;
	if (start_with(base, nrec, out))
		return ENOMEM;
	for (uint32_t i = 0; i < nrec; i++) {
		const struct sim_job_spec *g = &r->jobs[i];
		double since = g->arrival - (now - window);

		if (since < 0 || since > window)
			continue;
		if (append(out, g, origin + fmod(since + u * window, window))) {
			dl_pf_forecast_free(out, base->njobs);
			return ENOMEM;
		}
	}
	return 0;
}

int dl_pf_replay(const struct sim_workload_spec *base,
		 const struct dl_pf_recent *r, double from, double to,
		 double shift, struct sim_workload_spec *out)
{
	if (!base || !out || !isfinite(from) || !isfinite(to) ||
	    !isfinite(shift))
		return EINVAL;
	if (start_with(base, r ? r->n : 0, out))
		return ENOMEM;
	for (uint32_t i = 0; r && i < r->n; i++) {
		const struct sim_job_spec *g = &r->jobs[i];

		if (!(g->arrival > from && g->arrival <= to))
			continue;
		if (append(out, g, g->arrival + shift)) {
			dl_pf_forecast_free(out, base->njobs);
			return ENOMEM;
		}
	}
	return 0;
}

void dl_pf_forecast_free(struct sim_workload_spec *out, uint32_t nbase)
{
	if (!out)
		return;
	for (uint32_t i = nbase; i < out->njobs; i++)
		free(out->jobs[i].name);
	free(out->jobs);
	memset(out, 0, sizeof(*out));
}
