#!/bin/sh
# Reproduce RTMR's workload I (He et al. 2013, doc/design.md §10): 88 jobs of
# the first six Facebook bins on 30 nodes with 100 map and 30 reduce slots;
# accept ratio, success ratio and utilisation (RTMR's definitions) of the
# admission-based policies -- realtime, RTMR as published and Kc & Anyanwu's
# Deadline Constraint test -- against every other policy (triage, EDF,
# FIFO, Slurm, adaptive, ras, ARIA, Fair), all in one `deadline-sim
# compare` per seed on the same task-length model
# (bench/workloads/rtmr-w1.bins.json; doc/simulator.md says why).
#
#   reproduce-rtmr-w1.sh [--out DIR] [--quick] [--sim PATH] [--jobs N]
#                        [--seeds N] [--names bin|job] [--policies a,b]
#
# Writes DIR/seed-S/ per seed (workload, summaries, per-job CSVs, the
# oracle bound), DIR/summary-<policy>.json, the mean over the seeds in the
# run summary format, DIR/rtmr.tsv (per policy; sim-lib.sh's
# sim_aggregate), DIR/table.md and DIR/targets.txt.  --quick runs 3 seeds,
# the full run 10.  --names overrides the workload's job names: bin (the
# file's: the jobs of a bin are runs of one program, so realtime finds
# history of the same name) or job (every job its own name: realtime's
# worst cases are the time limits).
# Claims checked: FIFO accepts every job; realtime and rtmr admit no job
# that then misses (success ratio 1) and hold no job for ever (none left
# unfinished) on every seed; FIFO's utilisation is at least each admission
# policy's; realtime accepts more jobs than rtmr; no policy meets more
# deadlines than the oracle bound.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
SEEDS=10
NAMES=""
WANT=realtime,rtmr,dc,triage,edf,fifo,slurm,adaptive,ras,aria,fair
[ "$QUICK" = 1 ] && SEEDS=3 WANT=realtime,rtmr,dc,triage,edf,fifo
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	--names) [ $# -ge 2 ] || sim_die "--names needs bin or job"; NAMES=$2; shift 2 ;;
	--policies) [ $# -ge 2 ] || sim_die "--policies needs a list"; WANT=$2; shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
case "$SEEDS" in ''|*[!0-9]*|0) sim_die "--seeds expects a positive number" ;; esac
BINS=$BENCH_DIR/workloads/rtmr-w1.bins.json
case "$NAMES" in
'') ;;
bin|job)
	jq --arg n "$NAMES" '.names = $n' "$BINS" >"$OUT/bins.json"
	BINS=$OUT/bins.json ;;
*) sim_die "--names expects bin or job" ;;
esac
POLICIES=$(sim_available "$WANT")
PLIST=$(echo "$POLICIES" | tr ',' ' ')
ADMISSION=$(echo "$PLIST" | tr ' ' '\n' | grep -x -e realtime -e rtmr -e dc | paste -sd, - || true)
rm -f "$OUT/targets.txt"

for s in $(seq 1 "$SEEDS"); do
	mkdir -p "$OUT/seed-$s"
	"$SIM" gen binned --bins "$BINS" --seed "$s" --cluster-out "$OUT/seed-$s/cluster.json" \
		>"$OUT/seed-$s/workload.json"
	echo "$s"
done | xargs -P "$JOBS" -L 1 sh -c '
	"$0" compare --cluster "$1/seed-$3/cluster.json" --workload "$1/seed-$3/workload.json" \
		--policies "$2" --seed "$3" --out-dir "$1/seed-$3" >"$1/seed-$3/compare.txt" 2>&1 ||
		{ echo "compare failed: seed $3" >&2; cat "$1/seed-$3/compare.txt" >&2; }
' "$SIM" "$OUT" "$POLICIES" || true # a failed run is reported below

SIM_FAILED=0
for p in $(echo "$POLICIES" | tr ',' ' '); do
	files=$(for s in $(seq 1 "$SEEDS"); do echo "$OUT/seed-$s/summary-$p.json"; done)
	# shellcheck disable=SC2086
	if ls $files >/dev/null 2>&1; then
		sim_mean_summaries "$OUT/summary-$p.json" $files
	else
		echo "FAILED: $p did not run for every seed" >&2
		SIM_FAILED=1
	fi
done
TSV=$OUT/rtmr.tsv
printf '%s\n' "$SIM_AGG_HEADER" >"$TSV"
for p in $PLIST oracle; do
	file=summary-$p.json
	[ "$p" = oracle ] && file=oracle.json
	for s in $(seq 1 "$SEEDS"); do
		row=$(sim_row "$OUT/seed-$s/$file")
		[ -n "$row" ] && printf '%s\t%s\n' "$p" "$row"
	done
