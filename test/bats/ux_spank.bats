#!/usr/bin/env bats
# The SPANK plugin (spank_deadline.so, loaded through the example
# plugstack.conf): every option, every time format --deadline accepts, the
# checks against now, --begin and --deadline, every bad value, and the
# values reaching slurmctld and the plan.
load ux_helpers

setup_file() {
	export LC_DIR=$BATS_FILE_TMPDIR/cluster
	UX_NODES=2 ux_cluster_start 23000
}

teardown_file() {
	ux_cluster_stop
}

# the latest submission (array job id, or job id): unchanged when nothing
# was submitted, whatever ends or starts meanwhile
queued() {
	squeue -h -t all -o %F | sort -n | tail -n 1 | grep . || echo 0
}

# sbatch -v --hold ... ; prints the SPANK_DEADLINE_SOFT epoch sbatch sent
soft_sent() {
	local out id
	out=$(ux_sbatch -v --hold --parsable "$@" --wrap true) || {
		echo "$out" >&2
		return 1
	}
	id=$(echo "$out" | grep -E '^[0-9]+$' | tail -n 1)
	scancel "$id"
	echo "$out" | sed -n 's/.*deadline: SPANK_DEADLINE_SOFT=\([0-9]*\).*/\1/p'
}

@test "sbatch --help lists the deadline options" {
	run sbatch --help
	[ "$status" -eq 0 ]
	for o in soft-deadline=time task-profile= reduce-cost=ratio \
		max-delays=n mr-reduces=n; do
		echo "$output" | grep -q -- "--$o" || { echo "no --$o"; false; }
	done
}

@test "--soft-deadline takes every absolute --deadline format, with the same result" {
	local t fmt soft hard id
	t=$(date -d 'now + 1 day 2 hours' +%s)
	for fmt in "$(date -d @"$t" +%H:%M)" "$(date -d @"$t" +%H:%M:%S)" \
		"$(date -d @"$t" +%I:%M%p)" \
		"$(date -d @"$t" +%Y-%m-%d)" "$(date -d @"$t" +%Y-%m-%dT%H:%M)" \
		"$(date -d @"$t" +%Y-%m-%dT%H:%M:%S)" "$(date -d @"$t" +%m/%d)" \
		"$(date -d @"$t" +%m/%d/%y)" "$(date -d @"$t" +%m.%d.%y)" \
		"$(date -d @"$t" +%m%d%y)" "$(date -d @"$t" +%m/%d/%y-%H:%M)" \
		tomorrow midnight noon fika teatime "uts$t"; do
		out=$(ux_sbatch -v --hold --parsable --deadline="$fmt" \
			--soft-deadline="$fmt" --wrap true) || {
			echo "refused '$fmt': $out"
			false
		}
		id=$(echo "$out" | grep -E '^[0-9]+$' | tail -n 1)
		soft=$(echo "$out" | sed -n 's/.*SPANK_DEADLINE_SOFT=\([0-9]*\).*/\1/p')
		hard=$(ux_epoch "$(scontrol show job "$id" | grep -o 'Deadline=[^ ]*' | cut -d= -f2)")
		scancel "$id"
		echo "$fmt: soft $soft hard $hard"
		[ -n "$soft" ] && [ "$soft" -eq "$hard" ]
	done
}

