#!/bin/sh
# Set up a fresh Debian 12 machine and run every test of slurm-deadline:
# the code style check (clang-format), unit tests (Check), the same under
# ASan+UBSan and under valgrind, corpus replays and bounded fuzzing, make
# distcheck, the bats suites and the fault suite (test/bats/faults_*.bats)
# against a real local Slurm (the machine's 22.05); then the same source against Slurm 24.11 (Debian 13's packages in
# a chroot this run creates and removes, contrib/slurm-chroot): build, unit
# tests and the bats suites that exercise Slurm's behaviour.  Run as root
# from the source tree:
#
#   sudo contrib/run-tests.sh [--skip-setup] [--fuzz-seconds N] [--no-bats]
#                             [--no-slurm-24.11] [--slurm-chroot DIR]
#
# --skip-setup skips the machine's package step (contrib/setup-deps.sh);
# --slurm-chroot DIR uses an existing chroot made by contrib/slurm-chroot
# (and keeps it) instead of creating one.  Each stage prints its test
# runner's own summary lines and how long it took; each Slurm version's
# bats stage ends with "bats (Slurm VERSION): N tests, P passed, F failed";
# the last line says which stages failed, if any.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
skip_setup=0
fuzz_seconds=20
run_bats=1
run_2411=1
chroot_dir=""
while [ $# -gt 0 ]; do
	case "$1" in
	--skip-setup) skip_setup=1; shift ;;
	--fuzz-seconds) fuzz_seconds=$2; shift 2 ;;
	--no-bats) run_bats=0; shift ;;
	--no-slurm-24.11) run_2411=0; shift ;;
	--slurm-chroot) chroot_dir=$2; shift 2 ;;
	*) echo "run-tests: unknown option '$1'" >&2; exit 2 ;;
	esac
done
jobs=$(nproc 2>/dev/null || echo 2)
failed=""
t_start=$(date +%s)
t_stage=""
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

if [ "$skip_setup" = 0 ]; then
	stage "setup: packages and Slurm source"
	contrib/setup-deps.sh
fi

stage "build"
./autogen.sh >/dev/null 2>&1
mkdir -p build
(cd build && ../configure -q && make -s -j"$jobs") || { echo "build failed"; exit 1; }

stage "code style (clang-format, .clang-format)"
if git rev-parse --git-dir >/dev/null 2>&1; then
	if git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror 2>build/format.log; then
		echo "clang-format: $(git ls-files '*.c' '*.h' | wc -l) files formatted"
	else
		head -n 40 build/format.log; fail format
	fi
else
	echo "not a git checkout: skipped"
fi

stage "unit tests (Check) and corpus replays"
(cd build && make -s -j"$jobs" check >/dev/null 2>&1) || fail unit
summaries build

stage "unit tests under ASan+UBSan"
mkdir -p build-asan
if (cd build-asan && ../configure -q --enable-sanitizers --without-slurm-source &&
	make -s -j"$jobs" check >/dev/null 2>&1); then :; else fail asan; fi
summaries build-asan

stage "unit tests under valgrind"
# $jobs tests at once; each leaves TEST.valgrind and, when it fails,
# TEST.vgfail
vg_one() {
	rm -f "$1.vgfail"
	CK_FORK=no valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect "$1" >"$1.valgrind" 2>&1 ||
		: >"$1.vgfail"
}
vg_tests=""
for t in build/test/unit/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	case "$t" in *.o|*.log|*.trs|*.valgrind|*.vgfail) continue ;; esac
	vg_tests="$vg_tests $t"
done
running=0
for t in $vg_tests; do
	vg_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then wait; running=0; fi
done
wait
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
if (cd build && make -s distcheck DISTCHECK_CONFIGURE_FLAGS="--with-slurm-source=$(readlink -f /var/cache/slurm-deadline/slurm-src)" >distcheck.log 2>&1); then
	grep -E 'archives ready for distribution|^slurm-deadline-.*tar.gz' build/distcheck.log | head -n 3
else
	tail -n 40 build/distcheck.log; fail distcheck
fi

# One bats run over the given files into build/NAME.tap; prints the TAP and
# "NAME (Slurm VERSION): N tests, P passed, F failed"; its counts decide.
run_bats_files() { # name files...
	name=$1
	shift
	tap=build/$name.tap
	# Into a file, not a pipe: a daemon a test leaves behind can then never
	# keep this run waiting for the end of its output.
	DL_BUILD="$top/build" bats --timing --print-output-on-failure "$@" \
		>"$tap" 2>&1 || true
	cat "$tap"
	bats_summary "$name" "$host_slurm" "$tap" || fail "$name"
	# daemons a failed teardown left behind: stopped here, and a failure
	left=$(pgrep -f "/tmp/bats-run-|$top/build/src/" || true)
	if [ -n "$left" ]; then
		echo "$name left processes running; stopping them:"
		ps -o pid=,args= -p "$(echo $left | tr ' ' ',')" || true
		kill $left 2>/dev/null || true
		fail "$name-teardown"
	fi
}

