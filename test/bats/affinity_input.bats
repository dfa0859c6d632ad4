#!/usr/bin/env bats
# --input-nodes at submission (spank_deadline(8), doc/data-affinity.md):
# the normalised value reaching slurmctld (inline and from a file), every
# kind of bad spec refused with a message and nothing submitted, the
# warnings about options that do nothing, and smapreduce
# --map-input-nodes.
load ux_helpers

setup_file() {
	export LC_DIR=$BATS_FILE_TMPDIR/cluster
	UX_NODES=2 ux_cluster_start "${DL_AFFINITY_INPUT_PORT_BASE:-24050}"
	cd "$LC_DIR/jobs"
	printf '#!/bin/sh\nsleep 1\n' >map.sh
	printf '#!/bin/sh\nsleep 1\n' >reduce.sh
}

teardown_file() {
	ux_cluster_stop
}

setup() {
	cd "$LC_DIR/jobs"
}

# bad_spec SPEC MESSAGE: sbatch refuses it, names the problem, submits
# nothing (a job it did submit would stay held under its name)
bad_spec() {
	local out status
	out=$(ux_sbatch --hold -J badspec --array=0-3 \
		--soft-deadline=now+1hour --input-nodes="$1" --wrap true) &&
		status=0 || status=$?
	echo "--input-nodes=${1:0:80} -> $status: ${out:0:400}"
	[ "$status" -ne 0 ] || return 1
	echo "$out" | grep -qF -- "$2" || return 1
	[ -z "$(squeue -h -n badspec -o %i)" ]
}

@test "sbatch --help lists --input-nodes" {
	run sbatch --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q -- "--input-nodes=spec"
}

@test "--input-nodes reaches slurmctld normalised, inline and from a file" {
	local out id env
	out=$(ux_sbatch --parsable --hold --array=0-7 --soft-deadline=now+1hour \
		--input-nodes='4-7 = n3 ; 0-3=n[2,1]' --max-delays=2 --wrap true)
	id=$(echo "$out" | grep -E '^[0-9]+$' | tail -n 1)
	[ -n "$id" ]
	scontrol release "$id"
	env=$(ux_ctld_env "$id")
	echo "$env"
	echo "$env" | grep -qx 'DEADLINE_INPUT_NODES=0-3=n\[1-2\];4-7=n3'
	echo "$env" | grep -qx 'DEADLINE_MAX_DELAYS=2'
	# a value with '/' is a file, read on the submit host
	printf '# blocks of the input\n0-3 = n[1-2]   # rack 1\n\n4-7=n3\n*=n1\n' >blocks.txt
	out=$(ux_sbatch --parsable --array=0-7 --soft-deadline=now+1hour \
		--input-nodes=./blocks.txt --wrap true)
	id=$(echo "$out" | grep -E '^[0-9]+$' | tail -n 1)
	env=$(ux_ctld_env "$id")
	echo "$env"
	echo "$env" | grep -qx 'DEADLINE_INPUT_NODES=0-3=n\[1-2\];4-7=n3;\*=n1'
}

@test "bad --input-nodes specs are refused at submission with a clear message" {
	local long="" i
	bad_spec '0-3=n[1-' "--input-nodes=0-3=n[1-: entry '0-3=n[1-': 'n[1-' is not a host list: malformed range group"
	bad_spec '0-3=n1;2=n2' "entry '2=n2': task 2 is already listed in another entry"
	bad_spec '0-3' "entry '0-3': task indexes without hosts (write 0-3=HOSTS)"
	bad_spec '3-1=n1' "range 3-1 runs backwards"
	bad_spec '0-9:0=n1' "a step must be at least 1"
	bad_spec 'x=n1' "'x' is not a task index"
	bad_spec '4000001=n1' "task index 4000001 is above 4000000"
	bad_spec 'n1;n2' "a second entry for the tasks not listed"
	bad_spec '0=n[1-70000]' "more than 65536 host names in all"
	bad_spec '0=n 1' "unexpected ' ' in host list"
	bad_spec '0=n1,*' "'*' (every node) is no preference: leave these tasks out"
	bad_spec '*,*' "'*' (every node) is no preference: leave these tasks out"
	bad_spec ' ; ' "no preferred nodes given"
	bad_spec ./no-such-file "--input-nodes=./no-such-file: cannot read the file: No such file or directory"
	printf '0-3=n1\n\n2=n2\n' >overlap.txt
	bad_spec ./overlap.txt "line 3: task 2 is already listed in another entry"
	# one host per task, none shared: too long to travel with the job
	for i in $(seq 0 2999); do long="$long$i=h$((3 * i));"; done
	bad_spec "$long" "bytes once normalised, more than the 16384 a job can carry"
}

@test "options that do nothing are named at submission" {
	local out
	out=$(ux_sbatch --array=0-1 --soft-deadline=now+1hour --max-delays=3 --wrap true)
	echo "$out"
	echo "$out" | grep -q "deadline: --max-delays has no effect without --input-nodes"
	echo "$out" | grep -q "Submitted batch job"
	out=$(ux_sbatch --array=0-1 --input-nodes=n1 --wrap true)
	echo "$out"
	echo "$out" | grep -q "deadline: --input-nodes has no effect without --deadline or --soft-deadline"
	out=$(ux_sbatch --array=0-1 --input-nodes=n1 --deadline=now+1hour --wrap true)
	echo "$out"
	dl_refute grep -q "has no effect" <<<"$out"
}

@test "smapreduce --map-input-nodes goes to the map array only; a bad spec submits nothing" {
	local out map red menv renv
	out=$(smapreduce --maps=4 --reduces=1 --soft-deadline=now+1hour \
		--map-input-nodes='0-1=n1;2-3=n2' --max-delays=2 map.sh reduce.sh \
		-- -o /dev/null 2>&1)
	echo "$out"
	map=$(echo "$out" | sed -n 's/^Submitted map array \([0-9]*\) (4 tasks)$/\1/p')
	red=$(echo "$out" | sed -n 's/^Submitted reduce array \([0-9]*\) .*/\1/p')
	[ -n "$map" ] && [ -n "$red" ]
	menv=$(ux_ctld_env "$map")
	renv=$(ux_ctld_env "$red" 40)
	echo "map: $menv"
	echo "reduce: $renv"
	echo "$menv" | grep -qx 'DEADLINE_INPUT_NODES=0-1=n1;2-3=n2'
	dl_refute grep -q DEADLINE_INPUT_NODES <<<"$renv"
	run smapreduce --maps=4 --reduces=1 --soft-deadline=now+1hour \
		-J badmr --map-input-nodes='0-3=n1;3=n2' map.sh reduce.sh
	echo "$output"
	[ "$status" -eq 1 ]
	echo "$output" | grep -qF "smapreduce: error: --map-input-nodes=0-3=n1;3=n2: entry '3=n2': task 3 is already listed in another entry"
	dl_refute grep -q Submitted <<<"$output"
	[ -z "$(squeue -h -n badmr -o %i)" ]
}
