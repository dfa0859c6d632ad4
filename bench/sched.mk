# benchmarks on a local Slurm (need root): sched plugin lock hold time and
# dispatch latency (bench/results/sched-*.md); the SWIM replay under four
# schedulers beside deadline-sim's prediction (bench-replay, SWIM_TRACE=FILE;
# bench/results/replay-swim.md)
EXTRA_DIST += bench/sched-lock-hold.sh bench/sched-dispatch.sh \
	bench/dispatch-latency.py bench/results/sched-lock-hold.md \
	bench/results/sched-dispatch.md bench/replay-swim.sh \
	bench/replay-task.sh bench/plot-replay.gp
bench-sched: all
	$(srcdir)/bench/sched-lock-hold.sh --build $(abs_builddir) \
		--out $(srcdir)/bench/results/sched-lock-hold.md
	$(srcdir)/bench/sched-dispatch.sh --build $(abs_builddir) \
		--out $(srcdir)/bench/results/sched-dispatch.md
bench-replay: all
	$(srcdir)/bench/replay-swim.sh --build $(abs_builddir) \
		--trace "$(SWIM_TRACE)" --out $(srcdir)/bench/results/replay-swim.md
.PHONY: bench-sched bench-replay

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
