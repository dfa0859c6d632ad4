# fuzz target of the sched plugin's saved-state reader: corpus replay in
# `make check`, libFuzzer binary with `make fuzz` (pattern of
# test/fuzz/local.mk)
EXTRA_DIST += test/fuzz/fuzz_sched_state.c
check_PROGRAMS += test/fuzz/replay_sched_state
TESTS += test/fuzz/replay_sched_state
test_fuzz_replay_sched_state_SOURCES = test/fuzz/fuzz_sched_state.c \
	test/fuzz/replay_main.c
test_fuzz_replay_sched_state_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_sched_state"'
test_fuzz_replay_sched_state_LDADD = $(DL_TOOLS_LIBS) \
	$(FUZZ_LIBS)
FUZZ_BINS += test/fuzz/bin/fuzz_sched_state
test/fuzz/bin/fuzz_sched_state: $(srcdir)/test/fuzz/fuzz_sched_state.c $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
