/*
 * predictor.h - task-length predictors (doc/design.md §7):
 * the formulas that turn samples of task durations into a prediction with
 * quantiles.  Used by the estimator daemon (through history.h), the
 * accuracy benchmark and the tests; no I/O here.
 *
 * A prediction for one phase (map or reduce) of a job comes from the first
 * level that has enough samples:
 *   job           the job's own completed tasks of that phase
 *   history:name  past tasks with the same (user, job name, phase)
 *   history:user  past tasks of the same (user, phase)
 *   rate          duration = a + b * input_bytes, fitted by least squares
 *                 over recent tasks of the phase that carried input sizes
 *                 (only when the request gives input_bytes)
 *   default       a configured length per phase
 *
 * Every level but the rate model and the default summarises its samples the
 * same way: p50 is the sample median, the spread is the standard deviation
 * of log durations pooled with a prior (s0 with nu0 pseudo-observations, so
 * one or two samples still give a finite interval) and widened by
 * sqrt(1 + 1/n) for a new observation.  The upper quantiles are
 * p50 * exp(z_q * spread), where z_q is the empirical quantile of that
 * level's recent standardised errors once enough are known (online
 * calibration), else Student's t quantile with nu0 + n - 1 degrees of
 * freedom (a log-normal prediction interval).
 */
#ifndef DL_PREDICTOR_H
#define DL_PREDICTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/estimate/stats.h"

enum dl_pred_source {
	DL_PRED_JOB = 0,
	DL_PRED_NAME,
	DL_PRED_USER,
	DL_PRED_RATE,
	DL_PRED_DEFAULT,
	DL_PRED_SOURCES
};

/* "job", "history:name", "history:user", "rate", "default" */
const char *dl_pred_source_name(enum dl_pred_source s);

/* Durations shorter than this are treated as this (log of 0). */
#define DL_PRED_MIN_LEN 0.001

/* Tunables of the predictors (the daemon's config file sets them). */
struct dl_pred_cfg {
	uint32_t min_samples;      /* k: samples a level needs (>= 1) */
	uint32_t job_window;       /* newest own completions used (>= 1) */
	double prior_sd;           /* s0: prior sd of log durations (> 0) */
	double prior_weight;       /* nu0: pseudo-observations of s0 (> 0) */
	double default_len[2];     /* default p50 per phase, seconds (> 0) */
	double default_spread;     /* default: p90 = p50 * spread^1, p99 = ^2 */
	uint32_t rate_min_samples; /* points the rate model needs (>= 3) */
	double rate_min_r2;        /* fit quality the rate model needs */
	uint32_t calib_window;     /* standardised errors kept per level */
	uint32_t calib_min;        /* errors needed before they are used */
};

/* The documented defaults (see doc/estimator.md). */
void dl_pred_cfg_defaults(struct dl_pred_cfg *cfg);
/* EINVAL with a message when a value is out of range. */
int dl_pred_cfg_check(const struct dl_pred_cfg *cfg, char *err, size_t errlen);

/* Where a prediction's upper quantiles came from. */
enum dl_calib_use {
	DL_CALIB_FIXED = 0, /* the configured default's DefaultSpread */
	DL_CALIB_PRIOR,     /* Student's t: no ring had enough errors */
	DL_CALIB_POOLED,    /* the level's fallback ring */
	DL_CALIB_OWN,       /* the (phase, level) ring */
	DL_CALIB_USES
};

/* Learned per-task resource usage (RAS profile), means over the samples
 * that carried it. */
struct dl_usage {
	double cpu; /* CPUs */
	double mem; /* MB */
	double io;  /* MB/s */
	uint32_t n;
};

struct dl_prediction {
	double p50, p90, p99;
	double max;  /* largest duration among the samples used */
	double mean; /* arithmetic mean of the samples used */
	uint32_t n;  /* samples behind the prediction (0 = default) */
	enum dl_pred_source source;
	/* levels that had enough samples to answer, 1u << source each (the
	 * chosen one included); informational, not sent on the wire */
	unsigned available;
	bool calibrated; /* quantiles from observed errors, not the t prior */
	/* where z_q came from (informational, not sent on the wire) */
	enum dl_calib_use calib_use;
	bool has_profile;
	struct dl_usage profile;
};

/* Summary of one set of durations. */
struct dl_summary {
	uint32_t n;
	double p50, mean, max;
	double lsd;    /* pooled sd of log durations */
	double spread; /* lsd * sqrt(1 + 1/n): sd of a new log observation */
	double df;     /* degrees of freedom of that spread */
};

