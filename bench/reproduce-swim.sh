#!/bin/sh
# Replay one day of the SWIM Facebook 2009 trace with deadlines of k times
# each job's isolated completion time, k in {1.5, 2, 4}, and measure issue
# 11's objectives: every policy in one `deadline-sim compare` per (variant,
# k, seed), on the same workload, with the oracle bound.  Task counts and
# lengths come from the trace's bytes (deadline-sim gen swim;
# doc/simulator.md).  Variants:
#   plain   every job has a deadline, the policies learn task lengths as
#           the jobs run;
#   priors  the same with history priors (compare --priors: every phase's
#           mean and p90 known from the start, as the estimator gives them);
#   mixed   every other job without a deadline (the bounded slowdown of
#           jobs without deadlines), no priors.
#
#   reproduce-swim.sh [--out DIR] [--quick] [--sim PATH] [--jobs N]
#                     [--trace FB-2009.tsv] [--seeds N] [--ras-seeds N]
#                     [--variants plain,priors,mixed] [--ks 1.5,2,4]
#                     [--policies a,b]
#
# Policies: triage, edf, fifo, slurm, adaptive, ras, aria, fair.  ras takes
# minutes per run on the whole day: --ras-seeds N runs it on the first N
# seeds only (default: every seed).
# The full run needs the trace file (traces/swim-fb2009 of the project's
# shared data, FB-2009_samples_24_times_1hr_0.tsv); --quick replays
# bench/workloads/swim-fb2009-h08-10.json, hours 8-10 derived from it (643
# jobs), on the same 100-node cluster, one seed, the plain variant.
# Writes DIR/<variant>-k<K>/seed-S/ (summaries, oracle.json), DIR/swim.tsv
# (per variant, k and policy; sim-lib.sh's sim_aggregate), DIR/table.md,
# DIR/targets.txt and, with gnuplot, DIR/missed-vs-k.png/.svg.
# Claims checked (exit status 1 when one fails): no policy meets more
# deadlines than the oracle bound on any run; EDF misses fewer than FIFO;
# looser deadlines (k = 4) miss no more than tight ones (k = 1.5) under
# each policy; with --quick, triage misses no more than EDF.
set -eu
. "$(dirname "$0")/sim-lib.sh"
sim_parse_common "$@"
TRACE=
SEEDS=3
RAS_SEEDS=
VARIANTS="plain priors mixed"
KS="1.5 2 4"
WANT=triage,edf,fifo,slurm,adaptive,ras,aria,fair
if [ "$QUICK" = 1 ]; then
	SEEDS=1 VARIANTS=plain WANT=triage,edf,fifo,adaptive,aria
fi
set -- $REST
while [ $# -gt 0 ]; do
	case "$1" in
	--trace) [ $# -ge 2 ] || sim_die "--trace needs a file"; TRACE=$2; shift 2 ;;
	--seeds) [ $# -ge 2 ] || sim_die "--seeds needs a number"; SEEDS=$2; shift 2 ;;
	--ras-seeds) [ $# -ge 2 ] || sim_die "--ras-seeds needs a number"; RAS_SEEDS=$2; shift 2 ;;
	--variants) [ $# -ge 2 ] || sim_die "--variants needs a list"; VARIANTS=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--ks) [ $# -ge 2 ] || sim_die "--ks needs a list"; KS=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--policies) [ $# -ge 2 ] || sim_die "--policies needs a list"; WANT=$2; shift 2 ;;
	*) sim_die "unknown option $1" ;;
	esac
done
case "$SEEDS" in ''|*[!0-9]*|0) sim_die "--seeds expects a positive number" ;; esac
[ -n "$RAS_SEEDS" ] || RAS_SEEDS=$SEEDS
case "$RAS_SEEDS" in ''|*[!0-9]*) sim_die "--ras-seeds expects a number" ;; esac
for v in $VARIANTS; do
	case "$v" in plain|priors|mixed) ;; *) sim_die "unknown variant $v" ;; esac
done
POLICIES=$(sim_available "$WANT")
PLIST=$(echo "$POLICIES" | tr ',' ' ')
rm -f "$OUT/targets.txt"

if [ "$QUICK" = 1 ]; then
	cp "$BENCH_DIR/workloads/swim-fb2009-h08-10.json" "$OUT/workload-base.json"
	cp "$BENCH_DIR/workloads/swim-fb2009.cluster.json" "$OUT/cluster.json"
	WHAT="hours 8-10 (bench/workloads/swim-fb2009-h08-10.json)"
else
	[ -n "$TRACE" ] || sim_die "the full run needs --trace FB-2009_samples_24_times_1hr_0.tsv (or use --quick)"
	[ -r "$TRACE" ] || sim_die "cannot read the trace $TRACE"
	"$SIM" gen swim --trace "$TRACE" --k 1 --cluster-out "$OUT/cluster.json" >"$OUT/workload-base.json"
	WHAT="the whole day ($(basename "$TRACE"))"
