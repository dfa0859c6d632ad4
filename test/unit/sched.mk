# unit tests: sched plugin core pieces
if HAVE_CHECK
UNIT_TESTS += test/unit/test_sched_state
test_unit_test_sched_state_SOURCES = test/unit/test_sched_state.c \
	test/unit/fixtures.h
test_unit_test_sched_state_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_sched_state_LDADD = $(UNIT_LDADD)
endif

