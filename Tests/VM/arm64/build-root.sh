#!/usr/bin/env bash
# Builds (once) the arm64 Debian 12 userland of the arm64 test VM and prints
# its directory: $A64_CACHE/root-<key>, key = suite, mirror, second-stage kind
# and package list (lib-arm64.sh). A finished root has a .complete stamp; a
# half-built one is thrown away and rebuilt.
#
# How: `debootstrap --arch arm64 --variant=minbase --foreign` resolves,
# downloads and unpacks the base with the host's own tools (about 25 s). Then:
#   light (default): every other downloaded package is unpacked the same way
#     (dpkg-deb | tar, host tools), and the few things the test scripts need
#     from maintainer scripts are done by hand: /etc/passwd and /etc/group
#     (base-passwd's masters), the awk / nawk / which / w alternatives,
#     /etc/mtab, and ldconfig (one arm64 command, through qemu-aarch64 via
#     binfmt_misc). About 40 s. dpkg's database says the packages are only
#     unpacked: nothing in the VM runs dpkg or apt.
#   full (WRISTCORE_VM_ARM64_SECOND_STAGE=full): `debootstrap --second-stage`
#     in a chroot, every dpkg and maintainer script emulated by qemu-aarch64:
#     a "real" Debian system, measured at 7+ minutes on 2 cores.
set -euo pipefail
. "$(dirname "$0")/lib-arm64.sh"

key="$(a64_root_key)"
root="$A64_CACHE/root-$key"
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi
STAGE2="${WRISTCORE_VM_ARM64_SECOND_STAGE:-light}"

a64_binfmt || a64_die "qemu-aarch64 is not registered with binfmt_misc (qemu-user-static, binfmt-support)"
mkdir -p "$A64_CACHE"
tmp="$root.partial"
rm -rf "$tmp"
include="$(IFS=,; echo "${A64_PACKAGES[*]}")"
a64_log "debootstrap --arch arm64 --variant=minbase --foreign $A64_SUITE (+ $include), second stage: $STAGE2 -> $root"
# Leave out what nobody reads in a test VM (dpkg honours this in a full second stage).
mkdir -p "$tmp/etc/dpkg/dpkg.cfg.d"
cat >"$tmp/etc/dpkg/dpkg.cfg.d/01-wristcore-vm-nodoc" <<'EOF'
path-exclude=/usr/share/doc/*
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
path-include=/usr/share/locale/locale.alias
EOF
log="$A64_CACHE/debootstrap.log"
if ! debootstrap --arch arm64 --variant=minbase --foreign --include="$include" \
        --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
        "$A64_SUITE" "$tmp" "$A64_MIRROR" >"$log" 2>&1; then
    tail -30 "$log" >&2
    a64_die "debootstrap (first stage) failed (log: $log)"
fi

if [ "$STAGE2" = full ]; then
    a64_log "debootstrap --second-stage through qemu-aarch64 (slow: every dpkg run is emulated)"
    if ! chroot "$tmp" /debootstrap/debootstrap --second-stage >>"$log" 2>&1; then
        tail -30 "$tmp/debootstrap/debootstrap.log" >&2 || true
        a64_die "debootstrap --second-stage failed (log: $tmp/debootstrap/debootstrap.log)"
    fi
else
    n=0
    for deb in "$tmp"/var/cache/apt/archives/*.deb; do
        dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$tmp" \
            || a64_die "unpacking $(basename "$deb") failed"
        n=$((n + 1))
    done
    a64_log "unpacked $n packages with the host's dpkg-deb"
    [ -L "$tmp/proc" ] && rm -f "$tmp/proc"
    mkdir -p "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/run" "$tmp/tmp"
    cp "$tmp/usr/share/base-passwd/passwd.master" "$tmp/etc/passwd"
    cp "$tmp/usr/share/base-passwd/group.master" "$tmp/etc/group"
    sed 's/:.*//; s/$/:*:19000:0:99999:7:::/' "$tmp/etc/passwd" >"$tmp/etc/shadow"
    sed -i 's/^root:\*:/root::/' "$tmp/etc/shadow"; chmod 640 "$tmp/etc/shadow"
    # The alternatives the maintainer scripts would make (setup.sh runs awk).
    ln -sf mawk "$tmp/usr/bin/awk"; ln -sf mawk "$tmp/usr/bin/nawk"
    ln -sf which.debianutils "$tmp/usr/bin/which"; ln -sf w.procps "$tmp/usr/bin/w"
    ln -sf ../proc/self/mounts "$tmp/etc/mtab"
    chroot "$tmp" /sbin/ldconfig || a64_die "ldconfig (arm64, through qemu-aarch64) failed"
    rm -rf "$tmp/debootstrap"
fi

echo wristcore-arm64-vm >"$tmp/etc/hostname"
: >"$tmp/etc/fstab"
rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/* \
    "$tmp"/usr/share/doc/* "$tmp"/usr/share/man/* "$tmp"/usr/share/info/* "$tmp"/usr/share/locale/*
# The tools the guest scripts call, checked here (through qemu-aarch64) rather than in the VM.
for t in bash python3 btmgmt btvirt i2cdetect i2cget i2cset i2cdump gpiodetect gpioinfo gpiomon gpioset \
         modprobe insmod rmmod dmesg setpriv unshare findmnt mount awk systemd-analyze ldd timeout busybox; do
    [ -x "$tmp/usr/bin/$t" ] || [ -x "$tmp/usr/sbin/$t" ] || a64_die "the arm64 root has no $t"
done
chroot "$tmp" /usr/bin/python3 -c 'import seccomp' || a64_die "python3-seccomp does not import in the arm64 root"
chroot "$tmp" /usr/bin/systemd-analyze syscall-filter @system-service >/dev/null \
    || a64_die "systemd-analyze syscall-filter does not run in the arm64 root"
printf '%s\n' "${A64_PACKAGES[@]}" >"$tmp/.complete"
rm -rf "$root"; mv "$tmp" "$root"
a64_log "root: $(du -sh "$root" | cut -f1) in $root"
echo "$root"
