#!/usr/bin/python3
"""Runs a command under the system call restrictions of a systemd unit, the
way systemd would apply them, without systemd: so the tests (on the host and
in the VM) run the daemon under exactly the filter that deploy/wristcore.service
asks for.

    seccomp-exec.py [--unit FILE] [--action kill|errno|log] -- COMMAND [ARGS...]
    seccomp-exec.py [--unit FILE] --print          (the resolved allow list)

From the unit's [Service] section it reproduces:
  SystemCallFilter=          every line, in order: the first allow list starts
                             from nothing, later "~" lines remove from it (and
                             later allow lines add back), as systemd does. Groups
                             (@system-service, ...) are expanded from the output
                             of `systemd-analyze syscall-filter`, i.e. from the
                             installed systemd's own tables.
  SystemCallErrorNumber=     the action for a call outside the list with
                             --action errno (default: kill the process, which
                             is what a test wants: nothing outside the list may
                             even be tried)
  SystemCallArchitectures=native   only the native ABI (others kill the process)
  MemoryDenyWriteExecute=yes mmap W+X, mprotect/pkey_mprotect +X, shmat SHM_EXEC: EPERM
  RestrictAddressFamilies=   socket() of any other family: EAFNOSUPPORT
  RestrictNamespaces=yes     unshare/setns/clone with CLONE_NEW*: EPERM; clone3: ENOSYS
  LockPersonality=yes        personality() other than the current one: EPERM
  RestrictSUIDSGID=yes       chmod/fchmod/fchmodat and open/openat/creat with
                             S_ISUID/S_ISGID: EPERM
  UMask=                     the process umask
  NoNewPrivileges            always (libseccomp sets it before loading the filter)
With --log-denials the kernel logs every refusal (audit type=1326 in dmesg),
so a test can prove that the daemon never met one.

Each feature is its own filter, stacked like systemd stacks them: the kernel
applies the strictest answer. Needs Debian's python3-seccomp (hence
/usr/bin/python3, not a pyenv/venv python that cannot see dist-packages).
"""
import argparse
import errno
import os
import re
import shutil
import subprocess
import sys

try:
    import seccomp
except ImportError:
    sys.exit("seccomp-exec: needs Debian's python3-seccomp (apt-get install python3-seccomp) and /usr/bin/python3")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_UNIT = os.path.join(HERE, "..", "..", "deploy", "wristcore.service")


def unit_settings(path):
    """[Service] key -> list of values, in file order (continuation lines joined)."""
    settings, section, pending = {}, None, ""
    with open(path) as f:
        for raw in f:
            line = pending + raw.rstrip("\n")
            pending = ""
            if line.endswith("\\"):
                pending = line[:-1] + " "
                continue
            s = line.strip()
            if not s or s[0] in "#;":
                continue
            if s.startswith("["):
                section = s
                continue
            if section == "[Service]" and "=" in s:
                k, v = s.split("=", 1)
                settings.setdefault(k.strip(), []).append(v.strip())
    return settings


def syscall_groups():
    """@group -> [entries] from `systemd-analyze syscall-filter` (entries are
    names or other @groups)."""
    exe = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
    out = subprocess.run([exe, "syscall-filter"], capture_output=True, text=True, check=True).stdout
    groups, current = {}, None
    for line in out.splitlines():
        if line.startswith("@"):
            current = line.strip()
            groups[current] = []
        elif line.startswith("#"):
            current = None  # the trailing "ungrouped / unlisted" comments
        elif current and line.strip() and not line.strip().startswith("#"):
            groups[current].append(line.strip())
    if "@system-service" not in groups:
        sys.exit("seccomp-exec: `systemd-analyze syscall-filter` printed no @system-service group")
    return groups


def expand(entry, groups, seen=None):
    seen = seen if seen is not None else set()
    if not entry.startswith("@"):
        return {entry}
    if entry not in groups:
        sys.exit(f"seccomp-exec: unknown system call group {entry}")
    if entry in seen:
        return set()
    seen.add(entry)
    names = set()
    for e in groups[entry]:
        names |= expand(e, groups, seen)
    return names


def allow_list(settings, groups):
    """The unit's SystemCallFilter= lines folded the way systemd folds them.
    None when the unit has no allow list."""
    lines = settings.get("SystemCallFilter", [])
    allowed = None
    for value in lines:
        if value == "":
            allowed = None
            continue
        deny = value.startswith("~")
        words = value[1:].split() if deny else value.split()
        names = set()
        for w in words:
            names |= expand(w.split(":", 1)[0], groups)  # name:errno: the name part
        if allowed is None:
            if deny:
                sys.exit("seccomp-exec: a deny-list-first SystemCallFilter= is not what this unit uses; not reproduced")
            allowed = set(expand("@default", groups))  # systemd always allows @default in allow-list mode
        allowed = allowed - names if deny else allowed | names
    return allowed


