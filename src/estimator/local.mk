# deadline-estimatord: I/O, protocol dispatch and SQLite storage around the
# core's predictors.  The pieces without main() form a convenience library
# for the unit tests and the fuzz target.
noinst_LTLIBRARIES += src/estimator/libestimatord.la
src_estimator_libestimatord_la_SOURCES = \
	src/estimator/est_config.c src/estimator/est_config.h \
	src/estimator/handlers.c src/estimator/handlers.h \
	src/estimator/server.c src/estimator/server.h \
	src/estimator/store.c src/estimator/store.h
src_estimator_libestimatord_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) \
	$(SQLITE_CFLAGS)
src_estimator_libestimatord_la_LIBADD = $(DL_TOOLS_LIBS) \
	$(SQLITE_LIBS) $(JSONC_LIBS) -lm

sbin_PROGRAMS += src/estimator/deadline-estimatord
src_estimator_deadline_estimatord_SOURCES = src/estimator/main.c
src_estimator_deadline_estimatord_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) \
	$(SQLITE_CFLAGS)
src_estimator_deadline_estimatord_LDADD = src/estimator/libestimatord.la

# Test helper of the bats suites (sends raw bytes, prints replies); built
# with the daemon so bats can run from any build tree.
noinst_PROGRAMS += test/bats/estimator_raw
test_bats_estimator_raw_SOURCES = test/bats/estimator_raw.c
EXTRA_DIST += test/bats/estimator_helpers.bash \
	test/bats/estimator_daemon.bats test/bats/estimator_protocol.bats \
	test/bats/estimator_fallback.bats

# Documentation, example configuration, systemd unit, demo forecast.
dist_doc_DATA += doc/protocol.md doc/estimator.md \
	contrib/deadline-estimatord.conf \
	contrib/forecast/twitter-2021-08.forecast
dist_man_MANS += doc/deadline-estimatord.8
EXTRA_DIST += contrib/systemd/deadline-estimatord.service \
	contrib/forecast/make-twitter-forecast.sh contrib/forecast/README.md
