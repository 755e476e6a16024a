#!/usr/bin/env bash
# CI, on the host: the daemon under deploy/wristcore.service's system call
# filter (and, as root, with only the unit's capabilities) still does
# everything the smoke tests check, and the filter really is enforced.
# The test VM (Tests/VM/guest/vmtests.py) does the same with the real HAL, an
# unprivileged user and the unit's file-system sandbox; this one needs no VM.
#
#   Tests/Sandbox/run-sandboxed.sh path/to/wristcore
#
# Prints "ok - ..." / "not ok - ..." and a last line "N passed, N failed";
# exit 1 when anything failed. Needs python3-seccomp (/usr/bin/python3) and
# systemd-analyze (package systemd).
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
BIN="$(realpath "${1:?usage: run-sandboxed.sh path/to/wristcore}")"
UNIT="$REPO/deploy/wristcore.service"
PY=/usr/bin/python3
RUN=("$HERE/run-as-unit.sh" --unit "$UNIT" --action kill --)
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && printf '#   %s\n' "$2"; }
check() { # check NAME EXPECTED_RC ACTUAL_RC [DETAIL]
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected exit $2, got $3 ${4:-}"; fi
}
work="$(mktemp -d /tmp/wc-sandboxed.XXXXXX)"
trap 'rm -rf "$work"' EXIT

"$PY" -c 'import seccomp' 2>/dev/null || { echo "not ok - python3-seccomp is not installed (apt-get install python3-seccomp)"; echo "0 passed, 1 failed"; exit 1; }
"$HERE/seccomp-exec.py" --unit "$UNIT" --print >"$work/allowed" || { echo "not ok - seccomp-exec.py could not read the unit's filter"; echo "0 passed, 1 failed"; exit 1; }
echo "# $(wc -l <"$work/allowed") system calls allowed by $(grep -c '^SystemCallFilter=' "$UNIT") SystemCallFilter= lines of deploy/wristcore.service"

# --- the wrapper enforces what the unit says (else the rest proves nothing)
probe() { "${RUN[@]}" "$PY" -c "$1" 2>&1; }
out="$(probe 'import os; print(open("/proc/self/status").read())')"
echo "$out" | grep -q '^Seccomp:[[:space:]]*2' && echo "$out" | grep -q '^NoNewPrivs:[[:space:]]*1' \
    && ok "the filter is loaded (Seccomp: 2) with NoNewPrivileges" || not_ok "the filter is loaded with NoNewPrivileges" "$out"
if [ "$(id -u)" = 0 ]; then
    eff="$(echo "$out" | sed -n 's/^CapEff:[[:space:]]*//p')"
    want="$("$HERE/seccomp-exec.py" --unit "$UNIT" --caps-mask)"
    [ "$eff" = "$want" ] && ok "as root: only the unit's capabilities are effective (CapEff $eff: $(grep '^CapabilityBoundingSet=' "$UNIT" | cut -d= -f2))" \
        || not_ok "as root: only the unit's capabilities are effective" "CapEff $eff, the unit's: $want"
fi
(probe 'import ctypes; ctypes.CDLL(None).setpriority(0, 0, 5)' >/dev/null) 2>/dev/null; rc=$?
check "a call outside the list (setpriority, @resources) kills the process (SIGSYS)" 159 "$rc"
out="$("$HERE/run-as-unit.sh" --unit "$UNIT" --action errno -- "$PY" -c 'import ctypes, os
r = ctypes.CDLL(None, use_errno=True).setpriority(0, 0, 5); print(r, os.strerror(ctypes.get_errno()))' 2>&1)"
[ "$out" = "-1 Operation not permitted" ] && ok "with SystemCallErrorNumber=EPERM (--action errno) the same call fails with EPERM" \
    || not_ok "with --action errno the call fails with EPERM" "$out"
out="$(probe 'import socket
for fam in (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, socket.AF_PACKET):
    try: socket.socket(fam, socket.SOCK_DGRAM if fam != socket.AF_PACKET else socket.SOCK_RAW); print("allowed", fam)
    except OSError as e: print(e.errno)
socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); print("unix ok")')"
[ "$out" = "$(printf '97\n97\n97\n97\nunix ok')" ] && ok "RestrictAddressFamilies: IP, netlink and packet sockets get EAFNOSUPPORT; Unix sockets work" \
    || not_ok "RestrictAddressFamilies" "$out"
