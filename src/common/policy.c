/*
 * policy.c - dispatch to the configured policy and shared input checks.
 */
#include "common/policy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "common/policy_adaptive.h"
#include "common/policy_ras.h"
#include "common/policy_reverse.h"
#include "common/policy_realtime.h"

int dl_policy_check_input(const struct dl_policy_input *in, char *err,
			  size_t errlen)
{
	if (!in || !in->cluster || !in->cfg) {
		snprintf(err, err ? errlen : 0,
			 "policy input needs a cluster and a configuration");
		return EINVAL;
	}
	if (!isfinite(in->now) || in->now < 0) {
		snprintf(err, err ? errlen : 0, "invalid current time");
		return EINVAL;
	}
	if (in->njobs && !in->jobs) {
		snprintf(err, err ? errlen : 0, "%u jobs but no job array",
			 in->njobs);
		return EINVAL;
	}
	if (in->cluster->nnodes && !in->cluster->nodes) {
		snprintf(err, err ? errlen : 0, "cluster without node table");
		return EINVAL;
	}
	for (uint32_t i = 0; i < in->njobs; i++) {
		if (!in->jobs[i]) {
			snprintf(err, err ? errlen : 0, "job %u is NULL", i);
			return EINVAL;
		}
		if (dl_job_validate(in->jobs[i], in->cluster, err, errlen))
			return EINVAL;
	}
	return 0;
}

struct dl_plan *dl_policy_plan(const struct dl_policy_input *in, char *err,
			       size_t errlen)
{
	if (!in || !in->cfg) {
		snprintf(err, err ? errlen : 0, "no policy input");
		return NULL;
	}
	switch (in->cfg->policy) {
	case DL_POLICY_ADAPTIVE:
		return dl_adaptive_plan(in, err, errlen);
	case DL_POLICY_RAS:
		return dl_ras_plan(in, err, errlen);
	case DL_POLICY_REVERSE:
		return dl_reverse_plan(in, err, errlen);
	case DL_POLICY_REALTIME:
		return dl_realtime_plan(in, err, errlen);
	default:
		snprintf(err, err ? errlen : 0, "policy %s is not available",
			 dl_policy_name(in->cfg->policy));
		return NULL;
	}
}
