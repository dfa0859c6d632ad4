#!/bin/sh
# Set up a fresh Debian 12 machine and run every test of slurm-deadline:
# the code style check (clang-format), unit tests (Check), the same under
# ASan+UBSan and under valgrind, corpus replays and bounded fuzzing, make
# distcheck, the bats suites and the fault suite (test/bats/faults_*.bats)
# against a real local Slurm (the machine's 22.05); then the same source
# against Slurm 24.11 (Debian 13's packages in a chroot this run creates and
# removes, contrib/slurm-chroot): build, unit tests and the bats suites that
# exercise Slurm's behaviour (the chroot, the build and the Check suite
# in the background, its bats suites then beside the 22.05 ones).  Run as
# root from the source tree:
#
#   sudo contrib/run-tests.sh [--skip-setup] [--fuzz-seconds N] [--no-bats]
#                             [--no-slurm-24.11] [--slurm-chroot DIR]
#
# The CPU-bound stages run in the background beside the bats stages
# (contrib/test-cpu-stages.sh).
# --no-slurm-24.11 leaves out the 24.11 stages (about 5 minutes of
# background work, then 17 minutes of bats beside the 22.05 ones);
# --skip-setup skips the machine's package step (contrib/setup-deps.sh);
# --slurm-chroot DIR uses an existing chroot made by contrib/slurm-chroot
# (and keeps it) instead of creating one (otherwise it is created in the
# background during the unit-test stages and removed at the end).  Each
# stage prints its test runner's own summary lines and how long it took;
# each Slurm version's bats stage ends with "bats (Slurm VERSION): N
# tests, P passed, F failed"; the last line says which stages failed, if
# any.
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
	--slurm-24.11) run_2411=1; shift ;;
	--no-slurm-24.11) run_2411=0; shift ;;
	--slurm-chroot) chroot_dir=$2; run_2411=1; shift 2 ;;
	*) echo "run-tests: unknown option '$1'" >&2; exit 2 ;;
	esac
done
jobs=$(nproc 2>/dev/null || echo 2)
# shellcheck source=contrib/test-lib.sh
. contrib/test-lib.sh
t_start=$(date +%s)

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

# The bats stages spend most of their time waiting for jobs that sleep, so
# the CPU-bound stages (unit tests, sanitizers, valgrind, fuzzing,
# distcheck) run beside them, in that order, at the lowest CPU and I/O
# priority: the daemons and jobs of the local cluster, timing-sensitive,
# still get the CPUs whenever they want them.  Their output is printed
# once the bats stages are done.  One after the other they took about 22
# and 26 minutes here; side by side, 32 minutes beside 34 of bats and the
# fault suite.
if ionice -c 3 true 2>/dev/null; then
	bg_nice="nice -n 19 ionice -c 3"
else
	bg_nice="nice -n 19"
fi
# In the background: a session of its own (setsid, so that cleanup stops
# it as a whole) at the lowest priority.  A new session is a new autogroup
# while the kernel's autogroup is on, and autogroups share the CPUs as
# equals whatever their processes' nice values: nice 19 alone would give
# these stages half the CPUs beside slurmctld.  The session's autogroup
# gets nice 19 too (/proc/self/autogroup), so the local cluster keeps the
# CPUs whenever it wants them.
# Called as "background COMMAND... &": exec keeps one process from the
# asynchronous subshell to COMMAND, so $! is the session's id.
background() {
	# shellcheck disable=SC2016 # "$@" is expanded by the inner sh
	exec setsid -w sh -c '[ ! -w /proc/self/autogroup ] ||
		echo 19 >/proc/self/autogroup 2>/dev/null || true
		exec "$@"' background $bg_nice "$@"
}

# In a session of its own at normal priority (an autogroup of nice 0):
# the 24.11 bats suites, timing-sensitive like the 22.05 ones they run
# beside.  Called as "session COMMAND... &"; $! is the session's id.
session() {
	exec setsid -w "$@"
}

