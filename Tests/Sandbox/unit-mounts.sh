#!/usr/bin/env bash
# The file-system half of a systemd unit's sandbox, without systemd: in a new
# mount namespace, lays out what the unit's [Service] lines ask for, then runs
# the command (still as root: drop privileges after this, e.g. with setpriv).
# Used by Tests/Sandbox/run-as-unit.sh --mounts (the test VM runs the daemon so).
#
#   unit-mounts.sh --unit FILE [--rw PATH]... -- COMMAND [ARGS...]
#
# Reproduced from the unit:
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

# The unit's [Service] settings, read once without forking (this runs before
# every daemon start in an emulated VM, where each process costs): the last
# assignment of a key wins; BindPaths= assignments add up.
declare -A U=()
section=""
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
        \[*) section="$line"; continue ;;
        ""|\#*|\;*) continue ;;
    esac
    [ "$section" = "[Service]" ] || continue
    k="${line%%=*}"; v="${line#*=}"
    if [ "$k" = BindPaths ]; then U[BindPaths]="${U[BindPaths]:-} $v"; else U[$k]="$v"; fi
done <"$UNIT"
last() { echo "${U[$1]:-}"; }
is_yes() { case "${U[$1]:-}" in yes|true|on|1) return 0 ;; *) return 1 ;; esac; }

under() { # under PATH PREFIX
    [ "$1" = "$2" ] || [ "${1#"$2"/}" != "$1" ]
}

# --- writable paths: their own mounts, so they can stay writable
for p in "${RW[@]}"; do mount --bind "$p" "$p"; done

# --- PrivateDevices=yes (+ BindPaths= of device nodes)
if is_yes PrivateDevices; then
    stage="$(mktemp -d /run/wc-unit-dev.XXXXXX)"   # assembled here, then moved onto /dev
    mount -t tmpfs -o mode=0755,nosuid,noexec,strictatime tmpfs "$stage"
    for n in null zero full random urandom tty; do
        : >"$stage/$n"; mount --bind "/dev/$n" "$stage/$n"
    done
    mkdir "$stage/shm" "$stage/pts"
    [ -d /dev/shm ] && mount --bind /dev/shm "$stage/shm"
    ln -s /proc/self/fd "$stage/fd"
    ln -s /proc/self/fd/0 "$stage/stdin"; ln -s /proc/self/fd/1 "$stage/stdout"; ln -s /proc/self/fd/2 "$stage/stderr"
    bound=""
    for entry in ${U[BindPaths]:-}; do
        optional=""; [ "${entry#-}" != "$entry" ] && { optional=1; entry="${entry#-}"; }
        src="${entry%%:*}"; dst="${entry#*:}"; [ "$dst" = "$entry" ] && dst="$src"
        under "$dst" /dev || die "BindPaths=$entry: only device nodes under /dev are reproduced"
        if [ ! -e "$src" ]; then
            [ -n "$optional" ] && continue
            die "BindPaths=$entry: $src does not exist (systemd would refuse to start the unit)"
        fi
        rel="${dst#/dev/}"
        case "$rel" in */*) mkdir -p "$stage/${rel%/*}" ;; esac
        : >"$stage/$rel"
        mount --bind "$src" "$stage/$rel"
        bound="$bound $src"
    done
    echo "unit-mounts.sh: private /dev, bound in:${bound:- nothing}" >&2
    mount --move "$stage" /dev
    rmdir "$stage"
fi

# --- ProtectSystem=strict, ProtectKernelTunables=, ProtectControlGroups=:
# every mount read-only (one mount_setattr(AT_RECURSIVE) walks the mount tree,
# shadowed mounts included), then writable again where systemd leaves them so:
# /dev, /proc, /sys (unless ProtectKernelTunables=), the --rw paths. A mount
# that cannot be changed is reported and skipped, as systemd skips it when the
# kernel says EPERM/EACCES.
strict=""; [ "${U[ProtectSystem]:-}" = strict ] && strict=1
tunables=""; is_yes ProtectKernelTunables && tunables=1
cgroups=""; is_yes ProtectControlGroups && cgroups=1
/usr/bin/python3 - "$strict" "$tunables" "$cgroups" "${RW[@]}" <<'PY'
import ctypes, os, sys
strict, tunables, cgroups, rw = sys.argv[1] == "1", sys.argv[2] == "1", sys.argv[3] == "1", sys.argv[4:]
libc = ctypes.CDLL(None, use_errno=True)
SYS_mount_setattr = 442          # the same number on x86_64 and aarch64 (Linux >= 5.12)
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 0x1

class MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]

def setattr(path, ro, recursive):
    a = MountAttr(MOUNT_ATTR_RDONLY if ro else 0, 0 if ro else MOUNT_ATTR_RDONLY, 0, 0)
    r = libc.syscall(ctypes.c_long(SYS_mount_setattr), ctypes.c_long(AT_FDCWD), ctypes.c_char_p(path.encode()),
                     ctypes.c_long(AT_RECURSIVE if recursive else 0), ctypes.byref(a), ctypes.c_long(ctypes.sizeof(a)))
    return 0 if r == 0 else ctypes.get_errno()

def mounts():
    with open("/proc/self/mountinfo") as f:
        return [l.split()[4].encode().decode("unicode_escape") for l in f]

def under(p, prefix):
    return p == prefix or p.startswith(prefix.rstrip("/") + "/")

def change(path, ro):
    """Recursively; when the kernel refuses the whole tree, mount by mount."""
    e = setattr(path, ro, True)
    if e == 0:
        return
    print(f"unit-mounts.sh: {path} and below {'read-only' if ro else 'writable'}: {os.strerror(e)}; mount by mount", file=sys.stderr)
    for m in sorted(set(x for x in mounts() if under(x, path))):
        e = setattr(m, ro, False)
        if e:
            print(f"unit-mounts.sh: skipped {m}: {os.strerror(e)}", file=sys.stderr)

if strict:
    change("/", True)
    for p in ["/dev", "/proc"] + ([] if tunables else ["/sys"]) + rw:
        change(p, False)
if tunables and not strict:
    change("/sys", True)
if cgroups and os.path.isdir("/sys/fs/cgroup"):
    change("/sys/fs/cgroup", True)
PY

# --- ProtectProc= / ProcSubset=: a new procfs
procopts="nosuid,nodev,noexec"
pp="${U[ProtectProc]:-}"; ps="${U[ProcSubset]:-}"
[ -n "$pp" ] && [ "$pp" != default ] && procopts="$procopts,hidepid=$pp"
[ "$ps" = pid ] && procopts="$procopts,subset=pid"
if [ "$procopts" != "nosuid,nodev,noexec" ]; then
    mount -t proc -o "$procopts" proc /proc
fi

# --- ProtectKernelModules=yes, ProtectHome=yes: inaccessible
inaccessible() { [ -d "$1" ] && mount -t tmpfs -o ro,mode=000,nosuid,nodev,noexec tmpfs "$1"; return 0; }
if is_yes ProtectKernelModules; then
    inaccessible /usr/lib/modules
    [ "$(realpath /lib/modules 2>/dev/null)" = "$(realpath /usr/lib/modules)" ] || inaccessible /lib/modules
fi
if is_yes ProtectHome; then for d in /home /root /run/user; do inaccessible "$d"; done; fi

# --- PrivateTmp=yes
if is_yes PrivateTmp; then
    for d in /tmp /var/tmp; do [ -d "$d" ] && mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$d"; done
fi

exec "$@"
