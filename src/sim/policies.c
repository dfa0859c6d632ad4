/*
 * policies.c - the registry of policies the simulator can run.
 *
 * The project's policies come from the core through dl_policy_plan() (the
 * same entry point the sched plugin calls); the baselines through
 * dl_baseline_plan().  The admission-based policies (realtime, rtmr, dc)
 * translate in admission.c.
 */
#include "sim/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/compare/baseline.h"
#include "common/portfolio/portfolio.h"
#include "common/simulate/core_policy.h"
#include "sim/admission.h"

static struct dl_plan *baseline_plan(void *state, const struct sim_policy *self,
				     struct sim_engine *eng,
				     const struct dl_policy_input *in,
				     char *err, size_t errlen)
{
	(void) state;
	(void) eng;
	return dl_baseline_plan((enum dl_baseline) self->arg, in, err, errlen);
}

/* Slurm as shipped: no plugin, so no plan -- every array keeps Slurm's
 * own priority (submission order) and no throttle. */
static struct dl_plan *slurm_plan(void *state, const struct sim_policy *self,
				  struct sim_engine *eng,
				  const struct dl_policy_input *in, char *err,
				  size_t errlen)
{
	struct dl_plan *plan = dl_plan_new(0);

	(void) state;
	(void) self;
	(void) eng;
	if (!plan) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	plan->now = in->now;
	plan->policy = DL_POLICY_COUNT; /* none of deadline.conf's */
	return plan;
}

/* Policy=portfolio: the core's driver, its state per run */
static int portfolio_init(const struct sim_policy *self, struct sim_engine *eng,
			  void **state, char *err, size_t errlen)
{
	struct dl_pf_state *st = calloc(1, sizeof(*st));

	(void) self;
	(void) eng;
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return ENOMEM;
	}
	dl_pf_state_init(st);
	*state = st;
	return 0;
}

static void portfolio_fini(void *state)
{
	dl_pf_state_free(state);
	free(state);
}

static struct dl_plan *portfolio_plan(void *state,
				      const struct sim_policy *self,
				      struct sim_engine *eng,
				      const struct dl_policy_input *in,
				      char *err, size_t errlen)
{
	struct dl_config cfg = *in->cfg;
	struct dl_policy_input copy = *in;

	(void) self;
	(void) eng;
	cfg.policy = DL_POLICY_PORTFOLIO;
	copy.cfg = &cfg;
	return dl_pf_plan(state, &copy, err, errlen);
}

/* deadline-sim's own entries, listed after the core's planning policies
 * (sim_core_policy_at) */
static const struct sim_policy registry[] = {
	{.name = "portfolio",
	 .summary = "the best of PortfolioPolicies by simulation every "
		    "PortfolioInterval, with hysteresis (core)",
	 .forecast = true,
	 .on_request = true,
	 .init = portfolio_init,
	 .fini = portfolio_fini,
	 .plan = portfolio_plan},
	{.name = "realtime",
	 .summary = "admission control with guaranteed deadlines, EDF + "
		    "reduce reservation (core)",
	 .admission = true,
	 .init = sim_adm_init,
	 .fini = sim_adm_fini,
	 .admit = sim_adm_admit,
	 .plan = sim_adm_plan,
	 .task_end = sim_adm_task_end,
	 .job_end = sim_adm_job_end,
	 .may_start = sim_adm_may_start,
	 .arg = SIM_ADM_REALTIME},
	{.name = "rtmr",
	 .summary = "RTMR as published: EDF-position admission, growing "
		    "c^max (core)",
	 .admission = true,
	 .init = sim_adm_init,
	 .fini = sim_adm_fini,
	 .admit = sim_adm_admit,
	 .plan = sim_adm_plan,
	 .task_end = sim_adm_task_end,
	 .job_end = sim_adm_job_end,
	 .may_start = sim_adm_may_start,
	 .arg = SIM_ADM_RTMR},
	{.name = "dc",
	 .summary = "Kc & Anyanwu's Deadline Constraint test, EDF (core)",
	 .admission = true,
	 .typed_only = true,
	 .init = sim_adm_init,
	 .fini = sim_adm_fini,
	 .admit = sim_adm_admit,
	 .plan = sim_adm_plan,
	 .task_end = sim_adm_task_end,
	 .job_end = sim_adm_job_end,
	 .arg = SIM_ADM_DC},
	{.name = "fifo",
	 .summary = "submission order, no throttle (Hadoop FIFO; Slurm's "
		    "priority/basic without the plugin)",
	 .slurm_only = true,
	 .plan = slurm_plan},
	{.name = "fair",
	 .summary = "max-min equal share per partition (Hadoop Fair)",
	 .plan = baseline_plan,
	 .arg = DL_BASE_FAIR},
	{.name = "slurm",
	 .summary = "Slurm as shipped: priority/basic + backfill, deadlines "
		    "as --deadline",
	 .hard_deadlines = true,
	 .slurm_only = true,
	 .plan = slurm_plan},
	{.name = "aria",
	 .summary = "ARIA-style minimum slots, EDF order",
	 .plan = baseline_plan,
	 .arg = DL_BASE_ARIA},
};

size_t sim_policy_count(void)
{
	return sim_core_policy_count() + sizeof(registry) / sizeof(*registry);
}

const struct sim_policy *sim_policy_at(size_t i)
{
	size_t ncore = sim_core_policy_count();

	if (i < ncore)
		return sim_core_policy_at(i);
	return i < sim_policy_count() ? &registry[i - ncore] : NULL;
}

const struct sim_policy *sim_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sim_policy_count(); i++)
		if (!strcasecmp(sim_policy_at(i)->name, name))
			return sim_policy_at(i);
	return NULL;
}

bool sim_policy_available(const struct sim_policy *p, char *why, size_t whylen)
{
	struct dl_cluster cl;
	struct dl_config cfg;
	struct dl_policy_input in;
	struct dl_plan *plan;
	char err[256] = "";

	if (!p)
		return false;
	if (p->plan != sim_core_plan)
		return true;
	/* ask the core with an empty cluster: a policy it does not
	 * implement yet answers "not available" */
	if (dl_cluster_init(&cl, 1) || dl_config_defaults(&cfg)) {
		snprintf(why, whylen, "out of memory");
		dl_cluster_free(&cl);
		return false;
	}
	dl_cluster_add_partition(&cl, "batch");
	dl_node_set(&cl.nodes[0], "n1", 1, 1000, DL_POOL_REGULAR);
	dl_partset_add(&cl.nodes[0].partitions, 0);
	cl.nodes[0].up = true;
	cfg.policy = (enum dl_policy) p->arg;
	memset(&in, 0, sizeof(in));
	in.cluster = &cl;
	in.cfg = &cfg;
	plan = dl_policy_plan(&in, err, sizeof(err));
	dl_plan_free(plan);
	dl_config_free(&cfg);
	dl_cluster_free(&cl);
	if (!plan)
		snprintf(why, whylen, "%s", err);
	return plan != NULL;
}
