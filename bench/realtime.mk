# benchmarks: realtime admission (submit-time judgement, commit, plan cycle
# with and without a rebuild, save/restore) - see bench/run-realtime.sh
DL_BENCHES += bench/rt_admit
bench_rt_admit_SOURCES = bench/rt_admit.c
bench_rt_admit_LDADD = $(DL_TOOLS_LIBS) $(JSONC_LIBS) -lm -lpthread
EXTRA_DIST += bench/run-realtime.sh
