# shellcheck shell=bash
# Shared helpers of the bats suites: a local Slurm per test file
# (contrib/localcluster), job submission, waiting, and reading outcomes from
# jobcomp/filetxt and from sdeadline.
#
#   load helpers
#   setup_file()    { dl_cluster_start [localcluster start options]; }
#   teardown_file() { dl_cluster_stop; }
#
# Environment: DL_BUILD (build tree, default ./build), DL_PORT_BASE
# (slurmctld port, nodes above it; default 20000), DL_PORT_OFFSET (added
# to every suite's port base: a second run next to the first, e.g. the
# Slurm 24.11 stage of contrib/run-tests.sh; default 0).

DL_SRC=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
DL_BUILD=${DL_BUILD:-$DL_SRC/build}
LOCALCLUSTER=$DL_SRC/contrib/localcluster/localcluster
SDEADLINE=$DL_BUILD/src/sdeadline/sdeadline
export DL_SRC DL_BUILD LOCALCLUSTER SDEADLINE

# localcluster on this file's cluster
lc() {
	LC_QUIET=1 "$LOCALCLUSTER" --dir "$LC_DIR" "$@"
}

dl_cluster_start() {
	export LC_DIR=${LC_DIR:-$BATS_FILE_TMPDIR/cluster}
	export SLURM_CONF=$LC_DIR/etc/slurm.conf
	[ -x "$SDEADLINE" ] || {
		echo "no build in $DL_BUILD (set DL_BUILD)" >&2
		return 1
	}
	lc --port-base "$((${DL_PORT_BASE:-20000} + ${DL_PORT_OFFSET:-0}))" \
		--build "$DL_BUILD" start "$@"
}

# The cluster of the sched_* suites that watch single arrays: 4 nodes x 2
# CPUs, a plan every 2 s, no estimator (the jobs' own task lengths); its
# deadline.conf in $BATS_FILE_TMPDIR for variants
dl_cluster_start_small() {
	printf 'PlanInterval=2\nReplanDelay=1\nEstimatorSocket=""\n' \
		>"$BATS_FILE_TMPDIR/deadline.conf"
	dl_cluster_start --nodes 4 --cpus 2 \
		--deadline-conf "$BATS_FILE_TMPDIR/deadline.conf"
}

dl_cluster_stop() {
	[ -n "${LC_DIR:-}" ] || return 0
	lc stop
}

dl_ctld_log() {
	echo "$LC_DIR/log/slurmctld.log"
}

# The last lines of slurmctld's log that mention sched/deadline (for
# failure output).
dl_show_log() {
	grep 'sched/deadline' "$(dl_ctld_log)" | tail -n "${1:-40}" >&2 || true
}

# Fails when the command succeeds.  A test must not write `! cmd`: bash's
# errexit ignores a negated command, so anywhere but on a test's last line
# it can never fail (bats-core's documentation says the same).
dl_refute() {
	if "$@"; then
		echo "expected to fail, but succeeded: $*" >&2
		return 1
	fi
}

# sbatch from the cluster's job directory; prints the job id
dl_submit() {
	(cd "$LC_DIR/jobs" && sbatch --parsable -o /dev/null "$@") | cut -d';' -f1
}

# Wait until none of the given jobs (array ids) is pending or running.
dl_wait_jobs() { # timeout id...
	local timeout=$1 end
	shift
	end=$((SECONDS + timeout))
	while [ $SECONDS -lt $end ]; do
		if [ -z "$(squeue -h -o %i -j "$(
			IFS=,
			echo "$*"
		)" 2>/dev/null)" ]; then
			return 0
		fi
		sleep 1
	done
	echo "jobs $* still queued after ${timeout}s" >&2
	squeue >&2 || true
	return 1
}

# jobcomp lines of an array: "STATE TASKID START END" with epoch times
dl_tasks() { # array id
	lc tasks "$1"
}

# tasks of an array that completed successfully
dl_completed() {
	dl_tasks "$1" | awk '$1 == "COMPLETED"' | wc -l
}

# records of an array ended by Slurm's deadline cancellation
dl_deadline_cancelled() {
	dl_tasks "$1" | awk '$1 == "DEADLINE"' | wc -l
}

# epoch of the last task end of an array (0 when none)
dl_last_end() {
	dl_tasks "$1" | awk 'BEGIN { m = 0 } $1 == "COMPLETED" && $4 > m { m = $4 } END { print m }'
}

# an epoch as --soft-deadline and --deadline take it
dl_deadline_arg() {
	date -d "@$1" +%Y-%m-%dT%H:%M:%S
}

