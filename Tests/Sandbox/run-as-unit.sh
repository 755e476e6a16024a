#!/usr/bin/env bash
# Runs a command under deploy/wristcore.service's restrictions as far as they
# can be reproduced without systemd (docs/service-hardening.md):
#   1. --mounts: the unit's file-system sandbox in a mount namespace
#      (Tests/Sandbox/unit-mounts.sh: PrivateDevices + BindPaths, ProtectSystem,
#      ProtectProc, ProcSubset, ProtectHome, PrivateTmp, ...)
#   2. setpriv: --user's uid/gid/groups (User=, Group=, SupplementaryGroups=)
#      and exactly the unit's capabilities (CapabilityBoundingSet=,
#      AmbientCapabilities=); as root without --user, only the capabilities
#   3. Tests/Sandbox/seccomp-exec.py: the unit's system call filter,
#      address families, W^X, namespaces, personality, suid bits, UMask=,
#      NoNewPrivileges
#   4. exec COMMAND
#
#   run-as-unit.sh [--unit FILE] [--user UID:GID[:GID,GID...]] [--mounts] [--rw PATH]...
#                  [--action kill|errno|log] [--log-denials] [--python PATH] [--seccomp-exec PATH]
#                  -- COMMAND [ARGS...]
#
# --action: what a system call outside SystemCallFilter= gets (default kill: a
# test must not depend on EPERM hiding a call the unit would refuse).
# --log-denials: the kernel logs every refusal, EPERM answers included (dmesg).
# --seccomp-exec: where the unprivileged user can read seccomp-exec.py (the
# repository may sit in a directory only root can enter).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
UNIT="$HERE/../../deploy/wristcore.service"
USERSPEC=""; MOUNTS=""; RW=(); ACTION=kill; LOG=(); PY=/usr/bin/python3; SECCOMP_EXEC="$HERE/seccomp-exec.py"
while [ $# -gt 0 ]; do
    case "$1" in
        --unit) UNIT="$2"; shift 2 ;;
        --user) USERSPEC="$2"; shift 2 ;;
        --mounts) MOUNTS=1; shift ;;
        --rw) RW+=(--rw "$2"); shift 2 ;;
        --action) ACTION="$2"; shift 2 ;;
        --log-denials) LOG=(--log-denials); shift ;;
        --python) PY="$2"; shift 2 ;;
        --seccomp-exec) SECCOMP_EXEC="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "run-as-unit.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "run-as-unit.sh: no command" >&2; exit 2; }

# The unit's capabilities as setpriv wants them: "-all,+net_admin" (no
# forks: this runs before every daemon start, also in an emulated VM).
caps() {
    local line section="" v="" out="-all" c
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in \[*) section="$line"; continue ;; esac
        [ "$section" = "[Service]" ] && [ "${line%%=*}" = "$1" ] && v="${line#*=}"
    done <"$UNIT"
    for c in $v; do c="${c#CAP_}"; out="$out,+${c,,}"; done
    echo "$out"
}
cmd=("$PY" "$SECCOMP_EXEC" --unit "$UNIT" --action "$ACTION" "${LOG[@]}" -- "$@")
if [ "$(id -u)" = 0 ]; then
    bounding="$(caps CapabilityBoundingSet)"; ambient="$(caps AmbientCapabilities)"
    priv=(setpriv --inh-caps="$ambient" --ambient-caps="$ambient" --bounding-set="$bounding")
    if [ -n "$USERSPEC" ]; then
        IFS=: read -r uid gid groups <<<"$USERSPEC"
        priv+=(--reuid="$uid" --regid="$gid")
        if [ -n "$groups" ]; then priv+=(--groups="$groups"); else priv+=(--clear-groups); fi
    fi
    cmd=("${priv[@]}" -- "${cmd[@]}")
elif [ -n "$USERSPEC" ] || [ -n "$MOUNTS" ]; then
    echo "run-as-unit.sh: --user and --mounts need root" >&2; exit 2
fi
if [ -n "$MOUNTS" ]; then
    cmd=("$HERE/unit-mounts.sh" --unit "$UNIT" "${RW[@]}" -- "${cmd[@]}")
fi
exec "${cmd[@]}"
