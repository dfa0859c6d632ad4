#!/usr/bin/env bats
# Learned task profiles end to end: deadline-estimatord holds past runs of
# (root, "ioheavy", map) with their usage (60 MB/s of I/O each); a new
# "ioheavy" array submitted without --task-profile is planned with that
# profile (Policy=ras) and select/deadline keeps it to one task per
# 100 MB/s node; an array of another name, with no history, packs by cores.
# Learned on the cluster itself: an array run with --task-profile leaves its
# declared profile in the estimator (sched/deadline's observe records of its
# finished tasks), and the next run of that name without the hint is
# planned and placed with it.
load helpers

PORT=${DL_SELECT_PORT_BASE:-21000}
EST_BIN=$DL_BUILD/src/estimator/deadline-estimatord
EST_RAW=$DL_BUILD/test/bats/estimator_raw

est_call() { # one request line on stdin, the reply on stdout
	"$EST_RAW" --socket "$EST_SOCK" --expect 1 --timeout 2
}

setup_file() {
	[ -x "$EST_BIN" ] && [ -x "$EST_RAW" ] || skip "estimator not built"
	export EST_DIR=$BATS_FILE_TMPDIR/est
	mkdir -p "$EST_DIR"
	export EST_SOCK=$EST_DIR/est.sock
	printf 'SlurmUser=root\n' >"$EST_DIR/est.conf"
	(
		"$EST_BIN" --foreground --config "$EST_DIR/est.conf" \
			--socket "$EST_SOCK" --db "$EST_DIR/history.db" \
			2>>"$EST_DIR/est.log" &
		echo $! >"$EST_DIR/est.pid"
	)
	for _ in $(seq 100); do
		echo '{"v":1,"id":0,"op":"ping"}' | est_call 2>/dev/null |
			grep -q pong && break
		sleep 0.05
	done
	# six past map tasks of "ioheavy" with their usage
	local recs="" t
	for t in 0 1 2 3 4 5; do
		recs="$recs${recs:+,}{\"job_id\":900$t,\"task\":$t,\"user\":\"root\",\"name\":\"ioheavy\",\"phase\":\"map\",\"start\":1700000000,\"end\":1700000030,\"cpu\":1,\"mem\":100,\"io\":60}"
	done
	echo "{\"v\":1,\"id\":1,\"op\":\"observe\",\"tasks\":[$recs]}" | est_call |
		grep -q '"stored":6'
	cat >"$BATS_FILE_TMPDIR/deadline.conf" <<-CONF
	Policy=ras
	PlanInterval=2
	ReplanDelay=0.5
	NodeIO=n[1-2]=100
	EstimatorSocket=$EST_SOCK
	EstimatorTimeout=0.5
	CONF
	export DL_PORT_BASE=$((PORT + 30))
	echo "required $DL_BUILD/src/plugins/spank/.libs/spank_deadline.so" \
		>"$BATS_FILE_TMPDIR/plugstack.conf"
	dl_cluster_start --nodes 2 --cpus 4 --select select/deadline \
		--extra SlurmdParameters=config_overrides \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$BATS_FILE_TMPDIR/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
	if [ -s "${EST_DIR:-/nonexistent}/est.pid" ]; then
		kill "$(cat "$EST_DIR/est.pid")" 2>/dev/null || true
	fi
}

predict_map() { # NAME: the estimator's answer for (root, NAME, map)
	echo "{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{\"user\":\"root\",\"name\":\"$1\",\"phase\":\"map\",\"tasks\":4,\"completed\":[]}}" |
		est_call
}

# Wait until the (root, NAME, map) history has N tasks with usage.
wait_profile_n() { # NAME N
	local p
	for _ in $(seq 40); do
		p=$(predict_map "$1")
		[ "$(jq -r '.result.profile.n // 0' <<<"$p")" -ge "$2" ] && break
		sleep 0.5
	done
	echo "$p"
}

