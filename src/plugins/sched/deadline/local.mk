# SchedulerType=sched/deadline: a Slurm plugin compiled against the
# configured Slurm source tree of exactly the installed version.  Slurm's
# symbols come from slurmctld at dlopen time: link nothing of Slurm and no
# -Wl,--no-undefined (doc/slurm-facts.md §3).  libdeadline is linked shared so
# every plugin in slurmctld shares one copy (and one current plan).
SCHED_DEADLINE_SRC = \
	src/plugins/sched/deadline/sched_deadline.c \
	src/plugins/sched/deadline/sched_deadline.h \
	src/plugins/sched/deadline/conf.c \
	src/plugins/sched/deadline/log_sink.c \
	src/plugins/sched/deadline/snapshot.c \
	src/plugins/sched/deadline/apply.c \
	src/plugins/sched/deadline/state.c \
	src/plugins/sched/deadline/estimator.c \
	src/plugins/sched/deadline/alert.c \
	src/plugins/sched/deadline/release_watch.c \
	src/plugins/sched/deadline/last_good.c \
	src/plugins/sched/deadline/submit_hold.h \
	src/plugins/slurm_compat.h
# Slurm's headers are not -Wextra/-Wshadow clean; our own code still gets
# -Wall -Wextra -Werror.
SCHED_DEADLINE_WARN = -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wno-sign-compare -Wno-missing-field-initializers
if BUILD_PLUGINS
slurmplugin_LTLIBRARIES += src/plugins/sched/deadline/sched_deadline.la
src_plugins_sched_deadline_sched_deadline_la_SOURCES = $(SCHED_DEADLINE_SRC)
src_plugins_sched_deadline_sched_deadline_la_CPPFLAGS = \
	-I$(top_srcdir)/src $(SLURM_PLUGIN_CFLAGS) -D_GNU_SOURCE
src_plugins_sched_deadline_sched_deadline_la_CFLAGS = $(SCHED_DEADLINE_WARN) \
	-pthread
src_plugins_sched_deadline_sched_deadline_la_LDFLAGS = -module \
	-avoid-version -shared -Wl,-rpath,$(libdir)
src_plugins_sched_deadline_sched_deadline_la_LIBADD = \
	src/common/libdeadline.la
endif
