#!/usr/bin/env bats
# A CPU freed by a finished task goes to the next pending deadline task at
# once, not at the plugin's next look for changed jobs nor at slurmctld's
# own deferred pass.  Without an Epilog, slurmctld learns that a node
# released a finished job from the node's answer to the terminate request,
# and then only queues a pass for its background thread (run after
# batch_sched_delay); the release watch of sched/deadline asks for a pass
# when it sees the release.  Here batch_sched_delay is 30 s and the plugin
# looks for changed jobs every 10 s (ReplanDelay=20), so without the watch
# a freed CPU would mostly wait seconds.
load helpers

setup_file() {
	printf 'Policy=triage\nPlanInterval=300\nReplanDelay=20\nDebug=1\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --nodes 1 --sched-params batch_sched_delay=30 \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf"
}

teardown_file() {
	dl_cluster_stop
}

# the log from line $1 on shows job ends the watch left to Slurm
_watch_left_to_slurm() {
	tail -n +"$1" "$(dl_ctld_log)" |
		grep -qE 'release watch since the last look: 0 scheduling passes requested, [1-9][0-9]* ends or releases with no deadline work waiting'
}

@test "release watch: each freed CPU starts the next deadline task within 2 s of the end" {
	local j gaps
	j=$(dl_submit -J chain --array=0-7 -t 1 --deadline=now+10minutes --wrap='sleep 3')
	dl_wait_jobs 180 "$j"
	[ "$(dl_completed "$j")" -eq 8 ]
	# the i-th start (i >= 2, in order) took the CPU of the (i-2)-th end
	gaps=$(paste <(dl_tasks "$j" | awk '$1 == "COMPLETED" { print $3 }' | sort -n) \
		<(dl_tasks "$j" | awk '$1 == "COMPLETED" { print $4 }' | sort -n) |
		awk '{ s[NR] = $1; e[NR] = $2 } END { for (i = 3; i <= NR; i++) printf "%d ", s[i] - e[i - 2] }')
	echo "seconds from a task end to the start it allowed: $gaps"
	[ -n "$gaps" ]
	for g in $gaps; do
		[ "$g" -le 2 ]
	done
	grep -E 'release watch since the last look: [1-9][0-9]* scheduling passes requested' "$(dl_ctld_log)"
}

@test "release watch: no extra scheduling passes while no deadline work waits" {
	local j h from
	# the deadline work of the test above is done, and a user holds the
	# only deadline array left: no pass could start its tasks.  The
	# plugin's next look (every 10 s here) sees that and logs what the
	# watch did before: from then on, job ends are left to Slurm's own
	# passes
	h=$(dl_submit -J heldwork -H --array=0-3 -t 1 --deadline=now+30minutes --wrap='sleep 1')
	sleep 12
	from=$(($(wc -l <"$(dl_ctld_log)") + 1))
	# a job submitted since the last look may have a deadline: until the
	# next look (10 s) the watch still asks; these tasks end after it
	j=$(dl_submit -J plain --array=0-3 -t 1 --wrap='sleep 12')
	dl_wait_jobs 240 "$j"
	[ "$(dl_completed "$j")" -eq 4 ]
	# a look after the last end logs what the watch did meanwhile
	dl_poll 30 _watch_left_to_slurm "$from"
	# and no look since the submission logged a pass it asked for
	tail -n +"$from" "$(dl_ctld_log)" | grep 'release watch since the last look'
	[ "$(tail -n +"$from" "$(dl_ctld_log)" |
		grep -cE 'release watch since the last look: [1-9][0-9]* scheduling passes')" -eq 0 ]
	# the held array stayed held, all four tasks pending
	[ "$(squeue -h -r -j "$h" -t PD | wc -l)" -eq 4 ]
	scancel "$h"
}

@test "release watch: off under SchedulerParameters=defer, and the log says so" {
	grep 'sched/deadline: release watch on' "$(dl_ctld_log)"
	lc stop
	lc --sched-params defer,batch_sched_delay=30 start
	grep 'sched/deadline: release watch off: SchedulerParameters has defer' "$(dl_ctld_log)"
}
