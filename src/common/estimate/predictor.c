/*
 * predictor.c - summaries of task durations, the rate model, online
 * calibration and the quantiles of a prediction.
 */
#include "common/estimate/predictor.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/stats.h"

static const char *const source_names[DL_PRED_SOURCES] = {
	"job", "history:name", "history:user", "rate", "default"};

const char *dl_pred_source_name(enum dl_pred_source s)
{
	return (unsigned) s < DL_PRED_SOURCES ? source_names[s] : "unknown";
}

void dl_pred_cfg_defaults(struct dl_pred_cfg *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->min_samples = 3;
	cfg->job_window = 500;
	cfg->prior_sd = 0.5;
	cfg->prior_weight = 2;
	cfg->default_len[0] = 60;
	cfg->default_len[1] = 120;
	cfg->default_spread = 4;
	cfg->rate_min_samples = 5;
	cfg->rate_min_r2 = 0.3;
	cfg->calib_window = 2000;
	cfg->calib_min = 50;
}

int dl_pred_cfg_check(const struct dl_pred_cfg *cfg, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (!cfg)
		bad = "no predictor configuration";
	else if (cfg->min_samples < 1 || cfg->min_samples > 100000)
		bad = "MinSamples must be 1..100000";
	else if (cfg->job_window < 1 || cfg->job_window > 1000000)
		bad = "JobWindow must be 1..1000000";
	else if (!(cfg->prior_sd > 0 && cfg->prior_sd <= 10))
		bad = "PriorSpread must be in (0, 10]";
	else if (!(cfg->prior_weight > 0 && cfg->prior_weight <= 1000))
		bad = "PriorWeight must be in (0, 1000]";
	else if (!(cfg->default_len[0] > 0 && cfg->default_len[0] < 1e9) ||
		 !(cfg->default_len[1] > 0 && cfg->default_len[1] < 1e9))
		bad = "DefaultMap/DefaultReduce must be in (0, 1e9) seconds";
	else if (!(cfg->default_spread >= 1 && cfg->default_spread <= 1000))
		bad = "DefaultSpread must be in [1, 1000]";
	else if (cfg->rate_min_samples < 3 || cfg->rate_min_samples > 1000000)
		bad = "RateMinSamples must be 3..1000000";
	else if (!(cfg->rate_min_r2 >= 0 && cfg->rate_min_r2 <= 1))
		bad = "RateMinR2 must be in [0, 1]";
	else if (cfg->calib_window < 1 || cfg->calib_window > 1000000)
		bad = "CalibrationWindow must be 1..1000000";
	else if (cfg->calib_min < 1 || cfg->calib_min > cfg->calib_window)
		bad = "CalibrationMin must be 1..CalibrationWindow";
	if (!bad)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", bad);
	return EINVAL;
}

static double safe_log(double len)
{
	return log(len > DL_PRED_MIN_LEN ? len : DL_PRED_MIN_LEN);
}

/* Pooled sd of logs: (nu0 s0^2 + sum (l - mean)^2) / (nu0 + n - 1). */
static void pooled_spread(double ss, uint32_t n, const struct dl_pred_cfg *cfg,
			  double *lsd, double *spread, double *df)
{
	double nu = cfg->prior_weight + (double) n - 1;
	double var =
		(cfg->prior_weight * cfg->prior_sd * cfg->prior_sd + ss) / nu;

	*lsd = sqrt(var);
	*spread = *lsd * sqrt(1 + 1.0 / n);
	*df = nu;
}

int dl_summary_compute(const double *x, size_t n, const struct dl_pred_cfg *cfg,
		       double *scratch, struct dl_summary *out)
{
	double sum = 0, lsum = 0, lmean, ss = 0, max = 0;

	if (!x || !n || !cfg || !scratch || !out || n > UINT32_MAX)
		return EINVAL;
	for (size_t i = 0; i < n; i++) {
		/* a task takes at least DL_PRED_MIN_LEN, as in the log model:
		 * durations of 0 must not give a mean or max below p50 */
		double v = x[i] > DL_PRED_MIN_LEN ? x[i] : DL_PRED_MIN_LEN;

		if (!isfinite(x[i]) || x[i] < 0)
			return EINVAL;
		sum += v;
		lsum += safe_log(x[i]);
		if (v > max)
			max = v;
	}
	lmean = lsum / (double) n;
	for (size_t i = 0; i < n; i++) {
		double d = safe_log(x[i]) - lmean;

		ss += d * d;
	}
	memset(out, 0, sizeof(*out));
	out->n = (uint32_t) n;
	out->mean = sum / (double) n;
	out->max = max;
	out->p50 = dl_quantile(x, n, 0.5, scratch);
	pooled_spread(ss, out->n, cfg, &out->lsd, &out->spread, &out->df);
	return 0;
}

