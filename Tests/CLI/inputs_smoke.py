#!/usr/bin/env python3
"""Hostile input to the built binary (issue 14 items 10 and 11): capture
paths that are not capture files, file names and hex with control
characters, a capture that used to crash decode, a board file whose errors
carry NUL, newline and ESC. Checks exit codes and that stderr says what it
should, escaped, one problem per line, every problem. Prints 'N passed, M failed'.

usage: inputs_smoke.py path/to/wristcore
"""
import os, struct, subprocess, sys, tempfile

wristcore = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="wc-inputs-")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
    else:
        failed += 1; print("not ok -", name, repr(detail))


def run(*args, timeout=20):
    p = subprocess.run([wristcore, *args], capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


# --- decode: paths that are not capture files -------------------------------
fifo = os.path.join(tmp, "capture.fifo")
os.mkfifo(fifo)
for path, want in [(tmp, b"is a directory, not a capture file"),
                   ("/dev/null", b"is a character device, not a capture file"),
                   (fifo, b"is a FIFO, not a capture file")]:
    try:
        rc, out, err = run("decode", "--btsnoop", path, timeout=10)
    except subprocess.TimeoutExpired:
        check(f"decode {path}: does not hang", False, "timed out"); continue
    check(f"decode {path}: exit 2, says what it is", rc == 2 and want in err and b"sudo chown" not in err, err)
rc, out, err = run("decode", "--btsnoop", os.path.join(tmp, "missing"))
check("decode a missing file: no such file", rc == 2 and b"no such file" in err, err)

# --- decode: control characters in a file name and in hex -------------------
evil = os.path.join(tmp, "evil\n\x1b[2J.btsnoop")
with open(evil, "wb") as f:
    f.write(b"not a capture at all")
rc, out, err = run("decode", "--btsnoop", evil)
check("decode: a file name with ESC and a newline is echoed escaped", rc == 2 and b"evil\\n\\u{1b}[2J.btsnoop" in err
      and err.count(b"\n") == 1 and b"\x1b" not in err, err)
rc, out, err = run("decode", "--as", "att", "02 \x1b[31m")
check("decode: a non-hex control character is echoed escaped", rc == 2 and b"'\\u{1b}' at character 3" in err and b"\x1b" not in err, err)

# --- decode: the LE Connection Complete that crashed it (11 parameter bytes) --
def btsnoop(records):
    out = b"btsnoop\0" + struct.pack(">II", 1, 2001)
    for flags, ts, data in records:
        out += struct.pack(">IIIIQ", len(data), len(data), flags, 0, ts) + data
    return out
short_event = bytes([0x3E, 11, 0x01, 0x00, 0x40, 0x00, 0x01, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22])
mtu = bytes([0x40, 0x20, 7, 0, 3, 0, 4, 0, 0x02, 0xB9, 0x00])
crash = os.path.join(tmp, "short-event.btsnoop")
with open(crash, "wb") as f:
    f.write(btsnoop([(3, 0x00E03AB44A676000, short_event), (4, 1 << 63, mtu), (4, (1 << 64) - 1, mtu)]))
rc, out, err = run("decode", "--btsnoop", crash)
check("decode: a short LE Connection Complete is MALFORMED, not SIGILL",
      rc == 0 and b"MALFORMED HCI LE Connection Complete: 11 parameter bytes, the event has 19" in out, (rc, out, err))
check("decode: timestamps at the top of UInt64 print", out.count(b"Exchange MTU Request") == 2, out)

# --- board files: every problem on stderr, escaped, one per line -------------
board = os.path.join(tmp, "hostile.json")
with open(board, "w") as f:
    f.write('{\n'
            '  "name": "Test",\n'
            '  "dis\\u0000play": 1,\n'
            '  "display": { "controller": "ssd\\n1306\\u001b[2J", "bus": 1, "address": "0x3C", "width": 128, "height": 64 },\n'
            '  "buttons": [ { "role": "positive", "chip": "gpiochip0", "line": 17 },\n'
            '               { "role": "negative", "chip": "gpiochip0", "line": 27 } ],\n'
            '  "motor": { "chip": "gpiochip0", "line": 18, "quietHours": "\\u001b]0;pwned\\u0007" },\n'
            '  "b\\u0000": 2\n'
            '}\n')
for command in (["run", "--board", board, "--duration", "0.1"], ["doctor", "--board", board]):
    rc, out, err = run(*command)
    lines = err.decode(errors="replace").splitlines()
    problems = [l for l in lines if l.startswith(board + ":")]
    check(f"{command[0]}: exit 2 for a broken board", rc == 2, (rc, err))
    check(f"{command[0]}: every problem on stderr, one per line", len(problems) == 4, lines)
    check(f"{command[0]}: the NUL key did not cut stderr", any(l.endswith("b\\u0000: unknown field; allowed: name, simulated, display, buttons, motor, battery, input, bluetooth, setSystemClock") for l in problems), lines)
    check(f"{command[0]}: values escaped JSON-style", any('"ssd\\n1306\\u001b[2J"' in l for l in problems)
          and any('"\\u001b]0;pwned\\u0007"' in l for l in problems), lines)
    check(f"{command[0]}: no raw NUL or ESC", b"\x00" not in err and b"\x1b" not in err, err)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
