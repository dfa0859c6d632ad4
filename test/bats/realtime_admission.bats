#!/usr/bin/env bats
# Policy=realtime on a real Slurm: verdicts at submit (job_submit/deadline),
# admitted jobs finishing before their deadlines, the rejection message, a
# job held (not cancelled) when capacity is lost and released when it comes
# back, unless someone asked to hold it meanwhile, the admitted set across
# a slurmctld restart, and a smapreduce pair judged as one job; a job the
# plan holds is released before Slurm would
# cancel it at its --deadline; a plain job runs unjudged (only arrays are
# planned), so does an array with its own %N (the plan keeps the user's
# limit), and so does every job when sched/deadline is not the scheduler;
# another job_submit plugin's message to the user is kept.
#
# 2 nodes x 2 CPUs and no estimator, so every task's worst case is its time
# limit (-t 1: 60 s) plus RealtimeTaskOverhead (5 s): 65 s.  A --deadline
# array with -t 1 must start its last task a minute before the deadline.
load helpers

WC=65 # worst-case task length (s) the policy counts with

setup_file() {
	mkdir -p "$BATS_FILE_TMPDIR"
	printf 'Policy=realtime\nPlanInterval=5\nReplanDelay=1\nEstimatorSocket=""\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	DL_PORT_BASE=${DL_RT_PORT_BASE:-22000} dl_cluster_start --nodes 2 --cpus 2 \
		--job-submit deadline \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf" \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf"
	printf '#!/bin/sh\nsleep 3\n' >"$LC_DIR/jobs/map.sh"
	printf '#!/bin/sh\nsleep 2\n' >"$LC_DIR/jobs/reduce.sh"
	chmod 755 "$LC_DIR/jobs/map.sh" "$LC_DIR/jobs/reduce.sh"
}

teardown_file() {
	dl_cluster_stop
}

# sbatch in the jobs directory: "$status" and "$output" (stdout+stderr)
rt_sbatch() {
	run bash -c 'cd "$LC_DIR/jobs" && sbatch --parsable -o /dev/null "$@" 2>&1' \
		rt_sbatch "$@"
}

# the plan thread saw every admitted job leave (the jobs of an earlier
# test would still occupy the model until then)
rt_wait_empty() {
	local last
	for _ in $(seq 40); do
		last=$(grep 'realtime admitted set: [0-9]* jobs$' "$(dl_ctld_log)" | tail -n 1)
		[[ "$last" == *": 0 jobs" ]] && return 0
		sleep 0.5
	done
	echo "admitted set not empty: $last" >&2
	return 1
}

# every task of array $1 completed, the last one by epoch $2
rt_met() {
	local id=$1 deadline=$2 n=$3 done last
	done=$(dl_completed "$id")
	last=$(dl_last_end "$id")
	echo "array $id: $done of $n completed, last end $last, deadline $deadline" >&2
	[ "$done" -eq "$n" ] && [ "$last" -le "$deadline" ]
}

# the first reason squeue shows for array $1's pending tasks, once it is
# $2 (or the last one read, after 20 s)
rt_reason_becomes() {
	local id=$1 want=$2 reason=""
	for _ in $(seq 40); do
		reason=$(squeue -h -t PD -j "$id" -o %r | head -n 1)
		[ "$reason" = "$want" ] && break
		sleep 0.5
	done
	echo "$reason"
}

# Capacity lost under an admitted array: 8 tasks of 15 s due in 180 s (two
# waves on 4 CPUs: worst case ~130 s, last start ~65 s <= 120 s; on 2 CPUs
# the last wave would start at ~130 s); once 4 run, n2 is drained and the
# plan holds the rest.  Sets x (its id) and dx (its deadline).
rt_held_by_plan() { # job-name
	local reason
	dx=$(($(date +%s) + 180))
	rt_sbatch -J "$1" --array=0-7 -t 1 --deadline="uts$dx" --wrap='sleep 15'
	[ "$status" -eq 0 ]
	x=$output
	for _ in $(seq 30); do
		[ "$(squeue -h -t R -j "$x" | wc -l)" -eq 4 ] && break
		sleep 0.5
	done
	scontrol update nodename=n2 state=drain reason=realtime-test
	reason=$(rt_reason_becomes "$x" DeadlineInfeasible)
	echo "reason: $reason" >&2
	[ "$reason" = DeadlineInfeasible ]
}

