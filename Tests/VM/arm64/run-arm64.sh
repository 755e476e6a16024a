#!/usr/bin/env bash
# The real-kernel tests on arm64: the same guest scripts as Tests/VM/run.sh
# (Tests/VM/guest/main.sh -> setup.sh + vmtests.py, unchanged) in ONE
# qemu-system-aarch64 `virt` VM (TCG) booting Debian 12's arm64 kernel with an
# arm64 Debian 12 userland, against arm64 binaries of the daemon and the phone.
#
#   run-arm64.sh DAEMON_BIN PHONE_BIN    the suite (both arm64 ELF executables)
#   run-arm64.sh --setup-only [PHONE_BIN]
#                                        the bed alone: setup.sh, then an arm64
#                                        probe (bed-probe.c) driving the hardware
#                                        through libgpiod / libi2c / libbluetooth,
#                                        and with PHONE_BIN the phone alone on
#                                        controller B (phone-check.sh)
#
# Exit status as run.sh: 0 all passed, 1 a test failed, 2 the test bed itself
# failed (including a VM that does not boot or finish). WRISTCORE_VM=skip skips
# loudly with 0.
#
# Environment:
#   WRISTCORE_VM=skip               skip on purpose (a banner says so)
#   WRISTCORE_VM_NO_INSTALL=1       do not run install-arm64.sh
#   WRISTCORE_VM_ARM64_OUT          results (default ~/.cache/wristcore-vm/arm64/last-run)
#   WRISTCORE_VM_TIMEOUT            seconds before qemu is stopped (default 2400)
#   WRISTCORE_VM_ARM64_CPU          qemu -cpu (default cortex-a53: the oldest core the
#                                   daemon ships for, so no newer instruction slips in)
#   WRISTCORE_VM_ARM64_SMP / _MEM   default 2 / 2G
#   WRISTCORE_VM_ARM64_SECOND_STAGE light (default) | full: how the root is made (build-root.sh)
#   WRISTCORE_VM_ARM64_KERNEL_PKG   the linux-image package (default: linux-image-arm64's)
#   WRISTCORE_VM_SANDBOX=0          passed to vmtests.py: the daemon runs as plain root
#   WRISTCORE_VM_ARM64_PROBE        --setup-only: run this (an arm64 program or a script,
#                                   argument OUT/hw.env) instead of bed-probe.c
#   WRISTCORE_VM_CACHE              cache root (default ~/.cache/wristcore-vm; arm64/ below it)
set -uo pipefail
. "$(dirname "$0")/lib-arm64.sh"

usage() { echo "usage: run-arm64.sh DAEMON_BIN PHONE_BIN | --setup-only [PHONE_BIN]" >&2; exit 2; }
skip_loudly() {
    cat <<BANNER
################################################################################
##  SKIPPED: real-kernel arm64 VM tests (Bluetooth / I2C / GPIO)
##  $1
##  Nothing was tested against the real arm64 kernel on this machine.
################################################################################
BANNER
    exit 0
}
bed_failed() {
    echo "== arm64 real-kernel VM tests: the test bed failed: $1"
    echo "== (to skip these tests on purpose, run with WRISTCORE_VM=skip)"
    exit 2
}
[ "${WRISTCORE_VM:-}" = skip ] && skip_loudly "WRISTCORE_VM=skip was set: the arm64 real-kernel tests were skipped on purpose"
[ "$(id -u)" = 0 ] || bed_failed "run as root (debootstrap, chroot, binfmt_misc, apt)"

MODE=tests; DAEMON=""; PHONE=""
if [ "${1:-}" = --setup-only ]; then
    MODE=setup; [ $# -le 2 ] || usage
    PHONE="${2:-}"
    if [ -n "$PHONE" ]; then
        [ -x "$PHONE" ] || bed_failed "$PHONE is not an executable file"
    fi
else
    [ $# = 2 ] || usage
    DAEMON="$1"; PHONE="$2"
fi
is_arm64_elf() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] \
                 && [ "$(od -An -tx1 -j18 -N2 "$1" | tr -d ' ')" = b700 ]; }
if [ "$MODE" = setup ] && [ -n "$PHONE" ]; then
    is_arm64_elf "$PHONE" || bed_failed "$PHONE is not an arm64 (aarch64) ELF executable"
fi
if [ "$MODE" = tests ]; then
    for b in "$DAEMON" "$PHONE"; do
        [ -x "$b" ] || bed_failed "$b is not an executable file"
        is_arm64_elf "$b" || bed_failed "$b is not an arm64 (aarch64) ELF executable"
    done
fi

OUT="${WRISTCORE_VM_ARM64_OUT:-$A64_CACHE/last-run}"
TIMEOUT="${WRISTCORE_VM_TIMEOUT:-2400}"
CPU="${WRISTCORE_VM_ARM64_CPU:-cortex-a53}"
SMP="${WRISTCORE_VM_ARM64_SMP:-2}"
MEM="${WRISTCORE_VM_ARM64_MEM:-2G}"
mkdir -p "$A64_CACHE"
A64_TIMINGS="$(mktemp)"; export A64_TIMINGS
T_ALL=$(date +%s)

# 1. host packages (idempotent)
a64_stage "host packages"
if [ "${WRISTCORE_VM_NO_INSTALL:-0}" != 1 ]; then
    "$A64_DIR/install-arm64.sh" || bed_failed "installing the host packages failed"
else
    a64_binfmt || bed_failed "qemu-aarch64 is not registered with binfmt_misc"
fi
command -v qemu-system-aarch64 >/dev/null || bed_failed "qemu-system-aarch64 is not installed (qemu-system-arm)"

