# fuzz targets: SPANK option parsers (src/plugins/spank/deadline_opts.c with
# the core's job_hints parsers and Slurm's time parser from libslurm)
check_PROGRAMS += test/fuzz/replay_spank_opts
TESTS += test/fuzz/replay_spank_opts
test_fuzz_replay_spank_opts_SOURCES = test/fuzz/fuzz_spank_opts.c \
	test/fuzz/replay_main.c $(SPANK_OPTS_SOURCES)
test_fuzz_replay_spank_opts_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/src/plugins/spank \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_spank_opts"'
test_fuzz_replay_spank_opts_LDADD = $(DL_TOOLS_LIBS) \
	$(SLURM_LIBS) $(FUZZ_LIBS)

FUZZ_BINS += test/fuzz/bin/fuzz_spank_opts
test/fuzz/bin/fuzz_spank_opts: $(srcdir)/test/fuzz/fuzz_spank_opts.c \
		$(addprefix $(srcdir)/,$(filter %.c,$(SPANK_OPTS_SOURCES))) \
		$(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -I$(srcdir)/src/plugins/spank -o $@ $^ \
		$(SLURM_LIBS) $(FUZZ_LIBS)
