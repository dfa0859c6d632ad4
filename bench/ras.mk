# benchmarks: ras/reverse placement and reverse fitting.  `make bench-ras`
# prints the Markdown report kept in bench/results/ras-*.md.
noinst_PROGRAMS += bench/bench_ras
bench_bench_ras_SOURCES = bench/bench_ras.c
bench_bench_ras_LDADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm -lpthread
bench: bench-ras
bench-ras: bench/bench_ras
	bench/bench_ras 11
.PHONY: bench bench-ras
