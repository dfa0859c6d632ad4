#!/usr/bin/env bats
# With SelectType=select/deadline every Slurm client loads the plugin
# (select_g_init dlopens each select_*.so of PluginDir): sbatch, squeue,
# sinfo, scontrol, srun, salloc and scancel must all keep working, with no
# unresolved symbol (doc/slurm-facts.md §4).
load helpers

PORT=${DL_SELECT_PORT_BASE:-21000}

setup_file() {
	export DL_PORT_BASE=$((PORT + 20))
	dl_cluster_start --nodes 2 --select select/deadline \
		--deadline-conf none
}

teardown_file() {
	dl_cluster_stop
}

# run a client; fail on an error line from the plugin loader
client() {
	run "$@"
	echo "$output"
	[ "$status" -eq 0 ]
	dl_refute grep -qiE 'undefined symbol|plugin_load|cannot (load|create)|fatal' <<<"$output"
}

@test "clients load select_deadline.so" {
	run env LD_DEBUG=files sinfo -h
	echo "$output" | grep 'select_deadline.so' | head -n 3
	grep -q 'file=.*select_deadline.so' <<<"$output"
	dl_refute grep -qi 'undefined symbol' <<<"$output"
}

@test "scontrol reports select/deadline" {
	client scontrol show config
	grep -qE '^SelectType +\= select/deadline' <<<"$output"
	client scontrol ping
	client scontrol show node n1
	grep -q 'NodeName=n1' <<<"$output"
}

@test "sinfo and squeue" {
	client sinfo
	grep -q 'debug' <<<"$output"
	client sinfo -N -o '%N %C %T'
	client squeue
}

@test "sbatch, scontrol show job, squeue, scancel" {
	local id
	cd "$LC_DIR/jobs"
	client sbatch --parsable -o /dev/null -t 1 --wrap 'sleep 30'
	id=$output
	client scontrol show job "$id"
	grep -q "JobId=$id" <<<"$output"
	client squeue -j "$id" -h -o '%i %T'
	client scancel "$id"
	dl_wait_jobs 30 "$id"
}

@test "srun and salloc run steps through select/deadline" {
	client srun -N2 -t 1 hostname
	[ "$(grep -c . <<<"$output")" -eq 2 ]
	client salloc -N1 -t 1 srun hostname
	client sbatch --parsable -o "$LC_DIR/jobs/array.out" -t 1 --array=0-3 --wrap 'true'
	dl_wait_jobs 60 "$(cut -d';' -f1 <<<"$output")"
}

# Tools built on the public libslurm.so (pyslurm, site scripts) rather than
# Slurm's private libslurmfull load the select plugins too: the plugin must
# not need slurmctld-only symbols there.
@test "a program linked with the public libslurm.so reads nodes and jobs" {
	cat >"$BATS_FILE_TMPDIR/pubslurm.c" <<'CSRC'
#include <stdio.h>
#include <slurm/slurm.h>
int main(void)
{
	node_info_msg_t *nodes = NULL;
	job_info_msg_t *jobs = NULL;

	/* required before any other call from Slurm 23.02 on (24.11 stops
	 * with "Can't find plugin for (null)" without it) */
	slurm_init(NULL);
	if (slurm_load_node(0, &nodes, SHOW_ALL) ||
	    slurm_load_jobs(0, &jobs, SHOW_ALL)) {
		slurm_perror("load");
		return 1;
	}
	printf("nodes=%u jobs=%u\n", nodes->record_count, jobs->record_count);
	slurm_free_node_info_msg(nodes);
	slurm_free_job_info_msg(jobs);
	slurm_fini();
	return 0;
}
CSRC
	gcc -o "$BATS_FILE_TMPDIR/pubslurm" "$BATS_FILE_TMPDIR/pubslurm.c" -lslurm
	run env LD_DEBUG=files "$BATS_FILE_TMPDIR/pubslurm"
	grep -q 'file=.*select_deadline.so' <<<"$output"
	client "$BATS_FILE_TMPDIR/pubslurm"
	grep -q '^nodes=2 ' <<<"$output"
}
