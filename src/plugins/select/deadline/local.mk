# SelectType=select/deadline: select/cons_tres with the ras/reverse
# placement enforced in job_test.  Built against the configured Slurm source
# tree like sched/deadline (no Slurm library linked; libdeadline shared so
# it sees the plan sched/deadline publishes).  Clients (sbatch, squeue,
# sinfo, scontrol, srun) dlopen every select_*.so: it must reference no
# slurmctld-only data symbol (doc/slurm-facts.md §4; checked by
# test/bats/select_clients.bats).
if BUILD_PLUGINS
slurmplugin_LTLIBRARIES += src/plugins/select/deadline/select_deadline.la
src_plugins_select_deadline_select_deadline_la_SOURCES = \
	src/plugins/select/deadline/select_deadline.c \
	src/plugins/select/deadline/select_affinity.c \
	src/plugins/select/deadline/select_affinity.h \
	src/plugins/select/deadline/select_compat.c \
	src/plugins/select/deadline/select_compat.h \
	src/plugins/slurm_compat.h
src_plugins_select_deadline_select_deadline_la_CPPFLAGS = \
	-I$(top_srcdir)/src $(SLURM_PLUGIN_CFLAGS) -D_GNU_SOURCE
src_plugins_select_deadline_select_deadline_la_CFLAGS = \
	-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wno-sign-compare -Wno-missing-field-initializers -pthread
src_plugins_select_deadline_select_deadline_la_LDFLAGS = -module \
	-avoid-version -shared -Wl,-rpath,$(libdir)
src_plugins_select_deadline_select_deadline_la_LIBADD = \
	src/common/libdeadline.la
endif
