#!/bin/sh
# Run the plan-cycle benchmark for the default policy (triage), EDF and
# adaptive at the sizes of doc/design.md §11 and write a Markdown result with
# the date, machine and commands.  Each run after the first is given the
# previous cycle's plan, as slurmctld does (cold_ms is the first cycle).
#   bench/run-plan-cycle.sh BUILD_DIR [OUT.md] [POLICIES]
set -eu
build=${1:?usage: run-plan-cycle.sh BUILD_DIR [OUT.md]}
out=${2:-bench/results/plan-cycle.md}
policies=${3:-triage edf adaptive}
bin="$build/bench/plan_cycle"
[ -x "$bin" ] || { echo "build the benchmark first: make -C $build bench" >&2; exit 1; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "# Plan cycle: triage (the default), EDF, adaptive"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: $(nproc) cores, $cpu, $(free -g | awk '/^Mem:/ {print $2}') GB"
	echo "- load average when it started (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- build: \`CFLAGS=\"-O2 -g\" ../configure\` (gcc $(gcc -dumpversion))"
	echo "- targets: triage ≤ 10 ms at 1,000 arrays × 1,000 nodes and ≤ 150 ms at 10,000 × 10,000 (median of the cycles after the first); adaptive ≤ 5 ms at 1,000 × 1,000 (doc/design.md §11)"
	echo
	echo '| policy | arrays | nodes | CPUs | cold ms | median ms | p95 ms | max ms | grants | peak RSS MB | command |'
	echo '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|'
	for policy in $policies; do
		for size in "1000 1000 50" "2000 2000 20" "5000 5000 10" "10000 10000 5"; do
			set -- $size
			cmd="bench/plan_cycle --policy $policy --arrays $1 --nodes $2 --runs $3"
			line=$("$bin" --policy "$policy" --arrays "$1" --nodes "$2" --runs "$3")
			get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
			echo "| $policy | $1 | $2 | $(get cpus) | $(get cold_ms) | $(get median_ms) | $(get p95_ms) | $(get max_ms) | $(get grants) | $(get maxrss_mb) | \`$cmd\` |"
		done
	done
} >"$out"
cat "$out"
