/*
 * dist.c - sampling, moments and JSON form of task-length distributions.
 */
#include "common/simulate/dist.h"

#include "common/estimate/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/io/json.h"

static const char *kind_names[] = {"const",  "uniform",   "exponential",
				   "normal", "lognormal", "empirical"};

void sim_dist_const(struct sim_dist *d, double value)
{
	memset(d, 0, sizeof(*d));
	d->kind = SIM_DIST_CONST;
	d->a = value;
	d->min = SIM_MIN_LENGTH;
	d->max = INFINITY;
}

static double clamp(const struct sim_dist *d, double x)
{
	if (!(x >= d->min)) /* also NaN */
		return d->min;
	return x > d->max ? d->max : x;
}

double sim_dist_sample(const struct sim_dist *d, struct sim_rng *r)
{
	double x;

	switch (d->kind) {
	case SIM_DIST_UNIFORM:
		x = sim_rng_uniform(r, d->a, d->b);
		break;
	case SIM_DIST_EXP:
		x = sim_rng_exp(r, d->a);
		break;
	case SIM_DIST_NORMAL:
		x = d->a + d->b * sim_rng_normal(r);
		break;
	case SIM_DIST_LOGNORMAL:
		x = sim_rng_lognormal(r, d->a, d->b);
		break;
	case SIM_DIST_EMPIRICAL:
		x = d->nvalues ? d->values[sim_rng_int(r, 0, d->nvalues - 1)]
			       : d->a;
		break;
	default:
		x = d->a;
		break;
	}
	/* the straggler draw always happens, so that adding stragglers does
	 * not shift the other tasks' lengths */
	if (sim_rng_unit(r) < d->straggler_prob)
		x *= d->straggler_factor;
	return clamp(d, x);
}

double sim_dist_mean(const struct sim_dist *d)
{
	double m;

	switch (d->kind) {
	case SIM_DIST_UNIFORM:
		m = (d->a + d->b) / 2;
		break;
	case SIM_DIST_EMPIRICAL:
		m = 0;
		for (uint32_t i = 0; i < d->nvalues; i++)
			m += d->values[i];
		m = d->nvalues ? m / d->nvalues : d->a;
		break;
	default: /* const, exponential, normal, lognormal: a is the mean */
		m = d->a;
		break;
	}
	return m * (1 + d->straggler_prob * (d->straggler_factor - 1));
}

double sim_normal_quantile(double p)
{
	if (!(p > 0))
		return -INFINITY;
	if (!(p < 1))
		return INFINITY;
	return dl_normal_quantile(p);
}

double sim_dist_quantile(const struct sim_dist *d, double q)
{
	double x, s2;

	if (!(q > 0) || !(q < 1))
		return NAN;
	switch (d->kind) {
	case SIM_DIST_UNIFORM:
		x = d->a + q * (d->b - d->a);
		break;
	case SIM_DIST_EXP:
		x = -d->a * log(1 - q);
		break;
	case SIM_DIST_NORMAL:
		x = d->a + d->b * sim_normal_quantile(q);
		break;
	case SIM_DIST_LOGNORMAL:
		if (!(d->b > 0)) {
			x = d->a;
			break;
		}
		s2 = log(1 + d->b * d->b / (d->a * d->a));
		x = exp(log(d->a) - s2 / 2 + sqrt(s2) * sim_normal_quantile(q));
		break;
	case SIM_DIST_EMPIRICAL: {
		double *v;
		uint32_t k;

		if (!d->nvalues)
			return clamp(d, d->a);
		v = malloc(d->nvalues * sizeof(*v));
		if (!v)
			return NAN;
		memcpy(v, d->values, d->nvalues * sizeof(*v));
		dl_sort_doubles(v, d->nvalues);
		k = (uint32_t) ceil(q * d->nvalues) - 1;
		x = v[k < d->nvalues ? k : d->nvalues - 1];
		free(v);
		break;
	}
	default:
		x = d->a;
		break;
	}
	return clamp(d, x);
}

int sim_dist_copy(struct sim_dist *dst, const struct sim_dist *src)
{
	*dst = *src;
	dst->values = NULL;
	if (src->nvalues) {
		dst->values = malloc(src->nvalues * sizeof(*dst->values));
		if (!dst->values) {
			dst->nvalues = 0;
			return ENOMEM;
		}
		memcpy(dst->values, src->values,
		       src->nvalues * sizeof(*dst->values));
	}
	return 0;
}

