/*****************************************************************************\
 *  select_compat.c - the names of select/cons_tres's operations for the
 *  Slurm version built for, and the operations only some versions have
 *  (select_compat.h).  These only pass the call on.
\*****************************************************************************/

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/slurmctld/slurmctld.h"

#include "select_compat.h"

/* The order of sd_select_ops_t (Slurm's own table in its select
 * interface). */
const char *sd_select_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
#if SD_HAS_2205_OPS
	"select_p_job_signal",
#endif
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
#if SD_HAS_2205_OPS
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
#endif
	"select_p_get_info_from_plugin",
#if SD_HAS_2205_OPS
	"select_p_update_node_config",
#endif
	"select_p_reconfigure",
#if SD_HAS_RESV_TEST
	"select_p_resv_test",
#endif
};
const size_t sd_select_nsyms = sizeof(sd_select_syms) / sizeof(*sd_select_syms);

_Static_assert(sizeof(sd_select_syms) / sizeof(*sd_select_syms) ==
		       sizeof(sd_select_ops_t) / sizeof(void *),
	       "operation names out of sync with sd_select_ops_t");

#if SD_HAS_2205_OPS
extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	if (sd_other_init() != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*(sd_ops.job_signal))(job_ptr, signal);
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	if (sd_other_init() != SLURM_SUCCESS)
		return NULL;
	return (*(sd_ops.jobinfo_sprint))(jobinfo, buf, size, mode);
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	if (sd_other_init() != SLURM_SUCCESS)
		return NULL;
	return (*(sd_ops.jobinfo_xstrdup))(jobinfo, mode);
}

extern int select_p_update_node_config(int index)
{
	if (sd_other_init() != SLURM_SUCCESS)
		return SLURM_ERROR;
	return (*(sd_ops.update_node_config))(index);
}
#endif

#if SD_HAS_RESV_TEST
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	if (sd_other_init() != SLURM_SUCCESS)
		return NULL;
	return (*(sd_ops.resv_test))(resv_desc_ptr, node_cnt, avail_bitmap,
				     core_bitmap);
}
#endif
