# unit tests: estimator (core predictors, history, forecast, protocol,
# client, the last answers kept across cycles; the daemon's store, config and handlers)
if HAVE_CHECK
UNIT_TESTS += test/unit/test_stats test/unit/test_predictor \
	test/unit/test_est_proto \
	test/unit/test_est_client test/unit/test_est_daemon \
	test/unit/test_prior_cache
test_unit_test_stats_SOURCES = test/unit/test_stats.c test/unit/fixtures.h
test_unit_test_stats_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_stats_LDADD = $(UNIT_LDADD)
test_unit_test_predictor_SOURCES = test/unit/test_predictor.c test/unit/fixtures.h
test_unit_test_predictor_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_predictor_LDADD = $(UNIT_LDADD)
test_unit_test_est_proto_SOURCES = test/unit/test_est_proto.c test/unit/fixtures.h
test_unit_test_est_proto_CFLAGS = $(UNIT_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
test_unit_test_est_proto_LDADD = $(UNIT_LDADD)
test_unit_test_est_client_SOURCES = test/unit/test_est_client.c test/unit/fixtures.h
test_unit_test_est_client_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_est_client_LDADD = $(UNIT_LDADD)
test_unit_test_prior_cache_SOURCES = test/unit/test_prior_cache.c test/unit/fixtures.h
test_unit_test_prior_cache_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_prior_cache_LDADD = $(UNIT_LDADD)
test_unit_test_est_daemon_SOURCES = test/unit/test_est_daemon.c test/unit/fixtures.h
test_unit_test_est_daemon_CFLAGS = $(UNIT_CFLAGS) $(SQLITE_CFLAGS)
test_unit_test_est_daemon_LDADD = src/estimator/libestimatord.la $(UNIT_LDADD) \
	$(SQLITE_LIBS)
endif
