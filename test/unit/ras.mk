# unit tests: ras and reverse
if HAVE_CHECK
UNIT_TESTS += test/unit/test_ras test/unit/test_reverse
test_unit_test_ras_SOURCES = test/unit/test_ras.c test/unit/fixtures.h
test_unit_test_ras_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_ras_LDADD = $(UNIT_LDADD)
test_unit_test_reverse_SOURCES = test/unit/test_reverse.c test/unit/fixtures.h
test_unit_test_reverse_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_reverse_LDADD = $(UNIT_LDADD)
endif
# bats suites of select/deadline (run by contrib/run-tests.sh)
EXTRA_DIST += test/bats/select_colocate.bats test/bats/select_forecast.bats \
	test/bats/select_clients.bats test/bats/select_learned.bats
if HAVE_CHECK
UNIT_TESTS += test/unit/test_usage
test_unit_test_usage_SOURCES = test/unit/test_usage.c test/unit/fixtures.h
test_unit_test_usage_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_usage_LDADD = $(UNIT_LDADD)
endif
