#!/bin/sh
# Simulator speed on the reverse family (doc/design.md §11: one run of 100 nodes,
# 7 days, ~2,500 jobs in at most 10 s): wall time, simulated events per
# second and plan cycles per policy and load, with and without the Twitter
# external load.
#
#   bench-sim-speed.sh [--out DIR] [--sim PATH] [--policies a,b]
#                      [--loads 0.2,0.6,1.0]
#
# Prints a Markdown table (also DIR/speed.md) with the machine's CPU.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
POLS=adaptive,fifo,edf
LOADS="0.2 0.6 1.0"
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--policies) [ $# -ge 2 ] || sim_die "--policies needs a list"; POLS=$2; shift 2 ;;
	--loads) [ $# -ge 2 ] || sim_die "--loads needs a list"; LOADS=$(echo "$2" | tr "," " "); shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
POLS=$(sim_available "$POLS")
{
	echo "| external load | load | jobs | policy | wall s | events | events/s | plans | mean plan us |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for ext in none twitter; do
		for l in $LOADS; do
			d=$OUT/$ext-l$l
			mkdir -p "$d"
			x=""
			[ "$ext" = twitter ] && x="--forecast $BENCH_DIR/workloads/twitter-2021-load.txt"
			# shellcheck disable=SC2086
			"$SIM" gen reverse --load "$l" --max-factor 4 --seed 1 $x \
				--cluster-out "$d/cluster.json" >"$d/workload.json"
			n=$(jq '.jobs | length' "$d/workload.json")
			for p in $(echo "$POLS" | tr ',' ' '); do
				"$SIM" run --cluster "$d/cluster.json" --workload "$d/workload.json" \
					--policy "$p" --summary-json "$d/summary-$p.json" >/dev/null
				jq -r --arg e "$ext" --arg l "$l" --arg n "$n" \
					'"| \($e) | \($l) | \($n) | \(.policy) | \(.wall_s * 100 | round / 100) | \(.events) | \(.events_per_s | round) | \(.plans) | \(.mean_plan_us | round) |"' \
					"$d/summary-$p.json"
			done
		done
	done
	echo
	echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
} | tee "$OUT/speed.md"
