# Fuzz target: the realtime admitted set's saved state (realtime/state_json.c).
check_PROGRAMS += test/fuzz/replay_rt_state
TESTS += test/fuzz/replay_rt_state
test_fuzz_replay_rt_state_SOURCES = test/fuzz/fuzz_rt_state.c test/fuzz/replay_main.c
test_fuzz_replay_rt_state_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_rt_state"'
test_fuzz_replay_rt_state_LDADD = $(DL_TOOLS_LIBS) $(FUZZ_LIBS)

FUZZ_BINS += test/fuzz/bin/fuzz_rt_state
test/fuzz/bin/fuzz_rt_state: $(srcdir)/test/fuzz/fuzz_rt_state.c $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
