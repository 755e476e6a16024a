#!/usr/bin/env python3
"""Reloads and outside files against the built binary (issue 28): SIGHUP
bursts and storms leave the daemon running, under its own name (not `exe`);
a binary replaced as an upgrade does is what a SIGHUP starts (issue 27); a SIGHUP with a broken, deleted
or unreadable board or settings file keeps the watch running as it is; a
file swapped right after the SIGHUP cannot stop the new image (it gets the
bytes that were checked); FIFOs, endless files and oversized files are
refused in one line, at once, by run, doctor and setup; setup installs
exactly the bytes it validated; a settings file others may write is not
used. Prints 'N passed, M failed'.

usage: reload_smoke.py path/to/wristcore [--quick]
  --quick   fewer trials (for a daemon under qemu-user)
"""
import os, shutil, signal, socket, subprocess, sys, tempfile, threading, time

wristcore = os.path.abspath(sys.argv[1])  # the daemons run in temporary directories
quick = "--quick" in sys.argv
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
    else:
        failed += 1; print("not ok -", name, detail)


VALID_SETTINGS = '{ "apps": { "com.apple.mobilephone": { "mute": true } } }\n'
BROKEN = '{ "apps": { "x": { "mute": "yes please" } } }\n'


class Daemon:
    """`wristcore run` on a copy of Boards/sim.json with its own state directory."""
    def __init__(self, settings=None, board_text=None, extra_setup=None, binary=None):
        self.tmp = tempfile.mkdtemp(prefix="wc-reload-")
        self.state = self.tmp + "/state"
        os.mkdir(self.state, 0o700)
        self.board = self.tmp + "/board.json"
        with open(self.board, "w") as f:
            f.write(board_text if board_text is not None else open(repo + "/Boards/sim.json").read())
        self.settings = self.state + "/settings.json"
        if settings is not None:
            with open(self.settings, "w") as f: f.write(settings)
        if extra_setup: extra_setup(self)
        self.harness = self.tmp + "/harness.sock"
        self.log_path = self.tmp + "/daemon.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([binary or wristcore, "run", "--board", self.board, "--phone", "unix:" + self.tmp + "/phone.sock",
                                      "--harness", "unix:" + self.harness, "--state-dir", self.state, "--log-level", "info"],
                                     stderr=self.log, cwd=self.tmp, env=dict(os.environ, WRISTCORE_FONTS=repo + "/Fonts"))

    def ready(self, timeout=20):
        """True once the harness answers `state` (after a start or a restart)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None: return False
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(2)
                s.connect(self.harness)
                s.sendall(b"state\n")
                line = s.makefile("rb").readline()
                s.close()
                if line.startswith(b"state {"): return True
            except OSError:
                pass
            time.sleep(0.05)
        return False

    def reload(self, settle=1.0):
        """SIGHUP, a moment for the daemon to act; returns what it logged meanwhile."""
        before = len(self.logtext())
        hup(self.proc.pid)
        time.sleep(settle)
        return self.logtext()[before:]

    def logtext(self):
        self.log.flush()
        return open(self.log_path, "rb").read().decode(errors="replace")

    def stop(self):
        if self.proc.poll() is None: self.proc.terminate()
        try: rc = self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill(); rc = "killed"
        shutil.rmtree(self.tmp, ignore_errors=True)
        return rc


def comm(pid):
    """The process's name as ps, top and pgrep show it (/proc/PID/comm)."""
    try:
        return open("/proc/%d/comm" % pid).read().strip()
    except OSError:
        return None


def exe(pid):
    try:
        return os.readlink("/proc/%d/exe" % pid)
    except OSError:
        return None


def hup(pid):
    """SIGHUP; False when the process is gone (a daemon a SIGHUP killed)."""
    try:
        os.kill(pid, signal.SIGHUP)
        return True
    except ProcessLookupError:
        return False


