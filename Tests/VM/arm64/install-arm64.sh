#!/usr/bin/env bash
# Installs what the arm64 VM test bed needs on the (amd64) host, idempotently:
# a second run installs nothing and does not touch apt's lists.
#   qemu-system-arm (qemu-system-aarch64), qemu-user-static + binfmt-support
#   (debootstrap's second stage runs arm64 binaries), debootstrap,
#   gcc-aarch64-linux-gnu (the simulator modules, the bed's probe), kmod
#   (depmod/modinfo for the arm64 modules tree), e2fsprogs (mkfs.ext4 -d),
#   busybox-static's arm64 binary comes later, with apt-get download.
# And the arm64 architecture in dpkg, so apt can download arm64 packages
# (nothing arm64 is installed on the host).
set -euo pipefail
. "$(dirname "$0")/lib-arm64.sh"

PKGS=(qemu-system-arm qemu-user-static binfmt-support debootstrap gcc-aarch64-linux-gnu
      kmod e2fsprogs cpio gzip xz-utils ca-certificates debian-archive-keyring python3)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
need_update=""
[ "${#missing[@]}" -gt 0 ] && need_update=1
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    a64_log "dpkg --add-architecture arm64 (apt can then download arm64 packages; none is installed)"
    dpkg --add-architecture arm64
    need_update=1
fi
# (apt-cache show costs about 2 s: asked once, and again only after an update)
apt-cache show linux-image-arm64:arm64 >/dev/null 2>&1 || need_update=1
if [ -n "$need_update" ]; then
    # A list that fails (a mirror mid-sync for another architecture) must not stop us:
    # what we need is checked right after.
    apt-get update -qq || a64_log "apt-get update reported errors (continuing: what is needed is checked next)"
fi
if [ "${#missing[@]}" -gt 0 ]; then
    a64_log "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -n "$need_update" ]; then
    apt-cache show linux-image-arm64:arm64 >/dev/null 2>&1 || a64_die "apt has no linux-image-arm64:arm64 after apt-get update"
fi
a64_binfmt || a64_die "cannot register qemu-aarch64 with binfmt_misc (is binfmt_misc available in this kernel?)"
command -v qemu-system-aarch64 >/dev/null || a64_die "qemu-system-aarch64 missing after installing qemu-system-arm"
a64_log "host ready: $(qemu-system-aarch64 --version | head -1), $(aarch64-linux-gnu-gcc --version | head -1)"
