#!/bin/sh
# make check: doc/check-refs.py on the source tree (with Slurm's source
# when configure found it, for the Slurm functions the guides name).
# Exit 77 (skipped) when python3 is missing, or when this build has no
# Slurm source (--without-slurm-source, e.g. the sanitizer build): the
# guides name Slurm's own functions and files, which only that tree can
# confirm; the build configured with Slurm's source runs the check.
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed: skipped"; exit 77; }
if [ -z "${SLURM_SRC:-}" ] || [ ! -d "${SLURM_SRC}/src" ]; then
	echo "no Slurm source in this build: skipped (the build with it checks)"
	exit 77
fi
exec python3 "${srcdir:-.}/doc/check-refs.py" "${srcdir:-.}" "${SLURM_SRC:-}"
