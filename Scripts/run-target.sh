#!/usr/bin/env bash
# Runs a binary built by Scripts/build-embedded.sh for ARCH on this machine:
# directly when ARCH is this machine's, else under qemu-user with the
# target's sysroot (.build-embedded/sysroot-ARCH) as its library root.
#   Scripts/run-target.sh ARCH BINARY [ARGS...]
#   Scripts/run-target.sh ARCH --wrapper BINARY OUT   writes an executable OUT that does the same,
#                                                    for test suites that take a binary path
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ARCH=$1; shift
case "$ARCH" in
    amd64) QEMU="" ;;
    arm64) QEMU=qemu-aarch64-static ;;
    armhf) QEMU=qemu-arm-static ;;
    *) echo "run-target: ARCH $ARCH is not amd64, arm64 or armhf" >&2; exit 2 ;;
esac
[ "$ARCH" = "$(dpkg --print-architecture)" ] && QEMU=""
if [ -n "$QEMU" ] && ! command -v "$QEMU" >/dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y -qq qemu-user-static >/dev/null
fi
SYSROOT=$REPO/.build-embedded/sysroot-$ARCH
# A program that re-executes itself (the daemon's SIGHUP restart) is started
# by the kernel through binfmt_misc, without our -L: QEMU_LD_PREFIX tells that
# qemu where the target's libraries are, and the handler must be enabled.
if [ -n "$QEMU" ]; then
    export QEMU_LD_PREFIX=$SYSROOT
    handler=$(case $ARCH in arm64) echo qemu-aarch64;; armhf) echo qemu-arm;; esac)
    if [ ! -e "/proc/sys/fs/binfmt_misc/$handler" ]; then
        [ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
        update-binfmts --enable "$handler" >/dev/null 2>&1 || true
    fi
    [ -e "/proc/sys/fs/binfmt_misc/$handler" ] || echo "run-target: $handler is not registered with binfmt_misc: a binary that re-executes itself will not start again (apt-get install binfmt-support qemu-user-static)" >&2
fi
if [ "${1:-}" = --wrapper ]; then
    bin=$(readlink -f "$2"); out=$3
    if [ -z "$QEMU" ]; then ln -sf "$bin" "$out"; else
        printf '#!/bin/sh\n# %s under qemu-user (Scripts/run-target.sh)\nQEMU_LD_PREFIX=%s; export QEMU_LD_PREFIX\nexec %s -L %s %s "$@"\n' \
            "$ARCH" "$SYSROOT" "$(command -v "$QEMU")" "$SYSROOT" "$bin" >"$out"
        chmod +x "$out"
    fi
    exit 0
fi
bin=$1; shift
[ -z "$QEMU" ] && exec "$bin" "$@"
exec "$QEMU" -L "$SYSROOT" "$bin" "$@"
