#!/usr/bin/env bats
# Two tenants on 16 nodes x 2 CPUs (doc/slurm-facts.md §6), run as the user
# runs it: contrib/quickstart.sh, the README's main command.  A big relaxed
# array A first, a small tight array B 5 s later, once under plain
# sched/backfill (B's rest is cancelled by Slurm at its deadline) and once
# under sched/deadline with the cluster's deadline-estimatord (both met).
# The quickstart's table, result.tsv and timeline PNG are checked, and that
# it leaves nothing running, also when it is stopped half-way.
load helpers

setup_file() {
	export QS_DIR=$BATS_FILE_TMPDIR/quickstart
	export QS_PORT=$((${DL_PORT_BASE:-20000} + ${DL_PORT_OFFSET:-0}))
}

teardown_file() {
	# whatever a failed test left: stop it by its own pid files
	local s
	for s in backfill deadline; do
		[ ! -d "$QS_DIR/$s" ] || "$LOCALCLUSTER" --dir "$QS_DIR/$s" stop || true
	done
}

quickstart() {
	"$DL_SRC/contrib/quickstart.sh" --no-setup --build "$DL_BUILD" \
		--port-base "$QS_PORT" --dir "$QS_DIR" "$@"
}

# processes whose command line names the quickstart's directory
# (slurmctld, slurmd, deadline-estimatord, the jobs' steps)
left_running() {
	pgrep -a -f "$QS_DIR/" || true
}

# field N of result.tsv's row for scheduler S and job J
result() { # sched job field
	awk -F'\t' -v s="$1" -v j="$2" -v f="$3" '$1 == s && $2 == j { print $f }' "$QS_DIR/result.tsv"
}

@test "quickstart: stopped half-way (SIGTERM, as Ctrl-C), it stops what it started" {
	# the script itself in the background (not a subshell around it), so
	# that the signal reaches it
	"$DL_SRC/contrib/quickstart.sh" --no-setup --build "$DL_BUILD" \
		--port-base "$QS_PORT" --dir "$QS_DIR" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	local pid=$! _
	# until the first cluster runs the workload
	for _ in $(seq 120); do
		[ -s "$QS_DIR/backfill/jobs.tsv" ] && break
		sleep 1
	done
	[ -s "$QS_DIR/backfill/jobs.tsv" ] || { cat "$BATS_TEST_TMPDIR/out"; false; }
	[ -n "$(left_running)" ] # the test sees the cluster
	kill -TERM "$pid"
	local rc=0
	wait "$pid" || rc=$?
	cat "$BATS_TEST_TMPDIR/out"
	[ "$rc" -ne 0 ]
	grep -q 'interrupted; stopping what it started' "$BATS_TEST_TMPDIR/out"
	[ -z "$(left_running)" ] || { left_running; false; }
}

@test "quickstart: sched/backfill misses B, sched/deadline with the estimator meets both; table, PNG, nothing left" {
	run quickstart
	echo "$output"
	[ "$status" -eq 0 ]
	# the side-by-side table
	echo "$output" | grep -E '^job: tasks x length, deadline +sched/backfill +sched/deadline'
	echo "$output" | grep -E '^tenantA: 400 x 6 s, \+250 s +met, [0-9]+ s to spare +met, [0-9]+ s to spare'
	echo "$output" | grep -E '^tenantB: 64 x 3 s, \+1[23][0-9] s +MISSED: [0-9]+ of 64 tasks ran +met, [0-9]+ s to spare'
	echo "$output" | grep -E '^quickstart finished in [0-9]+ s: sched/backfill missed [1-9][0-9]* deadline\(s\), sched/deadline 0$'
	# its figures: plain Slurm misses at least one deadline, slurm-deadline none
	[ "$(awk -F'\t' '$1 == "backfill" && $9 == "missed"' "$QS_DIR/result.tsv" | wc -l)" -ge 1 ]
	[ "$(result backfill tenantA 9)" = met ]
	[ "$(result backfill tenantB 9)" = missed ]
	[ "$(result backfill tenantB 12)" != - ] # Slurm cancelled B's rest
	local j
	for j in tenantA tenantB; do
		[ "$(result deadline "$j" 9)" = met ]
		[ "$(result deadline "$j" 4)" = "$(result deadline "$j" 3)" ] # every task done
		[ "$(result deadline "$j" 8)" -ge 0 ]                         # by the deadline
		[ "$(result deadline "$j" 10)" = met ]                        # the plan agrees
		[ "$(result deadline "$j" 12)" = - ]                          # Slurm cancelled nothing
	done
	# sched/deadline used the cluster's estimator: the plan says it
	# answered, the job showed an estimate source, and every finished
	# task reached its history
	[ "$(jq -r .estimator "$QS_DIR/deadline/sdeadline.json")" = ok ]
	[ "$(result deadline tenantA 11)" != - ]
	[ "$(sqlite3 "$QS_DIR/deadline/state/estimator.db" 'select count(*) from tasks')" -eq 464 ]
	# the timeline: a PNG with both panels' data
	echo "$output" | grep -qxF "  timeline: $QS_DIR/timeline.png"
	[ "$(head -c 8 "$QS_DIR/timeline.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ "$(stat -c %s "$QS_DIR/timeline.png")" -gt 10000 ]
	grep -q '^# tenantB' "$QS_DIR/deadline/timeline.dat"
	[ -z "$(left_running)" ] || { left_running; false; }
}
