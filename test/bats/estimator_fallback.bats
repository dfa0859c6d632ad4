#!/usr/bin/env bats
# sched/deadline with deadline-estimatord on a real local Slurm: finished
# tasks reach the estimator once each, the next job of the same name gets a
# history prior before its own tasks finish; when the estimator is killed
# mid-run the plan keeps the priors it had and goes on with the jobs' own
# task lengths for the others, and says so (log line, sdeadline); tasks finished meanwhile are kept, across a slurmctld
# restart, and arrive when the estimator is back.
load helpers

EST_BIN=$DL_BUILD/src/estimator/deadline-estimatord
EST_RAW=$DL_BUILD/test/bats/estimator_raw

est_run() {
	# in a subshell: no job-control noise when a test kills it
	(
		"$EST_BIN" --foreground --config "$EST_DIR/est.conf" \
			--socket "$EST_SOCK" --db "$EST_DIR/history.db" \
			2>>"$EST_DIR/est.log" &
		echo $! >"$EST_DIR/est.pid"
	)
	for _ in $(seq 1 100); do
		echo '{"v":1,"id":0,"op":"ping"}' |
			"$EST_RAW" --socket "$EST_SOCK" --expect 1 --timeout 1 2>/dev/null |
			grep -q pong && return 0
		sleep 0.05
	done
	return 1
}

est_records() {
	echo '{"v":1,"id":0,"op":"stats"}' | "$EST_RAW" --socket "$EST_SOCK" --expect 1 |
		jq .result.records
}

# wait until the estimator holds N records (timeout $2)
est_wait_records() {
	local end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		[ "$(est_records)" -ge "$1" ] && return 0
		sleep 0.5
	done
	echo "estimator has $(est_records) records, expected $1" >&2
	dl_show_log
	return 1
}

# wait until the log has a line matching $1 (timeout $2)
wait_log() {
	local end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		grep -q -- "$1" "$(dl_ctld_log)" && return 0
		sleep 0.5
	done
	echo "no '$1' in slurmctld's log" >&2
	dl_show_log
	return 1
}

setup_file() {
	[ -x "$EST_BIN" ] || skip "deadline-estimatord not built"
	export EST_DIR=$BATS_FILE_TMPDIR/est
	mkdir -p "$EST_DIR"
	export EST_SOCK=$EST_DIR/est.sock
	printf 'SlurmUser=root\n' >"$EST_DIR/est.conf"
	est_run
	printf 'PlanInterval=2\nReplanDelay=1\nEstimatorSocket=%s\nEstimatorTimeout=0.2\n' \
		"$EST_SOCK" >"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf"
}

teardown_file() {
	dl_cluster_stop
	if [ -s "$EST_DIR/est.pid" ]; then
		kill "$(cat "$EST_DIR/est.pid")" 2>/dev/null || true
	fi
}

@test "finished tasks reach the estimator; the next job of that name starts with a history prior" {
	j=$(dl_submit -J wordcount --array=0-3 -t 1:00 --deadline=now+600seconds --wrap='sleep 3')
	dl_wait_jobs 60 "$j"
	est_wait_records 4 20
	wait_log "estimator at $EST_SOCK answers" 5
	# the next run of the same job: a prior before any of its tasks ends
	j2=$(dl_submit -J wordcount --array=0-5%2 -t 1:00 --deadline=now+600seconds --wrap='sleep 8')
	dl_wait_planned "$j2"
	[ "$(dl_plan_field "$j2" source)" = "history:name" ]
	mu=$(dl_plan_field "$j2" mu)
	# the first job's tasks ran about 3 s
	[ "$(echo "$mu > 2 && $mu < 6" | bc)" = 1 ]
	wait_log "estimator ok (1 priors)" 10
	"$SDEADLINE" | grep -q "estimator ok"
	# each task was sent once: resending is not needed and not done
	dl_wait_jobs 120 "$j2"
	est_wait_records 10 20
	sleep 3
	[ "$(est_records)" -eq 10 ]
}

