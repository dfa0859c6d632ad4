#!/usr/bin/env bats
# A deadline array that may run in two partitions.  With
# priority/multifactor slurmctld keeps one priority per partition (24.11:
# per partition x QOS) and its schedulers sort a multi-partition job by
# those, not by the job's priority: the plan's priority must be in every
# one of them (slurm_compat.h, dl_priority_array), or the array waits
# behind jobs without deadlines in the partitions sched/deadline did not
# reach.  Both CPUs of both nodes are busy when the arrays arrive, so the
# order the freed CPUs are handed out in is the scheduler's, by those
# priorities.
load helpers

setup_file() {
	printf 'Policy=adaptive\nPlanInterval=2\nReplanDelay=1\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --nodes 2 --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--extra PriorityType=priority/multifactor \
		--extra PriorityWeightAge=1000 \
		--extra 'PartitionName=second Nodes=ALL MaxTime=INFINITE State=UP'
}

teardown_file() {
	dl_cluster_stop
}

@test "an urgent array in two partitions has the plan's priority in each and starts before older work without a deadline" {
	local busy other j prio rows replay ahead below started
	# busy until cancelled below: the checks before that assume its
	# tasks still run, whatever time the steps take
	busy=$(dl_submit -J busy -p debug --array=0-3 -t 10 --wrap='sleep 300')
	dl_wait_n_running "$busy" 4
	[ "$(squeue -h -j "$busy" -t R | wc -l)" -eq 4 ]
	# older (PriorityWeightAge) pending work without a deadline in both
	other=$(dl_submit -J other -p debug,second --array=0-7 -t 1 --wrap='sleep 5')
	sleep 2
	j=$(dl_submit -J urgent -p second,debug --array=0-7 -t 1 \
		--deadline=now+5minutes --wrap='sleep 5')
	dl_wait_urgent "$j"
	"$SDEADLINE" || true
	grep "JobId=$j throttle .*priority slurm -> urgent" "$(dl_ctld_log)"
	prio=$(scontrol show job "$j" | grep -o 'Priority=[0-9]*' | head -n 1 | cut -d= -f2)
	echo "plan priority: $prio"
	# one row per partition, each with the plan's priority
	rows=$(squeue -P -h -t PD -j "$j" -o '%P %Q' | sort -u)
	echo "$rows"
	[ "$(wc -l <<<"$rows")" -eq 2 ]
	grep -qx "debug $prio" <<<"$rows"
	grep -qx "second $prio" <<<"$rows"
	# above the older work without a deadline, in both partitions
	squeue -P -h -t PD -j "$other" -o '%P %Q' | sort -u | while read -r part p; do
		echo "other in $part: $p"
		[ "$p" -lt "$prio" ]
	done
	# and served in that order when the busy tasks end
	scancel "$busy"
	dl_wait_jobs 120 "$busy" "$j"
	replay=$(dl_dispatch_replay "$j" "$other" 8)
	read -r ahead below started _ <<<"$replay"
	echo "other's starts while the deadline array was urgent: $ahead; demotions below its need: $below; its tasks started before its first demotion: $started"
	scancel "$other" 2>/dev/null || true
	[ "$started" -gt 0 ]
	[ "$ahead" -eq 0 ]
	[ "$below" -eq 0 ]
	[ "$(dl_completed "$j")" -eq 8 ]
}

# slurmctld's log lines about work without a deadline waiting, after line $1
_waiting_since() { # line, pattern
	tail -n "+$(($1 + 1))" "$(dl_ctld_log)" | grep -q -- "$2"
}

@test "the plan sees where work without a deadline waits to start: not held, not before its dependency or begin time, in each of its partitions that starts jobs" {
	local busy held later dep multi second n0
	scancel --user="$(id -un)" 2>/dev/null || true
	dl_poll 60 dl_queue_empty
	# a deadline array holds every CPU, so that whatever else is
	# submitted waits (and the plans run and log)
	busy=$(dl_submit -J dl-busy -p debug --array=0-3 -t 10 \
		--deadline=now+1hour --wrap='sleep 300')
	dl_wait_n_running "$busy" 4
	[ "$(squeue -h -j "$busy" -t R | wc -l)" -eq 4 ]
	dl_wait_cycle
	n0=$(wc -l <"$(dl_ctld_log)")
	held=$(dl_submit -J held -H -p debug -t 1 --wrap='sleep 1')
	later=$(dl_submit -J later --begin=now+1hour -p debug -t 1 --wrap='sleep 1')
	dep=$(dl_submit -J dep --dependency="afterok:$held" -p debug -t 1 --wrap='sleep 1')
	squeue -h -j "$held,$later,$dep" -o '%i %T %r' >&2
	dl_wait_cycle
	# none of them may start when CPUs free: nothing waits
	dl_refute _waiting_since "$n0" "waits to start"
	# a job in both partitions waits in both
	multi=$(dl_submit -J multi -p second,debug -t 1 --wrap='sleep 1')
	dl_poll 30 _waiting_since "$n0" "work without a deadline waits to start in partition(s) debug,second$"
	n0=$(wc -l <"$(dl_ctld_log)")
	scancel "$multi"
	dl_poll 30 _waiting_since "$n0" "no work without a deadline waits to start$"
	# one partition only
	n0=$(wc -l <"$(dl_ctld_log)")
	second=$(dl_submit -J second -p second -t 1 --wrap='sleep 1')
	dl_poll 30 _waiting_since "$n0" "waits to start in partition(s) second$"
	# released, the held job waits in its own partition too
	n0=$(wc -l <"$(dl_ctld_log)")
	scontrol release "$held"
	dl_poll 30 _waiting_since "$n0" "waits to start in partition(s) debug,second$"
	# a partition that starts no job keeps its pending jobs waiting
	# whatever CPUs free: the job in `second` alone no longer counts
	n0=$(wc -l <"$(dl_ctld_log)")
	scontrol update PartitionName=second State=DOWN
	dl_poll 30 _waiting_since "$n0" "waits to start in partition(s) debug$"
	n0=$(wc -l <"$(dl_ctld_log)")
	scontrol update PartitionName=second State=UP
	dl_poll 30 _waiting_since "$n0" "waits to start in partition(s) debug,second$"
	grep "waits to start" "$(dl_ctld_log)" >&2
	scancel "$busy" "$held" "$later" "$dep" "$second" 2>/dev/null || true
}
