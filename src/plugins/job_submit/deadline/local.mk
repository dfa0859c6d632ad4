# JobSubmitPlugins=deadline: deadline input checks for every policy and, with
# Policy=realtime, admission control at submit (doc/job-submit-deadline.md).
# Built like sched/deadline (configured Slurm tree of the installed version,
# Slurm's symbols from slurmctld, libdeadline shared so both plugins use the
# one admitted set).  deadline.conf is read with sched/deadline's reader.
JOB_SUBMIT_DEADLINE_SRC = \
	src/plugins/job_submit/deadline/job_submit_deadline.c \
	src/plugins/sched/deadline/conf.c \
	src/plugins/sched/deadline/last_good.c \
	src/plugins/sched/deadline/log_sink.c \
	src/plugins/slurm_compat.h
if BUILD_PLUGINS
slurmplugin_LTLIBRARIES += src/plugins/job_submit/deadline/job_submit_deadline.la
src_plugins_job_submit_deadline_job_submit_deadline_la_SOURCES = \
	$(JOB_SUBMIT_DEADLINE_SRC)
src_plugins_job_submit_deadline_job_submit_deadline_la_CPPFLAGS = \
	-I$(top_srcdir)/src -I$(top_srcdir)/src/plugins/sched/deadline \
	$(SLURM_PLUGIN_CFLAGS) -D_GNU_SOURCE
src_plugins_job_submit_deadline_job_submit_deadline_la_CFLAGS = \
	$(SCHED_DEADLINE_WARN) -pthread
src_plugins_job_submit_deadline_job_submit_deadline_la_LDFLAGS = -module \
	-avoid-version -shared -Wl,-rpath,$(libdir)
src_plugins_job_submit_deadline_job_submit_deadline_la_LIBADD = \
	src/common/libdeadline.la
endif
dist_doc_DATA += doc/job-submit-deadline.md
