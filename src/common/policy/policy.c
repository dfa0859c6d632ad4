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

/* The entry of a job the plan leaves to Slurm: what it is and its goal,
 * no prediction; `span` says how far its deadline is. */
static void set_aside_entry(struct dl_plan_job *o, const struct dl_job *job,
			    const struct dl_policy_input *in, char *span,
			    size_t spanlen)
{
	struct dl_goal goal;

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
	if (!(o->deadline > 0))
		snprintf(span, spanlen, "no deadline");
	else if (o->deadline >= in->now) {
		dl_format_span(o->deadline - in->now, span, spanlen);
		strncat(span, " to its deadline", spanlen - strlen(span) - 1);
	} else {
		dl_format_span(in->now - o->deadline, span, spanlen);
		strncat(span, " past its deadline", spanlen - strlen(span) - 1);
	}
}

static void on_hold_entry(struct dl_plan_job *o, const struct dl_job *job,
			  const struct dl_policy_input *in)
{
	uint32_t held = dl_job_held(job);
	uint32_t pending = dl_phase_pending(&job->phase[DL_MAP]) +
			   dl_phase_pending(&job->phase[DL_REDUCE]);
	char span[48], count[64];

	set_aside_entry(o, job, in, span, sizeof(span));
	o->verdict = DL_VERDICT_ON_HOLD;
	if (held < pending)
		snprintf(count, sizeof(count), "%u of its %u unstarted tasks",
			 held, pending);
	else
		snprintf(count, sizeof(count), "its %u unstarted task%s", held,
			 held == 1 ? "" : "s");
	dl_plan_explain(o,
			"held: %s %s for a user or an admin to release %s "
			"(scontrol release); the plan leaves the job to Slurm "
			"until then (%s)",
			count, held == 1 ? "waits" : "wait",
			held == 1 ? "it" : "them", span);
}

/* Triage and edf start deferred tasks at their begin time in their own
 * lookahead (dl_la_defer); the papers' policies know nothing of begin
 * times and would promise a finish Slurm cannot give. */
static bool models_deferral(enum dl_policy policy)
{
	return policy == DL_POLICY_TRIAGE || policy == DL_POLICY_EDF;
}

/* The earliest a job with tasks deferred to a begin time can end: a
 * deferred task ends no sooner than its begin time plus a task of its
 * phase (mu for `phase`, the active one).  *never when a begin time is
 * past its phase's start window (Slurm cancels the tasks).  -INFINITY
 * when nothing is deferred. */
static double begin_bound(const struct dl_job *job, int phase, double mu,
			  double now, bool *never)
{
	double earliest = -INFINITY;

	*never = false;
	for (int p = 0; p < DL_PHASES; p++) {
		const struct dl_phase *ph = &job->phase[p];
		double end = ph->deferred_until;

		if (!ph->deferred || !(ph->deferred_until > now))
			continue;
		if (ph->hard_deadline > 0 && ph->time_limit > 0 &&
		    ph->deferred_until > ph->hard_deadline - ph->time_limit)
			*never = true;
		if (phase == p && mu > 0 && isfinite(mu))
			end += mu;
		if (end > earliest)
			earliest = end;
	}
	return earliest;
}

/* Whether the begin times alone rule the deadline out. */
static bool begin_too_late(const struct dl_job *job, double earliest,
			   bool never)
{
	double deadline = dl_job_deadline(job);

	return never || (deadline > 0 && earliest > deadline);
}

/* What a policy that ignores begin times predicts is bounded by them
 * (begin_bound).  A job on track or at risk that cannot make its deadline
 * so is late.  Returns whether a verdict changed. */
static bool bound_by_begin(struct dl_plan_job *o, const struct dl_job *job,
			   double now)
{
	bool never;
	double earliest = begin_bound(job, o->phase, o->mu, now, &never);

	if (earliest == -INFINITY)
		return false;
	if (isfinite(o->predicted_finish) && o->predicted_finish < earliest)
		o->predicted_finish = earliest;
	if ((o->verdict != DL_VERDICT_ON_TRACK &&
	     o->verdict != DL_VERDICT_AT_RISK) ||
	    !begin_too_late(job, earliest, never))
		return false;
	o->verdict = DL_VERDICT_LATE;
	return true;
}

/* Late already when its begin time and a task pass the deadline, or the
 * begin time the start window of Slurm's hard deadline. */
