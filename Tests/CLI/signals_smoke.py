#!/usr/bin/env python3
"""Signals and the motor, against the built binary: for every catchable
terminating signal, a call rings (the motor is on), the signal arrives, and
the motor's last transition on the harness stream is 'off' and the exit is
clean. SIGHUP restarts the daemon in place (same PID, motor off first).
SIGPIPE, and a log reader that goes away (EPIPE on stderr), do not stop it.
Prints 'N passed, M failed'.

usage: signals_smoke.py path/to/wristcore
"""
import os, signal, socket, subprocess, sys, tempfile, time
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


class Watch:
    """One daemon on the simulated board with its phone and harness sockets."""
    def __init__(self, log_level="warning", stderr=None):
        self.tmp = tempfile.mkdtemp(prefix="wc-signals-")
        self.phone_path, self.harness_path = self.tmp + "/phone.sock", self.tmp + "/harness.sock"
        self.proc = subprocess.Popen([wristcore, "run", "--board", "sim", "--phone", "unix:" + self.phone_path,
                                      "--harness", "unix:" + self.harness_path, "--log-level", log_level], stderr=stderr)
        self.motor = []
        self.connect()

    def connect(self):
        for _ in range(200):
            if os.path.exists(self.harness_path) and os.path.exists(self.phone_path): break
            time.sleep(0.05)
        self.h = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.h.connect(self.harness_path)
        self.hf = self.h.makefile("rb")
        assert self.ask("motor") == "ok motor"
        self.phone = MinimalPhone(self.phone_path)
        self.phone.serve(10, until=lambda p: p.subscribed == {0x23, 0x28})

    def ask(self, cmd):
        self.h.sendall((cmd + "\n").encode())
        while True:
            line = self.hf.readline().decode().rstrip("\n")
            if not line.startswith("motor "): return line
            self.motor.append(line)

    def ring(self, uid=7):
        """An incoming call: waits until the motor is on."""
        self.phone.notify_source(0, 0x18, 1, uid)  # added, positive+negative action, IncomingCall
        self.h.settimeout(5)
        deadline = time.time() + 5
        while time.time() < deadline and not (self.motor and self.motor[-1].startswith("motor on")):
            self.phone.serve(0.05)
            self.h.settimeout(0.1)
            try:
                line = self.hf.readline().decode().rstrip("\n")
            except (socket.timeout, TimeoutError):
                continue
            if line.startswith("motor "): self.motor.append(line)
        return bool(self.motor) and self.motor[-1].startswith("motor on")

    def drain_motor(self):
        """Reads the harness stream to its end (the daemon closed it)."""
        self.h.settimeout(10)
        try:
            rest = self.hf.read().decode().splitlines()
        except (socket.timeout, TimeoutError, ConnectionResetError):
            rest = []
        self.motor += [l for l in rest if l.startswith("motor ")]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try: return self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill(); return "killed"


for sig in [signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGPWR, signal.SIGXCPU]:
    w = Watch()
    try:
        rang = w.ring()
        check(f"{sig.name}: the call rings", rang, str(w.motor[-3:]))
        os.kill(w.proc.pid, sig)
        w.drain_motor()
        rc = w.proc.wait(10)
        check(f"{sig.name}: motor off, clean exit", bool(w.motor) and w.motor[-1].startswith("motor off") and rc == 0,
              f"exit {rc}, motor {w.motor[-3:]}")
    finally:
        w.stop()

# SIGHUP: a clean restart in place: the motor goes off, the same process serves again.
w = Watch()
try:
    check("SIGHUP: the call rings", w.ring(), str(w.motor[-3:]))
    pid = w.proc.pid
    os.kill(pid, signal.SIGHUP)
    w.drain_motor()
    check("SIGHUP: the motor is off before the restart", bool(w.motor) and w.motor[-1].startswith("motor off"), str(w.motor[-3:]))
    time.sleep(0.3)
    alive = w.proc.poll() is None
    check("SIGHUP: the same process runs on", alive, f"exit {w.proc.poll()}")
    if alive:
        w.connect()
        check("SIGHUP: it serves the harness again", '"screen"' in w.ask("state"))
finally:
    rc = w.stop()
    check("SIGHUP: then SIGTERM stops it cleanly", rc == 0, f"exit {rc}")

# SIGPIPE is ignored; a log reader that dies gives EPIPE on stderr, not death.
w = Watch(log_level="debug", stderr=subprocess.PIPE)
try:
    os.kill(w.proc.pid, signal.SIGPIPE)
    time.sleep(0.2)
    check("SIGPIPE does not stop the daemon", w.proc.poll() is None, f"exit {w.proc.poll()}")
    w.proc.stderr.close()  # the reader goes away: every further log line is EPIPE
    rang = w.ring(uid=8)
    check("with its log reader gone the daemon still works", rang and w.proc.poll() is None, f"exit {w.proc.poll()}")
    os.kill(w.proc.pid, signal.SIGTERM)
    w.drain_motor()
    rc = w.proc.wait(10)
    check("then SIGTERM mid-ring: motor off, clean exit", bool(w.motor) and w.motor[-1].startswith("motor off") and rc == 0,
          f"exit {rc}, motor {w.motor[-3:]}")
finally:
    w.stop()

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
