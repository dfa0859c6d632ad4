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
load estimator_helpers

PORT=${DL_SELECT_PORT_BASE:-21000}

setup_file() {
	est_start_file
	# six past map tasks of "ioheavy" with their usage
	est_observe_runs ioheavy 30 6 '"cpu":1,"mem":100,"io":60'
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
	est_stop_file
}

predict_map() { # NAME: the estimator's answer for (root, NAME, map)
	echo "{\"v\":1,\"id\":3,\"op\":\"predict\",\"job\":{\"user\":\"root\",\"name\":\"$1\",\"phase\":\"map\",\"tasks\":4,\"completed\":[]}}" |
		est_send --expect 1 --timeout 2
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

# Submit an array while a blocker holds both nodes, wait until the plan has
# it, free the nodes: every start then goes through select/deadline.
submit_behind_blocker() { # sbatch args...; prints the array id
	local blocker id
	blocker=$(dl_block_nodes 2)
	id=$(dl_submit "$@")
	dl_wait_planned "$id" >&2
	scancel "$blocker"
	echo "$id"
}

# Wait until the plan gives array $1 $2 slots at once.
expect_alloc() { # array slots
	for _ in $(seq 30); do
		[ "$(dl_plan_field "$1" alloc)" = "$2" ] && return 0
		sleep 0.5
	done
	[ "$(dl_plan_field "$1" alloc)" -eq "$2" ] || { dl_show_log; return 1; }
}

# Once array $1 runs, sample its tasks per node $2 times: never more than
# one I/O-heavy task on a node, and two at once (one per node) at some point.
expect_one_per_node() { # array samples
	local r1 r2 most=0
	dl_wait_running "$1" 30 || return 1
	for _ in $(seq "$2"); do
		r1=$(dl_running_on "$1" n1)
		r2=$(dl_running_on "$1" n2)
		echo "n1 $r1 n2 $r2"
		[ "$r1" -le 1 ] && [ "$r2" -le 1 ] || return 1
		[ $((r1 + r2)) -gt "$most" ] && most=$((r1 + r2))
		sleep 0.5
	done
	[ "$most" -eq 2 ]
}

@test "the estimator's learned profile is used when the job gives no --task-profile" {
	local a
	echo '{"v":1,"id":2,"op":"predict","job":{"user":"root","name":"ioheavy","phase":"map","tasks":8,"completed":[]}}' |
		est_send --expect 1 --timeout 2 | jq -e '.result.profile.io == 60'
	a=$(submit_behind_blocker -J ioheavy --array=0-7 -c1 -t 2 \
		--deadline=now+600seconds --wrap 'sleep 20')
	expect_alloc "$a" 2
	expect_one_per_node "$a" 10
	scancel "$a"
	dl_wait_jobs 60 "$a"
}

@test "an array with no history and no hint packs by its Slurm request" {
	local b
	b=$(submit_behind_blocker -J fresh --array=0-7 -c1 -t 2 \
		--deadline=now+600seconds --wrap 'sleep 20')
	expect_alloc "$b" 8
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
	local a b p
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
	b=$(submit_behind_blocker -J declared --array=0-3 -c1 -t 2 \
		--deadline=now+600seconds --wrap 'sleep 8')
	expect_alloc "$b" 2
	expect_one_per_node "$b" 8
	dl_wait_jobs 60 "$b"
	# its own records carry the Slurm request (1 CPU, no memory request,
	# I/O unknown): the learned I/O is still the declared 60 MB/s
	p=$(wait_profile_n declared 8)
	echo "$p"
	jq -e '.result.profile.n == 8 and .result.profile.io == 60 and
		.result.profile.cpu == 1' <<<"$p"
}