@test "a sequence of arrays: expected admits and rejects, every admitted one on time" {
	local t0 x a c f e dx da db dc df suggested
	t0=$(date +%s)
	dx=$((t0 + 120))
	da=$((t0 + 200))
	db=$((t0 + 225))
	dc=$((t0 + 360))
	# X: 4 tasks, one wave, worst-case finish ~65 s.  Once it runs it holds
	# every CPU, so A stays unstarted until X's tasks end (20 s): B below
	# may go ahead of A but never of X.  Without X, a plan cycle between
	# A's and B's submissions could start A and leave B no place ahead.
	rt_sbatch -J rtX --array=0-3 -t 1 --deadline="uts$dx" --wrap='sleep 20'
	[ "$status" -eq 0 ]
	x=$output
	dl_poll 30 _dl_n_running "$x" 4
	# A: 4 tasks behind X: worst-case finish ~130 s, deadline 200 s
	rt_sbatch -J rtA --array=0-3 -t 1 --deadline="uts$da" --wrap='sleep 15'
	[ "$status" -eq 0 ]
	a=$output
	[ "$(squeue -h -r -j "$a" -t R | wc -l)" -eq 0 ]
	# B: 8 tasks by 225 s.  Ahead of A it ends at ~195 s but A would end
	# at ~260 s > 200 s; behind A it ends at ~260 s > 225 s.  The message
	# names A by its job id even before a plan cycle has seen A.
	rt_sbatch -J rtB --array=0-7 -t 1 --deadline="uts$db" --wrap='sleep 4'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"deadline cannot be guaranteed: it would make admitted job $a miss its deadline"* ]]
	[[ "$output" == *"with 4 slots (worst-case task ${WC}s)"* ]]
	[[ "$output" == *"or later would be admitted"* ]]
	suggested=$(sed -n 's/.*a deadline of \([0-9T:-]*\) or later would be admitted.*/\1/p' <<<"$output" | head -n 1)
	[ -n "$suggested" ]
	# C: behind A, ends at ~195 s, deadline 360 s
	rt_sbatch -J rtC --array=0-3 -t 1 --deadline="uts$dc" --wrap='sleep 4'
	[ "$status" -eq 0 ]
	c=$output
	# X and A hold every CPU: C waits, held with a Reason (not just pending)
	local reason=""
	for _ in $(seq 20); do
		reason=$(squeue -h -j "$c" -o %r | head -n 1)
		[ "$reason" = WaitingForEarlierDeadlines ] && break
		sleep 0.5
	done
	echo "C: $reason" >&2
	[ "$reason" = WaitingForEarlierDeadlines ]

	# D: even alone a task takes 65 s at worst: 50 s cannot be met
	rt_sbatch -J rtD --array=0-1 -t 1 --deadline=now+50seconds --wrap='sleep 1'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"deadline cannot be guaranteed: earliest finish"* ]]
	# no deadline: nothing to judge
	rt_sbatch -J rtE --array=0-1 -t 1 --wrap='sleep 1'
	[ "$status" -eq 0 ]
	e=$output
	# B with the deadline the message suggested (plus the seconds since):
	# ahead of C (~260 s), which then ends at ~325 s, before its 360 s
	df=$(($(date -d "$suggested" +%s) + 20))
	rt_sbatch -J rtF --array=0-7 -t 1 --deadline="uts$df" --wrap='sleep 4'
	echo "$output"
	[ "$status" -eq 0 ]
	f=$output
	grep -q "job_submit/deadline: rejected (user .*8+0 tasks)" "$(dl_ctld_log)"
	dl_wait_jobs 200 "$x" "$a" "$c" "$e" "$f"
	rt_met "$x" "$dx" 4
	rt_met "$a" "$da" 4
	rt_met "$c" "$dc" 4
	rt_met "$f" "$df" 8
	[ "$(dl_completed "$e")" -eq 2 ]
}

