# benchmarks: estimator.  `make bench` builds them; results are produced by
# bench/estimator_bench.sh and bench/estimator_accuracy (see
# bench/results/estimator-*.md for the commands).
noinst_PROGRAMS += bench/estimator_accuracy
bench_estimator_accuracy_SOURCES = bench/estimator_accuracy.c
bench_estimator_accuracy_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
bench_estimator_accuracy_LDADD = src/estimator/libestimatord.la
noinst_PROGRAMS += bench/estimator_bench
bench_estimator_bench_SOURCES = bench/estimator_bench.c
bench_estimator_bench_LDADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm
EXTRA_DIST += bench/estimator_bench.sh
