#!/usr/bin/env bats
# Tasks cancelled before they start leave the plan at once.  Cancelling
# by task id (scancel 12_[8-11], scancel --user, scancel -t PENDING)
# takes the ids out of the array's pending record without a record of
# their own; the plan used to keep counting them as pending until
# slurmctld purged the array (MinJobAge, 600 s here), holding CPUs and a
# place in deadline order for tasks that no longer exist.
# A task that ended and runs again (scontrol requeue) counts by its rerun.
# 4 nodes x 2 CPUs; the second test switches to Policy=adaptive and back.
load helpers

setup_file() {
	dl_cluster_start_small
	sed 's/^PlanInterval=/Policy=adaptive\nPlanInterval=/' \
		"$BATS_FILE_TMPDIR/deadline.conf" >"$BATS_FILE_TMPDIR/adaptive.conf"
}

teardown_file() {
	dl_cluster_stop
}

teardown() {
	dl_cancel_all
}

_done_at_least() { [ "$(dl_plan_field "$1" done 2>/dev/null)" -ge "$2" ] 2>/dev/null; }

@test "pending tasks cancelled by id leave the plan; the array ends when its running tasks are cancelled too" {
	local j expl
	j=$(dl_submit -J cancelled --array=0-11 -t 2 --deadline=now+10minutes --wrap='sleep 60')
	dl_wait_planned "$j"
	dl_wait_n_running "$j" 8
	dl_wait_plan_field "$j" pending 4 20
	[ "$(dl_plan_field "$j" pending)" = 4 ]
	scancel "${j}_[8-11]"
	dl_wait_plan_field "$j" pending 0 20
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" pending)" = 0 ]
	[ "$(dl_plan_field "$j" running)" = 8 ]
	[ "$(dl_plan_field "$j" phase)" = map ]
	# the running ones one by one, as scancel --user sends them
	scancel "${j}_[0-7]"
	dl_wait_plan_field "$j" phase done 20
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" phase)" = done ]
	[ "$(dl_plan_field "$j" outcome)" = missed ]
	expl=$(dl_plan_field "$j" explain)
	echo "explanation: $expl"
	[[ "$expl" == "ended at "*" with 12 of 12 tasks not completed (failed or cancelled): deadline missed" ]]
}

# What a plan held for the cancelled tasks is the next array's: under
# adaptive, whose throttle is the slots it grants, the array that stayed
# got only the CPUs the vanished tasks left.
@test "Policy=adaptive: after scancel --user the next array gets every CPU" {
	local old new
	dl_use_policy "$BATS_FILE_TMPDIR/adaptive.conf" adaptive
	old=$(dl_submit -J old --array=0-11 -t 2 --deadline=now+5minutes --wrap='sleep 60')
	dl_wait_planned "$old"
	dl_wait_n_running "$old" 8
	[ "$(squeue -h -r -j "$old" -t RUNNING | wc -l)" -eq 8 ]
	# a kill per record: the pending rest by its ids, then each task
	scancel --user="$(id -un)"
	dl_poll 20 dl_queue_empty || true
	dl_wait_plan_field "$old" phase done 20
	[ "$(dl_plan_field "$old" phase)" = done ]
	new=$(dl_submit -J new --array=0-11 -t 2 --deadline=now+10minutes --wrap='sleep 20')
	dl_wait_planned "$new"
	dl_wait_plan_field "$new" alloc 8
	"$SDEADLINE"
	[ "$(dl_plan_field "$new" alloc)" = 8 ]
	dl_wait_n_running "$new" 8
	[ "$(squeue -h -r -j "$new" -t RUNNING | wc -l)" -eq 8 ]
	lc --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" reconfigure
}