@test "capacity lost: an admitted job that can no longer make it is held with a Reason, then released" {
	local x dx reason
	rt_wait_empty
	rt_held_by_plan rtX
	grep -q "realtime: job $x held at .*cannot meet its deadline" "$(dl_ctld_log)"
	# not cancelled: still pending with its own tasks
	[ "$(squeue -h -t PD -j "$x" | wc -l)" -ge 1 ]
	scontrol update nodename=n2 state=resume
	for _ in $(seq 40); do
		reason=$(squeue -h -t PD -j "$x" -o %r | head -n 1)
		[ "$reason" != DeadlineInfeasible ] && break
		sleep 0.5
	done
	[ "$reason" != DeadlineInfeasible ]
	grep -q "realtime: job $x released" "$(dl_ctld_log)"
	dl_wait_jobs 150 "$x"
	rt_met "$x" "$dx" 8
}

@test "a hold asked for while the plan holds the job outlasts the plan's hold, until a release" {
	local x dx reason pending
	rt_wait_empty
	rt_held_by_plan rtH
	# Slurm changes nothing visible for a hold of a held job: only
	# job_submit/deadline's mark keeps it once the plan lets go
	scontrol hold "$x"
	grep -q "JobId=$x: hold asked for by uid 0 while already held, marked for sched/deadline as a user hold" "$(dl_ctld_log)"
	reason=$(rt_reason_becomes "$x" JobHeldUser)
	echo "after the hold: $reason" >&2
	[ "$reason" = JobHeldUser ]
	grep -q "JobId=$x: held at the request of its owner" "$(dl_ctld_log)"
	# capacity back: the plan would release it (the test above), the
	# hold asked for keeps it, for three plan cycles at least
	scontrol update nodename=n2 state=resume
	sleep 16
	pending=$(squeue -h -t PD -r -j "$x" | wc -l)
	reason=$(squeue -h -t PD -j "$x" -o %r | head -n 1)
	echo "16 s after the resume: $pending pending, $reason" >&2
	[ "$pending" -eq 4 ]
	[ "$reason" = JobHeldUser ]
	# released: the mark goes with the hold, and the tasks run (scontrol
	# fails for the tasks that have ended)
	run scontrol release "$x"
	echo "$output" >&2
	grep -q "JobId=$x: its owner's hold request taken back" "$(dl_ctld_log)"
	dl_wait_jobs 150 "$x"
	[ "$(dl_completed "$x")" -eq 8 ]
}

@test "a slurmctld restart keeps the admitted set" {
	local t0 y dy z
	rt_wait_empty
	t0=$(date +%s)
	dy=$((t0 + 170))
	rt_sbatch -J rtY --array=0-3 -t 1 --deadline="uts$dy" --wrap='sleep 20'
	[ "$status" -eq 0 ]
	y=$output
	dl_wait_planned "$y"
	lc restart-ctld
	grep -q "realtime admitted set: 1 jobs from " "$(dl_ctld_log)"
	# alone, 8 tasks end at ~130 s <= 140 s; behind (or ahead of) Y they
	# cannot: rejected only because Y is still in the admitted set
	rt_sbatch -J rtZ --array=0-7 -t 1 --deadline=now+140seconds --wrap='sleep 1'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"deadline cannot be guaranteed"* ]]
	dl_wait_jobs 150 "$y"
	rt_met "$y" "$dy" 4
}

