/*
 * realtime/dispatch.c - the reservation walk.
 */
#include "common/realtime/dispatch.h"

#include <stddef.h>

uint64_t dl_rt_walk(struct dl_rt_walk_job *jobs, uint32_t n,
		    uint64_t free_units)
{
	uint64_t reserved = 0, used = 0;
	uint32_t i;

	if (!jobs)
		return 0;
	for (i = 0; i < n; i++) {
		jobs[i].granted = 0;
		jobs[i].blocked = false;
	}
	for (i = 0; i < n; i++) {
		struct dl_rt_walk_job *j = &jobs[i];
		uint64_t c = j->cpus ? j->cpus : 1, fit;

		/* "if reservedSlot >= Ra then break" */
		if (reserved >= free_units)
			break;
		if (j->ready) {
			fit = (free_units - reserved) / c;
			j->granted = fit < j->ready ? (uint32_t) fit : j->ready;
			free_units -= (uint64_t) j->granted * c;
			used += (uint64_t) j->granted * c;
			if (j->granted < j->ready)
				break; /* its next task takes the free units */
		}
		/* nothing (more) ready: hold back its reduce units */
		reserved += j->reserve;
		if (reserved < j->reserve)
			reserved = UINT64_MAX;
	}
	for (; i < n; i++)
		jobs[i].blocked = true;
	return used;
}
