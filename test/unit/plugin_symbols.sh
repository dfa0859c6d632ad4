#!/bin/sh
# make check: every plugin the build made resolves each of our own symbols
# (dl_*, sdl_*, ...) from what it links.  A core file missing from a
# plugin's sources links fine (a plugin may leave symbols to its host) and
# fails only when Slurm loads it: sbatch then dies with "undefined symbol".
# Slurm's own symbols (slurm_*, xmalloc, spank_*) come from the host and
# are not checked.  Skipped (77) when no plugin was built.
plugins=$(find src/plugins -path '*/.libs/*.so' 2>/dev/null)
[ -n "$plugins" ] || { echo "no plugin built: skipped"; exit 77; }
command -v ldd >/dev/null 2>&1 || { echo "no ldd: skipped"; exit 77; }
rc=0
for so in $plugins; do
	bad=$(LD_LIBRARY_PATH=src/common/.libs ldd -r "$so" 2>&1 |
		grep -E "undefined symbol: _?(dl|sdl|rt|sj|est|sim)_|libdeadline.* not found")
	if [ -n "$bad" ]; then
		echo "$so:"
		echo "$bad"
		rc=1
	else
		echo "$so: every core symbol resolved"
	fi
done
exit $rc
