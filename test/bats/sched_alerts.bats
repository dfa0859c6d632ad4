#!/usr/bin/env bats
# Alerts (deadline.conf AlertProgram=, AlertMail=yes) on a real local Slurm
# (4 nodes x 2 CPUs) with recording stubs for AlertProgram and MailProg.
# "late": 16 tasks of 8 s due in 14 s cannot make it even alone (two
# waves of 8): once its first tasks end its verdict turns late (triage
# keeps it in deadline order, as giving it up would help no other job),
# which raises the "hopeless" alert, then missed.  "ok": 2 tasks of 2 s
# due in 10 minutes: met.  "quiet": 1 task, met, without --mail-type.
# AlertProgram gets every event in its environment; mail goes only where
# --mail-type asks for it (FAIL: verdicts, END: outcomes).  The stub
# sleeps after its first record and is killed at AlertTimeout with the
# process it started, while plan cycles go on.
load helpers

setup_file() {
	export REC=$BATS_FILE_TMPDIR/rec
	mkdir -p "$REC"
	cat >"$BATS_FILE_TMPDIR/alert-stub" <<STUB
#!/bin/sh
# one line per alert: event job user verdict deadline | explanation
echo "\$DEADLINE_EVENT \$SLURM_JOB_ID \$SLURM_JOB_USER \$DEADLINE_VERDICT \$DEADLINE | \$DEADLINE_EXPLANATION" >>"$REC/alerts"
if [ ! -e "$REC/slept" ]; then
	: >"$REC/slept"
	sleep 300 &
	echo \$! >"$REC/sleeper.pid"
	wait
fi
STUB
	cat >"$BATS_FILE_TMPDIR/mail-stub" <<STUB
#!/bin/sh
# Slurm calls MailProg -s SUBJECT USER; record ours (Deadline) and Slurm's
echo "\$*|\$DEADLINE_EVENT" >>"$REC/mail"
STUB
	chmod 755 "$BATS_FILE_TMPDIR/alert-stub" "$BATS_FILE_TMPDIR/mail-stub"
	printf '%s\n' 'PlanInterval=2' 'ReplanDelay=1' 'EstimatorSocket=""' \
		"AlertProgram=$BATS_FILE_TMPDIR/alert-stub" 'AlertMail=yes' \
		'AlertInterval=1m' 'AlertTimeout=3' >"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --nodes 4 \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf" \
		--extra "MailProg=$BATS_FILE_TMPDIR/mail-stub"
}

teardown_file() {
	if [ -s "${REC:-/nonexistent}/sleeper.pid" ]; then
		kill "$(cat "$REC/sleeper.pid")" 2>/dev/null || true
	fi
	dl_cluster_stop
}

# wait until file $1 has a line matching $2 (timeout $3)
wait_line() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	echo "no line '$2' in $1 after $3 s:" >&2
	cat "$1" >&2 2>/dev/null || true
	dl_show_log
	return 1
}

@test "alerts: AlertProgram and MailProg hear hopeless, missed and met, mail only as --mail-type asks" {
	local late ok quiet n
	late=$(dl_submit --array=0-15 --soft-deadline=now+14seconds \
		--mail-type=FAIL,END --mail-user=alice@example.org -J late \
		--wrap 'sleep 8')
	ok=$(dl_submit --array=0-1 --soft-deadline=now+10minutes \
		--mail-type=END -J ok --wrap 'sleep 2')
	quiet=$(dl_submit --array=0 --soft-deadline=now+10minutes -J quiet \
		--wrap 'sleep 2')
	wait_line "$REC/alerts" "^hopeless $late root late " 40
	wait_line "$REC/alerts" "^missed $late root missed " 40
	wait_line "$REC/alerts" "^met $ok root met " 40
	wait_line "$REC/alerts" "^met $quiet root met " 40
	# the environment carries the deadline (epoch) and the explanation
	grep "^hopeless $late " "$REC/alerts" |
		grep -Eq " [0-9]{10} \| .*(deadline|late)"
	# one alert per event: outcome once, hopeless once
	[ "$(grep -c "^hopeless $late " "$REC/alerts")" -eq 1 ]
	[ "$(grep -c "^missed $late " "$REC/alerts")" -eq 1 ]
	# mail: Slurm's convention "-s SUBJECT USER", to --mail-user
	wait_line "$REC/mail" "^-s Slurm Job_id=$late Name=late Deadline late: .* alice@example.org|hopeless\$" 20
	wait_line "$REC/mail" "^-s Slurm Job_id=$late Name=late Deadline missed: .* alice@example.org|missed\$" 20
	wait_line "$REC/mail" "^-s Slurm Job_id=$ok Name=ok Deadline met: .*|met\$" 20
	# no mail where --mail-type did not ask: quiet has none; ok (END
	# only) no verdict mail
	dl_refute grep -q "Job_id=$quiet .*Deadline" "$REC/mail"
	n=$(grep -c "Job_id=$ok .*Deadline" "$REC/mail")
	[ "$n" -eq 1 ]
	# the stub that hung was killed at AlertTimeout, with its child
	grep -q "alert .* killed after 3s (AlertTimeout)" "$(dl_ctld_log)"
	dl_refute kill -0 "$(cat "$REC/sleeper.pid")" 2>/dev/null
	# and plan cycles went on meanwhile (PlanInterval=2)
	n=$(grep -c 'sched/deadline: cycle' "$(dl_ctld_log)")
	[ "$n" -ge 5 ]
}
