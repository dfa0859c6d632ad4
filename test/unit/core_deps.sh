#!/bin/sh
# make check: the core (src/common) has no dependency cycle and no lower
# subsystem depends on a higher one (doc/architecture.md, "The core").
#
# A module is a folder/stem pair: realtime/admit.c and realtime/admit.h are
# the module realtime/admit.  Two graphs are checked:
#   includes  module A -> B when a file of A includes "common/B.h";
#   symbols   module A -> B when A's object uses a function or variable
#             that B's object defines (needs the built objects; this also
#             sees a cycle through declarations in a shared header).
# Either graph fails on a cycle (tsort names it).  The include graph also
# fails on an edge that goes up the layers, lowest first:
#   io < config < model < estimate < plan < policy = realtime < simulate
#   < portfolio = compare
# (io and config are leaves: io includes no other subsystem, config only
# io; policy and realtime may use each other's modules, never in a cycle).
#
#   core_deps.sh                 check $srcdir/src/common (and the objects
#                                under $top_builddir/src/common when built),
#                                after proving on copies that a cycle and an
#                                upward include are caught
#   core_deps.sh --tree DIR [--objects DIR]
#                                check one tree only
set -u

rank() {
	case "$1" in
	io) echo 0 ;;
	config) echo 1 ;;
	model) echo 2 ;;
	estimate) echo 3 ;;
	plan) echo 4 ;;
	policy | realtime) echo 5 ;;
	simulate) echo 6 ;;
	portfolio | compare) echo 7 ;;
	*) echo unknown ;;
	esac
}

# "A B" lines: module A includes a header of module B (A != B).
include_edges() {
	(cd "$1" && find . -name '*.[ch]' | sed 's#^\./##' | sort) |
		while read -r f; do
			from=${f%.*}
			sed -n 's#^[[:space:]]*\#[[:space:]]*include[[:space:]]*"common/\([a-z_]*/[a-z_0-9]*\)\.h".*#\1#p' \
				"$1/$f" | while read -r to; do
				[ "$to" = "$from" ] || echo "$from $to"
			done
		done | sort -u
}

# "A B" lines: A's object uses a symbol B's object defines (objects of
# the tree $2's sources only: a build directory keeps those of removed
# files).
symbol_edges() {
	find "$1" -name '*.o' -path '*/libdeadline_static_la-*' -o \
		-name '*.o' -path '*/libdeadline_tools_la-*' | sort |
		while read -r o; do
			dir=$(basename "$(dirname "$o")")
			stem=$(basename "$o" .o)
			stem=${stem#*_la-}
			[ -f "$2/$dir/$stem.c" ] || continue
			nm "$o" | awk -v m="$dir/$stem" \
				'$1 == "U" { print "U", m, $2 }
				 $2 ~ /^[TDBRC]$/ { print "D", m, $3 }'
		done |
		awk '$1 == "D" { def[$3] = $2; next }
		     { use[NR] = $2 " " $3 }
		     END { for (k in use) { split(use[k], a, " ");
			if ((a[2] in def) && def[a[2]] != a[1])
				print a[1], def[a[2]] } }' | sort -u
}

# Fails (1) when the edges on stdin contain a cycle; prints it.
no_cycle() {
	out=$(tsort 2>&1 >/dev/null)
	[ -z "$out" ] && return 0
	echo "$1 cycle:"
	echo "$out" | sed -n 's/^tsort: [^:]*: input contains a loop:$/  --/p; s/^tsort: \([a-z_]*\/[a-z_0-9]*\)$/  \1/p'
	return 1
}

no_upward() {
	status=0
	while read -r from to; do
		rf=$(rank "${from%%/*}")
		rt=$(rank "${to%%/*}")
		if [ "$rf" = unknown ] || [ "$rt" = unknown ]; then
			echo "layers: $from -> $to: folder without a layer (add it to $0 and doc/architecture.md)"
			status=1
		elif [ "$rf" -lt "$rt" ]; then
			echo "layers: $from includes $to: ${from%%/*} is below ${to%%/*}"
			status=1
		fi
	done
	return "$status"
}

check_tree() {
	tree=$1 objects=$2 status=0
	edges=$(include_edges "$tree")
	[ -n "$edges" ] || { echo "no include edges under $tree"; return 1; }
	echo "$edges" | no_cycle includes || status=1
	echo "$edges" | no_upward || status=1
	if [ -n "$objects" ]; then
		sym=$(symbol_edges "$objects" "$tree")
		if [ -n "$sym" ]; then
			echo "$sym" | no_cycle symbols || status=1
		else
			echo "no core objects under $objects: symbol graph not checked"
		fi
	fi
	return "$status"
}

if [ "${1:-}" = --tree ]; then
	check_tree "$2" "${4:-}"
	exit $?
fi

srcdir=${srcdir:-.}
core=$srcdir/src/common
[ -d "$core" ] || { echo "no $core"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/core_deps.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The check itself must fail on what it is there to catch: a policy that
# includes the dispatcher again, and a leaf that includes a higher layer.
cp -R "$core" "$tmp/cycle"
chmod -R u+w "$tmp/cycle" # make distcheck's source tree is read-only
printf '#include "common/policy/policy.h"\n' >>"$tmp/cycle/policy/adaptive.c"
if check_tree "$tmp/cycle" "" >"$tmp/out" 2>&1; then
	echo "self-test: a cycle adaptive -> policy -> adaptive was not caught"
	exit 1
fi
grep -q 'includes cycle' "$tmp/out" || { cat "$tmp/out"; exit 1; }
cp -R "$core" "$tmp/upward"
chmod -R u+w "$tmp/upward"
printf '#include "common/model/model.h"\n' >>"$tmp/upward/io/log.h"
if check_tree "$tmp/upward" "" >"$tmp/out" 2>&1; then
	echo "self-test: io/log including model/model was not caught"
	exit 1
fi
grep -q 'io/log includes model/model' "$tmp/out" || { cat "$tmp/out"; exit 1; }

if printf 'a/x a/y\na/y a/z\na/z a/x\n' | no_cycle symbols >/dev/null; then
	echo "self-test: a symbol cycle x -> y -> z -> x was not caught"
	exit 1
fi
objects=
[ -d "${top_builddir:-.}/src/common" ] && objects=${top_builddir:-.}/src/common
if [ -n "$objects" ] && [ -n "$(symbol_edges "$objects" "$core")" ] &&
	! symbol_edges "$objects" "$core" | grep -qx 'realtime/admit realtime/place'; then
	echo "self-test: the symbol graph misses admit -> place"
	exit 1
fi
check_tree "$core" "$objects" || exit 1
echo "core: $(include_edges "$core" | wc -l) include edges, no cycle, no upward include"
