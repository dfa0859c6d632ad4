#!/usr/bin/env bats
# Two MapReduce jobs (a reduce array with afterok on a map array) with
# different deadlines: under the default policy (triage) the tighter one
# ranks first and finishes first, although it was submitted second, and both
# meet their deadlines.
load helpers

setup_file() {
	dl_cluster_start --deadline-conf none
}

teardown_file() {
	dl_cluster_stop
}

# submit a MapReduce pair; prints "map reduce"
submit_mr() { # name maps map-seconds deadline
	local m r
	m=$(dl_submit -J "$1-map" --array=0-$(($2 - 1)) -t 0:30 --deadline="now+$4seconds" --wrap="sleep $3")
	r=$(dl_submit -J "$1-reduce" --array=0-3 -t 0:30 --deadline="now+$4seconds" \
		--dependency="afterok:$m" --wrap='sleep 2')
	echo "$m $r"
}

@test "MapReduce: the tighter deadline ranks first and finishes first" {
	local loose tight lm lr tm tr samples=0 ahead=0
	loose=$(submit_mr loose 192 6 300)
	sleep 1
	tight=$(submit_mr tight 96 6 100)
	read -r lm lr <<<"$loose"
	read -r tm tr <<<"$tight"
	dl_wait_planned "$tm"
	dl_wait_plan_field "$tm" reduce_id "$tr"
	dl_wait_plan_field "$lm" reduce_id "$lr"
	# the pair is one job in the plan, keyed by its map array
	[ "$(dl_plan_field "$tm" reduce_id)" = "$tr" ]
	[ "$(dl_plan_field "$lm" reduce_id)" = "$lr" ]

	# while both map phases run, the plan ranks the tight job first and
	# slurmctld gives it the higher priority
	for _ in $(seq 30); do
		local tk lk tp lp pr
		[ "$(dl_plan_field "$tm" phase)" = map ] || break
		[ "$(dl_plan_field "$lm" phase)" = map ] || break
		[ "$(dl_plan_field "$tm" pending)" -gt 0 ] || break
		tk=$(dl_plan_field "$tm" rank)
		lk=$(dl_plan_field "$lm" rank)
		# both priorities from one squeue call, so from one plan cycle
		# (two calls straddled a cycle once: both read the top value)
		pr=$(squeue -h -j "$tm,$lm" -t PD -o '%F %Q')
		tp=$(awk -v j="$tm" '$1 == j { print $2; exit }' <<<"$pr")
		lp=$(awk -v j="$lm" '$1 == j { print $2; exit }' <<<"$pr")
		if [ -n "$tp" ] && [ -n "$lp" ]; then
			samples=$((samples + 1))
			[ "$tk" -lt "$lk" ] && [ "$tp" -gt "$lp" ] && ahead=$((ahead + 1))
			echo "sample: tight rank $tk priority $tp, loose rank $lk priority $lp"
		fi
		sleep 1
	done
	echo "tight ranked ahead in $ahead of $samples samples"
	[ "$samples" -ge 1 ]
	[ "$ahead" -eq "$samples" ]

	dl_wait_jobs 200 "$lm" "$lr" "$tm" "$tr"
	[ "$(dl_completed "$tm")" -eq 96 ]
	[ "$(dl_completed "$tr")" -eq 4 ]
	[ "$(dl_completed "$lm")" -eq 192 ]
	[ "$(dl_completed "$lr")" -eq 4 ]
	echo "tight ends $(dl_last_end "$tr"), loose ends $(dl_last_end "$lr")"
	[ "$(dl_last_end "$tr")" -lt "$(dl_last_end "$lr")" ]
	[ "$(dl_outcome "$tr" 4 "$(dl_deadline "$tr")")" = met ]
	[ "$(dl_outcome "$lr" 4 "$(dl_deadline "$lr")")" = met ]
	"$SDEADLINE"
	[ "$(dl_plan_outcome "$tm")" = met ]
	[ "$(dl_plan_outcome "$lm")" = met ]
}
