#!/usr/bin/env bats
# deadline-estimatord as a user and an admin see it: start and stop,
# persistence across restarts and kill -9, every kind of bad input, limits,
# access rules and socket safety.  No Slurm needed.

load estimator_helpers

setup() {
	est_setup
}

teardown() {
	est_teardown
}

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
}

@test "starts, answers ping, and stops cleanly on SIGTERM (socket removed)" {
	est_start
	[ -S "$EST_SOCK" ]
	run est_send --expect 1 <<<'{"v":1,"id":"a","op":"ping"}'
	[ "$status" -eq 0 ]
	[ "$(est_field "$output" .result.pong)" = true ]
	[ "$(est_field "$output" .id)" = '"a"' ]
	est_stop
	[ ! -e "$EST_SOCK" ]
	grep -q "stopping" "$EST_LOG"
}

@test "without --foreground it detaches, reports ready and writes PidFile" {
	est_conf "PidFile=$EST_DIR/est.pid"
	run "$EST_BIN" --config "$EST_CONF" --socket "$EST_SOCK" --db "$EST_DB"
	[ "$status" -eq 0 ]
	[ -s "$EST_DIR/est.pid" ]
	EST_PID=$(cat "$EST_DIR/est.pid")
	kill -0 "$EST_PID"
	est_ping_ok
	kill -TERM "$EST_PID"
	for _ in $(seq 1 100); do
		kill -0 "$EST_PID" 2>/dev/null || break
		sleep 0.05
	done
	dl_refute kill -0 "$EST_PID" 2>/dev/null
	[ ! -e "$EST_DIR/est.pid" ]
	[ ! -e "$EST_SOCK" ]
	EST_PID=
}

@test "startup errors are reported and the daemon does not run" {
	est_conf "MaxConnections=0"
	run "$EST_BIN" --config "$EST_CONF" --socket "$EST_SOCK" --db "$EST_DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"MaxConnections must be an integer in [1, 10000]"* ]]
	[[ "$output" == *"line 2"* || "$output" == *":2:"* ]]

	printf 'SlurmUser=root\nColour=blue\n' >"$EST_CONF"
	run "$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_SOCK" --db "$EST_DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"unknown option 'Colour'"* ]]

	run "$EST_BIN" --config "$EST_DIR/missing.conf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"missing.conf"* ]]

	run "$EST_BIN" --bogus
	[ "$status" -eq 2 ]
	[ ! -e "$EST_SOCK" ]
}

@test "never removes a file that is not a socket; refuses a second daemon" {
	printf 'SlurmUser=root\n' >"$EST_CONF"
	echo precious >"$EST_SOCK"
	run "$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_SOCK" --db "$EST_DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not a socket"* ]]
	[ "$(cat "$EST_SOCK")" = precious ]
	rm "$EST_SOCK"

	est_start
	# same socket
	run "$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_SOCK" --db "$EST_DIR/other.db"
	[ "$status" -eq 1 ]
	[[ "$output" == *"another daemon is listening"* ]]
	# same database
	run "$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_DIR/other.sock" --db "$EST_DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"in use by another deadline-estimatord"* ]]
	est_ping_ok
}

@test "socket permissions: configured mode, no world-writable directory" {
	est_conf "SocketMode=0660"
	est_start
	[ "$(stat -c %a "$EST_SOCK")" = 660 ]
	est_stop

	mkdir "$EST_DIR/open"
	chown nobody "$EST_DIR/open"
	chmod 0777 "$EST_DIR/open"
	run "$EST_BIN" --foreground --config "$EST_CONF" --socket "$EST_DIR/open/s.sock" --db "$EST_DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"others may write to it"* ]]
	[ ! -e "$EST_DIR/open/s.sock" ]
	# with the sticky bit (like /tmp) it is fine
	chmod 1777 "$EST_DIR/open"
	EST_SOCK=$EST_DIR/open/s.sock
	est_start
	[ "$(stat -c %a "$EST_SOCK")" = 660 ]
}

@test "observe then predict: round trip through the history" {
	est_start
	run est_send --expect 1 < <(est_observe_req 1 501 alice wc 5)
	[ "$(est_field "$output" .result.stored)" = 5 ]
	run est_send --expect 1 <<<'{"v":1,"id":2,"op":"predict","job":{"user":"alice","name":"wc","phase":"map","tasks":9,"completed":[]}}'
	[ "$(est_field "$output" .result.source)" = '"history:name"' ]
	[ "$(est_field "$output" .result.p50)" = 12 ] # median of 10..14
	[ "$(est_field "$output" .result.max)" = 14 ]
	[ "$(est_field "$output" .result.n)" = 5 ]
	[ "$(est_field "$output" '.result.p90 > .result.p50')" = true ]
	# the reduce phase of the same name knows nothing yet
	run est_send --expect 1 <<<'{"v":1,"id":3,"op":"predict","job":{"user":"alice","name":"wc","phase":"reduce"}}'
	[ "$(est_field "$output" .result.source)" = '"default"' ]
}

