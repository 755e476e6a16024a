#!/bin/bash
# PID 1 of the arm64 test VM (after initramfs-init.sh switched to the root):
# the kernel file systems virtme-ng would mount, then the same guest scripts
# as the x86_64 VM (Tests/VM/guest/main.sh -> setup.sh + vmtests.py,
# unchanged), then power off. Its settings come from OUT/guest.env, written by
# run-arm64.sh (OUT is the results directory, a 9p share: wcvm_out=OUT):
#   MODE=tests   main.sh OUT KO DAEMON PHONE (writes OUT/rc)
#   MODE=setup   setup.sh only, then the bed probe (PROBE) against what setup.sh
#                made; OUT/rc is 0 when both passed
#   GUEST_TIMEOUT  seconds for that (the host has its own timeout around qemu)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb
OUT=""
for arg in $(cat /proc/cmdline); do case "$arg" in wcvm_out=*) OUT="${arg#wcvm_out=}" ;; esac; done

# tmpfs on /run and /tmp, except where a 9p share (the results, the repository)
# was mounted below it by the initramfs: the root disk is a throw-away
# snapshot, writable anyway.
has_mount_below() { findmnt -rn -o TARGET | grep -q "^$1/"; }
has_mount_below /run || mount -t tmpfs -o mode=0755 tmpfs /run
has_mount_below /tmp || mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /dev/pts /dev/shm /run/lock
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
ln -sf /proc/self/fd /dev/fd; ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout; ln -sf /proc/self/fd/2 /dev/stderr
hostname wristcore-arm64-vm
busybox ip link set lo up 2>/dev/null || true
echo 1 >/proc/sys/kernel/printk_ratelimit 2>/dev/null || true

finish() {
    sync
    echo "WRISTCORE-VM-DONE rc=$1"
    busybox poweroff -f
    sleep 5; echo o >/proc/sysrq-trigger
}
if [ -z "$OUT" ] || [ ! -f "$OUT/guest.env" ]; then
    echo "guest-init: no $OUT/guest.env (wcvm_out= on the kernel command line, 9p share)"; finish 2
fi
. "$OUT/guest.env"
echo "guest-init: [$(cut -d' ' -f1 /proc/uptime)] $(uname -srm), mode $MODE, results in $OUT"

case "$MODE" in
    tests)
        timeout -k 10 "$GUEST_TIMEOUT" "$GUEST_DIR/main.sh" "$OUT" "$KO" "$DAEMON" "$PHONE"
        rc=$?
        [ -f "$OUT/rc" ] || echo "$rc" >"$OUT/rc"
        ;;
    setup)
        echo "vm: kernel $(uname -r) ($(uname -m)), booted in $(cut -d' ' -f1 /proc/uptime) s" | tee "$OUT/vm-info"
        timeout -k 10 "$GUEST_TIMEOUT" "$GUEST_DIR/setup.sh" "$OUT" "$KO" 2>&1 | tee "$OUT/setup.log"
        rc=${PIPESTATUS[0]}
        echo "vm: setup.sh exit $rc at $(cut -d' ' -f1 /proc/uptime) s" | tee -a "$OUT/vm-info"
        if [ "$rc" = 0 ]; then
            # The probe, then (given a phone binary) the phone alone; one TAP list, renumbered.
            timeout -k 5 300 "$PROBE" "$OUT/hw.env" >"$OUT/probe.log" 2>&1
            rc=$?
            if [ -x "$PHONE" ]; then
                timeout -k 5 120 "$(dirname "$0")/phone-check.sh" "$OUT/hw.env" "$PHONE" >"$OUT/phone-check.log" 2>&1 || rc=1
            fi
            cat "$OUT/probe.log" "$OUT/phone-check.log" 2>/dev/null | awk '
                /^(ok|not ok) [0-9]+ / { n++; ok = ($1 == "ok"); if (ok) p++; else f++
                                         sub(/^(ok|not ok) [0-9]+ /, (ok ? "ok " : "not ok ") n " "); print; next }
                /passed, .* failed/ { next }
                { print }
                END { printf "%d passed, %d failed\n", p, f }' | tee "$OUT/tests.log"
            grep -q ' 0 failed$' "$OUT/tests.log" || rc=1
        else
            { echo "not ok 1 - setup.sh brought up the simulated hardware (setup.log)"; echo "0 passed, 1 failed"; } | tee "$OUT/tests.log"
            rc=1
        fi
        echo "vm: probe finished at $(cut -d' ' -f1 /proc/uptime) s" | tee -a "$OUT/vm-info"
        echo "$rc" >"$OUT/rc"
        ;;
    *) echo "guest-init: unknown MODE=$MODE"; rc=2 ;;
esac
dmesg >"$OUT/dmesg.log" 2>&1
finish "$rc"
