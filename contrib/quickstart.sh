#!/bin/bash
# Quickstart: build slurm-deadline, start a real one-host Slurm (16 nodes x
# 2 CPUs) and run one workload twice, under plain Slurm (sched/backfill)
# and under slurm-deadline (sched/deadline, its default policy, with the
# cluster's deadline-estimatord): two tenants, a big array A with a loose
# deadline and, 5 s later, a small array B with a tight one.  It ends with
# a table, per job and scheduler, of the deadline met or missed and by how
# much, and a PNG timeline (running tasks per job, one panel per
# scheduler).  Everything it started is stopped at the end, also on Ctrl-C
# or failure, unless --keep.  Run as root; on a fresh Debian 12 it
# installs what it needs first (contrib/setup-deps.sh).  About 4 minutes.
#
#   sudo contrib/quickstart.sh [--keep] [--no-setup] [--dir DIR] [--port-base P]
#                              [--slurm-24.11 [--slurm-chroot DIR]]
#
# Results in DIR (default /tmp/slurm-deadline-quickstart): result.tsv (the
# table's figures), timeline.png, and per scheduler the cluster's directory
# (its logs, jobcomp.txt, the jobs' task records).  --keep leaves the
# sched/deadline cluster running.
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
	-h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "quickstart: unknown option '$1'" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "quickstart: run as root (sudo $0)" >&2; exit 1; }
