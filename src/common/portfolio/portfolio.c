/*
 * portfolio.c - Policy=portfolio: rounds, the active policy, its plan.
 */
#include "common/portfolio/portfolio.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/io/log.h"
#include "common/policy/policy.h"
#include "common/portfolio/future.h"

/* a phase with no estimate at all is simulated with tasks this long */
#define FALLBACK_LEN 600.0

void dl_pf_state_init(struct dl_pf_state *st)
{
	if (!st)
		return;
	memset(st, 0, sizeof(*st));
	st->last_round = -INFINITY;
}

void dl_pf_state_free(struct dl_pf_state *st)
{
	if (!st)
		return;
	dl_pf_recent_clear(&st->recent);
	dl_pf_hindsight_clear(&st->past);
	dl_pf_state_init(st);
}

/* The seed of a round: its time and number, so a replay of the same
 * cycles draws the same lengths. */
static uint64_t round_seed(double now, uint32_t round)
{
	uint64_t t;

	memcpy(&t, &now, sizeof(t));
	return t ^ ((uint64_t) round * UINT64_C(0x9e3779b97f4a7c15));
}

static void log_round(const struct dl_pf_state *st)
{
	char line[600];
	size_t used = 0;

	for (uint32_t i = 0; i < st->round.n; i++) {
		const struct dl_pf_result *r = &st->round.r[i];

		if (used >= sizeof(line))
			break;
		if (r->scored) {
			char past[40] = "";

			if (st->round.hindsight)
				snprintf(past, sizeof(past),
					 "; past missed %.1f%%",
					 r->past.missed_pct);
			used += (size_t) snprintf(
				line + used, sizeof(line) - used,
				"%s%s %.2f (missed %.1f%%, late %.1f min, "
				"slowdown %.2f%s)",
				i ? ", " : "", dl_policy_name(r->policy),
				r->score.total, r->score.missed_pct,
				r->score.tardiness_min, r->score.bsld, past);
		} else
			used += (size_t) snprintf(
				line + used, sizeof(line) - used, "%s%s -",
				i ? ", " : "", dl_policy_name(r->policy));
	}
	dl_log(DL_LOG_INFO, "portfolio round %u (%.3f s, %u runs): %s; %s",
	       st->rounds, st->round.wall_s, st->round.runs, line,
	       st->choice.why);
}

static void run_round(struct dl_pf_state *st, const struct dl_policy_input *in,
		      const enum dl_policy *cands, uint32_t ncands)
{
	const struct dl_config *cfg = in->cfg;
	struct dl_pf_params p = {.samples = cfg->portfolio_samples,
				 .seed = round_seed(in->now, st->rounds),
				 .budget_s = cfg->portfolio_budget,
				 .horizon_s = cfg->portfolio_horizon,
				 .sample_tasks = cfg->portfolio_sample_tasks,
				 .plan_grid = cfg->portfolio_plan_grid,
				 .weights = {cfg->portfolio_missed_weight,
					     cfg->portfolio_lateness_weight,
					     cfg->portfolio_slowdown_weight},
				 .recent = &st->recent,
				 .window = cfg->portfolio_forecast,
				 .now = in->now,
				 .live = in->prev};
	struct sim_cluster_spec cs;
	struct sim_workload_spec ws, past = {0};
	uint32_t nbase = 0;
	char err[256] = "";
	int rc, no_future;

	st->last_round = in->now;
	st->rounds++;
	rc = no_future = dl_pf_future_at(in, FALLBACK_LEN, &cs, &ws, &p.origin,
					 err, sizeof(err));
	if (!rc && cfg->portfolio_hindsight > 0) {
		rc = dl_pf_hindsight_past(&st->past, &st->recent, in->now,
					  &p.past_cs, &past, &nbase);
		if (rc)
			snprintf(err, sizeof(err), "portfolio round: %s",
				 rc == ENOMEM ? "out of memory"
					      : "bad hindsight arguments");
		else
			p.past_ws = &past;
	}
	if (!rc)
		rc = dl_pf_run_round(&cs, &ws, cfg, cands, ncands, &p,
				     &st->round, err, sizeof(err));
	dl_pf_forecast_free(&past, nbase);
	/* this round's future is the recent past's start of a later one */
	if (no_future ||
	    !dl_pf_hindsight_keep(&st->past, in->now, p.origin,
				  cfg->portfolio_hindsight, &cs, &ws)) {
		sim_workload_spec_free(&ws);
		sim_cluster_spec_free(&cs);
	}
	st->resumed = false;
	if (rc) {
		/* keep the policy; the next round may do better */
		st->have_round = false;
		dl_log(DL_LOG_ERROR, "portfolio round %u: %s; kept %s",
		       st->rounds, err, dl_policy_name(st->active));
		return;
	}
	st->have_round = true;
	dl_pf_choose(&st->round, st->active, in->now - st->active_since,
		     cfg->portfolio_min_dwell, cfg->portfolio_margin,
		     &st->choice);
	dl_pf_confirm(&st->choice, st->active, &st->pending, &st->streak,
		      cfg->portfolio_confirm);
	log_round(st);
	if (st->choice.switched) {
		dl_log(DL_LOG_INFO, "portfolio: %s", st->choice.why);
		st->active = st->choice.policy;
		st->active_since = in->now;
		st->switches++;
	}
}

