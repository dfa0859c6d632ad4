#!/usr/bin/env bats
# A deadline array that may run in two partitions: with priority/multifactor
# slurmctld keeps one priority per partition (24.11: per partition x QOS)
# and its scheduler sorts by those, not by the job's priority; the plan's
# priority must be in every one of them (slurm_compat.h,
# dl_priority_array), or the array waits behind jobs without deadlines in
# the partitions sched/deadline did not reach.  Policy=adaptive marks a
# deadline array that cannot otherwise make it urgent (triage, the default,
# would find this one on track and leave it unmarked).
load helpers

setup_file() {
	printf 'Policy=adaptive\n' >"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --nodes 2 --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--extra PriorityType=priority/multifactor \
		--extra 'PartitionName=second Nodes=ALL MaxTime=INFINITE State=UP'
}

teardown_file() {
	dl_cluster_stop
}

@test "an urgent array in two partitions has the plan's priority in each" {
	local bg j prio rows
	# the nodes busy, and pending work without a deadline in both
	# partitions
	bg=$(dl_submit -J busy -N2 --exclusive -t 2 --wrap='sleep 100')
	dl_submit -J other -p debug,second --array=0-3 -t 1 --wrap='sleep 1' >/dev/null
	j=$(dl_submit -J urgent -p debug,second --array=0-15 -t 1 \
		--deadline=now+200seconds --wrap='sleep 5')
	for _ in $(seq 40); do
		[ "$(dl_plan_field "$j" urgent)" = true ] &&
			[ "$(dl_plan_field "$j" managed)" = true ] && break
		sleep 0.5
	done
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" urgent)" = true ]
	for _ in $(seq 20); do
		grep -q "JobId=$j throttle .*priority .* -> urgent" "$(dl_ctld_log)" && break
		sleep 0.5
	done
	prio=$(scontrol show job "$j" | grep -o 'Priority=[0-9]*' | head -n 1 | cut -d= -f2)
	echo "plan priority: $prio"
	# one row per partition, each with that priority
	rows=$(squeue -P -h -t PD -j "$j" -o '%P %Q' | sort -u)
	echo "$rows"
	[ "$(wc -l <<<"$rows")" -eq 2 ]
	grep -qx "debug $prio" <<<"$rows"
	grep -qx "second $prio" <<<"$rows"
	# above every pending job without a deadline, in both partitions
	squeue -P -h -t PD -n other -o '%P %Q' | while read -r part p; do
		echo "other in $part: $p"
		[ "$p" -lt "$prio" ]
	done
	scancel "$bg" "$j"
	scancel -n other
}