def timed(args, timeout=10, **kw):
    """(exit code or 'hung', seconds, output) of a command that must not hang."""
    t0 = time.time()
    try:
        r = subprocess.run(args, capture_output=True, timeout=timeout, **kw)
        return r.returncode, time.time() - t0, (r.stdout + r.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "hung", time.time() - t0, ""


# 1. SIGHUP bursts: signals stay blocked across execv; the new image reads a pending one.
d = Daemon()
try:
    check("start: the daemon answers", d.ready())
    pid = d.proc.pid
    name = comm(pid)
    d.reload(0.2)
    check("after a SIGHUP restart: the same process name (/proc/PID/comm, what ps and pgrep show)",
          d.ready() and comm(pid) == name and name not in (None, "exe"), f"{name!r} before, {comm(pid)!r} after")
    trials = 3 if quick else 10
    survived = 0
    for gap in [0.001] * trials:
        hup(pid); time.sleep(gap); hup(pid)
        if d.ready(): survived += 1
    check(f"two SIGHUPs 1 ms apart, {trials} times: still running", survived == trials and d.proc.poll() is None,
          f"{survived}/{trials}, exit {d.proc.poll()}")
    for _ in range(50):
        hup(pid); time.sleep(0.02)
    check("a storm of 50 SIGHUPs in a second: still running and answering", d.ready(30) and d.proc.poll() is None,
          f"exit {d.proc.poll()}")
    check("after the storm: same PID", d.proc.pid == pid)
    check("after the storm: still the same process name", comm(pid) == name, f"{name!r} before, {comm(pid)!r} after")
finally:
    rc = d.stop()
    check("after the storm: SIGTERM stops it cleanly", rc == 0, f"exit {rc}")

# 1b. The binary replaced while the daemon runs (a package upgrade): a SIGHUP starts the installed
#     file, from the path the daemon was started from (not the deleted old image), under the same name.
def upgrade():
    bindir = tempfile.mkdtemp(prefix="wc-upgrade-")
    installed = bindir + "/wristcore"
    shutil.copy2(wristcore, installed)
    d = Daemon(binary=installed)
    try:
        check("upgrade: a daemon started from a copy answers", d.ready())
        pid, name = d.proc.pid, comm(d.proc.pid)
        shutil.copy2(wristcore, installed + ".new")
        os.rename(installed + ".new", installed)  # as dpkg installs a file
        replaced = exe(pid)
        d.reload(0.2)
        up = d.ready()
        check("upgrade: after the SIGHUP the installed file runs (not the deleted old one), same PID, same name",
              up and replaced == installed + " (deleted)" and exe(pid) == installed and comm(pid) == name and d.proc.pid == pid,
              f"before {replaced!r}, after {exe(pid)!r}, name {name!r} -> {comm(pid)!r}")
        check("upgrade: it says so", "restarting into the installed " + installed in d.logtext(), d.logtext()[-300:])
        # The file removed (not replaced): the running image starts again (/proc/self/exe), and keeps its name.
        os.unlink(installed)
        d.reload(0.2)
        up = d.ready()
        check("binary removed: a SIGHUP restarts the running image, same PID, still named as before (not 'exe')",
              up and d.proc.pid == pid and comm(pid) == name and exe(pid) == installed + " (deleted)",
              f"exe {exe(pid)!r}, name {name!r} -> {comm(pid)!r}")
    finally:
        rc = d.stop()
        check("upgrade: SIGTERM stops it cleanly", rc == 0, f"exit {rc}")
        shutil.rmtree(bindir, ignore_errors=True)


# (Not through a wrapper script: under qemu-user the daemon's own path is the one the wrapper names.)
if open(wristcore, "rb").read(2) == b"#!":
    print("ok - upgrade: skipped (the binary is a wrapper script)")
else:
    upgrade()

# 4. SIGHUP with a broken, deleted or non-regular board file: keep running on the current board.
d = Daemon()
try:
    d.ready()
    for name, spoil in [("broken", lambda: open(d.board, "w").write('{ "name": 5 }')),
                        ("deleted", lambda: os.unlink(d.board)),
                        ("a FIFO", lambda: (os.path.exists(d.board) and os.unlink(d.board), os.mkfifo(d.board))),
                        ("/dev/zero", lambda: (os.unlink(d.board), os.symlink("/dev/zero", d.board)))]:
        spoil()
        new = d.reload()
        check(f"SIGHUP with the board file {name}: still running, not restarted",
              d.proc.poll() is None and "not restarting, still running on the current board" in new and d.ready(5), new[-400:])
finally:
    rc = d.stop()
    check("board reloads refused: SIGTERM stops it cleanly", rc == 0, f"exit {rc}")

# 5. The settings file replaced 1-4 ms after SIGHUP: the new image uses the checked bytes.
d = Daemon(settings=VALID_SETTINGS)
try:
    d.ready()
    trials = 4 if quick else 20
    ok = 0
    for i in range(trials):
        with open(d.settings, "w") as f: f.write(VALID_SETTINGS)
        hup(d.proc.pid)
        time.sleep(0.001 + 0.003 * (i % 4) / 3)
        with open(d.settings + ".new", "w") as f: f.write(BROKEN)
        os.rename(d.settings + ".new", d.settings)
        if d.ready() and d.proc.poll() is None: ok += 1
    check(f"settings broken 1-4 ms after SIGHUP, {trials} times: the daemon runs on", ok == trials, f"{ok}/{trials}, exit {d.proc.poll()}")
finally:
    d.stop()

# 6. A reload that cannot read the settings file keeps the current rules and says why.
d = Daemon(settings=VALID_SETTINGS)
try:
    d.ready()
    spoils = [("a directory", lambda: (os.unlink(d.settings), os.mkdir(d.settings))),
              ("a dangling symlink", lambda: (os.rmdir(d.settings), os.symlink(d.tmp + "/nowhere", d.settings))),
              ("a symlink loop", lambda: (os.unlink(d.settings), os.symlink(d.settings, d.settings))),
              ("a FIFO", lambda: (os.unlink(d.settings), os.mkfifo(d.settings))),
              ("writable by others", lambda: (os.unlink(d.settings), open(d.settings, "w").write(VALID_SETTINGS), os.chmod(d.settings, 0o666))),
              ("larger than 64 KiB", lambda: (os.unlink(d.settings), open(d.settings, "w").write(" " * 70000 + "{}")))]
    for name, spoil in spoils:
        spoil()
        new = d.reload()
        check(f"SIGHUP with the settings file {name}: not restarted, the current rules kept",
              d.proc.poll() is None and "not restarting, keeping the current settings" in new, new[-400:])
    check("... and it still answers", d.ready(5))
finally:
    rc = d.stop()
    check("settings reloads refused: SIGTERM stops it cleanly", rc == 0, f"exit {rc}")

# 7. Bounded settings: 100,000 rules refused at once, echoed values cut, problem lines capped.
d = Daemon(settings=VALID_SETTINGS)
try:
    d.ready()
    with open(d.settings, "w") as f:
        f.write('{ "apps": {' + ",".join('"app.%d": {"mute": true}' % i for i in range(100000)) + "} }")
    before = d.logtext()
    t0 = time.time()
    hup(d.proc.pid)
    answered = d.ready(5)
    took = time.time() - t0
    new = d.logtext()[len(before):]
    check("100,000 app rules (4 MB): refused at once (larger than the limit), the loop keeps answering",
          answered and "larger than 65536 bytes" in new and took < 3, f"{took:.1f} s; {new[-300:]}")
    long_id = "a" * 20000
    with open(d.settings, "w") as f:
        f.write('{ "apps": {' + ",".join('"%s%d": {"mute": 1}' % (long_id, i) for i in range(3)) + "} }")
    new = d.reload()
    longest = max((len(l) for l in new.splitlines()), default=0)
    check("a 20,000-byte app id: every problem line is short", 0 < longest < 400 and "aaaa..." in new, f"longest {longest}")
    with open(d.settings, "w") as f:
        f.write('{ "apps": {' + ",".join('"a%d": {"mute": 1}' % i for i in range(60)) + "} }")
    new = d.reload()
    problem_lines = [l for l in new.splitlines() if "settings.json:" in l]
    check("60 problems: 20 lines, then a count", len(problem_lines) == 20 and "and 40 more problem(s)" in new, f"{len(problem_lines)} lines")
finally:
    d.stop()

# 2. Start-up with a settings file that is a FIFO or endless: no hang, no growth.
for name, make in [("a FIFO", lambda d: os.mkfifo(d.settings)), ("/dev/zero", lambda d: os.symlink("/dev/zero", d.settings))]:
    d = Daemon(extra_setup=make)
    try:
        up = d.ready(10)
        rss = 0
        try:
            rss = int([l for l in open("/proc/%d/status" % d.proc.pid) if l.startswith("VmRSS:")][0].split()[1])
        except (OSError, IndexError):
            pass
        check(f"settings file {name} at start-up: refused in one line, the watch starts (RSS {rss} kB)",
              up and "not a regular file" in d.logtext() and rss < 64 * 1024, d.logtext()[-300:])
        t0 = time.time()
        rc = d.stop()
        check(f"settings file {name}: SIGTERM stops it at once", rc == 0 and time.time() - t0 < 5, f"exit {rc}")
    finally:
        d.stop()

tmp = tempfile.mkdtemp(prefix="wc-files-")
fifo = tmp + "/fifo.json"
os.mkfifo(fifo)
for name, path in [("a FIFO", fifo), ("/dev/zero", "/dev/zero")]:
    rc, took, out = timed([wristcore, "run", "--board", path, "--duration", "1"])
    check(f"run --board {name}: exit 2 at once, one line", rc == 2 and took < 5 and "not a regular file" in out, f"{rc} {took:.1f}s {out[-200:]}")
    rc, took, out = timed([wristcore, "doctor", "--board", path])
    check(f"doctor --board {name}: answers at once", rc != "hung" and took < 5 and "not a regular file" in out, f"{rc} {took:.1f}s {out[-200:]}")
    rc, took, out = timed([wristcore, "setup", "--board", path, "--to", tmp + "/etc/board.json"])
    check(f"setup --board {name}: exit 2 at once, nothing installed", rc == 2 and took < 5 and not os.path.exists(tmp + "/etc/board.json"),
          f"{rc} {took:.1f}s {out[-200:]}")
target_fifo = tmp + "/target-fifo.json"
os.mkfifo(target_fifo)
rc, took, out = timed([wristcore, "setup", "--board", repo + "/Boards/rpi-zero2w.json", "--to", target_fifo])
check("setup --to a FIFO: does not hang; the board file replaces it", rc == 0 and took < 5 and os.path.isfile(target_fifo), f"{rc} {out[-200:]}")
big = tmp + "/big.json"
with open(big, "w") as f: f.write(" " * 70000 + "{}")
rc, took, out = timed([wristcore, "run", "--board", big, "--duration", "1"])
check("run --board with a 70 kB file: exit 2, larger than the limit", rc == 2 and "larger than 65536 bytes" in out, out[-200:])

# 3. setup installs exactly the bytes it validated, even while the source is swapped.
good = open(repo + "/Boards/rpi-zero2w.json").read()
bad = good.replace('"ssd1306"', '"ssd9999"', 1)
assert bad != good
src, valid_copy, invalid_copy = tmp + "/src.json", tmp + "/valid.json", tmp + "/invalid.json"
open(valid_copy, "w").write(good); open(invalid_copy, "w").write(bad)
shutil.copy(valid_copy, src)
stop = threading.Event()


def swapper():
    i = 0
    while not stop.is_set():
        tmpname = src + ".swap"
        shutil.copy(invalid_copy if i % 2 else valid_copy, tmpname)
        os.rename(tmpname, src)
        i += 1


t = threading.Thread(target=swapper); t.start()
installs = 40 if quick else 200
bad_installs = 0
target = tmp + "/etc/wristcore/board.json"
try:
    for i in range(installs):
        if os.path.exists(target): os.unlink(target)
        rc, _, _ = timed([wristcore, "setup", "--board", src, "--to", target], timeout=20)
        if rc == 0 and open(target).read() != good: bad_installs += 1
        if rc != 0 and os.path.exists(target): bad_installs += 1
finally:
    stop.set(); t.join()
check(f"setup with the source swapped valid/invalid, {installs} runs: never an invalid board installed", bad_installs == 0,
      f"{bad_installs} invalid installs")
check("setup: the installed board is 0644", oct(os.stat(target).st_mode & 0o777) == "0o644" if os.path.exists(target) else True)

# Mutated board files through setup: installed exactly as given when valid, nothing installed otherwise.
import random
rng = random.Random(28)
original = open(repo + "/Boards/rpi-zero2w.json", "rb").read()
special = b'\x00"\\{}[]:,/*\n\x1b\x7f\xc2\x80\xff09-.e'
runs = 40 if quick else 300
wrong = installed = 0
for i in range(runs):
    b = bytearray(original)
    for _ in range(1 + rng.randrange(4)):
        at = rng.randrange(len(b) + 1)
        k = rng.randrange(5)
        if k == 0 and b: b[min(at, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif k == 1: b[at:at] = bytes([special[rng.randrange(len(special))]])
        elif k == 2 and b: del b[min(at, len(b) - 1)]
        elif k == 3: del b[at:]
        else: b[at:at] = b[at:at + rng.randrange(40)]
    with open(src, "wb") as f: f.write(b)
    if os.path.exists(target): os.unlink(target)
    rc, _, _ = timed([wristcore, "setup", "--board", src, "--to", target], timeout=20)
    there = os.path.exists(target)
    if rc == 0:
        installed += 1
        if not there or open(target, "rb").read() != bytes(b): wrong += 1
    elif there or rc != 2:
        wrong += 1
check(f"setup with {runs} mutated board files: valid ones installed byte for byte ({installed}), the rest refused with exit 2 and nothing installed",
      wrong == 0, f"{wrong} wrong outcomes")
shutil.rmtree(tmp, ignore_errors=True)

# 8. Smaller doors: the harness line limit is what docs/harness.md says; Do Not Disturb deadlines in range;
#    forget --all steps around what is in the way.
d = Daemon()
try:
    d.ready()
    for length, kept in [(4096, True), (4097, False)]:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(d.harness)
        s.sendall(b"state" + b" " * (length - 5) + b"\nstate\n")
        data = b""
        try:
            while data.count(b"\n") < 2:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
        except OSError:
            pass
        s.close()
        if kept:
            check("a 4,096-byte harness line is a command (answered)", data.startswith(b"error") or data.startswith(b"state"), repr(data[:80]))
        else:
            time.sleep(0.3)
            check("a 4,097-byte harness line: disconnected, and logged", b"state {" not in data and "a line over 4096 bytes" in d.logtext(), repr(data[:80]))
finally:
    d.stop()

for seconds, why in [(10**11, "not a Do Not Disturb state"), (int(time.time()) + 7200, "longer than Do Not Disturb lasts")]:
    def dnd(d, seconds=seconds):
        with open(d.state + "/do-not-disturb.json", "w") as f:
            f.write('{"doNotDisturb": "until", "untilUnixSeconds": %d}\n' % seconds)
        os.chmod(d.state + "/do-not-disturb.json", 0o600)
    d = Daemon(extra_setup=dnd)
    try:
        up = d.ready()
        check(f"a Do Not Disturb deadline {seconds}: refused ({why}), Do Not Disturb off", up and why in d.logtext(), d.logtext()[-300:])
    finally:
        d.stop()

tmp = tempfile.mkdtemp(prefix="wc-forget-")
with open(tmp + "/bonds", "w") as f: f.write("{ damaged")
os.chmod(tmp + "/bonds", 0o600)
for n in range(1, 10):
    with open(tmp + "/bonds.corrupt.%d" % n, "w") as f: f.write("old %d" % n)
os.mkdir(tmp + "/bonds.corrupt.10")
with open(tmp + "/notification-history", "wb") as f: f.write(b"WCNH\x01\x00")
os.chmod(tmp + "/notification-history", 0o600)
rc, _, out = timed([wristcore, "forget", "--all", "--state-dir", tmp, "--hci", "99"])
check("forget --all with a directory at bonds.corrupt.10: succeeds, the damaged file kept as .corrupt.1",
      rc == 0 and open(tmp + "/bonds.corrupt.1").read() == "{ damaged" and open(tmp + "/bonds.corrupt.9").read() == "old 8",
      f"{rc} {out[-300:]}")
check("forget --all deletes the notification history", not os.path.exists(tmp + "/notification-history")
      and "deleted the notification history" in out, out[-300:])
shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
