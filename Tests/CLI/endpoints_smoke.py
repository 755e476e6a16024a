#!/usr/bin/env python3
"""The phone and harness endpoints as doors into the daemon, against the built
binary (issue 14 items 5-8, issue 19 item 13):

  - with umask 000 both socket files are still 0600;
  - a second daemon on a live path refuses to start and leaves the first
    one's socket alone; a stale socket file (a killed daemon's) is replaced;
  - at the descriptor limit (RLIMIT_NOFILE lowered with prlimit) the harness
    listener backs off instead of spinning: CPU time, wake-ups and log lines
    are counted; raising the limit again serves the waiting clients;
  - 16 harness clients at most: the 17th is told so and closed;
  - an empty line and 'help me' get error replies;
  - after the phone leaves, 'state' says link "advertising", not "connected".

Prints 'N passed, M failed'.

usage: endpoints_smoke.py path/to/wristcore
"""
import os, resource, signal, socket, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minimal_phone import MinimalPhone

wristcore = sys.argv[1]
passed = failed = 0
CLK_TCK = os.sysconf("SC_CLK_TCK")


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name, detail)
    else:
        failed += 1; print("not ok -", name, detail)


class Daemon:
    def __init__(self, tmp, phone="phone.sock", harness="harness.sock", umask=None, wait=True):
        self.phone_path, self.harness_path = tmp + "/" + phone, tmp + "/" + harness
        self.log_path = tmp + "/" + harness + ".log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [wristcore, "run", "--board", "sim", "--phone", "unix:" + self.phone_path,
             "--harness", "unix:" + self.harness_path, "--log-level", "notice"],
            stderr=self.log, preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)
        if wait: self.wait_ready()

    def wait_ready(self):
        for _ in range(200):
            if self.answers(): return
            time.sleep(0.05)
        raise SystemExit("the daemon did not start; log:\n" + self.log_text())

    def answers(self):
        try: return self.client().ask("state").startswith("state {")
        except OSError: return False

    def client(self):
        return Client(self.harness_path)

    def log_text(self):
        with open(self.log_path) as f: return f.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try: self.proc.wait(10)
            except subprocess.TimeoutExpired: self.proc.kill()


class Client:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(5)
        self.s.connect(path)
        self.f = self.s.makefile("rb")

    def ask(self, line):
        self.s.sendall((line + "\n").encode())
        return self.f.readline().decode().rstrip("\n")

    def close(self):
        self.f.close(); self.s.close()


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def wakeups(pid):
    with open("/proc/%d/status" % pid) as f:
        return sum(int(l.split()[1]) for l in f if "ctxt_switches" in l)


daemons = []
sections = []


def section(f):
    """Each section runs on daemons of its own; one that breaks is a failure, not the end."""
    sections.append(f)
    return f


@section
def socket_modes():
    # item 7: the mode, whatever the umask
    a = Daemon(tempfile.mkdtemp(prefix="wc-endpoints-"), umask=0o000)
    daemons.append(a)
    for path in (a.phone_path, a.harness_path):
        mode = os.stat(path).st_mode & 0o777
        check("with umask 000, %s is 0600" % os.path.basename(path), mode == 0o600, "(%o)" % mode)


@section
def second_daemon():
    # item 7: a second daemon on a live path
    tmp = tempfile.mkdtemp(prefix="wc-endpoints-")
    a = Daemon(tmp)
    daemons.append(a)
    for phone, harness in (("phone.sock", "other-harness.sock"), ("other-phone.sock", "harness.sock")):
        b = Daemon(tmp, phone=phone, harness=harness, wait=False)
        daemons.append(b)
        try: rc = b.proc.wait(15)
        except subprocess.TimeoutExpired: b.stop(); rc = "still running"
        live = a.phone_path if phone == "phone.sock" else a.harness_path
        check("a second daemon on the live %s refuses to start" % os.path.basename(live),
              rc not in (0, "still running") and ("another wristcore is listening on " + live) in b.log_text(),
              "(exit %s: %s)" % (rc, b.log_text().strip().splitlines()[-1:] if b.log_text().strip() else ""))
    check("the first daemon keeps its sockets and answers",
          os.path.exists(a.harness_path) and os.path.exists(a.phone_path) and a.answers())


