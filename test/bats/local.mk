# bats suites (run by contrib/run-tests.sh against the local cluster)
EXTRA_DIST += test/bats/helpers.bash test/bats/sched_two_tenants.bats \
	test/bats/sched_mapreduce.bats test/bats/sched_restart.bats \
	test/bats/sched_config.bats test/bats/sched_bad_input.bats
