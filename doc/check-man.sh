#!/bin/sh
# make check: every man page in doc/ renders with groff without a warning,
# deadline.conf(5) documents exactly the options of the core's table, and
# the example deadline.conf loads.
# Exit 77 (skipped) only when groff is not installed.
set -u
srcdir=${srcdir:-.}
status=0
./doc/check_conf_man "$srcdir/doc/deadline.conf.5" \
	"$srcdir/contrib/examples/deadline.conf" "$srcdir/doc/admin-guide.md" ||
	status=1
# the guides link every man page and each other
for page in "$srcdir"/doc/*.[1-8]; do
	[ -f "$page" ] || continue
	name=$(basename "$page")
	ref="${name%.*}(${name##*.})"
	grep -qF "$ref" "$srcdir/doc/admin-guide.md" ||
		{ echo "doc/admin-guide.md does not mention $ref"; status=1; }
done
for ref in "smapreduce(1)" "sdeadline(1)" "spank_deadline(8)" "admin-guide.md"; do
	grep -qF "$ref" "$srcdir/doc/user-guide.md" ||
		{ echo "doc/user-guide.md does not mention $ref"; status=1; }
done
grep -qF "user-guide.md" "$srcdir/doc/admin-guide.md" ||
	{ echo "doc/admin-guide.md does not link user-guide.md"; status=1; }
if ! command -v groff >/dev/null 2>&1; then
	echo "groff not installed: man pages not rendered"
	[ "$status" = 0 ] && exit 77
	exit "$status"
fi
pages=0
for page in "$srcdir"/doc/*.[1-8]; do
	[ -f "$page" ] || continue
	pages=$((pages + 1))
	out=$(LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 "$page" 2>&1)
	if [ -n "$out" ]; then
		echo "$page:"
		echo "$out"
		status=1
	fi
	# the NAME section is what man -k / whatis index
	if ! sed -n '/^\.SH NAME/,/^\.SH/p' "$page" | grep -q ' \\- '; then
		echo "$page: NAME section without 'name \\- description'"
		status=1
	fi
done
echo "rendered $pages man pages"
exit "$status"
