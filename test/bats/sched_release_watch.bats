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
	grep -E 'release watch since the last cycle: [1-9][0-9]* scheduling passes requested' "$(dl_ctld_log)"
}

@test "release watch: off under SchedulerParameters=defer, and the log says so" {
	grep 'sched/deadline: release watch on' "$(dl_ctld_log)"
	lc stop
	lc --sched-params defer,batch_sched_delay=30 start
	grep 'sched/deadline: release watch off: SchedulerParameters has defer' "$(dl_ctld_log)"
}
