/*
 * policy.c - dispatch to the configured policy.  The policies depend on
 * policy/input.h, never on this file, so the dispatcher sits above them.
 */
#include "common/policy/policy.h"
#include "common/model/nodeset.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/policy/adaptive.h"
#include "common/policy/ras.h"
#include "common/policy/reverse.h"
#include "common/policy/triage.h"
#include "common/policy/width_limit.h"
#include "common/estimate/goal.h"
#include "common/io/timefmt.h"
#include "common/realtime/plan_cycle.h"

static struct dl_plan *plan_with(const struct dl_policy_input *in, char *err,
				 size_t errlen)
{
	switch (in->cfg->policy) {
	case DL_POLICY_ADAPTIVE:
		return dl_adaptive_plan(in, err, errlen);
	case DL_POLICY_RAS:
		return dl_ras_plan(in, err, errlen);
	case DL_POLICY_REVERSE:
		return dl_reverse_plan(in, err, errlen);
	case DL_POLICY_REALTIME:
		return dl_realtime_plan(in, err, errlen);
	case DL_POLICY_TRIAGE:
		return dl_triage_plan(in, err, errlen);
	case DL_POLICY_EDF:
		return dl_edf_plan(in, err, errlen);
	case DL_POLICY_PORTFOLIO:
		/* it plans with one of the others: its state and rounds are
		 * portfolio/portfolio.c's, which calls back here */
		snprintf(err, err ? errlen : 0,
			 "Policy=portfolio plans through dl_pf_plan");
		return NULL;
	default:
		snprintf(err, err ? errlen : 0, "policy %s is not available",
			 dl_policy_name(in->cfg->policy));
		return NULL;
	}
}

static void on_hold_entry(struct dl_plan_job *o, const struct dl_job *job,
			  const struct dl_policy_input *in)
{
	uint32_t held = dl_job_held(job);
	uint32_t pending = dl_phase_pending(&job->phase[DL_MAP]) +
			   dl_phase_pending(&job->phase[DL_REDUCE]);
	struct dl_goal goal;
	char span[48], count[64];

	memset(o, 0, sizeof(*o));
	memset(&goal, 0, sizeof(goal));
	dl_plan_job_describe(o, job);
	/* every reduce task at once: the goal is only shown */
	dl_phase_goal(job, in->now, job->phase[DL_REDUCE].tasks,
		      in->cfg->reduce_cost, &goal);
	o->phase = dl_job_active_phase(job);
	o->deadline = goal.job;
	o->goal = goal.phase;
	o->mu = goal.mu.mean;
	o->mu_sd = goal.mu.sd;
	dl_plan_copy_str(o->mu_source, sizeof(o->mu_source), goal.mu.label);
	o->predicted_finish = NAN;
	o->need = NAN;
	o->sreq = NAN;
	o->utility = NAN;
	o->sfit = NAN;
	o->cls = DL_CLASS_UNMANAGED;
	o->verdict = DL_VERDICT_ON_HOLD;
	if (held < pending)
		snprintf(count, sizeof(count), "%u of its %u unstarted tasks",
			 held, pending);
	else
		snprintf(count, sizeof(count), "its %u unstarted task%s", held,
			 held == 1 ? "" : "s");
	if (!(o->deadline > 0))
		snprintf(span, sizeof(span), "no deadline");
	else if (o->deadline >= in->now) {
		dl_format_span(o->deadline - in->now, span, sizeof(span));
		strncat(span, " to its deadline",
			sizeof(span) - strlen(span) - 1);
	} else {
		dl_format_span(in->now - o->deadline, span, sizeof(span));
		strncat(span, " past its deadline",
			sizeof(span) - strlen(span) - 1);
	}
	dl_plan_explain(o,
			"held: %s %s for a user or an admin to release %s "
			"(scontrol release); the plan leaves the job to Slurm "
			"until then (%s)",
			count, held == 1 ? "waits" : "wait",
			held == 1 ? "it" : "them", span);
}

/* A job with tasks a user or an admin holds cannot finish before someone
 * releases them, and nothing says when that will be: planned, it would be
 * promised a finish it cannot have and would take from the others capacity
 * it cannot use.  It is left out of the plan and shown as on_hold, and its
 * running tasks hold their CPUs and memory until Slurm expects them back
 * (start + time limit), as the tasks of any job the plan does not manage
 * do (dl_cluster_hold_running).  Policy=realtime keeps it: the admitted
 * set holds its guarantee's capacity whatever the job's state.
 *
 * The plan of the jobs no one holds, then an on_hold entry for each of the
 * others. */
static struct dl_plan *plan_around_holds(const struct dl_policy_input *in,
					 uint32_t nheld, char *err,
					 size_t errlen)
{
	struct dl_policy_input planned = *in;
	struct dl_cluster view;
	struct dl_job **jobs;
	struct dl_plan *plan = NULL;
	struct dl_plan_job *grown;
	uint32_t n = 0, first;

	if (dl_policy_check_input(in, err, errlen))
		return NULL;
	jobs = malloc((in->njobs - nheld ? in->njobs - nheld : 1) *
		      sizeof(*jobs));
	if (!jobs || dl_cluster_view(&view, in->cluster)) {
		free(jobs);
		snprintf(err, err ? errlen : 0, "out of memory");
		return NULL;
	}
	for (uint32_t i = 0; i < in->njobs; i++) {
		if (!dl_job_held(in->jobs[i]))
			jobs[n++] = in->jobs[i];
		else if (dl_cluster_hold_running(&view, in->jobs[i]))
			goto nomem;
	}
	planned.jobs = jobs;
	planned.njobs = n;
	planned.cluster = &view;
	plan = plan_with(&planned, err, errlen);
	if (!plan)
		goto out;
	first = plan->njobs;
	grown = realloc(plan->jobs, (first + nheld) * sizeof(*plan->jobs));
	if (!grown)
		goto nomem;
	plan->jobs = grown;
	plan->njobs = first + nheld;
	for (uint32_t i = 0, k = first; i < in->njobs; i++)
		if (dl_job_held(in->jobs[i]))
			on_hold_entry(&plan->jobs[k++], in->jobs[i], in);
	/* the entries added are indexed and counted here */
	dl_plan_limit_widths(plan, &planned);
	dl_plan_finalize(plan);
	goto out;
nomem:
	dl_plan_free(plan);
	plan = NULL;
	snprintf(err, err ? errlen : 0, "out of memory");
out:
	free(jobs);
	dl_cluster_view_free(&view);
	return plan;
}

