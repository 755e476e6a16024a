#!/usr/bin/env python3
"""Start-up time of the built daemon, as figures (no pass/fail; issue 23):

  - start-up to sockets ready: `wristcore run --board sim --phone unix:P
    --harness unix:H`, wall time from just before the spawn until both
    sockets accept a connection (connect() on each one not yet ready, every
    1 ms; the phone socket is SOCK_SEQPACKET, the harness one SOCK_STREAM;
    each probe connection is closed at once);
  - `wristcore --version`: spawn to exit;
  - for scale, spawn to exit of /bin/true (what spawning costs from Python).

Over N runs each (default 10), one line each: min / median / max in ms.
BINARY may be a wrapper script that runs the binary (an arm64 one under
qemu-user, Scripts/run-target.sh --wrapper): each daemon runs in its own
process group, which is sent SIGTERM (then SIGKILL) after the measurement.

usage: measure-startup.py path/to/wristcore [--runs N]
"""
import argparse, os, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

REPO = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # a source build's fonts: ./Fonts
TIMEOUT = 60.0  # seconds a run may take before it counts as failed (qemu-user is slow)


def try_connect(path, kind):
    s = socket.socket(socket.AF_UNIX, kind)
    try:
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


def stop_group(proc):
    """SIGTERM to the daemon's process group (a wrapper and what it runs), then SIGKILL."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if proc.poll() is not None: break
        try: os.killpg(proc.pid, sig)
        except ProcessLookupError: break
        try:
            proc.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    try: os.killpg(proc.pid, signal.SIGKILL)  # anything left in the group (a wrapper that did not exec)
    except ProcessLookupError: pass


def sockets_ready(command):
    """Milliseconds from spawn until both sockets accept a connection."""
    tmp = tempfile.mkdtemp(prefix="wc-startup-")
    phone, harness = tmp + "/phone.sock", tmp + "/harness.sock"
    argv = command + ["run", "--board", "sim", "--phone", "unix:" + phone, "--harness", "unix:" + harness,
                      "--log-level", "warning", "--state-dir", tmp]
    log = open(tmp + "/stderr", "w+")
    pending = {phone: socket.SOCK_SEQPACKET, harness: socket.SOCK_STREAM}
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                            start_new_session=True, cwd=REPO)
    try:
        while pending:
            for path, kind in list(pending.items()):
                if try_connect(path, kind): del pending[path]
            if not pending: break
            elapsed = time.perf_counter() - t0
            if proc.poll() is not None or elapsed > TIMEOUT:
                log.seek(0)
                sys.exit("%s: %s (%s)" % (" ".join(argv), "exited with %d" % proc.returncode if proc.returncode is not None
                                          else "sockets not ready after %.0f s" % TIMEOUT, log.read().strip()[-300:]))
            time.sleep(0.001)
        return (time.perf_counter() - t0) * 1000
    finally:
        stop_group(proc)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def spawn_to_exit(argv):
    t0 = time.perf_counter()
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          timeout=TIMEOUT, cwd=REPO)
    ms = (time.perf_counter() - t0) * 1000
    if proc.returncode != 0:
        sys.exit("%s: exited with %d (%s)" % (" ".join(argv), proc.returncode, proc.stderr.decode(errors="replace")[-300:]))
    return ms


def line(what, samples):
    print("%-40s min %8.1f ms  median %8.1f ms  max %8.1f ms  (%d runs)"
          % (what, min(samples), statistics.median(samples), max(samples), len(samples)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wristcore")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    if args.runs < 1: sys.exit("--runs must be at least 1")
    command = [os.path.abspath(args.wristcore)]
    if not os.access(command[0], os.X_OK): sys.exit("no executable at %s" % args.wristcore)
    real = os.path.realpath(args.wristcore)
    print("# %s%s, %d runs each" % (args.wristcore, "" if real == command[0] else " (%s)" % real, args.runs))
    line("start-up to sockets ready (run)", [sockets_ready(command) for _ in range(args.runs)])
    line("wristcore --version, spawn to exit", [spawn_to_exit(command + ["--version"]) for _ in range(args.runs)])
    true = shutil.which("true") or "/bin/true"
    line("/bin/true, spawn to exit (for scale)", [spawn_to_exit([true]) for _ in range(args.runs)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
