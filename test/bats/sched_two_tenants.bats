#!/usr/bin/env bats
# Two tenants on 16 nodes x 2 CPUs (doc/slurm-facts.md §6): a big relaxed array A
# first, a small tight array B 5 s later.  With plain sched/backfill B's rest
# is cancelled by Slurm at its deadline; sched/deadline must meet both.  The
# same workload runs under both schedulers and the outcomes are printed side
# by side.
load helpers

setup_file() {
	export LC_DIR=$BATS_FILE_TMPDIR/cluster
	: >"$BATS_FILE_TMPDIR/outcomes"
}

teardown_file() {
	dl_cluster_stop
	echo "# two tenants, 16 nodes x 2 CPUs:" >&3
	printf '# %-15s %-28s %-28s\n' scheduler \
		"A 400x6s, deadline +200s" "B 64x3s, deadline +125s" >&3
	while read -r sched a b; do
		printf '# %-15s %-28s %-28s\n' "$sched" "${a//_/ }" "${b//_/ }" >&3
	done <"$BATS_FILE_TMPDIR/outcomes"
}

# run the workload under scheduler $1; sets A, B and their outcomes
run_two_tenants() {
	local sched=$1 a_dl b_dl
	dl_cluster_start --sched "$sched" --deadline-conf none
	A=$(dl_submit -J tenantA --array=0-399 -t 0:30 --deadline=now+200seconds --wrap='sleep 6')
	sleep 5
	B=$(dl_submit -J tenantB --array=0-63 -t 0:30 --deadline=now+125seconds --wrap='sleep 3')
	a_dl=$(dl_deadline "$A")
	b_dl=$(dl_deadline "$B")
	dl_wait_jobs 240 "$A" "$B"
	A_OUT="$(dl_outcome "$A" 400 "$a_dl") ($(dl_completed "$A")/400 done, last +$(($(dl_last_end "$A") - a_dl + 200))s)"
	B_OUT="$(dl_outcome "$B" 64 "$b_dl") ($(dl_completed "$B")/64 done"
	if [ "$(dl_deadline_cancelled "$B")" -gt 0 ]; then
		B_OUT="$B_OUT, rest cancelled by Slurm)"
	elif [ "$(dl_completed "$B")" -eq 0 ]; then
		B_OUT="$B_OUT)"
	else
		B_OUT="$B_OUT, last +$(($(dl_last_end "$B") - b_dl + 125))s)"
	fi
}

@test "two tenants: sched/backfill meets A and misses B (the baseline)" {
	run_two_tenants sched/backfill
	dl_cluster_stop
	printf '%s %s %s\n' backfill "${A_OUT// /_}" "${B_OUT// /_}" >>"$BATS_FILE_TMPDIR/outcomes"
	echo "A: $A_OUT"
	echo "B: $B_OUT"
	[[ "$A_OUT" == met* ]]
	# the scenario must still show the problem sched/deadline solves
	[[ "$B_OUT" == missed* ]]
}

@test "two tenants: sched/deadline meets both deadlines" {
	run_two_tenants sched/deadline
	printf '%s %s %s\n' deadline "${A_OUT// /_}" "${B_OUT// /_}" >>"$BATS_FILE_TMPDIR/outcomes"
	echo "A: $A_OUT"
	echo "B: $B_OUT"
	"$SDEADLINE" || true
	[[ "$A_OUT" == met* ]] || { dl_show_log; false; }
	[[ "$B_OUT" == met* ]] || { dl_show_log; false; }
	# the published plan agrees
	[ "$(dl_plan_outcome "$A")" = met ]
	[ "$(dl_plan_outcome "$B")" = met ]
	# Slurm cancelled nothing
	[ "$(dl_deadline_cancelled "$A")" -eq 0 ]
	[ "$(dl_deadline_cancelled "$B")" -eq 0 ]
}
