# benchmarks: sched plugin lock hold time (needs root and a local Slurm)
EXTRA_DIST += bench/sched-lock-hold.sh bench/results/sched-lock-hold.md
bench-sched-lock: all
	$(srcdir)/bench/sched-lock-hold.sh --build $(abs_builddir) \
		--out $(srcdir)/bench/results/sched-lock-hold.md
.PHONY: bench-sched-lock
