#!/usr/bin/env bats
# select/deadline with Policy=ras: two arrays with complementary profiles
# (CPU-heavy and I/O-heavy) share the nodes up to each node's capacity on
# every resource, where select/cons_tres alone packs them by cores only.
# Two nodes of 4 CPUs with 100 MB/s of I/O each (NodeIO); the I/O array's
# tasks need 60 MB/s, the CPU array's 10 MB/s.
load helpers

PORT=${DL_SELECT_PORT_BASE:-21000}

setup_file() {
	local d=$BATS_FILE_TMPDIR
	cat >"$d/deadline.conf" <<-CONF
	Policy=ras
	PlanInterval=2
	ReplanDelay=0.5
	NodeIO=n[1-2]=100
	CONF
	echo "required $DL_BUILD/src/plugins/spank/.libs/spank_deadline.so" >"$d/plugstack.conf"
	export DL_PORT_BASE=$PORT
	dl_cluster_start --nodes 2 --cpus 4 --select select/deadline \
		--extra SlurmdParameters=config_overrides \
		--deadline-conf "$d/deadline.conf" --plugstack "$d/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
}

# Hold both nodes with a job the plan does not manage, submit the arrays
# (the I/O-heavy one first: it would get the cores first), let the plan see
# them, then free the nodes so every start goes through job_test.
submit_pair() { # prints "cpu_array io_array"
	local blocker cpu io
	blocker=$(dl_block_nodes 2)
	io=$(dl_submit -J io --array=0-7 -c1 -t 2 --deadline=now+600seconds \
		--task-profile=cpu=1,io=60 --wrap 'sleep 25')
	cpu=$(dl_submit -J cpu --array=0-7 -c1 -t 2 --deadline=now+600seconds \
		--task-profile=cpu=1,io=10 --wrap 'sleep 25')
	dl_wait_planned "$io" >&2
	dl_wait_planned "$cpu" >&2
	scancel "$blocker"
	echo "$cpu $io"
}

@test "complementary profiles are co-located up to node capacity (select/deadline)" {
	local cpu io ok=0
	read -r cpu io < <(submit_pair)
	# the plan (once it has seen the nodes freed): at most one I/O task
	# per node, CPU tasks on the other cores
	for _ in $(seq 30); do
		[ "$(dl_plan_field "$io" alloc)" = 2 ] && break
		sleep 0.5
	done
	[ "$(dl_plan_field "$io" alloc)" -eq 2 ]
	[ "$(dl_plan_field "$cpu" alloc)" -eq 6 ]
	for _ in $(seq 30); do
		local i1 i2 c1 c2
		i1=$(dl_running_on "$io" n1)
		i2=$(dl_running_on "$io" n2)
		c1=$(dl_running_on "$cpu" n1)
		c2=$(dl_running_on "$cpu" n2)
		echo "n1: io $i1 cpu $c1; n2: io $i2 cpu $c2"
		# never more I/O tasks on a node than its 100 MB/s allow
		[ "$i1" -le 1 ] && [ "$i2" -le 1 ]
		if [ $((i1 + c1)) -eq 4 ] && [ $((i2 + c2)) -eq 4 ] &&
			[ "$i1" -eq 1 ] && [ "$i2" -eq 1 ]; then
			ok=1
			break
		fi
		sleep 1
	done
	[ "$ok" = 1 ] || { dl_show_log; false; }
	grep -q 'select/deadline: loaded' "$(dl_ctld_log)"
	scancel "$cpu" "$io"
	dl_wait_jobs 60 "$cpu" "$io"
}

