#!/usr/bin/env python3
"""The settings file and Do Not Disturb against the built binary, on the
simulated board with a temporary state directory: Do Not Disturb chosen on
the watch is kept across a SIGHUP restart; a settings file written, then
SIGHUP, applies (a muted call app does not ring); a broken settings file
on SIGHUP keeps the daemon running with its settings and logs every
problem with its file:line. Prints 'N passed, M failed'.

usage: settings_smoke.py path/to/wristcore
"""
import json, os, signal, socket, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimal_phone import MinimalPhone

wristcore = sys.argv[1]
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
    else:
        failed += 1; print("not ok -", name, detail)


tmp = tempfile.mkdtemp(prefix="wc-settings-")
state_dir = tmp + "/state"
os.mkdir(state_dir, 0o700)
settings = state_dir + "/settings.json"
phone_path, harness_path = tmp + "/phone.sock", tmp + "/harness.sock"
log_path = tmp + "/daemon.log"
log = open(log_path, "wb")
proc = subprocess.Popen([wristcore, "run", "--board", "sim", "--phone", "unix:" + phone_path, "--harness", "unix:" + harness_path,
                         "--state-dir", state_dir, "--log-level", "info"], stderr=log)


class Link:
    """The harness and the phone of the running daemon."""
    def __init__(self):
        for _ in range(200):
            if os.path.exists(harness_path) and os.path.exists(phone_path): break
            time.sleep(0.05)
        self.h = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.h.connect(harness_path)
        self.h.settimeout(10)
        self.hf = self.h.makefile("rb")
        self.motor = []
        assert self.ask("motor") == "ok motor"
        self.phone = MinimalPhone(phone_path)
        self.phone.serve(10, until=lambda p: p.subscribed == {0x23, 0x28})

    def ask(self, cmd):
        self.h.sendall((cmd + "\n").encode())
        while True:
            line = self.hf.readline().decode().rstrip("\n")
            if not line.startswith("motor "): return line
            self.motor.append(line)

    def state(self):
        line = self.ask("state")
        return json.loads(line.split(" ", 1)[1]) if line.startswith("state ") else {}

    def call_rings(self, uid, seconds):
        """An incoming call: True when the motor goes on within `seconds`."""
        self.phone.notify_source(0, 0x18, 1, uid)
        deadline = time.time() + seconds
        while time.time() < deadline:
            self.phone.serve(0.05)
            if self.state().get("motor") == "on" or any(l.startswith("motor on") for l in self.motor): return True
        return False

    def close(self):
        self.h.close()
        self.phone.sock.close()


def restart():
    """SIGHUP; waits for the harness socket to come back."""
    pid = proc.pid
    if os.path.exists(harness_path): os.unlink(harness_path)
    os.kill(pid, signal.SIGHUP)
    for _ in range(200):
        if os.path.exists(harness_path) or proc.poll() is not None: break
        time.sleep(0.05)
    return proc.poll() is None


def log_text():
    log.flush()
    return open(log_path, "rb").read().decode(errors="replace")


try:
    w = Link()
    # Do Not Disturb from the clock: a long press opens the menu; the first entry is "For 1 hour".
    check("a long press on the clock", w.ask("hold positive 900") == "ok hold positive")
    time.sleep(1.2)
    check("opens the Do Not Disturb menu", w.state().get("screen") == "doNotDisturbMenu", str(w.state()))
    w.ask("press positive")
    time.sleep(0.3)
    s = w.state()
    check("For 1 hour: Do Not Disturb is on, timed", s.get("doNotDisturb") == "timed" and s.get("screen") == "idleClock", str(s))
    kept_path = state_dir + "/do-not-disturb.json"
    kept = json.load(open(kept_path)) if os.path.exists(kept_path) else {}
    left = kept.get("untilUnixSeconds", 0) - time.time()
    check("it is kept in the state directory with a wall-clock end", kept.get("doNotDisturb") == "until" and 3500 < left <= 3600, str(kept))
    mode = os.stat(kept_path).st_mode & 0o777 if os.path.exists(kept_path) else None
    check("the kept state is private (0600)", mode == 0o600, oct(mode or 0))

    check("during Do Not Disturb a call still rings (no settings file yet)", w.call_rings(5, 3), str(w.state()))
    w.ask("press negative")

    # A settings file, then SIGHUP: it applies after the restart.
    with open(settings, "w") as f:
        f.write('// the wearer\'s settings\n{\n  "apps": { "com.apple.mobilephone": { "mute": true } }\n}\n')
    w.close()
    check("SIGHUP with a valid settings file restarts in place", restart(), f"exit {proc.poll()}")
    w = Link()
    s = w.state()
    check("Do Not Disturb survived the restart", s.get("doNotDisturb") == "timed", str(s))
    check("the muted call app does not ring", not w.call_rings(7, 2.5), str(w.motor[-3:]))
    s = w.state()
    check("the muted call is still on screen", s.get("screen") == "incomingCall" and s.get("motor") == "off", str(s))

    # A broken settings file, then SIGHUP: the daemon stays up, logs the lines, keeps its settings.
    with open(settings, "w") as f:
        f.write('{\n  "apps": { "com.apple.mobilephone": { "mute": "yes" } },\n  "quietHours": "soon"\n}\n')
    os.kill(proc.pid, signal.SIGHUP)
    time.sleep(0.5)
    check("SIGHUP with a broken settings file: the daemon stays up", proc.poll() is None, f"exit {proc.poll()}")
    s = w.state()
    check("the same run answers the harness (no restart)", s.get("doNotDisturb") == "timed", str(s))
    text = log_text()
    check("the log names every problem with file:line",
          f"{settings}:2: apps.com.apple.mobilephone.mute: expected true or false" in text and f"{settings}:3: quietHours:" in text,
          text[-600:])
    check("the log says it keeps the current settings", "not restarting, keeping the current settings" in text, text[-300:])
    w.ask("press negative")
    check("the old rules still apply", not w.call_rings(8, 2.5), str(w.motor[-3:]))
    w.close()
finally:
    if proc.poll() is None: proc.terminate()
    try: rc = proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill(); rc = "killed"
    check("SIGTERM stops it cleanly", rc == 0, f"exit {rc}")

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
