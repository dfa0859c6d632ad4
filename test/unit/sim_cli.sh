#!/bin/sh
# make check: deadline-sim's output streams (issue 17): `run --jobs-csv -`
# prints the CSV and nothing else (every line parses with the header's
# fields, no table, no oracle line); `--summary-json -` prints one JSON
# document; the table alone otherwise.  Skipped (77) without python3.
set -eu
command -v python3 >/dev/null || { echo "python3 not installed: skipped"; exit 77; }
sim="${top_builddir:-.}/src/sim/deadline-sim"
d=$(mktemp -d "${TMPDIR:-/tmp}/sim_cli.XXXXXX")
trap 'rm -rf "$d"' EXIT
echo '{"nodes":[{"name":"n","count":2,"cpus":2}]}' >"$d/c.json"
cat >"$d/w.json" <<'W'
{"jobs":[
 {"name":"a, with comma","arrival":0,"relative_deadline":100,"maps":4,"map_length":10},
 {"name":"b","arrival":5,"relative_deadline":15,"maps":8,"map_length":10},
 {"name":"c","arrival":5,"maps":2,"map_length":10}]}
W
"$sim" run --cluster "$d/c.json" --workload "$d/w.json" --policy triage \
	--oracle --jobs-csv - >"$d/out.csv"
python3 - "$d/out.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
assert head[0] == "id" and "verdict" in head and "stall" in head, head
assert len(rows) == 4, rows          # header + 3 jobs, nothing else
for r in rows[1:]:
    assert len(r) == len(head), r
assert rows[1][1] == "a, with comma", rows[1]
PY
"$sim" run --cluster "$d/c.json" --workload "$d/w.json" --policy triage \
	--summary-json - >"$d/out.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["policy"] == "triage", d' "$d/out.json"
# to a file, the table comes on stdout as before
"$sim" run --cluster "$d/c.json" --workload "$d/w.json" --policy triage \
	--jobs-csv "$d/file.csv" >"$d/table.txt"
grep -q '^policy ' "$d/table.txt"
[ "$(wc -l <"$d/file.csv")" -eq 4 ]
# --seeds: one row per policy with mean and sd, the summary JSON of the
# aggregate, per-seed outputs refused
"$sim" compare --cluster "$d/c.json" --workload "$d/w.json" \
	--policies triage,fifo --seeds 3 --tsv --out-dir "$d/cmp" >"$d/seeds.tsv"
head -n 1 "$d/seeds.tsv" | grep -q '^policy	seeds	met_mean	met_sd	'
[ "$(awk -F'\t' '$1 == "triage" && $2 == 3' "$d/seeds.tsv" | wc -l)" -eq 1 ]
[ "$(awk -F'\t' '$1 == "oracle"' "$d/seeds.tsv" | wc -l)" -eq 1 ]
python3 - "$d/cmp/summary-triage.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seeds"] == [1, 2, 3], d
assert d["mean"]["met"] is not None and d["sd"]["met"] >= 0, d
PY
if "$sim" run --cluster "$d/c.json" --workload "$d/w.json" --policy triage \
	--seeds 2 --jobs-csv - >/dev/null 2>&1; then
	echo "--seeds with --jobs-csv accepted"; exit 1
fi
# two outputs on stdout would interleave: a usage error
if "$sim" run --cluster "$d/c.json" --workload "$d/w.json" --policy triage \
	--jobs-csv - --summary-json - >/dev/null 2>"$d/err"; then
	echo "two outputs on stdout accepted"; exit 1
fi
grep -q 'only one of' "$d/err"
# the oracle is a bound, not a run: its utilisation, lateness and makespan
# are undefined and print as "-", never as a measured-looking 0
"$sim" compare --cluster "$d/c.json" --workload "$d/w.json" \
	--policies triage --oracle --tsv >"$d/oracle.tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "oracle" { n++; if ($c["util"] != "-" || $c["makespan_s"] != "-" ||
		$c["late_mean_s"] != "-" || $c["lateness_s"] != "-") bad = 1 }
	$1 == "triage" { if ($c["util"] == "-" || $c["makespan_s"] + 0 <= 0) bad = 1 }
	END { exit !(n == 1 && !bad) }' "$d/oracle.tsv" ||
	{ echo "oracle row of the TSV:"; cat "$d/oracle.tsv"; exit 1; }
"$sim" compare --cluster "$d/c.json" --workload "$d/w.json" \
	--policies triage --oracle >"$d/oracle.txt"
awk 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "oracle" { n++; if ($c["util"] != "-" || $c["late_mean_s"] != "-") bad = 1 }
	END { exit !(n == 1 && !bad) }' "$d/oracle.txt" ||
	{ echo "oracle row of the table:"; cat "$d/oracle.txt"; exit 1; }
echo "sim_cli: ok"
