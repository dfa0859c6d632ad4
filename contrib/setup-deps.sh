#!/bin/sh
# Install everything slurm-deadline needs on Debian 12 (Slurm 22.05) or
# Debian 13 (Slurm 24.11) and prepare the configured Slurm source tree the
# plugins are compiled against.
#
#   contrib/setup-deps.sh [--slurm-src-dir DIR] [--no-packages] [--no-dev-tools]
#
# --no-dev-tools leaves out what only the Slurm-22.05 stages of
# contrib/run-tests.sh use (clang, valgrind, clang-format): the
# Slurm 24.11 chroot builds and runs the plugins without them.
#
# Idempotent: packages already installed and a tree already configured for the
# installed Slurm version are left alone, so a second run takes seconds.
set -eu

SLURM_SRC_PARENT=${SLURM_SRC_PARENT:-/var/cache/slurm-deadline}
install_packages=1
dev_tools=1
while [ $# -gt 0 ]; do
	case "$1" in
	--slurm-src-dir) SLURM_SRC_PARENT=$2; shift 2 ;;
	--no-packages) install_packages=0; shift ;;
	--no-dev-tools) dev_tools=0; shift ;;
	-h|--help) sed -n '2,14p' "$0"; exit 0 ;;
	*) echo "setup-deps: unknown option '$1'" >&2; exit 2 ;;
	esac
done

if [ "$(id -u)" != 0 ]; then
	echo "setup-deps: must run as root (it installs packages)" >&2
	exit 1
fi

# libpam0g-dev: Slurm's configure with Debian's flags (--enable-pam);
# gnuplot-nox: the quickstart's timeline (and the benchmarks' plots)
PACKAGES="build-essential autoconf automake libtool pkg-config dpkg-dev
 slurm-wlm slurmctld slurmd slurm-client libslurm-dev munge libmunge-dev
 libpam0g-dev libjson-c-dev libsqlite3-dev sqlite3 check bats bc jq man-db
 groff-base procps python3 gnuplot-nox"
DEV_TOOLS="valgrind clang libclang-rt-dev clang-format"
[ "$dev_tools" = 0 ] || PACKAGES="$PACKAGES $DEV_TOOLS"

missing=""
if [ "$install_packages" = 1 ]; then
	for p in $PACKAGES; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			missing="$missing $p"
		fi
	done
fi

# A deb-src entry derived from the machine's own Debian sources, so that
# `apt-get source` works without naming any mirror here.
ensure_deb_src() {
	srcfile=/etc/apt/sources.list.d/slurm-deadline-src.sources
	[ -f "$srcfile" ] && return 0
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed -n 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb-src/; p' \
			/etc/apt/sources.list.d/debian.sources >"$srcfile"
	elif [ -f /etc/apt/sources.list ]; then
		grep -E '^deb[[:space:]]' /etc/apt/sources.list |
			sed 's/^deb[[:space:]]/deb-src /' >/etc/apt/sources.list.d/slurm-deadline-src.list
	else
		echo "setup-deps: no Debian sources file to derive a deb-src entry from" >&2
		return 1
	fi
	apt_updated=0
}

apt_updated=1
ensure_deb_src
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ] || [ "$apt_updated" = 0 ]; then
	apt-get update -qq
fi
if [ -n "$missing" ]; then
	echo "setup-deps: installing:$missing"
	# Never the emulator build: it takes over /usr/sbin/slurmctld (doc/slurm-facts.md §1).
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if dpkg-query -W slurm-wlm-emulator >/dev/null 2>&1; then
	update-alternatives --set slurmctld /usr/sbin/slurmctld-wlm
	update-alternatives --set slurmd /usr/sbin/slurmd-wlm
fi