# The three arrays of the triage demonstration (sched_triage,
# sched_promise, sched_portfolio), submitted in this order: PREFIX-first (32
# tasks) due at epoch $3, PREFIX-big (64) due at $4 and PREFIX-last (32) due
# at $5, every task sleeping $2 s.  Prints the three array ids.
dl_submit_trio() { # prefix seconds d_first d_big d_last
	echo "$(dl_submit -J "$1-first" --array=0-31 -t 2:00 \
		--soft-deadline="$(dl_deadline_arg "$3")" --wrap="sleep $2")" \
		"$(dl_submit -J "$1-big" --array=0-63 -t 2:00 \
			--soft-deadline="$(dl_deadline_arg "$4")" --wrap="sleep $2")" \
		"$(dl_submit -J "$1-last" --array=0-31 -t 2:00 \
			--soft-deadline="$(dl_deadline_arg "$5")" --wrap="sleep $2")"
}

# epoch of the first task start of an array (0 when none)
dl_first_start() {
	dl_tasks "$1" | awk '$1 == "COMPLETED" && (m == "" || $3 < m) { m = $3 } END { print m + 0 }'
}

# a job's deadline as epoch seconds (scontrol)
dl_deadline() {
	local d
	d=$(scontrol show job "$1" 2>/dev/null | grep -o 'Deadline=[^ ]*' | head -n 1 | cut -d= -f2)
	date -d "$d" +%s
}

# Replays slurmctld's log: a deadline array's priority mode and throttle
# from the plugin's "JobId=DL throttle A -> B, priority X -> Y: needs N ...;
# allotted M" lines, and every task start (main scheduler "Allocate",
# backfill "Started") and end.  The need the plugin ranks it above work
# without deadlines for is N rounded up, at most the M allotted (the
# partition may hold fewer).  Prints four numbers: the other array's task
# starts while the deadline array was urgent or kept (both rank above work
# without deadlines) with unstarted tasks and fewer running than its
# throttle (must be 0); demotions from urgent or kept to idle-only with
# fewer tasks running than that need (must be 0); how many of the deadline
# array's tasks had started at its first demotion; and its task ends while
# it was idle-only with unstarted tasks and, after the end, fewer running
# than that need (the CPU then goes to other work: must be 0).
dl_dispatch_replay() { # deadline array, other array, tasks in the deadline array
	awk -v dl="$1" -v bob="$2" -v total="$3" '
	# each event counted, on stderr: the test prints it when it fails
	function why(what, limit) {
		printf "replay: %s %s: mode %s, %d started, %d running, limit %d\n",
		       $1, what, mode, started, started - done, limit > "/dev/stderr"
	}
	index($0, "sched/deadline: JobId=" dl " throttle ") && / priority / {
		split($0, t, " throttle "); split(t[2], tt, " -> ")
		thr = tt[2] + 0
		split($0, p, " priority "); split(p[2], pp, " -> ")
		was = pp[1]; mode = pp[2]; sub(/[: ].*/, "", mode)
		if (index($0, " needs ")) {
			split($0, n, " needs "); need = n[2] + 0
			if (need > int(need)) need = int(need) + 1
			if (index($0, "; allotted ")) {
				split($0, a, "; allotted ")
				if (a[2] + 0 < need) need = a[2] + 0
			}
		}
		if ((was == "urgent" || was == "keep") && mode == "idle-only") {
			if (started - done < need) {
				below++
				why("demoted below its need", need)
			}
			if (!demoted) { demoted = 1; at_demotion = started }
		}
		next
	}
	/(Allocate|Started) JobId=/ {
		if (index($0, "JobId=" dl "_")) started++
		else if (index($0, "JobId=" bob "_") &&
			 (mode == "urgent" || mode == "keep") &&
			 started < total && started - done < thr) {
			ahead++
			why("other array started ahead", thr)
		}
		next
	}
	/_job_complete: JobId=.* done/ && index($0, "JobId=" dl "_") {
		done++
		if (mode == "idle-only" && started < total &&
		    started - done < need) {
			lost++
			why("own end lost while idle-only", need)
		}
	}
	END {
		print ahead + 0, below + 0,
		      (demoted ? at_demotion : started) + 0, lost + 0
	}
	' "$(dl_ctld_log)"
}

# A field of a job in sdeadline --json: dl_plan_field JOBID FIELD
dl_plan_field() {
	"$SDEADLINE" --json | jq -r --argjson id "$1" --arg f "$2" \
		'.jobs[] | select(.job_id == $id or .reduce_id == $id) | .[$f]'
}

# Run a command every 0.25 s until it succeeds (0) or $1 s pass (1): the
# one polling loop of the helpers below
dl_poll() { # seconds command...
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.25
	done
}

# Hold every node with a job the plan does not manage and wait until it
# runs, so that the next plan already sees the nodes taken (a plan made
# before the blocker starts still shows the free cluster).  Prints its id.
dl_block_nodes() { # nodes
	local blocker
	blocker=$(dl_submit -N"${1:-2}" --exclusive -t 1 --wrap 'sleep 300')
	dl_poll 10 _dl_n_running "$blocker" 1 ||
		{ echo "blocker $blocker never ran" >&2; return 1; }
	echo "$blocker"
}

# Running tasks of array $1 on node $2
dl_running_on() {
	squeue -h -t R -r -j "$1" -o '%N' 2>/dev/null | grep -cx "$2" || true
}

