#!/bin/busybox sh
# /init of the arm64 VM's initramfs (Tests/VM/arm64/build-image.sh puts it
# there): load the modules that reach the root disk and the 9p shares, mount
# them, and hand over to Tests/VM/arm64/guest-init.sh in the real root.
# Kernel command line (set by run-arm64.sh):
#   wcvm_share=TAG:PATH[:ro]  (repeatable) a 9p share mounted at PATH in the root
#   wcvm_init=PATH            the script to run as PID 1 in the root
/bin/busybox mkdir -p /proc /sys /dev /newroot /bin /sbin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "initramfs: [$(cut -d' ' -f1 /proc/uptime)] loading modules"
for m in $(cat /modules.list); do insmod "$m" || echo "initramfs: insmod $m failed"; done

fail() { echo "initramfs: FAILED: $*"; echo "WRISTCORE-VM-BED-FAILED"; sleep 1; poweroff -f; }
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/vda ] || fail "no /dev/vda"
mount -t ext4 -o rw /dev/vda /newroot || fail "cannot mount /dev/vda"

init=""
for arg in $(cat /proc/cmdline); do
    case "$arg" in
        wcvm_share=*)
            spec="${arg#wcvm_share=}"; tag="${spec%%:*}"; rest="${spec#*:}"; path="${rest%%:*}"; opt=""
            [ "$rest" != "$path" ] && opt=",${rest#*:}"
            mkdir -p "/newroot$path"
            mount -t 9p -o "trans=virtio,version=9p2000.L,msize=262144$opt" "$tag" "/newroot$path" \
                || fail "cannot mount 9p share $tag at $path"
            ;;
        wcvm_init=*) init="${arg#wcvm_init=}" ;;
    esac
done
[ -n "$init" ] && [ -f "/newroot$init" ] || fail "no init script ($init) in the root"
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
exec switch_root /newroot /bin/bash "$init"
