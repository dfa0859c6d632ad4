# Benchmarks: built by `make bench` (not by `make all` or `make check`);
# results are committed to bench/results/ by hand with the machine and
# command.  Other fragments add their programs to DL_BENCHES.
DL_BENCHES = bench/plan_cycle bench/portfolio_round
EXTRA_PROGRAMS = $(DL_BENCHES)
CLEANFILES += $(DL_BENCHES)
bench_plan_cycle_SOURCES = bench/plan_cycle.c bench/bench_util.h
bench_plan_cycle_LDADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm -lpthread
bench_portfolio_round_SOURCES = bench/portfolio_round.c bench/bench_util.h
bench_portfolio_round_LDADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm -lpthread
EXTRA_DIST += bench/results bench/run-plan-cycle.sh
bench: $(DL_BENCHES)
.PHONY: bench
