/*
 * policy/reverse.c - availability A_r(t), reverse fitting (Algorithm 2)
 * (see policy/reverse.h); the reverse policy's plan cycle is ras.c's.
 */
#include "common/policy/reverse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy/utility.h"

void dl_avail_free(struct dl_avail *av)
{
	if (!av)
		return;
	for (int r = 0; r < DL_RESOURCES; r++)
		dl_series_free(&av->a[r]);
}

int dl_avail_build(struct dl_avail *av, const struct dl_avail_node *nodes,
		   uint32_t nnodes, const struct dl_forecast *f)
{
	uint32_t ncls = dl_forecast_nclasses(f), ns = 1;
	double start = 0, step = 1, period = 0;
	double *base, *capc, *v = NULL;
	int rc = 0;

	if (!av || (nnodes && !nodes))
		return EINVAL;
	memset(av, 0, sizeof(*av));
	if (f)
		dl_forecast_grid(f, &start, &step, &period, &ns);
	/* per class (index ncls = no class): sums of base and capacity */
	base = calloc((size_t) (ncls + 1) * DL_RESOURCES, sizeof(*base));
	capc = calloc((size_t) (ncls + 1) * DL_RESOURCES, sizeof(*capc));
	v = malloc(ns * sizeof(*v));
	if (!base || !capc || !v) {
		rc = ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < nnodes; i++) {
		const struct dl_avail_node *n = &nodes[i];
		uint32_t c = n->cls >= 0 && (uint32_t) n->cls < ncls
				     ? (uint32_t) n->cls
				     : ncls;

		if (!n->usable)
			continue;
		for (int r = 0; r < DL_RESOURCES; r++) {
			if (isnan(n->cap[r]) || n->cap[r] < 0 ||
			    !isfinite(n->other[r]) || n->other[r] < 0) {
				rc = EINVAL;
				goto out;
			}
			if (isinf(n->cap[r])) {
				av->unbounded[r] = true;
				continue;
			}
			base[c * DL_RESOURCES + r] +=
				fmax(0, n->cap[r] - n->other[r]);
			capc[c * DL_RESOURCES + r] += n->cap[r];
			av->total[r] += n->cap[r];
		}
	}
	for (int r = 0; r < DL_RESOURCES; r++) {
		for (uint32_t i = 0; i < ns; i++) {
			double t = start + (i + 0.5) * step, sum = 0;

			for (uint32_t c = 0; c <= ncls; c++) {
				/* a class's f(t) is all the load outside the
				 * plan on its nodes; elsewhere (and for
				 * resources it does not describe) what jobs
				 * outside the plan hold now persists */
				if (c < ncls && dl_forecast_applies(f, c, r))
					sum += capc[c * DL_RESOURCES + r] *
					       (1 - dl_forecast_load_at(
							    f, (int) c, r, t));
				else
					sum += base[c * DL_RESOURCES + r];
			}
			v[i] = sum;
		}
		if ((rc = dl_series_init(&av->a[r], start, step, period, v,
					 ns)))
			goto out;
	}
out:
	if (rc)
		dl_avail_free(av);
	free(base);
	free(capc);
	free(v);
	return rc;
}

/* Dominant resource of a demand: largest share of total capacity among
 * bounded resources; -1 when the job uses no bounded resource. */
static int dominant(const struct dl_avail *av, const double *d)
{
	int best = -1;
	double share = 0;

	for (int r = 0; r < DL_RESOURCES; r++) {
		double s;

		if (av->unbounded[r] || !(d[r] > 0) || !(av->total[r] > 0))
			continue;
		s = d[r] / av->total[r];
		if (s > share) {
			share = s;
			best = r;
		}
	}
	return best;
}

/* Integral of the dominant resource's availability, or plain time. */
static double window(const struct dl_avail *av, int r, double a, double b)
{
	if (r < 0)
		return b > a ? b - a : 0;
	return dl_series_integral(&av->a[r], a, b);
}

static double rate_at(const struct dl_avail *av, int r, double t)
{
	return r < 0 ? 1 : dl_series_at(&av->a[r], t);
}

struct fctx {
	struct dl_fit_job *jobs;
	int *dom;
	double *carry;
	double *whole; /* E_r*(now, D_j) */
};

static int cmp_deadline_desc(const void *a, const void *b, void *vctx)
{
	const struct fctx *c = vctx;
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
	double dx = c->jobs[x].deadline, dy = c->jobs[y].deadline;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return (x > y) - (x < y);
}

static int bad_fit_job(const struct dl_fit_job *j)
{
	if (!isfinite(j->deadline) || !isfinite(j->work) || j->work < 0 ||
	    !isfinite(j->mu) || !(j->mu > 0))
		return 1;
	for (int r = 0; r < DL_RESOURCES; r++)
		if (!isfinite(j->demand[r]) || j->demand[r] < 0)
			return 1;
	return 0;
}