@test "--soft-deadline takes relative times (now+N units)" {
	local before after soft n unit
	for spec in 90:seconds 90:minutes 2:hours 3:days 1:weeks; do
		n=${spec%%:*}
		unit=${spec#*:}
		before=$(date +%s)
		soft=$(soft_sent --soft-deadline="now+$n$unit")
		after=$(date +%s)
		want=$(($(date -d "1970-01-01 UTC + $n $unit" +%s)))
		echo "now+$n$unit: $soft (wanted $before..$after + $want)"
		[ "$soft" -ge $((before + want)) ] && [ "$soft" -le $((after + want)) ]
	done
}

@test "the values reach slurmctld normalised, and the soft deadline reaches the plan" {
	local id env soft
	id=$(cd "$LC_DIR/jobs" && sbatch --parsable -o /dev/null --array=0-1 \
		--soft-deadline=now+1hour --task-profile=cpu=1,mem=1G,io=5 \
		--reduce-cost=0.5 --max-delays=2 --mr-reduces=3 --wrap 'sleep 30')
	env=$(ux_ctld_env "$id")
	echo "$env"
	echo "$env" | grep -qx 'DEADLINE_TASK_PROFILE=cpu=1,mem=1024,io=5'
	echo "$env" | grep -qx 'DEADLINE_REDUCE_COST=0.5'
	echo "$env" | grep -qx 'DEADLINE_MAX_DELAYS=2'
	echo "$env" | grep -qx 'DEADLINE_MR_REDUCES=3'
	soft=$(echo "$env" | sed -n 's/^DEADLINE_SOFT=//p')
	[ "$soft" -gt $(($(date +%s) + 3500)) ]
	[ "$soft" -le $(($(date +%s) + 3600)) ]
	# sched/deadline plans the job against it
	dl_wait_planned "$id" 20
	[ "$(dl_plan_field "$id" deadline | cut -d. -f1)" -eq "$soft" ]
	scancel "$id"
}

@test "#SBATCH lines set the options and the command line overrides them" {
	local id env
	cat >"$LC_DIR/jobs/hinted.sh" <<'EOF'
#!/bin/sh
#SBATCH --soft-deadline=now+2hours
#SBATCH --reduce-cost=4
#SBATCH --max-delays=7
sleep 20
EOF
	id=$(cd "$LC_DIR/jobs" && sbatch --parsable -o /dev/null \
		--max-delays=1 hinted.sh)
	env=$(ux_ctld_env "$id")
	echo "$env"
	echo "$env" | grep -qx 'DEADLINE_REDUCE_COST=4'
	echo "$env" | grep -qx 'DEADLINE_MAX_DELAYS=1'
	echo "$env" | grep -q '^DEADLINE_SOFT='
	scancel "$id"
}

@test "an invalid #SBATCH value fails at submit" {
	local before=$(queued)
	printf '#!/bin/sh\n#SBATCH --soft-deadline=nonsense\ntrue\n' \
		>"$LC_DIR/jobs/bad.sh"
	run ux_sbatch "$LC_DIR/jobs/bad.sh"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--soft-deadline=nonsense: not a time"* ]]
	[ "$(queued)" -eq "$before" ]
}

# bad_value OPTION VALUE EXPECTED-TEXT [more sbatch args]
bad_value() {
	local opt=$1 val=$2 want=$3 before
	shift 3
	before=$(queued)
	run ux_sbatch "$@" "--$opt=$val" --wrap true
	echo "--$opt='$val' -> status $status: $output"
	[ "$status" -ne 0 ] || return 1
	[[ "$output" == *"$want"* ]] || return 1
	# nothing was submitted
	[ "$(queued)" -eq "$before" ]
}

@test "bad --soft-deadline values fail at submit with a clear message" {
	bad_value soft-deadline bogus "--soft-deadline=bogus: not a time; use a --deadline format"
	bad_value soft-deadline "" "--soft-deadline=: not a time"
	bad_value soft-deadline now+ "not a time"
	bad_value soft-deadline 25:99 "not a time"
	bad_value soft-deadline 2020-01-01 "soft deadline is in the past"
	bad_value soft-deadline now-1hour "soft deadline is in the past"
	bad_value soft-deadline now "soft deadline is in the past"
	bad_value soft-deadline uts999999999999 "later than the year 9999"
}

@test "a soft deadline after --deadline, or not after --begin, fails at submit" {
	bad_value soft-deadline now+2hours "is later than --deadline=" --deadline=now+1hour
	bad_value soft-deadline now+1hour "is not after --begin=" --begin=now+2hours
	# equal to the hard deadline is fine
	t=$(date -d 'now + 3 hours' +%Y-%m-%dT%H:%M:%S)
	run ux_sbatch --hold --deadline="$t" --soft-deadline="$t" --wrap true
	[ "$status" -eq 0 ]
	scancel "$(echo "$output" | grep -o '[0-9]*$')"
}

@test "bad --task-profile values fail at submit with a clear message" {
	bad_value task-profile "" "--task-profile=: task profile"
	bad_value task-profile cpu=0 "bad value '0' for cpu"
	bad_value task-profile cpu=-1 "bad value"
	bad_value task-profile gpu=1 "unknown key 'gpu'"
	bad_value task-profile mem=4X "bad value '4X' for mem"
	bad_value task-profile io=-1 "bad value"
	bad_value task-profile cpu "is not key=value"
	bad_value task-profile cpu=1,, "is not key=value"
	bad_value task-profile cpu=nan "bad value"
}

@test "bad --reduce-cost, --max-delays and --mr-reduces values fail at submit" {
	bad_value reduce-cost 0 "expected a number above 0 and at most 1000"
	bad_value reduce-cost -1 "expected a number above 0"
	bad_value reduce-cost 1001 "at most 1000"
	bad_value reduce-cost abc "reduce cost 'abc'"
	bad_value reduce-cost nan "reduce cost 'nan'"
	bad_value reduce-cost "" "reduce cost ''"
	bad_value max-delays -1 "expected a whole number from 0 to 1000"
	bad_value max-delays 1.5 "whole number"
	bad_value max-delays 1001 "from 0 to 1000"
	bad_value max-delays x "max delays 'x'"
	bad_value mr-reduces -1 "reduce task count '-1': expected a whole number"
	bad_value mr-reduces 2.5 "whole number"
	bad_value mr-reduces 100000001 "whole number from 0 to 100000000"
	bad_value mr-reduces x "reduce task count 'x'"
}

@test "srun and salloc take the options and check them too" {
	run srun -N1 --soft-deadline=now+1hour --task-profile=cpu=1 true
	[ "$status" -eq 0 ]
	run srun -N1 --soft-deadline=now-1hour true
	[ "$status" -ne 0 ]
	[[ "$output" == *"soft deadline is in the past"* ]]
	run salloc -N1 --soft-deadline=yesterday-ish true
	[ "$status" -ne 0 ]
	[[ "$output" == *"--soft-deadline=yesterday-ish: not a time"* ]]
}

@test "with another SchedulerType, sbatch says the options have no effect" {
	sed 's|^SchedulerType=.*|SchedulerType=sched/backfill|' "$SLURM_CONF" \
		>"$LC_DIR/etc/slurm-backfill.conf"
	run env SLURM_CONF="$LC_DIR/etc/slurm-backfill.conf" \
		sbatch --test-only --soft-deadline=now+1hour -o /dev/null --wrap true
	[[ "$output" == *"deadline: SchedulerType is sched/backfill, not sched/deadline"* ]]
	# and not under sched/deadline
	run ux_sbatch --test-only --soft-deadline=now+1hour
	[[ "$output" != *"SchedulerType is"* ]]
}
