#!/bin/sh
# The end-to-end value of task-length estimation (issue 15): the same
# workloads under one policy (default triage) given
#   perfect    each phase's true mean task length from the start;
#   estimator  the estimator's answers, replayed through the daemon's
#              history code as the run goes (deadline-sim --task-lengths
#              estimator);
#   own        only the job's own completed tasks;
#   limit      the time limit until the job's own tasks complete.
# Reports the missed deadlines of each (mean and sd over the seeds).
# Workloads: SWIM FB-2009 (deadline_factor k; "plain" every job with a
# deadline, "mixed" every other job without) and the reverse family
# (deadline-sim gen reverse, factors up to --factor, load --loads).
#
#   reproduce-estimator-value.sh [--out DIR] [--quick] [--sim PATH]
#       [--jobs N] [--trace FB-2009.tsv] [--seeds N] [--ks 1.5,2,4]
#       [--policy triage] [--loads 0.6,0.8] [--factor 8] [--days 7]
#       [--modes perfect,estimator,own,limit] [--families swim,reverse]
#
# The full SWIM run needs the trace file (FB-2009_samples_24_times_1hr_0.tsv
# of the SWIM repository); --quick replays bench/workloads/swim-fb2009-h08-10.json
# (hours 8-10), one seed, and a 2-day reverse week at load 0.8.
# Writes DIR/value.tsv (family, variant, k or load, mode, seed, missed %)
# and DIR/table.md.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
TRACE= SEEDS=3 KS="1.5 2 4" POLICY=triage LOADS="0.6 0.8" FACTOR=8 DAYS=7
MARGIN=1 MODES="perfect estimator own limit" FAMILIES="swim reverse"
[ "$QUICK" = 1 ] && SEEDS=1 KS=2 LOADS=0.8 DAYS=2 MARGIN=0.5
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--trace) [ $# -ge 2 ] || sim_die "--trace needs a file"; TRACE=$2; shift 2 ;;
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	--ks) [ $# -ge 2 ] || sim_die "--ks needs a list"; KS=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--policy) [ $# -ge 2 ] || sim_die "--policy needs a name"; POLICY=$2; shift 2 ;;
	--loads) [ $# -ge 2 ] || sim_die "--loads needs a list"; LOADS=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--factor) [ $# -ge 2 ] || sim_die "--factor needs a number"; FACTOR=$2; shift 2 ;;
	--days) [ $# -ge 2 ] || sim_die "--days needs a number"; DAYS=$2; shift 2 ;;
	--modes) [ $# -ge 2 ] || sim_die "--modes needs a list"; MODES=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--families) [ $# -ge 2 ] || sim_die "--families needs a list"; FAMILIES=$(echo "$2" | tr ',' ' '); shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
case "$SEEDS" in ''|*[!0-9]*|0) sim_die "--seeds expects a positive number" ;; esac

