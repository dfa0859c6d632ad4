# SPANK plugin: sbatch --soft-deadline and friends
