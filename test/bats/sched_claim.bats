#!/usr/bin/env bats
# Policy=adaptive on a partition full of another user's work without
# deadlines (issue 12, D10).  Bob's array of 10 s tasks holds all 32 CPUs
# and has hundreds more waiting; then a soft-deadline array whose task
# length the estimator knows from history arrives.  No CPU is free when it
# is planned, but its need is its claim: it is urgent for it, so when Bob's
# tasks end the freed CPUs go to it first, before Bob's pending tasks, and
# it meets its deadline.  (Before: allotted nothing, throttle 1 and idle
# priority, it waited behind all of Bob's work and missed.)
#
# What "first" means on a real Slurm (doc/slurm-facts.md, section 6): the
# claim is sized from when Bob's CPUs are expected back, i.e. their time
# limit (+60 s), so it asks for every CPU; the CPUs really free at +10 s,
# in a burst that the main scheduler serves over several passes within
# about 50 ms, one per batch of epilog-complete messages.  A plan cycle
# that lands inside the burst re-sizes the need from what now runs (10
# tasks, not 48) and rightly ends the rest of the claim: the array turns
# idle-only and Bob's tasks take the CPUs freed after that.  Its own tasks'
# ends are the other hazard: their CPUs go to whoever ranks first the
# moment they end, before a plan cycle can react, so while the tasks
# serving its need are about to end the plan keeps the array above jobs
# without deadlines (priority mode "keep", below urgent arrays;
# plan/decide.c).  (Before: demoted with its need running, it lost the
# CPUs its own wave freed to Bob; measured locally, its next wave started
# a whole Bob task, 10 s, after the last one ended, and a CI run missed
# the deadline by 2 s.)  "About to end" reaches to when the next cycle
# applies its plan, late as that may be (a CI run lost 2 ends to Bob when
# it reached only to now + PlanInterval: sched_deadline.c, _cycle_slack;
# each event the replay counts is printed when the test fails).  So the
# exact promise, checked against
# slurmctld's log over the whole run, is: while the plan keeps the array
# urgent or kept and it has unstarted tasks below its throttle, none of
# Bob's tasks starts; the plan turns it idle-only only when at least its
# need (as much of it as was allotted) runs; none of its tasks ends while
# it is idle-only with tasks left to start and fewer than that need
# running after the end; and it meets its deadline.
load helpers
load estimator_helpers

BOB=dlclaim-bob

setup_file() {
	# Bob must read slurm.conf: not under bats' private temporary dir
	LC_DIR=$(mktemp -d /tmp/sched-claim.XXXXXX)
	chmod 755 "$LC_DIR"
	export LC_DIR
	id "$BOB" >/dev/null 2>&1 || useradd -r -M -N -s /bin/sh "$BOB"
	est_start_file
	# history: four earlier runs of claim-dl took 10 s a task
	est_observe_runs claim-dl 10 4
	printf 'Policy=adaptive\nPlanInterval=2\nReplanDelay=1\nEstimatorSocket=%s\n' \
		"$EST_SOCK" >"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
	est_stop_file
	for _ in $(seq 20); do
		pgrep -u "$BOB" >/dev/null 2>&1 || break
		sleep 0.5
	done
	userdel "$BOB" 2>/dev/null || true
	case "${LC_DIR:-}" in /tmp/sched-claim.*) rm -rf "$LC_DIR" ;; esac
}

# A field of the plan as slurmctld wrote it (sdeadline --json leaves out
# alloc_for_need and urgent): plan_field JOBID FIELD
plan_field() {
	jq -r --argjson id "$1" --arg f "$2" \
		'.jobs[] | select(.job_id == $id or .reduce_id == $id) | .[$f]' \
		"$LC_DIR/state/deadline_plan.json" 2>/dev/null
}

# start times (epoch) of an array's tasks, one a line
starts() {
	dl_tasks "$1" | awk '$3 > 0 { print $3 }'
}

@test "adaptive: a deadline array on a partition full of another user's work gets the freed CPUs first and meets its deadline" {
	local fill dl now d_dl claimed alloc expl urgent throttle first outcome replay ahead below at_demotion lost
	fill=$(runuser -u "$BOB" -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable \
		-o /dev/null --chdir=/tmp -J bob-fill --array=0-255 -t 1:00 \
		--wrap='sleep 10' | cut -d';' -f1)
	# Bob holds every CPU
	for _ in $(seq 30); do
		[ "$(squeue -h -j "$fill" -t R | wc -l)" -ge 32 ] && break
		sleep 0.5
	done
	[ "$(squeue -h -j "$fill" -t R | wc -l)" -ge 32 ]
	now=$(date +%s)
	d_dl=$((now + 60))
	dl=$(dl_submit -J claim-dl --array=0-47 -t 1:00 \
		--soft-deadline="$(date -d "@$d_dl" +%Y-%m-%dT%H:%M:%S)" --wrap='sleep 10')
	dl_wait_planned "$dl"
	# planned with no CPU free: it claims its need from Bob's CPUs
	for _ in $(seq 10); do
		claimed=$(plan_field "$dl" alloc_for_need)
		[ "${claimed:-null}" != null ] && [ "$claimed" -gt 1 ] && break
		sleep 0.5
	done
	[ "${claimed:-null}" != null ] || claimed=0
	"$SDEADLINE" || true
	alloc=$(dl_plan_field "$dl" alloc)
	urgent=$(plan_field "$dl" urgent)
	expl=$(dl_plan_field "$dl" explain)
	throttle=$(dl_throttle "$dl")
	echo "plan: alloc $alloc, for its need $claimed, urgent $urgent, throttle $throttle: $expl"
	dl_wait_jobs 150 "$dl"
	first=$(starts "$dl" | sort -n | head -n 1)
	replay=$(dl_dispatch_replay "$dl" "$fill" 48)
	read -r ahead below at_demotion lost <<<"$replay"
	outcome=$(dl_outcome "$dl" 48 "$d_dl")
	echo "deadline array: first start +$((first - now)) s, $at_demotion tasks started before the plan first made it idle-only; Bob's starts ahead of it while urgent: $ahead; demotions with less than its need running: $below; own ends lost to Bob: $lost"
	echo "deadline array: $(dl_completed "$dl")/48 done, last end +$(($(dl_last_end "$dl") - now)) s, deadline +60 s: $outcome"
	scancel "$fill" 2>/dev/null || true
	[ "$claimed" -gt 1 ]
	[ "$urgent" = true ]
	[[ "$expl" == *"as jobs without deadlines free their CPUs"* ]]
	[ "$throttle" -ge "$claimed" ]
	[ "$at_demotion" -gt 0 ]
	[ "$ahead" -eq 0 ] || { dl_show_log; false; }
	[ "$below" -eq 0 ] || { dl_show_log; false; }
	[ "$lost" -eq 0 ] || { dl_show_log; false; }
	[ "$outcome" = met ] || { dl_show_log; false; }
}
