#!/bin/bash
# Benchmark: replay a slice of the SWIM Facebook 2009 trace on the local
# cluster (contrib/localcluster, 16 nodes x 2 CPUs) under four schedulers in
# one run -- sched/backfill as Slurm ships it, sched/deadline with
# Policy=edf, adaptive and triage -- and run deadline-sim on exactly the
# same workload, to compare the simulator's predicted misses with the real
# ones (issue 11, item 5; doc/simulator.md, "Replay on real Slurm", explains
# every choice).
#
#   sudo bench/replay-swim.sh --trace FB-2009_samples_24_times_1hr_0.tsv [options]
#
# The workload is made once, as deadline-sim workload JSON (WORK/workload.json):
# `deadline-sim gen swim` on the trace window, scaled to the cluster (jq),
# then `deadline-sim draw` fixes every task's length, time limit and
# deadline.  The Slurm submissions are derived from that file: each job is
# submitted at its (scaled) arrival, a MapReduce job with smapreduce, a
# map-only job with sbatch --array, both with --soft-deadline (jobs without
# a deadline with plain sbatch, the reduce array --dependency=afterok); each
# task sleeps its own length (bench/replay-task.sh).  Every scheduler gets
# the same submissions on a fresh cluster; Slurm ignores the soft deadlines
# under sched/backfill.  Outcomes come from Slurm's jobcomp records: a job
# met its deadline when every task completed and the last ended by it.
#
# Options (defaults in brackets):
#   --trace FILE          the SWIM trace (.tsv) [required]
#   --from S --to S       trace window, submissions in [S, S) [77400 79200]
#   --time-scale A        arrivals A times faster than in the trace [4]
#   --task-div D          task counts divided by D, rounded up [16]
#   --max-maps N          at most N map tasks per job [128]
#   --max-reduces N       at most N reduce tasks per job [16]
#   --length-scale L      task lengths times L [1]
#   --min-length S        shortest task, seconds [3]
#   --max-length S        longest task, seconds [120]
#   --k K                 deadline = K x the job's isolated time [1.5]
#   --no-deadline F       share of jobs without a deadline [0.2]
#   --seed N              gen, draws and the no-deadline choice [1]
#   --schedulers LIST     of backfill,edf,adaptive,triage [all four]
#   --plan-interval S     PlanInterval of deadline.conf [10]
#   --replan-delay S      ReplanDelay of deadline.conf [1]
#   --history N           the jobs ran N times before: the cluster's
#                         deadline-estimatord is given the tasks of N more
#                         draws of the same jobs (their "earlier days"),
#                         and the simulator the estimator's answers as
#                         priors [0: no estimator, each job learns from its
#                         own tasks]
#   --param NAME=VALUE    one more deadline.conf line for every sched/deadline
#                         run and its simulation (repeatable), e.g.
#                         --param BlockingReserve=0 [none]
#   --model FILE          the a-priori model of Slurm [bench/replay-model.json]:
#                         per scheduler kind ("deadline", "backfill") the
#                         task overhead as a distribution (each simulated
#                         task draws its own) and the dispatch latency or
#                         batch_sched_delay; fitted with --fit-model on
#                         earlier runs, never on the run it predicts
#   --draws N             the prediction is the median over N simulator
#                         runs with different overhead draws [9]
#   --overhead S          the previous model, shown beside it: a constant
#                         task_overhead [0.8] ...
#   --latency-deadline S  ... and dispatch_latency for sched/deadline [0.4]
#   --batch-sched-delay S ... and batch_sched_delay for sched/backfill [3]
#                         (each run is also simulated with its own measured
#                         overheads and latency, "calibrated")
#   --fit-model DIR[,DIR...]  write --model FILE from the measured overheads
#                         and latencies of earlier runs (their --work
#                         directories) and exit; without a sched/backfill
#                         run among them the model's backfill part is kept
#   --max-wait S          per scheduler, wait at most S after the last
#                         submission for the queue to empty [1200]
#   --build DIR           build tree [./build]
#   --work DIR            working directory [/tmp/slurm-deadline-replay-swim]
#   --port-base P         local cluster ports [20080]
#   --out FILE            write the Markdown report there (and the plot
#                         next to it, FILE without .md + .png)
#   --sim-only            make the workload and simulate it; no Slurm
#   --report DIR[,DIR...] only write the report (--out) of earlier runs
#                         (their --work directories), e.g. two seeds; the
#                         simulator's predictions are made again with the
#                         current --model and deadline-sim
set -euo pipefail
# The whole script is one brace group: bash reads it all before running
# any of it, so editing this file during a run (20 minutes and more) does
# not change the run.
{
cd "$(dirname "$0")/.."
top=$(pwd)

trace=""
from=77400
to=79200
time_scale=4
task_div=16
max_maps=128
max_reduces=16
length_scale=1
min_length=3
max_length=120
k=1.5
no_deadline=0.2
seed=1
schedulers=backfill,edf,adaptive,triage
plan_interval=10
replan_delay=1
conf_params="" # --param lines, space-separated
overhead=0.8
lat_deadline=0.4
batch_sched_delay=3
model=""
draws=9
fit_dirs=""
m_overhead="" m_lat="" m_bsd="" # a run's own (load_meta)
max_wait=1200
build=$top/build
work=/tmp/slurm-deadline-replay-swim
port_base=20080
out=""
sim_only=0
report_dirs=""
history=0
args=("$@")

die() { echo "replay-swim: $*" >&2; exit 1; }
say() { echo "replay-swim: $*" >&2; }
number() { [[ $2 =~ ^[0-9]+([.][0-9]+)?$ ]] || die "$1 expects a number, got '$2'"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--sim-only) sim_only=1; shift; continue ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	esac
	[ $# -ge 2 ] || die "$1 needs a value"
	case "$1" in
	--trace) trace=$2 ;;
	--from) number "$1" "$2"; from=$2 ;;
	--to) number "$1" "$2"; to=$2 ;;
	--time-scale) number "$1" "$2"; time_scale=$2 ;;
	--task-div) number "$1" "$2"; task_div=$2 ;;
	--max-maps) number "$1" "$2"; max_maps=$2 ;;
	--max-reduces) number "$1" "$2"; max_reduces=$2 ;;
	--length-scale) number "$1" "$2"; length_scale=$2 ;;
	--min-length) number "$1" "$2"; min_length=$2 ;;
	--max-length) number "$1" "$2"; max_length=$2 ;;
	--k) number "$1" "$2"; k=$2 ;;
	--no-deadline) number "$1" "$2"; no_deadline=$2 ;;
	--seed) [[ $2 =~ ^[0-9]+$ ]] || die "--seed expects an integer"; seed=$2 ;;
	--history) [[ $2 =~ ^[0-9]+$ ]] || die "--history expects an integer"; history=$2 ;;
	--schedulers) schedulers=$2 ;;
	--plan-interval) number "$1" "$2"; plan_interval=$2 ;;
	--replan-delay) number "$1" "$2"; replan_delay=$2 ;;
	--param)
		[[ $2 =~ ^[A-Za-z][A-Za-z0-9]*=[^[:space:]]+$ ]] || die "--param expects NAME=VALUE without spaces"
		conf_params="${conf_params:+$conf_params }$2" ;;
	--overhead) number "$1" "$2"; overhead=$2 ;;
	--latency-deadline) number "$1" "$2"; lat_deadline=$2 ;;
	--batch-sched-delay) number "$1" "$2"; batch_sched_delay=$2 ;;
	--max-wait) number "$1" "$2"; max_wait=$2 ;;
	--model) model=$2 ;;
	--draws) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--draws expects a positive integer"; draws=$2 ;;
	--fit-model) fit_dirs=$2 ;;
	--build) build=$2 ;;
	--work) work=$2 ;;
	--port-base) number "$1" "$2"; port_base=$2 ;;
	--out) out=$2 ;;
	--report) report_dirs=$2 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
	shift 2
done

