#!/bin/sh
# Derive bench/workloads/twitter-2021-load.txt, the external-load shape f(t)
# of the reverse-adaptive reproduction, from the Twitter sample-stream
# message counts (traces/twitter-stream-2021, blocks 00-02: three
# consecutive days, one integer per second).
#
#   derive-twitter-load.sh TRACE_DIR > twitter-2021-load.txt
#
# Per minute: the mean message rate.  Each block ends with a hole of
# 1,739 zero seconds (missing archive files, offsets 84,661-86,399); minutes
# touching it are interpolated linearly between the last full minute before
# and the first full minute after it (the next day's start; after the last
# day, the first day's start: the series is used as a repeating day cycle).
# A centred 61-minute moving average (circular) keeps the diurnal shape and
# the bursts that last an hour or more, not minute-scale spikes (a front end
# is provisioned for those).  Values are then
# scaled to [0, 1]: 0 is the quietest minute of the three days, 1 the
# busiest; the generator maps them to the share of nodes the external load
# holds (deadline-sim gen reverse --ext-peak).
set -eu
dir=${1:?usage: derive-twitter-load.sh TRACE_DIR}
for b in 00 01 02; do
	f="$dir/tweets_per_second_block$b.txt"
	[ -r "$f" ] || { echo "derive-twitter-load: cannot read $f" >&2; exit 1; }
done
cat "$dir/tweets_per_second_block00.txt" "$dir/tweets_per_second_block01.txt" \
	"$dir/tweets_per_second_block02.txt" |
awk '
{ sum[int((NR - 1) / 60)] += $1; sec = NR }
END {
	n = int(sec / 60)
	# the hole: seconds 84661-86399 of each day, minutes 1411-1439
	for (m = 0; m < n; m++) {
		d = m % 1440
		bad[m] = (d >= 1411)
		v[m] = sum[m] / 60
	}
	for (m = 0; m < n; m++) {
		if (!bad[m]) continue
		a = m; while (bad[a]) a--
		b = m; while (bad[b % n]) b++
		w = (m - a) / (b - a)
		v[m] = v[a] * (1 - w) + v[b % n] * w
	}
	for (m = 0; m < n; m++) {
		s = 0
		for (k = -30; k <= 30; k++) s += v[(m + k + n) % n]
		sm[m] = s / 61
	}
	lo = hi = sm[0]
	for (m = 0; m < n; m++) {
		if (sm[m] < lo) lo = sm[m]
		if (sm[m] > hi) hi = sm[m]
	}
	for (m = 0; m < n; m++) printf "%.4f\n", (sm[m] - lo) / (hi - lo)
}'
