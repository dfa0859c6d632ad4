# Shared helpers of the bench/reproduce-*.sh scripts (sourced, POSIX sh).
#
# Each script accepts:
#   --out DIR     where summaries, tables and plots go (default: a new
#                 directory under /tmp)
#   --quick       the reduced size `make check` runs
#   --sim PATH    the deadline-sim binary (default: $DEADLINE_SIM, then the
#                 build tree next to the source tree, then $PATH)
#   --jobs N      simulations run in parallel (default: the number of CPUs)
# and prints a comparison table at the end.

sim_die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# Parse the common options; sets OUT QUICK SIM JOBS and REST (others).
sim_parse_common() {
	OUT=""
	QUICK=0
	SIM=${DEADLINE_SIM:-}
	JOBS=$(nproc 2>/dev/null || echo 2)
	REST=""
	while [ $# -gt 0 ]; do
		case "$1" in
		--out) [ $# -ge 2 ] || sim_die "--out needs a directory"; OUT=$2; shift 2 ;;
		--quick) QUICK=1; shift ;;
		--sim) [ $# -ge 2 ] || sim_die "--sim needs a path"; SIM=$2; shift 2 ;;
		--jobs) [ $# -ge 2 ] || sim_die "--jobs needs a number"; JOBS=$2; shift 2 ;;
		--help|-h) sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'; exit 0 ;;
		*) REST="$REST $1"; shift ;;
		esac
	done
	case "$JOBS" in ''|*[!0-9]*|0) sim_die "--jobs expects a positive number" ;; esac
	if [ -z "$SIM" ]; then
		here=$(cd "$(dirname "$0")" && pwd)
		for cand in "$here/../build/src/sim/deadline-sim" "$here/../src/sim/deadline-sim"; do
			if [ -x "$cand" ]; then SIM=$cand; break; fi
		done
	fi
	[ -n "$SIM" ] || SIM=$(command -v deadline-sim || true)
	[ -n "$SIM" ] && [ -x "$SIM" ] || sim_die "deadline-sim not found: build it or pass --sim PATH"
	command -v jq >/dev/null || sim_die "jq is needed (apt-get install jq)"
	if [ -z "$OUT" ]; then
		OUT=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX")
	fi
	mkdir -p "$OUT" || sim_die "cannot create $OUT"
	BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
}

# The policies of a list that this build provides, comma-separated.
sim_available() {
	avail=$("$SIM" policies | awk '$2 == "available" { print $1 }')
	keep=""
	for p in $(echo "$1" | tr ',' ' '); do
		if echo "$avail" | grep -qx "$p"; then
			keep="${keep:+$keep,}$p"
		else
			echo "note: policy $p is not in this build yet; skipped" >&2
		fi
	done
	echo "$keep"
}

# A value of a summary JSON.
sim_get() {
	jq -r ".$2" "$1"
}

# Fail the script with a message when a shell test is false.
sim_assert() {
	msg=$1
	shift
	if "$@"; then
		echo "ok: $msg"
	else
		echo "FAILED: $msg" >&2
		SIM_FAILED=1
	fi
}

# awk comparison helper: sim_cmp A OP B (numbers, OP one of < <= > >= ==)
sim_cmp() {
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		if (op == "<") exit !(a < b); if (op == "<=") exit !(a <= b)
		if (op == ">") exit !(a > b); if (op == ">=") exit !(a >= b)
		if (op == "==") exit !(a == b); exit 2 }'
}

# Plots through gnuplot when it is installed; never fails the script.
sim_have_gnuplot() {
	command -v gnuplot >/dev/null 2>&1
}

# Running tasks per job over time (the papers' figure style) from a
# `deadline-sim run --timeline` file: PREFIX.png and PREFIX.svg.
sim_plot_timeline() {
	tl=$1 prefix=$2 title=$3
	sim_have_gnuplot || return 0
	# one data block per job: time, running maps, running reduces
	awk -F '\t' 'NR > 1 {
		if (!($2 in seen)) { seen[$2] = ++n; name[n] = $3 }
		k = seen[$2]; rows[k] = rows[k] $1 "\t" $4 "\t" $5 "\n"
	} END {
		for (k = 1; k <= n; k++) printf "# %s\n%s\n\n", name[k], rows[k]
		printf "%d", n > "/dev/stderr"
	}' "$tl" >"$prefix.blocks" 2>"$prefix.n"
	names=$(awk -F '\t' 'NR > 1 && !($2 in s) { s[$2] = 1; printf "%s ", $3 }' "$tl")
	for fmt in png svg; do
		gnuplot -e "infile='$prefix.blocks'; outfile='$prefix.$fmt'; fmt='$fmt'; njobs=$(cat "$prefix.n"); names='$names'; title='$title'" \
			"$BENCH_DIR/plot-timeline.gp" || echo "note: gnuplot failed for $prefix.$fmt" >&2
	done
	rm -f "$prefix.blocks" "$prefix.n"
}

# Mean of several run summaries (numbers averaged, the rest from the
# first), in the run summary format, with "runs": N added.
sim_mean_summaries() {
	out=$1
	shift
	jq -s '. as $all | ($all | length) as $n | $all[0] as $first
		| reduce ($first | keys[]) as $k ({};
			.[$k] = (if ($first[$k] | type) == "number"
				then ([$all[][$k]] | add) / $n
				else $first[$k] end))
		| .runs = $n' "$@" >"$out"
}
