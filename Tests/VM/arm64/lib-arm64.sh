# Shared settings of the arm64 VM test bed (sourced by Tests/VM/arm64/*.sh).
# Everything is cached under $A64_CACHE (~/.cache/wristcore-vm/arm64), keyed
# by what it was made from, so a second run rebuilds nothing.

A64_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VM_DIR="$(cd "$A64_DIR/.." && pwd)"
REPO_DIR="$(cd "$VM_DIR/../.." && pwd)"
VM_CACHE="${WRISTCORE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wristcore-vm}"
A64_CACHE="$VM_CACHE/arm64"
A64_SUITE="${WRISTCORE_VM_ARM64_SUITE:-bookworm}"
A64_MIRROR="${WRISTCORE_VM_ARM64_MIRROR:-http://deb.debian.org/debian}"

# The guest's userland: what Tests/VM/guest/{main,setup}.sh, vmtests.py and
# Tests/Sandbox/* run, plus the daemon's shared libraries. Changing this
# list changes the cache key (a new root is built).
A64_PACKAGES=(
    python3 python3-seccomp          # vmtests.py, Tests/Sandbox/seccomp-exec.py
    systemd                          # systemd-analyze syscall-filter (seccomp-exec.py)
    bluez bluez-test-tools dbus      # btmgmt, btvirt (dbus: debootstrap does not resolve bluez's virtual dbus-system-bus)
    i2c-tools gpiod kmod busybox procps
    libgpiod2 libi2c0 libbluetooth3  # the daemon's libraries
)

a64_log() { printf '== arm64-vm: %s\n' "$*" >&2; }
a64_die() { printf '== arm64-vm: ERROR: %s\n' "$*" >&2; exit 2; }

# Stage timing: a64_stage NAME starts a stage (and ends the previous one).
A64_STAGE=""; A64_STAGE_T0=0
a64_stage() {
    local now; now=$(date +%s)
    if [ -n "$A64_STAGE" ]; then
        a64_log "stage '$A64_STAGE' took $((now - A64_STAGE_T0)) s"
        printf '%s %s\n' "$A64_STAGE" "$((now - A64_STAGE_T0))" >>"${A64_TIMINGS:-/dev/null}"
    fi
    A64_STAGE="$1"; A64_STAGE_T0=$now
    [ -n "$1" ] && a64_log "stage '$1'"
    return 0
}

a64_root_key() {
    printf '%s\n' "$A64_SUITE" "$A64_MIRROR" minbase "${WRISTCORE_VM_ARM64_SECOND_STAGE:-light}" "${A64_PACKAGES[@]}" \
        | sha256sum | cut -c1-12
}

# qemu-aarch64 through binfmt_misc: debootstrap's second stage and the arm64
# headers' host tools (fixdep, modpost) are arm64 binaries.
a64_binfmt() {
    if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
    fi
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null
}
