#!/bin/sh
# Reproduce Polo's thesis Ch. 3, Experiment 1 (doc/design.md §10):
# five MapReduce jobs on 60 nodes of 1 map + 1 reduce slot, scenario A
# (relaxed goals) and B (tight goals), every policy in one `deadline-sim
# compare` per (scenario, seed) with the oracle bound.
#
#   reproduce-polo-ch3.sh [--out DIR] [--quick] [--sim PATH] [--jobs N]
#                         [--seeds N] [--policies a,b]
#
# Policies: triage, edf, fifo, slurm, adaptive, ras, aria, fair.
# Writes DIR/a/seed-S/ and DIR/b/seed-S/ (summary-<policy>.json per policy,
# jobs-<policy>.csv, oracle.json), DIR/polo.tsv (per scenario and policy;
# sim-lib.sh's sim_aggregate), DIR/table.md, DIR/targets.txt and, with
# gnuplot and without --quick, the papers' figure style: running tasks per
# job over time (DIR/timeline-<scenario>-<policy>.png/.svg) for triage,
# adaptive, ras and Fair.  --quick runs one seed, the full run ten.
# The paper's claims checked (exit status 1 when one fails):
#   A: all five goals met under adaptive; Fair misses;
#   B: goals are missed under adaptive (the thesis: none met);
# no policy meets more than the oracle bound; with --quick, triage meets
# at least as many goals as EDF in both scenarios.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
SEEDS=10
WANT=triage,edf,fifo,slurm,adaptive,ras,aria,fair
[ "$QUICK" = 1 ] && SEEDS=1
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	--policies) [ $# -ge 2 ] || sim_die "--policies needs a list"; WANT=$2; shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
case "$SEEDS" in ''|*[!0-9]*|0) sim_die "--seeds expects a positive number" ;; esac
POLICIES=$(sim_available "$WANT")
PLIST=$(echo "$POLICIES" | tr ',' ' ')
rm -f "$OUT/targets.txt"

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
TSV=$OUT/polo.tsv
printf 'scenario\t%s\n' "$SIM_AGG_HEADER" >"$TSV"
for sc in a b; do
	for p in $PLIST oracle; do
		file=summary-$p.json
		[ "$p" = oracle ] && file=oracle.json
		for s in $(seq 1 "$SEEDS"); do
			row=$(sim_row "$OUT/$sc/seed-$s/$file")
			if [ -z "$row" ]; then
				echo "FAILED: $p scenario $sc seed $s did not run" >&2
				SIM_FAILED=1
				continue
			fi
			printf '%s\t%s\t%s\n' "$sc" "$p" "$row"
		done
	done
done | sim_aggregate 1 >>"$TSV"
col() { sim_col "$TSV" 1 "$@"; }
met() { # mean (min-max) of deadlines met
	printf '%s (%s-%s)' "$(col met "$1" "$2" | awk '{ printf "%.1f", $1 }')" \
		"$(col met_min "$1" "$2")" "$(col met_max "$1" "$2")"
}
late() { # mean / p95 lateness of the late jobs, s
	m=$(col late_mean_s "$1" "$2") q=$(col late_p95_s "$1" "$2")
	if [ "$m" = - ] || [ -z "$m" ]; then printf -- '-'; else printf '%.0f / %.0f' "$m" "$q"; fi
}
{
	echo "## Polo Ch.3 Exp 1: deadlines met out of 5, $SEEDS seed(s)"
	echo
	echo "| policy | A: met, mean (min-max) | B: met, mean (min-max) | A: late s, mean / p95 | B: late s, mean / p95 |"
	echo "|---|---|---|---|---|"
	for p in $PLIST oracle; do
		if [ "$p" = oracle ]; then
			echo "| oracle bound | $(met a oracle) | $(met b oracle) | | |"
		else
			echo "| $p | $(met a "$p") | $(met b "$p") | $(late a "$p") | $(late b "$p") |"
		fi
	done
	echo
	echo "late s: lateness of the late jobs, mean over all of them / mean over the seeds of the p95"
	echo "paper (thesis Fig. 3.4-3.6): A adaptive 5/5; A Fair misses J2, J4, J5 at about 2x their goal; B adaptive 0/5"
} | tee "$OUT/table.md"

