/*
 * round.c - one portfolio round over the simulator's engine.
 */
#include "common/portfolio/round.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/estimate/stats.h"
#include "common/io/clock.h"
#include "common/portfolio/scale.h"
#include "common/simulate/core_policy.h"
#include "common/simulate/engine.h"
#include "common/simulate/rng.h"

/* The seed of sample k: a stream of its own per (seed, k), the same for
 * every candidate. */
static uint64_t sample_seed(uint64_t seed, uint32_t k)
{
	struct sim_rng r;

	sim_rng_init(&r, seed, 0x706f7274666f6c69ull /* "portfoli" */, k, 0);
	return sim_rng_next(&r);
}

static int check_args(const struct sim_cluster_spec *cs,
		      const struct sim_workload_spec *ws,
		      const struct dl_config *cfg, const enum dl_policy *cands,
		      uint32_t ncands, const struct dl_pf_params *p,
		      struct dl_pf_round *out, char *err, size_t errlen)
{
	if (!cs || !ws || !cfg || !cands || !p || !out) {
		snprintf(err, errlen, "portfolio round: missing argument");
		return EINVAL;
	}
	if (!ncands || ncands > DL_PF_MAX_CANDIDATES) {
		snprintf(err, errlen, "portfolio round: %u candidates (1..%u)",
			 ncands, (unsigned) DL_PF_MAX_CANDIDATES);
		return EINVAL;
	}
	for (uint32_t i = 0; i < ncands; i++) {
		if (!sim_core_policy(cands[i])) {
			snprintf(err, errlen,
				 "portfolio round: candidate %u is not a "
				 "planning policy",
				 i);
			return EINVAL;
		}
		for (uint32_t k = 0; k < i; k++)
			if (cands[k] == cands[i]) {
				snprintf(err, errlen,
					 "portfolio round: %s listed twice",
					 dl_policy_name(cands[i]));
				return EINVAL;
			}
	}
	if (!p->samples || p->samples > DL_PF_MAX_SAMPLES) {
		snprintf(err, errlen, "portfolio round: %u samples (1..%u)",
			 p->samples, (unsigned) DL_PF_MAX_SAMPLES);
		return EINVAL;
	}
	if (p->recent && (!isfinite(p->window) || p->window < 0 ||
			  !isfinite(p->now) || !isfinite(p->origin))) {
		snprintf(err, errlen,
			 "portfolio round: the forecast needs a window >= 0 "
			 "and finite times");
		return EINVAL;
	}
	if (!isfinite(p->budget_s) || p->budget_s <= 0 ||
	    !isfinite(p->horizon_s) || p->horizon_s < 0 ||
	    !isfinite(p->plan_grid) || p->plan_grid < 0) {
		snprintf(err, errlen,
			 "portfolio round: budget must be > 0, horizon and "
			 "plan grid >= 0 seconds");
		return EINVAL;
	}
	return 0;
}

/* One engine run of policy on sample seed; its tally in *t.  0, ETIME
 * (budget), or another errno with err set. */
static int run_one(const struct sim_cluster_spec *cs,
		   const struct sim_workload_spec *ws,
		   const struct dl_config *cfg, const struct sim_policy *policy,
		   uint64_t seed, double horizon, double stop_at,
		   struct dl_pf_tally *t, uint64_t *plans, char *err,
		   size_t errlen)
{
	struct sim_options opt = {
		.seed = seed, .horizon = horizon, .stop_at = stop_at};
	struct sim_engine *eng;
	int rc;

	eng = sim_engine_new(cs, ws, policy, cfg, &opt, err, errlen);
	if (!eng)
		return err[0] && strstr(err, "memory") ? ENOMEM : EINVAL;
	rc = sim_engine_run(eng, err, errlen);
	*plans += eng->stats.plans;
	if (!rc) {
		memset(t, 0, sizeof(*t));
		for (uint32_t j = 0; j < eng->njobs; j++) {
			const struct sim_job *job = &eng->jobs[j];

			double end = eng->stats.end_time;
			bool met = sim_job_met(job);

			if (job->state == SIM_JOB_FUTURE)
				continue; /* beyond the horizon */
			/* still running at the horizon with its deadline
			 * beyond it: not known to miss */
			if (job->unfinished && job->deadline > end)
				met = true;
			dl_pf_tally_add(t, job->spec->arrival, job->deadline,
					met, job->finish, job->isolated, end);
		}
	}
	sim_engine_free(eng);
	return rc;
}

/* The median, not the nearest deadline: in a large queue some job is
 * always due soon, and planning every few seconds for its sake is what
 * made a round cost minutes. */
