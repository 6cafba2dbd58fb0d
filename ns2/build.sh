#!/usr/bin/env bash
# Build a patched ns-2.35 once and cache it.
#
#   bash ns2/build.sh [PREFIX]        (default PREFIX = <repo>/.ns2)
#
# Result: PREFIX/bin/ns-patched and PREFIX/bin/ns-patched.version.
# Recipe (measured, see shared/notes/ns2-build.md): Debian's source package ns2 (upstream
# ns-2.35 tree; the Debian patch tarball is not available) built against Debian's
# tcl8.6 / libotcl / libtclcl through a folder of symlinks, with three fixes:
#   -DUSE_INTERP_RESULT -DUSE_INTERP_ERRORLINE (Tcl 8.6), HAVE_INT64 undefined in
#   autoconf.h (Debian's libtclcl has no bind(int64_t*)), packmime's maxpkts_ as int.
# Then every ns2/patches/*.patch is applied in name order with patch -p1.
#
# Idempotent: if PREFIX/bin/ns-patched exists and ns-patched.version matches the current
# patches (sha256 of their concatenation) and recipe, it prints "up to date" and exits 0.
# Exit codes: 0 ok, 2 source could not be fetched, 3 build dependencies missing, 1 other.
set -euo pipefail

log() { printf '[ns2-build] %s\n' "$*" >&2; }
die() { local rc=$1; shift; printf '[ns2-build] ERROR: %s\n' "$*" >&2; exit "$rc"; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
PREFIX=${1:-$repo/.ns2}
mkdir -p "$PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)

SRC_PKG=ns2
ORIG_TARBALL=ns2_2.35+dfsg.orig.tar.xz
TREE_NAME=ns-2.35
VERSION_STRING="ns-2.35+bufrepro"
# Bump when the recipe below changes in a way that changes the binary.
RECIPE_REV=1
# Optimisation flags, also given to the link (for -flto). BUFREPRO_NS2_OPT replaces them for a
# trial build (ns2/README.md: -O3 and -O3 -flto=2 measured); the version file then records them,
# so that neither build is mistaken for the other.
OPT=${BUFREPRO_NS2_OPT:--O2}
CCOPT="$OPT -Wno-write-strings -fpermissive -std=gnu++98 -w -DUSE_INTERP_RESULT -DUSE_INTERP_ERRORLINE"
# make -j: BUFREPRO_NS2_JOBS, else every CPU (GNU nproc honours OMP_NUM_THREADS, which Snakemake
# sets to a job's threads).
JOBS=${BUFREPRO_NS2_JOBS:-$(nproc --all 2>/dev/null || echo 2)}

SRC_DIR=$PREFIX/src
TREE=$SRC_DIR/$TREE_NAME
DEPS=$PREFIX/deps
BIN=$PREFIX/bin/ns-patched
VERSION_FILE=$BIN.version
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
LIBDIR=/usr/lib/$MULTIARCH

# ---------------------------------------------------------------- patches and their hash
shopt -s nullglob
patches=("$here"/patches/*.patch)
shopt -u nullglob
if ((${#patches[@]})); then
    mapfile -t patches < <(printf '%s\n' "${patches[@]}" | LC_ALL=C sort)
    patch_hash=$(cat "${patches[@]}" | sha256sum | cut -d' ' -f1)
else
    patch_hash=$(sha256sum </dev/null | cut -d' ' -f1)
fi
expected_version() {
    printf '%s\n' "$VERSION_STRING"
    printf 'patches-sha256 %s\n' "$patch_hash"
    printf 'recipe %s\n' "$RECIPE_REV"
    if [[ $OPT != -O2 ]]; then printf 'opt %s\n' "$OPT"; fi
    local p
    for p in "${patches[@]}"; do printf 'patch %s\n' "$(basename "$p")"; done
}

up_to_date() {
    [[ -x $BIN && -f $VERSION_FILE ]] && [[ "$(cat "$VERSION_FILE")" == "$(expected_version)" ]]
}
# Checked before taking the lock, so that a current build is reused read-only (e.g. by an
# unprivileged user in the container image), and again under the lock (another process may have
# just built it).
if up_to_date; then
    log "up to date: $BIN ($VERSION_STRING, patches-sha256 ${patch_hash:0:12})"
    exit 0
fi

# ---------------------------------------------------------------- lock (one build at a time)
exec 9>"$PREFIX/.build.lock"
if command -v flock >/dev/null 2>&1; then
    flock 9
fi
if up_to_date; then
    log "up to date: $BIN (built meanwhile by another process)"
    exit 0
fi
log "building $VERSION_STRING into $PREFIX (patches-sha256 ${patch_hash:0:12}, ${#patches[@]} patch(es))"
t_start=$(date +%s)

# ---------------------------------------------------------------- apt helpers
SUDO=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=(sudo -n); fi
fi
can_apt() { [[ $(id -u) -eq 0 || ${#SUDO[@]} -gt 0 ]]; }

apt_updated=0
apt_update() {
    if ((apt_updated == 0)); then
        log "apt-get update"
        "${SUDO[@]}" apt-get update -qq >&2 || log "apt-get update reported errors (continuing)"
        apt_updated=1
    fi
}

have_deb_src() { apt-cache showsrc "$SRC_PKG" 2>/dev/null | grep -q "^Package: $SRC_PKG\$"; }

ensure_deb_src() {
    have_deb_src && return 0
    can_apt || return 1
    apt_update
    have_deb_src && return 0
    local f=/etc/apt/sources.list.d/bufrepro-deb-src.sources
    local wrote=0
    if [[ ! -f $f ]]; then
        # Same mirror as the binary sources (deb822); a one-line .list entry conflicts on Signed-By.
        local uri="" suite keyring
        if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
            uri=$(sed -n 's/^[Uu][Rr][Ii][Ss]:[[:space:]]*\([^[:space:]]*\).*/\1/p' \
                /etc/apt/sources.list.d/debian.sources | head -n1)
        fi
        if [[ -z $uri && -f /etc/apt/sources.list ]]; then
            uri=$(awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
                /etc/apt/sources.list)
        fi
        [[ $uri =~ ^[a-z]+:// ]] || uri=http://deb.debian.org/debian
        suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
        [[ -n $suite ]] || suite=bookworm
        keyring=/usr/share/keyrings/debian-archive-keyring.gpg
        log "enabling deb-src: writing $f ($uri $suite main)"
        printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
            "$uri" "$suite" "$keyring" | "${SUDO[@]}" tee "$f" >/dev/null
        wrote=1
    fi
    apt_updated=0
    apt_update
    if have_deb_src; then return 0; fi
    if ((wrote)); then
        # Do not leave a source entry behind that did not work (it could break apt for others).
        log "deb-src entry did not make '$SRC_PKG' available; removing $f"
        "${SUDO[@]}" rm -f "$f"
        "${SUDO[@]}" apt-get update -qq >&2 || true
    fi
    return 1
}

# ---------------------------------------------------------------- 1. build dependencies
deps_missing() {
    local f missing=0
    for f in /usr/include/tcl8.6/tcl.h /usr/include/tcl8.6/tcl-private/generic/tclInt.h \
             /usr/include/tcl8.6/tk.h /usr/include/otcl.h /usr/include/tclcl/tclcl.h \
             "$LIBDIR/libtcl8.6.so" "$LIBDIR/libtk8.6.so" "$LIBDIR/libotcl.so" "$LIBDIR/libtclcl.so" \
             /usr/bin/tcl2c++ /usr/share/tcltk/tcl8.6/init.tcl /usr/include/X11/Xlib.h \
             /usr/include/pcap.h; do
        [[ -e $f ]] || { missing=1; log "missing build dependency file: $f"; }
    done
    command -v g++ >/dev/null 2>&1 || { missing=1; log "missing g++"; }
    command -v make >/dev/null 2>&1 || { missing=1; log "missing make"; }
    command -v patch >/dev/null 2>&1 || { missing=1; log "missing patch"; }
    return $((1 - missing))
}
if deps_missing; then
    log "installing build dependencies (apt-get build-dep $SRC_PKG)"
    can_apt || die 3 "build dependencies missing and not root (no sudo): run 'apt-get build-dep $SRC_PKG' as root. Studies that need only the stock ns (/usr/bin/ns) still run."
    ensure_deb_src || die 2 "cannot find source package '$SRC_PKG': enable deb-src (a deb822 .sources file with 'Types: deb-src') / check network. Studies that need only the stock ns (/usr/bin/ns) still run."
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get build-dep -y -qq "$SRC_PKG" >&2 \
        || die 3 "apt-get build-dep $SRC_PKG failed: check network / apt sources. Studies that need only the stock ns (/usr/bin/ns) still run."
    for p in patch make g++; do
        command -v $p >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "$p" >&2
    done
    deps_missing && die 3 "build dependencies still missing after apt-get build-dep $SRC_PKG"
else
    log "build dependencies present"
fi

# ---------------------------------------------------------------- 2. fetch source (cached)
mkdir -p "$SRC_DIR"
dsc_sha256() {  # expected sha256 of the orig tarball from the .dsc, if we have one
    local dsc
    dsc=$(ls "$SRC_DIR"/${SRC_PKG}_*.dsc 2>/dev/null | head -n1 || true)
    [[ -n $dsc ]] || return 0
    awk -v f="$ORIG_TARBALL" '/^Checksums-Sha256:/{s=1;next} /^[^ ]/{s=0} s && $3==f {print $1}' "$dsc"
}
tarball_ok() {
    [[ -s $SRC_DIR/$ORIG_TARBALL ]] || return 1
    local want have
    want=$(dsc_sha256)
    [[ -z $want ]] && return 0
    have=$(sha256sum "$SRC_DIR/$ORIG_TARBALL" | cut -d' ' -f1)
    [[ $want == "$have" ]] || { log "checksum mismatch for $ORIG_TARBALL (want $want, have $have)"; return 1; }
}
if tarball_ok; then
    log "source cached: $SRC_DIR/$ORIG_TARBALL"
else
    ensure_deb_src || die 2 "cannot fetch the ns-2 source: source package '$SRC_PKG' is unknown to apt. Enable deb-src (deb822 file in /etc/apt/sources.list.d/ with 'Types: deb-src', then apt-get update) / check network, or place $ORIG_TARBALL in $SRC_DIR. Studies that need only the stock ns (/usr/bin/ns) still run."
    log "fetching source: apt-get source --download-only $SRC_PKG -> $SRC_DIR"
    dl=$(mktemp -d "$SRC_DIR/.dl.XXXXXX")
    chmod 755 "$dl"
    # The Debian patch tarball (.debian.tar.xz) is not available on the mirror: apt-get then
    # exits non-zero although the .dsc and the upstream tarball were fetched. Judge by the files.
    if ! (cd "$dl" && apt-get source --download-only "$SRC_PKG") >"$SRC_DIR/apt-source.log" 2>&1; then
        log "apt-get source reported errors (expected: the .debian.tar.xz is missing); checking what arrived"
    fi
    shopt -s nullglob
    for f in "$dl"/*.dsc "$dl"/*.orig.tar.*; do mv -f "$f" "$SRC_DIR/"; done
    shopt -u nullglob
    rm -rf "$dl"
    tarball_ok || { tail -n 15 "$SRC_DIR/apt-source.log" >&2; die 2 "could not fetch the ns-2 source ($ORIG_TARBALL) with apt-get source: enable deb-src / check network, or place $ORIG_TARBALL in $SRC_DIR. Studies that need only the stock ns (/usr/bin/ns) still run."; }
fi

# ---------------------------------------------------------------- 3. unpack (fresh) and patch
log "unpacking $ORIG_TARBALL"
rm -rf "$TREE" "$SRC_DIR/.unpack"
mkdir -p "$SRC_DIR/.unpack"
tar -xJf "$SRC_DIR/$ORIG_TARBALL" -C "$SRC_DIR/.unpack"
mv "$SRC_DIR/.unpack/$TREE_NAME" "$TREE"
rm -rf "$SRC_DIR/.unpack"

# Recipe fix 3: packmime's maxpkts_ as int (bound with bind(int*) since HAVE_INT64 is off).
for f in packmime/packmime_OL.h packmime/packmime_OL.cc; do
    grep -q 'int64_t maxpkts_;' "$TREE/$f" || die 1 "recipe fix: 'int64_t maxpkts_;' not found in $f"
    sed -i 's/int64_t maxpkts_;/int maxpkts_;/' "$TREE/$f"
done

for p in "${patches[@]}"; do
    log "applying $(basename "$p")"
    patch -d "$TREE" -p1 --batch --forward --no-backup-if-mismatch -s <"$p" >&2 \
        || die 1 "patch $(basename "$p") does not apply to $TREE_NAME"
done

# ---------------------------------------------------------------- 4. symlink folder for configure
log "preparing Debian tcl/tk/otcl/tclcl layout in $DEPS"
rm -rf "$DEPS"
mkdir -p "$DEPS"/{tcl,tk,otcl,tclcl}/{include,lib}
ln -s /usr/include/tcl8.6/*.h "$DEPS/tcl/include/"
for d in generic unix; do
    for h in /usr/include/tcl8.6/tcl-private/$d/*.h; do
        [[ -e $DEPS/tcl/include/$(basename "$h") ]] || ln -s "$h" "$DEPS/tcl/include/"
    done
done
ln -s "$LIBDIR/libtcl8.6.so" "$DEPS/tcl/lib/"
ln -s /usr/share/tcltk/tcl8.6 "$DEPS/tcl/lib/tcl8.6"
ln -s /usr/include/tcl8.6/*.h "$DEPS/tk/include/"
ln -s "$LIBDIR/libtk8.6.so" "$DEPS/tk/lib/"
ln -s /usr/share/tcltk/tk8.6 "$DEPS/tk/lib/tk8.6"
ln -s /usr/include/otcl.h "$DEPS/otcl/include/"
ln -s "$LIBDIR/libotcl.so" "$DEPS/otcl/lib/"
ln -s "$DEPS/otcl/include/otcl.h" "$DEPS/otcl/otcl.h"
ln -s "$LIBDIR/libotcl.so" "$DEPS/otcl/libotcl.so"
ln -s /usr/include/tclcl/*.h "$DEPS/tclcl/include/"
ln -s "$LIBDIR/libtclcl.so" "$DEPS/tclcl/lib/"
ln -s /usr/include/tclcl/*.h "$DEPS/tclcl/"
ln -s "$LIBDIR/libtclcl.so" "$DEPS/tclcl/libtclcl.so"
ln -s /usr/bin/tcl2c++ "$DEPS/tclcl/tcl2c++"

# ---------------------------------------------------------------- 5. configure and build
log "configure"
(cd "$TREE" && ./configure \
    --with-otcl="$DEPS/otcl" --with-tclcl="$DEPS/tclcl" \
    --with-tcl="$DEPS/tcl" --with-tcl-ver=8.6 \
    --with-tk="$DEPS/tk" --with-tk-ver=8.6 >"$TREE/configure.bufrepro.log" 2>&1) \
    || { tail -n 30 "$TREE/configure.bufrepro.log" >&2; die 1 "configure failed (log: $TREE/configure.bufrepro.log)"; }

# Recipe fix 2: Debian's libtclcl has no bind(int64_t*); build as Debian's own ns does.
sed -i 's|^#define HAVE_INT64 1|/* #undef HAVE_INT64 (bufrepro: Debian libtclcl lacks bind(int64_t*)) */|' "$TREE/autoconf.h"
grep -q '^#define HAVE_INT64' "$TREE/autoconf.h" && die 1 "could not undefine HAVE_INT64 in autoconf.h"

# Progress: the compiler commands make has started, of those `make -n` lists, every 15 s.
n_total=$(cd "$TREE" && make -n ns CCOPT="$CCOPT" 2>/dev/null | grep -cE '^(gcc|g\+\+|cc|c\+\+) -c ' || true)
log "make -j$JOBS ns: $n_total files to compile (log: $TREE/make.bufrepro.log)"
(cd "$TREE" && make -j"$JOBS" ns CCOPT="$CCOPT" LDFLAGS="-Wl,-export-dynamic $OPT" >"$TREE/make.bufrepro.log" 2>&1) &
make_pid=$!
t_make=$(date +%s)
while kill -0 "$make_pid" 2>/dev/null; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
        kill -0 "$make_pid" 2>/dev/null || break
        sleep 1
    done
    kill -0 "$make_pid" 2>/dev/null || break
    n_done=$(grep -cE '^(gcc|g\+\+|cc|c\+\+) -c ' "$TREE/make.bufrepro.log" || true)
    log "make: $n_done/$n_total files compiled or compiling, $(( $(date +%s) - t_make )) s"
done
wait "$make_pid" \
    || { grep -E 'error|Error' "$TREE/make.bufrepro.log" | tail -n 30 >&2; die 1 "make failed (log: $TREE/make.bufrepro.log)"; }
log "make: done in $(( $(date +%s) - t_make )) s"

# ---------------------------------------------------------------- 6. install
mkdir -p "$PREFIX/bin"
# Smoke test before installing.
echo 'puts [ns-version]; exit 0' >"$TREE/.smoke.tcl"
smoke=$("$TREE/ns" "$TREE/.smoke.tcl" 2>&1) || die 1 "built ns fails to run: $smoke"
rm -f "$TREE/.smoke.tcl" "$VERSION_FILE"
install -m 0755 "$TREE/ns" "$BIN.tmp"
mv -f "$BIN.tmp" "$BIN"
expected_version >"$VERSION_FILE.tmp"
mv -f "$VERSION_FILE.tmp" "$VERSION_FILE"
log "installed $BIN (ns-version $smoke) in $(( $(date +%s) - t_start )) s"
