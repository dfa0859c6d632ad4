#!/usr/bin/env bats
# Policy=portfolio on a real local Slurm (16 nodes x 2 CPUs), candidates
# edf then triage, a round at least every 10 s, no minimum dwell, a switch
# on one round's win (the middle array's tasks start 25 s in: room for one
# 10-s round, not surely for two; test_portfolio checks PortfolioConfirm).
# First half: one 32-task array with room to spare -- edf and triage plan
# it alike, so the portfolio keeps edf, its first candidate.  Second half:
# three arrays that deadline order alone makes late (sched_triage.bats's
# workload, 25 s tasks known from history: 32 tasks due at +62 s, 64 due at
# +70 s, 32 due at +92 s).  Under edf the last two miss; the round scores
# edf with two of three deadlines missed and triage with one, switches to
# triage before the middle array's tasks start, and the two others meet
# their deadlines.  Then slurmctld restarts: the portfolio resumes triage.
load helpers
load estimator_helpers

setup_file() {
	est_start_file
	# history: 24 earlier tasks of each name took 20 s (warm-up) or 25 s,
	# enough that the estimator's spread (its prior spread, shrunk by the
	# observations) is narrow; with four, a round drew stragglers past
	# every deadline for both candidates alike (88.9 % missed each)
	local name
	for name in pf-warmup:20 pf-first:25 pf-big:25 pf-last:25; do
		est_observe_runs "${name%:*}" "${name#*:}" 24
	done
	cat >"$BATS_FILE_TMPDIR/deadline.conf" <<-EOF
		Policy=portfolio
		PortfolioPolicies=edf,triage
		PortfolioInterval=10
		PortfolioMinDwell=0
		PortfolioConfirm=1
		PortfolioBudget=5
		PlanInterval=2
		ReplanDelay=1
		EstimatorSocket=$EST_SOCK
	EOF
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
	est_stop_file
}

# a field of the published plan's portfolio record
pf_field() {
	"$SDEADLINE" --json | jq -r ".portfolio.$1"
}

# the plan's active policy
plan_policy() {
	"$SDEADLINE" --json | jq -r '.policy'
}

policy_is() {
	[ "$(plan_policy)" = "$1" ]
}

# a round has scored both candidates and the plan has judged array $1
round_saw() {
	[ "$(pf_field 'scores | length')" -eq 2 ] &&
		[ "$(dl_plan_field "$1" verdict)" != null ]
}

@test "portfolio: keeps edf while it does as well, switches to triage when the queue favours it, and the deadlines triage keeps are met" {
	local now warm d_warm first big last d_first d_big d_last
	# first half: one array that every candidate meets
	now=$(date +%s)
	d_warm=$((now + 60))
	warm=$(dl_submit -J pf-warmup --array=0-31 -t 2:00 \
		--soft-deadline="$(dl_deadline_arg "$d_warm")" --wrap='sleep 20')
	dl_wait_planned "$warm"
	# wait on a round that has seen the array, not on the clock (a round
	# is due every 10 s: 30 s leaves room for one run late)
	dl_poll 30 round_saw "$warm" || echo "no round saw $warm within 30 s"
	"$SDEADLINE"
	round_saw "$warm"
	[ "$(plan_policy)" = edf ]
	[ "$(pf_field switches)" -eq 0 ]
	[[ "$(pf_field why)" == "kept edf: best"* ]]
	"$SDEADLINE" | grep -E '^plan cycle .* policy portfolio, now edf,'
	dl_wait_jobs 60 "$warm"
	[ "$(dl_outcome "$warm" 32 "$d_warm")" = met ]

	# second half: the workload that deadline order alone gets wrong
	now=$(date +%s)
	d_first=$((now + 62))
	d_big=$((now + 70))
	d_last=$((now + 92))
	read -r first big last < <(dl_submit_trio pf 25 "$d_first" "$d_big" "$d_last")
	dl_wait_planned "$last"
	dl_poll 30 policy_is triage || echo "no switch to triage within 30 s"
	"$SDEADLINE"
	grep -E 'sched/deadline: portfolio' "$(dl_ctld_log)" | tail -n 5
	"$SDEADLINE" --json | jq -c '.jobs[] | del(.explain)' | head -n 5
	# the plan, sdeadline's header and the log name the switch
	[ "$(plan_policy)" = triage ]
	[ "$(pf_field switches)" -eq 1 ]
	"$SDEADLINE" | grep -E '^plan cycle .* policy portfolio, now triage \(switched\),'
	grep -E "sched/deadline: portfolio: switched edf -> triage: better by [0-9.]+" \
		"$(dl_ctld_log)"
	grep -qE "sched/deadline: portfolio round [0-9]+ .*edf [0-9.]+ \(missed" "$(dl_ctld_log)"
	[ "$(dl_plan_field "$big" verdict)" = hopeless ]
	# the outcome: the two arrays triage keeps meet their deadlines
	dl_wait_jobs 150 "$first" "$big" "$last"
	for j in "$first" "$big" "$last"; do
		echo "job $j: $(dl_completed "$j") completed, last end $(($(dl_last_end "$j") - now)) s after submission"
	done
	[ "$(dl_outcome "$first" 32 "$d_first")" = met ]
	[ "$(dl_outcome "$last" 32 "$d_last")" = met ]
	[ "$(dl_completed "$big")" -eq 64 ]
	# no switch back and forth on the way
	[ "$(plan_policy)" = triage ]
	[ "$(grep -c 'sched/deadline: portfolio: switched' "$(dl_ctld_log)")" -eq 1 ]
}

@test "portfolio: a slurmctld restart resumes the active policy (triage), not the first candidate" {
	local cycle_before since_before
	[ "$(plan_policy)" = triage ] # where the test above left it
	cycle_before=$(jq -r .cycle "$LC_DIR/state/deadline_plan.json")
	since_before=$(pf_field active_since)
	lc restart-ctld
	grep -q "sched/deadline: restored the plan of cycle" "$(dl_ctld_log)"
	for _ in $(seq 40); do
		[ "$(jq -r .cycle "$LC_DIR/state/deadline_plan.json")" -gt "$cycle_before" ] && break
		sleep 0.5
	done
	"$SDEADLINE"
	[ "$(jq -r .cycle "$LC_DIR/state/deadline_plan.json")" -gt "$cycle_before" ]
	grep -E "sched/deadline: portfolio: resumed triage" "$(dl_ctld_log)"
	# with an empty queue no round has a reason to switch: a restart
	# starting from edf would stay there
	[ "$(plan_policy)" = triage ]
	[ "$(pf_field switches)" -eq 1 ]
	[ "$(pf_field active_since)" = "$since_before" ]
}
