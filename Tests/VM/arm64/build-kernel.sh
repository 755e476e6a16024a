#!/usr/bin/env bash
# The arm64 VM's kernel and the simulator modules Debian's arm64 kernel lacks,
# cached under $A64_CACHE/kernel-<abi>_<version>/ and printed as that directory:
#   boot/vmlinuz-<abi>, boot/config-<abi>     (linux-image-<abi>:arm64, not installed: dpkg-deb -x)
#   lib/modules/<abi>/...                      (its modules + updates/ below, depmod'ed)
#   lib/modules/<abi>/updates/hci_vhci.ko      \
#   lib/modules/<abi>/updates/i2c-stub.ko       } cross-built out of tree
#   lib/modules/<abi>/updates/wristcore-gpio-sim.ko  /
#   kver                                        (the abi string, e.g. 6.1.0-50-arm64)
#
# Debian 12's arm64 kernel is built without CONFIG_BT_HCIVHCI, CONFIG_I2C_STUB
# and CONFIG_GPIO_SIM / CONFIG_IRQ_SIM (the amd64 one has the first two), so all
# three come from linux-source-6.1 of the SAME version, built with
# gcc-aarch64-linux-gnu against linux-headers-<abi>-arm64 + -common. The
# headers' scripts/ (fixdep, modpost, ...) are linux-kbuild-6.1's, which is
# taken in the HOST's architecture (amd64) at the same version: no arm64
# binary runs on the host for this step.
#   WRISTCORE_VM_ARM64_KERNEL_PKG  the image package (default: what linux-image-arm64:arm64 depends on)
set -euo pipefail
. "$(dirname "$0")/lib-arm64.sh"

pkg="${WRISTCORE_VM_ARM64_KERNEL_PKG:-}"
if [ -z "$pkg" ]; then
    pkg="$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-6\.1\.[^:]*-arm64\).*/\1/p' | head -1)"
    [ -n "$pkg" ] || a64_die "apt does not know linux-image-arm64:arm64 (dpkg --add-architecture arm64 && apt-get update)"
fi
abi="${pkg#linux-image-}"
ver="$(apt-cache show "$pkg:arm64" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1)"
[ -n "$ver" ] || a64_die "no version of $pkg:arm64 in apt's lists"
out="$A64_CACHE/kernel-${abi}_$ver"
if [ -f "$out/.complete" ] && [ "$out/.complete" -nt "$0" ] && [ "$out/.complete" -nt "$VM_DIR/gpio-sim/Kbuild" ]; then
    echo "$out"; exit 0
fi

# linux-kbuild-6.1 and linux-source-6.1 at the image's version when the archive
# still has it, else the newest of the same upstream release (6.1.192-3 for an
# image at 6.1.192-2): Debian re-uploads the kbuild tools alone (a -3 with no
# arm64 image yet), and the security archive then drops the -2 of those. The
# tools and the three drivers' sources only need the same upstream kernel.
same_release() {  # $1 package: $ver if apt has it, else the newest <upstream>-* version
    local p="$1" have
    have="$(apt-cache madison "$p" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -uV)"
    if grep -qxF "$ver" <<<"$have"; then echo "$ver"; return; fi
    grep -E "^${ver%-*}-[^-]+$" <<<"$have" | tail -1 || true
}
kbuild_ver="$(same_release linux-kbuild-6.1)"
source_ver="$(same_release linux-source-6.1)"
[ -n "$kbuild_ver" ] || a64_die "apt has no linux-kbuild-6.1 of upstream ${ver%-*} (the image is $ver): apt-get update, or set WRISTCORE_VM_ARM64_KERNEL_PKG"
[ -n "$source_ver" ] || a64_die "apt has no linux-source-6.1 of upstream ${ver%-*} (the image is $ver): apt-get update, or set WRISTCORE_VM_ARM64_KERNEL_PKG"