# The 24.11 chroot is made in the background too (mostly downloads and
# unpacking), then the build against 24.11 and its Check suite (CPU work
# like the stages above, about 5 minutes).  Its bats suites then run
# beside the 22.05 ones, at normal priority: a bats suite keeps the CPUs
# busy about 5 % of its time (18 CPU-seconds in 198 s of sched_triage and
# sched_promise here), so the two clusters leave each other the CPUs, and
# the 24.11 suites (about 17 minutes) no longer wait for the 22.05 ones.
# They share no port (DL_PORT_OFFSET=500), directory, munged or user
# database: the chroot has its own.  Should the chroot's creation fail,
# the bats step's own create resumes it and builds again.
chroot_bg=""
bats24_bg=""
own_chroot=0
cpu_bg=""
# Background jobs ignore SIGINT and outlive this script: on an early exit
# (Ctrl-C, a failure) their process groups (setsid) are stopped here, and
# the chroot this run made is removed.
cleanup() {
	[ -z "$cpu_bg" ] || kill -TERM "-$cpu_bg" 2>/dev/null || true
	[ -z "$chroot_bg" ] || kill -TERM "-$chroot_bg" 2>/dev/null || true
	[ -z "$bats24_bg" ] || kill -TERM "-$bats24_bg" 2>/dev/null || true
	[ "$own_chroot" = 0 ] ||
		contrib/slurm-chroot --dir "$chroot_dir" remove >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$run_2411" = 1 ]; then
	if [ -z "$chroot_dir" ]; then
		chroot_dir=$(mktemp -d /var/tmp/slurm-deadline-trixie.XXXXXX)
		own_chroot=1
	fi
	echo "the Slurm 24.11 chroot in $chroot_dir, its build and Check suite: in the background (build/slurm-24.11-build.log)"
	rm -f build/slurm-24.11-build.rc
	# shellcheck disable=SC2016 # "$@" and $rc are the inner sh's
	background sh -c 'rc=0; contrib/test-slurm-chroot.sh "$@" || rc=$?
		echo "$rc" >build/slurm-24.11-build.rc; exit "$rc"' build24 \
		--slurm-chroot "$chroot_dir" --no-bats \
		>build/slurm-24.11-build.log 2>&1 &
	chroot_bg=$!
	if [ "$run_bats" = 1 ]; then
		echo "then its bats suites, beside the 22.05 ones (build/slurm-24.11-bats.log)"
		# shellcheck disable=SC2016 # $1 is the inner sh's
		session sh -c 'while [ ! -e build/slurm-24.11-build.rc ]; do sleep 5; done
			exec contrib/test-slurm-chroot.sh --slurm-chroot "$1" --bats-only' \
			bats24 "$chroot_dir" >build/slurm-24.11-bats.log 2>&1 &
		bats24_bg=$!
	fi
fi

# contrib/test-cpu-stages.sh, its session stopped as a whole by cleanup
: >build/cpu-stages.failed
echo "unit tests, sanitizers, valgrind, fuzzing and distcheck run in the background (build/cpu-stages.log)"
background contrib/test-cpu-stages.sh "$jobs" "$fuzz_seconds" build/cpu-stages.failed \
	>build/cpu-stages.log 2>&1 &
cpu_bg=$!

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
	# (those of the 24.11 suites, running beside in their chroot, are
	# not this run's)
	left=""
	for p in $(pgrep -f "/tmp/bats-run-|$top/build/src/" || true); do
		if [ "$(readlink "/proc/$p/root" 2>/dev/null)" = / ]; then
			left="$left $p"
		fi
	done
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

stage "the stages run beside bats"
# its status too: a script that stopped early wrote no failed stages
wait "$cpu_bg" || fail cpu-stages
cpu_bg=""
cat build/cpu-stages.log
failed="$failed$(cat build/cpu-stages.failed)"
if [ -n "$chroot_bg" ]; then
	if ! wait "$chroot_bg"; then
		# a failed debootstrap or download is resumed by the 24.11
		# stage's own create (which then builds); anything else fails
		if [ "$run_bats" = 1 ] && grep -qx 'FAILED stages (Slurm [0-9.]*): setup' \
			build/slurm-24.11-build.log; then
			echo "the 24.11 chroot's setup failed in the background; the 24.11 stage resumes it"
		else
			fail slurm-24.11-build
		fi
	fi
	chroot_bg=""
	cat build/slurm-24.11-build.log
fi

# ---- the same source against Slurm 24.11 (Debian 13), in a chroot ----
# (contrib/test-slurm-chroot.sh --bats-only, begun beside the 22.05 bats)
if [ -n "$bats24_bg" ]; then
	stage "Slurm 24.11: contrib/test-slurm-chroot.sh --bats-only (beside the 22.05 bats)"
	wait "$bats24_bg" || fail slurm-24.11
	bats24_bg=""
	cat build/slurm-24.11-bats.log
fi

if [ "$own_chroot" = 1 ]; then
	stage "Slurm 24.11: remove the chroot"
	contrib/slurm-chroot --dir "$chroot_dir" remove && echo "removed $chroot_dir" ||
		fail chroot-remove
	trap - EXIT INT TERM
fi

stage "result"
if [ -n "$failed" ]; then
	echo "FAILED stages:$failed"
	echo "total $(( $(date +%s) - t_start )) s"
	exit 1
fi
echo "all stages passed in $(( $(date +%s) - t_start )) s"
