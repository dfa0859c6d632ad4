#!/usr/bin/env bats
# HopelessPromise=yes on a real local Slurm (16 nodes x 2 CPUs), 20 s tasks
# the estimator knows from history.  As in sched_triage.bats, a 64-task
# array due at +55 s is given up so that a 32-task array due at +50 s and
# another due at +75 s meet theirs.  It is promised the finish predicted
# then (80-95 s: two waves after the other two).  A third 32-task array
# arrives afterwards, due 45 s after that promise.  Without a promise it
# would run before the given-up array (it is feasible, the other is not);
# promised, the given-up array keeps its place before every job due after
# its promise, starts first, and the newcomer still meets its deadline.
# HopelessSlack=0: no lent slack, which could also put the given-up array
# first, so only the promise orders them.
load helpers
load estimator_helpers

setup_file() {
	est_start_file
	local name
	for name in promise-first promise-big promise-last promise-next; do
		est_observe_runs "$name" 20 4
	done
	printf 'PlanInterval=2\nReplanDelay=1\nEstimatorSocket=%s\nHopelessPromise=yes\nHopelessSlack=0\n' \
		"$EST_SOCK" >"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --deadline-conf "$BATS_FILE_TMPDIR/deadline.conf" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf"
}

teardown_file() {
	dl_cluster_stop
	est_stop_file
}

@test "promise: a given-up array keeps the place of the finish it was promised; an array due after it starts after it and still meets its deadline" {
	local now first big last next d_first d_big d_last d_next promise again expl
	now=$(date +%s)
	d_first=$((now + 50))
	d_big=$((now + 55))
	d_last=$((now + 75))
	read -r first big last < <(dl_submit_trio promise 20 "$d_first" "$d_big" "$d_last")
	dl_wait_planned "$last"
	for _ in $(seq 20); do
		promise=$(dl_plan_field "$big" promise)
		[ "$(dl_plan_field "$big" verdict)" = hopeless ] &&
			[ "${promise%.*}" -gt 0 ] 2>/dev/null && break
		sleep 1
	done
	"$SDEADLINE"
	[ "$(dl_plan_field "$big" verdict)" = hopeless ]
	promise=${promise%.*}
	echo "promise: $((promise - now)) s after submission"
	# two waves after the other two arrays' one each, with the estimator's
	# spread and the launch overheads (60-130 s)
	[ "$promise" -ge $((now + 60)) ]
	[ "$promise" -le $((now + 130)) ]
	d_next=$((promise + 45))
	next=$(dl_submit -J promise-next --array=0-31 -t 2:00 \
		--soft-deadline="$(dl_deadline_arg "$d_next")" --wrap='sleep 20')
	dl_wait_planned "$next"
	# the promise stays, the given-up array ranks before the newcomer and
	# says why
	for _ in $(seq 10); do
		expl=$(dl_plan_field "$big" explain)
		[[ "$expl" == *"promised to end in"* ]] && break
		sleep 1
	done
	"$SDEADLINE"
	echo "explanation: $expl"
	[[ "$expl" == *"promised to end in"*"(HopelessPromise)"* ]]
	again=$(dl_plan_field "$big" promise)
	[ "${again%.*}" -eq "$promise" ]
	[ "$(dl_plan_field "$big" rank)" -lt "$(dl_plan_field "$next" rank)" ]
	# the outcome: the newcomer starts only once the given-up array's
	# first wave has ended (without the promise it would start first, as
	# soon as the last array's wave ends), and meets its deadline; so do
	# the two the big one was given up for.  Its second wave may still
	# share the CPUs its first wave frees with the newcomer, so the big
	# array's end is not asserted: the plan caps it at what its promise
	# needs, 32 tasks at once, the 32 ending included; at that count the
	# array ranks "keep", below every urgent array (plan/decide.c), and
	# Slurm hands the CPUs freed before the next cycle to the newcomer
	# (measured: 25 of 32 in 1 of 3 runs, the promise missed by 5 s)
	dl_wait_jobs 300 "$first" "$big" "$last" "$next"
	for j in "$first" "$big" "$last" "$next"; do
		echo "job $j: $(dl_completed "$j") completed, last end $(($(dl_last_end "$j") - now)) s after submission"
		dl_tasks "$j" | awk -v t0="$now" '{ printf "  %s %s %d-%d\n", $1, $2, $3 - t0, $4 - t0 }'
	done
	echo "deadlines: first +50, big +55, last +75, next +$((d_next - now))"
	[ "$(dl_outcome "$first" 32 "$d_first")" = met ]
	[ "$(dl_outcome "$last" 32 "$d_last")" = met ]
	[ "$(dl_outcome "$next" 32 "$d_next")" = met ]
	[ "$(dl_completed "$big")" -eq 64 ]
	echo "first starts: big +$(($(dl_first_start "$big") - now)), next +$(($(dl_first_start "$next") - now))"
	[ "$(dl_first_start "$next")" -ge $(($(dl_first_start "$big") + 15)) ]
}