void dl_rate_fit(const double *bytes, const double *len, size_t n,
		 const struct dl_pred_cfg *cfg, struct dl_rate_model *m)
{
	double a, b, r2, ss = 0, lmean = 0, max = 0;

	if (!m)
		return;
	memset(m, 0, sizeof(*m));
	if (!bytes || !len || !cfg || n < cfg->rate_min_samples ||
	    n > UINT32_MAX)
		return;
	if (!dl_ols(bytes, len, n, &a, &b, &r2))
		return;
	if (!(b > 0) || !(r2 >= cfg->rate_min_r2))
		return;
	/* log residuals of the fit; a fit that predicts <= 0 for data it was
	 * fitted on (a strongly negative intercept) is not a usable model */
	for (size_t i = 0; i < n; i++) {
		double fit = a + b * bytes[i];

		if (!(fit > 0))
			return;
		lmean += safe_log(len[i]) - safe_log(fit);
		if (len[i] > max)
			max = len[i];
	}
	lmean /= (double) n;
	for (size_t i = 0; i < n; i++) {
		double d =
			safe_log(len[i]) - safe_log(a + b * bytes[i]) - lmean;

		ss += d * d;
	}
	m->valid = true;
	m->n = (uint32_t) n;
	m->a = a;
	m->b = b;
	m->r2 = r2;
	m->max = max;
	{
		double lsd;

		pooled_spread(ss, m->n, cfg, &lsd, &m->spread, &m->df);
	}
}

double dl_rate_predict(const struct dl_rate_model *m, double bytes)
{
	double v;

	if (!m || !m->valid || !isfinite(bytes) || bytes < 0)
		return NAN;
	v = m->a + m->b * bytes;
	/* below the intercept range (tiny inputs) the line may cross 0: a
	 * task still takes time, so clamp at the smallest positive length */
	return v > DL_PRED_MIN_LEN ? v : DL_PRED_MIN_LEN;
}

int dl_calib_init(struct dl_calib *c, uint32_t cap)
{
	if (!c || !cap)
		return EINVAL;
	memset(c, 0, sizeof(*c));
	c->z = calloc(cap, sizeof(*c->z));
	c->job = calloc(cap, sizeof(*c->job));
	c->sorted = calloc(cap, sizeof(*c->sorted));
	c->pairs = calloc(cap, sizeof(*c->pairs));
	c->order = calloc(cap, sizeof(*c->order));
	if (!c->z || !c->job || !c->sorted || !c->pairs || !c->order) {
		dl_calib_free(c);
		return ENOMEM;
	}
	c->cap = cap;
	c->dirty = true;
	return 0;
}

void dl_calib_free(struct dl_calib *c)
{
	if (!c)
		return;
	free(c->z);
	free(c->job);
	free(c->sorted);
	free(c->pairs);
	free(c->order);
	memset(c, 0, sizeof(*c));
}

void dl_calib_add_job(struct dl_calib *c, double p50, double spread,
		      double actual, uint64_t job)
{
	double z;

	if (!c || !c->cap || !(p50 > 0) || !(spread > 0) || !isfinite(actual) ||
	    actual < 0 || !isfinite(p50) || !isfinite(spread))
		return;
	z = (safe_log(actual) - safe_log(p50)) / spread;
	if (!isfinite(z))
		return;
	c->z[c->next] = z;
	c->job[c->next] = job;
	c->next = (c->next + 1) % c->cap;
	if (c->len < c->cap)
		c->len++;
	c->total++;
	c->dirty = true;
}

void dl_calib_add(struct dl_calib *c, double p50, double spread, double actual)
{
	dl_calib_add_job(c, p50, spread, actual, 0);
}

