#!/usr/bin/env bash
# Installs everything the real-kernel VM tests need, idempotently (a second run
# installs nothing): qemu, Debian's 6.1 kernel image + its headers + its source,
# btvirt, btmgmt, i2c-tools, gpiod, and virtme-ng from PyPI.
# Runs as root (or with sudo). Debian 12.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
VIRTME_NG_VERSION="${VIRTME_NG_VERSION:-1.42}"

# Packages by the command or file that proves they are installed.
PKGS=(
    qemu-system-x86      # qemu-system-x86_64 (TCG is enough; KVM is used when present)
    linux-image-amd64    # the VM kernel (Debian 12: 6.1)
    linux-source-6.1     # gpio-sim.c, gpiolib.h, irq_sim.c for the out-of-tree module
    bluez-test-tools     # btvirt: virtual LE controllers on hci_vhci
    bluez                # btmgmt, for debugging the controllers
    i2c-tools            # i2cdetect / i2cget / i2cdump against i2c-stub
    gpiod                # gpioinfo / gpiomon / gpioset against gpio-sim
    libgpiod-dev libi2c-dev libbluetooth-dev pkg-config   # to build wristcore itself
    make gcc xz-utils kmod python3 python3-pip busybox-static
    python3-seccomp      # Tests/Sandbox/seccomp-exec.py: the unit's system call filter around the daemon
    systemd              # systemd-analyze: the filter's groups (@system-service), as systemd defines them
)

missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    vm_log "apt-get install ${missing[*]}"
    $SUDO apt-get update -qq || vm_log "apt-get update reported errors (a mirror mid-sync?); installing from what it has"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The headers of exactly the VM kernel's version (the module must match it).
kver="$(vm_kernel_version || true)"
if [ -z "$kver" ]; then
    img="$(ls /boot/vmlinuz-6.1.* 2>/dev/null | sort -V | tail -1 || true)"
    [ -n "$img" ] || vm_die "no Debian 6.1 kernel in /boot after installing linux-image-amd64"
    kver="${img#/boot/vmlinuz-}"
    vm_log "apt-get install linux-headers-$kver"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "linux-headers-$kver" >/dev/null
fi
kver="$(vm_kernel_version)" || vm_die "headers for the VM kernel did not install"

if ! command -v vng >/dev/null 2>&1; then
    vm_log "pip install virtme-ng==$VIRTME_NG_VERSION"
    python3 -m pip install -q "virtme-ng==$VIRTME_NG_VERSION" 2>/dev/null \
        || python3 -m pip install -q --break-system-packages "virtme-ng==$VIRTME_NG_VERSION"
    hash -r
fi
command -v vng >/dev/null 2>&1 || vm_die "vng not on PATH after pip install virtme-ng (check ~/.local/bin)"

vm_log "kernel $kver (image $(dpkg-query -W -f='${Version}' linux-image-"$kver" 2>/dev/null || echo '?'), source $(dpkg-query -W -f='${Version}' linux-source-6.1)), $(vng --version)"
