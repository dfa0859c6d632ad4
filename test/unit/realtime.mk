# unit tests: realtime (vectors, worst case, reservation walk, admission,
# feedback, resync, persistence, the Deadline Constraint baseline, the
# policy's plan) and the property tests over random workloads
if HAVE_CHECK
UNIT_TESTS += test/unit/test_rt_vector
test_unit_test_rt_vector_SOURCES = test/unit/test_rt_vector.c \
	test/unit/rt_fixtures.h test/unit/fixtures.h
test_unit_test_rt_vector_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_vector_LDADD = $(UNIT_LDADD)
endif
if HAVE_CHECK
UNIT_TESTS += test/unit/test_rt_property
test_unit_test_rt_property_SOURCES = test/unit/test_rt_property.c \
	test/unit/rt_sim.h test/unit/rt_fixtures.h test/unit/fixtures.h
test_unit_test_rt_property_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_property_LDADD = $(UNIT_LDADD)
endif
if HAVE_CHECK
UNIT_TESTS += test/unit/test_rt_admit
test_unit_test_rt_admit_SOURCES = test/unit/test_rt_admit.c \
	test/unit/rt_sim.h test/unit/rt_fixtures.h test/unit/fixtures.h
test_unit_test_rt_admit_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_admit_LDADD = $(UNIT_LDADD)
endif
if HAVE_CHECK
UNIT_TESTS += test/unit/test_rt_worst test/unit/test_rt_dc
test_unit_test_rt_worst_SOURCES = test/unit/test_rt_worst.c test/unit/fixtures.h
test_unit_test_rt_worst_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_worst_LDADD = $(UNIT_LDADD)
test_unit_test_rt_dc_SOURCES = test/unit/test_rt_dc.c test/unit/fixtures.h
test_unit_test_rt_dc_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_dc_LDADD = $(UNIT_LDADD)
endif
if HAVE_CHECK
UNIT_TESTS += test/unit/test_rt_state
test_unit_test_rt_state_SOURCES = test/unit/test_rt_state.c \
	test/unit/rt_fixtures.h test/unit/fixtures.h
test_unit_test_rt_state_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_state_LDADD = $(UNIT_LDADD)
endif
if HAVE_CHECK
UNIT_TESTS += test/unit/test_rt_plan
test_unit_test_rt_plan_SOURCES = test/unit/test_rt_plan.c \
	test/unit/rt_fixtures.h test/unit/fixtures.h
test_unit_test_rt_plan_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_rt_plan_LDADD = $(UNIT_LDADD)
endif