# One outcome line per job, the same for the simulator and Slurm:
# index arrival deadline finish isolated (seconds from the replay's start;
# deadline "-" for none, finish "-" when the job did not complete).  The
# simulator's finish is cut to whole seconds as Slurm records an end time
# (time_t): a job ending 117.4 s after the start is "117" in Slurm's
# records and meets a deadline of 117.
sim_outcomes() { # jobs csv
	awk -F, 'NR > 1 {
		printf "%d\t%s\t%s\t%s\t%s\n", $1 - 1, $4, ($5 == "" ? "-" : $5),
			($10 == "" || $13 == 1 ? "-" : int($10)), $17
	}' "$1"
}

# jobs with a deadline, missed, missed %, mean and p95 lateness of the jobs
# that finished late (s), jobs that did not finish, mean bounded slowdown
# of the jobs without a deadline (response / max(isolated, 10 s)).
metrics() { # outcome file
	sort -t$'\t' -k1,1n "$1" | awk -F'\t' '
	$3 != "-" {
		n++
		if ($4 == "-") { missed++; unfin++; next }
		if ($4 > $3) { missed++; late[++nl] = $4 - $3; sum += $4 - $3 }
		next
	}
	$4 != "-" { m++; iso = $5 < 10 ? 10 : $5; sd += ($4 - $2) / iso }
	END {
		asort_n(late, nl)
		p95 = nl ? late[int(0.95 * nl + 0.999999) > nl ? nl : int(0.95 * nl + 0.999999)] : 0
		printf "%d\t%d\t%.1f\t%.1f\t%.1f\t%d\t%.2f\n", n, missed,
			n ? 100 * missed / n : 0, nl ? sum / nl : 0, p95, unfin,
			m ? sd / m : 0
	}
	# insertion sort (mawk has no asort)
	function asort_n(a, k,   i, j, v) {
		for (i = 2; i <= k; i++) {
			v = a[i]
			for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]
			a[j + 1] = v
		}
	}'
}

# the simulator's policy for each scheduler: Slurm's backfill without the
# plugin is submission order with no throttle (soft deadlines ignored)
sim_policy() { [ "$1" = backfill ] && echo fifo || echo "$1"; }

# deadline.conf of the runs and of the simulator
# (the simulator's never names an estimator; with --history, a real run's
# leaves the line to localcluster, which starts the cluster's own)
deadline_conf() { # policy [real]
	printf 'Policy=%s\nPlanInterval=%s\nReplanDelay=%s\n' "$1" "$plan_interval" "$replan_delay"
	if [ "${2:-}" != real ] || [ "$history" = 0 ]; then
		printf '# no estimator: each job'"'"'s own tasks%s\nEstimatorSocket=""\n' \
			"$([ "$history" = 0 ] && echo ", as in the simulator" || echo "; the history's answers are the workload's priors")"
	fi
	local p
	for p in $conf_params; do printf '%s\n' "$p"; done
}

# quantile helper for the diagnostics: "n mean p50 p90" of column 1
stats() {
	sort -g | awk '{ v[++n] = $1; s += $1 }
	END {
		if (!n) { print "0 - - -"; exit }
		q50 = int(0.5 * n + 0.5); q90 = int(0.9 * n + 0.5)
		if (q50 < 1) q50 = 1; if (q90 < 1) q90 = 1
		printf "%d %.2f %.2f %.2f\n", n, s / n, v[q50], v[q90]
	}'
}

# the simulator's submission-to-start latency (n mean p50 p90)
sim_diagnose() { # jobs csv
	awk -F, 'NR > 1 && $8 != "" { printf "%.3f\n", $8 - $4 }' "$1" | stats
}

