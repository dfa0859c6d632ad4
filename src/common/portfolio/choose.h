/*
 * choose.h - the portfolio's switching rule, with hysteresis (POSUM
 * switched to every round's winner; a policy's plans need time to pay off,
 * and scores from predicted task lengths are noisy):
 *
 *   keep the current policy when the round is over budget or scored
 *   nothing, when the current policy is the best (ties keep it), when it
 *   has run for less than the minimum dwell time, when the best is not
 *   better by at least the margin (in score points), or when the best
 *   does not beat the current policy on more than half of the round's
 *   samples (sample by sample, on the same draws: a policy that wins the
 *   mean through one lucky draw does not win), or -- when missed
 *   deadlines weigh in the score -- when the best does not miss fewer
 *   deadlines than the current policy (tardiness and slowdown rank the
 *   candidates, but a policy that misses as many is not worth a switch:
 *   triage makes the jobs it gives up later on purpose, and leaving it for
 *   less lateness cost misses on the phased workload); otherwise switch
 *   to the best (the first in the candidates' order among equals).  A
 *   round without per-sample totals (samples 0) is judged on the mean
 *   alone.
 *
 * A current policy the round did not score (not a candidate, or its runs
 * failed) gives way to the best at once: there is nothing to weigh it by.
 */
#ifndef DL_PORTFOLIO_CHOOSE_H
#define DL_PORTFOLIO_CHOOSE_H

#include <stdbool.h>

#include "common/config/config.h"
#include "common/portfolio/round.h"

enum dl_pf_reason {
	DL_PF_SWITCH = 0,    /* switched to the best */
	DL_PF_KEEP_BEST,     /* the current policy scored best */
	DL_PF_KEEP_DWELL,    /* better one found, current too recent */
	DL_PF_KEEP_MARGIN,   /* better one found, not by the margin */
	DL_PF_KEEP_BUDGET,   /* the round ran over its time budget */
	DL_PF_KEEP_UNSCORED, /* no candidate could be scored */
	DL_PF_KEEP_SAMPLES,  /* better on the mean, not on most samples */
	DL_PF_KEEP_MISSES,   /* better, but misses no fewer deadlines */
	DL_PF_KEEP_CONFIRM,  /* a switch not yet confirmed by enough rounds */
};

struct dl_pf_choice {
	enum dl_policy policy; /* what runs next */
	enum dl_policy best;   /* the round's best (policy when unscored) */
	bool switched;
	enum dl_pf_reason reason;
	double gain;   /* current's total - best's total; 0 when unknown */
	uint32_t wins; /* samples where the best beat the current policy */
	char why[200]; /* one line for the log and sdeadline */
};

/* Choose after a round.  current_for_s: how long the current policy has
 * run; min_dwell_s, margin >= 0.  out is always filled (round NULL counts
 * as unscored). */
void dl_pf_choose(const struct dl_pf_round *round, enum dl_policy current,
		  double current_for_s, double min_dwell_s, double margin,
		  struct dl_pf_choice *out);

/* Confirmation across rounds: a switch dl_pf_choose made goes ahead only
 * when the same policy won the switch in `confirm` consecutive rounds (a
 * real change of the queue persists; a round on a few jobs swings from one
 * policy to another and back).  *pending and *streak are the caller's,
 * zero-initialised; a round without a switch resets the streak.  confirm
 * 0 or 1: every switch goes ahead. */
void dl_pf_confirm(struct dl_pf_choice *c, enum dl_policy current,
		   enum dl_policy *pending, uint32_t *streak, uint32_t confirm);

/* A short name of the reason ("switch", "best", "dwell", ...). */
const char *dl_pf_reason_name(enum dl_pf_reason r);

#endif
