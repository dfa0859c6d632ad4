#!/usr/bin/env bats
# Two MapReduce jobs (a reduce array with afterok on a map array) with
# different deadlines: the tighter one gets the larger throttle and finishes
# first, although it was submitted second.
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

@test "MapReduce: the tighter deadline gets the larger throttle and finishes first" {
	local loose tight lm lr tm tr samples=0 bigger=0
	# 32 CPUs; once task lengths are known the tight job needs about 15
	# concurrent maps, the loose one about 5: the rest is shared out
	loose=$(submit_mr loose 192 6 300)
	sleep 1
	tight=$(submit_mr tight 96 6 100)
	read -r lm lr <<<"$loose"
	read -r tm tr <<<"$tight"
	dl_wait_planned "$tm"
	# the pair is one job in the plan, keyed by its map array
	[ "$(dl_plan_field "$tm" reduce_id)" = "$tr" ]
	[ "$(dl_plan_field "$lm" reduce_id)" = "$lr" ]

	# while both map phases run with task lengths known and the tight
	# job has more tasks left than it could be allotted, compare the
	# throttles slurmctld enforces
	for _ in $(seq 90); do
		local tv lv tt lt
		tv=$(dl_plan_field "$tm" verdict)
		lv=$(dl_plan_field "$lm" verdict)
		[ "$(dl_plan_field "$tm" phase)" = map ] || break
		[ "$(dl_plan_field "$tm" pending)" -gt 36 ] || break
		if [ "$tv" != no_data ] && [ "$lv" != no_data ] &&
			[ "$(dl_plan_field "$lm" phase)" = map ]; then
			tt=$(dl_throttle "$tm")
			lt=$(dl_throttle "$lm")
			samples=$((samples + 1))
			[ "$tt" -gt "$lt" ] && bigger=$((bigger + 1))
			echo "sample: tight throttle $tt, loose throttle $lt"
		fi
		sleep 1
	done
	echo "tight had the larger throttle in $bigger of $samples samples"
	[ "$samples" -ge 1 ]
	[ "$bigger" -eq "$samples" ]

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
