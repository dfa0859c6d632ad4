#!/usr/bin/env bats
# An array's own limit on running tasks (--array=...%N, or a later
# scontrol update ArrayTaskThrottle=N) is a hard limit for the plan, as it
# is for Slurm: the plan's throttle never exceeds it, sdeadline says the
# limit is in force, and a limit changed while the plan manages the array
# is kept (the plan used to overwrite it at its next cycle), also one set
# to the throttle the plan had given it (job_submit/deadline marks every
# update).  4 nodes x 2 CPUs, JobSubmitPlugins=deadline, the default
# policy (triage); the last two tests switch to Policy=adaptive, whose
# throttle is the CPUs it grants (triage's is every task left).
load helpers

setup_file() {
	printf 'PlanInterval=2\nReplanDelay=1\nEstimatorSocket=""\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	sed 's/^PlanInterval=/Policy=adaptive\nPlanInterval=/' \
		"$BATS_FILE_TMPDIR/deadline.conf" >"$BATS_FILE_TMPDIR/adaptive.conf"
	dl_cluster_start --nodes 4 --cpus 2 --job-submit deadline \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf"
}

teardown_file() {
	dl_cluster_stop
}

# a failed test leaves no array behind to take the next one's CPUs
teardown() {
	dl_cancel_all
}

# Under Policy=adaptive: an array limited to %2 and another of $1 tasks,
# both of $2-s tasks, submitted held and released together so that one
# plan sees both; waits until the other has its share, 6 of the 8 CPUs.
# Sets limited and other.
adaptive_pair() { # tasks of the other, task seconds
	dl_use_policy "$BATS_FILE_TMPDIR/adaptive.conf" adaptive
	limited=$(dl_submit -H -J limited --array=0-11%2 -t 2 --deadline=now+5minutes --wrap="sleep $2")
	other=$(dl_submit -H -J other --array=0-$(($1 - 1)) -t 2 --deadline=now+10minutes --wrap="sleep $2")
	scontrol release "$limited,$other"
	dl_wait_planned "$limited"
	dl_wait_planned "$other"
	dl_wait_plan_field "$other" alloc 6
	"$SDEADLINE"
}

# The most tasks of array $1 seen running at once until it leaves the
# queue, sampled every 0.5 s for at most $2 s.
most_running() { # id seconds
	local most=0 n end=$((SECONDS + $2))
	while [ "$SECONDS" -lt "$end" ] && [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
		n=$(squeue -h -r -j "$1" -t RUNNING 2>/dev/null | wc -l)
		[ "$n" -gt "$most" ] && most=$n
		sleep 0.5
	done
	echo "$most"
}

@test "an array's own %N: the plan's throttle is never above it, sdeadline says so, and a limit changed later is kept" {
	local j expl most
	# 8 CPUs and nothing else to run: without its limit the plan would
	# run all 12 tasks 8 wide
	j=$(dl_submit -J limited --array=0-11%2 -t 1 --deadline=now+10minutes --wrap='sleep 4')
	dl_wait_planned "$j"
	dl_wait_plan_field "$j" alloc 2
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" alloc)" = 2 ]
	[ "$(dl_throttle "$j")" = 2 ]
	expl=$(dl_plan_field "$j" explain)
	echo "explanation: $expl"
	[[ "$expl" == "its own limit runs at most 2 of its "*" tasks left at once; "* ]]
	most=$(most_running "$j" 6)
	echo "most running at once under %2: $most"
	[ "$most" -ge 1 ] && [ "$most" -le 2 ]

	# the user widens it while the plan manages the array: kept.  Slurm
	# updates the pending tasks and fails for the finished ones
	scontrol update JobId="$j" ArrayTaskThrottle=3 || true
	[ "$(dl_throttle "$j")" = 3 ]
	dl_poll 20 grep -q "JobId=$j: ArrayTaskThrottle set to 3 outside the plan: taken as the array's own limit (was 2" \
		"$(dl_ctld_log)" || true
	grep "JobId=$j: ArrayTaskThrottle set to 3 outside the plan" "$(dl_ctld_log)"
	dl_wait_plan_field "$j" alloc 3
	[ "$(dl_plan_field "$j" alloc)" = 3 ]
	# three plan cycles later it is still the user's 3
	sleep 6
	[ "$(dl_throttle "$j")" = 3 ]
	[[ "$(dl_plan_field "$j" explain)" == "its own limit runs at most 3 of its "* ]]
	most=$(most_running "$j" 30)
	echo "most running at once under 3: $most"
	[ "$most" -le 3 ]
	dl_wait_jobs 120 "$j"
	[ "$(dl_completed "$j")" -eq 12 ]
}

