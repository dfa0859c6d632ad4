# contrib: setup, local cluster, examples, systemd units
EXTRA_DIST += contrib/setup-deps.sh contrib/run-tests.sh \
	contrib/localcluster/localcluster contrib/quickstart.sh \
	doc/sched-deadline.md doc/localcluster.md
