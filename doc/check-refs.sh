#!/bin/sh
# make check: doc/check-refs.py on the source tree (with Slurm's source
# when configure found it, for the Slurm functions the guides name).
# Exit 77 (skipped) only when python3 is missing.
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed: skipped"; exit 77; }
exec python3 "${srcdir:-.}/doc/check-refs.py" "${srcdir:-.}" "${SLURM_SRC:-}"