@test "restart keeps the history" {
	est_start
	est_observe_req 1 601 bob sort 7 | est_send --expect 1 >/dev/null
	req='{"v":1,"id":2,"op":"predict","job":{"user":"bob","name":"sort","phase":"map"}}'
	before=$(est_send --expect 1 <<<"$req")
	est_stop
	est_start
	after=$(est_send --expect 1 <<<"$req")
	[ "$(est_field "$before" .result)" = "$(est_field "$after" .result)" ]
	[ "$(est_field "$after" .result.n)" = 7 ]
	run est_send --expect 1 <<<'{"v":1,"id":3,"op":"stats"}'
	[ "$(est_field "$output" .result.records)" = 7 ]
	grep -q "7 records loaded" "$EST_LOG"
}

@test "kill -9 at any moment: no corruption, acknowledged batches all kept" {
	batch=50
	est_conf "HistoryPerKey=100000" # all batches share one key
	one=$(est_observe_req ID JOB carol etl "$batch")
	for b in $(seq 1 400); do
		printf '%s\n' "$one" | sed "s/\"id\":ID/\"id\":$b/; s/\"job_id\":JOB/\"job_id\":$((b + 10000))/g"
	done >"$EST_DIR/stream"
	for delay in 0.05 0.2 0.5; do
		rm -f "$EST_DB" "$EST_DB"-wal "$EST_DB"-shm
		est_start
		est_send --expect 400 --timeout 20 <"$EST_DIR/stream" >"$EST_DIR/acks" &
		client=$!
		sleep "$delay"
		kill -KILL "$EST_PID"
		wait "$EST_PID" || true
		EST_PID=
		wait "$client" || true
		acked=$(grep -c '"stored":50' "$EST_DIR/acks" || true)
		[ "$(sqlite3 "$EST_DB" 'PRAGMA integrity_check')" = ok ]
		est_start
		stored=$(est_send --expect 1 <<<'{"v":1,"id":0,"op":"stats"}' | jq .result.records)
		echo "delay $delay: $acked batches acknowledged, $stored records stored"
		[ "$stored" -ge $((acked * batch)) ]
		[ $((stored % batch)) -eq 0 ] # whole batches only
		[ "$stored" -le $((400 * batch)) ]
		est_stop
	done
}

@test "malformed JSON, unknown op, wrong types: an error each, connection survives" {
	est_start
	cat >"$EST_DIR/bad" <<'EOF'
{"v":1,"id":1,"op":"ping"
[1,2,3]
{"v":1,"id":2,"op":"predict","job":{"user":"u","name":"n","phase":"map"}} trailing
{"v":1,"id":3,"op":"predict","job":{"user":"u","name":"n","phase":"map","completed":[1,NaN]}}
{"v":1,"id":4,"op":"predict","job":{"user":"u","name":"n","phase":"map",}}
{"v":1,"id":{"x":1},"op":"ping"}
{"v":1,"id":6,"op":"fly"}
{"v":1,"id":7,"op":42}
{"v":1,"id":8,"op":"predict","job":"alice"}
{"v":1,"id":9,"op":"predict","job":{"user":"","name":"n","phase":"map"}}
{"v":1,"id":10,"op":"predict","job":{"user":"u","name":"n","phase":"map","tasks":1.5}}
{"v":1,"id":11,"op":"observe","tasks":[{"job_id":-1,"user":"u","name":"n","phase":"map","start":1,"end":2}]}
{"v":1,"id":12,"op":"observe","tasks":{"job_id":1}}
{"v":1,"id":13,"op":"forecast","from":10,"to":5,"step":1}
{"v":"1","id":14,"op":"ping"}
{"v":1,"id":15,"op":"ping"}
EOF
	printf '{"v":1,"id":16,"op":"ping"}\0garbage\n' >>"$EST_DIR/bad"
	printf '\xff\xfe{"v":1}\n' >>"$EST_DIR/bad"
	echo '{"v":1,"id":"last","op":"ping"}' >>"$EST_DIR/bad"
	run est_send --expect 19 <"$EST_DIR/bad"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 19 ]
	codes=$(printf '%s\n' "$output" | jq -r '.error.code // "ok"' | tr '\n' ' ')
	echo "codes: $codes"
	# (id 11: a bad task is rejected alone, in the result)
	[ "$codes" = "bad_json bad_request bad_json bad_request bad_json bad_request unknown_op bad_request bad_request bad_request bad_request ok bad_request bad_request bad_version ok bad_json bad_json ok " ]
	[ "$(est_field "${lines[11]}" '.result.rejected[0].index')" = 0 ]
	[ "$(est_field "${lines[11]}" '.result.stored')" = 0 ]
	# every error message says what is wrong
	[ "$(printf '%s\n' "$output" | jq -r '(.error // .result.rejected[0].error // empty) | .message | length > 5' | sort -u)" = true ]
	[ "$(est_field "${lines[18]}" .id)" = '"last"' ]
	[ "$(est_field "${lines[8]}" .error.message)" = '"job must be an object"' ]
	# nothing of the bad observe was stored
	run est_send --expect 1 <<<'{"v":1,"id":0,"op":"stats"}'
	[ "$(est_field "$output" .result.records)" = 0 ]
}

