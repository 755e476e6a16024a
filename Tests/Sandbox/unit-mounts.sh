#!/usr/bin/env bash
# The file-system half of a systemd unit's sandbox, without systemd: in a new
# mount namespace, lays out what the unit's [Service] lines ask for, then runs
# the command (still as root: drop privileges after this, e.g. with setpriv).
# Used by Tests/Sandbox/run-as-unit.sh --mounts (the test VM runs the daemon so).
#
#   unit-mounts.sh --unit FILE [--rw PATH]... -- COMMAND [ARGS...]
#
# Reproduced from the unit, in this order:
#   --rw PATH              stands for StateDirectory= / RuntimeDirectory=: stays writable
#   PrivateDevices=yes     a new /dev (tmpfs) with null zero full random urandom tty,
#                          shm, the fd/stdin/stdout/stderr links, and every
#                          BindPaths= entry under /dev/ bound in from the real /dev
#                          ("-" entries that do not exist are skipped, as systemd does)
#   ProtectProc=invisible, ProcSubset=pid   a new procfs with hidepid=invisible,subset=pid
#   ProtectSystem=strict   every other mount read-only (not /dev, /proc, /sys, the --rw paths)
#   ProtectKernelTunables=yes  /sys read-only;  ProtectControlGroups=yes  /sys/fs/cgroup read-only
#   ProtectKernelModules=yes   /usr/lib/modules inaccessible
#   ProtectHome=yes        /home /root /run/user empty and inaccessible
#   PrivateTmp=yes         fresh /tmp and /var/tmp
# Not reproduced (no systemd, no cgroup of its own): DeviceAllow= (the cgroup
# device filter), IPAddressDeny=, RemoveIPC=, ProtectHostname= (a UTS
# namespace), the seccomp parts (Tests/Sandbox/seccomp-exec.py does those).
set -euo pipefail

if [ -z "${WC_UNIT_MOUNTS_INNER:-}" ]; then
    [ "$(id -u)" = 0 ] || { echo "unit-mounts.sh: needs root (it builds a mount namespace)" >&2; exit 2; }
    WC_UNIT_MOUNTS_INNER=1 exec unshare --mount --propagation private -- "$0" "$@"
fi
unset WC_UNIT_MOUNTS_INNER

UNIT=""; RW=()
while [ $# -gt 0 ]; do
    case "$1" in
        --unit) UNIT="$2"; shift 2 ;;
        --rw) RW+=("$(realpath "$2")"); shift 2 ;;
        --) shift; break ;;
        *) echo "unit-mounts.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -n "$UNIT" ] && [ $# -gt 0 ] || { echo "usage: unit-mounts.sh --unit FILE [--rw PATH]... -- COMMAND..." >&2; exit 2; }
die() { echo "unit-mounts.sh: $*" >&2; exit 2; }

# The values of KEY= in [Service], one line per assignment.
setting() {
    awk -v key="$1" '
        /^\[/ { svc = ($0 == "[Service]") ; next }
        svc && index($0, key "=") == 1 { print substr($0, length(key) + 2) }' "$UNIT"
}
last() { setting "$1" | tail -1; }
is_yes() { case "$(last "$1")" in yes|true|on|1) return 0 ;; *) return 1 ;; esac; }

under() { # under PATH PREFIX
    [ "$1" = "$2" ] || [ "${1#"$2"/}" != "$1" ]
}

# --- writable paths: their own mounts, so the read-only pass can skip them
for p in "${RW[@]}"; do mount --bind "$p" "$p"; done

# --- PrivateDevices=yes (+ BindPaths= of device nodes)
if is_yes PrivateDevices; then
    stage="$(mktemp -d /run/wc-unit-dev.XXXXXX)"
    mount -t tmpfs -o mode=0755,nosuid,noexec,strictatime tmpfs "$stage"
    for n in null zero full random urandom tty; do
        touch "$stage/$n"; mount --bind "/dev/$n" "$stage/$n"
    done
    mkdir -p "$stage/shm" "$stage/pts"
    [ -d /dev/shm ] && mount --bind /dev/shm "$stage/shm"
    ln -s /proc/self/fd "$stage/fd"
    ln -s /proc/self/fd/0 "$stage/stdin"; ln -s /proc/self/fd/1 "$stage/stdout"; ln -s /proc/self/fd/2 "$stage/stderr"
    for entry in $(setting BindPaths); do
        optional=""; [ "${entry#-}" != "$entry" ] && { optional=1; entry="${entry#-}"; }
        src="${entry%%:*}"; dst="${entry#*:}"; [ "$dst" = "$entry" ] && dst="$src"
        under "$dst" /dev || die "BindPaths=$entry: only device nodes under /dev are reproduced"
        if [ ! -e "$src" ]; then
            [ -n "$optional" ] && continue
            die "BindPaths=$entry: $src does not exist (systemd would refuse to start the unit)"
        fi
        mkdir -p "$(dirname "$stage/${dst#/dev/}")"
        touch "$stage/${dst#/dev/}"
        mount --bind "$src" "$stage/${dst#/dev/}"
        echo "unit-mounts.sh: /dev: bound $src" >&2
    done
    mount --move "$stage" /dev
    rmdir "$stage"
fi

# --- ProtectProc= / ProcSubset=
procopts="nosuid,nodev,noexec"
pp="$(last ProtectProc)"; ps="$(last ProcSubset)"
[ -n "$pp" ] && [ "$pp" != default ] && procopts="$procopts,hidepid=$pp"
[ "$ps" = pid ] && procopts="$procopts,subset=pid"
if [ "$procopts" != "nosuid,nodev,noexec" ]; then
    mount -t proc -o "$procopts" proc /proc
fi

# --- ProtectSystem=strict, ProtectKernelTunables=, ProtectControlGroups=: read-only mounts
strict=""; [ "$(last ProtectSystem)" = strict ] && strict=1
tunables=""; is_yes ProtectKernelTunables && tunables=1
cgroups=""; is_yes ProtectControlGroups && cgroups=1
findmnt -rn -o TARGET | sed 's/\\x20/ /g' | sort -u | while IFS= read -r target; do
    skip=""
    for p in "${RW[@]}"; do under "$target" "$p" && skip=1; done
    under "$target" /dev && skip=1
    under "$target" /proc && skip=1
    ro=""
    if under "$target" /sys; then
        [ -n "$tunables" ] && ro=1
        [ -n "$cgroups" ] && under "$target" /sys/fs/cgroup && ro=1
    elif [ -n "$strict" ]; then
        ro=1
    fi
    [ -z "$skip" ] && [ -n "$ro" ] || continue
    mount -o remount,bind,ro "$target" 2>/dev/null || die "cannot make $target read-only"
done

# --- ProtectKernelModules=yes, ProtectHome=yes: inaccessible
inaccessible() { [ -d "$1" ] && mount -t tmpfs -o ro,mode=000,nosuid,nodev,noexec tmpfs "$1"; return 0; }
if is_yes ProtectKernelModules; then
    inaccessible /usr/lib/modules
    [ -L /lib/modules ] || inaccessible /lib/modules   # merged /usr: the same directory
fi
if is_yes ProtectHome; then for d in /home /root /run/user; do inaccessible "$d"; done; fi

# --- PrivateTmp=yes
if is_yes PrivateTmp; then
    for d in /tmp /var/tmp; do [ -d "$d" ] && mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$d"; done
fi

exec "$@"
