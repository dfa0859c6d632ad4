/*
 * round.c - one portfolio round over the simulator's engine.
 */
#include "common/portfolio/round.h"

#include <ctype.h>
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

struct dl_plan *dl_pf_live_memory(const struct dl_plan *live,
				  const struct sim_workload_spec *ws)
{
	struct dl_plan *m;
	uint32_t n = 0;

	if (!live || !ws)
		return NULL;
	m = dl_plan_new(ws->njobs);
	if (!m)
		return NULL;
	m->now = live->now;
	m->policy = DL_POLICY_PORTFOLIO;
	m->slacks = live->slacks;
	m->arrivals = live->arrivals;
	for (uint32_t j = 0; j < ws->njobs; j++) {
		const char *name = ws->jobs[j].name;
		const struct dl_plan_job *pj;
		unsigned long long id;
		char *end;

		/* digits only: a forecast's jobs are "+<id>" */
		if (!name || !isdigit((unsigned char) name[0]))
			continue;
		errno = 0;
		id = strtoull(name, &end, 10);
		if (errno || *end || !id)
			continue;
		pj = dl_plan_find(live, id);
		if (!pj || pj->verdict == DL_VERDICT_NO_DATA)
			continue;
		m->jobs[n].job_id = (uint64_t) j + 1;
		m->jobs[n].verdict = pj->verdict;
		n++;
	}
	m->njobs = n;
	dl_plan_finalize(m);
	return m;
}

/* One engine run of policy on sample seed; its tally in *t.  0, ETIME
 * (budget), or another errno with err set. */
static int run_one(const struct sim_cluster_spec *cs,
		   const struct sim_workload_spec *ws,
		   const struct dl_config *cfg, const struct sim_policy *policy,
		   const struct dl_plan *prev, uint64_t seed, double horizon,
		   double stop_at, struct dl_pf_tally *t, uint64_t *plans,
		   char *err, size_t errlen)
{
	struct sim_options opt = {.seed = seed,
				  .horizon = horizon,
				  .stop_at = stop_at,
				  .prev = prev};
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
		*out = fmin(grid, dl_quantile_sorted(d, n, 0.5) / 10);
	}
	free(d);
	return 0;
}

/* A workload as a round simulates it: scaled (scale.h) and with its own
 * plan grid.  The strings stay the caller's. */
struct prepared {
	struct dl_pf_scaled sc;
	const struct sim_cluster_spec *cs;
	const struct sim_workload_spec *ws;
	struct dl_config cfg;
};

static int prepare(struct prepared *w, const struct sim_cluster_spec *cs,
		   const struct sim_workload_spec *ws,
		   const struct dl_config *cfg, const struct dl_pf_params *p,
		   uint64_t max_tasks, char *err, size_t errlen)
{
	double grid;
	int rc;

	memset(w, 0, sizeof(*w));
	rc = dl_pf_scale(cs, ws, max_tasks, p->seed, &w->sc, err, errlen);
	if (rc)
		return rc;
	w->cs = w->sc.scaled ? &w->sc.cs : cs;
	w->ws = w->sc.scaled ? &w->sc.ws : ws;
	if ((rc = dl_pf_round_grid(w->ws, p->plan_grid, &grid))) {
		snprintf(err, errlen, "portfolio round: out of memory");
		dl_pf_scaled_free(&w->sc);
		return rc;
	}
	w->cfg = *cfg;
	if (w->cfg.plan_interval < grid)
		w->cfg.plan_interval = grid;
	if (w->cfg.replan_delay < grid)
		w->cfg.replan_delay = grid;
	return 0;
}

/* A sample's score into the mean over the round's samples. */
static void add_share(struct dl_pf_score *mean, const struct dl_pf_score *s,
		      uint32_t samples)
{
	mean->missed_pct += s->missed_pct / samples;
	mean->tardiness_min += s->tardiness_min / samples;
	mean->bsld += s->bsld / samples;
	mean->total += s->total / samples;
}

