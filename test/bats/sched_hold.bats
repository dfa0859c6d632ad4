#!/usr/bin/env bats
# Arrays held by their user or an admin (sbatch --hold, scontrol hold,
# scontrol hold of one task, scontrol requeuehold of a failed task).  Held
# tasks cannot start until someone releases them, so the plan leaves such
# an array out: sdeadline shows it on_hold with what is held, the plan
# never releases the hold, its pending work takes nothing from other
# arrays and its running tasks keep their CPUs until start + time limit
# (test_triage's held_tasks_leave_the_plan checks the times).  Released,
# it is planned again.
# 4 nodes x 2 CPUs.
load helpers

setup_file() {
	dl_cluster_start_small
}

teardown_file() {
	dl_cluster_stop
}

teardown() {
	dl_cancel_all
}

_reason() { squeue -h -j "$1" -o %r 2>/dev/null | sort -u | tr '\n' ' '; }

@test "an array submitted held is on_hold and stays held; the array due after it is planned first; released, it is planned again" {
	local held other expl
	held=$(dl_submit --hold -J held --array=0-7 -t 1 --deadline=now+4minutes --wrap='sleep 20')
	other=$(dl_submit -J other --array=0-7 -t 1 --deadline=now+5minutes --wrap='sleep 20')
	dl_wait_planned "$held"
	dl_wait_planned "$other"
	dl_wait_plan_field "$held" verdict on_hold 20
	dl_wait_plan_field "$other" rank 1 20
	"$SDEADLINE"
	[ "$(dl_plan_field "$held" verdict)" = on_hold ]
	[ "$(dl_plan_field "$held" managed)" = false ]
	[ "$(dl_plan_field "$held" predicted_finish)" = null ]
	expl=$(dl_plan_field "$held" explain)
	echo "explanation: $expl"
	[[ "$expl" == "held: its 8 unstarted tasks wait for a user or an admin to release them (scontrol release); the plan leaves the job to Slurm until then ("*" to its deadline)" ]]
	# due later, but first in the plan: the held work takes no place
	[ "$(dl_plan_field "$other" rank)" = 1 ]
	dl_wait_n_running "$other" 8
	[ "$(squeue -h -r -j "$other" -t R | wc -l)" = 8 ]
	# the plan left the user's hold alone
	dl_wait_cycle
	[ "$(_reason "$held")" = "JobHeldUser " ]
	[ "$(dl_plan_field "$held" verdict)" = on_hold ]
	grep -q "JobId=$held verdict .*-> on_hold: held: its 8 unstarted tasks" "$(dl_ctld_log)"
	scontrol release "$held"
	dl_wait_plan_field "$held" managed true 20
	"$SDEADLINE"
	[ "$(dl_plan_field "$held" managed)" = true ]
	[ "$(dl_plan_field "$held" verdict)" != on_hold ]
}

@test "scontrol hold while tasks run: on_hold, its running tasks go on, and the plan counts only the other array" {
	local held other
	held=$(dl_submit -J running --array=0-15 -t 1 --deadline=now+5minutes --wrap='sleep 20')
	dl_wait_n_running "$held" 8
	[ "$(squeue -h -r -j "$held" -t R | wc -l)" = 8 ]
	scontrol hold "$held"
	other=$(dl_submit -J next --array=0-7 -t 1 --deadline=now+4minutes --wrap='sleep 20')
	dl_wait_planned "$other"
	dl_wait_plan_field "$held" verdict on_hold 20
	dl_wait_cycle
	"$SDEADLINE"
	[ "$(dl_plan_field "$held" verdict)" = on_hold ]
	[ "$(dl_plan_field "$held" running)" = 8 ]
	[ "$(dl_plan_field "$held" pending)" = 8 ]
	[[ "$(dl_plan_field "$held" explain)" == "held: its 8 unstarted tasks wait for a user or an admin to release them"* ]]
	[ "$(_reason "$held")" = "JobHeldAdmin " ]
	# the held array is in no deadline order; its running tasks go on
	[[ "$(dl_plan_field "$other" explain)" == *"deadline order 1 of 1"* ]]
	[ "$(squeue -h -r -j "$held" -t R | wc -l)" = 8 ]
}

@test "one task of an array held: on_hold with the count; released, the array is planned again" {
	local j
	j=$(dl_submit -J onetask --array=0-11 -t 1 --deadline=now+5minutes --wrap='sleep 30')
	dl_wait_n_running "$j" 8
	dl_wait_plan_field "$j" pending 4 20
	scontrol hold "${j}_11"
	dl_wait_plan_field "$j" verdict on_hold 20
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" verdict)" = on_hold ]
	[[ "$(dl_plan_field "$j" explain)" == "held: 1 of its 4 unstarted tasks waits for a user or an admin to release it"* ]]
	[ "$(_reason "${j}_11")" = "JobHeldAdmin " ]
	scontrol release "${j}_11"
	dl_wait_plan_field "$j" managed true 20
	[ "$(dl_plan_field "$j" verdict)" != on_hold ]
}

@test "a failed task requeued held (scontrol requeuehold) is work on hold: on_hold until released" {
	local j
	j=$(dl_submit -J requeued --array=0-3 -t 1 --deadline=now+5minutes \
		--wrap='sleep 2; [ "$SLURM_ARRAY_TASK_ID" != 3 ]')
	dl_wait_planned "$j"
	dl_wait_plan_field "$j" phase done 30
	[ "$(dl_plan_field "$j" outcome)" = missed ]
	scontrol requeuehold "${j}_3"
	dl_wait_plan_field "$j" verdict on_hold 20
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" verdict)" = on_hold ]
	[ "$(dl_plan_field "$j" done)" = 3 ]
	[ "$(dl_plan_field "$j" pending)" = 1 ]
	[[ "$(dl_plan_field "$j" explain)" == "held: its 1 unstarted task waits for a user or an admin to release it"* ]]
	grep -q "JobId=${j}_3 runs again: no longer counted failed" "$(dl_ctld_log)"
	scontrol release "${j}_3"
	dl_wait_plan_field "$j" managed true 20
	[ "$(dl_plan_field "$j" verdict)" != on_hold ]
	[ "$(dl_plan_field "$j" pending)" = 1 ]
}
