#!/usr/bin/env bats
# A job submitted between two plan cycles must not start before the
# deadline work the last plan made urgent.  With priority/basic, Slurm's
# default, a new job gets the next of a descending series that starts at
# 0xffff0000, and Slurm tries to start it at submission: the urgent band
# has to lie above that whole series, not just above the pending jobs the
# plan saw.  Both CPUs of both nodes are busy when the arrays arrive; the
# plan interval is long, so no cycle sees the later job before the CPUs
# free up (a job without a deadline does not trigger a replan).
load helpers

setup_file() {
	printf 'Policy=triage\nPlanInterval=300\nReplanDelay=1\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --nodes 2 --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf"
}

teardown_file() {
	dl_cluster_stop
}

@test "priority/basic: a job submitted after the plan does not start before the urgent deadline array" {
	local busy j later prio_j prio_later replay ahead
	# busy until cancelled below: the checks before that assume its
	# tasks still run, whatever time the steps take
	busy=$(dl_submit -J busy --array=0-3 -t 10 --wrap='sleep 300')
	dl_wait_n_running "$busy" 4
	[ "$(squeue -h -j "$busy" -t R | wc -l)" -eq 4 ]
	j=$(dl_submit -J urgent --array=0-3 -t 1 --deadline=now+5minutes --wrap='sleep 5')
	dl_wait_urgent "$j"
	grep "JobId=$j throttle .*priority slurm -> urgent" "$(dl_ctld_log)"
	# after the plan: work without a deadline, from the same user
	later=$(dl_submit -J later --array=0-3 -t 1 --wrap='sleep 5')
	prio_j=$(squeue -h -t PD -j "$j" -o '%Q' | sort -u)
	prio_later=$(squeue -h -t PD -j "$later" -o '%Q' | sort -u)
	echo "urgent array: $prio_j; submitted after the plan: $prio_later"
	[ "$(squeue -h -j "$busy" -t R | wc -l)" -eq 4 ]
	[ "$prio_j" -gt "$prio_later" ]
	# the CPUs the busy tasks free go to the deadline array first
	scancel "$busy"
	dl_wait_jobs 120 "$busy" "$j" "$later"
	replay=$(dl_dispatch_replay "$j" "$later" 4)
	read -r ahead _ <<<"$replay"
	echo "later's starts while the deadline array was urgent: $ahead"
	[ "$ahead" -eq 0 ]
	[ "$(dl_completed "$j")" -eq 4 ]
	[ "$(dl_last_end "$j")" -le "$(dl_deadline "$j")" ]
}
