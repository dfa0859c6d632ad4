#!/usr/bin/env bats
# More partitions than a 64-bit mask holds.  slurm.conf has 71 partitions;
# the last, "far", has nodes n3-n4 only (4 CPUs).  A deadline array in it
# is planned with far's capacity, not with the 32 CPUs of partition 0
# (debug), where the 65th and later partitions' jobs used to be planned.
# Policy=adaptive, whose throttle is the capacity the plan hands the job
# (ArrayTaskThrottle at most 4 here), shows which partition the plan used.
load helpers

setup_file() {
	local extra=() i
	for ((i = 1; i <= 69; i++)); do
		extra+=(--extra "PartitionName=p$i Nodes=n[1-2] MaxTime=INFINITE State=UP")
	done
	extra+=(--extra "PartitionName=far Nodes=n[3-4] MaxTime=INFINITE State=UP")
	printf 'Policy=adaptive\nPlanInterval=5\nReplanDelay=1\nEstimatorSocket=""\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" "${extra[@]}"
}

teardown_file() {
	dl_cluster_stop
}

@test "partitions: a deadline array in the 71st partition gets that partition's capacity" {
	local id throttle
	[ "$(sinfo -h -o %P | wc -l)" -eq 71 ]
	id=$(dl_submit -J far -p far --array=0-39 -t 0:30 --deadline=now+600seconds --wrap='sleep 2')
	dl_wait_planned "$id" 30
	[ "$(dl_plan_field "$id" managed)" = true ] || { dl_show_log; false; }
	throttle=$(dl_throttle "$id")
	echo "ArrayTaskThrottle=$throttle"
	"$SDEADLINE" || true
	[ "$throttle" -ge 1 ] && [ "$throttle" -le 4 ] || { dl_show_log; false; }
	dl_wait_jobs 120 "$id"
	[ "$(dl_completed "$id")" -eq 40 ]
	dl_refute grep -q 'is not one slurmctld has' "$(dl_ctld_log)"
}

@test "partitions: an array whose partition the plan cannot know is left to Slurm, with a log line" {
	local name id
	# a partition name longer than the plugin's state keeps (63 bytes)
	name=$(printf 'x%.0s' {1..70})
	scontrol create "PartitionName=$name" Nodes=n5 MaxTime=INFINITE State=UP
	id=$(dl_submit -J long -p "$name" --array=0-3 -t 0:30 --deadline=now+600seconds --wrap='sleep 1')
	dl_wait_jobs 120 "$id"
	[ "$(dl_completed "$id")" -eq 4 ]
	grep -q "JobId=$id: partition '.*' is not one slurmctld has" "$(dl_ctld_log)" ||
		{ dl_show_log; false; }
	[ -z "$(dl_plan_field "$id" job_id)" ]
}
