#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
# sdeadline: the table, --long, --format, --json, --job, --user, --watch,
# every bad input,
# and PrivateData=jobs with a setgid sdeadline (users see their own rows,
# root sees all, nobody gets the group's rights through their own
# configuration).
load ux_helpers

ALICE=uxdl-alice
BOB=uxdl-bob
GROUP=uxdl-plan

setup_file() {
	# users must reach slurm.conf and the setgid binary: not under bats'
	# private (0700) temporary directory
	LC_DIR=$(mktemp -d /tmp/ux-sdeadline.XXXXXX)
	chmod 755 "$LC_DIR"
	export LC_DIR
	getent group "$GROUP" >/dev/null || groupadd -r "$GROUP"
	for u in "$ALICE" "$BOB"; do
		id "$u" >/dev/null 2>&1 || useradd -r -M -N -s /bin/sh "$u"
	done
	# the plan in a directory of its own: root writes it (SlurmUser here),
	# the group reads it; the setgid bit gives new files that group
	install -d -o root -g "$GROUP" -m 2750 "$LC_DIR/plan"
	printf 'PlanInterval=2\nReplanDelay=0\nEstimatorSocket=""\nPlanFile=%s\n' \
		"$LC_DIR/plan/plan.json" >"$LC_DIR/test-deadline.conf"
	ux_cluster_start 23040 --extra PrivateData=jobs
	install -d -m 755 "$LC_DIR/bin"
	install -o root -g "$GROUP" -m 2755 "$SDEADLINE" "$LC_DIR/bin/sdeadline"
	install -m 755 "$DL_BUILD/src/smapreduce/smapreduce" "$LC_DIR/bin/"
	printf '#!/bin/sh\nsleep 60\n' >"$LC_DIR/jobs/sleep.sh"
	chmod 644 "$LC_DIR/jobs/sleep.sh"
	cd /tmp
	A=$(runuser -u "$ALICE" -- sbatch --parsable -o /dev/null --chdir=/tmp \
		-J alicejob --array=0-3 --deadline=now+1hour --wrap 'sleep 60')
	B=$(runuser -u "$BOB" -- sbatch --parsable -o /dev/null --chdir=/tmp \
		-J bobjob --array=0-3 --soft-deadline=now+1hour --wrap 'sleep 60')
	M=$(runuser -u "$ALICE" -- "$LC_DIR/bin/smapreduce" --parsable \
		-m 2 -r 1 --soft-deadline=now+50minutes -J alicemr \
		"$LC_DIR/jobs/sleep.sh" "$LC_DIR/jobs/sleep.sh" \
		-- -o /dev/null --chdir=/tmp)
	export A B M
	dl_wait_planned "$A" 30
	dl_wait_planned "$B" 30
	dl_wait_planned "${M%%:*}" 30
	# a plan between smapreduce's two submissions sees the map array
	# alone: wait for the one that pairs it with its reduce array
	dl_wait_plan_field "${M%%:*}" reduce_id "${M##*:}" 30
}

teardown_file() {
	ux_cluster_stop
	# the users' job steps are gone with their jobs
	for _ in $(seq 20); do
		pgrep -u "$ALICE,$BOB" >/dev/null 2>&1 || break
		sleep 0.5
	done
	userdel "$ALICE" 2>/dev/null || true
	userdel "$BOB" 2>/dev/null || true
	groupdel "$GROUP" 2>/dev/null || true
	case "$LC_DIR" in /tmp/ux-sdeadline.*) rm -rf "$LC_DIR" ;; esac
}

as() { # user command...
	local u=$1
	shift
	runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"
}

# the JOBID column of a table
rows() {
	echo "$1" | awk 'NR > 2 { print $1 }' | sort | tr '\n' ' '
}

@test "the table has every column and one row per deadline job" {
	run --separate-stderr "$SDEADLINE"
	echo "$output"
	echo "stderr: $stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "${lines[0]}" =~ ^plan\ cycle\ [0-9]+\ at\ [0-9:]+\ \([0-9a-z]+\ ago\),\ policy\ triage,\ estimator\ [^,]+,\ 3\ deadline\ jobs$ ]]
	[[ "${lines[1]}" =~ ^JOBID\ +USER\ +PHASE\ +POLICY\ +DEADLINE\ +PREDICTED\ +P90\ +SOURCE\ +DONE/RUN/PEND\ +ALLOC\ +NEED\ +VERDICT\ +EXPLANATION$ ]]
	# the MapReduce job is one row, map+reduce
	line=$(echo "$output" | grep "^${M%%:*}+${M##*:} ")
	# the deadline: a time of day today, a full date on another day (the
	# deadlines are 50-60 min away, so after 23:00 they are tomorrow)
	[[ "$line" =~ $ALICE\ +map\ +triage\ +([0-9]{4}-[0-9]{2}-[0-9]{2}T)?[0-9]{2}:[0-9]{2}:[0-9]{2}\  ]]
	# a one-sentence explanation ends every row
	line=$(echo "$output" | grep "^$B ")
	[[ "$line" == *"$BOB"* ]]
	[ "$(echo "$line" | awk '{ print NF }')" -gt 11 ]
}