fi
for v in $VARIANTS; do
	for k in $KS; do
		mkdir -p "$OUT/$v-k$k"
		if [ "$v" = mixed ]; then
			jq -c ".jobs |= [to_entries[] | if .key % 2 == 1
				then .value | del(.deadline_factor, .deadline, .relative_deadline)
				else .value | .deadline_factor = $k end]" \
				"$OUT/workload-base.json" >"$OUT/$v-k$k/workload.json"
		else
			jq -c ".jobs[].deadline_factor = $k" "$OUT/workload-base.json" >"$OUT/$v-k$k/workload.json"
		fi
	done
done
export SIM OUT POLICIES RAS_SEEDS
for v in $VARIANTS; do
	for k in $KS; do
		for s in $(seq 1 "$SEEDS"); do
			echo "$v $k $s"
		done
	done
done | xargs -P "$JOBS" -L 1 sh -c '
	d="$OUT/$1-k$2/seed-$3"
	pols=$POLICIES
	[ "$3" -le "$RAS_SEEDS" ] || pols=$(echo "$POLICIES" | tr "," "\n" | grep -vx ras | paste -sd, -)
	priors=""
	[ "$1" = priors ] && priors=--priors
	"$SIM" compare --cluster "$OUT/cluster.json" --workload "$OUT/$1-k$2/workload.json" \
		--policies "$pols" --seed "$3" $priors --out-dir "$d" >"$d.txt" 2>&1 &&
		rm -f "$d"/jobs-*.csv ||
		{ echo "compare failed: $1 k $2 seed $3" >&2; cat "$d.txt" >&2; }
' sh || true # a failed run is reported below
rm -f "$OUT"/*-k*/workload.json

SIM_FAILED=0
TSV=$OUT/swim.tsv
printf 'variant\tk\t%s\n' "$SIM_AGG_HEADER" >"$TSV"
for v in $VARIANTS; do
	for k in $KS; do
		for p in $PLIST oracle; do
			file=summary-$p.json want=$SEEDS
			[ "$p" = oracle ] && file=oracle.json
			[ "$p" = ras ] && want=$RAS_SEEDS
			n=0
			for s in $(seq 1 "$SEEDS"); do
				row=$(sim_row "$OUT/$v-k$k/seed-$s/$file")
				[ -n "$row" ] || continue
				n=$((n + 1))
				printf '%s\t%s\t%s\t%s\n' "$v" "$k" "$p" "$row"
			done
			if [ "$n" -lt "$want" ]; then
				echo "FAILED: $p $v k=$k: $n of $want runs" >&2
				SIM_FAILED=1
			fi
		done
	done
done | sim_aggregate 2 >>"$TSV"
col() { sim_col "$TSV" 2 "$@"; }
fmt() { awk -v p="$1" '{ if ($1 == "-" || $1 == "") print "-"; else printf "%.*f", p, $1 }'; }

{
	echo "## SWIM Facebook 2009, $WHAT: deadlines = k x isolated time, $SEEDS seed(s)"
	[ "$RAS_SEEDS" -lt "$SEEDS" ] && echo "(ras: the first $RAS_SEEDS seed(s) only)"
	echo "jobs: $(jq '.jobs' "$OUT/$(echo "$VARIANTS" | awk '{ print $1 }')-k$(echo "$KS" | awk '{ print $1 }')/seed-1/summary-$(echo "$PLIST" | awk '{ print $1 }').json" 2>/dev/null)"
	for v in $VARIANTS; do
		echo
		case "$v" in
		plain) echo "### Every job with a deadline, task lengths learnt as the jobs run" ;;
		priors) echo "### Every job with a deadline, history priors (--priors)" ;;
		mixed) echo "### Every other job without a deadline" ;;
		esac
		echo
		printf '| policy |'
		for k in $KS; do printf ' missed %%, k = %s |' "$k"; done
		for k in $KS; do printf ' late min, k = %s |' "$k"; done
		[ "$v" = mixed ] && for k in $KS; do printf ' bsld, k = %s |' "$k"; done
		printf '\n|---|'
		for k in $KS; do printf -- '---|---|'; done
		[ "$v" = mixed ] && for k in $KS; do printf -- '---|'; done
		echo
		for p in $PLIST oracle; do
			printf '| %s |' "$p"
			for k in $KS; do
				if [ "$p" = oracle ]; then
					printf ' %s |' "$(col missed_pct "$v" "$k" "$p" | fmt 2)"
				else
					printf ' %s (%s) |' "$(col missed_pct "$v" "$k" "$p" | fmt 2)" \
						"$(col missed_sd "$v" "$k" "$p" | fmt 2)"
				fi
			done
			for k in $KS; do
				m=$(col late_mean_s "$v" "$k" "$p" | awk '{ if ($1 == "-" || $1 == "") print "-"; else printf "%.1f", $1 / 60 }')
				q=$(col late_p95_s "$v" "$k" "$p" | awk '{ if ($1 == "-" || $1 == "") print "-"; else printf "%.1f", $1 / 60 }')
				if [ "$p" = oracle ]; then printf ' |'; else printf ' %s / %s |' "$m" "$q"; fi
			done
			if [ "$v" = mixed ]; then
				for k in $KS; do
					if [ "$p" = oracle ]; then
						printf ' |'
					else
						printf ' %s / %s |' "$(col bsld_mean "$v" "$k" "$p" | fmt 2)" \
							"$(col bsld_p95 "$v" "$k" "$p" | fmt 2)"
					fi
				done
			fi
			echo
		done
	done
	echo
	echo "missed %: mean (sd) over the seeds; late min: lateness of the late jobs in minutes, mean over all of them / mean over the seeds of the p95; bsld: bounded slowdown of the jobs without a deadline, mean / p95; oracle: the tightened bound"
	echo "slurm treats deadlines as --deadline: a task starts only by deadline - time limit (at least one minute), so short jobs are cancelled"
} | tee "$OUT/table.md"

