# benchmarks and reproductions: simulator
#   make bench-sim          simulator speed on the reverse family (events/s)
#   make reproduce-sim      the full campaign of bench/results/sim-*.md: the
#                           four reproductions with every policy (about 55
#                           minutes on 2 cores; the SWIM day needs
#                           SWIM_TRACE=FILE, without it the --quick slice)
#   make reproduce-traces TRACES=DIR
#                           traces the policies were not tuned on (Google
#                           2011, Alibaba 2017, SWIM FB-2010), about an hour
#   make sweep-reverse      triage against EDF on 216 shapes of the reverse
#                           generator (task length, job size, cluster,
#                           deadline factor, load, external load), about
#                           8 minutes on 2 cores
# Results go to $(SIM_RESULTS) (default bench/results/sim-run in the build
# tree); the committed ones are bench/results/sim-*.md.
# (EXTRA_DIST keeps the scripts' mode: the tests run them from srcdir)
EXTRA_DIST += bench/reproduce-polo-ch3.sh bench/reproduce-rtmr-w1.sh \
	bench/reproduce-reverse.sh bench/reproduce-swim.sh bench/bench-sim-speed.sh \
	bench/reproduce-estimator-value.sh bench/reproduce-portfolio.sh \
	bench/reproduce-traces.sh bench/sweep-reverse.sh \
	bench/workloads/derive-twitter-load.sh bench/sim-lib.sh bench/plot-timeline.gp bench/plot-metric.gp \
	bench/workloads/README.md bench/workloads/rtmr-w1.bins.json \
	bench/workloads/twitter-2021-load.txt \
	bench/workloads/swim-fb2009-h08-10.json \
	bench/workloads/swim-fb2009.cluster.json

SIM_RESULTS = bench/results/sim-run
SWIM_TRACE =

bench-sim: src/sim/deadline-sim
	$(srcdir)/bench/bench-sim-speed.sh --sim src/sim/deadline-sim \
		--out $(SIM_RESULTS)/speed

reproduce-sim: src/sim/deadline-sim
	$(srcdir)/bench/reproduce-polo-ch3.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/polo-ch3
	$(srcdir)/bench/reproduce-rtmr-w1.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/rtmr-w1
	$(srcdir)/bench/reproduce-rtmr-w1.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/rtmr-w1-job --names job
	$(srcdir)/bench/reproduce-reverse.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/reverse
	$(srcdir)/bench/reproduce-reverse.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/reverse-mixed --mixed
	$(srcdir)/bench/reproduce-reverse.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/reverse-none \
		--external none --policies triage,edf,fifo,slurm,adaptive,ras,reverse,aria,fair
	$(srcdir)/bench/reproduce-swim.sh --sim src/sim/deadline-sim --out $(SIM_RESULTS)/swim \
		$(if $(SWIM_TRACE),--trace $(SWIM_TRACE),--quick)

TRACES =

reproduce-traces: src/sim/deadline-sim
	@test -n "$(TRACES)" || { echo "reproduce-traces needs TRACES=DIR (the public traces)"; exit 1; }
	$(srcdir)/bench/reproduce-traces.sh --sim src/sim/deadline-sim --traces $(TRACES) \
		--out $(SIM_RESULTS)/traces

sweep-reverse: src/sim/deadline-sim
	$(srcdir)/bench/sweep-reverse.sh --sim src/sim/deadline-sim \
		--out $(SIM_RESULTS)/sweep-reverse

.PHONY: bench-sim reproduce-sim reproduce-traces sweep-reverse
