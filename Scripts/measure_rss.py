#!/usr/bin/env python3
"""The daemon's memory after a day's worth of notifications: runs
`wristcore run --board sim --phone unix:P --harness unix:H`, pushes N
notifications (default 10,000) through the phone endpoint with the minimal
Python iPhone (each one added, its attributes asked for and answered, older
ones removed), then reads /proc/PID/status and /proc/PID/smaps.

Prints what kind of build it is (Embedded Swift: no Swift runtime library,
the stdlib's parts it uses compiled into the binary; or the host build, with
libswiftCore dynamic or linked in), VmRSS, VmHWM, RssAnon, RssFile, RssShmem,
and where the resident memory is: the binary, the C libraries (libc, libm,
the dynamic loader), the device libraries (libgpiod, libi2c, libbluetooth),
the fonts, the Swift runtime libraries (none in an Embedded build), the
heap, other anonymous memory, the stack; then the binary's resident pages by
ELF section.

The goal: 2 MiB for the Embedded daemon (the shipped one), 8 MiB for a host
build (it carries the Swift runtime).

usage: measure_rss.py path/to/wristcore [--notifications N] [--max-rss-mib M]
  --max-rss-mib M   exit 1 when VmRSS after the notifications is above M MiB
  --max-hwm-mib M   exit 1 when the peak (VmHWM, start-up included) is above M MiB
                    (else only report;
                    CI: 2, for .build-embedded/amd64/wristcore)

The pieces (start_daemon, wait_ready, CountingPhone, subscribe, push) are
shared with Tests/CLI/notification_mallocs.py.
"""
import argparse, os, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "CLI"))
from minimal_phone import MinimalPhone, le16  # noqa: E402

GOAL_MIB = {"embedded": 2, "host": 8}
# The daemon runs in the checkout (a source build finds its fonts in ./Fonts).
REPO = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
STORE = 24  # notifications the phone keeps: from the 25th on, each added one removes the oldest


class CountingPhone(MinimalPhone):
    """The minimal iPhone, answering with a different title and message per
    notification, and counting the attribute requests it answered."""

    def __init__(self, path):
        super().__init__(path)
        self.answered = set()

    def _answer(self, pdu):
        if len(pdu) >= 8 and pdu[0] == 0x12 and (pdu[1] | pdu[2] << 8) == 0x25 and pdu[3] == 0x00:
            p = self.sock
            p.send(bytes([0x13]))
            uid = int.from_bytes(pdu[4:8], "little")
            values = {0: b"com.apple.MobileSMS", 1: b"Contact %d" % (uid % 97), 2: b"",
                      3: (b"Message number %d: see you at %d:%02d" % (uid, uid % 24, uid % 60)),
                      4: b"40", 5: b"20240501T120000", 6: b"Reply", 7: b"Clear"}
            asked, i = [], 8
            while i < len(pdu):
                asked.append(pdu[i]); i += 3 if pdu[i] in (1, 2, 3) else 1
            attrs = b"".join(bytes([a]) + le16(len(values.get(a, b""))) + values.get(a, b"") for a in asked)
            p.send(bytes([0x1B]) + le16(0x27) + bytes([0]) + pdu[4:8] + attrs)
            self.answered.add(uid)
        else:
            super()._answer(pdu)


def start_daemon(command, tmp, env=None, log_level="warning"):
    """Starts `command` (the daemon's argv up to `run`: the binary, or a
    wrapper running it) on the simulated board with the phone and harness
    endpoints in `tmp`. Returns (Popen, phone path, harness path)."""
    phone_path, harness_path = tmp + "/phone.sock", tmp + "/harness.sock"
    daemon = subprocess.Popen(command + ["run", "--board", "sim", "--phone", "unix:" + phone_path,
                                         "--harness", "unix:" + harness_path, "--log-level", log_level,
                                         "--state-dir", tmp], env=env, cwd=REPO)
    return daemon, phone_path, harness_path