void sim_dist_free(struct sim_dist *d)
{
	if (!d)
		return;
	free(d->values);
	d->values = NULL;
	d->nvalues = 0;
}

#define MAX_EMPIRICAL 10000000u
#define MAX_LENGTH    1e9 /* about 31 years: anything longer is a mistake */

int sim_dist_parse(json_object *o, const char *path, struct sim_dist *d,
		   char *err, size_t errlen)
{
	struct dl_json_rd rd = DL_JSON_RD(err, errlen);
	static const char *keys[] = {"dist", "value",  "mean",      "sd", "min",
				     "max",  "values", "straggler", NULL};
	const char *kind;
	json_object *v;
	char sub[200];
	int k = -1;

	sim_dist_const(d, 0);
	if (dl_json_is_number(o)) {
		double x = json_object_get_double(o);

		if (!isfinite(x) || x <= 0 || x > MAX_LENGTH) {
			snprintf(err, errlen,
				 "%s: a task length must be a number of "
				 "seconds in (0, %g]",
				 path, MAX_LENGTH);
			return EINVAL;
		}
		d->a = x;
		return 0;
	}
	if (!json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen,
			 "%s: expected a length in seconds or a distribution "
			 "object",
			 path);
		return EINVAL;
	}
	dl_json_known_keys(&rd, o, path, keys);
	if (rd.failed)
		return EINVAL;
	kind = dl_json_str(&rd, o, path, "dist", 0, 0, SIZE_MAX, "const");
	if (rd.failed)
		return EINVAL;
	for (int i = 0; i < (int) (sizeof(kind_names) / sizeof(*kind_names));
	     i++)
		if (!strcmp(kind, kind_names[i]))
			k = i;
	if (k < 0) {
		snprintf(err, errlen,
			 "%s.dist: '%s' is not one of const, uniform, "
			 "exponential, normal, lognormal, empirical",
			 path, kind);
		return EINVAL;
	}
	d->kind = (enum sim_dist_kind) k;
	d->min = dl_json_num(&rd, o, path, "min", 0, SIM_MIN_LENGTH, MAX_LENGTH,
			     SIM_MIN_LENGTH);
	d->max = dl_json_num(&rd, o, path, "max", 0, SIM_MIN_LENGTH, INFINITY,
			     INFINITY);
	if (rd.failed)
		return EINVAL;
	if (d->max < d->min) {
		snprintf(err, errlen, "%s: max is below min", path);
		return EINVAL;
	}
	switch (d->kind) {
	case SIM_DIST_CONST:
		d->a = dl_json_num(&rd, o, path, "value", DL_JSON_REQUIRED,
				   SIM_MIN_LENGTH, MAX_LENGTH, 0);
		if (rd.failed)
			return EINVAL;
		break;
	case SIM_DIST_UNIFORM:
		d->a = dl_json_num(&rd, o, path, "min", DL_JSON_REQUIRED,
				   SIM_MIN_LENGTH, MAX_LENGTH, 0);
		d->b = dl_json_num(&rd, o, path, "max", DL_JSON_REQUIRED,
				   SIM_MIN_LENGTH, MAX_LENGTH, 0);
		if (rd.failed)
			return EINVAL;
		break;
	case SIM_DIST_EXP:
		d->a = dl_json_num(&rd, o, path, "mean", DL_JSON_REQUIRED,
				   SIM_MIN_LENGTH, MAX_LENGTH, 0);
		if (rd.failed)
			return EINVAL;
		break;
	case SIM_DIST_NORMAL:
	case SIM_DIST_LOGNORMAL:
		d->a = dl_json_num(&rd, o, path, "mean", DL_JSON_REQUIRED,
				   SIM_MIN_LENGTH, MAX_LENGTH, 0);
		d->b = dl_json_num(&rd, o, path, "sd", DL_JSON_REQUIRED, 0,
				   MAX_LENGTH, 0);
		if (rd.failed)
			return EINVAL;
		break;
	case SIM_DIST_EMPIRICAL: {
		size_t n;

		if (!json_object_object_get_ex(o, "values", &v) ||
		    !json_object_is_type(v, json_type_array) ||
		    !(n = json_object_array_length(v))) {
			snprintf(err, errlen,
				 "%s.values: an empirical distribution needs a "
				 "non-empty array of lengths",
				 path);
			return EINVAL;
		}
		if (n > MAX_EMPIRICAL) {
			snprintf(err, errlen, "%s.values: more than %u values",
				 path, MAX_EMPIRICAL);
			return EINVAL;
		}
		d->values = malloc(n * sizeof(*d->values));
		if (!d->values) {
			snprintf(err, errlen, "out of memory");
			return ENOMEM;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *x = json_object_array_get_idx(v, i);
			double y = dl_json_is_number(x)
					   ? json_object_get_double(x)
					   : NAN;

			if (!isfinite(y) || y <= 0 || y > MAX_LENGTH) {
				snprintf(err, errlen,
					 "%s.values[%zu]: expected a length in "
					 "(0, %g] seconds",
					 path, i, MAX_LENGTH);
				sim_dist_free(d);
				return EINVAL;
			}
			d->values[i] = y;
		}
		d->nvalues = (uint32_t) n;
		break;
	}
	}
	if (d->kind == SIM_DIST_UNIFORM) {
		/* min/max named the range; the clamp is the range itself */
		if (d->b < d->a) {
			snprintf(err, errlen, "%s: uniform max is below min",
				 path);
			return EINVAL;
		}
		d->min = d->a;
		d->max = d->b;
	}
	if (json_object_object_get_ex(o, "straggler", &v)) {
		static const char *skeys[] = {"prob", "factor", NULL};

		snprintf(sub, sizeof(sub), "%s.straggler", path);
		if (!json_object_is_type(v, json_type_object)) {
			snprintf(err, errlen,
				 "%s: expected {\"prob\": p, \"factor\": f}",
				 sub);
			sim_dist_free(d);
			return EINVAL;
		}
		dl_json_known_keys(&rd, v, sub, skeys);
		d->straggler_prob = dl_json_num(&rd, v, sub, "prob",
						DL_JSON_REQUIRED, 0, 1, 0);
		d->straggler_factor = dl_json_num(&rd, v, sub, "factor",
						  DL_JSON_REQUIRED, 1, 1000, 1);
		if (rd.failed) {
			sim_dist_free(d);
			return EINVAL;
		}
	}
	return 0;
}

