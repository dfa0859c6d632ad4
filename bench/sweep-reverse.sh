#!/bin/sh
# Robustness sweep: triage against EDF on workload shapes nobody tuned it
# on.  The reverse family's generator (deadline-sim gen reverse) over the
# full grid of
#   task length      30, 390, 3000 s
#   job size         4 (sd 2), 62 (sd 15.5), 300 (sd 150) tasks, lognormal
#   cluster          30, 100, 400 nodes of one CPU
#   deadline factor  1.2-2.5x or 1.5-8x the isolated time
#   load             0.6, 0.95
#   external load    the Twitter trace (peak 0.7) or none
# = 216 shapes, each with --seeds seeds (default 2).  A shape runs for 2
# days, or shorter so that it has at most --max-jobs jobs (default 4000);
# the first and last quarter are margins, not counted.  Task lengths are
# known to every policy (as in the family).
#
#   sweep-reverse.sh [--out DIR] [--sim PATH] [--jobs N] [--seeds N]
#                    [--max-jobs N] [--quick]
#
# --quick: one seed, at most 300 jobs a shape (a check that it runs).
# Writes DIR/sNNN/ per shape (params, cluster and workload per seed, the
# summaries), DIR/sweep.tsv (a line per shape: its parameters, the counted
# jobs, and for triage and EDF the misses and the late jobs' summed
# lateness over the seeds) and DIR/table.md (how many shapes triage misses
# fewer, as many or more deadlines than EDF in, the totals, and every shape
# where it misses more).  No claims are checked: it reports.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
SEEDS=2 MAXJOBS=4000
[ "$QUICK" = 1 ] && SEEDS=1 MAXJOBS=300
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	--max-jobs) [ $# -ge 2 ] || sim_die "--max-jobs needs a number"; MAXJOBS=$2; shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
case "$SEEDS" in ''|*[!0-9]*|0) sim_die "--seeds expects a positive number" ;; esac
case "$MAXJOBS" in ''|*[!0-9]*|0) sim_die "--max-jobs expects a positive number" ;; esac
FORECAST=$BENCH_DIR/workloads/twitter-2021-load.txt
[ -r "$FORECAST" ] || sim_die "missing $FORECAST"

# the grid, one line per shape: id length size sd nodes fmin fmax load ext
grid() {
	i=0
	for tl in 30 390 3000; do
	for sz in 4:2 62:15.5 300:150; do
	for nodes in 30 100 400; do
	for fac in 1.2:2.5 1.5:8; do
	for load in 0.6 0.95; do
	for ext in twitter none; do
		i=$((i + 1))
		printf 's%03d %s %s %s %s %s %s %s %s\n' "$i" "$tl" \
			"${sz%%:*}" "${sz##*:}" "$nodes" "${fac%%:*}" \
			"${fac##*:}" "$load" "$ext"
	done; done; done; done; done; done
}

RUNS=$OUT/runs.txt
: > "$RUNS"
grid | while read -r id tl sz sd nodes fmin fmax load ext; do
	d=$OUT/$id
	mkdir -p "$d"
	days=$(awk -v m="$MAXJOBS" -v s="$sz" -v t="$tl" -v l="$load" \
		-v n="$nodes" 'BEGIN { d = m * s * t / (l * n * 86400);
		if (d > 2) d = 2; if (d < 0.05) d = 0.05; printf "%.4f", d }')
	margin=$(awk -v d="$days" 'BEGIN { printf "%.4f", d / 4 }')
	echo "length=$tl size=$sz/$sd nodes=$nodes factor=$fmin-$fmax load=$load external=$ext days=$days" > "$d/params"
	fc=""
	[ "$ext" = twitter ] && fc="--forecast $FORECAST --ext-peak 0.7"
	s=1
	while [ "$s" -le "$SEEDS" ]; do
		# shellcheck disable=SC2086
		"$SIM" gen reverse --seed "$s" --cluster-out "$d/cluster-$s.json" \
			--load "$load" --min-factor "$fmin" --max-factor "$fmax" \
			--days "$days" --margin-days "$margin" --nodes "$nodes" \
			--task-length "$tl" --size-mean "$sz" --size-sd "$sd" \
			$fc > "$d/workload-$s.json" ||
			sim_die "gen failed for $id seed $s"
		for p in triage edf; do
			echo "$d $s $p" >> "$RUNS"
		done
		s=$((s + 1))
	done
done
echo "$(wc -l < "$RUNS") runs of $(grid | wc -l) shapes, $JOBS at a time"
export SIM
xargs -P "$JOBS" -L 1 sh -c '"$SIM" run --cluster "$1/cluster-$2.json" \
	--workload "$1/workload-$2.json" --policy "$3" --seed "$2" \
	--summary-json "$1/$3-$2.json" > /dev/null 2>&1 ||
	echo "run failed: $1 seed $2 $3" >&2' sh < "$RUNS"

TSV=$OUT/sweep.tsv
printf 'shape\tlength\tsize\tnodes\tfactor\tload\texternal\tdays\tjobs\ttriage_missed\tedf_missed\ttriage_late_s\tedf_late_s\n' > "$TSV"
grid | while read -r id tl sz sd nodes fmin fmax load ext; do
	d=$OUT/$id
	for p in triage edf; do
		jq -s '[(map(.deadline_jobs) | add),
			(map(.missed) | add),
			(map(.late_jobs * .mean_tardiness_s) | add)] | @tsv' \
			-r "$d"/$p-*.json > "$d/$p.sum" ||
			sim_die "missing summaries in $d"
	done
	IFS='	' read -r jobs tm tl_s < "$d/triage.sum"
	IFS='	' read -r _ em el_s < "$d/edf.sum"
	days=$(sed -n 's/.*days=//p' "$d/params")
	printf '%s\t%s\t%s\t%s\t%s-%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%.0f\n' \
		"$id" "$tl" "$sz" "$nodes" "$fmin" "$fmax" "$load" "$ext" \
		"$days" "$jobs" "$tm" "$em" "$tl_s" "$el_s" >> "$TSV"
done

awk -F '\t' -v seeds="$SEEDS" 'NR > 1 {
	n++; tj += $9; tt += $10; te += $11
	if ($10 < $11) fewer++; else if ($10 == $11) same++; else {
		more++
		worse = worse sprintf("| %s | %s s | %s | %s | %s | %s | %s | %s | %s |\n",
			$1, $2, $3, $4, $5, $6, $7, $10, $11)
	}
} END {
	printf "## Reverse-family shapes: triage against EDF, %d shapes x %d seed(s)\n\n", n, seeds
	printf "| | shapes |\n|---|---:|\n"
	printf "| triage misses fewer than EDF | %d |\n| as many | %d |\n| more | %d |\n\n", fewer, same, more
	printf "Missed over every shape and seed: triage %d, EDF %d, of %d counted jobs.\n\n", tt, te, tj
	if (more) {
		printf "Shapes where triage misses more:\n\n"
		printf "| shape | task length | size | nodes | factor | load | external | triage | EDF |\n"
		printf "|---|---|---|---|---|---|---|---:|---:|\n%s", worse
	}
}' "$TSV" > "$OUT/table.md"
cat "$OUT/table.md"
echo "results in $OUT"
