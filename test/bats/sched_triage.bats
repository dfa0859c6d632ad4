#!/usr/bin/env bats
# The default policy, triage, on a real local Slurm (16 nodes x 2 CPUs):
# three arrays whose task lengths the estimator knows from history.  In
# deadline order a 32-task array due at +50 s, a 64-task array due at +55 s
# and a 32-task array due at +75 s, 20 s tasks: deadline order alone makes
# the last two late (the big one needs two waves after the first array's
# wave, and the last one waits for it).  Triage gives up the big array --
# the most work among those due no later than a late one, Moore and
# Hodgson's rule -- marks it hopeless with what it would take, and the two
# others meet their deadlines; the hopeless one still runs to completion.
load helpers
load estimator_helpers

setup_file() {
	est_start_file
	# history: four earlier runs of each name took 20 s a task
	local name
	for name in triage-first triage-big triage-last; do
		est_observe_runs "$name" 20 4
	done
	printf 'PlanInterval=2\nReplanDelay=1\nEstimatorSocket=%s\n' "$EST_SOCK" \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
	est_stop_file
}

@test "triage: the job that would make others late is marked hopeless with what it would take; the others meet their deadlines" {
	local now first big last d_first d_big d_last expl
	now=$(date +%s)
	d_first=$((now + 50))
	d_big=$((now + 55))
	d_last=$((now + 75))
	read -r first big last < <(dl_submit_trio triage 20 "$d_first" "$d_big" "$d_last")
	dl_wait_planned "$last"
	# the plan gives up the big array, with what it would take
	for _ in $(seq 20); do
		[ "$(dl_plan_field "$big" verdict)" = hopeless ] && break
		sleep 1
	done
	"$SDEADLINE"
	[ "$(dl_plan_field "$big" verdict)" = hopeless ]
	expl=$(dl_plan_field "$big" explain)
	echo "explanation: $expl"
	[[ "$expl" == *"cannot meet its deadline without making jobs due earlier late"* ]]
	[[ "$expl" =~ still\ runs.*about\ [0-9.]+[smh]\ late ]]
	# the others are planned to make it (at_risk: the estimator's spread
	# of 20 s tasks can put the slowest one past the deadline)
	[[ "$(dl_plan_field "$first" verdict)" =~ ^(on_track|at_risk)$ ]]
	[[ "$(dl_plan_field "$last" verdict)" =~ ^(on_track|at_risk)$ ]]
	# sdeadline and the log say so too
	"$SDEADLINE" | grep -E "^$big .* hopeless +cannot meet its deadline"
	grep -q "JobId=$big verdict .* -> hopeless: cannot meet its deadline" "$(dl_ctld_log)"
	# the outcome: the two others meet their deadlines, the big one
	# still runs every task to the end, after them
	dl_wait_jobs 240 "$first" "$big" "$last"
	for j in "$first" "$big" "$last"; do
		echo "job $j: $(dl_completed "$j") completed, last end $(($(dl_last_end "$j") - now)) s after submission"
	done
	echo "deadlines: first +50, big +55, last +75"
	[ "$(dl_outcome "$first" 32 "$d_first")" = met ]
	[ "$(dl_outcome "$last" 32 "$d_last")" = met ]
	[ "$(dl_completed "$big")" -eq 64 ]
	[ "$(dl_outcome "$big" 64 "$d_big")" = missed ]
	[ "$(dl_last_end "$big")" -gt "$(dl_last_end "$last")" ]
}
