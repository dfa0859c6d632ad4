# fuzz target: --input-nodes specs (locality parser, host list expansion
# and compression)
check_PROGRAMS += test/fuzz/replay_locality
TESTS += test/fuzz/replay_locality
test_fuzz_replay_locality_SOURCES = test/fuzz/fuzz_locality.c test/fuzz/replay_main.c
test_fuzz_replay_locality_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_locality"'
test_fuzz_replay_locality_LDADD = $(DL_TOOLS_LIBS) $(FUZZ_LIBS)
FUZZ_BINS += test/fuzz/bin/fuzz_locality
test/fuzz/bin/fuzz_locality: $(srcdir)/test/fuzz/fuzz_locality.c $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
