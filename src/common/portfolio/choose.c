/*
 * choose.c - the portfolio's switching rule with hysteresis.
 */
#include "common/portfolio/choose.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *dl_pf_reason_name(enum dl_pf_reason r)
{
	switch (r) {
	case DL_PF_SWITCH:
		return "switch";
	case DL_PF_KEEP_BEST:
		return "best";
	case DL_PF_KEEP_DWELL:
		return "dwell";
	case DL_PF_KEEP_MARGIN:
		return "margin";
	case DL_PF_KEEP_BUDGET:
		return "budget";
	case DL_PF_KEEP_UNSCORED:
		return "unscored";
	case DL_PF_KEEP_SAMPLES:
		return "samples";
	case DL_PF_KEEP_MISSES:
		return "misses";
	case DL_PF_KEEP_CONFIRM:
		return "confirm";
	}
	return "?";
}

static void keep(struct dl_pf_choice *out, enum dl_pf_reason reason)
{
	out->switched = false;
	out->reason = reason;
}

void dl_pf_choose(const struct dl_pf_round *round, enum dl_policy current,
		  double current_for_s, double min_dwell_s, double margin,
		  struct dl_pf_choice *out)
{
	const struct dl_pf_result *best = NULL, *cur = NULL;
	const char *cname = dl_policy_name(current);

	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	out->policy = current;
	out->best = current;
	if (!isfinite(margin) || margin < 0)
		margin = 0;
	if (!isfinite(min_dwell_s) || min_dwell_s < 0)
		min_dwell_s = 0;
	if (!round || round->over_budget) {
		keep(out, round ? DL_PF_KEEP_BUDGET : DL_PF_KEEP_UNSCORED);
		snprintf(out->why, sizeof(out->why),
			 round ? "kept %s: round over its time budget "
				 "(%.2f s)"
			       : "kept %s: no round",
			 cname, round ? round->wall_s : 0.0);
		return;
	}
	for (uint32_t i = 0; i < round->n && i < DL_PF_MAX_CANDIDATES; i++) {
		const struct dl_pf_result *r = &round->r[i];

		if (!r->scored)
			continue;
		if (r->policy == current)
			cur = r;
		/* strict: among equals the first listed stays best */
		if (!best || r->score.total < best->score.total)
			best = r;
	}
	if (!best) {
		keep(out, DL_PF_KEEP_UNSCORED);
		snprintf(out->why, sizeof(out->why),
			 "kept %s: no candidate could be scored", cname);
		return;
	}
	out->best = best->policy;
	if (cur && cur->score.total <= best->score.total) {
		keep(out, DL_PF_KEEP_BEST);
		snprintf(out->why, sizeof(out->why), "kept %s: best (%.2f)",
			 cname, cur->score.total);
		return;
	}
	if (cur) {
		out->gain = cur->score.total - best->score.total;
		if (current_for_s < min_dwell_s) {
			keep(out, DL_PF_KEEP_DWELL);
			snprintf(out->why, sizeof(out->why),
				 "kept %s: %s better by %.2f, but %s has run "
				 "%.0f s of its %.0f s minimum",
				 cname, dl_policy_name(best->policy), out->gain,
				 cname, current_for_s, min_dwell_s);
			return;
		}
		if (out->gain < margin) {
			keep(out, DL_PF_KEEP_MARGIN);
			snprintf(out->why, sizeof(out->why),
				 "kept %s: %s better by %.2f, below the margin "
				 "%.2f",
				 cname, dl_policy_name(best->policy), out->gain,
				 margin);
			return;
		}
		if (round->misses_count &&
		    !(best->score.missed_pct < cur->score.missed_pct - 1e-9)) {
			keep(out, DL_PF_KEEP_MISSES);
			snprintf(out->why, sizeof(out->why),
				 "kept %s: %s better by %.2f, but misses no "
				 "fewer deadlines (%.1f%% vs %.1f%%)",
				 cname, dl_policy_name(best->policy), out->gain,
				 best->score.missed_pct, cur->score.missed_pct);
			return;
		}
		for (uint32_t k = 0;
		     k < round->samples && k < DL_PF_MAX_SAMPLES; k++)
			out->wins +=
				best->sample_total[k] < cur->sample_total[k];
		if (round->samples && 2 * out->wins <= round->samples) {
			keep(out, DL_PF_KEEP_SAMPLES);
			snprintf(out->why, sizeof(out->why),
				 "kept %s: %s better by %.2f on the mean, but "
				 "on only %u of %u samples",
				 cname, dl_policy_name(best->policy), out->gain,
				 out->wins, round->samples);
			return;
		}
	}
	out->policy = best->policy;
	out->switched = true;
	out->reason = DL_PF_SWITCH;
	if (cur)
		snprintf(out->why, sizeof(out->why),
			 "switched %s -> %s: better by %.2f (%.2f vs %.2f)",
			 cname, dl_policy_name(best->policy), out->gain,
			 best->score.total, cur->score.total);
	else
		snprintf(out->why, sizeof(out->why),
			 "switched %s -> %s: %s not scored, %s best (%.2f)",
			 cname, dl_policy_name(best->policy), cname,
			 dl_policy_name(best->policy), best->score.total);
}

void dl_pf_confirm(struct dl_pf_choice *c, enum dl_policy current,
		   enum dl_policy *pending, uint32_t *streak, uint32_t confirm)
{
	if (!c || !pending || !streak)
		return;
	if (!c->switched) {
		*streak = 0;
		return;
	}
	if (*streak && *pending == c->policy)
		(*streak)++;
	else
		*streak = 1;
	*pending = c->policy;
	if (*streak >= confirm)
		return;
	snprintf(c->why, sizeof(c->why),
		 "kept %s: %s better by %.2f, %u of %u rounds in a row",
		 dl_policy_name(current), dl_policy_name(c->policy), c->gain,
		 *streak, confirm);
	c->policy = current;
	c->switched = false;
	c->reason = DL_PF_KEEP_CONFIRM;
}