/* A restarted slurmctld resumes what its last plan (restored from the
 * plan file, in->prev) ran: the active policy, since when, and when the
 * last round was.  Starting again from the first candidate would undo a
 * switch on every restart and let the next round switch back only after
 * PortfolioConfirm rounds, on the policy the rounds had rejected. */
static void resume(struct dl_pf_state *st, const struct dl_policy_input *in,
		   const enum dl_policy *cands, uint32_t ncands)
{
	const struct dl_plan *prev = in->prev;
	const struct dl_plan_portfolio *p;

	if (!prev || !prev->portfolio.on)
		return;
	p = &prev->portfolio;
	for (uint32_t i = 0; i < ncands; i++) {
		if (cands[i] != prev->policy)
			continue;
		st->started = true;
		st->active = prev->policy;
		/* times from the file are trusted only up to now */
		st->active_since =
			p->active_since > 0 && p->active_since <= in->now
				? p->active_since
				: in->now;
		if (p->last_round > 0 && p->last_round <= in->now)
			st->last_round = p->last_round;
		st->rounds = p->rounds;
		st->switches = p->switches;
		st->resumed = true;
		dl_log(DL_LOG_INFO,
		       "portfolio: resumed %s from the saved plan of cycle "
		       "%" PRIu64,
		       dl_policy_name(st->active), prev->cycle);
		return;
	}
}

static void record(const struct dl_pf_state *st, struct dl_plan *plan)
{
	struct dl_plan_portfolio *o = &plan->portfolio;

	memset(o, 0, sizeof(*o));
	o->on = true;
	o->rounds = st->rounds;
	o->switches = st->switches;
	o->active_since = st->active_since;
	o->last_round = isfinite(st->last_round) ? st->last_round : 0;
	if (!st->have_round) {
		snprintf(o->why, sizeof(o->why), "%s",
			 st->resumed  ? "resumed after a restart, no round "
					"since"
			 : st->rounds ? "last round failed (see the log)"
				      : "no round yet");
		return;
	}
	o->round_s = st->round.wall_s;
	o->over_budget = st->round.over_budget;
	o->switched = st->choice.switched;
	for (uint32_t i = 0; i < st->round.n && i < DL_PLAN_PF_MAX; i++) {
		const struct dl_pf_result *r = &st->round.r[i];

		o->score[i].policy = r->policy;
		o->score[i].scored = r->scored;
		o->score[i].total = r->score.total;
		o->score[i].missed_pct = r->score.missed_pct;
		o->score[i].tardiness_min = r->score.tardiness_min;
		o->score[i].bsld = r->score.bsld;
		o->n = i + 1;
	}
	dl_plan_copy_str(o->why, sizeof(o->why), st->choice.why);
}

struct dl_plan *dl_pf_plan(struct dl_pf_state *st,
			   const struct dl_policy_input *in, char *err,
			   size_t errlen)
{
	enum dl_policy cands[DL_PF_MAX_CANDIDATES];
	struct dl_policy_input copy;
	struct dl_config cfg;
	struct dl_plan *plan;
	uint32_t ncands = 0;
	bool listed = false;

	if (!st || !in || !in->cfg) {
		snprintf(err, err ? errlen : 0, "no portfolio input");
		return NULL;
	}
	if (dl_policy_list_parse(in->cfg->portfolio_policies, cands,
				 DL_PF_MAX_CANDIDATES, &ncands, err, errlen))
		return NULL;
	if (!st->started)
		resume(st, in, cands, ncands);
	for (uint32_t i = 0; i < ncands; i++)
		listed |= cands[i] == st->active;
	if (!st->started || !listed) {
		/* the first candidate until the first round says otherwise
		 * (and after the list changed without the active one) */
		st->started = true;
		st->active = cands[0];
		st->active_since = in->now;
	}
	/* every cycle: a job seen once is replayed (forecast.h); out of
	 * memory only loses the newest arrivals from the forecast */
	if (dl_pf_recent_note(&st->recent, in,
			      fmax(in->cfg->portfolio_forecast,
				   2 * in->cfg->portfolio_hindsight),
			      FALLBACK_LEN))
		dl_log(DL_LOG_ERROR, "portfolio: arrivals not recorded: out of "
				     "memory");
	if (!(in->now - st->last_round < in->cfg->portfolio_interval))
		run_round(st, in, cands, ncands);

	cfg = *in->cfg; /* strings stay the caller's */
	cfg.policy = st->active;
	copy = *in;
	copy.cfg = &cfg;
	plan = dl_policy_plan(&copy, err, errlen);
	if (plan)
		record(st, plan);
	return plan;
}
