#!/bin/sh
# Reproduce RTMR's workload I (He et al. 2013, doc/design.md §10): 88 jobs of
# the first six Facebook bins on 30 nodes with 100 map and 30 reduce slots;
# accept ratio, success ratio and utilisation (RTMR's definitions) of the
# admission-based policies -- realtime, RTMR as published and Kc & Anyanwu's
# Deadline Constraint test, each run when this build has it -- against
# FIFO, with EDF and adaptive for context, all on the same task-length model
# (bench/workloads/rtmr-w1.bins.json; doc/simulator.md says why).
#
#   reproduce-rtmr-w1.sh [--out DIR] [--quick] [--sim PATH] [--jobs N]
#                        [--seeds N] [--names bin|job]
#
# Writes DIR/seed-S/ per seed (workload, summaries, per-job CSVs, the
# oracle bound) and DIR/summary-<policy>.json, the mean over the seeds in
# the run summary format, and DIR/table.txt.  --quick runs 3 seeds, the
# full run 10.  --names overrides the workload's job names: bin (the
# file's: the jobs of a bin are runs of one program, so realtime finds
# history of the same name) or job (every job its own name: realtime's
# worst cases are the time limits).
# Claims checked: FIFO accepts every job; realtime and rtmr admit no job
# that then misses (success ratio 1); FIFO's utilisation is at least each
# admission policy's; realtime accepts more jobs than rtmr.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
SEEDS=10
NAMES=""
[ "$QUICK" = 1 ] && SEEDS=3
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	--names) [ $# -ge 2 ] || sim_die "--names needs bin or job"; NAMES=$2; shift 2 ;;
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
ADMISSION=$(sim_available realtime,rtmr,dc 2>/dev/null)
POLICIES=$(sim_available "${ADMISSION:+$ADMISSION,}fifo,edf,adaptive")
[ -n "$ADMISSION" ] || echo "note: no admission-based policy in this build yet (realtime, rtmr, dc): FIFO, EDF and adaptive only" >&2

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
{
	echo "RTMR workload I -- mean over $SEEDS seed(s) (88 jobs each; job names: $(jq -r '.names // "job"' "$BINS"))"
	printf '%-10s %-6s %-9s %-8s %-8s %-8s %-10s %-8s\n' policy jobs admitted accept success util util_all met
	for p in $(echo "$POLICIES" | tr ',' ' '); do
		f=$OUT/summary-$p.json
		[ -f "$f" ] || continue
		jq -r '[.policy, .jobs, .admitted, .accept_ratio, .success_ratio, .utilization, .utilization_all, .met]
			| map(tostring) | join("\t")' "$f" |
			awk -F '\t' '{ printf "%-10s %-6.1f %-9.1f %-8.3f %-8.3f %-8.3f %-10.3f %-8.1f\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
	done
	oracle=$(for s in $(seq 1 "$SEEDS"); do cat "$OUT/seed-$s/oracle.json" 2>/dev/null; done |
		jq -s 'if length > 0 then (map(.met_bound) | add / length) else empty end')
	[ -n "$oracle" ] && printf '%-10s %-6s %-9s %-8s %-8s %-8s %-10s %-8.1f\n' oracle 88 - - - - - "$oracle"
	echo "paper (Table V): DC accept 0.716 success 0.857 util 0.057; RTMR 0.568 / 1.000 / 0.155;"
	echo "                 RTMR w/o feedback 0.466 / 1.000 / 0.116; Hadoop FIFO util 0.213"
	echo "util: RTMR's definition (slot time of jobs that met their deadline for admission policies, of all jobs otherwise, over 130 slots x the workload's span)"
	echo "oracle: upper bound on deadlines met (preemptive relaxation), every job admitted"
} | tee "$OUT/table.txt"

fifo=$OUT/summary-fifo.json
if [ -f "$fifo" ]; then
	sim_assert "FIFO accepts every job" sim_cmp "$(sim_get "$fifo" accept_ratio)" == 1
	for p in $(echo "$ADMISSION" | tr ',' ' '); do
		f=$OUT/summary-$p.json
		[ -f "$f" ] || continue
		case "$p" in
		realtime|rtmr)
			sim_assert "$p admits no job that misses its deadline" \
				sim_cmp "$(sim_get "$f" success_ratio)" == 1 ;;
		esac
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
	sim_assert "seed $s: the workload has the paper's 88 jobs" \
		sim_cmp "$(jq '.jobs | length' "$OUT/seed-$s/workload.json")" == 88
done
echo "results in $OUT"
exit "$SIM_FAILED"