@test "--json has the fields and --job selects by map, reduce or task id" {
	run "$SDEADLINE" --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.jobs | length == 3' >/dev/null
	for f in job_id reduce_id user phase policy deadline predicted_finish \
		finish_err tasks done running pending alloc need source verdict explain; do
		echo "$output" | jq -e --arg f "$f" '.jobs[0] | has($f)' >/dev/null ||
			{ echo "no field $f"; false; }
	done
	for id in "${M%%:*}" "${M##*:}" "${M%%:*}_1"; do
		run "$SDEADLINE" --json --job "$id"
		[ "$(echo "$output" | jq -r '.jobs | map(.job_id) | join(",")')" = "${M%%:*}" ]
	done
	run "$SDEADLINE" --json -j "$A,$B"
	[ "$(echo "$output" | jq '.jobs | length')" -eq 2 ]
	# the soft deadline is the row's deadline
	[ "$(dl_plan_field "$B" deadline | cut -d. -f1)" -gt "$(date +%s)" ]
}

@test "--user selects rows; no match prints the header and exits 0" {
	run "$SDEADLINE" --user "$BOB"
	[ "$status" -eq 0 ]
	[ "$(rows "$output")" = "$B " ]
	run "$SDEADLINE" -u "$ALICE,$BOB" --json
	[ "$(echo "$output" | jq '.jobs | length')" -eq 3 ]
	run "$SDEADLINE" --user nobody-here
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *", 0 deadline jobs" ]]
	run "$SDEADLINE" --job 999999
	[ "$status" -eq 0 ]
	[[ "$output" == *"no such job in the plan"* ]]
}

@test "--watch redraws until interrupted; with --json one line per plan" {
	run timeout --preserve-status -s INT 5 "$SDEADLINE" --watch=1
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^plan cycle')" -ge 3 ]
	run timeout --preserve-status -s INT 4 "$SDEADLINE" --watch=1 --json --job "$A"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 2 ]
	for l in "${lines[@]}"; do
		echo "$l" | jq -e '.jobs | length == 1' >/dev/null
	done
}

@test "PrivateData=jobs: through the setgid sdeadline a user sees only their own rows" {
	# users cannot read the plan file themselves
	run as "$ALICE" cat "$LC_DIR/plan/plan.json"
	[ "$status" -ne 0 ]
	# (slurm_load_jobs loads every select_*.so in PluginDir, select/deadline
	# among them: nothing may go wrong on stderr)
	run --separate-stderr as "$ALICE" "$LC_DIR/bin/sdeadline"
	echo "$output"
	echo "stderr: $stderr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(rows "$output")" = "$A ${M%%:*}+${M##*:} " ]
	[[ "$output" != *"$BOB"* ]]
	run as "$BOB" "$LC_DIR/bin/sdeadline" --json
	[ "$(echo "$output" | jq -r '[.jobs[].user] | unique | join(",")')" = "$BOB" ]
	run as "$ALICE" "$LC_DIR/bin/sdeadline" --user "$BOB"
	[ "$(rows "$output")" = "" ]
	run as "$BOB" "$LC_DIR/bin/sdeadline" --job "$A"
	[[ "$output" == *"no such job in the plan"* ]]
	# root (an administrator) sees every row through the same binary
	run "$LC_DIR/bin/sdeadline" --json
	[ "$(echo "$output" | jq '.jobs | length')" -eq 3 ]
}

