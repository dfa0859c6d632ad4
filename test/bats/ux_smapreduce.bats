#!/usr/bin/env bats
# smapreduce: the pair it submits, every option, --parsable, --wait with its
# progress, verdicts and exit statuses, the failure cases (reduce rejected:
# map cancelled), and every bad input (nothing submitted).
load ux_helpers

setup_file() {
	export LC_DIR=$BATS_FILE_TMPDIR/cluster
	ux_cluster_start 23020
	cd "$LC_DIR/jobs"
	printf '#!/bin/sh\nsleep ${MAP_SLEEP:-2}\n' >map.sh
	printf '#!/bin/sh\nsleep 1\n' >reduce.sh
	printf '#!/bin/sh\n[ "$SLURM_ARRAY_TASK_ID" = 1 ] && exit 3\nsleep 1\n' >failmap.sh
	mkdir -p adir
}

teardown_file() {
	ux_cluster_stop
}

setup() {
	cd "$LC_DIR/jobs"
}

# the latest submission (array job id, or job id): unchanged when nothing
# was submitted, whatever ends or starts meanwhile
queued() {
	squeue -h -t all -o %F | sort -n | tail -n 1 | grep . || echo 0
}

# field of scontrol show job (first record)
field() {
	scontrol show job "$1" | grep -o "$2=[^ ]*" | head -n 1 | cut -d= -f2-
}

@test "submits a map array and an afterok reduce array with the same deadline" {
	# the map array held (--map-arg) until its fields are read: its 2-s
	# tasks could otherwise end, and fulfil the dependency (which Slurm
	# then no longer shows), before scontrol reads it
	run smapreduce --maps=6 --reduces=2 --soft-deadline=now+1hour \
		--deadline=now+2hours -J wordcount -p debug \
		--map-profile=cpu=1,mem=100M --reduce-profile=cpu=1,shuffle_io=20 \
		--reduce-cost=0.5 --max-delays=3 --reduce-arg=--comment=reducer \
		--map-arg=--hold map.sh reduce.sh -- -o /dev/null --time=5
	echo "$output"
	[ "$status" -eq 0 ]
	map=$(echo "$output" | sed -n 's/^Submitted map array \([0-9]*\) (6 tasks)$/\1/p')
	red=$(echo "$output" | sed -n "s/^Submitted reduce array \([0-9]*\) (2 tasks, after map array $map succeeds)$/\1/p")
	[ -n "$map" ] && [ -n "$red" ]
	[ "$(field "$red" Dependency)" = "afterok:${map}_*(unfulfilled)" ]
	[ "$(field "$red" KillOInInvalidDependent)" = Yes ]
	[ "$(field "$map" JobName)" = wordcount ]
	[ "$(field "$red" JobName)" = wordcount ]
	[ "$(field "$map" Partition)" = debug ]
	[ "$(field "$red" Comment)" = reducer ]
	[ "$(field "$map" Comment)" != reducer ]
	[ "$(field "$map" TimeLimit)" = 00:05:00 ]
	[ "$(field "$map" Deadline)" = "$(field "$red" Deadline)" ]
	scontrol release "$map"
	# the hints went to the right array (slurmctld's own copy)
	menv=$(ux_ctld_env "$map")
	renv=$(ux_ctld_env "$red" 40)
	echo "map: $menv"
	echo "reduce: $renv"
	echo "$menv" | grep -qx 'DEADLINE_TASK_PROFILE=cpu=1,mem=100'
	echo "$renv" | grep -qx 'DEADLINE_TASK_PROFILE=cpu=1,shuffle_io=20'
	echo "$menv" | grep -qx 'DEADLINE_MR_REDUCES=2'
	dl_refute grep -q 'DEADLINE_MR_REDUCES' <<<"$renv"
	echo "$menv" | grep -qx 'DEADLINE_MAX_DELAYS=3'
	dl_refute grep -q 'DEADLINE_MAX_DELAYS' <<<"$renv"
	echo "$menv" | grep -qx 'DEADLINE_REDUCE_COST=0.5'
	echo "$renv" | grep -qx 'DEADLINE_REDUCE_COST=0.5'
	# "now+1hour" was resolved once: the same soft deadline on both
	[ "$(echo "$menv" | grep DEADLINE_SOFT=)" = "$(echo "$renv" | grep DEADLINE_SOFT=)" ]
}