out="$(probe 'import mmap
try: mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC); print("W+X mapped")
except OSError as e: print(e.errno)')"
[ "$out" = 1 ] && ok "MemoryDenyWriteExecute: a writable+executable mapping gets EPERM" || not_ok "MemoryDenyWriteExecute" "$out"
out="$(probe 'import ctypes; print(ctypes.CDLL(None, use_errno=True).unshare(0x00020000), ctypes.get_errno())')"
[ "$out" = "-1 1" ] && ok "RestrictNamespaces: unshare(CLONE_NEWNS) gets EPERM" || not_ok "RestrictNamespaces" "$out"
out="$(probe 'import resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard)); print("raised")')"
[ "$out" = raised ] && ok "raising RLIMIT_NOFILE works (glibc's setrlimit is prlimit64, in @default; setrlimit itself is in @resources)" \
    || not_ok "raising RLIMIT_NOFILE under the filter" "$out"
out="$("${RUN[@]}" /bin/sh -c 'umask; exec /proc/self/exe -c "echo re-exec"' 2>&1)"
[ "$out" = "$(printf '0077\nre-exec')" ] && ok "UMask=0077, and execve of /proc/self/exe (the SIGHUP restart) is allowed" \
    || not_ok "UMask and execve of /proc/self/exe" "$out"

# --- the daemon under the filter
"${RUN[@]}" "$BIN" --version >"$work/version" 2>&1; check "wristcore --version" 0 $? "$(cat "$work/version")"
"${RUN[@]}" "$BIN" run --board sim --duration 0.5 >"$work/run.log" 2>&1
check "wristcore run --board sim --duration 0.5" 0 $? "$(tail -3 "$work/run.log")"
"${RUN[@]}" "$BIN" motor-off --board sim >"$work/motor-off.log" 2>&1
check "wristcore motor-off --board sim (the unit's ExecStopPost=)" 0 $? "$(tail -3 "$work/motor-off.log")"
"${RUN[@]}" "$BIN" doctor --board "$REPO/Boards/rpi4.json" >"$work/doctor.log" 2>&1; rc=$?
[ "$rc" -lt 128 ] && ok "wristcore doctor on a board this machine lacks: an answer (exit $rc), not a kill" \
    || not_ok "wristcore doctor under the filter" "exit $rc: $(tail -3 "$work/doctor.log")"

# The smoke clients start the daemon themselves: give them one that runs
# sandboxed, and compare with the same client against the plain binary (a
# check that fails without the filter too is not the filter's doing).
cat >"$work/wristcore" <<SHIM
#!/bin/sh
exec "$HERE/run-as-unit.sh" --unit "$UNIT" --action kill -- "$BIN" "\$@"
SHIM
chmod +x "$work/wristcore"
for smoke in harness_smoke signals_smoke; do
    script="$REPO/Tests/CLI/$smoke.py"
    [ -f "$script" ] || continue
    timeout -k 5 120 "$PY" "$script" "$BIN" >"$work/$smoke.plain" 2>&1
    timeout -k 5 120 "$PY" "$script" "$work/wristcore" >"$work/$smoke.sandboxed" 2>&1
    summary="$(tail -1 "$work/$smoke.sandboxed")"
    new_failures="$(grep '^not ok' "$work/$smoke.sandboxed" | sort | comm -23 - <(grep '^not ok' "$work/$smoke.plain" | sort))"
    plain_failures="$(grep -c '^not ok' "$work/$smoke.plain")"
    if grep -q 'passed, ' <<<"$summary" && [ -z "$new_failures" ] && ! grep -q 'SIGSYS\|Bad system call' "$work/$smoke.sandboxed"; then
        ok "Tests/CLI/$smoke.py against the sandboxed daemon: $summary (without the sandbox: $(tail -1 "$work/$smoke.plain"))"
    else
        not_ok "Tests/CLI/$smoke.py against the sandboxed daemon: $summary" "new failures under the filter: ${new_failures:-none}; last lines: $(tail -5 "$work/$smoke.sandboxed" | tr '\n' '|')"
    fi
    [ "$plain_failures" = 0 ] || echo "# $smoke.py fails $plain_failures check(s) without the sandbox too (not this test's business): $(grep '^not ok' "$work/$smoke.plain" | tr '\n' ' ')"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
