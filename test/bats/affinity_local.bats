#!/usr/bin/env bats
# Data affinity (doc/data-affinity.md) with select/deadline and the
# adaptive policy: an array whose tasks read their input on n3 and n4
# (--input-nodes) on four 2-CPU nodes.  With a relaxed deadline and
# --max-delays=3 its tasks wait for n3/n4 while n1/n2 stand free; with a
# deadline it cannot meet (s_req > 0) or --max-delays=0 they never wait.
#
# The first tasks run before any task length is known (the plan has no
# s_req yet, so nothing is deferred): with 8 CPUs that is the first two
# waves of 8 tasks (indexes 0-15).  The assertions look at tasks 16-39.
load helpers

PORT=${DL_AFFINITY_PORT_BASE:-24000}
TASKS=40
FIRST=16 # tasks started before the plan knows a task length

setup_file() {
	local d=$BATS_FILE_TMPDIR
	printf 'PlanInterval=2\nReplanDelay=0.5\nEstimatorSocket=""\n' \
		>"$d/deadline.conf"
	echo "required $DL_BUILD/src/plugins/spank/.libs/spank_deadline.so" \
		>"$d/plugstack.conf"
	export DL_PORT_BASE=$PORT
	# DebugFlags=SelectType: select/deadline logs each affinity decision
	# (s_req, plan cycle) at info, so a failure shows why
	dl_cluster_start --nodes 4 --cpus 2 --select select/deadline \
		--deadline-conf "$d/deadline.conf" --plugstack "$d/plugstack.conf" \
		--extra "DebugFlags=SelectType"
}

teardown_file() {
	scancel -u root 2>/dev/null || true
	dl_cluster_stop
}

# "TASKID NODE" of every task of array $1 (jobcomp)
placement() {
	awk -v id="$1" '{
		delete f
		for (i = 1; i <= NF; i++) {
			n = index($i, "=")
			if (n) f[substr($i, 1, n - 1)] = substr($i, n + 1)
		}
		if (f["ArrayJobId"] == id) print f["ArrayTaskId"], f["NodeList"]
	}' "$LC_DIR/log/jobcomp.txt"
}

# tasks of array $1 from index FIRST on that ran on n3/n4 ("local") or
# elsewhere
count_after_sampling() { # array, local|elsewhere
	placement "$1" | awk -v first=$FIRST -v want="$2" '
		$1 >= first { l = ($2 == "n3" || $2 == "n4"); if ((want == "local") == l) c++ }
		END { print c + 0 }'
}

# the select/deadline summary of array $1 (logged when its last task
# starts)
summary() {
	local end=$((SECONDS + 20)) line
	while [ $SECONDS -lt $end ]; do
		line=$(grep "select/deadline: array $1 data affinity:" "$(dl_ctld_log)" | tail -n 1)
		[ -n "$line" ] && { echo "$line"; return 0; }
		sleep 0.5
	done
	echo "no data affinity summary for array $1" >&2
	return 1
}

deferrals() { # summary line
	echo "$1" | sed -n 's/.* \([0-9]*\) deferrals\{0,1\} .*/\1/p'
}

# Submit the array, wait for it and count the samples in which tasks were
# pending while n1 and n2 ran none of them (other nodes free: the cluster
# runs nothing else).  Prints "ARRAY_ID WAITED_SAMPLES".
run_array() {
	local j waited=0 pend elsewhere end
	j=$(dl_submit -J affinity --array=0-$((TASKS - 1)) -c1 -t 2 \
		--input-nodes='n[3-4]' "$@" --wrap 'sleep 2') || return 1
	end=$((SECONDS + 90))
	while [ $SECONDS -lt $end ] && [ -n "$(squeue -h -j "$j" 2>/dev/null)" ]; do
		pend=$(squeue -h -r -t PD -j "$j" 2>/dev/null | wc -l)
		elsewhere=$(squeue -h -r -t R -j "$j" -o %N 2>/dev/null | grep -cE '^n[12]$' || true)
		[ "$pend" -gt 0 ] && [ "$elsewhere" -eq 0 ] && waited=$((waited + 1))
		sleep 0.5
	done
	dl_wait_jobs 5 "$j" >&2 || return 1
	echo "$j $waited"
}

