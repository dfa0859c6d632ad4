/*
 * policy.c - dispatch to the configured policy.  The policies depend on
 * policy/input.h, never on this file, so the dispatcher sits above them.
 */
#include "common/policy/policy.h"
#include "common/model/nodeset.h"

#include <errno.h>
#include <stdio.h>

#include "common/policy/adaptive.h"
#include "common/policy/ras.h"
#include "common/policy/reverse.h"
#include "common/policy/triage.h"
#include "common/policy/width_limit.h"
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

struct dl_plan *dl_policy_plan(const struct dl_policy_input *in, char *err,
			       size_t errlen)
{
	struct dl_plan *plan;

	if (!in || !in->cfg) {
		snprintf(err, err ? errlen : 0, "no policy input");
		return NULL;
	}
	plan = plan_with(in, err, errlen);
	/* realtime's guarantee rests on the widths it sets: it does not
	 * judge an array with a limit of its own (realtime.md) */
	if (plan && in->cfg->policy != DL_POLICY_REALTIME &&
	    dl_plan_limit_widths(plan, in))
		dl_plan_finalize(plan);
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
