#!/bin/sh
# Configure and build into a build folder: scripts/build.sh [DIR [configure args...]]
# Default DIR is build/ at the top of the source tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build}
[ $# -gt 0 ] && shift
cd "$top"
# A tree configured in place (./configure && make at the top) cannot also be
# configured out of tree: automake's configure refuses, and its objects would
# shadow the build folder's through VPATH. Clean it first, as configure asks.
if [ -f config.status ] && [ "$(cd "$dir" 2>/dev/null && pwd)" != "$top" ]; then
	echo "build.sh: the source tree was configured in place (config.status); cleaning it with make distclean" >&2
	make distclean >/dev/null
fi
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