def wait_ready(daemon, *paths, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if all(os.path.exists(p) for p in paths): return
        if daemon.poll() is not None: sys.exit("the daemon exited with %d" % daemon.returncode)
        time.sleep(0.05)
    sys.exit("the daemon's sockets did not appear within %d s" % seconds)


def subscribe(phone_path):
    """Connects the counting iPhone and serves the watch's discovery until it
    has subscribed to ANCS."""
    phone = CountingPhone(phone_path)
    phone.serve(30, until=lambda p: p.subscribed == {0x23, 0x28})
    if phone.subscribed != {0x23, 0x28}: sys.exit("the watch did not subscribe to ANCS")
    return phone


CATEGORIES = [0, 4, 6, 7, 2, 5, 9]  # other, social, email, news, missed call, schedule, business


def push(phone, first_uid, count):
    """Notifications first_uid ... first_uid+count-1: each added (every fifth
    Important), the one STORE before it removed, and its attribute request
    answered. Returns how many the watch did not fetch."""
    missing = 0
    for uid in range(first_uid, first_uid + count):
        i = uid - 1
        flags = 0x02 if i % 5 == 0 else 0x00  # every fifth one Important
        phone.notify_source(0, flags, CATEGORIES[i % len(CATEGORIES)], uid)
        if uid > STORE: phone.notify_source(2, 0, CATEGORIES[(i - STORE) % len(CATEGORIES)], uid - STORE)  # removed
        phone.serve(2, until=lambda p: uid in p.answered)
        if uid not in phone.answered: missing += 1
    return missing


def stop(daemon):
    if daemon.poll() is None:
        daemon.terminate()
        try: daemon.wait(60)
        except subprocess.TimeoutExpired: daemon.kill(); daemon.wait()


def status(pid):
    fields = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem", "VmSize", "VmData"):
                fields[key] = int(value.split()[0])  # kB
    return fields


def needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def build_kind(path):
    """("embedded" or "host", a description). A host build has the Swift
    runtime (libswiftCore.so needed, or linked in with its swift5_* metadata
    sections); an Embedded Swift build has neither: what it uses of the
    stdlib is compiled into the binary, and there is no runtime metadata."""
    libs = needed(path)
    swift_libs = [l for l in libs if l.startswith("libswift") or l in ("libdispatch.so", "libBlocksRuntime.so")]
    sections = [name for name, _, _ in elf_sections(path)]
    if swift_libs:
        return "host", "host build: the Swift runtime as shared libraries (%s)" % " ".join(swift_libs)
    if any(s.startswith("swift5_") for s in sections):
        return "host", "host build: the Swift runtime linked in statically (swift5_* metadata sections)"
    return "embedded", "Embedded Swift: no Swift runtime library, no runtime metadata; needs %s" % (" ".join(libs) or "nothing (static)")


C_LIBRARIES = ("libc.so", "libm.so", "ld-linux", "libpthread", "libdl.so", "librt.so", "libgcc_s", "libstdc++", "libatomic")
DEVICE_LIBRARIES = ("libgpiod", "libi2c", "libbluetooth")


def by_mapping(pid, exe):
    """Resident kB per (group, file) of mappings, from /proc/PID/smaps."""
    groups, current = {}, None
    def group(name):
        base = os.path.basename(name)
        if name == exe: return ("binary", base)
        if name == "[heap]": return ("heap ([heap], brk: malloc)", "")
        if name == "[stack]": return ("stack", "")
        if name == "": return ("anonymous (malloc arenas and mmaps, .bss past the file, %s)", "")
        if name.startswith("["): return ("kernel ([vdso], [vvar], ...)", "")
        if "Foundation" in base: return ("Foundation family", base)
        if "/swift/" in name or base.startswith("libswift") or base in ("libdispatch.so", "libBlocksRuntime.so"):
            return ("Swift runtime libraries", base)
        if base.endswith(".wcf"): return ("fonts (mapped glyph files)", base)
        if base.startswith(C_LIBRARIES): return ("system libraries (glibc, the dynamic loader, the C++ runtime if any)", base)
        if base.startswith(DEVICE_LIBRARIES): return ("device libraries", base)
        return ("other files", base)
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            parts = line.split()
            if not parts: continue
            if "-" in parts[0] and not parts[0].endswith(":"):
                current = group(parts[5] if len(parts) >= 6 else "")
            elif parts[0] == "Rss:" and current is not None:
                groups[current] = groups.get(current, 0) + int(parts[1])
    return groups


def elf_sections(path):
    """(name, file offset, size) of the binary's allocated sections (readelf)."""
    out = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True).stdout
    sections = []
    for line in out.splitlines():
        line = line.replace("[ ", "[")
        parts = line.split()
        if len(parts) >= 7 and parts[0].startswith("[") and parts[0][1:-1].isdigit() and parts[2] != "NOBITS":
            name, offset, size = parts[1], int(parts[4], 16), int(parts[5], 16)
            flags = parts[7] if len(parts) > 7 else ""
            if "A" in flags and size: sections.append((name, offset, size))
    return sections


