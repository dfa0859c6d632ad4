# benchmarks: sched plugin lock hold time and dispatch latency (need root
# and start a local Slurm; results in bench/results/sched-*.md)
EXTRA_DIST += bench/sched-lock-hold.sh bench/sched-dispatch.sh \
	bench/dispatch-latency.py bench/results/sched-lock-hold.md \
	bench/results/sched-dispatch.md
bench-sched: all
	$(srcdir)/bench/sched-lock-hold.sh --build $(abs_builddir) \
		--out $(srcdir)/bench/results/sched-lock-hold.md
	$(srcdir)/bench/sched-dispatch.sh --build $(abs_builddir) \
		--out $(srcdir)/bench/results/sched-dispatch.md
.PHONY: bench-sched

# snapshot.c's cost against synthetic Slurm records (no slurmctld; links
# Slurm's libslurmfull for its node table, lists and bitmaps):
# bench/run-snapshot.sh, results in bench/results/sched-snapshot.md
if BUILD_PLUGINS
DL_BENCHES += bench/snapshot_merge
bench_snapshot_merge_SOURCES = bench/snapshot_merge.c bench/bench_util.h \
	src/plugins/sched/deadline/snapshot.c \
	src/plugins/sched/deadline/estimator.c
bench_snapshot_merge_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/bench \
	$(SLURM_PLUGIN_CFLAGS) -D_GNU_SOURCE
bench_snapshot_merge_CFLAGS = $(SCHED_DEADLINE_WARN) -pthread
bench_snapshot_merge_LDADD = src/common/libdeadline_static.la \
	$(SLURM_CMD_LIBS) $(JSONC_LIBS) -lm -lpthread
endif
EXTRA_DIST += bench/run-snapshot.sh
