# Shared settings for the real-kernel VM test bed (sourced by the Tests/VM scripts).
# Why one place: the install step, the module build and the boot must agree on
# the same kernel version, or the gpio-sim module will not load in the VM.

VM_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$VM_DIR/../.." && pwd)"
VM_CACHE="${WRISTCORE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wristcore-vm}"

vm_log() { printf '== vm: %s\n' "$*" >&2; }
vm_die() { printf '== vm: ERROR: %s\n' "$*" >&2; exit 1; }

# The VM kernel: the newest Debian 6.1 image under /boot that has its
# headers (/lib/modules/<ver>/build). 6.1 because gpio-sim is built from
# linux-source-6.1; the host's own running kernel does not matter.
# Override with WRISTCORE_VM_KERNEL=<ver>.
vm_kernel_version() {
    if [ -n "${WRISTCORE_VM_KERNEL:-}" ]; then echo "$WRISTCORE_VM_KERNEL"; return; fi
    local best="" v
    for img in /boot/vmlinuz-6.1.*; do
        [ -e "$img" ] || continue
        v="${img#/boot/vmlinuz-}"
        [ -e "/lib/modules/$v/build/Makefile" ] || continue
        best="$v"
    done
    [ -n "$best" ] || return 1
    # Several ABIs installed: pick the highest ABI number (6.1.0-N-amd64).
    for img in /boot/vmlinuz-6.1.*; do
        v="${img#/boot/vmlinuz-}"
        [ -e "/lib/modules/$v/build/Makefile" ] || continue
        best="$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -1)"
    done
    echo "$best"
}
