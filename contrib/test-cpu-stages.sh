#!/bin/sh
# The CPU-bound stages of contrib/run-tests.sh: the unit tests (Check) and
# corpus replays, the same under ASan+UBSan and under valgrind, bounded
# fuzzing, make distcheck.  run-tests.sh runs this in the background, in a
# session of its own at the lowest CPU and I/O priority, beside the bats
# stages; an early exit there stops the whole session.  From a built
# source tree (./build), as root:
#
#   contrib/test-cpu-stages.sh JOBS FUZZ_SECONDS FAILED_FILE
#
# Prints each stage like run-tests.sh and writes the names of the stages
# that failed (none: an empty line) to FAILED_FILE.
set -eu
cd "$(dirname "$0")/.."
[ $# = 3 ] || { echo "usage: contrib/test-cpu-stages.sh JOBS FUZZ_SECONDS FAILED_FILE" >&2; exit 2; }
jobs=$1
fuzz_seconds=$2
failed_file=$3
# shellcheck source=contrib/test-lib.sh
. contrib/test-lib.sh

stage "unit tests (Check) and corpus replays"
(cd build && make -s -j"$jobs" check >/dev/null 2>&1) || fail unit
summaries build

stage "unit tests under ASan+UBSan"
# Check's timeouts are wall-clock.  Here the tests run instrumented (a
# few times slower) at the lowest priority beside a busy slurmctld, so
# the timeouts grow tenfold: they are there to stop a hung test, not to
# time one.  A CI run lost test_reserve this way: a case that takes
# 0.5-1 s here idle under ASan ran past the default 4 s.
mkdir -p build-asan
if (cd build-asan && ../configure -q --enable-sanitizers --without-slurm-source &&
	CK_TIMEOUT_MULTIPLIER=10 make -s -j"$jobs" check >/dev/null 2>&1); then :; else fail asan; fi
summaries build-asan

stage "unit tests under valgrind"
# $jobs tests at once, the next starting as soon as one ends; each
# leaves TEST.valgrind and, when it fails, TEST.vgfail
vg_tests=""
for t in build/test/unit/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case "$t" in *.o|*.log|*.trs|*.valgrind|*.vgfail) continue ;; esac
	vg_tests="$vg_tests $t"
done
# shellcheck disable=SC2016 # $1 is the test, expanded by the inner sh
printf '%s\n' $vg_tests | xargs -P "$jobs" -I{} sh -c 'rm -f "$1.vgfail"
	CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$1" >"$1.valgrind" 2>&1 ||
		: >"$1.vgfail"' vg_one {} || true
vg_fail=0
for t in $vg_tests; do
	if [ -e "$t.vgfail" ]; then
		echo "valgrind $(basename "$t"): FAILED"; tail -n 30 "$t.valgrind"; vg_fail=1
	else
		echo "valgrind $(basename "$t"): clean ($(grep -h -E 'Checks:' "$t.valgrind" | head -n 1))"
	fi
done
[ "$vg_fail" = 0 ] || fail valgrind

stage "fuzzing (${fuzz_seconds}s per target)"
(cd build && make -s -j"$jobs" fuzz >/dev/null 2>&1 &&
	FUZZ_JOBS=$jobs make -s fuzz-run FUZZ_SECONDS="$fuzz_seconds") || fail fuzz

stage "make distcheck"
# in parallel like the other stages: serial, it took 613 s of a
# 1,967-s run without bats here, 287 s with -j2
if (cd build && make -s -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS="--with-slurm-source=$(readlink -f /var/cache/slurm-deadline/slurm-src)" >distcheck.log 2>&1); then
	grep -E 'archives ready for distribution|^slurm-deadline-.*tar.gz' build/distcheck.log | head -n 3
else
	tail -n 40 build/distcheck.log; fail distcheck
fi
stage "end of the stages run beside bats"
echo "$failed" >"$failed_file"
