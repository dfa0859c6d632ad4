# contrib: setup, local cluster, examples, systemd units
EXTRA_DIST += contrib/setup-deps.sh contrib/run-tests.sh \
	contrib/localcluster/localcluster contrib/quickstart.sh contrib/quickstart-report \
	contrib/slurm-chroot contrib/test-slurm-chroot.sh contrib/test-lib.sh \
	contrib/test-cpu-stages.sh \
	contrib/compile-slurm-trees.sh \
	doc/sched-deadline.md doc/localcluster.md

# Example configuration and systemd files (doc/admin-guide.md), installed
# under $(docdir)/examples for admins to copy.
uxexampledir = $(docdir)/examples
dist_uxexample_DATA = contrib/examples/slurm.conf.fragment \
	contrib/examples/plugstack.conf contrib/examples/deadline.conf \
	contrib/systemd/slurm-deadline.sysusers.conf \
	contrib/systemd/slurm-deadline.tmpfiles.conf
uxexampledropindir = $(docdir)/examples/slurmctld.service.d
dist_uxexampledropin_DATA = contrib/systemd/slurmctld.service.d/deadline.conf