/* Summarise n > 0 finite non-negative durations.  scratch holds n doubles
 * (x itself is not modified).  EINVAL for bad input. */
int dl_summary_compute(const double *x, size_t n, const struct dl_pred_cfg *cfg,
		       double *scratch, struct dl_summary *out);

/* The rate model duration = a + b * bytes. */
struct dl_rate_model {
	bool valid;
	uint32_t n;
	double a, b, r2;
	double spread; /* sd of log(duration / fitted), pooled like above */
	double df;
	double max;
};

/* Fit on n (bytes, duration) pairs; valid only with at least
 * cfg->rate_min_samples points, a positive slope, r2 >= rate_min_r2 and
 * positive fitted values over the data. */
void dl_rate_fit(const double *bytes, const double *len, size_t n,
		 const struct dl_pred_cfg *cfg, struct dl_rate_model *m);
/* The model's p50 for an input size; NAN when the model is not valid or
 * bytes is not a finite non-negative number. */
double dl_rate_predict(const struct dl_rate_model *m, double bytes);

/* Online calibration of one level: a ring of standardised errors
 * z = (log(actual) - log(p50)) / spread, kept sorted on demand.  Errors
 * may carry the job they were made on: then a job with m errors in the
 * ring weighs sqrt(m) (each error 1 / sqrt(m)), not m, so that one big
 * array with one bias does not set the level's quantiles for every other
 * job.  A job's tasks share most of its error (they are fewer independent
 * observations than tasks) but are more than one: sqrt(m) lies between
 * counting tasks and counting jobs. */
struct dl_calib_job {
	uint64_t job;
	uint32_t at;
};

struct dl_calib {
	double *z;
	uint64_t *job; /* 0 = an error of its own (weight 1) */
	uint32_t cap, len, next;
	/* caches, valid while !dirty: */
	double *sorted;             /* the errors sorted (unweighted) */
	struct dl_weighted *pairs;  /* (error, weight) sorted (weighted) */
	struct dl_calib_job *order; /* scratch: errors grouped by job */
	bool weighted; /* some job has more than one error in the ring */
	/* the level's pooled errors, which this ring's quantiles are shrunk
	 * towards (dl_calib_shrink; may be NULL; not owned) */
	struct dl_calib *fallback;
	uint32_t njobs; /* distinct jobs in the ring (valid while !dirty) */
	bool dirty;
	uint64_t total; /* errors ever pushed */
};

int dl_calib_init(struct dl_calib *c, uint32_t cap);
void dl_calib_free(struct dl_calib *c);
/* Record an error of a prediction (p50, spread) against the actual length. */
void dl_calib_add(struct dl_calib *c, double p50, double spread, double actual);
/* The same for a task of job `job` (0: no job, weight 1). */
void dl_calib_add_job(struct dl_calib *c, double p50, double spread,
		      double actual, uint64_t job);
/* Quantile q of the recorded errors; NAN when fewer than min.  With one
 * error per job (or none carrying a job) the type-7 sample quantile
 * (dl_quantile_sorted), else the weighted quantile
 * (dl_weighted_quantile_sorted) with the weights above. */
double dl_calib_quantile(struct dl_calib *c, double q, uint32_t min);

/* Shrinkage of a level's own quantile towards its pooled one.  An
 * empirical q-quantile rests on the jobs beyond it, about jobs * (1 - q) of
 * them; with fewer than two it is mostly the luck of one job.  So the own
 * quantile weighs its expected tail jobs against DL_CALIB_TAIL_JOBS
 * pseudo-jobs of the pool:
 *   z = (t z_own + T z_pool) / (t + T),  t = jobs (1 - q),  T = 2.
 * A level with 20 jobs in its ring gets half its own p90 and half the
 * pool's; with 200 jobs 91 % its own; p99 needs ten times the jobs.  z_pool
 * not finite: z_own; z_own not finite or jobs = 0: z_pool. */
#define DL_CALIB_TAIL_JOBS 2.0
double dl_calib_shrink(double z_own, uint32_t jobs, double q, double z_pool);

/* Fill out's p50/p90/p99 from a center and a log spread: p_q = p50 *
 * exp(max(0, z_q) * spread).  z_q: when cal->fallback has CalibrationMin
 * errors, cal's quantile (any number of errors) shrunk towards the
 * fallback's (dl_calib_shrink); else cal's when it has CalibrationMin
 * errors; else t(df).  Ensures p50 <= p90 <= p99.  cal may be NULL. */
