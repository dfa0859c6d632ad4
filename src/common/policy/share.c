/*
 * policy/share.c - the MaxDeadlineShare cap (see share.h).
 */
#include "common/policy/share.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct account_claim {
	const char *account;
	uint32_t part;
	double claimed;
};

int dl_share_cap(struct dl_share_claim *claims, uint32_t n,
		 const struct dl_capacity *cap, const struct dl_config *cfg)
{
	struct account_claim *acc;
	uint32_t nacc = 0;

	if (!claims || !cap || !cfg || !(cfg->max_deadline_share < 1))
		return 0;
	acc = calloc(n ? n : 1, sizeof(*acc));
	if (!acc)
		return ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		struct dl_share_claim *j = &claims[k];
		const char *name;
		struct account_claim *c = NULL;
		double limit;

		if (!j->managed || !j->job)
			continue;
		name = j->job->account ? j->job->account : "";
		for (uint32_t i = 0; i < nacc; i++)
			if (acc[i].part == j->job->partition &&
			    !strcmp(acc[i].account, name)) {
				c = &acc[i];
				break;
			}
		if (!c) {
			c = &acc[nacc++];
			c->account = name;
			c->part = j->job->partition;
		}
		limit = cfg->max_deadline_share *
			dl_capacity_slots(cap, j->job->partition, -1, j->cpu,
					  j->mem, true);
		if (c->claimed + j->want > limit + 1e-9) {
			j->managed = false;
			if (j->out) {
				j->out->verdict = DL_VERDICT_CAPPED;
				j->out->cls = DL_CLASS_UNMANAGED;
				snprintf(j->out->explain,
					 sizeof(j->out->explain),
					 "account %s would claim %.0f of %.0f "
					 "slots in its partition "
					 "(MaxDeadlineShare %.0f%%): scheduled "
					 "as a job without deadline",
					 name[0] ? name : "(none)",
					 c->claimed + j->want,
					 limit / cfg->max_deadline_share,
					 cfg->max_deadline_share * 100);
			}
			continue;
		}
		c->claimed += j->want;
	}
	free(acc);
	return 0;
}
