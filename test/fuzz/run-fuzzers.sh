#!/bin/sh
# Run each libFuzzer binary for a bounded time on a scratch copy of its seed
# corpus.  Usage: run-fuzzers.sh SECONDS CORPUS_ROOT BIN...
# Exit status is non-zero if any fuzzer found a crash, leak or timeout.
set -u
secs=$1
corpus_root=$2
shift 2
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	work=test/fuzz/work/$name
	rm -rf "$work"
	mkdir -p "$work"
	[ -d "$corpus_root/$name" ] && cp -r "$corpus_root/$name/." "$work/"
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="test/fuzz/work/$name-" -print_final_stats=1 \
		"$work" >"test/fuzz/work/$name.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "test/fuzz/work/$name.log")
		echo "fuzz $name: ${secs}s, ${runs:-?} inputs, no crash"
	else
		echo "fuzz $name: FAILED (see test/fuzz/work/$name.log)"
		tail -n 30 "test/fuzz/work/$name.log"
		status=1
	fi
done
exit $status
