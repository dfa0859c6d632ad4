#!/bin/sh
# Throughput, latency and memory of deadline-estimatord (doc/design.md §11):
#  1. load RECORDS task records through `observe` (1000 per request),
#  2. restart the daemon (it reloads them all from SQLite) and read its
#     resident memory,
#  3. time `predict` from one client on the Unix socket (raw lines, then the
#     core's client API).
# Writes a Markdown report to stdout.
#
#   bench/estimator_bench.sh BUILD_DIR [RECORDS] [PREDICTS]
set -eu
build=${1:?usage: estimator_bench.sh BUILD_DIR [RECORDS] [PREDICTS]}
records=${2:-1000000}
predicts=${3:-200000}
users=100
names=10 # 1000 keys
per_key=$(( (records + users * names - 1) / (users * names) ))
[ "$per_key" -ge 1 ] || per_key=1
bin=$build/src/estimator/deadline-estimatord
bench=$build/bench/estimator_bench
dir=$(mktemp -d /tmp/dl-est-bench.XXXXXX)
sock=$dir/est.sock
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
# keep every record: HistoryPerKey covers RECORDS / keys
printf 'SlurmUser=root\nHistoryPerKey=%s\nLogLevel=error\n' "$per_key" >"$dir/conf"

start() {
	"$bin" --foreground --config "$dir/conf" --socket "$sock" --db "$dir/h.db" 2>>"$dir/log" &
	pid=$!
	i=0
	while ! echo '{"v":1,"id":0,"op":"ping"}' | "$build/test/bats/estimator_raw" --socket "$sock" --expect 1 --timeout 1 >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "daemon did not start" >&2; cat "$dir/log" >&2; exit 1; }
		sleep 0.1
	done
}
stop() {
	kill "$pid"
	wait "$pid" || true
	pid=
}
rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"
}
# CPU seconds (user + system) the daemon has used so far
cpu_s() {
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$pid/stat"
}
hwm_kb() {
	awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status"
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
start
load_line=$("$bench" --socket "$sock" load "$records" "$users" "$names")
rss_after_load=$(rss_kb)
stop
t0=$(date +%s.%N)
start
t1=$(date +%s.%N)
rss_reloaded=$(rss_kb)
stored=$(echo '{"v":1,"id":1,"op":"stats"}' | "$build/test/bats/estimator_raw" --socket "$sock" --expect 1 | sed 's/.*"records":\([0-9]*\).*/\1/')
c0=$(cpu_s)
raw_line=$("$bench" --socket "$sock" predict "$predicts" "$users" "$names" raw)
c1=$(cpu_s)
client_line=$("$bench" --socket "$sock" predict "$predicts" "$users" "$names" client)
daemon_us=$(echo "scale=1; ($c1 - $c0) * 1000000 / $predicts" | bc)
rss_end=$(rss_kb)
hwm=$(hwm_kb)
stop
db_mb=$(du -sm "$dir" | cut -f1)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

cat <<EOF
| measure | value |
|---|---|
| records in the database after loading | $stored |
| load (observe, 1000 tasks per request) | $load_line |
| restart: reload of all records from SQLite (start to first ping) | $(echo "$t1 - $t0" | bc) s |
| RSS after loading | $((rss_after_load / 1024)) MB |
| RSS after a restart with all records reloaded | $((rss_reloaded / 1024)) MB |
| RSS after the predict runs / peak (VmHWM) of that daemon | $((rss_end / 1024)) MB / $((hwm / 1024)) MB |
| database size on disk (with WAL) | $db_mb MB |
| predict, raw request lines, 1 client | $raw_line |
| predict, core client API, 1 client | $client_line |
| daemon CPU time per predict (raw run) | $daemon_us us |
| machine load average (1, 5, 15 min) at start / end | $load_start / $load_end |
EOF
