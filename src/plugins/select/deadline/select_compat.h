/*****************************************************************************\
 *  select_compat.h - the select plugin API of the Slurm version built for
 *  (doc/slurm-versions.md).  select/deadline delegates every operation to
 *  select/cons_tres through a table of Slurm's select_p_* symbols in the
 *  order slurmctld's select interface loads them:
 *
 *    22.05        36 operations; job_test ends with the core bitmap a
 *                 reservation excludes (exc_core_bitmap)
 *    23.02        32: job_signal, jobinfo_sprint, jobinfo_xstrdup and
 *                 update_node_config gone; select.h moved to src/interfaces
 *    23.11, 24.05 31: resv_test gone; job_test takes a resv_exc_t instead of
 *                 the bitmap (24.05: the table is private to select.c)
 *    24.11        31; job_test also takes a will_run_data_t
 *    25.05        12 operations, cons_tres recognised by its plugin id: not
 *                 supported (doc/slurm-versions.md says what it needs)
 *
 *  The operations some versions lack are in select_compat.c.
\*****************************************************************************/
#ifndef SELECT_COMPAT_H
#define SELECT_COMPAT_H

#include "plugins/slurm_compat.h"
#include "src/common/plugin.h"

#if DL_SLURM_AT_LEAST(25, 5, 0)
#error "select/deadline is not ported to the select API of Slurm 25.05+ (doc/slurm-versions.md)"
#endif

#if DL_SLURM_AT_LEAST(23, 2, 0)
#include "src/interfaces/select.h"
#else
#include "src/common/select.h"
#endif

/* operations a version has */
#define SD_HAS_2205_OPS  (!DL_SLURM_AT_LEAST(23, 2, 0))
#define SD_HAS_RESV_TEST (!DL_SLURM_AT_LEAST(23, 11, 0))

/* The tail of job_test's parameters, and the same names to pass on. */
#if DL_SLURM_AT_LEAST(24, 11, 0)
#define SD_JOB_TEST_EXC_ARGS resv_exc_t *resv_exc, will_run_data_t *will_run
#define SD_JOB_TEST_EXC      resv_exc, will_run
#elif DL_SLURM_AT_LEAST(23, 11, 0)
#define SD_JOB_TEST_EXC_ARGS resv_exc_t *resv_exc
#define SD_JOB_TEST_EXC      resv_exc
#else
#define SD_JOB_TEST_EXC_ARGS bitstr_t *exc_core_bitmap
#define SD_JOB_TEST_EXC      exc_core_bitmap
#endif

/* select/cons_tres's operations, in the order of sd_select_syms[]. */
typedef struct {
	uint32_t *plugin_id;
	int (*state_save)(char *dir_name);
	int (*state_restore)(char *dir_name);
	int (*job_init)(list_t *job_list);
	int (*node_init)(void);
	int (*job_test)(job_record_t *job_ptr, bitstr_t *bitmap,
			uint32_t min_nodes, uint32_t max_nodes,
			uint32_t req_nodes, uint16_t mode,
			list_t *preemptee_candidates,
			list_t **preemptee_job_list, SD_JOB_TEST_EXC_ARGS);
	int (*job_begin)(job_record_t *job_ptr);
	int (*job_ready)(job_record_t *job_ptr);
	int (*job_expand)(job_record_t *from_job_ptr, job_record_t *to_job_ptr);
	int (*job_resized)(job_record_t *job_ptr, node_record_t *node_ptr);
#if SD_HAS_2205_OPS
	int (*job_signal)(job_record_t *job_ptr, int signal);
#endif
	int (*job_fini)(job_record_t *job_ptr);
	int (*job_suspend)(job_record_t *job_ptr, bool indf_susp);
	int (*job_resume)(job_record_t *job_ptr, bool indf_susp);
	bitstr_t *(*step_pick_nodes)(job_record_t *job_ptr,
				     select_jobinfo_t *jobinfo,
				     uint32_t node_count,
				     bitstr_t **avail_nodes);
	int (*step_start)(step_record_t *step_ptr);
	int (*step_finish)(step_record_t *step_ptr, bool killing_step);
	int (*nodeinfo_pack)(select_nodeinfo_t *nodeinfo, buf_t *buffer,
			     uint16_t protocol_version);
	int (*nodeinfo_unpack)(select_nodeinfo_t **nodeinfo, buf_t *buffer,
			       uint16_t protocol_version);
	select_nodeinfo_t *(*nodeinfo_alloc)(void);
	int (*nodeinfo_free)(select_nodeinfo_t *nodeinfo);
	int (*nodeinfo_set_all)(void);
	int (*nodeinfo_set)(job_record_t *job_ptr);
	int (*nodeinfo_get)(select_nodeinfo_t *nodeinfo,
			    enum select_nodedata_type dinfo,
			    enum node_states state, void *data);
	select_jobinfo_t *(*jobinfo_alloc)(void);
	int (*jobinfo_free)(select_jobinfo_t *jobinfo);
	int (*jobinfo_set)(select_jobinfo_t *jobinfo,
			   enum select_jobdata_type data_type, void *data);
	int (*jobinfo_get)(select_jobinfo_t *jobinfo,
			   enum select_jobdata_type data_type, void *data);
	select_jobinfo_t *(*jobinfo_copy)(select_jobinfo_t *jobinfo);
	int (*jobinfo_pack)(select_jobinfo_t *jobinfo, buf_t *buffer,
			    uint16_t protocol_version);
	int (*jobinfo_unpack)(select_jobinfo_t **jobinfo, buf_t *buffer,
			      uint16_t protocol_version);
#if SD_HAS_2205_OPS
	char *(*jobinfo_sprint)(select_jobinfo_t *jobinfo, char *buf,
				size_t size, int mode);
	char *(*jobinfo_xstrdup)(select_jobinfo_t *jobinfo, int mode);
#endif
	int (*get_info_from_plugin)(enum select_plugindata_info dinfo,
				    job_record_t *job_ptr, void *data);
#if SD_HAS_2205_OPS
	int (*update_node_config)(int index);
#endif
	int (*reconfigure)(void);
#if SD_HAS_RESV_TEST
	bitstr_t *(*resv_test)(resv_desc_msg_t *resv_desc_ptr,
			       uint32_t node_cnt, bitstr_t *avail_bitmap,
			       bitstr_t **core_bitmap);
#endif
} sd_select_ops_t;

/*
 * Loading select/cons_tres: clients (sbatch, sinfo, and programs on the
 * public libslurm.so) load every select plugin, so the loader must be one
 * every Slurm library exports.  plugin_context_create() is not (24.11's
 * libslurm.so lacks it); the slurm_-prefixed plugin_load_and_link() and
 * plugin_unload() are, in 22.05 and 24.11, in libslurm.so and
 * libslurmfull.so alike (Slurm's own headers declare them only through
 * slurm_xlator.h).  The call also runs cons_tres's init(), the unload its
 * fini().
 */
extern plugin_handle_t slurm_plugin_load_and_link(const char *type_name,
						  int n_syms,
						  const char *names[],
						  void *ptrs[]);
extern void slurm_plugin_unload(plugin_handle_t plug);

/* select_compat.c: the symbol names, and their count */
extern const char *sd_select_syms[];
extern const size_t sd_select_nsyms;

/* select_deadline.c: cons_tres's table once loaded, and its loader
 * (SLURM_SUCCESS, or SLURM_ERROR when cons_tres cannot be loaded) */
extern sd_select_ops_t sd_ops;
extern int sd_other_init(void);

#endif
