#!/bin/sh
# The tests of slurm-deadline against Slurm 24.11: Debian 13's packages in a
# chroot (contrib/slurm-chroot) that this script creates and removes, this
# source tree bound into it at the same path.  Builds in
# build-slurm-24.11/, runs the Check suite and the bats suites that
# exercise Slurm's own behaviour, and ends with
# "bats (Slurm 24.11.5): N tests, P passed, F failed".  Alone (as root,
# from the source tree, after ./autogen.sh):
#
#   contrib/test-slurm-chroot.sh [--slurm-chroot DIR] [--no-bats | --bats-only]
#
# --slurm-chroot DIR uses (and keeps, unmounted) a chroot made by
# contrib/slurm-chroot, or makes it there.  --no-bats stops after the
# Check suite; --bats-only runs the bats suites on the build a --no-bats
# run left (and builds and runs the Check suite first only when no
# complete build is there).  contrib/run-tests.sh runs the first half in
# the background beside the 22.05 bats suites (CPU work, at the lowest
# priority) and the second after them.
# Exit status 0 when every stage passed.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
chroot_dir=""
run_bats=1
run_build=1
while [ $# -gt 0 ]; do
	case "$1" in
	--slurm-chroot) chroot_dir=$2; shift 2 ;;
	--no-bats) run_bats=0; shift ;;
	--bats-only) run_build=0; shift ;;
	*) echo "test-slurm-chroot: unknown option '$1'" >&2; exit 2 ;;
	esac
done
jobs=$(nproc 2>/dev/null || echo 2)
# shellcheck source=contrib/test-lib.sh
. contrib/test-lib.sh

# The suites that exercise Slurm's own behaviour (doc/slurm-versions.md):
# two tenants, restart, deadline.conf and reconfigure, realtime admission,
# the per-partition priorities, the urgent band above priority/basic's,
# the release watch (slurmctld's job counters and completing nodes),
# select/deadline in clients, ras placement, reverse forecast, SPANK
# options, an array's own %N (ArrayTaskThrottle and scontrol update, which
# job_submit/deadline marks), tasks cancelled by id (what scancel leaves of
# the pending record), holds (the reasons and priority 0 a hold leaves),
# begin times (a requeued task's BeginTime, sbatch --begin); the default policy's demo
# (triage: a job given up with its explanation while the others meet their
# deadlines), and what users run: sdeadline and smapreduce (sbatch's
# answers, Slurm's cancellation at a hard deadline, afterok); hostile
# submissions, many partitions, the SPANK input-node options and the
# learned task profile in select/deadline; the fault suites
# (test/bats/faults*.bats) by name.
BATS_SUITES="sched_two_tenants sched_restart sched_config realtime_admission
sched_part_priority sched_submit_between_cycles sched_release_watch
select_clients select_colocate select_forecast ux_spank sched_array_limit
sched_cancel sched_hold sched_begin sched_triage ux_sdeadline ux_smapreduce
sched_bad_input sched_partitions affinity_input select_learned"
build=build-slurm-24.11
# written once the build is done and its Check suite has run: --bats-only
# builds again without it (a --no-bats run that failed or stopped early)
built_stamp=$build/.built
[ "$run_bats" = 1 ] || [ "$run_build" = 1 ] ||
	{ echo "test-slurm-chroot: --no-bats and --bats-only exclude each other" >&2; exit 2; }
# a run that builds removes the stamp first: should its setup fail, a
# --bats-only run after it must not take an older build for its own
[ "$run_build" = 0 ] || rm -f "$built_stamp"

[ -x ./configure ] || { echo "test-slurm-chroot: run ./autogen.sh first" >&2; exit 2; }
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

build_and_check() {
	stage "Slurm $version: build"
	rm -rf "$build" && mkdir -p "$build"
	if sc run sh -c "cd $build && ../configure -q && make -s -j$jobs" \
		>"$build.log" 2>&1; then
		echo "built against $(sed -n "s/^SLURM_SRC='\(.*\)'$/\1/p" "$build/config.log")" \
			"($(sed -n 's/^#define DL_SLURM_VERSION_NUMBER //p' "$build/dl_autoconf.h"))"
		grep -E 'WARNING' "$build.log" || true
	else
		tail -n 40 "$build.log"
		fail build
		return 1
	fi
	stage "Slurm $version: unit tests (Check) and corpus replays"
	sc run sh -c "cd $build && make -s -j$jobs check" >/dev/null 2>&1 || fail unit
	summaries "$build"
	# the bats suites need the build, not a passed Check suite
	: >"$built_stamp"
}

run_bats_suites() {
	stage "Slurm $version: bats against a local Slurm $version"
	files=""
	for f in $BATS_SUITES; do files="$files test/bats/$f.bats"; done
	for f in test/bats/faults*.bats; do
		[ -f "$f" ] && files="$files $f"
	done
	echo "suites:$files"
	# ports 500 above the 22.05 run's (the chroot's environment
	# is clean: DL_PORT_BASE is passed on); bats writes into a
	# file (run-tests.sh: no daemon left behind can hold a pipe)
	sc run env DL_BUILD="$top/$build" \
		DL_PORT_BASE="${DL_PORT_BASE:-20000}" DL_PORT_OFFSET=500 \
		bats --timing --print-output-on-failure $files \
		>"$build/bats.tap" 2>&1 || true
	cat "$build/bats.tap"
	bats_summary bats "$version" "$build/bats.tap" || fail bats
	# munged is started once and shared; anything else still
	# running inside is a failed teardown
	left=$(sc ps | grep -v ' /usr/sbin/munged' || true)
	if [ -n "$left" ]; then
		echo "bats left processes running in the chroot:"
		echo "$left"
		fail bats-teardown
	fi
}

if sc --bind "$top" create; then
	version=$(sc version)
	if [ "$run_build" = 1 ] || [ ! -e "$built_stamp" ]; then
		build_and_check || true
	else
		echo "the build in $build is complete (its Check suite ran before)"
	fi
	if [ "$run_bats" = 1 ] && [ -e "$built_stamp" ]; then
		run_bats_suites
	fi
else
	version=24.11
	fail setup
fi
if [ "$keep_chroot" = 0 ]; then
	stage "Slurm $version: remove the chroot"
	sc remove && echo "removed $chroot_dir"
	trap - EXIT INT TERM
else
	# a chroot given with --slurm-chroot stays, with nothing mounted
	sc umount || fail umount
fi
stage "Slurm $version: result"
if [ -n "$failed" ]; then
	echo "FAILED stages (Slurm $version):$failed"
	exit 1
fi
echo "Slurm $version: all stages passed"
