# Helpers of the deadline-estimatord bats suites: a private directory per
# test (socket, database, config, log), start/stop by pid, raw requests.
# Nothing here needs Slurm.

load helpers # dl_refute

: "${DL_BUILD:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)/build}"
EST_SRCDIR=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
EST_BIN=$DL_BUILD/src/estimator/deadline-estimatord
EST_RAW=$DL_BUILD/test/bats/estimator_raw

est_setup() {
	[ -x "$EST_BIN" ] || skip "deadline-estimatord not built in $DL_BUILD"
	EST_DIR=$(mktemp -d /tmp/dl-est.XXXXXX)
	chmod 755 "$EST_DIR" # other users reach the socket (permission tests)
	EST_SOCK=$EST_DIR/est.sock
	EST_DB=$EST_DIR/history.db
	EST_CONF=$EST_DIR/estimatord.conf
	EST_LOG=$EST_DIR/estimatord.log
	EST_PID=
	printf 'SlurmUser=root\n' >"$EST_CONF"
}

est_teardown() {
	if [ -n "${EST_PID:-}" ] && kill -0 "$EST_PID" 2>/dev/null; then
		kill -KILL "$EST_PID" 2>/dev/null || true
		wait "$EST_PID" 2>/dev/null || true
	fi
	if [ -n "${BATS_TEST_COMPLETED:-}" ] || [ -z "${EST_DIR:-}" ]; then
		rm -rf "${EST_DIR:-/nonexistent}"
	else
		echo "# kept $EST_DIR; daemon log:" >&3
		sed 's/^/# /' "$EST_LOG" >&3 2>/dev/null || true
	fi
}

# Append config lines.
est_conf() {
	printf '%s\n' "$@" >>"$EST_CONF"
}

# Send stdin to the daemon, print the replies.  Extra args go to
# estimator_raw (e.g. --expect N).
est_send() {
	"$EST_RAW" --socket "$EST_SOCK" "$@"
}

est_ping_ok() {
	echo '{"v":1,"id":0,"op":"ping"}' | est_send --expect 1 --timeout 1 2>/dev/null |
		grep -q '"pong":true'
}

# Start in the foreground (as a background job of the test), wait until it
# answers.
est_start() {
	"$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_SOCK" \
		--db "$EST_DB" "$@" 2>>"$EST_LOG" &
	EST_PID=$!
	for _ in $(seq 1 100); do
		est_ping_ok && return 0
		kill -0 "$EST_PID" 2>/dev/null || break
		sleep 0.05
	done
	echo "deadline-estimatord did not start:" >&2
	cat "$EST_LOG" >&2
	kill -KILL "$EST_PID" 2>/dev/null || true
	wait "$EST_PID" 2>/dev/null || true
	return 1
}

# SIGTERM and wait; returns the daemon's exit status.
est_stop() {
	local rc=0

	kill -TERM "$EST_PID"
	wait "$EST_PID" || rc=$?
	EST_PID=
	return $rc
}

# One result field of a response line: est_field JSON jq-path
est_field() {
	printf '%s\n' "$1" | jq -c "$2"
}

# A JSON observe request: est_observe_req ID JOB USER NAME N [START]:
# N map tasks of job JOB, lengths 10, 11, ... seconds, starting at START
# (default 1700000000).
est_observe_req() {
	local id=$1 job=$2 user=$3 name=$4 n=$5 t0=${6:-1700000000} i sep="" tasks=""

	for i in $(seq 0 $((n - 1))); do
		tasks="$tasks$sep{\"job_id\":$job,\"task\":$i,\"user\":\"$user\",\"name\":\"$name\",\"phase\":\"map\",\"start\":$t0,\"end\":$((t0 + 10 + i))}"
		sep=,
	done
	printf '{"v":1,"id":%s,"op":"observe","tasks":[%s]}\n' "$id" "$tasks"
}

# One daemon for a whole bats file that also runs a Slurm cluster (from
# setup_file; est_stop_file in teardown_file).  Its files are under
# $BATS_FILE_TMPDIR/est and its pid in a file, because the tests run in
# other processes than setup_file.  Exports EST_DIR and EST_SOCK.
est_start_file() {
	[ -x "$EST_BIN" ] && [ -x "$EST_RAW" ] ||
		skip "deadline-estimatord not built in $DL_BUILD"
	export EST_DIR=$BATS_FILE_TMPDIR/est
	export EST_SOCK=$EST_DIR/est.sock
	EST_CONF=$EST_DIR/est.conf
	EST_LOG=$EST_DIR/est.log
	mkdir -p "$EST_DIR"
	printf 'SlurmUser=root\n' >"$EST_CONF"
	(
		"$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_SOCK" \
			--db "$EST_DIR/history.db" 2>>"$EST_LOG" &
		echo $! >"$EST_DIR/est.pid"
	)
	for _ in $(seq 1 100); do
		est_ping_ok && return 0
		sleep 0.05
	done
	echo "deadline-estimatord did not answer:" >&2
	cat "$EST_LOG" >&2
	est_stop_file
	return 1
}

est_stop_file() {
	if [ -s "${EST_DIR:-/nonexistent}/est.pid" ]; then
		kill "$(cat "$EST_DIR/est.pid")" 2>/dev/null || true
	fi
}

# History of earlier runs: est_observe_runs NAME SECONDS N [FIELDS] stores
# N map tasks of NAME by root, each SECONDS long, one per earlier job (ids
# 900 on), with FIELDS (e.g. "cpu":1,"io":60) added to each task; fails
# unless the daemon stored all N.
est_observe_runs() {
	local name=$1 len=$2 n=$3 extra=${4:+,$4} i t sep="" tasks=""

	for i in $(seq 0 $((n - 1))); do
		t=$((1700000000 + i * 100))
		tasks="$tasks$sep{\"job_id\":$((900 + i)),\"task\":$i,\"user\":\"root\",\"name\":\"$name\",\"phase\":\"map\",\"start\":$t,\"end\":$((t + len))$extra}"
		sep=,
	done
	printf '{"v":1,"id":1,"op":"observe","tasks":[%s]}\n' "$tasks" |
		est_send --expect 1 --timeout 2 | grep -q "\"stored\":$n"
}
