#!/bin/sh
# Run the plan-cycle benchmark at the sizes of doc/design.md §11 and write a
# Markdown result with the date, machine and commands.
#   bench/run-plan-cycle.sh BUILD_DIR [OUT.md]
set -eu
build=${1:?usage: run-plan-cycle.sh BUILD_DIR [OUT.md]}
out=${2:-bench/results/plan-cycle.md}
bin="$build/bench/plan_cycle"
[ -x "$bin" ] || { echo "build the benchmark first: make -C $build bench" >&2; exit 1; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "# Adaptive plan cycle"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: $(nproc) cores, $cpu, $(free -g | awk '/^Mem:/ {print $2}') GB"
	echo "- load average when it started (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- build: \`CFLAGS=\"-O2 -g\" ../configure\` (gcc $(gcc -dumpversion))"
	echo "- target (doc/design.md §11): ≤ 5 ms for 1,000 arrays × 1,000 nodes; 10,000 × 10,000 reported, scaling no worse than n log n"
	echo
	echo '| arrays | nodes | CPUs | median ms | p95 ms | max ms | grants | peak RSS MB | command |'
	echo '|---:|---:|---:|---:|---:|---:|---:|---:|---|'
	for size in "1000 1000 50" "2000 2000 20" "5000 5000 10" "10000 10000 5"; do
		set -- $size
		cmd="bench/plan_cycle --arrays $1 --nodes $2 --runs $3"
		line=$("$bin" --arrays "$1" --nodes "$2" --runs "$3")
		get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
		echo "| $1 | $2 | $(get cpus) | $(get median_ms) | $(get p95_ms) | $(get max_ms) | $(get grants) | $(get maxrss_mb) | \`$cmd\` |"
	done
} >"$out"
cat "$out"
