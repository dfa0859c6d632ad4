/*****************************************************************************\
 *  select_affinity.h - data affinity in select/deadline: the --input-nodes
 *  hint of a deadline array task turned into Slurm node bitmaps, and Polo's
 *  decision (common/affinity.h) with its deferral memory.  See
 *  doc/data-affinity.md.
 *
 *  Everything here runs in slurmctld under its job and node locks (from
 *  select_p_job_test / job_begin): in-memory work only, no I/O.
\*****************************************************************************/

#ifndef SELECT_AFFINITY_H
#define SELECT_AFFINITY_H

#include <stdbool.h>
#include <stdint.h>

#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

#include "common/policy/affinity.h"

/* What the current plan says about the array of a task. */
struct sd_aff_plan {
	bool managed;     /* the plan manages the array */
	double need;      /* concurrency that meets the phase goal; NaN:
			     unknown (no task length yet, another phase) */
	uint32_t running; /* the phase's running tasks at plan time */
	uint64_t cycle;
};

/* The preferred nodes, within avail, of the task job_ptr would start (a
 * new bitmap, possibly empty), or NULL when the hint does not apply: no
 * --input-nodes, none for this task, no deadline, a --nodelist of its
 * own.  Applies whether or not the plan manages the array yet.  *usable:
 * some preferred node is in the job's partition and not down, drained or
 * failed (else waiting for them is pointless). */
bitstr_t *sd_affinity_local(job_record_t *job_ptr, bitstr_t *avail,
			    bool *usable);

/* No preferred node had room: defer (count one deferral for the attempt)
 * or run anywhere.  Logs the decision (debug, or info with
 * DebugFlags=SelectType). */
enum dl_affinity sd_affinity_no_local(job_record_t *job_ptr,
				      const struct sd_aff_plan *plan);

/* A task started on preferred nodes (log and count). */
void sd_affinity_local_start(job_record_t *job_ptr);

/* job_begin: count the start as local or remote, forget its deferrals. */
void sd_affinity_started(job_record_t *job_ptr);

/* A new plan: forget the arrays keep() rejects (logging the summary of an
 * array that had the hint, unless logged when its last task started). */
void sd_affinity_retain(bool (*keep)(uint64_t array_id, void *ctx), void *ctx);

/* The node table may have changed: drop the node bitmaps. */
void sd_affinity_nodes_changed(void);

/* Statistics for the plugin's last log line; frees everything. */
void sd_affinity_fini(void);

#endif
