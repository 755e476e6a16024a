#!/usr/bin/env bash
# The real-kernel tests: install what they need, build the gpio-sim module
# and the binaries, boot ONE VM (qemu via virtme-ng, Debian's 6.1 kernel,
# the host's filesystem shared read-only) and run every test inside it.
# Exit status: 0 all passed, 1 a test failed, 2 the test bed itself failed
# (including qemu that is installed but cannot boot the VM here: a VM that
# cannot run is a failure, never a silent pass). Only WRISTCORE_VM=skip skips,
# loudly, with exit 0.
#
# Environment:
#   WRISTCORE_VM=skip     skip the real-kernel tests on purpose (says so in a banner)
#   WRISTCORE_VM_QEMU     the qemu binary (default: qemu-system-x86_64)
#   WRISTCORE_VM_NO_INSTALL=1  do not install packages (they are there already)
#   WRISTCORE_VM_SCRATCH  swift --scratch-path for the binaries (default: .build)
#   WRISTCORE_VM_OUT      where results go (default: ~/.cache/wristcore-vm/last-run)
#   WRISTCORE_VM_TIMEOUT  seconds before the VM is stopped (default: 2400)
#   WRISTCORE_VM_KERNEL   the kernel version to boot (default: newest 6.1 with headers)
#   WRISTCORE_VM_KVM=0    never use KVM (default: use it when a probe boot works)
#   WRISTCORE_VM_WRISTCORE  the daemon binary to test (default: the debug build);
#                         CI points it at the Debian package's /usr/bin/wristcore
set -uo pipefail
. "$(dirname "$0")/lib.sh"

SCRATCH="${WRISTCORE_VM_SCRATCH:-$REPO_DIR/.build}"
OUT="${WRISTCORE_VM_OUT:-$VM_CACHE/last-run}"
TIMEOUT="${WRISTCORE_VM_TIMEOUT:-2400}"

skip_loudly() {
    cat <<BANNER
################################################################################
##  SKIPPED: real-kernel VM tests (Bluetooth / I2C / GPIO)
##  $1
##  Nothing was tested against the real kernel on this machine.
################################################################################
BANNER
    exit 0
}

bed_failed() {
    echo "== real-kernel VM tests: the test bed failed: $1"
    echo "== (to skip these tests on purpose, run with WRISTCORE_VM=skip)"
    exit 2
}

[ "${WRISTCORE_VM:-}" = skip ] && skip_loudly "WRISTCORE_VM=skip was set: the real-kernel tests were skipped on purpose"
QEMU="${WRISTCORE_VM_QEMU:-qemu-system-x86_64}"

# 1. packages (idempotent)
if [ "${WRISTCORE_VM_NO_INSTALL:-0}" != 1 ]; then
    "$VM_DIR/install.sh" || bed_failed "installing the packages failed"
fi
export PATH="$PATH:/usr/local/bin:$HOME/.local/bin"

# qemu must be able to run; KVM is optional (TCG is slower but works).
command -v "$QEMU" >/dev/null || bed_failed "$QEMU is not installed (Tests/VM/install.sh installs qemu-system-x86)"
pidfile="$(mktemp -u /tmp/wristcore-vm-qemu-probe.XXXXXX)"
"$QEMU" -machine none -display none -S -monitor none -serial none -nodefaults \
    -daemonize -pidfile "$pidfile" >/dev/null 2>&1 \
    && kill "$(cat "$pidfile")" 2>/dev/null
probe=$?
rm -f "$pidfile"
[ "$probe" = 0 ] || bed_failed "$QEMU is installed but cannot start on this machine"
# KVM only when it really boots a kernel here: /dev/kvm can exist and still
# fail (nested virtualisation refusing an MSR, seen on this project's CI).
kvm_boots() {
    [ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
    timeout -k 2 30 "$QEMU" -enable-kvm -cpu host -m 256 -nodefaults -display none -no-reboot \
        -kernel "/boot/vmlinuz-$1" -append "console=ttyS0 panic=-1" -serial stdio 2>&1 | grep -m1 -q "Linux version"
}

# 2. the gpio-sim module for the VM kernel (cached)
kver="$(vm_kernel_version)" || { vm_log "no VM kernel"; exit 2; }
KVM_FLAG="--disable-kvm"
if [ "${WRISTCORE_VM_KVM:-auto}" != 0 ] && kvm_boots "$kver"; then KVM_FLAG=""; fi
ko="$("$VM_DIR/build-gpio-sim.sh")" || { vm_log "gpio-sim module build failed"; exit 2; }

# 3. the binaries (debug build: the tests need no speed, and it is what `make test` built)
vm_log "building wristcore and wristcore-vm-phone (scratch path $SCRATCH)"
for product in wristcore wristcore-vm-phone; do
    (cd "$REPO_DIR" && swift build --scratch-path "$SCRATCH" --product "$product" 2>&1 | tail -3) \
        || { vm_log "swift build --product $product failed"; exit 2; }
done
bindir="$(cd "$REPO_DIR" && swift build --scratch-path "$SCRATCH" --show-bin-path)"
[ -x "$bindir/wristcore" ] && [ -x "$bindir/wristcore-vm-phone" ] || { vm_log "binaries missing in $bindir"; exit 2; }
daemon="${WRISTCORE_VM_WRISTCORE:-$bindir/wristcore}"
daemon="$(cd "$(dirname "$daemon")" && pwd)/$(basename "$daemon")"
[ -x "$daemon" ] || { vm_log "no daemon binary at $daemon"; exit 2; }
vm_log "daemon under test: $daemon"


# 4. one boot for every test
rm -rf "$OUT"; mkdir -p "$OUT"
MODE="KVM"; [ -n "$KVM_FLAG" ] && MODE="TCG, no KVM"
vm_log "booting $kver ($MODE) — results in $OUT"
SECONDS=0
timeout -k 10 "$TIMEOUT" vng --run "/boot/vmlinuz-$kver" $KVM_FLAG --cpus 2 --memory 2G \
    --rwdir "$OUT" --cwd "$REPO_DIR" \
    --exec "$VM_DIR/guest/main.sh $OUT $ko $daemon $bindir/wristcore-vm-phone" \
    >"$OUT/console.log" 2>&1
vng_rc=$?
total=$SECONDS

# 5. report
echo "== real-kernel VM tests ($kver, $MODE)"
cat "$OUT/vm-info" 2>/dev/null
[ -f "$OUT/tests.log" ] && grep -E '^(ok|not ok) |^# |passed, .* failed' "$OUT/tests.log"
echo "== VM total time: ${total} s (boot + set-up + tests; vng exit $vng_rc)"
if [ ! -f "$OUT/rc" ]; then
    echo "== the VM did not finish (timeout ${TIMEOUT}s or crash); last console lines:"
    tail -30 "$OUT/console.log"
    exit 2
fi
rc="$(cat "$OUT/rc")"
[ "$rc" = 0 ] && echo "== all real-kernel tests passed" || echo "== real-kernel tests FAILED (logs: $OUT)"
[ "$rc" = 0 ]