# The Slurm source tree matching the installed slurmctld exactly.
ver=$(dpkg-query -W -f='${Version}' slurmctld)
upver=${ver%-*}
upver=${upver#*:}
tree="$SLURM_SRC_PARENT/slurm-$ver"
if [ -f "$tree/config.h" ] && [ -f "$tree/.slurm-deadline-configured" ]; then
	echo "setup-deps: Slurm $ver source already configured in $tree"
else
	mkdir -p "$SLURM_SRC_PARENT"
	dl=$(mktemp -d "$SLURM_SRC_PARENT/dl.XXXXXX")
	chmod 0755 "$dl"
	chown _apt "$dl" 2>/dev/null || true
	rc=0
	(cd "$dl" && apt-get source -qq --download-only "slurm-wlm=$ver") \
		>"$dl/download.log" 2>&1 || rc=$?
	rm -rf "$tree"
	if [ "$rc" = 0 ] && ls "$dl"/*.dsc >/dev/null 2>&1; then
		(cd "$dl" && dpkg-source -q -x ./*.dsc "$tree" >"$dl/extract.log" 2>&1) ||
			{ cat "$dl/extract.log" >&2; exit 1; }
	else
		# Debian 13's archive lists 24.11.5-4+deb13u1 but answers 404
		# for its .dsc and .debian.tar.xz: the upstream tarball, which
		# is what the plugins compile against, said out loud
		orig=$(ls "$dl"/slurm-wlm_"$upver".orig.tar.* 2>/dev/null | head -n 1 || true)
		if [ -z "$orig" ]; then
			cat "$dl/download.log" >&2
			echo "setup-deps: apt-get source slurm-wlm=$ver failed (exit $rc) and fetched no upstream tarball" >&2
			exit 1
		fi
		echo "setup-deps: WARNING: apt-get source slurm-wlm=$ver exited $rc:" >&2
		grep -E '^E: ' "$dl/download.log" | head -n 3 | sed 's/^/setup-deps:   /' >&2 || true
		echo "setup-deps: using the upstream $(basename "$orig") without Debian's patches" >&2
		mkdir "$dl/x"
		tar -xf "$orig" -C "$dl/x"
		top=$(ls "$dl/x")
		if [ "$(echo "$top" | wc -l)" != 1 ] || [ ! -d "$dl/x/$top" ]; then
			echo "setup-deps: $(basename "$orig") does not hold one top directory" >&2
			exit 1
		fi
		mv "$dl/x/$top" "$tree"
		echo "upstream tarball only: Debian's patches not applied" >"$tree/.slurm-deadline-origin"
		# its version must be the installed one (META; slurm_version.h
		# only exists once configured)
		want=$(awk '$1 == "#define" && $2 == "SLURM_VERSION_NUMBER" { print $3; exit }' \
			/usr/include/slurm/slurm_version.h)
		got=$(awk '$1 == "Major:" { a = $2 } $1 == "Minor:" { b = $2 } $1 == "Micro:" { c = $2 }
			END { printf "0x%02x%02x%02x\n", a, b, c }' "$tree/META")
		if [ "$got" != "$want" ]; then
			echo "setup-deps: $(basename "$orig") is version $got, the installed Slurm $want" >&2
			exit 1
		fi
	fi
	rm -rf "$dl"
	echo "setup-deps: configuring Slurm $ver in $tree (about 20 s)"
	# The flags of Debian's own build (debian/rules), minus pmix.
	(cd "$tree" && ./configure --build=x86_64-linux-gnu --prefix=/usr \
		--includedir='${prefix}/include' --mandir='${prefix}/share/man' \
		--infodir='${prefix}/share/info' --sysconfdir=/etc/slurm \
		--localstatedir=/var --disable-option-checking --disable-silent-rules \
		--libdir='${prefix}/lib/'"$(dpkg-architecture -qDEB_HOST_MULTIARCH)" \
		--runstatedir=/run --disable-maintainer-mode \
		--disable-dependency-tracking --with-munge --enable-pam --without-rpath \
		--disable-debug --enable-multiple-slurmd SUCMD=/bin/su \
		SLEEP_CMD=/bin/sleep >configure.log 2>&1) || {
		echo "setup-deps: Slurm configure failed; see $tree/configure.log" >&2
		exit 1
	}
	echo "$upver" >"$tree/.slurm-deadline-configured"
fi
ln -sfn "$tree" "$SLURM_SRC_PARENT/slurm-src"

# munge key (the Debian postinst normally creates it)
if [ ! -s /etc/munge/munge.key ]; then
	mungekey --create --keyfile=/etc/munge/munge.key
	chown munge:munge /etc/munge/munge.key
	chmod 0400 /etc/munge/munge.key
fi
echo "setup-deps: done. Configure with --with-slurm-source=$SLURM_SRC_PARENT/slurm-src"