static int cmp_calib_job(const void *a, const void *b)
{
	const struct dl_calib_job *x = a, *y = b;

	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* pairs[i] = (z[i], 1 / sqrt(errors of z[i]'s job in the ring)), sorted
 * by z; false (pairs untouched) when no job has more than one error. */
static bool calib_weigh_by_job(struct dl_calib *c)
{
	struct dl_calib_job *o = c->order;
	bool multi = false;

	c->njobs = 0;
	for (uint32_t i = 0; i < c->len; i++)
		o[i] = (struct dl_calib_job){c->job[i], i};
	qsort(o, c->len, sizeof(*o), cmp_calib_job);
	for (uint32_t a = 0, b; a < c->len; a = b) {
		for (b = a + 1; o[a].job && b < c->len && o[b].job == o[a].job;
		     b++)
			;
		multi |= b - a > 1;
		c->njobs++;
		for (uint32_t i = a; i < b; i++)
			c->pairs[o[i].at] = (struct dl_weighted){
				c->z[o[i].at], 1 / sqrt((double) (b - a))};
	}
	if (multi)
		dl_sort_weighted(c->pairs, c->len);
	return multi;
}

double dl_calib_quantile(struct dl_calib *c, double q, uint32_t min)
{
	if (!c || !c->len || c->len < min)
		return NAN;
	if (c->dirty) {
		c->weighted = calib_weigh_by_job(c);
		if (!c->weighted) {
			memcpy(c->sorted, c->z, c->len * sizeof(*c->z));
			dl_sort_doubles(c->sorted, c->len);
		}
		c->dirty = false;
	}
	if (c->weighted)
		return dl_weighted_quantile_sorted(c->pairs, c->len, q);
	return dl_quantile_sorted(c->sorted, c->len, q);
}

double dl_calib_shrink(double z_own, uint32_t jobs, double q, double z_pool)
{
	double tail = (double) jobs * (1 - q);

	if (!isfinite(z_pool))
		return z_own;
	if (!isfinite(z_own) || !(tail > 0))
		return z_pool;
	return (tail * z_own + DL_CALIB_TAIL_JOBS * z_pool) /
	       (tail + DL_CALIB_TAIL_JOBS);
}

/* z_q of a level: its own ring's quantile shrunk towards its pooled ring's
 * (dl_calib_shrink) when the pool has CalibrationMin errors; else its own
 * ring's once it has CalibrationMin errors; else Student's t. */
static double z_of(double q, double df, struct dl_calib *cal,
		   const struct dl_pred_cfg *cfg, enum dl_calib_use *use)
{
	double z_pool =
		cal ? dl_calib_quantile(cal->fallback, q, cfg->calib_min) : NAN;
	double z;

	if (isfinite(z_pool)) {
		/* the own quantile of any number of errors: its weight says
		 * how much it can be trusted */
		double z_own = dl_calib_quantile(cal, q, 1);
		uint32_t jobs = isfinite(z_own) ? cal->njobs : 0;

		*use = (double) jobs * (1 - q) >= DL_CALIB_TAIL_JOBS
			       ? DL_CALIB_OWN
			       : DL_CALIB_POOLED;
		return dl_calib_shrink(z_own, jobs, q, z_pool);
	}
	z = dl_calib_quantile(cal, q, cfg->calib_min);
	*use = DL_CALIB_OWN;
	if (isfinite(z))
		return z;
	*use = DL_CALIB_PRIOR;
	z = dl_t_quantile(q, df);
	return isfinite(z) ? z : dl_normal_quantile(q);
}

void dl_pred_quantiles(double p50, double spread, double df,
		       struct dl_calib *cal, const struct dl_pred_cfg *cfg,
		       struct dl_prediction *out)
{
	enum dl_calib_use use90, use99;
	double z90, z99;

	if (!out || !cfg)
		return;
	if (!(p50 > 0) || !isfinite(p50))
		p50 = DL_PRED_MIN_LEN;
	if (!(spread >= 0) || !isfinite(spread))
		spread = cfg->prior_sd;
	z90 = z_of(0.9, df, cal, cfg, &use90);
	z99 = z_of(0.99, df, cal, cfg, &use99);
	out->p50 = p50;
	out->p90 = p50 * exp((z90 > 0 ? z90 : 0) * spread);
	out->p99 = p50 * exp((z99 > 0 ? z99 : 0) * spread);
	if (!isfinite(out->p90) || out->p90 > 1e12)
		out->p90 = 1e12;
	if (!isfinite(out->p99) || out->p99 > 1e12)
		out->p99 = 1e12;
	if (out->p90 < out->p50)
		out->p90 = out->p50;
	if (out->p99 < out->p90)
		out->p99 = out->p90;
	out->calibrated = use90 != DL_CALIB_PRIOR || use99 != DL_CALIB_PRIOR;
	out->calib_use = use90;
}

void dl_pred_default(const struct dl_pred_cfg *cfg, int phase,
		     struct dl_prediction *out)
{
	double len;

	if (!cfg || !out)
		return;
	len = cfg->default_len[phase == 1 ? 1 : 0];
	memset(out, 0, sizeof(*out));
	out->source = DL_PRED_DEFAULT;
	out->p50 = len;
	out->mean = len;
	out->p90 = len * cfg->default_spread;
	out->p99 = out->p90 * cfg->default_spread;
	out->max = out->p99;
	out->n = 0;
}

void dl_pred_from_summary(const struct dl_summary *s, enum dl_pred_source src,
			  struct dl_calib *cal, const struct dl_pred_cfg *cfg,
			  struct dl_prediction *out)
{
	if (!s || !cfg || !out)
		return;
	memset(out, 0, sizeof(*out));
	out->source = src;
	out->n = s->n;
	out->mean = s->mean;
	out->max = s->max;
	dl_pred_quantiles(s->p50, s->spread, s->df, cal, cfg, out);
}

bool dl_pred_from_rate(const struct dl_rate_model *m, double bytes,
		       struct dl_calib *cal, const struct dl_pred_cfg *cfg,
		       struct dl_prediction *out)
{
	double p50 = dl_rate_predict(m, bytes);

	if (!isfinite(p50) || !cfg || !out)
		return false;
	memset(out, 0, sizeof(*out));
	out->source = DL_PRED_RATE;
	out->n = m->n;
	out->mean = p50;
	out->max = m->max;
	dl_pred_quantiles(p50, m->spread, m->df, cal, cfg, out);
	return true;
}

int dl_job_summary(const double *completed, size_t n,
		   const struct dl_pred_cfg *cfg, double *scratch,
		   struct dl_summary *out)
{
	uint32_t min_run;
	size_t use, from;

	if (!completed || !cfg || !scratch || !out || !n)
		return EINVAL;
	use = n < cfg->job_window ? n : cfg->job_window;
	completed += n - use;
	min_run = cfg->min_samples > DL_REGIME_MIN_RUN ? cfg->min_samples
						       : DL_REGIME_MIN_RUN;
	from = dl_regime_start(completed, use, min_run, DL_REGIME_FACTOR,
			       scratch);
	return dl_summary_compute(completed + from, use - from, cfg, scratch,
				  out);
}

bool dl_pred_job(const double *completed, size_t n,
		 const struct dl_pred_cfg *cfg, struct dl_calib *cal,
		 double *scratch, struct dl_prediction *out)
{
	struct dl_summary s;

	if (!completed || !cfg || !scratch || !out || n < cfg->min_samples)
		return false;
	if (dl_job_summary(completed, n, cfg, scratch, &s))
		return false;
	dl_pred_from_summary(&s, DL_PRED_JOB, cal, cfg, out);
	return true;
}

void dl_score_add(struct dl_score *s, double p50, double actual, double w)
{
	double keep;

	if (!s || !(p50 > 0) || !isfinite(p50) || !(actual > 0) ||
	    !isfinite(actual) || !(w > 0) || !isfinite(w))
		return;
	keep = pow(DL_SCORE_FORGET, w);
	s->sum = s->sum * keep + w * fabs(safe_log(actual) - safe_log(p50));
	s->weight = s->weight * keep + w;
}

double dl_score_get(const struct dl_score *s, double min_weight)
{
	if (!s || !(s->weight > 0) || s->weight < min_weight)
		return NAN;
	return s->sum / s->weight;
}

double dl_score_task_weight(uint64_t k)
{
	return k ? 1.0 / ((double) k * (double) (k + 1)) : 0.5;
}

enum dl_pred_source dl_pred_choose(const struct dl_score *scores,
				   unsigned avail)
{
	static const enum dl_pred_source order[] = {DL_PRED_USER, DL_PRED_RATE,
						    DL_PRED_DEFAULT};
	enum dl_pred_source first = DL_PRED_SOURCES, best;
	double best_score;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (avail & (1u << order[i])) {
			first = order[i];
			break;
		}
	if (first == DL_PRED_SOURCES || !scores)
		return first;
	best = first;
	best_score = dl_score_get(&scores[first], DL_SCORE_MIN_WEIGHT);
	if (isnan(best_score))
		return first;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		double v;

		if (!(avail & (1u << order[i])))
			continue;
		v = dl_score_get(&scores[order[i]], DL_SCORE_MIN_WEIGHT);
		if (!isnan(v) && v < DL_SCORE_MARGIN * best_score) {
			best = order[i];
			best_score = v;
		}
	}
	return best;
}

size_t dl_regime_start(const double *x, size_t n, uint32_t min_run,
		       double factor, double *scratch)
{
	size_t found = 0;

	if (!x || !scratch || !min_run || !(factor > 1) || n < 2 * min_run)
		return 0;
	for (size_t m = min_run; m <= n / 2; m *= 2) {
		double recent = dl_quantile(x + (n - m), m, 0.5, scratch);
		double older = dl_quantile(x, n - m, 0.5, scratch);
		double r;

		if (!(recent > 0) || !(older > 0))
			continue;
		/* only a drop: in completion order the newest of tasks that
		 * started together are their stragglers, which looks like a
		 * rise but is not a new regime */
		r = recent / older;
		if (r < 1 / factor)
			found = n - m;
	}
	return found;
}
