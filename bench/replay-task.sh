#!/bin/sh
# One task of a job replayed by bench/replay-swim.sh: sleeps the length
# drawn for it, line SLURM_ARRAY_TASK_ID + 1 of $REPLAY_LENGTHS_DIR/
# $REPLAY_JOB.PHASE (the same lengths deadline-sim runs; one file per
# array), PHASE being this script's argument (map or reduce).  The two
# variables reach the task with sbatch's default --export=ALL: a filtered
# --export (ALL,NAME=value) implies --get-user-env, and slurmd then runs a
# login shell per task launch, which a heavy profile makes take seconds to
# minutes (measured: 45 s per task on a machine whose root .bashrc runs
# pyenv).
#SBATCH --output=/dev/null
file=$REPLAY_LENGTHS_DIR/$REPLAY_JOB.$1
len=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$file" 2>/dev/null)
case "$len" in
'' | *[!0-9.]*)
	echo "replay-task: no length for task $SLURM_ARRAY_TASK_ID in '$file'" >&2
	exit 1
	;;
esac
exec sleep "$len"
