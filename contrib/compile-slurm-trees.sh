#!/bin/sh
# Compile the four plugins against other Slurm versions' source trees, to
# see what a port to each needs (doc/slurm-versions.md, "Compile
# measurements").  Nothing is installed or run; this is not a test.
#
#   contrib/compile-slurm-trees.sh SLURM_SOURCE_DIR...
#
# Each SLURM_SOURCE_DIR is a Slurm source tree (a SchedMD release, say);
# one without config.h is configured first, with Debian's flags.  The
# plugins are built in build-compile-NAME/ (NAME: the tree's directory
# name) with `make -k`; per plugin one line "NAME PLUGIN: ok|FAIL, N
# errors" and its first errors.  Run from the top of this source tree after
# ./autogen.sh, where the compiler and libraries suit the trees (e.g.
# `contrib/slurm-chroot --bind "$PWD" run contrib/compile-slurm-trees.sh
# DIR...` with the trees inside the chroot).  Exit status 0 when every
# plugin compiled against every tree.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -x ./configure ] || { echo "compile-slurm-trees: run ./autogen.sh first" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: $0 SLURM_SOURCE_DIR..." >&2; exit 2; }
top=$(pwd)
status=0
for src in "$@"; do
	src=$(cd "$src" && pwd) || { status=1; continue; }
	name=$(basename "$src")
	if [ ! -f "$src/config.h" ]; then
		t0=$(date +%s)
		# Debian's flags (debian/rules of slurm-wlm)
		if ! (cd "$src" && ./configure --build=x86_64-linux-gnu --prefix=/usr \
			--sysconfdir=/etc/slurm --localstatedir=/var \
			--libdir=/usr/lib/x86_64-linux-gnu --runstatedir=/run \
			--disable-dependency-tracking --with-munge --without-rpath \
			--disable-debug --enable-multiple-slurmd) >"$src/configure.log" 2>&1; then
			echo "$name: Slurm's configure failed"
			tail -n 5 "$src/configure.log"
			status=1
			continue
		fi
		echo "$name: Slurm's configure $(($(date +%s) - t0)) s"
	fi
	b=$top/build-compile-$name
	rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 2
	# SLURM_INCLUDEDIR: the tree's own slurm/*.h, so that configure's
	# check "source tree = installed Slurm" compares the tree with itself
	if ! ../configure -q --with-slurm-source="$src" SLURM_INCLUDEDIR="$src" \
		>configure.log 2>&1; then
		echo "$name: configure failed"
		tail -n 3 configure.log
		status=1
		cd "$top" && continue
	fi
	for p in sched/deadline/sched_deadline job_submit/deadline/job_submit_deadline \
		select/deadline/select_deadline spank/spank_deadline; do
		log=$(basename "$p").log
		t0=$(date +%s)
		if make -k "src/plugins/$p.la" >"$log" 2>&1; then r=ok; else r=FAIL status=1; fi
		echo "$name $p: $r, $(grep -c 'error:' "$log") errors ($(($(date +%s) - t0)) s)"
		grep 'error:' "$log" | sed 's|^.*/src/plugins/|  src/plugins/|' | sort -u | head -n 8
	done
	cd "$top" || exit 2
done
exit $status
