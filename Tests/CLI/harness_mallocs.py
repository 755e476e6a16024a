#!/usr/bin/env python3
"""The harness costs nothing unless used (issue 16 item 5), measured on the
built binary: an incoming call rings (the motor switches on and off every few
hundred ms, nothing else happens) on `wristcore run --board sim --phone ...
--harness ...`, and the daemon's heap allocations are counted from outside
with an LD_PRELOAD shim (count_mallocs.c, built here with the C compiler).

  - with a harness client following the motor (reading its lines): 0
    allocations per transition (the line is formatted into a buffer made once);
  - with a harness client connected but not following the motor: 0 per
    transition (before the fix: 2, the line was formatted for nobody).

Prints the counts and 'N passed, M failed'.

usage: harness_mallocs.py path/to/wristcore
"""
import os, shutil, socket, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimal_phone import MinimalPhone

wristcore = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name, detail)
    else:
        failed += 1; print("not ok -", name, detail)


tmp = tempfile.mkdtemp(prefix="wc-mallocs-")
compiler = shutil.which("cc") or shutil.which("clang")
shim = tmp + "/count_mallocs.so"
subprocess.check_call([compiler, "-shared", "-fPIC", "-O2", "-o", shim, here + "/count_mallocs.c", "-lpthread"])
counter = tmp + "/mallocs"
phone_path, harness_path = tmp + "/phone.sock", tmp + "/harness.sock"
env = dict(os.environ, LD_PRELOAD=shim, COUNT_MALLOCS_FILE=counter)
daemon = subprocess.Popen([wristcore, "run", "--board", "sim", "--phone", "unix:" + phone_path,
                           "--harness", "unix:" + harness_path, "--log-level", "warning"], env=env)


def allocations():
    time.sleep(0.05)  # the shim publishes every 20 ms
    with open(counter) as f: return int(f.read().strip() or 0)


try:
    for _ in range(200):
        if os.path.exists(harness_path) and os.path.exists(phone_path): break
        time.sleep(0.05)
    follower = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); follower.connect(harness_path)
    idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); idle.connect(harness_path)
    ff = follower.makefile("rb")
    follower.sendall(b"motor\n")
    assert ff.readline() == b"ok motor\n"
    transitions = []
    lock = threading.Lock()

    def follow():
        for line in ff:
            with lock: transitions.append(time.time())

    threading.Thread(target=follow, daemon=True).start()
    phone = MinimalPhone(phone_path)
    phone.serve(10, until=lambda p: p.subscribed == {0x23, 0x28})
    phone.notify_source(0, 0x18, 1, 42)  # an incoming call: it rings until answered
    phone.serve(1.5)  # answer its fetch; the ring settles into its cycle

    def measure(seconds):
        with lock: t0 = len(transitions)
        m0 = allocations()
        time.sleep(seconds)
        m1 = allocations()
        with lock: t1 = len(transitions)
        return m1 - m0, t1 - t0

    with_follower, ring_a = measure(5)
    follower.sendall(b"quit\n")  # nobody follows the motor now (the idle client stays)
    time.sleep(0.3)
    with lock: before = len(transitions)
    without, _ = measure(5)
    with lock: leaked = len(transitions) - before
    print("5 s of ringing: %d motor transitions, %d allocations with a follower; %d allocations without one"
          % (ring_a, with_follower, without))
    check("the call rings (motor transitions streamed)", ring_a >= 4, "(%d)" % ring_a)
    check("no follower: no motor lines sent", leaked == 0)
    check("with a follower: no allocation per motor transition", with_follower < max(1, ring_a // 4),
          "(%d allocations, %d transitions)" % (with_follower, ring_a))
    check("without one: none either (nothing formatted for nobody)", without < max(1, ring_a // 4),
          "(%d allocations, about %d transitions)" % (without, ring_a))
finally:
    daemon.terminate()
    try: daemon.wait(10)
    except subprocess.TimeoutExpired: daemon.kill()
    print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