@test "estimator killed mid-run: the plan keeps its last priors, falls back to the jobs' own mu for the rest, and says so" {
	local j jk j3 mu
	j=$(dl_submit -J sort --array=0-5 -t 1:00 --deadline=now+600seconds --wrap='sleep 8')
	dl_wait_planned "$j"
	# mid-run: its tasks are running, none has finished
	[ "$(dl_completed "$j")" -eq 0 ]
	# a job planned with a history prior before the estimator dies (held
	# so that no task of its own ends meanwhile)
	jk=$(dl_submit -H -J wordcount --array=0-3 -t 1:00 --deadline=now+600seconds --wrap='sleep 3')
	dl_wait_plan_field "$jk" source "history:name"
	[ "$(dl_plan_field "$jk" source)" = "history:name" ]
	mu=$(dl_plan_field "$jk" mu)
	kill -KILL "$(cat "$EST_DIR/est.pid")"
	# the cycle log line and sdeadline show the fallback
	wait_log "estimator at $EST_SOCK is down (" 15
	wait_log "planning with the jobs' own task lengths and its last answers" 1
	wait_log "; estimator down since [0-9:]*: last priors kept" 10
	"$SDEADLINE" | grep -q "estimator down since .*: last priors kept"
	[[ "$("$SDEADLINE" --json | jq -r .estimator)" == "down since "* ]]
	# planned after the estimator died with the answer it gave before
	dl_wait_cycle
	[ "$(dl_plan_field "$jk" source)" = "history:name" ]
	[ "$(dl_plan_field "$jk" mu)" = "$mu" ]
	# a job whose name has history but that the estimator never answered
	# for gets no prior now: it is planned as having no data until its own
	# tasks finish (Polo's sampling).  Held (-H: the plan still estimates
	# it, and shows it on_hold) until the source is read, then released:
	# no_data until its first 10-s task ends
	j3=$(dl_submit -H -J wordcount --array=0-3 -t 1:00 --deadline=now+600seconds --wrap='sleep 10')
	dl_wait_planned "$j3"
	[ "$(dl_plan_field "$j3" source)" = none ]
	[ "$(dl_plan_field "$j3" verdict)" = on_hold ]
	scontrol release "$jk" "$j3"
	dl_wait_plan_field "$j3" verdict no_data 8
	[ "$(dl_plan_field "$j3" verdict)" = no_data ]
	[ "$(dl_plan_field "$j3" source)" = none ]
	# planning goes on and the jobs finish
	dl_wait_jobs 120 "$j" "$jk" "$j3"
	[ "$(dl_completed "$j")" -eq 6 ]
	[ "$(dl_completed "$jk")" -eq 4 ]
	[ "$(dl_completed "$j3")" -eq 4 ]
	scontrol ping | grep -q UP
	# the plan thread goes on: a cycle is due every PlanInterval (2 s),
	# also with no job left (the log line needs jobs; the count does not)
	n=$(dl_plan_cycle)
	sleep 5
	[ "$(dl_plan_cycle)" -gt "$n" ]
}

@test "tasks finished while it was away arrive once it is back, also across a slurmctld restart" {
	# still down from the previous test; 6 'sort' and 8 'wordcount' tasks
	# are queued
	before=$(sqlite3 "$EST_DIR/history.db" 'select count(*) from tasks')
	[ "$before" -eq 10 ]
	j=$(dl_submit -J grep --array=0-2 -t 1:00 --deadline=now+600seconds --wrap='sleep 2')
	dl_wait_jobs 60 "$j"
	dl_wait_cycle # a cycle counts them and keeps them in the queue
	lc restart-ctld
	grep -q "finished tasks not yet sent to the estimator restored" "$(dl_ctld_log)"
	est_run
	# the client retries within its back-off (at most 60 s, far less here)
	est_wait_records 27 90
	sleep 3
	# 10 before + 6 sort + 8 wordcount + 3 grep, none twice
	[ "$(est_records)" -eq 27 ]
	[ "$(sqlite3 "$EST_DIR/history.db" "select count(*) from tasks t join keys k on k.id = t.key_id where k.name = 'sort'")" -eq 6 ]
}