void dl_pred_quantiles(double p50, double spread, double df,
		       struct dl_calib *cal, const struct dl_pred_cfg *cfg,
		       struct dl_prediction *out);

/* The default prediction of a phase (0 map, 1 reduce). */
void dl_pred_default(const struct dl_pred_cfg *cfg, int phase,
		     struct dl_prediction *out);

/* Prediction from a summary (levels job, history:name, history:user). */
void dl_pred_from_summary(const struct dl_summary *s, enum dl_pred_source src,
			  struct dl_calib *cal, const struct dl_pred_cfg *cfg,
			  struct dl_prediction *out);

/* Prediction from the rate model for an input size; false if not usable. */
bool dl_pred_from_rate(const struct dl_rate_model *m, double bytes,
		       struct dl_calib *cal, const struct dl_pred_cfg *cfg,
		       struct dl_prediction *out);

/* Summary of a job's own completed durations (in completion order): the
 * newest cfg->job_window of them, and of those only the current regime
 * (dl_regime_start: a first wave that ran much longer than the later ones
 * no longer speaks for them).  scratch holds min(n, job_window) doubles.
 * EINVAL for bad input. */
int dl_job_summary(const double *completed, size_t n,
		   const struct dl_pred_cfg *cfg, double *scratch,
		   struct dl_summary *out);

/* The job level alone: a prediction from dl_job_summary.  Returns
 * false when there are fewer than cfg->min_samples or one is invalid
 * (negative, NaN); scratch holds min(n, job_window) doubles. */
bool dl_pred_job(const double *completed, size_t n,
		 const struct dl_pred_cfg *cfg, struct dl_calib *cal,
		 double *scratch, struct dl_prediction *out);

/* ---- choosing among levels by their recent accuracy ---- */

/* Recent accuracy of one level for one user: an exponentially forgetting
 * weighted mean of |log(actual / p50)|.  Each added error of weight w
 * first multiplies the old sums by DL_SCORE_FORGET^w, so the score is the
 * mean of roughly the last 1 / (1 - DL_SCORE_FORGET) units of weight. */
struct dl_score {
	double sum, weight;
};

#define DL_SCORE_FORGET 0.9
/* weight a level needs before its score is trusted (about two jobs) */
#define DL_SCORE_MIN_WEIGHT 1.5
/* another level replaces the first only with a score below this share of
 * the first's: scores of a few jobs are noisy */
#define DL_SCORE_MARGIN 0.8

/* Add the error of a prediction p50 against actual with weight w > 0.
 * Bad input (p50 or actual not positive and finite, w not > 0) is
 * ignored. */
void dl_score_add(struct dl_score *s, double p50, double actual, double w);
/* The score, or NAN while its weight is below min_weight. */
double dl_score_get(const struct dl_score *s, double min_weight);

/* The weight of a job's k-th finished task (k >= 1) in its user's scores:
 * 1 / k, so that an array of n tasks weighs about 1 + ln n, not n: one big
 * job does not decide which level its user's next jobs get. */
double dl_score_task_weight(uint64_t k);

/* Choose among the levels in `avail` (1u << source each) that are subject
 * to choice (history:user, rate, default): the first of them in the fixed
 * order unless another has a lower trusted score and the first has a
 * trusted score too (no switch without evidence about both).  Returns
 * DL_PRED_SOURCES when none of them is available. */
enum dl_pred_source dl_pred_choose(const struct dl_score *scores,
				   unsigned avail);

/* ---- a job whose first tasks ran much longer (or shorter) ---- */

/* Change detection on a job's own durations in completion order: the
 * largest newest run of m >= min_run durations (m = min_run, 2 min_run,
 * ... up to n / 2) whose median differs from the median of the older ones
 * by more than `factor` (either way) is the job's current regime.  Returns
 * the index it starts at, 0 when no change is found (or n < 2 min_run).
 * scratch holds n doubles. */
size_t dl_regime_start(const double *x, size_t n, uint32_t min_run,
		       double factor, double *scratch);

/* runs shorter than this are not a regime (with MinSamples if larger) */
#define DL_REGIME_MIN_RUN 5
/* a first wave 2.5x the later ones (or 1/2.5) is a change */
#define DL_REGIME_FACTOR 2.5

#endif
