#!/usr/bin/env python3
"""`wristcore setup` and the command line's "did you mean", against the built
binary (issue 27): a two-button board for the Zero 2 W, listed and installed
byte for byte; `--buttons 2|4` chooses without asking; on a terminal setup
asks which buttons are wired (Enter keeps the board named; wrong answers are
asked again; end of input installs nothing); without a terminal it never
reads standard input; --to into a group- or world-writable directory (sticky
or not) is refused with exit 2, nothing written; a misspelt command, option or board names the one
meant, for every command that takes --board. Prints 'N passed, M failed'.

usage: setup_smoke.py path/to/wristcore
"""
import os, pty, select, shutil, subprocess, sys, tempfile, time

wristcore = os.path.abspath(sys.argv[1])
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
boards = repo + "/Boards"
env = dict(os.environ, WRISTCORE_BOARDS=boards, WRISTCORE_FONTS=repo + "/Fonts")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name)
    else:
        failed += 1; print("not ok -", name, detail)


def run(args, timeout=10, cwd=None):
    """(exit code or 'hung', output) of a command that must not hang."""
    try:
        r = subprocess.run([wristcore] + args, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env, cwd=cwd or tmp)
        return r.returncode, (r.stdout + r.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "hung", ""


def on_terminal(args, answers, timeout=15):
    """Runs with standard input and output on a pseudo-terminal; types each
    answer after the next question. (exit code or 'hung', everything shown)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(tmp)
        os.execve(wristcore, [wristcore] + args, env)
    shown, pending, asked, deadline = b"", list(answers), 0, time.time() + timeout
    while time.time() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                data = os.read(fd, 4096)
            except OSError:  # EIO: the child has gone, and the terminal with it
                data = b""
            if not data:
                break
            shown += data
        if shown.count(b"Answer ") > asked and pending:
            asked += 1
            answer = pending.pop(0)
            os.write(fd, answer if isinstance(answer, bytes) else answer.encode() + b"\n")
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
        return "hung", shown.decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


# A 32-bit daemon under qemu-user on a 64-bit host kernel cannot list an
# ext4 / overlay directory: glibc's 32-bit readdir fails with EOVERFLOW on
# the host's 64-bit directory offsets (a real 32-bit kernel, or a 32-bit
# process on a 64-bit one, gets 32-bit offsets). There the suite runs in a
# tmpfs directory with its own copy of Boards/, found as ./Boards.
QEMU32 = b"qemu-arm" in open(wristcore, "rb").read(4096) and os.path.isdir("/dev/shm")
tmp = tempfile.mkdtemp(prefix="wc-setup-", dir="/dev/shm" if QEMU32 else None)
if QEMU32:
    shutil.copytree(boards, tmp + "/Boards")
target = tmp + "/etc/wristcore/board.json"
four = open(boards + "/rpi-zero2w.json", "rb").read()
two = open(boards + "/rpi-zero2w-2buttons.json", "rb").read()


def installed():
    return open(target, "rb").read() if os.path.exists(target) else None


def fresh():
    if os.path.exists(target): os.unlink(target)


try:
    # The two-button board: valid, listed, checked by doctor like any other.
    rc, out = run(["setup", "--list"])
    check("setup --list names rpi-zero2w-2buttons", rc == 0 and any(l.split()[:1] == ["rpi-zero2w-2buttons"] for l in out.splitlines()), out)
    widths = {l.index(l.split()[1]) for l in out.splitlines() if len(l.split()) > 1}
    check("setup --list: the names' column is aligned", len(widths) == 1, out)
    rc, out = run(["doctor", "--board", "rpi-zero2w-2buttons"])
    check("doctor --board rpi-zero2w-2buttons: the board file is valid and has no select or back button",
          rc in (0, 1) and "board " in out and "select button" not in out, out[-400:])

    # --buttons: no question, exactly the file's bytes.
    for n, want in [("2", two), ("4", four)]:
        fresh()
        rc, out = run(["setup", "--board", "rpi-zero2w", "--buttons", n, "--to", target])
        check(f"setup --board rpi-zero2w --buttons {n}: installs that variant byte for byte", rc == 0 and installed() == want, out[-300:])
    fresh()
    rc, out = run(["setup", "--board", "rpi-zero2w-2buttons", "--buttons", "4", "--to", target])
    check("setup --board rpi-zero2w-2buttons --buttons 4: the four-button file", rc == 0 and installed() == four, out[-300:])
    fresh()
    rc, out = run(["setup", "--board", "rpi-zero2w", "--buttons", "3", "--to", target])
    check("--buttons 3: exit 2, which variants there are, nothing installed",
          rc == 2 and "not 3" in out and installed() is None, f"{rc} {out[-300:]}")
    rc, out = run(["setup", "--board", "rpi5", "--buttons", "2", "--to", target])
    check("rpi5 --buttons 2: exit 2, how to write one, nothing installed",
          rc == 2 and "no variant of it with 2" in out and "docs/boards.md" in out and installed() is None, f"{rc} {out[-300:]}")
    rc, out = run(["setup", "--list", "--buttons", "2"])
    check("--buttons with --list: a usage error", rc == 2, out)

    # Without a terminal: never reads standard input (an open pipe nobody writes to), installs the board named.
    fresh()
    with open(tmp + "/out", "wb") as log:
        p = subprocess.Popen([wristcore, "setup", "--board", "rpi-zero2w", "--to", target], stdin=subprocess.PIPE,
                             stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
        try:
            rc = p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill(); p.wait(); rc = "hung"
        p.stdin.close()
    out = open(tmp + "/out", "rb").read().decode(errors="replace")
    check("no terminal, no --buttons: no question, the board named, a hint about --buttons 2",
          rc == 0 and installed() == four and "Which buttons" not in out and "--buttons 2" in out, f"{rc} {out[-300:]}")

    # On a terminal: the question.
    for answers, want, what in [(["2"], two, "'2'"), ([""], four, "Enter (the board named)"),
                                (["x", "3", "2"], two, "'x', '3', then '2'")]:
        fresh()
        rc, out = on_terminal(["setup", "--board", "rpi-zero2w", "--to", target], answers)
        check(f"on a terminal, answered {what}: installs that variant byte for byte",
              rc == 0 and "Which buttons are wired?" in out and installed() == want, f"{rc} {out[-400:]}")
    fresh()
    rc, out = on_terminal(["setup", "--board", "rpi-zero2w", "--to", target], [b"\x04"])
    check("on a terminal, end of input (Ctrl-D): exit 2, nothing installed", rc == 2 and installed() is None, f"{rc} {out[-300:]}")
    fresh()
    rc, out = on_terminal(["setup", "--board", "rpi5", "--to", target], [])
    check("on a terminal, a board without a variant: no question", rc == 0 and "Which buttons" not in out and installed() is not None,
          f"{rc} {out[-300:]}")
    fresh()
    rc, out = on_terminal(["setup", "--board", "rpi-zero2w", "--buttons", "2", "--to", target], [])
    check("on a terminal with --buttons: no question", rc == 0 and "Which buttons" not in out and installed() == two, f"{rc} {out[-300:]}")

    # --to's directory: writable by its owner only, sticky bit or not (docs/boards.md); refused before
    # anything is read or written there, exit 2. Checked for an existing identical file too.
    for mode, what in [(0o1777, "world-writable with the sticky bit, like /tmp"), (0o777, "world-writable"), (0o775, "group-writable")]:
        shared = tmp + "/shared-%o" % mode
        os.makedirs(shared, exist_ok=True)
        os.chmod(shared, mode)
        rc, out = run(["setup", "--board", "rpi5", "--to", shared + "/board.json"])
        check(f"setup --to into a {what} directory: exit 2, why, nothing written",
              rc == 2 and f"use the directory {shared}: it is " in out and os.listdir(shared) == [], f"{rc} {out[-300:]}")
        os.chmod(shared, 0o755)
        with open(shared + "/board.json", "wb") as f: f.write(open(boards + "/rpi5.json", "rb").read())
        os.chmod(shared, mode)
        rc, out = run(["setup", "--board", "rpi5", "--to", shared + "/board.json"])
        check(f"setup --to a file already holding the board, in a {what} directory: still refused", rc == 2 and "already holds" not in out,
              f"{rc} {out[-300:]}")
        os.chmod(shared, 0o755)
    rc, out = run(["setup", "--board", "rpi5", "--to", tmp + "/new/dir/board.json"])
    check("setup --to into a missing directory: created (0755), installed", rc == 0 and oct(os.stat(tmp + "/new/dir").st_mode & 0o7777) == "0o755",
          f"{rc} {out[-300:]}")
    rc, out = run(["setup", "--help"])
    check("setup --help says which --to directories are refused", rc == 0 and "sticky bit" in out and "/tmp" in out, out[-600:])

    # Did you mean.
    rc, out = run(["rnu"])
    check("wristcore rnu: exit 2, did you mean 'run'?", rc == 2 and "did you mean 'run'?" in out, out)
    rc, out = run(["sefltest", "--board", "sim"])
    check("wristcore sefltest: did you mean 'selftest'?", rc == 2 and "did you mean 'selftest'?" in out, out)
    rc, out = run(["run", "--bord", "sim"])
    check("run --bord: did you mean '--board'?", rc == 2 and "did you mean '--board'?" in out, out)
    for command in (["run", "--duration", "0.1"], ["doctor"], ["selftest", "--quick"], ["setup", "--to", target], ["motor-off"]):
        for typo, meant in [("rpi-zero2", "rpi-zero2w"), ("rpi-zer2w", "rpi-zero2w"), ("rpi-zero2w-2button", "rpi-zero2w-2buttons")]:
            rc, out = run(command + ["--board", typo])
            check(f"{command[0]} --board {typo}: exit 2, did you mean '{meant}'?", rc == 2 and f"did you mean '{meant}'?" in out, f"{rc} {out[-300:]}")
    rc, out = run(["doctor", "--board", "Boards/rpi-zero2.json"], cwd=tmp if QEMU32 else repo)
    check("doctor --board Boards/rpi-zero2.json (a path): did you mean 'Boards/rpi-zero2w.json'?",
          rc == 2 and "did you mean 'Boards/rpi-zero2w.json'?" in out, out[-300:])
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
