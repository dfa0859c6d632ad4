#!/bin/sh
# Install everything slurm-deadline needs on Debian 12 and prepare the
# configured Slurm source tree the plugins are compiled against.
#
#   contrib/setup-deps.sh [--slurm-src-dir DIR] [--no-packages]
#
# Idempotent: packages already installed and a tree already configured for the
# installed Slurm version are left alone, so a second run takes seconds.
set -eu

SLURM_SRC_PARENT=${SLURM_SRC_PARENT:-/var/cache/slurm-deadline}
install_packages=1
while [ $# -gt 0 ]; do
	case "$1" in
	--slurm-src-dir) SLURM_SRC_PARENT=$2; shift 2 ;;
	--no-packages) install_packages=0; shift ;;
	-h|--help) sed -n '2,9p' "$0"; exit 0 ;;
	*) echo "setup-deps: unknown option '$1'" >&2; exit 2 ;;
	esac
done

if [ "$(id -u)" != 0 ]; then
	echo "setup-deps: must run as root (it installs packages)" >&2
	exit 1
fi

PACKAGES="build-essential autoconf automake libtool pkg-config dpkg-dev
 slurm-wlm slurmctld slurmd slurm-client libslurm-dev munge libmunge-dev
 libjson-c-dev libsqlite3-dev sqlite3 check bats gnuplot-nox valgrind
 clang libclang-rt-14-dev clang-format bc jq man-db groff-base procps
 python3"

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
	(cd "$dl" && apt-get source -qq --download-only "slurm-wlm=$ver" >/dev/null)
	rm -rf "$tree"
	(cd "$dl" && dpkg-source -q -x ./*.dsc "$tree" >"$dl/extract.log" 2>&1) || { cat "$dl/extract.log" >&2; exit 1; }
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