rm -rf "$out"; mkdir -p "$out/debs" "$out/x"
a64_log "downloading $pkg $ver (arm64), its headers, linux-kbuild-6.1 $kbuild_ver (host) and linux-source-6.1 $source_ver"
( cd "$out/debs" && apt-get download -q \
    "$pkg:arm64=$ver" "linux-headers-$abi:arm64=$ver" "linux-headers-${abi%-arm64}-common=$ver" \
    "linux-kbuild-6.1=$kbuild_ver" "linux-source-6.1=$source_ver" >"$out/download.log" 2>&1 ) \
    || { cat "$out/download.log" >&2; a64_die "apt-get download failed"; }
for d in "$out"/debs/linux-image-*.deb "$out"/debs/linux-headers-*.deb "$out"/debs/linux-kbuild-*.deb; do
    dpkg-deb -x "$d" "$out/x"
done
mkdir -p "$out/boot" "$out/lib/modules"
mv "$out/x/boot/vmlinuz-$abi" "$out/x/boot/config-$abi" "$out/boot/"
mv "$out/x/lib/modules/$abi" "$out/lib/modules/"
grep -qE '^CONFIG_GPIO_SIM=[ym]' "$out/boot/config-$abi" && a64_log "note: this kernel has CONFIG_GPIO_SIM; the out-of-tree module is built anyway (setup.sh insmods it)"

# The headers' Makefile includes the -common one by absolute path.
hdr="$out/x/usr/src/linux-headers-$abi"
sed -i "s#^include /usr/src/#include $out/x/usr/src/#" "$hdr/Makefile"

src="$out/mod"; mkdir -p "$src"
a64_log "extracting hci_vhci.c, i2c-stub.c, gpio-sim.c, gpiolib.h, irq_sim.c from linux-source-6.1 $source_ver (about 15 s)"
dpkg-deb --fsys-tarfile "$out"/debs/linux-source-6.1_*.deb | tar -xO ./usr/src/linux-source-6.1.tar.xz \
    | tar -xJ -C "$src" --strip-components=3 --wildcards \
        'linux-source-6.1/drivers/gpio/gpio-sim.c' 'linux-source-6.1/drivers/gpio/gpiolib.h' \
        'linux-source-6.1/kernel/irq/irq_sim.c' 'linux-source-6.1/drivers/bluetooth/hci_vhci.c' \
        'linux-source-6.1/drivers/i2c/i2c-stub.c'
for f in gpio-sim.c gpiolib.h irq_sim.c hci_vhci.c i2c-stub.c; do
    [ -f "$src/$f" ] || a64_die "$f not found in linux-source-6.1 $source_ver"
done
# The same patch as Tests/VM/build-gpio-sim.sh: irq_to_desc() is not exported in 6.1.
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$src/irq_sim.c" || a64_die "irq_sim.c no longer has the line to patch"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$src/irq_sim.c"
{
    echo "# Generated by Tests/VM/arm64/build-kernel.sh: the simulators Debian's arm64 kernel lacks."
    cat "$VM_DIR/gpio-sim/Kbuild"
    echo "obj-m += hci_vhci.o i2c-stub.o"
} >"$src/Kbuild"

command -v aarch64-linux-gnu-gcc-12 >/dev/null || a64_die "aarch64-linux-gnu-gcc-12 missing (gcc-aarch64-linux-gnu)"
a64_log "cross-building hci_vhci.ko, i2c-stub.ko, wristcore-gpio-sim.ko for $abi"
make -C "$hdr" M="$src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j2 modules >"$out/build.log" 2>&1 \
    || { tail -40 "$out/build.log" >&2; a64_die "module build failed (log: $out/build.log)"; }
mkdir -p "$out/lib/modules/$abi/updates"
for m in hci_vhci i2c-stub wristcore-gpio-sim; do
    [ -f "$src/$m.ko" ] || a64_die "no $m.ko after the build"
    aarch64-linux-gnu-strip --strip-debug "$src/$m.ko"
    cp "$src/$m.ko" "$out/lib/modules/$abi/updates/"
done
depmod -b "$out" "$abi" || a64_die "depmod failed"
modinfo -b "$out" -k "$abi" -F vermagic hci_vhci | grep -q "^$abi " || a64_die "hci_vhci.ko's vermagic is not $abi"
echo "$abi" >"$out/kver"
rm -rf "$out/debs/linux-source-6.1_"*.deb   # 140 MB, only three files were needed
touch "$out/.complete"
echo "$out"