done | sim_aggregate 0 >>"$TSV"
col() { awk -F '\t' -v p="$2" -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
	$1 == p { print $k }' "$TSV"; }
{
	echo "## RTMR workload I: mean over $SEEDS seed(s) (88 jobs each; job names: $(jq -r '.names // "job"' "$BINS"))"
	echo
	echo "| policy | admitted | accept | success | util | met | missed % (sd) | late s, mean / p95 |"
	echo "|---|---|---|---|---|---|---|---|"
	for p in $PLIST; do
		f=$OUT/summary-$p.json
		[ -f "$f" ] || continue
		printf '| %s | %s | %s | %s | %s | %s | %s (%s) | %s |\n' "$p" \
			"$(jq '.admitted' "$f" | awk '{ printf "%.1f", $1 }')" "$(col accept "$p" | awk '{ printf "%.3f", $1 }')" \
			"$(col success "$p" | awk '{ printf "%.3f", $1 }')" "$(col util "$p" | awk '{ printf "%.3f", $1 }')" \
			"$(col met "$p" | awk '{ printf "%.1f", $1 }')" "$(col missed_pct "$p" | awk '{ printf "%.2f", $1 }')" \
			"$(col missed_sd "$p" | awk '{ printf "%.2f", $1 }')" \
			"$(m=$(col late_mean_s "$p"); q=$(col late_p95_s "$p"); if [ "$m" = - ]; then echo -; else printf '%.0f / %.0f' "$m" "$q"; fi)"
	done
	printf '| oracle bound | (all) | | | | %s | %s | |\n' "$(col met oracle | awk '{ printf "%.1f", $1 }')" \
		"$(col missed_pct oracle | awk '{ printf "%.2f", $1 }')"
	echo
	echo "paper (Table V): DC accept 0.716 success 0.857 util 0.057; RTMR 0.568 / 1.000 / 0.155;"
	echo "RTMR w/o feedback 0.466 / 1.000 / 0.116; Hadoop FIFO util 0.213"
	echo "util: RTMR's definition (slot time of jobs that met their deadline for admission policies, of all jobs otherwise, over 130 slots x the workload's span);"
	echo "missed %: of the admitted jobs; late s: lateness of the late jobs, mean over all of them / mean over the seeds of the p95;"
	echo "oracle: upper bound on deadlines met (preemptive relaxation), every job admitted"
} | tee "$OUT/table.md"

fifo=$OUT/summary-fifo.json
if [ -f "$fifo" ]; then
	sim_assert "FIFO accepts every job" sim_cmp "$(sim_get "$fifo" accept_ratio)" == 1
	for p in $(echo "$ADMISSION" | tr ',' ' '); do
		f=$OUT/summary-$p.json
		[ -f "$f" ] || continue
		sim_assert "FIFO's utilisation is at least $p's" \
			sim_cmp "$(sim_get "$fifo" utilization)" '>=' "$(sim_get "$f" utilization)"
	done
fi
rt=$OUT/summary-realtime.json
rm_=$OUT/summary-rtmr.json
if [ -f "$rt" ] && [ -f "$rm_" ]; then
	sim_assert "realtime accepts more jobs than RTMR as published" \
		sim_cmp "$(sim_get "$rt" accept_ratio)" '>' "$(sim_get "$rm_" accept_ratio)"
fi
for s in $(seq 1 "$SEEDS"); do
	d=$OUT/seed-$s
	sim_assert "seed $s: the workload has the paper's 88 jobs" \
		sim_cmp "$(jq '.jobs | length' "$d/workload.json")" == 88
	for p in realtime rtmr; do
		f=$d/summary-$p.json
		[ -f "$f" ] || continue
		# issue 11: 100 % success among admitted jobs, none held for ever
		sim_assert "seed $s: $p admits no job that misses its deadline" \
			sim_cmp "$(sim_get "$f" success_ratio)" == 1
		sim_assert "seed $s: $p holds no job for ever (none unfinished)" \
			sim_cmp "$(sim_get "$f" unfinished)" == 0
		sim_target "$(if sim_cmp "$(sim_get "$f" success_ratio)" == 1 &&
			sim_cmp "$(sim_get "$f" unfinished)" == 0; then echo 1; else echo 0; fi)" \
			"seed $s: $p: success $(sim_get "$f" success_ratio) among $(sim_get "$f" admitted) admitted, $(sim_get "$f" unfinished) unfinished"
	done
	[ -f "$d/oracle.json" ] || continue
	for p in $PLIST; do
		[ -f "$d/summary-$p.json" ] || continue
		sim_assert "seed $s: $p meets no more than the oracle bound" \
			sim_cmp "$(sim_get "$d/summary-$p.json" met)" '<=' "$(sim_get "$d/oracle.json" met_bound)"
	done
done
echo "results in $OUT"
exit "$SIM_FAILED"