static void waiting_entry(struct dl_plan_job *o, const struct dl_job *job,
			  const struct dl_policy_input *in, double begin)
{
	char span[48], wait[24];
	double earliest;
	bool never, late;

	set_aside_entry(o, job, in, span, sizeof(span));
	earliest = begin_bound(job, o->phase, o->mu, in->now, &never);
	late = begin_too_late(job, earliest, never);
	o->verdict = late ? DL_VERDICT_LATE : DL_VERDICT_WAITING;
	dl_format_span(begin - in->now, wait, sizeof(wait));
	dl_plan_explain(o,
			"waiting for its begin time, in %s: no task may start "
			"before it (sbatch --begin); the plan judges the job "
			"from then (%s)%s",
			wait, span,
			!late   ? ""
			: never ? ": too late, past the last start Slurm "
				  "allows before its deadline"
				: ": too late for its deadline");
}

/* Why a job is in no plan (realtime keeps every job: the admitted set
 * holds its guarantee's capacity whatever the job's state).
 *
 * A job with tasks a user or an admin holds cannot finish before someone
 * releases them, and nothing says when that will be: planned, it would be
 * promised a finish it cannot have and would take from the others capacity
 * it cannot use.  It is shown on_hold, and its running tasks hold their
 * CPUs and memory until Slurm expects them back (start + time limit), as
 * the tasks of any job the plan does not manage do
 * (dl_cluster_hold_running).
 *
 * A job that has not begun (dl_job_begin_ahead) is judged from its begin
 * time, as if submitted then: knowing it earlier must never cost a
 * deadline.  Planned before it could start, triage gave up jobs present
 * for it, or it for them on a guess of what else would come by then, and
 * the papers' policies set slots aside that it could not use (reverse
 * family, every job submitted a day before its begin time: triage 42
 * missed against 28, adaptive 394 against 65; sim-summary.md, update
 * (46)).  It runs nothing, so it holds no capacity. */
enum set_aside { PLANNED = 0, ON_HOLD, WAITING };

static enum set_aside set_aside_why(const struct dl_policy_input *in,
				    const struct dl_job *job)
{
	if (in->cfg->policy == DL_POLICY_REALTIME || !job)
		return PLANNED;
	if (dl_job_held(job))
		return ON_HOLD;
	return dl_job_begin_ahead(job, in->now) > 0 ? WAITING : PLANNED;
}

/* The plan of the other jobs, then an entry for each job set aside. */
static struct dl_plan *plan_set_aside(const struct dl_policy_input *in,
				      uint32_t naside, char *err, size_t errlen)
{
	struct dl_policy_input planned = *in;
	struct dl_cluster view;
	struct dl_job **jobs;
	struct dl_plan *plan = NULL;
	struct dl_plan_job *grown;
	uint32_t n = 0, first;

	if (dl_policy_check_input(in, err, errlen))
		return NULL;
	jobs = malloc((in->njobs - naside ? in->njobs - naside : 1) *
		      sizeof(*jobs));
	if (!jobs || dl_cluster_view(&view, in->cluster)) {
		free(jobs);
		snprintf(err, err ? errlen : 0, "out of memory");
		return NULL;
	}
	for (uint32_t i = 0; i < in->njobs; i++) {
		enum set_aside why = set_aside_why(in, in->jobs[i]);

		if (why == PLANNED)
			jobs[n++] = in->jobs[i];
		else if (why == ON_HOLD &&
			 dl_cluster_hold_running(&view, in->jobs[i]))
			goto nomem;
	}
	planned.jobs = jobs;
	planned.njobs = n;
	planned.cluster = &view;
	plan = plan_with(&planned, err, errlen);
	if (!plan)
		goto out;
	first = plan->njobs;
	grown = realloc(plan->jobs, (first + naside) * sizeof(*plan->jobs));
	if (!grown)
		goto nomem;
	plan->jobs = grown;
	plan->njobs = first + naside;
	for (uint32_t i = 0, k = first; i < in->njobs; i++)
		switch (set_aside_why(in, in->jobs[i])) {
		case ON_HOLD:
			on_hold_entry(&plan->jobs[k++], in->jobs[i], in);
			break;
		case WAITING:
			waiting_entry(&plan->jobs[k++], in->jobs[i], in,
				      dl_job_begin_ahead(in->jobs[i], in->now));
			break;
		case PLANNED:
			break;
		}
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
		/* a job waiting whole for its begin time says so itself */
		if (!n || set_aside_why(in, job) == WAITING ||
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
	uint32_t naside = 0;

	if (!in || !in->cfg) {
		snprintf(err, err ? errlen : 0, "no policy input");
		return NULL;
	}
	for (uint32_t i = 0; in->jobs && i < in->njobs; i++)
		naside += set_aside_why(in, in->jobs[i]) != PLANNED;
	if (naside) {
		plan = plan_set_aside(in, naside, err, errlen);
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
