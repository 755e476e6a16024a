#!/usr/bin/env python3
"""The harness and phone endpoints from another language, against the built
binary: a Python 'iPhone' on the phone socket (raw ATT PDUs), a Python client
on the harness socket. Prints 'N passed, M failed'.

usage: harness_smoke.py path/to/wristcore
"""
import os, socket, subprocess, sys, tempfile, time

wristcore = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="wc-smoke-")
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

def wait_for(path):
    for _ in range(200):
        if os.path.exists(path): return
        time.sleep(0.05)
    raise SystemExit("the daemon did not create " + path)

try:
    wait_for(harness_path); wait_for(phone_path)
    h = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); h.connect(harness_path)
    hf = h.makefile("rb")
    motor_events = []
    def ask(cmd):
        h.sendall((cmd + "\n").encode())
        while True:
            line = hf.readline().decode().rstrip("\n")
            if not line.startswith("motor "): return line
            motor_events.append(line)

    check("motor stream", ask("motor") == "ok motor")

    check("state before a phone", '"connected":false' in ask("state"))

    # A minimal iPhone: answers the watch's discovery with a GATT database
    # that has only ANCS, accepts CCCD writes, then sends one notification.
    p = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); p.connect(phone_path)
    p.settimeout(5)
    u = lambda s: bytes.fromhex(s.replace("-", ""))[::-1]
    ANCS, NS, CP, DS = (u("7905F431-B5CE-4E99-A40F-4B1E122D00D0"), u("9FBF120D-6301-42D9-8C58-25E699A21DBD"),
                        u("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9"), u("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB"))
    le16 = lambda v: bytes([v & 0xFF, v >> 8])
    subscribed, sent, actions, served, pressed = set(), False, [], False, False
    deadline = time.time() + 20
    while time.time() < deadline and not (sent and actions):
        try:
            pdu = p.recv(600)
        except socket.timeout:
            break
        if not pdu: break
        op = pdu[0]
        if os.environ.get("SMOKE_DEBUG"): print("watch ->", pdu.hex(" "))
        if op == 0x02:   # Exchange MTU
            p.send(bytes([0x03]) + le16(185))
        elif op == 0x06:  # Find By Type Value (primary service by UUID)
            start = pdu[1] | pdu[2] << 8
            if pdu[7:] == ANCS and start <= 0x20: p.send(bytes([0x07]) + le16(0x20) + le16(0x2A))
            else: p.send(bytes([0x01, 0x06]) + le16(start) + bytes([0x0A]))
        elif op == 0x10:  # Read By Group Type: one primary service, ANCS at 0x20-0x2A
            start = pdu[1] | pdu[2] << 8
            if start <= 0x20: p.send(bytes([0x11, 20]) + le16(0x20) + le16(0x2A) + ANCS)
            else: p.send(bytes([0x01, 0x10]) + le16(start) + bytes([0x0A]))
        elif op == 0x08:  # Read By Type (characteristics)
            start = pdu[1] | pdu[2] << 8
            chars = [(0x21, 0x10, 0x22, NS), (0x24, 0x08, 0x25, CP), (0x26, 0x10, 0x27, DS)]
            chars = [c for c in chars if c[0] >= start]
            if chars:
                d, props, v, uuid = chars[0]
                p.send(bytes([0x09, 21]) + le16(d) + bytes([props]) + le16(v) + uuid)
            else: p.send(bytes([0x01, 0x08]) + le16(start) + bytes([0x0A]))
        elif op == 0x04:  # Find Information: CCCDs after NS and DS values
            start = pdu[1] | pdu[2] << 8
            descs = [h_ for h_ in (0x23, 0x28) if h_ >= start and h_ <= (pdu[3] | pdu[4] << 8)]
            if descs: p.send(bytes([0x05, 0x01]) + le16(descs[0]) + le16(0x2902))
            else: p.send(bytes([0x01, 0x04]) + le16(start) + bytes([0x0A]))
        elif op == 0x12:  # Write Request
            handle = pdu[1] | pdu[2] << 8
            p.send(bytes([0x13]))  # Write Response first; Data Source answers follow it
            if handle in (0x23, 0x28): subscribed.add(handle)
            if handle == 0x25 and pdu[3] == 0x00:  # Get Notification Attributes (uid 1)
                values = {0: b"com.example.py", 1: b"From Python", 3: b"hello", 4: b"5", 5: b"20240501T120000", 6: b"", 7: b"Clear"}
                asked, i = [], 8
                while i < len(pdu):  # the requested attributes; Title, Subtitle, Message carry a max length
                    asked.append(pdu[i]); i += 3 if pdu[i] in (1, 2, 3) else 1
                attrs = b"".join(bytes([a]) + le16(len(values.get(a, b""))) + values.get(a, b"") for a in asked)
                p.send(bytes([0x1B]) + le16(0x27) + pdu[3:8] + attrs)
                served = True
            elif handle == 0x25 and pdu[3] == 0x01:  # Get App Attributes: the display name
                app_id = pdu[4:pdu.index(0, 4) + 1]
                p.send(bytes([0x1B]) + le16(0x27) + bytes([0x01]) + app_id + bytes([0]) + le16(6) + b"Python")
            elif handle == 0x25 and pdu[3] == 0x02:  # Perform Notification Action
                actions.append(pdu[3:])
        elif op & 0x40 == 0 and op not in (0x1B, 0x1D, 0x13, 0x01):  # anything else: not supported
            p.send(bytes([0x01, op, 0, 0, 0x06]))
        if subscribed == {0x23, 0x28} and not sent:
            # Notification Source: added, Important + positive/negative action, social, uid 1
            p.send(bytes([0x1B]) + le16(0x22) + bytes([0, 0x1A, 4, 1, 1, 0, 0, 0]))
            sent = True
        if served and not pressed:
            # look at it, then dismiss it with the negative button
            pressed = True
            time.sleep(0.3)
            check("the notification is in the store", '"title":"From Python"' in ask("notifications"))
            check("the negative button", ask("press negative") == "ok press negative")
    check("the watch subscribed to ANCS", subscribed == {0x23, 0x28}, str(subscribed))
    check("Perform Notification Action (uid 1, negative) reached the phone",
          actions[:1] == [bytes([2, 1, 0, 0, 0, 1])], str(actions))
    reply = ask("snapshot png")
    n = int(reply.split()[2]) if reply.startswith("snapshot png ") else 0
    data = hf.read(n) if n else b""
    check("a PNG snapshot", data[:8] == b"\x89PNG\r\n\x1a\n", reply)
    check("errors are explained", ask("press elbow").startswith("error unknown button"))

    # An incoming call rings; SIGTERM in the middle of the ring leaves the motor off.
    p.send(bytes([0x1B]) + le16(0x22) + bytes([0, 0x18, 1, 1, 2, 0, 0, 0]))
    h.settimeout(10)
    while not any(e.startswith("motor on") for e in motor_events[-1:]):
        line = hf.readline().decode().rstrip("\n")
        if not line: break
        if line.startswith("motor "): motor_events.append(line)
    check("the call rings", motor_events[-1:] and motor_events[-1].startswith("motor on"), str(motor_events[-3:]))
    daemon.terminate()
    rest = hf.read().decode().splitlines()
    motor_events += [l for l in rest if l.startswith("motor ")]
    check("after SIGTERM mid-ring the motor's last state is off", motor_events[-1].startswith("motor off"), str(motor_events[-3:]))
finally:
    daemon.terminate()
    try: rc = daemon.wait(10)
    except subprocess.TimeoutExpired: daemon.kill(); rc = "killed"
    check("SIGTERM stops the daemon cleanly", rc == 0, "exit %s" % rc)
    print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
