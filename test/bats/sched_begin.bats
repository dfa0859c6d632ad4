#!/usr/bin/env bats
# Tasks that wait for a begin time.  Slurm starts no task before its
# BeginTime, and it gives a requeued batch job one a credential's lifetime
# away (121 s here: 22.05's default, 120 s, plus one).  The plan starts such tasks no earlier: the
# predicted finish and the verdict count with the wait, and the
# explanation says how long it is.  An array none of whose tasks may start
# yet waits outside the plan until its begin time.
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

_begin_of() { date -d "$(scontrol show job "$1" | grep -o 'EligibleTime=[^ ]*' | cut -d= -f2)" +%s; }

# 4 tasks of 5 s due in 150 s with a one-minute limit: Slurm starts none
# after +90 s.  The one that fails is requeued at about +10 s and may
# start only about 121 s later, after that window: it cannot run, and the
# plan must not call the array on track (it did: "finishes in about 5s").
@test "a failed task requeued waits for its BeginTime: not on track when that is past the start window, and said so; StartTime=now brings it back" {
	local j begin finish expl mark=$BATS_TEST_TMPDIR/failed-once
	j=$(dl_submit -J begin --array=0-3 -t 1 --deadline=now+150seconds \
		--wrap="sleep 5; if [ \"\$SLURM_ARRAY_TASK_ID\" = 3 ] && [ ! -e $mark ]; then touch $mark; exit 1; fi")
	dl_wait_planned "$j"
	dl_poll 30 eval "scontrol show job ${j}_3 | grep -q JobState=FAILED" || true
	scontrol show job "${j}_3" | grep JobState=FAILED
	dl_wait_plan_field "$j" done 3 30
	scontrol requeue "${j}_3"
	begin=$(_begin_of "${j}_3")
	echo "requeued task may start at $begin, $((begin - $(date +%s))) s from now"
	[ "$begin" -gt $(($(date +%s) + 60)) ]
	dl_wait_plan_field "$j" pending 1 20
	dl_wait_cycle
	"$SDEADLINE"
	finish=$(dl_plan_field "$j" predicted_finish)
	expl=$(dl_plan_field "$j" explain)
	echo "predicted finish $finish; explanation: $expl"
	[ "$(dl_plan_field "$j" pending)" = 1 ]
	[ "$(dl_plan_field "$j" verdict)" != on_track ]
	[[ "$expl" == *" [1 task may start only in "*", its begin time]" ]]
	[ "$finish" = null ] || [ "${finish%.*}" -ge "$begin" ]
	# Slurm's delay lifted: the task runs now and the array is met
	scontrol update JobId="${j}_3" StartTime=now
	dl_wait_plan_field "$j" phase done 60
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" outcome)" = met ]
	[ "$(dl_plan_field "$j" done)" = 4 ]
}

# An array submitted with --begin 25 s ahead: none of its tasks may start
# before then, so the plan leaves it out until its begin time (judged as if
# submitted then: knowing it earlier must cost no other job anything).
# sdeadline shows it waiting and says why; from its begin time it is
# planned, starts no task earlier, and meets its deadline.
@test "an array submitted with --begin waits outside the plan until its begin time, then is planned and meets its deadline" {
	local j begin expl
	j=$(dl_submit -J later --array=0-3 -t 1 --begin=now+25 \
		--deadline=now+180seconds --wrap="sleep 5")
	begin=$(_begin_of "$j")
	echo "begin time $begin, $((begin - $(date +%s))) s from now"
	dl_wait_plan_field "$j" verdict waiting 20
	"$SDEADLINE"
	expl=$(dl_plan_field "$j" explain)
	echo "explanation: $expl"
	[ "$(dl_plan_field "$j" verdict)" = waiting ]
	[ "$(dl_plan_field "$j" managed)" = false ]
	[ "$(dl_plan_field "$j" predicted_finish)" = null ]
	[[ "$expl" == "waiting for its begin time, in "*": no task may start before it (sbatch --begin); the plan judges the job from then ("*" to its deadline)" ]]
	[ "$(date +%s)" -lt "$begin" ]
	grep -q "JobId=$j verdict new -> waiting: waiting for its begin time" "$(dl_ctld_log)"
	# from its begin time it is planned, and it meets its deadline
	dl_wait_plan_field "$j" managed true 60
	[ "$(dl_plan_field "$j" managed)" = true ]
	[ "$(dl_plan_field "$j" verdict)" != waiting ]
	dl_wait_plan_field "$j" phase done 60
	"$SDEADLINE"
	[ "$(dl_plan_field "$j" outcome)" = met ]
	[ "$(dl_completed "$j")" = 4 ]
	echo "first task started at $(dl_first_start "$j")"
	[ "$(dl_first_start "$j")" -ge "$begin" ]
}
