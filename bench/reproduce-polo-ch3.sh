#!/bin/sh
# Reproduce Polo's thesis Ch. 3, Experiment 1 (doc/design.md §10):
# five MapReduce jobs on 60 nodes of 1 map + 1 reduce slot, scenario A
# (relaxed goals) and B (tight goals), under the adaptive policy and the
# baselines, with the oracle bound.
#
#   reproduce-polo-ch3.sh [--out DIR] [--quick] [--sim PATH] [--jobs N]
#                         [--seeds N]
#
# Writes DIR/a/seed-S/ and DIR/b/seed-S/ (summary-<policy>.json per policy,
# jobs-<policy>.csv, oracle.json), DIR/a/ and DIR/b/summary-<policy>.json
# (means over the seeds), DIR/table.txt and, with gnuplot and
# without --quick, the papers' figure style: running tasks per job over
# time under adaptive and Fair (DIR/timeline-<scenario>-<policy>.png/.svg).
# --quick runs one seed, the full run ten.  The paper's claims checked:
#   A: all five goals met under adaptive; Fair misses;
#   B: goals are missed (the thesis: none met).
# Exit status 1 when a claim does not hold.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
SEEDS=10
[ "$QUICK" = 1 ] && SEEDS=1
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
POLICIES=$(sim_available adaptive,ras,fair,fifo,edf,aria,slurm)

for sc in a b; do
	"$SIM" gen "polo-ch3-$sc" --cluster-out "$OUT/cluster.json" >"$OUT/workload-$sc.json"
	mkdir -p "$OUT/$sc"
done
# every (scenario, seed) pair is one comparison
for sc in a b; do
	for s in $(seq 1 "$SEEDS"); do
		echo "$sc $s"
	done
done | xargs -P "$JOBS" -L 1 sh -c '
	"$0" compare --cluster "$1/cluster.json" --workload "$1/workload-$3.json" \
		--policies "$2" --seed "$4" --out-dir "$1/$3/seed-$4" >"$1/$3/seed-$4.txt" 2>&1 ||
		{ echo "compare failed: scenario $3 seed $4" >&2; cat "$1/$3/seed-$4.txt" >&2; }
' "$SIM" "$OUT" "$POLICIES" || true # a failed run is reported below

SIM_FAILED=0
# per scenario: the mean over the seeds in the run summary format
for sc in a b; do
	for p in $(echo "$POLICIES" | tr ',' ' '); do
		files=$(for s in $(seq 1 "$SEEDS"); do echo "$OUT/$sc/seed-$s/summary-$p.json"; done)
		# shellcheck disable=SC2086
		ls $files >/dev/null 2>&1 && sim_mean_summaries "$OUT/$sc/summary-$p.json" $files
	done
done
{
	echo "Polo Ch.3 Exp 1 -- deadlines met out of 5, over $SEEDS seed(s)"
	printf '%-10s %-26s %-26s\n' policy "scenario A: mean (min-max)" "scenario B: mean (min-max)"
	for p in $(echo "$POLICIES" | tr ',' ' ') oracle; do
		printf '%-10s' "$p"
		for sc in a b; do
			f=summary-$p.json key=met
			[ "$p" = oracle ] && f=oracle.json key=met_bound
			for s in $(seq 1 "$SEEDS"); do
				jq -r ".$key" "$OUT/$sc/seed-$s/$f" 2>/dev/null || echo NA
			done | awk '{ if ($1 == "NA") bad = 1; s += $1
				if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
				END { printf " %-26s", bad ? "failed" : sprintf("%.1f (%d-%d)", s / NR, lo, hi) }'
		done
		echo
	done
	echo "paper (thesis Fig. 3.4-3.6): A adaptive 5/5; A Fair misses J2, J4, J5 at about 2x their goal; B adaptive 0/5"
} | tee "$OUT/table.txt"

for s in $(seq 1 "$SEEDS"); do
	a=$OUT/a/seed-$s b=$OUT/b/seed-$s
	if [ ! -f "$a/summary-adaptive.json" ] || [ ! -f "$b/summary-adaptive.json" ]; then
		echo "FAILED: seed $s did not run" >&2
		SIM_FAILED=1
		continue
	fi
	sim_assert "A seed $s: adaptive meets all five goals" \
		sim_cmp "$(sim_get "$a/summary-adaptive.json" met)" == 5
	sim_assert "A seed $s: Fair misses at least one goal" \
		sim_cmp "$(sim_get "$a/summary-fair.json" met)" '<' 5
	for p in $(echo "$POLICIES" | tr ',' ' '); do
		sim_assert "A seed $s: $p meets no more than the oracle bound" \
			sim_cmp "$(sim_get "$a/summary-$p.json" met)" '<=' "$(sim_get "$a/oracle.json" met_bound)"
	done
	sim_assert "B seed $s: tight goals are missed under adaptive" \
		sim_cmp "$(sim_get "$b/summary-adaptive.json" met)" '<' 5
done

# the papers' figure style: running tasks per job over time
if [ "$QUICK" = 0 ] && sim_have_gnuplot; then
	for sc in a b; do
		for p in adaptive fair; do
			"$SIM" run --cluster "$OUT/cluster.json" --workload "$OUT/workload-$sc.json" \
				--policy "$p" --seed 1 --timeline "$OUT/timeline-$sc-$p.tsv" >/dev/null
			sim_plot_timeline "$OUT/timeline-$sc-$p.tsv" "$OUT/timeline-$sc-$p" \
				"Polo Ch.3 Exp 1, scenario $(echo "$sc" | tr a-b A-B), $p"
		done
	done
fi
echo "results in $OUT"
exit "$SIM_FAILED"
