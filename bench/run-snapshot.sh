#!/bin/sh
# Run the sched/deadline snapshot benchmark (bench/snapshot_merge.c) over
# growing numbers of deadline arrays, with running tasks only and with
# finished task records as well, and write a Markdown result with the
# date, machine and commands.
#   bench/run-snapshot.sh [--instructions] BUILD_DIR [OUT.md]
# --instructions adds callgrind's instruction counts (valgrind; slow for a
# quadratic build, and needs no quiet machine).
set -eu
count=0
[ "${1:-}" = --instructions ] && { count=1; shift; }
build=${1:?usage: run-snapshot.sh [--instructions] BUILD_DIR [OUT.md]}
out=${2:-bench/results/sched-snapshot.md}
bin="$build/bench/snapshot_merge"
[ -x "$bin" ] || { echo "build the benchmark first: make -C $build bench" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "# sched/deadline: snapshot, merge and job build"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- machine: $(nproc) cores, $cpu, $(free -g | awk '/^Mem:/ {print $2}') GB"
	echo "- load average when it started (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- build: \`CFLAGS=\"-O2 -g\" ../configure\` (gcc $(gcc -dumpversion)), Slurm $(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo '?')"
	echo "- what: snapshot.c as slurmctld runs it, on synthetic records in Slurm's own"
	echo "  lists, node table and bitmaps (1,000 nodes, one partition); every array has"
	echo "  20 pending tasks, 10 running task records and the finished ones; half of"
	echo "  the arrays are reduce arrays (afterok) of the other half.  Median of 9"
	echo "  cycles after one that counts the finished tasks.  \`take\` runs under"
	echo "  slurmctld's read locks, \`merge\` and \`build\` with no lock."
	echo "- fingerprint: a hash of every job's counts and running tasks as the plan gets them"
	echo "- instructions per record: valgrind's callgrind over two cycles (the first"
	echo "  counts the finished tasks), take + merge + build, divided by 2 x records;"
	echo "  the machine-independent measure of growth (times also grow with the"
	echo "  memory the records take, which outgrows the caches)"
	echo
	echo '| arrays | running | task records | take ms | merge ms | build ms | ns per record | instructions per record | fingerprint | command |'
	echo '|---:|---:|---:|---:|---:|---:|---:|---:|---|---|'
	for fin in 0 90; do
		for arrays in 250 500 1000 2000 4000; do
			cmd="bench/snapshot_merge --arrays $arrays --running 10 --finished $fin"
			line=$("$bin" --arrays "$arrays" --running 10 --finished "$fin")
			get() { echo "$line" | tr ' ' '\n' | sed -n "/^$1\$/{n;p;}"; }
			ms() { awk -v u="$(get "$1")" 'BEGIN { printf "%.2f", u / 1000 }'; }
			ipr=-
			if [ "$count" = 1 ]; then
				valgrind --tool=callgrind --toggle-collect=sdl_snapshot_take \
					--toggle-collect=sdl_snapshot_merge --toggle-collect=sdl_build_jobs \
					--callgrind-out-file="$tmp" "$bin" --arrays "$arrays" --running 10 \
					--finished "$fin" --runs 1 >/dev/null 2>&1
				ipr=$(callgrind_annotate "$tmp" | awk -v r="$(get records)" \
					'/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.0f", $1 / 2 / r }')
			fi
			echo "| $arrays | $(get running) | $(get records) | $(ms take_us) | $(ms merge_us) | $(ms build_us) | $(get total_ns_per_record) | $ipr | $(get fingerprint) | \`$cmd\` |"
		done
	done
} >"$out"
cat "$out"
