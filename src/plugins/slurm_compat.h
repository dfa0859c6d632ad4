/*
 * slurm_compat.h - what differs between the Slurm versions the plugins are
 * built against, in one place, keyed on SLURM_VERSION_NUMBER.
 *
 * The plugins are written against the newest API (list_t, list_itr_t,
 * job_details_t, job_modify() with an error message); this header supplies
 * it on older versions, so the plugin sources carry no version tests.  Each
 * difference, the version that brought it and how it was checked is in
 * doc/slurm-versions.md.  Tested: 22.05.8 and 24.11.5; 23.02 to 24.05 are
 * followed from SchedMD's release tags but not built here.
 */
#ifndef DL_SLURM_COMPAT_H
#define DL_SLURM_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/list.h"
#include "src/slurmctld/slurmctld.h"

#define DL_SLURM_AT_LEAST(major, minor, micro)                                 \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(major, minor, micro))

#if !DL_SLURM_AT_LEAST(22, 5, 0)
#error "slurm-deadline needs Slurm 22.05 or later (doc/slurm-versions.md)"
#endif

/* 23.02 added list_t and list_itr_t next to List and ListIterator; 24.11
 * removed the old names. */
#if !DL_SLURM_AT_LEAST(23, 2, 0)
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
/* 23.02 named struct job_details job_details_t (24.05: the struct has no
 * tag any more). */
typedef struct job_details job_details_t;
#endif

/*
 * job_submit's job_modify() gained `char **err_msg` (the message scontrol
 * update shows) in 23.02.  DL_JOB_MODIFY_ARGS is the parameter list of the
 * version built for; DL_JOB_MODIFY_ERR_MSG the err_msg to pass on (NULL
 * where Slurm has none).
 */
#if DL_SLURM_AT_LEAST(23, 2, 0)
#define DL_JOB_MODIFY_ARGS                                                     \
	job_desc_msg_t *job_desc, job_record_t *job_ptr, uint32_t submit_uid,  \
		char **err_msg
#define DL_JOB_MODIFY_ERR_MSG err_msg
#else
#define DL_JOB_MODIFY_ARGS                                                     \
	job_desc_msg_t *job_desc, job_record_t *job_ptr, uint32_t submit_uid
#define DL_JOB_MODIFY_ERR_MSG NULL
#endif

/*
 * The priorities a job has per partition (24.11: per partition x QOS, the
 * order in which slurmctld's queue builder walks part_ptr_list, then
 * qos_list), which the scheduler sorts by instead of job_ptr->priority
 * when the job may run in more than one.  A priority the plugin sets must
 * go into every entry.  Until 23.11 the array hangs off the job record,
 * from 24.05 off job_ptr->part_prio, renamed job_ptr->prio_mult in 24.11.7
 * (and 25.05.1); from 24.11 it has one entry per partition x QOS pair (a
 * missing list counts as one).  Returns NULL and *n = 0 when the job has
 * none.  Job lock held.
 */
#if (DL_SLURM_AT_LEAST(24, 11, 7) && !DL_SLURM_AT_LEAST(25, 5, 0)) ||          \
	DL_SLURM_AT_LEAST(25, 5, 1)
#define DL_PRIO_MULT(job_ptr) ((job_ptr)->prio_mult)
#else
#define DL_PRIO_MULT(job_ptr) ((job_ptr)->part_prio)
#endif
static inline uint32_t *dl_priority_array(job_record_t *job_ptr, int *n)
{
	int parts, qos;

	*n = 0;
	if (!job_ptr)
		return NULL;
	parts = job_ptr->part_ptr_list ? list_count(job_ptr->part_ptr_list) : 0;
#if DL_SLURM_AT_LEAST(24, 11, 0)
	qos = job_ptr->qos_list ? list_count(job_ptr->qos_list) : 0;
	if (!DL_PRIO_MULT(job_ptr) || !DL_PRIO_MULT(job_ptr)->priority_array ||
	    (parts <= 0 && qos <= 0))
		return NULL;
	*n = (parts > 0 ? parts : 1) * (qos > 0 ? qos : 1);
	return DL_PRIO_MULT(job_ptr)->priority_array;
#elif DL_SLURM_AT_LEAST(24, 5, 0)
	(void) qos;
	if (!job_ptr->part_prio || !job_ptr->part_prio->priority_array ||
	    parts <= 0)
		return NULL;
	*n = parts;
	return job_ptr->part_prio->priority_array;
#else
	(void) qos;
	if (!job_ptr->priority_array || parts <= 0)
		return NULL;
	*n = parts;
	return job_ptr->priority_array;
#endif
}

/*
 * From 23.11 `scontrol reconfigure` (and SIGHUP) starts a new slurmctld
 * (fork + exec) that loads every plugin afresh, and tells it so with
 * SLURMCTLD_RECONF in its environment; the old process waits for it and
 * carries on (its sched plugin re-initialised) if it fails.  Until 23.02
 * reconfigure stays in the process: sched_p_reconfig(), no init().
 */
#define DL_RECONFIGURE_REEXECS DL_SLURM_AT_LEAST(23, 11, 0)

#endif