@test "relaxed deadline, --max-delays=3: tasks wait for the nodes holding their input while others are free" {
	local j waited line local_n
	read -r j waited < <(run_array --soft-deadline=now+30minutes --max-delays=3)
	[ -n "$j" ]
	line=$(summary "$j")
	local_n=$(count_after_sampling "$j" local)
	echo "$line"
	echo "tasks $FIRST-$((TASKS - 1)) on n3/n4: $local_n; samples waiting with n1/n2 free: $waited"
	[ "$(placement "$j" | wc -l)" -eq $TASKS ]
	# without deferral about half would run on n1/n2 (the next test)
	[ "$local_n" -ge $(((TASKS - FIRST) * 5 / 6)) ]
	[ "$waited" -ge 2 ]
	[ "$(deferrals "$line")" -ge 1 ]
	echo "$line" | grep -q -- "--max-delays=3"
}

@test "--max-delays=0: a task never waits for its nodes" {
	local j waited line elsewhere
	read -r j waited < <(run_array --soft-deadline=now+30minutes --max-delays=0)
	[ -n "$j" ]
	line=$(summary "$j")
	elsewhere=$(count_after_sampling "$j" elsewhere)
	echo "$line"
	echo "tasks $FIRST-$((TASKS - 1)) on n1/n2: $elsewhere"
	[ "$(deferrals "$line")" -eq 0 ]
	[ "$elsewhere" -ge $(((TASKS - FIRST) / 4)) ]
	# the nodes holding the input are still preferred while they have room
	placement "$j" | awk '$1 < 4' | grep -qE ' n[34]$'
}

@test "a deadline the array cannot meet (s_req > 0): tasks do not wait" {
	local j waited line elsewhere
	# 40 tasks of 2 s on 8 CPUs take at least 10 s.  The goal passes
	# before the first task ends, so from the first known task length on
	# the job is late (need infinite).  A later goal is not safe: Slurm
	# measures lengths in whole seconds, a 2 s task may count as 1 s, and
	# with running tasks past that length counted at the floor the job
	# looks ahead for a moment (s_req <= 0) and a deferral is right.
	read -r j waited < <(run_array --soft-deadline=now+3seconds --max-delays=3)
	[ -n "$j" ]
	line=$(summary "$j")
	elsewhere=$(count_after_sampling "$j" elsewhere)
	echo "$line"
	echo "tasks $FIRST-$((TASKS - 1)) on n1/n2: $elsewhere"
	# the plan's view of the array and any deferral, for a failure
	grep -E "JobId=$j |JobId=${j}_[0-9]+.*deferred" "$(dl_ctld_log)" | tail -n 20
	[ "$(deferrals "$line")" -eq 0 ]
	[ "$elsewhere" -ge $(((TASKS - FIRST) / 4)) ]
}

@test "preferred hosts that are not nodes of the cluster: tasks run at once, the log names them" {
	local j line
	j=$(dl_submit -J nosuch --array=0-3 -c1 -t 2 --soft-deadline=now+30minutes \
		--input-nodes='nosuch[1-2]' --max-delays=5 --wrap 'sleep 1')
	dl_wait_jobs 30 "$j"
	grep -q "select/deadline: array $j: --input-nodes names 2 hosts that are not a node of this cluster (e.g. nosuch1): ignored" "$(dl_ctld_log)"
	line=$(summary "$j")
	echo "$line"
	[ "$(deferrals "$line")" -eq 0 ]
	echo "$line" | grep -q ": 0 tasks started on nodes holding their input, 4 elsewhere"
}