@test "a smapreduce pair is admitted or rejected as one job" {
	local ids map red dl
	rt_wait_empty
	cd "$LC_DIR/jobs"
	# maps ~65 s, then reduces (map worst case x ReduceCost 1) ~65 s
	run "$DL_BUILD/src/smapreduce/smapreduce" --deadline=now+100seconds \
		-J rtpair -m 4 -r 2 map.sh reduce.sh -- -t 1 -o /dev/null
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"deadline cannot be guaranteed"* ]]
	grep -q "job_submit/deadline: rejected (user .*4+2 tasks)" "$(dl_ctld_log)"
	dl=$(($(date +%s) + 240))
	run "$DL_BUILD/src/smapreduce/smapreduce" --parsable --deadline="uts$dl" \
		-J rtpair -m 4 -r 2 map.sh reduce.sh -- -t 1 -o /dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	ids=$(tail -n 1 <<<"$output")
	map=${ids%%:*}
	red=${ids##*:}
	grep -q "job_submit/deadline: ticket .*4+2 tasks" "$(dl_ctld_log)"
	grep -q "reduce array of JobId=$map .*admitted as the reduce phase of job $map" "$(dl_ctld_log)"
	dl_wait_jobs 200 "$map" "$red"
	rt_met "$map" "$dl" 4
	rt_met "$red" "$dl" 2
}

# Slurm cancels a pending job, from 24.05 a held one too, once now + its
# time limit passes its --deadline (from 23.11.4 any job it does not start;
# 22.05 only when it tries to start it).  A hold of the plan therefore ends
# 2 x PlanInterval + ReplanDelay (11 s here) before that cut-off: the job's
# tasks may then take idle CPUs, and Slurm's own rule decides the rest.
@test "a job the plan holds is released before Slurm's --deadline cut-off, not cancelled while held" {
	local t0 dc c reason
	rt_wait_empty
	# judged by the plan, not at submit: submitted held under another
	# policy, released under realtime
	sed 's/^Policy=.*/Policy=adaptive/' "$BATS_FILE_TMPDIR/deadline.conf" \
		>"$BATS_FILE_TMPDIR/adaptive.conf"
	lc --deadline-conf "$BATS_FILE_TMPDIR/adaptive.conf" reconfigure
	for _ in $(seq 40); do
		[ "$("$SDEADLINE" --json | jq -r .policy)" = adaptive ] && break
		sleep 0.5
	done
	t0=$(date +%s)
	dc=$((t0 + 105)) # cut-off: dc - 60 = t0 + 45
	# 8 tasks of 65 s at worst on 4 CPUs: the second wave would start
	# after the cut-off, so realtime cannot guarantee it
	c=$(dl_submit -H -J rtC --array=0-7 -t 1 --deadline="uts$dc" --wrap='sleep 2')
	lc --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" reconfigure
	for _ in $(seq 40); do
		[ "$("$SDEADLINE" --json | jq -r .policy)" = realtime ] && break
		sleep 0.5
	done
	scontrol release "$c"
	for _ in $(seq 40); do
		reason=$(squeue -h -t PD -j "$c" -o %r | head -n 1)
		[ "$reason" = DeadlineNotGuaranteed ] && break
		sleep 0.5
	done
	echo "held: $reason at +$(($(date +%s) - t0))s" >&2
	[ "$reason" = DeadlineNotGuaranteed ]
	dl_wait_jobs 90 "$c"
	grep "JobId=$c " "$(dl_ctld_log)" | grep 'hold lifted' | head -n 1
	grep -q "JobId=$c .*hold lifted before Slurm's --deadline cut-off" "$(dl_ctld_log)"
	dl_tasks "$c" >&2
	[ "$(dl_deadline_cancelled "$c")" -eq 0 ]
	rt_met "$c" "$dc" 8
}

# sbatch "$@" is accepted unjudged, prints "sbatch: $1..." and its $2 tasks
# complete (the old code admitted it and held it with no plan to release
# it: JobHeldUser for ever)
rt_runs_unjudged() { # message tasks sbatch-arguments...
	local msg=$1 n=$2 j
	shift 2
	rt_sbatch "$@"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"sbatch: $msg"* ]]
	j=$(tail -n 1 <<<"$output")
	[[ "$j" =~ ^[0-9]+$ ]]
	dl_wait_jobs 60 "$j" || {
		squeue -h -j "$j" -o '%T %r' >&2
		return 1
	}
	[ "$(dl_completed "$j")" -eq "$n" ]
}

