# shellcheck shell=bash
# Helpers of the user/admin experience suites (ux_*.bats), on top of
# helpers.bash: a local cluster with the SPANK plugin from
# contrib/examples/plugstack.conf, a PrologSlurmctld that records the job
# control environment slurmctld holds for each job, and the commands from
# the build tree on PATH.
#
# Ports: each ux suite uses its own base in 23000-23099.

load helpers

UX_BIN=$DL_BUILD/src/smapreduce:$DL_BUILD/src/sdeadline
export PATH=$UX_BIN:$PATH

# ux_cluster_start PORT_BASE [localcluster options...]
# LC_DIR must be set (or defaults to the bats file's tmpdir).
ux_cluster_start() {
	local port=$1
	shift
	export LC_DIR=${LC_DIR:-$BATS_FILE_TMPDIR/cluster}
	mkdir -p "$LC_DIR/etc" "$LC_DIR/log"
	# what slurmctld holds for a job, as PrologSlurmctld sees it (the
	# SPANK_ prefix is Slurm's); one file per array. Every task of an
	# array rewrites it, so it is renamed into place: a reader never sees
	# it truncated by the next task's prolog.
	cat >"$LC_DIR/etc/prologctld.sh" <<EOF
#!/bin/sh
f="$LC_DIR/log/ctld-env-\${SLURM_ARRAY_JOB_ID:-\$SLURM_JOB_ID}"
env | grep -E '^SPANK_DEADLINE_' | sort >"\$f.\$\$" && mv -f "\$f.\$\$" "\$f"
exit 0
EOF
	chmod 755 "$LC_DIR/etc/prologctld.sh"
	if [ ! -f "$LC_DIR/test-deadline.conf" ]; then
		printf 'PlanInterval=2\nReplanDelay=0\nEstimatorSocket=""\n' \
			>"$LC_DIR/test-deadline.conf"
	fi
	DL_PORT_BASE=$port dl_cluster_start --nodes "${UX_NODES:-4}" \
		--plugstack "$DL_SRC/contrib/examples/plugstack.conf" \
		--deadline-conf "$LC_DIR/test-deadline.conf" \
		--extra "PrologSlurmctld=$LC_DIR/etc/prologctld.sh" "$@"
}

# The job control environment slurmctld holds for array (or job) $1, as
# "NAME=value" lines without the SPANK_ prefix; waits up to $2 s (default
# 20) for the job to start.
ux_ctld_env() {
	local f=$LC_DIR/log/ctld-env-$1 end=$((SECONDS + ${2:-20}))
	while [ ! -s "$f" ] && [ $SECONDS -lt $end ]; do
		sleep 0.3
	done
	[ -f "$f" ] || {
		echo "job $1 never started (no PrologSlurmctld record)" >&2
		return 1
	}
	sed 's/^SPANK_//' "$f"
}

# sbatch in the cluster's job directory, output discarded; prints stdout
# and stderr (for the messages) and keeps sbatch's status.
ux_sbatch() {
	(cd "$LC_DIR/jobs" && sbatch -o /dev/null "$@" 2>&1)
}

# epoch seconds of a time in Slurm's ISO format
ux_epoch() {
	date -d "$1" +%s
}

# Cancel every job of the cluster and wait (up to 20 s) until none is left,
# so that no job step outlives the cluster; then stop it.
ux_cluster_stop() {
	local ids end=$((SECONDS + 20))
	if [ -n "${LC_DIR:-}" ] && [ -f "$LC_DIR/etc/slurm.conf" ]; then
		ids=$(squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')
		# shellcheck disable=SC2086
		[ -z "$ids" ] || scancel $ids 2>/dev/null || true
		while [ -n "$(squeue -h -o %A 2>/dev/null)" ] &&
			[ $SECONDS -lt $end ]; do
			sleep 0.5
		done
	fi
	dl_cluster_stop
}