def errno_value(name):
    if not name:
        return errno.EPERM
    if name.isdigit():
        return int(name)
    value = getattr(errno, name.upper(), None)
    if value is None:
        sys.exit(f"seccomp-exec: unknown SystemCallErrorNumber={name}")
    return value


def resolvable(name):
    try:
        return seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0
    except Exception:
        return False


def yes(settings, key):
    v = settings.get(key, [""])[-1].lower()
    return v in ("yes", "true", "on", "1")


CAPS = [  # linux/capability.h, by bit
    "CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID", "SETPCAP",
    "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST", "NET_ADMIN", "NET_RAW", "IPC_LOCK", "IPC_OWNER",
    "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT", "SYS_ADMIN", "SYS_BOOT", "SYS_NICE",
    "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD", "LEASE", "AUDIT_WRITE", "AUDIT_CONTROL", "SETFCAP",
    "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG", "WAKE_ALARM", "BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF",
    "CHECKPOINT_RESTORE",
]


def caps_mask(settings):
    """CapabilityBoundingSet= as /proc/self/status shows it (CapEff of a process that has them all)."""
    mask = 0
    for c in settings.get("CapabilityBoundingSet", [""])[-1].split():
        mask |= 1 << CAPS.index(c.removeprefix("CAP_"))
    return f"{mask:016x}"


AF = {  # linux/socket.h
    "AF_UNIX": 1, "AF_LOCAL": 1, "AF_INET": 2, "AF_AX25": 3, "AF_IPX": 4, "AF_APPLETALK": 5, "AF_NETROM": 6,
    "AF_BRIDGE": 7, "AF_ATMPVC": 8, "AF_X25": 9, "AF_INET6": 10, "AF_ROSE": 11, "AF_DECnet": 12,
    "AF_NETBEUI": 13, "AF_SECURITY": 14, "AF_KEY": 15, "AF_NETLINK": 16, "AF_PACKET": 17, "AF_ASH": 18,
    "AF_ECONET": 19, "AF_ATMSVC": 20, "AF_RDS": 21, "AF_SNA": 22, "AF_IRDA": 23, "AF_PPPOX": 24,
    "AF_WANPIPE": 25, "AF_LLC": 26, "AF_IB": 27, "AF_MPLS": 28, "AF_CAN": 29, "AF_TIPC": 30,
    "AF_BLUETOOTH": 31, "AF_IUCV": 32, "AF_RXRPC": 33, "AF_ISDN": 34, "AF_PHONET": 35, "AF_IEEE802154": 36,
    "AF_CAIF": 37, "AF_ALG": 38, "AF_NFC": 39, "AF_VSOCK": 40, "AF_KCM": 41, "AF_QIPCRTR": 42,
    "AF_SMC": 43, "AF_XDP": 44, "AF_MCTP": 45,
}
AF_MAX = 46
PROT_WRITE, PROT_EXEC = 0x2, 0x4
SHM_EXEC = 0o100000
S_ISUID, S_ISGID = 0o4000, 0o2000
O_CREAT = 0o100
CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080
PER_LINUX = 0


def pass_filter():
    """A filter that allows everything it has no rule for (for the argument checks)."""
    f = seccomp.SyscallFilter(seccomp.ALLOW)
    f.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
    return f


def rule(f, action, name, *args):
    if resolvable(name):
        f.add_rule(action, name, *args)