@test "a plain job (not an array) with a deadline is not judged: sbatch says so, it runs and the admitted set never counts it" {
	local tickets
	rt_wait_empty
	tickets=$(grep -c "job_submit/deadline: ticket " "$(dl_ctld_log)" || true)
	# the plan takes arrays only
	rt_runs_unjudged "deadline: not a job array, so not judged" 1 \
		-J rtplain -t 1 --deadline=now+10minutes --wrap='sleep 1'
	grep -q "job_submit/deadline: not judged (user [0-9]*, not a job array)" \
		"$(dl_ctld_log)"
	[ "$(grep -c "job_submit/deadline: ticket " "$(dl_ctld_log)")" -eq "$tickets" ]
	rt_wait_empty
}

@test "an array with its own %N is not judged: sbatch says so, it runs at most N at once, unheld, and the admitted set never counts it" {
	local tickets j most=0 n
	rt_wait_empty
	tickets=$(grep -c "job_submit/deadline: ticket " "$(dl_ctld_log)" || true)
	rt_sbatch -J rtlimit --array=0-5%2 -t 1 --deadline=now+10minutes --wrap='sleep 4'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"sbatch: deadline: an array with its own limit (%2), so not judged"* ]]
	[[ "$output" == *"at most 2 tasks at once"* ]]
	j=$(tail -n 1 <<<"$output")
	[[ "$j" =~ ^[0-9]+$ ]]
	grep -q "job_submit/deadline: not judged (user [0-9]*, an array limited to 2 tasks at once)" \
		"$(dl_ctld_log)"
	# Slurm's own limit holds, and nothing holds the job
	for _ in $(seq 60); do
		n=$(squeue -h -r -j "$j" -t RUNNING | wc -l)
		[ "$n" -gt "$most" ] && most=$n
		squeue -h -j "$j" -o '%r' | grep -q JobHeld && {
			squeue -h -j "$j" -o '%T %r' >&2
			return 1
		}
		[ -z "$(squeue -h -j "$j")" ] && break
		sleep 1
	done
	echo "most tasks running at once: $most"
	[ "$most" -ge 1 ] && [ "$most" -le 2 ]
	dl_wait_jobs 60 "$j"
	[ "$(dl_completed "$j")" -eq 6 ]
	[ "$(grep -c "job_submit/deadline: ticket " "$(dl_ctld_log)")" -eq "$tickets" ]
	rt_wait_empty
}

@test "another job_submit plugin's message to the user is kept beside ours" {
	local sys
	sys=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)/slurm-wlm
	[ -f "$sys/job_submit_lua.so" ] || skip "no job_submit/lua in $sys"
	# next to slurm.conf, where job_submit/lua looks for it
	cat >"$LC_DIR/etc/job_submit.lua" <<'LUA'
function slurm_job_submit(job_desc, part_list, submit_uid)
	slurm.user_msg("site policy: checked")
	return slurm.SUCCESS
end
function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
	return slurm.SUCCESS
end
return slurm.SUCCESS
LUA
	touch "$BATS_TEST_TMPDIR/job-submit-changed"
	lc --job-submit lua,deadline restart-ctld
	# both plugins write into one message: ours replaced lua's before
	rt_runs_unjudged "deadline: not a job array, so not judged" 1 \
		-J rtlua -t 1 --deadline=now+10minutes --wrap='sleep 1'
	[[ "$output" == *"sbatch: site policy: checked"* ]]
}

@test "Policy=realtime under another scheduler: nothing is judged or held, sbatch says why, and the job runs" {
	touch "$BATS_TEST_TMPDIR/sched-changed"
	lc --sched sched/backfill restart-ctld
	grep -q "job_submit/deadline: Policy=realtime without SchedulerType=sched/deadline (this cluster runs sched/backfill)" \
		"$(dl_ctld_log)"
	rt_runs_unjudged "deadline: not judged: Policy=realtime needs SchedulerType=sched/deadline" 2 \
		-J rtbf --array=0-1 -t 1 --deadline=now+10minutes --wrap='sleep 1'
}

teardown() {
	if [ -f "$BATS_TEST_TMPDIR/sched-changed" ]; then
		lc --sched sched/deadline restart-ctld
	fi
	if [ -f "$BATS_TEST_TMPDIR/job-submit-changed" ]; then
		lc --job-submit deadline restart-ctld
	fi
}
