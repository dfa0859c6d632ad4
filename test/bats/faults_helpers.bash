# shellcheck shell=bash
# Helpers of the fault suites (faults_*.bats, issue 12): a working
# directory other users can reach, deadline-estimatord started and killed
# by pid, its history counts, waiting for log lines, test users.
#
# Every fault test ends by asserting that nothing was lost: the
# estimator's record count, the jobs' final states, the verdicts.

load helpers

EST_BIN=$DL_BUILD/src/estimator/deadline-estimatord
EST_RAW=$DL_BUILD/test/bats/estimator_raw
SUBMIT_RAW=${SUBMIT_RAW:-$DL_BUILD/test/bats/submit_raw}

# A directory under /tmp that test users can reach (bats' own temporary
# directories are 0700); FAULT_DIR.
fault_dir() {
	FAULT_DIR=$(mktemp -d /tmp/dl-faults.XXXXXX)
	chmod 755 "$FAULT_DIR"
	export FAULT_DIR
}

fault_dir_remove() {
	case "${FAULT_DIR:-}" in /tmp/dl-faults.*) rm -rf "$FAULT_DIR" ;; esac
}

# deadline-estimatord in the foreground of a subshell, pid in
# $FAULT_DIR/est.pid, socket $EST_SOCK; waits until it answers.
est_run() {
	(
		"$EST_BIN" --foreground --config "$FAULT_DIR/est.conf" \
			--socket "$EST_SOCK" --db "$FAULT_DIR/history.db" \
			2>>"$FAULT_DIR/est.log" &
		echo $! >"$FAULT_DIR/est.pid"
	)
	for _ in $(seq 1 100); do
		est_ping && return 0
		sleep 0.05
	done
	echo "deadline-estimatord does not answer; its log:" >&2
	tail -n 20 "$FAULT_DIR/est.log" >&2
	return 1
}

est_ping() {
	echo '{"v":1,"id":0,"op":"ping"}' |
		"$EST_RAW" --socket "$EST_SOCK" --expect 1 --timeout 1 2>/dev/null |
		grep -q pong
}

est_pid() {
	cat "$FAULT_DIR/est.pid"
}

est_kill() { # signal
	local pid
	pid=$(est_pid)
	kill "-${1:-KILL}" "$pid" 2>/dev/null || true
	if [ "${1:-KILL}" = KILL ] || [ "${1:-KILL}" = TERM ]; then
		for _ in $(seq 50); do
			[ -d "/proc/$pid" ] || return 0
			sleep 0.1
		done
	fi
}

# one field of the estimator's stats
est_stat() {
	echo '{"v":1,"id":0,"op":"stats"}' |
		"$EST_RAW" --socket "$EST_SOCK" --expect 1 --timeout 5 |
		jq -r ".result.$1"
}

# whether the estimator holds at least N connections (for dl_poll)
est_connections_at_least() { [ "$(est_stat connections)" -ge "$1" ]; }

# records in the history database (also while the daemon is down)
est_db_count() {
	sqlite3 "$FAULT_DIR/history.db" 'select count(*) from tasks'
}

# wait until the history holds N records (timeout $2), then check that it
# stays at N: every finished task exactly once
est_expect_records() {
	local n=$1 end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		[ "$(est_db_count)" -ge "$n" ] && break
		sleep 0.5
	done
	sleep 2
	if [ "$(est_db_count)" -ne "$n" ]; then
		echo "history holds $(est_db_count) records, expected $n" >&2
		dl_show_log
		return 1
	fi
}

# kill slurmctld (SIGKILL) as soon as Slurm has saved the job named $1 (the
# name is in its job_state file): mostly before the plan's next cycle
kill_ctld_once_saved() {
	local pid end=$((SECONDS + 30))
	pid=$(cat "$LC_DIR/run/slurmctld.pid")
	until grep -aq -- "$1" "$LC_DIR/state/job_state"; do
		[ $SECONDS -lt $end ] || {
			echo "job $1 not in job_state after 30 s" >&2
			return 1
		}
		sleep 0.02
	done
	kill -KILL "$pid"
}

# lines of slurmctld's log matching $1
log_count() {
	grep -c -- "$1" "$(dl_ctld_log)" || true
}

# wait until slurmctld's log has more than $2 lines matching $1 (timeout $3)
wait_log_more() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		[ "$(log_count "$1")" -gt "$2" ] && return 0
		sleep 0.2
	done
	echo "no new '$1' in slurmctld's log after ${3}s" >&2
	dl_show_log
	return 1
}

# slurmctld answers within 2 s and its plan thread still completes cycles
ctld_alive() {
	local n
	timeout 2 scontrol ping | grep -q UP || {
		echo "slurmctld does not answer" >&2
		return 1
	}
	n=$(log_count "sched/deadline: cycle")
	wait_log_more "sched/deadline: cycle" "$n" 10
}

# a system user for a test (no home, no login group of its own)
fault_user() {
	id "$1" >/dev/null 2>&1 || useradd -r -M -N -s /bin/sh "$1"
}

fault_user_remove() {
	for _ in $(seq 20); do
		pgrep -u "$1" >/dev/null 2>&1 || break
		sleep 0.5
	done
	userdel "$1" 2>/dev/null || true
}

# run a command as a test user with this cluster's configuration
as_user() { # user command...
	local u=$1
	shift
	runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"
}

# the final state of every record of an array (sorted, unique)
job_states() {
	dl_tasks "$1" | awk '{ print $1 }' | sort -u | tr '\n' ' '
}
