# shellcheck shell=sh
# What contrib/run-tests.sh and contrib/test-slurm-chroot.sh share: stage
# headers with the previous stage's duration, the list of failed stages,
# and the summary lines of the test runners.  Sourced, from the top of the
# source tree.

t_stage=""
failed=""
stage() { # names the stage and says how long the previous one took
	now=$(date +%s)
	[ -z "$t_stage" ] || printf '(%s s)\n' $((now - t_stage))
	t_stage=$now
	printf '\n==== %s ====\n' "$*"
}
fail() { failed="$failed $1"; }
summaries() { # Check and automake summary lines of a build dir
	for f in "$1"/test/unit/*.log "$1"/test/fuzz/*.log; do
		[ -f "$f" ] || continue
		grep -h -E '^[0-9]+%: Checks:|^replayed' "$f" | sed "s|^|$(basename "$f" .log): |"
	done
	grep -h -E '^# (TOTAL|PASS|FAIL|ERROR|SKIP)' "$1/test-suite.log" 2>/dev/null || true
	# a failed test's own output, which make check's quiet run hides
	for t in $(grep -l -E '^:test-result: (FAIL|ERROR)' \
		"$1"/test/unit/*.trs "$1"/test/fuzz/*.trs "$1"/doc/*.trs 2>/dev/null); do
		echo "---- ${t%.trs}.log (last 40 lines) ----"
		tail -n 40 "${t%.trs}.log"
	done
}
# The closing line of a bats run from its TAP file; status 0 when every
# planned test passed.
bats_summary() { # name slurm-version tap-file
	planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$3" | head -n 1)
	passed=$(grep -c '^ok ' "$3" || true)
	not_ok=$(grep -c '^not ok ' "$3" || true)
	echo "$1 (Slurm $2): ${planned:-0} tests, $passed passed, $not_ok failed"
	[ "$not_ok" = 0 ] && [ "$passed" = "${planned:-x}" ]
}
