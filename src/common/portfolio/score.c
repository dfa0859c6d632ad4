/*
 * score.c - the portfolio's score of a simulated run.
 */
#include "common/portfolio/score.h"

#include <math.h>
#include <string.h>

double dl_bounded_slowdown(double arrival, double finish, double isolated)
{
	double floor_s = isolated > DL_BSLD_MIN_S ? isolated : DL_BSLD_MIN_S;
	double sd = (finish - arrival) / floor_s;

	return sd > 1 ? sd : 1;
}

void dl_pf_tally_add(struct dl_pf_tally *t, double arrival, double deadline,
		     bool met, double finish, double isolated, double end)
{
	if (!t)
		return;
	if (!isfinite(finish))
		finish = end;
	if (deadline > 0) {
		t->deadline_jobs++;
		if (!met)
			t->missed++;
		if (isfinite(finish) && finish > deadline)
			t->tardiness_s += finish - deadline;
		return;
	}
	t->other_jobs++;
	if (isfinite(finish))
		t->bsld_sum += dl_bounded_slowdown(arrival, finish, isolated);
	else
		t->bsld_sum += 1;
}

void dl_pf_tally_merge(struct dl_pf_tally *a, const struct dl_pf_tally *b)
{
	if (!a || !b)
		return;
	a->deadline_jobs += b->deadline_jobs;
	a->missed += b->missed;
	a->tardiness_s += b->tardiness_s;
	a->other_jobs += b->other_jobs;
	a->bsld_sum += b->bsld_sum;
}

static double weight(double w)
{
	return isfinite(w) && w > 0 ? w : 0;
}

void dl_pf_score_of(const struct dl_pf_tally *t, const struct dl_pf_weights *w,
		    struct dl_pf_score *out)
{
	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	out->bsld = 1;
	if (!t || !w)
		return;
	if (t->deadline_jobs) {
		out->missed_pct = 100.0 * t->missed / t->deadline_jobs;
		out->tardiness_min = t->tardiness_s / t->deadline_jobs / 60.0;
	}
	if (t->other_jobs)
		out->bsld = t->bsld_sum / t->other_jobs;
	out->total = weight(w->missed) * out->missed_pct +
		     weight(w->lateness) * out->tardiness_min +
		     weight(w->slowdown) * (out->bsld - 1);
}
