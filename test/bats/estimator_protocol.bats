#!/usr/bin/env bats
# Replays every example of doc/protocol.md (```protocol blocks, '>' request
# and '<' expected response lines) against a fresh deadline-estimatord, in
# document order, on one connection.  A response must contain every field
# of the documented one with the same value.

load estimator_helpers

setup() {
	est_setup
	est_conf "ForecastFile=$EST_SRCDIR/contrib/forecast/twitter-2021-08.forecast"
}

teardown() {
	est_teardown
}

# Lines of the protocol blocks with the given prefix ('>' or '<').
doc_lines() {
	awk -v p="$1" '
		/^```protocol/ { inb = 1; next }
		/^```/ { inb = 0; next }
		inb && substr($0, 1, 2) == p " " { print substr($0, 3) }
	' "$EST_SRCDIR/doc/protocol.md"
}

# Recursive "expected is contained in actual" (exact scalars, equal-length
# arrays, objects may have extra keys).
JQ_SUBSET='def sub($a):
	if type == "object" then ($a | type) == "object" and
		(to_entries | all(.key as $k | .value | sub($a[$k])))
	elif type == "array" then ($a | type) == "array" and
		length == ($a | length) and
		(to_entries | all(.key as $i | .value | sub($a[$i])))
	else . == $a end;
$e | sub($a)'

@test "doc/protocol.md examples replay against the daemon" {
	doc_lines '>' >"$EST_DIR/requests"
	doc_lines '<' >"$EST_DIR/expected"
	nreq=$(wc -l <"$EST_DIR/requests")
	[ "$nreq" -ge 15 ]
	[ "$nreq" -eq "$(wc -l <"$EST_DIR/expected")" ]
	est_start
	est_send --expect "$nreq" <"$EST_DIR/requests" >"$EST_DIR/actual"
	[ "$(wc -l <"$EST_DIR/actual")" -eq "$nreq" ]
	i=0
	while IFS= read -r exp <&4 && IFS= read -r act <&5; do
		i=$((i + 1))
		if ! jq -n -e --argjson e "$exp" --argjson a "$act" "$JQ_SUBSET" >/dev/null; then
			echo "example $i differs:"
			echo "  request:  $(sed -n "${i}p" "$EST_DIR/requests")"
			echo "  expected: $exp"
			echo "  actual:   $act"
			false
		fi
	done 4<"$EST_DIR/expected" 5<"$EST_DIR/actual"
	[ "$i" -eq "$nreq" ]
}

@test "the subset comparison rejects a wrong value (the replay can fail)" {
	run jq -n -e --argjson e '{"a":{"b":1}}' --argjson a '{"a":{"b":2},"c":3}' "$JQ_SUBSET"
	[ "$status" -ne 0 ]
	run jq -n -e --argjson e '{"s":"history"}' --argjson a '{"s":"history:name"}' "$JQ_SUBSET"
	[ "$status" -ne 0 ]
	run jq -n -e --argjson e '{"a":[1]}' --argjson a '{"a":[1,2]}' "$JQ_SUBSET"
	[ "$status" -ne 0 ]
	run jq -n -e --argjson e '{"a":{"b":1}}' --argjson a '{"a":{"b":1,"x":0},"c":3}' "$JQ_SUBSET"
	[ "$status" -eq 0 ]
}
