# benchmark: data affinity inside slurmctld's locks (parse the largest
# --input-nodes value, lookups, host list expansion, the deferral table).
# `make bench-affinity` prints the report kept in
# bench/results/affinity-bench.md.
noinst_PROGRAMS += bench/bench_affinity
bench_bench_affinity_SOURCES = bench/bench_affinity.c
bench_bench_affinity_LDADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm -lpthread
bench: bench-affinity
bench-affinity: bench/bench_affinity
	bench/bench_affinity 11
EXTRA_DIST += bench/results/affinity-bench.md
.PHONY: bench-affinity