json_object *sim_dist_to_json(const struct sim_dist *d)
{
	json_object *o;

	if (d->kind == SIM_DIST_CONST && !(d->straggler_prob > 0))
		return json_object_new_double(d->a);
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "dist",
			       json_object_new_string(kind_names[d->kind]));
	switch (d->kind) {
	case SIM_DIST_CONST:
		json_object_object_add(o, "value",
				       json_object_new_double(d->a));
		break;
	case SIM_DIST_UNIFORM:
		json_object_object_add(o, "min", json_object_new_double(d->a));
		json_object_object_add(o, "max", json_object_new_double(d->b));
		break;
	case SIM_DIST_EXP:
		json_object_object_add(o, "mean", json_object_new_double(d->a));
		break;
	case SIM_DIST_NORMAL:
	case SIM_DIST_LOGNORMAL:
		json_object_object_add(o, "mean", json_object_new_double(d->a));
		json_object_object_add(o, "sd", json_object_new_double(d->b));
		break;
	case SIM_DIST_EMPIRICAL: {
		json_object *a = json_object_new_array();

		for (uint32_t i = 0; a && i < d->nvalues; i++)
			json_object_array_add(
				a, json_object_new_double(d->values[i]));
		json_object_object_add(o, "values", a);
		break;
	}
	}
	if (d->kind != SIM_DIST_UNIFORM) {
		if (d->min > SIM_MIN_LENGTH)
			json_object_object_add(o, "min",
					       json_object_new_double(d->min));
		if (isfinite(d->max))
			json_object_object_add(o, "max",
					       json_object_new_double(d->max));
	}
	if (d->straggler_prob > 0) {
		json_object *s = json_object_new_object();

		json_object_object_add(
			s, "prob", json_object_new_double(d->straggler_prob));
		json_object_object_add(
			s, "factor",
			json_object_new_double(d->straggler_factor));
		json_object_object_add(o, "straggler", s);
	}
	return o;
}
