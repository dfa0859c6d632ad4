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
