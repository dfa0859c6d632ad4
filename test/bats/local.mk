# bats suites (run by contrib/run-tests.sh against the local cluster)
