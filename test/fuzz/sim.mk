# fuzz targets: simulator inputs (cluster, workload, distributions, f(t)
# series, RTMR bins documents); `make check` replays the corpus.
FUZZ_SIM_SRC = $(addprefix $(srcdir)/,$(filter %.c,$(src_sim_libsim_la_SOURCES)))
check_PROGRAMS += test/fuzz/replay_sim_input
TESTS += test/fuzz/replay_sim_input
test_fuzz_replay_sim_input_SOURCES = test/fuzz/fuzz_sim_input.c test/fuzz/replay_main.c
test_fuzz_replay_sim_input_CPPFLAGS = $(AM_CPPFLAGS) $(JSONC_CFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_sim_input"'
test_fuzz_replay_sim_input_LDADD = src/sim/libsim.la $(FUZZ_LIBS)

FUZZ_BINS += test/fuzz/bin/fuzz_sim_input
test/fuzz/bin/fuzz_sim_input: $(srcdir)/test/fuzz/fuzz_sim_input.c $(FUZZ_SIM_SRC) $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)

# fuzz target: SWF logs (deadline-sim gen swf)
check_PROGRAMS += test/fuzz/replay_swf
TESTS += test/fuzz/replay_swf
test_fuzz_replay_swf_SOURCES = test/fuzz/fuzz_swf.c test/fuzz/replay_main.c
test_fuzz_replay_swf_CPPFLAGS = $(AM_CPPFLAGS) $(JSONC_CFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_swf"'
test_fuzz_replay_swf_LDADD = src/sim/libsim.la $(FUZZ_LIBS)

FUZZ_BINS += test/fuzz/bin/fuzz_swf
test/fuzz/bin/fuzz_swf: $(srcdir)/test/fuzz/fuzz_swf.c $(FUZZ_SIM_SRC) $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