@test "the estimator's learned profile is used when the job gives no --task-profile" {
	local blocker a most=0
	echo '{"v":1,"id":2,"op":"predict","job":{"user":"root","name":"ioheavy","phase":"map","tasks":8,"completed":[]}}' |
		est_call | jq -e '.result.profile.io == 60'
	blocker=$(dl_block_nodes 2)
	a=$(dl_submit -J ioheavy --array=0-7 -c1 -t 2 --deadline=now+600seconds --wrap 'sleep 20')
	dl_wait_planned "$a"
	scancel "$blocker"
	for _ in $(seq 30); do
		[ "$(dl_plan_field "$a" alloc)" = 2 ] && break
		sleep 0.5
	done
	[ "$(dl_plan_field "$a" alloc)" -eq 2 ] || { dl_show_log; false; }
	dl_wait_running "$a" 30
	for _ in $(seq 10); do
		local r1 r2
		r1=$(dl_running_on "$a" n1)
		r2=$(dl_running_on "$a" n2)
		echo "n1 $r1 n2 $r2"
		[ "$r1" -le 1 ] && [ "$r2" -le 1 ]
		[ $((r1 + r2)) -gt "$most" ] && most=$((r1 + r2))
		sleep 0.5
	done
	[ "$most" -eq 2 ]
	scancel "$a"
	dl_wait_jobs 60 "$a"
}

@test "an array with no history and no hint packs by its Slurm request" {
	local blocker b
	blocker=$(dl_block_nodes 2)
	b=$(dl_submit -J fresh --array=0-7 -c1 -t 2 --deadline=now+600seconds --wrap 'sleep 20')
	dl_wait_planned "$b"
	scancel "$blocker"
	for _ in $(seq 30); do
		[ "$(dl_plan_field "$b" alloc)" = 8 ] && break
		sleep 0.5
	done
	[ "$(dl_plan_field "$b" alloc)" -eq 8 ] || { dl_show_log; false; }
	# and placed that way: four 1-CPU tasks on each 4-CPU node
	local r1=0 r2=0
	for _ in $(seq 60); do
		r1=$(dl_running_on "$b" n1)
		r2=$(dl_running_on "$b" n2)
		[ "$r1" -eq 4 ] && [ "$r2" -eq 4 ] && break
		sleep 0.5
	done
	echo "n1 $r1 n2 $r2"
	[ "$r1" -eq 4 ] && [ "$r2" -eq 4 ]
	scancel "$b"
	dl_wait_jobs 60 "$b"
}

@test "a declared --task-profile is learned from finished tasks and places the next run without it" {
	local a b p blocker most=0
	# the first run declares its profile: one 60 MB/s task per node
	a=$(dl_submit -J declared --array=0-3 -c1 -t 2 \
		--deadline=now+600seconds --task-profile=cpu=1,io=60 \
		--wrap 'sleep 2')
	dl_wait_jobs 60 "$a"
	# sched/deadline sends its finished tasks with the declared usage
	p=$(wait_profile_n declared 4)
	echo "$p"
	jq -e '.result.profile.n == 4 and .result.profile.io == 60 and
		.result.profile.cpu == 1 and .result.profile.mem == null' <<<"$p"
	# the same name without the hint: planned two at a time (NodeIO 100)
	blocker=$(dl_block_nodes 2)
	b=$(dl_submit -J declared --array=0-3 -c1 -t 2 \
		--deadline=now+600seconds --wrap 'sleep 8')
	dl_wait_planned "$b"
	scancel "$blocker"
	for _ in $(seq 30); do
		[ "$(dl_plan_field "$b" alloc)" = 2 ] && break
		sleep 0.5
	done
	[ "$(dl_plan_field "$b" alloc)" -eq 2 ] || { dl_show_log; false; }
	dl_wait_running "$b" 30
	for _ in $(seq 8); do
		local r1 r2
		r1=$(dl_running_on "$b" n1)
		r2=$(dl_running_on "$b" n2)
		echo "n1 $r1 n2 $r2"
		[ "$r1" -le 1 ] && [ "$r2" -le 1 ]
		[ $((r1 + r2)) -gt "$most" ] && most=$((r1 + r2))
		sleep 0.5
	done
	[ "$most" -eq 2 ]
	dl_wait_jobs 60 "$b"
	# its own records carry the Slurm request (1 CPU, no memory request,
	# I/O unknown): the learned I/O is still the declared 60 MB/s
	p=$(wait_profile_n declared 8)
	echo "$p"
	jq -e '.result.profile.n == 8 and .result.profile.io == 60 and
		.result.profile.cpu == 1' <<<"$p"
}
