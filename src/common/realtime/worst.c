/*
 * realtime/worst.c - worst-case task lengths: ours from quantiles, the paper's
 * from an ever-growing c^max.
 */
#include "common/realtime/worst.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>

static bool bad(double x)
{
	return !isfinite(x) || x < 0;
}

double dl_rt_quantile(const struct dl_rt_quantiles *qs, double q)
{
	static const double at[4] = {0.5, 0.9, 0.99, 1.0};
	double v[4];

	if (!qs || isnan(q) || q < 0.5 || q > 1)
		return NAN;
	v[0] = qs->p50;
	v[1] = qs->p90;
	v[2] = qs->p99;
	v[3] = qs->max;
	for (int i = 0; i < 4; i++) {
		if (bad(v[i]))
			return NAN;
		if (i && v[i] < v[i - 1])
			v[i] = v[i - 1]; /* quantiles never decrease */
	}
	for (int i = 1; i < 4; i++)
		if (q <= at[i])
			return v[i - 1] + (v[i] - v[i - 1]) * (q - at[i - 1]) /
						  (at[i] - at[i - 1]);
	return v[3];
}

int dl_rt_worst_case(const struct dl_rt_quantiles *qs, double q, double margin,
		     double time_limit, double overhead,
		     struct dl_rt_worst *out)
{
	double len = NAN;

	if (!out || isnan(q) || q < 0.5 || q > 1 || bad(margin) ||
	    bad(time_limit) || bad(overhead))
		return EINVAL;
	out->len = NAN;
	out->typical = NAN;
	out->source = DL_RT_WC_NONE;
	if (qs && qs->n >= DL_RT_MIN_SAMPLES) {
		len = dl_rt_quantile(qs, q);
		if (!isnan(len)) {
			len *= 1 + margin;
			out->typical = qs->p50;
			out->source = DL_RT_WC_QUANTILE;
		}
	}
	if (time_limit > 0 && (isnan(len) || len > time_limit)) {
		len = time_limit;
		out->source = DL_RT_WC_TIME_LIMIT;
	}
	if (isnan(len))
		return 0;
	out->len = len + overhead;
	return 0;
}

const char *dl_rt_wc_source_name(enum dl_rt_wc_source s)
{
	switch (s) {
	case DL_RT_WC_QUANTILE:
		return "history";
	case DL_RT_WC_TIME_LIMIT:
		return "time limit";
	default:
		return "none";
	}
}

int dl_rt_cmax_init(struct dl_rt_cmax *cm, double map_cost, double reduce_cost)
{
	if (!cm || bad(map_cost) || bad(reduce_cost))
		return EINVAL;
	cm->c[0] = map_cost;
	cm->c[1] = reduce_cost;
	return 0;
}

int dl_rt_cmax_observe(struct dl_rt_cmax *cm, int phase, double length,
		       double size)
{
	double c;

	if (!cm || phase < 0 || phase > 1 || bad(length) || bad(size) ||
	    !(size > 0))
		return EINVAL;
	c = length / size;
	if (c > cm->c[phase])
		cm->c[phase] = c;
	return 0;
}

double dl_rt_cmax_worst(const struct dl_rt_cmax *cm, int phase, double size)
{
	if (!cm || phase < 0 || phase > 1 || bad(size))
		return NAN;
	return cm->c[phase] * size;
}