def build(settings, action_mode):
    """The stacked filters, main (allow list) first. Returns (filters, report)."""
    report = []
    filters = []
    groups = syscall_groups()
    allowed = allow_list(settings, groups)
    native_only = settings.get("SystemCallArchitectures", [""])[-1] == "native"
    if allowed is not None:
        if action_mode == "kill":
            default = seccomp.KILL_PROCESS
        elif action_mode == "log":
            default = seccomp.LOG
        else:
            default = seccomp.ERRNO(errno_value(settings.get("SystemCallErrorNumber", [""])[-1]))
        f = seccomp.SyscallFilter(default)
        f.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
        added = skipped = 0
        for name in sorted(allowed):
            if resolvable(name):
                f.add_rule(seccomp.ALLOW, name)
                added += 1
            else:
                skipped += 1  # not a system call of this architecture (mmap2, arm_fadvise64_64, ...)
        filters.append(f)
        report.append(f"SystemCallFilter: {added} calls allowed ({skipped} names are not calls of this architecture), others: {action_mode}")
    if not native_only:
        report.append("SystemCallArchitectures is not 'native': the filters still only allow the native ABI")
    families = settings.get("RestrictAddressFamilies", [""])[-1].split()
    if families:
        if families[0].startswith("~"):
            sys.exit("seccomp-exec: a deny-list RestrictAddressFamilies= is not reproduced")
        ok = {AF[x] for x in families}
        f = pass_filter()
        for af in range(AF_MAX):
            if af not in ok:
                rule(f, seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.EQ, af))
        rule(f, seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", seccomp.Arg(0, seccomp.GE, AF_MAX))
        filters.append(f)
        report.append(f"RestrictAddressFamilies: {' '.join(families)}")
    if yes(settings, "MemoryDenyWriteExecute"):
        f = pass_filter()
        eperm = seccomp.ERRNO(errno.EPERM)
        rule(f, eperm, "mmap", seccomp.Arg(2, seccomp.MASKED_EQ, PROT_WRITE | PROT_EXEC, PROT_WRITE | PROT_EXEC))
        rule(f, eperm, "mprotect", seccomp.Arg(2, seccomp.MASKED_EQ, PROT_EXEC, PROT_EXEC))
        rule(f, eperm, "pkey_mprotect", seccomp.Arg(2, seccomp.MASKED_EQ, PROT_EXEC, PROT_EXEC))
        rule(f, eperm, "shmat", seccomp.Arg(2, seccomp.MASKED_EQ, SHM_EXEC, SHM_EXEC))
        filters.append(f)
        report.append("MemoryDenyWriteExecute")
    if yes(settings, "RestrictNamespaces"):
        f = pass_filter()
        eperm = seccomp.ERRNO(errno.EPERM)
        rule(f, eperm, "unshare")
        rule(f, eperm, "setns")
        for bit in range(32):
            if CLONE_NEW & (1 << bit):
                rule(f, eperm, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, 1 << bit, 1 << bit))
        rule(f, seccomp.ERRNO(errno.ENOSYS), "clone3")  # flags are behind a pointer: glibc falls back to clone
        filters.append(f)
        report.append("RestrictNamespaces")
    if yes(settings, "LockPersonality"):
        f = pass_filter()
        rule(f, seccomp.ERRNO(errno.EPERM), "personality", seccomp.Arg(0, seccomp.NE, PER_LINUX))
        # (personality(0xffffffff), the query, is allowed by systemd; Python cannot
        # express "NE a and NE b" in one rule, and the daemon never queries.)
        filters.append(f)
        report.append("LockPersonality")
    if yes(settings, "RestrictSUIDSGID"):
        f = pass_filter()
        eperm = seccomp.ERRNO(errno.EPERM)
        for bit in (S_ISUID, S_ISGID):
            rule(f, eperm, "chmod", seccomp.Arg(1, seccomp.MASKED_EQ, bit, bit))
            rule(f, eperm, "fchmod", seccomp.Arg(1, seccomp.MASKED_EQ, bit, bit))
            rule(f, eperm, "fchmodat", seccomp.Arg(2, seccomp.MASKED_EQ, bit, bit))
            rule(f, eperm, "creat", seccomp.Arg(1, seccomp.MASKED_EQ, bit, bit))
            rule(f, eperm, "open", seccomp.Arg(1, seccomp.MASKED_EQ, O_CREAT, O_CREAT), seccomp.Arg(2, seccomp.MASKED_EQ, bit, bit))
            rule(f, eperm, "openat", seccomp.Arg(2, seccomp.MASKED_EQ, O_CREAT, O_CREAT), seccomp.Arg(3, seccomp.MASKED_EQ, bit, bit))
        filters.append(f)
        report.append("RestrictSUIDSGID")
    return filters, allowed, report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--unit", default=DEFAULT_UNIT)
    ap.add_argument("--action", choices=("kill", "errno", "log"), default="kill",
                    help="what a call outside SystemCallFilter= gets: kill (default, strictest), "
                         "errno (SystemCallErrorNumber=, as the unit runs), log (allowed, logged by the kernel)")
    ap.add_argument("--log-denials", action="store_true",
                    help="have the kernel log every refused call, EPERM/EAFNOSUPPORT answers included "
                         "(audit type=1326 in dmesg; kills are logged anyway)")
    ap.add_argument("--print", action="store_true", help="print the resolved allow list and exit")
    ap.add_argument("--caps-mask", action="store_true",
                    help="print CapabilityBoundingSet= as the hex mask /proc/self/status shows, and exit")
    ap.add_argument("--verbose", "-v", action="store_true", help="say which restrictions were loaded (stderr)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    settings = unit_settings(a.unit)
    if a.caps_mask:
        print(caps_mask(settings))
        return 0
    filters, allowed, report = build(settings, a.action)
    if a.print:
        print("\n".join(sorted(allowed or [])))
        return 0
    if not command:
        ap.error("no command")
    umask = settings.get("UMask", [None])[-1]
    if umask:
        os.umask(int(umask, 8))
        report.append(f"UMask={umask}")
    if a.verbose:
        print(f"seccomp-exec: {os.path.basename(a.unit)}: " + "; ".join(report), file=sys.stderr)
    # The argument filters first, the allow list last: loading a filter needs
    # seccomp()/prctl(), which the allow list may not allow. After it, only
    # execve (in @default) is left to do.
    for f in filters[1:] + filters[:1]:
        if a.log_denials:
            f.set_attr(seccomp.Attr.CTL_LOG, 1)
        f.load()
    try:
        os.execvp(command[0], command)
    except OSError as e:
        print(f"seccomp-exec: cannot run {command[0]}: {e}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main())
