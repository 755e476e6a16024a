#!/usr/bin/env bash
# The VM test bed's own rules, checked without booting anything:
#   - qemu that is installed but cannot start fails the run (exit 2, no SKIPPED);
#   - a missing qemu fails the run the same way;
#   - WRISTCORE_VM=skip skips, with exit 0 and a banner that says so.
# Prints 'N passed, N failed'; exit 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
passed=0 failed=0
check() {
    local name=$1 want_rc=$2 want_text=$3 forbid_text=$4; shift 4
    local out rc
    out="$(env "$@" Tests/VM/run.sh 2>&1)"; rc=$?
    if [ "$rc" = "$want_rc" ] && grep -q -- "$want_text" <<<"$out" && { [ -z "$forbid_text" ] || ! grep -q -- "$forbid_text" <<<"$out"; }; then
        passed=$((passed + 1)); echo "ok - $name"
    else
        failed=$((failed + 1)); echo "not ok - $name (exit $rc)"; sed 's/^/#   /' <<<"$out" | tail -5
    fi
}
check "qemu that cannot start fails the run" 2 "cannot start on this machine" "SKIPPED" \
    WRISTCORE_VM_NO_INSTALL=1 WRISTCORE_VM_QEMU=false
check "a missing qemu fails the run" 2 "is not installed" "SKIPPED" \
    WRISTCORE_VM_NO_INSTALL=1 WRISTCORE_VM_QEMU=/nonexistent/qemu-system-x86_64
check "WRISTCORE_VM=skip skips loudly" 0 "SKIPPED" "" \
    WRISTCORE_VM=skip WRISTCORE_VM_NO_INSTALL=1 WRISTCORE_VM_QEMU=false
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