host_slurm=$(/usr/sbin/slurmctld -V | awk '{ print $2 }')
if [ "$run_bats" = 1 ] && ls test/bats/*.bats >/dev/null 2>&1; then
	stage "bats against a local Slurm $host_slurm"
	# shellcheck disable=SC2046 # paths without blanks
	run_bats_files bats $(ls test/bats/*.bats | grep -v '/faults_')
	# issue 12: estimator faults, slurmctld killed at the critical
	# moments, hostile inputs, two users, blocking files, connection
	# exhaustion; each test asserts that nothing was lost
	if ls test/bats/faults_*.bats >/dev/null 2>&1; then
		stage "fault suite against a local Slurm $host_slurm"
		run_bats_files faults test/bats/faults_*.bats
	fi
fi

# ---- the same source against Slurm 24.11 (Debian 13), in a chroot ----
# The suites that exercise Slurm's own behaviour (doc/slurm-versions.md);
# the fault suites join by name once they exist.
BATS_2411="sched_two_tenants sched_restart sched_config realtime_admission
 select_clients select_colocate select_forecast ux_spank"
if [ "$run_2411" = 1 ]; then
	stage "Slurm 24.11 (Debian 13 chroot): setup"
	keep_chroot=1
	if [ -z "$chroot_dir" ]; then
		chroot_dir=$(mktemp -d /var/tmp/slurm-deadline-trixie.XXXXXX)
		keep_chroot=0
		# removed whatever happens to this run
		trap 'contrib/slurm-chroot --dir "$chroot_dir" remove' EXIT
		trap 'exit 130' INT TERM
	fi
	sc() { contrib/slurm-chroot --dir "$chroot_dir" "$@"; }
	b2411=build-slurm-24.11
	if sc --bind "$top" create; then
		v2411=$(sc version)
		stage "Slurm $v2411: build"
		rm -rf "$b2411" && mkdir -p "$b2411"
		if sc run sh -c "cd $b2411 && ../configure -q && make -s -j$jobs" \
			>"$b2411.log" 2>&1; then
			grep -E '^configure: (installed Slurm|WARNING)' "$b2411.log" || true
			echo "built against $(sed -n 's/^SLURM_SRC=//p' "$b2411/config.log" | tr -d "'")"
		else
			tail -n 40 "$b2411.log"; fail build-24.11
		fi

		stage "Slurm $v2411: unit tests (Check) and corpus replays"
		sc run sh -c "cd $b2411 && make -s -j$jobs check" >/dev/null 2>&1 || fail unit-24.11
		summaries "$b2411"

		if [ "$run_bats" = 1 ]; then
			stage "Slurm $v2411: bats against a local Slurm $v2411"
			files=""
			for f in $BATS_2411; do files="$files test/bats/$f.bats"; done
			for f in test/bats/faults*.bats; do
				[ -f "$f" ] && files="$files $f"
			done
			# ports above the 22.05 run's: never the same as a
			# cluster another run may have left
			sc run env DL_BUILD="$top/$b2411" DL_PORT_OFFSET=500 \
				bats --timing --print-output-on-failure $files \
				>"$b2411/bats.tap" 2>&1 || true
			cat "$b2411/bats.tap"
			bats_summary bats "$v2411" "$b2411/bats.tap" || fail bats-24.11
			# munged is started once and shared; anything else still
			# running inside is a failed teardown
			left=$(sc ps | grep -v ' /usr/sbin/munged' || true)
			if [ -n "$left" ]; then
				echo "bats left processes running in the chroot:"
				echo "$left"
				fail bats-teardown-24.11
			fi
		fi
	else
		fail setup-24.11
	fi
	if [ "$keep_chroot" = 0 ]; then
		stage "Slurm 24.11: remove the chroot"
		sc remove && echo "removed $chroot_dir"
		trap - EXIT INT TERM
	fi
fi

stage "result"
if [ -n "$failed" ]; then
	echo "FAILED stages:$failed"
	echo "total $(( $(date +%s) - t_start )) s"
	exit 1
fi
echo "all stages passed in $(( $(date +%s) - t_start )) s"