@section
def protocol_and_limits():
    a = Daemon(tempfile.mkdtemp(prefix="wc-endpoints-"))
    daemons.append(a)
    # issue 19 item 13: empty lines and extra arguments
    c = a.client()
    check("an empty line gets an error reply", c.ask("") == "error empty line; try 'help'")
    check("'help me' is an error", c.ask("help me") == "error too many arguments for help")
    check("'quit now' is an error, and the connection stays", c.ask("quit now") == "error too many arguments for quit"
          and c.ask("state").startswith("state {"))
    c.close()

    # item 5: 16 clients at most
    clients = [a.client() for _ in range(16)]
    for k in clients: k.ask("state")
    extra = Client(a.harness_path)
    extra.s.settimeout(2)
    try: line = extra.f.readline().decode()
    except OSError as e: line = str(e)
    check("the 17th harness client is told so", line == "error too many harness clients (16 connected); try again later\n", repr(line))
    try: closed = extra.f.readline() == b""
    except OSError: closed = False
    check("and closed", closed)
    extra.close()
    clients.pop().close()
    time.sleep(0.1)
    k = a.client()
    check("a place freed is taken again", k.ask("state").startswith("state {"))
    clients.append(k)
    for k in clients: k.close()
    time.sleep(0.2)
    check("the refusal is logged once", a.log_text().count("refusing more until one leaves") == 1)

    # item 8: the link after the phone leaves
    keeper = a.client()
    phone = MinimalPhone(a.phone_path)
    phone.serve(10, until=lambda p: p.subscribed == {0x23, 0x28})
    state = keeper.ask("state")
    check("with a phone: link connected", '"link":"connected","connected":true' in state, state)
    phone.sock.close()
    deadline = time.time() + 5
    while time.time() < deadline and '"connected":false' not in state:
        time.sleep(0.05); state = keeper.ask("state")
    check("after the phone leaves: link advertising, connected false", '"link":"advertising","connected":false' in state, state)
    keeper.close()


@section
def descriptor_limit():
    # item 6: at the descriptor limit, no spin
    a = Daemon(tempfile.mkdtemp(prefix="wc-endpoints-"))
    daemons.append(a)
    pid = a.proc.pid
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    time.sleep(0.2)
    open_fds = len(os.listdir("/proc/%d/fd" % pid))
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (open_fds + 1, hard))
    log_before = a.log_text().count("Too many open files")
    waiting = []
    for _ in range(3):  # the first is accepted (the last free descriptor), the others wait in the backlog
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(5)
        s.connect(a.harness_path); waiting.append(s)
    time.sleep(0.5)
    cpu0, wake0 = cpu_ticks(pid), wakeups(pid)
    time.sleep(3)
    cpu = (cpu_ticks(pid) - cpu0) / CLK_TCK
    woke = wakeups(pid) - wake0
    lines = a.log_text().count("Too many open files") - log_before
    print("at the fd limit for 3 s: %.2f s of CPU, %d context switches, %d 'Too many open files' log lines" % (cpu, woke, lines))
    check("at the fd limit the daemon does not spin (< 0.3 s CPU in 3 s)", cpu < 0.3, "(%.2f s)" % cpu)
    check("and wakes up rarely (< 60 context switches in 3 s)", woke < 60, "(%d)" % woke)
    check("and logs it once", lines == 1, "(%d lines)" % lines)
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
    waiting[0].close()
    s = waiting[-1]
    s.sendall(b"state\n")
    try: reply = s.makefile("rb").readline().decode()
    except OSError as e: reply = str(e)
    check("with descriptors back, the waiting clients are served", reply.startswith("state {"), repr(reply[:40]))
    check("and the recovery is logged", "accepting connections again" in a.log_text())
    for s in waiting: s.close()


@section
def stale_files():
    # item 7: a stale socket file (a killed daemon's) is replaced
    tmp = tempfile.mkdtemp(prefix="wc-endpoints-")
    a = Daemon(tmp)
    daemons.append(a)
    a.proc.send_signal(signal.SIGKILL); a.proc.wait()
    check("a killed daemon leaves its socket files", os.path.exists(a.harness_path) and os.path.exists(a.phone_path))
    b = Daemon(tmp)
    daemons.append(b)
    check("a new daemon replaces the stale files", b.answers())
    b.stop()
    check("and removes its own files on exit", not os.path.exists(b.harness_path) and not os.path.exists(b.phone_path))


try:
    for f in sections:
        try:
            f()
        except Exception as e:  # a broken section is a failure; the next one starts afresh
            check(f.__name__ + " ran to the end", False, "(%s: %s)" % (type(e).__name__, e))
        finally:
            for d in daemons: d.stop()
            daemons.clear()
finally:
    print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
