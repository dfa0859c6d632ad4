#!/bin/sh
# Run each libFuzzer binary for a bounded time on a scratch copy of its seed
# corpus, FUZZ_JOBS of them at once (default 1; each fuzzer uses one core).
# Usage: run-fuzzers.sh SECONDS CORPUS_ROOT BIN...
# Exit status is non-zero if any fuzzer found a crash, leak or timeout.
# An input counts as a hang after 60 s: the largest inputs the parsers
# accept take about a second under ASan (65,536 host names expanded and
# sorted), and CI runs the fuzzers at nice 19 beside the local cluster.
# Starved so (two busy processes beside them), four targets reported
# inputs that replay in 0.2-0.8 s as 10-s hangs.
set -u
secs=$1
corpus_root=$2
shift 2
jobs=${FUZZ_JOBS:-1}
case "$jobs" in '' | *[!0-9]* | 0) jobs=1 ;; esac

run_one() { # bin: its summary line in work/NAME.result, work/NAME.failed on failure
	name=$(basename "$1")
	work=test/fuzz/work/$name
	rm -rf "$work" "$work.failed"
	mkdir -p "$work"
	[ -d "$corpus_root/$name" ] && cp -r "$corpus_root/$name/." "$work/"
	if "$1" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 \
		-artifact_prefix="test/fuzz/work/$name-" -print_final_stats=1 \
		"$work" >"$work.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log")
		echo "fuzz $name: ${secs}s, ${runs:-?} inputs, no crash" >"$work.result"
	else
		echo "fuzz $name: FAILED (see $work.log)" >"$work.result"
		tail -n 30 "$work.log" >>"$work.result"
		: >"$work.failed"
	fi
}

mkdir -p test/fuzz/work
running=0
for bin in "$@"; do
	run_one "$bin" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	cat "test/fuzz/work/$name.result"
	[ -e "test/fuzz/work/$name.failed" ] && status=1
done
exit $status