case "$dir" in /*) ;; *) dir=$top/$dir ;; esac

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
		echo "  contrib/slurm-chroot --dir $chroot_dir run env SLURM_CONF=$dir/deadline/etc/slurm.conf squeue"
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
	(cd "$build" && "$top/configure" -q)
fi
make -s -C "$build" -j"$(nproc)" >/dev/null
case "$build" in /*) ;; *) build=$top/$build ;; esac

scheds="backfill deadline"
lc() { # scheduler, localcluster arguments
	local s=$1
	shift
	"$top/contrib/localcluster/localcluster" --dir "$dir/$s" "$@"
}
sdeadline() { "$build/src/sdeadline/sdeadline" "$@"; }
# munged is started by localcluster when it is not running; then it is
# ours to stop too
munge_was_up=0
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then munge_was_up=1; fi
cleanup() {
	local s
	trap - INT TERM
	for s in $scheds; do
		[ "$keep" = 1 ] && [ "$s" = deadline ] && continue
		[ ! -d "$dir/$s" ] || lc "$s" stop || true
	done
	if [ "$keep" = 0 ] && [ "$munge_was_up" = 0 ] && [ -s /run/munge/munged.pid ]; then
		kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
	fi
}
trap cleanup EXIT
trap 'echo "quickstart: interrupted; stopping what it started" >&2; exit 130' INT TERM

mkdir -p "$dir"
rm -f "$dir/result.tsv" "$dir/timeline.png"

# The workload (doc/slurm-facts.md, "Deadline arrays in a running Slurm"):
# NAME TASKS SECONDS DEADLINE-IN-SECONDS START-AFTER-SECONDS
# (A's 250 s leave sched/backfill room on 24.11 too, whose backfill runs
# A's tasks slower: with 200 s its last task once missed A's start window)
workload="tenantA 400 6 250 0
tenantB 64 3 125 5"

# run_workload SCHED: the workload on a fresh cluster with sched/SCHED;
# leaves DIR/SCHED/jobs.tsv (name, array id, tasks, task seconds, submit
# and deadline epoch) and DIR/SCHED/tasks-NAME (localcluster tasks)
run_workload() {
	local s=$1 name n secs dl after id t start=0 end
	step "sched/$s: local Slurm $(/usr/sbin/slurmctld -V | awk '{ print $2 }'), 16 nodes x 2 CPUs$([ "$s" = deadline ] && echo ', deadline-estimatord')"
	lc "$s" stop 2>/dev/null || true
	lc "$s" --port-base "$port_base" --build "$build" --sched "sched/$s" \
		--deadline-conf none start
	export SLURM_CONF=$dir/$s/etc/slurm.conf
	[ "$s" != deadline ] || lc "$s" status | grep deadline-estimatord
	: >"$dir/$s/jobs.tsv"
	while read -r name n secs dl after; do
		t=$(date +%s)
		[ "$start" = 0 ] && start=$t
		[ $((start + after - t)) -le 0 ] || sleep $((start + after - t))
		id=$(cd "$dir/$s/jobs" && sbatch --parsable -o /dev/null -J "$name" \
			--array=0-$((n - 1)) -t 0:30 --deadline="now+${dl}seconds" --wrap="sleep $secs" | cut -d';' -f1)
		t=$(date +%s)
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$id" "$n" "$secs" "$t" $((t + dl)) >>"$dir/$s/jobs.tsv"
		echo "  $name: array $id, $n tasks of ${secs} s, deadline in $dl s"
	done <<<"$workload"
	# every 2 s: the estimate source of each running job (sdeadline shows
	# none once a job is done); every 10 s: what runs
	end=$((SECONDS + 240)) next=$((SECONDS + 10))
	: >"$dir/$s/sources"
	while [ -n "$(squeue -h -o %i)" ] && [ $SECONDS -lt $end ]; do
		sleep 2
		if [ "$s" = deadline ]; then
			sdeadline --json 2>/dev/null |
				jq -r '.jobs[] | select(.source != null and .source != "" and .source != "-") | "\(.job_id)\t\(.source)"' \
					>>"$dir/$s/sources" || true
		fi
		[ $SECONDS -ge $next ] || continue
		next=$((SECONDS + 10))
		if [ "$s" = deadline ]; then
			sdeadline -o '%i %j %d %e %E %s %t %A %v' || true
		else
			squeue -h -r -o '%j %t' | awk '{ n[$1 " " $2]++; j[$1] = 1 }
				END { for (x in j) printf "  %s: %d running, %d pending\n", x, n[x " R"] + n[x " CG"], n[x " PD"] }' |
				sort
		fi
	done
	if [ "$s" = deadline ]; then
		# the plan catches up with the last task ends within a second or two
		for _ in $(seq 30); do
			sdeadline --json | jq -e '[.jobs[] | select(.phase != "done")] | length == 0' >/dev/null && break
			sleep 1
		done
		sdeadline --json >"$dir/$s/sdeadline.json"
		sdeadline -o '%i %j %d %e %E %s %t %v'
	fi
	while IFS=$'\t' read -r name id _; do
		lc "$s" tasks "$id" >"$dir/$s/tasks-$name"
	done <"$dir/$s/jobs.tsv"
	if [ "$keep" = 0 ] || [ "$s" != deadline ]; then
		lc "$s" stop
	fi
}

for s in $scheds; do
	run_workload "$s"
done

step "result"
# shellcheck disable=SC2086 # two words
contrib/quickstart-report "$dir" $scheds

if [ "$keep" = 1 ]; then
	echo
	echo "The sched/deadline cluster keeps running:  export SLURM_CONF=$dir/deadline/etc/slurm.conf"
	echo "Stop it with:  $top/contrib/localcluster/localcluster --dir $dir/deadline stop"
fi
# the point of the demo: plain Slurm misses, slurm-deadline does not
missed_backfill=$(awk -F'\t' '$1 == "backfill" && $9 == "missed"' "$dir/result.tsv" | wc -l)
missed_deadline=$(awk -F'\t' '$1 == "deadline" && $9 != "met"' "$dir/result.tsv" | wc -l)
printf '\nquickstart finished in %d s: sched/backfill missed %d deadline(s), sched/deadline %d\n' \
	$((SECONDS - t0)) "$missed_backfill" "$missed_deadline"
[ "$missed_deadline" = 0 ]