# the workloads: DIR/<family>-<variant>-<x>/workload.json (+ cluster.json)
for f in $FAMILIES; do
	case "$f" in
	swim)
		if [ "$QUICK" = 1 ]; then
			cp "$BENCH_DIR/workloads/swim-fb2009-h08-10.json" "$OUT/swim-base.json"
			cp "$BENCH_DIR/workloads/swim-fb2009.cluster.json" "$OUT/swim-cluster.json"
		else
			[ -n "$TRACE" ] || sim_die "the full run needs --trace FB-2009_samples_24_times_1hr_0.tsv (or use --quick)"
			"$SIM" gen swim --trace "$TRACE" --k 1 --cluster-out "$OUT/swim-cluster.json" >"$OUT/swim-base.json"
		fi
		for k in $KS; do
			for v in plain mixed; do
				d="$OUT/swim-$v-$k"
				mkdir -p "$d"
				cp "$OUT/swim-cluster.json" "$d/cluster.json"
				if [ "$v" = mixed ]; then
					jq -c ".jobs |= [to_entries[] | if .key % 2 == 1
						then .value | del(.deadline_factor, .deadline, .relative_deadline)
						else .value | .deadline_factor = $k end]" \
						"$OUT/swim-base.json" >"$d/workload.json"
				else
					jq -c ".jobs[].deadline_factor = $k" "$OUT/swim-base.json" >"$d/workload.json"
				fi
			done
		done ;;
	reverse)
		for l in $LOADS; do
			for v in plain mixed; do
				d="$OUT/reverse-$v-$l"
				mkdir -p "$d"
				nodl=". "
				[ "$v" = mixed ] && nodl=".jobs |= [to_entries[] | if .key % 2 == 1
					then .value | del(.deadline_factor, .deadline, .relative_deadline)
					else .value end]"
				# as reproduce-reverse.sh: Twitter external load, 390 s tasks
				"$SIM" gen reverse --load "$l" --max-factor "$FACTOR" --days "$DAYS" \
					--margin-days "$MARGIN" --task-length 390 --seed 1 \
					--forecast "$BENCH_DIR/workloads/twitter-2021-load.txt" --ext-peak 0.7 \
					--cluster-out "$d/cluster.json" | jq -c "$nodl" >"$d/workload.json"
			done
		done ;;
	*) sim_die "unknown family $f" ;;
	esac
done

export SIM OUT POLICY
for d in "$OUT"/*-*-*/; do
	d=${d%/}
	for m in $MODES; do
		for s in $(seq 1 "$SEEDS"); do
			echo "$d $m $s"
		done
	done
done | xargs -P "$JOBS" -L 1 sh -c '
	"$SIM" run --cluster "$1/cluster.json" --workload "$1/workload.json" \
		--policy "$POLICY" --task-lengths "$2" --seed "$3" \
		--summary-json "$1/summary-$2-$3.json" >"$1/run-$2-$3.txt" 2>&1 ||
		echo "run failed: $1 $2 seed $3" >&2
' sh

TSV=$OUT/value.tsv
printf 'family\tvariant\tx\tmode\tseed\tmissed_pct\n' >"$TSV"
for d in "$OUT"/*-*-*/; do
	d=${d%/}
	b=$(basename "$d")
	fam=${b%%-*} rest=${b#*-} var=${rest%%-*} x=${rest#*-}
	for m in $MODES; do
		for s in $(seq 1 "$SEEDS"); do
			f=$d/summary-$m-$s.json
			[ -r "$f" ] || continue
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$fam" "$var" "$x" "$m" "$s" \
				"$(jq -r .missed_pct "$f")" >>"$TSV"
		done
	done
done
rm -f "$OUT"/*-*-*/workload.json
# mean and sd of missed % over the seeds, one column per mode
{
	printf '| family | variant | k / load |'
	for m in $MODES; do printf ' %s |' "$m"; done
	printf '\n|---|---|---|'
	for m in $MODES; do printf -- '---|'; done
	printf '\n'
	tail -n +2 "$TSV" | cut -f1-3 | sort -u | while IFS='	' read -r fam var x; do
		printf '| %s | %s | %s |' "$fam" "$var" "$x"
		for m in $MODES; do
			awk -F'\t' -v f="$fam" -v v="$var" -v x="$x" -v m="$m" '
				$1 == f && $2 == v && $3 == x && $4 == m { n++; s += $6; q += $6 * $6 }
				END { if (!n) { printf " – |"; exit }
				      mu = s / n; var = n > 1 ? (q - n * mu * mu) / (n - 1) : 0
				      sd = var > 0 ? sqrt(var) : 0  # rounding: var may be -0
				      printf " %.2f ± %.2f |", mu, sd }' "$TSV"
		done
		printf '\n'
	done
} >"$OUT/table.md"
echo "policy $POLICY, $SEEDS seed(s); missed deadlines, % (mean ± sd over the seeds):"
cat "$OUT/table.md"
