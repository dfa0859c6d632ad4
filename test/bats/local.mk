# bats suites (run by contrib/run-tests.sh against the local cluster)
EXTRA_DIST += test/bats/helpers.bash test/bats/sched_two_tenants.bats \
	test/bats/sched_mapreduce.bats test/bats/sched_restart.bats \
	test/bats/sched_config.bats test/bats/sched_bad_input.bats \
	test/bats/sched_triage.bats test/bats/sched_partitions.bats \
	test/bats/sched_alerts.bats test/bats/sched_claim.bats \
	test/bats/sched_part_priority.bats test/bats/sched_portfolio.bats \
	test/bats/sched_submit_between_cycles.bats \
	test/bats/sched_release_watch.bats test/bats/sched_promise.bats \
	test/bats/sched_array_limit.bats test/bats/sched_cancel.bats \
	test/bats/sched_hold.bats test/bats/sched_begin.bats
# user/admin experience suites (SPANK options, smapreduce, sdeadline, guides)
EXTRA_DIST += test/bats/ux_helpers.bash test/bats/ux_spank.bats \
	test/bats/ux_smapreduce.bats test/bats/ux_sdeadline.bats \
	test/bats/ux_guides.bats
# realtime policy (job_submit/deadline admission, holds, restart, pairs)
EXTRA_DIST += test/bats/realtime_admission.bats
# fault suites (issue 12): estimator faults, slurmctld killed at the
# critical moments, hostile inputs, two users; submit_raw submits through
# libslurm as a REST client would (no sbatch, no SPANK plugin)
EXTRA_DIST += test/bats/faults_helpers.bash test/bats/faults_estimator.bats \
	test/bats/faults_slurm.bats
noinst_PROGRAMS += test/bats/submit_raw
test_bats_submit_raw_SOURCES = test/bats/submit_raw.c
test_bats_submit_raw_LDADD = $(SLURM_CMD_LIBS)
