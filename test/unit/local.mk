# Check unit tests of the core: one program per module.
if HAVE_CHECK
# Other test fragments append their programs to UNIT_TESTS and reuse
# UNIT_CFLAGS / UNIT_LDADD.
UNIT_TESTS += test/unit/test_model test/unit/test_estimate \
	test/unit/test_goal test/unit/test_config test/unit/test_plan \
	test/unit/test_capacity test/unit/test_adaptive \
	test/unit/test_job_hints test/unit/test_lookahead test/unit/test_triage \
	test/unit/test_reserve \
	test/unit/test_text test/unit/test_alert
UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS) -pthread
UNIT_LDADD = $(DL_TOOLS_LIBS) $(CHECK_LIBS) $(JSONC_LIBS) -lm -lpthread
test_unit_test_model_SOURCES = test/unit/test_model.c test/unit/fixtures.h
test_unit_test_model_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_model_LDADD = $(UNIT_LDADD)
test_unit_test_estimate_SOURCES = test/unit/test_estimate.c test/unit/fixtures.h
test_unit_test_estimate_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_estimate_LDADD = $(UNIT_LDADD)
test_unit_test_goal_SOURCES = test/unit/test_goal.c test/unit/fixtures.h
test_unit_test_goal_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_goal_LDADD = $(UNIT_LDADD)
test_unit_test_config_SOURCES = test/unit/test_config.c test/unit/fixtures.h
test_unit_test_config_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_config_LDADD = $(UNIT_LDADD)
test_unit_test_plan_SOURCES = test/unit/test_plan.c test/unit/fixtures.h
test_unit_test_plan_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_plan_LDADD = $(UNIT_LDADD)
test_unit_test_capacity_SOURCES = test/unit/test_capacity.c test/unit/fixtures.h
test_unit_test_capacity_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_capacity_LDADD = $(UNIT_LDADD)
test_unit_test_adaptive_SOURCES = test/unit/test_adaptive.c test/unit/fixtures.h
test_unit_test_adaptive_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_adaptive_LDADD = $(UNIT_LDADD)
test_unit_test_lookahead_SOURCES = test/unit/test_lookahead.c test/unit/fixtures.h
test_unit_test_lookahead_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_lookahead_LDADD = $(UNIT_LDADD)
test_unit_test_triage_SOURCES = test/unit/test_triage.c test/unit/fixtures.h
test_unit_test_triage_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_triage_LDADD = $(UNIT_LDADD)
test_unit_test_reserve_SOURCES = test/unit/test_reserve.c test/unit/fixtures.h
test_unit_test_reserve_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_reserve_LDADD = $(UNIT_LDADD)
test_unit_test_job_hints_SOURCES = test/unit/test_job_hints.c test/unit/fixtures.h
test_unit_test_job_hints_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_job_hints_LDADD = $(UNIT_LDADD)
test_unit_test_text_SOURCES = test/unit/test_text.c test/unit/fixtures.h
test_unit_test_text_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_text_LDADD = $(UNIT_LDADD)
test_unit_test_alert_SOURCES = test/unit/test_alert.c test/unit/fixtures.h
test_unit_test_alert_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_alert_LDADD = $(UNIT_LDADD)
endif

# The core's layers and dependency graph (no cycle, no upward include).
TESTS += test/unit/core_deps.sh
EXTRA_DIST += test/unit/core_deps.sh

# Each built plugin resolves the core symbols it uses (a core file missing
# from a plugin's sources fails only when Slurm loads it).
TESTS += test/unit/plugin_symbols.sh
EXTRA_DIST += test/unit/plugin_symbols.sh
