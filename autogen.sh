#!/bin/sh
# Generate ./configure and the Makefile templates from configure.ac/Makefile.am.
set -e
cd "$(dirname "$0")"
autoreconf --install --force --warnings=all
