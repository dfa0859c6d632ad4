/*
 * portfolio.h - Policy=portfolio (issue 16, after POSUM): every
 * PortfolioInterval the plan cycle's snapshot is simulated under each of
 * PortfolioPolicies (future.h, round.h), scored (score.h), and the policy
 * that plans is kept or switched by the rule with hysteresis (choose.h).
 * Between rounds the chosen policy plans every cycle as if configured.
 * Every cycle records the jobs that arrived (forecast.h); a round
 * replays the last PortfolioForecast's arrivals as its future ones, and
 * with PortfolioHindsight also judges the candidates on the recent past
 * (hindsight.h; in memory only, lost on a restart).
 *
 * State transfer: the candidates are the planning policies, which hold no
 * job (only realtime holds, and it is not a candidate) and keep no state
 * between cycles but the previous plan, so a switch releases no hold it
 * should not and loses no realtime ticket; running tasks are never
 * stopped, since a plan only sets throttles and priorities for tasks not
 * yet started.
 *
 * The state is the caller's (the sched plugin's plan thread, or a
 * simulator run): no global state, no I/O but one log line per round and
 * one per switch through the core's log sink.
 */
#ifndef DL_PORTFOLIO_PORTFOLIO_H
#define DL_PORTFOLIO_PORTFOLIO_H

#include <stdbool.h>
#include <stddef.h>

#include "common/plan/plan.h"
#include "common/policy/input.h"
#include "common/portfolio/choose.h"
#include "common/portfolio/forecast.h"
#include "common/portfolio/hindsight.h"
#include "common/portfolio/round.h"

struct dl_pf_state {
	bool started;
	enum dl_policy active;
	double active_since;
	double last_round; /* -inf before the first round */
	uint32_t rounds, switches;
	bool have_round;
	bool resumed; /* from the last plan of a restarted slurmctld */
	struct dl_pf_round round;    /* the last round */
	struct dl_pf_choice choice;  /* and its decision */
	struct dl_pf_recent recent;  /* arrivals of the last PortfolioForecast
					and 2 x PortfolioHindsight */
	struct dl_pf_hindsight past; /* checkpoints of the recent past */
	enum dl_policy pending;      /* the switch being confirmed */
	uint32_t streak;             /* rounds in a row it won */
};

void dl_pf_state_init(struct dl_pf_state *st);
/* Free what the state holds (the recent arrivals, the checkpoints) and
 * initialise it. */
void dl_pf_state_free(struct dl_pf_state *st);

/* One plan cycle under Policy=portfolio (in->cfg->policy): a round when
 * one is due, then the active policy's plan, with the portfolio's record
 * in plan->portfolio.  NULL with err set when the active policy cannot
 * plan (as dl_policy_plan) or PortfolioPolicies is bad. */
struct dl_plan *dl_pf_plan(struct dl_pf_state *st,
			   const struct dl_policy_input *in, char *err,
			   size_t errlen);

#endif