@test "--parsable prints MAP:REDUCE, usable as an afterok dependency" {
	run smapreduce --parsable -m 2 -r 1 --soft-deadline=now+1hour map.sh reduce.sh -- -o /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^[0-9]+:[0-9]+$ ]]
	run sbatch --parsable -o /dev/null --dependency="afterok:$output" --wrap true
	[ "$status" -eq 0 ]
}

@test "a map-only job (--reduces=0) takes one script" {
	run smapreduce --parsable -m 3 -r 0 --deadline=now+1hour map.sh -- -o /dev/null --begin=now+30minutes
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^[0-9]+$ ]]
	# scontrol appends "%N" once the plan sets ArrayTaskThrottle (one
	# PlanInterval after submission): the task range is what is checked
	[ "$(field "$output" ArrayTaskId | cut -d% -f1)" = 0-2 ]
	# no reduce array depends on it
	dl_refute grep -q "afterok:${output}_" <<<"$(squeue -h -o '%E')"
	scancel "$output"
}

@test "--wait shows progress and the prediction, and exits 0 when the deadline is met" {
	run env MAP_SLEEP=3 smapreduce -W --interval=1 -m 16 -r 2 \
		--soft-deadline=now+10minutes map.sh reduce.sh -- -o /dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	# progress lines (not a terminal: one line per change)
	echo "$output" | grep -q '^map [0-9]*/16 \[[#-]*\].*reduce [0-9]*/2 .*deadline '
	echo "$output" | grep -q '^map 16/16 \[##########\]  reduce 2/2 \[##########\]'
	# the scheduler's prediction from sdeadline
	echo "$output" | grep -q 'finish ~[0-9:]*.*(on_track)'
	# the verdict
	echo "$output" | tail -n 1 | grep -qE '^MapReduce job [0-9]+:[0-9]+ completed at [0-9:]+, [0-9ms]+ before its soft deadline \('
}

@test "--wait exits 2 when the job completes after its soft deadline" {
	# a map task alone outlasts the soft deadline; 10 s leave both sbatch
	# calls time to reach slurmctld before it passes (a soft deadline in
	# the past is refused at submit)
	run env MAP_SLEEP=11 smapreduce -W -Q --interval=1 -m 4 -r 1 \
		--soft-deadline=now+10seconds map.sh reduce.sh -- -o /dev/null
	echo "$output"
	[ "$status" -eq 2 ]
	# quiet: the verdict only
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" =~ ^MapReduce\ job\ [0-9]+:[0-9]+\ completed\ at\ .*after\ its\ soft\ deadline ]]
}

@test "--wait exits 3 when a map task fails; the reduce array is cancelled" {
	run smapreduce -W -Q --interval=1 -m 3 -r 2 --deadline=now+1hour \
		failmap.sh reduce.sh -- -o /dev/null
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" == *"did not complete: 1 map task failed; 2 reduce tasks cancelled"* ]]
}

@test "--wait exits 3 when Slurm cancels tasks at the hard deadline" {
	# 10 maps of 30 s on the 8 CPUs with a 1-minute limit and the deadline
	# 80 s away: the first wave starts, the maps left over cannot start
	# before the deadline less the limit (+20 s) and Slurm cancels them.
	# (Slurm 24.11.5 refuses a deadline closer than the limit at
	# submission, so the cancellation is what the test waits for.)
	run env MAP_SLEEP=30 smapreduce -W -Q --interval=1 -m 10 -r 1 \
		--deadline=now+80seconds map.sh reduce.sh -- -o /dev/null --time=1
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" =~ [0-9]+\ map\ tasks\ cancelled\ by\ Slurm\ at\ the\ hard\ deadline\ \( ]]
	[[ "$output" != *"10 map tasks cancelled"* ]]
}

