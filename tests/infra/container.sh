#!/usr/bin/env bash
# Build and run the bufrepro image with podman on a machine that reaches no image registry.
#
#   bash tests/infra/container.sh base            make/reuse the local base image
#   bash tests/infra/container.sh build           base + build the image (envs/Dockerfile)
#   bash tests/infra/container.sh run OUT [PROF]  run PROF (quick) in the image, results -> OUT
#   bash tests/infra/container.sh all OUT [PROF]  build + run
#
# The base is Debian bookworm made with `debootstrap --variant=minbase` (cached as a tarball
# under $BUFREPRO_BASE_CACHE, default /var/tmp/bufrepro-base, reused if present) and imported as
# localhost/debian-min:bookworm; it stands in for debian:bookworm-slim (build-arg BASE).
# Podman runs with CONTAINERS_CONF=envs/containers.conf (runc + ulimits, see that file).
#
# Lines "METRIC name=value" on stdout report: base_seconds, build_seconds, image_bytes,
# run_seconds. Everything else goes to stderr. Needs root (apt-get installs what is missing).
#
# Environment: BUFREPRO_IMAGE (localhost/bufrepro:latest, the Snakefile's `container:`),
# BUFREPRO_BASE_IMAGE (localhost/debian-min:bookworm), BUFREPRO_BASE_CACHE, BUFREPRO_CORES (2),
# BUFREPRO_BUILD_NOCACHE=1 (build without podman's layer cache, for a cold build time).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
IMAGE=${BUFREPRO_IMAGE:-localhost/bufrepro:latest}
BASE_IMAGE=${BUFREPRO_BASE_IMAGE:-localhost/debian-min:bookworm}
BASE_CACHE=${BUFREPRO_BASE_CACHE:-/var/tmp/bufrepro-base}
CORES=${BUFREPRO_CORES:-2}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$repo/envs/containers.conf}

log() { printf '[container] %s\n' "$*" >&2; }
die() { printf '[container] ERROR: %s\n' "$*" >&2; exit 1; }
metric() { printf 'METRIC %s=%s\n' "$1" "$2"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

ensure_tools() {
    local missing=()
    command -v podman >/dev/null 2>&1 || missing+=(podman buildah)
    command -v runc >/dev/null 2>&1 || missing+=(runc)
    command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
    if ((${#missing[@]})); then
        [[ $(id -u) -eq 0 ]] || die "missing ${missing[*]} and not root"
        log "installing ${missing[*]}"
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
    fi
}

mirror_uri() {
    local uri=""
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
        uri=$(awk 'tolower($1)=="uris:" {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
        uri=${uri%% *}
    fi
    echo "${uri:-http://deb.debian.org/debian}"
}

cmd_base() {
    ensure_tools
    local t0
    t0=$(now)
    if podman image exists "$BASE_IMAGE"; then
        log "base image $BASE_IMAGE present"
        metric base_seconds "$(since "$t0")"
        return 0
    fi
    mkdir -p "$BASE_CACHE"
    local tarball=$BASE_CACHE/rootfs.tar
    if [[ ! -s $tarball ]]; then
        local mirror rootfs
        mirror=$(mirror_uri)
        rootfs=$(mktemp -d "$BASE_CACHE/rootfs.XXXXXX")
        log "debootstrap --variant=minbase bookworm from $mirror (about a minute)"
        debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$BASE_CACHE/debootstrap.log" 2>&1 \
            || { tail -20 "$BASE_CACHE/debootstrap.log" >&2; die "debootstrap failed"; }
        # Same apt sources as debian:bookworm-slim (main, -updates, -security), deb822 style.
        rm -f "$rootfs/etc/apt/sources.list"
        if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
            cp /etc/apt/sources.list.d/debian.sources "$rootfs/etc/apt/sources.list.d/debian.sources"
        else
            printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
                "$mirror" >"$rootfs/etc/apt/sources.list.d/debian.sources"
        fi
        # This machine reaches PyPI through a TLS-inspecting proxy whose CA is only in the host's
        # trust store: hand it to the base (ca-certificates, installed by the Dockerfile, picks
        # up /usr/local/share/ca-certificates) and point pip at the system bundle, like the host.
        if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
            mkdir -p "$rootfs/usr/local/share/ca-certificates"
            cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
            printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$rootfs/etc/pip.conf"
        fi
        rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
        tar -C "$rootfs" --one-file-system -cf "$tarball.tmp" .
        mv "$tarball.tmp" "$tarball"
        rm -rf "$rootfs"
        log "cached base rootfs: $tarball ($(du -h "$tarball" | cut -f1))"
    else
        log "reusing cached base rootfs $tarball"
    fi
    podman import --quiet "$tarball" "$BASE_IMAGE" >/dev/null
    log "imported $BASE_IMAGE"
    metric base_seconds "$(since "$t0")"
}

cmd_build() {
    cmd_base
    local t0 args=()
    [[ ${BUFREPRO_BUILD_NOCACHE:-0} == 1 ]] && args+=(--no-cache)
    log "podman build -f envs/Dockerfile --build-arg BASE=$BASE_IMAGE -t $IMAGE ${args[*]}"
    local previous=""
    previous=$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
    t0=$(now)
    podman build "${args[@]}" -f "$repo/envs/Dockerfile" --build-arg "BASE=$BASE_IMAGE" \
        -t "$IMAGE" "$repo" >&2
    metric build_seconds "$(since "$t0")"
    # The image this tag had before, now untagged: remove it (only that one).
    if [[ -n $previous ]] && [[ $previous != "$(podman image inspect --format '{{.Id}}' "$IMAGE")" ]] \
        && [[ -z $(podman image inspect --format '{{join .RepoTags ","}}' "$previous" 2>/dev/null) ]]; then
        podman rmi "$previous" >/dev/null 2>&1 || true
    fi
    metric image_bytes "$(podman image inspect --format '{{.Size}}' "$IMAGE")"
}

cmd_run() {
    local out=${1:?usage: run OUT [PROFILE]} profile=${2:-quick} t0
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    log "podman run $IMAGE (profile $profile, $CORES cores) -> $out"
    t0=$(now)
    podman run --rm -v "$out:/out" -e "BUFREPRO_PROFILE=$profile" -e "BUFREPRO_CORES=$CORES" \
        "$IMAGE" >&2
    metric run_seconds "$(since "$t0")"
}

case ${1:-} in
    base) cmd_base ;;
    build) cmd_build ;;
    run) shift; cmd_run "$@" ;;
    all) shift; cmd_build; cmd_run "$@" ;;
    *) sed -n '2,19p' "$0" >&2; exit 2 ;;
esac
