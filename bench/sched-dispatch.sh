#!/bin/bash
# Benchmark: how soon a freed slot runs the next task (doc/design.md §11: <= 1 s),
# on the local cluster (16 nodes x 2 CPUs) with the two-tenant workload of
# contrib/quickstart.sh, under sched/backfill and sched/deadline.
# Latency = task start - latest task end on the same node, from slurmctld's
# log (ms timestamps; bench/dispatch-latency.py).
#
#   sudo bench/sched-dispatch.sh [--build DIR] [--out FILE]
#                                [--compare-build DIR --compare-label TEXT]
#
# --compare-build adds a row for sched/deadline built in another tree (say
# an earlier commit), run in the same benchmark run.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
build=$top/build
out=""
compare_build=""
compare_label=""
dir=/tmp/slurm-deadline-bench-dispatch
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--compare-build) compare_build=$2; shift 2 ;;
	--compare-label) compare_label=$2; shift 2 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done
lc() { "$top/contrib/localcluster/localcluster" --dir "$dir" "$@"; }
trap 'lc stop || true; rm -f "${conf:-}"' EXIT
export SLURM_CONF=$dir/etc/slurm.conf

if [ -n "$compare_build" ] && [ -z "$compare_label" ]; then
	echo "--compare-build needs --compare-label" >&2
	exit 2
fi
# scheduler|build tree|row label
runs=("sched/backfill|$build|sched/backfill")
[ -z "$compare_build" ] || runs+=("sched/deadline|$compare_build|sched/deadline, $compare_label")
runs+=("sched/deadline|$build|sched/deadline")
load=$(cut -d' ' -f1-3 /proc/loadavg)
# every other setting at its default; Debug=1 logs what the release watch
# did and its node read lock holds
conf=$(mktemp)
printf 'Debug=1\n' >"$conf"
rows=""
for r in "${runs[@]}"; do
	IFS='|' read -r sched tree label <<<"$r"
	lc stop || true
	rm -f "$dir"/log/slurmctld.log
	lc --port-base 20060 --build "$tree" --sched "$sched" --deadline-conf "$conf" start
	cd "$dir/jobs"
	t0=$(date +%s)
	a=$(sbatch --parsable -o /dev/null --array=0-399 -t 0:30 --deadline=now+200seconds --wrap='sleep 6')
	sleep 5
	b=$(sbatch --parsable -o /dev/null --array=0-63 -t 0:30 --deadline=now+125seconds --wrap='sleep 3')
	lc wait-idle 300
	span=$(($(date +%s) - t0))
	cd "$top"
	read -r n p50 p90 max <<<"$(python3 bench/dispatch-latency.py "$dir/log/slurmctld.log")"
	bdone=$(grep "ArrayJobId=$b " "$dir/log/jobcomp.txt" | grep -c JobState=COMPLETED || true)
	adone=$(grep "ArrayJobId=$a " "$dir/log/jobcomp.txt" | grep -c JobState=COMPLETED || true)
	# "release watch since the last look: P scheduling passes requested,
	# I ends or releases with no deadline work waiting, L looks under the
	# node read lock (max hold H us)" ("last cycle", no I: builds before
	# 2026-12-04, for --compare-build)
	watch=$(awk '/release watch since the last (cycle|look)/ {
			for (i = 1; i <= NF; i++) {
				if ($i == "scheduling") p += $(i - 1)
				if ($i == "looks") l += $(i - 1)
				if ($i == "hold") { h = $(i + 1) + 0; if (h > m) m = h }
			}
			seen = 1
		}
		END { if (seen) printf "%d | %d | %d", p, l, m; else printf "- | - | -" }' "$dir/log/slurmctld.log")
	rows="$rows| $label | $n | $p50 | $p90 | $max | $adone/400 | $bdone/64 | $span | $watch |
"
done

report=$(cat <<EOF
# sched/deadline: dispatch latency of freed slots

- date: $(date -u +%Y-%m-%dT%H:%MZ)
- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(free -g | awk '/Mem:/ { print $2 }') GB, load average $load at the start
- Slurm $(dpkg-query -W -f='${Version}' slurmctld), local cluster 16 nodes x 2 CPUs (contrib/localcluster), default SchedulerParameters
- command: \`sudo bench/sched-dispatch.sh${compare_build:+ --compare-build DIR --compare-label '$compare_label'}\`
- workload: A \`--array=0-399 -t 0:30 --deadline=now+200seconds\` of 6 s tasks, 5 s later B \`--array=0-63 -t 0:30 --deadline=now+125seconds\` of 3 s tasks
- deadline.conf: \`Debug=1\` (the release watch's log lines), everything else at its default
- latency: for each task start, the time since the latest task end on the same node (starts within 10 s of an end), from slurmctld's log

| scheduler | slot turnovers | p50 (ms) | p90 (ms) | max (ms) | A completed | B completed | workload (s) | release watch: passes requested | looks under the node read lock | max hold (µs) |
|---|---|---|---|---|---|---|---|---|---|---|
$rows
Target (doc/design.md §11): an allotted task starts ≤ 1 s after a slot frees.
EOF
)
echo "$report"
[ -z "$out" ] || echo "$report" >"$out"
