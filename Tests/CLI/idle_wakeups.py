#!/usr/bin/env python3
"""Process-level power check: the real binary, idle with its display off,
must not wake up. Runs `wristcore run` on a simulated board whose display
dims after 1 s and goes off after 2 s (a phone endpoint nobody connects to,
so no scripted phone plays), waits on the harness until the display is off,
hangs up the harness, then counts the process's context switches (voluntary
+ involuntary, every thread, from /proc/PID/task/*/status) over the window.
A process blocked in epoll_wait with nothing armed makes none.

With --lit the display stays on instead (for the figure with the display
on: one wake-up a minute, on the minute, plus the context switches a
redraw itself costs).

usage: idle_wakeups.py path/to/wristcore [--seconds 60] [--max 1] [--lit]
Exit 0 when the count is at most --max; prints the figure either way.
"""
import argparse, json, os, signal, socket, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("wristcore")
parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (default 60)")
parser.add_argument("--max", type=int, default=1, help="context switches allowed in the window (default 1)")
parser.add_argument("--lit", action="store_true", help="keep the display on (dim and off after an hour)")
args = parser.parse_args()

tmp = tempfile.mkdtemp(prefix="wc-idle-")
board_path, phone_path, harness_path = tmp + "/board.json", tmp + "/phone.sock", tmp + "/harness.sock"
with open(board_path, "w") as f:
    json.dump({
        "name": "Idle check (simulated)",
        "simulated": True,
        "display": {"controller": "ssd1306", "bus": 1, "address": "0x3C", "width": 128, "height": 64,
                    "dimAfterSeconds": 3600 if args.lit else 1, "offAfterSeconds": 3600 if args.lit else 2},
        "buttons": [{"role": "positive", "chip": "sim", "line": 0}, {"role": "negative", "chip": "sim", "line": 1}],
        "motor": {"chip": "sim", "line": 6},
    }, f)

daemon = subprocess.Popen([args.wristcore, "run", "--board", board_path, "--phone", "unix:" + phone_path,
                           "--harness", "unix:" + harness_path, "--state-dir", tmp, "--log-level", "warning"])


def context_switches(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
    return total


try:
    for _ in range(400):
        if os.path.exists(harness_path): break
        if daemon.poll() is not None: sys.exit(f"the daemon exited with {daemon.returncode}")
        time.sleep(0.05)
    else:
        sys.exit("the daemon did not create its harness socket")
    h = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    h.connect(harness_path)
    hf = h.makefile("rb")
    state, wanted = "", '"display":"on"' if args.lit else '"display":"off"'
    for _ in range(100):
        h.sendall(b"state\n")
        state = hf.readline().decode()
        if wanted in state: break
        time.sleep(0.1)
    else:
        sys.exit("the display is not " + wanted + ": " + state)
    hf.close(); h.close()
    time.sleep(1.0)  # the daemon sees the hang-up and settles
    before = context_switches(daemon.pid)
    time.sleep(args.seconds)
    if daemon.poll() is not None: sys.exit(f"the daemon exited with {daemon.returncode} while idle")
    switches = context_switches(daemon.pid) - before
    per_minute = switches * 60.0 / args.seconds
    print(f"idle, display {'on' if args.lit else 'off'}: {switches} context switches in {args.seconds:g} s ({per_minute:.2f} per minute); allowed {args.max}")
    ok = switches <= args.max
    print("ok - idle wake-ups" if ok else "not ok - idle wake-ups")
finally:
    if daemon.poll() is None:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
sys.exit(0 if ok else 1)