@test "an array without %N runs as wide as the plan allots it" {
	local j
	j=$(dl_submit -J unlimited --array=0-11 -t 1 --deadline=now+10minutes --wrap='sleep 4')
	dl_wait_planned "$j"
	[[ "$(dl_plan_field "$j" explain)" != *"own limit"* ]]
	dl_wait_n_running "$j" 8
	[ "$(squeue -h -r -j "$j" -t RUNNING | wc -l)" -eq 8 ]
	dl_wait_jobs 120 "$j"
}

# The papers' policies size a limited array to its limit, so the CPUs it
# cannot use go to the next array in the same plan.  They used to size it
# as if it had no limit; the throttle was cut to the limit afterwards, and
# what the cut freed went to no other array's throttle.
@test "Policy=adaptive: what an array's own %N leaves goes to the next deadline array" {
	local limited other
	adaptive_pair 12 20
	[ "$(dl_plan_field "$limited" alloc)" = 2 ]
	[[ "$(dl_plan_field "$limited" explain)" == "its own limit runs at most 2 of its "* ]]
	# 8 CPUs: the 6 the limited array cannot use are the other's
	[ "$(dl_plan_field "$other" alloc)" = 6 ]
	[ "$(dl_throttle "$other")" = 6 ]
	dl_wait_n_running "$other" 6
	[ "$(squeue -h -r -j "$other" -t RUNNING | wc -l)" -eq 6 ]
	[ "$(squeue -h -r -j "$limited" -t RUNNING | wc -l)" -le 2 ]
	lc --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" reconfigure
}

# The throttle alone cannot tell this update from the plan's own write:
# before job_submit/deadline marked updates, the plan widened the array to
# all 8 CPUs as soon as the other array left.
@test "Policy=adaptive: a limit set to the throttle the plan gave the array is kept when the plan would widen it" {
	local limited other most
	# tasks of a minute: the other array still has tasks waiting when
	# the limited one leaves
	adaptive_pair 16 60
	[ "$(dl_plan_field "$other" alloc)" = 6 ]
	[ "$(dl_throttle "$other")" = 6 ]
	# the user fixes the array at the 6 it has
	scontrol update JobId="$other" ArrayTaskThrottle=6 || true
	dl_poll 20 grep -q "JobId=$other: ArrayTaskThrottle set to 6 outside the plan: taken as the array's own limit (was 0" \
		"$(dl_ctld_log)" || true
	grep "JobId=$other: ArrayTaskThrottle=6 set by an update, marked" "$(dl_ctld_log)"
	grep "JobId=$other: ArrayTaskThrottle set to 6 outside the plan: taken as the array's own limit (was 0" "$(dl_ctld_log)"
	# the limited array leaves: 2 more CPUs free, and the limit holds
	scancel "$limited"
	dl_poll 20 dl_queue_empty -j "$limited" || true
	dl_wait_cycle
	dl_wait_cycle
	"$SDEADLINE"
	[ "$(dl_throttle "$other")" = 6 ]
	[ "$(dl_plan_field "$other" alloc)" = 6 ]
	[[ "$(dl_plan_field "$other" explain)" == "its own limit runs at most 6 of its "* ]]
	most=$(most_running "$other" 10)
	echo "most running at once under 6, alone: $most"
	[ "$most" -le 6 ]
	# lifting the limit (0) lets the plan widen it again
	scontrol update JobId="$other" ArrayTaskThrottle=0 || true
	dl_wait_plan_field "$other" alloc 8
	[ "$(dl_plan_field "$other" alloc)" = 8 ]
	lc --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" reconfigure
}
