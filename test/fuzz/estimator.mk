# fuzz targets: estimator protocol (daemon request handling, client reply
# parsing); corpus replays run in `make check`.  (Forecast files have their
# own target in test/fuzz/ras.mk.)
FUZZ_EST_DAEMON = $(srcdir)/src/estimator/est_config.c \
	$(srcdir)/src/estimator/handlers.c $(srcdir)/src/estimator/store.c
EST_FUZZ_CPPFLAGS = $(AM_CPPFLAGS) $(JSONC_CFLAGS)

check_PROGRAMS += test/fuzz/replay_est_request test/fuzz/replay_est_response
TESTS += test/fuzz/replay_est_request test/fuzz/replay_est_response
test_fuzz_replay_est_request_SOURCES = test/fuzz/fuzz_est_request.c \
	test/fuzz/replay_main.c
test_fuzz_replay_est_request_CPPFLAGS = $(EST_FUZZ_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_est_request"'
test_fuzz_replay_est_request_LDADD = src/estimator/libestimatord.la $(FUZZ_LIBS)
test_fuzz_replay_est_response_SOURCES = test/fuzz/fuzz_est_response.c \
	test/fuzz/replay_main.c
test_fuzz_replay_est_response_CPPFLAGS = $(EST_FUZZ_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/test/fuzz/corpus/fuzz_est_response"'
test_fuzz_replay_est_response_LDADD = $(DL_TOOLS_LIBS) $(FUZZ_LIBS)

FUZZ_BINS += test/fuzz/bin/fuzz_est_request test/fuzz/bin/fuzz_est_response
test/fuzz/bin/fuzz_est_request: $(srcdir)/test/fuzz/fuzz_est_request.c \
		$(FUZZ_EST_DAEMON) $(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -I. $(SQLITE_CFLAGS) -o $@ $^ $(FUZZ_LIBS) $(SQLITE_LIBS)
test/fuzz/bin/fuzz_est_response: $(srcdir)/test/fuzz/fuzz_est_response.c \
		$(FUZZ_CORE_LIB)
	@$(MKDIR_P) test/fuzz/bin
	$(AM_V_CC)$(FUZZ_CC) -o $@ $^ $(FUZZ_LIBS)
