#!/bin/sh
# Policy=portfolio against the single policies on every workload family of
# bench/results, small (issue 16): one `deadline-sim compare` per family
# cell and seed, the candidates and portfolio on the same workload.
#
#   reproduce-portfolio.sh --sim PATH --out DIR [--seeds N] [--jobs N]
#                          [--families a,b] [--param Name=Value]...
#
# Families (each cell small enough for a portfolio run of minutes):
#   polo-a, polo-b   Polo Ch.3 scenarios (gen polo-ch3-a/b)
#   rtmr             RTMR workload I (gen binned, bench/workloads bins)
#   swim, swim-priors  SWIM FB-2009 hours 8-10, k = 1.5, without and with
#                    history priors (bench/workloads/swim-fb2009-h08-10.json)
#   reverse          reverse family, factor 8, load 0.8, 2 days, twitter
#                    external load (gen reverse as reproduce-reverse.sh)
#   phased           the phased day (gen phased)
# Writes DIR/<family>/seed-S/ (summary-<policy>.json, compare.txt, the
# portfolio run's log with its rounds) and DIR/table.tsv: family, seed,
# policy, missed %; DIR/means.tsv.  The single policies of a cell that
# already has their summaries are not run again (a rerun with another
# portfolio build or --param measures only the portfolio).
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
SIM="" OUT="" SEEDS=3 JOBS=1 FAMILIES=polo-a,polo-b,rtmr,swim,swim-priors,reverse,phased
POLICIES=triage,edf,adaptive,portfolio PARAMS=""
while [ $# -gt 0 ]; do
	case "$1" in
	--sim) SIM=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--seeds) SEEDS=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--families) FAMILIES=$2; shift 2 ;;
	--policies) POLICIES=$2; shift 2 ;;
	--param) PARAMS="$PARAMS --param $2"; shift 2 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done
if [ ! -x "$SIM" ] || [ -z "$OUT" ]; then
	echo "usage: $0 --sim PATH --out DIR" >&2
	exit 2
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

gen() { # family seed dir: writes dir/cluster.json and dir/workload.json
	case "$1" in
	polo-a | polo-b)
		"$SIM" gen "polo-ch3-${1#polo-}" --cluster-out "$3/cluster.json" >"$3/workload.json" ;;
	rtmr)
		"$SIM" gen binned --bins "$BENCH_DIR/workloads/rtmr-w1.bins.json" --seed "$2" \
			--cluster-out "$3/cluster.json" >"$3/workload.json" ;;
	swim | swim-priors)
		cp "$BENCH_DIR/workloads/swim-fb2009.cluster.json" "$3/cluster.json"
		jq -c '.jobs[].deadline_factor = 1.5' "$BENCH_DIR/workloads/swim-fb2009-h08-10.json" \
			>"$3/workload.json" ;;
	reverse)
		"$SIM" gen reverse --load 0.8 --max-factor 8 --days 2 --margin-days 0.5 \
			--task-length 390 --seed "$2" --forecast "$BENCH_DIR/workloads/twitter-2021-load.txt" \
			--ext-peak 0.7 --cluster-out "$3/cluster.json" >"$3/workload.json" ;;
	phased)
		"$SIM" gen phased --seed "$2" --cluster-out "$3/cluster.json" >"$3/workload.json" ;;
	*) echo "unknown family $1" >&2; return 1 ;;
	esac
}
export SIM OUT POLICIES PARAMS
# shellcheck disable=SC2016 # the inner sh expands them
for f in $(echo "$FAMILIES" | tr ',' ' '); do
	for s in $(seq 1 "$SEEDS"); do
		d=$OUT/$f/seed-$s
		mkdir -p "$d"
		gen "$f" "$s" "$d"
		echo "$f $s"
	done
done | xargs -P "$JOBS" -L 1 sh -c '
	d=$OUT/$1/seed-$2 priors=""
	[ "$1" = swim-priors ] && priors=--priors
	singles=$(echo "$POLICIES" | tr "," "\n" | grep -vx portfolio | paste -sd, -)
	# shellcheck disable=SC2086
	[ -z "$singles" ] || [ -s "$d/summary-${singles##*,}.json" ] ||
		"$SIM" compare --cluster "$d/cluster.json" --workload "$d/workload.json" \
			--policies "$singles" --seed "$2" $priors --no-oracle --out-dir "$d" \
			>"$d/compare.txt" 2>&1 || echo "compare failed: $1 seed $2" >&2
	# the portfolio on its own, with its rounds in its log (no round stops
	# on wall time: PortfolioBudget=600)
	# shellcheck disable=SC2086
	"$SIM" run --cluster "$d/cluster.json" --workload "$d/workload.json" \
		--policy portfolio --seed "$2" $priors --param PortfolioBudget=600 $PARAMS \
		--summary-json "$d/summary-portfolio.json" --log "$d/portfolio.log" \
		>/dev/null 2>"$d/portfolio.err" || echo "portfolio failed: $1 seed $2" >&2
' sh
printf 'family\tseed\tpolicy\tmissed_pct\n' >"$OUT/table.tsv"
for f in $(echo "$FAMILIES" | tr ',' ' '); do
	for s in $(seq 1 "$SEEDS"); do
		for p in $(echo "$POLICIES" | tr ',' ' '); do
			m=$(jq -r '.missed_pct // empty' "$OUT/$f/seed-$s/summary-$p.json" 2>/dev/null || true)
			printf '%s\t%s\t%s\t%s\n' "$f" "$s" "$p" "${m:--}"
		done
	done
done >>"$OUT/table.tsv"
# mean per family and policy
awk -F'\t' 'NR > 1 && $4 != "-" { k = $1 "\t" $3; s[k] += $4; n[k]++ }
	END { for (k in s) printf "%s\t%.2f\t%d\n", k, s[k] / n[k], n[k] }' "$OUT/table.tsv" |
	sort >"$OUT/means.tsv"
cat "$OUT/means.tsv"
