#!/usr/bin/env python3
"""The watch's battery and the phone's, against the built binary (docs/battery.md):
the simulated board with Boards/sim.json's battery line switched on (an
emulated MAX17048 read by the daemon's own gauge code), the built-in simulated
iPhone (its Battery Service), and a harness client that sets both levels.
The low notice and its pulse, charging, and at the critical level the
power-off request in $RUNTIME_DIRECTORY (owner-only). Prints 'N passed, M failed'.

usage: battery_smoke.py path/to/wristcore
"""
import json, os, signal, socket, stat, subprocess, sys, tempfile, time
import harness_connect

wristcore = sys.argv[1]
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
tmp = tempfile.mkdtemp(prefix="wc-battery-")
harness_path, board_path, runtime = tmp + "/harness.sock", tmp + "/sim-battery.json", tmp + "/run"
os.mkdir(runtime, 0o700)
with open(os.path.join(repo, "Boards", "sim.json")) as f:
    text = f.read()
line = '// "battery": { "gauge": "max17048", "bus": 1 },'
assert line in text, "Boards/sim.json lost its battery example"
with open(board_path, "w") as f:
    f.write(text.replace(line, line[3:]))
daemon = subprocess.Popen([wristcore, "run", "--board", board_path, "--harness", "unix:" + harness_path, "--log-level", "warning"],
                          env=dict(os.environ, RUNTIME_DIRECTORY=runtime))
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

try:
    if not wait(lambda: os.path.exists(harness_path), 30):
        raise SystemExit("the daemon did not create " + harness_path)
    h = harness_connect.connect(harness_path)
    hf = h.makefile("rb")
    motor = []
    def ask(cmd):
        h.sendall((cmd + "\n").encode())
        while True:
            line = hf.readline().decode().rstrip("\n")
            if not line.startswith("motor "): return line
            motor.append(line)
    def state():
        return json.loads(ask("state")[len("state "):])

    b = wait(lambda: state()["battery"])
    check("the gauge is read at start: 80 %, discharging, 3900 mV",
          b and b["percent"] == 80 and b["charging"] is False and b["millivolts"] == 3900, str(b))
    check("the built-in iPhone's battery arrives (87 %)", wait(lambda: state()["phoneBattery"] == 87), str(state()))
    check("'battery phone 40' is answered", ask("battery phone 40") == "ok battery phone 40")
    check("its Battery Service notifies 40 %", wait(lambda: state()["phoneBattery"] == 40), str(state()))
    check("motor stream", ask("motor") == "ok motor")
    check("'battery 14' is answered", ask("battery 14") == "ok battery 14")
    s = state()
    check("14 %: the low-battery notice", s["battery"]["percent"] == 14 and s["screen"] == "message", str(s))
    check("and a pulse", wait(lambda: ask("state") and any(m.startswith("motor on") for m in motor), 5), str(motor))
    check("'battery 30 charging' is answered", ask("battery 30 charging") == "ok battery 30 charging")
    check("charging in the state", state()["battery"]["charging"] is True)
    request = os.path.join(runtime, "power-off")
    check("no power-off request yet", not os.path.exists(request))
    check("'battery 4' is answered", ask("battery 4") == "ok battery 4")
    made = wait(lambda: os.path.exists(request), 5)
    st = os.lstat(request) if made else None
    check("4 %: the power-off request in $RUNTIME_DIRECTORY, a regular file, mode 0600",
          st is not None and stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600, str(st))
    check("a level out of range is refused", ask("battery 101").startswith("error battery needs a level"))
    daemon.send_signal(signal.SIGTERM)
    rc = daemon.wait(timeout=20)
    check("SIGTERM stops the daemon cleanly", rc == 0, "exit %s" % rc)
finally:
    if daemon.poll() is None:
        daemon.kill()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
