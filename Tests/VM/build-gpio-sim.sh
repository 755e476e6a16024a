#!/usr/bin/env bash
# Builds gpio-sim (+ the irq_sim it needs) as one out-of-tree module for the VM
# kernel, from Debian's linux-source-6.1, and prints the .ko path.
# Cached under $VM_CACHE/<kernel>/ keyed by kernel version + source version,
# so reruns take no time. Kernel sources are never committed to the repo.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver="$(vm_kernel_version)" || vm_die "no VM kernel with headers; run Tests/VM/install.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || vm_die "$tarball missing; run Tests/VM/install.sh"
srcver="$(dpkg-query -W -f='${Version}' linux-source-6.1)"
imgver="$(dpkg-query -W -f='${Version}' "linux-image-$kver" 2>/dev/null || echo unknown)"

out="$VM_CACHE/$kver/gpio-sim-$srcver"
ko="$out/wristcore-gpio-sim.ko"
if [ -f "$ko" ] && [ "$ko" -nt "$VM_DIR/gpio-sim/Kbuild" ] && [ "$ko" -nt "$0" ]; then
    echo "$ko"; exit 0
fi

# A different patch release of 6.1 builds too (gpio-sim barely changes within
# a stable series), but say so: the exact match is what CI is meant to run.
if [ "$srcver" != "$imgver" ]; then
    vm_log "note: linux-source-6.1 is $srcver but the VM kernel $kver is $imgver; building anyway"
fi

rm -rf "$out"; mkdir -p "$out"
vm_log "extracting gpio-sim.c, gpiolib.h, irq_sim.c from $tarball (about 10 s)"
tar -xJf "$tarball" -C "$out" --strip-components=3 \
    linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h
tar -xJf "$tarball" -C "$out" --strip-components=3 linux-source-6.1/kernel/irq/irq_sim.c

# irq_to_desc() is not exported to modules in 6.1; generic_handle_irq() runs
# the same flow handler (handle_simple_irq, set in irq_sim_domain_map) and is.
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$out/irq_sim.c" \
    || vm_die "irq_sim.c no longer has the line to patch; look at $out/irq_sim.c"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$out/irq_sim.c"

cp "$VM_DIR/gpio-sim/Kbuild" "$out/Kbuild"
vm_log "building wristcore-gpio-sim.ko against /lib/modules/$kver/build"
make -s -C "/lib/modules/$kver/build" M="$out" modules >"$out/build.log" 2>&1 \
    || { cat "$out/build.log" >&2; vm_die "module build failed"; }
[ -f "$ko" ] || vm_die "no $ko after the build"
echo "$ko"
