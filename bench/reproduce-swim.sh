#!/bin/sh
# Replay one day of the SWIM Facebook 2009 trace with deadlines of k times
# each job's isolated completion time, k in {1.5, 2, 4}, under every policy
# of this build, with the oracle bound.  Task counts and lengths come from
# the trace's bytes (deadline-sim gen swim; doc/simulator.md).
#
#   reproduce-swim.sh [--out DIR] [--quick] [--sim PATH] [--jobs N]
#                     [--trace FB-2009.tsv] [--seeds N]
#
# The full run needs the trace file (traces/swim-fb2009 of the project's
# shared data, FB-2009_samples_24_times_1hr_0.tsv); --quick replays bench/workloads/swim-fb2009-h08-10.json,
# hours 8-10 derived from it (643 jobs), on the same 100-node cluster.
# Writes DIR/k<K>/seed-S/ (summary-<policy>.json, oracle.json),
# DIR/k<K>/summary-<policy>.json (means over seeds) and DIR/table.txt.
# Claims checked: no policy meets more deadlines than the oracle bound;
# EDF misses fewer than FIFO; looser deadlines (k = 4) miss no more than
# tight ones (k = 1.5) under each policy.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
TRACE=
SEEDS=3
[ "$QUICK" = 1 ] && SEEDS=1
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--trace) [ $# -ge 2 ] || sim_die "--trace needs a file"; TRACE=$2; shift 2 ;;
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
KS="1.5 2 4"
POLICIES=$(sim_available adaptive,ras,edf,fifo,fair,slurm,aria)

if [ "$QUICK" = 1 ]; then
	cp "$BENCH_DIR/workloads/swim-fb2009-h08-10.json" "$OUT/workload-base.json"
	cp "$BENCH_DIR/workloads/swim-fb2009.cluster.json" "$OUT/cluster.json"
	WHAT="hours 8-10 (bench/workloads/swim-fb2009-h08-10.json)"
else
	[ -n "$TRACE" ] || sim_die "the full run needs --trace FB-2009_samples_24_times_1hr_0.tsv (or use --quick)"
	[ -r "$TRACE" ] || sim_die "cannot read the trace $TRACE"
	"$SIM" gen swim --trace "$TRACE" --k 1 --cluster-out "$OUT/cluster.json" >"$OUT/workload-base.json"
	WHAT="the whole day ($TRACE)"
fi
for k in $KS; do
	mkdir -p "$OUT/k$k"
	jq -c ".jobs[].deadline_factor = $k" "$OUT/workload-base.json" >"$OUT/k$k/workload.json"
done
export SIM OUT POLICIES
for k in $KS; do
	for s in $(seq 1 "$SEEDS"); do
		echo "$k $s"
	done
done | xargs -P "$JOBS" -L 1 sh -c '
	d="$OUT/k$1/seed-$2"
	"$SIM" compare --cluster "$OUT/cluster.json" --workload "$OUT/k$1/workload.json" \
		--policies "$POLICIES" --seed "$2" --out-dir "$d" >"$OUT/k$1/seed-$2.txt" 2>&1 &&
		rm -f "$d"/jobs-*.csv ||
		{ echo "compare failed: k $1 seed $2" >&2; cat "$OUT/k$1/seed-$2.txt" >&2; }
' sh || true # a failed run is reported below
rm -f "$OUT"/k*/workload.json

SIM_FAILED=0
for k in $KS; do
	for p in $(echo "$POLICIES" | tr ',' ' '); do
		files=$(for s in $(seq 1 "$SEEDS"); do echo "$OUT/k$k/seed-$s/summary-$p.json"; done)
		# shellcheck disable=SC2086
		if ls $files >/dev/null 2>&1; then
			sim_mean_summaries "$OUT/k$k/summary-$p.json" $files
		else
			echo "FAILED: $p k=$k did not run for every seed" >&2
			SIM_FAILED=1
		fi
	done
done
{
	echo "SWIM Facebook 2009, $WHAT -- deadlines = k x isolated completion time; missed % (mean over $SEEDS seed(s))"
	printf '%-10s' policy
	for k in $KS; do printf ' k=%-8s' "$k"; done
	echo
	for p in $(echo "$POLICIES" | tr ',' ' ') oracle; do
		printf '%-10s' "$p"
		for k in $KS; do
			if [ "$p" = oracle ]; then
				v=$(for s in $(seq 1 "$SEEDS"); do jq -r .missed_pct "$OUT/k$k/seed-$s/oracle.json" 2>/dev/null; done |
					awk '{ s += $1 } END { if (NR) printf "%.2f", s / NR }')
			else
				v=$(jq -r '.missed_pct * 100 | round / 100' "$OUT/k$k/summary-$p.json" 2>/dev/null || true)
			fi
			printf ' %-10s' "${v:--}"
		done
		echo
	done
	echo "jobs: $(jq '.jobs' "$OUT/k1.5/summary-fifo.json" 2>/dev/null); utilisation (all jobs): $(jq '.utilization_all * 1000 | round / 1000' "$OUT/k1.5/summary-fifo.json" 2>/dev/null)"
	echo "slurm treats deadlines as --deadline: a task starts only by deadline - time limit (at least one minute), so short jobs are cancelled"
} | tee "$OUT/table.txt"

for k in $KS; do
	for s in $(seq 1 "$SEEDS"); do
		d=$OUT/k$k/seed-$s
		[ -f "$d/oracle.json" ] || continue
		for p in $(echo "$POLICIES" | tr ',' ' '); do
			sim_assert "k $k seed $s: $p meets no more than the oracle bound" \
				sim_cmp "$(sim_get "$d/summary-$p.json" met)" '<=' "$(sim_get "$d/oracle.json" met_bound)"
		done
	done
	if [ -f "$OUT/k$k/summary-edf.json" ] && [ -f "$OUT/k$k/summary-fifo.json" ]; then
		sim_assert "k $k: EDF misses fewer deadlines than FIFO" \
			sim_cmp "$(sim_get "$OUT/k$k/summary-edf.json" missed)" '<' "$(sim_get "$OUT/k$k/summary-fifo.json" missed)"
	fi
done
for p in $(echo "$POLICIES" | tr ',' ' '); do
	[ -f "$OUT/k4/summary-$p.json" ] && [ -f "$OUT/k1.5/summary-$p.json" ] || continue
	sim_assert "$p: k = 4 misses no more deadlines than k = 1.5" \
		sim_cmp "$(sim_get "$OUT/k4/summary-$p.json" missed)" '<=' "$(sim_get "$OUT/k1.5/summary-$p.json" missed)"
done
echo "results in $OUT"
exit "$SIM_FAILED"