@test "after a slurmctld restart the placement still holds" {
	local cpu io bad=0 samples=0
	read -r cpu io < <(submit_pair)
	for _ in $(seq 20); do
		[ "$(dl_running_on "$io" n1)" -eq 1 ] && break
		sleep 0.5
	done
	# the restored plan carries its placement (rows, nodes, demands):
	# select/deadline enforces it until the first cycle replaces it
	lc restart-ctld
	grep -q 'sched/deadline: restored the plan of cycle [0-9]* ([0-9]* jobs, placement on 2 nodes)' "$(dl_ctld_log)"
	dl_refute grep -q 'carries no nodes' "$(dl_ctld_log)"
	for _ in $(seq 12); do
		local i1 i2
		i1=$(dl_running_on "$io" n1)
		i2=$(dl_running_on "$io" n2)
		samples=$((samples + 1))
		[ "$i1" -le 1 ] && [ "$i2" -le 1 ] || bad=$((bad + 1))
		sleep 0.5
	done
	echo "$bad of $samples samples over the I/O capacity"
	[ "$bad" -eq 0 ]
	# and new tasks still start under the next plan
	[ "$(squeue -h -t R -r -j "$cpu" | wc -l)" -ge 1 ]
	scancel "$cpu" "$io"
	dl_wait_jobs 60 "$cpu" "$io"
}

# From Slurm 23.11 a reconfigure is a restart too (a new slurmctld loads the
# plugins afresh); in 22.05 select/deadline re-indexes the plan in memory.
@test "after scontrol reconfigure the placement still holds" {
	local cpu io n bad=0 samples=0
	read -r cpu io < <(submit_pair)
	for _ in $(seq 20); do
		[ "$(dl_running_on "$io" n1)" -eq 1 ] && break
		sleep 0.5
	done
	n=$(wc -l <"$(dl_ctld_log)")
	lc reconfigure
	for _ in $(seq 12); do
		local i1 i2
		i1=$(dl_running_on "$io" n1)
		i2=$(dl_running_on "$io" n2)
		samples=$((samples + 1))
		[ "$i1" -le 1 ] && [ "$i2" -le 1 ] || bad=$((bad + 1))
		sleep 0.5
	done
	echo "$bad of $samples samples over the I/O capacity"
	[ "$bad" -eq 0 ]
	dl_refute grep -q 'carries no nodes' "$(dl_ctld_log)"
	# a slurmctld the reconfigure started restored the placement
	[ "$(tail -n +"$((n + 1))" "$(dl_ctld_log)" | grep 'restored the plan of cycle' |
		grep -vc 'placement on 2 nodes')" -eq 0 ]
	[ "$(squeue -h -t R -r -j "$cpu" | wc -l)" -ge 1 ]
	scancel "$cpu" "$io"
	dl_wait_jobs 60 "$cpu" "$io"
}

@test "jobs without a deadline pass straight through select/deadline" {
	local plain
	plain=$(dl_submit -J plain --array=0-7 -c1 -t 2 --wrap 'sleep 20')
	for _ in $(seq 20); do
		[ "$(squeue -h -t R -r -j "$plain" | wc -l)" -eq 8 ] && break
		sleep 1
	done
	[ "$(squeue -h -t R -r -j "$plain" | wc -l)" -eq 8 ]
	[ "$(dl_running_on "$plain" n1)" -eq 4 ]
	scancel "$plain"
	dl_wait_jobs 60 "$plain"
}

@test "select/cons_tres alone packs the I/O-heavy tasks by cores" {
	local cpu io most=0
	dl_cluster_stop
	dl_cluster_start --nodes 2 --cpus 4 --select select/cons_tres \
		--extra SlurmdParameters=config_overrides \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$BATS_FILE_TMPDIR/plugstack.conf"
	read -r cpu io < <(submit_pair)
	for _ in $(seq 15); do
		local i1 i2
		i1=$(dl_running_on "$io" n1)
		i2=$(dl_running_on "$io" n2)
		[ "$i1" -gt "$most" ] && most=$i1
		[ "$i2" -gt "$most" ] && most=$i2
		[ "$most" -ge 2 ] && break
		sleep 1
	done
	echo "most I/O tasks on one node: $most"
	# 2 x 60 MB/s on a 100 MB/s node: what select/deadline prevents
	[ "$most" -ge 2 ]
	scancel "$cpu" "$io"
}
