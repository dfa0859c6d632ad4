/*
 * seeds.c - mean and standard deviation over seeds (seeds.h).
 */
#include "sim/seeds.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEEDS 10000

const char *const sim_seed_fig_names[SIM_FIG_COUNT] = {
	"met",           "missed",          "missed_pct",
	"success_ratio", "accept_ratio",    "utilization",
	"makespan_s",    "mean_lateness_s", "unfinished"};

void sim_seed_stats_init(struct sim_seed_stats *s, const char *policy)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->policy, sizeof(s->policy), "%s", policy ? policy : "");
}

void sim_seed_stats_add_fig(struct sim_seed_stats *s, enum sim_seed_fig f,
			    double v)
{
	double d;

	if ((unsigned) f >= SIM_FIG_COUNT || !isfinite(v))
		return;
	s->n[f]++;
	d = v - s->mean[f];
	s->mean[f] += d / s->n[f];
	s->m2[f] += d * (v - s->mean[f]);
}

void sim_seed_stats_add(struct sim_seed_stats *s, const struct sim_summary *r)
{
	const double v[SIM_FIG_COUNT] = {
		[SIM_FIG_MET] = r->met,
		[SIM_FIG_MISSED] = r->missed,
		[SIM_FIG_MISSED_PCT] = r->missed_pct,
		[SIM_FIG_SUCCESS] = r->success_ratio,
		[SIM_FIG_ACCEPT] = r->accept_ratio,
		[SIM_FIG_UTIL] = r->utilization,
		[SIM_FIG_MAKESPAN] = r->makespan_s,
		[SIM_FIG_LATENESS] = r->mean_lateness_s,
		[SIM_FIG_UNFINISHED] = r->unfinished,
	};

	s->runs++;
	for (int f = 0; f < SIM_FIG_COUNT; f++)
		sim_seed_stats_add_fig(s, f, v[f]);
}

double sim_seed_stats_mean(const struct sim_seed_stats *s, enum sim_seed_fig f)
{
	return (unsigned) f < SIM_FIG_COUNT && s->n[f] ? s->mean[f] : NAN;
}

double sim_seed_stats_sd(const struct sim_seed_stats *s, enum sim_seed_fig f)
{
	if ((unsigned) f >= SIM_FIG_COUNT || !s->n[f])
		return NAN;
	return s->n[f] > 1 ? sqrt(s->m2[f] / (s->n[f] - 1)) : 0;
}

void sim_seed_stats_print(FILE *f, const struct sim_seed_stats *rows, size_t n,
			  bool tsv)
{
	fprintf(f, tsv ? "policy\tseeds" : "%-10s %-5s", "policy", "seeds");
	for (int k = 0; k < SIM_FIG_COUNT; k++) {
		if (tsv)
			fprintf(f, "\t%s_mean\t%s_sd", sim_seed_fig_names[k],
				sim_seed_fig_names[k]);
		else
			fprintf(f, " %-17s", sim_seed_fig_names[k]);
	}
	fputc('\n', f);
	for (size_t r = 0; r < n; r++) {
		const struct sim_seed_stats *s = &rows[r];

		fprintf(f, tsv ? "%s\t%u" : "%-10s %-5u", s->policy, s->runs);
		for (int k = 0; k < SIM_FIG_COUNT; k++) {
			double m = sim_seed_stats_mean(s, k);
			double sd = sim_seed_stats_sd(s, k);
			char cell[48];

			if (tsv) {
				if (isnan(m))
					fputs("\t-\t-", f);
				else
					fprintf(f, "\t%.4f\t%.4f", m, sd);
				continue;
			}
			if (isnan(m))
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "%.3g\u00b1%.2g",
					 m, sd);
			fprintf(f, " %-*s", 17 + (isnan(m) ? 0 : 1), cell);
		}
		fputc('\n', f);
	}
}

static json_object *num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *sim_seed_stats_to_json(const struct sim_seed_stats *s,
				    const uint64_t *seeds, size_t nseeds)
{
	json_object *o = json_object_new_object(), *m, *sd, *arr;

	if (!o)
		return NULL;
	m = json_object_new_object();
	sd = json_object_new_object();
	arr = json_object_new_array();
	if (!m || !sd || !arr) {
		json_object_put(o);
		json_object_put(m);
		json_object_put(sd);
		json_object_put(arr);
		return NULL;
	}
	json_object_object_add(o, "policy", json_object_new_string(s->policy));
	for (size_t i = 0; i < nseeds; i++)
		json_object_array_add(
			arr, json_object_new_int64((int64_t) seeds[i]));
	json_object_object_add(o, "seeds", arr);
	for (int k = 0; k < SIM_FIG_COUNT; k++) {
		json_object_object_add(m, sim_seed_fig_names[k],
				       num_or_null(sim_seed_stats_mean(s, k)));
		json_object_object_add(sd, sim_seed_fig_names[k],
				       num_or_null(sim_seed_stats_sd(s, k)));
	}
	json_object_object_add(o, "mean", m);
	json_object_object_add(o, "sd", sd);
	return o;
}

int sim_parse_seeds(const char *arg, uint64_t first, uint64_t **seeds,
		    size_t *n, char *err, size_t errlen)
{
	uint64_t *v = NULL;
	size_t k = 0;
	const char *p = arg;

	*seeds = NULL;
	*n = 0;
	if (!arg || !*arg) {
		snprintf(err, errlen, "expected a count or a list of seeds");
		return EINVAL;
	}
	if (!strchr(arg, ',')) {
		char *end;
		unsigned long long c;

		errno = 0;
		c = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || arg[0] == '-' || !c ||
		    c > MAX_SEEDS) {
			snprintf(err, errlen,
				 "'%s': expected a count from 1 to %d or a "
				 "list a,b,c",
				 arg, MAX_SEEDS);
			return EINVAL;
		}
		v = malloc(c * sizeof(*v));
		if (!v)
			return ENOMEM;
		for (k = 0; k < c; k++)
			v[k] = first + k;
		*seeds = v;
		*n = k;
		return 0;
	}
	v = malloc(MAX_SEEDS * sizeof(*v));
	if (!v)
		return ENOMEM;
	while (*p) {
		char *end;
		unsigned long long s;

		errno = 0;
		s = strtoull(p, &end, 10);
		if (errno || end == p || *p == '-' || (*end && *end != ',') ||
		    k == MAX_SEEDS) {
			snprintf(err, errlen,
				 "'%s': a seed list is numbers separated by "
				 "commas (at most %d)",
				 arg, MAX_SEEDS);
			free(v);
			return EINVAL;
		}
		v[k++] = s;
		p = end;
		if (*p == ',' && !*++p) {
			snprintf(err, errlen, "'%s': the list ends in ','",
				 arg);
			free(v);
			return EINVAL;
		}
	}
	*seeds = v;
	*n = k;
	return 0;
}
