#!/usr/bin/env python3
"""Zero mallocs per notification, counted from outside the built daemon
(issue 23: the footprint at the limit, checked in CI on the Embedded
binary): `wristcore run --board sim --phone unix:P --harness unix:H` is run
as Scripts/measure_rss.py runs it, with LD_PRELOAD of the allocation counter
count_mallocs.c (compiled here with the C compiler; it publishes the
daemon's malloc/calloc/realloc/aligned-allocation count in the file named by
COUNT_MALLOCS_FILE every 20 ms).

In each mode, on a fresh daemon: the counting iPhone (measure_rss.py's
CountingPhone) pushes a warm-up of notifications (each added, its
attributes requested by the watch and answered, the one 24 before it
removed: the store is full and turning over, the screens have shown them),
then the allocations are counted over M more notifications, the same way.
The budget is exactly 0 in steady state, in every mode:

  - no harness client (the harness endpoint listens, nobody is connected);
  - a harness client connected and idle (no subscription);
  - a harness client following `events` (it reads every `added` and
    `removed` line, and the test checks it got them all).

Also printed (not checked): the allocations over one idle second after the
warm-up, to tell time-driven allocations from per-notification ones.

Prints 'ok' / 'not ok' lines and 'N passed, M failed'; exit 1 on failure.
Needs a native binary (LD_PRELOAD does not reach a binary run under
qemu-user).

usage: notification_mallocs.py path/to/wristcore [--warmup N] [--count M] [--report-only MODE]
  --warmup N  notifications before counting (default 500)
  --count M   notifications counted (default 2000)
  --report-only MODE   print that mode's count without checking it

The watch takes its time from the system clock in every mode: this phone
serves no Current Time Service (the Swift benchmarks' phone does), so the
clock path the daemon runs on a board without a time-serving phone is
counted too (issue 28: it allocated on every render).
"""
import argparse, json, os, shutil, socket, subprocess, sys, tempfile, threading, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "Scripts"))
from measure_rss import start_daemon, wait_ready, subscribe, push, stop, STORE  # noqa: E402

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1; print("ok -", name, detail)
    else:
        failed += 1; print("not ok -", name, detail)


class EventsFollower:
    """A harness client that subscribed to `events` and reads every line."""

    def __init__(self, harness_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(harness_path)
        self.lines = self.sock.makefile("rb")
        self.sock.sendall(b"events\n")
        first = self.lines.readline()
        if first != b"ok events\n": sys.exit("events: %r" % first)
        self.lock = threading.Lock()
        self.added, self.removed, self.other = [], [], 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.lines:
            try:
                event = json.loads(line)
            except ValueError:
                event = {}
            with self.lock:
                if event.get("event") == "notification" and event.get("change") == "added":
                    self.added.append(event.get("uid"))
                elif event.get("event") == "notification" and event.get("change") == "removed":
                    self.removed.append(event.get("uid"))
                else:
                    self.other += 1

    def counts(self):
        with self.lock: return len(self.added), len(self.removed), self.other

    def uids(self, kind, since):
        with self.lock: return list((self.added if kind == "added" else self.removed)[since:])


def run_mode(command, shim, mode, warmup, count):
    """One fresh daemon; returns a dict of what was seen."""
    tmp = tempfile.mkdtemp(prefix="wc-nmallocs-")
    counter = tmp + "/mallocs"
    env = dict(os.environ, LD_PRELOAD=shim, COUNT_MALLOCS_FILE=counter)
    daemon, phone_path, harness_path = start_daemon(command, tmp, env=env)

    def allocations():
        time.sleep(0.06)  # the shim publishes every 20 ms
        with open(counter) as f: return int(f.read().strip() or 0)

    seen = {}
    try:
        wait_ready(daemon, phone_path, harness_path)
        clients = []
        follower = None
        if mode == "idle client":
            idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); idle.connect(harness_path)
            clients.append(idle)
        elif mode == "events":
            follower = EventsFollower(harness_path)
            clients.append(follower.sock)
        phone = subscribe(phone_path)
        seen["warmup missing"] = push(phone, 1, warmup)
        phone.serve(0.5)  # the last fetches answered, the motor patterns played out

        a0 = allocations()
        phone.serve(1.0)
        seen["idle"] = allocations() - a0

        before = follower.counts() if follower else None
        m0 = allocations()
        seen["missing"] = push(phone, warmup + 1, count)
        phone.serve(0.5)
        m1 = allocations()
        seen["allocations"] = m1 - m0
        if follower:
            time.sleep(0.1)
            added, removed, _ = follower.counts()
            seen["added"] = follower.uids("added", before[0])
            seen["removed"] = follower.uids("removed", before[1])
        if daemon.poll() is not None: sys.exit("the daemon exited with %d" % daemon.returncode)
        for c in clients: c.close()
    finally:
        stop(daemon)
        shutil.rmtree(tmp, ignore_errors=True)
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wristcore")
    ap.add_argument("--warmup", type=int, default=500)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--report-only", action="append", default=[], choices=["none", "idle client", "events"],
                    help="a mode whose count is printed, not checked")
    args = ap.parse_args()
    if args.warmup <= STORE: sys.exit("--warmup must be above %d (the store must be full and turning over)" % STORE)

    build = tempfile.mkdtemp(prefix="wc-nmallocs-shim-")
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    shim = build + "/count_mallocs.so"
    subprocess.check_call([compiler, "-shared", "-fPIC", "-O2", "-o", shim, here + "/count_mallocs.c", "-lpthread"])
    command = [os.path.abspath(args.wristcore)]
    with open(command[0], "rb") as f:
        if f.read(2) == b"#!":
            print("# note: %s is a script: the count is of everything it runs (under qemu-user, qemu's own allocations)"
                  % args.wristcore)
    print("# %s: %d notifications of warm-up, then %d counted, per mode (a fresh daemon each)"
          % (args.wristcore, args.warmup, args.count))
    for mode, title in [("none", "no harness client"), ("idle client", "a harness client connected, idle"),
                        ("events", "a harness client following events")]:
        seen = run_mode(command, shim, mode, args.warmup, args.count)
        n = seen["allocations"]
        print("# %s: %d allocations over %d notifications (%.4f per notification); one idle second after the warm-up: %d"
              % (title, n, args.count, n / args.count, seen["idle"]))
        check("%s: every notification fetched by the watch" % title, seen["warmup missing"] == 0 and seen["missing"] == 0,
              "(%d of the warm-up, %d counted, not fetched)" % (seen["warmup missing"], seen["missing"]))
        if mode == "events":
            first = args.warmup + 1
            want_added = list(range(first, first + args.count))
            want_removed = list(range(first - STORE, first + args.count - STORE))
            check("%s: it got every added and removed line" % title,
                  seen["added"] == want_added and seen["removed"] == want_removed,
                  "(%d added, %d removed lines; %d and %d expected)"
                  % (len(seen["added"]), len(seen["removed"]), len(want_added), len(want_removed)))
        if mode in args.report_only:
            print("# %s: not checked (--report-only)" % title)
        else:
            check("%s: 0 allocations per notification" % title, n == 0,
                  "(%d over %d notifications)" % (n, args.count))
    shutil.rmtree(build, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
