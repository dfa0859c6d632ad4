#!/bin/sh
# Run the realtime admission benchmark and print a Markdown report (date,
# machine, command, output) for bench/results/realtime-admission.md.
#   bench/run-realtime.sh [BUILD_DIR]
set -eu
build=${1:-build}
make -s -C "$build" bench/rt_admit >/dev/null
cmd="$build/bench/rt_admit --jobs 1000 --units 10000 --probes 1000 --seed 42"
echo "# Realtime admission benchmark"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "- command: \`$cmd\`"
echo
echo '```'
$cmd
echo '```'
