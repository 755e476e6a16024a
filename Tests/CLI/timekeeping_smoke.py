#!/usr/bin/env python3
"""Alarms, the timer and the stopwatch against the built binary (issue 25
item 4; docs/buttons.md): the simulated board with a harness client and a
state directory of its own, and no phone. An alarm set with the buttons is listed in
`state` and kept in the state directory's `alarms` (0600) and set again after
a restart; the timer counts down and, unless --quick, rings its pattern at
its end (a minute) and a press stops it; the stopwatch runs and takes a lap.
Prints 'N passed, M failed'.

usage: timekeeping_smoke.py path/to/wristcore [--quick]
"""
import json, os, signal, socket, stat, subprocess, sys, tempfile, time
import harness_connect

wristcore = sys.argv[1]
quick = "--quick" in sys.argv[2:]
tmp = tempfile.mkdtemp(prefix="wc-time-")
harness_path, state_dir = tmp + "/harness.sock", tmp + "/state"
os.mkdir(state_dir, 0o700)
passed = failed = 0

def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
    else:
        failed += 1; print("not ok -", name, detail)

def wait(fn, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        v = fn()
        if v: return v
        time.sleep(0.1)
    return fn()

def start():
    if os.path.exists(harness_path): os.unlink(harness_path)
    # A phone endpoint no phone connects to: no built-in iPhone and its notifications.
    d = subprocess.Popen([wristcore, "run", "--board", "sim", "--harness", "unix:" + harness_path, "--phone", "unix:" + tmp + "/phone.sock",
                          "--state-dir", state_dir, "--log-level", "warning"])
    if not wait(lambda: os.path.exists(harness_path), 30):
        raise SystemExit("the daemon did not create " + harness_path)
    h = harness_connect.connect(harness_path)
    return d, h, h.makefile("rb")

daemon, h, hf = start()
motor = []
def ask(cmd):
    h.sendall((cmd + "\n").encode())
    while True:
        line = hf.readline().decode().rstrip("\n")
        if not line.startswith("motor "): return line
        motor.append(line)
def state():
    return json.loads(ask("state")[len("state "):])
def press(*buttons):
    for b in buttons:
        ask("press " + b); time.sleep(0.25)   # past the double-press window
def menu(entry):
    """From the clock: the watch menu, down `entry` rows, open."""
    ask("hold negative 800"); time.sleep(0.3)
    press(*(["down"] * entry), "select")

try:
    wait(lambda: state()["screen"] in ("waitingForPhone", "idleClock"))
    s = state()
    check("state reports the alarms, the timer and the stopwatch",
          s["alarms"] == {"list": [], "next": None} and s["ringingAlert"] is None
          and s["timer"]["running"] is False and s["timer"]["length"] == 300 and s["stopwatch"]["running"] is False, str(s))
    # -------------------------------------------------------------- an alarm
    menu(0)
    check("the menu's first entry is Alarms", state()["screen"] == "alarms", str(state()))
    press("select")
    check("'New alarm' opens the editor", state()["screen"] == "alarmEditor", str(state()))
    press("select", "up", "select", "select", "select")   # the hour as offered; minute 05; once; Save
    s = state()
    check("saved: listed as 'HH:05 Once on'", s["screen"] == "alarms" and len(s["alarms"]["list"]) == 1
          and s["alarms"]["list"][0].endswith(":05 Once on"), str(s))
    path = os.path.join(state_dir, "alarms")
    st = wait(lambda: os.path.exists(path), 5) and os.lstat(path)
    check("kept in the state directory's 'alarms', a regular file, mode 0600",
          st and stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600, str(st))
    with open(path) as f: kept = f.read()
    check("one line: 'HH:05 ------- on'", len(kept.splitlines()) == 1 and kept.endswith(":05 ------- on\n"), repr(kept))
    # -------------------------------------------------------------- the stopwatch
    press("back")
    ask("press back"); time.sleep(0.3)
    menu(2)
    check("Stopwatch", state()["screen"] == "stopwatch", str(state()))
    press("select")
    time.sleep(1.2)
    press("negative")
    s = state()["stopwatch"]
    check("it runs and takes a lap", s["running"] is True and s["laps"] == 1 and s["elapsedMs"] >= 1000, str(s))
    press("select")
    e = state()["stopwatch"]["elapsedMs"]; time.sleep(0.5)
    check("stopped, it stays", state()["stopwatch"]["elapsedMs"] == e and state()["stopwatch"]["running"] is False)
    # -------------------------------------------------------------- the timer
    ask("hold negative 800"); time.sleep(0.3)   # back to the menu from the stopwatch
    press("up", "select")
    check("Timer", state()["screen"] == "timer", str(state()))
    press(*(["down"] * 4))   # 5 → 1 minute
    check("down takes a minute off: 1:00", state()["timer"]["length"] == 60, str(state()["timer"]))
    check("motor stream", ask("motor") == "ok motor")
    press("select")
    time.sleep(1.5)
    t = state()["timer"]
    check("it counts down", t["running"] is True and 57 <= t["secondsLeft"] <= 59, str(t))
    if not quick:
        s = wait(lambda: state()["ringingAlert"] == "timer" and state(), 70)
        check("at its end it rings: the ringing screen", s and s["screen"] == "ringing", str(s))
        check("and the motor plays", wait(lambda: ask("state") and any(m.startswith("motor on") for m in motor), 5), str(motor[-3:]))
        press("negative")
        s = state()
        check("a press stops it", s["ringingAlert"] is None and s["motor"] == "off", str(s))
    # -------------------------------------------------------------- a restart keeps the alarm
    daemon.send_signal(signal.SIGTERM)
    rc = daemon.wait(timeout=20)
    check("SIGTERM stops the daemon cleanly", rc == 0, "exit %s" % rc)
    h.close()
    daemon, h, hf = start()
    s = wait(lambda: state()["alarms"]["list"] and state(), 10)
    check("after a restart the alarm is set again", s and len(s["alarms"]["list"]) == 1 and s["alarms"]["list"][0].endswith(":05 Once on"), str(s))
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=20)
finally:
    if daemon.poll() is None:
        daemon.kill()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