@test "an oversized line gets too_large; the connection keeps working" {
	est_conf "MaxLineBytes=4096"
	est_start
	{
		printf '{"v":1,"id":1,"op":"predict","job":{"user":"u","name":"'
		head -c 20000 /dev/zero | tr '\0' x
		printf '","phase":"map"}}\n'
		echo '{"v":1,"id":2,"op":"ping"}'
	} >"$EST_DIR/big"
	run est_send --expect 2 <"$EST_DIR/big"
	[ "$status" -eq 0 ]
	[ "$(est_field "${lines[0]}" .error.code)" = '"too_large"' ]
	[ "$(est_field "${lines[0]}" .id)" = null ]
	[ "$(est_field "${lines[1]}" .result.pong)" = true ]
	# a batch over the protocol limit
	jobs=$(for i in $(seq 1 1001); do printf '{"user":"u","name":"n","phase":"map"},'; done)
	est_conf "MaxLineBytes=1048576"
	printf '{"v":1,"id":3,"op":"predict","jobs":[%s{"user":"u","name":"n","phase":"map"}]}\n' "$jobs" >"$EST_DIR/batch"
	est_stop
	est_start
	run est_send --expect 1 <"$EST_DIR/batch"
	[ "$(est_field "$output" .error.code)" = '"too_large"' ]
	[ "$(est_field "$output" .id)" = 3 ]
}

@test "too many connections: the extra one gets busy and is closed" {
	# (root is privileged: no reserve, so that two connections fill it)
	est_conf "MaxConnections=2" "ReservedConnections=0"
	est_start
	est_send --hold 3 --no-shutdown --timeout 4 </dev/null >/dev/null &
	h1=$!
	est_send --hold 3 --no-shutdown --timeout 4 </dev/null >/dev/null &
	h2=$!
	sleep 0.5
	run est_send --timeout 2 <<<'{"v":1,"id":1,"op":"ping"}'
	[ "$status" -eq 0 ]
	[ "$(est_field "$output" .error.code)" = '"busy"' ]
	wait $h1 $h2 || true
	# once they are gone it serves again
	est_ping_ok
}

@test "idle connections and half-sent lines are closed after IdleTimeout" {
	est_conf "IdleTimeout=1"
	est_start
	start=$(date +%s.%N)
	run est_send --no-shutdown --timeout 5 </dev/null
	[ "$status" -eq 0 ]
	[ "$(est_field "$output" .error.code)" = '"timeout"' ]
	run est_send --no-shutdown --timeout 5 <<<'{"v":1,"id":1,"op":"ping"}'
	# answered, then closed once idle
	[ "$(est_field "${lines[0]}" .result.pong)" = true ]
	[ "$(est_field "${lines[1]}" .error.code)" = '"timeout"' ]
	printf '{"v":1,"id":1,' | est_send --no-shutdown --timeout 5 >"$EST_DIR/partial"
	grep -q '"timeout"' "$EST_DIR/partial"
	elapsed=$(echo "$(date +%s.%N) - $start" | bc)
	[ "$(echo "$elapsed < 8" | bc)" = 1 ]
	est_ping_ok
}

