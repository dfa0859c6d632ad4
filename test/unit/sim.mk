# unit tests and reduced reproductions: simulator
if HAVE_CHECK
UNIT_TESTS += test/unit/test_baselines test/unit/test_oracle test/unit/test_alone \
	test/unit/test_tardiness \
	test/unit/test_sim_engine test/unit/test_sim_input \
	test/unit/test_sim_admission test/unit/test_decide test/unit/test_sim_seeds \
	test/unit/test_portfolio test/unit/test_pf_scale
test_unit_test_pf_scale_SOURCES = test/unit/test_pf_scale.c test/unit/fixtures.h
test_unit_test_pf_scale_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_pf_scale_LDADD = src/sim/libsim.la $(UNIT_LDADD)
test_unit_test_portfolio_SOURCES = test/unit/test_portfolio.c test/unit/fixtures.h
test_unit_test_portfolio_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_portfolio_LDADD = src/sim/libsim.la $(UNIT_LDADD)
test_unit_test_sim_seeds_SOURCES = test/unit/test_sim_seeds.c test/unit/fixtures.h
test_unit_test_sim_seeds_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_sim_seeds_LDADD = src/sim/libsim.la $(UNIT_LDADD)
test_unit_test_decide_SOURCES = test/unit/test_decide.c test/unit/fixtures.h
test_unit_test_decide_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_decide_LDADD = src/sim/libsim.la $(UNIT_LDADD)
test_unit_test_baselines_SOURCES = test/unit/test_baselines.c test/unit/fixtures.h
test_unit_test_baselines_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_baselines_LDADD = $(UNIT_LDADD)
test_unit_test_oracle_SOURCES = test/unit/test_oracle.c test/unit/fixtures.h
test_unit_test_oracle_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_oracle_LDADD = $(UNIT_LDADD)
test_unit_test_tardiness_SOURCES = test/unit/test_tardiness.c test/unit/fixtures.h
test_unit_test_tardiness_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_tardiness_LDADD = $(UNIT_LDADD)
test_unit_test_alone_SOURCES = test/unit/test_alone.c test/unit/fixtures.h
test_unit_test_alone_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_alone_LDADD = $(UNIT_LDADD)
test_unit_test_sim_engine_SOURCES = test/unit/test_sim_engine.c test/unit/fixtures.h
test_unit_test_sim_engine_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_sim_engine_LDADD = src/sim/libsim.la $(UNIT_LDADD)
test_unit_test_sim_admission_SOURCES = test/unit/test_sim_admission.c \
	test/unit/fixtures.h
test_unit_test_sim_admission_CFLAGS = $(UNIT_CFLAGS)
test_unit_test_sim_admission_LDADD = src/sim/libsim.la $(UNIT_LDADD)
test_unit_test_sim_input_SOURCES = test/unit/test_sim_input.c test/unit/fixtures.h
test_unit_test_sim_input_CFLAGS = $(UNIT_CFLAGS) -DSRCDIR='"$(abs_top_srcdir)"'
test_unit_test_sim_input_LDADD = src/sim/libsim.la $(UNIT_LDADD)
endif

# The reduced reproductions (bench/reproduce-*.sh --quick) with their
# assertions on the papers' qualitative results; about 15 s together.
SIM_REPRO_TESTS = test/unit/sim_repro_polo test/unit/sim_repro_rtmr \
	test/unit/sim_repro_reverse test/unit/sim_repro_swim
EXTRA_DIST += $(SIM_REPRO_TESTS)
TESTS += $(SIM_REPRO_TESTS)

# deadline-sim's output streams: --jobs-csv - is CSV only (issue 17)
EXTRA_DIST += test/unit/sim_cli.sh
TESTS += test/unit/sim_cli.sh
