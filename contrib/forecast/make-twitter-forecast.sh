#!/bin/sh
# Build the demo external-load forecast (twitter-2021-08.forecast) from the
# per-second message counts of the Twitter sample stream, August 2021
# (three consecutive 86,400-value blocks, one integer per line).
#
#   contrib/forecast/make-twitter-forecast.sh BLOCK_FILE... > twitter-2021-08.forecast
#
# For every minute of the day: the mean messages/s over the three days,
# zero seconds counted as missing (the archive has a 29-minute hole at the
# end of every block and a few isolated empty seconds; a real sample stream
# of ~60 msgs/s is never silent for a second).  Minutes with fewer than 30
# valid seconds over all days (the edges of the hole) are interpolated
# linearly between their neighbours (the series is periodic).
# The load is then scaled so that the busiest minute holds PEAK (default
# 0.8) of a node class: f(t) = PEAK * rate(t) / max rate.
set -eu
peak=${PEAK:-0.8}
[ $# -ge 1 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
for f in "$@"; do
	[ -r "$f" ] || { echo "make-twitter-forecast: cannot read $f" >&2; exit 1; }
done
awk -v peak="$peak" '
FNR == 1 { file++ }
{
	if (FNR > 86400) { print "block " FILENAME " has more than 86400 lines" > "/dev/stderr"; exit 1 }
	if ($1 !~ /^[0-9]+$/) { print FILENAME ":" FNR ": not a count" > "/dev/stderr"; exit 1 }
	m = int((FNR - 1) / 60)
	if ($1 > 0) { sum[m] += $1; cnt[m]++ }
}
END {
	n = 1440
	for (m = 0; m < n; m++) have[m] = (cnt[m] >= 30)
	for (m = 0; m < n; m++) if (have[m]) v[m] = sum[m] / cnt[m]
	# periodic linear interpolation over minutes without data
	for (m = 0; m < n; m++) {
		if (have[m]) continue
		for (a = 1; a < n && !have[(m - a + n) % n]; a++) ;
		for (b = 1; b < n && !have[(m + b) % n]; b++) ;
		if (a >= n) { print "no data at all" > "/dev/stderr"; exit 1 }
		lo = v[(m - a + n) % n]; hi = v[(m + b) % n]
		v[m] = lo + (hi - lo) * a / (a + b); filled++
	}
	max = 0
	for (m = 0; m < n; m++) if (v[m] > max) max = v[m]
	printf "# slurm-deadline demo external-load forecast f(t), built by\n"
	printf "# contrib/forecast/make-twitter-forecast.sh from %d day(s) of Twitter\n", file
	printf "# sample-stream message counts (August 2021); see contrib/forecast/README.md.\n"
	printf "# Value: share of a node class held by the front end, PEAK=%s at the\n", peak
	printf "# busiest minute (max %.1f msgs/s); %d minute(s) interpolated.\n", max, filled
	printf "# Offset 0 of the source is taken as 00:29 UTC (epoch 1740, see README).\n"
	printf "step 60\nepoch 1740\nperiod 86400\nclass default\n"
	for (m = 0; m < n; m++) {
		printf "%.4f%s", peak * v[m] / max, (m % 10 == 9) ? "\n" : " "
	}
}' "$@"
