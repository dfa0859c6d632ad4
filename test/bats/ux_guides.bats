#!/usr/bin/env bats
# The guides, followed literally: the admin guide's "Try it on one machine"
# (enable the plugins on the local cluster), the user guide's first
# MapReduce job with smapreduce --wait and sdeadline, then the admin guide's
# stop.  The commands come out of the Markdown (blocks marked
# "<!-- test: run -->" / "<!-- test: run last -->"), so the test runs exactly
# what a reader types.  The install step is checked too: the man pages land
# under share/man and man renders them.
load ux_helpers

# blocks of FILE marked with MARK, in order
blocks() { # file mark
	awk -v mark="<!-- test: $2 -->" '
		$0 == mark { want = 1; next }
		want && /^```sh$/ { inside = 1; want = 0; next }
		inside && /^```$/ { inside = 0; print ""; next }
		inside { print }
		{ want = want && /^[[:space:]]*$/ }
	' "$1"
}

setup_file() {
	# the guides say build/: the tree contrib/run-tests.sh built
	if [ "$(readlink -f "$DL_BUILD")" != "$(readlink -f "$DL_SRC/build")" ]; then
		echo "the guides use build/ of the source tree; DL_BUILD=$DL_BUILD differs" >&2
		return 1
	fi
	# a cluster of the test's own (the guides use localcluster's defaults)
	export LOCALCLUSTER_DIR=$BATS_FILE_TMPDIR/guide-cluster
	export LOCALCLUSTER_PORT_BASE=$((23060 + ${DL_PORT_OFFSET:-0}))
	export LC_DIR=$LOCALCLUSTER_DIR
	export HOME=$BATS_FILE_TMPDIR/home
	mkdir -p "$HOME"
}

teardown_file() {
	[ -f "$LC_DIR/etc/slurm.conf" ] && SLURM_CONF=$LC_DIR/etc/slurm.conf ux_cluster_stop
	true
}

@test "the guides' prerequisites are met (contrib/run-tests.sh built the tree)" {
	run blocks "$DL_SRC/doc/admin-guide.md" "prerequisite (contrib/run-tests.sh does these steps)"
	[[ "$output" == *"contrib/setup-deps.sh"* ]]
	[[ "$output" == *"../configure"* ]]
	for f in src/plugins/sched/deadline/.libs/sched_deadline.so \
		src/plugins/spank/.libs/spank_deadline.so \
		src/sdeadline/sdeadline src/smapreduce/smapreduce; do
		[ -e "$DL_SRC/build/$f" ] || { echo "missing build/$f"; false; }
	done
}

@test "admin guide + user guide: enable, smapreduce --wait, read sdeadline" {
	{
		echo 'set -eu'
		echo 'cd "$DL_SRC"'
		blocks "$DL_SRC/doc/admin-guide.md" run
		echo 'echo "== user guide"'
		blocks "$DL_SRC/doc/user-guide.md" run
		echo 'echo "== results"'
		echo 'for f in ~/wordcount/out/reduce-*.txt; do echo "$f $(wc -l <"$f")"; done'
		echo 'cd "$DL_SRC"'
		blocks "$DL_SRC/doc/admin-guide.md" "run last"
	} >"$BATS_FILE_TMPDIR/guides.sh"
	cat -n "$BATS_FILE_TMPDIR/guides.sh"
	# the reader's shell: no PATH or SLURM_CONF from the test harness
	run env -u SLURM_CONF PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		bash "$BATS_FILE_TMPDIR/guides.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	# admin guide: the plugins are enabled
	echo "$output" | grep -qE "^SchedulerType += sched/deadline$"
	echo "$output" | grep -qE '^ +--soft-deadline=time +Completion goal'
	[[ "$output" == *"sched/deadline: loaded (plugin_version 0x"* ]]
	# user guide: smapreduce submitted both arrays and met the soft deadline
	map=$(echo "$output" | sed -n 's/^Submitted map array \([0-9]*\) (8 tasks)$/\1/p')
	red=$(echo "$output" | sed -n "s/^Submitted reduce array \([0-9]*\) (2 tasks, after map array $map succeeds)$/\1/p")
	[ -n "$map" ] && [ -n "$red" ]
	echo "$output" | grep -qE "^map 8/8 \[##########\]  reduce 2/2 \[##########\]"
	echo "$output" | grep -qE "^MapReduce job $map:$red completed at [0-9:]+, [0-9a-z]+ before its soft deadline"
	# sdeadline shows the pair as one row with a verdict and why (the plan
	# may still be the one from before the end: then a running verdict)
	echo "$output" | grep -qE "^$map\+$red +root +(map|reduce|done) +triage .* (on_track|at_risk|no_data|met) +[a-z]+ "
	# the by-hand pair is planned too, as one row
	echo "$output" | grep -qE "^[0-9]+\+[0-9]+ +root +(map|reduce|done) +triage .* (on_track|at_risk|no_data|met) +[a-z]+ "
	# and the word count is right: every word in one reduce output, the
	# totals those of the input
	want=$(tr -cs '[:alpha:]' '\n' </usr/share/common-licenses/GPL-3 | grep -vc '^$')
	got=$(cat "$HOME"/wordcount/out/reduce-*.txt | awk '{ s += $2 } END { print s }')
	[ "$got" -eq "$want" ]
	[ "$(cat "$HOME"/wordcount/out/reduce-*.txt | awk '{ print $1 }' | sort | uniq -d | wc -l)" -eq 0 ]
	# the admin guide's last step stopped the cluster
	run contrib/localcluster/localcluster --dir "$LC_DIR" status
	[ "$status" -ne 0 ]
}

@test "make install puts the man pages where man finds them, and they render" {
	inst=$BATS_FILE_TMPDIR/inst
	make -s -C "$DL_BUILD" install DESTDIR="$inst" >/dev/null
	mandir=$(dirname "$(find "$inst" -name sdeadline.1 -path '*/man1/*')")
	mandir=${mandir%/man1}
	for page in sdeadline.1 smapreduce.1 deadline.conf.5 spank_deadline.8; do
		name=${page%.*}
		sec=${page##*.}
		[ -f "$mandir/man$sec/$page" ]
		# found by name in that manual tree, and rendered
		[ "$(MANPATH=$mandir man -w "$sec" "$name")" = "$mandir/man$sec/$page" ]
		MANPATH=$mandir MANWIDTH=80 man -P cat "$sec" "$name" >"$BATS_TEST_TMPDIR/out" 2>&1
		grep -q '^NAME' "$BATS_TEST_TMPDIR/out"
		grep -q '^SEE ALSO' "$BATS_TEST_TMPDIR/out"
	done
	# the guides and examples are installed next to each other
	docdir=$(dirname "$(find "$inst" -name admin-guide.md)")
	for f in user-guide.md ux.md examples/plugstack.conf examples/deadline.conf \
		examples/slurm.conf.fragment examples/slurm-deadline.tmpfiles.conf; do
		[ -f "$docdir/$f" ] || { echo "missing $docdir/$f"; false; }
	done
}