int dl_pf_round_grid(const struct sim_workload_spec *ws, double grid,
		     double *out)
{
	double *d = malloc((ws->njobs ? ws->njobs : 1) * sizeof(*d));
	size_t n = 0;

	*out = grid;
	if (!d)
		return ENOMEM;
	for (uint32_t j = 0; j < ws->njobs; j++) {
		double x = ws->jobs[j].deadline - ws->jobs[j].arrival;

		if (ws->jobs[j].deadline > 0 && x > 0 && isfinite(x))
			d[n++] = x;
	}
	if (n) {
		dl_sort_doubles(d, n);
		if (dl_quantile_sorted(d, n, 0.5) / 10 < grid)
			*out = dl_quantile_sorted(d, n, 0.5) / 10;
	}
	free(d);
	return 0;
}

int dl_pf_run_round(const struct sim_cluster_spec *cs,
		    const struct sim_workload_spec *ws,
		    const struct dl_config *cfg, const enum dl_policy *cands,
		    uint32_t ncands, const struct dl_pf_params *p,
		    struct dl_pf_round *out, char *err, size_t errlen)
{
	double t0 = dl_monotonic_s(), stop_at, grid;
	struct dl_pf_scaled sc;
	struct dl_config rcfg;
	int rc;

	if (err && errlen)
		err[0] = 0;
	rc = check_args(cs, ws, cfg, cands, ncands, p, out, err, errlen);
	if (rc)
		return rc;
	memset(out, 0, sizeof(*out));
	out->n = ncands;
	out->misses_count = p->weights.missed > 0;
	stop_at = t0 + p->budget_s;
	rc = dl_pf_scale(cs, ws, p->sample_tasks, p->seed, &sc, err, errlen);
	if (rc)
		return rc;
	if (sc.scaled) {
		cs = &sc.cs;
		ws = &sc.ws;
	}
	out->jobs = ws->njobs;
	out->nodes = cs->nnodes;
	out->share = sc.share;
	/* the round's plan grid (strings stay the caller's) */
	if ((rc = dl_pf_round_grid(ws, p->plan_grid, &grid))) {
		snprintf(err, errlen, "portfolio round: out of memory");
		dl_pf_scaled_free(&sc);
		return rc;
	}
	rcfg = *cfg;
	if (rcfg.plan_interval < grid)
		rcfg.plan_interval = grid;
	if (rcfg.replan_delay < grid)
		rcfg.replan_delay = grid;
	cfg = &rcfg;
	for (uint32_t i = 0; i < ncands; i++) {
		out->r[i].policy = cands[i];
		out->r[i].scored = true;
		out->r[i].worst_total = -INFINITY;
	}
	/* sample by sample, so an interrupted round has looked at every
	 * candidate equally */
	for (uint32_t k = 0; k < p->samples && !out->over_budget; k++) {
		uint64_t seed = sample_seed(p->seed, k);
		struct sim_workload_spec wk;

		rc = dl_pf_forecast(ws, p->recent, p->now, p->origin,
				    p->recent ? p->window : 0, p->seed, k, &wk);
		if (rc) {
			snprintf(err, errlen, "portfolio round: %s",
				 rc == ENOMEM ? "out of memory"
					      : "bad forecast arguments");
			dl_pf_scaled_free(&sc);
			return rc;
		}

		for (uint32_t i = 0; i < ncands; i++) {
			struct dl_pf_result *r = &out->r[i];
			struct dl_pf_tally t;
			struct dl_pf_score s;
			char why[sizeof(r->err)] = "";

			if (!r->scored)
				continue;
			rc = run_one(cs, &wk, cfg, sim_core_policy(cands[i]),
				     seed, p->horizon_s, stop_at, &t,
				     &out->plans, why, sizeof(why));
			if (rc == ETIME) {
				out->over_budget = true;
				break;
			}
			if (rc == ENOMEM) {
				snprintf(err, errlen, "%s", why);
				dl_pf_forecast_free(&wk, ws->njobs);
				dl_pf_scaled_free(&sc);
				return ENOMEM;
			}
			if (rc) {
				/* a policy that fails is not a candidate
				 * this round; the others still are */
				r->scored = false;
				snprintf(r->err, sizeof(r->err), "%s", why);
				continue;
			}
			out->runs++;
			dl_pf_score_of(&t, &p->weights, &s);
			r->score.missed_pct += s.missed_pct / p->samples;
			r->score.tardiness_min += s.tardiness_min / p->samples;
			r->score.bsld += s.bsld / p->samples;
			r->score.total += s.total / p->samples;
			if (s.total > r->worst_total)
				r->worst_total = s.total;
			r->sample_total[k] = s.total;
		}
		dl_pf_forecast_free(&wk, ws->njobs);
		if (!out->over_budget)
			out->samples = k + 1;
	}
	if (out->over_budget)
		for (uint32_t i = 0; i < ncands; i++)
			out->r[i].scored = false;
	dl_pf_scaled_free(&sc);
	out->wall_s = dl_monotonic_s() - t0;
	return 0;
}
