#!/bin/sh
# One task of a job replayed by bench/replay-swim.sh: sleeps the length
# drawn for it, line SLURM_ARRAY_TASK_ID + 1 of the file $REPLAY_LENGTHS
# (the same lengths deadline-sim runs; one file per array).
#SBATCH --output=/dev/null
len=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$REPLAY_LENGTHS" 2>/dev/null)
case "$len" in
'' | *[!0-9.]*)
	echo "replay-task: no length for task $SLURM_ARRAY_TASK_ID in '$REPLAY_LENGTHS'" >&2
	exit 1
	;;
esac
exec sleep "$len"