# 2. the arm64 kernel + the simulator modules it lacks (cached)
a64_stage "kernel + modules"
KDIR="$("$A64_DIR/build-kernel.sh")" || bed_failed "the arm64 kernel or its modules could not be made"
abi="$(cat "$KDIR/kver")"

# 3. the arm64 root (cached), the disk image and the initramfs (cached)
a64_stage "arm64 root"
ROOT="$("$A64_DIR/build-root.sh")" || bed_failed "the arm64 root could not be built"
a64_stage "disk image + initramfs"
imgs="$("$A64_DIR/build-image.sh" "$ROOT" "$KDIR")" || bed_failed "the disk image or initramfs could not be made"
DISK="$(sed -n 1p <<<"$imgs")"; INITRD="$(sed -n 2p <<<"$imgs")"

# 4. what the guest runs: the binaries are copied next to the results (one share)
a64_stage "inputs"
rm -rf "$OUT"; mkdir -p "$OUT/bin"
if [ "$MODE" = tests ]; then
    cp "$DAEMON" "$OUT/bin/wristcore"; cp "$PHONE" "$OUT/bin/wristcore-vm-phone"
    chmod 755 "$OUT/bin/"*
else
    [ -n "$PHONE" ] && install -m 755 "$PHONE" "$OUT/bin/wristcore-vm-phone"
fi
if [ "$MODE" = tests ]; then :
elif [ -n "${WRISTCORE_VM_ARM64_PROBE:-}" ]; then
    install -m 755 "$WRISTCORE_VM_ARM64_PROBE" "$OUT/bin/bed-probe"   # any arm64 program or script: PROBE HW_ENV
else
    aarch64-linux-gnu-gcc -O2 -Wall -Wno-format-truncation -o "$OUT/bin/bed-probe" "$A64_DIR/bed-probe.c" \
        || bed_failed "the bed probe did not compile"
fi
# The guest stops its own run first, so its logs and rc still reach the host.
guest_timeout=$((TIMEOUT - 120)); [ "$guest_timeout" -ge $((TIMEOUT * 3 / 4)) ] || guest_timeout=$((TIMEOUT * 3 / 4))
cat >"$OUT/guest.env" <<ENV
MODE=$MODE
GUEST_DIR=$VM_DIR/guest
KO=/lib/modules/$abi/updates/wristcore-gpio-sim.ko
DAEMON=$OUT/bin/wristcore
PHONE=$OUT/bin/wristcore-vm-phone
PROBE=$OUT/bin/bed-probe
GUEST_TIMEOUT=$guest_timeout
WRISTCORE_VM_SANDBOX=${WRISTCORE_VM_SANDBOX:-1}
export WRISTCORE_VM_SANDBOX
ENV

# 5. one boot
a64_stage "VM (boot + set-up + tests)"
a64_log "booting $abi on qemu-system-aarch64 -machine virt -cpu $CPU -smp $SMP -m $MEM (TCG) — results in $OUT"
T_VM=$(date +%s)
timeout -k 10 "$TIMEOUT" qemu-system-aarch64 \
    -machine virt -cpu "$CPU" -smp "$SMP" -m "$MEM" -accel tcg,thread=multi \
    -display none -nodefaults -no-reboot -serial stdio -monitor none \
    -kernel "$KDIR/boot/vmlinuz-$abi" -initrd "$INITRD" \
    -append "console=ttyAMA0 panic=-1 loglevel=5 wcvm_out=$OUT wcvm_init=$A64_DIR/guest-init.sh wcvm_share=repo:$REPO_DIR:ro wcvm_share=out:$OUT" \
    -drive "file=$DISK,format=raw,if=none,id=root,snapshot=on" -device virtio-blk-pci,drive=root \
    -fsdev "local,id=repo,path=$REPO_DIR,security_model=none,readonly=on" -device virtio-9p-pci,fsdev=repo,mount_tag=repo \
    -fsdev "local,id=out,path=$OUT,security_model=none" -device virtio-9p-pci,fsdev=out,mount_tag=out \
    -device virtio-rng-pci \
    </dev/null >"$OUT/console.log" 2>&1
qemu_rc=$?
vm_secs=$(( $(date +%s) - T_VM ))
a64_stage ""

# 6. report, like run.sh
echo "== arm64 real-kernel VM tests ($abi, qemu-system-aarch64 virt, -cpu $CPU, TCG; mode: $MODE)"
cat "$OUT/vm-info" 2>/dev/null
grep -m1 '^# setup: \[.*\] start' "$OUT/setup.log" 2>/dev/null | sed 's/^/== /'
grep -E '^# setup: \[[0-9.]+\] wrote' "$OUT/setup.log" 2>/dev/null | sed 's/^/== setup done: /'
[ -f "$OUT/tests.log" ] && grep -E '^(ok|not ok) |^# |passed, .* failed' "$OUT/tests.log"
echo "== stage times (s):"; sed 's/^/==   /' "$A64_TIMINGS"; rm -f "$A64_TIMINGS"
echo "== VM total time: ${vm_secs} s (boot + set-up + tests; qemu exit $qemu_rc); whole script $(( $(date +%s) - T_ALL )) s"
if [ ! -f "$OUT/rc" ]; then
    echo "== the VM did not finish (timeout ${TIMEOUT}s or crash); last console lines:"
    tail -30 "$OUT/console.log"
    exit 2
fi
rc="$(cat "$OUT/rc")"
[ "$rc" = 0 ] && echo "== all arm64 real-kernel tests passed" || echo "== arm64 real-kernel tests FAILED (logs: $OUT)"
[ "$rc" = 0 ] && exit 0
exit 1
