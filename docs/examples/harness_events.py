#!/usr/bin/env python3
"""Follow the watch's notifications and music from your own program.

Connects to the harness endpoint of `wristcore run --harness unix:PATH`,
asks for the `events` stream and prints one line per event; change
`react` to log, forward or act on them (a press is one more line on the
same socket: `press negative`).

usage: harness_events.py [HARNESS_SOCKET] [MAX_EVENTS]
"""
import json, socket, sys


def events(path):
    """Yields each event of the stream as a dict, until the watch goes."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    lines = s.makefile("rb")
    s.sendall(b"events\n")
    if lines.readline() != b"ok events\n":
        raise SystemExit(path + " is not a WristCore harness")
    print("following", path, file=sys.stderr, flush=True)
    for line in lines:
        yield json.loads(line)


def clock(ms):
    return "--:--" if ms is None else "%d:%02d" % (ms // 60000, ms // 1000 % 60)


def react(e):
    if e["event"] == "notification" and e["change"] == "removed":
        print("[removed] uid %d" % e["uid"], flush=True)
    elif e["event"] == "notification":
        who = e["appName"] or e["app"] or "?"
        body = " - " + e["message"] if e["message"] else ""
        loud = " (important)" if "important" in e["flags"] else ""
        print("[%s] uid %d %s: %s%s%s" % (e["change"], e["uid"], who, e["title"] or "", body, loud), flush=True)
    elif e["event"] == "media":
        print("[media] %s %s - %s (%s / %s)" % (e["state"], e["title"], e["artist"],
              clock(e["elapsedMs"]), clock(e["durationMs"])), flush=True)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/wc-harness.sock"
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    for n, e in enumerate(events(path), 1):
        react(e)
        if limit is not None and n >= limit:
            break


if __name__ == "__main__":
    main()