# claims
for v in $VARIANTS; do
	for k in $KS; do
		for s in $(seq 1 "$SEEDS"); do
			d=$OUT/$v-k$k/seed-$s
			[ -f "$d/oracle.json" ] || continue
			for p in $PLIST; do
				[ -f "$d/summary-$p.json" ] || continue
				sim_assert "$v k $k seed $s: $p meets no more than the oracle bound" \
					sim_cmp "$(sim_get "$d/summary-$p.json" met)" '<=' "$(sim_get "$d/oracle.json" met_bound)"
			done
		done
		e=$(col missed_pct "$v" "$k" edf) f=$(col missed_pct "$v" "$k" fifo)
		[ -n "$e" ] && [ -n "$f" ] && sim_assert "$v k $k: EDF misses fewer deadlines than FIFO" sim_cmp "$e" '<' "$f"
	done
	for p in $PLIST; do
		a=$(col missed_pct "$v" 4 "$p") b=$(col missed_pct "$v" 1.5 "$p")
		[ -n "$a" ] && [ -n "$b" ] || continue
		sim_assert "$v $p: k = 4 misses no more deadlines than k = 1.5" sim_cmp "$a" '<=' "$b"
	done
done

# issue 11's targets
ok() { if "$@"; then echo 1; else echo 0; fi; }
for v in $VARIANTS; do
	for k in $KS; do
		t=$(col missed_pct "$v" "$k" triage) e=$(col missed_pct "$v" "$k" edf)
		[ -n "$t" ] && [ -n "$e" ] || continue
		# the same jobs under every policy: compare deadlines met
		tm=$(col met "$v" "$k" triage) em=$(col met "$v" "$k" edf)
		met=$(awk -v a="$tm" -v b="$em" 'BEGIN { printf "met %.1f vs %.1f a run", a, b }')
		sim_target "$(ok sim_cmp "$tm" '>=' "$em")" "$v k $k: triage misses no more than EDF ($t % vs $e %; $met)"
		[ "$QUICK" = 1 ] && sim_assert "$v k $k: triage misses no more than EDF" sim_cmp "$tm" '>=' "$em"
		[ "$v" = mixed ] || continue
		tl=$(col late_mean_s "$v" "$k" triage) el=$(col late_mean_s "$v" "$k" edf)
		if [ "$tl" != - ] && [ "$el" != - ]; then
			sim_target "$(ok sim_cmp "$tl" '<=' "$(awk -v e="$el" 'BEGIN { print 2 * e }')")" \
				"$v k $k: triage's late jobs are late by at most 2x EDF's (mean $tl s vs $el s)"
		fi
		# shellcheck disable=SC2046
		sim_lateness_bound "$v k $k" "" \
			$(for s in $(seq 1 "$SEEDS"); do echo "$OUT/$v-k$k/seed-$s"; done)
		tb=$(col bsld_mean "$v" "$k" triage) eb=$(col bsld_mean "$v" "$k" edf)
		if [ "$tb" != - ] && [ "$eb" != - ]; then
			sim_target "$(ok sim_cmp "$tb" '<=' "$eb")" \
				"$v k $k: bounded slowdown of jobs without deadlines no worse than EDF's ($tb vs $eb)"
		fi
	done
done

if [ "$(echo "$KS" | wc -w)" -gt 1 ]; then
	sorted=$OUT/swim.sorted
	tail -n +2 "$TSV" | sort -t "$(printf '\t')" -k1,1 -k3,3 -k2,2n >"$sorted"
	sim_plot "$sorted" "$OUT/missed-vs-k" panels="$VARIANTS" panelcol=1 \
		paneltitle="%s" policycol=3 xcol=2 ycol=5 errcol=6 \
		policies="$(echo "$PLIST" | tr ' ' '\n' | grep -vx slurm | paste -sd ' ' -)" \
		xlabel="k (deadline = k x isolated time)" ylabel="missed deadlines (%)" logy=0 \
		title="SWIM FB-2009: missed deadlines vs k ($SEEDS seeds; slurm, which cancels most jobs, left out)"
	rm -f "$sorted"
fi
echo "results in $OUT"
exit "$SIM_FAILED"