/* Triage and edf start deferred tasks at their begin time in their own
 * lookahead (dl_la_defer); the papers' policies know nothing of begin
 * times and would promise a finish Slurm cannot give. */
static bool models_deferral(enum dl_policy policy)
{
	return policy == DL_POLICY_TRIAGE || policy == DL_POLICY_EDF;
}

/* What a policy that ignores begin times predicts is bounded by them: a
 * deferred task ends no sooner than its begin time plus a task of its
 * phase, and starts never when the begin time is past the phase's start
 * window (Slurm cancels it).  A job on track or at risk that cannot make
 * its deadline so is late.  Returns whether a verdict changed. */
static bool bound_by_begin(struct dl_plan_job *o, const struct dl_job *job,
			   double now)
{
	double earliest = -INFINITY, deadline = dl_job_deadline(job);
	bool never = false;

	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];
		double end = ph->deferred_until;

		if (!ph->deferred || !(ph->deferred_until > now))
			continue;
		if (ph->hard_deadline > 0 && ph->time_limit > 0 &&
		    ph->deferred_until > ph->hard_deadline - ph->time_limit)
			never = true;
		if (o->phase == p && o->mu > 0 && isfinite(o->mu))
			end += o->mu;
		if (end > earliest)
			earliest = end;
	}
	if (earliest == -INFINITY)
		return false;
	if (isfinite(o->predicted_finish) && o->predicted_finish < earliest)
		o->predicted_finish = earliest;
	if ((o->verdict != DL_VERDICT_ON_TRACK &&
	     o->verdict != DL_VERDICT_AT_RISK) ||
	    !(never || (deadline > 0 && earliest > deadline)))
		return false;
	o->verdict = DL_VERDICT_LATE;
	return true;
}

/* Each job with tasks deferred to a begin time says so after its
 * explanation, whatever the policy made of them, and under a policy that
 * ignores begin times is judged by them (bound_by_begin). */
static void note_deferred(struct dl_plan *plan,
			  const struct dl_policy_input *in)
{
	bool recount = false;

	for (uint32_t i = 0; i < in->njobs; i++) {
		const struct dl_job *job = in->jobs[i];
		uint32_t n = 0;
		double until = 0;
		struct dl_plan_job *o;
		char span[24], was[sizeof(o->explain)];
		bool late;

		for (int p = 0; job && p < DL_PHASES; p++)
			if (job->phase[p].deferred &&
			    job->phase[p].deferred_until > in->now) {
				n += job->phase[p].deferred;
				if (job->phase[p].deferred_until > until)
					until = job->phase[p].deferred_until;
			}
		if (!n ||
		    !(o = (struct dl_plan_job *) dl_plan_find(plan, job->id)))
			continue;
		late = !models_deferral(in->cfg->policy) &&
		       bound_by_begin(o, job, in->now);
		recount |= late;
		dl_format_span(until - in->now, span, sizeof(span));
		memcpy(was, o->explain, sizeof(was));
		dl_plan_explain(o, "%s [%u task%s may start only in %s, %s%s]",
				was, n, n == 1 ? "" : "s", span,
				n == 1 ? "its begin time" : "their begin time",
				late ? ": too late for its deadline" : "");
	}
	if (recount)
		dl_plan_finalize(plan); /* the verdicts' counts */
}

struct dl_plan *dl_policy_plan(const struct dl_policy_input *in, char *err,
			       size_t errlen)
{
	struct dl_plan *plan;
	uint32_t nheld = 0;

	if (!in || !in->cfg) {
		snprintf(err, err ? errlen : 0, "no policy input");
		return NULL;
	}
	if (in->cfg->policy != DL_POLICY_REALTIME && in->jobs)
		for (uint32_t i = 0; i < in->njobs; i++)
			nheld += dl_job_held(in->jobs[i]) > 0;
	if (nheld) {
		plan = plan_around_holds(in, nheld, err, errlen);
	} else {
		plan = plan_with(in, err, errlen);
		/* realtime's guarantee rests on the widths it sets: it does
		 * not judge an array with a limit of its own (realtime.md) */
		if (plan && in->cfg->policy != DL_POLICY_REALTIME &&
		    dl_plan_limit_widths(plan, in))
			dl_plan_finalize(plan);
	}
	if (plan && in->jobs)
		note_deferred(plan, in);
	return plan;
}

int dl_policy_check_config(const struct dl_config *cfg, char *err,
			   size_t errlen)
{
	if (!cfg) {
		snprintf(err, err ? errlen : 0, "no configuration");
		return EINVAL;
	}
	if (cfg->node_io && cfg->node_io[0] &&
	    dl_node_io_check(cfg->node_io, err, errlen))
		return EINVAL;
	return 0;
}
