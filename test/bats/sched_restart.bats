#!/usr/bin/env bats
# slurmctld restarts in the middle of a MapReduce job: the plugin restores
# its saved state (observed task lengths, decisions) and the last plan (with
# what triage's reserve learnt), keeps counting each task once, learns no
# length slurmctld recorded late for a task that ended while it was down,
# and the job still meets its deadline.
load helpers

setup_file() {
	dl_cluster_start --deadline-conf none
}

teardown_file() {
	dl_cluster_stop
}

state_completed() { # array id: completed tasks in the saved state
	jq -r --argjson id "$1" '.arrays[] | select(.id == $id) | .completed' \
		"$LC_DIR/state/deadline_state.json"
}

@test "slurmctld restart mid-run: state and plan restored, deadline met" {
	local m r before after cycle_before learnt_before learnt_after pid n mean sd unmeasured
	m=$(dl_submit -J rs-map --array=0-99 -t 0:30 --deadline=now+240seconds --wrap='sleep 4')
	r=$(dl_submit -J rs-reduce --array=0-7 -t 0:30 --deadline=now+240seconds \
		--dependency="afterok:$m" --wrap='sleep 2')
	# run until some map tasks have been observed
	for _ in $(seq 60); do
		before=$(state_completed "$m" 2>/dev/null || echo 0)
		[ "${before:-0}" -ge 10 ] && break
		sleep 1
	done
	[ "${before:-0}" -ge 10 ]
	cycle_before=$(jq -r .cycle "$LC_DIR/state/deadline_plan.json")
	# triage's reserve learns from each job's slack when first judged:
	# what it learnt must outlive slurmctld
	learnt_before=$(jq '.reserve_history // [] | length' "$LC_DIR/state/deadline_plan.json")
	echo "before restart: $before map tasks observed, plan cycle $cycle_before, reserve history $learnt_before"
	[ "$learnt_before" -ge 1 ]

	# slurmctld down for 6 s: the running 4-s tasks end meanwhile, and
	# their slurmstepds tell the next slurmctld at their next retry
	pid=$(cat "$LC_DIR/run/slurmctld.pid")
	kill -TERM "$pid"
	dl_poll 30 test ! -d "/proc/$pid"
	sleep 6
	lc restart-ctld
	grep -q "sched/deadline: restored the state of [0-9]* arrays" "$(dl_ctld_log)"
	grep -q "sched/deadline: restored the plan of cycle" "$(dl_ctld_log)"
	# the first plan after the restart already knows the task length
	dl_wait_planned "$m"
	for _ in $(seq 20); do
		[ "$(jq -r .cycle "$LC_DIR/state/deadline_plan.json")" -gt "$cycle_before" ] && break
		sleep 0.5
	done
	[ "$(jq -r .cycle "$LC_DIR/state/deadline_plan.json")" -gt "$cycle_before" ]
	after=$(state_completed "$m")
	learnt_after=$(jq '.reserve_history // [] | length' "$LC_DIR/state/deadline_plan.json")
	echo "after restart: $after map tasks observed, reserve history $learnt_after"
	[ "$learnt_after" -ge "$learnt_before" ]
	[ "$after" -ge "$before" ]
	[ "$(dl_plan_field "$m" verdict)" != no_data ] || [ "$(dl_plan_field "$m" phase)" != map ]

	dl_wait_jobs 240 "$m" "$r"
	"$SDEADLINE"
	# shown only on failure: what the plan decided, and the tasks that
	# did not complete with what Slurm logged about them
	dl_show_log 60
	dl_tasks "$m" | awk '$1 != "COMPLETED"' >&2
	dl_tasks "$r" | awk '$1 != "COMPLETED"' >&2
	grep -E "JobId=($m|$r)_.*(DEADLINE|deadline|TIMEOUT|Requeu|requeu|missing|NODE_FAIL)" \
		"$(dl_ctld_log)" | tail -n 20 >&2 || true
	[ "$(dl_completed "$m")" -eq 100 ]
	[ "$(dl_completed "$r")" -eq 8 ]
	[ "$(dl_outcome "$r" 8 "$(dl_deadline "$r")")" = met ]
	[ "$(dl_plan_outcome "$m")" = met ]
	# every task counted exactly once across the restart
	[ "$(state_completed "$m")" -eq 100 ]
	[ "$(state_completed "$r")" -eq 8 ]
	# tasks that ended while slurmctld was down count as done, but the
	# lengths slurmctld recorded for them (up to the outage plus a 15-s
	# retry too long: 9 s for these 4-s tasks after a 5-s outage) are
	# not learnt: what was observed is the 4-s tasks' mean and spread.
	# The mean stays below 6.5 s: a loaded CI machine measured 5.6 s for
	# these tasks (slurmd's overhead included), and learning the 32 or so
	# that end during the outage, at 9 s or more, would lift it to 6.7 s
	# or more even then (and the spread to 1.6 s)
	read -r n mean sd unmeasured < <(jq -r --argjson id "$m" '
		.arrays[] | select(.id == $id) |
		(.sum_len[0] / .done_pool[0]) as $mu |
		[.done_pool[0], $mu,
		 ((.sumsq_len[0] / .done_pool[0]) - $mu * $mu |
		  if . < 0 then 0 else sqrt end),
		 (.unmeasured // 0)] | @tsv' "$LC_DIR/state/deadline_state.json")
	echo "observed: $n map tasks, mean $mean s, sd $sd s; $unmeasured done with no known length"
	[ $((n + unmeasured)) -eq 100 ]
	[ "$unmeasured" -ge 1 ]
	awk -v m="$mean" -v s="$sd" 'BEGIN { exit !(m < 6.5 && s < 1.5) }'
}