@test "SO_PEERCRED: only root and SlurmUser observe; PredictUsers limits predict" {
	est_start
	run as_nobody "$EST_RAW" --socket "$EST_SOCK" --expect 2 < <(
		est_observe_req 1 701 nobody x 3
		echo '{"v":1,"id":2,"op":"predict","job":{"user":"nobody","name":"x","phase":"map"}}'
	)
	[ "$status" -eq 0 ]
	[ "$(est_field "${lines[0]}" .error.code)" = '"forbidden"' ]
	[ "$(est_field "${lines[1]}" .result.source)" = '"default"' ]
	# nothing was stored for the refused observe
	run est_send --expect 1 <<<'{"v":1,"id":0,"op":"stats"}'
	[ "$(est_field "$output" .result.records)" = 0 ]
	est_stop

	# SlurmUser=nobody may observe; PredictUsers excludes others
	printf 'SlurmUser=nobody\nPredictUsers=root\n' >"$EST_CONF"
	est_start
	run as_nobody "$EST_RAW" --socket "$EST_SOCK" --expect 1 < <(est_observe_req 1 701 nobody x 3)
	[ "$(est_field "$output" .result.stored)" = 3 ]
	run setpriv --reuid=daemon --regid=daemon --clear-groups -- "$EST_RAW" --socket "$EST_SOCK" --expect 2 <<EOF
{"v":1,"id":1,"op":"predict","job":{"user":"nobody","name":"x","phase":"map"}}
{"v":1,"id":2,"op":"forecast","from":0,"to":60,"step":60}
EOF
	[ "$(est_field "${lines[0]}" .error.code)" = '"forbidden"' ]
	[ "$(est_field "${lines[1]}" .error.code)" = '"forbidden"' ]
	# root always may
	run est_send --expect 1 <<<'{"v":1,"id":1,"op":"predict","job":{"user":"nobody","name":"x","phase":"map"}}'
	[ "$(est_field "$output" .result.source)" = '"history:name"' ]
}

@test "TCP listener: loopback only, no observe over TCP" {
	# a free port: another program may hold the one drawn
	cp "$EST_CONF" "$EST_DIR/base.conf"
	for _ in 1 2 3 4 5; do
		port=$((40000 + RANDOM % 20000))
		cp "$EST_DIR/base.conf" "$EST_CONF"
		est_conf "TcpPort=$port"
		est_start 2>/dev/null && break
		EST_PID=
	done
	est_ping_ok
	hex=$(printf '%04X' "$port")
	# listening on 127.0.0.1 (0100007F) and on nothing else
	grep -q " 0100007F:$hex 00000000:0000 0A " /proc/net/tcp
	dl_refute grep -q " 00000000:$hex 00000000:0000 0A " /proc/net/tcp
	run "$EST_RAW" --tcp "$port" --expect 2 < <(
		echo '{"v":1,"id":1,"op":"predict","job":{"user":"u","name":"n","phase":"map"}}'
		est_observe_req 2 801 u n 3
	)
	[ "$(est_field "${lines[0]}" .result.source)" = '"default"' ]
	[ "$(est_field "${lines[1]}" .error.code)" = '"forbidden"' ]
}

@test "SIGHUP reloads the forecast file; a broken file keeps the old one" {
	printf 'step 60\nperiod 120\nclass default\n0.25 0.5\n' >"$EST_DIR/f1"
	est_conf "ForecastFile=$EST_DIR/f1"
	est_start
	req='{"v":1,"id":1,"op":"forecast","from":0,"to":120,"step":60}'
	[ "$(est_send --expect 1 <<<"$req" | jq -c .result.classes.default)" = '[0.25,0.5]' ]
	printf 'step 60\nperiod 120\nclass default\n0.75 1\n' >"$EST_DIR/f1"
	kill -HUP "$EST_PID"
	sleep 0.3
	[ "$(est_send --expect 1 <<<"$req" | jq -c .result.classes.default)" = '[0.75,1]' ]
	printf 'step 60\nclass default\n1.5\n' >"$EST_DIR/f1"
	kill -HUP "$EST_PID"
	sleep 0.3
	[ "$(est_send --expect 1 <<<"$req" | jq -c .result.classes.default)" = '[0.75,1]' ]
	grep -q "forecast not reloaded" "$EST_LOG"
	grep -q "must be a fraction" "$EST_LOG"
	# and it still stops cleanly (the replaced forecast is freed once)
	est_stop
}

@test "retention: HistoryPerKey and HistoryMaxAge bound the store" {
	est_conf "HistoryPerKey=10" "HistoryMaxAge=30d"
	est_start
	est_observe_req 1 901 dave job 40 $(($(date +%s) - 100)) | est_send --expect 1 >/dev/null
	run est_send --expect 2 <<EOF
{"v":1,"id":2,"op":"stats"}
{"v":1,"id":3,"op":"predict","job":{"user":"dave","name":"job","phase":"map"}}
EOF
	[ "$(est_field "${lines[0]}" .result.records)" = 10 ]
	# the window holds the newest 10 (lengths 40..49): median 44.5
	[ "$(est_field "${lines[1]}" .result.p50)" = 44.5 ]
	[ "$(sqlite3 "$EST_DB" 'select count(*) from tasks')" = 10 ]
	est_stop
	# records older than HistoryMaxAge go at the next start
	now=$(date +%s)
	sqlite3 "$EST_DB" "update tasks set start = $((now - 40 * 86400)), end = $((now - 40 * 86400 + 5)) where id % 2 = 0"
	est_start
	sleep 0.3
	run est_send --expect 1 <<<'{"v":1,"id":4,"op":"stats"}'
	[ "$(est_field "$output" .result.records)" = 5 ]
}
