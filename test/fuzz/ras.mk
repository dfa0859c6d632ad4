# fuzz target: forecast files (reverse policy), host lists, NodeIO=
check_PROGRAMS += test/fuzz/replay_forecast
TESTS += test/fuzz/replay_forecast
test_fuzz_replay_forecast_SOURCES = test/fuzz/fuzz_forecast.c test/fuzz/replay_main.c
test_fuzz_replay_forecast_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_forecast"'
test_fuzz_replay_forecast_LDADD = $(DL_TOOLS_LIBS) $(FUZZ_LIBS)
FUZZ_BINS += test/fuzz/bin/fuzz_forecast
test/fuzz/bin/fuzz_forecast: $(srcdir)/test/fuzz/fuzz_forecast.c $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
