#!/bin/sh
# Configure and build into a build folder: scripts/build.sh [DIR [configure args...]]
# Default DIR is build/ at the top of the source tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}
[ $# -gt 0 ] && shift
cd "$top"
if [ ! -x configure ] || [ configure.ac -nt configure ] || \
   [ -n "$(find . -name Makemodule.am -newer configure -o -name Makefile.am -newer configure | head -1)" ]; then
	autoreconf -fi >/dev/null
fi
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
	"$top/configure" --enable-werror "$@" >configure.out 2>&1 || { cat configure.out; exit 1; }
fi
make -j"$(nproc)" >make.out 2>&1 || { grep -E "error|Error" make.out | head -50; exit 1; }