for s in $(seq 1 "$SEEDS"); do
	a=$OUT/a/seed-$s b=$OUT/b/seed-$s
	if [ -f "$a/summary-adaptive.json" ]; then
		sim_assert "A seed $s: adaptive meets all five goals" \
			sim_cmp "$(sim_get "$a/summary-adaptive.json" met)" == 5
	fi
	if [ -f "$a/summary-fair.json" ]; then
		sim_assert "A seed $s: Fair misses at least one goal" \
			sim_cmp "$(sim_get "$a/summary-fair.json" met)" '<' 5
	fi
	for sc in a b; do
		d=$OUT/$sc/seed-$s
		[ -f "$d/oracle.json" ] || continue
		for p in $PLIST; do
			[ -f "$d/summary-$p.json" ] || continue
			sim_assert "$sc seed $s: $p meets no more than the oracle bound" \
				sim_cmp "$(sim_get "$d/summary-$p.json" met)" '<=' "$(sim_get "$d/oracle.json" met_bound)"
		done
	done
	if [ -f "$b/summary-adaptive.json" ]; then
		sim_assert "B seed $s: tight goals are missed under adaptive" \
			sim_cmp "$(sim_get "$b/summary-adaptive.json" met)" '<' 5
	fi
	for sc in a b; do
		d=$OUT/$sc/seed-$s
		if [ "$QUICK" = 1 ] && [ -f "$d/summary-triage.json" ] && [ -f "$d/summary-edf.json" ]; then
			sim_assert "$sc seed $s: triage meets at least EDF's count" \
				sim_cmp "$(sim_get "$d/summary-triage.json" met)" '>=' "$(sim_get "$d/summary-edf.json" met)"
		fi
	done
done

# issue 11's targets, on every seed
ok() { if "$@"; then echo 1; else echo 0; fi; }
for s in $(seq 1 "$SEEDS"); do
	a=$OUT/a/seed-$s b=$OUT/b/seed-$s
	if [ -f "$a/summary-triage.json" ]; then
		m=$(sim_get "$a/summary-triage.json" met)
		sim_target "$(ok sim_cmp "$m" == 5)" "A seed $s: triage meets 5 of 5 ($m)"
	fi
	if [ -f "$b/summary-triage.json" ]; then
		m=$(sim_get "$b/summary-triage.json" met)
		sim_target "$(ok sim_cmp "$m" '>=' 3)" "B seed $s: triage meets at least 3 of 5 ($m)"
	fi
	if [ -f "$a/summary-ras.json" ] && [ -f "$a/summary-edf.json" ]; then
		r=$(sim_get "$a/summary-ras.json" met) e=$(sim_get "$a/summary-edf.json" met)
		sim_target "$(ok sim_cmp "$r" '>=' "$e")" "A seed $s: ras meets at least EDF's count ($r vs $e)"
	fi
done

# the papers' figure style: running tasks per job over time
if [ "$QUICK" = 0 ] && sim_have_gnuplot; then
	for sc in a b; do
		for p in triage adaptive ras fair; do
			echo "$PLIST" | tr ' ' '\n' | grep -qx "$p" || continue
			"$SIM" run --cluster "$OUT/cluster.json" --workload "$OUT/workload-$sc.json" \
				--policy "$p" --seed 1 --timeline "$OUT/timeline-$sc-$p.tsv" >/dev/null
			sim_plot_timeline "$OUT/timeline-$sc-$p.tsv" "$OUT/timeline-$sc-$p" \
				"Polo Ch.3 Exp 1, scenario $(echo "$sc" | tr a-b A-B), $p"
		done
	done
fi
echo "results in $OUT"
exit "$SIM_FAILED"