int dl_pf_run_round(const struct sim_cluster_spec *cs,
		    const struct sim_workload_spec *ws,
		    const struct dl_config *cfg, const enum dl_policy *cands,
		    uint32_t ncands, const struct dl_pf_params *p,
		    struct dl_pf_round *out, char *err, size_t errlen)
{
	double t0 = dl_monotonic_s(), stop_at;
	struct prepared now, past;
	struct dl_plan *mem = NULL;
	uint64_t max_tasks;
	bool hindsight;
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
	hindsight = p->past_cs && p->past_ws && p->past_ws->njobs;
	/* the look-ahead and the past share the round's tasks: the same
	 * cost per round with hindsight as without */
	max_tasks = p->sample_tasks;
	if (hindsight && max_tasks)
		max_tasks = (max_tasks + 1) / 2;
	if ((rc = prepare(&now, cs, ws, cfg, p, max_tasks, err, errlen)))
		return rc;
	if (hindsight && (rc = prepare(&past, p->past_cs, p->past_ws, cfg, p,
				       max_tasks, err, errlen))) {
		dl_pf_scaled_free(&now.sc);
		return rc;
	}
	out->hindsight = hindsight;
	out->jobs = now.ws->njobs;
	out->nodes = now.cs->nnodes;
	out->share = now.sc.share;
	out->past_jobs = hindsight ? past.ws->njobs : 0;
	for (uint32_t i = 0; i < ncands; i++) {
		out->r[i].policy = cands[i];
		out->r[i].scored = true;
		out->r[i].worst_total = -INFINITY;
	}
	/* the queue's jobs keep their places in every sample's workload (a
	 * forecast's come after them): one memory for all; NULL (none, or
	 * out of memory) runs from nothing */
	mem = dl_pf_live_memory(p->live, now.ws);
	/* sample by sample, so an interrupted round has looked at every
	 * candidate equally */
	for (uint32_t k = 0; k < p->samples && !out->over_budget; k++) {
		uint64_t seed = sample_seed(p->seed, k);
		struct sim_workload_spec wk;

		rc = dl_pf_forecast(now.ws, p->recent, p->now, p->origin,
				    p->recent ? p->window : 0, p->seed, k, &wk);
		if (rc) {
			snprintf(err, errlen, "portfolio round: %s",
				 rc == ENOMEM ? "out of memory"
					      : "bad forecast arguments");
			rc = rc == ENOMEM ? ENOMEM : EINVAL;
			goto out;
		}

		for (uint32_t i = 0; i < ncands; i++) {
			struct dl_pf_result *r = &out->r[i];
			const struct sim_policy *pol =
				sim_core_policy(cands[i]);
			struct dl_pf_tally t, tp;
			struct dl_pf_score s, sp;
			char why[sizeof(r->err)] = "";

			if (!r->scored)
				continue;
			rc = run_one(now.cs, &wk, &now.cfg, pol, mem, seed,
				     p->horizon_s, stop_at, &t, &out->plans,
				     why, sizeof(why));
			/* the recent past under the same draws: what the
			 * candidate would have achieved (round.h) */
			if (!rc && hindsight)
				rc = run_one(past.cs, past.ws, &past.cfg, pol,
					     NULL, seed, p->horizon_s, stop_at,
					     &tp, &out->plans, why,
					     sizeof(why));
			if (rc == ETIME) {
				out->over_budget = true;
				break;
			}
			if (rc == ENOMEM) {
				snprintf(err, errlen, "%s", why);
				dl_pf_forecast_free(&wk, now.ws->njobs);
				goto out;
			}
			if (rc) {
				/* a policy that fails is not a candidate
				 * this round; the others still are */
				r->scored = false;
				snprintf(r->err, sizeof(r->err), "%s", why);
				continue;
			}
			out->runs += hindsight ? 2 : 1;
			if (hindsight) {
				dl_pf_score_of(&tp, &p->weights, &sp);
				add_share(&r->past, &sp, p->samples);
				dl_pf_tally_merge(&t, &tp);
			}
			dl_pf_score_of(&t, &p->weights, &s);
			add_share(&r->score, &s, p->samples);
			if (s.total > r->worst_total)
				r->worst_total = s.total;
			r->sample_total[k] = s.total;
		}
		dl_pf_forecast_free(&wk, now.ws->njobs);
		if (!out->over_budget)
			out->samples = k + 1;
	}
	rc = 0;
	if (out->over_budget)
		for (uint32_t i = 0; i < ncands; i++)
			out->r[i].scored = false;
	out->wall_s = dl_monotonic_s() - t0;
out:
	dl_plan_free(mem);
	dl_pf_scaled_free(&now.sc);
	if (hindsight)
		dl_pf_scaled_free(&past.sc);
	return rc;
}
