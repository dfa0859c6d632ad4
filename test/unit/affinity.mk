# unit tests: data affinity (host list expansion and compression, the
# --input-nodes locality, Polo's rule and the deferral table)
if HAVE_CHECK
UNIT_TESTS += test/unit/test_locality test/unit/test_affinity
test_unit_test_locality_SOURCES = test/unit/test_locality.c test/unit/fixtures.h
test_unit_test_locality_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_locality_LDADD = $(UNIT_LDADD)
test_unit_test_affinity_SOURCES = test/unit/test_affinity.c test/unit/fixtures.h
test_unit_test_affinity_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_affinity_LDADD = $(UNIT_LDADD)
endif
# bats suites of data affinity (run by contrib/run-tests.sh)
EXTRA_DIST += test/bats/affinity_local.bats test/bats/affinity_input.bats
