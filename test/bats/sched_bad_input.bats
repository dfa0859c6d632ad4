#!/usr/bin/env bats
# Bad input gets a defined answer and never hurts slurmctld.
load helpers

setup_file() {
	dl_cluster_start --deadline-conf none
}

teardown_file() {
	dl_cluster_stop
}

@test "a deadline in the past is refused at submission" {
	cd "$LC_DIR/jobs"
	run sbatch --array=0-3 -t 0:30 --deadline=2020-01-01T00:00:00 --wrap='sleep 1'
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"time limit is invalid"* ]]
	scontrol ping | grep -q UP
}

@test "an array with a deadline and no time limit is planned and runs" {
	local j tl
	j=$(dl_submit -J nolimit --array=0-7 --deadline=now+300seconds --wrap='sleep 2')
	tl=$(scontrol show job "$j" | grep -o 'TimeLimit=[^ ]*' | head -n 1)
	echo "Slurm set $tl"
	dl_wait_planned "$j"
	dl_wait_jobs 120 "$j"
	[ "$(dl_completed "$j")" -eq 8 ]
	[ "$(dl_plan_outcome "$j")" = met ]
}

@test "a reduce array depending on a non-array job is planned alone and says so" {
	local p j
	p=$(dl_submit -J plain --wrap='sleep 3')
	j=$(dl_submit -J orphan-reduce --array=0-3 -t 0:30 --deadline=now+300seconds \
		--dependency="afterok:$p" --wrap='sleep 1')
	dl_wait_planned "$j"
	dl_plan_field "$j" explain
	dl_plan_field "$j" explain | grep -q "afterok on JobId=$p, not an array"
	[ "$(dl_plan_field "$j" reduce_id)" = 0 ]
	dl_wait_jobs 120 "$p" "$j"
	[ "$(dl_completed "$j")" -eq 4 ]
	scontrol ping | grep -q UP
}