def binary_by_section(pid, exe):
    """Resident kB of the binary's file-backed pages, by ELF section: the
    mappings' present bits from /proc/PID/pagemap, placed by file offset."""
    page = os.sysconf("SC_PAGE_SIZE")
    sections = elf_sections(exe)
    counts = {}
    with open("/proc/%d/maps" % pid) as maps, open("/proc/%d/pagemap" % pid, "rb") as pagemap:
        for line in maps:
            parts = line.split()
            if len(parts) < 6 or parts[5] != exe: continue
            start, end = (int(x, 16) for x in parts[0].split("-"))
            file_offset = int(parts[2], 16)
            pagemap.seek(start // page * 8)
            entries = pagemap.read((end - start) // page * 8)
            for i in range(0, len(entries), 8):
                entry = int.from_bytes(entries[i:i + 8], "little")
                if not entry >> 63 & 1: continue  # not present
                offset = file_offset + i // 8 * page
                name = next((n for n, o, z in sections if o <= offset < o + z), "(between sections)")
                if entry >> 62 & 1 == 0 and entry >> 61 & 1 == 0: name += " (anonymous copy)"
                counts[name] = counts.get(name, 0) + page // 1024
    return counts


def exercise(command, notifications, inspect):
    """Runs the daemon (start_daemon), connects the counting iPhone, pushes
    `notifications`, and calls inspect(pid, "connected") after connecting and
    inspect(pid, "after") at the end, before stopping the daemon with SIGTERM.
    Returns (seconds, notifications not fetched, the harness state line)."""
    tmp = tempfile.mkdtemp(prefix="wc-rss-")
    daemon, phone_path, harness_path = start_daemon(command, tmp)
    try:
        wait_ready(daemon, phone_path, harness_path)
        h = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); h.connect(harness_path)
        hf = h.makefile("rb")
        def ask(cmd):
            h.sendall((cmd + "\n").encode())
            return hf.readline().decode().rstrip("\n")

        phone = subscribe(phone_path)
        time.sleep(0.5)
        inspect(daemon.pid, "connected")

        started = time.time()
        missing = push(phone, 1, notifications)
        phone.serve(1)
        elapsed = time.time() - started
        state = ask("state")
        if daemon.poll() is not None: sys.exit("the daemon exited with %d" % daemon.returncode)
        inspect(daemon.pid, "after")
    finally:
        stop(daemon)
    return elapsed, missing, state


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wristcore")
    ap.add_argument("--notifications", type=int, default=10_000)
    ap.add_argument("--max-rss-mib", type=float, default=None)
    ap.add_argument("--max-hwm-mib", type=float, default=None)
    args = ap.parse_args()

    exe = os.path.realpath(args.wristcore)
    kind, description = build_kind(exe)
    seen = {}
    def inspect(pid, when):
        seen[when] = status(pid)
        if when == "after":
            seen["groups"] = by_mapping(pid, exe)
            seen["sections"] = binary_by_section(pid, exe)
    elapsed, missing, state = exercise([exe], args.notifications, inspect)
    connected, after, groups, sections = seen["connected"], seen["after"], seen["groups"], seen["sections"]

    mib = lambda kb: kb / 1024
    print("binary: %s (%.2f MB)" % (exe, os.path.getsize(exe) / 1e6))
    print("build: %s" % description)
    print("%d notifications in %.1f s; %d without an attribute request; state: %s"
          % (args.notifications, elapsed, missing, state[:120]))
    print("%-10s %12s %12s" % ("", "connected", "after"))
    for key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
        print("%-10s %9.2f MiB %9.2f MiB" % (key, mib(connected.get(key, 0)), mib(after.get(key, 0))))
    print("resident after, by mapping:")
    totals = {}
    for (name, _), kb in groups.items(): totals[name] = totals.get(name, 0) + kb
    anonymous = "Swift metadata" if kind == "host" else "no Swift metadata in an Embedded build"
    for name, kb in sorted(totals.items(), key=lambda kv: -kv[1]):
        if not kb: continue
        files = sorted(((f, k) for (g, f), k in groups.items() if g == name and f and k), key=lambda fk: -fk[1])
        detail = ": " + ", ".join("%s %.2f" % fk if len(files) > 1 else fk[0] for fk in
                                  ((f, mib(k)) for f, k in files)) if files else ""
        print("  %8.2f MiB  %s%s" % (mib(kb), name.replace("%s", anonymous), detail))
    if "Swift runtime libraries" not in totals:
        print("  %8.2f MiB  Swift runtime libraries: none mapped%s" % (
            0, " (Embedded Swift: what the daemon uses of the stdlib is in the binary)" if kind == "embedded" else ""))
    print("the binary's resident pages, by section (a page shared by two sections counts for the first):")
    for name, kb in sorted(sections.items(), key=lambda kv: -kv[1]):
        if kb >= 16: print("  %8.2f MiB  %s" % (mib(kb), name))
    rss, hwm = mib(after["VmRSS"]), mib(after["VmHWM"])
    goal = GOAL_MIB[kind]
    verdict = "within" if rss <= goal else "ABOVE"
    print("goal (%s build): VmRSS after the notifications <= %d MiB: %s (VmRSS %.2f MiB; peak VmHWM %.2f MiB, start-up included)" % (
        "Embedded" if kind == "embedded" else "host", goal, verdict, rss, hwm))
    if missing:
        print("FAIL: %d notifications were not fetched by the watch" % missing); return 1
    if args.max_rss_mib is not None and rss > args.max_rss_mib:
        print("FAIL: VmRSS above %g MiB" % args.max_rss_mib); return 1
    if args.max_hwm_mib is not None and hwm > args.max_hwm_mib:
        print("FAIL: VmHWM above %g MiB" % args.max_hwm_mib); return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
