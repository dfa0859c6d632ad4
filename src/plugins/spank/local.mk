# SPANK plugin "deadline": sbatch --soft-deadline, --task-profile,
# --reduce-cost, --max-delays, --mr-reduces, --input-nodes.  The option logic
# (deadline_opts.[ch]) is plain C shared with the unit test and the fuzz
# target; only deadline_spank.c needs the Slurm source tree.  job_hints.c,
# locality.c, nodeset.c and atomic_file.c are compiled in (rather than
# linking libdeadline) so that the plugin loads in sbatch, srun and
# slurmstepd on every node without the shared core.
SPANK_OPTS_SOURCES = src/plugins/spank/deadline_opts.c \
	src/plugins/spank/deadline_opts.h
if BUILD_PLUGINS
slurmplugin_LTLIBRARIES += src/plugins/spank/spank_deadline.la
src_plugins_spank_spank_deadline_la_SOURCES = \
	src/plugins/spank/deadline_spank.c $(SPANK_OPTS_SOURCES) \
	src/common/model/job_hints.c src/common/model/job_hints.h \
	src/common/model/locality.c src/common/model/locality.h \
	src/common/model/nodeset.c src/common/model/nodeset.h \
	src/common/io/atomic_file.c src/common/io/atomic_file.h \
	src/common/io/grow.c src/common/io/grow.h
# -isystem: Slurm's own headers are not warning-clean under WARN_CFLAGS
src_plugins_spank_spank_deadline_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DHAVE_CONFIG_H -isystem $(SLURM_SRC) -isystem $(SLURM_SRC)/src/common
src_plugins_spank_spank_deadline_la_CFLAGS = $(AM_CFLAGS) \
	-Wno-missing-field-initializers
src_plugins_spank_spank_deadline_la_LIBADD = -lm
src_plugins_spank_spank_deadline_la_LDFLAGS = -module -avoid-version \
	-shared -export-symbols-regex \
	'^(plugin_name|plugin_type|plugin_version|spank_plugin_version|slurm_spank_.*)$$'
else
EXTRA_DIST += src/plugins/spank/deadline_spank.c
endif

if HAVE_CHECK
UNIT_TESTS += test/unit/test_spank_opts
test_unit_test_spank_opts_SOURCES = test/unit/test_spank_opts.c \
	test/unit/fixtures.h $(SPANK_OPTS_SOURCES)
test_unit_test_spank_opts_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/src/plugins/spank
test_unit_test_spank_opts_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_spank_opts_LDADD = $(UNIT_LDADD)
endif
