#!/bin/bash
# Quickstart: build slurm-deadline, start a real one-host Slurm running
# SchedulerType=sched/deadline (16 nodes x 2 CPUs), submit a small MapReduce
# workload with deadlines next to a job without one, and print, per job,
# whether its deadline was met (sdeadline).  Everything it started is
# stopped at the end unless --keep.  Run as root; on a fresh Debian 12 it
# installs what it needs first (contrib/setup-deps.sh).
#
#   sudo contrib/quickstart.sh [--keep] [--no-setup] [--dir DIR] [--port-base P]
#                              [--slurm-24.11 [--slurm-chroot DIR]]
#
# --slurm-24.11 runs it all on Slurm 24.11.5 instead of the machine's Slurm:
# Debian 13's packages in a chroot (contrib/slurm-chroot; made the first
# time, about 2 minutes, and kept in DIR, default
# /var/tmp/slurm-deadline-trixie), built in build-slurm-24.11/.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

keep=0
setup=1
dir=/tmp/slurm-deadline-quickstart
port_base=20080
build=build
slurm_2411=0
chroot_dir=/var/tmp/slurm-deadline-trixie
while [ $# -gt 0 ]; do
	case "$1" in
	--keep) keep=1; shift ;;
	--no-setup) setup=0; shift ;;
	--dir) dir=$2; shift 2 ;;
	--port-base) port_base=$2; shift 2 ;;
	--slurm-24.11) slurm_2411=1; shift ;;
	--slurm-chroot) chroot_dir=$2; shift 2 ;;
	--build) build=$2; shift 2 ;; # the chroot's run: its own build tree
	-h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "quickstart: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "quickstart: run as root (sudo $0)" >&2; exit 1; }

t0=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - t0)); }

if [ "$slurm_2411" = 1 ]; then
	# the same quickstart, inside the Debian 13 chroot
	step "Slurm 24.11 chroot in $chroot_dir (contrib/slurm-chroot; quick when it exists)"
	contrib/slurm-chroot --dir "$chroot_dir" --bind "$top" create
	[ -x ./configure ] || ./autogen.sh >/dev/null 2>&1
	args=(--no-setup --build build-slurm-24.11 --dir "$dir" --port-base "$port_base")
	[ "$keep" = 0 ] || args+=(--keep)
	rc=0
	contrib/slurm-chroot --dir "$chroot_dir" run contrib/quickstart.sh "${args[@]}" || rc=$?
	if [ "$keep" = 1 ]; then
		echo "Commands for it run inside the chroot, e.g.:"
		echo "  contrib/slurm-chroot --dir $chroot_dir run env SLURM_CONF=$dir/etc/slurm.conf squeue"
	else
		# nothing left running or mounted
		contrib/slurm-chroot --dir "$chroot_dir" umount || rc=1
	fi
	echo "The chroot stays for the next run; remove it with: contrib/slurm-chroot --dir $chroot_dir remove"
	exit "$rc"
fi

if [ "$setup" = 1 ]; then
	step "dependencies (contrib/setup-deps.sh; quick when already done)"
	contrib/setup-deps.sh
fi

step "build"
if [ ! -f "$build/Makefile" ]; then
	[ -x ./configure ] || ./autogen.sh >/dev/null 2>&1
	mkdir -p "$build"
	(cd "$build" && ../configure -q)
fi
make -s -C "$build" -j"$(nproc)" >/dev/null

lc() { "$top/contrib/localcluster/localcluster" --dir "$dir" "$@"; }
# munged is started by localcluster when it is not running; then it is
# ours to stop too
munge_was_up=0
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then munge_was_up=1; fi
cleanup() {
	if [ "$keep" = 0 ]; then
		lc stop || true
		if [ "$munge_was_up" = 0 ] && [ -s /run/munge/munged.pid ]; then
			kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
		fi
	fi
}
trap cleanup EXIT

step "local Slurm $(/usr/sbin/slurmctld -V | awk '{ print $2 }'): 16 nodes x 2 CPUs, SchedulerType=sched/deadline"
lc stop 2>/dev/null || true
lc --port-base "$port_base" --build "$top/$build" --deadline-conf none start
export SLURM_CONF=$dir/etc/slurm.conf
sinfo

step "workload"
cd "$dir/jobs"
submit() { sbatch --parsable -o /dev/null "$@" | cut -d';' -f1; }
# a job without a deadline, submitted first: it must not crowd out the others
bg=$(submit -J background --array=0-99 -t 0:30 --wrap='sleep 5')
mr() { # name maps map-secs reduces reduce-secs deadline-secs
	local m r
	m=$(submit -J "$1" --array=0-$(($2 - 1)) -t 0:30 --deadline="now+$6seconds" --wrap="sleep $3")
	r=$(submit -J "$1-reduce" --array=0-$(($4 - 1)) -t 0:30 --deadline="now+$6seconds" \
		--dependency="afterok:$m" --wrap="sleep $5")
	echo "  $1: map array $m ($2 x ${3}s), reduce array $r ($4 x ${5}s), deadline in $6 s" >&2
}
echo "  background: array $bg (100 x 5s), no deadline" >&2
mr wordcount 96 4 8 3 150
mr logscan 64 3 4 2 120
sleep 5
mr urgent 48 2 4 2 100

step "running (sdeadline every 15 s)"
end=$((SECONDS + 240))
while [ -n "$(squeue -h -o %i)" ] && [ $SECONDS -lt $end ]; do
	sleep 15
	"$top/$build/src/sdeadline/sdeadline" | cut -c1-150 || true
	echo
done

# the plan catches up with the last task ends within a second or two
for _ in $(seq 30); do
	"$top/$build/src/sdeadline/sdeadline" --json |
		jq -e '[.jobs[] | select(.phase != "done")] | length == 0' >/dev/null && break
	sleep 1
done

step "result"
"$top/$build/src/sdeadline/sdeadline"
echo
"$top/$build/src/sdeadline/sdeadline" --json |
	jq -r '.jobs[] | "  \(.name): deadline \(.outcome // .verdict)"'
bg_done=$(grep "ArrayJobId=$bg " "$dir/log/jobcomp.txt" | grep -c "JobState=COMPLETED" || true)
echo "  background (no deadline): $bg_done of 100 tasks completed"
missed=$("$top/$build/src/sdeadline/sdeadline" --json | jq '[.jobs[] | select(.outcome != "met")] | length')

if [ "$keep" = 1 ]; then
	echo
	echo "The cluster keeps running:  export SLURM_CONF=$SLURM_CONF"
	echo "Stop it with:               $top/contrib/localcluster/localcluster --dir $dir stop"
fi
printf '\nquickstart finished in %d s: %s\n' $((SECONDS - t0)) \
	"$([ "$missed" = 0 ] && echo 'every deadline met' || echo "$missed deadline job(s) missed")"
[ "$missed" = 0 ]