# Wait until array $1 has at least one running task (timeout $2 s)
dl_wait_running() {
	dl_poll "${2:-30}" _dl_n_running "$1" 1 ||
		{ echo "array $1 never ran a task" >&2; return 1; }
}

_dl_n_running() { [ "$(squeue -h -r -j "$1" -t R 2>/dev/null | wc -l)" -ge "$2" ]; }
_dl_urgent() { grep -q "JobId=$1 throttle .*priority slurm -> urgent" "$(dl_ctld_log)"; }
_dl_planned() { [ -n "$(dl_plan_field "$1" job_id 2>/dev/null)" ]; }
_dl_plan_field_is() { [ "$(dl_plan_field "$1" "$2" 2>/dev/null)" = "$3" ]; }
_dl_policy_is() { [ "$("$SDEADLINE" --json 2>/dev/null | jq -r .policy)" = "$1" ]; }

# Whether squeue (with options $@) lists no job.  A poll must call it, not
# `test -z "$(squeue ...)"`, whose squeue runs once, before the poll.
dl_queue_empty() { [ -z "$(squeue -h "$@" 2>/dev/null)" ]; }

# Wait until field $2 of job $1 in the published plan reads $3 (at most $4
# s, default 20): a plan made between two submissions (a map array and its
# reduce array) shows the first alone until the next cycle; the caller
# asserts the field
dl_wait_plan_field() { dl_poll "${4:-20}" _dl_plan_field_is "$1" "$2" "$3" || true; }

# Wait until array $1 has $2 tasks running (at most 20 s); the caller
# asserts what it waited for
dl_wait_n_running() { dl_poll 20 _dl_n_running "$1" "$2" || true; }

# Wait until sched/deadline has logged array $1 turning urgent (at most
# 20 s); the caller asserts it
dl_wait_urgent() { dl_poll 20 _dl_urgent "$1" || true; }

# The plan's cycle count (sdeadline --json), empty while there is no plan
dl_plan_cycle() { "$SDEADLINE" --json 2>/dev/null | jq -r '.cycle // empty'; }
_dl_cycle_reached() { local c; c=$(dl_plan_cycle); [ -n "$c" ] && [ "$c" -ge "$1" ]; }

# Wait (at most $1 s, default 30) until a plan cycle that began after this
# call has ended, with whatever it saves: the next one may have begun
# before the call, and a cycle's successor starts only once it has ended,
# so the third after the current one proves it
dl_wait_cycle() {
	local c0
	c0=$(dl_plan_cycle)
	[ -n "$c0" ] || { echo "no plan to count cycles on" >&2; return 1; }
	dl_poll "${1:-30}" _dl_cycle_reached "$((c0 + 3))" && return 0
	echo "no plan cycle ended within ${1:-30} s (cycle $c0 -> $(dl_plan_cycle))" >&2
	return 1
}

# Wait until the published plan has job $1 (timeout $2)
dl_wait_planned() {
	dl_poll "${2:-20}" _dl_planned "$1" && return 0
	echo "job $1 never appeared in the plan" >&2
	dl_show_log
	return 1
}

# Cancel every job of this user and wait (at most 20 s) until the queue is
# empty: a test's teardown, so that a failed test leaves nothing to take
# the next one's CPUs
dl_cancel_all() {
	scancel --quiet --user="$(id -un)" 2>/dev/null || true
	dl_poll 20 dl_queue_empty || true
}

# Reconfigure with deadline.conf $1 and wait (at most 20 s) until the
# plan is made under Policy=$2; fails when it is not
dl_use_policy() { # deadline.conf policy
	lc --deadline-conf "$1" reconfigure
	dl_poll 20 _dl_policy_is "$2" || true
	[ "$("$SDEADLINE" --json | jq -r .policy)" = "$2" ]
}

# ArrayTaskThrottle of an array (0 = none)
dl_throttle() {
	local t
	t=$(scontrol show job "$1" 2>/dev/null | grep -o 'ArrayTaskThrottle=[0-9]*' | head -n 1 | cut -d= -f2)
	echo "${t:-0}"
}

# "met" when all N tasks of the array completed by the deadline
dl_outcome() { # array id, tasks, deadline epoch
	local done last
	done=$(dl_completed "$1")
	last=$(dl_last_end "$1")
	if [ "$done" -eq "$2" ] && [ "$last" -le "$3" ]; then
		echo met
	else
		echo missed
	fi
}

# The outcome (met/missed) of a finished job in the plan, waiting until the
# plan has caught up with the job's end (timeout $2, default 15 s)
dl_plan_outcome() {
	local end=$((SECONDS + ${2:-15})) o
	while [ $SECONDS -lt $end ]; do
		o=$(dl_plan_field "$1" outcome 2>/dev/null)
		if [ -n "$o" ] && [ "$o" != null ]; then
			echo "$o"
			return 0
		fi
		sleep 0.5
	done
	echo "none"
}