# scontrol requeue of an ended task runs it again: a task counted failed
# is work again and counts by its rerun's end.  The plan used to count
# the rerun as one task more and, once it ended, as a task that
# vanished: "2 of 5 tasks not completed" for an array whose 4 tasks all
# completed.
@test "a failed task requeued with scontrol requeue counts by its rerun: the array ends met with every task completed" {
	local j expl mark=$BATS_TEST_TMPDIR/failed-once
	j=$(dl_submit -J rerun --array=0-3 -t 2 --deadline=now+10minutes \
		--wrap="if [ \"\$SLURM_ARRAY_TASK_ID\" = 2 ] && [ ! -e $mark ]; then touch $mark; exit 1; fi; sleep 30")
	dl_wait_planned "$j"
	dl_poll 20 eval "scontrol show job ${j}_2 | grep -q JobState=FAILED" || true
	scontrol show job "${j}_2" | grep JobState=FAILED
	dl_wait_cycle
	dl_wait_cycle
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" tasks)" = 4 ]
	[ "$(dl_plan_field "$j" running)" = 3 ]
	[ "$(dl_plan_field "$j" pending)" = 0 ]
	scontrol requeue "${j}_2"
	# Slurm delays a requeued batch job by its credential's lifetime
	scontrol update JobId="${j}_2" StartTime=now
	dl_wait_plan_field "$j" running 4 30
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" running)" = 4 ]
	[ "$(dl_plan_field "$j" tasks)" = 4 ]
	grep "JobId=${j}_2 runs again: no longer counted failed" "$(dl_ctld_log)"
	dl_wait_plan_field "$j" phase done 60
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" phase)" = done ]
	[ "$(dl_plan_field "$j" tasks)" = 4 ]
	[ "$(dl_plan_field "$j" done)" = 4 ]
	[ "$(dl_plan_field "$j" outcome)" = met ]
	expl=$(dl_plan_field "$j" explain)
	echo "explanation: $expl"
	[[ "$expl" == "finished at "*"s before its deadline: met" ]]
}

# A completed task that runs again is none of the array's work, but its
# CPUs are not free either.  The plan used to count them as free: it saw 8
# CPUs for the second array where it has 2, and planned it on track
# ("finishes in about 37s, 90s before its deadline").
@test "a completed task requeued with scontrol requeue holds its CPUs in the plan: an array that cannot finish on the rest is at risk" {
	local done_j late expl mark=$BATS_TEST_TMPDIR/ran-once
	mkdir -p "$mark"
	done_j=$(dl_submit -J reruns --array=0-2 -c 2 -t 5 --deadline=now+10minutes \
		--wrap="if [ -e $mark/\$SLURM_ARRAY_TASK_ID ]; then sleep 240; else touch $mark/\$SLURM_ARRAY_TASK_ID; sleep 1; fi")
	dl_wait_planned "$done_j"
	dl_wait_plan_field "$done_j" phase done 60
	[ "$(dl_plan_field "$done_j" phase)" = done ]
	[ "$(dl_plan_field "$done_j" outcome)" = met ]
	scontrol requeue "${done_j}_[0-2]"
	# Slurm delays a requeued batch job by its credential's lifetime
	for t in 0 1 2; do scontrol update JobId="${done_j}_$t" StartTime=now; done
	# Slurm starts them at its next scheduling pass: on a loaded machine
	# (CI runs two clusters at once) that took more than 20 s
	dl_poll 60 _dl_n_running "$done_j" 3 || true
	[ "$(squeue -h -r -j "$done_j" -t RUNNING | wc -l)" -eq 3 ]
	# 12 tasks of 20 s due in 150 s, each to start 60 s before (-t 1):
	# on 8 CPUs 2 waves, on the 2 left the last waves cannot start
	late=$(dl_submit -J after-reruns --array=0-11 -t 1 --deadline=now+150seconds --wrap='sleep 20')
	dl_wait_planned "$late"
	dl_poll 60 _done_at_least "$late" 1 || true
	dl_wait_cycle
	"$SDEADLINE"
	[ "$(dl_plan_field "$late" verdict)" = at_risk ]
	expl=$(dl_plan_field "$late" explain)
	echo "explanation: $expl"
	[[ "$expl" == *"late even with short tasks"* ]]
	# the reruns stay out of the first array's counts
	[ "$(dl_plan_field "$done_j" done)" = 3 ]
	[ "$(dl_plan_field "$done_j" running)" = 0 ]
	[ "$(dl_plan_field "$done_j" outcome)" = met ]
}
