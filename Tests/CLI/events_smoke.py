#!/usr/bin/env python3
"""The harness's `events` stream against the built binary (issue 17 item 6):
`wristcore run --board sim --phone ... --harness ...` with a Python phone
(minimal_phone.py); a raw client and docs/examples/harness_events.py
subscribe, the phone announces a notification and removes it, and both see
the `added` line (once the attributes are in) and the `removed` line.
Prints 'N passed, M failed'.

usage: events_smoke.py path/to/wristcore
"""
import json, os, socket, subprocess, sys, tempfile, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from minimal_phone import MinimalPhone

wristcore = sys.argv[1]
example = os.path.join(here, "..", "..", "docs", "examples", "harness_events.py")
tmp = tempfile.mkdtemp(prefix="wc-events-")
phone_path, harness_path = tmp + "/phone.sock", tmp + "/harness.sock"
daemon = subprocess.Popen([wristcore, "run", "--board", "sim", "--phone", "unix:" + phone_path,
                           "--harness", "unix:" + harness_path, "--log-level", "warning"])
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
    else:
        failed += 1; print("not ok -", name, detail)


try:
    for _ in range(200):
        if os.path.exists(harness_path) and os.path.exists(phone_path): break
        time.sleep(0.05)
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); raw.connect(harness_path)
    raw.settimeout(10)
    rf = raw.makefile("rb")
    raw.sendall(b"events\n")
    check("events is accepted", rf.readline() == b"ok events\n")
    follower = subprocess.Popen([sys.executable, example, harness_path, "2"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    check("the example subscribes", follower.stderr.readline().startswith("following"))

    phone = MinimalPhone(phone_path)
    phone.serve(10, until=lambda p: p.subscribed == {0x23, 0x28})
    check("the phone is subscribed", phone.subscribed == {0x23, 0x28})
    phone.notify_source(0, 0x02, 4, 7)  # added, Important, Social, uid 7
    phone.serve(1.0)                    # answers the watch's fetches
    phone.notify_source(2, 0x00, 4, 7)  # removed
    phone.serve(0.5)

    added = json.loads(rf.readline())
    check("added, once the attributes are in",
          added["event"] == "notification" and added["change"] == "added" and added["uid"] == 7
          and added["title"] == "Mum" and added["app"] == "com.apple.mobilephone" and added["appName"] == "Phone"
          and added["category"] == "social" and added["flags"] == ["important"] and isinstance(added["t"], int),
          str(added))
    removed = json.loads(rf.readline())
    check("removed, with the uid only",
          removed == {"event": "notification", "change": "removed", "uid": 7, "t": removed["t"]}
          and removed["t"] >= added["t"], str(removed))

    out, err = follower.communicate(timeout=10)
    check("the example printed both",
          out.splitlines() == ["[added] uid 7 Phone: Mum (important)", "[removed] uid 7"], repr(out) + err)
    raw.sendall(b"state\n")
    check("the connection still answers commands", rf.readline().startswith(b"state {"))
finally:
    daemon.terminate()
    try:
        daemon.wait(timeout=10)
    except subprocess.TimeoutExpired:
        daemon.kill()

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
