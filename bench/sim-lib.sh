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

# ------------------------------------------------------------------------
# Aggregation over seeds: the metrics of issue 11 for every policy.
#
# sim_row FILE: one run summary (summary-<policy>.json) or oracle.json as
# the tab-separated values sim_aggregate reads: missed_pct, late_jobs,
# mean_tardiness_s, p95_tardiness_s, nodl_jobs, bsld_mean, bsld_p95, met,
# accept_ratio, success_ratio, utilization, unfinished, impossible_alone
# (empty where a file has no such value).  Nothing when FILE is missing.
sim_row() {
	[ -f "$1" ] || return 0
	jq -r 'if has("met_bound") then
			[.missed_pct, "", "", "", "", "", "", .met_bound, "", "", "",
			 "", (.impossible_alone // "")]
		else
			[.missed_pct, .late_jobs, .mean_tardiness_s, .p95_tardiness_s,
			 .nodl_jobs, .bsld_mean, .bsld_p95, .met, .accept_ratio,
			 .success_ratio, .utilization, .unfinished, ""]
		end | map(tostring) | join("\t")' "$1"
}

# The header of sim_aggregate's output after the NK key columns.
SIM_AGG_HEADER='policy	runs	missed_pct	missed_sd	late_jobs	late_mean_s	late_p95_s	nodl_jobs	bsld_mean	bsld_p95	met	met_min	met_max	accept	success	util	unfinished_max	impossible_alone'

# sim_aggregate NK: reads lines "key1..keyNK <tab> policy <tab> sim_row
# values" (one per run) and prints one line per (keys, policy), in the order
# first seen: runs; the mean and sd of missed %; the late jobs per run;
# the late jobs' lateness pooled over the runs (mean over all late jobs)
# and the mean over runs of its p95; likewise the bounded slowdown of the
# jobs without a deadline; met (mean, min, max); accept and success ratios
# and utilisation (means); the most unfinished jobs of a run; the jobs the
# oracle writes off alone (mean).  "-" where no run has a value.
sim_aggregate() {
	awk -F '\t' -v nk="$1" '
	function put(v, last) { printf "%s%s", v, last ? "\n" : "\t" }
	function mean(s, n) { return n ? sprintf("%.4f", s / n) : "-" }
	{
		key = $1
		for (i = 2; i <= nk + 1; i++) key = key "\t" $i
		if (!(key in runs)) order[++nkeys] = key
		runs[key]++
		b = nk + 1 # values start at $(b + 1)
		if ($(b + 1) != "") { ms[key] += $(b + 1); mq[key] += $(b + 1) * $(b + 1); mn[key]++ }
		if ($(b + 2) != "") {
			lj[key] += $(b + 2); ljn[key]++
			if ($(b + 2) > 0) { ls[key] += $(b + 2) * $(b + 3); lp[key] += $(b + 4); lpn[key]++ }
		}
		if ($(b + 5) != "") {
			nd[key] += $(b + 5); ndn[key]++
			if ($(b + 5) > 0) { bs[key] += $(b + 5) * $(b + 6); bp[key] += $(b + 7); bpn[key]++ }
		}
		if ($(b + 8) != "") {
			me[key] += $(b + 8); men[key]++
			if (!(key in mlo) || $(b + 8) < mlo[key]) mlo[key] = $(b + 8)
			if (!(key in mhi) || $(b + 8) > mhi[key]) mhi[key] = $(b + 8)
		}
		if ($(b + 9) != "") { ac[key] += $(b + 9); acn[key]++ }
		if ($(b + 10) != "") { sc[key] += $(b + 10); scn[key]++ }
		if ($(b + 11) != "") { ut[key] += $(b + 11); utn[key]++ }
		if ($(b + 12) != "" && (!(key in uf) || $(b + 12) > uf[key])) uf[key] = $(b + 12)
		if ($(b + 13) != "") { ia[key] += $(b + 13); ian[key]++ }
	}
	END {
		for (k = 1; k <= nkeys; k++) {
			key = order[k]
			put(key); put(runs[key])
			n = mn[key]; m = n ? ms[key] / n : 0
			v = n > 1 ? (mq[key] - n * m * m) / (n - 1) : 0
			put(n ? sprintf("%.3f", m) : "-"); put(n ? sprintf("%.3f", v > 0 ? sqrt(v) : 0) : "-")
			put(mean(lj[key], ljn[key]))
			put(lj[key] > 0 ? sprintf("%.1f", ls[key] / lj[key]) : "-")
			put(lpn[key] ? sprintf("%.1f", lp[key] / lpn[key]) : "-")
			put(mean(nd[key], ndn[key]))
			put(nd[key] > 0 ? sprintf("%.3f", bs[key] / nd[key]) : "-")
			put(bpn[key] ? sprintf("%.3f", bp[key] / bpn[key]) : "-")
			put(mean(me[key], men[key]))
			put(men[key] ? mlo[key] : "-"); put(men[key] ? mhi[key] : "-")
			put(mean(ac[key], acn[key])); put(mean(sc[key], scn[key])); put(mean(ut[key], utn[key]))
			put(key in uf ? uf[key] : "-")
			put(mean(ia[key], ian[key]), 1)
		}
	}'
}

# sim_col TSV NK COLUMN KEY1 .. KEYNK POLICY: one aggregated value (empty
# when absent).  COLUMN is a name of SIM_AGG_HEADER.
sim_col() {
	tsv=$1 nk=$2 col=$3
	shift 3
	awk -F '\t' -v nk="$nk" -v col="$col" -v want="$(printf '%s\t' "$@")" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
	{ k = ""; for (i = 1; i <= nk + 1; i++) k = k $i "\t"; if (k == want && c) { print $c; exit } }' "$tsv"
}

# sim_target OK MESSAGE: a target of issue 11, recorded in $OUT/targets.txt
# ("met" or "MISSED"); it does not change the exit status.
sim_target() {
	if [ "$1" = 1 ]; then
		echo "target met: $2" | tee -a "$OUT/targets.txt"
	else
		echo "target MISSED: $2" | tee -a "$OUT/targets.txt"
	fi
}

# sim_lateness_bound LABEL CAP DIR...: the lateness bound (doc/simulator.md)
# against issue 11's lateness target, over the runs in DIR... (each with
# oracle.json, summary-edf.json and summary-triage.json; runs without them
# are skipped), into $OUT/targets.txt.  In any schedule that runs every job
# to its end, m late jobs are late by at least F(m) / m on average, F(m)
# the bound plus, with its layers (oracle.json's tardiness_lb_segments and
# _gaps_s), the shortest gaps of the runs' layers that m late jobs in all
# must cover (the runs' segments - m of them; none below the layers'
# heights).  The line gives the fewest late jobs at which they can be within
# 2x EDF's mean; CAP (points above the deadline bound, or empty) is a
# deadline target's cap on the misses, and a line says whether that cap
# already rules the lateness target out, another whether triage's own
# number of late jobs does.  Everything is counted over the bound's set: the
# jobs with a deadline that arrive in the window (summaries' arrived_*).
sim_lateness_bound() {
	label=$1 cap=$2
	shift 2
	files=
	for d; do
		[ -f "$d/oracle.json" ] && [ -f "$d/summary-edf.json" ] &&
			[ -f "$d/summary-triage.json" ] && files="$files $d"
	done
	[ -n "$files" ] || return 0
	# every run's gaps, ascending, one a line (none: no layers written)
	gapfile=$OUT/.lateness-gaps
	# shellcheck disable=SC2086
	for d in $files; do
		jq -c '.tardiness_lb_gaps_s // []' "$d/oracle.json"
	done | jq -s -r 'add | sort | .[]' >"$gapfile"
	# shellcheck disable=SC2086
	vals=$(for d in $files; do
		jq -r --slurpfile e "$d/summary-edf.json" --slurpfile t "$d/summary-triage.json" \
			'[.tardiness_lb_s // -1, .missed_pct, $e[0].arrived_deadline_jobs // 0,
			  $e[0].arrived_late_jobs // 0, $e[0].arrived_lateness_s // 0,
			  $t[0].arrived_late_jobs // 0, $t[0].arrived_lateness_s // 0,
			  .tardiness_lb_segments // -1, .tardiness_lb_height // 0]
			 | map(tostring) | join(" ")' "$d/oracle.json"
	done)
	echo "$vals" | awk -v label="$label" -v cap="$cap" -v gapfile="$gapfile" '
	BEGIN { while ((getline g < gapfile) > 0) { ng++; cum[ng] = cum[ng - 1] + g } }
	{ if ($1 < 0) old = 1; lb += $1; om += $2; nd += $3; if ($3 > nmax) nmax = $3
	  el += $4; et += $5; tl += $6; tt += $7; n++
	  if ($8 < 0) nolayers = 1; segs += $8; height += $9 }
	# the least total lateness with at most m late jobs in all
	function at_most(m,    k) {
		if (nolayers || m >= segs) return lb
		if (m < height) return -1
		k = segs - m
		return k > ng ? -1 : lb + cum[k]
	}
	# whether m late jobs in all are late by more than 2x EDF s mean
	function beyond(m,    f) {
		m = int(m)
		if (m < 1) return 1
		f = at_most(m)
		return f < 0 || f / m > 2 * em
	}
	END {
		if (old) exit
		printf "lateness bound: %s: the late jobs are late by %.0f s a run in all, at least; ", label, lb / n
		if (lb <= 0) { printf "no lateness is forced (every deadline fits the relaxation)\n"; exit }
		if (el <= 0) { printf "EDF has no late jobs\n"; exit }
		em = et / el
		# F(m) / m falls as m grows: the fewest m within 2x
		need = int(lb / (2 * em))
		while (beyond(need)) need++
		printf "late by at most 2x EDF'"'"'s mean (2 x %.0f s) needs at least %.1f late jobs a run (%.2f %% of %.1f deadlines", em, need / n, 100 * need / nd, nd / n
		if (!nolayers) printf "; the layers have %.1f segments a run", segs / n
		printf "); triage has %.1f, late by %.0f s on average (over the jobs that arrive in the window)\n", tl / n, tl ? tt / tl : 0
		if (tl > 0 && beyond(tl))
			printf "lateness bound: %s: a schedule with no more late jobs than triage (%.1f a run) has them late by at least %.0f s on average, more than 2x EDF'"'"'s %.0f s: out of reach at triage'"'"'s misses (proven)\n", label, tl / n, at_most(tl) < 0 ? 1e99 : at_most(tl) / tl, em
		if (cap == "") exit
		most = int(nmax * n * (om / n + cap) / 100)
		printf "lateness bound: %s: within %s points of the deadline bound (%.2f %%) a schedule misses at most %d deadlines over the %d runs, so its late jobs are late by at least %.0f s on average: ", label, cap, om / n, most, n, most < 1 || at_most(most) < 0 ? 1e99 : at_most(most) / most
		if (beyond(most))
			printf "more than 2x EDF'"'"'s %.0f s: the two targets cannot both be met (proven)\n", em
		else
			printf "not more than 2x EDF'"'"'s %.0f s: the bound does not rule the lateness target out\n", em
	}' | tee -a "$OUT/targets.txt"
	rm -f "$gapfile"
}

# sim_plot INFILE PREFIX VAR=VALUE...: bench/plot-metric.gp to PREFIX.png
# and PREFIX.svg (gnuplot variables, see the script); never fails.
sim_plot() {
	infile=$1 prefix=$2
	shift 2
	sim_have_gnuplot || return 0
	for fmt in png svg; do
		args="infile='$infile'; outfile='$prefix.$fmt'; fmt='$fmt'"
		for a in "$@"; do
			args="$args; ${a%%=*}='${a#*=}'"
		done
		gnuplot -e "$args" "$BENCH_DIR/plot-metric.gp" ||
			echo "note: gnuplot failed for $prefix.$fmt" >&2
	done
}