int dl_reverse_fit(struct dl_fit_job *jobs, uint32_t n,
		   const struct dl_avail *av, double now,
		   struct dl_fit_step *trace, uint32_t trace_cap,
		   uint32_t *ntrace)
{
	struct fctx ctx;
	uint32_t *order = NULL, *live = NULL, nlive = 0, ntot, nt = 0, k;
	double *frames = NULL;
	uint32_t nframes = 0;
	int rc = ENOMEM;

	if (ntrace)
		*ntrace = 0;
	if ((n && !jobs) || !av || !isfinite(now))
		return EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (bad_fit_job(&jobs[i]))
			return EINVAL;
	ctx.jobs = jobs;
	ctx.dom = malloc((n ? n : 1) * sizeof(*ctx.dom));
	ctx.carry = calloc(n ? n : 1, sizeof(*ctx.carry));
	ctx.whole = malloc((n ? n : 1) * sizeof(*ctx.whole));
	order = malloc((n ? n : 1) * sizeof(*order));
	live = malloc((n ? n : 1) * sizeof(*live));
	frames = malloc((n ? n : 1) * sizeof(*frames));
	if (!ctx.dom || !ctx.carry || !ctx.whole || !order || !live || !frames)
		goto out;

	for (uint32_t i = 0; i < n; i++) {
		struct dl_fit_job *j = &jobs[i];

		j->first = j->overflow = 0;
		ctx.dom[i] = dominant(av, j->demand);
		if (!(j->work > 0)) {
			j->s_fit = j->s_req = 0;
			continue;
		}
		if (!(j->deadline > now)) {
			j->s_fit = j->s_req = INFINITY; /* late */
			j->overflow = j->work;
			continue;
		}
		j->s_req = j->work * j->mu / (j->deadline - now);
		ctx.whole[i] = window(av, ctx.dom[i], now, j->deadline);
		order[nlive++] = i;
	}
	qsort_r(order, nlive, sizeof(*order), cmp_deadline_desc, &ctx);
	for (uint32_t i = 0; i < nlive; i++)
		if (!nframes || jobs[order[i]].deadline != frames[nframes - 1])
			frames[nframes++] = jobs[order[i]].deadline;

	/* frames[0] is the latest deadline; walk from it back to now */
	ntot = nlive;
	k = 0; /* jobs of order[0..k) are active (deadline >= frame end) */
	nlive = 0;
	for (uint32_t f = 0; f < nframes; f++) {
		double b = frames[f];
		double a = f + 1 < nframes ? frames[f + 1] : now;
		double cap[DL_RESOURCES], frame[DL_RESOURCES];

		for (int r = 0; r < DL_RESOURCES; r++) {
			frame[r] =
				av->unbounded[r]
					? INFINITY
					: dl_series_integral(&av->a[r], a, b);
			cap[r] = frame[r];
		}
		while (k < ntot && jobs[order[k]].deadline == b)
			live[nlive++] = order[k++];
		for (uint32_t i = 0; i < nlive; i++) {
			uint32_t id = live[i];
			struct dl_fit_job *j = &jobs[id];
			int dr = ctx.dom[id];
			double whole = ctx.whole[id];
			double part = dr < 0 ? b - a : frame[dr];
			double desire, want, got;

			desire = whole > 0 ? j->work * part / whole
					   : j->work * (b - a) /
						     (j->deadline - now);
			want = desire + ctx.carry[id];
			got = want;
			for (int r = 0; r < DL_RESOURCES; r++)
				if (j->demand[r] > 0 && !isinf(cap[r]))
					got = fmin(got, fmax(0, cap[r]) /
								(j->demand[r] *
								 j->mu));
			for (int r = 0; r < DL_RESOURCES; r++)
				if (!isinf(cap[r]))
					cap[r] -= got * j->demand[r] * j->mu;
			ctx.carry[id] = want - got;
			if (f + 1 == nframes)
				j->first = got;
			if (trace && nt < trace_cap)
				trace[nt++] = (struct dl_fit_step){
					nframes - f, id, a, b, want, got};
		}
	}
	for (uint32_t i = 0; i < nlive; i++) {
		uint32_t id = live[i];
		struct dl_fit_job *j = &jobs[id];
		int dr = ctx.dom[id];
		double d1 = frames[nframes - 1];
		double e1 = window(av, dr, now, d1);
		double w = j->first + ctx.carry[id];

		j->overflow = ctx.carry[id];
		if (!(w > 0))
			j->s_fit = 0;
		else if (!(e1 > 0))
			j->s_fit = INFINITY;
		else
			j->s_fit = w * j->mu * rate_at(av, dr, now) / e1;
		if (fabs(j->s_fit - j->s_req) <=
		    DL_UTILITY_EQ_TOL * fmax(1.0, j->s_req))
			j->s_fit = j->s_req;
	}
	if (ntrace)
		*ntrace = nt;
	rc = 0;
out:
	free(ctx.dom);
	free(ctx.carry);
	free(ctx.whole);
	free(order);
	free(live);
	free(frames);
	return rc;
}