# ------------------------------------------------------------ the model
# The a-priori model of Slurm, fitted on earlier runs (their work
# directories), never on the run it predicts.  Per kind of scheduler --
# "backfill" (Slurm's own passes start tasks in batches) and "deadline"
# (edf, adaptive, triage: starts follow the plugin's plans) -- every task's
# measured overhead (slurmctld's allocation to its completion, minus the
# task's length) pooled over the runs into 100 quantiles: an empirical
# distribution each simulated task draws its own overhead from.  For
# sched/deadline the dispatch latency is the median of the runs' median
# freed-slot latencies; for sched/backfill Slurm's batch_sched_delay.
fit_model() { # out-file work-dir...
	local out=$1 d s kind tmp src=""
	shift
	tmp=$(mktemp -d)
	: >"$tmp/deadline.overhead"
	: >"$tmp/backfill.overhead"
	: >"$tmp/deadline.latency"
	for d in "$@"; do
		[ -f "$d/results.tsv" ] && [ -f "$d/meta.env" ] || die "$d has no results of a run"
		# shellcheck disable=SC1091,SC2154 # meta.env sets them
		src+="$(. "$d/meta.env"; echo "${src:+; }seed $seed, $date, commit $commit, schedulers $schedulers")"
		for s in $(cut -f1 "$d/results.tsv"); do
			kind=deadline
			[ "$s" != backfill ] || kind=backfill
			awk '$1 == "overhead" { print ($2 > 0.001 ? $2 : 0.001) }' \
				"$d/runs/$s/diag_samples" >>"$tmp/$kind.overhead"
			[ "$kind" = backfill ] ||
				awk -F'\t' '$1 == "turnover" { split($2, a, " "); print a[2] / 1000 }' \
					"$d/runs/$s/diag.tsv" >>"$tmp/deadline.latency"
		done
	done
	[ -s "$tmp/deadline.overhead" ] || die "--fit-model needs runs of sched/deadline"
	# Runs of sched/deadline alone refit its kind and keep the backfill
	# kind of the model there is (fitted on other runs, named in fitted_on).
	local keep_backfill=null
	if [ ! -s "$tmp/backfill.overhead" ]; then
		[ -r "$out" ] && jq -e .backfill.tasks_measured "$out" >/dev/null 2>&1 ||
			die "--fit-model needs runs of sched/backfill, or a model $out to keep its sched/backfill part from"
		keep_backfill=$(jq -c .backfill "$out")
		src+="; sched/backfill kept from the previous model ($(jq -r .fitted_on "$out"))"
		echo 0.001 >"$tmp/backfill.overhead" # unused: replaced by keep_backfill
	fi
	# 100 quantiles (k + 0.5) / 100, nearest rank, to the millisecond
	quantiles() { sort -g "$1" | awk '{ v[++n] = $1 }
		END { for (k = 0; k < 100; k++) { i = int((k + 0.5) / 100 * n) + 1; if (i > n) i = n
			printf "%s%.3f", k ? "," : "", v[i] } }'; }
	median() { sort -g "$1" | awk '{ v[++n] = $1 }
		END { printf "%.2f", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'; }
	jq -n --argjson d "[$(quantiles "$tmp/deadline.overhead")]" \
		--argjson b "[$(quantiles "$tmp/backfill.overhead")]" \
		--argjson l "$(median "$tmp/deadline.latency")" --argjson bsd "$batch_sched_delay" \
		--argjson nd "$(wc -l <"$tmp/deadline.overhead")" --argjson nb "$(wc -l <"$tmp/backfill.overhead")" \
		--arg src "$src" --argjson keep "$keep_backfill" '{
		description: "a-priori model of the local Slurm for bench/replay-swim.sh, written by its --fit-model",
		fitted_on: $src,
		deadline: {task_overhead: {dist: "empirical", values: $d}, dispatch_latency: $l, tasks_measured: $nd},
		backfill: ($keep // {task_overhead: {dist: "empirical", values: $b}, batch_sched_delay: $bsd, tasks_measured: $nb})
	}' >"$tmp/model.json"
	mv "$tmp/model.json" "$out"
	rm -rf "$tmp"
	say "model: $out ($(jq .deadline.tasks_measured "$out") sched/deadline tasks, $(jq .backfill.tasks_measured "$out") sched/backfill tasks)"
}

# One simulator run of scheduler s on a run's workload with the cluster
# document CJSON: WORK/sim/TAG-s.csv and .outcomes.
sim_once() { # work-dir scheduler cluster-json seed tag
	local d=$1 s=$2 p
	p=$(sim_policy "$s")
	"$sim_bin" run --cluster "$3" --workload "$d/workload.json" --policy "$p" --seed "$4" \
		--config "$d/sim/deadline-$s.conf" --jobs-csv "$d/sim/$5-$s.csv" >/dev/null
	sim_outcomes "$d/sim/$5-$s.csv" >"$d/sim/$5-$s.outcomes"
}

# The cluster document: the run's 16 nodes with an overhead (a number or
# a distribution, JSON), a dispatch latency and a batch_sched_delay.
model_cluster() { # work-dir overhead-json latency batch_sched_delay
	jq --argjson o "$2" --argjson l "$3" --argjson b "$4" \
		'.node_order = "first-fit" | .task_overhead = $o | .dispatch_latency = $l
		 | .batch_sched_delay = $b' "$1/cluster-base.json"
}

# The median over `draws` simulator runs of one model (different overhead
# draws: seeds seed*1000+1..): prints "median min max" of the missed
# deadlines; WORK/sim/TAG-s.outcomes is the median draw's, and
# WORK/sim/TAG-s.votes counts per job the draws that missed it.
draw_runs() { # work-dir scheduler overhead-json latency bsd tag
	local d=$1 s=$2 k seed=$seed
	# shellcheck disable=SC1091
	[ ! -f "$d/meta.env" ] || seed=$(. "$d/meta.env"; echo "$seed")
	model_cluster "$d" "$3" "$4" "$5" >"$d/sim/$6-$s.cluster.json"
	for k in $(seq 1 "$draws"); do
		sim_once "$d" "$s" "$d/sim/$6-$s.cluster.json" $((seed * 1000 + k)) "$6-draw$k"
		printf '%d\t%s\n' "$k" "$(metrics "$d/sim/$6-draw$k-$s.outcomes" | cut -f2)"
	done | sort -t$'\t' -k2,2n -k1,1n >"$d/sim/$6-$s.draws"
	k=$(awk -v m=$(((draws + 1) / 2)) 'NR == m { print $1 }' "$d/sim/$6-$s.draws")
	cp "$d/sim/$6-draw$k-$s.outcomes" "$d/sim/$6-$s.outcomes"
	cp "$d/sim/$6-draw$k-$s.csv" "$d/sim/$6-$s.csv"
	for k in $(seq 1 "$draws"); do cat "$d/sim/$6-draw$k-$s.outcomes"; done | awk -F'\t' '
		$3 != "-" { n[$1] += 0; if ($4 == "-" || $4 > $3) n[$1]++ }
		END { for (j in n) printf "%d\t%d\n", j, n[j] }' | sort -n >"$d/sim/$6-$s.votes"
	for k in $(seq 1 "$draws"); do rm -f "$d/sim/$6-draw$k-$s".{csv,outcomes}; done
	awk -F'\t' '{ v[NR] = $2 } END { printf "%d\t%d\t%d\n", v[int((NR + 1) / 2)], v[1], v[NR] }' \
		"$d/sim/$6-$s.draws"
}

# Per job, Slurm's verdict against the draws' majority: met in both,
# missed in both, missed only in Slurm, missed only in the simulator.
vote_agreement() { # real outcomes, votes
	awk -F'\t' -v half="$draws" '
	FILENAME == ARGV[1] { if ($3 != "-") real[$1] = ($4 == "-" || $4 > $3); next }
	($1 in real) {
		s = 2 * $2 > half; r = real[$1]
		if (!r && !s) mm++; else if (r && s) xx++; else if (r) ro++; else so++
	}
	END { printf "%d\t%d\t%d\t%d\n", mm, xx, ro, so }' "$1" "$2"
}

# A run's previous constant model and its deadline.conf settings (the
# m_* globals; plan_interval, replan_delay and conf_params for
# deadline_conf; a run recorded before --param existed had none).
load_meta() { # work-dir
	# shellcheck disable=SC1091
	eval "$(conf_params=""; . "$1/meta.env"; printf 'm_overhead=%q m_lat=%q m_bsd=%q plan_interval=%q replan_delay=%q conf_params=%q\n' \
		"$overhead" "$lat_deadline" "$batch_sched_delay" "$plan_interval" "$replan_delay" "$conf_params")"
}

# deadline-sim's predictions for a run (its work directory) with the
# current --model, --draws and deadline-sim, in DIR/sim/predict.tsv, one
# line per scheduler: scheduler; a priori, median of the draws: missed
# median, min, max, and the median draw's metrics (7 columns as
# `metrics`); agreement of the draws' majority with Slurm (4); the median
# draw's submission-to-start latency (n mean p50 p90); the previous
# constant model: missed; calibrated on the run's own overheads and
# latency, median of the draws: missed median, min, max, latency.
predict() { # work-dir
	local d=$1 s kind o l b cal_l cal_o med lo hi cmed clo chi
	load_meta "$d"
	mkdir -p "$d/sim"
	for s in $(cut -f1 "$d/results.tsv"); do
		kind=deadline
		[ "$s" != backfill ] || kind=backfill
		deadline_conf "$([ "$s" = backfill ] && echo triage || echo "$s")" >"$d/sim/deadline-$s.conf"
		o=$(jq -c ".$kind.task_overhead" "$model")
		l=$(jq ".$kind.dispatch_latency // 0" "$model")
		b=$(jq ".$kind.batch_sched_delay // 0" "$model")
		read -r med lo hi <<<"$(draw_runs "$d" "$s" "$o" "$l" "$b" model)"
		# the previous model: one run with a constant overhead
		if [ "$s" = backfill ]; then
			model_cluster "$d" "$m_overhead" 0 "$m_bsd"
		else
			model_cluster "$d" "$m_overhead" "$m_lat" 0
		fi >"$d/sim/const-$s.cluster.json"
		# shellcheck disable=SC1091
		sim_once "$d" "$s" "$d/sim/const-$s.cluster.json" "$(. "$d/meta.env"; echo "$seed")" const
		# calibrated: the run's own overheads, its own median latency
		cal_o=$(awk '$1 == "overhead" { printf "%s%.3f", n++ ? "," : "", ($2 > 0.001 ? $2 : 0.001) }' \
			"$d/runs/$s/diag_samples")
		cal_l=$(awk -F'\t' '$1 == "turnover" { split($2, a, " "); printf "%.3f", a[2] / 1000 }' "$d/runs/$s/diag.tsv")
		[ "$kind" = deadline ] || cal_l=0
		read -r cmed clo chi <<<"$(draw_runs "$d" "$s" "{\"dist\":\"empirical\",\"values\":[$cal_o]}" \
			"${cal_l:-0}" "$b" cal)"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$med" "$lo" "$hi" \
			"$(metrics "$d/sim/model-$s.outcomes")" \
			"$(vote_agreement "$d/runs/$s/outcomes" "$d/sim/model-$s.votes")" \
			"$(sim_diagnose "$d/sim/model-$s.csv" | tr ' ' '\t')" \
			"$(metrics "$d/sim/const-$s.outcomes" | cut -f2)" "$cmed" "$clo" "$chi" "${cal_l:-0}"
	done >"$d/sim/predict.tsv"
}

# How much one small change of the model moves the prediction: the
# overhead shifted by -0.02..+0.02 s and (sched/deadline) the latency by
# -0.01..+0.01 s, for the previous constant model (one run) and for the
# drawn one (median of the draws); DIR/sim/stability.tsv: scheduler,
# shift, latency, constant missed, drawn median, min, max.
stability() { # work-dir
	local d=$1 s kind o l b x y lats seed
	load_meta "$d"
	# shellcheck disable=SC1091
	seed=$(. "$d/meta.env"; echo "$seed")
	for s in $(cut -f1 "$d/results.tsv"); do
		kind=deadline
		[ "$s" != backfill ] || kind=backfill
		o=$(jq -c ".$kind.task_overhead" "$model")
		l=$(jq ".$kind.dispatch_latency // 0" "$model")
		b=$(jq ".$kind.batch_sched_delay // 0" "$model")
		lats=$(awk -v l="$l" 'BEGIN { if (l > 0) printf "%.2f %.2f %.2f", l - 0.01, l, l + 0.01; else print 0 }')
		for x in -0.02 -0.01 0 0.01 0.02; do
			for y in $lats; do
				model_cluster "$d" "$(awk -v o="$m_overhead" -v x="$x" 'BEGIN { print o + x }')" \
					"$([ "$kind" = backfill ] && echo 0 || echo "$y")" \
					"$([ "$kind" = backfill ] && echo "$m_bsd" || echo 0)" >"$d/sim/stab-$s.cluster.json"
				sim_once "$d" "$s" "$d/sim/stab-$s.cluster.json" "$seed" stabc
				printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$x" "$y" "$(metrics "$d/sim/stabc-$s.outcomes" | cut -f2)" \
					"$(draw_runs "$d" "$s" "$(jq -c --argjson x "$x" '.values |= map(. + $x | if . < 0.001 then 0.001 else . end)' <<<"$o")" \
						"$y" "$b" stabd)"
			done
		done
		rm -f "$d/sim"/stab*-"$s".*
	done >"$d/sim/stability.tsv"
}

# ------------------------------------------------------------ the report
# Markdown report and plot of the runs in the given work directories: the
# real outcomes and latencies from each run (meta.env, results.tsv,
# runs/), the simulator's predictions made now (predict, stability) with
# --model, --draws and this build's deadline-sim.
report() { # out-file work-dir...
	local file=$1 png tsv d
	shift
	png=${file%.md}.png
	tsv=${file%.md}.tsv
	: >"$tsv"
	for d in "$@"; do
		say "$d: simulating (model $model, $draws draws)"
		predict "$d"
		stability "$d"
	done
	{
		echo "# Replay of SWIM FB-2009 on real Slurm, and deadline-sim's prediction"
		echo
		echo "Generated by \`bench/replay-swim.sh\` (doc/simulator.md, section \"Replay on real Slurm\", explains the method)."
		echo
		echo "A-priori model of Slurm: \`$(realpath --relative-to="$top" "$model" 2>/dev/null || echo "$model")\` (sha256 $(sha256sum <"$model" | cut -c1-16)), fitted by \`--fit-model\` on $(jq -r .fitted_on "$model"): every simulated task draws its overhead from the $(jq .deadline.tasks_measured "$model") sched/deadline tasks' (or the $(jq .backfill.tasks_measured "$model") sched/backfill tasks') measured overheads (100 quantiles; mean $(jq '.deadline.task_overhead.values | add / length * 100 | round / 100' "$model") s and $(jq '.backfill.task_overhead.values | add / length * 100 | round / 100' "$model") s), sched/deadline's dispatch_latency $(jq .deadline.dispatch_latency "$model") s, sched/backfill's batch_sched_delay $(jq .backfill.batch_sched_delay "$model") s. The prediction is the median of $draws simulator runs (seeds seed x 1000 + 1..$draws: other overhead draws, the same task lengths)."
		for d in "$@"; do
			# shellcheck disable=SC2154 # meta.env sets them
			(
				# shellcheck disable=SC2030 # this run's own, in this subshell
				conf_params="" history=0
				# shellcheck disable=SC1091
				. "$d/meta.env"
				echo
				echo "## Seed $seed"
				echo
				echo "- date: $date; machine: $machine; Slurm $slurm; commit $commit (the replayed sched/deadline and policies); simulated with commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD 2>/dev/null || echo +changes)"
				echo "- command: \`$command\` (trace sha256 ${trace_sha256:-not recorded})"
				echo "- local cluster: 16 nodes x 2 CPUs (contrib/localcluster), select/cons_tres, priority/basic, default SchedulerParameters; sched/deadline with \`Policy=<policy> PlanInterval=$plan_interval ReplanDelay=$replan_delay${conf_params:+ $conf_params}\`$( [ "${history:-0}" -gt 0 ] && echo ", the cluster's deadline-estimatord given the tasks of $history earlier runs of the same jobs (\`--history $history\`; the simulator has its answers as priors)" || echo " and no estimator")"
				echo "- workload: $workload; $jobs jobs ($deadline_jobs with a deadline, $mapreduce MapReduce pairs), $tasks tasks, $work_s CPU-s submitted over ${span} s (load $load)"
				echo "- simulator: the same workload.json on 16 nodes x 2 CPUs (first-fit), the same deadline.conf; sched/backfill simulated as policy fifo with Slurm's batch_sched_delay. Columns: the a-priori model (median of the draws, their range); the previous model (one run, constant task_overhead ${overhead} s, dispatch_latency ${lat_deadline} s); calibrated (the median of draws from this run's own measured overheads, its own median freed-slot latency)"
				echo "- outcomes: a job met its deadline when all its tasks completed and the last ended by it, in whole seconds as Slurm records end times (the simulator's finish is cut to the second likewise)"
				echo
				echo "| scheduler | real missed | a priori: median of $draws draws (range) | difference (points) | previous model, constant overhead | difference | calibrated: median (range; latency s) | difference | late jobs' lateness, real: mean / p95 (s) | a priori (median draw): mean / p95 (s) | not finished (real) | bounded slowdown, no deadline: real / sim | run (s) |"
				echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
				awk -F'\t' 'FILENAME == ARGV[1] { p[$1] = $0; next }
				($1 in p) {
					split(p[$1], q, "\t"); n = $3
					printf "| %s | %.1f %% (%d/%d) | %.1f %% (%d; %d-%d) | %+.1f | %.1f %% (%d) | %+.1f | %.1f %% (%d; %d-%d; %.2f) | %+.1f | %.1f / %.1f | %.1f / %.1f | %d | %.2f / %.2f | %s |\n",
						$1, $5, $4, n, 100 * q[2] / n, q[2], q[3], q[4], 100 * (q[2] - $4) / n,
						100 * q[20] / n, q[20], 100 * (q[20] - $4) / n,
						100 * q[21] / n, q[21], q[22], q[23], q[24], 100 * (q[21] - $4) / n,
						$6, $7, q[8], q[9], $8, $9, q[11], $29
				}' "$d/sim/predict.tsv" "$d/results.tsv"
				echo
				echo "Per job: Slurm's verdict against the simulator's (the majority of the $draws draws)."
				echo
				echo "| scheduler | met in both | missed in both | missed only in Slurm | missed only in the simulator |"
				echo "|---|---|---|---|---|"
				awk -F'\t' '{ printf "| %s | %d | %d | %d | %d |\n", $1, $12, $13, $14, $15 }' "$d/sim/predict.tsv"
				echo
				echo "Latencies (s; n, mean, p50, p90) measured in slurmctld's log of each run; the simulator's submission-to-start (median draw) for comparison."
				echo
				echo "| scheduler | submission to first start, real | simulated | last map end to first reduce start | task beyond its length (launch, completion) | freed slot to next start (ms; n, p50, p90) | replay's submission lag |"
				echo "|---|---|---|---|---|---|---|"
				for s in $(cut -f1 "$d/results.tsv"); do
					awk -F'\t' -v s="$s" -v diag="$d/runs/$s/diag.tsv" '
					function g(k,   l, f) {
						while ((getline l < diag) > 0) { split(l, f, "\t"); if (f[1] == k) { close(diag); return f[2] } }
						close(diag); return "-"
					}
					function q(x,   a) { split(x, a, " "); return a[1] ", " a[2] ", " a[3] ", " a[4] }
					function t(x,   a) { split(x, a, " "); return a[1] ", " a[2] ", " a[3] }
					$1 == s {
						printf "| %s | %s | %d, %.2f, %.2f, %.2f | %s | %s | %s | %s |\n", s, q(g("start")),
							$16, $17, $18, $19, q(g("reduce")), q(g("overhead")), t(g("turnover")), q(g("lag"))
					}' "$d/sim/predict.tsv"
				done
				echo
				echo "How far one small change of the model moves the prediction: the overhead shifted by -0.02 to +0.02 s (5 steps) and sched/deadline's latency by -0.01 to +0.01 s (3 steps) around each model; missed deadlines over those points, for the previous model (one run each) and the a-priori one (median of $draws draws each)."
				echo
				echo "| scheduler | points | previous model: min - max missed | a priori, median of draws: min - max |"
				echo "|---|---|---|---|"
				awk -F'\t' '{
					if (!($1 in n)) { order[++k] = $1; cl[$1] = ch[$1] = $4; dl[$1] = dh[$1] = $5 }
					n[$1]++
					if ($4 < cl[$1]) cl[$1] = $4; if ($4 > ch[$1]) ch[$1] = $4
					if ($5 < dl[$1]) dl[$1] = $5; if ($5 > dh[$1]) dh[$1] = $5
				}
				END { for (i = 1; i <= k; i++) { s = order[i]; printf "| %s | %d | %d - %d | %d - %d |\n", s, n[s], cl[s], ch[s], dl[s], dh[s] } }' \
					"$d/sim/stability.tsv"
				echo
				awk -F'\t' 'FILENAME == ARGV[1] { p[$1] = $2; c[$1] = $21; next }
				{ real[$1] = $4; n[$1] = $3; order[++k] = $1 }
				END {
					print "Targets (issue 11, item 5):"
					print ""
					if (("triage" in real) && ("backfill" in real))
						printf "- triage misses at most half of sched/backfill'"'"'s misses: %d vs %d / 2 = %.1f: %s\n",
							real["triage"], real["backfill"], real["backfill"] / 2,
							real["triage"] <= real["backfill"] / 2 ? "**met**" : "**not met**"
					if (("triage" in real) && ("edf" in real))
						printf "- triage misses no more than Policy=edf: %d vs %d: %s\n",
							real["triage"], real["edf"], real["triage"] <= real["edf"] ? "**met**" : "**not met**"
					for (i = 1; i <= k; i++) {
						s = order[i]
						d = 100 * (p[s] - real[s]) / n[s]
						printf "- %s: simulated %.1f %% a priori (median of draws), real %.1f %%, %+.1f points: %s (calibrated: %+.1f)\n",
							s, 100 * p[s] / n[s], 100 * real[s] / n[s], d,
							(d <= 5 && d >= -5) ? "within 5 points" : "**off by more than 5 points**",
							100 * (c[s] - real[s]) / n[s]
					}
				}' "$d/sim/predict.tsv" "$d/results.tsv"
			)
			# shellcheck disable=SC1091
			seed=$(. "$d/meta.env"; echo "$seed")
			awk -F'\t' -v seed="$seed" 'FILENAME == ARGV[1] { p[$1] = $2; c[$1] = $21; next }
				{ printf "%s seed %s\t%s\t%.1f\t%.1f\n", $1, seed, $5, 100 * p[$1] / $3, 100 * c[$1] / $3 }' \
				"$d/sim/predict.tsv" "$d/results.tsv" >>"$tsv"
		done
		echo
		echo "![missed deadlines, real Slurm vs deadline-sim]($(basename "$png"))"
	} >"$file"
	gnuplot -e "infile='$tsv'; outfile='$png'" "$top/bench/plot-replay.gp"
	say "report: $file, plot: $png"
}

case "$build" in /*) ;; *) build=$top/$build ;; esac
sim_bin=$build/src/sim/deadline-sim
[ -n "$model" ] || model=$top/bench/replay-model.json
case "$model" in /*) ;; *) model=$(pwd)/$model ;; esac
if [ -n "$fit_dirs" ]; then
	IFS=, read -r -a dirs <<<"$fit_dirs"
	fit_model "$model" "${dirs[@]}"
	exit 0
fi
[ -r "$model" ] || die "cannot read the model $model (make it with --fit-model)"
if [ -n "$report_dirs" ]; then
	[ -n "$out" ] || die "--report needs --out FILE"
	IFS=, read -r -a dirs <<<"$report_dirs"
	for d in "${dirs[@]}"; do
		[ -f "$d/results.tsv" ] && [ -f "$d/meta.env" ] || die "$d has no results of a run"
	done
	report "$out" "${dirs[@]}"
	exit 0
fi
[ -n "$trace" ] || die "--trace FILE is required (the SWIM FB-2009 .tsv)"
[ -r "$trace" ] || die "cannot read the trace $trace"
case "$build" in /*) ;; *) build=$top/$build ;; esac
case "$work" in /*) ;; *) work=$top/$work ;; esac
sim=$build/src/sim/deadline-sim
smapreduce=$build/src/smapreduce/smapreduce
[ -x "$sim" ] || die "no deadline-sim in $build (build first or pass --build)"
for t in jq awk gnuplot; do
	command -v "$t" >/dev/null || die "$t is needed"
done
IFS=, read -r -a sched_list <<<"$schedulers"
for s in "${sched_list[@]}"; do
	case "$s" in backfill|edf|adaptive|triage) ;; *) die "unknown scheduler '$s'" ;; esac
done
nodes=16
cpus=2


mkdir -p "$work"
rm -rf "${work:?}"/{lengths,runs,sim}
mkdir -p "$work"/{lengths,runs,sim}

# ------------------------------------------------------------ workload
# deadline-sim's SWIM adapter (byte model of doc/simulator.md), then scaled:
# arrivals / A; task counts / D rounded up, capped; lengths x L, clamped
# to [min-length, max-length]; a share F of the jobs (a seeded hash of their position)
# without a deadline.
say "workload: trace window [$from, $to), arrivals /$time_scale, tasks /$task_div, k = $k, seed $seed"
"$sim" gen swim --seed "$seed" --trace "$trace" --from "$from" --to "$to" \
	--k "$k" --nodes "$nodes" --cpus "$cpus" --cluster-out "$work/cluster-base.json" \
	>"$work/gen.json"
jq --argjson a "$time_scale" --argjson d "$task_div" --argjson mm "$max_maps" \
	--argjson mr "$max_reduces" --argjson l "$length_scale" --argjson min "$min_length" --argjson max "$max_length" \
	--argjson nd "$no_deadline" --argjson seed "$seed" --arg desc \
	"SWIM FB-2009 submissions in [$from, $to) s, arrivals /$time_scale, task counts /$task_div (at most $max_maps maps, $max_reduces reduces), lengths x$length_scale (in [$min_length, $max_length] s), deadlines ${k}x isolated, share $no_deadline without a deadline, seed $seed" '
	def up: if . == floor then . else floor + 1 end;
	def scale_len: .mean *= $l | .sd *= $l | .min = $min | .max = $max;
	# a fixed hash of (position, seed) in [0, 1): Knuth multiplicative
	def u($i): ((($i + 1) * 2654435761 + $seed * 40503) % 4294967296) / 4294967296;
	.description = $desc
	| .jobs |= [to_entries[] | .key as $i | .value
		| .arrival = ((.arrival / $a * 10 | floor) / 10)
		| .maps = ([(.maps / $d | up), $mm] | min)
		| .map_length |= scale_len
		| del(.map_input_mb, .reduce_input_mb)
		| if .reduces > 0 then
			.reduces = ([(.reduces / $d | up), $mr] | min)
			| .reduce_length |= scale_len
		  else . end
		| if u($i) < $nd then del(.deadline_factor) else . end]
	' "$work/gen.json" >"$work/scaled.json"

# The cluster as the simulator sees it: 16 nodes x 2 CPUs, Slurm's node
# order, and Slurm's latencies: the time a task holds its CPU beyond its
# length; for sched/deadline the time from a freed CPU to the next start;
# for sched/backfill Slurm's background pass (at most one per
# batch_sched_delay; doc/simulator.md).
cluster_json() { # overhead latency batch_sched_delay
	jq --argjson o "$1" --argjson l "$2" --argjson b "$3" \
		'.node_order = "first-fit" | .task_overhead = $o | .dispatch_latency = $l
		 | .batch_sched_delay = $b' "$work/cluster-base.json"
}
cluster_json 0 0 0 >"$work/cluster.json"

# every task's length, time limit and deadline fixed once; lengths to
# 10 ms, deadlines down to whole seconds (Slurm's resolution); time limits
# the longest task plus 15 s, rounded up to minutes (a task also spends
# Slurm's launch and completion time inside its limit: without the margin
# a 119.9 s task with a 2-minute limit is killed as TIMEOUT)
"$sim" draw --cluster "$work/cluster.json" --workload "$work/scaled.json" \
	--seed "$seed" >"$work/drawn.json"
jq 'def r: map(. * 100 | round / 100);
	def limit: ((max + 15) / 60 | ceil) * 60;
	.jobs |= map(
		.map_lengths |= r | .map_time_limit = (.map_lengths | limit)
		| if .reduces > 0 then
			.reduce_lengths |= r | .reduce_time_limit = (.reduce_lengths | limit)
		  else . end
		| if .deadline then .deadline |= floor else . end)' \
	"$work/drawn.json" >"$work/workload.json"

# ------------------------------------------------------------ history
# --history N: the same jobs ran N times before (N more draws of this
# workload's task lengths), and deadline-estimatord has their tasks, as on
# a cluster where jobs recur under the same name.  WORK/history.req holds
# the observe requests; every real run's estimator gets them before its
# first submission.  A private estimator with the same history answers
# the plugin's question for every job and phase now, and the answers go
# into workload.json as map_prior/reduce_prior: the simulator is told
# what slurmctld will be told (a "default" answer is not used, as in
# dl_phase_use_prediction).
est_raw=$build/test/bats/estimator_raw
estd=$build/src/estimator/deadline-estimatord
# send the request lines of a file to an estimator socket; fail unless
# every line is answered without an error
est_send() { # socket file
	local n out
	n=$(wc -l <"$2")
	out=$("$est_raw" --socket "$1" --expect "$n" --timeout 60 <"$2") ||
		die "the estimator at $1 did not answer $n requests"
	[ "$(grep -c '"result"' <<<"$out")" = "$n" ] ||
		die "the estimator refused a request: $(grep -m1 '"error"' <<<"$out")"
	printf '%s\n' "$out"
}
# shellcheck disable=SC2031 # the one from the command line
if [ "$history" -gt 0 ]; then
	[ -x "$estd" ] && [ -x "$est_raw" ] || die "--history needs deadline-estimatord and test/bats/estimator_raw in $build"
	say "history: $history earlier runs of the same jobs"
	hist_t=$(date +%s)
	for h in $(seq 1 "$history"); do
		# job ids above Slurm's largest (2^26), so no real task is taken
		# for a duplicate
		"$sim" draw --cluster "$work/cluster.json" --workload "$work/scaled.json" \
			--seed $((seed * 100 + 50 + h)) |
			jq -c --argjson h "$h" --argjson t "$hist_t" '
			[.jobs | to_entries[] | .key as $i | .value as $j
			 | ("map", "reduce") as $ph
			 | ($j[$ph + "_lengths"] // []) | to_entries[]
			 | ($t - $h * 86400 + $j.arrival) as $s
			 | {job_id: (100000000 + $h * 100000 + $i), task: .key, user: "root",
			    name: $j.name, phase: $ph, start: $s, end: ($s + .value)}]
			| _nwise(1000) | {v: 1, id: "history", op: "observe", tasks: .}'
	done >"$work/history.req"
	# the plugin's question for every phase, with the job's index (i) to
	# put the answer back where it belongs
	jq -c '[.jobs | to_entries[] | .key as $i | .value
		| ("map", "reduce") as $ph | select(.[$ph + "s"] > 0)
		| {i: $i, user: "root", name: .name, phase: $ph, tasks: .[$ph + "s"]}]' \
		"$work/workload.json" >"$work/history-questions.json"
	jq -c '_nwise(1000) | {v: 1, id: "prior", op: "predict", jobs: map(del(.i))}' \
		"$work/history-questions.json" >"$work/history-predict.req"
	rm -rf "$work/estimator"
	mkdir -p "$work/estimator"
	# SlurmUser: whoever runs this may observe (--sim-only needs no root)
	printf 'Socket=%s\nDatabase=%s\nPidFile=%s\nSlurmUser=%s\n' "$work/estimator/sock" \
		"$work/estimator/db" "$work/estimator/pid" "$(id -un)" >"$work/estimator/conf"
	"$estd" --foreground --config "$work/estimator/conf" 2>"$work/estimator/log" &
	est_pid=$!
	trap 'kill "$est_pid" 2>/dev/null || true' EXIT
	for _ in $(seq 100); do [ -S "$work/estimator/sock" ] && break; sleep 0.1; done
	[ -S "$work/estimator/sock" ] ||
		die "deadline-estimatord did not start: $(tail -n 3 "$work/estimator/log")"
	est_send "$work/estimator/sock" "$work/history.req" >/dev/null
	est_send "$work/estimator/sock" "$work/history-predict.req" |
		jq -c '.result.predictions[]' >"$work/history-answers.jsonl"
	kill "$est_pid"
	wait "$est_pid" 2>/dev/null || true
	trap - EXIT
	jq --slurpfile a "$work/history-answers.jsonl" --slurpfile q "$work/history-questions.json" '
		reduce range(0; $q[0] | length) as $k (.;
			$q[0][$k] as $x | $a[$k] as $p
			| if ($p.source // "default") != "default" and ($p.mean // 0) > 0 then
				.jobs[$x.i][$x.phase + "_prior"] = {mean: $p.mean, p90: $p.p90}
			  else . end)' "$work/workload.json" >"$work/workload-history.json"
	mv "$work/workload-history.json" "$work/workload.json"
	say "history: $(jq '[.jobs[] | (.map_prior, .reduce_prior) | select(.)] | length' "$work/workload.json") of $(wc -l <"$work/history-answers.jsonl") phases answered from history ($(jq -r .source "$work/history-answers.jsonl" | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }'))"
fi

# one line per job: index name arrival(0.1 s) deadline(0 = none) maps
# reduces map-limit-minutes reduce-limit-minutes; lengths in WORK/lengths/
jq -r '.jobs | to_entries[] | .key as $i | .value |
	[$i, .name, (.arrival * 10 | round), (.deadline // 0), .maps, .reduces,
	 (.map_time_limit / 60 | ceil), ((.reduce_time_limit // 60) / 60 | ceil)] | @tsv' \
	"$work/workload.json" >"$work/jobs.tsv"
jq -r '.jobs | to_entries[] | "\(.key) map \(.value.map_lengths | join(" "))",
	(select(.value.reduces > 0) | "\(.key) reduce \(.value.reduce_lengths | join(" "))")' \
	"$work/workload.json" | while read -r i phase lens; do
	tr ' ' '\n' <<<"$lens" >"$work/lengths/$i.$phase"
done
read -r njobs ndl nmr ntasks work_s span <<<"$(jq -r '
	[.jobs | length, (map(select(.deadline)) | length),
	 (map(select(.reduces > 0)) | length),
	 (map(.maps + .reduces) | add),
	 (map((.map_lengths | add) + (.reduce_lengths // [] | add // 0)) | add),
	 (map(.arrival) | max)] | @tsv' "$work/workload.json")"
load=$(awk -v w="$work_s" -v s="$span" -v c=$((nodes * cpus)) 'BEGIN { printf "%.2f", w / (c * s) }')
say "$njobs jobs ($ndl with a deadline, $nmr MapReduce), $ntasks tasks, $work_s CPU-s over ${span}s of arrivals (load $load)"
[ "$njobs" -ge 100 ] || say "warning: fewer than 100 jobs"

# --------------------------------------------------------- the simulator
# Simulate one scheduler with a model of Slurm; WORK/sim/TAG-SCHED.csv.
simulate() { # scheduler tag overhead latency
	local s=$1 tag=$2 p
	p=$(sim_policy "$s")
	if [ "$s" = backfill ]; then
		cluster_json "$3" 0 "$batch_sched_delay"
	else
		cluster_json "$3" "$4" 0
	fi >"$work/sim/$tag-$s.cluster.json"
	deadline_conf "$([ "$s" = backfill ] && echo triage || echo "$s")" >"$work/sim/deadline-$s.conf"
	"$sim" run --cluster "$work/sim/$tag-$s.cluster.json" --workload "$work/workload.json" \
		--policy "$p" --seed "$seed" --config "$work/sim/deadline-$s.conf" \
		--jobs-csv "$work/sim/$tag-$s.csv" >/dev/null
	sim_outcomes "$work/sim/$tag-$s.csv" >"$work/sim/$tag-$s.outcomes"
}

for s in "${sched_list[@]}"; do
	simulate "$s" prior "$overhead" "$lat_deadline"
	printf '%s\t%s\n' "$s" "$(metrics "$work/sim/prior-$s.outcomes")"
done >"$work/sim/metrics.tsv"
if [ "$sim_only" = 1 ]; then
	printf 'scheduler\tjobs_dl\tmissed\tmissed%%\tmean_late\tp95_late\tunfinished\tslowdown_nodl\tmodel_missed_median\tmin\tmax\n'
	for s in "${sched_list[@]}"; do
		kind=deadline
		[ "$s" != backfill ] || kind=backfill
		printf '%s\t%s\n' "$(grep "^$s	" "$work/sim/metrics.tsv")" "$(draw_runs "$work" "$s" \
			"$(jq -c ".$kind.task_overhead" "$model")" "$(jq ".$kind.dispatch_latency // 0" "$model")" \
			"$(jq ".$kind.batch_sched_delay // 0" "$model")" model)"
	done
	exit 0
fi

# ---------------------------------------------------------- real Slurm
[ "$(id -u)" = 0 ] || die "run as root (the local cluster's daemons run as root)"
[ -x "$smapreduce" ] || die "no smapreduce in $build"
cdir=$work/cluster
# one batch script per phase, each running bench/replay-task.sh with it
for phase in map reduce; do
	printf '#!/bin/sh\n#SBATCH --output=/dev/null\nexec %q %s\n' \
		"$top/bench/replay-task.sh" "$phase" >"$work/$phase-task.sh"
done
lc() { LC_QUIET=1 "$top/contrib/localcluster/localcluster" --dir "$cdir" "$@"; }
trap 'lc stop || true' EXIT
export SLURM_CONF=$cdir/etc/slurm.conf
echo "required $build/src/plugins/spank/.libs/spank_deadline.so" >"$work/plugstack.conf"

usec() { echo "${EPOCHREALTIME/./}"; }

# Submit job $1 of jobs.tsv as a user would; prints "index submit_us map_id
# reduce_id" (reduce_id 0 for a map-only job; map_id 0 when sbatch failed).
submit_job() { # index name arrival deadline maps reduces map_min reduce_min
	local i=$1 name=$2 dl=$4 m=$5 r=$6 mlim=$7 rlim=$8 at ids map red=0 soft=()
	# the tasks find their lengths with these (bench/replay-task.sh)
	export REPLAY_LENGTHS_DIR=$work/lengths REPLAY_JOB=$i
	at=$(usec)
	if [ "$dl" != 0 ]; then
		soft=(--soft-deadline="$(date -d "@$((t0 + dl))" +%Y-%m-%dT%H:%M:%S)")
	fi
	if [ "$dl" != 0 ] && [ "$r" -gt 0 ]; then
		ids=$("$smapreduce" --maps="$m" --reduces="$r" "${soft[@]}" -J "$name" --parsable \
			--map-arg=--time="$mlim" --reduce-arg=--time="$rlim" \
			"$work/map-task.sh" "$work/reduce-task.sh" 2>>"$run/submit.err") || ids=0:0
		map=${ids%%:*}
		red=${ids##*:}
	else
		map=$(sbatch --parsable --array=0-$((m - 1)) "${soft[@]}" -J "$name" --time="$mlim" \
			"$work/map-task.sh" 2>>"$run/submit.err") || map=0
		if [ "$r" -gt 0 ] && [ "$map" != 0 ]; then
			red=$(sbatch --parsable --array=0-$((r - 1)) -J "$name" --time="$rlim" \
				--dependency=afterok:"$map" --kill-on-invalid-dep=yes \
				"$work/reduce-task.sh" 2>>"$run/submit.err") || red=0
		fi
	fi
	printf '%s\t%s\t%s\t%s\n' "$i" "$at" "${map%%;*}" "${red%%;*}"
}

# Replay every job at t0 + its arrival (submissions in the background, so
# a slow sbatch never delays the next job).
replay() {
	local i name arr rest now wait_us
	while IFS=$'\t' read -r i name arr rest; do
		now=$(usec)
		wait_us=$(((t0 * 10 + arr) * 100000 - now))
		[ "$wait_us" -le 0 ] || sleep "$((wait_us / 1000000)).$(printf '%06d' $((wait_us % 1000000)))"
		# shellcheck disable=SC2086
		submit_job "$i" "$name" "$arr" $rest >>"$run/submitted.tsv" &
	done <"$work/jobs.tsv"
	wait
}

# jobcomp records -> per array: completed tasks, last end (epoch), first
# start; then one outcome line per job (as sim_outcomes).
real_outcomes() {
	awk '{
		delete f
		for (i = 1; i <= NF; i++) {
			n = index($i, "=")
			if (n) f[substr($i, 1, n - 1)] = substr($i, n + 1)
		}
		# the record of an array'"'"'s unstarted rest has no ArrayJobId
		id = ("ArrayJobId" in f) ? f["ArrayJobId"] : f["JobId"]
		print id, f["JobState"], f["StartTime"], f["EndTime"]
	}' "$run/jobcomp.txt" | while read -r id st start end; do
		printf '%s\t%s\t%s\t%s\n' "$id" "$st" "$(date -d "$start" +%s 2>/dev/null || echo 0)" \
			"$(date -d "$end" +%s 2>/dev/null || echo 0)"
	done >"$run/tasks.tsv"
	awk -F'\t' -v t0="$t0" '
	FILENAME == ARGV[1] {
		if ($2 == "COMPLETED") { done[$1]++; if ($4 > last[$1]) last[$1] = $4 }
		next
	}
	FILENAME == ARGV[2] { map[$1] = $3; red[$1] = $4; next }
	{
		i = $1; arr = $3 / 10; dl = $4 > 0 ? $4 : "-"
		m = map[i]; r = red[i]
		fin = "-"
		if (m && done[m] == $5 && ($6 == 0 || (r && done[r] == $6))) {
			e = last[m]
			if ($6 > 0 && last[r] > e) e = last[r]
			fin = e - t0
		}
		printf "%d\t%s\t%s\t%s\t%s\n", i, arr, dl, fin, iso[i]
	}' "$run/tasks.tsv" "$run/submitted.tsv" "$work/jobs.tsv" |
		join_isolated >"$run/outcomes"
}

# the isolated time column from the simulator's CSV (the same workload)
join_isolated() {
	awk -F'\t' -v csv="$work/sim/prior-${sched_list[0]}.csv" '
	BEGIN { while ((getline l < csv) > 0) { split(l, c, ","); if (c[1] + 0 > 0) iso[c[1] - 1] = c[17] } }
	{ $5 = iso[$1]; print }' OFS='\t'
}

# Per task from slurmctld's log (ms timestamps): array task alloc done,
# epoch seconds ("-" when not seen); and per array its submission.
log_tasks() {
	local d0 day0
	d0=$(date -d "@$t0" +%F)
	day0=$(date -d "$d0" +%s)
	awk -v d0="$d0" -v day0="$day0" '
	function t(s,   x) {
		split(substr(s, 13, 12), x, ":")
		return (substr(s, 2, 10) == d0 ? day0 : day0 + 86400) + x[1] * 3600 + x[2] * 60 + x[3]
	}
	function id(re,   k) {
		match($0, re)
		k = substr($0, RSTART + 6, RLENGTH - 6)
		return k
	}
	/_slurm_rpc_submit_batch_job: JobId=/ { printf "submit %s - %.3f\n", id("JobId=[0-9]+"), t($1) }
	/sched: Allocate JobId=[0-9]+_|_start_job: Started JobId=[0-9]+_/ {
		k = id("JobId=[0-9]+_[0-9]+"); split(k, a, "_"); printf "alloc %s %s %.3f\n", a[1], a[2], t($1)
	}
	/_job_complete: JobId=[0-9]+_[0-9]+\([0-9]+\) done/ {
		k = id("JobId=[0-9]+_[0-9]+"); split(k, a, "_"); printf "done %s %s %.3f\n", a[1], a[2], t($1)
	}' "$run/slurmctld.log" >"$run/log_events"
}


# Latencies of one run (each "n mean p50 p90", seconds): submission to the
# first task start, the last map end to the first reduce start, the time a
# task holds its CPU beyond its length (launch and completion); and how
# late the replay submitted (planned arrival to sbatch's return).
diagnose() {
	log_tasks
	awk -v lengths="$work/lengths" -v t0="$t0" '
	FILENAME == ARGV[1] {
		if ($1 == "submit") sub_t[$2] = $4
		else if ($1 == "alloc") { al[$2 " " $3] = $4; if (!($2 in first) || $4 < first[$2]) first[$2] = $4 }
		else { dn[$2 " " $3] = $4; if ($4 > lastd[$2]) lastd[$2] = $4 }
		next
	}
	FILENAME == ARGV[2] { map[$1] = $3; red[$1] = $4; lag[$1] = $2 / 1e6; next }
	{
		i = $1; m = map[i]; r = red[i]
		printf "lag %.3f\n", lag[i] - (t0 + $3 / 10)
		if (m in first && m in sub_t) printf "start %.3f\n", first[m] - sub_t[m]
		if (r && (r in first) && (m in lastd)) printf "reduce %.3f\n", first[r] - lastd[m]
		for (ph = 0; ph < 2; ph++) {
			a = ph ? r : m
			if (!a) continue
			f = lengths "/" i (ph ? ".reduce" : ".map")
			k = 0
			while ((getline len < f) > 0) {
				key = a " " k++
				if ((key in al) && (key in dn)) printf "overhead %.3f\n", dn[key] - al[key] - len
			}
			close(f)
		}
	}' "$run/log_events" "$run/submitted.tsv" "$work/jobs.tsv" >"$run/diag_samples"
	for what in start reduce overhead lag; do
		printf '%s\t%s\n' "$what" "$(awk -v w="$what" '$1 == w { print $2 }' "$run/diag_samples" | stats)"
	done >"$run/diag.tsv"
	# slot turnover: a task start after the latest end on the same node
	printf 'turnover\t%s\n' "$(python3 "$top/bench/dispatch-latency.py" "$run/slurmctld.log" 2>/dev/null ||
		echo "0 0 0 0")" >>"$run/diag.tsv"
}


# Per job, real and simulated verdicts side by side: both met, both
# missed, missed only in Slurm, missed only in the simulator.
agreement() { # real outcomes, sim outcomes
	paste "$1" "$2" | awk -F'\t' '
	function miss(d, f) { return f == "-" || f > d }
	$3 != "-" {
		r = miss($3, $4); s = miss($8, $9)
		if (!r && !s) mm++; else if (r && s) xx++; else if (r) ro++; else so++
	}
	END { printf "%d\t%d\t%d\t%d\n", mm, xx, ro, so }'
}

# ------------------------------------------------------------ the runs
started=$(date -u +%Y-%m-%dT%H:%MZ)
{
	printf 'date=%q\n' "$started"
	# the trace by its name and checksum (the results never point outside
	# the repository)
	printf 'command=%q\n' "sudo bench/replay-swim.sh ${args[*]//"$trace"/$(basename "$trace")}"
	printf 'trace_sha256=%q\n' "$(sha256sum <"$trace" | cut -d' ' -f1)"
	printf 'seed=%q\ncommit=%q\n' "$seed" "$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" diff --quiet HEAD 2>/dev/null || echo +changes)"
	printf 'machine=%q\n' "$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(free -g | awk '/Mem:/ { print $2 }') GB"
	printf 'slurm=%q\n' "$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo unknown)"
	printf 'workload=%q\n' "$(jq -r .description "$work/workload.json")"
	printf 'jobs=%q\ndeadline_jobs=%q\nmapreduce=%q\ntasks=%q\nwork_s=%q\nspan=%q\nload=%q\n' \
		"$njobs" "$ndl" "$nmr" "$ntasks" "$(printf '%.0f' "$work_s")" "$span" "$load"
	printf 'plan_interval=%q\nreplan_delay=%q\noverhead=%q\nlat_deadline=%q\nbatch_sched_delay=%q\n' \
		"$plan_interval" "$replan_delay" "$overhead" "$lat_deadline" "$batch_sched_delay"
	# shellcheck disable=SC2031 # the one from the command line
	printf 'conf_params=%q\n' "$conf_params"
	printf 'schedulers=%q\n' "$schedulers"
	# shellcheck disable=SC2031 # the one from the command line
	printf 'history=%q\n' "$history"
} >"$work/meta.env"
: >"$work/results.tsv"
for s in "${sched_list[@]}"; do
	run=$work/runs/$s
	mkdir -p "$run"
	lc stop || true
	rm -rf "$cdir/log"
	opts=(--port-base "$port_base" --build "$build" --plugstack "$work/plugstack.conf")
	if [ "$s" = backfill ]; then
		opts+=(--sched sched/backfill --deadline-conf none)
	else
		deadline_conf "$s" real >"$run/deadline.conf"
		opts+=(--sched sched/deadline --deadline-conf "$run/deadline.conf")
	fi
	# every run's estimator starts from the same history: none of an
	# earlier run's tasks
	rm -f "$cdir/state/estimator.db" "$cdir/state/estimator.db-wal" "$cdir/state/estimator.db-shm"
	lc "${opts[@]}" start
	# shellcheck disable=SC2031 # the one from the command line
	if [ "$history" -gt 0 ] && [ "$s" != backfill ]; then
		[ -S "$cdir/run/estimator.sock" ] || die "$s: the local cluster started no estimator"
		est_send "$cdir/run/estimator.sock" "$work/history.req" >/dev/null
		say "$s: the cluster's estimator has the history ($(jq '.tasks | length' "$work/history.req" | awk '{ n += $1 } END { print n }') tasks)"
	fi
	cd "$cdir/jobs"
	t0=$(($(date +%s) + 3))
	echo "$t0" >"$run/t0"
	: >"$run/submitted.tsv"
	: >"$run/submit.err"
	say "$s: replaying $njobs jobs from $(date -d "@$t0" +%T)"
	replay
	say "$s: submitted in $(($(date +%s) - t0)) s; waiting for the queue to empty"
	if ! lc wait-idle "$max_wait" 2>"$run/wait.err"; then
		say "$s: jobs still queued after ${max_wait}s: cancelled, counted as unfinished"
		scancel --user=root || true
		sleep 5
	fi
	echo "$(($(date +%s) - t0))" >"$run/elapsed"
	cd "$top"
	cp "$cdir/log/jobcomp.txt" "$cdir/log/slurmctld.log" "$run/"
	lc stop
	real_outcomes
	diagnose
	# calibrated: the simulator with this run's own task overhead (mean)
	# and, for sched/deadline, freed-slot latency (p50)
	cal_overhead=$(awk -F'\t' '$1 == "overhead" { split($2, a, " "); print a[2] }' "$run/diag.tsv")
	cal_latency=$(awk -F'\t' '$1 == "turnover" { split($2, a, " "); printf "%.3f", a[2] / 1000 }' "$run/diag.tsv")
	[ "$s" != backfill ] || cal_latency=0
	simulate "$s" cal "${cal_overhead:-0}" "${cal_latency:-0}"
	# scheduler, sim policy, real metrics (7), a-priori sim metrics (7),
	# agreement (4), real start latency (4), sim start latency (4),
	# elapsed, calibrated sim metrics (7), its overhead and latency
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$(sim_policy "$s")" \
		"$(metrics "$run/outcomes")" "$(metrics "$work/sim/prior-$s.outcomes")" \
		"$(agreement "$run/outcomes" "$work/sim/prior-$s.outcomes")" \
		"$(awk -F'\t' '$1 == "start" { print $2 }' "$run/diag.tsv" | tr ' ' '\t')" \
		"$(sim_diagnose "$work/sim/prior-$s.csv" | tr ' ' '\t')" "$(cat "$run/elapsed")" \
		"$(metrics "$work/sim/cal-$s.outcomes")" "${cal_overhead:-0}" "${cal_latency:-0}" \
		>>"$work/results.tsv"
	say "$s: missed: real $(metrics "$run/outcomes" | cut -f3) %, simulated $(metrics "$work/sim/prior-$s.outcomes" | cut -f3) % (calibrated $(metrics "$work/sim/cal-$s.outcomes" | cut -f3) %)"
done
trap - EXIT
[ -z "$out" ] || report "$out" "$work"
exit
}
