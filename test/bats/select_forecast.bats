#!/usr/bin/env bats
# select/deadline with Policy=reverse: a node's forecast external load is
# taken off what deadline tasks may use there.  Two nodes of 4 CPUs; the
# forecast puts a 50% load on n1 (AvailabilityForecast), so deadline tasks
# get 2 of its CPUs while n2 gives all 4.  Re-read on scontrol reconfigure.
load helpers

PORT=${DL_SELECT_PORT_BASE:-21000}

forecast() { # load of n1
	cat <<-F
	# external load: a service on n1
	Version=1
	Start=0
	Step=60
	Class=busy Nodes=n1 Resources=cpu
	$1
	F
}

setup_file() {
	local d=$BATS_FILE_TMPDIR
	forecast 0.5 >"$d/forecast.txt"
	cat >"$d/deadline.conf" <<-CONF
	Policy=reverse
	PlanInterval=2
	ReplanDelay=0.5
	AvailabilityForecast=forecast.txt
	CONF
	export DL_PORT_BASE=$((PORT + 10))
	dl_cluster_start --nodes 2 --cpus 4 --select select/deadline \
		--extra SlurmdParameters=config_overrides \
		--deadline-conf "$d/deadline.conf"
	# the forecast sits next to deadline.conf (relative path)
	cp "$d/forecast.txt" "$LC_DIR/etc/forecast.txt"
	lc reconfigure
}

teardown_file() {
	dl_cluster_stop
}

# Wait until array $1 runs $2 tasks on n1 and $3 on n2 (never more than $2
# on n1 meanwhile).
expect_split() {
	local a=$1 want1=$2 want2=$3 r1 r2
	for _ in $(seq 30); do
		r1=$(dl_running_on "$a" n1)
		r2=$(dl_running_on "$a" n2)
		echo "n1 $r1 n2 $r2"
		[ "$r1" -le "$want1" ] || return 1
		[ "$r1" -eq "$want1" ] && [ "$r2" -eq "$want2" ] && return 0
		sleep 1
	done
	return 1
}

@test "the forecast load on n1 leaves deadline tasks 2 of its 4 CPUs" {
	local blocker a
	grep -q 'external load forecast from .*forecast.txt: 1 node class' "$(dl_ctld_log)"
	blocker=$(dl_block_nodes 2)
	a=$(dl_submit -J fc --array=0-11 -c1 -t 2 --deadline=now+900seconds --wrap 'sleep 30')
	dl_wait_planned "$a"
	scancel "$blocker"
	expect_split "$a" 2 4 || { dl_show_log; false; }
	# a job without a deadline still gets n1's free CPUs
	local plain
	plain=$(dl_submit -J plain -w n1 -c2 -t 1 --wrap 'sleep 5')
	for _ in $(seq 15); do
		[ "$(squeue -h -t R -j "$plain" | wc -l)" -eq 1 ] && break
		sleep 1
	done
	[ "$(squeue -h -t R -j "$plain" | wc -l)" -eq 1 ]
	scancel "$a" "$plain"
	dl_wait_jobs 60 "$a" "$plain"
}

@test "a new forecast is read on scontrol reconfigure" {
	local blocker a
	forecast 0 >"$LC_DIR/etc/forecast.txt"
	lc reconfigure
	blocker=$(dl_block_nodes 2)
	a=$(dl_submit -J fc2 --array=0-11 -c1 -t 2 --deadline=now+900seconds --wrap 'sleep 30')
	dl_wait_planned "$a"
	scancel "$blocker"
	expect_split "$a" 4 4 || { dl_show_log; false; }
	scancel "$a"
	dl_wait_jobs 60 "$a"
}

@test "a broken forecast file keeps the previous one and says why" {
	echo "Version=1" >"$LC_DIR/etc/forecast.txt"
	lc reconfigure
	for _ in $(seq 20); do
		grep -q 'AvailabilityForecast: .*keeping the previous forecast' "$(dl_ctld_log)" && break
		sleep 0.5
	done
	grep 'AvailabilityForecast: .*keeping the previous forecast' "$(dl_ctld_log)"
	scontrol ping | grep -q UP
}