@test "the group's rights are used only for the configured plan" {
	# without the setgid installation: a clear refusal
	run as "$ALICE" "$SDEADLINE"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Permission denied"* ]]
	[[ "$output" == *"Access to the plan"* ]]
	# --plan and SDEADLINE_PLAN are read with the caller's own rights
	run as "$ALICE" "$LC_DIR/bin/sdeadline" --plan "$LC_DIR/plan/plan.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Permission denied"* ]]
	run as "$ALICE" env SDEADLINE_PLAN="$LC_DIR/plan/plan.json" "$LC_DIR/bin/sdeadline"
	[ "$status" -eq 1 ]
	# a configuration the user controls does not get the group
	d=$(mktemp -d /tmp/ux-sdl-user.XXXXXX)
	cp "$SLURM_CONF" "$LC_DIR/etc/deadline.conf" "$d/"
	chown -R "$ALICE" "$d"
	run runuser -u "$ALICE" -- env SLURM_CONF="$d/slurm.conf" "$LC_DIR/bin/sdeadline"
	echo "$output"
	rm -rf "$d"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not using sdeadline's group"* ]]
	[[ "$output" == *"is not owned by root or is writable by others"* ]]
}

@test "--long shows the whole explanation wrapped; --format picks fields as squeue -o does" {
	local want got
	run --separate-stderr "$SDEADLINE" --long -j "$B"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" =~ ^JOBID\ +USER\ +ACCOUNT\ +NAME\ +PHASE\ +POLICY\ +DEADLINE\ +PREDICTED\ +P90\ +SOURCE\ +DONE/RUN/PEND\ +ALLOC\ +NEED\ +RANK\ +TASKLEN\ +VERDICT$ ]]
	[[ "${lines[2]}" =~ ^$B\ +$BOB\ + ]]
	# the explanation follows, indented, in lines of at most 80 columns,
	# and joined again it is the plan's sentence, not a word lost
	want=$(dl_plan_field "$B" explain)
	got=$(printf '%s\n' "${lines[@]:3}" | sed -n 's/^    //p' | paste -sd' ')
	[ "$got" = "$want" ]
	for l in "${lines[@]:3}"; do
		[ "${#l}" -le 80 ]
	done
	# squeue style: %[.][width]letter; names with :width
	run --separate-stderr "$SDEADLINE" --noheader -j "$B" --format '%i|%.10v|%s|%E|%u'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	# columns keep their width (at least the header's), as squeue's
	[[ "$output" =~ ^$B\ *\|\ *[a-z_]+\|[a-z:-]+\ *\|[0-9T:-]+\ *\|$BOB$ ]]
	run --separate-stderr "$SDEADLINE" -j "$A" -o jobid,verdict:12,p90
	[[ "${lines[1]}" =~ ^JOBID\ +VERDICT\ +P90$ ]]
	[[ "${lines[2]}" =~ ^$A\  ]]
	# --json carries the p90 finish
	"$SDEADLINE" --json | jq -e '.jobs[0] | has("finish_p90")' >/dev/null
}

@test "bad arguments: a message and status 2" {
	for args in "--job=abc" "--job=" "-j 12x" "--job=1,,2" "--user=a b" \
		"--user=" "--watch=0" "--watch=abc" "--watch=4000" "--plan=" \
		"--frobnicate" "extra" "-j" "--format=%z" "--format=" "-o" \
		"--format=jobid,nope"; do
		# shellcheck disable=SC2086
		run "$SDEADLINE" $args
		echo "sdeadline $args -> $status: $output"
		[ "$status" -eq 2 ]
		[[ "$output" == sdeadline:* ]]
	done
}

@test "a missing, corrupt or stale plan file is reported" {
	run "$SDEADLINE" --plan /nonexistent/plan.json
	[ "$status" -eq 1 ]
	[[ "$output" == *"no plan to show: /nonexistent/plan.json: No such file or directory"* ]]
	echo '{"version": 1, "jobs": [' >"$BATS_TEST_TMPDIR/bad.json"
	run "$SDEADLINE" --plan "$BATS_TEST_TMPDIR/bad.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no plan to show"* ]]
	# an old plan: shown, with a warning
	jq '.now -= 3600' "$LC_DIR/plan/plan.json" >"$BATS_TEST_TMPDIR/old.json"
	run "$SDEADLINE" --plan "$BATS_TEST_TMPDIR/old.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: the plan is 1h00m old; is slurmctld running with SchedulerType=sched/deadline?"* ]]
}

@test "--help and --version" {
	run "$SDEADLINE" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Usage: sdeadline [OPTIONS]"* ]]
	[[ "$output" == *"--watch[=SECONDS]"* ]]
	run "$SDEADLINE" -V
	[[ "$output" =~ ^sdeadline\ [0-9.]+$ ]]
}
