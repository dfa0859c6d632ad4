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
# idle-only and Bob's tasks take the CPUs freed after that.  So the exact
# promise, checked against slurmctld's log over the whole run, is: while
# the plan keeps the array urgent and it has unstarted tasks below its
# throttle, none of Bob's tasks starts; the plan turns it idle-only only
# when at least its need runs; and it meets its deadline.
load helpers

EST_BIN=$DL_BUILD/src/estimator/deadline-estimatord
EST_RAW=$DL_BUILD/test/bats/estimator_raw
BOB=dlclaim-bob

setup_file() {
	[ -x "$EST_BIN" ] || skip "deadline-estimatord not built"
	# Bob must read slurm.conf: not under bats' private temporary dir
	LC_DIR=$(mktemp -d /tmp/sched-claim.XXXXXX)
	chmod 755 "$LC_DIR"
	export LC_DIR
	id "$BOB" >/dev/null 2>&1 || useradd -r -M -N -s /bin/sh "$BOB"
	export EST_DIR=$BATS_FILE_TMPDIR/est
	mkdir -p "$EST_DIR"
	export EST_SOCK=$EST_DIR/est.sock
	printf 'SlurmUser=root\n' >"$EST_DIR/est.conf"
	(
		"$EST_BIN" --foreground --config "$EST_DIR/est.conf" \
			--socket "$EST_SOCK" --db "$EST_DIR/history.db" \
			2>>"$EST_DIR/est.log" &
		echo $! >"$EST_DIR/est.pid"
	)
	for _ in $(seq 1 100); do
		echo '{"v":1,"id":0,"op":"ping"}' |
			"$EST_RAW" --socket "$EST_SOCK" --expect 1 --timeout 1 2>/dev/null |
			grep -q pong && break
		sleep 0.05
	done
	# history: four earlier runs of claim-dl took 10 s a task
	local t req i
	req='{"v":1,"id":1,"op":"observe","tasks":['
	for i in 0 1 2 3; do
		t=$((1700000000 + i * 100))
		req="$req{\"job_id\":$((900 + i)),\"task\":$i,\"user\":\"root\",\"name\":\"claim-dl\",\"phase\":\"map\",\"start\":$t,\"end\":$((t + 10))}"
		[ $i -lt 3 ] && req="$req,"
	done
	echo "$req]}" | "$EST_RAW" --socket "$EST_SOCK" --expect 1 >/dev/null
	printf 'Policy=adaptive\nPlanInterval=2\nReplanDelay=1\nEstimatorSocket=%s\n' \
		"$EST_SOCK" >"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
	if [ -s "${EST_DIR:-/nonexistent}/est.pid" ]; then
		kill "$(cat "$EST_DIR/est.pid")" 2>/dev/null || true
	fi
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
	local fill dl now d_dl claimed alloc expl urgent throttle first outcome replay ahead below at_demotion
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
	read -r ahead below at_demotion <<<"$replay"
	outcome=$(dl_outcome "$dl" 48 "$d_dl")
	echo "deadline array: first start +$((first - now)) s, $at_demotion tasks started before the plan first made it idle-only; Bob's starts ahead of it while urgent: $ahead; demotions with less than its need running: $below"
	echo "deadline array: $(dl_completed "$dl")/48 done, last end +$(($(dl_last_end "$dl") - now)) s, deadline +60 s: $outcome"
	scancel "$fill" 2>/dev/null || true
	[ "$claimed" -gt 1 ]
	[ "$urgent" = true ]
	[[ "$expl" == *"as jobs without deadlines free their CPUs"* ]]
	[ "$throttle" -ge "$claimed" ]
	[ "$at_demotion" -gt 0 ]
	[ "$ahead" -eq 0 ] || { dl_show_log; false; }
	[ "$below" -eq 0 ] || { dl_show_log; false; }
	[ "$outcome" = met ] || { dl_show_log; false; }
}
