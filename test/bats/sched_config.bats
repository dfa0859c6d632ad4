#!/usr/bin/env bats
# deadline.conf: read with Slurm's parser at start, re-read on
# `scontrol reconfigure`; a broken file logs a clear error and keeps the
# configuration in force (from Slurm 23.11, where reconfigure restarts
# slurmctld, through the last good copy); a cold start refuses a broken
# file; MaxDeadlineShare caps what one account claims.
load helpers

setup_file() {
	printf 'PlanInterval=5\nMaxDeadlineShare=0.5\n' >"$BATS_FILE_TMPDIR/good.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/good.conf"
}

teardown_file() {
	dl_cluster_stop
}

@test "deadline.conf is read at start" {
	grep -q 'sched/deadline: Policy=triage PlanInterval=5s .*MaxDeadlineShare=0.50' "$(dl_ctld_log)"
}

@test "a broken deadline.conf on reconfigure keeps the previous configuration" {
	local n j
	printf 'PlanInterval=abc\n' >"$BATS_FILE_TMPDIR/bad1.conf"
	lc --deadline-conf "$BATS_FILE_TMPDIR/bad1.conf" reconfigure
	for _ in $(seq 20); do
		grep -q 'PlanInterval=abc: expected a duration .*keeping the previous configuration' "$(dl_ctld_log)" && break
		sleep 0.5
	done
	grep 'keeping the previous configuration' "$(dl_ctld_log)"
	grep -q 'PlanInterval=abc: expected a duration' "$(dl_ctld_log)"

	printf 'PlanInterval=7\nNoSuchOption=1\n' >"$BATS_FILE_TMPDIR/bad2.conf"
	n=$(grep -c 'keeping the previous configuration' "$(dl_ctld_log)")
	lc --deadline-conf "$BATS_FILE_TMPDIR/bad2.conf" reconfigure
	for _ in $(seq 20); do
		[ "$(grep -c 'keeping the previous configuration' "$(dl_ctld_log)")" -gt "$n" ] && break
		sleep 0.5
	done
	[ "$(grep -c 'keeping the previous configuration' "$(dl_ctld_log)")" -gt "$n" ]
	dl_refute grep -q 'PlanInterval=7s' "$(dl_ctld_log)"
	scontrol ping | grep -q UP

	# the plugin still plans
	j=$(dl_submit -J after-bad --array=0-3 -t 0:30 --deadline=now+300seconds --wrap='sleep 1')
	dl_wait_planned "$j"
	dl_wait_jobs 60 "$j"

	printf 'PlanInterval=7\n' >"$BATS_FILE_TMPDIR/good2.conf"
	lc --deadline-conf "$BATS_FILE_TMPDIR/good2.conf" reconfigure
	for _ in $(seq 20); do
		grep -q 'sched/deadline: Policy=triage PlanInterval=7s' "$(dl_ctld_log)" && break
		sleep 0.5
	done
	grep -q 'sched/deadline: Policy=triage PlanInterval=7s' "$(dl_ctld_log)"
}

@test "MaxDeadlineShare: an account's claim beyond its share is planned as a job without deadline" {
	local j1 j2
	printf 'MaxDeadlineShare=0.25\n' >"$BATS_FILE_TMPDIR/share.conf"
	lc --deadline-conf "$BATS_FILE_TMPDIR/share.conf" reconfigure
	for _ in $(seq 20); do
		grep -q 'MaxDeadlineShare=0.25' "$(dl_ctld_log)" && break
		sleep 0.5
	done
	# 32 CPUs, so the account's share is 8 slots; once its task length is
	# known the job needs about 12 concurrent tasks; %20 is the user's own
	# limit, which the plan keeps while it manages the job (a limit below
	# the share would keep the claim within it: sched_array_limit.bats)
	j=$(dl_submit -J share --array=0-127%20 -t 0:30 --deadline=now+100seconds --wrap='sleep 5')
	local v=""
	for _ in $(seq 60); do
		v=$(dl_plan_field "$j" verdict)
		[ "$v" = capped ] && break
		sleep 0.5
	done
	"$SDEADLINE"
	[ "$v" = capped ]
	dl_plan_field "$j" explain | grep -q 'MaxDeadlineShare 25%'
	[ "$(dl_plan_field "$j" managed)" = false ]
	grep -q "JobId=$j verdict .* -> capped" "$(dl_ctld_log)"
	# left to Slurm: the user's own throttle is back
	for _ in $(seq 10); do
		[ "$(dl_throttle "$j")" = 20 ] && break
		sleep 0.5
	done
	[ "$(dl_throttle "$j")" = 20 ]
	grep "JobId=$j throttle [0-9]* -> user's 20" "$(dl_ctld_log)" >&3
	scancel "$j"
}

# From Slurm 23.11 every reconfigure starts a new slurmctld, which loads the
# plugins afresh; the broken-file test above then runs through the last
# good copy (StateSaveLocation/deadline.conf.last-good).  A cold start has
# no configuration in force to keep: it refuses the broken file.
@test "the last good copy is kept in StateSaveLocation and a cold start refuses a broken file" {
	local n
	head -n 1 "$LC_DIR/state/deadline.conf.last-good" |
		grep -q "^# slurm-deadline: last good copy of $LC_DIR/etc/deadline.conf (slurmctld pid [0-9]*,"
	grep -qx 'MaxDeadlineShare=0.25' "$LC_DIR/state/deadline.conf.last-good"
	n=$(wc -l <"$(dl_ctld_log)")
	printf 'PlanInterval=abc\n' >"$BATS_FILE_TMPDIR/bad3.conf"
	run lc --deadline-conf "$BATS_FILE_TMPDIR/bad3.conf" --timeout 10 restart-ctld
	[ "$status" -ne 0 ]
	tail -n +"$((n + 1))" "$(dl_ctld_log)" | grep 'PlanInterval=abc' >"$BATS_FILE_TMPDIR/cold"
	cat "$BATS_FILE_TMPDIR/cold"
	grep -q 'sched/deadline: .*deadline.conf:[0-9]*: PlanInterval=abc: expected a duration' "$BATS_FILE_TMPDIR/cold"
	dl_refute grep -q 'keeping the previous configuration' "$BATS_FILE_TMPDIR/cold"
	dl_refute grep -q UP <<<"$(scontrol ping 2>/dev/null)"
	# the copy still holds the last good file, and the fixed file starts
	grep -qx 'MaxDeadlineShare=0.25' "$LC_DIR/state/deadline.conf.last-good"
	lc --deadline-conf "$BATS_FILE_TMPDIR/good.conf" restart-ctld
	scontrol ping | grep -q UP
}
