#!/usr/bin/env bash
# Makes (once per root + kernel) what qemu boots, and prints the two paths:
#   $A64_CACHE/disk-<root key>-<abi>.ext4   the arm64 root + the kernel's modules
#                                           (mkfs.ext4 -d; booted with snapshot=on,
#                                           so the cached image never changes)
#   $A64_CACHE/initrd-<abi>.cpio.gz         busybox-static (arm64) + the modules
#                                           needed to reach the root and the 9p
#                                           shares (virtio-pci, virtio-blk, ext4,
#                                           9p), and Tests/VM/arm64/initramfs-init.sh
#   usage: build-image.sh ROOT_DIR KERNEL_DIR
set -euo pipefail
. "$(dirname "$0")/lib-arm64.sh"
ROOT="$1"; KDIR="$2"
abi="$(cat "$KDIR/kver")"
rootkey="$(basename "$ROOT")"; rootkey="${rootkey#root-}"
disk="$A64_CACHE/disk-$rootkey-$abi.ext4"
initrd="$A64_CACHE/initrd-$abi.cpio.gz"

if [ ! -f "$disk" ] || [ "$disk" -ot "$ROOT/.complete" ] || [ "$disk" -ot "$KDIR/.complete" ] || [ "$disk" -ot "$0" ]; then
    stage="$A64_CACHE/disk-staging"
    rm -rf "$stage" "$disk.tmp"
    # A copy of the root (hard links: no data copied) with the modules added.
    cp -al "$ROOT" "$stage"
    rm -f "$stage/.complete"
    mkdir -p "$stage/lib/modules"
    cp -a "$KDIR/lib/modules/$abi" "$stage/lib/modules/"
    mb=$(( $(du -sm "$stage" | cut -f1) * 13 / 10 + 512 ))   # room for the tests' files
    a64_log "mkfs.ext4 -d: ${mb} MiB image of the root + /lib/modules/$abi"
    mkfs.ext4 -q -F -L wcvm-root -O ^has_journal -E lazy_itable_init=1 -d "$stage" "$disk.tmp" "${mb}M" >/dev/null \
        || a64_die "mkfs.ext4 -d failed"
    rm -rf "$stage"
    mv "$disk.tmp" "$disk"
    # Images of other roots or kernels are not used again (one image is about 0.5 GB on disk).
    for old in "$A64_CACHE"/disk-*.ext4; do [ "$old" = "$disk" ] || rm -f "$old"; done
fi

if [ ! -f "$initrd" ] || [ "$initrd" -ot "$KDIR/.complete" ] || [ "$initrd" -ot "$A64_DIR/initramfs-init.sh" ] || [ "$initrd" -ot "$0" ]; then
    work="$A64_CACHE/initrd-staging"
    rm -rf "$work"; mkdir -p "$work/deb" "$work/root/bin" "$work/root/lib/modules"
    ( cd "$work/deb" && apt-get download -q busybox-static:arm64 >/dev/null 2>&1 ) \
        || a64_die "apt-get download busybox-static:arm64 failed"
    dpkg-deb -x "$work"/deb/busybox-static_*.deb "$work/deb/x"
    bb="$work/deb/x/bin/busybox"; [ -f "$bb" ] || bb="$work/deb/x/usr/bin/busybox"
    cp "$bb" "$work/root/bin/busybox"
    : >"$work/root/modules.list"
    for m in virtio_pci virtio_blk ext4 9pnet_virtio 9p virtio-rng; do
        modprobe -d "$KDIR" -S "$abi" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
    done | awk '!seen[$0]++' | while read -r ko; do
        rel="lib/modules/${ko#*/lib/modules/}"
        mkdir -p "$work/root/$(dirname "$rel")"
        cp "$ko" "$work/root/$rel"
        echo "/$rel" >>"$work/root/modules.list"
    done
    cp "$A64_DIR/initramfs-init.sh" "$work/root/init"; chmod 755 "$work/root/init"
    ( cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -1 ) >"$initrd.tmp" || a64_die "cpio failed"
    mv "$initrd.tmp" "$initrd"
    a64_log "initramfs: $(wc -l <"$work/root/modules.list") modules + busybox, $(du -k "$initrd" | cut -f1) KiB"
    rm -rf "$work"
fi
echo "$disk"
echo "$initrd"
