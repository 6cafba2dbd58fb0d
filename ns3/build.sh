#!/usr/bin/env bash
# Build the ns-3 scenario programs (ns3/*.cc) against Debian's libns3-dev, once: a build whose
# record (PREFIX/build.txt) names the same sources, flags and library version is reused.
# usage: bash ns3/build.sh [PREFIX]   (default: the repository's .ns3/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${1:-$here/../.ns3}"
modules="ns3-core ns3-network ns3-internet ns3-point-to-point ns3-traffic-control ns3-applications"
if ! pkg-config --exists $modules 2>/dev/null; then
    echo "ns3/build.sh: the ns-3 library was not found by pkg-config;" \
        "install it: apt-get install -y libns3-dev libgsl-dev pkg-config g++" >&2
    exit 1
fi
version="$(pkg-config --modversion ns3-core)"
package="$(dpkg-query -W -f='${Package} ${Version}' libns3-dev 2>/dev/null || echo 'not a Debian package')"
# Debian's ns3 .pc files carry a stray "-I/usr\;" flag: dropped.
flags="-O2 -std=c++17 $(pkg-config --cflags $modules | sed 's|-I/usr\\;||g')"
libs="$(pkg-config --libs $modules)"
# A reproducible build: the same sources, flags, library and compiler give the same sha256 in any
# folder. The programs' __FILE__ strings (NS_LOG, asserts) would carry this clone's path; the
# prefix map writes them as ns3/<file>. The compiler is part of the record.
repro=("-ffile-prefix-map=$here=ns3")
compiler="$(g++ --version | head -1)"
sources="$(cat "$here"/*.cc "$here"/*.h | sha256sum | cut -d' ' -f1)"
mkdir -p "$prefix"
record="$prefix/build.txt"
want="sources $sources
ns3 $version
package $package
flags $flags -ffile-prefix-map=<ns3 folder>=ns3
compiler $compiler"
if [ -f "$record" ] && [ "$(head -5 "$record")" = "$want" ]; then
    for cc in "$here"/*.cc; do [ -x "$prefix/$(basename "$cc" .cc)" ] || { rm -f "$record"; break; }; done
    [ -f "$record" ] && { echo "ns3/build.sh: $prefix is current"; exit 0; }
fi
for cc in "$here"/*.cc; do
    name="$(basename "$cc" .cc)"
    g++ $flags "${repro[@]}" "$cc" -o "$prefix/$name.tmp" $libs
    mv "$prefix/$name.tmp" "$prefix/$name"
done
{
    echo "$want"
    for cc in "$here"/*.cc; do
        name="$(basename "$cc" .cc)"
        echo "sha256 $name $(sha256sum "$prefix/$name" | cut -d' ' -f1)"
    done
} > "$record.tmp"
mv "$record.tmp" "$record"
echo "ns3/build.sh: built $(ls "$here"/*.cc | wc -l) program(s) into $prefix (ns-3 $version)"