@test "a rejected reduce array cancels the map array" {
	local before=$(queued)
	run smapreduce -v -m 2 -r 1 --deadline=now+1hour \
		--reduce-arg=--partition=nosuchpartition map.sh reduce.sh -- -o /dev/null
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"smapreduce: sbatch --parsable --array=0-1 "* ]]
	[[ "$output" == *"invalid partition"* ]]
	map=$(echo "$output" | sed -n 's/.*reduce array not submitted; cancelled map array \([0-9]*\)$/\1/p')
	[ -n "$map" ]
	[[ "$(field "$map" JobState)" == CANCELLED ]]
	# the map array is the only submission: no reduce array exists
	[ "$map" -gt "$before" ]
	[ "$(queued)" -eq "$map" ]
}

@test "an interrupted --wait leaves the job running and exits 130" {
	smapreduce -W -m 2 -r 1 --soft-deadline=now+1hour map.sh reduce.sh \
		-- -o /dev/null --begin=now+30minutes >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	# its first progress line: both arrays submitted and the SIGINT
	# handler installed (before it, the signal is ignored: a background
	# job of a non-interactive shell)
	dl_poll 60 grep -q '^map [0-9]*/2 ' "$BATS_TEST_TMPDIR/out" ||
		{ kill "$pid"; cat "$BATS_TEST_TMPDIR/out"; false; }
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	cat "$BATS_TEST_TMPDIR/out"
	[ "$status" -eq 130 ]
	grep -q 'interrupted; the job keeps running (to stop it: scancel [0-9]* [0-9]*)' "$BATS_TEST_TMPDIR/out"
	ids=$(sed -n 's/.*scancel \([0-9]*\) \([0-9]*\)).*/\1 \2/p' "$BATS_TEST_TMPDIR/out")
	[ "$(squeue -h -o %i -j "${ids// /,}" | wc -l)" -ge 2 ]
	scancel $ids
}

@test "SBATCH_WAIT in the environment does not block the submission" {
	run timeout 20 env SBATCH_WAIT=1 smapreduce --parsable -m 1 -r 1 \
		--soft-deadline=now+1hour map.sh reduce.sh -- -o /dev/null --begin=now+30minutes
	[ "$status" -eq 0 ]
	scancel "${output%%:*}" "${output##*:}"
}

@test "--help, --version" {
	run smapreduce --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Usage: smapreduce [OPTIONS] MAP_SCRIPT [REDUCE_SCRIPT]"* ]]
	run smapreduce -V
	[ "$status" -eq 0 ]
	# the Slurm it was built for is the one the cluster runs
	[[ "$output" =~ ^smapreduce\ [0-9.]+\ \(built\ for\ Slurm\ ([0-9.]+)\)$ ]]
	[ "${BASH_REMATCH[1]}" = "$(sinfo --version | awk '{ print $2 }')" ]
}

# bad ARGS... : exit 1, the expected message, nothing submitted
bad() {
	local want=$1 before
	shift
	before=$(queued)
	run smapreduce "$@"
	echo "smapreduce $* -> $status: $output"
	[ "$status" -eq 1 ] || return 1
	[[ "$output" == *"$want"* ]] || return 1
	[ "$(queued)" -eq "$before" ]
}

@test "bad counts, scripts and deadlines: an error and nothing submitted" {
	bad "give the number of map tasks with --maps=N" -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "give the number of reduce tasks with --reduces=N" -m 1 --deadline=now+1hour map.sh reduce.sh
	bad "--maps=0: expected a whole number from 1 to" -m 0 -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "--maps=abc: expected a whole number" -m abc -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "--maps=2.5: expected a whole number" -m 2.5 -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "--reduces=-1: expected a whole number from 0 to" -m 1 -r -1 --deadline=now+1hour map.sh reduce.sh
	bad "--maps=20000: above this cluster's MaxArraySize=10001" -m 20000 -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "--reduces=10002: above this cluster's MaxArraySize=10001" -m 1 -r 10002 --deadline=now+1hour map.sh reduce.sh
	bad "give a map script and a reduce script" -m 1 -r 1 --deadline=now+1hour map.sh
	bad "give a map script and a reduce script" -m 1 -r 1 --deadline=now+1hour
	bad "a map-only job (--reduces=0) takes one script" -m 1 -r 0 --deadline=now+1hour map.sh reduce.sh
	bad "reduce script nosuch.sh: No such file or directory" -m 1 -r 1 --deadline=now+1hour map.sh nosuch.sh
	bad "map script adir: not a readable file" -m 1 -r 1 --deadline=now+1hour adir reduce.sh
	bad "give --deadline=TIME or --soft-deadline=TIME" -m 1 -r 1 map.sh reduce.sh
	bad "--deadline=bogus: not a time" -m 1 -r 1 --deadline=bogus map.sh reduce.sh
	bad "--soft-deadline=: not a time" -m 1 -r 1 --soft-deadline= map.sh reduce.sh
	bad "--deadline=now-1hour is in the past" -m 1 -r 1 --deadline=now-1hour map.sh reduce.sh
	bad "--soft-deadline=now-5minutes: soft deadline is in the past" -m 1 -r 1 --soft-deadline=now-5minutes map.sh reduce.sh
	bad "soft deadline is 3600 s after the hard deadline" -m 1 -r 1 --deadline=now+1hour --soft-deadline=now+2hours map.sh reduce.sh
}

@test "bad hints and options: an error and nothing submitted" {
	bad "--map-profile=gpu=1: task profile: unknown key 'gpu'" -m 1 -r 1 --deadline=now+1hour --map-profile=gpu=1 map.sh reduce.sh
	bad "--reduce-profile=cpu=0: task profile: bad value" -m 1 -r 1 --deadline=now+1hour --reduce-profile=cpu=0 map.sh reduce.sh
	bad "--reduce-cost=0: reduce cost '0'" -m 1 -r 1 --deadline=now+1hour --reduce-cost=0 map.sh reduce.sh
	bad "--max-delays=-2: max delays '-2'" -m 1 -r 1 --deadline=now+1hour --max-delays=-2 map.sh reduce.sh
	bad "--reduce-profile and --reduce-arg need --reduces > 0" -m 1 -r 0 --deadline=now+1hour --reduce-arg=--mem=1 map.sh
	bad "--interval=0: expected seconds from 0.5 to 3600" -m 1 -r 1 --deadline=now+1hour --interval=0 map.sh reduce.sh
	bad "--interval=4000: expected seconds" -m 1 -r 1 --deadline=now+1hour --interval=4000 map.sh reduce.sh
	bad "--interval=soon: expected seconds" -m 1 -r 1 --deadline=now+1hour --interval=soon map.sh reduce.sh
	bad "unknown option --frobnicate" --frobnicate -m 1 -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "unknown option -x" -x -m 1 -r 1 --deadline=now+1hour map.sh reduce.sh
	bad "option -m needs a value" -m
	bad "option --deadline needs a value" -m 1 -r 1 --deadline
}

@test "sbatch arguments smapreduce sets itself are refused" {
	for a in --array=0-3 -a0-3 --dependency=afterok:1 --dep=afterok:1 -dafterok:1 \
		--parsable --wait -W --wrap=true --deadline=now+1hour \
		--soft-deadline=now+1hour --mr-reduces=3 --test-only; do
		bad "smapreduce sets --" -m 1 -r 1 --deadline=now+1hour map.sh reduce.sh -- "$a"
	done
	bad "--map-arg --array=1: smapreduce sets --array itself" -m 1 -r 1 --deadline=now+1hour --map-arg=--array=1 map.sh reduce.sh
	bad "--reduce-arg --dependency=afterany:1: smapreduce sets --dependency itself" -m 1 -r 1 --deadline=now+1hour --reduce-arg=--dependency=afterany:1 map.sh reduce.sh
	bad "(use smapreduce's own option)" -m 1 -r 1 --soft-deadline=now+1hour map.sh reduce.sh -- --deadline=now+2hours
	# a partition that does not exist: sbatch refuses the map, nothing left
	bad "map array not submitted; nothing was submitted" -m 1 -r 1 --deadline=now+1hour -p nosuchpartition map.sh reduce.sh
}
